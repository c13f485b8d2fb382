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

from helpdesk.graph.conversation import blank, rx

__all__ = ["DEMANDED_OR_ELSE", "not_asked_for"]

_VERB = r"(?:re?fu?n?d\w*|rfnd\w*|cancel+\w*|cancle\w*)"
_ZH_VERB = r"(?:退款|退钱|退|取消)"

# the action meant before and let go, or wished for under a condition that does not hold
# (the words between never "but", "so", "then": "I was gonna keep it but refund 100200")
_BETWEEN = r"(?:(?!but\b|so\b|then\b|and\b|now\b)\w+\s+)"
_MEANT_ONCE = rx(
    r"\b(?:was|were) (?:going to|gonna|about to)\s+"
    + _BETWEEN
    + r"{0,3}"
    + _VERB
    + r"|\bthought (?:about|of)\s+"
    + _BETWEEN
    + r"{0,2}"
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
# the action taken back as a joke: whatever else is said
_JOKING = rx(
    r"逗你的|骗你的|(?<!不是)(?<!没)(?<!没有)(?<!不)开(?:个)?玩笑(?:的|呢|啦)?(?![^，。,.]{0,3}吗)"
)
# the action said, then taken back in the words right after it
_TAKEN_BACK_AFTER = rx(
    r"\b(?:said|typed|wrote|asked|sent|pressed|clicked)\b[^.?!]{0,30}\bby mistake\b"
    r"|\bon second thought,? (?:don'?t|do not|no|nah|never ?mind)\b"
    r"|\b(?:wait|hmm|actually),? (?:nope|nah|no)\W*$|\bbut nah\b|\bnah\W*$|^\W*no need\W*$"
    r"|现在不用了|现在不想了|现在不要了|现在不需要了"
    # "I told my husband I'd refund 100200 but I changed my mind", "my mom said to cancel
    # 100904, but I want to keep it"
    # (not "… but I changed my mind, refund 100200": the action said after it is asked for)
    r"|\bbut (?:i'?ve |i have |i )?(?:changed|change) my mind\b(?![^.!?]{0,40}" + _VERB + r")"
    r"|(?:但是?|不过|可是)(?:我)?(?:后来)?(?:改主意了|改变主意了)"
    r"(?![^。!?！？]{0,20}" + _ZH_VERB + r")"
    # ("不要了" alone is the thing not wanted any more: why it is cancelled)
    r"|^[\s,.!?~，。！？、]*(?:不要|不用|不需要)[\s,.!?~，。！？、]*$"
    r"|^[\s,.!?~，。！？、]*(?:不用|不需要)了[\s,.!?~，。！？、]*$"
    r"|^[\s,.!?~，。！？、]*[?？]\s*(?:不要|不用)了?[\s,.!?~，。！？、]*$"
)
# the action itself said not to be wanted, in its own clause ("cancel 100998 is not what I
# want"; "cancel 100998, the monitor is not what I want" is why it is cancelled)
_TAKEN_BACK_OWN = rx(
    r"\b" + _VERB + r"\w*\s+(?:order\s+)?#?\d{6}\s+(?:is not|isn'?t) what i want\b"
    r"|\b" + _VERB + r"\w*\s+(?:order\s+)?#?\d{6}\s+would be (?:dumb|stupid|silly|a mistake)\b"
    r"|(?:退款|退|refund|cancel|取消)\s+no need\W*$"
)
# refused with a typo, or in the other language
_REFUSED = rx(
    r"\b(?:dnt|dont|don'?t|do not|pls don'?t)\s+"
    + _VERB
    # "don't you dare refund 100200", "I never said cancel", "can you not cancel 100998"
    + r"|\bdon'?t you (?:dare|even)\s+(?:\w+\s+)?"
    + _VERB
    + r"|\b(?:never|didn'?t|did not) (?:say|said|mention|mentioned)\s+"
    + r"(?:to\s+|a\s+|anything about\s+)?"
    + _VERB
    + r"|\b(?:can|could|would) (?:you|u) (?:please |pls )?not\s+"
    + _VERB
    + r"|(?:不要|别|不用|不需要|先别)\s*(?:refund|cancel)"
    # "stop processing my refund for 100200", "不要处理100200的退款", "我不要100200的退款"
    + r"|\b(?:stop|halt|pause|forget about|hold off on|no need to|don'?t|do not)\s+"
    r"(?:processing|issuing|handling|process|issue|handle)\s+(?:the\s+|my\s+|this\s+|that\s+)?"
    r"(?:\w+\s+)?"
    + _VERB
    + r"|(?:不要|别|不用|不需要|先不要|先别|不必|没必要)(?:帮我|给我)?(?:处理|办理|申请|提交|操作)"
    r"[^，。,.!?！？\s]{0,10}?(?:退款|退钱|取消)"
    r"|我(?:不要|不需要)(?!了)[^，。,.!?！？\s]{1,10}?的(?:退款|退钱)"
    # "不要保温杯退100", "别把空气炸锅退了": that thing's refund refused (never "不要全退 退300")
     + r"|^\W*(?:不要|别|不用|不需要|先别)(?!了|全|都|整|太|这么|那么)(?:把)?"
    r"[\u4e00-\u9fff]{2,8}?退(?!货)"
)
# thought about, or asked whether it happened: the order is looked at
_ONLY_THOUGHT = rx(
    r"\b(?:i'?m |i am )?(?:considering|thinking (?:about|of)|weighing)\s+(?:a |an |the )?"
    + _VERB
    + r"|^\W*(?:was (?:it|that|\d{6}) )?(?:refunded|cancell?ed)\b[^.!]{0,30}\b(?:already|yet)\b"
)


# the thing said to be kept after all: "my mom said to cancel 100904, but I want to keep it"
_KEPT_AFTER_ALL = rx(
    r"\bbut i (?:want|wanna|'?d like|would like|prefer|'?d prefer|'?ll|will) (?:to )?keep "
    r"(?:it|them)\b(?! too)|(?:但是?|不过|可是)我(?:还是)?(?:想|要)?留着(?![\u4e00-\u9fff\d])"
)
# whether to do it, asked ("我要取消100998吗？", "should I cancel 100904?"): the order is shown
_WHETHER_TO = rx(
    r"^\W*我(?:要|该|需要|得|应该)(?:不要)?" + _ZH_VERB + r"[^，。,.!?！？]{0,12}(?:吗|么|嘛)\W*$"
    r"|^\W*should (?:i|we) (?:just )?" + _VERB + r"\b[^.!]{0,30}\?\W*$"
)
# not sure it is wanted: "I don't know if I want to cancel 100904", "not sure whether to refund
# 100200", "还没想好要不要退" (its own "I want to" asks for nothing)
_UNSURE = rx(
    r"\b(?:(?:don'?t|do not) know|dunno|not sure|unsure) (?:if|whether) (?:(?:i|we) )?"
    r"(?:(?:really )?(?:want|need|should) )?(?:to )?(?:\w+ )?"
    + _VERB
    + r"|(?:不知道|没想好|还没想好|拿不定主意|犹豫)(?:要不要|该不该|是不是要)"
    + _ZH_VERB
)
# the action asked for after all ("I was about to cancel 100904, please do it now", "刚才想取消
# 100998，现在确定了，取消吧", "I've thought about a refund and I want one for 100200")
_ASKED_AFTER_ALL = rx(
    r"\b(?:please|pls|so)\b[^.?!]{0,24}\b(?:do it|do that|cancel|refund|go ahead|proceed)\b"
    r"|\b(?:do it|go ahead)(?: now)?\b|\bi (?:want|need) (?:one|it|a refund|to)\b|\bi'?d like\b"
    r"|请|麻烦|帮我|还是(?:要|退|取消)|确定|决定了|取消吧|退吧"
)
_BOTH_VERBS = (rx(r"\brefund|退"), rx(r"\bcancel|取消"))
# the action is the second half of a question that opens before it: "can I refuse it at the
# door and get my money back?", "could I return it and get a refund?"
_QUESTION_OPENED = rx(
    r"\b(?:can|could|may|do|should|would|will|shall) (?:i|we)\b[^.?!]{0,60}"
    r"(?:\band|&)\s*(?:then\s*)?(?:just\s*)?$"
)
_QUESTION_CLOSED = rx(r"^[^.!。！]*[?？]")


_THREAT_EN = (
    r"(?:i'?ll|i will|i'?m going to|i'?m gonna|we'?ll|we will)\s+(?:\w+\s+)?"
    r"(?:sue|report|complain|dispute|call|file|contact|go to|take|leave|post|write|never|charge)"
)
_THREAT_ZH = (
    r"我?(?:就|会)?(?:去|要)?(?:投诉|起诉|告|报警|打12315|找12315|12315|曝光|差评|找消协|找律师)"
)
DEMANDED_OR_ELSE = rx(
    r"(?:^|[.,;!?，。；！？]\s*)\W*(?:and |so )?if (?:you |u )?(?:guys )?"
    r"(?:don'?t|do not|won'?t|will not|refuse to|fail to)"
    r" (?:(?P<cancel>cancel)|refund)\b[^.!?]{0,40}?\b" + _THREAT_EN + r"\b"
    r"|(?:^|[.,;!?，。；！？]\s*)\W*(?:#?\d{6}\s*)?(?:你们)?(?:再|要是|如果)?(?:不|不给我|不帮我)(?:(?P<cancel_zh>取消)|退款|退钱|退)"
    r"[^，。!?！？]{0,10}?(?:的话)?[，,\s]*" + _THREAT_ZH
)
"""A write demanded under a threat ("if you don't refund 100609 I will sue you", "不给我退款
我就投诉"): the write asked for, never a refusal of it."""


def not_asked_for(before: str, own: str, after: str) -> Literal["no", "look", "asked_about"] | None:
    """How a refund or cancel read in ``own`` (normalized, lower-case) is meant, given the
    words of the message before it and after it: ``"no"`` (not asked for), ``"look"`` (thought
    about or asked about: the order is shown), ``"asked_about"`` (the second half of a question
    that opens before it: whether it can be done, the policy) or None (asked for)."""
    if DEMANDED_OR_ELSE.search(f"{before} {own} {after}".strip()):
        return None  # "if you don't refund 100609 I will sue you": demanded
    if _QUESTION_OPENED.search(before) and _QUESTION_CLOSED.search(f"{own} {after}"):
        return "asked_about"
    # ("不用cancel 直接refund 100200": one action refused, the other asked for)
    two_actions = all(verb.search(own) for verb in _BOTH_VERBS)
    if (_REFUSED.search(own) and not two_actions) or _JOKING.search(f"{own} {after}"):
        return "no"  # ("pls dnt refund 100200", "帮我取消100998 逗你的")
    if _WHETHER_TO.search(own):
        return "look"
    if _KEPT_AFTER_ALL.search(f"{own} {after}") and not _BOTH_VERBS[0].search(after):
        return "no"
    unsure = _UNSURE.search(own)
    if unsure and not _ASKED_AFTER_ALL.search(f"{blank(own, _UNSURE)} {after}"):
        return "look"  # (the order is shown: its state, what a cancel or refund would do)
    if _ASKED_AFTER_ALL.search(f"{own} {after}"):
        return None
    if _ONLY_THOUGHT.search(own):
        return "look"
    said = f"{before[-30:]} {own}"
    meant = _MEANT_ONCE.search(said)
    if meant and not rx(_VERB + "|" + _ZH_VERB).search(f"{said[meant.end() :]} {after}"):
        # (the verb said again after it is asked for: "之前想退款 … 现在又坏了，退100200")
        return "no"
    if any(_TAKEN_BACK_AFTER.search(words) for words in (own, after)) or _TAKEN_BACK_OWN.search(
        own
    ):
        return "no"
    return None
