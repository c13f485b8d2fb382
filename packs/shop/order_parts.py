"""One write clause naming several orders: which orders it is for, and each one's amount.

"取消100904，100998保留别动" names two orders and cancels one: an order with "keep" / "don't"
beside it is kept out of the write. "refund 200 for 100609 and 100 for 100200" names two
amounts: each order gets the amount written beside it, and when the words do not say which
amount is whose, the amount is asked about (``invalid``), never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from helpdesk.graph.conversation import NO_ANY, rx
from helpdesk.graph.money import AmountReading, read_amount
from helpdesk.tools.packs import PackSet

__all__ = [
    "KEEP",
    "SPARED",
    "amounts_by_order",
    "kept_out",
    "own_write",
    "spared_before",
    "writes_by_order",
]

KEEP = rx(
    # ("物流一直不动": a parcel not moving, nothing kept)
    r"\b(?:keep|leave)\b|保留|留着|(?<!物流)(?<!物流一直)(?<!物流还是)(?<!快递)(?<!快递一直)"
    r"(?<!包裹)(?<!包裹一直)(?<!物流都)(?<!信息)(?<!信息一直)不动|别动|不要动"
)
"""Words that keep an order out of the write beside it ("100998保留", "keep 100998")."""

SPARED = rx(KEEP.pattern + r"|\b(?:not|except|but not)\b|除了")
"""Words that spare an order a write named before it ("cancel 100904 but not 100998")."""
_NOT = rx(r"\b(?:don'?t|do not|not|except)\b|别|不要|不用|先不|除了|不是")
_SPARED_RIGHT_BEFORE = rx(
    r"(?:[,;]\s*|\bbut\s+|\band\s+)(?:not|rather than|instead of)\s+"
    r"(?:(?:the |my )?order\s*)?(?:#|no\.?\s*)?$"
    r"|\bexcept(?:\s+for)?\s+(?:(?:the |my )?order\s*)?(?:#|no\.?\s*)?$"
    # "refund 100200 instead of 100609", "cancel 100904 rather than 100998": the other one
    r"|\b(?:instead of|rather than|in place of|and not)\s+"
    r"(?:(?:cancel\w*|refund\w*|a refund on|one on)\s+)?(?:(?:the |my )?order\s*)?"
    r"(?:#|no\.?\s*)?$|^\s*over\s+(?:one\s+on\s+)?(?:#\s*)?$"
    # "i'd rather have a refund on 100200 than on 100609"
    r"|\bthan\s+(?:(?:a refund |one )?on\s+)?(?:(?:the |my )?order\s*)?#?\s*$"
    # "cancel my order not 100998", "cancel everything but 100904"
    r"|\b(?:order|orders|one|it|them|everything|all)\s+(?:but\s+)?not\s+(?:(?:the |my )?order\s*)?"
    r"(?:#|no\.?\s*)?$"
    r"|\b(?:everything|all|all orders|every order|all of them|all my orders)\s+but\s+"
    r"(?:(?:the |my )?order\s*)?(?:#|no\.?\s*)?$"
    r"|(?:^|[,，]\s*)\W*(?:不是|而不是|别动|不要动)\s*(?:订单\s*)?$|(?:除了|而不是)\s*(?:订单\s*)?$"
    r"|^\W*(?:not|except)\s+(?:(?:the |my )?order\s*)?(?:#|no\.?\s*)?$"
)
"""Words right before an order that spare it a write named before them ("cancel my order, not
100998", "取消我的订单，不是100998"): the first order of a clause too, unlike :data:`_NOT`."""
_NOT_AFTER = rx(
    r"^\W*(?:doesn'?t|does not|don'?t|do not|needn'?t|no need to)\b"
    r"|^\W*(?:不用|不要|不需要|先不|别|不退|不取消)"
)
"""Words right after an order that spare it ("100998 doesn't need cancelling", "100998不用取消")."""
_DOUBTED_BEFORE = rx(
    r"\bnot sure (?:about|of|if|whether)\s*(?:(?:the |my )?order\s*)?#?\s*$|不确定\s*(?:订单)?\s*$"
)
"""Words right before an order that doubt it ("but I'm not sure about 100904")."""
_BEFORE = 12
"""Characters before an order number read for "keep" / "don't" ("but keep 100998")."""
_AFTER = 8
"""Characters after it ("100998保留别动", "100998 leave it")."""


def _mentions(norm: str, order_id: str) -> list[re.Match[str]]:
    return list(re.finditer(rf"(?<!\d){re.escape(order_id)}(?!\d)", norm))


def _bounds(norm: str, order_ids: Sequence[str]) -> list[tuple[int, int, str]]:
    """Every mention of the orders, in order of appearance: (start, end, order id)."""
    found = [(m.start(), m.end(), o) for o in order_ids for m in _mentions(norm, o)]
    return sorted(found)


def kept_out(norm: str, order_ids: Sequence[str]) -> set[str]:
    """The orders of a write clause the words keep out of it: "keep", "don't", "保留", "别动"
    right before a mention (after the previous order) or right after it (before the next)."""
    bounds = _bounds(norm, order_ids)
    out: set[str] = set()
    for n, (start, end, order_id) in enumerate(bounds):
        previous_end = bounds[n - 1][1] if n else 0
        next_start = bounds[n + 1][0] if n + 1 < len(bounds) else len(norm)
        before = norm[max(previous_end, start - _BEFORE) : start]
        # words right before the next order are that order's ("cancel 100904, leave 100998
        # alone": the "leave" is 100998's, not 100904's)
        after_end = min(next_start, end + _AFTER)
        if n + 1 < len(bounds):
            after_end = min(after_end, max(end, next_start - _BEFORE))
        after = norm[end:after_end]
        if (
            KEEP.search(before)
            or KEEP.search(after)
            or NO_ANY.search(after)
            or _NOT_AFTER.match(after)
        ):
            out.add(order_id)
        elif n and _NOT.search(before):
            out.add(order_id)  # "cancel 100904 but not 100998"
        elif _DOUBTED_BEFORE.search(norm[previous_end:start]):
            out.add(order_id)  # "cancel 100998 but I'm not sure about 100904"
        elif spared_before(norm[previous_end:start]):
            out.add(order_id)  # "file a ticket about my broken purifier, not 100998"
    return out


def spared_before(words: str) -> bool:
    """Whether the words right before an order spare it the write they follow ("cancel my
    order, not", "取消我的订单，不是"): read for the only order of a write clause too."""
    return bool(_SPARED_RIGHT_BEFORE.search(words[-24:]))


_TOTAL_SAID = rx(
    r"(?:\bso\s+|\bthat'?s\s+|=\s*)?[¥￥]?\d+(?:\.\d+)?\s*(?:yuan|rmb|元|块)?\s*"
    r"(?:in total|total|altogether|all together|in all)\b"
    r"|\b(?:in total|total|altogether)\s*(?:of\s+)?[¥￥]?\d+(?:\.\d+)?"
    r"|(?:一共|总共|合计|总计|加起来)\s*[¥￥]?\d+(?:\.\d+)?\s*(?:元|块)?"
)


def amounts_by_order(
    norm: str, order_ids: Sequence[str], packs: PackSet
) -> dict[str, AmountReading]:
    """Each order's amount when a refund clause names several orders and more than one
    amount: the amount written right after each order (up to the next), else right before it
    (after the previous); when neither reading gives every order one amount, every order's
    amount is ``invalid`` (asked about). Empty when the clause names at most one amount."""
    # ("… so 100 in total", "一共150": the sum said, never one order's amount)
    norm = _TOTAL_SAID.sub(lambda m: " " * len(m.group(0)), norm)
    bounds = _bounds(norm, order_ids)
    named = _amounts(_blank_orders(norm, bounds), packs)
    if len(bounds) < 2 or len({r.value for r in named}) < 2:
        return {}  # one amount for them all ("退100609和100200各50"), or none
    after: dict[str, AmountReading] = {}
    before: dict[str, AmountReading] = {}
    for n, (start, end, order_id) in enumerate(bounds):
        previous_end = bounds[n - 1][1] if n else 0
        next_start = bounds[n + 1][0] if n + 1 < len(bounds) else len(norm)
        after[order_id] = read_amount(norm[end:next_start], money_context=True, packs=packs)
        before[order_id] = read_amount(norm[previous_end:start], money_context=True, packs=packs)
    for reading in (after, before):
        if all(reading[o].kind == "exact" for o in order_ids):
            return {o: reading[o] for o in order_ids}
    raw = " / ".join(r.raw for r in named)
    return {o: AmountReading("invalid", raw=raw) for o in order_ids}


def writes_by_order(
    norm: str, order_ids: Sequence[str], kinds: Mapping[str, re.Pattern[str]]
) -> dict[str, tuple[str, str]]:
    """Each order's own write when one clause names several orders and writes of different
    kinds, each beside its own order ("100200退款，100998取消", "退款100200，取消100998"): the
    write words right after each order (up to the next), else right before it (after the
    previous) — with those words. Empty unless one reading gives every order (each named once)
    exactly one kind of ``kinds`` and the orders more than one kind between them."""
    bounds = _bounds(norm, order_ids)
    if len(bounds) < 2 or len({o for _, _, o in bounds}) != len(bounds):
        return {}
    after: dict[str, tuple[str, str]] = {}
    before: dict[str, tuple[str, str]] = {}
    for n, (start, end, order_id) in enumerate(bounds):
        previous_end = bounds[n - 1][1] if n else 0
        next_start = bounds[n + 1][0] if n + 1 < len(bounds) else len(norm)
        for reading, words in ((after, norm[end:next_start]), (before, norm[previous_end:start])):
            named = [kind for kind, pattern in kinds.items() if pattern.search(words)]
            if len(named) == 1:
                reading[order_id] = (named[0], words)
    for reading in (after, before):
        if len(reading) == len(bounds) and len({kind for kind, _ in reading.values()}) > 1:
            return reading
    return {}


def own_write(
    norm: str, order_id: str, kinds: Mapping[str, re.Pattern[str]]
) -> tuple[str, str] | None:
    """The write said right before an order (from the start, or the order before it) when the
    clause's other orders are kept out ("refund 100 on 100200, 100998 doesn't need
    cancelling": ``refund``, with its words); None unless exactly one kind is said there."""
    mentions = _mentions(norm, order_id)
    if len(mentions) != 1:
        return None
    start = mentions[0].start()
    previous = [m.end() for m in re.finditer(r"(?<!\d)\d{6}(?!\d)", norm[:start])]
    words = norm[previous[-1] if previous else 0 : start]
    named = [kind for kind, pattern in kinds.items() if pattern.search(words)]
    return (named[0], words) if len(named) == 1 else None


def _amounts(text: str, packs: PackSet, most: int = 6) -> list[AmountReading]:
    """Every exact amount the words name, in the order read."""
    found: list[AmountReading] = []
    for _ in range(most):
        reading = read_amount(text, money_context=True, packs=packs)
        if reading.kind != "exact" or not reading.raw or reading.raw not in text:
            break
        found.append(reading)
        text = text.replace(reading.raw, " " * len(reading.raw), 1)
    return found


def _blank_orders(norm: str, bounds: list[tuple[int, int, str]]) -> str:
    for start, end, _ in bounds:
        norm = norm[:start] + " " * (end - start) + norm[end:]
    return norm
