"""One tool call in flight: its record, the book of its attempts, and how its steps are noted.

Every concern of :class:`~helpdesk.tools.executor.ResilientExecutor` (one attempt, the retry
decision, the ladder rungs, reconciliation, the result builder) works on the same
:class:`CallRun`; :func:`note` records each step in the request's DegradeContext and the log,
and :func:`add_pending` records work the customer asked for that did not happen.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from helpdesk.degrade.clock import Clock
from helpdesk.degrade.context import LadderStep, PendingItem
from helpdesk.degrade.errors import Failure
from helpdesk.tools.context import RequestContext
from helpdesk.tools.registry import ToolSpec
from helpdesk.tools.results import ToolCall, ToolResult

__all__ = [
    "STAGE",
    "AttemptBook",
    "AttemptFn",
    "CallObserver",
    "CallRun",
    "add_pending",
    "note",
]

log = logging.getLogger("helpdesk.tools")

STAGE = "execute"
"""The stage every event of a tool call is recorded under."""

AttemptFn = Callable[[ToolSpec, dict[str, Any], str | None, RequestContext], Awaitable[Any]]
"""``(spec, args, idempotency_key, ctx) -> data``: one attempt outside the retry loop (a
simplified retry, a reconciliation replay); raises what the attempt raised."""


class CallObserver(Protocol):
    """Receives every attempt and every finished call (metrics, traces, structured logs)."""

    def attempt_finished(
        self, *, tool: str, duration_s: float, failure: Failure | None, ctx: RequestContext
    ) -> None:
        """One attempt of ``tool`` ended (``failure`` None on success)."""

    def call_finished(
        self,
        *,
        call: ToolCall,
        result: ToolResult,
        duration_s: float,
        waits: tuple[float, ...],
        ctx: RequestContext,
    ) -> None:
        """A call ended with ``result`` after ``duration_s`` (retry waits included)."""


class AttemptBook:
    """Book-keeping of one call's attempts, shared with the tenacity callbacks."""

    def __init__(self) -> None:
        self.count = 0
        self.failures: list[Failure] = []
        self.next_wait = 0.0
        self.waits: list[float] = []
        self.ladder: list[LadderStep] = []
        self.unsettled: Failure | None = None
        """The last attempt's failure, not yet told to the breaker
        (see :func:`helpdesk.tools.retry_policy.settle_breaker`)."""
        self.first_failed_at: float | None = None
        """Clock time of the first failed attempt (did the dependency serve anyone since?)."""


@dataclass(frozen=True, slots=True)
class CallRun:
    """One call in flight: what every step after a failure needs."""

    spec: ToolSpec
    call: ToolCall
    args: dict[str, Any]
    key: str | None
    ctx: RequestContext
    book: AttemptBook


def note(
    ctx: RequestContext,
    target: str,
    failure: Failure | None,
    step: LadderStep,
    reason: str,
    *,
    clock: Clock,
) -> None:
    """Record one step of a call in the request's DegradeContext and in the log."""
    ctx.record(
        stage=STAGE,
        target=target,
        action=step,
        reason=reason,
        error_class=failure.error_class if failure else None,
        at=clock.wall(),
    )
    log.info("tool %s: %s: %s", target, step.value, reason)


def add_pending(
    ctx: RequestContext,
    call: ToolCall,
    spec: ToolSpec,
    args: dict[str, Any],
    status: str,
    ticket_id: str | None = None,
) -> None:
    """Record work the customer asked for that did not happen (marks the request partial)."""
    ctx.add_pending(
        PendingItem(
            task_id=call.id or spec.name,
            what=_describe(spec.name, args),
            status=status,
            ticket_id=ticket_id,
        )
    )


def _describe(tool: str, args: dict[str, Any]) -> str:
    shown = " ".join(str(v) for k, v in sorted(args.items()) if v is not None and k != "reason")
    return f"{tool} {shown}".strip()
