"""The write journal in SQL: a SQLite file (one process, the default) or PostgreSQL (scale-out:
every replica sees every session's writes), and :func:`open_journal`, which picks one from the
settings. The journal's record and protocol are :mod:`helpdesk.tools.journal`'s."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from helpdesk.tools.journal import (
    UNSETTLED,
    JournalEntry,
    JournalState,
    MemoryWriteJournal,
    WriteJournal,
)
from helpdesk.tools.sqlite_open import retry_locked

__all__ = ["PG_SETUP_LOCK_TIMEOUT_MS", "PostgresWriteJournal", "SqliteWriteJournal", "open_journal"]


_COLUMNS = (
    "key, session, customer, tool, args, kind, confirmation_id, state, started_at, settled_at,"
    " result, reported, sending_until"
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
    reported INTEGER NOT NULL DEFAULT 0,
    sending_until DOUBLE PRECISION
)
"""
_ADDED_COLUMNS = (("sending_until", "DOUBLE PRECISION"),)
"""Columns added after the table's first release: a journal made before them gets them."""
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
        sending_until=None if row[12] is None else float(row[12]),
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
        entry.sending_until,
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
            f"INSERT INTO helpdesk_write_journal ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT (key) DO UPDATE SET state = 'sent',"
            " sending_until = EXCLUDED.sending_until"
            " WHERE helpdesk_write_journal.state IN ('sent', 'unknown')",
            _entry_row(entry),
        )

    async def settle(
        self, key: str, state: JournalState, *, at: float, result: dict[str, Any] | None = None
    ) -> None:
        settled_at = None if state in UNSETTLED else at
        # (MemoryWriteJournal's rule: a write told to be unknown, settled, is told again)
        told_again = (
            "reported = CASE WHEN state IN ('sent', 'unknown') THEN 0 ELSE reported END"
            if state not in UNSETTLED
            else "reported = reported"
        )
        if result is None:
            await self._exec(
                f"UPDATE helpdesk_write_journal SET {told_again}, state = ?, settled_at = ?"
                " WHERE key = ?",
                (state, settled_at, key),
            )
            return
        await self._exec(
            f"UPDATE helpdesk_write_journal SET {told_again}, state = ?, settled_at = ?,"
            " result = ? WHERE key = ?",
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
            known = {
                row[1] for row in self._conn.execute("PRAGMA table_info(helpdesk_write_journal)")
            }
            for column, kind in _ADDED_COLUMNS:
                if column not in known:
                    self._conn.execute(
                        f"ALTER TABLE helpdesk_write_journal ADD COLUMN {column} {kind}"
                    )
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
PG_SETUP_LOCK_TIMEOUT_MS = 60_000
"""How long a start waits for the journal table held by another transaction before it fails."""


class PostgresWriteJournal(_SqlJournal):
    """The journal in PostgreSQL (scale-out: every replica sees every session's writes)."""

    _placeholder = "%s"

    def __init__(self, url: str) -> None:
        import psycopg

        self._lock = threading.Lock()
        self._url = url
        self._conn = psycopg.connect(url, autocommit=True)
        try:
            self._create_tables()
        except BaseException:
            # a start that failed (or was interrupted) part-way must not leave its connection
            # idle in a transaction, holding the table against every other replica
            self._conn.close()
            raise

    def _create_tables(self) -> None:
        with self._lock, self._conn.transaction():
            # replicas starting together would race on CREATE TABLE IF NOT EXISTS (a unique
            # violation in pg_type): one at a time, the lock ends with the transaction; a
            # transaction elsewhere holding the table (or the lock) fails the start after
            # PG_SETUP_LOCK_TIMEOUT_MS with PostgreSQL's own error instead of hanging it
            self._conn.execute(f"SET LOCAL lock_timeout = {int(PG_SETUP_LOCK_TIMEOUT_MS)}")
            self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_PG_SETUP_LOCK_KEY,))
            self._conn.execute(_SCHEMA)
            for column, kind in _ADDED_COLUMNS:
                self._conn.execute(
                    f"ALTER TABLE helpdesk_write_journal ADD COLUMN IF NOT EXISTS {column} {kind}"
                )
            for index in _INDEXES:
                self._conn.execute(index)

    def _run(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        import psycopg

        with self._lock:
            if self._conn.closed or self._conn.broken:
                self._reconnect()
            try:
                return self._execute(sql, params)
            except psycopg.OperationalError:
                if not (self._conn.closed or self._conn.broken):
                    raise
                # the server dropped the connection (a restart, a failover, an idle timeout):
                # a new one, and the statement once more (every statement here is idempotent:
                # an upsert, an update to a state, a select, a delete) — never a replica that
                # fails every turn until it is restarted
                self._reconnect()
                return self._execute(sql, params)

    def _execute(self, sql: str, params: Sequence[Any]) -> list[Any]:
        cursor = self._conn.execute(sql, tuple(params))
        return list(cursor.fetchall()) if cursor.description else []

    def _reconnect(self) -> None:
        import psycopg

        with contextlib.suppress(Exception):
            self._conn.close()
        self._conn = psycopg.connect(self._url, autocommit=True)

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
