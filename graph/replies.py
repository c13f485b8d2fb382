"""Templated replies for the minimal tier: one honest paragraph per request, filled with real data.

:func:`render_reply` turns what the turn did — each :class:`ReplyItem` pairs a
:class:`~helpdesk.graph.intents.MatchedIntent` with the :class:`~helpdesk.tools.results.ToolResult`
that served it — and the request's :class:`~helpdesk.degrade.context.DegradeContext` into the text
the customer reads. Every :class:`~helpdesk.tools.results.ToolStatus` has its own wording: live
data is shown as is; cached data carries its age; a tool's fallback is shown as a self-service
pointer, never as data; a failed lookup says it could not check (never "you have no orders"); a
write of unknown outcome says so and names the follow-up ticket. All wording comes from
``prompts/minimal/generate.<lang>.yaml``; this module only chooses keys and fills in values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from helpdesk.degrade.context import DegradeContext, PendingItem
from helpdesk.degrade.errors import ErrorClass
from helpdesk.graph.capabilities import describe_pack_action, render_item
from helpdesk.graph.intents import (
    ORDER_SCOPED_INTENTS,
    Intent,
    MatchedIntent,
    mentions_refund,
    product_query,
)
from helpdesk.graph.language import Lang
from helpdesk.graph.prompting import load_templates, render
from helpdesk.tools.packs import PackSet
from helpdesk.tools.results import ToolResult, ToolStatus

__all__ = [
    "DEFAULT_HOTLINE",
    "ReplyItem",
    "confirmation_question",
    "describe_action",
    "humanize_age",
    "render_fallback_reply",
    "render_notice",
    "render_reply",
]

DEFAULT_HOTLINE = "400-820-8820"

_Kind = Literal[
    "order", "orders", "tracking", "stock", "faq", "cancel", "refund", "ticket", "handoff", "other"
]
_READ_KINDS: frozenset[str] = frozenset({"order", "orders", "tracking", "stock", "faq"})

_TOOL_KINDS: dict[str, _Kind] = {
    "get_order": "order",
    "list_orders": "orders",
    "track_shipment": "tracking",
    "check_stock": "stock",
    "search_products": "stock",
    "search_faq": "faq",
    "cancel_order": "cancel",
    "request_refund": "refund",
    "create_ticket": "ticket",
    "handoff_to_human": "handoff",
}
_INTENT_KINDS: dict[Intent, _Kind] = {
    Intent.ORDER_STATUS: "order",
    Intent.LIST_ORDERS: "orders",
    Intent.TRACKING: "tracking",
    Intent.STOCK: "stock",
    Intent.FAQ: "faq",
    Intent.CANCEL_ORDER: "cancel",
    Intent.REFUND: "refund",
    Intent.CREATE_TICKET: "ticket",
    Intent.HANDOFF: "handoff",
}
# Tool-name fragments for tools registered under other names (most specific first).
_TOOL_HINTS: tuple[tuple[str, _Kind], ...] = (
    ("handoff", "handoff"),
    ("human", "handoff"),
    ("ticket", "ticket"),
    ("refund", "refund"),
    ("cancel", "cancel"),
    ("track", "tracking"),
    ("shipment", "tracking"),
    ("stock", "stock"),
    ("inventory", "stock"),
    ("faq", "faq"),
    ("orders", "orders"),
    ("order", "order"),
)
_BUSINESS_CODES = (
    "order_not_found",
    "sku_not_found",
    "ticket_not_found",
    "not_cancellable",
    "not_refundable",
    "amount_too_large",
)
_ORDER_STATUSES = ("pending", "paid", "shipped", "delivered", "cancelled")
_STATUS_IN_TEXT = re.compile(r"\b(pending|paid|shipped|delivered|cancell?ed)\b", re.IGNORECASE)
# "cannot be cancelled" names the action, not the order's status.
_CANCEL_PHRASE = re.compile(r"\bbe cancell?ed\b|not_cancellable", re.IGNORECASE)
# Chinese typography: a space between Han characters and Latin letters or digits.
_HAN_LATIN = re.compile(r"([\u4e00-\u9fff])([A-Za-z0-9¥])|([A-Za-z0-9])([\u4e00-\u9fff])")
_ORDER_ID = re.compile(r"^\d{6}$")
_SKU = re.compile(r"^SKU-\d+$", re.IGNORECASE)
_MAX_EVENTS = 3
_MAX_ORDERS = 10


@dataclass(frozen=True, slots=True)
class ReplyItem:
    """One request of the turn and what serving it produced."""

    intent: MatchedIntent
    result: ToolResult | None
    """The tool's result; None when no tool ran (greeting, missing order number, ...)."""
    note: str | None = None
    """Extra line: a template key of ``generate.<lang>.yaml`` (rendered with the item's
    fields), or caller-supplied text in the reply's language (appended verbatim)."""


class _Writer:
    """Renders with one language's templates and remembers what was already said."""

    def __init__(self, lang: Lang, hotline: str, packs: PackSet | None = None) -> None:
        self.lang = lang
        self.packs = packs
        self.t = load_templates("minimal", "generate", lang)
        self.hotline = hotline
        self.stale_told = False
        self.trouble = False

    def say(self, key: str, **values: Any) -> str:
        return render(self.t[key], hotline=self.hotline, **values)

    def label(self, key: str, fallback: str) -> str:
        return self.t.get(key, fallback)

    def age(self, seconds: float | None) -> str:
        return humanize_age(seconds, self.t)

    def order_ref(self, order_id: str | None) -> str:
        if order_id:
            return self.say("order_ref", order_id=order_id)
        return self.say("order_ref_none")

    def what(self, kind: _Kind, order_id: str | None, sku: str | None) -> str:
        product = self.say("product_ref", sku=sku) if sku else self.say("product_ref_none")
        key = f"what_{kind}"
        return self.say(
            key if key in self.t else "what_other", order=self.order_ref(order_id), product=product
        )


def humanize_age(seconds: float | None, templates: Mapping[str, str]) -> str:
    """``75`` -> ``"1 minute"`` / ``"1 分钟"`` using the ``age_*`` templates."""
    if seconds is None or seconds < 0:
        return templates["age_unknown"]
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = int(seconds // size)
            return render(templates[f"age_{unit}" if n == 1 else f"age_{unit}s"], n=n)
    n = max(1, int(seconds))
    return render(templates["age_second" if n == 1 else "age_seconds"], n=n)


def render_reply(
    items: Sequence[ReplyItem],
    degrade: DegradeContext,
    lang: Lang,
    *,
    hotline: str = DEFAULT_HOTLINE,
    packs: PackSet | None = None,
) -> str:
    """The whole reply of one turn, in ``lang``.

    Args:
        items: the turn's requests in message order, with their results.
        degrade: what degraded during the request (stale data, pending work, simplified mode).
        lang: the language of every line of the reply.
        hotline: the customer-service phone number offered when self-service is the answer.
        packs: the loaded capability packs (their requests are rendered from their templates).

    Returns:
        Paragraphs separated by blank lines: one per item, then the request-level notices
        (staleness not yet mentioned, pending work, simplified mode, the way to a human).
    """
    w = _Writer(lang, hotline, packs)
    paragraphs = [p for p in (_item_paragraph(w, item) for item in items) if p]
    if not paragraphs:
        paragraphs.append(w.say("clarify"))
    if degrade.stale and not w.stale_told:
        paragraphs.append(w.say("stale_notice_general", age=w.age(max(degrade.stale.values()))))
    pending = _pending_paragraph(w, degrade.pending, items)
    if pending:
        paragraphs.append(pending)
    if degrade.simplified_mode:
        paragraphs.append(w.say("simplified_mode"))
    elif (w.trouble or degrade.pending) and hotline not in "\n".join(paragraphs):
        paragraphs.append(w.say("handoff_last_resort"))
    text = "\n\n".join(paragraphs)
    return _space_han_latin(text) if lang == "zh" else text


def _space_han_latin(text: str) -> str:
    return _HAN_LATIN.sub(
        lambda m: f"{m.group(1)} {m.group(2)}" if m.group(1) else f"{m.group(3)} {m.group(4)}",
        text,
    )


# --- one item -----------------------------------------------------------------------------------


def _kind_of(item: ReplyItem) -> _Kind:
    result = item.result
    if result is not None:
        if result.tool in _TOOL_KINDS:
            return _TOOL_KINDS[result.tool]
        name = result.tool.lower()
        for hint, kind in _TOOL_HINTS:
            if hint in name:
                return kind
    return _INTENT_KINDS.get(item.intent.intent, "other")


def _item_paragraph(w: _Writer, item: ReplyItem) -> str:
    lines = [_body(w, item)]
    match = item.intent
    if match.inferred_order and match.order_id and item.result is not None:
        lines.insert(0, w.say("inferred_order", order_id=match.order_id))
    if item.note:
        if item.note in w.t:
            lines.append(w.say(item.note, order_id=match.order_id or "", sku=match.sku or ""))
        else:
            lines.append(item.note)
    return "\n".join(line for line in lines if line)


def _body(w: _Writer, item: ReplyItem) -> str:
    match, result = item.intent, item.result
    intent = match.intent
    if intent is Intent.CONFIRM_NO:
        return w.say("confirm_cancelled")
    if _is_generic(item):
        return _generic(w, item)
    if result is None:
        return _without_result(w, match)
    if (
        intent is Intent.REFUND
        and match.amount_kind == "invalid"
        and result.tool != "request_refund"
    ):
        return _ask_refund_amount(w, match, result)
    kind = _kind_of(item)
    order_id = _order_id(match, result)
    sku = match.sku or _str(_dict(result.data).get("sku")) or None
    status = result.status
    try:
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
            return _failed(w, kind, match, result, order_id, sku)
        if status is ToolStatus.UNKNOWN:
            return _unknown(w, kind, result, order_id, sku)
    except (KeyError, TypeError, ValueError, AttributeError):
        # Data that does not have the documented shape: say we could not check, never guess.
        if kind in _READ_KINDS:
            return _lookup_failed(w, kind, order_id, sku)
        return _unknown(w, kind, result, order_id, sku)
    w.trouble = True
    return w.say("part_unavailable", what=w.what(kind, order_id, sku))


def _is_generic(item: ReplyItem) -> bool:
    """A pack's request, or a tool the built-in wording does not know: rendered generically."""
    if item.intent.intent is Intent.PACK:
        return True
    return item.result is not None and item.result.tool not in _TOOL_KINDS


def _generic(w: _Writer, item: ReplyItem) -> str:
    result = item.result
    if result is not None and result.status is ToolStatus.STALE:
        w.stale_told = True
    text, trouble = render_item(
        item.intent,
        result,
        w.lang,
        hotline=w.hotline,
        packs=w.packs,
        age_text=w.age(result.age_s) if result is not None else "",
    )
    w.trouble = w.trouble or trouble
    return text


def _ask_refund_amount(w: _Writer, match: MatchedIntent, result: ToolResult) -> str:
    """An amount that cannot be used ("-5", "12.345", "half"): ask, stating what is refundable."""
    order = _dict(result.data)
    order_id = match.order_id or _str(order.get("order_id"))
    if not result.usable or order.get("refundable_amount") is None:
        w.trouble = True
        return w.say("part_unavailable", what=w.what("refund", order_id, None))
    remaining = float(order["refundable_amount"])
    if remaining <= 0:
        return w.say("refund_ask_amount_none", order_id=order_id)
    return w.say(
        "refund_ask_amount", order_id=order_id, refundable=_money(remaining), raw=match.amount_raw
    )


def _without_result(w: _Writer, match: MatchedIntent) -> str:
    intent = match.intent
    if intent is Intent.GREETING:
        return w.say("greeting")
    if intent is Intent.THANKS:
        return w.say("acknowledge" if match.details == "ack" else "thanks")
    if intent in (Intent.CONFIRM_YES, Intent.CONFIRM_UNCLEAR, Intent.CONFIRM_CHANGE):
        return w.say("nothing_to_confirm")
    if intent is Intent.UNKNOWN:
        return w.say("clarify")
    if intent is Intent.HANDOFF:
        return w.say("handoff_no_ticket")
    if intent is Intent.FAQ:
        return w.say("faq_not_found")
    if intent in ORDER_SCOPED_INTENTS and not match.order_id:
        return w.say("ask_order_id")
    if intent is Intent.STOCK and not match.sku:
        return w.say("stock_ask_sku")
    kind = _INTENT_KINDS.get(intent, "other")
    w.trouble = True
    return w.say("part_unavailable", what=w.what(kind, match.order_id, match.sku))


# --- live / cached data -------------------------------------------------------------------------


def _ok(w: _Writer, kind: _Kind, match: MatchedIntent, result: ToolResult) -> str:
    data = result.data
    if kind == "order":
        return _order(w, _dict(data), about_refund=mentions_refund(match.text))
    if kind == "orders":
        return _orders(w, _dict(data))
    if kind == "tracking":
        return _tracking(w, _dict(data), match.order_id)
    if kind == "stock" and result.tool == "search_products":
        return _products(w, _dict(data), product_query(match.text) or match.text)
    if kind == "stock":
        return _stock(w, _dict(data), match.quantity)
    if kind == "faq":
        return _faq(w, _dict(data), match.topic)
    if kind == "cancel":
        order = _dict(data)
        order_id = _str(order.get("order_id")) or _need(match.order_id)
        return w.say("cancel_done", order_id=order_id)
    if kind == "refund":
        refund = _dict(data)
        return w.say(
            "refund_done",
            order_id=_str(refund.get("order_id")) or _need(match.order_id),
            refund_id=_need(_str(refund["refund_id"])),
            amount=_money(refund["amount"]),
        )
    if kind == "ticket":
        ticket_id = _need(_str(_dict(data).get("ticket_id")) or result.ticket_id)
        ticket_order = _str(_dict(data).get("order_id")) or match.order_id
        if ticket_order:
            return w.say("ticket_created_order", ticket_id=ticket_id, order_id=ticket_order)
        return w.say("ticket_created", ticket_id=ticket_id)
    if kind == "handoff":
        ticket_id = _need(_str(_dict(data).get("ticket_id")) or result.ticket_id)
        return w.say("handoff_created", ticket_id=ticket_id)
    raise ValueError(f"no renderer for {kind}")


def _products(w: _Writer, data: dict[str, Any], query: str) -> str:
    products = _list(data.get("products"))[:5]
    if not products:
        return w.say("products_none", query=query)
    lines = [w.say("products_header", query=query)]
    for product in products:
        key = "product_in_stock" if product.get("in_stock") else "product_out_of_stock"
        lines.append(
            w.say(
                key,
                name=_product_name(w, product),
                sku=_str(product.get("sku")),
                price=_money(product.get("price")),
            )
        )
    lines.append(w.say("products_pick", sku=_str(products[0].get("sku"))))
    return "\n".join(lines)


def _order(w: _Writer, order: dict[str, Any], *, about_refund: bool = False) -> str:
    order_id = _need(_str(order["order_id"]))
    status = _str(order["status"])
    key = f"order_status_{status}" if status in _ORDER_STATUSES else "order_status_other"
    lines = [w.say(key, order_id=order_id, status=_status_label(w, status))]
    items = [
        w.say("order_item", name=_product_name(w, i), quantity=i.get("quantity", 1))
        for i in _list(order.get("items"))
    ]
    if items and order.get("total") is not None:
        lines.append(
            w.say(
                "order_items", items=w.t["list_separator"].join(items), total=_money(order["total"])
            )
        )
    for shipment in _list(order.get("shipments")):
        lines.append(_shipment(w, shipment))
    for refund in _list(order.get("refunds")):
        r_status = _str(refund.get("status"))
        lines.append(
            w.say(
                "refund_line",
                refund_id=_str(refund.get("refund_id")),
                amount=_money(refund.get("amount", 0)),
                refund_status=w.label(f"refund_status_{r_status}", r_status),
            )
        )
    remaining = order.get("refundable_amount")
    if (order.get("refunds") or about_refund) and remaining is not None:
        lines.append(w.say("refundable_line", amount=_money(remaining)))
    return "\n".join(lines)


def _shipment(w: _Writer, shipment: dict[str, Any]) -> str:
    values = {
        "carrier": _str(shipment.get("carrier")),
        "tracking_number": _need(_str(shipment.get("tracking_number"))),
    }
    status = _str(shipment.get("status"))
    if status == "delivered" and shipment.get("delivered_at"):
        return w.say("shipment_done", delivered_at=_date(shipment["delivered_at"]), **values)
    label = w.label(f"shipment_{status}", status)
    if shipment.get("eta"):
        return w.say("shipment_eta", shipment_status=label, eta=_date(shipment["eta"]), **values)
    return w.say("shipment_no_eta", shipment_status=label, **values)


def _orders(w: _Writer, data: dict[str, Any]) -> str:
    orders = _list(data["orders"])
    if not orders:
        return w.say("orders_empty")
    lines = [w.say("orders_header")]
    for order in orders[:_MAX_ORDERS]:
        status = _str(order.get("status"))
        lines.append(
            w.say(
                "orders_line",
                order_id=_need(_str(order["order_id"])),
                status=_status_label(w, status),
                total=_money(order.get("total", 0)),
                item_count=order.get("item_count", 0),
                created=_date(order.get("created_at")),
            )
        )
    return "\n".join(lines)


def _tracking(w: _Writer, data: dict[str, Any], fallback_id: str | None) -> str:
    order_id = _need(_str(data.get("order_id")) or fallback_id)
    shipments = _list(data["shipments"])
    if not shipments:
        return w.say("tracking_not_shipped", order_id=order_id)
    lines = [w.say("tracking_header", order_id=order_id)]
    for shipment in shipments:
        lines.append(_shipment(w, shipment))
        events = sorted(
            _list(shipment.get("events")), key=lambda e: _str(e.get("at")), reverse=True
        )
        if not events:
            lines.append(w.say("tracking_no_events"))
            continue
        lines.append(w.say("tracking_events_header"))
        for event in events[:_MAX_EVENTS]:
            lines.append(
                w.say(
                    "tracking_event",
                    at=_time(event.get("at")),
                    location=_str(event.get("location")),
                    description=_event_text(w, event),
                )
            )
    return "\n".join(lines)


def _stock(w: _Writer, data: dict[str, Any], quantity: int | None) -> str:
    sku = _need(_str(data["sku"]))
    total = int(data["total_available"])
    name = _product_name(w, data)
    lines: list[str] = []
    if total > 0 and (quantity is None or quantity <= total):
        lines.append(
            w.say(
                "stock_available",
                name=name,
                sku=sku,
                total=total,
                price=_money(data.get("price", 0)),
            )
        )
        counts = [
            w.say("stock_warehouse", warehouse=_warehouse(w, wh), available=wh.get("available"))
            for wh in _list(data.get("warehouses"))
            if int(wh.get("available") or 0) > 0
        ]
        if counts:
            lines.append(w.say("stock_warehouses", warehouses=w.t["list_separator"].join(counts)))
        if quantity is not None:
            lines.append(w.say("stock_enough", quantity=quantity))
        return "\n".join(lines)
    if total > 0 and quantity is not None:
        lines.append(w.say("stock_not_enough", name=name, sku=sku, total=total, quantity=quantity))
    else:
        lines.append(w.say("stock_out", name=name, sku=sku))
    if data.get("restock_date"):
        lines.append(w.say("stock_restock", restock_date=_date(data["restock_date"])))
    else:
        lines.append(w.say("stock_no_restock"))
    return "\n".join(lines)


def _faq(w: _Writer, data: dict[str, Any], topic: str | None) -> str:
    articles = _list(data["articles"])
    if not articles:
        return w.say("faq_not_found")
    ranked = sorted(
        articles,
        key=lambda a: (a.get("topic") != topic, a.get("lang") not in (None, w.lang)),
    )
    best = ranked[0]
    answer = _str(best.get("answer")).strip()
    if not answer:
        return w.say("faq_not_found")
    topic_key = f"topic_{best.get('topic') or topic}"
    return w.say("faq_answer", topic=w.label(topic_key, w.t["topic_general"]), answer=answer)


# --- degraded / failed / unknown ----------------------------------------------------------------


def _degraded(
    w: _Writer,
    kind: _Kind,
    match: MatchedIntent,
    result: ToolResult,
    order_id: str | None,
    sku: str | None,
) -> str:
    data = _dict(result.data)
    if result.fallback or "message_key" in data:
        w.trouble = True
        hotline = _str(data.get("hotline")) or w.hotline
        what = w.what(kind, order_id, sku)
        if data.get("url"):
            text = render(
                w.t["self_service_url"], what=what, url=_str(data["url"]), hotline=hotline
            )
        else:
            text = render(w.t["self_service"], what=what, hotline=hotline)
        if result.ticket_id:
            text += "\n" + w.say("handoff_created", ticket_id=result.ticket_id)
        return text
    return _ok(w, kind, match, result) + "\n" + w.say("degraded_note")


def _confirm(
    w: _Writer,
    kind: _Kind,
    match: MatchedIntent,
    result: ToolResult,
    order_id: str | None,
    sku: str | None,
) -> str:
    """The exact question a confirm-first action waits on: the action, the object and, for
    money, the amount. A yes is only ever read as the answer to this text."""
    data = _dict(result.data)
    args = _dict(data.get("args")) or data
    order_id = _str(args.get("order_id")) or order_id
    if kind == "cancel" and order_id:
        return w.say("cancel_confirm", order_id=order_id)
    if kind == "refund" and order_id:
        amount = args.get("amount")
        if amount is None:
            # never ask about an amount that is not stated
            return w.say("part_unavailable", what=w.what(kind, order_id, sku))
        previous = _dict(data.get("previous"))
        if previous:
            return w.say(
                "refund_confirm_again",
                order_id=order_id,
                amount=_money(amount),
                when=_str(previous.get("when")) or _str(previous.get("at")),
            )
        if data.get("full"):
            return w.say("refund_confirm_full", order_id=order_id, amount=_money(amount))
        return w.say("refund_confirm", order_id=order_id, amount=_money(amount))
    return w.say("confirm_generic", what=w.what(kind, order_id, sku))


def confirmation_question(
    item: ReplyItem, lang: Lang, *, hotline: str, packs: PackSet | None = None
) -> str:
    """The canonical question for an item whose result needs the customer's confirmation; the
    published reply must contain it, whichever tier wrote the rest."""
    w = _Writer(lang, hotline, packs)
    match, result = item.intent, item.result
    if result is None:
        return ""
    if _is_generic(item):
        return _generic(w, item)
    sku = match.sku or _str(_dict(result.data).get("sku")) or None
    return _confirm(w, _kind_of(item), match, result, _order_id(match, result), sku)


def describe_action(
    tool: str, args: Mapping[str, Any], lang: Lang, *, hotline: str, packs: PackSet | None = None
) -> str:
    """A short description of a write ("the refund of ¥100.00 for order 100609")."""
    if tool not in _TOOL_KINDS:
        return describe_pack_action(tool, args, lang, hotline=hotline, packs=packs)
    w = _Writer(lang, hotline)
    kind = _TOOL_KINDS.get(tool, "other")
    order_id = _str(args.get("order_id")) or None
    if kind == "refund" and args.get("amount") is not None:
        return w.say(
            "what_refund_amount", amount=_money(args["amount"]), order=w.order_ref(order_id)
        )
    return w.what(kind, order_id, _str(args.get("sku")) or None)


def render_notice(key: str, lang: Lang, *, hotline: str, **values: Any) -> str:
    """One notice line from the minimal tier's templates."""
    return _Writer(lang, hotline).say(key, **values)


def _failed(
    w: _Writer,
    kind: _Kind,
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
    if kind in _READ_KINDS:
        return _lookup_failed(w, kind, order_id, sku)
    w.trouble = True
    return _capitalized(w.say("write_failed", what=w.what(kind, order_id, sku)))


def _lookup_failed(w: _Writer, kind: _Kind, order_id: str | None, sku: str | None) -> str:
    w.trouble = True
    if kind == "order" and order_id:
        return w.say("lookup_failed_order", order_id=order_id)
    if kind == "orders" or (kind == "order" and not order_id):
        return w.say("lookup_failed_orders")
    return w.say("lookup_failed", what=w.what(kind, order_id, sku))


def _business(
    w: _Writer, kind: _Kind, result: ToolResult, order_id: str | None, sku: str | None
) -> str:
    data = _dict(result.data)
    code = _str(data.get("code")) or next((c for c in _BUSINESS_CODES if c in result.reason), "")
    if code == "order_not_found" and order_id:
        return w.say("order_not_found", order_id=order_id)
    if code == "sku_not_found" and sku:
        return w.say("sku_not_found", sku=sku)
    if code == "ticket_not_found":
        return w.say("ticket_not_found")
    if code == "not_cancellable" and order_id:
        said = _CANCEL_PHRASE.sub(" ", f"{data.get('message', '')} {result.reason}")
        found = _STATUS_IN_TEXT.search(said)
        if found:
            status = found.group(1).lower().replace("canceled", "cancelled")
            line = w.say("not_cancellable", order_id=order_id, status=_status_label(w, status))
        else:
            line = w.say("not_cancellable_plain", order_id=order_id)
        if found is None or status in ("shipped", "delivered"):
            line += ("" if w.lang == "zh" else " ") + w.t["not_cancellable_hint"]
        return line
    if code == "not_refundable" and order_id:
        return w.say(
            "not_refundable", order_id=order_id, refundable=_money(data.get("refundable_amount", 0))
        )
    if code == "amount_too_large" and order_id and data.get("refundable_amount") is not None:
        return w.say(
            "amount_too_large",
            order_id=order_id,
            refundable=_money(data["refundable_amount"]),
        )
    if code == "amount_too_large" and order_id:
        return w.say("amount_too_large_plain", order_id=order_id)
    return w.say("business_other", what=w.what(kind, order_id, sku))


def _input(w: _Writer, match: MatchedIntent, result: ToolResult) -> str:
    issue = result.issues[0] if result.issues else {}
    path = _str(issue.get("path")).split(".")[-1].split("/")[-1]
    message = _str(issue.get("message")).lower()
    if not path:
        if match.intent in ORDER_SCOPED_INTENTS and not match.order_id:
            return w.say("ask_order_id")
        if match.intent is Intent.STOCK and not match.sku:
            return w.say("stock_ask_sku")
        path = "order_id" if match.order_id else "sku" if match.sku else ""
    field_key = f"field_{path}" if f"field_{path}" in w.t else "field_other"
    missing = not message or "missing" in message or "required" in message
    return _capitalized(
        w.say("input_missing" if missing else "input_invalid", field=w.t[field_key])
    )


def _unknown(
    w: _Writer, kind: _Kind, result: ToolResult, order_id: str | None, sku: str | None
) -> str:
    w.trouble = True
    what = w.what(kind, order_id, sku)
    if result.ticket_id:
        return w.say("write_unknown_ticket", what=what, ticket_id=result.ticket_id)
    return w.say("write_unknown", what=what)


# --- request-level notices ----------------------------------------------------------------------


def _pending_paragraph(
    w: _Writer, pending: Sequence[PendingItem], items: Sequence[ReplyItem]
) -> str:
    told = {
        item.result.call_id: item.result.ticket_id
        for item in items
        if item.result is not None and item.result.status is not ToolStatus.OK
    }
    lines: list[str] = []
    for p in pending:
        if p.task_id in told and (p.ticket_id is None or p.ticket_id == told[p.task_id]):
            continue
        what = _pending_what(w, p.what)
        status = w.label(f"pending_status_{p.status}", w.t["pending_status_other"])
        if p.ticket_id:
            lines.append(
                w.say("pending_line_ticket", what=what, status=status, ticket_id=p.ticket_id)
            )
        else:
            lines.append(w.say("pending_line", what=what, status=status))
    if not lines:
        return ""
    return "\n".join([w.say("pending_header"), *lines])


def _pending_what(w: _Writer, what: str) -> str:
    """``"cancel_order 100123"`` -> ``"取消订单 100123"`` (tool or intent name, then subject)."""
    head, _, rest = what.strip().partition(" ")
    kind: _Kind = _TOOL_KINDS.get(head) or "other"
    if kind == "other":
        try:
            kind = _INTENT_KINDS.get(Intent(head), "other")
        except ValueError:
            kind = "other"
    subject = rest.strip()
    order_id = subject if _ORDER_ID.match(subject) else None
    sku = subject.upper() if _SKU.match(subject) else None
    return w.what(kind, order_id, sku)


# --- small helpers ------------------------------------------------------------------------------


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, dict)]


def _str(value: Any) -> str:
    return "" if value is None else str(value)


def _need(value: str | None) -> str:
    if not value:
        raise ValueError("a required field is missing")
    return value


def _money(value: Any) -> str:
    return f"{float(value):.2f}"


def _date(value: Any) -> str:
    return _str(value)[:10]


def _time(value: Any) -> str:
    text = _str(value).replace("T", " ").rstrip("Z")
    return text[:16]


def _order_id(match: MatchedIntent, result: ToolResult) -> str | None:
    data = _dict(result.data)
    args = _dict(data.get("args"))
    return match.order_id or _str(data.get("order_id") or args.get("order_id")) or None


def _status_label(w: _Writer, status: str) -> str:
    return w.label(f"status_{status}", status)


def _product_name(w: _Writer, record: dict[str, Any]) -> str:
    zh = w.lang == "zh"
    name = record.get("name_zh") if zh else record.get("name")
    return _str(name or record.get("name") or record.get("sku"))


def _event_text(w: _Writer, event: dict[str, Any]) -> str:
    zh = w.lang == "zh"
    text = event.get("description_zh") if zh else event.get("description")
    return _str(text or event.get("description"))


def _warehouse(w: _Writer, record: dict[str, Any]) -> str:
    code = _str(record.get("warehouse"))
    key = f"warehouse_{code}"
    if key in w.t:
        return w.t[key]
    return w.say("warehouse_other", city=_str(record.get("city")) or code)


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- the structured fallback -------------------------------------------------------------------


def render_fallback_reply(
    items: Sequence[ReplyItem],
    degrade: DegradeContext,
    lang: Lang,
    *,
    hotline: str = DEFAULT_HOTLINE,
    packs: PackSet | None = None,
) -> str:
    """The reply of last resort when generated replies keep failing validation.

    Fills in only what the tools returned (status, tracking number, ETA, stock, ticket and
    refund ids), marks everything else "not available yet", then the staleness notice, pending
    items and the way to a human — nothing that could be invented.
    """
    w = _Writer(lang, hotline, packs)
    lines = [w.say("fallback_header")]
    confirmations: list[str] = []
    for item in items:
        result = item.result
        if result is None:
            continue
        match = item.intent
        if _is_generic(item):
            # a pack's wording states only its result's fields: the same text is safe here
            text = _generic(w, item)
            if result.status is ToolStatus.NEEDS_CONFIRMATION:
                confirmations.append(text)
            else:
                lines.append(text)
            continue
        kind = _kind_of(item)
        order_id = _order_id(match, result)
        if result.status is ToolStatus.NEEDS_CONFIRMATION:
            # the pending action stays pending: the question must still be asked
            confirmations.append(_confirm(w, kind, match, result, order_id, match.sku))
            continue
        what = w.what(kind, order_id, match.sku)
        details = _known_details(w, result)
        if details:
            lines.append(w.say("fallback_known", what=what, details=details))
        else:
            lines.append(w.say("fallback_unavailable", what=what))
    paragraphs = ["\n".join(lines)] if len(lines) > 1 or not confirmations else []
    paragraphs.extend(confirmations)
    if degrade.stale:
        paragraphs.append(w.say("stale_notice_general", age=w.age(max(degrade.stale.values()))))
    pending = _pending_paragraph(w, degrade.pending, items)
    if pending:
        paragraphs.append(pending)
    paragraphs.append(w.say("handoff_last_resort"))
    text = "\n\n".join(paragraphs)
    return _space_han_latin(text) if lang == "zh" else text


def _known_details(w: _Writer, result: ToolResult) -> str:
    """Key facts of a usable result, straight from its data; empty when there are none."""
    if result.status not in (ToolStatus.OK, ToolStatus.STALE) or result.fallback:
        return ""
    data = _dict(result.data)
    parts: list[str] = []
    status = _str(data.get("status"))
    if status in _ORDER_STATUSES:
        parts.append(w.say("detail_status", status=_status_label(w, status)))
    for shipment in _list(data.get("shipments"))[:3]:
        number = _str(shipment.get("tracking_number"))
        if number:
            parts.append(w.say("detail_tracking", tracking_number=number))
        eta = _str(shipment.get("eta"))
        if eta:
            parts.append(w.say("detail_eta", eta=eta))
    if "total_available" in data:
        parts.append(w.say("detail_available", available=data["total_available"]))
    if data.get("ticket_id"):
        parts.append(w.say("detail_ticket", ticket_id=data["ticket_id"]))
    if data.get("refund_id"):
        parts.append(
            w.say("detail_refund", refund_id=data["refund_id"], amount=_money(data.get("amount")))
        )
    return w.t["detail_separator"].join(parts)
