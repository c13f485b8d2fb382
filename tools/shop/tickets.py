"""The customer's support tickets, read (:func:`get_ticket`, :func:`list_tickets`); filed in
:mod:`helpdesk.tools.shop.writes`."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from helpdesk.tools.shop.conventions import ShopError, newest

__all__ = ["get_ticket", "list_tickets"]


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
    return {"tickets": [_ticket_dict(r) for r in newest(conn, "ticket", customer_id, limit)]}
