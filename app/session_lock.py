"""One turn at a time per session, across processes: the per-session lock.

A turn holds its session's lock from before it reads the session until its final state is stored,
so two turns on one session (two CLI processes, two HTTP replicas, two asyncio tasks) are run one
after the other and neither is lost or interleaved. A turn that cannot get the lock within the
wait (``HELPDESK_SESSION_LOCK_WAIT_S``) gets :class:`SessionBusyError`, which the session API
answers with "still working on your previous message" in the customer's language.

Implementations, behind the small :class:`SessionLock` protocol (a Redis one can be added by the
HTTP service):

- :class:`FileSessionLock` (SQLite sessions, the default): ``flock`` on one lock file per session
  next to the sessions database. ``flock`` locks belong to an open file description, so they
  exclude other processes *and* other tasks of the same process, and the kernel drops them when a
  process dies.
- :class:`PostgresSessionLock` (PostgreSQL sessions): ``pg_advisory_lock`` on a 64-bit hash of the
  session id, held on a dedicated pooled connection for the whole turn; a crashed process's
  connection closes and the server releases its locks.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

from helpdesk.degrade.clock import Clock, SystemClock

if TYPE_CHECKING:
    from helpdesk.app.settings import Settings

__all__ = [
    "FileSessionLock",
    "PostgresSessionLock",
    "SessionBusyError",
    "SessionLock",
    "advisory_key",
    "session_lock_for",
]

POLL_S: Final = 0.02
"""First wait between two tries of a taken file lock; doubles up to :data:`MAX_POLL_S`."""
MAX_POLL_S: Final = 0.2


class SessionBusyError(Exception):
    """Another turn of this session held its lock for longer than the wait."""

    def __init__(self, session: str, waited_s: float) -> None:
        super().__init__(f"session {session!r} is busy (waited {waited_s:g} s for its lock)")
        self.session = session
        self.waited_s = waited_s


class SessionLock(Protocol):
    """A lock per session id, shared by every process that serves the same sessions."""

    def hold(self, session: str) -> AbstractAsyncContextManager[None]:
        """Hold ``session``'s lock for the body; :class:`SessionBusyError` after the wait."""
        ...

    async def aclose(self) -> None:
        """Release what the lock keeps open (connections); held locks are not affected."""
        ...


def _digest(session: str) -> bytes:
    return hashlib.sha256(session.encode("utf-8", "surrogatepass")).digest()


class FileSessionLock:
    """``flock`` on ``<directory>/<sha256 of the session id>.lock`` (one small file per session).

    Args:
        directory: where the lock files live (created on first use).
        wait_s: how long a turn waits for a busy session before :class:`SessionBusyError`.
        clock: time source for the wait (a FakeClock in tests).
    """

    def __init__(self, directory: Path, *, wait_s: float, clock: Clock | None = None) -> None:
        if wait_s < 0:
            raise ValueError(f"wait_s must be >= 0, got {wait_s}")
        self.directory = directory
        self.wait_s = wait_s
        self.clock: Clock = clock or SystemClock()

    def path(self, session: str) -> Path:
        """The lock file of ``session``."""
        return self.directory / f"{_digest(session).hex()[:40]}.lock"

    @contextlib.asynccontextmanager
    async def hold(self, session: str) -> AsyncIterator[None]:
        self.directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path(session), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            await self._acquire(fd, session)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    async def _acquire(self, fd: int, session: str) -> None:
        started = self.clock.now()
        pause = POLL_S
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
            waited = self.clock.now() - started
            if waited >= self.wait_s:
                raise SessionBusyError(session, waited)
            await self.clock.sleep(min(pause, self.wait_s - waited))
            pause = min(pause * 2, MAX_POLL_S)

    def forget(self, session: str) -> None:
        """Remove ``session``'s lock file (when the session itself is deleted)."""
        with contextlib.suppress(FileNotFoundError):
            self.path(session).unlink()

    async def aclose(self) -> None:
        return None


def advisory_key(session: str) -> int:
    """A signed 64-bit key for ``pg_advisory_lock``, the same in every process."""
    return int.from_bytes(_digest(session)[:8], "big", signed=True)


class PostgresSessionLock:
    """``pg_advisory_lock(hash(session))`` on a dedicated pooled connection for the turn.

    The wait is PostgreSQL's own ``lock_timeout`` (waiters are queued by the server, first come
    first served); a wait of 0 tries once (``pg_try_advisory_lock``).

    Args:
        url: ``postgresql://...`` of the sessions database.
        wait_s: how long a turn waits for a busy session before :class:`SessionBusyError`.
        max_connections: connections held at most (one per turn in progress in this process);
            a turn that finds none free within the wait is busy too.
    """

    def __init__(self, url: str, *, wait_s: float, max_connections: int = 20) -> None:
        if wait_s < 0:
            raise ValueError(f"wait_s must be >= 0, got {wait_s}")
        self.url = url
        self.wait_s = wait_s
        self.max_connections = max_connections
        self._pool: Any = None

    async def _connections(self) -> Any:
        if self._pool is None:
            from psycopg_pool import AsyncConnectionPool

            pool = AsyncConnectionPool(
                self.url,
                min_size=1,
                max_size=self.max_connections,
                kwargs={"autocommit": True},
                open=False,
            )
            await pool.open(wait=True)
            self._pool = pool
        return self._pool

    @contextlib.asynccontextmanager
    async def hold(self, session: str) -> AsyncIterator[None]:
        from psycopg_pool import PoolTimeout

        key = advisory_key(session)
        pool = await self._connections()
        try:
            conn = await pool.getconn(timeout=max(self.wait_s, 0.001))
        except PoolTimeout as exc:
            raise SessionBusyError(session, self.wait_s) from exc
        try:
            await self._lock(conn, session, key)
            try:
                yield
            finally:
                await conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
        finally:
            await pool.putconn(conn)

    async def _lock(self, conn: Any, session: str, key: int) -> None:
        import psycopg

        if self.wait_s == 0:
            cursor = await conn.execute("SELECT pg_try_advisory_lock(%s)", (key,))
            row = await cursor.fetchone()
            if not row or not row[0]:
                raise SessionBusyError(session, 0.0)
            return
        timeout = f"{max(1, round(self.wait_s * 1000))}ms"
        await conn.execute("SELECT set_config('lock_timeout', %s, false)", (timeout,))
        try:
            await conn.execute("SELECT pg_advisory_lock(%s)", (key,))
        except psycopg.errors.LockNotAvailable as exc:
            raise SessionBusyError(session, self.wait_s) from exc
        finally:
            await conn.execute("RESET lock_timeout")

    async def aclose(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None


def session_lock_for(settings: Settings, *, clock: Clock | None = None) -> SessionLock:
    """The lock that matches where the settings keep sessions (PostgreSQL or the SQLite file)."""
    url = settings.checkpoint_url
    if url and url.startswith(("postgresql://", "postgres://")):
        return PostgresSessionLock(url, wait_s=settings.session_lock_wait_s)
    sessions = settings.sessions_file
    return FileSessionLock(
        sessions.parent / f"{sessions.name}.locks", wait_s=settings.session_lock_wait_s, clock=clock
    )
