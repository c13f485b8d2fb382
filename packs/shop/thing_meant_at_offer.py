"""A thing of the order picked out in answer to a refund offer: "yes, only the thermos".

"refund 100200" → "Shall I request a refund of ¥797.00…?" → "yes, only the thermos", "ok, the
thermos only", "yeah just the plates": the customer narrows the refund to a thing of the order.
That is no yes to the whole amount and no unclear answer to ask again unchanged (a hurried second
"yes" paid the whole ¥797): it is the refund of that thing, worked out by the refund's precheck
(its price, or asked how much when the thing is a part), and asked before anything is paid. The
Chinese answers say the verb ("好，只退餐具") and are read as such requests already.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from helpdesk.graph.conversation import rx
from helpdesk.graph.request import Intent, MatchedIntent
from helpdesk.packs.shop.identifiers import ORDER_MENTION
from helpdesk.packs.shop.refund_share import SHARE_OF
from helpdesk.packs.shop.words import waiting_tools

__all__ = ["thing_added_at_offer", "thing_meant_at_offer"]

_YES_THEN_THING = rx(
    r"^\W*(?:(?:yes|yeah|yep|yup|ok|okay|sure|fine|alright|right|no|nope|actually|wait|sorry|oh)"
    r"\b[\s,.!-]*)*(?:but\s+|for\s+)?"
    r"(?:(?:(?:only|just)\s+(?:for\s+)?)?(?P<thing>(?:the|my)(?:\s+[a-z][a-z0-9-]*){1,3}?)"
    r"|(?P<thing2>(?:the|my)(?:\s+[a-z][a-z0-9-]*){1,3}?)\s+(?:only|alone)\b)"
    r"[\s.!]*(?:please|pls|thanks|thx|instead)?[\s.!]*$"
)
"""An answer (a yes, a no, a correction, or nothing) picking out one thing, nothing else said."""
_CORRECTED_TO_THING_ZH = rx(
    r"^[\s，,。.!！]*(?:不是这个|不是这件|不对|不是|错了)[\s，,。]*(?:是|要退的是|退的是)?"
    r"(?P<thing>[\u4e00-\u9fff]{2,8}?)(?:的钱)?(?:吧|啊|呀)?[\s，,。.!！~～]*$"
)
"""A Chinese correction naming the thing meant ("不是这个，是保温杯")."""
_THING_ENOUGH_ZH = rx(
    r"^[\s，,。.!！]*(?:那|那就|就|只要|只退|退)?(?P<thing>[\u4e00-\u9fff]{2,8}?)(?:的钱)?"
    r"(?:就行了?|就好了?|就可以了?|就够了|吧)[\s，,。.!！~～]*$"
    r"|^[\s，,。.!！]*(?:那就|就)(?P<thing2>[\u4e00-\u9fff]{2,8}?)(?:的钱)?(?:吧)?[\s，,。.!！~～]*$"
)
"""A Chinese answer saying one thing is enough ("保温杯就行", "就保温杯吧", "那就保温杯")."""
_NOT_A_THING = rx(
    r"\b(?:amount|money|refund|rest|order|whole|full|half|part|same|one|it|is|are|was|were|broke"
    r"|broken|works?|doesn|don|isn|has|have|had|arrived|came|still|other|others|first|second"
    r"|last|both|stays?|remains?|kept|keep|i|not|included|excluded|excepted|except|fine|ok|okay"
    r"|good|too|also|well|instead|either|neither|nor|back|out)\b"
)
"""Words that say something of the thing ("the thermos stays", "the thermos too") or are no
thing at all ("the first", "the order"): no thing picked out for a refund."""
_NOT_A_THING_ZH = rx(
    r"订单|这单|那单|全部|一半|剩下|其他|别的|都|退|钱|款|取消|确认|谢谢|算了|不用|要|留|好|是|没|坏|不|也"
    r"|还|可以|行|全|这|那|算|样"
)

ReadFn = Callable[[str], list[MatchedIntent]]


def thing_meant_at_offer(
    text: str, waiting: Sequence[str], read: ReadFn
) -> list[MatchedIntent] | None:
    """The waiting refund asked again for the thing ``text`` picks out (read by ``read``, the
    shop's matcher on a fresh message), or None when ``text`` is no such answer."""
    tools = set(waiting_tools(waiting))
    if tools != {"request_refund"}:
        return None
    found = _YES_THEN_THING.match(text.strip())
    zh = _CORRECTED_TO_THING_ZH.match(text.strip()) if found is None else None
    enough = _THING_ENOUGH_ZH.match(text.strip()) if found is None and zh is None else None
    if zh is not None and not _NOT_A_THING_ZH.search(zh.group("thing")):
        said = f"只退{zh.group('thing')}"
    elif enough is not None and not _NOT_A_THING_ZH.search(
        thing_zh := enough.group("thing") or enough.group("thing2") or "上"
    ):
        said = f"只退{thing_zh}"
    elif found is not None:
        thing = (found.group("thing") or found.group("thing2") or "").strip()
        if not thing or _NOT_A_THING.search(thing):
            return None
        said = f"refund only {thing}"
    else:
        return None
    meant = [m for m in read(said) if m.intent is Intent.PACK and m.capability == "refund"]
    return meant or None


_YES_AND_THING = rx(
    r"^\W*(?:yes|yeah|yep|ok|okay|sure|fine|alright)\b[\s,.!-]*"
    r"(?:(?:and|plus|also)\s+(?:also\s+)?(?P<thing>(?:the|my)(?:\s+[a-z][a-z0-9-]*){1,3}?)"
    r"\s*(?:too|as well|also)?"
    r"|(?P<thing2>(?:the|my)(?:\s+[a-z][a-z0-9-]*){1,3}?)\s+(?:too|as well|also))"
    r"[\s.!]*(?:please|pls|thanks|thx)?[\s.!]*$"
    # "actually add the dinnerware set too", "can you add the plates as well": a thing added,
    # with or without a yes
    r"|^\W*(?:(?:yes|yeah|yep|ok|okay|sure|fine|alright|actually|oh|wait|and|also|plus)\b"
    r"[\s,.!-]*)*(?:(?:(?:can|could) (?:you|u) |please |pls )?(?:add|include|throw in)\s+)"
    r"(?:also\s+)?(?P<thing3>(?:the|my)(?:\s+[a-z][a-z0-9-]*){1,3}?)"
    r"\s*(?:too|as well|also|to (?:it|that|the refund))?[\s.!?]*(?:please|pls|thanks|thx)?[\s.!]*$"
)
"""A yes adding one thing to the refund offered ("yes, and the plates"), or the thing added
without one ("actually add the dinnerware set too")."""
_YES_AND_THING_ZH = rx(
    r"^[\s，,。.!！]*(?:好|好的|行|可以|嗯|对)[\s，,。.!！]*(?:还有|另外|再把)?"
    r"(?P<thing>[\u4e00-\u9fff]{2,8}?)(?:也|一起|也一起)(?:退|退了|退掉)(?:吧|了)?[\s，,。.!！~～]*$"
    # "餐具也加上", "再加上餐具", "把餐具也算上": the thing added, with or without a yes
    r"|^[\s，,。.!！]*(?:(?:好|好的|行|可以|嗯|对)[\s，,。.!！]*)?(?:那|还有|另外)?(?:再|把|再把)?"
    r"(?:(?:加上|加)(?P<thing2>[\u4e00-\u9fff]{2,8}?)"
    r"|(?P<thing3>[\u4e00-\u9fff]{2,8}?)(?:也|一起|也一起)(?:加上|加进去|算上|加))"
    r"(?:吧|了|一起退)?[\s，,。.!！~～]*$"
)
"""Its Chinese ("好，餐具也退", "餐具也加上")."""


# "actually add the dinnerware set too, a couple of the plates were chipped": why the thing is
# added, told after it of the things themselves (never another thing's fault)
_WHY_TOLD_AFTER = rx(
    r"[,;.!]\s*(?P<why>(?:a couple|a few|some|two|three|four|both|several|one|all|most|they|it"
    r"|it'?s|its)\b[^,;.!?]*\b(?:were|was|is|are|got|came|arrived)\b[^,;.!?]*"
    r"\b(?:broken|broke|chipped|cracked|leaks?|leaking|damaged|scratched|dented|faulty|defective"
    r"|stopped working)\b[^?]*)$"
)
# (nothing taken back, kept, asked or priced in it: "…, refund 50 for those")
_WHY_NOT = rx(
    r"\b(?:but|not|no|don'?t|instead|only|just|except|keep|wait|cancel|if|unless|rather|refund"
    r"|return|yuan|rmb|kuai|bucks)\b|\d|[?？]"
)


def _without_why(text: str) -> str:
    """``text`` without the reason told after the thing added (:data:`_WHY_TOLD_AFTER`)."""
    found = _WHY_TOLD_AFTER.search(text)
    if found is None or _WHY_NOT.search(found.group("why")):
        return text
    return text[: found.start()]


_REFUND_SAID_FIRST = rx(r"^(?:帮我|给我|麻烦)?(?:退|退掉|退款)[^，,。！!？?]*$")


def thing_added_at_offer(
    text: str, pending: Sequence[Mapping[str, Any]], read: ReadFn
) -> list[MatchedIntent] | None:
    """The waiting refund of a thing asked again with one more thing of the order ("refund
    the thermos on 100200" → "yes, and the plates"): the refund of both, worked out by the
    precheck (their sum, or asked how much) and asked before anything is paid — the yes paid
    the first thing alone, less than asked. None when ``text`` adds no thing to one refund."""
    if len(pending) != 1 or pending[0].get("tool") != "request_refund":
        return None
    match = pending[0].get("match")
    first = ""
    if isinstance(match, Mapping):
        args = match.get("args")
        first = str((args or {}).get(SHARE_OF) or "") if isinstance(args, Mapping) else ""
        first = first or str(match.get("text") or "")
    text = _without_why(text.strip())
    found = _YES_AND_THING.match(text)
    zh = _YES_AND_THING_ZH.match(text) if found is None else None
    added = (
        (found.group("thing") or found.group("thing2") or found.group("thing3") or "")
        if found is not None
        else ""
    )
    if added and not _NOT_A_THING.search(added):
        said = f"{first} and {added}"
    elif zh is not None and not _NOT_A_THING_ZH.search(
        thing_zh := zh.group("thing") or zh.group("thing2") or zh.group("thing3")
    ):
        # ("退100200的保温杯" + "餐具": "退100200的保温杯和餐具"; "保温杯退了吧": "…，餐具也退")
        verb_first = _REFUND_SAID_FIRST.match(first.strip())
        said = f"{first.strip()}和{thing_zh}" if verb_first else f"{first}，{thing_zh}也退"
    else:
        return None
    if not first.strip():
        return None
    waiting_order = str((pending[0].get("args") or {}).get("order_id") or "")
    if any(o != waiting_order for o in ORDER_MENTION.findall(text)):
        # "yes and the thermos from 100200" to ¥100 on 100609: another order's thing — the yes
        # is to the refund waiting, the thing a refund of its own (never the ¥100 moved to it)
        return None
    meant = [m for m in read(said) if m.intent is Intent.PACK and m.capability == "refund"]
    return meant or None
