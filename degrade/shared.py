"""Hooks for state shared by several replicas: breakers and the process-wide retry ratio.

One process keeps its breakers and retry ratio in memory. Several replicas behind one load
balancer must agree: a breaker opened by one replica must refuse calls on the others, and the
retry ratio caps the retries of the fleet, not of each process. The replicas' store (Redis in
``helpdesk serve``) sits behind two small protocols, read from an in-process mirror that the
store keeps fresh in the background, so no breaker or budget decision ever waits on the network:

* :class:`BreakerSync` — ``open_until(name)`` (wall-clock seconds, or None) and ``publish``
  of this replica's transitions. :class:`SharedBreakerBoard` hands out
  :class:`SharedCircuitBreaker` s that refuse while another replica holds the breaker open.
* :class:`RatioSync` — ``others()``: the other replicas' (primary, secondary) counts in the
  window. :class:`SharedRatioLimiter` allows a retry only if the fleet's totals allow it.

Both wrap the local classes through their public API only; with no sync object they are the
local classes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from helpdesk.degrade.breaker import (
    DEFAULT_BREAKER_POLICY,
    BreakerBoard,
    BreakerPolicy,
    BreakerState,
    BreakerTransition,
    CircuitBreaker,
)
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.clock import Clock, SystemClock

__all__ = [
    "BreakerSync",
    "RatioSync",
    "SharedBreakerBoard",
    "SharedCircuitBreaker",
    "SharedRatioLimiter",
]


class BreakerSync(Protocol):
    """The replicas' view of breakers (non-blocking: served from a local mirror)."""

    def open_until(self, name: str) -> float | None:
        """Wall-clock time until which another replica holds ``name`` open, or None."""
        ...

    def publish(self, transition: BreakerTransition, open_until: float | None) -> None:
        """Tell the other replicas about this replica's transition (fire and forget)."""
        ...


class SharedCircuitBreaker(CircuitBreaker):
    """A local breaker that also refuses while another replica holds it open."""

    def __init__(
        self,
        name: str,
        policy: BreakerPolicy = DEFAULT_BREAKER_POLICY,
        *,
        clock: Clock,
        sync: BreakerSync,
        on_transition: Callable[[BreakerTransition], None] | None = None,
    ) -> None:
        super().__init__(name, policy, clock=clock, on_transition=on_transition)
        self._sync = sync
        self._wall_clock = clock

    def remote_open(self) -> bool:
        """Whether another replica holds this breaker open now."""
        until = self._sync.open_until(self.name)
        return until is not None and until > self._wall_clock.wall()

    @property
    def state(self) -> BreakerState:
        local = super().state
        if local is BreakerState.CLOSED and self.remote_open():
            return BreakerState.OPEN
        return local

    def try_acquire(self) -> bool:
        if self.remote_open():
            return False
        return super().try_acquire()

    def retry_after(self) -> float:
        until = self._sync.open_until(self.name)
        remote = max(0.0, until - self._wall_clock.wall()) if until is not None else 0.0
        return max(super().retry_after(), remote)

    def snapshot(self) -> dict[str, Any]:
        snap = super().snapshot()
        if self.remote_open():
            snap["state"] = str(BreakerState.OPEN)
            snap["remote_open_until"] = self._sync.open_until(self.name)
        return snap


class SharedBreakerBoard(BreakerBoard):
    """A breaker board whose breakers are shared with the other replicas through ``sync``."""

    def __init__(
        self,
        policy: BreakerPolicy = DEFAULT_BREAKER_POLICY,
        clock: Clock | None = None,
        *,
        sync: BreakerSync,
        on_transition: Callable[[BreakerTransition], None] | None = None,
    ) -> None:
        super().__init__(policy, clock, on_transition=on_transition)
        self.sync = sync
        self._shared_clock: Clock = clock if clock is not None else SystemClock()
        self._forward = on_transition
        self._created: dict[str, SharedCircuitBreaker] = {}

    def _transition(self, transition: BreakerTransition) -> None:
        until = None
        if transition.to_state is BreakerState.OPEN:
            until = self._shared_clock.wall() + self.policy.open_s
        self.sync.publish(transition, until)
        if self._forward is not None:
            self._forward(transition)

    def get(self, name: str) -> CircuitBreaker:
        with self._lock:
            breaker = self._breakers.get(name)
            if breaker is None:
                breaker = SharedCircuitBreaker(
                    name,
                    self.policy,
                    clock=self._shared_clock,
                    sync=self.sync,
                    on_transition=self._transition,
                )
                self._breakers[name] = breaker
            return breaker


class RatioSync(Protocol):
    """The other replicas' counts in the current window (non-blocking)."""

    def others(self) -> tuple[int, int]:
        """``(primary, secondary)`` counted by the other replicas in the window."""
        ...


class SharedRatioLimiter(RatioLimiter):
    """A ratio limiter whose cap applies to the whole fleet: ``sync.others()`` are added."""

    def __init__(self, *, sync: RatioSync, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sync = sync

    def try_acquire(self) -> bool:
        mine = super().snapshot()
        primary, secondary = self.sync.others()
        # What the local limiter allows with no traffic at all (its floor / reserve), read from
        # its public snapshot so this wrapper does not depend on how it is configured.
        base = float(mine["allowed"]) - self.ratio * mine["primary"]
        fleet_cap = self.ratio * (mine["primary"] + primary) + base
        if mine["secondary"] + secondary >= fleet_cap:
            return False  # the fleet's cap is spent (a refusal is not counted)
        return super().try_acquire()

    def snapshot(self) -> dict[str, Any]:
        snap = super().snapshot()
        primary, secondary = self.sync.others()
        snap["fleet_primary"] = snap["primary"] + primary
        snap["fleet_secondary"] = snap["secondary"] + secondary
        return snap
