"""Numbers written in words: Chinese numerals (一百, 三百五, 1千2), English number words
("fifty", "two hundred and fifty", "a hundred"), and a number with a Chinese or English unit
after its digits ("1百", "1.5千", "2 hundred"; "1.5k" is found, to be asked about). Each
reader says what the words are worth, or None when they are no number it can be sure of."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

__all__ = ["EN_UNITS", "THOUSANDS_K", "chinese_number", "english_number", "scaled_number"]

_CN_DIGIT = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CN_UNIT = {"十": 10, "百": 100, "千": 1000, "万": 10000}

EN_UNITS: dict[str, int] = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_EN_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_EN_SCALE = {"hundred": 100, "thousand": 1000}
_EN_WORD = "|".join(sorted([*EN_UNITS, *_EN_TENS, *_EN_SCALE], key=len, reverse=True))
ENGLISH_NUMBER = re.compile(
    rf"\b(?:(?:a|an|one)\s+)?(?:{_EN_WORD})(?:(?:\s+and\s+|\s*-\s*|\s+)(?:{_EN_WORD}))*\b",
    re.IGNORECASE,
)
"""English number words in a row ("two hundred and fifty", "twenty-five", "a hundred")."""
_SCALED = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*((?:百|千|万)(?![\d零〇一二两三四五六七八九十百千万])"
    r"|hundred\b|thousand\b)",
    re.IGNORECASE,
)
_SCALE_OF = {"百": 100, "千": 1000, "万": 10000, "hundred": 100, "thousand": 1000}


def english_number(text: str) -> tuple[Decimal, str] | None:
    """The first English number said in words and the words themselves ("refund fifty" ->
    50, "fifty"); None when there is none, or only "one"/"a" (a thing, not an amount:
    "refund that one")."""
    for m in ENGLISH_NUMBER.finditer(text):
        words = re.split(r"\s+and\s+|\s*-\s*|\s+", m.group(0).lower())
        if all(w in ("a", "an", "one") for w in words):
            continue
        value = _english_value(words)
        if value is not None:
            return Decimal(value), m.group(0)
    return None


def _english_value(words: list[str]) -> int | None:
    total, current, seen = 0, 0, False
    for word in words:
        if word in ("a", "an"):
            current = current or 1
        elif word in EN_UNITS:
            if current % 100 >= 10 and current % 10 == 0 and current % 100 != 0:
                current += EN_UNITS[word]  # "twenty five"
            elif current % 100:
                return None  # "five six": no number
            else:
                current += EN_UNITS[word]
        elif word in _EN_TENS:
            if current % 100:
                return None
            current += _EN_TENS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word == "thousand":
            total += (current or 1) * 1000
            current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


THOUSANDS_K = re.compile(
    r"(?<![\d.])\d+(?:\.\d+)?\s*k\b(?!\s*(?:monitor|tv|screen|display|video|resolution|hdr))",
    re.IGNORECASE,
)
"""An amount in thousands written with a "k" ("1.5k"): asked about, never read as 1 ("4K
monitor" is a product)."""


def scaled_number(text: str) -> tuple[Decimal, str] | None:
    """Digits with a unit after them ("1百" -> 100, "1.5千" -> 1500, "2 hundred" -> 200) and
    the words; None when there are none."""
    m = _SCALED.search(text)
    if m is None:
        return None
    try:
        value = Decimal(m.group(1)) * _SCALE_OF[m.group(2).lower()]
    except InvalidOperation:
        return None
    return value, m.group(0)


def chinese_number(raw: str) -> int | None:
    """一百 -> 100, 三百五 -> 350, 1千2 -> 1200, 两百 -> 200, 一万五 -> 15000, 十 -> 10."""
    if not raw or not any(ch in _CN_DIGIT or ch in _CN_UNIT for ch in raw):
        return None
    total = 0
    section = 0
    digit: int | None = None
    last_unit = 0
    zero_seen = False
    for ch in raw:
        if ch.isdigit():
            digit = (digit or 0) * 10 + int(ch) if digit is not None else int(ch)
            continue
        if ch in ("零", "〇") and last_unit:
            zero_seen = True
            continue
        if ch in _CN_DIGIT:
            if digit is not None and digit != 0:
                return None  # two digits in a row without a unit: 一二 is not a number
            digit = _CN_DIGIT[ch]
            continue
        unit = _CN_UNIT.get(ch)
        if unit is None:
            return None
        zero_seen = False
        if unit == 10000:
            section = (section + (digit or 0)) * unit
            total += section
            section = 0
        else:
            section += (1 if digit is None else digit) * unit
        digit = None
        last_unit = unit
    if digit is not None:
        # a trailing digit after a unit means one step below it: 三百五 = 350, 1千2 = 1200
        step_down = last_unit >= 100 and not zero_seen
        section += digit * (last_unit // 10) if step_down else digit
    return total + section
