"""RequestContext: what one request (one customer turn) shares across all its tool calls.

The retry budget, the ladder guard and the DegradeContext are per request: every tool and model
call of the turn draws from the same budget, so attempts never multiply across layers. Between
the stages of a turn the context lives in graph state, never in a process: the budget and the
guard as a :class:`RequestState` snapshot (:meth:`RequestContext.to_state`), the DegradeContext
as itself; each stage rebuilds the context with :meth:`RequestContext.from_state`, so a resumed
run and another process continue with the same budget.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from helpdesk.degrade.budget import RetryBudget
from helpdesk.degrade.clock import Clock
from helpdesk.degrade.context import DegradeContext, DegradeEvent, LadderStep, PendingItem
from helpdesk.degrade.errors import ErrorClass
from helpdesk.degrade.ladder import LadderGuard

__all__ = ["RequestContext", "RequestState", "derive_idempotency_key", "normalize_args"]


def normalize_args(args: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments in a canonical form: None dropped, strings stripped, keys sorted."""
    out: dict[str, Any] = {}
    for key in sorted(args):
        value = args[key]
        if value is None:
            continue
        if isinstance(value, str):
            value = value.strip()
        out[key] = value
    return out


def derive_idempotency_key(
    session: str, scope: int | str, tool: str, args: Mapping[str, Any]
) -> str:
    """The key of one business action: the same on every retry, after a resume and after a crash.

    ``scope`` names the action: the confirmation id that authorised it, or (for writes that need
    no confirmation) the turn that asked for it. Text that cannot be encoded (lone surrogates from
    a broken terminal) is replaced, never a crash.
    """
    payload = json.dumps(
        [session, scope, tool, normalize_args(args)],
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )
    return "hd-" + hashlib.sha256(payload.encode("utf-8", "replace")).hexdigest()[:32]


class RequestState(BaseModel):
    """The mutable bookkeeping of one request, as plain data in graph state.

    Time: the deadline is stored as wall-clock epoch seconds of the injected clock
    (``clock.wall()``: :func:`time.time` for the system clock, virtual wall time for a
    ``FakeClock``, which moves in step with its monotonic time). Monotonic time means nothing in
    another process (its origin is arbitrary), wall time does: a process rebuilding the budget
    computes the time left as ``deadline_at - clock.wall()`` and turns it into its own clock's
    monotonic scale (:meth:`~helpdesk.degrade.budget.RetryBudget.resume`), so within a process
    timeouts still run on monotonic time and tests on a fake clock stay exact. The time left is
    capped at ``max_seconds``: wall clocks of two hosts that disagree, or a wall-clock step
    during the turn, shift the deadline by the difference but never grant more than the
    request's whole budget.
    """

    model_config = ConfigDict(frozen=True)

    request_id: str
    """The request (turn); the same id as the turn's DegradeContext."""
    deadline_at: float
    """When the request's budget runs out, wall-clock epoch seconds (``clock.wall()``)."""
    max_seconds: float
    """The request's whole budget in seconds (it started at ``deadline_at - max_seconds``)."""
    max_retries: int
    retries_used: int = 0
    ladder_entries: int = 0
    """Entries into degraded mode (:attr:`LadderGuard.entries`)."""
    ladder_levels_used: int = 0
    """Ladder rungs descended (:attr:`LadderGuard.levels_used`)."""
    ladder_steps: tuple[LadderStep, ...] = ()
    """Every ladder step granted, in order (:attr:`LadderGuard.steps`)."""
    ladder_max_levels: int = 3
    ladder_max_entries: int = 1
    rate_limited_seen: int = 0

    @property
    def started_at(self) -> float:
        """When the request started, wall-clock epoch seconds."""
        return self.deadline_at - self.max_seconds


@dataclass
class RequestContext:
    """Per-request state shared by the tool calls of one turn."""

    session: str
    turn: int
    customer: str | None
    budget: RetryBudget
    guard: LadderGuard = field(default_factory=LadderGuard)
    degrade: DegradeContext = field(default_factory=DegradeContext)
    request_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    rate_limited_seen: int = 0
    """How many rate-limited responses this request has seen (parallel -> serial)."""
    held_back: dict[str, str] = field(default_factory=dict)
    """Tools this request sends nothing more to, with why: an overloaded dependency refused
    one of its calls (:meth:`~helpdesk.tools.executor.ResilientExecutor.run_many`); their
    calls go straight down the ladder (cache, fallback). Not persisted: it lasts one batch."""

    @classmethod
    def new(
        cls,
        *,
        session: str,
        turn: int,
        customer: str | None,
        clock: Clock,
        max_retries: int = 3,
        max_seconds: float = 8.0,
        request_id: str | None = None,
    ) -> RequestContext:
        request_id = request_id or uuid.uuid4().hex[:12]
        return cls(
            session=session,
            turn=turn,
            customer=customer,
            budget=RetryBudget(max_retries=max_retries, max_seconds=max_seconds, clock=clock),
            degrade=DegradeContext(request_id=request_id),
            request_id=request_id,
        )

    def to_state(self) -> RequestState:
        """The budget, guard and counters as a snapshot for graph state (see
        :class:`RequestState`); the DegradeContext travels in state on its own."""
        return RequestState(
            request_id=self.request_id,
            deadline_at=self.budget.deadline_wall(),
            max_seconds=self.budget.max_seconds,
            max_retries=self.budget.max_retries,
            retries_used=self.budget.retries_used,
            ladder_entries=self.guard.entries,
            ladder_levels_used=self.guard.levels_used,
            ladder_steps=tuple(self.guard.steps),
            ladder_max_levels=self.guard.max_levels,
            ladder_max_entries=self.guard.max_entries,
            rate_limited_seen=self.rate_limited_seen,
        )

    @classmethod
    def from_state(
        cls,
        state: RequestState,
        *,
        session: str,
        turn: int,
        customer: str | None,
        degrade: DegradeContext,
        clock: Clock,
    ) -> RequestContext:
        """The context of a request under way, rebuilt from its snapshot: the retries and the
        time it has left, its ladder use, on ``clock``."""
        return cls(
            session=session,
            turn=turn,
            customer=customer,
            budget=RetryBudget.resume(
                max_retries=state.max_retries,
                max_seconds=state.max_seconds,
                retries_used=state.retries_used,
                deadline_wall=state.deadline_at,
                clock=clock,
            ),
            guard=LadderGuard.resume(
                entries=state.ladder_entries,
                levels_used=state.ladder_levels_used,
                steps=state.ladder_steps,
                max_levels=state.ladder_max_levels,
                max_entries=state.ladder_max_entries,
            ),
            degrade=degrade,
            request_id=state.request_id,
            rate_limited_seen=state.rate_limited_seen,
        )

    def record(
        self,
        *,
        stage: str,
        target: str,
        action: LadderStep,
        reason: str,
        error_class: ErrorClass | None,
        at: float,
    ) -> None:
        """Append a DegradeEvent."""
        self.degrade = self.degrade.with_event(
            DegradeEvent(
                stage=stage,
                target=target,
                error_class=error_class,
                action=action,
                level=action.level,
                reason=reason,
                at=at,
            )
        )

    def add_pending(self, item: PendingItem) -> None:
        self.degrade = self.degrade.with_pending(item)

    def mark_stale(self, source: str, age_s: float) -> None:
        self.degrade = self.degrade.with_stale(source, age_s)

    def mark_partial(self) -> None:
        self.degrade = self.degrade.model_copy(update={"partial": True})
