"""The demo shop's writes: cancel an order, request a refund, open a ticket.

Each runs inside the caller's transaction, checks ownership and the business rules (only pending
or paid orders cancel, a paid one with an approved full refund; a refund never exceeds what is
left) and answers with the resulting order, refund or ticket as
:mod:`~helpdesk.tools.shop.account` reads it, or raises
:class:`~helpdesk.tools.shop.conventions.ShopError`. New ids are sequential (``T-000041``).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from helpdesk.tools.shop.account import (
    CANCELLABLE_STATUSES,
    REFUNDABLE_STATUSES,
    get_order,
    owned_order,
    refund_dict,
    refunded_cents,
)
from helpdesk.tools.shop.conventions import ShopError, money
from helpdesk.tools.shop.seed import iso
from helpdesk.tools.shop.tickets import get_ticket

__all__ = ["cancel_order", "create_refund", "create_ticket"]


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
    order = owned_order(conn, customer_id, order_id)
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
        remaining = order["total_cents"] - refunded_cents(conn, order_id)
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
    order = owned_order(conn, customer_id, order_id)
    if order["status"] not in REFUNDABLE_STATUSES:
        raise ShopError(
            409,
            "not_refundable",
            f"Order {order_id} is {order['status']}; only paid, shipped or delivered orders "
            "can be refunded.",
            status=order["status"],
        )
    remaining = order["total_cents"] - refunded_cents(conn, order_id)
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
    return refund_dict(_insert_refund(conn, order, amount, "requested", reason, now))


def create_ticket(
    conn: sqlite3.Connection, customer_id: str, fields: dict[str, Any], now: datetime
) -> dict[str, Any]:
    """Open a ticket with the next sequential id (``T-000041`` after the seeded ones).

    Raises:
        ShopError: 404 ``order_not_found`` when ``order_id`` is not one of the customer's.
    """
    if fields.get("order_id") is not None:
        owned_order(conn, customer_id, fields["order_id"])
    ticket_id = _next_id(conn, "tickets", "ticket_id", "T-")
    facts = fields.get("facts")
    conn.execute(
        "INSERT INTO tickets VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)",
        (ticket_id, customer_id, fields["category"], fields["subject"], fields["description"],
         fields.get("order_id"), fields["priority"], iso(now),
         None if facts is None else json.dumps(facts, ensure_ascii=False, sort_keys=True)),
    )  # fmt: skip
    return get_ticket(conn, customer_id, ticket_id)
