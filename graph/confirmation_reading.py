"""How a message answers the yes/no question the bot asked (the only reader of a yes).

:func:`read_confirmation` tells an unqualified yes (:attr:`Intent.CONFIRM_YES`, the only thing
that runs an action) from a no, a change ("yes but only 100"), a correction ("不对，我是说100904"),
a hedge ("yes?") and a new request; packs' words reach it as :class:`ConfirmationWords`."""

from __future__ import annotations

import dataclasses
import re

from helpdesk.graph.amount_answers import (
    amount_for_another_action,
    amount_instead,
    corrected_amount,
    limited_yes,
    relative_amount_refused,
    takes_amount,
)
from helpdesk.graph.answer_changes import changed_amount as _changed_amount
from helpdesk.graph.answer_changes import corrected_subject as _corrected_subject
from helpdesk.graph.answer_changes import without as _without
from helpdesk.graph.asides import without_asides
from helpdesk.graph.asking import ASKS, asks_for_something
from helpdesk.graph.confirmation_words import ConfirmationWords
from helpdesk.graph.conversation import (
    AFTER_ALL,
    BUT,
    CORRECTION,
    EMOJI,
    NO_ANY,
    NO_WHOLE,
    NOT_ALL,
    QUESTION_MARK,
    STRIP,
    THANKS,
    WAIT,
    YES_ONLY,
    YES_START,
    bare,
    rx,
)
from helpdesk.graph.language import Lang
from helpdesk.graph.money import read_amount
from helpdesk.graph.named_answers import (
    ADDED,
    ALL_OF_THEM,
    CONFIRMATION_UNDONE,
    ONLY,
    ONLY_THE_VERB,
    meant_amount,
    mixed_answer,
    refused_subject,
    yes_to_each_named,
    yes_to_named,
)
from helpdesk.graph.put_off import puts_off
from helpdesk.graph.request import Intent, MatchedIntent
from helpdesk.tools.packs import PackSet

__all__ = ["ONLY", "RESTATED", "ConfirmationWords", "read_confirmation"]


_NOT_THIS = rx(
    r"(?:\bnot|\bexcept(?: for)?|\bbut not|\bleave|\bkeep|\bdon'?t (?:touch|cancel|refund)"
    r"|不是|别|不要|除了|保留)\s*(?:(?:the |my )?order\s*)?(?:#|no\.?\s*)?$"
)
_NOT_FIRST = rx(r"^\W*(?:but\s+)?not\b")
_NOTED = rx(
    r"^(?:ok|okay|k|kk|alright|all right|got it|i see|noted"
    r"|好的|好|嗯+|哦+|ok的|好吧|知道了|明白了?|行|行吧|成|收到)$"
)
"""An acknowledgement that, with a thank-you, closes a topic rather than saying yes ("ok thanks"
to "shall I cancel 100904?" may be "noted, thanks": asked again, never run)."""


_BOTH = rx(
    r"^(?:(?:yes|yeah|yep|ok|okay|sure|please|是的?|好的?|对|确认|可以|嗯+)[\s,，]*)?"
    r"(?:both|both of them|to both|yes to both|do both|两个都(?:要|取消|退|确认|可以)?"
    r"|都要|都可以|都确认|两个都要)(?:[\s,，]*(?:please|pls|thanks|谢谢|吧))?$"
)
"""A yes to every waiting action ("yes both", "两个都要")."""
_RESTATED = rx(
    r"(?:(?:please|pls|just|go ahead and|refund|退款|退|给我|make it|that'?s|it'?s)\s*)*"
    r"(?:the\s+|me\s+)?[¥￥]?\s*\d+(?:\.\d{1,2})?\s*(?:yuan|元|块钱|块|rmb|kuai)?"
    r"(?:\s*(?:please|pls|吧|就行|thanks|thank you|谢谢))?"
)
"""An amount said again with a yes and nothing else ("yes, refund the 50", "对，退50吧")."""
RESTATED = "restated"
""":attr:`MatchedIntent.details` of a :attr:`Intent.CONFIRM_CHANGE` that only says the amount
again."""
_ABORT = rx(r"\b(?:cancel|scrap|forget|drop) (?:that|this|it|all that)\b|\bcall it off\b")
"""Words calling off what was asked ("wait, cancel that"), whatever it was: a plain no, not a
no to a cancel."""
# "cancel this", "取消了", "取消掉": also a way of saying no to the question (never a yes)
_A_REFUSAL_TOO = rx(r"\bcancel|取消|\bstop\b|\bforget\b|\bdrop\b|算了")
_HESITANT = re.compile(r"(?:…|\.{2,}|。{2,}|、{2,}|～|~)\s*[!?！？]*\s*$")
"""A message trailing off ("嗯……", "yes...", "好吧。。。"): a thought not finished."""
_HEDGE = rx(
    r"^(?:h+m+|e+m+|u+m+|u+h+m*|er+m*|mm+|hm+|well|maybe|perhaps|not sure|i guess|let me think"
    r"|呃+|额+|这个嘛?|那个|让我想想|我想想|再想想|我再想想|考虑一下|我考虑一下|不确定|可能吧?|也许吧?)$"
)
"""Words that are no answer yet ("hmm", "maybe", "我再想想")."""
_MONEY_SAID = rx(
    r"[¥￥%]|元|块|钱|退|\b(?:yuan|rmb|kuai|bucks|refund\w*|money|percent|half|quarter|third)\b"
    r"|一半|分之|成"
)
"""Words about money: a number said without them counts things ("两个包裹"), not yuan."""


_THUMBS = re.compile("([\U0001f44d\U0001f44e])[\U0001f3fb-\U0001f3ff\ufe0f]*")


def _thumb_said(found: re.Match[str]) -> str:
    return " yes " if found.group(1) == "\U0001f44d" else " no "


def read_confirmation(
    text: str, norm: str, lang: Lang, packs: PackSet, words: ConfirmationWords
) -> MatchedIntent | None:
    """How a message answers the yes/no question the bot asked; None when it is a new request.

    Only an unqualified yes is :attr:`Intent.CONFIRM_YES`. A yes with a change ("yes but only
    100"), a correction ("不对，我是说100904") or a hedge/question ("yes?") never runs anything.
    """
    text, norm = without_asides(text), without_asides(norm)  # "do it, or I'll complain"
    if _THUMBS.search(norm) and len(set(words.named_actions(bare(norm)))) >= 2:
        # "refund 👍 cancel 👎": a thumb beside each action named is its yes or its no
        text, norm = _THUMBS.sub(_thumb_said, text), _THUMBS.sub(_thumb_said, norm)
    fixed = None if words.identifiers(norm) else corrected_amount(bare(norm), words.waiting, packs)
    answer = (
        _changed_amount(text.strip(), lang, fixed)
        if fixed
        else _read(text, norm, lang, packs, words)
    )
    if (
        answer is not None
        and answer.intent is Intent.CONFIRM_CHANGE
        and answer.amount_kind != "none"
        and amount_for_another_action(bare(norm), words.named_action, words.waiting, packs)
    ):
        return None  # "just refund 300 instead" to the cancel question: a refund asked
    if (
        answer is not None
        and answer.intent is Intent.CONFIRM_CHANGE
        and answer.amount_kind in ("exact", "full")
    ):
        # "-50": the sign the reading's words lost says it is no amount to pay (asked); "不对，
        # 空气炸锅留着，剩下的全退": all but a thing kept, never the whole
        whole = read_amount(text.strip(), money_context=True, packs=packs)
        return _changed_amount(answer.text, lang, whole) if whole.kind == "invalid" else answer
    return answer


def _another_action_named(plain: str, words: ConfirmationWords) -> bool:
    """Whether the words name an action none of the waiting ones is ("取消" to a refund)."""
    waiting = " ".join(words.waiting)
    return any(action not in waiting for action in words.named_actions(plain))


def _read(
    text: str, norm: str, lang: Lang, packs: PackSet, words: ConfirmationWords
) -> MatchedIntent | None:
    plain = bare(norm)
    stripped = text.strip()
    questioning = bool(QUESTION_MARK.search(stripped))
    if THANKS.search(norm) and _NOTED.match(plain):
        return MatchedIntent(Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang, details="noted")
    if _HESITANT.search(stripped) or _HEDGE.match(plain):
        # "嗯……", "ok...", "hmm", "emmm": the customer is still thinking — asked again, never run
        return MatchedIntent(Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang, details="hesitant")
    verb_alone = words.named_action(plain) if ONLY_THE_VERB.match(plain) else None
    if CONFIRMATION_UNDONE.match(plain) or (
        verb_alone and NO_WHOLE.match(plain) and [verb_alone in w for w in words.waiting] == [True]
    ):
        # "cancel it" / "取消吧" to "shall I cancel 100904?", "取消确认": a yes to the cancel or a
        # no to the question — the words do not say which: asked again, never run, never dropped
        # (beside another waiting action it stays a no to both)
        return MatchedIntent(Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang)
    if (
        verb_alone
        and not NO_WHOLE.match(plain)
        and not questioning
        and [verb_alone in w for w in words.waiting] == [True]
        and not takes_amount(words.waiting, packs)
        and not _A_REFUSAL_TOO.search(plain)
    ):
        # "帮我开个工单吧", "open a ticket for it" to "shall I file a ticket?": the action asked
        # about, named alone — a yes to it (one with an amount, "退吧", is asked again with it)
        return MatchedIntent(Intent.CONFIRM_YES, text=stripped, lang=lang, details=verb_alone)
    if len(words.waiting) <= 1 and puts_off(plain):
        # "yes 50 but dont refund yet", "好，先别退": not now — nothing runs, nothing stays
        # waiting for a later "yes"
        return MatchedIntent(Intent.CONFIRM_NO, text=stripped, lang=lang)
    if (limit := limited_yes(plain, words.waiting, packs)) is not None:
        return _changed_amount(stripped, lang, limit)  # "yes, but keep 100": how much is asked
    if not plain and EMOJI.search(norm):
        # "👍" to "shall I cancel 100998?": likely a yes, never one to act on — asked again
        return MatchedIntent(intent=Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang)
    every = words.named_action(plain) if ALL_OF_THEM.match(plain) and not questioning else ""
    if len(words.waiting) >= 2 and every and all(every in w for w in words.waiting):
        # "都取消" to two cancels: a yes to each (to two refunds it is read below, a no; to one
        # action "全部退了吧" may say how much)
        return MatchedIntent(intent=Intent.CONFIRM_YES, text=stripped, lang=lang)
    if _BOTH.match(plain) and not questioning:
        # "yes both", "两个都要": a yes to every waiting action — when more than one waits (to one
        # refund, "both" answers nothing asked: asked again)
        several = len(words.waiting) >= 2
        verb = words.named_action(plain) or words.named_action(norm)
        # "两个都取消" to two refunds: the verb must be every waiting action's ("两个都退" to two
        # cancels runs nothing)
        fits = not verb or all(verb in waiting for waiting in words.waiting)
        intent = Intent.CONFIRM_YES if several and fits else Intent.CONFIRM_UNCLEAR
        return MatchedIntent(intent=intent, text=stripped, lang=lang)
    naming = (words.named_action, words.named_actions, words.waiting)
    if not questioning and not words.subjects(norm) and yes_to_each_named(plain, *naming):
        return MatchedIntent(Intent.CONFIRM_YES, text=stripped, lang=lang)  # "退款确认，取消也确认"
    one_named = "" if questioning else yes_to_named(plain, *naming)
    if not one_named and (mixed := mixed_answer(plain, *naming)):  # "refund ok, cancel wait"
        return MatchedIntent(mixed, text=stripped, lang=lang)
    if one_named and not words.subjects(norm):
        # "yes to the refund", "refund yes", "退款那个确认" while a refund and a cancel wait: a
        # yes to the one named — it runs only an action of that kind (never a new request on
        # whatever order was talked about last)
        return MatchedIntent(Intent.CONFIRM_YES, text=stripped, lang=lang, details=one_named)
    if YES_ONLY.match(plain) and not questioning:
        # "确认退款" names the action it confirms: it runs only an action of that kind
        verb = words.named_action(plain) or words.named_action(norm)
        return MatchedIntent(intent=Intent.CONFIRM_YES, text=stripped, lang=lang, details=verb)
    subjects = words.subjects(norm)
    spared = [s for s in subjects if _NOT_THIS.search(norm[: norm.find(s.lower())])]
    if subjects and YES_START.match(plain) and spared:
        # "yes but not 100998": a subject named as not meant is never the one the answer moves
        # a pending action to — the actions on it are dropped, the others asked again
        return MatchedIntent(
            Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang, details=f"not:{spared[0]}"
        )
    if (
        subjects
        and YES_START.match(plain)
        and ONLY.search(plain)
        and len(subjects) == 1
        and read_amount(plain, money_context=True, packs=packs).kind == "none"
    ):
        # "yes only 100904": the actions on 100904 are asked again, the others dropped
        return MatchedIntent(
            Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang, details=f"only:{subjects[0]}"
        )
    negative = bool(NO_WHOLE.match(plain) or NO_ANY.search(plain)) and not AFTER_ALL.search(plain)
    yes = YES_START.match(plain)
    verb = words.named_action(plain)
    one_kind = len(set(words.named_actions(plain))) <= 1  # "no don't refund, just cancel": two
    names_one = bool(verb and one_kind and not subjects and len(plain) <= 30)
    # several actions wait: "only the cancel" / "只要取消" keeps that one (asked again, the
    # others dropped), "取消那个不用了" / "don't refund" drops that one (the others asked again);
    # neither runs anything. An amount said is a change ("不要全部，退50就行").
    if (
        names_one
        and not NO_WHOLE.match(plain)
        and not NOT_ALL.search(plain)
        and read_amount(plain, money_context=True, packs=packs).kind == "none"
    ):
        if ONLY.search(plain) and words.names_thing(plain):
            # "只退手机" to "refund the monitor?": another thing, a request of its own
            return None
        if ONLY.search(plain):  # "no, only the ticket": the no is to the others
            return MatchedIntent(Intent.CONFIRM_UNCLEAR, stripped, lang, details=f"only:{verb}")
        if NO_ANY.search(plain) and not _ABORT.search(plain):
            return MatchedIntent(Intent.CONFIRM_NO, stripped, lang, details=f"not:{verb}")
    if NOT_ALL.search(plain) and not subjects:
        # "不要全部，退50就行" / "not all of it, just 50": the amount changes, asked again
        partial = read_amount(plain, money_context=True, packs=packs)
        if partial.kind != "none":
            return _changed_amount(stripped, lang, partial)
    if relative_amount_refused(plain, negative=negative):
        return MatchedIntent(Intent.CONFIRM_NO, text=stripped, lang=lang)  # "不，少退200"
    instead = amount_instead(plain, packs=packs)
    if instead and not (subjects or questioning) and takes_amount(words.waiting, packs):
        # "no, just 200", "算了，退200就行": the pending refund's amount changed (asked again)
        return _changed_amount(stripped, lang, instead)
    if negative and ASKS.search(plain) and not NO_ANY.search(WAIT.sub(" ", plain)):
        if ONLY.search(plain) and words.names_thing(plain):
            return None  # "wait why is it 797? I only want the thermos money back": a request
        # "wait, which order is that?": a question before answering, not a no — asked again
        return MatchedIntent(intent=Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang)
    alone = not (negative or subjects or words.identifiers(norm)) and len(plain) <= 40
    if yes is None and alone and takes_amount(words.waiting, packs):
        # "actually make it 200", "全退": the pending refund's amount changed with no yes (asked
        # again at the new amount, never run as it stands; "refund the rest" to a ticket: new)
        new_amount = meant_amount(plain, packs=packs, subjects=())
        counted_only = new_amount.kind == "invalid" and not _MONEY_SAID.search(plain)
        if new_amount.kind != "none" and not questioning and not counted_only:
            # ("另外键盘那单分了两个包裹，帮我看看都到哪了": things counted, no money — a
            # request of its own)
            return _changed_amount(stripped, lang, new_amount)
    if (
        negative
        and not subjects
        and not NO_WHOLE.match(plain)
        and read_amount(plain, money_context=True, packs=packs).kind == "full"
        and not NOT_ALL.search(plain)
    ):
        # "refund half?" -> "no, the whole thing" / "不，全退": the amount changes to all that is
        # refundable (asked again, never run as it stands)
        return _changed_amount(stripped, lang, read_amount(plain, money_context=True, packs=packs))
    several = len(words.waiting) >= 2
    said_not = negative or bool(_NOT_FIRST.match(plain))
    refused = refused_subject(norm, subjects) if several and said_not and not yes else None
    if refused is not None:
        # "100998不要取消", "don't cancel 100998", "100998 no" while cancels of 100998 and 100904
        # wait: the actions on 100998 are dropped, the others asked again, nothing run (never
        # a correction *to* 100998)
        return MatchedIntent(
            Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang, details=f"not:{refused}"
        )
    if negative and not (yes and not NO_ANY.match(plain)):
        if subjects and (CORRECTION.search(norm) or len(bare(_without(norm, subjects))) <= 12):
            # "sorry I meant 100609, full refund", "不对，100609 全退": the amount said with the
            # corrected subject goes along (never the old one's part)
            return _corrected_subject(stripped, norm, lang, words.subject, subjects[0], packs)
        if not words.identifiers(norm) and len(plain) <= 40:
            return MatchedIntent(intent=Intent.CONFIRM_NO, text=stripped, lang=lang)
        return None
    if yes is None:
        if subjects and _another_action_named(plain, words):
            # "改成400吧。另外把100904取消了" to a refund of 100609: 100904 is the cancel's, never
            # the order the waiting refund moves to
            return None
        if subjects and CORRECTION.search(norm):
            # "100200改成50吧" while refunds of 100609 and 100200 wait: that order's amount
            corrected = read_amount(bare(_without(norm, subjects)), money_context=True, packs=packs)
            if corrected.kind in ("exact", "invalid") and len(subjects) == 1:
                changed = _changed_amount(stripped, lang, corrected)
                return (
                    changed.with_request({words.subject: subjects[0]}) if words.subject else changed
                )
            return _corrected_subject(stripped, norm, lang, words.subject, subjects[0], packs)
        return None
    rest = BUT.sub("", plain[yes.end() :].strip(STRIP)).strip(STRIP)
    if (
        len(words.waiting) >= 2
        and _POLITE.sub(" ", rest).strip(STRIP)
        and not subjects
        and not words.named_action(rest)
        and read_amount(rest, money_context=True, packs=packs).kind == "none"
    ):
        # "yes, but only the paid one", "是，空气炸锅那单不用" to two questions: which one, the
        # words do not say checkably — nothing runs and nothing stays waiting
        return MatchedIntent(Intent.CONFIRM_NO, text=stripped, lang=lang)
    # "yes, refund the 50": beside the action's own verb a bare number is its amount
    in_money = bool(rest and words.named_action(rest))
    named = meant_amount(rest, packs=packs, subjects=(), money_context=in_money) if rest else None
    named = None if subjects else named
    if (
        named is not None
        and named.kind == "exact"
        and not questioning
        and _RESTATED.fullmatch(rest.strip(STRIP))
    ):
        # "yes, refund the 50": the amount said again and nothing else (planning runs the
        # waiting action when it was asked with that amount; otherwise it is a change)
        return dataclasses.replace(_changed_amount(stripped, lang, named), details=RESTATED)
    if named is not None and named.kind in ("exact", "invalid"):
        # "yes but make it 30", "yes, refund 30 instead": an amount in so many words changes the
        # pending one (asked again); a request verb beside it ("make it", "refund") is not a new
        # request — with no identifier there is nothing else it could be about
        return _changed_amount(stripped, lang, named)
    if (
        rest
        and len(rest) <= 32
        and not subjects
        and (verb := words.named_action(rest))
        and ONLY_THE_VERB.match(rest)
        and any(verb in waiting for waiting in words.waiting)
    ):
        # "好，取消" / "ok, cancel it" to "shall I cancel 100933?": a yes naming the action —
        # it runs only an action of that kind (a waiting refund is asked about again)
        return MatchedIntent(Intent.CONFIRM_YES, text=stripped, lang=lang, details=verb)
    if rest and words.is_request(rest):
        return None  # "对，退款吧": a new request; what was pending is not done
    if rest and asks_for_something(rest) and not CORRECTION.search(norm):
        # "yes, and also add a gift message to 100904": a request of its own, not a change of
        # the pending one (its order is not the pending action's); what was pending is not done
        return None
    reading = meant_amount(rest, packs=packs, subjects=subjects)  # not "home after 6"
    asks_more = QUESTION_MARK.sub("", rest).strip(STRIP)
    if asks_more and reading.kind == "none" and questioning and not CORRECTION.search(norm):
        return None  # "yes, and where is 100683?": a new question; what was pending is not done
    if subjects and ADDED.match(plain[yes.end() :]) and not CORRECTION.search(norm):
        return None  # "yes and the thermos from 100200 is great": more said, not a change
    if reading.kind != "none" or subjects:
        changed = _changed_amount(stripped, lang, reading)
        return changed.with_request({words.subject: subjects[0]}) if subjects else changed
    return MatchedIntent(intent=Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang)


_POLITE = rx(
    r"\b(?:please|pls|plz|thanks|thank you|thx|go ahead|do it|sure|ok(?:ay)?|great|cool|both"
    r"|all|all of them|both of them)\b|谢谢|好的|麻烦了|辛苦了|都|全部|两个都"
)
