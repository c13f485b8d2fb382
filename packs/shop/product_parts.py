"""The shop's part reader: a part of a message no template read, looked up in the catalogue.

"Is the humidifier quiet enough for a baby's room", "保温杯能放洗碗机吗", "e-reader vs the 11
inch tablet, which is cheaper?": the templates read stock and price questions by their framing
("in stock", "多少钱"); a question about a product framed otherwise is unread. The engine
(:mod:`helpdesk.graph.part_reading`) asks this reader first: the part's product words are
searched (``search_products``, the search the reply would make), and when one of the first hits
is *named* in the part — a distinctive word of its English name, or two or more characters of
its Chinese name — the part is a product question, answered with what the catalogue shows
(price, stock, restock date) and a word that finer details are not known. A hit the part does
not name (the search ranks partial matches too) leaves the part unread: a search box's best
guess is never taken for what the customer asked about.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from helpdesk.graph.asking import ASKS
from helpdesk.graph.conversation import rx
from helpdesk.packs.shop.words import product_query
from helpdesk.tools.packs import PartReader

__all__ = [
    "LOOKED_UP",
    "PRODUCT_PART_READER",
    "named_in",
    "names_product",
    "part_query",
    "pick_product",
]

LOOKED_UP = "looked_up"
"""A stock request's argument: the part was read by the catalogue lookup (the reply says only
what the catalogue shows is known)."""

#: How many of the search's first hits may be the one the part names.
_FIRST_HITS = 3
#: Words of product names too general to name a product on their own.
_GENERAL_EN = frozenset(
    {
        "wireless", "smart", "mini", "true", "portable", "electric", "stainless", "steel",
        "cotton", "winter", "handheld", "clear", "memory", "foam", "scented", "set", "pack",
        "pairs", "queen", "inch", "with", "pro", "plus", "fast", "glass", "drip", "down",
        "slim", "knit", "silk", "leather", "linen", "hooded", "canvas", "waterproof", "thermal",
        "running", "non-stick", "tempered", "noise", "cancelling", "bluetooth", "power", "bank",
    }
)  # fmt: skip
_GENERAL_ZH = frozenset(
    {
        "智能", "无线", "迷你", "便携", "电动", "纯棉", "不锈", "锈钢", "不锈钢", "套装", "两只",
        "三只", "五双", "三件", "四件", "件装", "只装", "双装", "运动", "高清", "冬季", "记忆",
        "真皮", "真丝", "男士", "女士", "手持", "桌面", "陶瓷", "防水", "保暖", "针织", "双肩",
        "移动", "英寸", "米）", "电脑",
    }
)  # fmt: skip
_LATIN_WORD = re.compile(r"[a-z][a-z-]{3,}")
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")


# something to be done with a product (to an order), not asked about it: "gift wrap the
# thermos", "add a second thermos to 100200", "cancel the watch from it", "给100904加一件羽绒服"
_ANOTHER_ONE = rx(
    r"^[^\w\u3400-\u9fff]*(?:另外|然后|顺便)?(?:再|还)(?:来|配|要|买|拿)(?:一)?"
    r"(?:个|顶|件|双|张|条|台|把|只|套|盒|瓶|副)?(?=[\u4e00-\u9fffa-z0-9])"
)
_DONE_WITH_IT = rx(
    # ("can i keep the free gift", not "does it keep tea hot")
    r"\bkeep\b(?! (?:\w+ ){0,2}(?:hot|warm|cold|cool|dry|fresh|clean)\b)"
    r"|\b(?:add|adding|wrap|wrapping|change|cancel+|swap|exchange|return|send|ship|deliver"
    r"|remove|touch|refund|replace|split|combine|upgrade|modify|update|put|switch|resize"
    r"|install|assemble|engrave|pay|paid|received|arrived|came|delivered|missing)\b"
    r"|加一|加个|加件|改|换|取消|退|寄|送|包装|扔|投诉|修|补发|删|去掉|安装|刻字|付|收到|到了|没到"
    # "能帮忙贴膜吗", "can you apply it for me": a service asked for
    r"|帮(?:忙|我)?贴|\bapply (?:it|them|the)\b"
)


# "哪个更保暖", "which one is warmer", "which of them is better": of things named elsewhere
_WHICH_OF_THEM = rx(
    r"(?:那)?哪(?:个|一个|款|种|样)(?:更|比较|最|好)|\bwhich (?:one|of them|of the two|of those)\b"
    r"|\bwhich (?:is|'s|would be) (?:better|best|more|less|\w+er)\b"
)


_COMPARING = re.compile(r"^(?:\w+(?:er|est)|more|less|most|least|worth|value)$")


def _only_general(words: str) -> bool:
    """Whether product words hold nothing but words too general to name a product."""
    low = words.lower()
    latin = [
        w for w in _LATIN_WORD.findall(low) if w not in _GENERAL_EN and not _COMPARING.match(w)
    ]
    han = [w for w in _HAN_RUN.findall(low) if w not in _GENERAL_ZH]
    return not latin and not han


def part_query(part: str) -> Mapping[str, Any] | None:
    """The search for a part that asks about something ("is the humidifier quiet", "保温杯能放
    洗碗机吗"); None for a part that asks nothing, or asks for something done with a product
    (those stay unread: the reply says so) or names no product words."""
    another = _ANOTHER_ONE.match(part)
    if another:
        # "再配个无线鼠标", "再来一顶毛线帽": one more thing wanted — what the catalogue shows of it
        part = part[another.end() :]
    elif not ASKS.search(part.lower()):
        return None
    if _DONE_WITH_IT.search(part.lower()):
        return None
    which = _WHICH_OF_THEM.search(part)
    rest = part[: which.start()] + " " + part[which.end() :] if which is not None else ""
    if which is not None and _only_general(product_query(rest) or ""):
        # "SKU-1047和SKU-1048有货吗 哪个更保暖": which of the things named before is warmer —
        # the catalogue does not say; never a search of "warm"
        return None
    query = product_query(part)
    return {"q": query} if query else None


def _en_names(name: str, text: str) -> bool:
    words = set(re.findall(r"[a-z][a-z-]*", text))
    named = re.findall(r"[a-z][a-z-]*", name.lower())
    if len(named) >= 2 and " ".join(named[-2:]) in text:
        return True  # "power bank", "frying pan": the name's last two words together
    for word in _LATIN_WORD.findall(name.lower()):
        if word in _GENERAL_EN:
            continue
        stem = word.rstrip("s")
        if {word, stem, f"{stem}s", f"{stem}es"} & words or (
            "-" in word and word.replace("-", "") in text.replace("-", "")
        ):
            return True
    return False


def _zh_names(name: str, text: str) -> bool:
    for run in _HAN_RUN.findall(name):
        pieces = {run[i:j] for i in range(len(run)) for j in range(i + 2, len(run) + 1)}
        if any(piece in text for piece in pieces - _GENERAL_ZH):
            return True
    return False


def names_product(part: str, product: Mapping[str, Any]) -> bool:
    """Whether the part names the product: a distinctive word of its English name, or two or
    more characters of its Chinese name (not a general word like 智能, "wireless")."""
    text = part.lower()
    name = str(product.get("name") or "")
    name_zh = str(product.get("name_zh") or "")
    return _en_names(name, text) or _zh_names(name_zh, text)


def pick_product(part: str, data: Any) -> tuple[str, dict[str, Any]] | None:
    """A stock request when one of the search's first hits is named in the part, else None."""
    products = data.get("products") if isinstance(data, Mapping) else None
    if not isinstance(products, list):
        return None
    hits = [p for p in products[:_FIRST_HITS] if isinstance(p, Mapping)]
    if any(named_in(part, product) for product in hits):
        return "stock", {LOOKED_UP: True}
    return None


def named_in(part: str, product: Mapping[str, Any]) -> bool:
    """Whether the part names the hit: the shop's own ``named`` (the query held a word of the
    product's names or aliases: "a warm hat" names the beanie) and a distinctive word of it in
    the part (:func:`names_product`), or that word alone when the shop does not say."""
    if names_product(part, product):
        return True
    return bool(product.get("named")) and not _only_general_words(part, product)


def _only_general_words(part: str, product: Mapping[str, Any]) -> bool:
    """The part shares words with the product's English name, all of them general ("is it
    smart enough" and "Smart Watch"): the shop's ``named`` then rests on those alone. A part
    sharing none was named by an alias ("a warm hat" and the Knit Beanie)."""
    name = set(re.findall(r"[a-z][a-z-]*", str(product.get("name") or "").lower()))
    shared = name & set(re.findall(r"[a-z][a-z-]*", part.lower()))
    return bool(shared) and shared <= _GENERAL_EN


PRODUCT_PART_READER = PartReader(tool="search_products", query=part_query, pick=pick_product)
