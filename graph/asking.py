"""Whether a clause nothing could read still asks for something, domain-free.

A template matcher reads the requests it has templates for. In a message with several requests
("where is my parcel, and could you gift wrap the thermos?") a part no template reads must not
vanish: when it asks for something, the reply says that part was not handled
(:data:`helpdesk.graph.intents.DEFERRED_PART`) instead of answering the rest as if it were the
whole message. :func:`asks_for_something` is that judgement, made on words every deployment
reads the same: a question ("can I ...?", "能不能..."), a request ("please ...", "I'd like ...",
"帮我...", "...一下"), or an imperative ("add a gift message", "apply coupon X", "把...改到周末").
A clause that only voices the customer's mood ("what's going on?", "怎么回事") asks nothing of
its own. The words here are matching logic, not customer text.
"""

from __future__ import annotations

import re

from helpdesk.graph.conversation import STRIP, rx

__all__ = [
    "ACTION_VERB",
    "ASKS",
    "CHANGE",
    "EXASPERATION",
    "IMPERATIVE",
    "REQUESTS",
    "asks_for_a_change",
    "asks_for_something",
    "word_count",
]

ASKS = rx(
    r"[?]|吗|呢|怎么|为什么|什么|多少|哪|能不能|可不可以|能否|几[点天号个时件次]|多久|多长|啥|咋"
    # "空气炸锅多大", "电饭煲几升的": how big or heavy a thing is
    r"|多(?:大|重|高|宽|厚)(?![\u4e00-\u9fff]{2})|几(?:升|寸|斤|瓦|毫安)"
    # "有没有邮箱可以联系", "是不是", "要不要": a question asked as "A not A"
    r"|([\u4e00-\u9fff])[不没]\1"
    # "100904付了没", "发货了没有": "done or not?"
    r"|了没有?(?![\u4e00-\u9fff])"
    # "退了433对吧", "是你们发的吧对不对": a tag asking to be told it is so
    r"|对吧|是吧|对不对|没错吧"
    r"|\b(?:how|what|why|when|where|which|can|could|is there|do you|does it)\b"
    # as customers type them ("wheres 100683", "whats the tracking no."), and "请问 / 问下 /
    # 想问": saying that a question follows ("顺便问下退货地址")
    r"|\b(?:wheres|whats|hows|whens|whys|whos)\b|请问|问下|问一下|想问|问问|咨询"
    # "who pays the shipping", "运费谁出": who bears something ("the guy who delivered it" asks
    # nothing)
    r"|\bwho(?:'s| is| will| would| should| has to)?\s+(?:pay|pays|cover|covers|bear|bears"
    r"|responsible|paying|covering)\b|谁(?:出|付|承担|负责|来出|来付|买单)"
    # "are they cheaper if i buy both": a clause opening with an auxiliary verb asks
    r"|^\W*(?:(?:and|also|so|but)\s+)?(?:are|is|do|does|did|will|would|has|have|was|were"
    r"|should|shall)\b"
)
"""A question: a question mark or a question word."""

# The customer asks for something to be done: a polite or wanting phrase, or an imperative verb
# opening the clause (after "and", "also", "pls" ...). Verbs the customer uses to ask for
# something to be changed, added or sent, whatever the domain.
_IMPERATIVE_VERBS = (
    r"add|apply|arrange|attach|book|bring|change|combine|deliver|email|extend|fix|gift|give"
    r"|hold|include|keep|leave|let|mail|make|merge|move|notify|pack|print|put|remind|remove"
    r"|reserve|schedule|send|set|ship|speed|split|swap|switch|transfer|unsubscribe|update"
    r"|upgrade|use|waive|wrap|write|pay|donate|engrave|register|subscribe|activate|redeem"
    r"|delete|edit|link|bind|convert|forward|return"
)
ACTION_VERB = rx(r"\b(?:" + _IMPERATIVE_VERBS + r")\b")
"""A verb asking for something done, anywhere in a clause ("can you combine it with ...")."""
IMPERATIVE = rx(
    r"^\W*(?:(?:and|also|then|just|so|pls|plz|please|kindly)\s+)*"
    # "need to update my phone number", "i also want to use a coupon"
    r"(?:(?:i\s+)?(?:also\s+)?(?:need|want|wanna|would like|'d like)\s+(?:to\s+)?)?"
    r"(?:" + _IMPERATIVE_VERBS + r")\b"
    r"|^\W*(?:再|也|还)?(?:[把给让叫]|送我|发我|寄我)|^\W*再(?!见)"
    # "改个送货时间", "换成顺丰", "先放快递站": an opening verb that changes or puts something
    # (at the very start: with ASCII classes a Han character is \W)
    r"|^[^\w\u3400-\u9fff]*(?:再|也|还|先|就|直接)?(?:改|换|修改|更改|更换)(?:个|一下|下|成|到|为|一个)"
    r"|^[^\w\u3400-\u9fff]*(?:先|就|直接)?(?:放|寄存|暂存)(?!心|假|弃|过|松|学|大)(?=[\u4e00-\u9fff])"
)
"""A clause opening with a verb that asks for something done ("gift wrap it", "把...改到周末")."""
REQUESTS = rx(
    r"\b(?:please|pls|plz|kindly|i(?:'d| would) like|i want(?: to)?|i need(?: to)?|i wanna"
    r"|(?:can|could|would|will) (?:you|u)|(?:can|could|may) i)\b"
    r"|帮我|帮忙|麻烦|请|给我|我想|我要|我需要|一下|[还也]要|[还也]想"
    # "also need a quote for 50 units": wanting something, the "I" left out
    r"|(?:^|[,;])\W*(?:(?:and|also|so|pls|please)\s+)*(?:need|want)\s+(?:a|an|some)\b"
)
"""A request in polite or wanting words: "please ...", "can you ...", "I'd like ...", "帮我..."."""

_POLITE = rx(r"\b(?:please|pls|plz|kindly)\b|麻烦|请|帮我|帮忙|一下")

EXASPERATION = rx(
    r"^(?:so |and |but )?what(?:'s| is| the hell is| on earth is) (?:going on|happening|up|this)"
    r"(?: here| now)?$|^(?:what gives|why|seriously|really|how come)$"
    r"|^(?:这是)?怎么回事|^什么情况|^搞什么|^咋回事"
)
"""How the customer feels about the rest of the message, not a question of its own."""

CHANGE = rx(
    r"\b(?:change|changing|pick|choose|switch|move|upgrade|speed (?:it |this |that )?up|expedite"
    r"|reschedule|postpone|redirect|hold|reroute|notify|remind|apply for|make sure|remove"
    r"|delete|add|combine|merge|split|wrap|engrave|donate|transfer)\b"
    r"|改|换|升级|备注|预约|加急|指定|推迟|延后|延迟发|放(?:在|到)?门口|放(?:在|到)|通知|提醒|申请"
    r"|^[^\w\u3400-\u9fff]*(?:先|就|直接)?(?:放|寄存|暂存)(?!心|假|弃|过|松|学|大)(?=[\u4e00-\u9fff])"
    r"|预留|保留|\b(?:reserve|set aside|put aside)\b"
    r"|让(?:他|她|他们|快递员?)"
)
"""Asking for something to be changed or arranged (a date, a method, a place, a reminder),
not looked at."""

_WORD = re.compile(r"[a-z]+|[\u4e00-\u9fff]")


def word_count(text: str) -> int:
    """How many words a clause has (each Han character counts as one)."""
    return len(_WORD.findall(text.lower()))


def asks_for_something(clause: str, *, min_words: int = 4, questions: bool = True) -> bool:
    """Whether a clause asks a question (unless ``questions`` is False: only a request for
    something to be done counts) or for something to be done, with at least ``min_words``
    words ("can you check" is too short to quote back as a request of its own)."""
    text = clause.strip(STRIP).lower()
    if EXASPERATION.search(text):
        return False
    if questions and ASKS.search(text):
        return word_count(text) >= min_words
    # the polite words are not the request: "麻烦快点" / "please do it fast" ask nothing new;
    # an opening verb and its object do ("gift wrap it please")
    words = word_count(_POLITE.sub(" ", text))
    if IMPERATIVE.search(text):
        return words >= min(2, min_words)
    return bool(REQUESTS.search(text)) and words >= min_words


def asks_for_a_change(clause: str) -> bool:
    """Whether a clause asks for something to be changed ("can I pick a delivery time slot",
    "帮我备注一下放快递柜"): a template that reads it as a look at the same thing another
    clause asked about answers the look, not the change."""
    return bool(CHANGE.search(clause.lower())) and asks_for_something(clause)
