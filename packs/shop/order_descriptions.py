"""How customers describe an order instead of numbering it: by what is in it ("净化器那单", "my
air fryer order"), by its state ("the one I haven't paid for", "没发货的"), as a parcel ("where
is my package") — the words :mod:`helpdesk.packs.shop.order_reference` reads to look it up."""

from __future__ import annotations

import re

from helpdesk.graph.conversation import rx
from helpdesk.packs.shop.order_amounts import TOTAL_NAMED, left_amount_named

__all__ = [
    "CANCELLED",
    "NOT_SHIPPED",
    "NOT_SHIPPED_STATES",
    "PAID",
    "PARCEL",
    "PARCEL_LOOKS",
    "UNPAID",
    "action_sentence",
    "describes_an_order",
    "names_a_parcel",
]

# "the one I haven't paid for", "my unpaid order", "还没付款的那单", "待付款的"
UNPAID = rx(
    r"\b(?:have ?n[o']?t|not|never|didn'?t|did not|yet to) (?:yet )?(?:paid|pay)\b|\bunpaid\b"
    r"|未付款|没付款|没有付款|还没付|没付钱|待付款|未支付|没支付|没付的"
    r"|\b(?:my|the) pending (?:one|order)\b"
    # "the air fryer that's still waiting for payment", "the order awaiting payment"
    r"|\b(?:still )?(?:waiting for|awaiting) (?:the |my )?payment\b"
    r"|\bpayment (?:is )?(?:still )?pending\b"
)
"""An order described as not paid for ("the one I haven't paid for", "没付钱那个")."""


# "the order I cancelled", "my cancelled order", "取消了的那单": the order called off
CANCELLED = rx(
    r"\b(?:the|my|that) (?:order|one) (?:i|we) (?:had )?cancel+ed\b"
    r"|\b(?:the|my|that) cancel+ed (?:order|one)\b"
    r"|(?:我)?取消(?:了|掉)?的那(?:单|个|笔)|已取消的(?:那)?(?:单|订单|笔)"
)


# "已付款那个发了没", "the paid one", "my paid order": the order paid for and not yet shipped
# "两个没发货的单", "the orders that haven't shipped": the orders not on their way yet
NOT_SHIPPED = rx(
    r"\b(?:have ?n[o']?t|has ?n[o']?t|not|never|didn'?t|yet to) (?:yet )?(?:been )?ship(?:ped)?\b"
    r"|\bunshipped\b|(?<!发)(?:没发货|未发货|还没发(?!票)|没发出|没有发货|还没寄|没寄出)"
)
NOT_SHIPPED_STATES = frozenset({"pending", "paid"})
PAID = rx(
    r"\b(?:the|my) paid (?:one|order)\b"
    r"|已付款(?:的|那个|那单)|付了款的|付过款的|已经付了的|已支付的"
)


# "净化器那单", "空气炸锅的订单", "显示器和手机那个单子", "my air fryer order", "the purifier
# order", "the order with the monitor": an order named by what is in it
_THING = (
    r"(?!(?:first|second|third|last|other|same|one|ones|was|were|has|had|been|got|is|are|order"
    r"|money|amount|rest|refund)\b)[a-z]{3,}"
)
"""A word that may name a thing bought ("purifier"; not "the second one", "that was")."""
_DESCRIBED_ORDER = rx(
    # (a 工单 is a ticket, not an order: "帮我开个工单")
    r"[\u4e00-\u9fff]{2}(?:的|那|这)?(?:一|个)?(?:(?<![工账菜清保名])单|笔|订单|单子)(?![号据])"
    # "净化器那个剩下的钱能退多少": the thing bought, then what is asked of its order
    r"|[\u4e00-\u9fff]{2}(?:那个|这个)(?=[^，。,.!?！？]{0,8}(?:钱|退|到哪|物流|快递|发货))"
    r"|\b(?:my|the|that|this)\s+(?!(?:next|new|first|future|own)\b)(?:[a-z0-9-]+\s+){1,3}"
    r"(?:order|purchase)\b(?!\s*(?:number|id|#))"
    r"|\border (?:with|for) (?:the |my |a )?[a-z]{3,}"
    # "and the air fryer one I placed yesterday": an order by what is in it, placed
    r"|\bthe (?:[a-z0-9-]+\s+){1,3}one (?:i|we) (?:placed|ordered|bought|paid for|made)\b"
    # "paid for the monitor and the phone last night", "she ordered a phone a couple of days
    # ago": a purchase told by what was bought
    r"|\b(?:refund|money back|compensation)(?: status| progress)? (?:for|on) (?:the|my) [a-z]{3,}"
    # "how much can I still get back on the air purifier", "上个月净化器退过一次款"
    r"|\b(?:get|got|claim|have) (?:\w+ )?back (?:for|on) (?:the|my) [a-z]{3,}"
    r"|[\u4e00-\u9fff]{2}(?=退过|退了一?(?:部分|次|笔))"
    # "how much have I been refunded on the purifier", "is the air purifier still refundable":
    # a refund of the thing bought, asked about
    r"|\b(?:refunded|paid back|refundable|returned) (?:on|for) (?:the|my|that) "
    + _THING
    + r"|\b(?:the|my|that) "
    + _THING
    + r"(?: [a-z]{3,})? (?:is |still |even |already )*"
    r"(?:refundable|refunded)\b"
    r"|\b(?:(?:i|we|she|he|they) (?:just |already )?(?:paid for|ordered|bought|purchased) "
    r"|(?:paid for|ordered|bought|purchased) (?:the|a|an|my) )[a-z]{3,}"
)


# "where is my parcel", "我的快递到哪了": the delivery on its way, named by no product — the
# order meant when exactly one of the customer's orders is on its way (else the bot asks)
PARCEL = rx(
    r"\b(?:parcel|package|pakage|pacakge|packet|delivery|shipment|stuff)s?\b|快递|包裹|物流|件|送达|配送(?!员)"
    # "my tracking's stuck", "my order is late": the parcel on its way, by what is wrong with it
    r"|\bmy tracking\b|\bmy order(?:'s| is| has been)? (?:late|delayed|stuck|lost|overdue)\b"
    # "where is my order", "我的订单到哪了": where the order on its way is
    r"|\bwhere(?:'?s| is) my order\b|我的订单(?:现在)?(?:到哪|在哪)"
)
PARCEL_LOOKS = frozenset({"tracking", "order_status"})


def names_a_parcel(text: str) -> bool:
    """Whether ``text`` speaks of a parcel ("my package", "我的包裹", "where is my order"): a look
    at the customer's order on its way."""
    return bool(PARCEL.search(text))


def describes_an_order(text: str) -> bool:
    """Whether ``text`` names an order by what is in it, its state or its total ("净化器那单",
    "the order I haven't paid for", "the 797 order"): a question about money or delivery then
    has an order to be about."""
    return bool(
        _DESCRIBED_ORDER.search(text)
        or UNPAID.search(text)
        or PAID.search(text)
        or CANCELLED.search(text)
        or TOTAL_NAMED.search(text)
        or left_amount_named(text) is not None
    )


# the words asking for each write, by the request it is
_ACTION_WORDS: dict[str, re.Pattern[str]] = {
    "refund": rx(r"\brefund|\bmoney back\b|退"),
    "cancel_order": rx(r"\bcancel|取消"),
}
_SENTENCE = re.compile(r"[^.?!;。？！；\n]+")


def action_sentence(intent: str, text: str) -> str:
    """ "my screen protector and air purifier – are they both delivered? refund the purifier":
    the last sentence, when it asks for the write, says what it is for better than the first
    thing the message names; else (one sentence, or the write asked before the last) the whole
    words. Whether it names a thing is the caller's to check against the order's items
    ("the thermos leaks. refund it": the thing is in the other sentence)."""
    words = _ACTION_WORDS.get(intent)
    if words is None:
        return text
    sentences = [m.group(0) for m in _SENTENCE.finditer(text) if m.group(0).strip()]
    # (only the last sentence: one after it may add a thing — "… but keep the rest? oh and
    # the thermos too")
    if len(sentences) < 2 or not words.search(sentences[-1]):
        return text
    return sentences[-1].strip()
