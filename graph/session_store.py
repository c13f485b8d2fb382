"""Bounded session storage: an index of sessions, pruning, retention and erasure.

LangGraph keeps every checkpoint of a thread forever; a session needs only its latest one (its
state, and the pending writes a resume reads). :class:`SessionStore` sits beside a checkpointer,
on the same database (the SQLite file or the PostgreSQL pool), and

- keeps an index row per session (``helpdesk_sessions``: owner, created, last active, turns),
  written after each turn — what ``helpdesk sessions list`` and ``delete --customer`` read;
- prunes a session's older checkpoints and their writes after each turn (:meth:`after_turn`);
- deletes a session completely (every checkpoint table, the index row, then the delete hooks —
  the lock file, a write journal), one at a time, by customer, or when idle past the retention.

Times are wall-clock seconds from an injected :class:`~helpdesk.degrade.clock.Clock`, so retention
is tested on a fake clock. A session that has checkpoints but no index row (written by an older
version, or by the compiled graph invoked directly) is listed with its last checkpoint's time.

Longer than 400 lines because every operation (index, prune, delete, purge) is written for
SQLite and PostgreSQL side by side, so the two stay the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

import aiosqlite
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.graph.session_lock import SessionBusyError, SessionLock

__all__ = [
    "DeleteHook",
    "SessionInfo",
    "SessionStore",
    "checkpoint_time",
]

DeleteHook = Callable[[str], Awaitable[None]]
"""Called with a session id after the session's rows were deleted (erase what else it left)."""

DAY_S: Final = 86_400.0
AUTO_PURGE_EVERY_S: Final = 3_600.0
"""A long-running process applies the retention at most this often (from :meth:`after_turn`)."""

_GREGORIAN_TO_UNIX_100NS: Final = 0x01B21DD213814000


def checkpoint_time(checkpoint_id: str) -> float | None:
    """Unix time encoded in a LangGraph checkpoint id (a version-6 UUID), or None."""
    try:
        value = uuid.UUID(checkpoint_id)
    except ValueError:
        return None
    if value.version != 6:
        return None
    raw = value.int >> 64
    ticks = ((raw >> 32) << 28) | (((raw >> 16) & 0xFFFF) << 12) | (raw & 0x0FFF)
    return (ticks - _GREGORIAN_TO_UNIX_100NS) / 1e7


@dataclass(frozen=True, kw_only=True, slots=True)
class SessionInfo:
    """One session as the index (and its checkpoints) know it."""

    session: str
    """The thread id."""
    customer: str | None
    """Owner (None: not indexed)."""
    created_at: float | None
    """Unix time of the first indexed turn."""
    last_active_at: float
    """Unix time of the last turn (or of the last checkpoint when not indexed)."""
    turns: int
    """Turns recorded in the index."""
    checkpoints: int
    """Checkpoints stored for the session."""

    def as_json(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "customer": self.customer,
            "created_at": self.created_at,
            "last_active_at": self.last_active_at,
            "turns": self.turns,
            "checkpoints": self.checkpoints,
        }


@dataclass
class SessionStore:
    """Index, pruning and erasure for the sessions of one checkpointer (SQLite or PostgreSQL).

    Args:
        saver: the checkpointer whose database holds the sessions.
        clock: wall time for the index and the retention (a FakeClock in tests).
        retention_s: sessions idle longer than this are deleted by :meth:`purge_expired`.
        lock: the per-session lock; a session is deleted while holding it, and the retention
            skips a session that is busy right now (it is not idle).
        auto_purge: apply the retention from :meth:`after_turn`, at most hourly (the bot turns
            it on when it runs on the real clock; tests and drills on a fake clock do not).
        delete_hooks: called with a session id after the session's rows are deleted.
    """

    saver: BaseCheckpointSaver[Any]
    clock: Clock = field(default_factory=SystemClock)
    retention_s: float = 30 * DAY_S
    lock: SessionLock | None = None
    auto_purge: bool = False
    delete_hooks: list[DeleteHook] = field(default_factory=list)
    _backend: _Backend = field(init=False, repr=False)
    _last_auto_purge: float | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.retention_s <= 0:
            raise ValueError(f"retention_s must be > 0, got {self.retention_s}")
        if isinstance(self.saver, AsyncSqliteSaver):
            self._backend = _SqliteBackend(self.saver)
        elif type(self.saver).__name__.endswith("PostgresSaver"):
            self._backend = _PostgresBackend(self.saver)
        else:
            raise TypeError(f"no session store for {type(self.saver).__name__}")

    async def after_turn(self, session: str, customer: str) -> None:
        """Index the turn, prune the session's older checkpoints, and (hourly) the retention."""
        now = self.clock.wall()
        await self._backend.after_turn(session, customer, now)
        if not self.auto_purge:
            return
        if self._last_auto_purge is None or now - self._last_auto_purge >= AUTO_PURGE_EVERY_S:
            self._last_auto_purge = now
            await self.purge_expired()

    async def prune(self, session: str) -> None:
        """Delete all but the latest checkpoint of ``session`` (and the older ones' writes)."""
        await self._backend.prune(session)

    async def sessions(self, *, customer: str | None = None) -> list[SessionInfo]:
        """Every session (or one customer's), most recently active first."""
        rows = await self._backend.list_sessions()
        if customer is not None:
            rows = [r for r in rows if r.customer == customer]
        return sorted(rows, key=lambda r: r.last_active_at, reverse=True)

    async def get(self, session: str) -> SessionInfo | None:
        return next((r for r in await self._backend.list_sessions() if r.session == session), None)

    async def delete(self, session: str, *, wait_s: float | None = None) -> bool:
        """Delete every row of ``session`` (holding its lock: never under a running turn);
        False when there was none.

        Raises:
            SessionBusyError: a turn held the session for longer than ``wait_s``.
        """
        hold = self.lock.hold(session, wait_s=wait_s) if self.lock else contextlib.nullcontext()
        async with hold:
            existed = await self.get(session) is not None
            await self.saver.adelete_thread(session)
            await self._backend.forget(session)
            for hook in self.delete_hooks:
                await hook(session)
        return existed

    async def delete_customer(self, customer: str) -> list[str]:
        """Delete every session of ``customer``; the ids deleted."""
        gone = [r.session for r in await self.sessions(customer=customer)]
        for session in gone:
            await self.delete(session)
        return gone

    async def purge(self, *, older_than_s: float) -> list[str]:
        """Delete the sessions idle for more than ``older_than_s``; the ids deleted."""
        if older_than_s < 0:
            raise ValueError(f"older_than_s must be >= 0, got {older_than_s}")
        cutoff = self.clock.wall() - older_than_s
        gone = []
        for row in await self.sessions():
            if row.last_active_at >= cutoff:
                continue
            with contextlib.suppress(SessionBusyError):  # in use right now: not idle
                await self.delete(row.session, wait_s=0)
                gone.append(row.session)
        return gone

    async def purge_expired(self) -> list[str]:
        """:meth:`purge` with the retention period."""
        return await self.purge(older_than_s=self.retention_s)


class _Backend:
    async def record_turn(self, session: str, customer: str, at: float) -> None:
        raise NotImplementedError

    async def after_turn(self, session: str, customer: str, at: float) -> None:
        await self.record_turn(session, customer, at)
        await self.prune(session)

    async def prune(self, session: str) -> None:
        raise NotImplementedError

    async def list_sessions(self) -> list[SessionInfo]:
        raise NotImplementedError

    async def forget(self, session: str) -> None:
        raise NotImplementedError


def _info(
    session: str,
    customer: str | None,
    created: float | None,
    active: float | None,
    turns: int | None,
    checkpoints: int,
    last_checkpoint: str | None,
) -> SessionInfo:
    last = active if active is not None else checkpoint_time(last_checkpoint or "")
    return SessionInfo(
        session=session,
        customer=customer,
        created_at=created,
        last_active_at=last if last is not None else time.time(),
        turns=turns or 0,
        checkpoints=checkpoints,
    )


_SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS helpdesk_sessions (
    thread_id TEXT PRIMARY KEY,
    customer TEXT NOT NULL,
    created_at REAL NOT NULL,
    last_active_at REAL NOT NULL,
    turns INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS helpdesk_sessions_by_customer ON helpdesk_sessions (customer);
CREATE TRIGGER IF NOT EXISTS helpdesk_keep_latest_checkpoint AFTER INSERT ON checkpoints
BEGIN
    DELETE FROM checkpoints WHERE thread_id = NEW.thread_id
        AND checkpoint_ns = NEW.checkpoint_ns AND checkpoint_id < NEW.checkpoint_id;
    DELETE FROM writes WHERE thread_id = NEW.thread_id
        AND checkpoint_ns = NEW.checkpoint_ns AND checkpoint_id < NEW.checkpoint_id;
END;
"""
"""The session index, and the pruning: storing a checkpoint deletes the older ones of its thread
and namespace (checkpoint ids sort by time) with their pending writes, in the same statement, so
a turn's pruning costs no statement of its own (each is a hand-off to the aiosqlite thread)."""

_SQLITE_LIST = """
WITH cp AS (
    SELECT thread_id, COUNT(*) AS n, MAX(checkpoint_id) AS last_id
    FROM checkpoints GROUP BY thread_id
)
SELECT s.thread_id, s.customer, s.created_at, s.last_active_at, s.turns,
       COALESCE(cp.n, 0), cp.last_id
FROM helpdesk_sessions s LEFT JOIN cp ON cp.thread_id = s.thread_id
UNION ALL
SELECT cp.thread_id, NULL, NULL, NULL, NULL, cp.n, cp.last_id
FROM cp WHERE cp.thread_id NOT IN (SELECT thread_id FROM helpdesk_sessions)
"""


_SQLITE_RECORD = (
    "INSERT INTO helpdesk_sessions (thread_id, customer, created_at, last_active_at, turns)"
    " VALUES (?, ?, ?, ?, 1) ON CONFLICT (thread_id) DO UPDATE SET customer = excluded.customer,"
    " last_active_at = excluded.last_active_at, turns = helpdesk_sessions.turns + 1"
)
_SQLITE_PRUNE_CHECKPOINTS = (
    "DELETE FROM checkpoints WHERE rowid IN (SELECT rowid FROM (SELECT rowid, ROW_NUMBER() OVER"
    " (PARTITION BY checkpoint_ns ORDER BY checkpoint_id DESC) AS rn FROM checkpoints"
    " WHERE thread_id = ?) WHERE rn > 1)"
)
_SQLITE_PRUNE_WRITES = (
    "DELETE FROM writes WHERE thread_id = ? AND NOT EXISTS (SELECT 1 FROM checkpoints c"
    " WHERE c.thread_id = writes.thread_id AND c.checkpoint_ns = writes.checkpoint_ns"
    " AND c.checkpoint_id = writes.checkpoint_id)"
)


class _SqliteBackend(_Backend):
    """Statements on the saver's own aiosqlite connection, under the saver's lock."""

    def __init__(self, saver: AsyncSqliteSaver) -> None:
        self.saver = saver
        self._ready = False
        self._pruned = False

    async def _conn(self) -> aiosqlite.Connection:
        if not self._ready:
            await self.saver.setup()
            async with self.saver.lock:
                await self.saver.conn.executescript(_SQLITE_SCHEMA)
                await self.saver.conn.commit()
            self._ready = True
        return self.saver.conn

    async def record_turn(self, session: str, customer: str, at: float) -> None:
        await self._run(session, record=(customer, at), prune=False)

    async def prune(self, session: str) -> None:
        await self._run(session, record=None, prune=True)

    async def after_turn(self, session: str, customer: str, at: float) -> None:
        # the trigger prunes from the schema's creation on; what was stored before it, once here
        await self._run(session, record=(customer, at), prune=not self._pruned)
        self._pruned = True

    async def _run(self, session: str, *, record: tuple[str, float] | None, prune: bool) -> None:
        """The index upsert and/or the pruning in one transaction (one commit per turn)."""
        conn = await self._conn()
        async with self.saver.lock:
            if record is not None:
                customer, at = record
                await conn.execute(_SQLITE_RECORD, (session, customer, at, at))
            if prune:
                await conn.execute(_SQLITE_PRUNE_CHECKPOINTS, (session,))
                await conn.execute(_SQLITE_PRUNE_WRITES, (session,))
            await conn.commit()

    async def list_sessions(self) -> list[SessionInfo]:
        conn = await self._conn()
        async with self.saver.lock, conn.execute(_SQLITE_LIST) as cursor:
            rows = await cursor.fetchall()
        return [_info(*row) for row in rows]

    async def forget(self, session: str) -> None:
        conn = await self._conn()
        async with self.saver.lock:
            await conn.execute("DELETE FROM helpdesk_sessions WHERE thread_id = ?", (session,))
            await conn.commit()


_PG_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS helpdesk_sessions (
    thread_id TEXT PRIMARY KEY,
    customer TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    last_active_at DOUBLE PRECISION NOT NULL,
    turns INTEGER NOT NULL DEFAULT 0
)""",
    "CREATE INDEX IF NOT EXISTS helpdesk_sessions_by_customer ON helpdesk_sessions (customer)",
)

_PG_LIST = """
WITH cp AS (
    SELECT thread_id, COUNT(*) AS n, MAX(checkpoint_id) AS last_id
    FROM checkpoints GROUP BY thread_id
)
SELECT s.thread_id, s.customer, s.created_at, s.last_active_at, s.turns,
       COALESCE(cp.n, 0), cp.last_id
FROM helpdesk_sessions s LEFT JOIN cp ON cp.thread_id = s.thread_id
UNION ALL
SELECT cp.thread_id, NULL, NULL, NULL, NULL, cp.n, cp.last_id
FROM cp WHERE NOT EXISTS (SELECT 1 FROM helpdesk_sessions s WHERE s.thread_id = cp.thread_id)
"""


class _PostgresBackend(_Backend):
    """Statements on the saver's pool (or connection); pruning is LangGraph's ``keep_latest``."""

    def __init__(self, saver: Any) -> None:
        self.saver = saver
        self._ready = False
        self._pruned = False
        self._setup_lock = asyncio.Lock()

    async def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        from langgraph.checkpoint.postgres import _ainternal

        if not self._ready:
            async with self._setup_lock:
                if not self._ready:
                    await self._create_schema()
                    self._ready = True
        async with (
            _ainternal.get_connection(self.saver.conn) as conn,
            conn.cursor(row_factory=_tuple_row()) as cur,
        ):
            await cur.execute(sql, params)
            return list(await cur.fetchall()) if cur.description else []

    async def _create_schema(self) -> None:
        import psycopg
        from langgraph.checkpoint.postgres import _ainternal

        async with _ainternal.get_connection(self.saver.conn) as conn:
            for statement in _PG_SCHEMA:
                # two processes creating the table at once: the loser sees it exists
                with contextlib.suppress(psycopg.errors.UniqueViolation):
                    await conn.execute(statement)

    async def record_turn(self, session: str, customer: str, at: float) -> None:
        await self._execute(
            "INSERT INTO helpdesk_sessions (thread_id, customer, created_at, last_active_at,"
            " turns) VALUES (%s, %s, %s, %s, 1) ON CONFLICT (thread_id) DO UPDATE SET"
            " customer = excluded.customer, last_active_at = excluded.last_active_at,"
            " turns = helpdesk_sessions.turns + 1",
            (session, customer, at, at),
        )

    async def prune(self, session: str) -> None:
        await self.saver.aprune([session], strategy="keep_latest")

    async def list_sessions(self) -> list[SessionInfo]:
        return [_info(*row) for row in await self._execute(_PG_LIST)]

    async def forget(self, session: str) -> None:
        await self._execute("DELETE FROM helpdesk_sessions WHERE thread_id = %s", (session,))


def _tuple_row() -> Any:
    from psycopg.rows import tuple_row

    return tuple_row
