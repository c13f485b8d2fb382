"""Circuit breakers: trip on persistent failure of one class, never on background noise.

Retries handle noise; the breaker handles persistent failure (seed article 001, lesson 5.1). A
:class:`CircuitBreaker` watches one dependency (a tool, a model tier, a degrade path) over one
:class:`~helpdesk.degrade.window.SlidingWindow`. It trips OPEN only when failures of *one*
:class:`ErrorClass` reach **both** ``failure_count`` and ``failure_rate`` of the window's calls
(with at least ``min_calls`` calls): 15-30% random transient failures on a busy tool stay far
below a 50% rate, a handful of failures on a quiet tool stay below the count, and a dependency
that is down meets both within seconds. Input and business errors never count — the dependency
answered.

After ``open_s`` (or at once, on :meth:`record_probe` success) it moves to HALF_OPEN and admits
a deterministic fraction of attempts per ramp step (10% -> 25% -> 50% -> 100%), and any attempt
after ``ramp_min_gap_s`` without one (a quiet dependency still ramps up). Each step judges
``ramp_step_calls`` outcomes by the same rate: the step passes unless its failures reach
``failure_rate`` of them, so a recovered dependency with 10% background errors closes, and a
dependency still down reopens after a few failures. A rate-limited failure with a Retry-After can
hold the breaker shut until then (``respect_retry_after``; model tiers use it for routing).

The breaker never wraps the call: callers ``try_acquire()``, make the call, then ``record_*``; a
lock guards only the short bookkeeping. All mutable state lives in one plain-data
:class:`BreakerData`, so a shared store could hold it. Every transition is recorded once in
``transitions`` and passed to ``on_transition``.

Over 400 lines on purpose: :class:`CircuitBreaker` is one state machine (closed, open, half-open
with its ramp) whose transitions share one lock and one :class:`BreakerData`; split, its rules
would no longer read together.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.degrade.errors import BREAKER_IGNORED, ErrorClass
from helpdesk.degrade.window import SlidingWindow

__all__ = [
    "DEFAULT_BREAKER_POLICY",
    "BreakerBoard",
    "BreakerData",
    "BreakerPolicy",
    "BreakerState",
    "BreakerTransition",
    "CircuitBreaker",
]

_CALLS = "calls"


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
    failure_rate: float = 0.5
    """Trip when failures of one class / calls in the window >= this (inclusive) AND the count
    rule holds. Also the failure share that fails a half-open ramp step."""
    min_calls: int = 10
    """The window must hold at least this many calls before the breaker may trip."""
    failure_count: int = 10
    """...and failures of one class must be at least this many (both rules, not either)."""
    open_s: float = 30.0
    """Seconds spent OPEN before moving to HALF_OPEN."""
    ramp: tuple[float, ...] = (0.10, 0.25, 0.50, 1.00)
    """Fraction of attempts admitted at each half-open step; the last must be 1.0."""
    ramp_step_calls: int = 5
    """Counted outcomes judged at each step; the step passes when fewer than
    ``failure_rate`` of them failed. After the last step the breaker closes."""
    ramp_min_gap_s: float = 2.0
    """Half-open also admits a call whenever none was admitted for this long: at low traffic a
    10% step would otherwise take minutes to see its calls (a fraction protects a recovering
    dependency from a burst; a trickle needs no protection)."""
    respect_retry_after: bool = False
    """Hold the breaker shut (calls refused) until a rate-limited failure's Retry-After passes."""
    max_hold_s: float = 300.0
    """Longest Retry-After honoured, seconds (a server asking for an hour gets this)."""
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
        if self.ramp_step_calls < 1:
            raise ValueError(f"ramp_step_calls must be >= 1, got {self.ramp_step_calls}")
        if not 0 <= self.ramp_min_gap_s <= math.inf:
            raise ValueError(f"ramp_min_gap_s must be >= 0, got {self.ramp_min_gap_s}")
        if not 0 <= self.max_hold_s < math.inf:
            raise ValueError(f"max_hold_s must be a finite number >= 0, got {self.max_hold_s}")
        if not all(isinstance(c, ErrorClass) for c in self.ignored):
            raise ValueError(f"ignored must hold ErrorClass members, got {self.ignored}")

    @property
    def step_failures_to_reopen(self) -> int:
        """Failures within one ramp step that reopen the breaker."""
        return max(1, math.ceil(self.failure_rate * self.ramp_step_calls - 1e-9))


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
    """Why, e.g. ``unavailable: 12/20 calls failed (60% >= 50%, >= 10) in 60s``."""


@dataclass(slots=True)
class BreakerData:
    """Everything a breaker remembers: plain data, so a shared store could hold it."""

    window: SlidingWindow
    state: BreakerState = BreakerState.CLOSED
    opened_at: float | None = None
    hold_until: float | None = None
    """Calls are refused until this time (a Retry-After being honoured)."""
    step: int = 0
    step_attempts: int = 0
    last_admitted_at: float | None = None
    """When half-open last admitted a call."""
    step_calls: int = 0
    step_failures: int = 0
    in_flight: int = 0


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
        self.data = BreakerData(window=SlidingWindow(policy.window_s, policy.buckets))
        """The breaker's whole mutable state (read it under no assumption of stability)."""
        self.transitions: list[BreakerTransition] = []
        """Every transition so far, oldest first."""

    # -- bookkeeping (call with the lock held) -------------------------------------------------

    def _move(self, to: BreakerState, reason: str, out: list[BreakerTransition]) -> None:
        d = self.data
        transition = BreakerTransition(
            name=self.name, from_state=d.state, to_state=to, at=self._clock.now(), reason=reason
        )
        d.state = to
        self.transitions.append(transition)
        out.append(transition)
        if to is BreakerState.OPEN:
            d.opened_at = transition.at
        elif to is BreakerState.HALF_OPEN:
            d.in_flight = 0
            d.last_admitted_at = None
            self._begin_step(0)
        else:
            d.opened_at = None
            d.window.clear()

    def _begin_step(self, step: int) -> None:
        d = self.data
        d.step = step
        d.step_attempts = 0
        d.step_calls = 0
        d.step_failures = 0

    def _refresh(self, out: list[BreakerTransition]) -> None:
        d = self.data
        if d.state is BreakerState.OPEN:
            assert d.opened_at is not None
            if self._clock.now() >= d.opened_at + self.policy.open_s and not self._held():
                self._move(
                    BreakerState.HALF_OPEN,
                    f"open for {self.policy.open_s:g}s; probing {self.policy.ramp[0]:.0%} of calls",
                    out,
                )

    def _held(self) -> bool:
        until = self.data.hold_until
        return until is not None and self._clock.now() < until

    def _emit(self, out: list[BreakerTransition]) -> None:
        if self._on_transition is not None:
            for transition in out:
                self._on_transition(transition)

    def _release(self) -> None:
        if self.data.in_flight > 0:
            self.data.in_flight -= 1

    def _half_open_outcome(
        self, failed: ErrorClass | None, out: list[BreakerTransition], *, release: bool = True
    ) -> None:
        d, policy = self.data, self.policy
        if release:
            self._release()
        d.step_calls += 1
        if failed is not None:
            d.step_failures += 1
            if d.step_failures >= policy.step_failures_to_reopen:
                self._move(
                    BreakerState.OPEN,
                    f"{failed}: {d.step_failures}/{d.step_calls} failed while half-open at the"
                    f" {policy.ramp[d.step]:.0%} step",
                    out,
                )
                return
        if d.step_calls < policy.ramp_step_calls:
            return
        if d.step + 1 < len(policy.ramp):
            self._begin_step(d.step + 1)
            return
        self._move(
            BreakerState.CLOSED,
            f"recovered: fewer than {policy.step_failures_to_reopen} of {policy.ramp_step_calls}"
            f" calls failed at each of {len(policy.ramp)} ramp steps",
            out,
        )

    # -- public API ----------------------------------------------------------------------------

    @property
    def state(self) -> BreakerState:
        """Current state; moves OPEN -> HALF_OPEN once ``open_s`` has elapsed."""
        out: list[BreakerTransition] = []
        with self._lock:
            self._refresh(out)
            state = self.data.state
        self._emit(out)
        return state

    def try_acquire(self) -> bool:
        """Whether the caller may make the call now (and, if so, must record its outcome).

        Half-open admits attempt ``k`` of the current step iff ``ceil(k*f) > ceil((k-1)*f)``:
        the first attempt of each step, then a steady ``f`` of the rest. A held breaker (a
        Retry-After being honoured) admits nothing.
        """
        out: list[BreakerTransition] = []
        with self._lock:
            self._refresh(out)
            d = self.data
            if self._held() or d.state is BreakerState.OPEN:
                admitted = False
            elif d.state is BreakerState.CLOSED:
                admitted = True
            else:
                fraction = Fraction(self.policy.ramp[d.step]).limit_denominator(10_000)
                d.step_attempts += 1
                k = d.step_attempts
                now = self._clock.now()
                admitted = math.ceil(k * fraction) > math.ceil((k - 1) * fraction) or (
                    d.last_admitted_at is not None
                    and now - d.last_admitted_at >= self.policy.ramp_min_gap_s
                )
                if admitted:
                    d.in_flight += 1
                    d.last_admitted_at = now
        self._emit(out)
        return admitted

    def record_success(self) -> None:
        """The call succeeded."""
        out: list[BreakerTransition] = []
        with self._lock:
            self._refresh(out)
            d = self.data
            if d.state is BreakerState.CLOSED:
                d.window.add(self._clock.now(), _CALLS)
            elif d.state is BreakerState.HALF_OPEN:
                self._half_open_outcome(None, out)
        self._emit(out)

    def record_failure(self, error_class: ErrorClass, *, retry_after: float | None = None) -> None:
        """The call failed with ``error_class``; ignored classes only release a permit.

        Args:
            error_class: the classified failure.
            retry_after: the server's Retry-After, seconds; with ``respect_retry_after`` a
                rate-limited failure holds the breaker shut until it passes.
        """
        if error_class in self.policy.ignored:
            self.record_ignored()
            return
        out: list[BreakerTransition] = []
        with self._lock:
            self._refresh(out)
            d = self.data
            now = self._clock.now()
            if (
                self.policy.respect_retry_after
                and error_class is ErrorClass.RATE_LIMITED
                and retry_after is not None
                and retry_after > 0
            ):
                until = now + min(retry_after, self.policy.max_hold_s)
                d.hold_until = max(d.hold_until or until, until)
            if d.state is BreakerState.CLOSED:
                d.window.add(now, _CALLS)
                d.window.add(now, str(error_class))
                reason = self._trip_reason(error_class)
                if reason is not None:
                    self._move(BreakerState.OPEN, reason, out)
            elif d.state is BreakerState.HALF_OPEN:
                self._half_open_outcome(error_class, out)
        self._emit(out)

    def record_ignored(self) -> None:
        """The call ended in a way that says nothing about the dependency's health."""
        with self._lock:
            if self.data.state is BreakerState.HALF_OPEN:
                self._release()

    def record_probe(self, ok: bool, error_class: ErrorClass = ErrorClass.UNAVAILABLE) -> None:
        """An active health probe's outcome.

        A good probe of an OPEN breaker moves it to HALF_OPEN at once (the ramp then decides),
        so a recovered dependency gets traffic back within one probe interval; otherwise a
        probe counts like a call.
        """
        out: list[BreakerTransition] = []
        with self._lock:
            self._refresh(out)
            d = self.data
            now = self._clock.now()
            if d.state is BreakerState.OPEN:
                if ok and not self._held():
                    self._move(BreakerState.HALF_OPEN, "a health probe succeeded; ramping up", out)
            elif d.state is BreakerState.HALF_OPEN:
                self._half_open_outcome(None if ok else error_class, out, release=False)
            else:
                d.window.add(now, _CALLS)
                if not ok:
                    d.window.add(now, str(error_class))
                    reason = self._trip_reason(error_class)
                    if reason is not None:
                        self._move(BreakerState.OPEN, f"probes: {reason}", out)
        self._emit(out)

    def _trip_reason(self, error_class: ErrorClass) -> str | None:
        totals = self.data.window.totals(self._clock.now())
        failures = totals[str(error_class)]
        calls = totals[_CALLS]
        policy = self.policy
        if calls < policy.min_calls or failures < policy.failure_count:
            return None
        if failures / calls < policy.failure_rate:
            return None
        return (
            f"{error_class}: {failures}/{calls} calls failed ({failures / calls:.0%} >="
            f" {policy.failure_rate:.0%}, >= {policy.failure_count}) in {policy.window_s:g}s"
        )

    def retry_after(self) -> float:
        """Seconds until the breaker may admit calls again; 0 when it admits now."""
        with self._lock:
            d, now = self.data, self._clock.now()
            hold = max(0.0, d.hold_until - now) if d.hold_until is not None else 0.0
            if d.state is not BreakerState.OPEN or d.opened_at is None:
                return hold
            return max(hold, d.opened_at + self.policy.open_s - now)

    def snapshot(self) -> dict[str, Any]:
        """State and window counts, for health pages and drills."""
        state = self.state
        with self._lock:
            d = self.data
            totals = d.window.totals(self._clock.now())
            half_open = state is BreakerState.HALF_OPEN
            return {
                "name": self.name,
                "state": str(state),
                "calls": totals[_CALLS],
                "failures": {k: n for k, n in sorted(totals.items()) if k != _CALLS and n},
                "ramp_step": d.step if half_open else None,
                "ramp_fraction": self.policy.ramp[d.step] if half_open else None,
                "in_flight": d.in_flight if half_open else 0,
                "opened_at": d.opened_at,
                "held_s": (
                    max(0.0, d.hold_until - self._clock.now()) if d.hold_until is not None else 0.0
                ),
            }

    def __repr__(self) -> str:
        return f"CircuitBreaker({self.name!r}, state={self.data.state})"


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
