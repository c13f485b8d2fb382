"""Language detection for customer text: Chinese when Han characters are present, else English.

The minimal tier answers in the customer's language without a model, so the decision has to be
cheap and deterministic. Identifiers (order numbers, SKUs, tickets, tracking numbers) and digits
carry no language signal and are ignored; a message with no letters at all (``"100123"``) gets
the caller's ``default`` — usually the language of the session so far.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = [
    "Lang",
    "contains_cjk",
    "detect_language",
    "reply_language",
    "requested_language",
    "unsupported_language",
]

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


# "reply in English", "english please", "可以用英文回复吗" / "说中文", "in Chinese please"
_ASK_EN = re.compile(
    r"(?i)\b(?:reply|answer|respond|speak|talk|write|chat|text)\b[^.?!。？！]{0,20}\bin english\b"
    r"|\benglish,? please\b|^\W*(?:in )?english\W*$|\bdo you speak english\b"
    r"|(?:用|说|讲|改用|换成)(?:英文|英语)|(?:英文|英语)(?:回复|回答|交流|沟通|说)"
)
_ASK_ZH = re.compile(
    r"(?i)\b(?:reply|answer|respond|speak|talk|write|chat)\b[^.?!。？！]{0,20}"
    r"\bin (?:chinese|mandarin)\b"
    r"|\b(?:chinese|mandarin),? please\b|\bdo you speak (?:chinese|mandarin)\b"
    r"|(?:用|说|讲|改用|换成)(?:中文|汉语|普通话)|(?:中文|汉语)(?:回复|回答|交流|沟通)"
)
# Scripts the bot does not answer in: kana, hangul, Cyrillic, Greek, Arabic, Hebrew, Thai, ...
_OTHER_SCRIPT = re.compile(
    r"[\u3040-\u30ff\uac00-\ud7af\u0400-\u04ff\u0370-\u03ff\u0600-\u06ff\u0590-\u05ff"
    r"\u0e00-\u0e7f\u0900-\u097f]"
)


def requested_language(text: str) -> Lang | None:
    """The language the customer explicitly asks the bot to use ("reply in English", "说中文")."""
    if _ASK_EN.search(text):
        return "en"
    if _ASK_ZH.search(text):
        return "zh"
    return None


def unsupported_language(text: str) -> bool:
    """Whether the message is written in a language the bot does not answer in (Japanese,
    Korean, Russian, ...): letters of such a script and no request in English or Chinese."""
    return _OTHER_SCRIPT.search(text) is not None and requested_language(text) is None


def reply_language(
    text: str, *, chosen: str | None, session: str | None, profile: str | None
) -> Lang:
    """The language of the reply, by the language policy.

    An explicit request in this message ("reply in English") wins, then the language the
    customer chose earlier in the session (``chosen``); otherwise the message's own language,
    and for a message without one (ids, emoji, another language) the session's language so far,
    then the customer's profile language, then English.
    """
    requested = requested_language(text)
    if requested is not None:
        return requested
    if chosen in ("en", "zh"):
        return chosen  # type: ignore[return-value]
    fallback: Lang = "en"
    for candidate in (session, profile):
        if candidate in ("en", "zh"):
            fallback = candidate  # type: ignore[assignment]
            break
    if unsupported_language(text):
        return fallback
    return detect_language(text, default=fallback)
