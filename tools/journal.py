"""The write journal: every write is recorded before it is sent and settled when its outcome is
known, outside the conversation's checkpoints.

A process can die between sending a write and storing the turn (kill -9, OOM, a deploy). The
checkpoint then says nothing about that write — but the journal does: the entry stays ``sent``
(or ``unknown``) and the next turn of the session reconciles it by its idempotency key before
anything else, and tells the customer the truth. The journal also answers "did this customer
already receive this exact money action recently?" so a second identical refund is asked about
explicitly, and it lets a session's confirmation ids be recognised as consumed after a crash.

Backends: in memory (here; tests, no persistence), SQLite (the embedded default, next to the
session database; WAL, one short transaction per call, run off the event loop) and PostgreSQL
(scale-out; a connection the server dropped is replaced) in :mod:`helpdesk.tools.journal_sql`,
which also holds :func:`~helpdesk.tools.journal_sql.open_journal`. All share
:class:`WriteJournal`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from helpdesk.tools.context import normalize_args

__all__ = [
    "UNSETTLED",
    "JournalEntry",
    "JournalState",
    "MemoryWriteJournal",
    "WriteJournal",
    "journal_args",
    "journal_result",
]

JournalState = Literal["sent", "executed", "not_executed", "refused", "unknown"]
"""``sent``: on its way (a crash leaves it here); ``unknown``: could not be established yet;
the other three are settled."""

UNSETTLED: tuple[JournalState, ...] = ("sent", "unknown")

_MAX_CLEAR_TEXT = 64
_RESULT_KEYS = frozenset({"amount", "status", "category", "currency", "reused"})


def journal_args(args: dict[str, Any]) -> dict[str, Any]:
    """A write's arguments as the journal keeps them: identifiers and amounts in clear, free
    text (a ticket's description, which may hold a phone number or an address) only as a
    digest — enough to recognise the same action again, never customer text at rest."""
    out: dict[str, Any] = {}
    for key, value in normalize_args(args).items():
        if isinstance(value, str) and len(value) > _MAX_CLEAR_TEXT:
            value = "sha256:" + hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()[:16]
        elif isinstance(value, dict | list):
            text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
            value = "sha256:" + hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]
        out[key] = value
    return out


def journal_result(data: Any) -> dict[str, Any] | None:
    """What the journal keeps of a backend's answer: ids, amounts and statuses, nothing else."""
    if not isinstance(data, dict):
        return None
    return {
        k: v
        for k, v in data.items()
        if (k.endswith("_id") or k in _RESULT_KEYS) and isinstance(v, str | int | float | bool)
    }


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One write, as the journal knows it."""

    key: str
    """The write's idempotency key."""
    session: str
    customer: str | None
    tool: str
    args: dict[str, Any]
    kind: str = "write"
    """The tool's kind (``write`` or ``money``)."""
    confirmation_id: str | None = None
    """The confirmation that authorised it (None for writes that need no confirmation)."""
    state: JournalState = "sent"
    started_at: float = 0.0
    """Wall-clock seconds when it was sent."""
    settled_at: float | None = None
    result: dict[str, Any] = field(default_factory=dict)
    """What the backend answered (ids, amounts) once known."""
    reported: bool = False
    """The customer has been told about an outcome found by reconciliation."""
    sending_until: float | None = None
    """Wall-clock seconds until which its sender may still send it (the end of the sending
    turn's budget, and the way to the backend): before then a key the backend does not know
    yet may still arrive — another process, or a turn cut off mid-write, is still sending it."""


class WriteJournal(Protocol):
    """Where writes are recorded before they are sent."""

    async def begin(self, entry: JournalEntry) -> None:
        """Record a write about to be sent (kept as is when the key is already settled)."""

    async def settle(
        self, key: str, state: JournalState, *, at: float, result: dict[str, Any] | None = None
    ) -> None:
        """Record a write's outcome."""

    async def mark_reported(self, key: str) -> None:
        """The customer has been told what reconciliation found."""

    async def unsettled(self, session: str) -> list[JournalEntry]:
        """The session's writes whose outcome was never recorded, oldest first."""

    async def to_report(self, session: str) -> list[JournalEntry]:
        """The session's writes the customer may not have been told about: unsettled ones, and
        settled ones no published reply has reported yet (the process died before it)."""

    async def entries(self, session: str) -> list[JournalEntry]:
        """Every write of the session, oldest first."""

    async def executed_since(self, customer: str, tool: str, since: float) -> list[JournalEntry]:
        """The customer's writes with ``tool`` that took effect at or after ``since``."""

    async def delete_session(self, session: str) -> int:
        """Forget a session's writes; returns how many entries were removed."""


def _settled_update(
    entry: JournalEntry, state: JournalState, at: float, result: Any
) -> JournalEntry:
    return replace(
        entry,
        state=state,
        settled_at=None if state in UNSETTLED else at,
        result=dict(result) if isinstance(result, dict) else entry.result,
        reported=entry.reported and not _settles_a_told_unknown(entry.state, state),
    )


def _settles_a_told_unknown(before: JournalState, after: JournalState) -> bool:
    """A write the customer may have been told is not known yet (or still on its way), settled
    now: its outcome is to be told (again), whoever settled it — the process that sent it may
    not be the one the customer talks to next."""
    return before in UNSETTLED and after not in UNSETTLED


class MemoryWriteJournal:
    """An in-process journal (tests, and bots built without persistence)."""

    def __init__(self) -> None:
        self._entries: dict[str, JournalEntry] = {}

    async def begin(self, entry: JournalEntry) -> None:
        current = self._entries.get(entry.key)
        if current is None or current.state in UNSETTLED:
            self._entries[entry.key] = (
                entry
                if current is None
                else replace(current, state="sent", sending_until=entry.sending_until)
            )

    async def settle(
        self, key: str, state: JournalState, *, at: float, result: dict[str, Any] | None = None
    ) -> None:
        entry = self._entries.get(key)
        if entry is not None:
            self._entries[key] = _settled_update(entry, state, at, result)

    async def mark_reported(self, key: str) -> None:
        entry = self._entries.get(key)
        if entry is not None:
            self._entries[key] = replace(entry, reported=True)

    async def unsettled(self, session: str) -> list[JournalEntry]:
        return [e for e in self._entries.values() if e.session == session and e.state in UNSETTLED]

    async def to_report(self, session: str) -> list[JournalEntry]:
        return [
            e
            for e in self._entries.values()
            if e.session == session and (e.state in UNSETTLED or not e.reported)
        ]

    async def entries(self, session: str) -> list[JournalEntry]:
        return [e for e in self._entries.values() if e.session == session]

    async def executed_since(self, customer: str, tool: str, since: float) -> list[JournalEntry]:
        return [
            e
            for e in self._entries.values()
            if e.customer == customer
            and e.tool == tool
            and e.state == "executed"
            and (e.settled_at or e.started_at) >= since
        ]

    async def delete_session(self, session: str) -> int:
        keys = [k for k, e in self._entries.items() if e.session == session]
        for key in keys:
            del self._entries[key]
        return len(keys)
