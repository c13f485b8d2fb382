"""The demo shop's queries and business rules, as plain functions over a SQLite connection.

Each function takes the connection (the caller holds the lock / transaction), the
authenticated customer id where ownership matters, and returns the JSON-ready dict the HTTP
contract in ``API.md`` describes, or raises :class:`ShopError` carrying the status, the error
code and an English message. Another customer's order or ticket is reported exactly like a
missing one. Money is integer cents inside and a two-decimal CNY number outside.
"""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import date, datetime
from typing import Any

from helpdesk.tools.shop.catalog import SEARCH_ALIASES, city_zh
from helpdesk.tools.shop.product_search import product_text, rank_products
from helpdesk.tools.shop.seed import iso

__all__ = [
    "CANCELLABLE_STATUSES",
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
    "list_orders",
    "list_tickets",
    "money",
    "search_faq",
    "search_products",
    "to_cents",
]

CANCELLABLE_STATUSES = frozenset({"pending", "paid"})
REFUNDABLE_STATUSES = frozenset({"paid", "shipped", "delivered"})
_COUNTED_REFUNDS = ("requested", "approved", "paid")  # a rejected refund gives nothing back


class ShopError(Exception):
    """A request the shop refuses: HTTP status, snake_case code, English message.

    Args:
        status_code: HTTP status of the error response.
        code: Machine-readable error code (``order_not_found``, ``not_cancellable``, ...).
        message: One English sentence for people and models.
        extra: More keys for the ``error`` object (e.g. ``fields``, ``status``, ``remaining``).
    """

    def __init__(self, status_code: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The ``{"error": {...}}`` envelope."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def money(cents: int) -> float:
    """Integer cents as a CNY number with two decimals."""
    return round(cents / 100, 2)


def to_cents(amount: float) -> int:
    """A CNY amount as integer cents (the caller has checked it has at most two decimals)."""
    return round(amount * 100)


def get_customer(conn: sqlite3.Connection, customer_id: str) -> dict[str, Any] | None:
    """The customer's profile, or None when there is no such customer."""
    row = conn.execute(
        "SELECT customer_id, name, email, phone, tier, language, city FROM customers"
        " WHERE customer_id = ?",
        (customer_id,),
    ).fetchone()
    return None if row is None else dict(row)


def list_orders(
    conn: sqlite3.Connection, customer_id: str, status: str | None, limit: int
) -> dict[str, Any]:
    """The customer's orders, newest first, optionally of one status."""
    sql = (
        "SELECT o.order_id, o.status, o.created_at, o.total_cents, o.currency,"
        " (SELECT COALESCE(SUM(quantity), 0) FROM order_items i WHERE i.order_id = o.order_id)"
        " AS item_count FROM orders o WHERE o.customer_id = ?"
    )
    params: list[Any] = [customer_id]
    if status is not None:
        sql += " AND o.status = ?"
        params.append(status)
    sql += " ORDER BY o.created_at DESC, o.order_id DESC LIMIT ?"
    params.append(limit)
    return {
        "orders": [
            {
                "order_id": row["order_id"],
                "status": row["status"],
                "created_at": row["created_at"],
                "total": money(row["total_cents"]),
                "currency": row["currency"],
                "item_count": row["item_count"],
            }
            for row in conn.execute(sql, params)
        ]
    }


def _owned_order(conn: sqlite3.Connection, customer_id: str, order_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM orders WHERE order_id = ? AND customer_id = ?", (order_id, customer_id)
    ).fetchone()
    if row is None:
        raise ShopError(404, "order_not_found", f"Order {order_id} was not found.")
    return row


def _refunded_cents(conn: sqlite3.Connection, order_id: str) -> int:
    marks = ", ".join("?" * len(_COUNTED_REFUNDS))
    row = conn.execute(
        f"SELECT COALESCE(SUM(amount_cents), 0) FROM refunds"
        f" WHERE order_id = ? AND status IN ({marks})",
        (order_id, *_COUNTED_REFUNDS),
    ).fetchone()
    return int(row[0])


def _shipments(
    conn: sqlite3.Connection, order_id: str, today: date | None = None
) -> list[dict[str, Any]]:
    """The order's shipments; with ``today``, each says whether it is ``overdue`` (its delivery
    estimate has passed and it has not been delivered)."""
    shipments = [
        {
            "shipment_id": row["shipment_id"],
            "carrier": row["carrier"],
            "carrier_name": row["carrier_name"],
            "carrier_name_zh": row["carrier_name_zh"],
            "tracking_number": row["tracking_number"],
            "status": row["status"],
            "warehouse": row["warehouse"],
            "shipped_at": row["shipped_at"],
            "eta": row["eta"],
            "delivered_at": row["delivered_at"],
        }
        for row in conn.execute(
            "SELECT * FROM shipments WHERE order_id = ? ORDER BY shipment_id", (order_id,)
        )
    ]
    if today is not None:
        for shipment in shipments:
            eta = shipment["eta"]
            shipment["overdue"] = bool(
                eta and shipment["status"] != "delivered" and eta < today.isoformat()
            )
    return shipments


#: Ticket statuses that are still being worked on.
OPEN_TICKET_STATUSES = ("open", "pending")


def _open_tickets(conn: sqlite3.Connection, order_id: str) -> list[dict[str, Any]]:
    """The order's tickets still being worked on (id, category, status, when opened)."""
    return [
        {
            "ticket_id": row["ticket_id"],
            "category": row["category"],
            "status": row["status"],
            "created_at": row["created_at"],
        }
        for row in conn.execute(
            "SELECT * FROM tickets WHERE order_id = ? AND status IN (?, ?) ORDER BY ticket_id",
            (order_id, *OPEN_TICKET_STATUSES),
        )
    ]


def _refund_dict(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "refund_id": row["refund_id"],
        "order_id": row["order_id"],
        "amount": money(row["amount_cents"]),
        "currency": "CNY",
        "status": row["status"],
        "reason": row["reason"],
        "created_at": row["created_at"],
    }


def _order_dict(
    conn: sqlite3.Connection, row: sqlite3.Row, today: date | None = None
) -> dict[str, Any]:
    order_id = row["order_id"]
    remaining = row["total_cents"] - _refunded_cents(conn, order_id)
    refundable = row["status"] in REFUNDABLE_STATUSES and remaining > 0
    return {
        "order_id": order_id,
        "customer_id": row["customer_id"],
        "status": row["status"],
        "created_at": row["created_at"],
        "paid_at": row["paid_at"],
        "cancelled_at": row["cancelled_at"],
        "cancel_reason": row["cancel_reason"],
        "items": [
            {
                "sku": item["sku"],
                "name": item["name"],
                "name_zh": item["name_zh"],
                "quantity": item["quantity"],
                "unit_price": money(item["unit_price_cents"]),
            }
            for item in conn.execute(
                "SELECT * FROM order_items WHERE order_id = ? ORDER BY line_no", (order_id,)
            )
        ],
        "total": money(row["total_cents"]),
        "currency": row["currency"],
        "shipping_city": row["shipping_city"],
        "shipping_city_zh": row["shipping_city_zh"],
        "shipments": _shipments(conn, order_id, today),
        "open_tickets": _open_tickets(conn, order_id),
        "refunds": [
            _refund_dict(r)
            for r in conn.execute(
                "SELECT * FROM refunds WHERE order_id = ? ORDER BY refund_id", (order_id,)
            )
        ],
        "cancellable": row["status"] in CANCELLABLE_STATUSES,
        "refundable": refundable,
        "refundable_amount": money(remaining) if refundable else 0.0,
    }


def get_order(
    conn: sqlite3.Connection, customer_id: str, order_id: str, today: date | None = None
) -> dict[str, Any]:
    """One of the customer's orders in full (404 ``order_not_found`` otherwise)."""
    return _order_dict(conn, _owned_order(conn, customer_id, order_id), today)


def get_tracking(
    conn: sqlite3.Connection, customer_id: str, order_id: str, today: date | None = None
) -> dict[str, Any]:
    """The order's shipments with their tracking events, oldest event first, and the order's
    open tickets."""
    _owned_order(conn, customer_id, order_id)
    shipments = _shipments(conn, order_id, today)
    for shipment in shipments:
        shipment["events"] = [
            {
                "at": event["at"],
                "location": event["location"],
                "location_zh": event["location_zh"],
                "description": event["description"],
                "description_zh": event["description_zh"],
            }
            for event in conn.execute(
                "SELECT * FROM tracking_events WHERE shipment_id = ? ORDER BY seq",
                (shipment["shipment_id"],),
            )
        ]
    return {
        "order_id": order_id,
        "shipments": shipments,
        "open_tickets": _open_tickets(conn, order_id),
    }


def get_tracking_by_number(
    conn: sqlite3.Connection, customer_id: str, tracking_number: str, today: date | None = None
) -> dict[str, Any]:
    """The tracking of the customer's order that has this tracking number (404
    ``tracking_not_found`` when no shipment of theirs has it)."""
    number = tracking_number.strip().upper()
    row = conn.execute(
        "SELECT s.order_id FROM shipments s JOIN orders o ON o.order_id = s.order_id"
        " WHERE s.tracking_number = ? AND o.customer_id = ?",
        (number, customer_id),
    ).fetchone()
    if row is None:
        raise ShopError(404, "tracking_not_found", f"Tracking number {number} was not found.")
    return get_tracking(conn, customer_id, row["order_id"], today)


def _restock_passed(restock: str | None, today: date | None) -> bool:
    """Whether a planned restock date has passed without the stock arriving."""
    return bool(restock and today is not None and restock < today.isoformat())


def get_inventory(conn: sqlite3.Connection, sku: str, today: date | None = None) -> dict[str, Any]:
    """Stock of one SKU per warehouse (404 ``sku_not_found``)."""
    sku = sku.strip().upper()
    product = conn.execute("SELECT * FROM products WHERE sku = ?", (sku,)).fetchone()
    if product is None:
        raise ShopError(404, "sku_not_found", f"Product {sku} was not found.")
    warehouses = [
        {
            "warehouse": row["warehouse"],
            "city": row["city"],
            "city_zh": city_zh(row["city"]),
            "available": row["available"],
        }
        for row in conn.execute("SELECT * FROM inventory WHERE sku = ? ORDER BY warehouse", (sku,))
    ]
    total = sum(w["available"] for w in warehouses)
    return {
        "sku": sku,
        "name": product["name"],
        "name_zh": product["name_zh"],
        "category": product["category"],
        "price": money(product["price_cents"]),
        "currency": "CNY",
        "total_available": total,
        "in_stock": total > 0,
        "warehouses": warehouses,
        "restock_date": product["restock_date"] if total == 0 else None,
        "restock_passed": total == 0 and _restock_passed(product["restock_date"], today),
    }


def search_products(
    conn: sqlite3.Connection, query: str | None, limit: int, today: date | None = None
) -> dict[str, Any]:
    """Products matching the query, best first (:mod:`~helpdesk.tools.shop.product_search`).

    Each carries its price, whether any warehouse has it and, when none has, the restock date.
    """
    rows = conn.execute(
        "SELECT p.sku, p.name, p.name_zh, p.category, p.price_cents, p.restock_date,"
        " (SELECT COALESCE(SUM(available), 0) FROM inventory i WHERE i.sku = p.sku) AS stock"
        " FROM products p ORDER BY p.sku"
    ).fetchall()
    by_sku = {row["sku"]: row for row in rows}
    texts = [
        product_text(
            row["sku"],
            (row["name"], row["name_zh"], row["sku"], row["category"],
             *SEARCH_ALIASES.get(row["name"], ())),
        )
        for row in rows
    ]  # fmt: skip
    ranked = rank_products(query or "", texts)[:limit]
    return {"products": [_product_hit(by_sku[sku], today) for sku in ranked]}


def _product_hit(row: sqlite3.Row, today: date | None = None) -> dict[str, Any]:
    in_stock = row["stock"] > 0
    return {
        "sku": row["sku"],
        "name": row["name"],
        "name_zh": row["name_zh"],
        "category": row["category"],
        "price": money(row["price_cents"]),
        "currency": "CNY",
        "in_stock": in_stock,
        "restock_date": None if in_stock else row["restock_date"],
        "restock_passed": not in_stock and _restock_passed(row["restock_date"], today),
    }


_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS = frozenset(
    {
        "the", "and", "for", "you", "your", "can", "how", "what", "when", "where", "which",
        "with", "does", "did", "are", "was", "get", "got", "our", "this", "that", "have", "has",
        "about", "from",
    }
)  # fmt: skip


def search_faq(
    conn: sqlite3.Connection, query: str | None, lang: str | None, topic: str | None
) -> dict[str, Any]:
    """FAQ articles, best match first, optionally of one language and topic.

    A query is matched per topic across both languages (a Chinese question still finds the
    English article when ``lang=en``); without a query, or when a ``topic`` is given, every
    article that passes the filters is returned, ranked by the query.
    """
    rows = conn.execute("SELECT * FROM faq_articles ORDER BY article_id").fetchall()
    text = (query or "").strip().lower()
    relevance: dict[str, int] = {}
    for row in rows:
        score = _faq_score(row, text) if text else 0
        relevance[row["topic"]] = max(score, relevance.get(row["topic"], 0))
    chosen = [
        row
        for row in rows
        if (lang is None or row["lang"] == lang)
        and (topic is None or row["topic"] == topic)
        and (not text or topic is not None or relevance[row["topic"]] > 0)
    ]
    chosen.sort(key=lambda row: -relevance[row["topic"]])  # stable: article order breaks ties
    return {
        "articles": [
            {
                "article_id": row["article_id"],
                "topic": row["topic"],
                "question": row["question"],
                "answer": row["answer"],
                "lang": row["lang"],
            }
            for row in chosen
        ]
    }


def _faq_score(row: sqlite3.Row, text: str) -> int:
    score = 5 if row["topic"].replace("_", " ") in text else 0
    score += sum(3 for keyword in row["keywords"].lower().split() if keyword in text)
    haystack = f"{row['question']} {row['answer']}".lower()
    words = {w for w in _WORD.findall(text) if len(w) > 2 and w not in _STOPWORDS}
    return score + sum(1 for w in words if w in haystack)


def _ticket_dict(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "ticket_id": row["ticket_id"],
        "category": row["category"],
        "subject": row["subject"],
        "description": row["description"],
        "order_id": row["order_id"],
        "priority": row["priority"],
        "status": row["status"],
        "created_at": row["created_at"],
        "facts": None if row["facts_json"] is None else json.loads(row["facts_json"]),
    }


def get_ticket(conn: sqlite3.Connection, customer_id: str, ticket_id: str) -> dict[str, Any]:
    """One of the customer's tickets (404 ``ticket_not_found`` otherwise)."""
    row = conn.execute(
        "SELECT * FROM tickets WHERE ticket_id = ? AND customer_id = ?", (ticket_id, customer_id)
    ).fetchone()
    if row is None:
        raise ShopError(404, "ticket_not_found", f"Ticket {ticket_id} was not found.")
    return _ticket_dict(row)


def list_tickets(conn: sqlite3.Connection, customer_id: str, limit: int) -> dict[str, Any]:
    """The customer's tickets, newest first."""
    rows = conn.execute(
        "SELECT * FROM tickets WHERE customer_id = ? ORDER BY created_at DESC, ticket_id DESC"
        " LIMIT ?",
        (customer_id, limit),
    )
    return {"tickets": [_ticket_dict(row) for row in rows]}


def get_refund(conn: sqlite3.Connection, customer_id: str, refund_id: str) -> dict[str, Any]:
    """One of the customer's refunds (404 ``refund_not_found`` otherwise)."""
    row = conn.execute(
        "SELECT * FROM refunds WHERE refund_id = ? AND customer_id = ?", (refund_id, customer_id)
    ).fetchone()
    if row is None:
        raise ShopError(404, "refund_not_found", f"Refund {refund_id} was not found.")
    return _refund_dict(row)


def _next_id(conn: sqlite3.Connection, table: str, column: str, prefix: str) -> str:
    row = conn.execute(f"SELECT MAX({column}) FROM {table}").fetchone()
    last = int(row[0][len(prefix) :]) if row[0] else 0
    return f"{prefix}{last + 1:06d}"


def _insert_refund(
    conn: sqlite3.Connection,
    order: sqlite3.Row,
    amount_cents: int,
    status: str,
    reason: str | None,
    now: datetime,
) -> sqlite3.Row:
    refund_id = _next_id(conn, "refunds", "refund_id", "R-")
    conn.execute(
        "INSERT INTO refunds VALUES (?, ?, ?, ?, ?, ?, ?)",
        (refund_id, order["order_id"], order["customer_id"], amount_cents, status, reason,
         iso(now)),
    )  # fmt: skip
    row: sqlite3.Row = conn.execute(
        "SELECT * FROM refunds WHERE refund_id = ?", (refund_id,)
    ).fetchone()
    return row


def cancel_order(
    conn: sqlite3.Connection, customer_id: str, order_id: str, reason: str | None, now: datetime
) -> dict[str, Any]:
    """Cancel a pending or paid order; a paid one gets an approved full refund at once.

    Raises:
        ShopError: 404 ``order_not_found``; 409 ``not_cancellable`` naming the current status.
    """
    order = _owned_order(conn, customer_id, order_id)
    if order["status"] not in CANCELLABLE_STATUSES:
        raise ShopError(
            409,
            "not_cancellable",
            f"Order {order_id} is {order['status']} and can no longer be cancelled; "
            "only pending or paid orders can be.",
            status=order["status"],
        )
    conn.execute(
        "UPDATE orders SET status = 'cancelled', cancelled_at = ?, cancel_reason = ?"
        " WHERE order_id = ?",
        (iso(now), reason, order_id),
    )
    if order["status"] == "paid":
        remaining = order["total_cents"] - _refunded_cents(conn, order_id)
        if remaining > 0:
            _insert_refund(conn, order, remaining, "approved", "Order cancelled", now)
    return get_order(conn, customer_id, order_id)


def create_refund(
    conn: sqlite3.Connection,
    customer_id: str,
    order_id: str,
    amount_cents: int | None,
    reason: str | None,
    now: datetime,
) -> dict[str, Any]:
    """Request a refund of ``amount_cents`` (None: everything not yet refunded).

    Raises:
        ShopError: 404 ``order_not_found``; 409 ``not_refundable`` (pending / cancelled order,
            or nothing left); 422 ``amount_too_large`` (more than what is left).
    """
    order = _owned_order(conn, customer_id, order_id)
    if order["status"] not in REFUNDABLE_STATUSES:
        raise ShopError(
            409,
            "not_refundable",
            f"Order {order_id} is {order['status']}; only paid, shipped or delivered orders "
            "can be refunded.",
            status=order["status"],
        )
    remaining = order["total_cents"] - _refunded_cents(conn, order_id)
    if remaining <= 0:
        raise ShopError(
            409,
            "not_refundable",
            f"Order {order_id} has already been refunded in full.",
            status=order["status"],
            remaining=0.0,
        )
    if amount_cents is not None and amount_cents > remaining:
        raise ShopError(
            422,
            "amount_too_large",
            f"At most {money(remaining):.2f} CNY of order {order_id} can still be refunded; "
            f"{money(amount_cents):.2f} CNY was requested.",
            remaining=money(remaining),
        )
    amount = remaining if amount_cents is None else amount_cents
    return _refund_dict(_insert_refund(conn, order, amount, "requested", reason, now))


def create_ticket(
    conn: sqlite3.Connection, customer_id: str, fields: dict[str, Any], now: datetime
) -> dict[str, Any]:
    """Open a ticket with the next sequential id (``T-000041`` after the seeded ones).

    Raises:
        ShopError: 404 ``order_not_found`` when ``order_id`` is not one of the customer's.
    """
    if fields.get("order_id") is not None:
        _owned_order(conn, customer_id, fields["order_id"])
    ticket_id = _next_id(conn, "tickets", "ticket_id", "T-")
    facts = fields.get("facts")
    conn.execute(
        "INSERT INTO tickets VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)",
        (ticket_id, customer_id, fields["category"], fields["subject"], fields["description"],
         fields.get("order_id"), fields["priority"], iso(now),
         None if facts is None else json.dumps(facts, ensure_ascii=False, sort_keys=True)),
    )  # fmt: skip
    return get_ticket(conn, customer_id, ticket_id)
