"""Scripted model tiers for drills: a deterministic, offline primary and backup.

:func:`scripted_models` is a :data:`~helpdesk.app.drill.ModelFactory`: it builds the model tiers
of a drill bot on the drill's clock, both tiers on the benchmark's scripted brain (no API key,
no network), so ``helpdesk drill --matrix --models scripted`` exercises the model cells anywhere.
"""

from __future__ import annotations

from helpdesk.app.bench.brain import ScriptedBrain
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.clock import FakeClock
from helpdesk.graph.tiers import ModelTier, TierHealth, TierRouter

__all__ = ["scripted_models"]


def scripted_models(clock: FakeClock) -> TierRouter:
    """Primary and backup tiers on the deterministic scripted brain (no API key, offline):
    what ``helpdesk drill --models scripted`` drills the model cells with."""
    tiers = [
        ModelTier("primary", ScriptedBrain(label="primary"), "scripted:primary"),
        ModelTier("backup", ScriptedBrain(label="backup"), "scripted:backup"),
    ]
    quota = RatioLimiter(ratio=0.5, clock=clock)
    return TierRouter(tiers, TierHealth(clock), backup_quota=quota)
