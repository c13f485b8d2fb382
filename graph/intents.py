"""What a customer asked for, domain-free: the request record and the offline reading of a message.

:class:`MatchedIntent` is one request of a message: a conversation intent the engine answers
itself (greeting, thanks, goodbye, a question about the bot, the hotline, a language change), an
answer to the yes/no question the bot asked (:attr:`Intent.CONFIRM_YES` ...), or a request served
by a loaded pack's capability (:attr:`Intent.PACK`, with the capability's name and the request's
fields in :attr:`MatchedIntent.args`).

:func:`match_intents` reads a message with the template matcher of the first loaded pack that
brings one (:attr:`helpdesk.tools.packs.Pack.matcher`, e.g. the demo shop's); without one it
reads only what every deployment understands (:func:`match_conversation`): a yes or no to the
open question, the conversation intents, and UNKNOWN for the rest, which the packs' own patterns
(:func:`helpdesk.graph.capabilities.match_packs`) then claim. The words read here are matching
logic, not customer text; everything said to the customer lives in ``prompts/``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum, StrEnum
from typing import Any

from helpdesk.graph.asking import ASKS, asks_for_something
from helpdesk.graph.conversation import (
    ACK_WHOLE,
    AFTER_ALL,
    ARE_YOU_HUMAN,
    BUT,
    CORRECTION,
    EMOJI,
    GOODBYE,
    GREETING,
    HOTLINE,
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
    clause_spans,
    normalize,
)
from helpdesk.graph.language import (
    Lang,
    detect_language,
    requested_language,
    unsupported_language,
)
from helpdesk.graph.money import AmountReading, read_amount
from helpdesk.tools.packs import PackSet

__all__ = [
    "DEFERRED_PART",
    "ConfirmationWords",
    "Intent",
    "MatchContext",
    "MatchedIntent",
    "conversation_intent",
    "match_conversation",
    "match_intents",
    "pack_words",
    "plain_match",
    "read_confirmation",
    "split_clauses",
    "stored_intent",
]


class Intent(StrEnum):
    """What the customer wants from one clause of a message."""

    GREETING = "greeting"
    THANKS = "thanks"
    GOODBYE = "goodbye"
    IDENTITY = "identity"
    """A question about the bot itself ("are you a bot?", "你是真人还是AI")."""
    HOTLINE = "hotline"
    """A question for the phone number ("客服电话多少"): answered with the configured hotline."""
    LANGUAGE = "language"
    """A request to change the reply language ("reply in English", "说中文"), or a message in a
    language the bot does not answer in (:attr:`MatchedIntent.details` ``"unsupported"``)."""
    CONFIRM_YES = "confirm_yes"
    """An unqualified yes to the question the bot asked (the only thing that runs an action)."""
    CONFIRM_NO = "confirm_no"
    """A no, or a negated request ("don't refund"): nothing pending runs, nothing is offered."""
    CONFIRM_CHANGE = "confirm_change"
    """A yes or no that changes what was asked ("yes but only 100", "不对，我是说100904"): the
    changed action is asked about again, never run."""
    CONFIRM_UNCLEAR = "confirm_unclear"
    """A questioning or hedged yes ("yes?", "yes, I asked a week ago"): the question is asked
    again."""
    UNKNOWN = "unknown"
    PACK = "pack"
    """A request served by a loaded pack's capability (:attr:`MatchedIntent.capability` names
    its intent); planned, run and rendered from the pack's declarations."""


@dataclass(frozen=True, slots=True)
class MatchedIntent:
    """One thing the customer asked for, with what the words said about it."""

    intent: Intent
    text: str
    """The clause (or merged clauses) of the message this intent was read from."""
    lang: Lang
    quantity: int | None = None
    topic: str | None = None
    """The policy topic a question is about (a pack's FAQ topic), when the matcher read one."""
    amount: float | None = None
    """A money amount when :attr:`amount_kind` is ``exact``."""
    amount_kind: str = "none"
    """What the words said about the amount: ``none``, ``exact``, ``full`` or ``invalid``
    (see :func:`helpdesk.graph.money.read_amount`); ``invalid`` is asked about, never used."""
    amount_raw: str = ""
    """The words the amount was read from."""
    details: str = ""
    """Free text: the problem description for tickets and handoffs; ``"ack"`` marks a
    :attr:`Intent.THANKS` that is a bare "ok"/"no" acknowledgement rather than a thank-you;
    the action a confirmation names (``"cancel"``); ``"part"`` an unread question."""
    inferred_order: bool = False
    """The request's subject came from session memory (``last_<subject>``), not the message."""
    capability: str = ""
    """For :attr:`Intent.PACK`: the pack intent asked for (``points_balance``)."""
    args: dict[str, Any] = field(default_factory=dict)
    """The request's fields a matcher found (a pack's identifiers, ``order_id`` for the shop):
    they reach the capability's planner with the request."""

    def request_value(self, name: str) -> Any:
        """A request field by name (a pack's :attr:`~helpdesk.tools.packs.Pack.request_fields`):
        the attribute of that name, else the argument, else None."""
        if name in _MATCH_FIELDS:
            return getattr(self, name)
        return self.args.get(name)

    def with_request(self, values: Mapping[str, Any]) -> MatchedIntent:
        """A copy carrying ``values`` (request fields by name; None values are left out): fields
        of this record are set, any other name goes into :attr:`args`."""
        own = {k: v for k, v in values.items() if k in _MATCH_FIELDS and v is not None}
        extra = {k: v for k, v in values.items() if k not in _MATCH_FIELDS and v is not None}
        updated = replace(self, **own)
        return replace(updated, args={**updated.args, **extra}) if extra else updated


_MATCH_FIELDS = frozenset(f.name for f in fields(MatchedIntent)) - {"intent", "args"}

DEFERRED_PART = "part"
""":attr:`MatchedIntent.details` of an :attr:`Intent.UNKNOWN` request that is one question of a
message whose other requests were read: the reply says this part was not understood (quoting
it) instead of dropping it."""


def plain_match(match: MatchedIntent) -> dict[str, Any]:
    """The match as a dict of plain JSON values (checkpoints store no custom enums): its fields
    (``args`` among them), and the request's arguments repeated beside them (``order_id`` for
    the demo shop) — the flat request a capability's planner reads."""
    fields = dataclasses.asdict(match)
    plain = {k: (v.value if isinstance(v, Enum) else v) for k, v in fields.items()}
    return {**match.args, **plain}


def stored_intent(value: str, capability: str = "") -> tuple[Intent, str]:
    """An intent and capability as stored in session state: an engine intent's value, or a
    capability name (stored so before packs read their own requests: a pack request)."""
    if value in _INTENT_VALUES:
        return Intent(value), capability
    return Intent.PACK, capability or value


_INTENT_VALUES = frozenset(i.value for i in Intent)


@dataclass(frozen=True, slots=True)
class MatchContext:
    """What a template matcher knows besides the message (:attr:`Pack.matcher`'s argument)."""

    packs: PackSet
    """The loaded packs (their identifiers are never read as amounts)."""
    facts: Mapping[str, Any] = field(default_factory=dict)
    """The session's facts (``last_<subject>``, remembered identifiers)."""
    awaiting_confirmation: bool = False
    """The bot asked a yes/no question: a bare "yes"/"确认" or "no"/"算了" answers it."""


def match_intents(
    text: str,
    *,
    packs: PackSet,
    facts: Mapping[str, Any] | None = None,
    awaiting_confirmation: bool = False,
) -> list[MatchedIntent]:
    """Read every request in a customer message, in order (at least one item).

    The first loaded pack with a template matcher reads the message; without one, only the
    conversation and confirmation answers are read (:func:`match_conversation`).
    """
    context = MatchContext(packs, facts or {}, awaiting_confirmation)
    for pack in packs:
        if pack.matcher is not None:
            return list(pack.matcher(text, context))
    return match_conversation(text, context)


def split_clauses(text: str) -> list[str]:
    """The requests of a message, split at ", and", "also", "?", "另外", "。" (original text)."""
    norm = normalize(text)
    return [text[s:e].strip(STRIP) for s, e in clause_spans(norm)]


def conversation_intent(norm: str, *, has_ids: bool = False) -> Intent | None:
    """The conversation intent of one normalized clause, if it is one (None otherwise).

    Asked after a pack's own requests, which win: "hi, where's 100200?" is a request.
    """
    if ARE_YOU_HUMAN.search(norm):
        return Intent.IDENTITY
    if HOTLINE.search(norm) and not has_ids:
        return Intent.HOTLINE
    if GOODBYE.search(norm):
        return Intent.GOODBYE
    if GREETING.search(norm):
        return Intent.GREETING
    if THANKS.search(norm):
        return Intent.THANKS
    return None


def match_conversation(text: str, context: MatchContext) -> list[MatchedIntent]:
    """The reading every deployment has, with no pack matcher: an answer to the open question,
    a language request, the conversation intents clause by clause, else UNKNOWN."""
    lang = detect_language(text)
    stripped = text.strip()
    if unsupported_language(text):
        return [MatchedIntent(Intent.LANGUAGE, text=stripped, lang=lang, details="unsupported")]
    norm = normalize(text)
    if context.awaiting_confirmation:
        answer = read_confirmation(text, norm, lang, context.packs, pack_words(context.packs))
        if answer is not None:
            return [answer]
    if requested_language(norm) is not None:
        return [MatchedIntent(Intent.LANGUAGE, text=stripped, lang=lang)]
    found: list[MatchedIntent] = []
    for start, end in clause_spans(norm):
        clause = norm[start:end]
        intent = conversation_intent(clause)
        if intent is None and ACK_WHOLE.match(bare(clause)):
            found.append(MatchedIntent(Intent.THANKS, text=stripped, lang=lang, details="ack"))
            continue
        if intent is not None and all(m.intent is not intent for m in found):
            found.append(MatchedIntent(intent, text=text[start:end].strip(STRIP), lang=lang))
    return found or [MatchedIntent(Intent.UNKNOWN, text=stripped, lang=lang)]


def _no_ids(words: str) -> tuple[str, ...]:
    return ()


def _no_request(words: str) -> bool:
    return False


def _no_action(words: str) -> str:
    return ""


@dataclass(frozen=True, slots=True)
class ConfirmationWords:
    """What a matcher knows about its own requests, for reading an answer to its question."""

    subject: str = ""
    """The request field a corrected identifier replaces ("不对，我是说100904": ``order_id``)."""
    subjects: Callable[[str], tuple[str, ...]] = _no_ids
    """The subject identifiers named in (normalized) words."""
    identifiers: Callable[[str], tuple[str, ...]] = _no_ids
    """Every identifier named in the words (a no that names one is not a bare no)."""
    is_request: Callable[[str], bool] = _no_request
    """Whether words are a request of their own ("对，退款吧": a new request, not a yes)."""
    named_action: Callable[[str], str] = _no_action
    """The action a confirmation names ("确认取消": ``cancel``; "" when none)."""


def pack_words(packs: PackSet) -> ConfirmationWords:
    """The confirmation words of packs without a matcher: their declared identifiers, and a
    conversation intent as the only request a yes may carry."""
    pattern = packs.identifier_pattern()

    def found(words: str) -> tuple[str, ...]:
        return tuple(m.group(0) for m in pattern.finditer(words)) if pattern else ()

    return ConfirmationWords(
        subject=packs.subject(),
        subjects=found,
        identifiers=found,
        is_request=lambda words: conversation_intent(words) is not None,
    )


def read_confirmation(
    text: str, norm: str, lang: Lang, packs: PackSet, words: ConfirmationWords
) -> MatchedIntent | None:
    """How a message answers the yes/no question the bot asked; None when it is a new request.

    Only an unqualified yes is :attr:`Intent.CONFIRM_YES`. A yes with a change ("yes but only
    100"), a correction ("不对，我是说100904") or a hedge/question ("yes?") never runs anything.
    """
    plain = bare(norm)
    stripped = text.strip()
    questioning = bool(QUESTION_MARK.search(stripped))
    if not plain and EMOJI.search(norm):
        # "👍" to "shall I cancel 100998?": likely a yes, never one to act on — asked again
        return MatchedIntent(intent=Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang)
    if YES_ONLY.match(plain) and not questioning:
        # "确认退款" names the action it confirms: it runs only an action of that kind
        verb = words.named_action(plain)
        return MatchedIntent(intent=Intent.CONFIRM_YES, text=stripped, lang=lang, details=verb)
    subjects = words.subjects(norm)
    negative = bool(NO_WHOLE.match(plain) or NO_ANY.search(plain)) and not AFTER_ALL.search(plain)
    yes = YES_START.match(plain)
    if NOT_ALL.search(plain) and not subjects:
        # "不要全部，退50就行" / "not all of it, just 50": the amount changes, asked again
        partial = read_amount(plain, money_context=True, packs=packs)
        if partial.kind != "none":
            return _changed_amount(stripped, lang, partial)
    if negative and ASKS.search(plain) and not NO_ANY.search(WAIT.sub(" ", plain)):
        # "wait, which order is that?": a question before answering, not a no — asked again
        return MatchedIntent(intent=Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang)
    if yes is None and not (negative or subjects or words.identifiers(norm)) and len(plain) <= 40:
        # "actually make it 200", "全退": the pending refund's amount changed with no yes (asked
        # again at the new amount, never run as it stands)
        new_amount = read_amount(plain, money_context=True, packs=packs)
        if new_amount.kind != "none" and not questioning:
            return _changed_amount(stripped, lang, new_amount)
    if negative and not (yes and not NO_ANY.match(plain)):
        if subjects and (CORRECTION.search(norm) or len(bare(_without(norm, subjects))) <= 12):
            return _changed_subject(stripped, lang, words.subject, subjects[0])
        if not words.identifiers(norm) and len(plain) <= 40:
            return MatchedIntent(intent=Intent.CONFIRM_NO, text=stripped, lang=lang)
        return None
    if yes is None:
        if subjects and CORRECTION.search(norm):
            return _changed_subject(stripped, lang, words.subject, subjects[0])
        return None
    rest = BUT.sub("", plain[yes.end() :].strip(STRIP)).strip(STRIP)
    named = read_amount(rest, packs=packs) if rest and not subjects else None
    if named is not None and named.kind in ("exact", "invalid"):
        # "yes but make it 30", "yes, refund 30 instead": an amount in so many words changes the
        # pending one (asked again); a request verb beside it ("make it", "refund") is not a new
        # request — with no identifier there is nothing else it could be about
        return _changed_amount(stripped, lang, named)
    if rest and words.is_request(rest):
        return None  # "对，退款吧": a new request; what was pending is not done
    if rest and asks_for_something(rest) and not CORRECTION.search(norm):
        # "yes, and also add a gift message to 100904": a request of its own, not a change of
        # the pending one (its order is not the pending action's); what was pending is not done
        return None
    reading = read_amount(rest, money_context=True, packs=packs)
    asks_more = QUESTION_MARK.sub("", rest).strip(STRIP)
    if asks_more and reading.kind == "none" and questioning and not CORRECTION.search(norm):
        return None  # "yes, and where is 100683?": a new question; what was pending is not done
    if reading.kind != "none" or subjects:
        changed = _changed_amount(stripped, lang, reading)
        return changed.with_request({words.subject: subjects[0]}) if subjects else changed
    return MatchedIntent(intent=Intent.CONFIRM_UNCLEAR, text=stripped, lang=lang)


def _changed_amount(text: str, lang: Lang, reading: AmountReading) -> MatchedIntent:
    """A confirmation answer that changes the amount (asked again, never run as it stands)."""
    return MatchedIntent(
        intent=Intent.CONFIRM_CHANGE,
        text=text,
        lang=lang,
        amount=reading.value,
        amount_kind=reading.kind,
        amount_raw=reading.raw,
    )


def _changed_subject(text: str, lang: Lang, subject: str, value: str) -> MatchedIntent:
    changed = MatchedIntent(intent=Intent.CONFIRM_CHANGE, text=text, lang=lang)
    return changed.with_request({subject: value}) if subject else changed


def _without(norm: str, ids: tuple[str, ...]) -> str:
    """``norm`` with the identifiers blanked (same length)."""
    for value in ids:
        norm = re.sub(re.escape(value.lower()), lambda m: " " * len(m.group(0)), norm)
    return norm
