"""Context compaction: keep a conversation inside its model tier's token window, facts first.

Tokens are counted with tiktoken through :mod:`helpdesk.graph.tokens` (memoised per text, so a
turn costs work in proportion to what is new; :class:`IncrementalTokenTally` keeps per-message
counts by id for callers that track the total turn by turn). Once the history reaches the policy's
watermark, :func:`compact` drops system notes older than the last turn, folds older turns into a
summary (extractive and offline by default, or a model's ``summarize`` hook), shrinks tool results
to their key fields, and keeps the last turns verbatim; a tool-calling AI message and its tool
messages are one unit, kept or folded together. The session facts (order ids, preferences, asks)
lead the summary and are never truncated. If even the smallest compaction leaves the history over
the window, the result is a reset: the summary plus the customer's last message, flagged so the
caller can tell the customer. Apply a result to LangGraph state with
:meth:`CompactionResult.as_update`.

Longer than 400 lines because it is one algorithm — units that keep a tool call with its
results, the plan of what is pinned, folded and kept, the summary, the shrinking of tool
results, the reset — whose invariants (a tool call is never split, facts lead and are never
truncated) hold only across all of its steps; token counting lives in
:mod:`helpdesk.graph.tokens`.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from helpdesk.graph.facts import extract_facts, merge_ids, render_facts, split_sentences
from helpdesk.graph.language import Lang, detect_language
from helpdesk.graph.prompting import load_templates
from helpdesk.graph.tokens import MESSAGE_OVERHEAD, count_tokens, get_encoding
from helpdesk.tools.packs import PackSet

__all__ = [
    "NOTE_KEY",
    "SUMMARY_ID",
    "SUMMARY_KEY",
    "TOOL_KEY_FIELDS",
    "CompactionPolicy",
    "CompactionReport",
    "CompactionResult",
    "IncrementalTokenTally",
    "Summarizer",
    "compact",
    "count_messages",
    "count_messages_near",
    "message_tokens",
    "needs_compaction",
    "shrink_tool_content",
]

SUMMARY_ID: Final = "helpdesk-summary"
"""The stable id of the summary ``SystemMessage``: a new summary replaces the old one in place."""
SUMMARY_KEY: Final = "helpdesk_summary"
"""``additional_kwargs`` key of the summary message; its value is the summary body."""
NOTE_KEY: Final = "helpdesk_note"
"""``additional_kwargs`` key marking a ``SystemMessage`` as a transient note (dropped once old)."""
TOOL_KEY_FIELDS: Final = frozenset({"status", "amount", "total", "code"})
"""Fields a shrunk tool result always keeps, at any depth (``{"error": {"code": ...}}`` keeps
the code); with them, every field the loaded packs' capabilities declare in ``keep``
(:class:`_ToolFields`)."""


@dataclass(frozen=True, slots=True)
class _ToolFields:
    """What the loaded packs say about tool results: the fields a shrunk one keeps, and the
    fields whose identifiers are session facts (fact key -> field)."""

    keep: frozenset[str]
    facts: Mapping[str, str]
    packs: PackSet
    """The packs themselves (they read identifiers in customer text too)."""

    @classmethod
    def of(cls, packs: PackSet) -> _ToolFields:
        return cls(TOOL_KEY_FIELDS | packs.keep_fields(), packs.fact_fields(), packs)


Summarizer = Callable[[list[BaseMessage]], str]
"""A model tier's summary hook: the messages to fold (led by the previous summary) -> text."""


# Labels of the extractive summary (model-facing, like the facts block).
def _labels(lang: Lang) -> Mapping[str, str]:
    """Labels of the extractive summary (model-facing text, from prompts/minimal/context)."""
    templates = load_templates("minimal", "context", lang)
    return {k.removeprefix("summary_"): v for k, v in templates.items() if k.startswith("summary_")}


_LINE_CHARS = 160
_TOOL_TEXT_CHARS = 160
_KEY_SENTENCES = 2
_MIN_SUMMARY_TOKENS = 64


@dataclass(frozen=True, kw_only=True, slots=True)
class CompactionPolicy:
    """When and how far a tier's history is compacted."""

    window_tokens: int
    """The tier's context window, in tokens."""
    watermark: float = 0.75
    """Compact once the history reaches this fraction of the usable window."""
    keep_last_turns: int = 3
    """Customer turns (a human message and what followed it) kept verbatim."""
    reserve_tokens: int = 0
    """Tokens held back from the window for the prompt and the reply."""
    summary_tokens: int | None = None
    """Cap on the summary body (facts excluded); default a quarter of the watermark budget."""

    def __post_init__(self) -> None:
        if self.window_tokens <= 0:
            raise ValueError(f"window_tokens must be positive, got {self.window_tokens}")
        if not 0.0 < self.watermark <= 1.0:
            raise ValueError(f"watermark must be in (0, 1], got {self.watermark}")
        if self.keep_last_turns < 1:
            raise ValueError(f"keep_last_turns must be at least 1, got {self.keep_last_turns}")
        if not 0 <= self.reserve_tokens < self.window_tokens:
            raise ValueError(
                f"reserve_tokens must be in [0, window_tokens), got {self.reserve_tokens}"
            )
        if self.summary_tokens is not None and self.summary_tokens < 0:
            raise ValueError(f"summary_tokens must not be negative, got {self.summary_tokens}")

    @property
    def budget_tokens(self) -> int:
        """Tokens the history may use: the window minus the reserve."""
        return self.window_tokens - self.reserve_tokens

    @property
    def threshold_tokens(self) -> int:
        """The smallest history size that triggers compaction (watermark x budget, rounded up)."""
        return math.ceil(self.watermark * self.budget_tokens)

    @property
    def summary_cap(self) -> int:
        """Tokens the summary body may use."""
        if self.summary_tokens is not None:
            return self.summary_tokens
        return max(_MIN_SUMMARY_TOKENS, self.threshold_tokens // 4)


@dataclass(frozen=True, slots=True)
class CompactionReport:
    """What one compaction did, for logs and traces."""

    tokens_before: int
    tokens_after: int
    compacted: bool
    """Whether the history changed."""
    reset: bool
    """The history was replaced by the summary and the last customer message."""
    dropped: dict[str, int]
    """Counts per kind: ``turns_summarized``, ``tool_results_shrunk``, ``notes_dropped``,
    ``messages_removed``."""
    summarizer: Literal["none", "extractive", "model"] = "none"
    """Who wrote the summary (``extractive`` also when the model hook failed)."""

    def as_log(self) -> dict[str, Any]:
        """A flat dict for structured logging."""
        return {
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "compacted": self.compacted,
            "reset": self.reset,
            "summarizer": self.summarizer,
            **self.dropped,
        }


@dataclass(frozen=True, slots=True)
class CompactionResult:
    """The compacted history, its summary, and how to apply it to LangGraph state."""

    messages: list[BaseMessage]
    """The whole new history, in order (summary first when there is one)."""
    summary: str
    """The summary body (facts excluded): store it and pass it back as ``previous_summary``."""
    report: CompactionReport
    removals: list[RemoveMessage] = field(default_factory=list)
    """One ``RemoveMessage`` per id of the old history that is not in :attr:`messages`."""
    facts: dict[str, Any] = field(default_factory=dict)
    """The facts merged with those read from the folded messages: store them in state."""
    folded: list[BaseMessage] = field(default_factory=list)
    """What a model tier would summarize: the previous summary (as a ``SystemMessage``) and the
    messages folded into this one, tool results shrunk. Empty when nothing was folded or the
    summary is a model's already."""
    resummarize: Callable[[str], CompactionResult | None] | None = field(
        default=None, repr=False, compare=False
    )
    """Builds the same compaction with a model-written summary body (see :meth:`with_summary`)."""

    def with_summary(self, text: str) -> CompactionResult:
        """The same compaction with ``text`` (a model tier's summary of :attr:`folded`, capped
        to the policy's summary size) as the summary body; this result when nothing was folded,
        the text is empty or the model's summary would not fit the window. Lets an async
        caller ask a model between the two steps without running the compaction again."""
        if self.resummarize is None or not self.folded or not text.strip():
            return self
        return self.resummarize(text) or self

    def as_update(self) -> list[BaseMessage]:
        """The ``messages`` update for LangGraph's ``add_messages`` reducer.

        ``RemoveMessage(id=REMOVE_ALL_MESSAGES)`` followed by the new history: the reducer would
        append a *new* summary message at the end, and system messages must come first, so the
        history is rewritten in order. Empty when nothing changed. Callers that keep the summary
        at the front already may instead send :attr:`removals` plus the changed messages (the
        summary, with its stable id :data:`SUMMARY_ID`, replaces the old one in place).
        """
        if not self.report.compacted:
            return []
        return [RemoveMessage(id=REMOVE_ALL_MESSAGES), *self.messages]


# --- counting -----------------------------------------------------------------------------------


def _content_text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            parts.append(part["text"])
        else:
            parts.append(json.dumps(part, ensure_ascii=False, sort_keys=True, default=str))
    return "\n".join(parts)


def _tool_calls_text(message: BaseMessage) -> str:
    if not isinstance(message, AIMessage) or not message.tool_calls:
        return ""
    calls = [{"id": c["id"], "name": c["name"], "args": c["args"]} for c in message.tool_calls]
    return json.dumps(calls, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def message_tokens(message: BaseMessage) -> int:
    """Tokens of one message: its content, its tool calls' JSON, and the per-message overhead."""
    calls = _tool_calls_text(message)
    tokens = count_tokens(_content_text(message)) + MESSAGE_OVERHEAD
    return tokens + count_tokens(calls) if calls else tokens


def count_messages(messages: Iterable[BaseMessage]) -> int:
    """Tokens of a history as a chat model sees it (see :func:`message_tokens`)."""
    return sum(message_tokens(m) for m in messages)


def utf8_bound(messages: Iterable[BaseMessage]) -> int:
    """An upper bound on :func:`count_messages` without the tokenizer: a ``cl100k_base`` token
    is at least one UTF-8 byte (byte-level BPE), so a text has no more tokens than bytes."""
    total = 0
    for message in messages:
        calls = _tool_calls_text(message)
        total += len(_content_text(message).encode()) + MESSAGE_OVERHEAD
        total += len(calls.encode())
    return total


async def count_messages_near(messages: Sequence[BaseMessage], threshold: int) -> int:
    """:func:`count_messages` when it could reach ``threshold``; below it, the UTF-8 bound.

    The result compares with ``threshold`` exactly as the exact count would (the bound is never
    below the count), but a short history never loads the tokenizer's BPE table (about a second
    of CPU at process start); when it must, the table is read in a worker thread, off the event
    loop (``langgraph dev`` forbids blocking calls in a node)."""
    bound = utf8_bound(messages)
    if bound < threshold:
        return bound
    await asyncio.to_thread(get_encoding)
    return count_messages(messages)


def needs_compaction(messages: Iterable[BaseMessage], policy: CompactionPolicy) -> bool:
    """Whether the history has reached the policy's watermark."""
    return count_messages(messages) >= policy.threshold_tokens


class IncrementalTokenTally:
    """A running token total kept per message id, so a new turn only tokenizes what is new.

    :meth:`sync` walks the history (cheap dictionary look-ups) and counts only messages whose id
    it has not seen, or whose content changed under the same id (``add_messages`` replaces by id).
    """

    __slots__ = ("_entries", "_total")

    def __init__(self) -> None:
        self._entries: dict[str, tuple[str, str, int]] = {}
        self._total = 0

    @property
    def total(self) -> int:
        """Tokens of every message currently tallied."""
        return self._total

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, message: BaseMessage) -> int:
        """Tally ``message`` (replacing an entry with the same id); returns its tokens."""
        msg_id = _require_id(message)
        text, calls = _content_text(message), _tool_calls_text(message)
        entry = self._entries.get(msg_id)
        if entry is not None and entry[0] == text and entry[1] == calls:
            return entry[2]
        tokens = message_tokens(message)
        if entry is not None:
            self._total -= entry[2]
        self._entries[msg_id] = (text, calls, tokens)
        self._total += tokens
        return tokens

    def remove(self, message_id: str) -> None:
        """Forget one message; unknown ids are ignored."""
        entry = self._entries.pop(message_id, None)
        if entry is not None:
            self._total -= entry[2]

    def sync(self, messages: Sequence[BaseMessage]) -> int:
        """Make the tally match ``messages`` exactly; returns the new total."""
        live = {_require_id(m) for m in messages}
        for gone in [i for i in self._entries if i not in live]:
            self.remove(gone)
        for message in messages:
            self.add(message)
        return self._total


# --- tool results -------------------------------------------------------------------------------


def _shrink_value(value: Any, fields: frozenset[str]) -> Any:
    """Only the key ``fields`` (at any depth); None when nothing of value remains."""
    if isinstance(value, dict):
        kept: dict[str, Any] = {}
        for key, item in value.items():
            if isinstance(item, dict | list):
                inner = _shrink_value(item, fields)
                if inner is not None:
                    kept[key] = inner
            elif key in fields and item is not None:
                kept[key] = item
        return kept or None
    if isinstance(value, list):
        items = [s for s in (_shrink_value(v, fields) for v in value) if s is not None]
        return items or None
    return None


def shrink_tool_content(content: str, keep: frozenset[str] = TOOL_KEY_FIELDS) -> str:
    """A tool result reduced to its key fields (compact JSON), or clipped text if not JSON.

    Args:
        content: the tool message's text.
        keep: the fields kept, at any depth (the loaded packs add theirs to
            :data:`TOOL_KEY_FIELDS`).
    """
    try:
        data = json.loads(content)
    except (TypeError, ValueError):
        data = None
    shrunk = _shrink_value(data, keep) if isinstance(data, dict | list) else None
    if shrunk is not None:
        return json.dumps(shrunk, ensure_ascii=False, separators=(",", ":"))
    return _clip(content, _TOOL_TEXT_CHARS)


def _shrink_tool_message(message: ToolMessage, keep: frozenset[str]) -> ToolMessage:
    text = _content_text(message)
    shrunk = shrink_tool_content(text, keep)
    if count_tokens(shrunk) >= count_tokens(text):
        return message
    return message.model_copy(update={"content": shrunk})


# --- units and turns ----------------------------------------------------------------------------

_Kind = Literal["human", "ai", "tools", "broken", "note", "system", "summary"]


@dataclass(frozen=True, slots=True)
class _Unit:
    """Messages that are kept or folded together (a tool-calling AI message and its results)."""

    kind: _Kind
    messages: tuple[BaseMessage, ...]


def _require_id(message: BaseMessage) -> str:
    if not message.id:
        raise ValueError(
            f"compaction needs message ids (LangGraph's add_messages assigns them); a "
            f"{type(message).__name__} has none: {_clip(_content_text(message), 60)!r}"
        )
    return message.id


def _validate(messages: Sequence[BaseMessage]) -> None:
    seen: set[str] = set()
    for message in messages:
        if isinstance(message, RemoveMessage):
            raise ValueError(
                f"history contains a RemoveMessage (id {message.id!r}); apply it first"
            )
        msg_id = _require_id(message)
        if msg_id in seen:
            raise ValueError(f"duplicate message id {msg_id!r} in the history")
        seen.add(msg_id)


def _is_summary(message: BaseMessage) -> bool:
    return message.id == SUMMARY_ID or SUMMARY_KEY in message.additional_kwargs


def _units(messages: Sequence[BaseMessage]) -> list[_Unit]:
    units: list[_Unit] = []
    i = 0
    while i < len(messages):
        message = messages[i]
        i += 1
        if isinstance(message, AIMessage) and message.tool_calls:
            pending = {c["id"] for c in message.tool_calls}
            group: list[BaseMessage] = [message]
            while i < len(messages):
                nxt = messages[i]
                if not isinstance(nxt, ToolMessage) or nxt.tool_call_id not in pending:
                    break
                pending.discard(nxt.tool_call_id)
                group.append(nxt)
                i += 1
            complete = not pending and None not in {c["id"] for c in message.tool_calls}
            units.append(_Unit("tools" if complete else "broken", tuple(group)))
        elif isinstance(message, ToolMessage):
            units.append(_Unit("broken", (message,)))
        elif isinstance(message, HumanMessage):
            units.append(_Unit("human", (message,)))
        elif isinstance(message, SystemMessage) and _is_summary(message):
            units.append(_Unit("summary", (message,)))
        elif isinstance(message, SystemMessage) and message.additional_kwargs.get(NOTE_KEY):
            units.append(_Unit("note", (message,)))
        elif isinstance(message, SystemMessage):
            units.append(_Unit("system", (message,)))
        else:
            units.append(_Unit("ai", (message,)))
    return units


# --- the extractive summary ---------------------------------------------------------------------


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _key_sentences(text: str) -> list[str]:
    """Sentences that carry identifiers or numbers (at most two), else the first one."""
    sentences = split_sentences(text)
    keyed = [s for s in sentences if any(ch.isdigit() for ch in s)]
    return (keyed or sentences[:1])[:_KEY_SENTENCES]


def _unit_lines(unit: _Unit, lang: Lang, keep: frozenset[str]) -> list[str]:
    labels = _labels(lang)
    colon = labels["colon"]
    lines: list[str] = []
    names: dict[str, str] = {}
    for message in unit.messages:
        text = _content_text(message)
        if isinstance(message, HumanMessage):
            if text.strip():
                lines.append(f"- {labels['human']}{colon}{_clip(text, _LINE_CHARS)}")
        elif isinstance(message, ToolMessage):
            name = message.name or names.get(message.tool_call_id, "")
            head = f"{labels['tool']} {name}".strip()
            lines.append(f"- {head}{colon}{shrink_tool_content(text, keep)}")
        else:
            if isinstance(message, AIMessage):
                names.update({c["id"] or "": c["name"] for c in message.tool_calls})
            for sentence in _key_sentences(text):
                lines.append(f"- {labels['ai']}{colon}{_clip(sentence, _LINE_CHARS)}")
    return lines


def _cap_lines(lines: list[str], cap: int) -> str:
    """The newest lines whose tokens fit ``cap`` (older context is the first to go)."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        cost = count_tokens(line + "\n")
        if used + cost > cap:
            break
        kept.append(line)
        used += cost
    return "\n".join(reversed(kept))


def _cap_text(text: str, cap: int) -> str:
    """The first ``cap`` tokens of ``text``."""
    if count_tokens(text) <= cap:
        return text
    encoding = get_encoding()
    return encoding.decode(encoding.encode(text, disallowed_special=())[:cap])


def _extractive_body(
    previous: str, folded: Sequence[_Unit], lang: Lang, cap: int, keep: frozenset[str]
) -> str:
    lines = [line for line in previous.splitlines() if line.strip()]
    for unit in folded:
        lines.extend(_unit_lines(unit, lang, keep))
    # A repeated line keeps its latest position, so the cap drops stale copies first.
    latest = {line: index for index, line in enumerate(lines)}
    return _cap_lines([line for index, line in enumerate(lines) if latest[line] == index], cap)


def _summary_message(facts_block: str, body: str, lang: Lang) -> SystemMessage | None:
    if not facts_block and not body:
        return None
    content = "\n".join(part for part in (_labels(lang)["title"], facts_block, body) if part)
    return SystemMessage(content=content, id=SUMMARY_ID, additional_kwargs={SUMMARY_KEY: body})


# --- planning -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Plan:
    pinned: tuple[BaseMessage, ...]
    folded: tuple[_Unit, ...]
    kept: tuple[BaseMessage, ...]
    notes_dropped: int
    tail_tools_shrunk: int


def _plan(
    units: Sequence[_Unit], keep_turns: int, shrink_tail: bool, keep_fields: frozenset[str]
) -> _Plan:
    humans = [i for i, u in enumerate(units) if u.kind == "human"]
    last_human = humans[-1] if humans else len(units)
    tail_start = humans[-min(keep_turns, len(humans))] if humans else len(units)
    pinned: list[BaseMessage] = []
    folded: list[_Unit] = []
    kept: list[BaseMessage] = []
    notes = shrunk = 0
    for index, unit in enumerate(units):
        if unit.kind == "summary":
            continue
        if unit.kind == "note":
            if index > last_human:
                kept.extend(unit.messages)
            else:
                notes += 1
        elif unit.kind == "system" and index < tail_start:
            pinned.extend(unit.messages)
        elif index < tail_start or unit.kind == "broken":
            folded.append(unit)
        elif unit.kind == "tools" and shrink_tail:
            for message in unit.messages:
                new = (
                    _shrink_tool_message(message, keep_fields)
                    if isinstance(message, ToolMessage)
                    else message
                )
                shrunk += new is not message
                kept.append(new)
        else:
            kept.extend(unit.messages)
    return _Plan(tuple(pinned), tuple(folded), tuple(kept), notes, shrunk)


def _folded_facts(
    facts: Mapping[str, Any], folded: Iterable[_Unit], tool_fields: _ToolFields
) -> dict[str, Any]:
    """``facts`` plus what the folded messages say: customer text and tool results' ids."""
    merged = dict(facts)
    for unit in folded:
        for message in unit.messages:
            text = _content_text(message)
            if isinstance(message, HumanMessage):
                merged = extract_facts(text, merged, packs=tool_fields.packs)
            elif isinstance(message, ToolMessage):
                found = _ids_in(shrink_tool_content(text, tool_fields.keep), tool_fields.facts)
                merged = merge_ids(merged, found)
    return merged


def _ids_in(shrunk: str, fact_fields: Mapping[str, str]) -> dict[str, list[str]]:
    """Fact key -> the identifiers a (shrunk) tool result carries in the packs' fact fields."""
    try:
        data = json.loads(shrunk)
    except ValueError:
        return {}
    found: dict[str, list[str]] = {name: [] for name in fact_fields}
    stack: list[Any] = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in found and isinstance(value, str | int) and str(value) not in found[key]:
                    found[key].append(str(value))
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return {fact_fields[name]: values for name, values in found.items() if values}


def _turns_in(folded: Iterable[_Unit]) -> int:
    return sum(1 for u in folded if u.kind == "human")


def _tool_results_in(folded: Iterable[_Unit]) -> int:
    return sum(isinstance(m, ToolMessage) for u in folded for m in u.messages)


def _language(units: Sequence[_Unit]) -> Lang:
    for unit in reversed(units):
        if unit.kind == "human":
            return detect_language(_content_text(unit.messages[0]))
    return "en"


def _fold_input(previous: str, folded: Sequence[_Unit], keep: frozenset[str]) -> list[BaseMessage]:
    """What a model summarizes: the previous summary, then the folded messages (shrunk)."""
    messages: list[BaseMessage] = [SystemMessage(content=previous)] if previous else []
    for unit in folded:
        for message in unit.messages:
            if isinstance(message, ToolMessage):
                message = _shrink_tool_message(message, keep)
            messages.append(message)
    return messages


def _summarized(result: CompactionResult, summarize: Summarizer | None) -> CompactionResult:
    """``result`` with the sync hook's summary when it gives one (the extractive one else)."""
    if summarize is None or not result.folded:
        return result
    try:
        text = summarize(list(result.folded))
    except Exception:  # a failing summary model must not fail the turn: extractive instead
        return result
    return result.with_summary(text) if isinstance(text, str) else result


def _previous_body(units: Sequence[_Unit], previous_summary: str) -> str:
    if previous_summary:
        return previous_summary
    for unit in units:
        if unit.kind == "summary":
            body = unit.messages[0].additional_kwargs.get(SUMMARY_KEY)
            if isinstance(body, str):
                return body
    return ""


def compact(
    messages: Sequence[BaseMessage],
    facts: Mapping[str, Any],
    policy: CompactionPolicy,
    *,
    packs: PackSet,
    summarize: Summarizer | None = None,
    previous_summary: str = "",
) -> CompactionResult:
    """Compact ``messages`` once they reach the policy's watermark (a no-op below it).

    Candidates are tried from the gentlest: the last ``keep_last_turns`` turns verbatim, then the
    same with their tool results shrunk, then one turn fewer, down to the last turn; the first
    under the watermark wins, else the smallest that fits the window, else a reset.

    Args:
        messages: the history; every message needs an id (``add_messages`` assigns them).
        facts: the session facts; those read from folded messages are merged in.
        policy: the tier's window and watermark.
        packs: the loaded packs: the fields a shrunk tool result keeps, and the identifiers
            read into the facts from folded tool results (empty: only the generic fields).
        summarize: a model tier's summary hook, called at most once; the default (and the
            fallback when it raises) is the extractive summary.
        previous_summary: the body of the last summary (``state["summary"]``); defaults to the
            body stored on a summary message found in ``messages``.

    Raises:
        ValueError: a message has no id, an id repeats, or the history holds a ``RemoveMessage``.
    """
    _validate(messages)
    history = list(messages)
    tokens_before = count_messages(history)
    if tokens_before < policy.threshold_tokens:
        report = CompactionReport(tokens_before, tokens_before, False, False, _counts())
        return CompactionResult(history, previous_summary, report, [], dict(facts))

    units = _units(history)
    lang = _language(units)
    previous = _previous_body(units, previous_summary)
    cap = policy.summary_cap
    tool_fields = _ToolFields.of(packs)
    keep_fields = tool_fields.keep

    def assemble(plan: _Plan, body: str) -> tuple[list[BaseMessage], dict[str, Any]]:
        merged = _folded_facts(facts, plan.folded, tool_fields)
        summary = _summary_message(render_facts(merged, lang), body, lang)
        head = [*plan.pinned, summary] if summary is not None else list(plan.pinned)
        return [*head, *plan.kept], merged

    # Gentlest first; the last candidate (one turn, tool results shrunk) is also the smallest.
    candidates = [
        (keep, shrink_tail)
        for keep in range(policy.keep_last_turns, 0, -1)
        for shrink_tail in (False, True)
    ]
    for keep, shrink_tail in candidates:
        plan = _plan(units, keep, shrink_tail, keep_fields)
        body = _extractive_body(previous, plan.folded, lang, cap, keep_fields)
        new, merged = assemble(plan, body)
        tokens = count_messages(new)
        if tokens < policy.threshold_tokens:
            break
    if tokens > policy.budget_tokens:
        return _reset(
            history, units, facts, policy, lang, previous, summarize, tokens_before, tool_fields
        )

    dropped = _counts(
        turns=_turns_in(plan.folded),
        tools=_tool_results_in(plan.folded) + plan.tail_tools_shrunk,
        notes=plan.notes_dropped,
    )
    chosen = plan

    def with_model_body(text: str) -> CompactionResult | None:
        model_body = _cap_text(text.strip(), cap)
        if not model_body:
            return None
        candidate, candidate_facts = assemble(chosen, model_body)
        candidate_tokens = count_messages(candidate)
        if candidate_tokens > policy.budget_tokens:
            return None
        return _result(
            history, candidate, model_body, candidate_facts, tokens_before, candidate_tokens,
            dropped, "model",
        )  # fmt: skip

    result = _result(history, new, body, merged, tokens_before, tokens, dropped, "extractive")
    if plan.folded:
        folded = _fold_input(previous, plan.folded, keep_fields)
        result = replace(result, folded=folded, resummarize=with_model_body)
    return _summarized(result, summarize)


def _reset(
    history: list[BaseMessage],
    units: Sequence[_Unit],
    facts: Mapping[str, Any],
    policy: CompactionPolicy,
    lang: Lang,
    previous: str,
    summarize: Summarizer | None,
    tokens_before: int,
    tool_fields: _ToolFields,
) -> CompactionResult:
    """The summary (facts carried over) and the customer's last message, nothing else."""
    humans = [i for i, u in enumerate(units) if u.kind == "human"]
    last = units[humans[-1]].messages[0] if humans else None
    last_index = humans[-1] if humans else -1
    folded_units = tuple(
        u for i, u in enumerate(units) if u.kind not in ("summary", "note") and i != last_index
    )
    merged = _folded_facts(facts, folded_units, tool_fields)
    facts_block = render_facts(merged, lang)
    tail = [last] if last is not None else []
    # The body gets whatever the facts and the last message leave of the window.
    fixed = count_messages(tail) + message_tokens(
        SystemMessage(content=f"{_labels(lang)['title']}\n{facts_block}")
    )
    cap = max(0, min(policy.summary_cap, policy.budget_tokens - fixed))
    notes = sum(1 for u in units if u.kind == "note")
    dropped = _counts(
        turns=_turns_in(folded_units), tools=_tool_results_in(folded_units), notes=notes
    )

    def reset_with(body: str, summarizer: Literal["extractive", "model"]) -> CompactionResult:
        summary = _summary_message(facts_block, body, lang)
        new: list[BaseMessage] = [*([summary] if summary is not None else []), *tail]
        return _result(
            history, new, body, merged, tokens_before, count_messages(new), dropped, summarizer,
            reset=True,
        )  # fmt: skip

    def with_model_body(text: str) -> CompactionResult | None:
        model_body = _cap_text(text.strip(), cap)
        return reset_with(model_body, "model") if model_body else None

    result = reset_with(
        _extractive_body(previous, folded_units, lang, cap, tool_fields.keep), "extractive"
    )
    if folded_units and cap > 0:
        folded = _fold_input(previous, folded_units, tool_fields.keep)
        result = replace(result, folded=folded, resummarize=with_model_body)
    return _summarized(result, summarize)


def _counts(*, turns: int = 0, tools: int = 0, notes: int = 0, removed: int = 0) -> dict[str, int]:
    return {
        "turns_summarized": turns,
        "tool_results_shrunk": tools,
        "notes_dropped": notes,
        "messages_removed": removed,
    }


def _result(
    history: list[BaseMessage],
    new: list[BaseMessage],
    body: str,
    facts: dict[str, Any],
    tokens_before: int,
    tokens_after: int,
    dropped: dict[str, int],
    summarizer: Literal["extractive", "model"],
    *,
    reset: bool = False,
) -> CompactionResult:
    kept_ids = {m.id for m in new}
    removals = [RemoveMessage(id=m.id) for m in history if m.id and m.id not in kept_ids]
    changed = (
        reset
        or len(new) != len(history)
        or any(a is not b for a, b in zip(new, history, strict=True))
    )
    report = CompactionReport(
        tokens_before,
        tokens_after,
        changed,
        reset,
        {**dropped, "messages_removed": len(removals)},
        summarizer if changed else "none",
    )
    return CompactionResult(new, body, report, removals, facts)
