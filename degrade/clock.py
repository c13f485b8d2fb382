"""Injected time: one small protocol for monotonic time, wall time, sleeping and deadlines.

Every resilience primitive (budget, breaker, cache, backoff, chaos) reads time through a
:class:`Clock` so that tests run on a :class:`FakeClock` — virtual time that moves only when a
test advances it or code sleeps — and never sleep for real. :class:`SystemClock` is the
production implementation over :mod:`time` and :mod:`asyncio`. ``FakeClock.timeout`` mirrors
``asyncio.timeout``: a sleep that would cross the tightest active deadline stops exactly at the
deadline and raises the builtin :class:`TimeoutError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from contextvars import ContextVar, Token
from types import TracebackType
from typing import Protocol, runtime_checkable

__all__ = ["Clock", "FakeClock", "SystemClock"]


@runtime_checkable
class Clock(Protocol):
    """Source of time for everything in ``helpdesk.degrade``."""

    def now(self) -> float:
        """Monotonic seconds (only differences are meaningful)."""
        ...

    def wall(self) -> float:
        """Wall-clock time, epoch seconds."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds``."""
        ...

    def timeout(self, seconds: float | None) -> AbstractAsyncContextManager[None]:
        """Context manager raising :class:`TimeoutError` when its body outlives ``seconds``."""
        ...


class SystemClock:
    """The real clock: :func:`time.monotonic`, :func:`time.time`, :mod:`asyncio`."""

    __slots__ = ()

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def timeout(self, seconds: float | None) -> AbstractAsyncContextManager[None]:
        return _system_timeout(seconds)


@contextlib.asynccontextmanager
async def _system_timeout(seconds: float | None) -> AsyncIterator[None]:
    async with asyncio.timeout(seconds):
        yield


class FakeClock:
    """Virtual time for tests: sleeping is instant, deadlines are exact, sleeps are recorded.

    ``sleep(s)`` yields once to the event loop and then moves virtual time to ``t0 + s`` (``t0``
    being the time the sleep started), never backwards. Tasks that start sleeping at the same
    virtual instant therefore overlap as they would in real time: ``gather(sleep(1), sleep(2))``
    ends at ``t0 + 2``, not ``t0 + 3``. Deadlines set by :meth:`timeout` live in a context
    variable, so each asyncio task sees its own; nested deadlines keep the tightest.
    """

    def __init__(self, start: float = 0.0, wall_start: float = 1_800_000_000.0) -> None:
        self._start = start
        self._now = start
        self._wall_start = wall_start
        self._deadline: ContextVar[float | None] = ContextVar(f"fake_deadline_{id(self)}")
        self.sleeps: list[float] = []
        """Every sleep requested, in call order (including ones cut short by a deadline)."""

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._wall_start + (self._now - self._start)

    def advance(self, seconds: float) -> None:
        """Move virtual time forward by ``seconds`` (>= 0) without sleeping."""
        if seconds < 0:
            raise ValueError(f"cannot advance a clock backwards ({seconds})")
        self._now += seconds

    def deadline(self) -> float | None:
        """The tightest active deadline in this context, or None."""
        return self._deadline.get(None)

    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"cannot sleep a negative time ({seconds})")
        self.sleeps.append(seconds)
        target = self._now + seconds
        deadline = self.deadline()
        await asyncio.sleep(0)
        if deadline is not None and target > deadline:
            self._now = max(self._now, deadline)
            raise TimeoutError(f"deadline reached after sleeping until {deadline:g}")
        self._now = max(self._now, target)

    def timeout(self, seconds: float | None) -> AbstractAsyncContextManager[None]:
        if seconds is not None and seconds < 0:
            raise ValueError(f"timeout must be >= 0 or None ({seconds})")
        return _FakeTimeout(self, seconds)


class _FakeTimeout:
    """``async with clock.timeout(s)`` for :class:`FakeClock`."""

    __slots__ = ("_clock", "_deadline", "_seconds", "_token")

    def __init__(self, clock: FakeClock, seconds: float | None) -> None:
        self._clock = clock
        self._seconds = seconds
        self._deadline: float | None = None
        self._token: Token[float | None] | None = None

    async def __aenter__(self) -> None:
        outer = self._clock.deadline()
        mine = None if self._seconds is None else self._clock.now() + self._seconds
        candidates = [d for d in (outer, mine) if d is not None]
        self._deadline = min(candidates) if candidates else None
        self._token = self._clock._deadline.set(self._deadline)

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self._token is not None
        self._clock._deadline.reset(self._token)
        self._token = None
        # Time moved past the deadline without a sleep (clock.advance in the body).
        if exc_type is None and self._deadline is not None and self._clock.now() > self._deadline:
            raise TimeoutError(f"body exceeded its deadline {self._deadline:g}")
