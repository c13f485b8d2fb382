"""Redaction of personal data before anything is logged or written to an events file.

Phone numbers (mainland mobiles, landlines, international), e-mail addresses, payment card
numbers (13-19 digits passing the Luhn check, so order ids and tracking numbers survive) and
street addresses (Chinese ``…路88号`` / ``…街道…号`` forms and English ``221B Baker Street``
forms) are replaced by ``[phone]``, ``[email]``, ``[card]`` and ``[address]``; Chinese text has
no word boundaries, so a Chinese address may take a few characters before it along (redaction
errs on the side of removing). Argument values
whose *name* says what they are (``phone``, ``email``, ``address``, ``card_number``...) are
redacted whole. :func:`summarize_args` turns a tool call's arguments into the short, redacted
summary the structured call log carries.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

__all__ = ["REDACTED_KEYS", "redact", "redact_value", "summarize_args"]

REDACTED_KEYS: Final[frozenset[str]] = frozenset(
    {
        "phone",
        "mobile",
        "telephone",
        "tel",
        "email",
        "e_mail",
        "address",
        "street",
        "shipping_address",
        "card",
        "card_number",
        "pan",
        "cvv",
        "password",
        "token",
    }
)
"""Argument names whose values are always redacted whole."""

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# ASCII word boundaries: in "我电话13812345678" the Chinese characters are \w to Python's re,
# and a \w-based boundary would leave the number unmasked.
_B = r"0-9A-Za-z_"
_CARD = re.compile(rf"(?<![{_B}-])\d(?:[ -]?\d){{12,18}}(?![{_B}-])")
_ID_CARD = re.compile(rf"(?<![{_B}])\d{{17}}[\dXx](?![{_B}])")
_PHONE = re.compile(
    rf"(?<![{_B}-])(?:"
    r"(?:\+|00)\d{1,3}[ -]?(?:\(?\d{1,4}\)?[ -]?)?\d{3,4}[ -]?\d{3,4}"  # international
    r"|1[3-9]\d[ -]?\d{4}[ -]?\d{4}"  # mainland mobile
    r"|0\d{2,3}-\d{7,8}"  # landline with area code
    r"|\d{3,4}-\d{3}-\d{4}"  # 400-820-8820, 212-555-0147
    r"|\(\d{3}\) ?\d{3}-\d{4}"  # (212) 555-0147
    r"|0\d{2,3} \d{4} ?\d{4}"  # 010 6234 5678
    rf")(?![{_B}-])"
)
_ZH_ADDRESS = re.compile(
    r"[\u4e00-\u9fff]{2,}(?:省|市|区|县|镇|乡)"
    r"[\u4e00-\u9fff0-9]*?(?:路|街|道|巷|弄|胡同|大道)[\u4e00-\u9fff0-9]*?\d+号"
    r"(?:[\u4e00-\u9fff0-9-]*?(?:楼|室|单元|层|栋|幢))*"
    r"|[\u4e00-\u9fff]{1,12}(?:路|街|巷|弄|胡同|大道)\d+号"
    r"(?:[\u4e00-\u9fff0-9-]*?(?:楼|室|单元|层|栋|幢))*"
)
_EN_ADDRESS = re.compile(
    r"\b\d{1,5}[A-Za-z]?\s+(?:[A-Z][A-Za-z'.-]*\s+){1,4}"
    r"(?:Street|St|Road|Rd|Avenue|Ave|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl"
    r"|Terrace|Square|Sq|Parkway|Pkwy|Highway|Hwy)\b\.?"
    r"(?:,?\s+(?:Apt|Apartment|Suite|Ste|Unit|Flat|#)\.?\s*[\w-]+)?"
)


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _card(match: re.Match[str]) -> str:
    digits = re.sub(r"\D", "", match.group(0))
    return "[card]" if 13 <= len(digits) <= 19 and _luhn_ok(digits) else match.group(0)


def redact(text: str) -> str:
    """``text`` with phone numbers, e-mails, card and ID-card numbers and street addresses
    replaced."""
    text = _EMAIL.sub("[email]", text)
    text = _ID_CARD.sub("[id]", text)
    # Phones first: "+86 138 1234 5678" is a phone even when its digits pass the Luhn check.
    text = _PHONE.sub("[phone]", text)
    text = _CARD.sub(_card, text)
    text = _ZH_ADDRESS.sub("[address]", text)
    return _EN_ADDRESS.sub("[address]", text)


def redact_value(value: Any, *, key: str | None = None) -> Any:
    """A JSON-able copy of ``value`` with every string redacted; named secrets blanked whole."""
    if key is not None and key.lower() in REDACTED_KEYS and value not in (None, ""):
        return "[redacted]"
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        return {str(k): redact_value(v, key=str(k)) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [redact_value(v) for v in value]
    if value is None or isinstance(value, bool | int | float):
        return value
    return redact(str(value))


def summarize_args(args: Mapping[str, Any], *, max_chars: int = 80) -> dict[str, Any]:
    """Redacted arguments, each string cut to ``max_chars`` (a log line, not a data dump)."""
    out: dict[str, Any] = {}
    for name, value in sorted(args.items()):
        clean = redact_value(value, key=name)
        if isinstance(clean, str) and len(clean) > max_chars:
            clean = clean[: max_chars - 1] + "…"
        elif isinstance(clean, dict | list):
            shown = str(clean)
            clean = shown if len(shown) <= max_chars else shown[: max_chars - 1] + "…"
        out[name] = clean
    return out
