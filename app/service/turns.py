"""Running turns: one task per turn, at most one per session on this replica, abortable.

A turn goes through the session API (:func:`helpdesk.app.session.run_turn`, the same path as
``helpdesk chat``) inside a :class:`~helpdesk.app.service.progress.TurnWatch`, so its stage
progress can be streamed while it runs. :meth:`RunningTurn.abort` (the abort button, a dropped
connection, the deadline) cancels a turn at once while it reads; while a write or money call may
be on the wire, the turn is left to finish so its outcome is recorded and reported truly
(``shielded``) instead of being cut off between "sent" and "recorded".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from helpdesk.app.service.progress import TurnWatch, watching

log = logging.getLogger("helpdesk.service.turns")

__all__ = ["RunningTurn", "SessionLock", "TurnInProgressError", "TurnOutcome", "TurnRunner"]

TurnFn = Callable[[str, str, str], Awaitable[dict[str, Any]]]
"""``(text, session, customer) -> payload``: the session API."""


class TurnInProgressError(Exception):
    """The session already has a turn running (here, or on another replica)."""


class SessionLock(Protocol):
    """One turn per session across replicas (Redis in ``helpdesk serve`` with replicas)."""

    @property
    def renew_every_s(self) -> float:
        """Seconds between renewals while a turn runs."""
        ...

    async def acquire(self, session: str) -> str | None:
        """A token when taken; None when another turn holds the session."""
        ...

    async def renew(self, session: str, token: str) -> bool: ...

    async def release(self, session: str, token: str) -> None: ...


@dataclass
class TurnOutcome:
    """How a turn ended."""

    payload: dict[str, Any] | None = None
    """The turn's payload when it answered (also after an abort that came during a write)."""
    aborted: str | None = None
    """Why the turn was cut short or asked to stop: ``abort``, ``disconnect``, ``deadline``."""
    shielded: bool = False
    """The abort came while a write was on the wire; the turn finished to record it."""
    error: BaseException | None = None
    """The turn raised (refused input, or a bug)."""


@dataclass
class RunningTurn:
    """One turn in flight."""

    session: str
    watch: TurnWatch
    task: asyncio.Task[dict[str, Any]]
    abort_reason: str | None = None
    shielded: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def abort(self, reason: str) -> None:
        """Stop the turn: at once while it reads; after the write while one is on the wire."""
        if self.task.done():
            return
        if self.abort_reason is None:
            self.abort_reason = reason
        if self.watch.write_stage:
            self.shielded = True
            return
        self.task.cancel()

    async def outcome(self) -> TurnOutcome:
        """Wait for the turn to end (never raises, never cancels it)."""
        await asyncio.wait({self.task})
        if self.task.cancelled():
            return TurnOutcome(aborted=self.abort_reason or "abort")
        error = self.task.exception()
        if error is not None:
            return TurnOutcome(aborted=self.abort_reason, error=error)
        return TurnOutcome(
            payload=self.task.result(), aborted=self.abort_reason, shielded=self.shielded
        )


class TurnRunner:
    """Starts turns, one per session at a time, each with a deadline.

    Args:
        turn: the session API.
        deadline_s: seconds before a turn is aborted with reason ``deadline``.
    """

    def __init__(
        self,
        turn: TurnFn,
        *,
        deadline_s: float,
        lock: SessionLock | None = None,
        prepare: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self._turn = turn
        self.deadline_s = deadline_s
        self.lock = lock
        self.prepare = prepare
        """Loads what replicas share about the session before its turn (under the lock)."""
        self.running: dict[str, RunningTurn] = {}

    def start(
        self,
        text: str,
        *,
        session: str,
        customer: str,
        check: Callable[[], Awaitable[None]] | None = None,
    ) -> RunningTurn:
        """Start a turn now.

        ``check`` runs under the session lock, after what replicas share is loaded and before
        the turn: what it raises ends the turn with nothing done (a yes checked against the
        offer it answers, which another turn may have replaced since the request was read).

        Raises:
            TurnInProgressError: the session has a turn running here already.
        """
        if session in self.running:
            raise TurnInProgressError(session)
        watch = TurnWatch()

        async def run() -> dict[str, Any]:
            async with self._locked(session):
                if check is not None:
                    await check()
                with watching(watch):
                    return await self._turn(text, session, customer)

        task = asyncio.create_task(run(), name=f"turn:{session}")
        running = RunningTurn(session=session, watch=watch, task=task)
        self.running[session] = running
        timer = asyncio.get_running_loop().call_later(self.deadline_s, running.abort, "deadline")

        def finished(_: asyncio.Task[dict[str, Any]]) -> None:
            timer.cancel()
            if self.running.get(session) is running:
                del self.running[session]
            running.done.set()

        task.add_done_callback(finished)
        return running

    @contextlib.asynccontextmanager
    async def _locked(self, session: str) -> AsyncIterator[None]:
        """Hold the cross-replica session lock (renewed) for the turn, if there is one."""
        if self.lock is None:
            yield
            return
        lock = self.lock
        token = await lock.acquire(session)
        if token is None:
            raise TurnInProgressError(session)
        if self.prepare is not None:
            try:
                await self.prepare(session)
            except BaseException:
                await lock.release(session, token)
                raise

        async def renew() -> None:
            while True:
                await asyncio.sleep(lock.renew_every_s)
                try:
                    await lock.renew(session, token)
                except Exception as exc:
                    # (a renewal that stopped at the first error let another replica take the
                    # lock while this turn still ran, once the store was back)
                    log.warning("session lock renewal failed for %s: %s", session, exc)

        renewing = asyncio.create_task(renew())
        try:
            yield
        finally:
            renewing.cancel()
            try:
                await lock.release(session, token)
            except Exception as exc:
                # the turn has finished (its write done, its reply stored): a lock store down
                # now must not turn that answer into an error saying nothing was changed
                log.warning("session lock release failed for %s: %s", session, exc)

    def abort(self, session: str, reason: str = "abort") -> bool:
        """Abort the session's running turn; False when none runs here."""
        running = self.running.get(session)
        if running is None:
            return False
        running.abort(reason)
        return True

    async def drain(self) -> None:
        """Abort every running turn and wait for them (shutdown)."""
        for running in list(self.running.values()):
            running.abort("shutdown")
        for running in list(self.running.values()):
            await running.outcome()
