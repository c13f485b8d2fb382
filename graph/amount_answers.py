"""A no that names an amount, said to the question of an action that takes one.

"no, just 200", "算了，退200就行" change the waiting refund's amount: it is asked again at 200,
never run. Only when the amount is all the answer says (a reason may follow: "算了，退200就行，
餐具我还能凑合用"); "no, make it 100 more", "不，少退200", "no just 200 is too little" say an amount
relative to another, and are a no: nothing runs and nothing stays waiting, since a "yes" to the
question asked again would pay what was refused.
"""

from __future__ import annotations

from collections.abc import Callable

from helpdesk.graph.asking import ASKS
from helpdesk.graph.conversation import NO_ANY, STRIP, YES_START, rx
from helpdesk.graph.money import AmountReading, read_amount
from helpdesk.tools.packs import PackSet

__all__ = [
    "amount_for_another_action",
    "amount_instead",
    "corrected_amount",
    "limited_yes",
    "relative_amount_refused",
    "takes_amount",
]

_NO_LEAD = rx(
    r"^(?:no|nah|nope|not that much|算了|不|不用|不要|不了|不行)(?:吧|啦|了)?[\s,，.。!！、]+"
)
# "no, just 200", "算了，退200就行": a no to the amount asked, then the one wanted
_NO_BUT_AMOUNT = rx(
    _NO_LEAD.pattern + r"(?:(?:just|only|make it|refund(?: me)?)\b|就|只退|就退|退|只要|给我退)"
)
# "少退点 100就行", "less, 100 is enough": less asked, then the amount wanted
_LESS_LEAD = rx(
    r"^(?:少退(?:一)?(?:点|些)|少(?:一)?点|(?:a bit |a little )?less)(?:吧|啦)?[\s,，.。!！、]+"
    r"(?=(?:just|only|make it|就|只退|就退|退|只要|给我退)?\s*[¥￥]?\d)"
)
_RELATIVE_AMOUNT = rx(
    r"\b(?:less|more|than|extra|enough|too (?:much|little|low|high)|off|minus|plus)\b"
    r"|少|多|以外|除了|不够|太少|太多|再加|减"
)
# "…, I was joking", "…, my wife will decide", "…，下周吧": the amount is not settled
_NOT_DECIDED = rx(
    r"\b(?:jok\w*|kidding|decide\w*|wife|husband|friend|mum|mom|dad|boss|said|says|later|next"
    r"|tomorrow|week|month|maybe|perhaps|think|not sure|if|unless|when|after)\b"
    r"|开玩笑|说|老婆|老公|朋友|下周|明天|以后|再说|改天|可能|也许|如果|要是|的话"
)
_DIGITS = rx(r"\d|[一二两三四五六七八九十百千]")
# "just 200", "退200就行", "refund me 200 please": the amount alone, in a few words
_ONLY_AN_AMOUNT = rx(
    r"(?:(?:just|only|make it|refund(?: me)?|就|只|退|只退|就退|给我退|给我)\s*)*"
    r"[¥￥]?\d{1,6}(?:\.\d{1,2})?\s*(?:块钱|块|元|yuan|rmb|kuai|bucks)?"
    r"\s*(?:就行了?|就好|就可以了?|就够了?|吧|please|pls|instead|then|thanks|only"
    r"|is (?:enough|fine|ok|okay))?[\s.,!~，。！～]*"
)


def relative_amount_refused(plain: str, *, negative: bool) -> bool:
    """Whether a no says an amount relative to another ("no, make it 100 more", "不，少退200")."""
    return bool(
        (negative or _NO_LEAD.match(plain))
        and _RELATIVE_AMOUNT.search(plain)
        and _DIGITS.search(plain)
    )


def amount_instead(plain: str, *, packs: PackSet) -> AmountReading | None:
    """The amount a no names instead of the one asked ("no, just 200", "少退点 100就行"), when
    the amount is all it says; else None."""
    if _NO_BUT_AMOUNT.match(plain) is not None:
        rest = _NO_LEAD.sub("", plain, count=1).strip(STRIP)
    elif _LESS_LEAD.match(plain) is not None:
        rest = _LESS_LEAD.sub("", plain, count=1).strip(STRIP)
    else:
        return None
    head, _, reason = rest.partition("，" if "，" in rest else ",")
    partial = read_amount(head, money_context=True, packs=packs)
    if (
        partial.kind == "exact"
        and _ONLY_AN_AMOUNT.fullmatch(head.strip(STRIP))
        # "算了，退200就行，餐具我还能凑合用": a reason after it, nothing more asked or refused
        and not (
            NO_ANY.search(reason)
            or _DIGITS.search(reason)
            or ASKS.search(reason)
            or _RELATIVE_AMOUNT.search(reason)
            or _NOT_DECIDED.search(reason)
        )
    ):
        return partial
    return None


def takes_amount(waiting: tuple[str, ...], packs: PackSet) -> bool:
    """Whether an action waiting for the yes (``"tool intent"`` entries) takes an amount (a no
    with a number to a cancel is a no: the cancel is not asked again)."""
    caps = [packs.for_tool(entry.split()[0]) for entry in waiting if entry.strip()]
    return not caps or any(cap is not None and cap.amounts for cap in caps)


# "yes, but keep 100", "yes but less", "yes minus shipping", "好 但少退点", "好 留100",
# "好的但是别退全部": a limit on the amount asked, said beside the yes
_LIMIT = rx(
    r"\b(?:keep(?:ing)?(?: back)?\s+(?:[¥￥]?\d|some\b|part\b|a (?:bit|little|few)\b|half\b)"
    r"|less\b|minus|fewer|smaller|lower|deduct\w*|subtract\w*|take off|knock off"
    r"|not (?:all|the (?:whole|full|entire)|everything)|partial\w*|part of it|some of it"
    r"|except(?: for)?|excluding)"
    r"|少退|退少|少点|少一点|少一些|少些|减|扣|留\s*(?:[¥￥]?\d|[一二两三四五六七八九十百]|一?点|一些|一部分)"
    r"|部分|不全|(?:别|不要|不用|不想)(?:退)?(?:全部|全额|都)"
    # "ok but I'll keep the plates too", "好的吧 但是餐具我留着": a thing kept out of it
    r"|\b(?:keep(?:ing)?|hold(?:ing)? on to)\s+(?:the|my|that|this|those|these|one)\b"
    # ("yes but not 100998": an order named as not meant, no limit on the amount)
    r"|\b(?:but not|apart from|other than)\b(?!\s*(?:order\s*)?#?\s*\d)"
    r"|(?:除了|除开|不包括|不算)(?!\s*(?:订单)?\s*\d)"
    r"|\b(?:not included|excluded|excepted|stays|remains|i(?:'ll| will)? keep)\b"
    # ("行，不退了": a no — only a thing kept beside the yes limits it)
    r"|留着|留下|保留|[\u4e00-\u9fff]{2,8}(?:也)?(?:不退|不要退|不用退|别退)"
)

_ASKED_BACK = rx(r"^(?:是不是|对不对|好不好|可不可以|行不行|可以不)")  # "是不是少退了": a question


def limited_yes(plain: str, waiting: tuple[str, ...], packs: PackSet) -> AmountReading | None:
    """An amount to ask about when a yes to a waiting action that takes one limits it ("yes, but
    keep 100", "好 但少退点"): the amount is asked (an invalid reading: never the whole amount
    asked again as if the limit were not said); None when it is no such yes."""
    yes = YES_START.match(plain)
    if yes is None or _ASKED_BACK.match(plain) or not takes_amount(waiting, packs):
        return None
    rest = plain[yes.end() :]
    if not _LIMIT.search(rest):
        return None
    return AmountReading("invalid", raw=rest.strip(STRIP))


def amount_for_another_action(
    plain: str, named_action: Callable[[str], str], waiting: tuple[str, ...], packs: PackSet
) -> bool:
    """Whether an amount said to the question of actions that take none names another action
    ("just refund 300 instead", "好 退300" to "shall I cancel 100998?"): a request of its own —
    the waiting action is dropped, never asked again as if the amount changed it."""
    if takes_amount(waiting, packs):
        return False
    verb = named_action(plain)
    return bool(verb) and not any(verb in entry for entry in waiting)


# "no wait, 200", "不对，退300", "不不不 200", "100吧，哦不，150", "yes no wait 200": the amount
# said after a correction is the one meant (at the end of the answer, nothing after it)
_CORRECTED_TO = rx(
    r"(?:\bno[\s,.!]*wait|\bwait|\bactually|\bno,? no|\bsorry|\bi mean|\bi meant|\bmake it"
    r"|不对|不是|不不+|哦不|啊不|噢不|等等|等一下|我是说)[\s,，.。!！:：]*"
    r"(?:(?:退款?|refund(?: me)?|just|only|只退|就退|就)\s*)?(?P<amount>[¥￥]?\d{1,5}(?:\.\d{1,2})?"
    r"\s*(?:块钱|块|元|yuan|rmb|kuai)?)\s*(?:吧|就行了?|就好|please|pls|instead|then)?"
    r"[\s,.!，。！~～]*$"
)
# what may come before the correction: a yes or a no, the amount first said ("100吧，哦不，150")
_BEFORE_CORRECTED = rx(
    r"\b(?:yes|yeah|ok|okay|no|nope|refund(?: me)?|just|only)\b|[¥￥]?\d{1,5}(?:\.\d{1,2})?"
    r"|块钱|块|元|\b(?:yuan|rmb|kuai)\b|好的?|是的?|对|不|退款?|吧|[\s,.!，。！、~～]"
)


def corrected_amount(plain: str, waiting: tuple[str, ...], packs: PackSet) -> AmountReading | None:
    """The amount a correction ends the answer with ("no wait, 200", "不对，退300", "100吧，哦不，
    150"), when the waiting action takes one and nothing but a yes, a no or the amount first said
    comes before it: the pending amount changes (asked again, never run); else None."""
    found = _CORRECTED_TO.search(plain)
    if found is None or not takes_amount(waiting, packs):
        return None
    if _BEFORE_CORRECTED.sub("", plain[: found.start()]):
        return None
    reading = read_amount(found.group("amount"), money_context=True, packs=packs)
    return reading if reading.kind == "exact" else None
