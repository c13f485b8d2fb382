"""Opening a SQLite file that other processes open at the same moment.

Two processes starting on one data dir (two ``helpdesk chat`` on one session, two replicas)
both switch the file to WAL and create tables. Switching the journal mode needs a lock that the
busy timeout does not always wait for: SQLite answers ``database is locked`` at once. The setup
statements are idempotent, so they are simply retried, with a short backoff, for a bounded time.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

__all__ = ["SETUP_TIMEOUT_S", "is_locked", "retry_locked", "retry_locked_async"]

T = TypeVar("T")

SETUP_TIMEOUT_S = 30.0
"""How long setting up a shared SQLite file may wait for another process."""


def is_locked(exc: BaseException) -> bool:
    """Whether a SQLite error means another connection holds the lock (worth waiting for)."""
    return isinstance(exc, sqlite3.OperationalError) and (
        "locked" in str(exc) or "busy" in str(exc)
    )


def retry_locked(
    setup: Callable[[], T],
    *,
    timeout_s: float = SETUP_TIMEOUT_S,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """``setup()``, retried while the file is locked by another process (at most ``timeout_s``)."""
    deadline = clock() + timeout_s
    delay = 0.01
    while True:
        try:
            return setup()
        except sqlite3.OperationalError as exc:
            if not is_locked(exc) or clock() >= deadline:
                raise
        sleep(delay)
        delay = min(delay * 2, 0.25)


async def retry_locked_async(
    setup: Callable[[], Awaitable[T]],
    *,
    timeout_s: float = SETUP_TIMEOUT_S,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """The async form of :func:`retry_locked` (aiosqlite)."""
    deadline = clock() + timeout_s
    delay = 0.01
    while True:
        try:
            return await setup()
        except sqlite3.OperationalError as exc:
            if not is_locked(exc) or clock() >= deadline:
                raise
        await sleep(delay)
        delay = min(delay * 2, 0.25)
