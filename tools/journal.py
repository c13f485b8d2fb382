"""The write journal: every write is recorded before it is sent and settled when its outcome is
known, outside the conversation's checkpoints.

A process can die between sending a write and storing the turn (kill -9, OOM, a deploy). The
checkpoint then says nothing about that write — but the journal does: the entry stays ``sent``
(or ``unknown``) and the next turn of the session reconciles it by its idempotency key before
anything else, and tells the customer the truth. The journal also answers "did this customer
already receive this exact money action recently?" so a second identical refund is asked about
explicitly, and it lets a session's confirmation ids be recognised as consumed after a crash.

Backends: in memory (tests, no persistence), SQLite (the embedded default, next to the session
database; WAL, one short transaction per call, run off the event loop) and PostgreSQL
(scale-out). All share :class:`WriteJournal`.

Over 400 lines on purpose: the journal's protocol and its three backends (memory, SQLite,
PostgreSQL, the last two sharing their SQL) are kept together so they stay in step.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Protocol

from helpdesk.tools.context import normalize_args
from helpdesk.tools.sqlite_open import retry_locked

__all__ = [
    "UNSETTLED",
    "JournalEntry",
    "JournalState",
    "MemoryWriteJournal",
    "PostgresWriteJournal",
    "SqliteWriteJournal",
    "WriteJournal",
    "journal_args",
    "journal_result",
    "open_journal",
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
    )


class MemoryWriteJournal:
    """An in-process journal (tests, and bots built without persistence)."""

    def __init__(self) -> None:
        self._entries: dict[str, JournalEntry] = {}

    async def begin(self, entry: JournalEntry) -> None:
        current = self._entries.get(entry.key)
        if current is None or current.state in UNSETTLED:
            self._entries[entry.key] = entry if current is None else replace(current, state="sent")

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


_COLUMNS = (
    "key, session, customer, tool, args, kind, confirmation_id, state, started_at, settled_at,"
    " result, reported"
)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS helpdesk_write_journal (
    key TEXT PRIMARY KEY,
    session TEXT NOT NULL,
    customer TEXT,
    tool TEXT NOT NULL,
    args TEXT NOT NULL,
    kind TEXT NOT NULL,
    confirmation_id TEXT,
    state TEXT NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    settled_at DOUBLE PRECISION,
    result TEXT NOT NULL,
    reported INTEGER NOT NULL DEFAULT 0
)
"""
_INDEXES = (
    "CREATE INDEX IF NOT EXISTS helpdesk_write_journal_session"
    " ON helpdesk_write_journal (session, state)",
    "CREATE INDEX IF NOT EXISTS helpdesk_write_journal_customer"
    " ON helpdesk_write_journal (customer, tool, state)",
)


def _row_entry(row: Sequence[Any]) -> JournalEntry:
    return JournalEntry(
        key=row[0],
        session=row[1],
        customer=row[2],
        tool=row[3],
        args=json.loads(row[4]),
        kind=row[5],
        confirmation_id=row[6],
        state=row[7],
        started_at=float(row[8]),
        settled_at=None if row[9] is None else float(row[9]),
        result=json.loads(row[10]),
        reported=bool(row[11]),
    )


def _entry_row(entry: JournalEntry) -> tuple[Any, ...]:
    return (
        entry.key,
        entry.session,
        entry.customer,
        entry.tool,
        json.dumps(entry.args, ensure_ascii=False, sort_keys=True, default=str),
        entry.kind,
        entry.confirmation_id,
        entry.state,
        entry.started_at,
        entry.settled_at,
        json.dumps(entry.result, ensure_ascii=False, default=str),
        int(entry.reported),
    )


class _SqlJournal:
    """The SQL shared by the SQLite and PostgreSQL journals (``?`` placeholders)."""

    _placeholder = "?"

    def _sql(self, text: str) -> str:
        return text.replace("?", self._placeholder)

    def _run(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    async def _exec(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await asyncio.to_thread(self._run, self._sql(sql), params)

    async def begin(self, entry: JournalEntry) -> None:
        await self._exec(
            f"INSERT INTO helpdesk_write_journal ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT (key) DO UPDATE SET state = 'sent'"
            " WHERE helpdesk_write_journal.state IN ('sent', 'unknown')",
            _entry_row(entry),
        )

    async def settle(
        self, key: str, state: JournalState, *, at: float, result: dict[str, Any] | None = None
    ) -> None:
        settled_at = None if state in UNSETTLED else at
        if result is None:
            await self._exec(
                "UPDATE helpdesk_write_journal SET state = ?, settled_at = ? WHERE key = ?",
                (state, settled_at, key),
            )
            return
        await self._exec(
            "UPDATE helpdesk_write_journal SET state = ?, settled_at = ?, result = ? WHERE key = ?",
            (state, settled_at, json.dumps(result, ensure_ascii=False, default=str), key),
        )

    async def mark_reported(self, key: str) -> None:
        await self._exec("UPDATE helpdesk_write_journal SET reported = 1 WHERE key = ?", (key,))

    async def unsettled(self, session: str) -> list[JournalEntry]:
        rows = await self._exec(
            f"SELECT {_COLUMNS} FROM helpdesk_write_journal"
            " WHERE session = ? AND state IN ('sent', 'unknown') ORDER BY started_at",
            (session,),
        )
        return [_row_entry(r) for r in rows]

    async def to_report(self, session: str) -> list[JournalEntry]:
        rows = await self._exec(
            f"SELECT {_COLUMNS} FROM helpdesk_write_journal WHERE session = ?"
            " AND (state IN ('sent', 'unknown') OR reported = 0) ORDER BY started_at",
            (session,),
        )
        return [_row_entry(r) for r in rows]

    async def entries(self, session: str) -> list[JournalEntry]:
        rows = await self._exec(
            f"SELECT {_COLUMNS} FROM helpdesk_write_journal WHERE session = ? ORDER BY started_at",
            (session,),
        )
        return [_row_entry(r) for r in rows]

    async def executed_since(self, customer: str, tool: str, since: float) -> list[JournalEntry]:
        rows = await self._exec(
            f"SELECT {_COLUMNS} FROM helpdesk_write_journal WHERE customer = ? AND tool = ?"
            " AND state = 'executed' AND COALESCE(settled_at, started_at) >= ?"
            " ORDER BY started_at",
            (customer, tool, since),
        )
        return [_row_entry(r) for r in rows]

    async def delete_session(self, session: str) -> int:
        rows = await self._exec(
            "DELETE FROM helpdesk_write_journal WHERE session = ? RETURNING key", (session,)
        )
        return len(rows)


class SqliteWriteJournal(_SqlJournal):
    """The journal in a SQLite file (WAL; every call is one short transaction)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(path, check_same_thread=False, timeout=30.0)
        with self._lock:
            # another process may be setting up the same file right now (idempotent: retried)
            retry_locked(self._setup)

    def _setup(self) -> None:
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(_SCHEMA)
            for index in _INDEXES:
                self._conn.execute(index)
            self._conn.commit()
        except sqlite3.OperationalError:
            self._conn.rollback()
            raise

    def _run(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            try:
                rows = self._conn.execute(sql, tuple(params)).fetchall()
                self._conn.commit()
            except BaseException:
                self._conn.rollback()
                raise
        return rows

    def close(self) -> None:
        with self._lock:
            self._conn.close()


_PG_SETUP_LOCK_KEY = 0x68656C7064736B6A  # "helpdskj"


class PostgresWriteJournal(_SqlJournal):
    """The journal in PostgreSQL (scale-out: every replica sees every session's writes)."""

    _placeholder = "%s"

    def __init__(self, url: str) -> None:
        import psycopg

        self._lock = threading.Lock()
        self._conn = psycopg.connect(url, autocommit=True)
        with self._lock, self._conn.transaction():
            # replicas starting together would race on CREATE TABLE IF NOT EXISTS (a unique
            # violation in pg_type): one at a time, the lock ends with the transaction
            self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_PG_SETUP_LOCK_KEY,))
            self._conn.execute(_SCHEMA)
            for index in _INDEXES:
                self._conn.execute(index)

    def _run(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            cursor = self._conn.execute(sql, tuple(params))
            return list(cursor.fetchall()) if cursor.description else []

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def open_journal(*, sqlite_path: Path | None = None, url: str | None = None) -> WriteJournal:
    """The journal the settings select: PostgreSQL for a ``postgresql://`` URL, else SQLite at
    ``sqlite_path``, else in memory."""
    if url:
        return PostgresWriteJournal(url)
    if sqlite_path is not None:
        return SqliteWriteJournal(sqlite_path)
    return MemoryWriteJournal()
