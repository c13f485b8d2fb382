"""Another order meant, described by what is in it, while a refund or cancel waits for a yes.

"100200退款" → "不对，是另一单，净化器那个"; "refund 100200" → "no, the purifier order": the
customer corrects which order the waiting action is for, naming it by what it holds, not by its
number.
That is no "no" (nothing would be done, and a later yes finds nothing waiting) and no yes to the
order asked about: it is the same action asked for the order described, which the shop's resolver
finds before the customer is asked again. An order named by its number ("no, for 100609") is the
engine's subject correction and is left to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from helpdesk.graph.conversation import rx
from helpdesk.graph.request import Intent, MatchedIntent
from helpdesk.packs.shop.order_reference import THE_OTHER, describes_an_order
from helpdesk.packs.shop.words import waiting_tools

__all__ = ["other_order_meant"]

_WRONG_ONE = rx(
    r"^\W*(?:不对|不是(?:这(?:单|个))?|错了|搞错了|弄错了|说错了|等等|等一下)"
    r"|^\W*(?:no|nope|nah|wait|sorry|oops|wrong|not that)\b"
)
"""The answer opens by saying the order asked about is not the one meant."""
_OTHER_ORDER = rx(
    r"另一单|另外一单|另一个(?:订单|单)|别的(?:订单|单)|(?:那|这)个?单|那个|那单"
    r"|\bthe other (?:order|one)\b|\b(?:a |the )?different order\b|\bwrong order\b"
    r"|\b(?:order|one)\b"
)
"""It names an order (or "the one") of its own."""
_NUMBER = rx(r"\d{4,}")
_NOT_ASKED = rx(
    r"\b(?:fine|ok|okay|good|never ?mind|forget|don'?t|do not|was|were|is|are|already|keep|leave"
    r"|can|could|why|how|what|when|it'?s|that'?s|broken|broke|faulty|damaged|only|just)\b"
    r"|[?？]|算了|不用|不要|别|已经|没事|好的|保留|留着|吗|呢|为什么|怎么|坏|只"
)
"""Words that say the order described is no request ("no, the purifier order is fine", "no, was
the purifier order refunded?"): left to the confirmation reading."""
_VERB = {
    ("request_refund", "zh"): " 退款",
    ("request_refund", "en"): " refund it",
    ("cancel_order", "zh"): " 取消",
    ("cancel_order", "en"): " cancel it",
}
_CAPABILITY = {"request_refund": "refund", "cancel_order": "cancel_order"}

ReadFn = Callable[[str], list[MatchedIntent]]


def other_order_meant(
    text: str, norm: str, lang: str, waiting: Sequence[str], read: ReadFn, *, whole: bool = True
) -> list[MatchedIntent] | None:
    """The waiting refund or cancel asked again for the order ``text`` describes (read by
    ``read``, the shop's matcher on a fresh message), or None when ``text`` is no such
    correction (left to the confirmation reading). Only for an action on a whole order
    (``whole``): an amount or a thing asked ("refund 100 on 100200") is not carried to the
    order described, and never dropped for its whole."""
    if not whole:
        return None
    tools = [t for t in waiting_tools(waiting) if t in _CAPABILITY]
    if len(set(tools)) != 1 or not _WRONG_ONE.search(norm) or _NUMBER.search(norm):
        return None
    if _NOT_ASKED.search(norm) or not (_OTHER_ORDER.search(norm) and describes_an_order(norm)):
        return None
    tool = tools[0]
    # ("the other one" alone says no order; the description beside it does)
    said = THE_OTHER.sub(" ", text).strip()
    found = read(said + _VERB[(tool, "zh" if lang == "zh" else "en")])
    meant = [m for m in found if m.intent is Intent.PACK and m.capability == _CAPABILITY[tool]]
    return meant or None
