"""Things of an order listed one after another in a refund ("refund the thermos and the
plates", "保温杯和餐具都退了"): what they cost together is the amount meant, each named by exactly
one item of the order (:func:`helpdesk.tools.refund_shares.item_meant` asks here)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

__all__ = ["either_item", "items_listed"]

NamedItems = Callable[[Mapping[str, Any], str], list[Mapping[str, Any]]]
"""The items of an order some words name (most strongly named first)."""

# "refund the thermos and the plates", "保温杯和餐具都退了": things of the order listed one after
# another right where the refund is asked — what they cost together is what is meant
_LISTED_EN = re.compile(
    r"\b(?:refund|return|send back|money back for|pay (?:me )?back for)\s+(?:me\s+)?"
    # ("refund 600 for the air fryer and thermos": the amount said first)
    r"(?:(?:¥|\$)?\d+(?:\.\d+)?\s*(?:yuan|rmb|kuai|bucks)?\s+(?=for\b))?(?:for\s+)?"
    r"(?:both\s+)?(?P<list>(?:the|my)\s+[a-z0-9 -]+?"
    # ("the air fryer and thermos": each after the first with or without its article)
    r"(?:\s*(?:,|\band\b|&|\bplus\b|\bas well as\b)\s*(?:also\s+)?(?:(?:the|my)\s+)?"
    r"[a-z0-9 -]+?)+)"
    r"(?=\s*(?:$|[.,;!?]|\bbut\b|\bfrom\b|\bin\b|\bon\b|\bof\b|\bplease\b|\bpls\b"
    r"|\bkeep\b|\btoo\b|\bboth\b))",
    re.IGNORECASE,
)
_LISTED_ZH = re.compile(
    r"(?P<list>(?:(?![别不没])[\u4e00-\u9fff]){2,10}"
    r"(?:(?:和|跟|还有|以及|加上|、)(?:(?![别不没])[\u4e00-\u9fff]){2,10})+?)"
    r"(?:的钱|这两样|这两个|两样|两个)?(?:都|一起)?(?:退了|退掉|退给我|退)"
)
# "退100200的保温杯和餐具": the refund said first, the things listed after it, nothing else
_LISTED_ZH_VERB_FIRST = re.compile(
    r"(?:^|[\s，,。])(?:帮我|给我|麻烦)?(?:退|退掉|退款)(?:订单)?\s*(?:#?\d{6}\s*的?)?"
    r"(?P<list>(?:(?![别不没])[\u4e00-\u9fff]){2,10}"
    r"(?:(?:和|跟|还有|以及|加上|、)(?:(?![别不没])[\u4e00-\u9fff]){2,10})+?)"
    r"(?:的钱)?(?:吧|了)?[\s。！!~～]*$"
)
_LIST_JOINS = re.compile(
    r"\s*(?:,|\band\b|&|\bplus\b|\bas well as\b)\s*(?:also\s+)?|和|跟|还有|以及|、"
)
# a list that is no plain sum: some left out, a part of one, a share of them
_NOT_A_SUM = re.compile(
    r"\bbut not\b|\bexcept\b|\bwithout\b|\bminus\b|\bexcluding\b|\bone of\b|\ba single\b"
    r"|\beach\b|\bhalf\b|\bsome of\b|\bmaybe\b|\bor\b|\bwhichever\b|\blater\b|\bnot now\b"
    r"|\btomorrow\b|\bdon'?t\b|\bdo not\b|\bnever\b|\bno need\b|\?"
    # a correction, a condition, someone else's word, a part of a thing
    r"|\bwait\b|\bactually\b|\bforget\b|\bsorry\b|\bmean\b|\bonly\b|\bjust\b"
    r"|\bunless\b|\bif\b|\bin case\b|\bshould\b|\bsays?\b|\bsaid\b|\bnah\b|\bno\b"
    # "the air fryer and not the thermos", "… and skip the thermos", "… and the thermos is fine"
    r"|\bnot\b|\bskip\b|\b(?:is|are|was) (?:fine|ok|okay|good|alright)\b"
    r"|\b(?:lid|cap|strap|part|parts|piece|pieces|handle|cover)\b|哦不|不对|只|除非|如果|要是|的话"
    r"|说|盖|里的|零件|配件|除了|其中|一半|一部分|不退|不用退|不要退|别|不要|不用|还是|或者|以后|明天"
    r"|再说|先不|[吗么？]",
    re.IGNORECASE,
)


def items_listed(
    order: Mapping[str, Any], words: str, named_items: NamedItems, kept: re.Pattern[str]
) -> Mapping[str, Any] | None:
    """The things a refund lists one after another, as one item costing what they cost together
    (each named by exactly one item of the order, each bought once); None when the words list
    no such things, leave some out or ask for a part of one."""
    if _NOT_A_SUM.search(words):
        return None
    found = (
        _LISTED_EN.search(words) or _LISTED_ZH.search(words) or _LISTED_ZH_VERB_FIRST.search(words)
    )
    if found is None:
        return None
    picked: list[Mapping[str, Any]] = []
    for part in _LIST_JOINS.split(found.group("list")):
        if not part.strip():
            continue
        named = named_items(order, part)
        if len(named) != 1 or any(named[0] is p for p in picked):
            return None
        picked.append(named[0])
    if len(picked) < 2 or any(int(i.get("quantity") or 1) != 1 for i in picked):
        return None
    for held in kept.finditer(words):
        # "…, keep the air fryer" keeps a third thing; "…, actually keep the dinnerware" one
        # of those listed: no sum
        if any(any(k is p for p in picked) for k in named_items(order, held.group(0))):
            return None
    total = sum(Decimal(str(i.get("unit_price") or 0)) for i in picked)
    en = [str(i.get("name") or "") for i in picked]
    zh = [str(i.get("name_zh") or i.get("name") or "") for i in picked]
    return {
        "name": ", ".join(en[:-1]) + " and " + en[-1],
        "name_zh": "、".join(zh[:-1]) + "和" + zh[-1],
        "unit_price": float(total),
        "quantity": 1,
    }


_EITHER = re.compile(r"\s+or\s+|或者|或是", re.IGNORECASE)


def either_item(order: Mapping[str, Any], words: str, named_items: NamedItems) -> bool:
    """Whether ``words`` name one item of the order or another ("the thermos or the dinnerware",
    "保温杯或者餐具"): which one is the customer's to say."""
    sides = [{id(i) for i in named_items(order, side)} for side in _EITHER.split(words)]
    return len(sides) > 1 and sum(1 for s in sides if s) >= 2 and len(set().union(*sides)) >= 2
