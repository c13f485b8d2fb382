"""Retry budgets: per request (:class:`RetryBudget`) and per process (:class:`RatioLimiter`).

A :class:`RetryBudget` is created once per customer turn and shared by every tool and model call
in it: a fixed number of retries and a wall of seconds that starts at construction. A retry is
granted only if one is left *and* its wait ends strictly before the deadline, and every call's
timeout is cut to what remains (timeouts cascade). A :class:`RatioLimiter` caps secondary traffic
at a fraction of primary traffic plus a small reserve per second over one sliding window: used
process-wide for retries (high traffic capped, low traffic not starved), and on each degrade path
so backup traffic cannot stampede a fallback. Both are thread-safe and read time from an injected
:class:`Clock`.
"""

from __future__ import annotations

import math
import threading
from typing import Any

from helpdesk.degrade.clock import Clock
from helpdesk.degrade.window import SlidingWindow

__all__ = ["RatioLimiter", "RetryBudget"]

_PRIMARY = "primary"
_SECONDARY = "secondary"


class RetryBudget:
    """The retries and seconds one request may spend, shared by all its calls.

    Args:
        max_retries: retries granted in total (>= 0).
        max_seconds: the request's deadline, counted from construction (> 0).
        clock: time source.
    """

    def __init__(self, *, max_retries: int = 3, max_seconds: float = 8.0, clock: Clock) -> None:
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries}")
        if not max_seconds > 0 or math.isinf(max_seconds):
            raise ValueError(f"max_seconds must be a finite number > 0, got {max_seconds}")
        self._max_retries = max_retries
        self._max_seconds = max_seconds
        self._clock = clock
        self._deadline = clock.now() + max_seconds
        self._retries_used = 0
        self._lock = threading.Lock()

    @classmethod
    def resume(
        cls,
        *,
        max_retries: int,
        max_seconds: float,
        retries_used: int,
        deadline_wall: float,
        clock: Clock,
    ) -> RetryBudget:
        """The budget of a request already under way: ``retries_used`` spent, ending at
        ``deadline_wall`` (see :meth:`deadline_wall`).

        The wall-clock deadline is turned into this clock's monotonic scale once, here:
        ``now() + (deadline_wall - wall())``, the time left capped at ``max_seconds`` (a
        wall clock stepped back between two processes never grants more than the whole budget)
        and never negative (a deadline already passed stays passed).
        """
        if not 0 <= retries_used <= max_retries:
            raise ValueError(f"retries_used must be in [0, {max_retries}], got {retries_used}")
        if math.isnan(deadline_wall) or math.isinf(deadline_wall):
            raise ValueError(f"deadline_wall must be a finite number, got {deadline_wall}")
        budget = cls(max_retries=max_retries, max_seconds=max_seconds, clock=clock)
        left = min(max_seconds, max(0.0, deadline_wall - clock.wall()))
        budget._deadline = clock.now() + left
        budget._retries_used = retries_used
        return budget

    def deadline_wall(self) -> float:
        """The deadline as wall-clock epoch seconds (``clock.wall()`` scale): what a snapshot
        stores so that another process, or a resumed run, computes the same time left."""
        return self._clock.wall() + self.remaining()

    @property
    def max_retries(self) -> int:
        return self._max_retries

    @property
    def max_seconds(self) -> float:
        return self._max_seconds

    @property
    def retries_used(self) -> int:
        return self._retries_used

    @property
    def deadline(self) -> float:
        """Monotonic time (``clock.now()`` scale) at which the budget expires."""
        return self._deadline

    def remaining(self) -> float:
        """Seconds left before the deadline, never negative."""
        return max(0.0, self._deadline - self._clock.now())

    def expired(self) -> bool:
        """Whether the deadline has been reached."""
        return self._clock.now() >= self._deadline

    def retries_left(self) -> int:
        return self._max_retries - self._retries_used

    def can_retry(self, wait_s: float = 0.0) -> bool:
        """Whether :meth:`try_acquire_retry` would grant a retry now (consumes nothing)."""
        with self._lock:
            return (
                self._retries_used < self._max_retries
                and self._clock.now() + wait_s < self._deadline
            )

    def try_acquire_retry(self, wait_s: float = 0.0) -> bool:
        """Consume one retry iff one is left and ``now + wait_s`` is strictly before the deadline.

        Returns False, consuming nothing, otherwise.
        """
        if wait_s < 0 or math.isnan(wait_s):
            raise ValueError(f"wait_s must be >= 0, got {wait_s}")
        with self._lock:
            if self._retries_used >= self._max_retries:
                return False
            if not self._clock.now() + wait_s < self._deadline:
                return False
            self._retries_used += 1
            return True

    def call_timeout(self, timeout: float) -> float:
        """The timeout to use for the next call: ``min(timeout, remaining())``."""
        return min(timeout, self.remaining())

    def __repr__(self) -> str:
        return (
            f"RetryBudget(retries={self._retries_used}/{self._max_retries}, "
            f"remaining={self.remaining():.3f}s)"
        )


class RatioLimiter:
    """Allow secondary events up to ``ratio * primary + reserve_per_s * window_s`` in a window.

    Finagle's retry budget: a share of the main-path traffic (high traffic is capped at
    ``ratio``) plus a reserve of events per second that even a quiet process may spend (low
    traffic is not starved). Counts live in one
    :class:`~helpdesk.degrade.window.SlidingWindow` (``buckets`` time buckets; a bucket leaves
    the window as a whole).

    Args:
        ratio: secondary events allowed per primary event, in (0, 1].
        window_s: length of the sliding window, seconds (> 0).
        reserve_per_s: secondary events per second always allowed (>= 0).
        buckets: number of time buckets in the window (>= 1).
        clock: time source.
    """

    def __init__(
        self,
        *,
        ratio: float,
        window_s: float = 10.0,
        reserve_per_s: float = 0.5,
        buckets: int = 10,
        clock: Clock,
    ) -> None:
        if not 0 < ratio <= 1:
            raise ValueError(f"ratio must be in (0, 1], got {ratio}")
        if not 0 < window_s < math.inf:
            raise ValueError(f"window_s must be a finite number > 0, got {window_s}")
        if not 0 <= reserve_per_s < math.inf:
            raise ValueError(f"reserve_per_s must be a finite number >= 0, got {reserve_per_s}")
        if buckets < 1:
            raise ValueError(f"buckets must be >= 1, got {buckets}")
        self.ratio = ratio
        self.window_s = window_s
        self.reserve_per_s = reserve_per_s
        self.buckets = buckets
        self._clock = clock
        self.window = SlidingWindow(window_s, buckets)
        """The counts (``primary``, ``secondary``): plain data a shared store could hold."""
        self._lock = threading.Lock()

    @property
    def reserve(self) -> float:
        """Secondary events allowed in a window with no primary traffic at all."""
        return self.reserve_per_s * self.window_s

    def _totals(self) -> tuple[int, int]:
        totals = self.window.totals(self._clock.now())
        return totals[_PRIMARY], totals[_SECONDARY]

    def record_primary(self, n: int = 1) -> None:
        """Count ``n`` main-path calls."""
        if n < 0:
            raise ValueError(f"n must be >= 0, got {n}")
        with self._lock:
            self.window.add(self._clock.now(), _PRIMARY, n)

    def try_acquire(self) -> bool:
        """Record and allow one secondary event iff ``secondary < ratio * primary + reserve``."""
        with self._lock:
            primary, secondary = self._totals()
            if secondary < self.ratio * primary + self.reserve:
                self.window.add(self._clock.now(), _SECONDARY)
                return True
            return False

    def refund(self) -> None:
        """Give back one secondary event granted by :meth:`try_acquire` but not spent."""
        with self._lock:
            self.window.totals(self._clock.now())  # drop expired buckets first
            for index in sorted(self.window.slots, reverse=True):
                bucket = self.window.slots[index]
                if bucket.get(_SECONDARY, 0) > 0:
                    bucket[_SECONDARY] -= 1
                    return

    def snapshot(self) -> dict[str, Any]:
        """Counts in the current window, for health pages and drills."""
        with self._lock:
            primary, secondary = self._totals()
        return {
            "ratio": self.ratio,
            "window_s": self.window_s,
            "reserve_per_s": self.reserve_per_s,
            "primary": primary,
            "secondary": secondary,
            "allowed": self.ratio * primary + self.reserve,
        }
