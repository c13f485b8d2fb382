"""Model tiers and their health: which tier may serve the next model call, and for how long.

A :class:`ModelTier` is one configured chat model (``primary`` or ``backup``; ``minimal`` is the
offline template tier and never appears here). :class:`TierHealth` guards each tier with the same
:class:`~helpdesk.degrade.breaker.CircuitBreaker` the tools use, under :data:`TIER_BREAKER_POLICY`:
three failures of one class (at >= 50% of the tier's calls in 60 s) route around it, a 429's
Retry-After holds it shut until it passes, a good active probe moves an open tier to the
half-open ramp at once (recovery within one probe interval) and the ramp closes it after a few
good calls. It also learns each tier's latency per stage (:class:`LatencyTracker`) and sets each
call's timeout from what it observed (:meth:`TierHealth.call_timeout`) instead of a fixed share of
the request's budget: a healthy 2.5 s model gets the time it needs, a hung one costs one timeout.
:class:`TierRouter` orders the tiers (primary, then backup) and caps backup traffic with a
:class:`~helpdesk.degrade.budget.RatioLimiter` so a failing primary cannot stampede the backup:
past the quota, calls go straight to the minimal tier.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from helpdesk.degrade.breaker import (
    BreakerBoard,
    BreakerPolicy,
    BreakerState,
    BreakerTransition,
    CircuitBreaker,
)
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import Clock
from helpdesk.degrade.errors import ErrorClass, Failure

if TYPE_CHECKING:  # langchain's model classes cost ~35 ms to import; no model, no import
    from langchain_core.language_models import BaseChatModel

__all__ = [
    "MODEL_TIERS",
    "TIER_BREAKER_POLICY",
    "LatencyTracker",
    "ModelTier",
    "TierHealth",
    "TierName",
    "TierRouter",
    "TimeoutPolicy",
]

TierName = Literal["primary", "backup", "minimal"]

#: Tiers served by a chat model, in routing order (``minimal`` is the offline fallback).
MODEL_TIERS: Final[tuple[TierName, ...]] = ("primary", "backup")

TIER_BREAKER_POLICY: Final = BreakerPolicy(
    window_s=60.0,
    buckets=12,
    failure_rate=0.5,
    min_calls=3,
    failure_count=3,
    open_s=30.0,
    ramp=(0.5, 1.0),
    ramp_step_calls=3,
    respect_retry_after=True,
    max_hold_s=120.0,
)
"""Model tiers: routed around after 3 failures of one class (>= 50% of calls in 60 s); a 429's
Retry-After (up to 120 s) holds the tier; half-open admits 50% then 100% of stage calls, judging
3 outcomes per step."""


@dataclass(frozen=True, slots=True)
class ModelTier:
    """One configured model tier."""

    name: TierName
    """``primary`` or ``backup``; selects the tier's prompt files in ``prompts/<name>/``."""
    model: BaseChatModel
    """The chat model (a ``ChatOpenAI`` from :func:`~helpdesk.graph.llm.build_chat_model`)."""
    spec: str
    """The ``provider:model`` string it was built from (for traces and health pages)."""
    timeout_s: float = 10.0
    """Longest any one call may take; learned timeouts and the request budget cut it further."""

    def __post_init__(self) -> None:
        if self.name not in MODEL_TIERS:
            raise ValueError(f"a model tier is one of {MODEL_TIERS}, got {self.name!r}")
        if not self.timeout_s > 0:
            raise ValueError(f"timeout_s must be > 0, got {self.timeout_s}")


@dataclass(frozen=True, kw_only=True, slots=True)
class TimeoutPolicy:
    """How a model call's timeout follows the tier's observed latency."""

    factor: float = 2.0
    """Timeout = ``factor`` x the P95 of the stage's recent successful calls..."""
    margin_s: float = 0.5
    """...plus this margin, seconds..."""
    floor_s: float = 1.0
    """...but never below this..."""
    cold_s: float = 4.0
    """...and, before ``min_samples`` calls were seen, this (a hung tier's first cost)."""
    min_samples: int = 3
    """Successful calls of a stage needed before its latency is trusted."""
    samples: int = 50
    """Recent successful calls kept per tier and stage."""

    def __post_init__(self) -> None:
        if not self.factor >= 1:
            raise ValueError(f"factor must be >= 1, got {self.factor}")
        if self.margin_s < 0:
            raise ValueError(f"margin_s must be >= 0, got {self.margin_s}")
        if not 0 < self.floor_s <= self.cold_s:
            raise ValueError(f"need 0 < floor_s <= cold_s, got {self.floor_s}, {self.cold_s}")
        if not 1 <= self.min_samples <= self.samples:
            raise ValueError(
                f"need 1 <= min_samples <= samples, got {self.min_samples}, {self.samples}"
            )


@dataclass(slots=True)
class LatencyTracker:
    """Recent successful call durations of one tier and stage (plain data)."""

    samples: deque[float] = field(default_factory=lambda: deque(maxlen=50))

    def observe(self, seconds: float) -> None:
        self.samples.append(max(0.0, seconds))

    def p95(self) -> float | None:
        """The 95th percentile of the recent samples (None without any)."""
        if not self.samples:
            return None
        ordered = sorted(self.samples)
        return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


class TierHealth:
    """Per-tier circuit breakers and latency: may ``tier`` take a call, and for how long.

    Args:
        clock: time source of the breakers.
        policy: the tiers' breaker policy.
        timeouts: how call timeouts follow observed latency.
        on_transition: called on every breaker transition (logs, metrics).
    """

    def __init__(
        self,
        clock: Clock,
        policy: BreakerPolicy = TIER_BREAKER_POLICY,
        *,
        timeouts: TimeoutPolicy | None = None,
        on_transition: Callable[[BreakerTransition], None] | None = None,
    ) -> None:
        self.policy = policy
        self.timeouts = timeouts or TimeoutPolicy()
        self.breakers = BreakerBoard(policy, clock, on_transition=on_transition)
        self._latency: dict[tuple[str, str], LatencyTracker] = {}
        self._lock = threading.Lock()

    def breaker(self, tier: str) -> CircuitBreaker:
        """The tier's breaker (created on first use)."""
        return self.breakers.get(f"model:{tier}")

    # -- routing -------------------------------------------------------------------------------

    def is_up(self, tier: str) -> bool:
        """Whether ``tier`` may take traffic at all (closed or half-open, and not held)."""
        breaker = self.breaker(tier)
        return breaker.state is not BreakerState.OPEN and breaker.retry_after() == 0.0

    def try_acquire(self, tier: str) -> bool:
        """Whether the next call may go to ``tier`` (if so, record its outcome)."""
        return self.breaker(tier).try_acquire()

    def record_success(self, tier: str, stage: str | None = None, seconds: float = 0.0) -> None:
        """A call to ``tier`` answered (in ``seconds``, learned for ``stage``)."""
        self.breaker(tier).record_success()
        if stage is not None:
            self._tracker(tier, stage).observe(seconds)

    def record_failure(self, tier: str, failure: Failure) -> None:
        """A call to ``tier`` failed (ignored classes only release a half-open permit)."""
        self.breaker(tier).record_failure(failure.error_class, retry_after=failure.retry_after)

    def release(self, tier: str) -> None:
        """An admitted call ended without saying anything about the tier."""
        self.breaker(tier).record_ignored()

    def record_probe(self, tier: str, ok: bool) -> None:
        """An active probe's outcome (a good one half-opens an open tier at once)."""
        self.breaker(tier).record_probe(ok)

    def record(self, tier: str, ok: bool, *, probe: bool = False) -> None:
        """Compatibility shorthand: a call's (or probe's) outcome without details."""
        if probe:
            self.record_probe(tier, ok)
        elif ok:
            self.record_success(tier)
        else:
            self.breaker(tier).record_failure(ErrorClass.UNAVAILABLE)

    # -- timeouts ------------------------------------------------------------------------------

    def _tracker(self, tier: str, stage: str) -> LatencyTracker:
        with self._lock:
            key = (tier, stage)
            tracker = self._latency.get(key)
            if tracker is None:
                tracker = LatencyTracker(deque(maxlen=self.timeouts.samples))
                self._latency[key] = tracker
            return tracker

    def call_timeout(self, tier: ModelTier, stage: str) -> float:
        """Seconds the next ``stage`` call to ``tier`` may take, before the request budget.

        ``factor`` x the P95 of the stage's recent successes + ``margin_s`` (at least
        ``floor_s``) once ``min_samples`` were seen, else ``cold_s``; never above the tier's
        own ``timeout_s``.
        """
        policy = self.timeouts
        tracker = self._tracker(tier.name, stage)
        p95 = tracker.p95()
        if p95 is None or len(tracker.samples) < policy.min_samples:
            learned = policy.cold_s
        else:
            learned = max(policy.floor_s, policy.factor * p95 + policy.margin_s)
        return min(tier.timeout_s, learned)

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Per tier: ``up``, its breaker snapshot and the learned P95 per stage."""
        out: dict[str, dict[str, Any]] = {}
        with self._lock:
            latency = dict(self._latency)
        for name, snap in self.breakers.snapshot().items():
            tier = name.removeprefix("model:")
            out[tier] = {
                "up": self.is_up(tier),
                **snap,
                "p95_s": {
                    stage: tracker.p95() for (t, stage), tracker in latency.items() if t == tier
                },
            }
        return out


class ModelCallObserver(Protocol):
    """Wraps each model call (a trace span, for example)."""

    def model_call(self, tier: str, **attributes: Any) -> AbstractContextManager[Any]:
        """Context entered around one call to ``tier``."""
        ...


class TierRouter:
    """Which model tiers a call may use, in order, and whether the backup is within its quota.

    Args:
        tiers: the configured model tiers (any order; at most one per name).
        health: shared health of the tiers.
        backup_quota: caps backup calls at a fraction of stage requests (see
            :meth:`record_request`); beyond it a stage goes straight to the minimal tier.
    """

    def __init__(
        self, tiers: Sequence[ModelTier], health: TierHealth, *, backup_quota: RatioLimiter
    ) -> None:
        names = [t.name for t in tiers]
        if len(set(names)) != len(names):
            raise ValueError(f"one model per tier, got {names}")
        order = {name: i for i, name in enumerate(MODEL_TIERS)}
        self.tiers: tuple[ModelTier, ...] = tuple(sorted(tiers, key=lambda t: order[t.name]))
        self.health = health
        self.backup_quota = backup_quota
        self.chaos: ChaosPlan | None = None
        """Fault injection into model calls (targets ``model:<tier>``); drills only."""
        self.observer: ModelCallObserver | None = None
        """Wraps every model call (a trace span per call)."""

    def tier(self, name: str) -> ModelTier | None:
        """The configured tier called ``name``, if any."""
        return next((t for t in self.tiers if t.name == name), None)

    def candidates(self) -> list[ModelTier]:
        """Configured tiers that are up, in routing order (no quota or permit is taken)."""
        return [t for t in self.tiers if self.health.is_up(t.name)]

    def down(self) -> list[ModelTier]:
        """Configured tiers currently marked down."""
        return [t for t in self.tiers if not self.health.is_up(t.name)]

    def record_request(self) -> None:
        """Count one main-path model request (one stage of one turn) for the backup quota."""
        self.backup_quota.record_primary()

    def admit(self, tier: ModelTier) -> str | None:
        """Take a quota slot for a call to ``tier``; None if admitted, else the refusal reason.

        Only the backup is capped; the primary is the main path.
        """
        if tier.name != "backup" or self.backup_quota.try_acquire():
            return None
        snap = self.backup_quota.snapshot()
        return (
            f"model:{tier.name}: backup quota used ({snap['secondary']} of "
            f"{snap['allowed']:g} allowed in {snap['window_s']:g}s); going to minimal"
        )
