"""Answers that name one of the waiting actions or subjects: "yes to the refund" (a yes to that
action only), "100998不要取消" (a no to the actions on that subject only), and the action's verb
said alone ("取消吧", "open a ticket"). Read by :mod:`helpdesk.graph.confirmation_reading`."""

from __future__ import annotations

import re
from collections.abc import Callable

from helpdesk.graph.conversation import CORRECTION, NO_ANY, STRIP, bare, rx
from helpdesk.graph.money import AmountReading, read_amount
from helpdesk.graph.request import Intent
from helpdesk.tools.packs import PackSet

__all__ = [
    "ADDED",
    "ALL_OF_THEM",
    "CONFIRMATION_UNDONE",
    "ONLY",
    "ONLY_THE_VERB",
    "REFUSED_OTHERS",
    "meant_amount",
    "mixed_answer",
    "refused_subject",
    "yes_to_each_named",
    "yes_to_named",
    "yes_to_one_named",
    "yes_to_one_no_to_other",
]

ONLY = rx(r"\b(?:only|just)\b|只要|只|就行|就好|就可以")
"""Words that keep one of several waiting actions ("only the cancel", "只要取消")."""

ONLY_THE_VERB = rx(
    r"^(?:(?:please|pls|go ahead and|just)\s+)?(?:cancel|refund)"
    r"(?:\s+(?:it|that|this|them|please|pls|now))*$"
    r"|^(?:那就|就|帮我|给我)?(?:取消|退款|退)(?:掉|了)?(?:吧|呗|啊|呀|好了)?$"
    # "ok then open a ticket for it", "好，开工单吧": the action asked about, named
    r"|^(?:then\s+)?(?:(?:please|pls|go ahead and|just)\s+)?(?:open|file|raise|create|log)"
    r" (?:a |the |that )?ticket(?: for (?:it|that|this|me))?(?:\s+(?:please|pls|now|then))*$"
    r"|^(?:那就|就|帮我|给我)?(?:开|建|提|登记)(?:个|一个)?(?:工单|售后单)(?:吧|呗|啊|呀|好了)?$"
    # "ticket yes", "投诉确认": the action named by its noun
    r"|^(?:the )?(?:ticket|complaint)$|^(?:工单|投诉)$"
)
"""The action's verb and nothing else ("取消", "cancel it", "退款吧", "open a ticket")."""


_YES_WORD = rx(
    r"\b(?:yes|yeah|yep|yup|ok|okay|sure|fine|y|confirm(?:ed)?|go ahead(?: with)?"
    r"|proceed(?: with)?)\b|确认|可以|好的|^好|行|是的|^对"
)
_AROUND_A_YES = rx(
    r"\b(?:yes|yeah|yep|yup|ok|okay|sure|y|confirm(?:ed)?|go ahead(?: with)?|proceed(?: with)?"
    r"|to|for|with|the|that|this|one|part|bit|please|pls|is fine|fine|do)\b"
    r"|确认|可以|好的|好|行|是的|对|那个|这个|那笔|的|吧|就行|就好"
)
"""A yes and the words around the action it names ("yes to the refund", "退款那个确认")."""


def yes_to_one_named(
    plain: str,
    named_action: Callable[[str], str],
    named_actions: Callable[[str], tuple[str, ...]],
    waiting: tuple[str, ...],
) -> str:
    """The waiting action a yes names and nothing else ("yes to the refund", "confirm the
    cancel", "refund yes", "退款那个确认", "退款可以"); "" when it is not such a yes."""
    if not _YES_WORD.search(plain) or NO_ANY.search(plain) or ONLY.search(plain):
        return ""
    named = set(named_actions(plain))
    verb = named_action(plain)
    if len(named) > 1 or not verb or not any(verb in w for w in waiting):
        return ""
    rest = re.sub(r"\s+", " ", _AROUND_A_YES.sub(" ", plain)).strip(STRIP)
    if not rest or not ONLY_THE_VERB.match(rest) or named_action(rest) != verb:
        return ""
    return verb


def refused_subject(norm: str, subjects: tuple[str, ...]) -> str | None:
    """The one subject a no is said of, not corrected to: the no after it ("100998不要取消",
    "100998 no", "100998先不取消") or right before it with the action ("don't cancel 100998") —
    never with correction words ("不对，我是说100904", "no I meant 100904")."""
    if len(subjects) != 1 or CORRECTION.search(norm):
        return None
    at = norm.find(subjects[0].lower())
    if at < 0:
        return None
    before, after = norm[:at], norm[at + len(subjects[0]) :]
    if NO_ANY.search(after) and not bare(before):
        return subjects[0]
    if (_DONT_DO.search(before) or _NO_TO.match(before)) and not bare(after):
        return subjects[0]
    return None


# "no to 100200", "no for 100200", "no, not 100200", "not 100200": a no said of that order
_NO_TO = rx(
    r"^\W*(?:(?:no|nope|nah)\W*(?:to|for|on)|(?:(?:no|nope|nah)\W+)?(?:but\s+)?not)\s+"
    r"(?:(?:the |my )?order\s*)?(?:#|no\.?\s*)?$"
)


_DONT_DO = rx(
    r"\b(?:don'?t|do not|no need to|not)\s+(?:\w+\s+){0,2}(?:cancel|refund)\w*\s*"
    r"(?:(?:the |my )?order\s*)?(?:#|no\.?\s*)?$"
    r"|(?:不要|别|不用|先不)(?:取消|退款|退)\s*(?:订单\s*)?$"
)


REFUSED_OTHERS = "+refused"
"""Appended to a yes's ``details`` (its verb) when the answer says no to the other waiting
actions ("the refund yes, the cancel no"): they are dropped, not asked again."""
_NOT = rx(r"^\W*(?:but )?not\b|\bn\b")  # "refund y cancel n"
_PARTS = re.compile(r"[,，;；、.。]|\bbut\b|但是|不过")
_AFTER_AN_ANSWER = re.compile(
    r"(?<=\byes)\s+|(?<=\bnope)\s+|(?<=\bfine)\s+|(?<=\bno)\s+|(?<=\bok)\s+|(?<=\by)\s+"
    r"|(?<=\bn)\s+|(?<=确认)|(?<=可以)",
    re.IGNORECASE,
)


def yes_to_one_no_to_other(
    plain: str,
    named_action: Callable[[str], str],
    named_actions: Callable[[str], tuple[str, ...]],
    waiting: tuple[str, ...],
) -> str:
    """The action a two-part answer says yes to when its other part says no to the other
    waiting action ("the refund yes, the cancel no", "退款的确认，取消的不要"); "" otherwise."""
    parts = [p.strip(STRIP) for p in _PARTS.split(plain) if p.strip(STRIP)]
    if len(parts) != 2:  # "refund yes ticket no", "退款确认取消不要": parted by the answers
        parts = [p.strip(STRIP) for p in _AFTER_AN_ANSWER.split(plain) if p.strip(STRIP)]
    if len(parts) != 2:
        return ""
    for yes_part, no_part in (parts, parts[::-1]):
        verb = yes_to_one_named(yes_part, named_action, named_actions, waiting)
        refused = set(named_actions(no_part))
        if (
            verb
            and (NO_ANY.search(no_part) or _NOT.search(no_part))
            and len(refused) == 1
            and verb not in refused
            and any(next(iter(refused)) in w for w in waiting)
            and len(no_part) <= 24
        ):
            return verb + REFUSED_OTHERS
    return ""


def yes_to_named(
    plain: str,
    named_action: Callable[[str], str],
    named_actions: Callable[[str], tuple[str, ...]],
    waiting: tuple[str, ...],
) -> str:
    """The waiting action a yes names, alone or beside a no to the other one ("" if none)."""
    return yes_to_one_named(plain, named_action, named_actions, waiting) or yes_to_one_no_to_other(
        plain, named_action, named_actions, waiting
    )


_YES_CUT = rx(
    r"(?:\b(?:yes|yeah|yep|ok|okay|sure|confirm(?:ed)?)\b|确认|可以|好的)"
    r"(?:\s*(?:too|also|as well)\b)?"
)
_ALSO = rx(r"\b(?:also|too|as well|and)\b|也|都")


def yes_to_each_named(
    plain: str,
    named_action: Callable[[str], str],
    named_actions: Callable[[str], tuple[str, ...]],
    waiting: tuple[str, ...],
) -> bool:
    """Whether the answer is a yes to each waiting action, each named with its own yes ("refund
    yes cancel yes", "退款确认，取消也确认"): a yes to all of them (any other word, a no, or a
    waiting action left unnamed: not such a yes)."""
    if len(waiting) < 2 or NO_ANY.search(plain):
        return False
    pieces, start = [], 0
    for found in _YES_CUT.finditer(plain):
        pieces.append(plain[start : found.end()])
        start = found.end()
    if len(pieces) < 2 or bare(plain[start:]):
        return False
    verbs = [
        yes_to_one_named(_ALSO.sub(" ", p).strip(STRIP), named_action, named_actions, waiting)
        for p in pieces
    ]
    return all(verbs) and all(any(v in w for v in verbs) for w in waiting)


# what makes a number beside a yes an amount meant for the money waiting: "only 500", "make it
# 500", "refund 500", "500 yuan", "500块", "退500" (not "I'll be home after 6", "I paid 100 for
# shipping", "you already refunded 433", "24/7", "my card ends in 88")
_AMOUNT_WORDS = rx(
    r"\b(?:only|just|instead|make it|change it to|refund|yuan|rmb|kuai|bucks|cny)\b"
    r"|\d\s*(?:yuan |rmb |kuai )?back\b|[¥￥元块]|退|只|就|改成|换成"
    r"|\b(?:do|take|go with|settle for|accept)\s+(?:the\s+)?\d"
)
_FILLER = rx(r"\b(?:ok|okay|yes|yeah|sure|fine|then|please|pls|alright)\b|好的|好吧|那就|吧|行")
_NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.])")
_WORKED_OUT = rx(r"\d\s*(?:yuan |rmb |kuai )?(?:less|more|fewer|off|extra)\b|少|多退|或者|\bor\b")
_NOT_MONEY = rx(
    r"\d\s*[/:]\s*\d|\b(?:ends? in|ending|account|card|room|floor|says|paid|cost|price|code)\b"
    r"|尾号|尾数|卡号|楼|房间|付了|花了|写着"
)


def meant_amount(
    rest: str, *, packs: PackSet, subjects: tuple[str, ...], money_context: bool = True
) -> AmountReading:
    """The amount the words beside a yes give the waiting money action: read as an amount only
    when said as one (alone, or with a money word); one worked out or one of several ("100
    less", "500 or 600") is asked; a number that is something else (a time, a date, a card's
    last digits, a price paid) is no amount (the answer is asked again, unchanged)."""
    reading = read_amount(rest, money_context=money_context, packs=packs)
    if reading.kind != "exact":
        return reading
    if _NOT_MONEY.search(rest) or _WHY.search(rest):
        # "wait why is it 797?": the amount asked about, quoted back — not one meant
        return AmountReading("none")
    numbers = {n for n in _NUMBER.findall(rest) if n not in subjects}
    if len(numbers) > 1 or _WORKED_OUT.search(rest):
        return AmountReading("invalid", raw=rest)
    # (the number said in words is the amount too: "yes, two hundred", "好，三百"; a small one
    # alone is no amount: "yes, two", "好的，一" pick one of several)
    if reading.raw and not re.search(r"\d", reading.raw) and (reading.amount or 0) < 10:
        return AmountReading("none")
    words = rest.replace(reading.raw, " ") if reading.raw else rest
    alone = bare(_FILLER.sub(" ", _NUMBER.sub(" ", words))).strip(STRIP) == ""
    if not (alone or _AMOUNT_WORDS.search(rest) or _for_a_subject(rest, reading.raw, subjects)):
        return AmountReading("none")
    return reading


def _for_a_subject(rest: str, raw: str, subjects: tuple[str, ...]) -> bool:
    """ "yes but 200 for 100200", "100200改成200": the number said for a subject named."""
    number = re.escape(raw.strip())
    return bool(raw.strip()) and any(
        re.search(
            rf"(?<![\d.]){number}\s*(?:yuan|rmb|元|块)?\s*(?:for|on)\s+(?:order\s*)?#?\s*"
            rf"{re.escape(s)}|{re.escape(s)}\s*的?\s*(?:退|改成|改为|:|：)\s*{number}(?![\d.])",
            rest,
            re.IGNORECASE,
        )
        for s in subjects
    )


def mixed_answer(
    plain: str,
    named_action: Callable[[str], str],
    named_actions: Callable[[str], tuple[str, ...]],
    waiting: tuple[str, ...],
) -> Intent | None:
    """How an answer that no reading above placed is taken when it names waiting actions with
    both a yes and a no ("refund yes, cancel yes... no, don't cancel", "refund ok, cancel hold
    on"): a no — nothing runs and nothing stays waiting (never read as new requests). A yes
    naming an action that is not waiting ("对，退款吧" while a cancel waits) is left to the
    readings after it: a new request, asked before anything runs."""
    named = named_actions(plain) or (named_action(plain),)
    if not _YES_WORD.search(plain) or not any(named):
        return None
    waits = [v for v in named if v and any(v in w for w in waiting)]
    if len(waiting) >= 2 and waits and (NO_ANY.search(plain) or _HOLD.search(plain)):
        return Intent.CONFIRM_NO
    return None


_WHY = rx(r"\bwhy\b|\bhow come\b|为什么|为啥|怎么(?:是|会|这么|要)")
_HOLD = rx(r"\b(?:hold on|hang on|wait|later|not yet)\b|等等|先等|先别|再说")


CONFIRMATION_UNDONE = rx(
    r"^\W*(?:取消|撤销|撤回)(?:一下)?(?:这个|这次)?确认\W*$"
    r"|^\W*(?:cancel|undo|withdraw)\s+(?:the\s+|my\s+)?confirm(?:ation|ed)?\W*$"
)
"""An answer saying "取消确认" / "cancel confirm": the cancel confirmed, or the confirmation
cancelled — the words do not say which (asked again)."""
ALL_OF_THEM = rx(r"^(?:都|全都|全部)(?:取消|退)(?:掉)?(?:[\s,，]*(?:吧|谢谢))?$")
"""An answer doing every waiting action of one verb ("都取消", "全部退掉吧")."""
ADDED = rx(r"^[\W_]*(?:and|also|plus)\b|^[\W_]*(?:另外|还有|顺便)")
"""What follows a yes opening with "and" ("yes and the thermos from 100200 is great"): more
said beside it, never a change of the waiting action's subject."""
