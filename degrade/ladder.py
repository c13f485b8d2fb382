"""Degrade-ladder planning: which rungs can help a failed call, and how deep a request may go.

:func:`plan_ladder` is pure: given the failure's class and what the tool offers, it returns the
rungs of DESIGN.md's ladder worth trying, cheapest first — parameter (simplified retry), data
(last-good cache), function (the tool's fallback), chain (drop a non-core task), handoff (a
human ticket; the last line for core work, never skipped). Input and business failures get no
ladder: they go to self-correction and to a plain statement. Writes never get a simplified retry
or cached data. :class:`LadderGuard` enforces the per-request limits: one entry into degraded
mode and at most three rungs deep, after which only handoff remains.
"""

from __future__ import annotations

from dataclasses import dataclass

from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass

__all__ = ["LadderGuard", "LadderOptions", "plan_ladder"]

_SIMPLIFIABLE = frozenset({ErrorClass.SCHEMA, ErrorClass.UNAVAILABLE, ErrorClass.TRANSIENT})
_NO_LADDER = frozenset({ErrorClass.INPUT, ErrorClass.BUSINESS})


@dataclass(frozen=True, kw_only=True, slots=True)
class LadderOptions:
    """What the failed call's tool and situation allow."""

    can_simplify: bool = False
    """The tool has a ``simplify`` hook producing simpler arguments."""
    breaker_open: bool = False
    """The tool's breaker is open, so retrying it (even simplified) is pointless."""
    has_cached: bool = False
    """A last-good cached response exists for this call."""
    has_fallback: bool = False
    """The tool has a ``fallback`` (self-service link, hotline...)."""
    core: bool = True
    """The task is core to the customer's request (cannot be dropped)."""
    is_write: bool = False
    """The call changes something (write or money)."""


def plan_ladder(error_class: ErrorClass, options: LadderOptions) -> tuple[LadderStep, ...]:
    """The ladder rungs that apply to a failure, cheapest first; empty for input/business."""
    if error_class in _NO_LADDER:
        return ()
    steps: list[LadderStep] = []
    is_read = not options.is_write
    if (
        is_read
        and options.can_simplify
        and not options.breaker_open
        and error_class in _SIMPLIFIABLE
    ):
        steps.append(LadderStep.PARAMETER)
    if is_read and options.has_cached:
        steps.append(LadderStep.DATA)
    if options.has_fallback:
        steps.append(LadderStep.FUNCTION)
    if options.core:
        steps.append(LadderStep.HANDOFF)
    else:
        steps.append(LadderStep.CHAIN)
    return tuple(steps)


class LadderGuard:
    """Per-request limits on degradation: entries into degraded mode and rungs descended.

    Args:
        max_levels: ladder rungs (level > 0, handoff excluded) a request may use.
        max_entries: times a request may enter degraded mode.
    """

    def __init__(self, *, max_levels: int = 3, max_entries: int = 1) -> None:
        if max_levels < 1:
            raise ValueError(f"max_levels must be >= 1, got {max_levels}")
        if max_entries < 1:
            raise ValueError(f"max_entries must be >= 1, got {max_entries}")
        self.max_levels = max_levels
        self.max_entries = max_entries
        self.entries = 0
        """Calls to :meth:`enter` so far (granted or not)."""
        self.levels_used = 0
        """Rungs descended so far (handoff and level-0 actions not counted)."""
        self.steps: list[LadderStep] = []
        """Every step granted, in order."""

    @classmethod
    def resume(
        cls,
        *,
        entries: int,
        levels_used: int,
        steps: tuple[LadderStep, ...] | list[LadderStep] = (),
        max_levels: int = 3,
        max_entries: int = 1,
    ) -> LadderGuard:
        """The guard of a request already under way (rebuilt from a snapshot in graph state)."""
        if entries < 0 or levels_used < 0:
            raise ValueError(f"entries and levels_used must be >= 0, got {entries}, {levels_used}")
        guard = cls(max_levels=max_levels, max_entries=max_entries)
        guard.entries = entries
        guard.levels_used = levels_used
        guard.steps = list(steps)
        return guard

    def enter(self) -> bool:
        """Count an entry into degraded mode; True while within ``max_entries``."""
        self.entries += 1
        return self.entries <= self.max_entries

    def try_descend(self, step: LadderStep) -> bool:
        """Use one rung; False once ``max_levels`` rungs were used. Handoff is always allowed."""
        if step is LadderStep.HANDOFF or step.level == 0:
            self.steps.append(step)
            return True
        if self.levels_used >= self.max_levels:
            return False
        self.levels_used += 1
        self.steps.append(step)
        return True

    @property
    def exhausted(self) -> bool:
        """Only handoff is left."""
        return self.levels_used >= self.max_levels
