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
    get_tracking,
    get_tracking_by_number,
    get_tracking_by_product,
    list_orders,
    list_refunds,
    ordered_skus,
)
from helpdesk.tools.shop.browse import (
    get_inventory,
    matching_skus,
    mentioned,
    named_skus,
    search_faq,
    search_products,
)
from helpdesk.tools.shop.conventions import ShopError, money, to_cents
from helpdesk.tools.shop.tickets import get_ticket, list_tickets
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
    "list_refunds",
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
    conn: sqlite3.Connection,
    customer_id: str,
    text: str,
    status: str | None,
    limit: int,
    context: str | None = None,
    every: bool = False,
) -> dict[str, Any]:
    """The customer's orders holding the product their words name ("cancel my air fryer
    order", "净化器那单"), newest first, each with the products of it the words matched
    (``matched``). Words naming none of the products the customer ordered filter nothing and
    match none; ``names_a_product`` says whether they name a product of the catalogue at all
    ("my kayak order": yes, though the customer never ordered one). ``context`` (words told
    before ``text``) is read only when ``text`` names none of the customer's products ("the
    display flickers … open a repair ticket for it"). ``every``: the orders of every product
    the words name ("the air fryer … and the cameras … where are they?"), not only of the most
    strongly named."""
    ordered = ordered_skus(conn, customer_id)
    scores = mentioned(conn, text, ordered)
    if not scores and context:
        text = f"{context} {text}"
        scores = mentioned(conn, text, ordered)
    best = max(scores.values(), default=0)
    skus = [sku for sku, score in scores.items() if (every or score == best) and score > 0]
    found = list_orders(conn, customer_id, status, limit, skus=skus or None)
    names: dict[str, dict[str, str]] = {}
    if skus:
        # (every product the words name, for what each order found holds of them: "refund 100
        # for the thermos and 200 for the air fryer" matched both in 100200, not the strongest)
        said = [sku for sku, score in scores.items() if score > 0]
        marks = ",".join("?" * len(said))
        rows = conn.execute(
            f"SELECT sku, name, name_zh FROM products WHERE sku IN ({marks})", said
        ).fetchall()
        every_name = {row["sku"]: {"en": row["name"], "zh": row["name_zh"]} for row in rows}
        names = {sku: every_name[sku] for sku in skus if sku in every_name}
        for order in found["orders"]:
            held = {
                row["sku"]
                for row in conn.execute(
                    f"SELECT sku FROM order_items WHERE order_id = ? AND sku IN ({marks})",
                    (order["order_id"], *said),
                )
            }
            order["matched"] = [every_name[sku] for sku in sorted(held)]
            # "the air fryer + plates + thermos order": how much of what the words name it holds
            order["mentions"] = sum(
                score
                for (sku,) in conn.execute(
                    "SELECT sku FROM order_items WHERE order_id = ?", (order["order_id"],)
                )
                if (score := scores.get(sku))
            )
    catalog = [row["sku"] for row in conn.execute("SELECT sku FROM products")]
    return {
        **found,
        "matched_products": [{"sku": sku, **names[sku]} for sku in sorted(names)],
        "names_a_product": bool(skus) or bool(named_skus(conn, text, catalog)),
    }
