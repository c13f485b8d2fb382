"""A refund of everything on an order but some of its items: "refund everything on 100200 but
the air fryer", "除了空气炸锅都退了", "空气炸锅不退 其他的都退".

What is meant is exact when each thing left out is one item of the order, bought once, and
nothing of the order was refunded yet: what the other items cost together. Otherwise (a thing
the order does not hold, a part of an item, an order partly refunded, nothing left) there is no
such amount and the customer is asked how much — never the whole order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

__all__ = ["ALL_BUT", "items_but"]

ALL_BUT = re.compile(
    # "everything but the air fryer", "refund all of 100200 except the thermos"
    # ("all" alone is no order: "the basket is all scratched but I'll keep it")
    r"\b(?:everything|evrything|everyting|every thing|all of (?:it|them|\d{6}|the (?:order|items)"
    r"|my order)|refund all"
    r"|all the items|the whole (?:order|thing)"
    r"|the rest|the entire order)\b[^.;!?]{0,30}?"
    r"\b(?:but|except(?: for)?|exept(?: for)?|excpet(?: for)?|apart from|other than|besides"
    r"|excluding|minus|save)\s+"
    r"(?:for\s+)?(?P<out>[^.,;!?]{2,60})"
    # "refund 100200 except the air fryer"
    r"|\brefund\s+(?:(?:my|the)\s+)?(?:order\s+)?(?:#\s*)?\d{6}\b[^.;!?]{0,20}?"
    r"\b(?:except(?: for)?|apart from|other than|excluding|minus)\s+(?P<out_id>[^.,;!?]{2,60})"
    # "除了空气炸锅都退", "除了空气炸锅以外其他的全部退了"
    r"|除了(?P<out_zh>[^，。,.!?！？]{1,16}?)(?:以外|之外)?[\s，,]*(?:其他的?|其余的?|别的|剩下的)?"
    r"(?:东西|商品)?(?:都|全|全部)"
    # "除空气炸锅外全退", "除空气炸锅之外其他都退"
    r"|除(?P<out_zh2>[^了，。,.!?！？][^，。,.!?！？]{0,15}?)(?:以外|之外|外)[\s，,]*"
    r"(?:其他的?|其余的?|其它的?|别的|剩下的)?(?:东西|商品)?(?:都|全|全部)"
    # "全部退了，空气炸锅除外", "refund all of it, the thermos excepted"
    r"|(?:全部|全|都)退(?:了|掉)?(?:吧)?[\s，,]*(?P<out_zh3>[\u4e00-\u9fff]{2,10}?)除外"
    # "空气炸锅不退 其他的都退", "空气炸锅留着 剩下的全退"
    r"|(?P<kept_zh>[\u4e00-\u9fff]{2,10})(?:我|就|先)*(?:不退|留着|保留|不要退|不用退)[\s，,]*"
    r"(?:其他的?|其余的?|其它的?|别的|剩下的)(?:东西|商品)?(?:都|全|全部)?退"
    # "退100200，保温杯不退", "100200退了吧 保温杯留着": the order's refund, one thing kept
    r"|(?:退(?:订单)?\s*#?\d{6}|#?\d{6}\s*(?:全|都)?退(?:了|掉)?)(?:吧)?[\s，,]*"
    r"(?P<kept_zh2>[\u4e00-\u9fff]{2,10}?)(?:我|就|先)*(?:不退|留着|保留|不要退|不用退)(?:了|吧)?"
    r"[\s。!！]*$"
    # "退100200 除了空气炸锅", "100200都退 除了保温杯以外": the order's refund, one thing out
    r"|(?:退(?:订单)?\s*#?\d{6}|#?\d{6}\s*(?:全|都)?退(?:了|掉)?)(?:吧)?[\s，,]*除了?"
    r"(?P<out_zh4>[\u4e00-\u9fff]{2,10}?)(?:以外|之外|外)?(?:都退|都要退|不退)?[\s。!！]*$"
    # "refund 100200 but keep the thermos", "refund order 100200, I'll keep the thermos"
    r"|\brefund\s+(?:(?:my|the)\s+)?(?:order\s+)?#?\d{6}\b[\s,]*(?:but\s+|and\s+)?"
    r"(?:i'?ll\s+|i\s+will\s+|i'?m\s+|i\s+)?(?:keep|keeping)\s+(?P<kept_en3>(?:the|my)\s[^.,;!?]{2,60})"
    # "keep the air fryer, refund the rest", "I kept the air fryer. refund everything else"
    r"|\b(?:keep|keeping|kept|hold on to|holding on to)\s+(?P<kept_en>[^.,;!?]{2,60}?)"
    r"(?:\s*[.,;!]\s*|\s+)(?:(?:and|but|so|please|just|then|you can|can you)\s+)*"
    r"(?:refund|return)\s+(?:me\s+)?(?:for\s+)?(?:the rest|everything else|all the others"
    r"|the others|the remaining (?:items|stuff|things))\b"
    # "refund the rest, I'm keeping the air fryer"
    r"|\b(?:refund|return)\s+(?:me\s+)?(?:for\s+)?(?:the rest|everything else|all the others"
    r"|the others|the remaining (?:items|stuff|things))\b[^.;!?]{0,20}?[,.;]?\s*"
    r"(?:(?:but|and|as|since|because)\s+)?(?:i'?m\s+|i\s+will\s+|i'?ll\s+|i\s+)?"
    r"(?:keep|keeping|kept)\s+(?P<kept_en2>[^.,;!?]{2,60})",
    re.IGNORECASE,
)
"""Words asking for all of an order but the things named in the group ``out`` (``out_id``,
``out_zh``, ``out_zh2``, ``kept_zh``, ``kept_en``, ``kept_en2``)."""

_GROUPS = (
    "out",
    "out_id",
    "out_zh",
    "out_zh2",
    "out_zh3",
    "out_zh4",
    "kept_zh",
    "kept_zh2",
    "kept_en",
    "kept_en2",
    "kept_en3",
)
# "I'll keep everything except the thermos", "everything on 100200 is fine except the thermos":
# the thing excepted is the one refunded, never the others
_KEPT_ALL_BUT = re.compile(
    r"\b(?:keep|keeping|kept|fine|ok|okay|good|works?|working)\b", re.IGNORECASE
)
_MOST_WORDS = 6
_SAYS_MORE = re.compile(
    r"\b(?:is|are|was|were|still|does|doesn'?t|did|didn'?t|works?|worked|broke|broken|has|have"
    r"|had|if|when|because|since)\b",
    re.IGNORECASE,
)


_CORRECTED = re.compile(
    r"不是|只退|我是说|\b(?:actually|wait|no|only|just|instead|i mean|i meant|sorry)\b"
    # "…; and the plates, keep those too": more left out, said apart
    r"|\b(?:keep|keeping)\b[^.;!?]{0,20}\b(?:too|as well|also)\b|也(?:留着|不退|保留)",
    re.IGNORECASE,
)
_FILLER_WORDS = frozenset(
    {"the", "my", "a", "an", "that", "this", "one", "from", "in", "on", "of", "order", "please"}
)
_WORD = re.compile(r"[a-z0-9]+")


def _only_its_name(out: str, item: Mapping[str, Any]) -> bool:
    """Whether the words left out are nothing but the item's own name (English words of it,
    or a Chinese part of its Chinese name)."""
    said = out.strip().lower()
    han = "".join(c for c in said if "\u3400" <= c <= "\u9fff")
    if han:
        name_zh = str(item.get("name_zh") or "")
        return han in name_zh and not _WORD.findall(said.replace("5l", ""))
    name = set(_WORD.findall(str(item.get("name") or "").lower()))
    words = [w for w in _WORD.findall(said) if w not in _FILLER_WORDS and len(w) != 6]
    return bool(words) and all(w in name for w in words)


def items_but(
    order: Mapping[str, Any], words: str, named_items: Any
) -> tuple[Mapping[str, Any] | None, bool] | None:
    """None when ``words`` do not ask for everything but something; else the other items of
    ``order`` as one item costing what they cost together (None when that is not exact: asked)
    and True (items are singled out: never the whole order).

    ``named_items(order, words)`` lists the order's items the words name (the shop's reading
    of item names, aliases and Chinese names)."""
    found = ALL_BUT.search(words)
    if found is None:
        return None
    said = words[: found.end()]
    kept_groups = ("kept_zh", "kept_zh2", "kept_en", "kept_en2", "kept_en3")
    if not any(found.group(g) for g in kept_groups) and (
        _KEPT_ALL_BUT.search(said[max(0, found.start() - 30) : found.start()])
        or _KEPT_ALL_BUT.search(found.group(0))
    ):
        # "I'll keep everything except the thermos": the thermos is what is meant (asked when
        # it is not one item of the order by its own name)
        out = next((found.group(g) for g in _GROUPS if found.group(g)), "")
        meant = named_items(order, out)
        exact = len(meant) == 1 and _only_its_name(out, meant[0]) and not _CORRECTED.search(words)
        return (meant[0] if exact else None), True
    out = next((found.group(g) for g in _GROUPS if found.group(g)), "")
    if len(out.split()) > _MOST_WORDS or _SAYS_MORE.search(out):
        return None, True  # "everything but the air fryer still doesn't work": asked
    items = [i for i in order.get("items") or () if isinstance(i, Mapping)]
    left_out = named_items(order, out)
    if _CORRECTED.search(words) or len(left_out) != 1 or not _only_its_name(out, left_out[0]):
        # "but the air purifier" (another product sharing "air"), "but the thermos lid", "but
        # the air fryer and the plates", "不是除了…，是只退…": never worked out — asked
        return None, True
    refunded = float(order.get("refundable_amount") or 0) < float(order.get("total") or 0)
    if (
        not left_out
        or len(left_out) >= len(items)
        or refunded
        or any(int(i.get("quantity") or 1) != 1 for i in items)
    ):
        return None, True
    rest = [i for i in items if not any(i is o for o in left_out)]
    total = sum(Decimal(str(i.get("unit_price") or 0)) for i in rest)
    en = [str(i.get("name") or "") for i in rest]
    zh = [str(i.get("name_zh") or i.get("name") or "") for i in rest]
    item = {
        "name": en[0] if len(en) == 1 else ", ".join(en[:-1]) + " and " + en[-1],
        "name_zh": zh[0] if len(zh) == 1 else "、".join(zh[:-1]) + "和" + zh[-1],
        "unit_price": float(total),
        "quantity": 1,
    }
    return item, True
