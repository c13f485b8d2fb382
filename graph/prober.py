"""Active health checks of the model tiers: a cheap request to each tier, on its own schedule
(:class:`Prober`); the outcomes go to the tiers' health
(:class:`~helpdesk.graph.tiers.TierHealth`)."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence

from langchain_core.messages import HumanMessage

from helpdesk.degrade.breaker import BreakerState
from helpdesk.degrade.clock import Clock
from helpdesk.graph.prompting import load_templates
from helpdesk.graph.tiers import ModelTier, TierRouter

__all__ = ["Prober"]


class Prober:
    """Active health checks: a cheap request to each model tier, on its own schedule.

    A tier that takes traffic is probed every ``interval_s``; one that does not (its breaker
    open or held by Retry-After) every ``unhealthy_interval_s`` — Envoy's ``unhealthy_interval``:
    a probe of a down tier costs nobody a wait, and a good one half-opens it at once, so the
    shorter interval is how soon a recovered tier gets traffic back. Each tier's next probe is
    planned from its state after its last probe.

    Args:
        router: the tiers to probe (down ones included: that is how they come back).
        clock: time source for the intervals and the probe timeout.
        interval_s: seconds between probes of a tier that takes traffic (> 0).
        unhealthy_interval_s: seconds between probes of a tier that does not (> 0; default
            ``interval_s``).
        timeout_s: seconds one probe may take before it counts as failed (> 0).
    """

    def __init__(
        self,
        router: TierRouter,
        *,
        clock: Clock,
        interval_s: float = 30.0,
        unhealthy_interval_s: float | None = None,
        timeout_s: float = 5.0,
    ) -> None:
        down_interval = interval_s if unhealthy_interval_s is None else unhealthy_interval_s
        for name, value in (
            ("interval_s", interval_s),
            ("unhealthy_interval_s", down_interval),
            ("timeout_s", timeout_s),
        ):
            if not value > 0:
                raise ValueError(f"{name} must be > 0, got {value}")
        self.router = router
        self.clock = clock
        self.interval_s = interval_s
        self.unhealthy_interval_s = down_interval
        self.timeout_s = timeout_s

    async def probe_once(self, names: Sequence[str] | None = None) -> dict[str, bool]:
        """Probe the tiers (``names``, default all) concurrently, record the outcomes, return
        tier -> ok."""
        tiers = [t for t in self.router.tiers if names is None or t.name in names]
        results = await asyncio.gather(*(self._probe(t) for t in tiers))
        for tier, ok in zip(tiers, results, strict=True):
            self.router.health.record_probe(tier.name, ok)
        return {t.name: ok for t, ok in zip(tiers, results, strict=True)}

    def next_interval(self, tier: str) -> float:
        """Seconds until ``tier``'s next probe, from its state now: ``interval_s`` while its
        breaker is closed, ``unhealthy_interval_s`` while it is open, held by a Retry-After or
        half-open (still ramping up: a good probe there is one more good outcome)."""
        health = self.router.health
        healthy = health.is_up(tier) and health.breaker(tier).state is BreakerState.CLOSED
        return self.interval_s if healthy else self.unhealthy_interval_s

    async def run_forever(self) -> None:
        """Probe every tier, then each again when its interval is up, until cancelled.

        A tier's next probe is due one interval after its last began, the interval taken from the
        tier's state *now*: a tier that went down after its last probe (its calls tripped the
        breaker) is due ``unhealthy_interval_s`` after that probe, not ``interval_s``. The loop
        never sleeps longer than ``unhealthy_interval_s``, so such a change is seen in time —
        before, a tier probed healthy and tripped five seconds later waited the full 30 s for
        its next probe (measured in the benchmark's recovery scenario: 35 s between probes).
        """
        last: dict[str, float | None] = {tier.name: None for tier in self.router.tiers}

        def due(name: str) -> float:
            # never probed: due at once (a time, not "now", which a real clock has moved past
            # by the time it is compared: the first probe never came and the loop spun)
            at = last[name]
            return -math.inf if at is None else at + self.next_interval(name)

        while True:
            now = self.clock.now()
            ready = [name for name in last if due(name) <= now]
            if ready:
                # the interval runs from a probe's start: a hung tier's probe (it waits out its
                # timeout) does not push that tier's next probe back by the timeout
                await self.probe_once(ready)
                for name in ready:
                    last[name] = now
            wait = min(due(name) for name in last) - self.clock.now()
            await self.clock.sleep(max(0.0, min(wait, self.unhealthy_interval_s)))

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
