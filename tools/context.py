"""RequestContext: what one request (one customer turn) shares across all its tool calls.

The retry budget, the ladder guard and the DegradeContext are per request: every tool and model
call of the turn draws from the same budget, so attempts never multiply across layers.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from helpdesk.degrade.budget import RetryBudget
from helpdesk.degrade.clock import Clock
from helpdesk.degrade.context import DegradeContext, DegradeEvent, LadderStep, PendingItem
from helpdesk.degrade.errors import ErrorClass
from helpdesk.degrade.ladder import LadderGuard

__all__ = ["RequestContext", "derive_idempotency_key", "normalize_args"]


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
