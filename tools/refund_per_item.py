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

from helpdesk.tools.unusable_amounts import ACCOUNT_DIGITS, COUNT_OUT_OF, NOT_AN_AMOUNT

__all__ = [
    "PER_ITEM",
    "PerItem",
    "amounts_per_item",
    "item_reason",
    "refunded_for",
    "refunded_per_thing",
]

PER_ITEM = "per item: "
"""How the reason of a refund made of amounts per thing opens ("per item: 100.00 Stainless Steel
Thermos 500ml; 200.00 Air Fryer 5L"): the shop's record of what the money is for."""

NamedItems = Callable[[Mapping[str, Any], str], list[Mapping[str, Any]]]
"""The items of an order some words name (most strongly named first)."""

_AMOUNT = (
    r"[¥￥$]?\s*(?P<amount>\d+(?:\.\d{1,2})?)"
    r"(?![\d.]|\s*(?:%|percent|ml|l\b|g\b|kg|w\b|pcs|pieces|items?|times|x\b))"
)
_EN_CURRENCY = r"(?:\s*(?:yuan|rmb|kuai|bucks|元|块钱|块)\b)?"
_THING = r"(?P<thing>(?:\d+(?:ml|l|pcs|g|kg|w|gb)\s+)?[a-z][a-z0-9 -]*?)"
_THING_END = (
    r"(?=\s*(?:$|[.,;:!?&(（，。；！？]|\b(?:and|plus|from|in|on|of|please|pls|thanks|then)\b|\d))"
)
# amount first: "100 for the thermos", "¥200 on the air fryer", "100 towards the thermos"
_AMOUNT_FOR_THING = re.compile(
    _AMOUNT
    + _EN_CURRENCY
    + r"\s+(?:for|on|towards?|to)\s+(?:the\s+|my\s+|that\s+)?"
    + _THING
    + _THING_END,
    re.IGNORECASE,
)
# amount first, the thing right after it: "refund 100 thermos 200 air fryer"
_AMOUNT_THEN_THING = re.compile(
    _AMOUNT + _EN_CURRENCY + r"\s+(?:(?:the|my)\s+)?" + _THING + _THING_END, re.IGNORECASE
)
# thing first: "the thermos 100 and the air fryer 200", "thermos: 100, air fryer: 200"
_THING_THEN_AMOUNT = re.compile(
    r"(?:^|(?<=[\s,;:&]))(?:(?:the|my)\s+)?"
    + _THING
    + r"\s*[:=-]?\s*(?:for\s+|at\s+)?"
    + _AMOUNT
    + _EN_CURRENCY,
    re.IGNORECASE,
)
# "保温杯退100，空气炸锅退200", "保温杯100 空气炸锅200"
_THING_THEN_AMOUNT_ZH = re.compile(
    r"(?P<thing>[\u4e00-\u9fff]{2,8}?)(?:的)?(?:退款|退钱|退给我|退|要退)?\s*[:：]?\s*(?:[¥￥]\s*)?"
    r"(?P<amount>\d+(?:\.\d{1,2})?)(?![\d.])\s*(?:元|块钱|块)?"
)
_ORDER_ID = re.compile(r"#?(?<!\d)\d{6,}(?!\d)")
_UNIT_AFTER = r"(?![\d.]|\s*(?:ml|l\b|g\b|kg|w\b|gb|pcs|pieces|inch|寸|件|升))"
_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_NUMBER = re.compile(
    r"(?<![\w.,])(?:[¥￥$]\s*)?"
    + _DIGITS
    + _UNIT_AFTER
    + r"|(?<=[\u4e00-\u9fff])"
    + _DIGITS
    + _UNIT_AFTER
)
_NO_THING = re.compile(
    r"^(?:(?:refund|refunds|and|also|then|plus|on|for|to|me|us|please|pls|the|my|just|only|back"
    r"|in|at|of|from|with|by|is|was|yuan|rmb|kuai|bucks|order|id|number|no"
    r"|it|them|that|this|those|these|one|you|both|all|each|now|today|days?|weeks?|months?"
    r"|years?|hours?|items?|things?|stuff|order|orders)\b\s*)+$",
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
    r"(?:\b(?:paid|pay|cost|costs|spent|spend|price|priced|was|were|bought|worth|total|totals"
    r"|totalling|altogether|in all)\s*(?:me\s+)?(?:was\s+|is\s+|of\s+)?(?:[¥￥$]\s*)?"
    r"|花了|付了|买的|价格|原价|才|是|一共|总共|合计)\s*$",
    re.IGNORECASE,
)
"""Words right before a number that make it what was paid, not what is asked."""
_NOT_PLAIN = re.compile(
    r"\b(?:not|no|nor|never|without|except|excluding|minus|forget|instead|rather|or|either"
    r"|already|each|per|every|apiece|total|altogether|in all|wait|actually|sorry|mean|meant"
    r"|scratch|correction|full|fully|whole|entire|all|rest|remaining|half|percent|maybe|if"
    r"|unless|should|would|was|were|did|does|is|are|fair|enough)\b|n't\b|[?？%]"
    r"|(?<!不锈)(?:不|没|别|非)|算了|而是|还是|或者|要么|每|各|一共|总共|合计|已经|全|整|剩|一半|如果|要是"
    r"|吗|么|呢|吧\s*[?？]",
    re.IGNORECASE,
)
"""Words that make amounts said per thing no plain list to add up (one left out, one or the
other, a correction, each, a total, all of one, a question): how much is asked."""


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


def _orientation(norm: str, patterns: tuple[re.Pattern[str], ...]) -> dict[int, str]:
    """Each amount's thing (by where the amount is said) as ``patterns`` read them."""
    found: dict[int, str] = {}
    spans: list[tuple[int, int]] = []  # (words read once: never a second thing's too)
    for pattern in patterns:
        for m in pattern.finditer(norm):
            at = m.start("amount")
            thing = m.group("thing").strip()
            if at in found or _NO_THING.match(thing) or _NOT_ASKED.search(norm[:at]):
                continue
            if any(m.start() < end and start < m.end() for start, end in spans):
                continue
            found[at] = thing
            spans.append(m.span())
    return found


def _blanked(words: str) -> str:
    """``words`` with what is no amount blanked: order ids, ratings, dates, counts, durations."""
    norm = _ORDER_ID.sub(lambda m: " " * len(m.group(0)), words)
    norm = COUNT_OUT_OF.sub(lambda m: " " * len(m.group(0)), norm)
    # ("64.5 out of 129", "100 of the 797": the total the part is of)
    norm = _OUT_OF_TOTAL.sub(lambda m: " " * len(m.group(0)), norm)
    norm = ACCOUNT_DIGITS.sub(lambda m: " " * len(m.group(0)), norm)
    return NOT_AN_AMOUNT.sub(lambda m: " " * len(m.group(0)), norm)


def _amounts(norm: str) -> list[int]:
    """Where each number that may be an amount is said (a price told is none)."""
    out = []
    for m in _NUMBER.finditer(norm):
        digits = re.search(r"\d", m.group(0))
        at = m.start() + (digits.start() if digits else 0)
        if not _NOT_ASKED.search(norm[:at]):
            out.append(at)
    return out


def amounts_per_item(
    order: Mapping[str, Any], words: str, named_items: NamedItems, asked: float | None = None
) -> PerItem | None:
    """What the amounts ``words`` say for several things of ``order`` come to; None when they
    say fewer than two amounts each for a thing (one amount is the refund's own amount), or
    when ``asked`` (the amount the refund carries) is none of them: it was given on its own,
    after a question (the words then hold what was said before it too).

    Anything but a plain list — a part left out or taken back, one thing or another, "each", a
    total, all of one thing, a question, a number said beside the list — is ``unclear``: how
    much is asked, never one of the amounts taken and never a sum guessed."""
    if _ANOTHER_ORDER.search(_ORDER_ID.sub(_keep_own(order), words)):
        return None  # "refund 100 on 100200 and 50 on 100609": each order's own amount
    norm = _blanked(words)
    readings = [
        _orientation(norm, (_AMOUNT_FOR_THING, _AMOUNT_THEN_THING)),
        _orientation(norm, (_AMOUNT_FOR_THING, _THING_THEN_AMOUNT, _THING_THEN_AMOUNT_ZH)),
    ]
    single = bool(readings) and max(len(r) for r in readings) == 1
    # (a reading whose things name no item of the order is no list of the order's things:
    # "keep 200 of it", "minus the 100 you already gave me")
    readings = [r for r in readings if any(named_items(order, t) for t in r.values())]
    paired = {Decimal(_AMOUNT_AT.match(norm, at).group(0)) for r in readings for at in r}  # type: ignore[union-attr]
    if asked is not None and Decimal(str(asked)) not in paired and _given_after(norm, asked):
        return None
    if readings and max(len(r) for r in readings) == 1 and len(_amounts(norm)) >= 2:
        # "保温杯只给1分，退100，空气炸锅退200": one amount said for a thing and another beside
        # it — how much in all is asked, never one of them kept and the other dropped
        return PerItem(total=0.0, parts=(), unclear=True)
    beside = _LISTED_BESIDE.search(norm)
    listed = (beside.group("listed") or beside.group("listed_zh") or "") if beside else ""
    if single and named_items(order, listed) and not _PRICE_TOLD.search(norm):
        # "refund the air fryer and 100 for the thermos": a thing listed beside the amount
        # for another — how much in all is asked, never the thing dropped
        return PerItem(total=0.0, parts=(), unclear=True)
    readings = [r for n, r in enumerate(readings) if len(r) >= 2 and r not in readings[:n]]
    if not readings:
        several = len(named_items(order, norm)) >= 2 or (
            len(order.get("items") or ()) >= 2 and _THINGS_SAID.search(norm) is not None
        )
        if _EACH.search(norm) and _amounts(norm) and several:
            # "refund 100 each for the thermos and the air fryer": how much in all is asked
            return PerItem(total=0.0, parts=(), unclear=True)
        return None
    parts: list[tuple[str, str, float]] = []
    unnamed: list[str] = []
    over: tuple[str, str, float, float] | None = None
    plain = not _NOT_PLAIN.search(_item_names(order).sub(" ", norm))
    # (every number that may be an amount is one of the list's)
    unclear = not plain or any(set(r) != set(_amounts(norm)) for r in readings)
    placed = [_placed(order, r, named_items) for r in readings]
    fits = [p for p in placed if p is not None]
    if len(fits) != 1:
        unclear = True
    chosen = fits[0] if fits else readings[-1]
    picked: list[Mapping[str, Any]] = []
    for at in sorted(chosen):
        thing = chosen[at]
        amount = Decimal(_AMOUNT_AT.match(norm, at).group(0))  # type: ignore[union-attr]
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
        # (less what refunds made per thing already paid for it, in another turn)
        price = max(price - refunded_for(order, name), Decimal(0))
        if over is None and not Decimal(0) < amount <= price:
            over = (name, name_zh, float(price), float(amount))
        parts.append((name, name_zh, float(amount)))
    total = sum((Decimal(str(p[2])) for p in parts), Decimal(0))
    return PerItem(
        total=float(total), parts=tuple(parts), unnamed=tuple(unnamed), unclear=unclear, over=over
    )


_LISTED_BESIDE = re.compile(
    r"\b(?:refund|return)\s+(?:me\s+)?(?:the|my)\s+(?P<listed>[a-z][a-z0-9 -]*?)\s+"
    r"(?:and|&|plus)\s+[¥￥]?\d+(?:\.\d+)?\s*(?:yuan|rmb|kuai|bucks)?\s+(?:for|on)\b"
    r"|(?:退|把)(?P<listed_zh>[\u4e00-\u9fff]{2,8}?)(?:和|跟|还有|，|,)\s*[\u4e00-\u9fff]{2,8}?"
    r"(?:退)?\s*\d+",
    re.IGNORECASE,
)
"""A thing listed for a refund right beside an amount said for another ("refund the air fryer
and 100 for the thermos")."""
_PRICE_TOLD = re.compile(r"\b(?:paid|cost|costs|spent|bought)\b|花了|付了|买的|原价", re.IGNORECASE)
_EACH = re.compile(
    r"\b(?:each|apiece|per (?:item|piece|one|thing)|for every|every (?:item|one|thing))\b|各|每",
    re.IGNORECASE,
)
_ANOTHER_ORDER = re.compile(r"\x00")
"""An order id other than the refund's own (marked by :func:`_keep_own`)."""


def _keep_own(order: Mapping[str, Any]) -> Callable[[re.Match[str]], str]:
    """Marks each order id that is not ``order``'s own with ``\\x00`` (and keeps its own)."""
    own = str(order.get("order_id") or "")
    return lambda m: m.group(0) if m.group(0).lstrip("#") == own else "\x00"


_OUT_OF_TOTAL = re.compile(r"\b(?:out of|of the)\s+[¥￥]?\d+(?:\.\d+)?(?![\d.])", re.IGNORECASE)
_THINGS_SAID = re.compile(
    r"\b(?:items?|things?|products?|pieces?)\b|商品|东西|件|样", re.IGNORECASE
)
_AMOUNT_AT = re.compile(r"\d+(?:\.\d{1,2})?")


def _given_after(norm: str, asked: float) -> bool:
    """Whether ``asked`` is the number said last, at the very end (an answer to "how much?"
    after the words of the request: "refund 100 for the thermos and 200 for the monitor 150")."""
    found = list(_NUMBER.finditer(norm))
    if not found or norm[found[-1].end() :].strip(" .。!！"):
        return False
    said = re.search(r"\d+(?:\.\d+)?", found[-1].group(0))
    return said is not None and len(found) > 1 and Decimal(said.group(0)) == Decimal(str(asked))


def _placed(
    order: Mapping[str, Any], reading: dict[int, str], named_items: NamedItems
) -> dict[int, str] | None:
    """``reading`` when each of its things is a different item of the order, else None."""
    seen: list[Mapping[str, Any]] = []
    for thing in reading.values():
        named = named_items(order, thing)
        if len(named) != 1 or any(named[0] is p for p in seen):
            return None
        seen.append(named[0])
    return reading


def _item_names(order: Mapping[str, Any]) -> re.Pattern[str]:
    """The order's item names, English and Chinese, as said in full (their own "不锈钢")."""
    names = sorted(
        {
            str(item.get(key) or "").lower()
            for item in order.get("items") or ()
            if isinstance(item, Mapping)
            for key in ("name", "name_zh")
        }
        - {""},
        key=len,
        reverse=True,
    )
    return re.compile("|".join(map(re.escape, [*names, "不锈钢"])), re.IGNORECASE)


_REASON_PART = re.compile(r"^\s*(?P<amount>\d+(?:\.\d+)?)\s+(?P<name>.+?)\s*$")


def item_reason(parts: list[tuple[str, float]]) -> str:
    """The reason of a refund of ``(item name, amount)`` parts: what the money is for."""
    return PER_ITEM + "; ".join(f"{amount:.2f} {name}" for name, amount in parts)


def _reason_parts(reason: str) -> list[tuple[str, Decimal]]:
    """The ``(item name, amount)`` parts of a per-thing refund's reason (none for another)."""
    if not reason.startswith(PER_ITEM):
        return []
    parts = (_REASON_PART.match(part) for part in reason[len(PER_ITEM) :].split(";"))
    return [(p.group("name"), Decimal(p.group("amount"))) for p in parts if p is not None]


def reason_for_amount(
    reason: str | None, amount: float, order: Mapping[str, Any] | None = None
) -> str | None:
    """A refund's reason once its amount is ``amount`` (and its order ``order``, when known):
    "yes but only 250" to ¥300 asked as ¥100 for the thermos and ¥200 for the air fryer, "不对，
    是100609" to a refund of the thermos of 100200. A per-thing reason that no longer adds up is
    dropped (one thing's is said at the new amount), and so is one naming a thing the order
    does not hold — the shop's record never says the money was for what it was not; any other
    reason is kept."""
    parts = _reason_parts(reason or "")
    if not parts:
        return reason
    if order is not None:
        held = {str(i.get("name")) for i in order.get("items") or () if isinstance(i, Mapping)}
        if any(name not in held for name, _ in parts):
            return None
    if abs(sum(m for _, m in parts) - Decimal(str(amount))) < Decimal("0.005"):
        return reason
    return item_reason([(parts[0][0], amount)]) if len(parts) == 1 else None


def refunded_for(order: Mapping[str, Any], name: str) -> Decimal:
    """How much the order's refunds already paid for the item ``name`` (from the reasons of
    refunds made per thing: "per item: 100.00 Stainless Steel Thermos 500ml; …")."""
    total = Decimal(0)
    for refund in order.get("refunds") or ():
        reason = str(refund.get("reason") or "") if isinstance(refund, Mapping) else ""
        total += sum((m for n, m in _reason_parts(reason) if n == name), Decimal(0))
    return total


def refunded_per_thing(order: Mapping[str, Any]) -> Decimal:
    """How much of the order's refunds were made per thing (their reasons say for what)."""
    total = Decimal(0)
    for refund in order.get("refunds") or ():
        reason = str(refund.get("reason") or "") if isinstance(refund, Mapping) else ""
        if reason.startswith(PER_ITEM):
            total += Decimal(str(refund.get("amount") or 0))
    return total
