"""Model tiers and their health: which tier may serve the next model call, and which may not.

A :class:`ModelTier` is one configured chat model (``primary`` or ``backup``; ``minimal`` is the
offline template tier and never appears here). :class:`TierHealth` tracks each tier from two
signals: *passive* outcomes of real calls over a sliding time window (always on) and *active*
probe outcomes over the last few probes (when a :class:`Prober` runs, i.e. in a long-lived
process). A tier is down when either success rate falls below ``down_below`` with enough samples;
a successful probe after a passive outage clears the stale passive window, so a recovered tier
comes back without waiting for traffic it is not getting. :class:`TierRouter` orders the usable
tiers (primary, then backup), and caps backup traffic with a
:class:`~helpdesk.degrade.budget.RatioLimiter` so a failing primary cannot stampede the backup:
past the quota, calls go straight to the minimal tier.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage

from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import Clock
from helpdesk.graph.prompting import load_templates

__all__ = [
    "MODEL_TIERS",
    "ModelTier",
    "Prober",
    "TierHealth",
    "TierName",
    "TierRouter",
]

TierName = Literal["primary", "backup", "minimal"]

#: Tiers served by a chat model, in routing order (``minimal`` is the offline fallback).
MODEL_TIERS: Final[tuple[TierName, ...]] = ("primary", "backup")


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
    """Seconds one call may take before the request budget cuts it further."""

    def __post_init__(self) -> None:
        if self.name not in MODEL_TIERS:
            raise ValueError(f"a model tier is one of {MODEL_TIERS}, got {self.name!r}")
        if not self.timeout_s > 0:
            raise ValueError(f"timeout_s must be > 0, got {self.timeout_s}")


class TierHealth:
    """Per-tier health from passive call outcomes and active probe outcomes.

    Args:
        clock: time source for the passive window.
        window_s: passive outcomes older than this are forgotten (> 0).
        min_samples: passive outcomes needed in the window before a tier can be marked down.
        down_below: a success rate below this marks a tier down, in (0, 1].
        probe_window: the last N probe outcomes are kept.
        min_probes: probe outcomes needed before probes can mark a tier down.
    """

    def __init__(
        self,
        clock: Clock,
        window_s: float = 60.0,
        min_samples: int = 3,
        down_below: float = 0.5,
        *,
        probe_window: int = 4,
        min_probes: int = 2,
    ) -> None:
        if not window_s > 0:
            raise ValueError(f"window_s must be > 0, got {window_s}")
        if min_samples < 1:
            raise ValueError(f"min_samples must be >= 1, got {min_samples}")
        if not 0 < down_below <= 1:
            raise ValueError(f"down_below must be in (0, 1], got {down_below}")
        if not 1 <= min_probes <= probe_window:
            raise ValueError(
                f"need 1 <= min_probes <= probe_window, got {min_probes} and {probe_window}"
            )
        self.window_s = window_s
        self.min_samples = min_samples
        self.down_below = down_below
        self.probe_window = probe_window
        self.min_probes = min_probes
        self._clock = clock
        self._passive: dict[str, deque[tuple[float, bool]]] = {}
        self._probes: dict[str, deque[bool]] = {}
        self._lock = threading.Lock()

    def record(self, tier: str, ok: bool, *, probe: bool = False) -> None:
        """Count one outcome of ``tier``: a real call (passive) or a probe (active)."""
        with self._lock:
            if probe:
                probes = self._probes.setdefault(tier, deque(maxlen=self.probe_window))
                probes.append(ok)
                passive = self._passive.get(tier)
                if ok and passive and self._passive_down(tier):
                    # The tier answers again; its old failures say nothing about it any more.
                    passive.clear()
            else:
                self._passive.setdefault(tier, deque()).append((self._clock.now(), ok))

    def is_up(self, tier: str) -> bool:
        """Whether ``tier`` may take traffic (unknown tiers are up)."""
        with self._lock:
            return not (self._passive_down(tier) or self._probe_down(tier))

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Per tier: ``up``, passive ``ok``/``total`` in the window, probe ``ok``/``total``."""
        with self._lock:
            tiers = sorted(set(self._passive) | set(self._probes))
            out: dict[str, dict[str, Any]] = {}
            for tier in tiers:
                passive = self._window(tier)
                probes = self._probes.get(tier, deque())
                out[tier] = {
                    "up": not (self._passive_down(tier) or self._probe_down(tier)),
                    "passive_ok": sum(passive),
                    "passive_total": len(passive),
                    "probe_ok": sum(probes),
                    "probe_total": len(probes),
                }
            return out

    # -- internals (hold the lock) -------------------------------------------------------------

    def _window(self, tier: str) -> list[bool]:
        samples = self._passive.get(tier)
        if not samples:
            return []
        horizon = self._clock.now() - self.window_s
        while samples and samples[0][0] <= horizon:
            samples.popleft()
        return [ok for _, ok in samples]

    def _passive_down(self, tier: str) -> bool:
        window = self._window(tier)
        return len(window) >= self.min_samples and sum(window) / len(window) < self.down_below

    def _probe_down(self, tier: str) -> bool:
        probes = self._probes.get(tier)
        if not probes or len(probes) < self.min_probes:
            return False
        return sum(probes) / len(probes) < self.down_below


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
        """Configured tiers that are up, in routing order (no quota is consumed here)."""
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


class Prober:
    """Active health checks: a cheap request to every model tier, every ``interval_s``.

    Args:
        router: the tiers to probe (down ones included: that is how they come back).
        clock: time source for the interval and the probe timeout.
        interval_s: seconds between probe rounds (> 0).
        timeout_s: seconds one probe may take before it counts as failed (> 0).
    """

    def __init__(
        self,
        router: TierRouter,
        *,
        clock: Clock,
        interval_s: float = 30.0,
        timeout_s: float = 5.0,
    ) -> None:
        if not interval_s > 0:
            raise ValueError(f"interval_s must be > 0, got {interval_s}")
        if not timeout_s > 0:
            raise ValueError(f"timeout_s must be > 0, got {timeout_s}")
        self.router = router
        self.clock = clock
        self.interval_s = interval_s
        self.timeout_s = timeout_s

    async def probe_once(self) -> dict[str, bool]:
        """Probe every tier concurrently, record the outcomes, return tier -> ok."""
        tiers = self.router.tiers
        results = await asyncio.gather(*(self._probe(t) for t in tiers))
        for tier, ok in zip(tiers, results, strict=True):
            self.router.health.record(tier.name, ok, probe=True)
        return {t.name: ok for t, ok in zip(tiers, results, strict=True)}

    async def run_forever(self) -> None:
        """Probe, sleep ``interval_s``, repeat, until cancelled."""
        while True:
            await self.probe_once()
            await self.clock.sleep(self.interval_s)

    async def _probe(self, tier: ModelTier) -> bool:
        text = load_templates(tier.name, "probe", "en")["message"]
        timeout = min(self.timeout_s, tier.timeout_s)
        try:
            async with self.clock.timeout(timeout):
                await tier.model.ainvoke([HumanMessage(text)], max_tokens=1)
        except asyncio.CancelledError:
            raise
        except Exception:
            # Any failure counts; the reason is not needed for a health signal.
            return False
        return True
