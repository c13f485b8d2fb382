"""Language detection for customer text: Chinese when Han characters are present, else English.

The minimal tier answers in the customer's language without a model, so the decision has to be
cheap and deterministic. Identifiers (order numbers, SKUs, tickets, tracking numbers) and digits
carry no language signal and are ignored; a message with no letters at all (``"100123"``) gets
the caller's ``default`` — usually the language of the session so far.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["Lang", "contains_cjk", "detect_language"]

Lang = Literal["zh", "en"]

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# Identifier-shaped tokens: SKU-1001, T-000123, SF1234567890, order numbers and other digits.
_IDS = re.compile(r"(?i)\bsku[\s_-]*\d+|\bt-?\d{6}\b|\b(?:sf|yt)\d{10}\b|\d+")
_LATIN = re.compile(r"[A-Za-z]")


def contains_cjk(text: str) -> bool:
    """Whether ``text`` contains at least one Han (Chinese) character."""
    return _HAN.search(text) is not None


def detect_language(text: str, default: Lang = "en") -> Lang:
    """The language to answer ``text`` in.

    Args:
        text: the customer's message (or one clause of it).
        default: returned when the text carries no language signal (only ids, digits, emoji).

    Returns:
        ``"zh"`` if any Han character is present, ``"en"`` if Latin letters remain once
        identifiers are removed, otherwise ``default``.
    """
    if contains_cjk(text):
        return "zh"
    if _LATIN.search(_IDS.sub(" ", text)):
        return "en"
    return default
