"""The demo shop's kinds of request, and how a reply names one ("the refund for order 100609")."""

from __future__ import annotations

from typing import Literal

from helpdesk.graph.replies import Writer
from helpdesk.packs.shop.intents import ShopIntent

__all__ = ["INTENT_KINDS", "READ_KINDS", "TOOL_KINDS", "Kind", "order_ref", "what_of"]

Kind = Literal[
    "order",
    "orders",
    "tracking",
    "stock",
    "faq",
    "ticket_status",
    "refund_status",
    "cancel",
    "refund",
    "ticket",
    "handoff",
    "other",
]


READ_KINDS: frozenset[str] = frozenset(
    {"order", "orders", "tracking", "stock", "faq", "ticket_status", "refund_status"}
)


TOOL_KINDS: dict[str, Kind] = {
    "get_order": "order",
    "list_orders": "orders",
    "track_shipment": "tracking",
    "check_stock": "stock",
    "search_products": "stock",
    "search_faq": "faq",
    "get_ticket": "ticket_status",
    "list_tickets": "ticket_status",
    "list_refunds": "refund_status",
    "cancel_order": "cancel",
    "request_refund": "refund",
    "create_ticket": "ticket",
    "handoff_to_human": "handoff",
}


INTENT_KINDS: dict[str, Kind] = {
    ShopIntent.ORDER_STATUS: "order",
    ShopIntent.LIST_ORDERS: "orders",
    ShopIntent.TRACKING: "tracking",
    ShopIntent.STOCK: "stock",
    ShopIntent.FAQ: "faq",
    ShopIntent.CANCEL_ORDER: "cancel",
    ShopIntent.REFUND: "refund",
    ShopIntent.CREATE_TICKET: "ticket",
    ShopIntent.HANDOFF: "handoff",
}


def order_ref(w: Writer, order_id: str | None) -> str:
    if order_id:
        return w.say("order_ref", order_id=order_id)
    return w.say("order_ref_none")


def what_of(w: Writer, kind: Kind, order_id: str | None, sku: str | None) -> str:
    product = w.say("product_ref", sku=sku) if sku else w.say("product_ref_none")
    key = f"what_{kind}"
    return w.say(key if key in w.t else "what_other", order=order_ref(w, order_id), product=product)
