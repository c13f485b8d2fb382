"""The built-in customer-service tools: httpx clients of the demo shop, with their policies.

Reads are cached as last-good data (per-tool TTL) and have a self-service fallback; writes send
an ``Idempotency-Key`` and are verified through the shop's key lookup when a response is lost;
the refund tool moves money and so always needs the customer's confirmation.

Over 400 lines on purpose: it is one registry, the shop's eleven tools each next to its output
model, policy, precheck, verification and fallback, so a tool's whole contract reads in one place.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Literal
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict

from helpdesk.degrade.errors import ErrorClass, Failure, FieldIssue, ToolInputError
from helpdesk.tools.context import RequestContext
from helpdesk.tools.refund_per_item import (
    PerItem,
    amounts_per_item,
    item_reason,
    reason_for_amount,
    refunded_for,
)
from helpdesk.tools.refund_shares import (
    REMAINING,
    SHARE_OWN,
    item_meant,
    items_named,
    own_words_or_all,
    products_elsewhere,
    resolve_share,
)
from helpdesk.tools.registry import LookupFn, PrecheckOutcome, ToolRegistry, VerifyOutcome
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus
from helpdesk.tools.shop_client import ShopClient

__all__ = ["build_shop_registry", "make_compensation"]

OrderStatus = Literal["pending", "paid", "shipped", "delivered", "cancelled"]
TicketCategory = Literal["after_sales", "handoff", "compensation", "complaint", "other"]
Priority = Literal["low", "normal", "high"]
FaqTopic = Literal[
    "returns",
    "exchange",
    "cancel_order",
    "shipping_fee",
    "delivery_times",
    "refund_time",
    "invoice",
    "warranty",
    "payment",
]


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class OrderItemOut(_Loose):
    sku: str
    quantity: int


class OrderOut(_Loose):
    """Core fields of an order: a 200 without them is a schema failure, not data."""

    order_id: str
    status: OrderStatus
    items: list[OrderItemOut]
    total: float


class OrderSummaryOut(_Loose):
    order_id: str
    status: OrderStatus


class OrdersOut(_Loose):
    orders: list[OrderSummaryOut]


class ShipmentOut(_Loose):
    carrier: str
    tracking_number: str
    status: str


class TrackingOut(_Loose):
    order_id: str
    shipments: list[ShipmentOut]


class WarehouseOut(_Loose):
    warehouse: str
    available: int


class StockOut(_Loose):
    sku: str
    total_available: int
    warehouses: list[WarehouseOut]


class ProductOut(_Loose):
    sku: str
    name: str


class ProductsOut(_Loose):
    products: list[ProductOut]


class FaqArticleOut(_Loose):
    question: str
    answer: str


class FaqOut(_Loose):
    articles: list[FaqArticleOut]


class TicketOut(_Loose):
    ticket_id: str
    status: str


class TicketsOut(_Loose):
    tickets: list[TicketOut]


class RefundOut(_Loose):
    refund_id: str
    amount: float
    status: str


class RefundsOut(_Loose):
    refunds: list[RefundOut]


def _self_service(hotline: str, what: str) -> Any:
    def fallback(args: dict[str, Any], failure: Failure) -> dict[str, Any]:
        return {"message_key": "self_service", "what": what, "hotline": hotline, **args}

    return fallback


async def _look_up_order(order_id: Any, lookup: LookupFn) -> tuple[dict[str, Any] | None, Any]:
    """The order behind a confirm-first action: (order, refusal) — one of them set, or neither
    when the shop cannot be asked right now."""
    looked: ToolResult = await lookup("get_order", {"order_id": order_id})
    if looked.status is ToolStatus.FAILED and looked.error_class is ErrorClass.BUSINESS:
        data = looked.data if isinstance(looked.data, dict) else {}
        return None, {"code": data.get("code", "order_not_found"), "message": looked.reason}
    if looked.status is ToolStatus.OK and isinstance(looked.data, dict):
        return looked.data, None
    return None, None


IF_UNPAID = "if_unpaid"
ITEMS_SAID = "items_said"
"""A cancel's own words, when they name things rather than the order ("cancel the phone"):
checked against the order's items before the customer is asked; never sent."""
DESCRIBED_SAID = "described_said"
"""A cancel's words when they name the order by its number and describe it by a product ("cancel
100904 the phone order"): checked against the order's items (the number and the words must
agree) before the customer is asked; never sent."""
KEPT_SAID = "kept_said"
"""The words of the message keeping a thing beside a cancel ("cancel the monitor order but keep
the phone one"): when the thing kept is in the order to cancel, nothing is asked; never sent."""
"""A cancel's argument: cancel only if the order is still unpaid ("要是没付就取消吧", "if I haven't
paid for it yet, cancel it") — the shop cancels a paid order too, so the precheck checks it."""


async def _cancel_precheck(args: dict[str, Any], lookup: LookupFn) -> PrecheckOutcome:
    """No "are you sure?" for an order that is not theirs or can no longer be cancelled, nor
    for one asked to be cancelled only if unpaid (:data:`IF_UNPAID`) that is paid."""
    only_if_unpaid = bool(args.pop(IF_UNPAID, False))
    said = args.pop(ITEMS_SAID, None)
    kept_said = args.pop(KEPT_SAID, None)
    described = args.pop(DESCRIBED_SAID, None)
    order, refusal = await _look_up_order(args.get("order_id"), lookup)
    if refusal is not None:
        return PrecheckOutcome(refusal=refusal)
    stray = await _described_elsewhere(order, described, lookup)
    if stray:
        # "cancel 100904 the phone order": the number and the words disagree — which, asked
        return PrecheckOutcome(
            refusal={
                "code": "cancel_not_in_order",
                "message": "the words describe a product this order does not hold",
                "status": (order or {}).get("status", ""),
                "error_class": ErrorClass.BUSINESS.value,
                "not_in_order": stray,
                "items": _item_names(order),
            }
        )
    kept = _items_left_by_a_part_cancel(order, said) or _items_kept_in_it(order, kept_said)
    if kept:
        # "cancel the phone" (its order found by the phone): an order is cancelled whole —
        # never the monitor beside it on a hurried yes; what cancelling would take is said
        return PrecheckOutcome(
            refusal={
                "code": "cancel_part",
                "message": "orders are cancelled whole: the words name only some of its items",
                "status": (order or {}).get("status", ""),
                "error_class": ErrorClass.BUSINESS.value,
                "items": kept,
            }
        )
    if only_if_unpaid and (order is None or order.get("status") != "pending"):
        # the condition is not met (or cannot be checked right now): nothing is asked; what is
        # asked about and run after a yes never carries the condition
        status = (order or {}).get("status", "")
        return PrecheckOutcome(
            refusal={
                "code": "cancel_condition_not_met",
                "message": f"order {args.get('order_id')} is {status or 'not known to be unpaid'}",
                "status": status,
            }
        )
    if order is not None and order.get("cancellable") is False:
        status = order.get("status", "")
        return PrecheckOutcome(
            refusal={
                "code": "not_cancellable",
                "message": f"order {args.get('order_id')} is {status}",
                "status": status,
            }
        )
    if order is not None and order.get("status") == "paid":
        # cancelling a paid order refunds what was paid: the question says how much
        paid = order.get("refundable_amount", order.get("total"))
        if paid is not None:
            return PrecheckOutcome(
                args=args,
                data={"status": "paid", "refund_on_cancel": paid, "items": _item_names(order)},
            )
    # (the question names every item when there are several: "the phone order" is all of it)
    return PrecheckOutcome(args=args, data={"items": _item_names(order)} if order else {})


async def _described_elsewhere(
    order: dict[str, Any] | None, said: Any, lookup: LookupFn
) -> list[dict[str, str]] | None:
    """The products a cancel's words name that its order does not hold, when they name the
    order by its number and none of its items ("cancel 100904 the phone order" on the air
    fryer's order; an order found by the words themselves is theirs)."""
    if order is None or not isinstance(said, str) or str(order.get("order_id")) not in said:
        return None
    if item_meant(order, said)[0] is not None:
        return None
    return await _named_elsewhere(order, said, lookup)


def _item_names(order: dict[str, Any] | None) -> list[dict[str, str]]:
    items = [i for i in (order or {}).get("items") or () if isinstance(i, dict)]
    return [{"en": str(i.get("name") or ""), "zh": str(i.get("name_zh") or "")} for i in items]


def _items_left_by_a_part_cancel(order: dict[str, Any] | None, said: Any) -> list[dict[str, str]]:
    """The order's items (names by language) when ``said`` singles out only some of them (a
    cancel of "the phone" on a phone + monitor order); empty otherwise."""
    items = [i for i in (order or {}).get("items") or () if isinstance(i, dict)]
    if not isinstance(said, str) or not said.strip() or len(items) < 2:
        return []
    item, _ = item_meant(order or {}, said)
    if item is None or len(items_named(order or {}, said)) >= len(items):
        return []
    return _item_names(order)


def _items_kept_in_it(order: dict[str, Any] | None, kept_said: Any) -> list[dict[str, str]]:
    """The order's items (names by language) when the words kept beside the cancel ("keep the
    phone one") name one of them: the customer believes it is elsewhere, and a yes would cancel
    it too. Empty otherwise."""
    items = [i for i in (order or {}).get("items") or () if isinstance(i, dict)]
    if not isinstance(kept_said, str) or not kept_said.strip() or len(items) < 2:
        return []
    named = items_named(order or {}, kept_said)
    if not named or len(named) >= len(items):
        return []
    return _item_names(order)


async def _refund_precheck(args: dict[str, Any], lookup: LookupFn) -> PrecheckOutcome:
    """A refund is asked about with its exact amount: "everything refundable" becomes that
    amount, a share ("half", "30%") its exact part; more than refundable (or nothing
    refundable) is refused with the maximum."""
    share = args.pop("share", None)
    share_of = args.pop("share_of", None)
    share_own = args.pop(SHARE_OWN, None)
    if args.get("reason") and args.get("amount") is not None:
        # asked again at another amount: what the money is for is said again or dropped
        args["reason"] = reason_for_amount(args["reason"], float(args["amount"]))
    outcome = await _refund_outcome(args, lookup, share, share_of, share_own)
    if outcome.refusal is None and outcome.args is None:
        # what is asked about (and run after a yes) never carries the share's words
        return replace(outcome, args=args)
    return outcome


async def _refund_outcome(
    args: dict[str, Any], lookup: LookupFn, share: Any, share_of: Any, share_own: Any = None
) -> PrecheckOutcome:
    order, refusal = await _look_up_order(args.get("order_id"), lookup)
    if refusal is not None:
        return PrecheckOutcome(refusal=refusal)
    if order is not None and order.get("status") == "pending":
        # "100904整单退了吧 不想要了": nothing was paid — no refund; not wanted, it is cancelled
        return PrecheckOutcome(
            refusal={
                "code": "refund_unpaid",
                "message": "the order is not paid: there is nothing to refund; cancel it instead",
                "status": "pending",
                "error_class": ErrorClass.BUSINESS.value,
            }
        )
    if order is not None and args.get("reason") and args.get("amount") is not None:
        args["reason"] = reason_for_amount(args["reason"], float(args["amount"]), order)
    if order is not None and share_of and share_of != REMAINING and share_own:
        share_of = own_words_or_all(order, str(share_own), str(share_of))
    if order is not None and share_of and share_of != REMAINING and args.get("amount") is None:
        stray = await _named_elsewhere(order, str(share_of), lookup)
        if stray is not None:
            # "refund the phone from 100200": never the whole order (nor a share of it) for
            # a product it does not hold — asked how much, or which order was meant
            return PrecheckOutcome(
                refusal={
                    "code": "amount_unknown",
                    "message": "the words name a product this order does not hold",
                    "refundable_amount": order.get("refundable_amount"),
                    "error_class": ErrorClass.BUSINESS.value,
                    "ask_amount": True,
                    "not_in_order": stray,
                    "items": _item_names(order),
                }
            )
    if share is not None:
        return _share_outcome(args, order, float(share), share_of)
    amount = args.get("amount")
    if amount is None and share_of and order is not None:
        # "refund just the thermos from 100200": that item's price, never the whole order
        item, named = item_meant(order, str(share_of))
        if item is not None or named:
            return _share_outcome(args, order, 1.0, share_of)
    per_item = (
        amounts_per_item(order, str(share_of), items_named, float(amount))
        if amount is not None and share_of and order is not None
        else None
    )
    if per_item is not None and order is not None:
        # "refund 100 for the thermos and 200 for the air fryer": what they add up to, or
        # asked — never one of the amounts with the others dropped
        if not per_item.placed:
            return PrecheckOutcome(refusal=await _per_item_unplaced(order, per_item, lookup))
        amount = per_item.total
        # (the shop's record says what the money is for; an answer to the question can tell
        # it was asked per thing)
        said = item_reason([(name, money) for name, _, money in per_item.parts])
        args = {**args, "amount": amount, "reason": args.get("reason") or said}
    elif amount is not None and share_of and order is not None:
        # "refund 200 for the thermos in 100200": never more for one item than it cost
        too_much = _more_than_the_item(order, float(amount), str(share_of))
        if too_much is not None:
            return PrecheckOutcome(refusal=too_much)
        args = _with_item_reason(args, order, float(amount), str(share_of))
    if order is None:
        if amount is None:
            # the exact amount cannot be stated, so it cannot be asked about
            return PrecheckOutcome(
                refusal={
                    "code": "amount_unknown",
                    "message": "the refundable amount could not be checked",
                    "error_class": ErrorClass.UNAVAILABLE.value,
                }
            )
        return PrecheckOutcome()
    remaining = order.get("refundable_amount")
    if order.get("refundable") is False or (remaining is not None and float(remaining) <= 0):
        return PrecheckOutcome(
            refusal={
                "code": "not_refundable",
                "message": f"order {args.get('order_id')} has nothing refundable",
                "refundable_amount": remaining or 0,
                "status": order.get("status", ""),
            }
        )
    if remaining is None:
        return PrecheckOutcome()
    if order.get("status") == "paid" and (amount is None or float(amount) >= float(remaining)):
        # "100998整单退了吧 不想要了": a paid order not shipped yet is cancelled, never refunded
        # whole (a refund would leave it to ship); a part ("refund the phone") stays a refund
        return PrecheckOutcome(
            refusal={
                "code": "refund_unshipped",
                "message": "the order has not shipped: cancelling it refunds everything paid",
                "refundable_amount": remaining,
                "status": "paid",
                "error_class": ErrorClass.BUSINESS.value,
            }
        )
    if amount is not None and float(amount) > float(remaining):
        return PrecheckOutcome(refusal=_more_than_refundable(remaining))
    facts: dict[str, Any] = {"refundable_amount": remaining, "full": amount is None}
    if amount is None:
        return PrecheckOutcome(args={**args, "amount": round(float(remaining), 2)}, data=facts)
    if per_item is not None:
        facts["per_item"] = [
            {"item": en, "item_zh": zh, "amount": a} for en, zh, a in per_item.parts
        ]
    return PrecheckOutcome(args=args, data=facts)


def _more_than_refundable(remaining: Any) -> dict[str, Any]:
    """The refusal of more than the order's refundable ``remaining``: the reply tells the most
    and asks how much, so the next answer ("797", "那就500") is read as the amount."""
    return {
        "code": "amount_too_large",
        "message": f"at most {remaining} can be refunded",
        "refundable_amount": remaining,
        "ask_amount": float(remaining or 0) > 0,
    }


async def _per_item_unplaced(
    order: dict[str, Any], per_item: PerItem, lookup: LookupFn
) -> dict[str, Any]:
    """The refusal (a question) of amounts said per thing that are not each one item of the
    order within what it cost: the things it does not hold, the most for an item, or how
    much — with the order's items to choose from."""
    remaining = order.get("refundable_amount")
    if per_item.over is not None and not per_item.unnamed and not per_item.unclear:
        name, name_zh, cost, asked = per_item.over
        most = min(cost, float(remaining)) if remaining is not None else cost
        return {
            "code": "amount_too_large",
            "message": f"at most {most} can be refunded for {name}",
            "refundable_amount": remaining,
            "item_max": most,
            "asked": asked,
            "share_item": name,
            "share_item_zh": name_zh,
            "error_class": ErrorClass.BUSINESS.value,
            "ask_amount": True,
        }
    refusal: dict[str, Any] = {
        "code": "amount_unknown",
        "message": "the amounts said per thing are not each one item of this order",
        "refundable_amount": remaining,
        "error_class": ErrorClass.BUSINESS.value,
        "ask_amount": True,
        "items": _item_names(order),
    }
    elsewhere: list[dict[str, str]] = []
    for thing in per_item.unnamed:
        # (named as the shop names it, and only when the shop says it is a product at all:
        # "2 for the delay" is none)
        elsewhere.extend(await _named_elsewhere(order, thing, lookup) or ())
    if elsewhere:
        refusal["not_in_order"] = elsewhere
    return refusal


_ANOTHER_TOO = re.compile(r"也|还有|以及|\b(?:also|as well|too|both|plus)\b", re.IGNORECASE)


def _more_than_the_item(order: dict[str, Any], amount: float, words: str) -> dict[str, Any] | None:
    """The refusal of ``amount`` for the one item of the order ``words`` single out, when it
    is more than that item cost (or than is left on the order): it says the most for the item
    and asks how much; None when the words single out no item or the amount fits."""
    named = items_named(order, words)
    if not named or (len(named) == 1 and _ANOTHER_TOO.search(words)):
        # "…保温杯也漏水 退500": another thing too, what they cost together is not said
        return None
    # (the things listed, "600 for the air fryer and thermos", are one item costing their sum)
    item, _ = item_meant(order, words)
    price = resolve_share(order, 1.0, words) if item is not None else None
    if price is None or price.item is None:
        return None
    remaining = order.get("refundable_amount")
    left = max(price.amount - float(refunded_for(order, str(price.item))), 0.0)
    most = min(left, float(remaining)) if remaining is not None else left
    if amount <= most:
        return None
    return {
        "code": "amount_too_large",
        "message": f"at most {most} can be refunded for {price.item}",
        "refundable_amount": remaining,
        "item_max": most,
        "asked": amount,
        "share_item": price.item,
        "share_item_zh": price.item_zh,
        "error_class": ErrorClass.BUSINESS.value,
        "ask_amount": True,
    }


def _with_item_reason(
    args: dict[str, Any], order: dict[str, Any], amount: float, words: str
) -> dict[str, Any]:
    """``args`` with the reason "per item: <amount> <item>" when the words single out one item
    of the order (so a later refund of it is capped by what is left of it)."""
    if args.get("reason") or len(items_named(order, words)) != 1:
        return args
    item, _ = item_meant(order, words)
    price = resolve_share(order, 1.0, words) if item is not None else None
    if price is None or price.item is None:
        return args
    return {**args, "reason": item_reason([(str(price.item), amount)])}


async def _named_elsewhere(
    order: dict[str, Any], words: str, lookup: LookupFn
) -> list[dict[str, str]] | None:
    """The products ``words`` name that the order does not hold (see
    :func:`~helpdesk.tools.refund_shares.products_elsewhere`); None when they name none, name
    an item of it, or the shop cannot say right now (nothing is refused on a guess)."""
    if not words.strip():
        return None
    # (asked of the shop even when a word of an item's name is said: "100609 air fryer refund"
    # shares "air" with the Air Purifier, but names the Air Fryer)
    looked: ToolResult = await lookup("list_orders", {"product": words})
    if looked.status is not ToolStatus.OK:
        return None
    return products_elsewhere(order, looked.data)


def _share_outcome(
    args: dict[str, Any], order: dict[str, Any] | None, share: float, share_of: Any
) -> PrecheckOutcome:
    """A refund of a share made exact — or refused (asked) when the order cannot be looked up,
    the share is no share, or the words name an item of the order without saying which."""
    remaining = (order or {}).get("refundable_amount")
    resolved = (
        resolve_share(order, share, str(share_of) if share_of else None)
        if order is not None and 0 < share <= 1
        else None
    )
    if resolved is None or remaining is None or resolved.amount <= 0:
        return PrecheckOutcome(
            refusal={
                "code": "amount_unknown",
                "message": "the share of the order to refund could not be made exact",
                "refundable_amount": remaining,
                "error_class": ErrorClass.BUSINESS.value,
                "ask_amount": True,
            }
        )
    if float(remaining) <= 0:
        return PrecheckOutcome(
            refusal={
                "code": "not_refundable",
                "message": f"order {args.get('order_id')} has nothing refundable",
                "refundable_amount": 0,
                "status": (order or {}).get("status", ""),
            }
        )
    if resolved.amount > float(remaining):
        return PrecheckOutcome(refusal=_more_than_refundable(remaining))
    facts = {
        "refundable_amount": remaining,
        "full": False,
        "share": share,
        "share_base": resolved.base,
        "share_item": resolved.item,
        "share_item_zh": resolved.item_zh,
        "share_of_remaining": share_of == REMAINING,
    }
    asked = {**args, "amount": resolved.amount}
    if resolved.item is not None and order is not None:
        already = float(refunded_for(order, resolved.item))
        if already > 0 and share >= 1:
            # "refund the thermos" after ¥100 of it was refunded: what is left of it
            left = round(max(resolved.base - already, 0.0), 2)
            if left <= 0:
                return PrecheckOutcome(
                    refusal={
                        "code": "amount_too_large",
                        "message": f"at most 0 can be refunded for {resolved.item}",
                        "refundable_amount": remaining,
                        "item_max": 0.0,
                        "asked": resolved.amount,
                        "share_item": resolved.item,
                        "share_item_zh": resolved.item_zh,
                        "error_class": ErrorClass.BUSINESS.value,
                        "ask_amount": True,
                    }
                )
            asked["amount"] = min(left, resolved.amount)
        asked.setdefault("reason", None)
        if not asked.get("reason"):
            asked["reason"] = item_reason([(resolved.item, float(asked["amount"]))])
    return PrecheckOutcome(args=asked, data=facts)


async def _ticket_precheck(args: dict[str, Any], lookup: LookupFn) -> PrecheckOutcome:
    """A ticket about an order that is not the customer's is refused before anything is asked
    ("complaint about order 100452": the shop would refuse it after the yes). A ticket for an
    order whose own ticket is still being worked on names the open one in its question; a
    complaint flagged ``if_no_open_ticket`` is then not offered — the open ticket is named
    instead."""
    only_if_none = bool(args.pop("if_no_open_ticket", False))
    if not args.get("order_id"):
        return PrecheckOutcome(args=args)
    order, refusal = await _look_up_order(args["order_id"], lookup)
    if refusal is not None:
        return PrecheckOutcome(refusal=refusal)
    listed = (order or {}).get("open_tickets") or ()
    open_tickets = [
        t
        for t in listed
        if isinstance(t, dict)
        and t.get("ticket_id")
        # a transfer to a person or a compensation check is no case about the order itself
        and t.get("category") not in ("handoff", "compensation")
    ]
    if not open_tickets:
        return PrecheckOutcome(args=args)
    first = open_tickets[0]
    known = {"ticket_id": first["ticket_id"], "status": first.get("status", "open")}
    if not only_if_none:
        return PrecheckOutcome(args=args, data={"open_ticket": known})
    return PrecheckOutcome(
        refusal={
            "code": "ticket_open",
            "message": f"ticket {first['ticket_id']} about order {args['order_id']} is open",
            **known,
        }
    )


def _key_lookup(client: ShopClient, tool: str) -> Any:
    async def verify(args: dict[str, Any], key: str, customer: str | None) -> VerifyOutcome:
        import httpx

        try:
            record = await client.call(
                "GET", f"/idempotency/{key}", tool=f"{tool}.verify", customer=customer
            )
        except httpx.HTTPStatusError as exc:
            if exc.response.status_code == 404:
                return VerifyOutcome(executed=False)
            raise
        status = int(record.get("status_code", 500))
        if 200 <= status < 300:
            return VerifyOutcome(executed=True, data=record.get("response"))
        # the write arrived and the shop said no (404/409/422 are stored outcomes too)
        return VerifyOutcome(executed=False, data=record.get("response"), refused=status < 500)

    return verify


READ_TIMEOUT_S = 1.5
"""Per-attempt timeout of the shop's reads. The shop answers a read in milliseconds (its
overload queue adds at most 0.75 s); a read still silent after 1.5 s is hung, and a fast
retry fits the 8 s request budget where a 3 s wait and its retry (6 s) did not."""


def build_shop_registry(client: ShopClient, *, hotline: str = "400-820-8820") -> ToolRegistry:
    """A registry with every built-in tool bound to ``client``."""
    registry = ToolRegistry()

    @registry.tool(
        kind="read",
        timeout=READ_TIMEOUT_S,
        cache_ttl=120.0,
        output=OrderOut,
        fallback=_self_service(hotline, "order"),
    )
    async def get_order(order_id: str, customer: str | None = None) -> Any:
        """Look up one of the customer's orders: status, items, shipments, refunds."""
        return await client.call("GET", f"/orders/{order_id}", tool="get_order", customer=customer)

    @registry.tool(
        kind="read",
        timeout=READ_TIMEOUT_S,
        cache_ttl=60.0,
        output=OrdersOut,
        simplify=lambda a: {**a, "status": None, "limit": 5} if a.get("status") else None,
        fallback=_self_service(hotline, "orders"),
    )
    async def list_orders(
        status: OrderStatus | None = None,
        limit: int = 5,
        product: str | None = None,
        refund: str | None = None,
        total: float | None = None,
        tracking: str | None = None,
        refunded: float | None = None,
        left: float | None = None,
        ticket: str | None = None,
        context: str | None = None,
        every: bool = False,
        customer: str | None = None,
    ) -> Any:
        """List the customer's most recent orders, optionally by status, or only those holding
        the product a customer's words name (``product``: "my air fryer order"), the one a
        refund of theirs is of (``refund``: "R-000094"), those of a total (``total``: "the
        797 order"), the one a parcel is of (``tracking``: "SF5969721286"), those with a
        refund of an amount (``refunded``: "the 433 you refunded"), with an amount not yet
        refunded (``left``: "the 866 that's left") or the one a ticket of theirs is about
        (``ticket``: "T-000031"); ``context``: words told before ``product``'s, read only when
        those name none of the customer's products ("…the display flickers. open a repair
        ticket for it"); ``every``: the orders of every product ``product`` names, not only of
        the most strongly named ("the air fryer … and the cameras … where are they?")."""
        params: dict[str, Any] = {"status": status, "limit": limit}
        if product and product.strip():
            params["product"] = product.strip()[:200]
            if every:
                params["every"] = "true"
            if context and context.strip():
                params["context"] = context.strip()[:200]
        elif refund and refund.strip():
            params["refund"] = refund.strip().upper()[:8]
        elif total is not None and total > 0:
            params["total"] = f"{total:.2f}"
        elif tracking and tracking.strip():
            params["tracking"] = tracking.strip().upper()[:12]
        elif refunded is not None and refunded > 0:
            params["refunded"] = f"{refunded:.2f}"
        elif left is not None and left > 0:
            params["left"] = f"{left:.2f}"
        elif ticket and ticket.strip():
            params["ticket"] = ticket.strip().upper()[:8]
        return await client.call(
            "GET", "/orders", tool="list_orders", customer=customer, params=params
        )

    @registry.tool(
        kind="read",
        timeout=READ_TIMEOUT_S,
        cache_ttl=120.0,
        output=TrackingOut,
        fallback=_self_service(hotline, "tracking"),
    )
    async def track_shipment(
        order_id: str | None = None,
        tracking_number: str | None = None,
        product: str | None = None,
        customer: str | None = None,
    ) -> Any:
        """Shipments of an order with carrier, tracking number, ETA and tracking events: by the
        order id, by one of its tracking numbers (SF/YT + 10 digits), or by a product the
        customer bought ("headphones": their latest order holding it, still on its way first)."""
        params: dict[str, str] | None = None
        if order_id:
            path = f"/orders/{quote(order_id.strip(), safe='')}/tracking"
        elif tracking_number:
            path = f"/tracking/{quote(tracking_number.strip().upper(), safe='')}"
        elif product and product.strip():
            path, params = "/tracking", {"product": product.strip()[:200]}
        else:
            raise ToolInputError(
                "track_shipment needs an order_id, a tracking_number or a product",
                issues=(
                    FieldIssue(path="order_id", message="give an order id or a tracking number"),
                ),
            )
        return await client.call(
            "GET", path, tool="track_shipment", customer=customer, params=params
        )

    @registry.tool(
        kind="read",
        timeout=READ_TIMEOUT_S,
        cache_ttl=60.0,
        output=TicketOut,
        core=False,
        fallback=_self_service(hotline, "ticket_status"),
    )
    async def get_ticket(ticket_id: str, customer: str | None = None) -> Any:
        """One of the customer's support tickets (T-000123): subject, order, status, when opened."""
        path = f"/tickets/{quote(ticket_id.strip().upper(), safe='')}"
        return await client.call("GET", path, tool="get_ticket", customer=customer)

    @registry.tool(
        kind="read",
        timeout=READ_TIMEOUT_S,
        cache_ttl=60.0,
        output=TicketsOut,
        core=False,
        fallback=_self_service(hotline, "ticket_status"),
    )
    async def list_tickets(limit: int = 5, customer: str | None = None) -> Any:
        """The customer's support tickets, newest first ("any update on my complaint?")."""
        params = {"limit": max(1, min(int(limit), 20))}
        return await client.call(
            "GET", "/tickets", tool="list_tickets", customer=customer, params=params
        )

    @registry.tool(
        kind="read",
        timeout=READ_TIMEOUT_S,
        cache_ttl=60.0,
        output=RefundsOut,
        core=False,
        fallback=_self_service(hotline, "refund_status"),
    )
    async def list_refunds(limit: int = 5, customer: str | None = None) -> Any:
        """The customer's refunds, newest first, each with its order, amount and state ("where's
        my refund?" naming no order)."""
        params = {"limit": max(1, min(int(limit), 20))}
        return await client.call(
            "GET", "/refunds", tool="list_refunds", customer=customer, params=params
        )

    @registry.tool(
        kind="read",
        timeout=READ_TIMEOUT_S,
        cache_ttl=300.0,
        output=StockOut,
        core=False,
        fallback=_self_service(hotline, "stock"),
    )
    async def check_stock(sku: str, customer: str | None = None) -> Any:
        """Stock of a product (SKU) per warehouse, with a restock date when sold out."""
        return await client.call("GET", f"/inventory/{sku}", tool="check_stock", customer=customer)

    @registry.tool(
        kind="read",
        timeout=READ_TIMEOUT_S,
        cache_ttl=300.0,
        output=ProductsOut,
        core=False,
        fallback=_self_service(hotline, "stock"),
    )
    async def search_products(q: str, customer: str | None = None) -> Any:
        """Find products by name (English or Chinese), with whether each is in stock."""
        return await client.call(
            "GET", "/products", tool="search_products", customer=customer, params={"q": q}
        )

    @registry.tool(
        kind="read",
        timeout=READ_TIMEOUT_S,
        cache_ttl=300.0,
        output=FaqOut,
        core=False,
        simplify=lambda a: {**a, "q": None} if a.get("q") and a.get("topic") else None,
        fallback=_self_service(hotline, "faq"),
    )
    async def search_faq(
        q: str | None = None,
        topic: FaqTopic | None = None,
        lang: Literal["zh", "en"] = "en",
        customer: str | None = None,
    ) -> Any:
        """Search the help center (returns policy, delivery times, refunds, invoices...)."""
        return await client.call(
            "GET",
            "/faq",
            tool="search_faq",
            customer=customer,
            params={"q": q, "topic": topic, "lang": lang},
        )

    @registry.tool(
        kind="write",
        idempotent=True,
        timeout=4.0,
        output=TicketOut,
        verify=_key_lookup(client, "create_ticket"),
        precheck=_ticket_precheck,
    )
    async def create_ticket(
        subject: str,
        description: str,
        category: TicketCategory = "after_sales",
        order_id: str | None = None,
        priority: Priority = "normal",
        if_no_open_ticket: bool = False,
        customer: str | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """Open an after-sales ticket (damaged item, exchange, complaint). A complaint with
        ``if_no_open_ticket`` is not filed beside the order's open ticket (that one is named)."""
        body = {
            "category": category,
            "subject": subject,
            "description": description,
            "order_id": order_id,
            "priority": priority,
            "facts": None,
        }
        return await client.call(
            "POST",
            "/tickets",
            tool="create_ticket",
            customer=customer,
            json=body,
            idempotency_key=idempotency_key,
        )

    @registry.tool(
        kind="write",
        idempotent=True,
        confirm=True,
        timeout=4.0,
        output=OrderOut,
        verify=_key_lookup(client, "cancel_order"),
        precheck=_cancel_precheck,
    )
    async def cancel_order(
        order_id: str,
        reason: str | None = None,
        if_unpaid: bool | None = None,
        items_said: str | None = None,
        kept_said: str | None = None,
        described_said: str | None = None,
        customer: str | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """Cancel an order that has not shipped yet (asks the customer to confirm first).

        ``if_unpaid``: only if the order is still unpaid — checked before the customer is
        asked (:data:`IF_UNPAID`); what is asked about and run never carries it."""
        return await client.call(
            "POST",
            f"/orders/{order_id}/cancel",
            tool="cancel_order",
            customer=customer,
            json={"reason": reason},
            idempotency_key=idempotency_key,
        )

    @registry.tool(
        kind="money",
        idempotent=True,
        timeout=4.0,
        output=RefundOut,
        verify=_key_lookup(client, "request_refund"),
        precheck=_refund_precheck,
    )
    async def request_refund(
        order_id: str,
        amount: float | None = None,
        reason: str | None = None,
        share: float | None = None,
        share_of: str | None = None,
        share_own: str | None = None,
        customer: str | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """Request a refund for an order (full remaining amount when no amount is given).

        ``share`` (0-1, with ``share_of``: "remaining" or the customer's words naming an item)
        asks for a part ("refund half"); the confirmation question states it as an exact
        amount, and only that exact amount is ever sent to the shop."""
        if share is not None or share_of is not None or share_own is not None:
            # a share is made exact before the customer is asked; never sent as "no amount",
            # which the shop reads as everything refundable
            raise ToolInputError(
                "request_refund: a share must be made exact before it is confirmed",
                issues=(FieldIssue(path="share", message="confirm an exact amount"),),
            )
        return await client.call(
            "POST",
            "/refunds",
            tool="request_refund",
            customer=customer,
            json={"order_id": order_id, "amount": amount, "reason": reason},
            idempotency_key=idempotency_key,
        )

    @registry.tool(
        kind="write",
        idempotent=True,
        timeout=4.0,
        output=TicketOut,
        verify=_key_lookup(client, "handoff_to_human"),
    )
    async def handoff_to_human(
        summary: str,
        order_id: str | None = None,
        facts: dict[str, Any] | None = None,
        customer: str | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """Hand the conversation to a human agent: a handoff ticket with the session's facts."""
        body = {
            "category": "handoff",
            "subject": "Customer asked for a human" if not summary else summary[:120],
            "description": summary,
            "order_id": order_id,
            "priority": "high",
            "facts": facts,
        }
        return await client.call(
            "POST",
            "/tickets",
            tool="handoff_to_human",
            customer=customer,
            json=body,
            idempotency_key=idempotency_key,
        )

    return registry


def make_compensation(client: ShopClient) -> Any:
    """A compensation hook for the executor: files a ticket for a write of unknown outcome."""

    async def compensate(call: ToolCall, key: str, reason: str, ctx: RequestContext) -> str | None:
        body = {
            "category": "compensation",
            "subject": f"Verify {call.name} (outcome unknown)",
            "description": f"{call.name} {call.args} — response lost: {reason}",
            "order_id": call.args.get("order_id"),
            "priority": "high",
            "facts": {"idempotency_key": key, "session": ctx.session, "turn": ctx.turn},
        }
        ticket = await client.call(
            "POST",
            "/tickets",
            tool="compensation",
            customer=ctx.customer,
            json=body,
            idempotency_key=f"{key}-compensation",
        )
        return str(ticket["ticket_id"])

    return compensate
