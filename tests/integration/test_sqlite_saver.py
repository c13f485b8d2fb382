"""SessionSqliteSaver.aget_tuple answers exactly what LangGraph's AsyncSqliteSaver answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiosqlite
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from helpdesk.graph.checkpoint import state_serializer
from helpdesk.graph.sqlite_saver import SessionSqliteSaver


def _cfg(thread: str, checkpoint_id: str | None = None, ns: str = "") -> Any:
    conf: dict[str, Any] = {"thread_id": thread, "checkpoint_ns": ns}
    if checkpoint_id:
        conf["checkpoint_id"] = checkpoint_id
    return {"configurable": conf}


async def test_reads_match_langgraphs_saver(tmp_path: Path) -> None:
    async with aiosqlite.connect(str(tmp_path / "s.sqlite")) as conn:
        ours = SessionSqliteSaver(conn, serde=state_serializer())
        theirs = AsyncSqliteSaver(conn, serde=state_serializer())
        await ours.setup()
        ids = []
        parent = _cfg("t1")
        for step in range(3):
            checkpoint = empty_checkpoint()
            checkpoint["channel_values"] = {"messages": [f"m{step}"], "step": step}
            parent = await ours.aput(parent, checkpoint, {"step": step, "source": "loop"}, {})
            ids.append(parent["configurable"]["checkpoint_id"])
        await ours.aput_writes(parent, [("messages", "pending"), ("extra", {"a": 1})], "task-1")
        await ours.aput(_cfg("t1", ns="sub"), empty_checkpoint(), {}, {})

        asks = [_cfg("t1"), _cfg("t1", ids[0]), _cfg("t1", ids[2]), _cfg("t1", ns="sub")]
        for config in asks:
            mine, reference = await ours.aget_tuple(config), await theirs.aget_tuple(config)
            assert mine is not None and reference is not None
            assert mine == reference, config
        latest = await ours.aget_tuple(_cfg("t1"))
        assert latest is not None
        assert latest.checkpoint["channel_values"]["step"] == 2
        assert latest.parent_config == _cfg("t1", ids[1])
        assert [(w[1], w[2]) for w in latest.pending_writes or []] == [
            ("messages", "pending"),
            ("extra", {"a": 1}),
        ]
        assert await ours.aget_tuple(_cfg("nobody")) is None
        assert await ours.aget_tuple(_cfg("t1", "no-such-id")) is None
