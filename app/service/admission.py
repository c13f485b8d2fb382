"""Admission: shed load at once instead of queueing, and limit each customer's turn rate.

:class:`AdmissionGate` admits at most ``max_turns`` concurrent turns per replica and none while
the event loop lags past a threshold (measured by :class:`LoopLagMonitor`); a refused request
gets :class:`Shed` with a Retry-After at once. :class:`RateLimiter` is a per-customer token
bucket. Time is injected, so both are tested without waiting.
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = ["AdmissionGate", "LoopLagMonitor", "RateLimited", "RateLimiter", "Shed"]


class Shed(Exception):
    """The replica is full or lagging: answer 503 with ``retry_after_s``."""

    def __init__(self, reason: str, retry_after_s: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after_s = retry_after_s


class RateLimited(Exception):
    """The customer started too many turns: answer 429 with ``retry_after_s``."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(f"rate limited, retry after {retry_after_s}s")
        self.retry_after_s = retry_after_s


class LoopLagMonitor:
    """Measures how late the event loop wakes a sleeper (the lag every request also suffers).

    Args:
        interval_s: how often to sample.
        clock: monotonic seconds (the loop's own clock by default).
    """

    def __init__(self, interval_s: float = 0.1, clock: Callable[[], float] | None = None) -> None:
        self.interval_s = interval_s
        self._clock = clock
        self.lag_s = 0.0
        """The last sample's lag, seconds."""

    def record(self, expected: float, woke: float) -> None:
        """Record one sample: the sleeper was due at ``expected`` and woke at ``woke``."""
        self.lag_s = max(0.0, woke - expected)

    async def run_forever(self) -> None:
        loop = asyncio.get_running_loop()
        clock = self._clock or loop.time
        while True:
            expected = clock() + self.interval_s
            await asyncio.sleep(self.interval_s)
            self.record(expected, clock())


@dataclass(kw_only=True)
class AdmissionGate:
    """At most ``max_turns`` turns at once; none while the loop lags past ``max_lag_s``."""

    max_turns: int
    """Concurrent turns admitted on this replica."""
    max_lag_s: float
    """Event-loop lag that sheds new turns."""
    lag: Callable[[], float] = lambda: 0.0
    """Current event-loop lag, seconds (a :class:`LoopLagMonitor`'s ``lag_s``)."""
    retry_after_s: int = 2
    """Base Retry-After of a shed request (jittered up to twice this)."""
    rng: random.Random = field(default_factory=random.Random)
    active: int = 0
    """Turns running now."""
    shed_total: int = 0
    """Requests refused since start."""
    peak: int = 0
    """Most turns that ran at once since start."""

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise ValueError("max_turns must be >= 1")
        if not self.max_lag_s > 0:
            raise ValueError("max_lag_s must be > 0")

    def acquire(self) -> None:
        """Take one turn slot now (give it back with :meth:`release`).

        Raises:
            Shed: the replica is at its limit or its event loop lags.
        """
        if self.active >= self.max_turns:
            self._refuse("busy")
        if self.lag() > self.max_lag_s:
            self._refuse("lagging")
        self.active += 1
        self.peak = max(self.peak, self.active)

    def release(self) -> None:
        self.active = max(0, self.active - 1)

    @contextmanager
    def admit(self) -> Iterator[None]:
        """Hold one turn slot for the ``with`` block (raises :class:`Shed` like
        :meth:`acquire`)."""
        self.acquire()
        try:
            yield
        finally:
            self.release()

    def _refuse(self, reason: str) -> None:
        self.shed_total += 1
        # Jitter spreads the clients' retries so they do not come back as one wave.
        wait = self.retry_after_s + self.rng.randint(0, self.retry_after_s)
        raise Shed(reason, wait)


@dataclass(kw_only=True)
class RateLimiter:
    """Token bucket per customer: ``burst`` turns at once, refilled at ``per_minute``."""

    per_minute: float
    burst: int
    clock: Callable[[], float]
    """Monotonic seconds."""
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.per_minute > 0 or self.burst < 1:
            raise ValueError("per_minute must be > 0 and burst >= 1")

    def take(self, customer: str) -> None:
        """Spend one token of ``customer``.

        Raises:
            RateLimited: the bucket is empty; ``retry_after_s`` says when one is back.
        """
        now = self.clock()
        tokens, since = self._buckets.get(customer, (float(self.burst), now))
        rate = self.per_minute / 60.0
        tokens = min(float(self.burst), tokens + (now - since) * rate)
        if tokens < 1.0:
            self._buckets[customer] = (tokens, now)
            raise RateLimited(max(1, math.ceil((1.0 - tokens) / rate)))
        self._buckets[customer] = (tokens - 1.0, now)
        if len(self._buckets) > 100_000:  # bounded memory under many customers
            self._buckets.pop(next(iter(self._buckets)))
