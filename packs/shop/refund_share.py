"""A refund asked as a share of what was paid: "refund half", "退一半", "三分之一", "30% back".

Read here from the customer's words; made exact by the refund's precheck, which has the order
(:mod:`helpdesk.tools.refund_shares`). Anything else that is no amount ("more than half", a share
beside a number, 100%) is left to the amount reading, which asks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from helpdesk.graph.money import chinese_number
from helpdesk.tools.refund_shares import REMAINING, SHARE_OWN

__all__ = ["SHARE", "SHARE_OF", "SHARE_OWN", "Share", "read_share", "without_share"]

SHARE = "share"
"""A refund request's argument: the share (0-1) of what was paid."""
SHARE_OF = "share_of"
"""A refund request's argument: ``remaining``, or the words naming what the share is of."""

_CN = r"[一二两三四五六七八九十]"
_SHARES: tuple[tuple[re.Pattern[str], Fraction | None], ...] = (
    (
        re.compile(r"\bhalf\b(?! (?:an? )?(?:hour|day|week|month|year)s?\b)|一半|半价", re.I),
        Fraction(1, 2),
    ),
    (re.compile(r"\b(?:a|one) third\b|三分之一", re.I), Fraction(1, 3)),
    (re.compile(r"\btwo thirds\b|三分之二", re.I), Fraction(2, 3)),
    (re.compile(r"\b(?:a|one) quarter\b|四分之一", re.I), Fraction(1, 4)),
    (re.compile(r"\bthree quarters\b|四分之三", re.I), Fraction(3, 4)),
    (re.compile(rf"({_CN})分之({_CN})"), None),
    (re.compile(r"([一二两三四五六七八九])成(?![本功交人绩员就新])"), None),
    (re.compile(r"(?<![\d.])(\d{1,2}(?:\.\d)?)\s*(?:%|percent\b)", re.I), None),
    (re.compile(rf"百分之(\d{{1,2}}|{_CN}{{1,3}})"), None),
)
# "more than half", "at least a third": no share to make exact — asked
_NOT_EXACTLY = re.compile(
    r"\b(?:more|less|over|under|at least|at most|about|around|roughly|up to) (?:than )?"
    r"(?:half|a third|a quarter|\d)"
    r"|(?:多于|少于|超过|不到|至少|最多|大概|差不多)(?:一半|百分之|\S分之)",
    re.I,
)
_REMAINING = re.compile(
    r"\bremaining\b|\bwhat'?s left\b|\bwhat is left\b|\bthe rest\b|\bleft (?:on|of)\b"
    r"|剩下|剩余|能退的|还能退|还剩|余下",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Share:
    """A share of what was paid (of what is still refundable when ``of`` is ``remaining``)."""

    fraction: float
    of: str
    span: tuple[int, int]


# a share is money only beside a refund: "refund half", "half of what I paid", "30% back",
# "退一半", "一半的钱退给我" — never "half my weekend", "half melted", "30% off elsewhere"
_ANCHOR_BEFORE = re.compile(
    r"(?:\brefund(?:ed)?|\bgive (?:me )?(?:back )?|\bget\b|\bmoney back|\bback"
    r"|退(?:款|钱)?(?:我|给我)?|返还|赔(?:偿)?(?:我)?)\W{0,3}"
    # "refund 100200 half", "refund order #100200 just half"
    r"(?:(?:order\s*)?#?\d{6}\W+)?(?:(?:only|just|me|back|about|another|the|a)\W+){0,2}$",
    re.I,
)
_ANCHOR_AFTER = re.compile(
    r"\s*(?:of (?:what|the|my|it|that|this|order|each|\d)|back\b|refund"
    r"|(?:的钱|的款|的金额)?(?:退|返|赔))",
    re.I,
)
_NOT_MONEY_AFTER = re.compile(
    r"\s*(?:off\b|asleep|melted|the (?:time|day|week|way)|my \w+|an? (?:hour|day|week))", re.I
)


def _anchored(text: str, span: tuple[int, int]) -> bool:
    start, end = span
    before, after = text[max(0, start - 30) : start], text[end : end + 30]
    if _NOT_MONEY_AFTER.match(after):
        return False
    return bool(_ANCHOR_BEFORE.search(before) or _ANCHOR_AFTER.match(after))


def _value(found: re.Match[str], fixed: Fraction | None) -> Fraction | None:
    if fixed is not None:
        return fixed
    groups = [g for g in found.groups() if g]
    if len(groups) == 2:  # 三分之一: 1/3
        den, num = (chinese_number(g) for g in groups)
        return Fraction(num, den) if num and den else None
    if found.group(0).endswith("成"):  # 三成: 30%
        tenths = chinese_number(groups[0])
        return Fraction(tenths, 10) if tenths else None
    raw = groups[0]
    percent = float(raw) if raw[0].isdigit() else chinese_number(raw)
    return Fraction(str(percent)) / 100 if percent else None


def read_share(text: str, *, whole: str | None = None) -> Share | None:
    """The share of what was paid ``text`` (a clause) asks to be refunded, if it asks for exactly
    one; ``whole`` (the message) is what the share is of, unless the clause says "what is left"
    (the items it names are looked for in the order)."""
    if _NOT_EXACTLY.search(text):
        return None
    found: list[tuple[Fraction, tuple[int, int]]] = []
    for pattern, fixed in _SHARES:
        for m in pattern.finditer(text):
            value = _value(m, fixed)
            if value is not None and _anchored(text, m.span()):
                found.append((value, m.span()))
            elif value is not None:
                return None  # a share word that is not about the refund: nothing read as one
    values = {v for v, _ in found}
    if len(values) != 1:
        return None
    (value,) = values
    if not 0 < value < 1:
        return None
    of = REMAINING if _REMAINING.search(text) else (whole or text)[:300]
    return Share(float(round(value, 12)), of, found[0][1])


def without_share(text: str, share: Share) -> str:
    """``text`` with the words of the share blanked (to read what else it says of money)."""
    start, end = share.span
    return text[:start] + " " * (end - start) + text[end:]
