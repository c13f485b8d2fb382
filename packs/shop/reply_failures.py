"""The demo shop's wording when a request did not go through: refusals, bad input, failures.

A business refusal quotes the shop's reason (an order that cannot be cancelled because it has
shipped); bad input asks for the field; a failed lookup says it could not check (never "you have
no orders"); a write of unknown outcome says so and names the follow-up ticket.
"""

from __future__ import annotations

import re
from typing import Any

from helpdesk.degrade.errors import ErrorClass
from helpdesk.graph.intents import MatchedIntent
from helpdesk.graph.replies import Writer
from helpdesk.packs.shop.intents import ORDER_SCOPED_INTENTS, ShopIntent, kind_of, order_of, sku_of
from helpdesk.packs.shop.reply_data import (
    as_dict,
    as_list,
    as_str,
    capitalized,
    money,
    status_label,
)
from helpdesk.packs.shop.reply_kinds import INTENT_KINDS, READ_KINDS, Kind, what_of
from helpdesk.tools.results import ToolResult

__all__ = ["ask_order_id", "failed_text", "lookup_failed", "unknown_text", "without_result"]


def ask_order_id(w: Writer, match: MatchedIntent) -> str:
    """Which order, asked; a refund of a sum said ("把那129退给我") names the sum."""
    if kind_of(match) is ShopIntent.REFUND and match.amount_kind == "exact" and match.amount:
        return w.say("ask_order_id_refund", amount=money(match.amount))
    return w.say("ask_order_id")


_TRACKING_NUMBER = re.compile(r"\b(?:SF|YT)\d{10}\b")
_PRODUCT_NAMED = re.compile(r"holds the product: ([^()\n]{1,80})")
_BUSINESS_CODES = (
    "order_not_found",
    "sku_not_found",
    "ticket_not_found",
    "tracking_not_found",
    "no_order_with_product",
    "not_cancellable",
    "cancel_condition_not_met",
    "cancel_part",
    "cancel_not_in_order",
    "refund_unpaid",
    "refund_unshipped",
    "not_refundable",
    "amount_too_large",
    "ticket_open",
    "amount_unknown",
)


_STATUS_IN_TEXT = re.compile(r"\b(pending|paid|shipped|delivered|cancell?ed)\b", re.IGNORECASE)


_CANCEL_PHRASE = re.compile(r"\bbe cancell?ed\b|not_cancellable", re.IGNORECASE)


def failed_text(
    w: Writer,
    kind: Kind,
    match: MatchedIntent,
    result: ToolResult,
    order_id: str | None,
    sku: str | None,
) -> str:
    cls = result.error_class
    # FAILED with an unknown_outcome class means reconciliation established that the write did
    # NOT take effect (only status UNKNOWN is still unknown): say it was not done.
    if cls is ErrorClass.BUSINESS:
        return _business(w, kind, result, order_id, sku)
    if cls is ErrorClass.INPUT:
        return _input(w, match, result)
    if kind in READ_KINDS:
        return lookup_failed(w, kind, order_id, sku)
    w.trouble = True
    return capitalized(w.say("write_failed", what=what_of(w, kind, order_id, sku)))


def lookup_failed(w: Writer, kind: Kind, order_id: str | None, sku: str | None) -> str:
    w.trouble = True
    if kind == "order" and order_id:
        return w.say("lookup_failed_order", order_id=order_id)
    if kind == "orders" or (kind == "order" and not order_id):
        return w.say("lookup_failed_orders")
    return w.say("lookup_failed", what=what_of(w, kind, order_id, sku))


def _business(
    w: Writer, kind: Kind, result: ToolResult, order_id: str | None, sku: str | None
) -> str:
    data = as_dict(result.data)
    code = as_str(data.get("code")) or next((c for c in _BUSINESS_CODES if c in result.reason), "")
    if code == "order_not_found" and order_id:
        return w.say("order_not_found", order_id=order_id)
    if code == "sku_not_found" and sku:
        return w.say("sku_not_found", sku=sku)
    if code == "ticket_not_found":
        return w.say("ticket_not_found")
    if code == "tracking_not_found":
        number = _TRACKING_NUMBER.search(f"{data.get('message', '')} {result.reason}")
        if number:
            return w.say("tracking_not_found", tracking_number=number.group(0))
    if code == "no_order_with_product":
        named = _PRODUCT_NAMED.search(as_str(data.get("message"))) or _PRODUCT_NAMED.search(
            result.reason
        )
        if named:
            return w.say("no_order_with_product", product=named.group(1).strip())
        return w.say("ask_order_id")
    if code == "not_cancellable" and order_id:
        said = _CANCEL_PHRASE.sub(" ", f"{data.get('message', '')} {result.reason}")
        found = _STATUS_IN_TEXT.search(said)
        if found:
            status = found.group(1).lower().replace("canceled", "cancelled")
            line = w.say("not_cancellable", order_id=order_id, status=status_label(w, status))
        else:
            line = w.say("not_cancellable_plain", order_id=order_id)
        if found is None or status in ("shipped", "delivered"):
            # (delivered: it has arrived — never "once it arrives")
            hint = "not_cancellable_hint_arrived" if found and status == "delivered" else None
            line += ("" if w.lang == "zh" else " ") + w.t[hint or "not_cancellable_hint"]
        return line
    if code == "cancel_condition_not_met" and order_id:
        # "要是没付就取消吧" on a paid order: not cancelled, and why
        status = as_str(data.get("status"))
        if not status:
            return w.say("cancel_condition_unknown", order_id=order_id)
        return w.say("cancel_condition_not_met", order_id=order_id, status=status_label(w, status))
    if code == "cancel_part" and order_id:
        # "cancel the phone" on a phone + monitor order: orders are cancelled whole
        held = [i for i in data.get("items") or () if isinstance(i, dict)]
        sep = "、" if w.lang == "zh" else ", "
        items = sep.join(as_str(i.get(w.lang)) or as_str(i.get("en")) for i in held)
        return w.say("cancel_part", order_id=order_id, items=items)
    if code == "cancel_not_in_order" and order_id:
        # "cancel 100904 the phone order": the number and the words disagree
        return _not_in_order(w, order_id, data, key="cancel_not_in_order")
    if code == "refund_unpaid" and order_id:
        return w.say("refund_unpaid", order_id=order_id)
    if code == "refund_unshipped" and order_id:
        paid = money(data.get("refundable_amount", 0))
        return w.say("refund_unshipped", order_id=order_id, refundable=paid)
    if code == "ticket_open" and order_id and data.get("ticket_id"):
        # a complaint about an order whose ticket is still open: that ticket, and a human
        status = as_str(data.get("status")) or "open"
        told = w.say(
            "complaint_ticket_open",
            order_id=order_id,
            ticket_id=as_str(data["ticket_id"]),
            status=w.label(f"ticket_status_{status}", status),
        )
        return told + "\n" + w.say("late_escalate")
    if code == "amount_unknown" and order_id and isinstance(data.get("not_in_order"), list):
        return _not_in_order(w, order_id, data)
    if code == "amount_unknown" and order_id and data.get("ask_amount"):
        # "refund the thermos and the dinnerware from 100200": which part, asked with the most
        # that can be refunded — never the whole order, never a guess
        refundable = data.get("refundable_amount")
        if refundable is not None and float(refundable) > 0:
            return w.say("refund_which_part", order_id=order_id, refundable=money(refundable))
        return w.say("refund_ask_amount_none", order_id=order_id)
    if code == "not_refundable" and order_id:
        return w.say(
            "not_refundable", order_id=order_id, refundable=money(data.get("refundable_amount", 0))
        )
    if code == "amount_too_large" and order_id and data.get("item_max") is not None:
        item = data.get("share_item_zh") if w.lang == "zh" else data.get("share_item")
        key = "item_refunded_already" if float(data["item_max"]) <= 0 else "amount_too_large_item"
        return w.say(
            key,
            order_id=order_id,
            item=as_str(item or data.get("share_item")),
            asked=money(data.get("asked") or 0),
            refundable=money(data["item_max"]),
        )
    if code == "amount_too_large" and order_id and data.get("refundable_amount") is not None:
        return w.say(
            "amount_too_large",
            order_id=order_id,
            refundable=money(data["refundable_amount"]),
        )
    if code == "amount_too_large" and order_id:
        return w.say("amount_too_large_plain", order_id=order_id)
    return w.say("business_other", what=what_of(w, kind, order_id, sku))


def _not_in_order(
    w: Writer, order_id: str, data: dict[str, Any], key: str = "refund_not_in_order"
) -> str:
    """ "refund the phone from 100200": what the order holds, what can be refunded on it, and
    how much (or which order) — the product named is not in it."""
    lang = "zh" if w.lang == "zh" else "en"
    names = [as_str(p.get(lang) or p.get("en")) for p in as_list(data.get("not_in_order"))]
    items = [as_str(i.get(lang) or i.get("en")) for i in as_list(data.get("items"))]
    named = w.t["list_separator"].join(n for n in names if n) or w.t["not_in_order_named"]
    refundable = data.get("refundable_amount")
    return w.say(
        key,
        order_id=order_id,
        named=named,
        items=w.t["list_separator"].join(i for i in items if i),
        refundable=money(refundable if refundable is not None else 0),
    )


def _input(w: Writer, match: MatchedIntent, result: ToolResult) -> str:
    issue = result.issues[0] if result.issues else {}
    path = as_str(issue.get("path")).split(".")[-1].split("/")[-1]
    message = as_str(issue.get("message")).lower()
    if not path:
        if kind_of(match) in ORDER_SCOPED_INTENTS and not order_of(match):
            return ask_order_id(w, match)
        if kind_of(match) is ShopIntent.STOCK and not sku_of(match):
            return w.say("stock_ask_sku")
        path = "order_id" if order_of(match) else "sku" if sku_of(match) else ""
    field_key = f"field_{path}" if f"field_{path}" in w.t else "field_other"
    missing = not message or "missing" in message or "required" in message
    return capitalized(w.say("input_missing" if missing else "input_invalid", field=w.t[field_key]))


def unknown_text(
    w: Writer, kind: Kind, result: ToolResult, order_id: str | None, sku: str | None
) -> str:
    w.trouble = True
    what = what_of(w, kind, order_id, sku)
    if result.ticket_id:
        return w.say("write_unknown_ticket", what=what, ticket_id=result.ticket_id)
    return w.say("write_unknown", what=what)


def without_result(w: Writer, match: MatchedIntent) -> str:
    """A request no tool answered: what is missing is asked (the order, the product), or the
    part is said to be unavailable."""
    intent = kind_of(match)
    if match.capability == "change_address":
        return w.say("ask_order_id")
    if match.capability == "ticket_status":
        return w.say("ticket_not_found")
    if intent is ShopIntent.HANDOFF:
        return w.say("handoff_no_ticket")
    if intent is ShopIntent.FAQ:
        return w.say("faq_not_found")
    if intent in ORDER_SCOPED_INTENTS and not order_of(match):
        return ask_order_id(w, match)
    if intent is ShopIntent.STOCK and not sku_of(match):
        return w.say("stock_ask_sku")
    kind = INTENT_KINDS.get(intent, "other")
    w.trouble = True
    return w.say("part_unavailable", what=what_of(w, kind, order_of(match), sku_of(match)))
