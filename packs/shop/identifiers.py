"""The demo shop's identifiers: their canonical shapes and how customers write them.

:data:`SHOP_IDENTIFIERS` are the shapes the shop's data uses (checked by reply validation: an
identifier of one of these shapes in a reply must be in the turn's data). :data:`SHOP_MENTIONS`
are the looser shapes customers type ("sku 1001", "t123456"); the generic money reader blanks them
before it reads an amount, so an order number or a SKU is never taken for an amount.
"""

from __future__ import annotations

import re

__all__ = [
    "ORDER_MENTION",
    "REFUND_MENTION",
    "SHOP_IDENTIFIERS",
    "SHOP_MENTIONS",
    "TICKET_MENTION",
]

SHOP_IDENTIFIERS: dict[str, str] = {
    "order_id": r"\d{6}",
    "sku": r"SKU-\d{4}",
    "tracking_number": r"(?:SF|YT)\d{10}",
    "ticket_id": r"T-\d{6}",
    "refund_id": r"R-\d{6}",
    "shipment_id": r"S-\d{6}",
}
"""The shop's identifier shapes: any of them in a reply must be in the turn's data."""

SHOP_MENTIONS: dict[str, str] = {
    "order_id": r"(?<![0-9A-Za-z_])(?<!\d\.)\d{6}(?![0-9A-Za-z_]|\.\d)",
    "sku": r"sku[\s_-]*\d{3,6}",
    "ticket_id": r"(?<![a-z])t-?\d{6}",
    "tracking_number": r"(?:sf|yt)\d{10}",
    "refund_id": r"r-\d{6}",
}
"""How customers write the shop's identifiers (matched case-insensitively, full-width folded)."""

ORDER_MENTION = re.compile(SHOP_MENTIONS["order_id"])
"""An order number as a customer writes it ("退100200的保温杯", "100200's thermos")."""

REFUND_MENTION = re.compile(rf"(?<![a-z0-9]){SHOP_MENTIONS['refund_id']}(?!\d)", re.IGNORECASE)
"""A refund number as a customer writes it ("did r-000094 go through?")."""

TICKET_MENTION = re.compile(rf"{SHOP_MENTIONS['ticket_id']}(?!\d)", re.IGNORECASE)
"""A ticket number as a customer writes it ("T-000031 快递动了没", "t000031")."""
