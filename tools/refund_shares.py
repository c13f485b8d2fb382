"""A refund asked as a share ("refund half", "退三分之一", "30% back on 100200") made exact.

The share is of what was paid for the order, of one item of it the customer named ("half of
what I paid for the air fryer"), or of what is still refundable ("剩下能退的退一半"). The refund's
precheck (which has the order) resolves it here into the exact amount the confirmation question
states; when the words do not say which item, nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from helpdesk.tools.shop.product_search import mention_scores, product_text

__all__ = ["REMAINING", "ResolvedShare", "item_meant", "resolve_share"]

REMAINING = "remaining"
"""``share_of``: the share is of what is still refundable."""


@dataclass(frozen=True, slots=True)
class ResolvedShare:
    """The exact amount of a share, and what it was a share of."""

    amount: float
    base: float
    item: str | None = None
    """The item's name when the share is of one item of the order."""
    item_zh: str | None = None


def _cents(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _named_item(order: Mapping[str, Any], words: str) -> tuple[Mapping[str, Any] | None, bool]:
    """(the one item ``words`` name, whether they name any item at all)."""
    items = [i for i in order.get("items") or () if isinstance(i, Mapping)]
    texts = [
        product_text(str(i.get("sku", n)), [str(i.get("name", "")), str(i.get("name_zh", ""))])
        for n, i in enumerate(items)
    ]
    scores = mention_scores(words, texts)
    if not scores:
        return None, False
    best = max(scores.values())
    top = [t.sku for t in texts if scores.get(t.sku) == best]
    if len(top) != 1:
        return None, True
    return next(i for i, t in zip(items, texts, strict=True) if t.sku == top[0]), True


# "the air fryer order", "空气炸锅那单": the order its item describes, not the item — unless
# "just"/"only" picks the item out of it ("refund just the thermos from 100200")
_ORDER_MEANT = re.compile(r"\b(?:order|purchase)\b|那单|这单|订单|一单|那笔|整单", re.IGNORECASE)
_ITEM_MEANT = re.compile(r"\b(?:just|only)\b|只退|只要|就退|单独|仅")


def item_meant(order: Mapping[str, Any], words: str) -> tuple[Mapping[str, Any] | None, bool]:
    """The one item of a several-item order ``words`` single out for a refund, and whether
    they name items of it at all (named but not one: asked, never guessed). An item that only
    describes the order ("the air fryer order") singles nothing out."""
    if len(order.get("items") or ()) < 2:
        return None, False
    item, named = _named_item(order, words)
    if named and _ORDER_MEANT.search(words) and not _ITEM_MEANT.search(words):
        return None, False
    return item, named


def resolve_share(
    order: Mapping[str, Any], share: float, share_of: str | None
) -> ResolvedShare | None:
    """The exact amount of ``share`` (0 < share <= 1) of the order; None when the words name
    items of the order without saying which one (asked, never guessed)."""
    fraction = Decimal(str(share))
    if share_of == REMAINING:
        base = Decimal(str(order.get("refundable_amount") or 0))
        return ResolvedShare(float(_cents(base * fraction)), float(base))
    item, named = item_meant(order, share_of or "")
    if item is None and named:
        return None
    if item is not None:
        base = Decimal(str(item.get("unit_price") or 0)) * int(item.get("quantity") or 1)
        name, name_zh = str(item.get("name") or ""), str(item.get("name_zh") or "")
        return ResolvedShare(
            float(_cents(base * fraction)), float(_cents(base)), name, name_zh or name
        )
    base = Decimal(str(order.get("total") or 0))
    return ResolvedShare(float(_cents(base * fraction)), float(base))
