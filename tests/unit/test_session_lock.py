"""The per-session lock: one turn at a time per session, within a process and across processes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from helpdesk.app.session_lock import (
    FileSessionLock,
    PostgresSessionLock,
    SessionBusyError,
    advisory_key,
    session_lock_for,
)
from helpdesk.app.settings import Settings
from helpdesk.degrade.clock import FakeClock
from tests.pg import PG_URL, needs_postgres


async def test_file_session_lock_serializes_turns_of_one_session(tmp_path: Path) -> None:
    clock = FakeClock()
    lock = FileSessionLock(tmp_path, wait_s=30, clock=clock)
    trace: list[str] = []

    async def turn(name: str, work_s: float) -> None:
        async with lock.hold("s1"):
            trace.append(f"{name} in")
            await clock.sleep(work_s)
            trace.append(f"{name} out")

    await asyncio.gather(turn("a", 1.0), turn("b", 1.0))
    assert trace == ["a in", "a out", "b in", "b out"]


async def test_file_session_lock_is_busy_after_the_wait(tmp_path: Path) -> None:
    clock = FakeClock()
    lock = FileSessionLock(tmp_path, wait_s=1.0, clock=clock)
    async with lock.hold("s1"):
        with pytest.raises(SessionBusyError) as caught:
            async with lock.hold("s1"):
                pass
    assert caught.value.session == "s1"
    assert caught.value.waited_s == pytest.approx(1.0)
    assert clock.sleeps == pytest.approx([0.02, 0.04, 0.08, 0.16, 0.2, 0.2, 0.2, 0.1])


async def test_file_session_lock_other_sessions_do_not_wait(tmp_path: Path) -> None:
    clock = FakeClock()
    lock = FileSessionLock(tmp_path, wait_s=0, clock=clock)
    async with lock.hold("s1"), lock.hold("s2"):
        assert clock.sleeps == []


async def test_file_session_lock_is_released_after_a_failed_turn(tmp_path: Path) -> None:
    lock = FileSessionLock(tmp_path, wait_s=0, clock=FakeClock())
    with pytest.raises(RuntimeError):
        async with lock.hold("s1"):
            raise RuntimeError("turn failed")
    async with lock.hold("s1"):
        pass


HOLDER = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()
"""


async def test_file_session_lock_excludes_another_process(tmp_path: Path) -> None:
    lock = FileSessionLock(tmp_path, wait_s=0, clock=FakeClock())
    holder = subprocess.Popen(  # noqa: ASYNC220 - a second process that holds the lock
        [sys.executable, "-c", HOLDER, str(lock.path("s1"))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(SessionBusyError):
            async with lock.hold("s1"):
                pass
    finally:
        holder.communicate("\n", timeout=10)
    async with lock.hold("s1"):  # the other process has exited: free again
        pass


def test_file_session_lock_rejects_a_negative_wait(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="wait_s must be >= 0"):
        FileSessionLock(tmp_path, wait_s=-1)


def test_advisory_key_is_a_stable_signed_64_bit_hash() -> None:
    assert advisory_key("s1") == advisory_key("s1")
    assert advisory_key("s1") != advisory_key("s2")
    assert -(2**63) <= advisory_key("会话-1") < 2**63


def test_session_lock_for_follows_the_session_store(tmp_path: Path) -> None:
    sqlite = session_lock_for(Settings(data_dir=tmp_path, session_lock_wait_s=5))
    assert isinstance(sqlite, FileSessionLock)
    assert sqlite.directory == tmp_path / "sessions.sqlite.locks"
    assert sqlite.wait_s == 5
    pg = session_lock_for(Settings(data_dir=tmp_path, checkpoint_url=PG_URL))
    assert isinstance(pg, PostgresSessionLock) and pg.wait_s == 30


@needs_postgres
async def test_postgres_session_lock_excludes_another_connection() -> None:
    session = f"lock-{uuid.uuid4().hex[:8]}"
    first = PostgresSessionLock(PG_URL, wait_s=0)
    second = PostgresSessionLock(PG_URL, wait_s=0)  # its own pool: like another process
    try:
        async with first.hold(session):
            with pytest.raises(SessionBusyError):
                async with second.hold(session):
                    pass
            async with second.hold(session + "-other"):
                pass
        async with second.hold(session):
            pass
    finally:
        await first.aclose()
        await second.aclose()


@needs_postgres
async def test_postgres_session_lock_waits_then_gets_the_lock() -> None:
    session = f"lock-{uuid.uuid4().hex[:8]}"
    first = PostgresSessionLock(PG_URL, wait_s=0)
    second = PostgresSessionLock(PG_URL, wait_s=20)
    release = asyncio.Event()
    trace: list[str] = []

    async def holder() -> None:
        async with first.hold(session):
            trace.append("first in")
            await release.wait()
            trace.append("first out")

    async def waiter() -> None:
        async with second.hold(session):
            trace.append("second in")

    try:
        task = asyncio.create_task(holder())
        while not trace:  # noqa: ASYNC110 - the holder connects to the server first
            await asyncio.sleep(0)
        waiting = asyncio.create_task(waiter())
        for _ in range(20):  # let the waiter reach the server and queue behind the holder
            await asyncio.sleep(0)
        assert trace == ["first in"]
        release.set()
        await asyncio.gather(task, waiting)
        assert trace == ["first in", "first out", "second in"]
    finally:
        await first.aclose()
        await second.aclose()
