"""Long-lived processes probe their model tiers: start_probing, as chat and the service use it."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from helpdesk.app.settings import Settings
from helpdesk.app.wiring import start_probing
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.clock import FakeClock
from helpdesk.graph.tiers import TierHealth, TierRouter
from tests.unit.test_tiers import tier


def _bot(router: TierRouter | None, clock: FakeClock) -> Any:
    return SimpleNamespace(router=router, executor=SimpleNamespace(clock=clock))


async def test_no_model_tiers_no_probing() -> None:
    assert start_probing(_bot(None, FakeClock()), Settings()) is None


async def test_probes_run_on_the_settings_intervals_until_cancelled() -> None:
    clock = FakeClock()
    primary = tier("primary", ["p"] * 20)
    router = TierRouter(
        [primary], TierHealth(clock), backup_quota=RatioLimiter(ratio=0.5, clock=clock)
    )
    task = start_probing(
        _bot(router, clock), Settings(probe_interval_s=12, probe_unhealthy_interval_s=4)
    )
    assert task is not None
    for _ in range(100):
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # healthy: probed every 12 s (the loop wakes every 4 s, the down interval, to see a change)
    assert sum(clock.sleeps[:3]) == 12 and max(clock.sleeps) <= 4
    assert primary.model.calls[:2] == [{"max_tokens": 1}, {"max_tokens": 1}]  # type: ignore[attr-defined]
