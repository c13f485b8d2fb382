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
    "FULLWIDTH_TO_ASCII",
    "Lang",
    "contains_cjk",
    "detect_language",
    "plain_apostrophes",
    "reply_language",
    "requested_language",
    "space_han_latin",
    "unsupported_language",
    "without_language_request",
]

Lang = Literal["zh", "en"]

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# Identifier-shaped tokens — a short Latin prefix and digits (SKU-1001, T-000123, SF1234567890,
# any pack's codes) — and other digits: they say nothing about the language.
_IDS = re.compile(r"(?i)\b[a-z]{1,4}[_-]?\d{3,}|\d+")
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
    # "please switch to english", "can you speak English?", "change the language to english"
    r"|\b(?:switch|change|go|move)\b[^.?!。？！]{0,16}\b(?:to|into) english\b"
    r"|\bcan (?:you|u) speak english\b"
    r"|(?:用|说|讲|改用|换成|换回|切回|改回|切换到|切换成)(?:英文|英语)(?!说明|版|名|书|资料|单)"
    r"|(?:英文|英语)(?:回复|回答|交流|沟通)"
    # "ok back to English please"
    r"|\b(?:back|switch back|go back) to english\b"
)
_ASK_ZH = re.compile(
    r"(?i)\b(?:reply|answer|respond|speak|talk|write|chat)\b[^.?!。？！]{0,20}"
    r"\bin (?:chinese|mandarin)\b"
    r"|\b(?:chinese|mandarin),? please\b|\bdo you speak (?:chinese|mandarin)\b"
    r"|\b(?:switch|change|go|move)\b[^.?!。？！]{0,16}\b(?:to|into) (?:chinese|mandarin)\b"
    r"|\bcan (?:you|u) speak (?:chinese|mandarin)\b"
    r"|(?:用|说|讲|改用|换成|换回|切回|改回|切换到|切换成)(?:中文|汉语|普通话)"
    r"|(?:中文|汉语)(?:回复|回答|交流|沟通)"
    r"|\b(?:back|switch back|go back) to (?:chinese|mandarin)\b"
)
# Scripts the bot does not answer in: kana, hangul, Cyrillic, Greek, Arabic, Hebrew, Thai, ...
_OTHER_SCRIPT = re.compile(
    r"[\u3040-\u30ff\uac00-\ud7af\u0400-\u04ff\u0370-\u03ff\u0600-\u06ff\u0590-\u05ff"
    r"\u0e00-\u0e7f\u0900-\u097f]"
)


_NEGATED_BEFORE = re.compile(r"(?i)(?:不要|别|不想|不用|don'?t|do not|not)\s*\w{0,3}\s*$")


def _asks(pattern: re.Pattern[str], text: str) -> int:
    """Where the last request for a language starts (-1: none; a negated one is no request)."""
    last = -1
    for m in pattern.finditer(text):
        if not _NEGATED_BEFORE.search(text[max(0, m.start() - 8) : m.start()]):
            last = m.start()
    return last


# "ok" / "thx" in a Chinese conversation: an acknowledgement, not a switch to English (a first
# message "ok" has nothing to follow and reads as English)
_LATIN_ACK = re.compile(r"(?i)^\W*(?:ok|okay|k|kk|thx|ty|yes|no|yep|yeah|nope|ok ok)\W*$")
#: Full-width ASCII (U+FF01..U+FF5E, "Ｗｈｅｒｅ") to ASCII and the ideographic space to a space,
#: one character for one (``str.translate`` keeps every span aligned).
FULLWIDTH_TO_ASCII: dict[int, int] = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
FULLWIDTH_TO_ASCII[0x3000] = 0x20
_APOSTROPHES = {code: ord("'") for code in (0x2018, 0x2019, 0x201B, 0x02BC, 0x2032, 0xFF07)}
FULLWIDTH_TO_ASCII.update(_APOSTROPHES)


def plain_apostrophes(text: str) -> str:
    """``text`` with typographic apostrophes (a phone's "don’t") as ASCII ones ("don't"), one
    character for one: every reading of a message sees one spelling of a negation."""
    return text.translate(_APOSTROPHES)


def requested_language(text: str) -> Lang | None:
    """The language the customer explicitly asks the bot to use ("reply in English", "说中文");
    "不要用英文回复" is none, and of two requests the last one counts."""
    en, zh = _asks(_ASK_EN, text), _asks(_ASK_ZH, text)
    if en < 0 and zh < 0:
        return None
    return "en" if en > zh else "zh"


_LANGUAGE_WORDS = re.compile(
    r"(?i)\b(?:in |reply in |answer in )?(?:english|chinese|mandarin)\b(?:,? please)?"
    r"|(?:用|说|讲|改用|换成)?(?:英文|英语|中文|汉语|普通话)(?:回复|回答|交流|沟通)?"
)


def without_language_request(text: str) -> str:
    """The text with the language it asks for blanked ("speak to a human in English" -> "speak
    to a human"): the rest may ask for something else."""
    return _LANGUAGE_WORDS.sub(lambda m: " " * len(m.group(0)), text)


# Characters of other scripts common in emoticons and Chinese text: not a language of their own.
_EMOTICON_CHARS = set("っつω・ー〜の゜ДΣσ◕‿｡٩۶ε∀")


# Everyday words of languages written in Latin letters that the bot does not answer in
# (Spanish, French, German, Portuguese, Italian, Indonesian, Japanese and Chinese romanised):
# the words a customer asks about an order with. English words that look the same are left
# out ("me", "a", "de" in names), and one word alone never decides.
_OTHER_LATIN = re.compile(
    r"(?i)(?<![\w'])(?:"
    r"hola|gracias|donde|dónde|está|esta|mi|mis|pedido|pedidos|envío|envio|cuando|cuándo|"
    r"quiero|puedo|por favor|usted|tengo|llegó|llego|buenos|buenas|días|dias|"
    r"bonjour|merci|où|ou est|est|ma|mon|commande|livraison|colis|je|vous|suis|pourquoi|"
    r"hallo|danke|wo|ist|meine|bestellung|lieferung|paket|bitte|ich|nicht|warum|"
    r"olá|ola|obrigado|obrigada|onde|meu|minha|encomenda|entrega|"
    r"ciao|grazie|dov'è|dove|il mio|ordine|spedizione|"
    r"halo|terima kasih|pesanan|saya|di mana|dimana|kapan|"
    r"konnichiwa|arigatou|arigato|sumimasen|chuumon|chumon|doko|desu|ka|wa|onegai|"
    r"nihao|ni hao|xiexie|zai nali|dingdan"
    r")(?![\w'])"
)
_LATIN_WORD = re.compile(r"[^\W\d_]+")


def _other_latin_language(text: str) -> bool:
    """Two or more everyday words of another Latin-script language, making up at least half
    of the message's words ("hola, donde esta mi pedido 100683")."""
    found = _OTHER_LATIN.findall(text)
    if len(found) < 2:
        return False
    words = len(_LATIN_WORD.findall(_IDS.sub(" ", text)))
    return words > 0 and sum(len(f.split()) for f in found) * 2 >= words


def unsupported_language(text: str) -> bool:
    """Whether the message is written in a language the bot does not answer in (Japanese,
    Korean, Russian, Spanish, ...): that script's letters outnumber the Chinese and English
    ones, or it is mostly everyday words of another Latin-script language, and the message
    does not ask for English or Chinese."""
    if requested_language(text) is not None:
        return False
    if not _HAN.search(text) and _other_latin_language(text):
        return True
    other = sum(1 for ch in _OTHER_SCRIPT.findall(text) if ch not in _EMOTICON_CHARS)
    if other < 2:
        return False
    known = len(_HAN.findall(text)) + len(re.findall(r"[A-Za-z]", _IDS.sub(" ", text)))
    return other > known


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
    if unsupported_language(text) or (session in ("en", "zh") and _LATIN_ACK.match(text)):
        return fallback
    return detect_language(text.translate(FULLWIDTH_TO_ASCII), default=fallback)


def profile_decides(text: str, *, chosen: str | None, session: str | None) -> bool:
    """Whether the customer's profile language would change the reply to ``text`` (a message
    without a language of its own, on a session without one): only then is the profile needed
    before the turn runs."""
    return reply_language(text, chosen=chosen, session=session, profile="zh") != reply_language(
        text, chosen=chosen, session=session, profile="en"
    )


_HAN_LATIN = re.compile(r"([\u4e00-\u9fff])([A-Za-z0-9¥])|([A-Za-z0-9])([\u4e00-\u9fff])")


def space_han_latin(text: str) -> str:
    """A Chinese reply's typography: a space between Chinese and Latin letters or digits."""
    return _HAN_LATIN.sub(
        lambda m: f"{m.group(1)} {m.group(2)}" if m.group(1) else f"{m.group(3)} {m.group(4)}",
        text,
    )
