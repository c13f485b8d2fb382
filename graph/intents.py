"""The offline reading of a customer message, domain-free.

:func:`match_intents` reads a message with the template matcher of the first loaded pack that
brings one (:attr:`helpdesk.tools.packs.Pack.matcher`, e.g. the demo shop's); without one it
reads only what every deployment understands (:func:`match_conversation`): a yes or no to the
open question, the conversation intents, and UNKNOWN for the rest, which the packs' own patterns
(:func:`helpdesk.graph.capabilities.match_packs`) then claim. The words read here are matching
logic, not customer text; everything said to the customer lives in ``prompts/``.

The request record (:class:`MatchedIntent`, :class:`Intent`) lives in
:mod:`helpdesk.graph.request` and the reader of a yes in
:mod:`helpdesk.graph.confirmation_reading`; both are re-exported here, where matchers import them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from helpdesk.graph.confirmation_reading import ConfirmationWords, read_confirmation
from helpdesk.graph.conversation import (
    ACK_WHOLE,
    ARE_YOU_HUMAN,
    GOODBYE,
    GREETING,
    HOTLINE,
    STRIP,
    THANKS,
    bare,
    clause_spans,
    normalize,
)
from helpdesk.graph.language import detect_language, requested_language, unsupported_language
from helpdesk.graph.request import (
    ALTERNATIVE,
    BRIEF,
    CHANGE_UNCLEAR,
    DEFERRED_PART,
    REPLACED,
    SPARED_SUBJECT,
    Intent,
    MatchedIntent,
    plain_match,
    stored_intent,
)
from helpdesk.tools.packs import PackSet

__all__ = [
    "ALTERNATIVE",
    "BRIEF",
    "CHANGE_UNCLEAR",
    "DECLINED_ACTIONS",
    "DEFERRED_PART",
    "DONE_BEFORE",
    "JUST_DROPPED",
    "LAST_WRITE",
    "REPLACED",
    "SPARED_SUBJECT",
    "WRITES_DONE",
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


LAST_WRITE = "last_write"
WRITES_DONE = "writes_done"
"""Session fact: the writes done in the session so far (``{"tool", "args"}``, the last few,
oldest first) — what a later "no, don't" can no longer undo, and the reply must not deny."""
DONE_BEFORE = "done_before"
"""A no's argument: the last write done before it in the session (its reply says it stands)."""
DECLINED_ACTIONS = "declined_actions"
"""Session fact: the actions a plain no answered on the turn before (for the next turn only)."""
"""The session fact naming the last action done (run after the customer's yes): ``{"tool",
"args", "amount_kind"}`` ("do the same for 100452" is that action again, on another subject; asked
again, never run on it). An action declined or never confirmed is never one to repeat."""


JUST_DROPPED = "just_dropped"
"""Marks, in the session's ``dropped_actions``, an action the customer moved on from on the turn
before (the reply said it was not done, "if you still want it, just ask again"): a bare yes now
("yeah go on then", "行吧") asks about it again — a new question, never a run."""


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
