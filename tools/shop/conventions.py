"""The demo shop's conventions every query shares: how a refusal is reported
(:class:`ShopError`, the ``{"error": {...}}`` envelope) and how money crosses the boundary
(integer cents inside, a two-decimal CNY number outside: :func:`money`, :func:`to_cents`), and
how a customer's latest rows are read (:func:`newest`).
"""

from __future__ import annotations

import sqlite3
from typing import Any

__all__ = ["ShopError", "money", "newest", "to_cents"]


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


def newest(conn: sqlite3.Connection, kind: str, customer_id: str, limit: int) -> sqlite3.Cursor:
    """The customer's ``kind`` rows (``ticket`` or ``refund``), newest first."""
    table = {"ticket": "tickets", "refund": "refunds"}[kind]  # (never the caller's words)
    return conn.execute(
        f"SELECT * FROM {table} WHERE customer_id = ? ORDER BY created_at DESC, {kind}_id DESC"
        " LIMIT ?",
        (customer_id, limit),
    )
