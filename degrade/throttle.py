"""Client-side adaptive throttling: shed load on an overloaded dependency without a breaker trip.

An overloaded dependency (a shop admitting C concurrent requests, answering 503 beyond) still
serves C; a circuit breaker that trips on its 503s stops asking for ``open_s`` seconds and then
ramps, so traffic it could serve after the overload ends goes to fallbacks for half a minute
(issue 15 measured 23.5% of the turns arriving 10 s after a 2x step fully answered). This is
client-side admission control (Envoy's ``admission_control`` filter; the SRE book's adaptive
throttling with one change) over the last ``window_s``:

- ``sent``: attempts sent to the dependency and answered (its verdict is known),
- ``accepts``: those it did not refuse for load or availability (anything but 503/429),

and, once ``min_requests`` were sent, a new attempt is rejected locally with probability
``max(0, (sent - k * accepts) / (sent + 1))``. At ``k = 2`` nothing is rejected while the
dependency accepts at least half of what reaches it (noise, a 2x overload); beyond, the share
it refuses is shed at the client. The SRE formula counts the client's own rejections as
requests too; then the probability feeds itself (above ``1 - 1/k`` each window's rejections
keep it up) and a throttle decays over several windows after the overload ended — measured
here, the low-traffic ``check_stock`` stayed throttled 15 s after the shop had recovered.
Counting only what the dependency answered makes the probability a function of its
acceptance rate alone: it falls as soon as sent attempts are accepted again.
:meth:`AdaptiveThrottle.serving` tells the executor whether refusals are overload (the
dependency still serves a share: the throttle's job) or an outage (it serves nothing: the
breaker's job).
"""

from __future__ import annotations

import math
import random
import threading
from dataclasses import dataclass

from helpdesk.degrade.clock import Clock
from helpdesk.degrade.window import SlidingWindow

__all__ = ["AdaptiveThrottle", "ThrottleBoard", "ThrottlePolicy"]

_SHED, _SENT, _ACCEPTS = "shed", "sent", "accepts"


@dataclass(frozen=True, kw_only=True, slots=True)
class ThrottlePolicy:
    """How much a dependency is asked for, relative to what it accepts."""

    window_s: float = 10.0
    """Memory of the throttle, seconds: overload is forgotten this long after it ends."""
    buckets: int = 10
    """Time buckets in the window."""
    k: float = 2.0
    """Attempts allowed per accepted attempt before shedding starts (SRE's ``K``)."""
    min_requests: int = 10
    """Nothing is shed until the window holds this many answered attempts: a quiet
    dependency's failures are the retry policy's and the breaker's business, not load."""
    healthy_ratio: float = 0.9
    """The dependency is *healthy* while it accepted this share of the attempts answered in the
    last ``healthy_window_s`` (or had fewer than ``healthy_min_requests`` of them): a refusal
    then is a blip (a momentary full queue), which a read may retry once, not overload, which
    it must not."""
    healthy_window_s: float = 3.0
    """How far back health is judged, seconds: shorter than the shedding window, so a
    dependency is healthy again a few seconds after an overload ends (judged over the 10 s
    window, the first turns 10 s after the benchmark's 2x step still saw it overloaded)."""
    healthy_min_requests: int = 5
    """Fewer answered attempts than this in ``healthy_window_s``: too quiet to call it load."""
    serving_ratio: float = 0.1
    """The dependency is *serving* (its refusals are overload) while it accepted something in
    the window and at least this share of the attempts sent to it; otherwise its refusals are
    an outage, which the circuit breaker judges."""

    def __post_init__(self) -> None:
        if not 0 < self.window_s < math.inf:
            raise ValueError(f"window_s must be a finite number > 0, got {self.window_s}")
        if self.buckets < 1:
            raise ValueError(f"buckets must be >= 1, got {self.buckets}")
        if not 1.0 <= self.k < math.inf:
            raise ValueError(f"k must be a finite number >= 1, got {self.k}")
        if self.min_requests < 0:
            raise ValueError(f"min_requests must be >= 0, got {self.min_requests}")
        if not 0.0 <= self.healthy_ratio <= 1.0:
            raise ValueError(f"healthy_ratio must be in [0, 1], got {self.healthy_ratio}")
        if not 0 < self.healthy_window_s <= self.window_s:
            raise ValueError(
                f"healthy_window_s must be in (0, window_s], got {self.healthy_window_s}"
            )
        if self.healthy_min_requests < 0:
            raise ValueError(f"healthy_min_requests must be >= 0, got {self.healthy_min_requests}")
        if not 0.0 <= self.serving_ratio <= 1.0:
            raise ValueError(f"serving_ratio must be in [0, 1], got {self.serving_ratio}")


class AdaptiveThrottle:
    """Client-side throttling of one dependency (see the module docstring).

    Args:
        name: the dependency, for messages.
        policy: window and ``k``.
        clock: time source.
        rng: the draw for probabilistic rejection (seeded in tests).
    """

    def __init__(
        self,
        name: str,
        policy: ThrottlePolicy | None = None,
        *,
        clock: Clock,
        rng: random.Random | None = None,
    ) -> None:
        self.name = name
        self.policy = policy or ThrottlePolicy()
        self._clock = clock
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self.window = SlidingWindow(self.policy.window_s, self.policy.buckets)
        self.recent = SlidingWindow(
            self.policy.healthy_window_s, max(1, math.ceil(self.policy.healthy_window_s))
        )
        """The same answered attempts over the last ``healthy_window_s`` (health)."""
        self.last_accepted_at: float | None = None
        """Clock time of the last accepted attempt."""

    def reject_probability(self) -> float:
        """The chance the next attempt is rejected here: ``(sent - k*accepts)/(sent+1)``."""
        with self._lock:
            return self._probability()

    def _probability(self) -> float:
        totals = self.window.totals(self._clock.now())
        sent, accepts = totals[_SENT], totals[_ACCEPTS]
        if sent < self.policy.min_requests:
            return 0.0
        return max(0.0, (sent - self.policy.k * accepts) / (sent + 1))

    def admit(self) -> bool:
        """Whether to send the next attempt. An admitted one counts when its outcome is given
        to :meth:`record` (which it must be), so calls in flight — a burst sent in parallel —
        do not count against each other; a rejected one is only tallied (``shed``)."""
        with self._lock:
            probability = self._probability()
            admitted = probability <= 0.0 or self._rng.random() >= probability
            if not admitted:
                self.window.add(self._clock.now(), _SHED)
            return admitted

    def record(self, *, accepted: bool) -> None:
        """An admitted attempt's outcome: ``accepted`` unless the dependency refused it for load
        or availability (503, 429)."""
        with self._lock:
            now = self._clock.now()
            for window in (self.window, self.recent):
                window.add(now, _SENT)
                if accepted:
                    window.add(now, _ACCEPTS)
            if accepted:
                self.last_accepted_at = now

    def served_since(self, moment: float) -> bool:
        """Whether the dependency accepted an attempt after ``moment`` (clock time): a queue
        that refused a call and then served others is moving (a blip), one that has served
        nobody since is not (it may have just gone down)."""
        with self._lock:
            return self.last_accepted_at is not None and self.last_accepted_at > moment

    def serving(self) -> bool:
        """Whether the dependency served a share of what was sent in the window: its refusals
        are then overload (shed here), not an outage (the breaker's to judge)."""
        with self._lock:
            totals = self.window.totals(self._clock.now())
        sent, accepts = totals[_SENT], totals[_ACCEPTS]
        return accepts > 0 and accepts >= self.policy.serving_ratio * sent

    def healthy(self) -> bool:
        """Whether a refusal from the dependency is noise, not load: over the last
        ``healthy_window_s`` it accepted nearly all (:attr:`ThrottlePolicy.healthy_ratio`) of
        its answered attempts, or it had fewer than ``healthy_min_requests`` of them and
        accepted something in the shedding window (or was not asked at all) — a quiet
        dependency's failures are the retry policy's business, as they are for shedding (the
        low-traffic ``check_stock``'s 503 blips after the benchmark's overload step went
        unretried), unless it served nothing lately: a down dependency."""
        with self._lock:
            now = self._clock.now()
            recent, window = self.recent.totals(now), self.window.totals(now)
        sent, accepts = recent[_SENT], recent[_ACCEPTS]
        if sent >= self.policy.healthy_min_requests:
            return accepts >= self.policy.healthy_ratio * sent
        # quiet: a blip unless the dependency served nothing it was sent lately (an outage is
        # the breaker's business; retrying every call to a down tool only doubles the traffic)
        return window[_SENT] == 0 or window[_ACCEPTS] > 0

    def overloaded(self) -> bool:
        """Whether the dependency is overloaded: it refuses a share of what it is sent (not
        :meth:`healthy`) while it still serves (:meth:`serving`; serving nothing is an outage).
        A turn then sends it one call at a time and stops at its first refusal
        (:meth:`~helpdesk.tools.executor.ResilientExecutor.run_many`)."""
        return not self.healthy() and self.serving()

    def snapshot(self) -> dict[str, float]:
        """Window counts and the current rejection probability."""
        with self._lock:
            totals = self.window.totals(self._clock.now())
            probability = self._probability()
        return {
            _SENT: totals[_SENT],
            _SHED: totals[_SHED],
            _ACCEPTS: totals[_ACCEPTS],
            "reject_probability": round(probability, 4),
        }


class ThrottleBoard:
    """Get-or-create throttles by name, sharing one policy, clock and random source."""

    def __init__(
        self,
        policy: ThrottlePolicy | None = None,
        *,
        clock: Clock,
        rng: random.Random | None = None,
    ) -> None:
        self.policy = policy or ThrottlePolicy()
        self._clock = clock
        self._rng = rng or random.Random()
        self._throttles: dict[str, AdaptiveThrottle] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> AdaptiveThrottle:
        """The throttle of ``name``, created on first use."""
        with self._lock:
            throttle = self._throttles.get(name)
            if throttle is None:
                throttle = AdaptiveThrottle(name, self.policy, clock=self._clock, rng=self._rng)
                self._throttles[name] = throttle
            return throttle

    def snapshot(self) -> dict[str, dict[str, float]]:
        with self._lock:
            throttles = dict(self._throttles)
        return {name: throttles[name].snapshot() for name in sorted(throttles)}
