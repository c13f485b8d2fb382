"""Session storage: LangGraph checkpointers with a serializer that knows helpdesk's types.

Sessions are LangGraph threads. The default is a SQLite file under the per-user data dir, so a
conversation continues across CLI invocations; at scale (several processes serving one set of
sessions) a PostgreSQL URL selects LangGraph's Postgres checkpointer. Deserialization is
restricted to LangGraph's safe types plus the helpdesk state types listed here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from helpdesk.degrade.context import DegradeContext, DegradeEvent, LadderStep, PendingItem
from helpdesk.degrade.errors import ErrorClass
from helpdesk.graph.intents import Intent
from helpdesk.graph.state import Task
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus

__all__ = [
    "STATE_TYPES",
    "open_checkpointer",
    "open_postgres_checkpointer",
    "open_sqlite_checkpointer",
    "state_serializer",
]

STATE_TYPES: tuple[type, ...] = (
    DegradeContext,
    DegradeEvent,
    PendingItem,
    LadderStep,
    ErrorClass,
    Intent,
    Task,
    ToolCall,
    ToolResult,
    ToolStatus,
)


def state_serializer() -> JsonPlusSerializer:
    """LangGraph's serializer, strict, allowing helpdesk's own state types."""
    return JsonPlusSerializer(allowed_msgpack_modules=None).with_msgpack_allowlist(STATE_TYPES)


@asynccontextmanager
async def open_sqlite_checkpointer(path: str | Path) -> AsyncIterator[AsyncSqliteSaver]:
    """An AsyncSqliteSaver on ``path`` (parent folders created)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    async with AsyncSqliteSaver.from_conn_string(str(target)) as saver:
        saver.serde = state_serializer()
        yield saver


@asynccontextmanager
async def open_postgres_checkpointer(url: str) -> AsyncIterator[BaseCheckpointSaver[Any]]:
    """LangGraph's AsyncPostgresSaver on ``url`` (tables created on first use)."""
    try:
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise RuntimeError(
            "a PostgreSQL checkpoint URL needs the postgres extra: pip install 'helpdesk[postgres]'"
        ) from exc
    async with AsyncPostgresSaver.from_conn_string(url, serde=state_serializer()) as saver:
        await saver.setup()
        yield saver


def open_checkpointer(
    *, url: str | None, path: str | Path
) -> AbstractAsyncContextManager[BaseCheckpointSaver[Any]]:
    """PostgreSQL when ``url`` is a ``postgresql://`` URL, else the SQLite file at ``path``."""
    if url and url.startswith(("postgresql://", "postgres://")):
        return open_postgres_checkpointer(url)
    if url:
        raise ValueError(f"unsupported checkpoint URL {url!r}: use postgresql://...")
    return open_sqlite_checkpointer(path)
