"""Bounded session storage: pruning, the index, erasure and retention (SQLite, PostgreSQL)."""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from helpdesk.app.session import SessionOwnerError, run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.degrade.clock import FakeClock
from helpdesk.graph.checkpoint import open_checkpointer
from helpdesk.graph.session_lock import FileSessionLock
from helpdesk.graph.session_store import DAY_S, checkpoint_time
from helpdesk.tools.journal import JournalEntry
from tests.integration.shopworld import seeded_copy
from tests.pg import PG_URL, isolated_pg_url, needs_postgres

BACKENDS = [
    pytest.param(None, id="sqlite"),
    pytest.param(PG_URL, id="postgres", marks=needs_postgres),
]


@asynccontextmanager
async def opened(tmp: Path, url: str | None, clock: FakeClock) -> AsyncIterator[Bot]:
    with isolated_pg_url() if url else contextlib.nullcontext(None) as schema_url:
        settings = Settings(data_dir=tmp, shop_db_path=seeded_copy(tmp), checkpoint_url=schema_url)
        async with open_checkpointer(url=schema_url, path=settings.sessions_file) as saver:
            bot = build_bot(settings, checkpointer=saver, clock=clock)
            try:
                yield bot
            finally:
                await bot.aclose()


async def _rows(bot: Bot, session: str) -> dict[str, int]:
    """Rows of ``session`` in every table the sessions use."""
    saver = bot.graph.checkpointer
    if type(saver).__name__.endswith("PostgresSaver"):
        from langgraph.checkpoint.postgres import _ainternal

        tables = ["checkpoints", "checkpoint_blobs", "checkpoint_writes", "helpdesk_sessions"]
        counts = {}
        async with _ainternal.get_connection(saver.conn) as conn:
            for table in tables:
                cur = await conn.execute(
                    f"SELECT COUNT(*) AS n FROM {table} WHERE thread_id = %s", (session,)
                )
                row: Any = await cur.fetchone()
                counts[table] = row["n"]
        return counts
    counts = {}
    for table in ["checkpoints", "writes", "helpdesk_sessions"]:
        async with saver.conn.execute(
            f"SELECT COUNT(*) FROM {table} WHERE thread_id = ?", (session,)
        ) as cur:
            row = await cur.fetchone()
            counts[table] = row[0]
    return counts


def _sid() -> str:
    return f"st-{uuid.uuid4().hex[:8]}"


@pytest.mark.parametrize("url", BACKENDS)
async def test_session_store_keeps_only_the_latest_checkpoint(
    tmp_path: Path, url: str | None
) -> None:
    session = _sid()
    async with opened(tmp_path, url, FakeClock(wall_start=time.time())) as bot:
        await run_turn(bot, "where is order 100683?", session=session, customer="C0001")
        await run_turn(bot, "hello", session=session, customer="C0001")
        later = await run_turn(bot, "when will it arrive?", session=session, customer="C0001")
        rows = await _rows(bot, session)
        assert bot.session_store is not None
        info = await bot.session_store.get(session)
    assert later["tasks"][0]["args"] == {"order_id": "100683"}  # the pruned session resumes
    assert rows["checkpoints"] == 1
    assert rows.get("writes", 0) == 0 and rows.get("checkpoint_writes", 0) == 0
    assert info is not None and (info.customer, info.turns, info.checkpoints) == ("C0001", 3, 1)


@pytest.mark.parametrize("url", BACKENDS)
async def test_a_turn_reads_its_session_from_the_store_once(
    tmp_path: Path, url: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _sid()
    async with opened(tmp_path, url, FakeClock(wall_start=time.time())) as bot:
        saver = bot.graph.checkpointer
        load = type(saver).aget_tuple
        reads: list[Any] = []

        async def counted(self: Any, config: Any) -> Any:
            reads.append(config["configurable"]["thread_id"])
            return await load(self, config)

        monkeypatch.setattr(type(saver), "aget_tuple", counted)
        await run_turn(bot, "where is order 100683?", session=session, customer="C0001")
        later = await run_turn(bot, "when will it arrive?", session=session, customer="C0001")
        with pytest.raises(SessionOwnerError):
            await run_turn(bot, "hello", session=session, customer="C0002")
    assert reads == [session] * 3  # the owner check's read; the graph reuses it
    assert later["tasks"][0]["args"] == {"order_id": "100683"}  # and sees the stored session


@pytest.mark.parametrize("url", BACKENDS)
async def test_session_store_delete_removes_every_row(tmp_path: Path, url: str | None) -> None:
    session, other = _sid(), _sid()
    async with opened(tmp_path, url, FakeClock(wall_start=time.time())) as bot:
        await run_turn(bot, "cancel order 100998", session=session, customer="C0001")
        await run_turn(bot, "where is order 100683?", session=other, customer="C0001")
        await bot.executor.journal.begin(
            JournalEntry(key="k1", session=session, customer="C0001", tool="t", args={})
        )
        assert bot.session_store is not None
        assert await bot.session_store.delete(session) is True
        assert await bot.session_store.delete(session) is False
        gone, kept = await _rows(bot, session), await _rows(bot, other)
        journal = await bot.executor.journal.entries(session)
    assert set(gone.values()) == {0}
    assert kept["checkpoints"] == 1 and kept["helpdesk_sessions"] == 1
    assert journal == []
    if url is None:  # the session's lock file goes too
        assert isinstance(bot.session_lock, FileSessionLock)
        assert not bot.session_lock.path(session).exists()
        assert bot.session_lock.path(other).exists()


@pytest.mark.parametrize("url", BACKENDS)
async def test_session_store_delete_customer_removes_only_theirs(
    tmp_path: Path, url: str | None
) -> None:
    mine, theirs = _sid(), _sid()
    async with opened(tmp_path, url, FakeClock(wall_start=time.time())) as bot:
        await run_turn(bot, "hello", session=mine, customer="C0001")
        await run_turn(bot, "hello", session=theirs, customer="C0002")
        assert bot.session_store is not None
        deleted = await bot.session_store.delete_customer("C0002")
        left = {s.session for s in await bot.session_store.sessions()}
    assert deleted == [theirs]
    assert mine in left and theirs not in left


@pytest.mark.parametrize("url", BACKENDS)
async def test_session_store_retention_on_a_fake_clock(tmp_path: Path, url: str | None) -> None:
    old, recent = _sid(), _sid()
    clock = FakeClock(wall_start=time.time())
    async with opened(tmp_path, url, clock) as bot:
        store = bot.session_store
        assert store is not None and store.retention_s == 30 * DAY_S
        await run_turn(bot, "hello", session=old, customer="C0001")
        clock.advance(10 * DAY_S)
        await run_turn(bot, "hello", session=recent, customer="C0001")
        clock.advance(20 * DAY_S - 1)  # old: idle 30 days minus a second
        assert old not in await store.purge_expired()
        clock.advance(2)  # old: idle just over 30 days; recent: 20 days
        purged = await store.purge_expired()
        left = {s.session for s in await store.sessions()}
        rows = await _rows(bot, old)
    assert old in purged and recent not in purged
    assert recent in left and old not in left
    assert set(rows.values()) == {0}


@pytest.mark.parametrize("url", BACKENDS)
async def test_session_store_purge_runs_from_turns_at_most_hourly(
    tmp_path: Path, url: str | None
) -> None:
    old, new = _sid(), _sid()
    clock = FakeClock(wall_start=time.time())
    async with opened(tmp_path, url, clock) as bot:
        assert bot.session_store is not None and not bot.session_store.auto_purge  # fake clock
        bot.session_store.auto_purge = True
        await run_turn(bot, "hello", session=old, customer="C0001")
        clock.advance(31 * DAY_S)
        await run_turn(bot, "hello", session=new, customer="C0001")  # applies the retention
        left = {s.session for s in await bot.session_store.sessions()}
    assert new in left and old not in left


def test_checkpoint_time_reads_langgraph_checkpoint_ids() -> None:
    from langgraph.checkpoint.base.id import uuid6

    before = time.time()
    stamp = checkpoint_time(str(uuid6(clock_seq=1)))
    assert stamp is not None and before - 1 <= stamp <= time.time() + 1
    assert checkpoint_time("not-a-uuid") is None
    assert checkpoint_time(str(uuid.uuid4())) is None


@pytest.mark.parametrize("url", BACKENDS)
async def test_session_store_purge_skips_a_session_in_use(tmp_path: Path, url: str | None) -> None:
    old = _sid()
    clock = FakeClock(wall_start=time.time())
    async with opened(tmp_path, url, clock) as bot:
        store, lock = bot.session_store, bot.session_lock
        assert store is not None and lock is not None
        await run_turn(bot, "hello", session=old, customer="C0001")
        clock.advance(31 * DAY_S)
        async with lock.hold(old):  # a turn on it has just started
            assert await store.purge_expired() == []
        assert await store.purge_expired() == [old]


async def test_session_bookkeeping_failure_does_not_fail_the_turn(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with opened(tmp_path, None, FakeClock(wall_start=time.time())) as bot:
        assert bot.session_store is not None

        async def broken(session: str, customer: str) -> None:
            raise RuntimeError("disk full")

        bot.session_store.after_turn = broken  # type: ignore[method-assign]
        payload = await run_turn(bot, "where is order 100683?", session="bk-1", customer="C0001")
    assert "YT9433239273" in payload["reply"]
    assert "session bookkeeping failed after a turn of bk-1" in caplog.text
