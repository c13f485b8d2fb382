"""LangGraph's SQLite checkpointer, reading a checkpoint in two hand-offs to its database thread.

Every statement on an aiosqlite connection is a hand-off to the connection's worker thread and
back (about 0.18 ms each on the 2-core machine, more under load). LangGraph's ``aget_tuple`` makes
six (open a cursor, execute, fetch one, execute, fetch all, close) and every turn reads its
session once, so a third of what SQLite adds to a turn over the in-memory saver was these
hand-offs (issue 13). :class:`SessionSqliteSaver` runs the same two queries with
``execute_fetchall`` (one hand-off each) and decodes the rows with LangGraph's own helpers; every
other method is LangGraph's. ``tests/integration/test_sqlite_saver.py`` holds it to LangGraph's
answers (latest, by id, pending writes, missing thread).
"""

from __future__ import annotations

import json
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointMetadata, CheckpointTuple, get_checkpoint_id
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.checkpoint.sqlite.utils import load_pending_writes, pending_writes_sql

__all__ = ["SessionSqliteSaver"]

_COLUMNS = "thread_id, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata"
_LATEST = (
    f"SELECT {_COLUMNS} FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ?"
    " ORDER BY checkpoint_id DESC LIMIT 1"
)
_BY_ID = (
    f"SELECT {_COLUMNS} FROM checkpoints"
    " WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"
)


class SessionSqliteSaver(AsyncSqliteSaver):
    """:class:`AsyncSqliteSaver` whose :meth:`aget_tuple` makes two hand-offs instead of six."""

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """The checkpoint ``config`` names (its thread's latest without a ``checkpoint_id``)."""
        await self.setup()
        configurable = config["configurable"]
        thread = str(configurable["thread_id"])
        namespace = configurable.get("checkpoint_ns", "")
        wanted = get_checkpoint_id(config)
        async with self.lock:
            if wanted:
                rows = await self.conn.execute_fetchall(_BY_ID, (thread, namespace, wanted))
            else:
                rows = await self.conn.execute_fetchall(_LATEST, (thread, namespace))
            found = next(iter(rows), None)
            if found is None:
                return None
            thread, checkpoint_id, parent_id, type_, checkpoint, metadata = found
            writes = await self.conn.execute_fetchall(
                pending_writes_sql(self._has_task_path), (thread, namespace, checkpoint_id)
            )
        own: RunnableConfig = {
            "configurable": {
                "thread_id": thread,
                "checkpoint_ns": namespace,
                "checkpoint_id": checkpoint_id,
            }
        }
        parent: RunnableConfig | None = (
            {
                "configurable": {
                    "thread_id": thread,
                    "checkpoint_ns": namespace,
                    "checkpoint_id": parent_id,
                }
            }
            if parent_id
            else None
        )
        meta: Any = json.loads(metadata) if metadata is not None else {}
        return CheckpointTuple(
            config if wanted else own,
            self.serde.loads_typed((type_, checkpoint)),
            cast(CheckpointMetadata, meta),
            parent,
            load_pending_writes(writes, self.serde),
        )


def _config(thread: str, namespace: str, checkpoint_id: str) -> RunnableConfig:
    return {
        "configurable": {
            "thread_id": thread,
            "checkpoint_ns": namespace,
            "checkpoint_id": checkpoint_id,
        }
    }
