"""Scale-out sessions: the PostgreSQL checkpointer (the machine's local server, database test)."""

from __future__ import annotations

import uuid
from pathlib import Path

from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import build_bot
from helpdesk.graph.checkpoint import open_checkpointer
from tests.integration.shopworld import seeded_copy

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


async def test_postgres_sessions_continue_across_processes(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path, shop_db_path=seeded_copy(tmp_path), checkpoint_url=PG_URL
    )
    session = f"pg-{uuid.uuid4().hex[:8]}"
    # two independent "processes": each opens its own connection and builds its own bot
    async with open_checkpointer(url=settings.checkpoint_url, path="unused") as saver:
        first = await run_turn(
            build_bot(settings, checkpointer=saver),
            "where is order 100683?",
            session=session,
            customer="C0001",
        )
    async with open_checkpointer(url=settings.checkpoint_url, path="unused") as saver:
        second = await run_turn(
            build_bot(settings, checkpointer=saver),
            "when will it arrive?",
            session=session,
            customer="C0001",
        )
    assert "YT9433239273" in first["reply"]
    assert second["tasks"][0]["args"] == {"order_id": "100683"}


def test_unsupported_checkpoint_url_is_a_clear_error() -> None:
    import pytest

    with pytest.raises(ValueError, match="unsupported checkpoint URL"):
        open_checkpointer(url="mysql://x", path="unused")
