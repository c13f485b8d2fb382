"""What goes into and comes out of one tool call: :class:`ToolCall` and :class:`ToolResult`."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass, FieldIssue

__all__ = ["ToolCall", "ToolResult", "ToolStatus"]


class ToolStatus(StrEnum):
    """Outcome of a call after the executor has done all it could."""

    OK = "ok"
    """Live data / the write took effect."""
    STALE = "stale"
    """Served from the last-good cache; ``age_s`` says how old."""
    DEGRADED = "degraded"
    """A fallback answered (simplified args, the tool's fallback, a handoff)."""
    FAILED = "failed"
    """Nothing usable; ``error_class`` and ``reason`` say why."""
    UNKNOWN = "unknown"
    """A write whose outcome could not be established."""
    SKIPPED = "skipped"
    """Not run (dropped non-core task, budget exhausted before it started)."""
    NEEDS_CONFIRMATION = "needs_confirmation"
    """A money / confirm-first action waiting for the customer's explicit yes."""


class ToolCall(BaseModel):
    """A request to run one registered tool (as a model or the template matcher produced it)."""

    model_config = ConfigDict(frozen=True)

    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    id: str = ""
    """Call id (the model's tool-call id, or the task id)."""
    confirmed: bool = False
    """The customer explicitly confirmed this action in this session."""
    action_turn: int | None = None
    """Turn at which the action was first requested (keys an unconfirmed write's idempotency)."""
    action_id: str | None = None
    """The business action this call performs: the confirmation id that authorised it, or another
    id stable across retries, resumes and crashes. When set, it (not the turn) keys the write."""
    ask_first: bool = False
    """Run only after the customer's explicit yes, even if the tool's policy does not require
    one (the planner read an offer to consider, not a request: a complaint before a ticket)."""


class ToolResult(BaseModel):
    """The outcome of one :class:`ToolCall` (see DESIGN.md, public surface)."""

    model_config = ConfigDict(frozen=True)

    call_id: str
    tool: str
    status: ToolStatus
    data: Any = None
    error_class: ErrorClass | None = None
    reason: str = ""
    age_s: float | None = None
    attempts: int = 0
    ladder: tuple[LadderStep, ...] = ()
    """Ladder steps taken, in order (retry, parameter, data, function, chain, handoff)."""
    idempotency_key: str | None = None
    issues: tuple[dict[str, Any], ...] = ()
    """Field-level feedback for input errors (path, message, allowed)."""
    ticket_id: str | None = None
    """Compensation or handoff ticket filed for this call, if any."""
    fallback: bool = False
    """``data`` came from the tool's fallback, not from the tool."""

    @property
    def usable(self) -> bool:
        """Whether ``data`` can be shown to the customer (live, stale or a fallback)."""
        return self.status in (ToolStatus.OK, ToolStatus.STALE, ToolStatus.DEGRADED)

    @staticmethod
    def issues_of(issues: tuple[FieldIssue, ...]) -> tuple[dict[str, Any], ...]:
        return tuple(i.as_dict() for i in issues)
