"""How the demo shop ranks products for a search, the way a shop's search box does.

A product whose text holds every query word ranks first; when none does, products are ranked by
how many query words they hold, so "smart watch s3 chengdu" still finds the watch and "不粘锅"
finds "不粘煎锅". English words match at a word start, singular or plural ("watches" finds
"Smart Watch", "mens" finds "Men's" but not "Women's"); Chinese words match as a whole or by
their two-character pieces. Aliases (:data:`helpdesk.tools.shop.catalog.SEARCH_ALIASES`) are the
words customers use that the catalog name lacks ("充电宝" for a power bank).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from helpdesk.tools.number_words import chinese_number

__all__ = ["ProductText", "price_cap", "product_text", "rank_products", "search_terms"]

_TERM = re.compile(r"[a-z0-9][a-z0-9+.-]*|[\u3400-\u9fff]+")
_APOSTROPHES = re.compile(r"['’`]")
#: How much of a Chinese word's two-character pieces must be found for it to count as half a hit.
_PARTIAL_HAN = 0.5


@dataclass(frozen=True, slots=True)
class ProductText:
    """The searchable text of one product."""

    sku: str
    text: str
    """Name, Chinese name, SKU, category and aliases, lower-cased, apostrophes removed."""
    phrases: tuple[str, ...] = ()
    """Aliases of several Latin words ("keep hot", "reading light"): a customer's words name the
    product by one only when they say it whole ("it keeps disconnecting" names no thermos)."""
    phrase_only: frozenset[str] = frozenset()
    """The words only those phrases hold (not the names' nor another alias's)."""


_AMOUNT = (
    r"(\d+(?:\.\d+)?|[一二两三四五六七八九]?[百千][一二两三四五六七八九]?"
    r"|[二两三四五六七八九]?十[一二三四五六七八九]?)"
)
_YUAN = r"\s*(?:¥|rmb|cny|yuan|kuai|元|块钱|块)?"
# "earphones under 500", "budget around 500 kuai", "200以内", "一百以内的无线鼠标", "不超过300"
_PRICE_CAP = re.compile(
    r"\b(?:under|below|less than|cheaper than|no more than|not more than|max(?:imum)?|up to"
    r"|within|budget(?: of| is| around| about)?)\s*(?:¥|rmb|cny)?\s*"
    + _AMOUNT
    + _YUAN
    + r"|"
    + _AMOUNT
    + _YUAN
    + r"\s*(?:以内|以下|之内|内|左右)"
    + r"|(?:不超过|不到|低于|少于|预算)\s*"
    + _AMOUNT
    + _YUAN,
    re.IGNORECASE,
)


def _amount(raw: str) -> float:
    """A number as written: digits, or Chinese hundreds and thousands ("一百", "两千五")."""
    if raw[0].isdigit():
        return float(raw)
    return float(chinese_number(raw) or 0)


def price_cap(query: str) -> tuple[float | None, str]:
    """The most a search says to spend ("under 500", "一百以内") and the query without it."""
    found = _PRICE_CAP.search(query)
    if found is None:
        return None, query
    raw = next(g for g in found.groups() if g)
    return _amount(raw), (query[: found.start()] + " " + query[found.end() :]).strip()


def _clean(text: str) -> str:
    return _APOSTROPHES.sub("", text.lower())


def search_terms(query: str) -> list[str]:
    """The words of a query: English/number tokens and runs of Chinese characters."""
    # a word ends before a sentence's full stop ("air purifiers." is "air purifiers")
    terms = (t.rstrip(".-") for t in _TERM.findall(_clean(query)))
    return list(dict.fromkeys(t for t in terms if t))


def product_text(sku: str, parts: Iterable[str], aliases: Iterable[str] = ()) -> ProductText:
    """``parts`` (names, SKU, category) and ``aliases``; an alias of several Latin words is a
    phrase (:attr:`ProductText.phrases`)."""
    said = [_clean(a) for a in aliases if a]
    phrases = tuple(a for a in said if " " in a.strip() and not _HAN.search(a))
    named = [_clean(p) for p in parts if p]
    own = _name_words(" ".join([*named, *(a for a in said if a not in phrases)]))
    return ProductText(
        sku=sku,
        text=" ".join([*named, *said]),
        phrases=phrases,
        phrase_only=frozenset(_name_words(" ".join(phrases)) - own),
    )


_F_PLURALS = {"scarves": "scarf", "knives": "knife", "shelves": "shelf", "wolves": "wolf"}


def _singular(word: str) -> str | None:
    if word in _F_PLURALS:
        return _F_PLURALS[word]  # "scarves" is "scarf"
    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss"):
        return None
    for suffix in ("ches", "shes", "xes", "ses"):
        if word.endswith(suffix):
            return word[:-2]
    return word[:-1]


def _ascii_hit(term: str, text: str) -> bool:
    # a number is a whole number ("200" is no hit in "20000mah")
    end = r"(?![0-9])" if term[-1].isdigit() else ""
    if len(term) == 1:
        # one letter is a word only whole (a size, "m码"), never a word's start ("m" of "mens")
        end = r"(?![a-z0-9])"
    for form in filter(None, (term, _singular(term))):
        if re.search(r"(?<![a-z0-9])" + re.escape(form) + end, text):
            return True
    return False


def _han_hit(term: str, text: str) -> float:
    if len(term) == 1:
        # one character is a word only as a whole alias ("膜"), never a piece ("不" of 不锈钢)
        return 1.0 if re.search(rf"(?<![\u3400-\u9fff]){term}(?![\u3400-\u9fff])", text) else 0.0
    if term in text:
        return 1.0
    pieces = [term[i : i + 2] for i in range(len(term) - 1)]
    if not pieces:
        return 0.0
    found = sum(1 for piece in pieces if piece in text) / len(pieces)
    return 0.5 if found >= _PARTIAL_HAN else 0.0


def _score(terms: Sequence[str], product: ProductText) -> float:
    total = 0.0
    for term in terms:
        if term[0].isascii():
            total += 1.0 if _ascii_hit(term, product.text) else 0.0
        else:
            total += _han_hit(term, product.text)
    return total


def rank_products(query: str, products: Sequence[ProductText]) -> list[str]:
    """SKUs matching ``query``, best first; every product when the query has no words.

    Products holding every word come first (in catalog order); if there are none, the products
    holding the most words (at least half of one Chinese word), best first.
    """
    terms = search_terms(query)
    if not terms:
        return [p.sku for p in products]
    scored = [(_score(terms, p), index, p.sku) for index, p in enumerate(products)]
    whole = [sku for score, _, sku in scored if score >= len(terms)]
    if whole:
        return whole
    # "x12 手机壳", "比 65w 充电器便宜 无线充": the last Chinese word is what is wanted (the
    # phone is only what it fits) — the products holding it whole, when some do and no other
    # Chinese word names a product of its own ("电饭煲 容量 电热水壶" asks of two)
    han = [t for t in terms if not t[0].isascii() and len(t) >= 2]
    head = han[-1] if han else None
    if any(_han_hit(t, p.text) == 1.0 for t in han[:-1] for p in products):
        head = None
    if head is not None:
        headed = [s for s in scored if _han_hit(head, products[s[1]].text) == 1.0]
        scored = headed or scored
    best = max((score for score, _, _ in scored), default=0.0)
    if best < _PARTIAL_HAN:
        return _by_pieces(terms, products)
    return [sku for score, _, sku in sorted(scored, key=lambda s: (-s[0], s[1])) if score >= best]


def _by_pieces(terms: Sequence[str], products: Sequence[ProductText]) -> list[str]:
    """When no word of the query is found, Chinese words not split by the customer ("能给汤保温
    的杯子"): the products holding the most of their two-character pieces ("保温"), if any."""
    pieces = {t[i : i + 2] for t in terms if not t[0].isascii() for i in range(len(t) - 1)}
    if not pieces:
        return []
    hits = [(sum(1 for p in pieces if p in product.text), product.sku) for product in products]
    best = max((n for n, _ in hits), default=0)
    return [sku for n, sku in hits if n == best] if best else []


# Words of product names that say nothing about which product a customer means on their own.
_NAME_FILLER = frozenset(
    {"set", "pack", "pcs", "and", "the", "with", "for", "of", "in", "inch", "electronics", "home",
     "clothing", "queen", "pairs", "2m", "5l", "4l", "500ml", "1.7l", "28cm", "128gb", "256gb",
     "3kg", "25l", "1tb"}
)  # fmt: skip
_LATIN_WORD = re.compile(r"[a-z0-9][a-z0-9.-]*")  # "monitor+phone" names two
_HAN = re.compile(r"[\u3400-\u9fff]+")


def _name_words(text: str) -> set[str]:
    return {w for w in _LATIN_WORD.findall(text) if len(w) >= 3 and w not in _NAME_FILLER}


def _name_pairs(text: str) -> set[str]:
    """Two-character pieces of the Chinese names, and one-character aliases whole ("膜") — not
    the unit of a count in a name ("陶瓷餐具套装（16 件）": "三件冲锋衣" names no dinnerware)."""
    runs = _HAN.findall(text)
    singles = {
        m.group(0)
        for m in _HAN.finditer(text)
        if len(m.group(0)) == 1 and not _COUNT_BEFORE.search(text[: m.start()])
    }
    return {run[i : i + 2] for run in runs for i in range(len(run) - 1)} | singles


_COUNT_BEFORE = re.compile(r"\d\s*$")


def _name_heads(text: str) -> set[str]:
    """The last two characters of each Chinese name and alias (a compound's head)."""
    return {run[-2:] for run in _HAN.findall(text) if len(run) >= 2}


def mention_scores(text: str, products: Sequence[ProductText]) -> dict[str, int]:
    """How strongly ``text`` (a customer's words, not a search query) names each product: its
    name's words found whole (singular or plural: "my headphones", "the monitor order") plus
    its Chinese names' two-character pieces found ("净化器那单" names 空气净化器 twice). Only
    products named at all are in the result."""
    cleaned = _clean(text)
    words = {w.rstrip(".-") for w in _LATIN_WORD.findall(cleaned)} - {""}
    words |= {s for w in words if (s := _singular(w))}
    scores: dict[str, int] = {}
    for product in products:
        # a word only a phrase alias holds names the product when the phrase is said whole
        score = len((_name_words(product.text) - product.phrase_only) & words)
        score += sum(1 for p in product.phrases if re.search(rf"\b{re.escape(p)}\b", cleaned))
        score += sum(1 for pair in _name_pairs(product.text) if pair in cleaned)
        if score:
            # a Chinese name's last two characters are what it is (手机 of 智能手机; of 手机膜,
            # 机膜): "手机那单" names the phone more than the phone's screen protector
            score += sum(1 for head in _name_heads(product.text) if head in cleaned)
        if score:
            scores[product.sku] = score
    return scores
