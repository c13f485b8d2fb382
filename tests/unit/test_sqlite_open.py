"""Setting up a SQLite file another process is setting up too: retried while locked, bounded."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from helpdesk.tools.journal_sql import SqliteWriteJournal
from helpdesk.tools.sqlite_open import retry_locked, retry_locked_async


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def locked_then(ok_after: int) -> tuple[list[int], object]:
    calls: list[int] = []

    def setup() -> str:
        calls.append(1)
        if len(calls) <= ok_after:
            raise sqlite3.OperationalError("database is locked")
        return "ready"

    return calls, setup


def test_a_locked_file_is_retried_until_it_is_free() -> None:
    time = FakeTime()
    calls, setup = locked_then(3)
    assert retry_locked(setup, sleep=time.sleep, clock=time.clock) == "ready"  # type: ignore[arg-type]
    assert len(calls) == 4
    assert time.sleeps == [0.01, 0.02, 0.04]  # backoff, capped at 0.25 s


def test_another_error_is_not_retried() -> None:
    time = FakeTime()

    def broken() -> None:
        raise sqlite3.OperationalError("no such table: x")

    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        retry_locked(broken, sleep=time.sleep, clock=time.clock)
    assert time.sleeps == []


def test_a_file_locked_for_too_long_raises_after_the_timeout() -> None:
    time = FakeTime()
    _, setup = locked_then(10_000)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        retry_locked(setup, timeout_s=2.0, sleep=time.sleep, clock=time.clock)  # type: ignore[arg-type]
    assert 2.0 <= time.now <= 2.3


def test_the_async_form_retries_too() -> None:
    time = FakeTime()
    calls: list[int] = []

    async def setup() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise sqlite3.OperationalError("database is locked")
        return "ready"

    async def sleep(seconds: float) -> None:
        time.sleep(seconds)

    assert asyncio.run(retry_locked_async(setup, sleep=sleep, clock=time.clock)) == "ready"
    assert len(calls) == 3


def test_journal_opens_while_another_connection_holds_the_file(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    holder = sqlite3.connect(path, timeout=0.0, check_same_thread=False)
    holder.execute("CREATE TABLE held (x)")
    holder.execute("BEGIN EXCLUSIVE")

    import threading

    threading.Timer(0.3, holder.rollback).start()
    journal = SqliteWriteJournal(path)  # waits for the exclusive lock to go, then sets up
    assert journal.path == path
    holder.close()
