"""The demo shop's reply wording: one honest paragraph per shop request, filled with real data.

:class:`ShopReplies` is the shop pack's :class:`~helpdesk.graph.replies.PackReplies`: the generic
reply frame (:func:`helpdesk.graph.replies.render_reply`) hands it every built-in request and
every result of a shop tool. Every :class:`~helpdesk.tools.results.ToolStatus` has its own
wording: live data is shown as is (:mod:`.reply_data`); a tool's fallback is shown as a
self-service pointer, never as data; a failed lookup says it could not check (never "you have no
orders"); a business refusal quotes the shop's reason; a write of unknown outcome says so and
names the follow-up ticket. All wording comes from ``prompts/minimal/generate.<lang>.yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from helpdesk.graph.intents import MatchedIntent
from helpdesk.graph.prompting import render
from helpdesk.graph.replies import ReplyItem, Writer
from helpdesk.graph.request import RESOLVED
from helpdesk.packs.shop.identifiers import REFUND_MENTION
from helpdesk.packs.shop.intents import (
    ShopIntent,
    asks_cancellable,
    cancel_on_a_condition,
    kind_of,
    mentions_refund,
    order_of,
    sku_of,
)
from helpdesk.packs.shop.product_parts import LOOKED_UP
from helpdesk.packs.shop.refund_question import refund_question
from helpdesk.packs.shop.reply_data import (
    address_change_text,
    as_dict,
    as_str,
    faq_text,
    known_details,
    money,
    need,
    order_text,
    orders_text,
    tracking_text,
)
from helpdesk.packs.shop.reply_failures import (
    failed_text,
    lookup_failed,
    unknown_text,
    without_result,
)
from helpdesk.packs.shop.reply_kinds import (
    INTENT_KINDS,
    READ_KINDS,
    TOOL_KINDS,
    Kind,
    order_ref,
    what_of,
)
from helpdesk.packs.shop.reply_products import products_text, stock_text
from helpdesk.packs.shop.reply_records import refunds_text, ticket_text
from helpdesk.packs.shop.words import IF_LATE_BY, WRITE_HELD, complained, product_query
from helpdesk.tools.results import ToolResult, ToolStatus

__all__ = ["ShopReplies"]


_ORDER_ID = re.compile(r"^\d{6}$")

_SKU = re.compile(r"^SKU-\d+$", re.IGNORECASE)


def _kind_of(item: ReplyItem) -> Kind:
    result = item.result
    if result is not None and result.tool in TOOL_KINDS:
        return TOOL_KINDS[result.tool]
    return INTENT_KINDS.get(kind_of(item.intent), "other")


def _ask_refund_amount(w: Writer, match: MatchedIntent, result: ToolResult) -> str:
    """An amount that cannot be used ("-5", "12.345", "half"): ask, stating what is refundable."""
    order = as_dict(result.data)
    order_id = order_of(match) or as_str(order.get("order_id"))
    if not result.usable or order.get("refundable_amount") is None:
        w.trouble = True
        return w.say("part_unavailable", what=what_of(w, "refund", order_id, None))
    remaining = float(order["refundable_amount"])
    if remaining <= 0:
        return w.say("refund_ask_amount_none", order_id=order_id)
    if not match.amount_raw.strip():
        # no words to quote ("退一半 100200 和 100609": whose half?): which part, asked
        return w.say("refund_which_part", order_id=order_id, refundable=money(remaining))
    return w.say(
        "refund_ask_amount", order_id=order_id, refundable=money(remaining), raw=match.amount_raw
    )


def _ok(w: Writer, kind: Kind, match: MatchedIntent, result: ToolResult) -> str:
    data = result.data
    if match.capability == "change_address":
        return address_change_text(w, as_dict(data))
    if kind == "order":
        return order_text(
            w,
            as_dict(data),
            about_refund=mentions_refund(match.text),
            about_cancel=asks_cancellable(match.text)
            or cancel_on_a_condition(match.text, as_str(as_dict(data).get("order_id"))),
            words=match.text,
        )
    if kind == "orders":
        listed = orders_text(w, as_dict(data), about_refund=mentions_refund(match.text))
        named = REFUND_MENTION.search(match.text)
        if named:
            # "did R-999999 go through?": no order of theirs has that refund — said, then the list
            return "\n".join((w.say("refund_not_found", refund_id=named.group(0).upper()), listed))
        return listed
    if kind == "tracking":
        return tracking_text(w, as_dict(data), order_of(match))
    if kind == "stock" and result.tool == "search_products":
        part = match.text.strip() if match.args.get(LOOKED_UP) else ""
        return products_text(w, as_dict(data), product_query(match.text) or match.text, part=part)
    if kind == "stock":
        return stock_text(w, as_dict(data), match.quantity)
    if kind == "faq":
        return faq_text(w, as_dict(data), match.topic)
    if kind == "ticket_status":
        return ticket_text(w, as_dict(data))
    if kind == "refund_status":
        return refunds_text(w, as_dict(data))
    if kind == "cancel":
        order = as_dict(data)
        order_id = as_str(order.get("order_id")) or need(order_of(match))
        return w.say("cancel_done", order_id=order_id)
    if kind == "refund":
        refund = as_dict(data)
        return w.say(
            "refund_done",
            order_id=as_str(refund.get("order_id")) or need(order_of(match)),
            refund_id=need(as_str(refund["refund_id"])),
            amount=money(refund["amount"]),
        )
    if kind == "ticket":
        ticket_id = need(as_str(as_dict(data).get("ticket_id")) or result.ticket_id)
        ticket_order = as_str(as_dict(data).get("order_id")) or order_of(match)
        # a complaint filed is said to be one ("complaint ticket"), an after-sales case as such
        prefix = "complaint_" if as_str(as_dict(data).get("category")) == "complaint" else ""
        if ticket_order:
            return w.say(
                f"{prefix}ticket_created_order", ticket_id=ticket_id, order_id=ticket_order
            )
        return w.say(f"{prefix}ticket_created", ticket_id=ticket_id)
    if kind == "handoff":
        ticket_id = need(as_str(as_dict(data).get("ticket_id")) or result.ticket_id)
        return w.say("handoff_created", ticket_id=ticket_id)
    raise ValueError(f"no renderer for {kind}")


def _degraded(
    w: Writer,
    kind: Kind,
    match: MatchedIntent,
    result: ToolResult,
    order_id: str | None,
    sku: str | None,
) -> str:
    data = as_dict(result.data)
    if result.fallback or "message_key" in data:
        w.trouble = True
        hotline = as_str(data.get("hotline")) or w.hotline
        what = what_of(w, kind, order_id, sku)
        if data.get("url"):
            text = render(
                w.t["self_service_url"], what=what, url=as_str(data["url"]), hotline=hotline
            )
        else:
            text = render(w.t["self_service"], what=what, hotline=hotline)
        if result.ticket_id:
            text += "\n" + w.say("handoff_created", ticket_id=result.ticket_id)
        return text
    return _ok(w, kind, match, result) + "\n" + w.say("degraded_note")


def _confirm(
    w: Writer,
    kind: Kind,
    match: MatchedIntent,
    result: ToolResult,
    order_id: str | None,
    sku: str | None,
) -> str:
    """The exact question a confirm-first action waits on: the action, the object and, for
    money, the amount. A yes is only ever read as the answer to this text."""
    data = as_dict(result.data)
    args = as_dict(data.get("args")) or data
    order_id = as_str(args.get("order_id")) or order_id
    if kind == "cancel" and order_id:
        names = [
            as_str(as_dict(i).get(w.lang) or as_dict(i).get("en")) for i in data.get("items") or ()
        ]
        held = w.say(
            "cancel_holds",
            order_id=order_id,
            items="、".join(names) if w.lang == "zh" else ", ".join(names),
        )
        held = held + ("" if w.lang == "zh" else " ") if len(names) > 1 else ""  # and the monitor
        if data.get("refund_on_cancel") is not None:
            paid = money(data["refund_on_cancel"])
            return held + w.say("cancel_confirm_paid", order_id=order_id, amount=paid)
        return held + w.say("cancel_confirm", order_id=order_id)
    if kind == "ticket":
        # a complaint: acknowledged, and a ticket only if the customer says yes; a fault told
        # ("the air fryer stopped heating") is offered an after-sales ticket
        prefix = "complaint" if complained(match.args, match.text) else "fault"
        known = as_dict(data.get("open_ticket"))
        if order_id and known.get("ticket_id"):
            # the order's own ticket is still open: said, and another one asked about
            status = as_str(known.get("status")) or "open"
            return w.say(
                f"{prefix}_confirm_beside_open",
                order_id=order_id,
                ticket_id=as_str(known["ticket_id"]),
                status=w.label(f"ticket_status_{status}", status),
            )
        if order_id:
            return w.say(f"{prefix}_confirm_order", order_id=order_id)
        return w.say(f"{prefix}_confirm")
    if kind == "refund" and order_id:
        amount = args.get("amount")
        if amount is None:
            # never ask about an amount that is not stated
            return w.say("part_unavailable", what=what_of(w, kind, order_id, sku))
        return refund_question(w, order_id, amount, data)
    return w.say("confirm_generic", what=what_of(w, kind, order_id, sku))


def _pending_what(w: Writer, what: str) -> str:
    """``"cancel_order 100123"`` -> ``"取消订单 100123"`` (tool or intent name, then subject)."""
    head, _, rest = what.strip().partition(" ")
    kind: Kind = TOOL_KINDS.get(head) or "other"
    if kind == "other":
        kind = INTENT_KINDS.get(head, "other")
    subject = rest.strip()
    order_id = subject if _ORDER_ID.match(subject) else None
    sku = subject.upper() if _SKU.match(subject) else None
    return what_of(w, kind, order_id, sku)


def _order_id(match: MatchedIntent, result: ToolResult) -> str | None:
    data = as_dict(result.data)
    args = as_dict(data.get("args"))
    return order_of(match) or as_str(data.get("order_id") or args.get("order_id")) or None


def _body(w: Writer, item: ReplyItem) -> str:
    match, result = item.intent, item.result
    if result is None:
        return without_result(w, match)
    if (
        kind_of(match) is ShopIntent.REFUND
        and match.amount_kind == "invalid"
        and result.tool != "request_refund"
        # (an order that is not the customer's, or a look that failed, is said as such below,
        # not as a refund that cannot be had "right now")
        and result.status is ToolStatus.OK
    ):
        return _ask_refund_amount(w, match, result)
    kind = _kind_of(item)
    order_id = _order_id(match, result)
    sku = sku_of(match) or as_str(as_dict(result.data).get("sku")) or None
    status = result.status
    try:
        if status is ToolStatus.OK and match.details == IF_LATE_BY:
            # "refund me if it's not here by friday": where it is now, and that nothing is done
            # in advance
            return _ok(w, kind, match, result) + "\n" + w.say("if_late_by")
        if status is ToolStatus.OK and match.details == WRITE_HELD and order_id:
            # "my wife wants to cancel 100998, I don't": shown, nothing done, how to ask said
            return _ok(w, kind, match, result) + "\n" + w.say("write_held", order_id=order_id)
        if status is ToolStatus.OK:
            return _ok(w, kind, match, result)
        if status is ToolStatus.STALE:
            w.stale_told = True
            notice = w.say("stale_notice", age=w.age(result.age_s))
            return notice + "\n" + _ok(w, kind, match, result)
        if status is ToolStatus.DEGRADED:
            return _degraded(w, kind, match, result, order_id, sku)
        if status is ToolStatus.NEEDS_CONFIRMATION:
            return _confirm(w, kind, match, result, order_id, sku)
        if status is ToolStatus.FAILED:
            return failed_text(w, kind, match, result, order_id, sku)
        if status is ToolStatus.UNKNOWN:
            return unknown_text(w, kind, result, order_id, sku)
    except (KeyError, TypeError, ValueError, AttributeError):
        # Data that does not have the documented shape: say we could not check, never guess.
        if kind in READ_KINDS:
            return lookup_failed(w, kind, order_id, sku)
        return unknown_text(w, kind, result, order_id, sku)
    w.trouble = True
    return w.say("part_unavailable", what=what_of(w, kind, order_id, sku))


#: The shop's requests that no tool answered yet are worded here (its intents, and the
#: capabilities matched by their patterns).
_SHOP_REQUESTS = frozenset({"change_address", "ticket_status"} | {i.value for i in ShopIntent})


class ShopReplies:
    """The shop pack's wording (:class:`~helpdesk.graph.replies.PackReplies`)."""

    def owns(self, item: ReplyItem) -> bool:
        """Built-in requests and results of the shop's tools (a pack-matched request too, once
        a shop tool answered it: the ticket status is matched by its pattern)."""
        if item.result is None:
            return item.intent.capability in _SHOP_REQUESTS
        return item.result.tool in TOOL_KINDS

    def body(self, w: Writer, item: ReplyItem) -> str:
        return _body(w, item)

    def inferred(self, w: Writer, match: MatchedIntent) -> str:
        if not order_of(match):
            return ""
        resolved = match.args.get(RESOLVED)
        if isinstance(resolved, dict) and resolved.get(w.lang):
            return w.say("resolved_order_named", order_id=order_of(match), product=resolved[w.lang])
        key = "resolved_order" if resolved else "inferred_order"
        said = [match.text, *(str(v) for k, v in match.args.items() if k != "order_id")]
        if not resolved and any(str(order_of(match)) in s for s in said):
            key = "order_in_message"  # "100683一直没到，要不要给你开个工单": named, just apart
        return w.say(key, order_id=order_of(match))

    def question(self, w: Writer, item: ReplyItem) -> str:
        match, result = item.intent, item.result
        if result is None:
            return ""
        sku = sku_of(match) or as_str(as_dict(result.data).get("sku")) or None
        return _confirm(w, _kind_of(item), match, result, _order_id(match, result), sku)

    def describe(self, w: Writer, tool: str, args: Mapping[str, Any]) -> str | None:
        """ "the refund of ¥100.00 for order 100609"; None for a tool that is not the shop's."""
        if tool not in TOOL_KINDS:
            return None
        kind = TOOL_KINDS[tool]
        order_id = as_str(args.get("order_id")) or None
        if kind == "refund" and args.get("amount") is not None:
            return w.say(
                "what_refund_amount", amount=money(args["amount"]), order=order_ref(w, order_id)
            )
        return what_of(w, kind, order_id, as_str(args.get("sku")) or None)

    def fallback_line(self, w: Writer, item: ReplyItem) -> str:
        """What the structured fallback says about a result: only fields it carries."""
        match, result = item.intent, item.result
        order_id = _order_id(match, result) if result is not None else order_of(match)
        what = what_of(w, _kind_of(item), order_id, sku_of(match))
        details = known_details(w, result) if result is not None else ""
        if details:
            return w.say("fallback_known", what=what, details=details)
        return w.say("fallback_unavailable", what=what)

    def pending_what(self, w: Writer, what: str) -> str | None:
        return _pending_what(w, what)
