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

:func:`mask_secrets` is the narrower masker applied to every customer message when it is received
(the session API), before it is stored, logged, sent to a model or put in a ticket: card numbers,
ID-card numbers and bank accounts (``[card]``, ``[id]``, ``[account]``) — the bot never needs them.
Phone numbers, e-mails and addresses stay (a ticket may need them); they are redacted from logs by
:func:`redact` and encrypted at rest in checkpoints.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

__all__ = ["REDACTED_KEYS", "mask_secrets", "redact", "redact_value", "summarize_args"]

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
# Digit runs (single spaces or dashes between groups, an optional leading +): a run of 12-20
# digits that is not a phone number is a card (Luhn) or a bank account. IBANs, and shorter numbers
# right after a word that says "account", are bank accounts too.
_NUMBER_RUN = re.compile(rf"(?<![{_B}+-])\+?\d(?:[ -]?\d)*(?![{_B}-])")
_IBAN = re.compile(rf"(?<![{_B}])[A-Z]{{2}}\d{{2}}(?: ?[A-Z0-9]{{1,4}}){{3,8}}(?![{_B}])")
_NAMED_ACCOUNT = re.compile(
    r"((?:银行)?(?:账号|帐号|账户|帐户|卡号)|\b(?:account|acct|iban)(?:\s+(?:number|no\.?|#))?)"
    r"(\s*[:：#]?\s*)(\d(?:[ -]?\d){7,})",
    re.IGNORECASE,
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


def _number(match: re.Match[str], *, accounts: bool) -> str:
    run = match.group(0)
    digits = re.sub(r"\D", "", run)
    if len(digits) < 12 or _PHONE.fullmatch(run):
        return run
    if len(digits) <= 19 and _luhn_ok(digits):
        return "[card]"
    # 12-15 digit runs are often parcel tracking numbers; accounts are 16-20 digits.
    return "[account]" if accounts and 16 <= len(digits) <= 20 else run


def _iban(match: re.Match[str]) -> str:
    return "[account]" if len(match.group(0).replace(" ", "")) >= 15 else match.group(0)


def _mask(text: str, *, accounts: bool) -> str:
    text = _ID_CARD.sub("[id]", text)
    text = _IBAN.sub(_iban, text)
    text = _NUMBER_RUN.sub(lambda m: _number(m, accounts=accounts), text)
    return _NAMED_ACCOUNT.sub(lambda m: f"{m.group(1)}{m.group(2)}[account]", text)


def mask_secrets(text: str) -> str:
    """``text`` with card numbers, ID-card numbers and bank accounts masked (a bare 16-20 digit
    run that is not a card counts as an account); phone numbers (which can look like long digit
    runs), order ids, SKUs and tracking numbers are left as they are."""
    return _mask(text, accounts=True)


def redact(text: str) -> str:
    """``text`` with phone numbers, e-mails, card and ID-card numbers and street addresses
    replaced."""
    text = _EMAIL.sub("[email]", text)
    # Cards, IDs and accounts first; a run that is a phone number ("+86 138 1234 5678", even
    # when its digits pass the Luhn check) is left to the phone pattern.
    text = _mask(text, accounts=False)
    text = _PHONE.sub("[phone]", text)
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
