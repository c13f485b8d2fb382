"""A refund asked as a share ("refund half", "退三分之一", "30% back on 100200") made exact: of what
was paid for the order, of items of it the customer named ("half of what I paid for the air
fryer", all but some: :mod:`helpdesk.tools.refund_all_but`) or of what is still refundable ("剩下能
退的退一半"), resolved by the refund's precheck; when the words do not say which item, nothing is
guessed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from helpdesk.tools.refund_all_but import items_but
from helpdesk.tools.refund_lists import either_item, items_listed
from helpdesk.tools.refund_per_item import refunded_per_thing
from helpdesk.tools.shop.catalog import PIECE_ALIASES, SEARCH_ALIASES
from helpdesk.tools.shop.product_search import mention_scores, product_text

__all__ = [
    "KEEP_NEGATED",
    "REMAINING",
    "SHARE_OWN",
    "ResolvedShare",
    "item_meant",
    "items_named",
    "names_no_item",
    "own_words_or_all",
    "products_elsewhere",
    "resolve_share",
]

KEEP_NEGATED = re.compile(
    r"\b(?:don'?t|dont|do not|not|won'?t|wont|can'?t|cannot|never|no need to|why would i)\s+"
    r"(?:want to\s+|need to\s+|going to\s+)?(?:keep|keeping|leave|leaving)\b",
    re.IGNORECASE,
)
"""Keeping said not to be wanted ("don't keep the rest"): the rest is meant too."""
REMAINING = "remaining"
"""``share_of``: the share is of what is still refundable."""
SHARE_OWN = "share_own"
"""The words of ``share_of`` without the message's other requests' (the ticket's, say)."""


@dataclass(frozen=True, slots=True)
class ResolvedShare:
    """The exact amount of a share, and what it was a share of."""

    amount: float
    base: float
    item: str | None = None
    """The item's name when the share is of one item of the order."""
    item_zh: str | None = None


def _cents(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _named_items(order: Mapping[str, Any], words: str) -> list[Mapping[str, Any]]:
    """The items of the order ``words`` name (most strongly named first, ties kept): by the
    words of their English names, by a piece of their Chinese name said as a word of its own
    ("只退手机", "保温杯那部分"; never inside another thing's name: "手机膜", "保温杯盖"), or by
    another of their names said whole."""
    items = [i for i in order.get("items") or () if isinstance(i, Mapping)]
    texts = [
        product_text(
            f"item-{n}",
            [str(i.get("name", "")), *_aliases_said(str(i.get("name", "")), words)],
        )
        for n, i in enumerate(items)
    ]
    scores = mention_scores(words, texts)
    thing = _THING_SAID.search(words)
    if thing is not None:
        # "the monitor cable from my 100998 order": the thing is a cable, not the monitor
        # ("the air fryer and thermos in 100200": each thing of the two)
        said = _THINGS_APART.split(thing.group(1) or thing.group(2))
        heads = {part.split()[-1].lower() for part in said if part.split()}
        stems = {s for h in heads for s in (h, h.rstrip("s"), h[:-2] if h.endswith("es") else h)}
        scores = {
            key: score
            for key, score in scores.items()
            if stems & set(re.findall(r"[a-z0-9]+", texts[int(key.split("-")[1])].text))
        }
    for n, item in enumerate(items):
        if _zh_named(str(item.get("name_zh") or ""), words):
            scores[f"item-{n}"] = scores.get(f"item-{n}", 0) + 2
    return [items[int(sku.split("-")[1])] for sku in sorted(scores, key=lambda k: -scores[k])]


_THINGS_APART = re.compile(r"\s+(?:and|&|plus)\s+(?:the\s+|my\s+)?|\s*,\s*")
_NO_THING = (
    r"(?!(?:refund|refunds|money|credit|payment|discount|compensation|partial|full|cancel\w*"
    r"|return|rest|remaining|amount|balance|order|email|message)\b)"
)
_SHORT_THING = rf"{_NO_THING}[a-z]+(?:\s+{_NO_THING}[a-z]+){{0,2}}"
"""One to three words naming a thing (no money or order word): "air purifier", "ceramic mug"."""
_THING_SAID = re.compile(
    r"\b(?:the|my|a|an|this|that)\s+([a-z][a-z -]{1,30}?)\s+(?:from|in|out of)\s+"
    r"(?:my |the |this |that |our )?(?:order\s*)?(?:#|no\.? ?)?(?:\d{6}|order)\b"
    # "the air purifier on 100200": a short thing, no money word ("a refund on 100200")
    r"|\b(?:the|my|this|that)\s+(" + _SHORT_THING + r")\s+on\s+(?:order\s*)?#?\s*\d{6}\b",
    re.IGNORECASE,
)
_HAN_RUN = re.compile(r"[\u3400-\u9fff]{2,}")
_HAN_CHAR = re.compile(r"[\u3400-\u9fff]")
# what makes a thing's name part of another thing's ("手机膜", "手机壳", "显示器支架", "保温杯盖",
# "净化器滤芯", "炸锅篮", "保温杯的盖子"): a part or an accessory of it
_PART_OF_IT = re.compile(
    r"(?:的)?(?:[膜壳套架盖篮胆网芯线头座罩带绳屏袋贴垫锅刷片圈扣钮键滤]"
    r"|支架|配件|零件|充电器|耳机|电池|盖子|手柄|遥控|说明书|包装)"
)


def _zh_named(name_zh: str, words: str) -> bool:
    """Whether ``words`` say a piece (two characters or more) of the Chinese name as a thing
    of its own: "只退手机" names X12 智能手机; "退手机膜", "手机支架", "保温杯的盖子" do not."""
    runs = _HAN_RUN.findall(name_zh)
    if not runs:
        return False
    main = max(runs, key=len)
    for i in range(len(main)):
        for j in range(i + 2, len(main) + 1):
            for found in re.finditer(re.escape(main[i:j]), words):
                if j < len(main) and words[found.end() : found.end() + 1] == main[j]:
                    continue  # not all the name said here ("显示" of "显示器支架")
                if not _PART_OF_IT.match(words, found.end()) or _FAULT_OF_A_PART.match(
                    words, found.end()
                ):
                    return True
    return False


# "保温杯盖子拧不紧", "净化器滤网坏了": a part of the thing (never sold on its own) that is faulty
# names the thing; "退保温杯盖", "手机膜坏了" (an accessory, a product of its own) do not
_FAULT_OF_A_PART = re.compile(
    r"(?:的)?(?:盖子|盖|内胆|胆|滤网|滤芯|涂层|外壳|按键|屏幕|电池|手柄|把手|底座|提手|开关)"
    r"(?:有点|有些|又|总是|老是|一直|都|也|就)?"
    r"(?:拧不紧|盖不紧|关不紧|坏|漏|松|掉|裂|碎|断|卡|脱落|变形|生锈|失灵|不(?:亮|转|动|响|好|紧|灵|保温|加热|工作)"
    r"|有(?:问题|裂|缝|划痕|异响|凹))"
)


def _zh_alias_said(alias: str, words: str) -> bool:
    """Whether a Chinese other name is said whole as a thing of its own: never a piece of it
    ("衣服" is no "熨衣服" steamer, "手机" no "手机膜" protector), never inside another thing
    ("汤锅" holds no "汤" thermos), never followed by a part of it ("手机壳")."""
    for found in re.finditer(re.escape(alias), words):
        after = words[found.end() : found.end() + 1]
        if _PART_OF_IT.match(words, found.end()):
            continue
        if len(alias) == 1 and _HAN_CHAR.match(after) and after not in _PARTICLES:
            continue  # one character: only said on its own ("退膜", never "汤锅")
        return True
    return False


_PARTICLES = frozenset("了吧的呢吗啊呀嘛和跟也都还就我给退")


def _aliases_said(name: str, words: str) -> list[str]:
    """The item's other names said whole ("the phone" for the Smartphone X12; never a word of
    one: "keep it" is no "keep hot" thermos)."""
    said = words.lower()
    pieces = set(PIECE_ALIASES.get(name, ()))
    return [
        alias
        for alias in SEARCH_ALIASES.get(name, ())
        if alias not in pieces
        and (
            _zh_alias_said(alias, said)
            if _HAN_CHAR.fullmatch(alias[0])
            else re.search(rf"(?<![a-z]){re.escape(alias.lower())}(?![a-z])", said)
        )
    ]


# "the air fryer order", "空气炸锅那单": the order its item describes, not the item — unless
# "just"/"only" picks the item out of it ("refund just the thermos from 100200")
_ORDER_MEANT = re.compile(r"\b(?:order|purchase)\b|那单|这单|订单|一单|那笔|整单", re.IGNORECASE)
_ITEM_MEANT = re.compile(
    r"\b(?:just|only)\b|只退|只要|就退|单独|仅"
    # "the thermos from my 100200 order", "100200里的保温杯": a thing taken out of the order
    r"|\b(?:from|in|out of) (?:my |the |this |that |our )?(?:(?:order|purchase) ?)?"
    r"(?:#|no\.? ?)?\d{6}\b"
    r"|\b(?:from|in|out of) (?:my |the |this |that |our )?(?:\d{6} |last |latest |recent )?"
    r"(?:order|purchase)\b"
    r"|(?:\d{6}|订单|那单|这单)\s*(?:里|里面|中|当中)"
    # "那单保温杯退了吧": a thing of that order said right after it (not "那单退了", "那单全退")
    r"|(?:那单|这单|那个订单)\s*的?\s*"
    r"(?!退|取消|全|都|整|东西|商品|也|还|就|帮|给|我|你|先|再|直接|麻烦|请|要|能|可以|不|别|没|一起)"
    r"[\u4e00-\u9fff]{2}",
    re.IGNORECASE,
)
_ORDER_DESCRIBED = re.compile(
    r"[^\s，,。.!?！？的]{1,12}?(?:那单|这单|那个订单|订单|单子)"
    r"(?=\s*(?:(?:里|里面|中|当中)的?|的)\s*[\u4e00-\u9fff]{2})"
    r"|\b(?:from|in|of|on|out of) (?:my |the |this |that |our )?(?:[a-z-]+ ){1,3}"
    r"(?:order|purchase)\b",
    re.IGNORECASE,
)
"""An order described by a thing of it ("空气炸锅那单", "from the air fryer order")."""
# words that make "which item, how much" anything but one whole item: some items excluded or
# kept ("but not the air fryer", "keep the monitor", "the thermos is fine"), the whole order
# ("all of 100200, even the thermos"), or part of a line ("one of the purifiers")
_NOT_ONE_ITEM = re.compile(
    r"\bbut not\b|\bexcept\b|\bwithout\b|\bminus\b|\bexcluding\b|\bapart from\b|\bother than\b"
    r"|\b(?:all|everything|anything) but\b|\bsave (?:the|my)\b|\bbesides\b"
    r"|\bnot the\b|\bkeep(?:ing)? (?:the|my|that)\b|\b(?:is|are|was|were|'s) (?:fine|ok|okay|good"
    r"|working|perfect)\b|\bincluding\b|\beven\b|\ball of\b|\bwhole\b|\bentire\b|\beverything\b"
    r"|\bone of\b|\ba single\b|\bboth\b|\beach\b|\band (?:the|my)\b|\bas well as\b"
    r"|除了|不要|不退|不用退|留着|保留|没问题|挺好|都|全部|整单|一台|一件|一个|一条|一双|一张|一套|其中"
    r"|还有|和|跟|以及",
    re.IGNORECASE,
)


_THING_OF_ORDER = re.compile(
    r"\b(?:the|my|a|an|this|that)\s+[a-z][a-z -]{1,30}?\s+(?:from|in|out of)\s+"
    r"(?:my |the |this |that |our )?(?:order\s*)?(?:#|no\.? ?)?(?:\d{6}|order)\b"
    r"|\b(?:the|my|this|that)\s+" + _SHORT_THING + r"\s+on\s+(?:order\s*)?#?\s*\d{6}\b"
    r"|\d{6}\s*(?:的|里的|里面的)?\s*退\s*(?![货换了吗的回运费款钱我给一二两三四五六七八九十百千半全都部剩])[\u4e00-\u9fff]{2}"
    r"|退\s*\d{6}\s*(?:的|里的|里面的)\s*(?![货换了吗的回运费款钱我给一二两三四五六七八九十百千半全都部剩])"
    r"[\u4e00-\u9fff]{2}"
    r"|只退(?![货换了吗的回运费款钱我给一二两三四五六七八九十百千半全都部剩])[\u4e00-\u9fff]{2}|[\u4e00-\u9fff]{2}退掉"
    # "100200里的保温杯盖子…": a thing taken out of the order, whatever it is called
    r"|\d{6}\s*(?:里|里面|中|当中)的?(?!东西|商品|货|钱|款)[\u4e00-\u9fff]{2}"
    r"|把[^，。,.!?！？]{1,16}退(?:了|掉)"
    # "just refund the bottle": a thing picked out, whatever it is called
    r"|\b(?:only|just) (?:refund |return |send back )?(?:the|my) (?!(?:order|orders|money|amount"
    r"|rest|whole|full|total|refund|item|items|product|thing|things|stuff|purchase|lot|one"
    r"|difference|shipping|balance|remaining)\b)[a-z]{3,}\b(?! (?:order|purchase)\b)",
    re.IGNORECASE,
)
# "显示器留着", "keep the monitor", "显示器不退": one item kept beside the one refunded
_KEPT = re.compile(
    r"[\u4e00-\u9fff]{2,8}(?:我)?(?:留着|保留|不退|我要|不用退)"
    r"|\bkeep(?:ing)? (?:the |my )?[a-z0-9 -]{2,30}?(?=$|[.,;!?]| and\b| but\b)"
    # "I still want the monitor though", "let the monitor ship as normal"
    r"|\bstill want (?:the |my )?[a-z0-9 -]{2,30}?(?=$|[.,;!?]| and\b| but\b| though\b)"
    r"|\blet (?:the |my )?[a-z0-9 -]{2,30}? (?:ship|go out|be (?:sent|shipped|delivered))\b",
    re.IGNORECASE,
)


# "refund the thermos, keep the rest", "保温杯退了 剩下的留着": only the item named is meant
_REST_KEPT = re.compile(
    r"\b(?:keep|keeping|leave|hold on to) (?:the |all the )?"
    r"(?:rest|others|other (?:items?|stuff|things))\b(?: of (?:it|them|the order))?"
    r"|(?:剩下的?|剩余的?|其他的?|其它的?|其余的?|别的)(?:东西|商品)?(?:我|就|都|先)*"
    r"(?:留着|保留|不退|不用退|不要退)",
    re.IGNORECASE,
)
# "手机我不要了": the thing not wanted any more — why it is refunded, not one left out
_NOT_WANTED = re.compile(r"不想要了|不要了|不需要了|用不上了")


# "refund the shipping", "退100683的邮费": a fee, which is none of the order's items and no share
# of them — how much is asked, never the whole order
_FEE_SAID = re.compile(
    r"\b(?:the |my )?(?:shipping|postage|delivery)(?: fee| fees| cost| costs| charge)?\b"
    r"(?!\s+(?:address|time|date|status|info))"
    r"|运费|邮费|快递费|配送费",
    re.IGNORECASE,
)
_FEE_REFUNDED = re.compile(
    r"\brefund(?:ed)?\s+(?:me\s+)?(?:(?:order\s*)?#?\d{6}(?:'s)?\s+)?(?:for\s+)?(?:the |my )?"
    r"(?:shipping|postage|delivery)\b"
    r"|\b(?:shipping|postage|delivery)(?: fee| fees| cost| costs| charge)?\s+(?:back|refunded)\b"
    r"|退(?:还)?(?:我)?(?:\s*#?\d{6}\s*的?)?(?:运费|邮费|快递费|配送费)",
    re.IGNORECASE,
)


def item_meant(order: Mapping[str, Any], words: str) -> tuple[Mapping[str, Any] | None, bool]:
    """The one item of a several-item order ``words`` single out for a refund, and whether
    they name items at all (not one whole item, one bought twice, one describing the order,
    an order partly refunded other than per thing: asked)."""
    if (all_but := items_but(order, words, _named_items)) is not None:
        return all_but  # "everything but the air fryer": what the other items cost, or asked
    if _FEE_REFUNDED.search(words) and _FEE_SAID.search(words):
        return None, True  # "refund the shipping": a fee, asked how much
    if either_item(order, words, _named_items):
        # "refund the thermos or the dinnerware": which one is the customer's to say
        return None, True
    if _pieces_said(order, words):
        # "refund the plates", "盘子的钱退我": some of the set, never the whole item (or order)
        return None, True
    if len(order.get("items") or ()) < 2:
        # "100609 退滤网": a thing asked for that is not the order's one item — asked
        return None, bool(_THING_OF_ORDER.search(words) and not _named_items(order, words))
    described = _ORDER_DESCRIBED.sub(" ", words)
    if (
        described != words
        # ("the monitor cable from my 100998 order": the thing said is a cable — kept whole)
        and _THING_SAID.search(words) is None
        and _named_items(order, _REST_KEPT.sub(" ", described))
    ):
        # "空气炸锅那单的保温杯退了", "the thermos from the air fryer order": the thing taken out
        # of the order its words describe (the air fryer names the order, not an item)
        words = described
    rest_kept = _REST_KEPT.search(words) is not None and not KEEP_NEGATED.search(words)
    words = _REST_KEPT.sub(" ", words)
    named = _named_items(order, words)
    if not named:
        # "100200 退盘子", "refund the cup from 100200": a thing of the order asked for that is
        # none of its items by name — asked which part, never the whole order
        return None, bool(_THING_OF_ORDER.search(words))
    if _ORDER_MEANT.search(words) and not (rest_kept or _ITEM_MEANT.search(words)):
        return None, False
    kept = _KEPT.search(words)
    if kept is not None:
        # "只退手机 显示器留着", "just the phone, keep the monitor", "把空气炸锅退了
        # 餐具和保温杯留着": the items kept are not the one
        rest = words[: kept.start()] + " " * (kept.end() - kept.start()) + words[kept.end() :]
        held = {id(i) for i in _named_items(order, kept.group(0))}
        left = [i for i in _named_items(order, rest) if id(i) not in held]
        if held and len(left) == 1 and not _NOT_ONE_ITEM.search(_NOT_WANTED.sub(" ", rest)):
            named, words = left, _KEPT.sub(" ", words)
    one = named[0]
    # (refunds made per thing say what they were for: what is left of each item is known)
    unsaid = float(order.get("refundable_amount") or 0) + float(refunded_per_thing(order))
    refunded = unsaid < float(order.get("total") or 0) - 0.005
    if (
        len(named) != 1
        or _NOT_ONE_ITEM.search(_NOT_WANTED.sub(" ", words))
        or int(one.get("quantity") or 1) != 1
        or refunded
    ):
        return (None if refunded else items_listed(order, words, _named_items, _KEPT)), True
    return one, True


def _pieces_said(order: Mapping[str, Any], words: str) -> bool:
    """Whether ``words`` name a piece of one of the order's items ("the plates" of the set)."""
    said = words.lower()
    named = {id(i) for i in _named_items(order, words)}
    for item in order.get("items") or ():
        if not isinstance(item, Mapping) or id(item) in named:
            continue  # ("plates broken, refund the dinnerware set": the set itself is named)
        for piece in PIECE_ALIASES.get(str(item.get("name") or ""), ()):
            if re.search(rf"(?<![a-z]){re.escape(piece)}(?![a-z])", said):
                return True  # (a Chinese name anywhere, an English one as a word)
    return False


def own_words_or_all(order: Mapping[str, Any], own: str, every: str) -> str:
    """The words that say which items a refund is of: the refund's own (the message without
    its other requests) when they name items of the order, else the whole message's ("the
    thermos leaks, open a ticket and refund it": the thing is named in the ticket's words)."""
    return own if _named_items(order, _REST_KEPT.sub(" ", own)) else every


def items_named(order: Mapping[str, Any], words: str) -> list[Mapping[str, Any]]:
    """The items of the order ``words`` name by their names (most strongly named first)."""
    return _named_items(order, words)


def names_no_item(order: Mapping[str, Any], words: str) -> bool:
    """Whether ``words`` name none of the order's items by their names (whether they name some
    other product is the shop's to say: :func:`products_elsewhere`)."""
    return bool(words.strip()) and not _named_items(order, words)


def products_elsewhere(order: Mapping[str, Any], listing: Any) -> list[dict[str, str]] | None:
    """What the words name that is not in the order, from the shop's reading of them (the
    ``list_orders(product=words)`` answer): the products of the customer's other orders they
    name (``[]`` when they name a product of the catalogue the customer never ordered), or None
    when they name no product, or one of this order's items (by an alias, say)."""
    if not isinstance(listing, Mapping) or not listing.get("names_a_product"):
        return None
    held = {str(i.get("sku")) for i in order.get("items") or () if isinstance(i, Mapping)}
    named = [p for p in listing.get("matched_products") or () if isinstance(p, Mapping)]
    if any(str(p.get("sku")) in held for p in named):
        return None
    return [{"en": str(p.get("en") or ""), "zh": str(p.get("zh") or "")} for p in named]


def resolve_share(
    order: Mapping[str, Any], share: float, share_of: str | None
) -> ResolvedShare | None:
    """The exact amount of ``share`` (0 < share <= 1) of the order; None when the words name
    items of the order without saying which one (asked, never guessed)."""
    fraction = Decimal(str(share))
    if share_of == REMAINING:
        base = Decimal(str(order.get("refundable_amount") or 0))
        return ResolvedShare(float(_cents(base * fraction)), float(base))
    item, named = item_meant(order, share_of or "")
    if item is None and named:
        return None
    if item is not None:
        base = Decimal(str(item.get("unit_price") or 0)) * int(item.get("quantity") or 1)
        name, name_zh = str(item.get("name") or ""), str(item.get("name_zh") or "")
        return ResolvedShare(
            float(_cents(base * fraction)), float(_cents(base)), name, name_zh or name
        )
    base = Decimal(str(order.get("total") or 0))
    return ResolvedShare(float(_cents(base * fraction)), float(base))
