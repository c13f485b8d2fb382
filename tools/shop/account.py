"""The demo shop's account reads: a customer's profile, orders, tracking, tickets and refunds.

Plain functions over a SQLite connection that take the authenticated customer id: another
customer's order, ticket or refund is reported exactly like a missing one (a
:class:`~helpdesk.tools.shop.conventions.ShopError` 404). An order says whether it can still be
cancelled or refunded, and how much is left to refund (the rules the writes in
:mod:`~helpdesk.tools.shop.writes` enforce).
"""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Any

from helpdesk.tools.shop.conventions import ShopError, money, newest

__all__ = [
    "CANCELLABLE_STATUSES",
    "OPEN_TICKET_STATUSES",
    "REFUNDABLE_STATUSES",
    "get_customer",
    "get_order",
    "get_refund",
    "get_tracking",
    "get_tracking_by_number",
    "list_orders",
    "list_refunds",
    "owned_order",
    "refund_dict",
    "refunded_cents",
]

CANCELLABLE_STATUSES = frozenset({"pending", "paid"})
REFUNDABLE_STATUSES = frozenset({"paid", "shipped", "delivered"})
_COUNTED_REFUNDS = ("requested", "approved", "paid")  # a rejected refund gives nothing back


def get_customer(conn: sqlite3.Connection, customer_id: str) -> dict[str, Any] | None:
    """The customer's profile, or None when there is no such customer."""
    row = conn.execute(
        "SELECT customer_id, name, email, phone, tier, language, city FROM customers"
        " WHERE customer_id = ?",
        (customer_id,),
    ).fetchone()
    return None if row is None else dict(row)


def list_orders(
    conn: sqlite3.Connection,
    customer_id: str,
    status: str | None,
    limit: int,
    skus: list[str] | None = None,
    refund_id: str | None = None,
    total_cents: int | None = None,
    tracking_number: str | None = None,
    refunded_cents: int | None = None,
    left_cents: int | None = None,
    ticket_id: str | None = None,
) -> dict[str, Any]:
    """The customer's orders, newest first, optionally of one status, (``skus``) only those
    holding one of these products, (``refund_id``) only the one that refund is of,
    (``total_cents``) only those of that total ("the 797 order"), (``tracking_number``) only
    the one that parcel is of, (``refunded_cents``) only those with a refund of that amount
    ("the 433 you refunded"), (``left_cents``) only those with that much not yet refunded
    ("the 866 that's left") and (``ticket_id``) only the one that ticket is about."""
    counted = ", ".join("?" * len(_COUNTED_REFUNDS))
    sql = (
        "SELECT o.order_id, o.status, o.created_at, o.total_cents, o.currency,"
        " (SELECT COALESCE(SUM(quantity), 0) FROM order_items i WHERE i.order_id = o.order_id)"
        " AS item_count, (SELECT COALESCE(SUM(amount_cents), 0) FROM refunds r"
        f" WHERE r.order_id = o.order_id AND r.status IN ({counted})) AS refunded_cents"
        " FROM orders o WHERE o.customer_id = ?"
    )
    params: list[Any] = [*_COUNTED_REFUNDS, customer_id]
    if status is not None:
        sql += " AND o.status = ?"
        params.append(status)
    if skus is not None:
        marks = ",".join("?" * len(skus)) or "NULL"
        sql += f" AND o.order_id IN (SELECT order_id FROM order_items WHERE sku IN ({marks}))"
        params.extend(skus)
    if refund_id is not None:
        sql += " AND o.order_id IN (SELECT order_id FROM refunds WHERE refund_id = ?)"
        params.append(refund_id)
    if total_cents is not None:
        sql += " AND o.total_cents = ?"
        params.append(total_cents)
    if tracking_number is not None:
        sql += " AND o.order_id IN (SELECT order_id FROM shipments WHERE tracking_number = ?)"
        params.append(tracking_number)
    if refunded_cents is not None:
        sql += " AND o.order_id IN (SELECT order_id FROM refunds WHERE amount_cents = ?)"
        params.append(refunded_cents)
    if ticket_id is not None:
        sql += (
            " AND o.order_id IN (SELECT order_id FROM tickets WHERE ticket_id = ?"
            " AND customer_id = ?)"
        )
        params.extend([ticket_id, customer_id])
    if left_cents is not None:
        marks = ", ".join("?" * len(_COUNTED_REFUNDS))
        sql += (
            " AND o.total_cents - (SELECT COALESCE(SUM(amount_cents), 0) FROM refunds r"
            f" WHERE r.order_id = o.order_id AND r.status IN ({marks})) = ?"
        )
        params.extend([*_COUNTED_REFUNDS, left_cents])
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
                "refundable_amount": _refundable_amount(
                    row["status"], row["total_cents"] - row["refunded_cents"]
                ),
            }
            for row in conn.execute(sql, params)
        ]
    }


def ordered_skus(conn: sqlite3.Connection, customer_id: str) -> list[str]:
    """Every product the customer has ordered."""
    rows = conn.execute(
        "SELECT DISTINCT i.sku FROM order_items i JOIN orders o ON o.order_id = i.order_id"
        " WHERE o.customer_id = ? ORDER BY i.sku",
        (customer_id,),
    ).fetchall()
    return [row["sku"] for row in rows]


def owned_order(conn: sqlite3.Connection, customer_id: str, order_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM orders WHERE order_id = ? AND customer_id = ?", (order_id, customer_id)
    ).fetchone()
    if row is None:
        raise ShopError(404, "order_not_found", f"Order {order_id} was not found.")
    return row


def refunded_cents(conn: sqlite3.Connection, order_id: str) -> int:
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


def refund_dict(row: sqlite3.Row) -> dict[str, Any]:
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
    refundable_amount = _refundable_amount(
        row["status"], row["total_cents"] - refunded_cents(conn, order_id)
    )
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
            refund_dict(r)
            for r in conn.execute(
                "SELECT * FROM refunds WHERE order_id = ? ORDER BY refund_id", (order_id,)
            )
        ],
        "cancellable": row["status"] in CANCELLABLE_STATUSES,
        "refundable": refundable_amount > 0,
        "refundable_amount": refundable_amount,
    }


def _refundable_amount(status: str, remaining_cents: int) -> float:
    """What can still be refunded on an order of this status with this much not refunded."""
    return money(remaining_cents) if status in REFUNDABLE_STATUSES and remaining_cents > 0 else 0.0


def get_order(
    conn: sqlite3.Connection, customer_id: str, order_id: str, today: date | None = None
) -> dict[str, Any]:
    """One of the customer's orders in full (404 ``order_not_found`` otherwise)."""
    return _order_dict(conn, owned_order(conn, customer_id, order_id), today)


def get_tracking(
    conn: sqlite3.Connection, customer_id: str, order_id: str, today: date | None = None
) -> dict[str, Any]:
    """The order's status, its shipments with their tracking events (oldest event first) and
    its open tickets."""
    order = owned_order(conn, customer_id, order_id)
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
        "order_status": order["status"],
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


def get_tracking_by_product(
    conn: sqlite3.Connection,
    customer_id: str,
    skus: list[str],
    query: str,
    today: date | None = None,
) -> dict[str, Any]:
    """The tracking of the customer's latest order holding one of ``skus`` (the products a
    query named, best first): of those orders, one still on its way wins over a delivered one.
    The answer names the product matched; 404 ``no_order_with_product`` when no order of the
    customer's holds any of them."""
    if skus:
        marks = ",".join("?" * len(skus))
        rows = conn.execute(
            "SELECT o.order_id, o.status, o.created_at, i.sku FROM orders o"
            " JOIN order_items i ON i.order_id = o.order_id"
            f" WHERE o.customer_id = ? AND i.sku IN ({marks})"
            " ORDER BY o.created_at DESC, o.order_id DESC",
            (customer_id, *skus),
        ).fetchall()
    else:
        rows = []
    if not rows:
        raise ShopError(
            404,
            "no_order_with_product",
            f"No order of this customer holds the product: {query.strip()}",
        )
    on_its_way = [r for r in rows if r["status"] in ("paid", "shipped")]
    chosen = (on_its_way or rows)[0]
    product = conn.execute(
        "SELECT sku, name, name_zh FROM products WHERE sku = ?", (chosen["sku"],)
    ).fetchone()
    tracking = get_tracking(conn, customer_id, chosen["order_id"], today)
    others = sorted({r["order_id"] for r in rows} - {chosen["order_id"]})
    return {
        **tracking,
        "matched_product": {
            "sku": product["sku"],
            "name": product["name"],
            "name_zh": product["name_zh"],
        },
        "other_orders_with_product": others,
    }


def list_refunds(conn: sqlite3.Connection, customer_id: str, limit: int) -> dict[str, Any]:
    """The customer's refunds, newest first ("where's my refund?")."""
    return {"refunds": [refund_dict(r) for r in newest(conn, "refund", customer_id, limit)]}


def get_refund(conn: sqlite3.Connection, customer_id: str, refund_id: str) -> dict[str, Any]:
    """One of the customer's refunds (404 ``refund_not_found`` otherwise)."""
    row = conn.execute(
        "SELECT * FROM refunds WHERE refund_id = ? AND customer_id = ?", (refund_id, customer_id)
    ).fetchone()
    if row is None:
        raise ShopError(404, "refund_not_found", f"Refund {refund_id} was not found.")
    return refund_dict(row)
