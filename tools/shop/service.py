"""The demo shop's queries and business rules, as plain functions over a SQLite connection.

Each function takes the connection (the caller holds the lock / transaction), the
authenticated customer id where ownership matters, and returns the JSON-ready dict the HTTP
contract in ``API.md`` describes, or raises :class:`ShopError` carrying the status, the error
code and an English message. Another customer's order or ticket is reported exactly like a
missing one. Money is integer cents inside and a two-decimal CNY number outside
(:mod:`~helpdesk.tools.shop.conventions`, with :class:`ShopError`).

This module is that surface, as :mod:`helpdesk.tools.shop.app` calls it; the functions live by
job: the customer's account reads (:mod:`~helpdesk.tools.shop.account`), the writes on it
(:mod:`~helpdesk.tools.shop.writes`) and the catalogue (:mod:`~helpdesk.tools.shop.browse`).
"""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Any

from helpdesk.tools.shop.account import (
    CANCELLABLE_STATUSES,
    OPEN_TICKET_STATUSES,
    REFUNDABLE_STATUSES,
    get_customer,
    get_order,
    get_refund,
    get_ticket,
    get_tracking,
    get_tracking_by_number,
    get_tracking_by_product,
    list_orders,
    list_tickets,
    ordered_skus,
)
from helpdesk.tools.shop.browse import (
    get_inventory,
    matching_skus,
    named_skus,
    search_faq,
    search_products,
)
from helpdesk.tools.shop.conventions import ShopError, money, to_cents
from helpdesk.tools.shop.writes import cancel_order, create_refund, create_ticket

__all__ = [
    "CANCELLABLE_STATUSES",
    "OPEN_TICKET_STATUSES",
    "REFUNDABLE_STATUSES",
    "ShopError",
    "cancel_order",
    "create_refund",
    "create_ticket",
    "get_customer",
    "get_inventory",
    "get_order",
    "get_refund",
    "get_ticket",
    "get_tracking",
    "get_tracking_by_number",
    "get_tracking_by_product",
    "list_orders",
    "list_tickets",
    "money",
    "orders_naming",
    "search_faq",
    "search_products",
    "to_cents",
    "track_product",
]


def track_product(
    conn: sqlite3.Connection, customer_id: str, query: str, today: date | None = None
) -> dict[str, Any]:
    """The tracking of the customer's latest order holding the product ``query`` names
    ("where are my headphones?"); see :func:`get_tracking_by_product`."""
    return get_tracking_by_product(conn, customer_id, matching_skus(conn, query), query, today)


def orders_naming(
    conn: sqlite3.Connection, customer_id: str, text: str, status: str | None, limit: int
) -> dict[str, Any]:
    """The customer's orders holding the product their words name ("cancel my air fryer
    order", "净化器那单"), newest first, with the products matched (``matched_products``);
    words naming none of the products the customer ordered filter nothing (and match none)."""
    skus = named_skus(conn, text, ordered_skus(conn, customer_id))
    found = list_orders(conn, customer_id, status, limit, skus=skus or None)
    marks = ",".join("?" * len(skus))
    rows = (
        conn.execute(
            f"SELECT sku, name, name_zh FROM products WHERE sku IN ({marks}) ORDER BY sku", skus
        ).fetchall()
        if skus
        else []
    )
    return {**found, "matched_products": [dict(row) for row in rows]}
