"""A refund that says an amount for each of several things ("refund 100 for the thermos and 200
for the air fryer", "保温杯退100，空气炸锅退200"): the amount meant is what they add up to, each
within what its item cost. Read by the refund's precheck once the order's items are known, so
that no amount said is dropped silently: when a thing is not an item of the order (or is one of
several), or its amount is more than it cost, the customer is asked how much, never paid a
part of what they said."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

__all__ = ["PerItem", "amounts_per_item"]

NamedItems = Callable[[Mapping[str, Any], str], list[Mapping[str, Any]]]
"""The items of an order some words name (most strongly named first)."""

_AMOUNT = r"[¥￥$]?\s*(?P<amount>\d+(?:\.\d{1,2})?)(?![\d.]|\s*(?:%|percent|ml|l\b|g\b|kg|w\b))"
_EN_CURRENCY = r"(?:\s*(?:yuan|rmb|kuai|bucks|元|块钱|块)\b)?"
_THING_END = (
    r"(?=\s*(?:$|[.,;:!?，。；！？]|\b(?:and|plus|from|in|on|of|please|pls|thanks|then)\b|\d))"
)
# "100 for the thermos", "¥200 on the air fryer"
_AMOUNT_FOR_THING = re.compile(
    _AMOUNT + _EN_CURRENCY + r"\s+(?:for|on)\s+(?:the\s+|my\s+|that\s+)?"
    r"(?P<thing>[a-z][a-z0-9 -]*?)" + _THING_END,
    re.IGNORECASE,
)
# "the thermos 100 and the air fryer 200", "the thermos for 100"
_THING_THEN_AMOUNT = re.compile(
    r"\b(?:the|my)\s+(?P<thing>[a-z][a-z -]*?)\s+(?:for\s+|at\s+)?" + _AMOUNT + _EN_CURRENCY,
    re.IGNORECASE,
)
# "保温杯退100，空气炸锅退200", "保温杯100 空气炸锅200"
_THING_THEN_AMOUNT_ZH = re.compile(
    r"(?P<thing>[\u4e00-\u9fff]{2,8}?)(?:的)?(?:退款|退钱|退给我|退|要退)?\s*(?:[¥￥]\s*)?"
    r"(?P<amount>\d+(?:\.\d{1,2})?)(?![\d.])\s*(?:元|块钱|块)?"
)
_ORDER_ID = re.compile(r"#?\b\d{6,}\b")
_NO_THING = re.compile(
    r"^(?:it|them|that|this|those|these|one|me|us|you|both|all|each|now|today|days?|weeks?"
    r"|months?|years?|hours?|items?|things?|stuff|order|orders|refund|the refund)$",
    re.IGNORECASE,
)
"""Words in a thing's place that name no thing ("129 for it", "200 for both")."""
_NO_PRODUCT = re.compile(
    r"\b(?:delay|delays|delayed|late|lateness|wait|waiting|inconvenience|trouble|hassle|shipping"
    r"|postage|delivery|fee|fees|damage|damages|compensation|time|stress|mess|service)\b"
    r"|延误|晚到|迟到|运费|邮费|快递费|补偿|赔偿|麻烦|损失|服务",
    re.IGNORECASE,
)
"""What money is for that is no product ("2 for the delay", "运费10"): never said to be missing
from the order — how much is asked."""
_NOT_ASKED = re.compile(
    r"(?:\b(?:paid|pay|cost|costs|spent|spend|price|priced|was|were|bought|worth)\s*(?:me\s+)?"
    r"(?:was\s+|is\s+)?|花了|付了|买的|价格|原价|才|是)\s*$",
    re.IGNORECASE,
)
"""Words right before a number that make it what was paid, not what is asked."""


@dataclass(frozen=True, slots=True)
class PerItem:
    """What several amounts said per thing come to."""

    total: float
    """Their sum (meaningful only when ``placed``)."""
    parts: tuple[tuple[str, str, float], ...]
    """(item name, Chinese name, amount) per thing, in the order said."""
    unnamed: tuple[str, ...] = ()
    """The things (as said) that name no item of the order."""
    unclear: bool = False
    """A thing names several items, or an item is named twice."""
    over: tuple[str, str, float, float] | None = None
    """The first item whose amount is more than it cost: (name, Chinese name, cost, asked)."""

    @property
    def placed(self) -> bool:
        """Every thing is exactly one item of the order, each named once, each amount within
        what that item cost."""
        return not self.unnamed and not self.unclear and self.over is None


def _pairs(words: str) -> list[tuple[str, Decimal, int]]:
    """(thing, amount, where) for each amount said with the thing it is for."""
    norm = _ORDER_ID.sub(lambda m: " " * len(m.group(0)), words)
    found: dict[int, tuple[str, Decimal, int]] = {}
    for pattern in (_AMOUNT_FOR_THING, _THING_THEN_AMOUNT, _THING_THEN_AMOUNT_ZH):
        for m in pattern.finditer(norm):
            at = m.start("amount")
            thing = m.group("thing").strip()
            if at in found or _NO_THING.match(thing) or _NOT_ASKED.search(norm[:at]):
                continue
            found[at] = (thing, Decimal(m.group("amount")), at)
    return [found[at] for at in sorted(found)]


def amounts_per_item(
    order: Mapping[str, Any], words: str, named_items: NamedItems
) -> PerItem | None:
    """What the amounts ``words`` say for several things of ``order`` come to; None when they
    say fewer than two amounts each for a thing (one amount is the refund's own amount)."""
    pairs = _pairs(words)
    if len(pairs) < 2:
        return None
    parts: list[tuple[str, str, float]] = []
    picked: list[Mapping[str, Any]] = []
    unnamed: list[str] = []
    unclear = False
    over: tuple[str, str, float, float] | None = None
    for thing, amount, _ in pairs:
        named = named_items(order, thing)
        if not named and not _NO_PRODUCT.search(thing):
            unnamed.append(thing)
        if len(named) != 1 or any(named[0] is p for p in picked):
            unclear = unclear or bool(named) or bool(_NO_PRODUCT.search(thing))
            parts.append((thing, thing, float(amount)))
            continue
        item = named[0]
        picked.append(item)
        name = str(item.get("name") or thing)
        name_zh = str(item.get("name_zh") or name)
        price = Decimal(str(item.get("unit_price") or 0)) * int(item.get("quantity") or 1)
        if over is None and not Decimal(0) < amount <= price:
            over = (name, name_zh, float(price), float(amount))
        parts.append((name, name_zh, float(amount)))
    total = sum((Decimal(str(p[2])) for p in parts), Decimal(0))
    return PerItem(
        total=float(total), parts=tuple(parts), unnamed=tuple(unnamed), unclear=unclear, over=over
    )
