"""A refund wanted only if the thing cannot be replaced: an after-sales ticket, not the refund.

"refund 100200 if you can't replace it", "100200换不了的话就退款", "replace it or refund if you
can't": the customer wants a replacement first, and whether one is possible is the after-sales
team's to say — the bot cannot know. Offering the refund at once (a hurried "yes" paid it) moves
money the customer wanted moved only as a last resort. The request becomes the after-sales ticket
(a repair, replacement or refund), asked before it is filed, with the customer's words.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from helpdesk.graph.conversation import rx
from helpdesk.graph.request import Intent, MatchedIntent
from helpdesk.packs.shop.words import ASK_FIRST, TICKET_MESSAGE

__all__ = ["REPLACEMENT_FIRST", "replacement_first"]

REPLACEMENT_FIRST = rx(
    r"\b(?:if|unless|in case)\b[^.?!]{0,40}"
    r"\b(?:can'?t|cannot|can not|unable to|not able to|couldn'?t|won'?t|isn'?t|is not|not)\b"
    r"[^.?!]{0,20}\b(?:replace|replaced|replacement|exchange|exchanged|swap|new one"
    r"|send (?:a |me )?new)"
    r"|\bunless (?:you|u) (?:can )?(?:replace|exchange|swap|send (?:a |me )?new)"
    r"|\b(?:replace|exchange|swap)\b[^.?!;]{0,40}?\bor (?:else |just |otherwise )?(?:a )?"
    r"(?:refund|money back)"
    # "if you can replace it, do; otherwise refund the thermos", "replace it, failing that refund"
    r"|\b(?:replace|exchange|swap|send (?:a |me )?new)\b[^?!]{0,50}?"
    r"\b(?:otherwise|or else|if not|failing that|if that fails)\b[^.?!]{0,30}"
    r"\b(?:refund|money back)"
    # "I want a replacement for the thermos. If you can't, refund me", "can you exchange it? if
    # not, refund", "replace it, and if there's no stock, refund"
    r"|\b(?:replace|replacement|exchange|swap|new one|send (?:a |me )?new)\b[^!]{0,80}?"
    r"\bif (?:you )?(?:can'?t|cannot|not|that'?s not possible|it'?s not possible|there'?s no"
    r"|(?:it'?s |they'?re )?out of stock|none)\b[^!]{0,30}\b(?:refund|money back)"
    # "a new thermos for 100200, otherwise my money back", "send me a new one or give me a
    # refund", "replacement preferred, refund as a last resort"
    r"|\b(?:a )?new (?:one|[a-z]{3,})\b[^?!]{0,40}?\b(?:otherwise|or else|or)\b[^.?!]{0,20}"
    r"\b(?:refund|money back)"
    r"|\b(?:refund|money back)\b[^.?!]{0,20}\b(?:as a |only as a )?(?:last resort|fallback)\b"
    r"|\bif (?:you )?(?:have|got) no (?:replacement|stock|new one)s?\b"
    r"|\bif (?:you )?(?:don'?t|do not) have (?:a |any )?(?:replacement|stock|new one)s?\b"
    # "refund the thermos if not replacable", "if it's not replaceable"
    r"|\bif (?:it'?s |its |it is |they'?re |they are )?(?:not |un-?)repla\w*ab\w*"
    r"|\breplacement or (?:a )?refund\b|\bif (?:a |the )?replacement (?:is ?n'?t|is not|isn'?t)"
    r"|换不了|(?<!能)不能换(?!个快递|快递)|没法换|换不成|换不到|补发不了|(?<!能)不能补发|没货换|能换就换"
    r"|换货不行|换[^，。,.!?！？]{0,8}[，,\s]*(?:实在)?(?:不行|没有)(?:的话)?(?:就|再)?退"
    r"|能换吗[？?，,\s]*(?:不能|不行)(?:的话)?(?:就|再)?退"
    r"|换个新的?(?:吧)?[，,\s]*(?:不行|换不了|没有)的话|(?:换|补发)不了的话"
)
"""Words wanting a replacement first, a refund only if that cannot be done."""
_NO_REPLACEMENT = rx(
    r"\b(?:don'?t|do not|dont)\s+(?:want|need)\s+(?:a\s+|another\s+)?"
    r"(?:replacement|new one|exchange)"
    r"|(?:^|[,.;!]\s*)no\s+(?:replacement|exchange)\b|换过了|已经换过|不要换|不想换|别给我换|不用换"
)
"""A replacement refused or already had: the refund asked beside it is the refund."""


def replacement_first(text: str, found: Sequence[MatchedIntent]) -> list[MatchedIntent]:
    """``found`` with each refund of a message wanting a replacement first read as the
    after-sales ticket of its order (asked before it is filed)."""
    if not REPLACEMENT_FIRST.search(text) or _NO_REPLACEMENT.search(text):
        return list(found)
    ticketed = any(m.capability == "create_ticket" for m in found)
    out: list[MatchedIntent] = []
    for match in found:
        if match.intent is Intent.PACK and match.capability == "refund":
            if ticketed:
                continue  # the ticket asked beside it is the one
            ticket = dataclasses.replace(
                match,
                capability="create_ticket",
                amount=None,
                amount_kind="none",
                amount_raw="",
                details="",
                args={**match.args, ASK_FIRST: True, TICKET_MESSAGE: text},
            )
            ticketed = True
            out.append(ticket)
            continue
        out.append(match)
    return out
