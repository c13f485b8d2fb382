"""A refund or cancel named in words that do not ask for it: meant once and let go ("I was going
to ask to refund 100200 but nah", "之前想退100200，现在不用了"), said by mistake, taken back
after it ("refund 100200 — wait, nope", "取消100998 逗你的"), refused with a typo or in the other
language ("dnt refund 100200", "不要refund 100200"), thought about ("I'm considering a refund on
100200") or asked about ("refunded 100200 already?").

Each of these was offered as the action, and one hurried yes ran it. Read here, they are a no
(nothing is offered) or a look at the order (its refunds and what is refundable are shown, with
how to ask) — never a write waiting for a yes.
"""

from __future__ import annotations

from typing import Literal

from helpdesk.graph.conversation import rx

__all__ = ["not_asked_for"]

_VERB = r"(?:re?fu?n?d\w*|rfnd\w*|cancel+\w*|cancle\w*)"
_ZH_VERB = r"(?:退款|退钱|退|取消)"

# the action meant before and let go, or wished for under a condition that does not hold
_MEANT_ONCE = rx(
    r"\b(?:was|were) (?:going to|gonna|about to)\s+(?:\w+\s+){0,3}"
    + _VERB
    + r"|\bthought (?:about|of)\s+(?:\w+\s+){0,2}"
    + _VERB
    + r"|\bused to want to\s+"
    + _VERB
    + r"|\bno longer (?:need|want) to\s+"
    + _VERB
    + r"|\bi'?d "
    + _VERB
    + r"\b[^.?!]{0,40}\bif (?:it|they|that) (?:were|was|had)\b"
    + r"|(?:之前|上周|昨天|前几天|本来|原来|原本|当时|刚才)(?:是)?(?:想|打算|准备)(?:要)?"
    + _ZH_VERB
    + r"|"
    + _ZH_VERB
    + r"[^，。,.!?！？]{0,12}的(?:念头|想法)"
)
# the action said, then taken back in the words right after it
_TAKEN_BACK_AFTER = rx(
    r"\b(?:said|typed|wrote|asked|sent|pressed|clicked)\b[^.?!]{0,30}\bby mistake\b"
    r"|\bnot anymore\b|\bis not what i want\b|\bisn'?t what i want\b"
    r"|\bwould be (?:dumb|stupid|silly|a mistake)\b"
    r"|\bon second thought,? (?:don'?t|do not|no|nah|never ?mind)\b"
    r"|\b(?:wait|hmm|actually),? (?:nope|nah|no)\W*$|\bbut nah\b|\bnah\W*$|\bno need\W*$"
    r"|现在不用了|现在不想了|现在不要了|现在不需要了|逗你的|开玩笑的?|开个玩笑"
    # ("不要了" alone is the thing not wanted any more: why it is cancelled)
    r"|^[\s,.!?~，。！？、]*(?:不要|不用|不需要)[\s,.!?~，。！？、]*$"
    r"|^[\s,.!?~，。！？、]*(?:不用|不需要)了[\s,.!?~，。！？、]*$"
    r"|^[\s,.!?~，。！？、]*[?？]\s*(?:不要|不用)了?[\s,.!?~，。！？、]*$"
)
# refused with a typo, or in the other language
_REFUSED = rx(
    r"\b(?:dnt|dont|don'?t|do not|pls don'?t)\s+"
    + _VERB
    + r"|(?:不要|别|不用|不需要|先别)\s*(?:refund|cancel)"
)
# thought about, or asked whether it happened: the order is looked at
_ONLY_THOUGHT = rx(
    r"\b(?:i'?m |i am )?(?:considering|thinking (?:about|of)|weighing)\s+(?:a |an |the )?"
    + _VERB
    + r"|^\W*(?:was (?:it|that|\d{6}) )?(?:refunded|cancell?ed)\b[^.!]{0,30}\b(?:already|yet)\b"
)


# the action asked for after all ("I was about to cancel 100904, please do it now")
_ASKED_AFTER_ALL = rx(
    r"\b(?:please|pls|so)\b[^.?!]{0,24}\b(?:do it|do that|cancel|refund|go ahead|proceed)\b"
    r"|\b(?:do it|go ahead)(?: now)?\b|请|麻烦|帮我|还是(?:要|退|取消)"
)


def not_asked_for(before: str, own: str, after: str) -> Literal["no", "look"] | None:
    """How a refund or cancel read in ``own`` (normalized, lower-case) is meant, given the
    words of the message before it and after it: ``"no"`` (not asked for), ``"look"`` (thought
    about or asked about: the order is shown) or None (asked for)."""
    if _ASKED_AFTER_ALL.search(f"{own} {after}"):
        return None
    if _ONLY_THOUGHT.search(own):
        return "look"
    if _REFUSED.search(own) or _MEANT_ONCE.search(f"{before[-30:]} {own}"):
        return "no"
    if _TAKEN_BACK_AFTER.search(after) or _TAKEN_BACK_AFTER.search(own):
        return "no"
    return None
