"""DegradeContext: what went wrong during one request, and what was done about it.

Carried in graph state for the whole request and merged by :func:`merge_degrade` (a LangGraph
reducer). Every later stage reads it: generation says when data may not be real-time, names what
is missing and never claims a failed or unknown write succeeded.
"""

from __future__ import annotations

import time
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from helpdesk.degrade.errors import ErrorClass

__all__ = [
    "DegradeContext",
    "DegradeEvent",
    "LadderStep",
    "PendingItem",
    "merge_degrade",
]


class LadderStep(StrEnum):
    """Rungs of the degrade ladder, cheapest first (DESIGN.md). ``level`` is the rung's depth."""

    RETRY = "retry"
    PARAMETER = "parameter"
    DATA = "data"
    FUNCTION = "function"
    CHAIN = "chain"
    MODEL = "model"
    HANDOFF = "handoff"
    RECONCILE = "reconcile"
    SERIALIZE = "serialize"
    SELF_CORRECT = "self_correct"

    @property
    def level(self) -> int:
        """Ladder depth: 0 for actions that are not a degradation (retry, reconcile, ...)."""
        return _LEVELS.get(self, 0)


_LEVELS = {
    LadderStep.PARAMETER: 1,
    LadderStep.DATA: 2,
    LadderStep.FUNCTION: 3,
    LadderStep.CHAIN: 4,
    LadderStep.MODEL: 5,
    LadderStep.HANDOFF: 6,
}


class DegradeEvent(BaseModel):
    """One thing that went wrong and what was done about it."""

    model_config = ConfigDict(frozen=True)

    stage: str
    """Graph stage: ``execute``, ``decompose``, ``generate``, ``guard_context``, ..."""
    target: str
    """The tool or model tier concerned."""
    error_class: ErrorClass | None
    """Class of the failure that triggered the action (None for a voluntary action)."""
    action: LadderStep
    """What was done."""
    level: int
    """Ladder depth of the action (0 = not a degradation)."""
    reason: str
    """Human-readable cause, e.g. ``inventory: 503 from GET /stock, Retry-After 2s``."""
    at: float = Field(default_factory=time.time)
    """Wall-clock time of the event (epoch seconds)."""


class PendingItem(BaseModel):
    """Work the customer asked for that did not happen (or whose outcome is unknown)."""

    model_config = ConfigDict(frozen=True)

    task_id: str
    what: str
    """Short description in neutral terms, e.g. ``cancel_order 100123``."""
    status: str
    """``failed`` | ``unknown`` | ``dropped`` | ``needs_confirmation``."""
    ticket_id: str | None = None
    """Compensation / handoff ticket filed for it, if any."""


class DegradeContext(BaseModel):
    """Everything degraded in one request. Immutable; combine with :func:`merge_degrade`."""

    model_config = ConfigDict(frozen=True)

    request_id: str = ""
    """The request (turn) this context belongs to; a new id replaces the old context."""
    events: tuple[DegradeEvent, ...] = ()
    stale: dict[str, float] = Field(default_factory=dict)
    """Source (tool) -> age in seconds of the data served from cache."""
    partial: bool = False
    """Part of what the customer asked for is missing from the answer."""
    simplified_mode: bool = False
    """The turn ran in simplified mode (direct questions only)."""
    pending: tuple[PendingItem, ...] = ()

    @property
    def level(self) -> int:
        """Deepest ladder level reached in this request."""
        return max((e.level for e in self.events), default=0)

    @property
    def degraded(self) -> bool:
        """Whether the request entered degraded mode at all."""
        return self.level > 0 or self.partial or bool(self.stale) or bool(self.pending)

    def with_event(self, event: DegradeEvent) -> DegradeContext:
        return self.model_copy(update={"events": (*self.events, event)})

    def with_stale(self, source: str, age_s: float) -> DegradeContext:
        stale = dict(self.stale)
        stale[source] = max(age_s, stale.get(source, 0.0))
        return self.model_copy(update={"stale": stale})

    def with_pending(self, item: PendingItem) -> DegradeContext:
        kept = tuple(p for p in self.pending if p.task_id != item.task_id)
        return self.model_copy(update={"pending": (*kept, item), "partial": True})


def merge_degrade(left: DegradeContext | None, right: DegradeContext | None) -> DegradeContext:
    """LangGraph reducer: union of two contexts of the same request; a new request replaces.

    Events and pending items are de-duplicated, flags are OR-ed, stale ages keep the oldest.
    """
    if left is None:
        return right or DegradeContext()
    if right is None:
        return left
    if right.request_id != left.request_id:
        return right
    seen = set(left.events)
    events = left.events + tuple(e for e in right.events if e not in seen)
    pending = {p.task_id: p for p in left.pending}
    pending.update({p.task_id: p for p in right.pending})
    stale = dict(left.stale)
    for source, age in right.stale.items():
        stale[source] = max(age, stale.get(source, 0.0))
    return DegradeContext(
        request_id=left.request_id,
        events=events,
        stale=stale,
        partial=left.partial or right.partial,
        simplified_mode=left.simplified_mode or right.simplified_mode,
        pending=tuple(pending.values()),
    )
