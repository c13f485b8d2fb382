"""Templated replies for the minimal tier: the reply frame, one honest paragraph per request.

:func:`render_reply` turns what the turn did — each :class:`ReplyItem` pairs a
:class:`~helpdesk.graph.intents.MatchedIntent` with the :class:`~helpdesk.tools.results.ToolResult`
that served it — and the request's :class:`~helpdesk.degrade.context.DegradeContext` into the text
the customer reads. This module owns the frame (greetings and acknowledgements, confirmation
answers, the staleness, pending-work, simplified-mode and last-resort notices, the structured
fallback); the paragraph of a request is written by the pack that serves it: a pack's own
:class:`PackReplies` (:attr:`helpdesk.tools.packs.Pack.replies`) or the generic per-outcome
templates of :func:`~helpdesk.graph.capabilities.render_item`. All wording comes from
``prompts/minimal/generate.<lang>.yaml`` and the packs' templates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from helpdesk.degrade.context import DegradeContext, PendingItem
from helpdesk.graph.capabilities import describe_pack_action, render_item
from helpdesk.graph.intents import (
    BRIEF,
    CHANGE_UNCLEAR,
    DEFERRED_PART,
    DONE_BEFORE,
    REPLACED,
    SPARED_SUBJECT,
    Intent,
    MatchedIntent,
)
from helpdesk.graph.language import Lang, space_han_latin
from helpdesk.graph.prompting import load_templates, render
from helpdesk.graph.repeated_lines import without_repeated_lines
from helpdesk.tools.packs import PackSet
from helpdesk.tools.results import ToolResult, ToolStatus

__all__ = [
    "DEFAULT_HOTLINE",
    "PackReplies",
    "ReplyItem",
    "Writer",
    "confirmation_question",
    "describe_action",
    "humanize_age",
    "render_fallback_reply",
    "render_notice",
    "render_reply",
]

DEFAULT_HOTLINE = "400-820-8820"

_CONFIRM_ANSWERS = frozenset({Intent.CONFIRM_YES, Intent.CONFIRM_UNCLEAR, Intent.CONFIRM_CHANGE})


@dataclass(frozen=True, slots=True)
class ReplyItem:
    """One request of the turn and what serving it produced."""

    intent: MatchedIntent
    result: ToolResult | None
    """The tool's result; None when no tool ran (greeting, a missing identifier, ...)."""
    note: str | None = None
    """Extra line: a template key of ``generate.<lang>.yaml`` (rendered with the item's
    request fields), or caller-supplied text in the reply's language (appended verbatim)."""


class Writer:
    """Renders with one language's templates and remembers what was already said."""

    def __init__(self, lang: Lang, hotline: str, packs: PackSet) -> None:
        self.lang = lang
        self.packs = packs
        """The loaded packs (their own wording applies; empty: only the generic wording)."""
        self.t = load_templates("minimal", "generate", lang)
        self.hotline = hotline
        self.stale_told = False
        """A staleness notice was already given (the general one is then left out)."""
        self.trouble = False
        """Something could not be done: the reply ends with the way to a human."""
        self.handed_off = False
        """The turn passed the conversation to a person (no other line offers to)."""
        self.subjects_told: set[Any] = set()

    def say(self, key: str, **values: Any) -> str:
        return render(self.t[key], hotline=self.hotline, **values)

    def label(self, key: str, fallback: str) -> str:
        return self.t.get(key, fallback)

    def age(self, seconds: float | None) -> str:
        return humanize_age(seconds, self.t)


class PackReplies(Protocol):
    """A pack's own wording for the requests it serves, where per-outcome templates are not
    enough (lists, shipment events, business refusals quoting the backend's reason)."""

    def owns(self, item: ReplyItem) -> bool:
        """Whether this pack words the item (its requests, its tools' results)."""

    def body(self, w: Writer, item: ReplyItem) -> str:
        """The item's paragraph (sets ``w.trouble`` / ``w.stale_told`` as it goes)."""

    def inferred(self, w: Writer, match: MatchedIntent) -> str:
        """The line saying which object an inferred request was taken to be about."""

    def question(self, w: Writer, item: ReplyItem) -> str:
        """The exact question a confirm-first result waits on."""

    def describe(self, w: Writer, tool: str, args: Mapping[str, Any]) -> str | None:
        """A short description of an action of one of its tools; None for other tools."""

    def fallback_line(self, w: Writer, item: ReplyItem) -> str:
        """The structured fallback's line: only the fields the result carries."""

    def pending_what(self, w: Writer, what: str) -> str | None:
        """A pending item's ``what`` ("cancel_order 100123") in words; None when not its own."""


def humanize_age(seconds: float | None, templates: Mapping[str, str]) -> str:
    """``75`` -> ``"1 minute"`` / ``"1 分钟"`` using the ``age_*`` templates."""
    if seconds is None or seconds < 0:
        return templates["age_unknown"]
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = int(seconds // size)
            return render(templates[f"age_{unit}" if n == 1 else f"age_{unit}s"], n=n)
    n = max(1, int(seconds))
    return render(templates["age_second" if n == 1 else "age_seconds"], n=n)


def render_reply(
    items: Sequence[ReplyItem],
    degrade: DegradeContext,
    lang: Lang,
    *,
    hotline: str = DEFAULT_HOTLINE,
    packs: PackSet,
) -> str:
    """The whole reply of one turn, in ``lang``.

    Args:
        items: the turn's requests in message order, with their results.
        degrade: what degraded during the request (stale data, pending work, simplified mode).
        lang: the language of every line of the reply.
        hotline: the customer-service phone number offered when self-service is the answer.
        packs: the loaded capability packs (their requests are rendered with their wording).

    Returns:
        Paragraphs separated by blank lines: one per item, then the request-level notices
        (staleness not yet mentioned, pending work, simplified mode, the way to a human).
    """
    w = Writer(lang, hotline, packs)
    w.handed_off = any(
        i.result.tool == packs.handoff_tool and i.result.status is ToolStatus.OK
        for i in items
        if i.result is not None
    )
    subject = w.packs.subject()
    paragraphs = without_repeated_lines(
        (item.intent.request_value(subject) if subject else None, _item_paragraph(w, item))
        for item in items
    )
    if not paragraphs:
        paragraphs.append(w.say("clarify"))
    if degrade.stale and not w.stale_told:
        paragraphs.append(w.say("stale_notice_general", age=w.age(max(degrade.stale.values()))))
    pending = _pending_paragraph(w, degrade.pending, items)
    if pending:
        paragraphs.append(pending)
    if degrade.simplified_mode:
        paragraphs.append(w.say("simplified_mode"))
    elif (w.trouble or degrade.pending) and hotline not in "\n".join(paragraphs):
        paragraphs.append(w.say("handoff_last_resort"))
    text = "\n\n".join(paragraphs)
    return space_han_latin(text) if lang == "zh" else text


# --- one item -----------------------------------------------------------------------------------


def _owner(w: Writer, item: ReplyItem) -> PackReplies | None:
    """The pack whose own wording renders the item, if any."""
    for pack in w.packs:
        if pack.replies is not None and pack.replies.owns(item):
            return pack.replies
    return None


def _item_paragraph(w: Writer, item: ReplyItem) -> str:
    lines = [_body(w, item)]
    match = item.intent
    owner = _owner(w, item)
    cap = w.packs.for_intent(match.capability)
    subject = match.request_value(cap.subject) if cap is not None and cap.subject else None
    if match.inferred_order and item.result is not None and owner is not None:
        if subject is None or subject not in w.subjects_told:  # said once per subject
            lines.insert(0, owner.inferred(w, match))
        w.subjects_told.add(subject)
    if item.note:
        if item.note in w.t:
            fields = w.packs.request_fields()
            lines.append(w.say(item.note, **{f: match.request_value(f) or "" for f in fields}))
        else:
            lines.append(item.note)
    return "\n".join(line for line in lines if line)


def _body(w: Writer, item: ReplyItem) -> str:
    match = item.intent
    if match.intent is Intent.CONFIRM_NO:
        spared = match.request_value(w.packs.subject()) if w.packs.subject() else None
        if match.details == SPARED_SUBJECT and spared:
            # "cancel 100904 but don't touch 100998": 100998 is left alone, the cancel stands
            return w.say("subject_spared", subject=spared)
        done = match.args.get(DONE_BEFORE)
        if isinstance(done, Mapping) and isinstance(done.get("args"), Mapping):
            # a write done earlier in the conversation is never denied: it stands (named
            # without its amount, which no data of this turn bears out)
            tool = str(done.get("tool"))
            cap = w.packs.for_tool(tool)
            amounts = set(cap.amounts) if cap is not None else set()
            what = _described(w, tool, {k: v for k, v in done["args"].items() if k not in amounts})
            key = "confirm_cancelled_done_before" if done.get("answering") else "confirm_undo_done"
            return w.say(key, done=what)
        return w.say("confirm_replaced" if match.details == REPLACED else "confirm_cancelled")
    if item.result is None and match.intent is not Intent.PACK:
        answer = _without_result(w, match)
        if answer:
            return answer
    owner = _owner(w, item)
    return owner.body(w, item) if owner is not None else _generic(w, item)


def _without_result(w: Writer, match: MatchedIntent) -> str:
    """The frame's own answers (greetings, thanks, a confirmation with nothing pending, a
    message it could not read); "" for requests a pack words."""
    intent = match.intent
    if intent is Intent.GREETING:
        return w.say("greeting_brief" if match.details == BRIEF else "greeting")
    if intent is Intent.THANKS:
        return w.say("acknowledge" if match.details == "ack" else "thanks")
    if intent is Intent.GOODBYE:
        return w.say("goodbye_brief" if match.details == BRIEF else "goodbye")
    if intent is Intent.IDENTITY:
        return w.say("identity")
    if intent is Intent.HOTLINE:
        return w.say("hotline")
    if intent is Intent.LANGUAGE:
        # the turn's language already follows the request (graph/language.py)
        return w.say("unsupported_language" if match.details == "unsupported" else "language_set")
    if intent in _CONFIRM_ANSWERS:
        return w.say("nothing_to_confirm")
    if intent is Intent.UNKNOWN:
        if match.details == DEFERRED_PART:
            # one question of a message whose other requests were answered
            return w.say("unread_part", text=match.text)
        if match.details == CHANGE_UNCLEAR:
            return w.say("change_unclear", text=match.text)
        return w.say("clarify")
    return ""


def _generic(w: Writer, item: ReplyItem) -> str:
    """A pack request or a tool no pack words: the generic per-outcome rendering."""
    result = item.result
    if result is not None and result.status is ToolStatus.STALE:
        w.stale_told = True
    text, trouble = render_item(
        item.intent,
        result,
        w.lang,
        hotline=w.hotline,
        packs=w.packs,
        age_text=w.age(result.age_s) if result is not None else "",
    )
    w.trouble = w.trouble or trouble
    return text


def confirmation_question(item: ReplyItem, lang: Lang, *, hotline: str, packs: PackSet) -> str:
    """The canonical question for an item whose result needs the customer's confirmation; the
    published reply must contain it, whichever tier wrote the rest."""
    w = Writer(lang, hotline, packs)
    if item.result is None:
        return ""
    owner = _owner(w, item)
    question = owner.question(w, item) if owner is not None else _generic(w, item)
    # spaced as the published reply is ("空气炸锅 5L 的"), so the reply is seen to contain it
    return space_han_latin(question) if lang == "zh" else question


def describe_action(
    tool: str, args: Mapping[str, Any], lang: Lang, *, hotline: str, packs: PackSet
) -> str:
    """A short description of a write ("the refund of ¥100.00 for order 100609")."""
    return _described(Writer(lang, hotline, packs), tool, args)


def _described(w: Writer, tool: str, args: Mapping[str, Any]) -> str:
    for pack in w.packs:
        if pack.replies is not None:
            described = pack.replies.describe(w, tool, args)
            if described is not None:
                return described
    return describe_pack_action(tool, args, w.lang, hotline=w.hotline, packs=w.packs)


def render_notice(key: str, lang: Lang, *, hotline: str, **values: Any) -> str:
    """One notice line from the minimal tier's templates."""
    return Writer(lang, hotline, PackSet()).say(key, **values)


# --- request-level notices ----------------------------------------------------------------------


def _pending_paragraph(
    w: Writer, pending: Sequence[PendingItem], items: Sequence[ReplyItem]
) -> str:
    told = {
        item.result.call_id: item.result.ticket_id
        for item in items
        if item.result is not None and item.result.status is not ToolStatus.OK
    }
    lines: list[str] = []
    for p in pending:
        if p.task_id in told and (p.ticket_id is None or p.ticket_id == told[p.task_id]):
            continue
        what = _pending_what(w, p.what)
        status = w.label(f"pending_status_{p.status}", w.t["pending_status_other"])
        if p.ticket_id:
            lines.append(
                w.say("pending_line_ticket", what=what, status=status, ticket_id=p.ticket_id)
            )
        else:
            lines.append(w.say("pending_line", what=what, status=status))
    if not lines:
        return ""
    return "\n".join([w.say("pending_header"), *lines])


def _pending_what(w: Writer, what: str) -> str:
    """A pending item's ``what`` in words (by the pack that knows it; else as it is)."""
    for pack in w.packs:
        if pack.replies is not None:
            said = pack.replies.pending_what(w, what)
            if said is not None:
                return said
    return what.strip()


# --- the structured fallback -------------------------------------------------------------------


def render_fallback_reply(
    items: Sequence[ReplyItem],
    degrade: DegradeContext,
    lang: Lang,
    *,
    hotline: str = DEFAULT_HOTLINE,
    packs: PackSet,
) -> str:
    """The reply of last resort when generated replies keep failing validation.

    Fills in only what the tools returned (statuses, identifiers, dates, amounts), marks
    everything else "not available yet", then the staleness notice, pending items and the way
    to a human — nothing that could be invented.
    """
    w = Writer(lang, hotline, packs)
    lines = [w.say("fallback_header")]
    confirmations: list[str] = []
    for item in items:
        result = item.result
        if result is None:
            continue
        owner = _owner(w, item)
        if owner is None:
            # a pack's wording states only its result's fields: the same text is safe here
            text = _generic(w, item)
            if result.status is ToolStatus.NEEDS_CONFIRMATION:
                confirmations.append(text)
            else:
                lines.append(text)
            continue
        if result.status is ToolStatus.NEEDS_CONFIRMATION:
            # the pending action stays pending: the question must still be asked
            confirmations.append(owner.question(w, item))
            continue
        lines.append(owner.fallback_line(w, item))
    paragraphs = ["\n".join(lines)] if len(lines) > 1 or not confirmations else []
    paragraphs.extend(confirmations)
    if degrade.stale:
        paragraphs.append(w.say("stale_notice_general", age=w.age(max(degrade.stale.values()))))
    pending = _pending_paragraph(w, degrade.pending, items)
    if pending:
        paragraphs.append(pending)
    paragraphs.append(w.say("handoff_last_resort"))
    text = "\n\n".join(paragraphs)
    return space_han_latin(text) if lang == "zh" else text
