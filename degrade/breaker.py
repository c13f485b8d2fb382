"""Circuit breakers with per-class failure counting and a ramped half-open state.

A :class:`CircuitBreaker` watches one dependency (a tool, a model tier, a degrade path) over a
sliding time-bucketed window. It trips OPEN when failures of *one* :class:`ErrorClass` reach
``failure_rate`` of the window's calls (once ``min_calls`` were made) or reach
``failure_count`` whatever the rate; input and business errors never count — the dependency
answered. After ``open_s`` it moves to HALF_OPEN lazily (on the next read of ``state``) and
admits a deterministic fraction of attempts per ramp step (10% -> 25% -> 50% -> 100%), advancing
after ``ramp_step_successes`` successes per step and closing after the last one; any counted
failure while ramping reopens it. The breaker never wraps the call: callers ``try_acquire()``,
make the call, then ``record_*``; a lock guards only the short bookkeeping, never the call.
Every transition is recorded once in ``transitions`` and passed to ``on_transition``.
"""

from __future__ import annotations

import math
import threading
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.degrade.errors import BREAKER_IGNORED, ErrorClass

__all__ = [
    "DEFAULT_BREAKER_POLICY",
    "BreakerBoard",
    "BreakerPolicy",
    "BreakerState",
    "BreakerTransition",
    "CircuitBreaker",
]


class BreakerState(StrEnum):
    """Where a breaker is in its cycle."""

    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


@dataclass(frozen=True, kw_only=True, slots=True)
class BreakerPolicy:
    """When a breaker trips and how it recovers."""

    window_s: float = 60.0
    """Length of the sliding window, seconds."""
    buckets: int = 12
    """Time buckets in the window; a bucket ages out as a whole."""
    failure_rate: float = 0.30
    """Trip when failures of one class / calls in the window >= this (inclusive)."""
    min_calls: int = 10
    """The rate rule applies only once the window holds at least this many calls."""
    failure_count: int = 20
    """Trip when one class reaches this many failures in the window, whatever the rate."""
    open_s: float = 30.0
    """Seconds spent OPEN before moving to HALF_OPEN."""
    ramp: tuple[float, ...] = (0.10, 0.25, 0.50, 1.00)
    """Fraction of attempts admitted at each half-open step; the last must be 1.0."""
    ramp_step_successes: int = 5
    """Successes needed at a step to advance; after the last step the breaker closes."""
    ignored: frozenset[ErrorClass] = BREAKER_IGNORED
    """Error classes that never count: the dependency answered, the request was at fault."""

    def __post_init__(self) -> None:
        if not 0 < self.window_s < math.inf:
            raise ValueError(f"window_s must be a finite number > 0, got {self.window_s}")
        if self.buckets < 1:
            raise ValueError(f"buckets must be >= 1, got {self.buckets}")
        if not 0 < self.failure_rate <= 1:
            raise ValueError(f"failure_rate must be in (0, 1], got {self.failure_rate}")
        if self.min_calls < 1:
            raise ValueError(f"min_calls must be >= 1, got {self.min_calls}")
        if self.failure_count < 1:
            raise ValueError(f"failure_count must be >= 1, got {self.failure_count}")
        if not 0 <= self.open_s < math.inf:
            raise ValueError(f"open_s must be a finite number >= 0, got {self.open_s}")
        if not self.ramp:
            raise ValueError("ramp must have at least one step")
        if any(not 0 < f <= 1 for f in self.ramp):
            raise ValueError(f"ramp fractions must be in (0, 1], got {self.ramp}")
        if any(b < a for a, b in zip(self.ramp, self.ramp[1:], strict=False)):
            raise ValueError(f"ramp must not decrease, got {self.ramp}")
        if self.ramp[-1] != 1.0:
            raise ValueError(f"the last ramp step must be 1.0, got {self.ramp[-1]}")
        if self.ramp_step_successes < 1:
            raise ValueError(f"ramp_step_successes must be >= 1, got {self.ramp_step_successes}")
        if not all(isinstance(c, ErrorClass) for c in self.ignored):
            raise ValueError(f"ignored must hold ErrorClass members, got {self.ignored}")


DEFAULT_BREAKER_POLICY = BreakerPolicy()


@dataclass(frozen=True, kw_only=True, slots=True)
class BreakerTransition:
    """One state change of one breaker."""

    name: str
    """The breaker (dependency) name."""
    from_state: BreakerState
    to_state: BreakerState
    at: float
    """Monotonic time of the change (``clock.now()``)."""
    reason: str
    """Why, e.g. ``unavailable: 4/10 calls failed (40% >= 30%) in 60s``."""


@dataclass(slots=True)
class _Bucket:
    index: int
    calls: int = 0
    failures: Counter[ErrorClass] = field(default_factory=Counter)


class CircuitBreaker:
    """A breaker for one dependency. See the module docstring for the state machine.

    Args:
        name: the dependency, used in transitions and snapshots.
        policy: thresholds and ramp.
        clock: time source.
        on_transition: called (outside the lock) once per transition.
    """

    def __init__(
        self,
        name: str,
        policy: BreakerPolicy = DEFAULT_BREAKER_POLICY,
        *,
        clock: Clock,
        on_transition: Callable[[BreakerTransition], None] | None = None,
    ) -> None:
        self.name = name
        self.policy = policy
        self._clock = clock
        self._on_transition = on_transition
        self._lock = threading.Lock()
        self._state = BreakerState.CLOSED
        self._bucket_s = policy.window_s / policy.buckets
        self._window: deque[_Bucket] = deque()
        self._opened_at: float | None = None
        self._step = 0
        self._step_attempts = 0
        self._step_admitted = 0
        self._step_successes = 0
        self._in_flight = 0
        self.transitions: list[BreakerTransition] = []
        """Every transition so far, oldest first."""

    # -- bookkeeping (call with the lock held) -------------------------------------------------

    def _current_bucket(self) -> _Bucket:
        index = math.floor(self._clock.now() / self._bucket_s)
        while self._window and self._window[0].index <= index - self.policy.buckets:
            self._window.popleft()
        if not self._window or self._window[-1].index != index:
            self._window.append(_Bucket(index))
        return self._window[-1]

    def _calls(self) -> int:
        return sum(b.calls for b in self._window)

    def _failures(self) -> Counter[ErrorClass]:
        total: Counter[ErrorClass] = Counter()
        for bucket in self._window:
            total.update(bucket.failures)
        return total

    def _move(self, to: BreakerState, reason: str, out: list[BreakerTransition]) -> None:
        transition = BreakerTransition(
            name=self.name,
            from_state=self._state,
            to_state=to,
            at=self._clock.now(),
            reason=reason,
        )
        self._state = to
        self.transitions.append(transition)
        out.append(transition)
        if to is BreakerState.OPEN:
            self._opened_at = transition.at
        elif to is BreakerState.HALF_OPEN:
            self._in_flight = 0
            self._begin_step(0)
        else:
            self._opened_at = None
            self._window.clear()

    def _begin_step(self, step: int) -> None:
        self._step = step
        self._step_attempts = 0
        self._step_admitted = 0
        self._step_successes = 0

    def _refresh(self, out: list[BreakerTransition]) -> None:
        if self._state is BreakerState.OPEN:
            assert self._opened_at is not None
            if self._clock.now() >= self._opened_at + self.policy.open_s:
                self._move(
                    BreakerState.HALF_OPEN,
                    f"open for {self.policy.open_s:g}s; probing {self.policy.ramp[0]:.0%} of calls",
                    out,
                )

    def _emit(self, out: list[BreakerTransition]) -> None:
        if self._on_transition is not None:
            for transition in out:
                self._on_transition(transition)

    def _release(self) -> None:
        if self._in_flight > 0:
            self._in_flight -= 1

    # -- public API ----------------------------------------------------------------------------

    @property
    def state(self) -> BreakerState:
        """Current state; moves OPEN -> HALF_OPEN once ``open_s`` has elapsed."""
        out: list[BreakerTransition] = []
        with self._lock:
            self._refresh(out)
            state = self._state
        self._emit(out)
        return state

    def try_acquire(self) -> bool:
        """Whether the caller may make the call now (and, if so, must record its outcome).

        Half-open admits attempt ``k`` of the current step iff ``ceil(k*f) > ceil((k-1)*f)``:
        the first attempt of each step, then a steady ``f`` of the rest.
        """
        out: list[BreakerTransition] = []
        with self._lock:
            self._refresh(out)
            if self._state is BreakerState.CLOSED:
                admitted = True
            elif self._state is BreakerState.OPEN:
                admitted = False
            else:
                fraction = Fraction(self.policy.ramp[self._step]).limit_denominator(10_000)
                self._step_attempts += 1
                k = self._step_attempts
                admitted = math.ceil(k * fraction) > math.ceil((k - 1) * fraction)
                if admitted:
                    self._step_admitted += 1
                    self._in_flight += 1
        self._emit(out)
        return admitted

    def record_success(self) -> None:
        """The call succeeded."""
        out: list[BreakerTransition] = []
        with self._lock:
            self._refresh(out)
            if self._state is BreakerState.CLOSED:
                self._current_bucket().calls += 1
            elif self._state is BreakerState.HALF_OPEN:
                self._release()
                self._step_successes += 1
                if self._step_successes >= self.policy.ramp_step_successes:
                    if self._step + 1 < len(self.policy.ramp):
                        self._begin_step(self._step + 1)
                    else:
                        self._move(
                            BreakerState.CLOSED,
                            f"recovered: {self.policy.ramp_step_successes} successes at each of"
                            f" {len(self.policy.ramp)} ramp steps",
                            out,
                        )
        self._emit(out)

    def record_failure(self, error_class: ErrorClass) -> None:
        """The call failed with ``error_class``; ignored classes only release a permit."""
        if error_class in self.policy.ignored:
            self.record_ignored()
            return
        out: list[BreakerTransition] = []
        with self._lock:
            self._refresh(out)
            if self._state is BreakerState.CLOSED:
                bucket = self._current_bucket()
                bucket.calls += 1
                bucket.failures[error_class] += 1
                reason = self._trip_reason(error_class)
                if reason is not None:
                    self._move(BreakerState.OPEN, reason, out)
            elif self._state is BreakerState.HALF_OPEN:
                self._release()
                self._move(
                    BreakerState.OPEN,
                    f"{error_class}: failure while half-open at the"
                    f" {self.policy.ramp[self._step]:.0%} step",
                    out,
                )
        self._emit(out)

    def record_ignored(self) -> None:
        """The call ended in a way that says nothing about the dependency's health."""
        with self._lock:
            if self._state is BreakerState.HALF_OPEN:
                self._release()

    def _trip_reason(self, error_class: ErrorClass) -> str | None:
        failures = self._failures()[error_class]
        calls = self._calls()
        window = f"{self.policy.window_s:g}s"
        if failures >= self.policy.failure_count:
            return f"count: {failures} {error_class} failures in {window}"
        if calls >= self.policy.min_calls and failures / calls >= self.policy.failure_rate:
            return (
                f"{error_class}: {failures}/{calls} calls failed"
                f" ({failures / calls:.0%} >= {self.policy.failure_rate:.0%}) in {window}"
            )
        return None

    def retry_after(self) -> float:
        """Seconds until an OPEN breaker moves to HALF_OPEN; 0 in any other state."""
        with self._lock:
            if self._state is not BreakerState.OPEN or self._opened_at is None:
                return 0.0
            return max(0.0, self._opened_at + self.policy.open_s - self._clock.now())

    def snapshot(self) -> dict[str, Any]:
        """State and window counts, for health pages and drills."""
        state = self.state
        with self._lock:
            self._current_bucket()
            half_open = state is BreakerState.HALF_OPEN
            return {
                "name": self.name,
                "state": str(state),
                "calls": self._calls(),
                "failures": {str(c): n for c, n in sorted(self._failures().items())},
                "ramp_step": self._step if half_open else None,
                "ramp_fraction": self.policy.ramp[self._step] if half_open else None,
                "in_flight": self._in_flight if half_open else 0,
                "opened_at": self._opened_at,
            }

    def __repr__(self) -> str:
        return f"CircuitBreaker({self.name!r}, state={self._state})"


class BreakerBoard:
    """Get-or-create breakers by name, all sharing one policy, clock and transition callback.

    Args:
        policy: policy of every breaker on the board.
        clock: time source; the system clock when None.
        on_transition: forwarded to every breaker.
    """

    def __init__(
        self,
        policy: BreakerPolicy = DEFAULT_BREAKER_POLICY,
        clock: Clock | None = None,
        *,
        on_transition: Callable[[BreakerTransition], None] | None = None,
    ) -> None:
        self.policy = policy
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._on_transition = on_transition
        self._breakers: dict[str, CircuitBreaker] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> CircuitBreaker:
        """The breaker called ``name``, created on first use."""
        with self._lock:
            breaker = self._breakers.get(name)
            if breaker is None:
                breaker = CircuitBreaker(
                    name, self.policy, clock=self._clock, on_transition=self._on_transition
                )
                self._breakers[name] = breaker
            return breaker

    def names(self) -> list[str]:
        with self._lock:
            return sorted(self._breakers)

    def __contains__(self, name: object) -> bool:
        with self._lock:
            return name in self._breakers

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """``{name: breaker.snapshot()}`` for every breaker created so far."""
        with self._lock:
            breakers = dict(self._breakers)
        return {name: breakers[name].snapshot() for name in sorted(breakers)}
