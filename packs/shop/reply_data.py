"""The demo shop's data as reply text: orders, shipments, FAQ answers (tickets and refunds:
:mod:`~helpdesk.packs.shop.reply_records`; products and stock:
:mod:`~helpdesk.packs.shop.reply_products`).

Each function turns one shop result (the documented shape of the shop API, see
``tools/shop/API.md``) into lines of the minimal tier's templates; a missing required field
raises ``ValueError``/``KeyError`` so the caller says it could not check instead of guessing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from helpdesk.graph.replies import Writer
from helpdesk.tools.local_time import local_datetime
from helpdesk.tools.refund_shares import item_meant
from helpdesk.tools.results import ToolResult, ToolStatus

ORDER_STATUSES = ("pending", "paid", "shipped", "delivered", "cancelled")
SHOP_TIME_ZONE = "Asia/Shanghai"
"""The demo shop's customers are in China: replies show its UTC times in China time."""
_MAX_EVENTS = 3
_MAX_ORDERS = 10


_CANCEL_ANSWER = {
    "pending": "cancel_still_possible",
    "paid": "cancel_still_possible",
    "shipped": "cancel_no_longer",
    "delivered": "cancel_delivered",
}
"""Whether an order of each state can still be cancelled, for "能取消吗？100998"."""


def order_text(
    w: Writer,
    order: dict[str, Any],
    *,
    about_refund: bool = False,
    about_cancel: bool = False,
    words: str = "",
) -> str:
    """An order's state, items, parcels and refunds; asked about a refund, what is still
    refundable — and, when ``words`` (the customer's) single out one item ("如果只退保温杯的话，
    能退多少"), that item's price."""
    order_id = need(as_str(order["order_id"]))
    status = as_str(order["status"])
    key = f"order_status_{status}" if status in ORDER_STATUSES else "order_status_other"
    lines = [w.say(key, order_id=order_id, status=status_label(w, status))]
    items = [
        w.say("order_item", name=product_name(w, i), quantity=i.get("quantity", 1))
        for i in as_list(order.get("items"))
    ]
    if items and order.get("total") is not None:
        lines.append(
            w.say(
                "order_items", items=w.t["list_separator"].join(items), total=money(order["total"])
            )
        )
    for shipment in as_list(order.get("shipments")):
        lines.append(_shipment(w, shipment))
    lines = _with_delay(w, order, order_id, lines)
    for refund in as_list(order.get("refunds")):
        r_status = as_str(refund.get("status"))
        lines.append(
            w.say(
                "refund_line",
                refund_id=as_str(refund.get("refund_id")),
                amount=money(refund.get("amount", 0)),
                refund_status=w.label(f"refund_status_{r_status}", r_status),
            )
        )
    remaining = order.get("refundable_amount")
    if about_refund and status == "pending" and not order.get("refunds"):
        # "can I get a refund for the air fryer that's still waiting for payment?": nothing was
        # paid — nothing to refund; not wanted, it is cancelled
        lines.append(w.say("refund_unpaid", order_id=order_id))
    elif (order.get("refunds") or about_refund) and remaining is not None:
        lines.append(w.say("refundable_line", amount=money(remaining)))
        item = _item_meant(order, words) if about_refund else None
        if item is not None and item[1] <= float(remaining or 0):
            name, price = product_name(w, dict(item[0])), item[1]
            lines.append(w.say("refundable_item_line", name=name, amount=money(price)))
        if about_refund and float(remaining or 0) > 0:
            # asked whether a refund can be had: how to ask for one, never one started
            lines.append(w.say("refund_how_to_ask", order_id=order_id))
    if about_cancel and status in _CANCEL_ANSWER:
        # asked whether it can be cancelled: its state answers, and how to ask (never done)
        lines.append(w.say(_CANCEL_ANSWER[status], order_id=order_id))
    return "\n".join(lines)


def _item_meant(order: dict[str, Any], words: str) -> tuple[Mapping[str, Any], float] | None:
    """The one item ``words`` single out and its price, if any (never on an order already
    partly refunded: what is left per item cannot be told)."""
    item, _ = item_meant(order, words) if words else (None, False)
    if item is None:
        return None
    price = float(item.get("unit_price") or 0) * int(item.get("quantity") or 1)
    return (item, price) if price > 0 else None


def _with_delay(w: Writer, data: dict[str, Any], order_id: str, lines: list[str]) -> list[str]:
    """A late delivery: an apology first, then the real state, the open ticket if there is one
    and an offer to escalate."""
    late = [s for s in as_list(data.get("shipments")) if s.get("overdue")]
    if not late:
        return lines
    first = late[0]
    status = as_str(first.get("status"))
    apology = w.say(
        "late_apology",
        order_id=order_id,
        eta=date_text(first.get("eta")),
        shipment_status=w.label(f"shipment_{status}", status),
    )
    tail = [
        w.say(
            "open_ticket",
            ticket_id=as_str(t.get("ticket_id")),
            status=w.label(f"ticket_status_{as_str(t.get('status'))}", as_str(t.get("status"))),
        )
        for t in as_list(data.get("open_tickets"))
        if t.get("ticket_id")
    ]
    if not w.handed_off:
        tail.append(w.say("late_escalate"))  # (a transfer made this turn is told on its own)
    return [apology, *lines, *tail]


def _carrier(w: Writer, shipment: dict[str, Any]) -> str:
    name = shipment.get("carrier_name_zh") if w.lang == "zh" else shipment.get("carrier_name")
    return as_str(name or shipment.get("carrier_name") or shipment.get("carrier"))


def _shipment(w: Writer, shipment: dict[str, Any]) -> str:
    values = {
        "carrier": _carrier(w, shipment),
        "tracking_number": need(as_str(shipment.get("tracking_number"))),
    }
    status = as_str(shipment.get("status"))
    if status == "delivered" and shipment.get("delivered_at"):
        return w.say("shipment_done", delivered_at=date_text(shipment["delivered_at"]), **values)
    label = w.label(f"shipment_{status}", status)
    if shipment.get("eta"):
        return w.say(
            "shipment_eta", shipment_status=label, eta=date_text(shipment["eta"]), **values
        )
    return w.say("shipment_no_eta", shipment_status=label, **values)


def orders_text(w: Writer, data: dict[str, Any], *, about_refund: bool = False) -> str:
    """The orders listed; (``about_refund``: the customer asks about money back) each with
    what can still be refunded on it."""
    orders = as_list(data["orders"])
    if not orders:
        return w.say("orders_empty")
    lines = [w.say("orders_header")]
    for order in orders[:_MAX_ORDERS]:
        status = as_str(order.get("status"))
        lines.append(
            w.say(
                "orders_line",
                order_id=need(as_str(order["order_id"])),
                status=status_label(w, status),
                total=money(order.get("total", 0)),
                item_count=order.get("item_count", 0),
                created=date_text(order.get("created_at")),
            )
        )
        if about_refund and "refundable_amount" in order:
            amount = float(order["refundable_amount"])
            lines.append(
                w.say("orders_refundable", amount=money(amount))
                if amount > 0
                else w.say("orders_not_refundable")
            )
    return "\n".join(lines)


def tracking_text(w: Writer, data: dict[str, Any], fallback_id: str | None) -> str:
    order_id = need(as_str(data.get("order_id")) or fallback_id)
    shipments = as_list(data["shipments"])
    found_by = _found_by_product(w, data, order_id)
    if not shipments:
        return "\n".join([*found_by, w.say("tracking_not_shipped", order_id=order_id)])
    status = as_str(data.get("order_status"))
    lines = [
        w.say("tracking_header_status", order_id=order_id, status=status_label(w, status))
        if status
        else w.say("tracking_header", order_id=order_id)
    ]
    for shipment in shipments:
        lines.append(_shipment(w, shipment))
        events = sorted(
            as_list(shipment.get("events")), key=lambda e: as_str(e.get("at")), reverse=True
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
                    location=_location(w, event),
                    description=_event_text(w, event),
                )
            )
    return "\n".join([*found_by, *_with_delay(w, data, order_id, lines)])


def _found_by_product(w: Writer, data: dict[str, Any], order_id: str) -> list[str]:
    """ "Your latest order with Wireless Headphones is 100683." when the parcel was looked up by
    a product the customer named (and which other orders hold it)."""
    product = as_dict(data.get("matched_product"))
    if not product:
        return []
    name = as_str(product.get("name_zh") if w.lang == "zh" else product.get("name"))
    name = name or as_str(product.get("name")) or as_str(product.get("sku"))
    lines = [w.say("tracking_by_product", product=name, order_id=order_id)]
    listed = data.get("other_orders_with_product")
    others = [as_str(o) for o in listed if o] if isinstance(listed, list) else []
    if others:
        lines.append(w.say("tracking_by_product_others", product=name, orders=", ".join(others)))
    return lines


def address_change_text(w: Writer, order: dict[str, Any]) -> str:
    """What can be done about a delivery address: the bot cannot change it; before shipping the
    team can, after shipping only the carrier can redirect the parcel."""
    order_id = need(as_str(order["order_id"]))
    status = as_str(order["status"])
    label = status_label(w, status)
    if status in ("pending", "paid"):
        return w.say("address_change_unshipped", order_id=order_id, status=label)
    shipments = [s for s in as_list(order.get("shipments")) if s.get("status") != "delivered"]
    if status == "shipped" and shipments:
        first = shipments[0]
        return w.say(
            "address_change_shipped",
            order_id=order_id,
            carrier=_carrier(w, first),
            tracking_number=need(as_str(first.get("tracking_number"))),
        )
    return w.say("address_change_closed", order_id=order_id, status=label)


def faq_text(w: Writer, data: dict[str, Any], topic: str | None) -> str:
    articles = as_list(data["articles"])
    if not articles:
        return w.say("faq_not_found")
    ranked = sorted(
        articles,
        key=lambda a: (a.get("topic") != topic, a.get("lang") not in (None, w.lang)),
    )
    best = ranked[0]
    answer = as_str(best.get("answer")).strip()
    if not answer:
        return w.say("faq_not_found")
    topic_key = f"topic_{best.get('topic') or topic}"
    return w.say("faq_answer", topic=w.label(topic_key, w.t["topic_general"]), answer=answer)


def known_details(w: Writer, result: ToolResult) -> str:
    """Key facts of a usable result, straight from its data; empty when there are none."""
    if result.status not in (ToolStatus.OK, ToolStatus.STALE) or result.fallback:
        return ""
    data = as_dict(result.data)
    parts: list[str] = []
    status = as_str(data.get("status"))
    if status in ORDER_STATUSES:
        parts.append(w.say("detail_status", status=status_label(w, status)))
    for shipment in as_list(data.get("shipments"))[:3]:
        number = as_str(shipment.get("tracking_number"))
        if number:
            parts.append(w.say("detail_tracking", tracking_number=number))
        eta = as_str(shipment.get("eta"))
        if eta:
            parts.append(w.say("detail_eta", eta=eta))
    if "total_available" in data:
        parts.append(w.say("detail_available", available=data["total_available"]))
    if data.get("ticket_id"):
        parts.append(w.say("detail_ticket", ticket_id=data["ticket_id"]))
    if data.get("refund_id"):
        parts.append(
            w.say("detail_refund", refund_id=data["refund_id"], amount=money(data.get("amount")))
        )
    return w.t["detail_separator"].join(parts)


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, dict)]


def as_str(value: Any) -> str:
    return "" if value is None else str(value)


def need(value: str | None) -> str:
    if not value:
        raise ValueError("a required field is missing")
    return value


def money(value: Any) -> str:
    return f"{float(value):.2f}"


def date_text(value: Any) -> str:
    """A date as the customer reads it: a timestamp's date in China time, a date as it is."""
    local = local_datetime(as_str(value), SHOP_TIME_ZONE) if "T" in as_str(value) else None
    return local.strftime("%Y-%m-%d") if local is not None else as_str(value)[:10]


def _time(value: Any) -> str:
    """A timestamp in China time, to the minute (the data's text when it is not one)."""
    local = local_datetime(as_str(value), SHOP_TIME_ZONE)
    if local is None:
        return as_str(value).replace("T", " ").rstrip("Z")[:16]
    return local.strftime("%Y-%m-%d %H:%M")


def _location(w: Writer, event: dict[str, Any]) -> str:
    name = event.get("location_zh") if w.lang == "zh" else event.get("location")
    return as_str(name or event.get("location"))


def status_label(w: Writer, status: str) -> str:
    return w.label(f"status_{status}", status)


def product_name(w: Writer, record: dict[str, Any]) -> str:
    zh = w.lang == "zh"
    name = record.get("name_zh") if zh else record.get("name")
    return as_str(name or record.get("name") or record.get("sku"))


def _event_text(w: Writer, event: dict[str, Any]) -> str:
    zh = w.lang == "zh"
    text = event.get("description_zh") if zh else event.get("description")
    return as_str(text or event.get("description"))


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]
