"""Session storage: LangGraph checkpointers with a serializer that knows helpdesk's types.

Sessions are LangGraph threads. The default is a SQLite file under the per-user data dir, so a
conversation continues across CLI invocations; at scale (several processes serving one set of
sessions) a PostgreSQL URL selects LangGraph's Postgres checkpointer. Deserialization is
restricted to LangGraph's safe types plus the helpdesk state types listed here.

Cheap turns: SQLite is opened in WAL mode with ``synchronous=NORMAL`` (a commit is an append to
the WAL, fsynced at checkpoints: durable across a process crash, at worst the last commits lost
on power failure); PostgreSQL goes through a ``psycopg_pool`` connection pool, without the
saver's per-process lock (each operation takes its own pooled connection).

At rest: with a key (``HELPDESK_CHECKPOINT_KEY``) every stored value — checkpoints, pending
writes, and on PostgreSQL also the plain strings the saver would otherwise keep inline in its
JSONB column — is encrypted with LangGraph's :class:`EncryptedSerializer` (AES-EAX, authenticated).
Without a key values are stored plain, and a store that holds encrypted values refuses to open
them with :class:`CheckpointKeyError` instead of failing somewhere inside a turn.

One read per turn: the session API reads a session's latest checkpoint before the turn (the owner
check) with :func:`read_session`; inside that block the graph's own load of the same thread is
served from that read instead of reading and deserializing the session a second time. The
per-session lock held around the turn guarantees nothing wrote the thread in between.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointTuple,
)
from langgraph.checkpoint.base import CheckpointMetadata as _Metadata
from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.serde.encrypted import EncryptedSerializer
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from helpdesk.degrade.context import DegradeContext, DegradeEvent, LadderStep, PendingItem
from helpdesk.degrade.errors import ErrorClass
from helpdesk.graph.intents import Intent
from helpdesk.graph.sqlite_saver import SessionSqliteSaver
from helpdesk.graph.state import Task
from helpdesk.tools.context import RequestState
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus
from helpdesk.tools.sqlite_open import retry_locked_async

__all__ = [
    "KEY_HELP",
    "STATE_TYPES",
    "CheckpointKeyError",
    "open_checkpointer",
    "open_postgres_checkpointer",
    "open_sqlite_checkpointer",
    "parse_checkpoint_key",
    "read_session",
    "state_serializer",
]

STATE_TYPES: tuple[type, ...] = (
    DegradeContext,
    DegradeEvent,
    PendingItem,
    RequestState,
    LadderStep,
    ErrorClass,
    Intent,
    Task,
    ToolCall,
    ToolResult,
    ToolStatus,
)

KEY_HELP = (
    "HELPDESK_CHECKPOINT_KEY must be 32 random bytes written as 64 hex characters or as base64 "
    "(16 or 24 bytes also work); make one with: "
    "python -c 'import secrets; print(secrets.token_hex(32))'"
)

POOL_MAX_SIZE = 20
"""Pooled PostgreSQL connections of the checkpointer per process."""
SETUP_LOCK_KEY = 0x68656C7064657368  # "helpdesh": the advisory lock around table set-up
SETUP_POLL_S = 0.1
SETUP_TRIES = 600


class CheckpointKeyError(RuntimeError):
    """Stored sessions are encrypted and no key (or another key) was given to read them."""


def parse_checkpoint_key(text: str) -> bytes:
    """The AES key written in ``text`` (hex or base64 of 16, 24 or 32 bytes).

    Raises:
        ValueError: anything else (the message says what is expected).
    """
    text = text.strip()
    if re.fullmatch(r"[0-9a-fA-F]{32}|[0-9a-fA-F]{48}|[0-9a-fA-F]{64}", text):
        return bytes.fromhex(text)
    with contextlib.suppress(binascii.Error, ValueError):
        raw = base64.b64decode(text.replace("-", "+").replace("_", "/"), validate=True)
        if len(raw) in (16, 24, 32):
            return raw
    raise ValueError(KEY_HELP)


class _Sealed:
    """A plain value that must go through the serializer (PostgreSQL would store it inline)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class _GuardedSerializer(SerializerProtocol):
    """Encrypts with a key, refuses encrypted data without one; unwraps :class:`_Sealed`."""

    def __init__(self, base: SerializerProtocol, key: bytes | None) -> None:
        self.base = base
        self.encrypted = (
            EncryptedSerializer.from_pycryptodome_aes(serde=base, key=key) if key else None
        )

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        if isinstance(obj, _Sealed):
            obj = obj.value
        return (self.encrypted or self.base).dumps_typed(obj)

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        typ = data[0]
        if "+" not in typ:
            return self.base.loads_typed(data)
        if self.encrypted is None:
            raise CheckpointKeyError(
                "these sessions are encrypted at rest: set HELPDESK_CHECKPOINT_KEY to read them"
            )
        try:
            return self.encrypted.loads_typed(data)
        except ValueError as exc:  # pycryptodome: "MAC check failed"
            raise CheckpointKeyError(
                "these sessions were encrypted with another HELPDESK_CHECKPOINT_KEY"
            ) from exc


def state_serializer(key: bytes | None = None) -> SerializerProtocol:
    """LangGraph's serializer, strict, allowing helpdesk's own state types; encrypting with
    ``key`` (AES) when one is given."""
    base = JsonPlusSerializer(allowed_msgpack_modules=None).with_msgpack_allowlist(STATE_TYPES)
    return _GuardedSerializer(base, key)


@asynccontextmanager
async def open_sqlite_checkpointer(
    path: str | Path, *, key: bytes | None = None
) -> AsyncIterator[SessionSqliteSaver]:
    """An AsyncSqliteSaver on ``path`` (parent folders created), WAL and ``synchronous=NORMAL``."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(str(target), timeout=30.0) as conn:
        # WAL: readers never block the writer; NORMAL: no fsync per commit (see module doc).
        # journal_size_limit: the WAL file is truncated back after each checkpoint.
        # another process may be setting up the same file right now (idempotent: retried)
        await retry_locked_async(
            lambda: conn.executescript(
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                "PRAGMA journal_size_limit=1048576; PRAGMA wal_autocheckpoint=256;"
            )
        )
        saver = SessionSqliteSaver(conn, serde=state_serializer(key))
        await retry_locked_async(saver.setup)
        yield saver


def _postgres_saver_class() -> type[Any]:
    try:
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise RuntimeError(
            "a PostgreSQL checkpoint URL needs the postgres extra: pip install 'helpdesk[postgres]'"
        ) from exc

    class PooledPostgresSaver(AsyncPostgresSaver):
        """AsyncPostgresSaver on a pool; with a key, plain strings are stored encrypted too."""

        def __init__(self, conn: Any, *, serde: SerializerProtocol, sealed: bool) -> None:
            super().__init__(conn, serde=serde)
            # The saver serializes every operation of the process on one asyncio lock (right for
            # one shared connection); with a pool each operation has its own connection.
            self.lock = contextlib.nullcontext()  # type: ignore[assignment]
            self.sealed = sealed

        async def aput(
            self,
            config: RunnableConfig,
            checkpoint: Checkpoint,
            metadata: _Metadata,
            new_versions: ChannelVersions,
        ) -> RunnableConfig:
            if self.sealed:
                values = checkpoint["channel_values"]
                checkpoint = {
                    **checkpoint,
                    "channel_values": {
                        k: _Sealed(v) if isinstance(v, str | int | float) else v
                        for k, v in values.items()
                    },
                }
            return await super().aput(config, checkpoint, metadata, new_versions)

    return PooledPostgresSaver


@asynccontextmanager
async def open_postgres_checkpointer(
    url: str, *, key: bytes | None = None
) -> AsyncIterator[BaseCheckpointSaver[Any]]:
    """LangGraph's AsyncPostgresSaver on a connection pool to ``url`` (tables created)."""
    saver_class = _postgres_saver_class()
    from psycopg.rows import dict_row
    from psycopg_pool import AsyncConnectionPool

    pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
        url,
        min_size=1,
        max_size=POOL_MAX_SIZE,
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
        open=False,
    )
    await pool.open(wait=True, timeout=10.0)
    try:
        saver = saver_class(pool, serde=state_serializer(key), sealed=key is not None)
        async with _setup_turn(pool):
            await saver.setup()
        yield saver
    finally:
        await pool.close()


@asynccontextmanager
async def _setup_turn(pool: Any) -> AsyncIterator[None]:
    """One process at a time creates or migrates the tables.

    Replicas starting together on a new database would run LangGraph's migrations concurrently
    and deadlock. The lock is *tried* in short statements: a statement left waiting for it would
    itself hold back the holder's ``CREATE INDEX CONCURRENTLY`` (which waits for every open
    transaction), a wait PostgreSQL does not detect.
    """
    async with pool.connection() as conn:
        for _ in range(SETUP_TRIES):
            cursor = await conn.execute("SELECT pg_try_advisory_lock(%s) AS ok", (SETUP_LOCK_KEY,))
            row = await cursor.fetchone()
            if row and row["ok"]:
                break
            await asyncio.sleep(SETUP_POLL_S)
        else:
            raise RuntimeError("another process kept the session tables' set-up lock for 60 s")
        try:
            yield
        finally:
            await conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK_KEY,))


def open_checkpointer(
    *, url: str | None, path: str | Path, key: bytes | None = None
) -> AbstractAsyncContextManager[BaseCheckpointSaver[Any]]:
    """PostgreSQL when ``url`` is a ``postgresql://`` URL, else the SQLite file at ``path``;
    values encrypted with ``key`` when one is given."""
    if url and url.startswith(("postgresql://", "postgres://")):
        return open_postgres_checkpointer(url, key=key)
    if url:
        raise ValueError(f"unsupported checkpoint URL {url!r}: use postgresql://...")
    return open_sqlite_checkpointer(path, key=key)


@dataclass
class _Prefetched:
    saver: BaseCheckpointSaver[Any]
    thread_id: str
    value: CheckpointTuple | None
    served: bool = False


_PREFETCHED: ContextVar[_Prefetched | None] = ContextVar("helpdesk_prefetched", default=None)
_SERVES_PREFETCHED = "_helpdesk_serves_prefetched"


def _latest_of(config: RunnableConfig) -> str | None:
    """The thread id when ``config`` asks for a thread's latest top-level checkpoint."""
    conf = config.get("configurable") or {}
    if conf.get("checkpoint_id") or conf.get("checkpoint_ns"):
        return None
    thread = conf.get("thread_id")
    return str(thread) if thread is not None else None


def _serve_prefetched(saver: BaseCheckpointSaver[Any]) -> None:
    """Make ``saver.aget_tuple`` answer a turn's first load from the turn's :func:`read_session`
    (once; every other read goes to the store). Idempotent."""
    if getattr(saver, _SERVES_PREFETCHED, False):
        return
    load: Callable[[RunnableConfig], Awaitable[CheckpointTuple | None]] = saver.aget_tuple

    async def aget_tuple(config: RunnableConfig) -> CheckpointTuple | None:
        held = _PREFETCHED.get()
        if (
            held is not None
            and not held.served
            and held.saver is saver
            and _latest_of(config) == held.thread_id
        ):
            held.served = True
            return held.value
        return await load(config)

    setattr(saver, "aget_tuple", aget_tuple)  # noqa: B010 - an instance-level override
    setattr(saver, _SERVES_PREFETCHED, True)


@asynccontextmanager
async def read_session(
    saver: BaseCheckpointSaver[Any] | None, thread_id: str
) -> AsyncIterator[dict[str, Any]]:
    """The channel values of ``thread_id``'s latest checkpoint ({} for a new session or without a
    saver); the graph's load of that thread inside the block reuses this read.

    Hold the session's lock around the block: the reuse is right only if nothing writes the
    thread between this read and the graph's load.
    """
    if saver is None:
        yield {}
        return
    _serve_prefetched(saver)
    value = await saver.aget_tuple({"configurable": {"thread_id": thread_id}})
    token = _PREFETCHED.set(_Prefetched(saver, thread_id, value))
    try:
        yield dict(value.checkpoint["channel_values"]) if value is not None else {}
    finally:
        _PREFETCHED.reset(token)
