"""A confirm-first action before the customer's yes: checked, never run.

The tool's ``precheck`` says whether the action can happen at all and with exactly which
arguments (it may look things up through the executor); the result is ``needs_confirmation``
with what to ask, or a refusal. The same money action that took effect recently is named in
the question, so it is never silently repeated.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from helpdesk.degrade.clock import Clock
from helpdesk.degrade.errors import ErrorClass
from helpdesk.tools.context import RequestContext
from helpdesk.tools.journal import WriteJournal, journal_args
from helpdesk.tools.registry import PrecheckOutcome, ToolSpec
from helpdesk.tools.result_builder import unrun_result
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus

__all__ = ["REPEAT_WINDOW_S", "ask_first"]

REPEAT_WINDOW_S = 24 * 3600.0
"""An identical money action within this window is asked about explicitly ("another one?")."""

RunFn = Callable[[ToolCall, RequestContext], Awaitable[ToolResult]]
"""The executor's ``run``: a precheck's lookups are ordinary calls."""


async def ask_first(
    spec: ToolSpec,
    call: ToolCall,
    args: dict[str, Any],
    ctx: RequestContext,
    *,
    run: RunFn,
    journal: WriteJournal,
    clock: Clock,
) -> ToolResult:
    """A confirm-first action is not run: it is checked (can it happen at all? with exactly
    which arguments?) and returned as ``needs_confirmation`` with what to ask, or refused."""
    outcome = PrecheckOutcome()
    if spec.policy.precheck is not None:

        async def lookup(tool: str, lookup_args: dict[str, Any]) -> ToolResult:
            return await run(ToolCall(name=tool, args=lookup_args, id=call.id), ctx)

        outcome = await spec.policy.precheck(dict(args), lookup)
    if outcome.refusal is not None:
        code = str(outcome.refusal.get("code", "refused"))
        message = str(outcome.refusal.get("message", code))
        return unrun_result(
            call,
            spec.name,
            ToolStatus.FAILED,
            error_class=ErrorClass(outcome.refusal.get("error_class", "business")),
            reason=f"{spec.name}: {message}",
            data={**outcome.refusal, "code": code, "message": message, "args": args},
        )
    asked = dict(outcome.args) if outcome.args is not None else args
    data: dict[str, Any] = {**(outcome.data or {}), "args": asked}
    previous = await _same_action_recently(spec, asked, ctx, journal=journal, clock=clock)
    if previous is not None:
        data["previous"] = previous
    return unrun_result(
        call,
        spec.name,
        ToolStatus.NEEDS_CONFIRMATION,
        data=data,
        reason=f"{spec.name} needs the customer's explicit confirmation",
    )


async def _same_action_recently(
    spec: ToolSpec,
    args: dict[str, Any],
    ctx: RequestContext,
    *,
    journal: WriteJournal,
    clock: Clock,
) -> dict[str, Any] | None:
    """The same money action (same tool, same arguments) that took effect for this customer
    within :data:`REPEAT_WINDOW_S`: asked about explicitly, never silently repeated."""
    if spec.policy.kind != "money" or not ctx.customer:
        return None
    since = clock.wall() - REPEAT_WINDOW_S
    wanted = journal_args(args)
    for entry in reversed(await journal.executed_since(ctx.customer, spec.name, since)):
        if entry.args == wanted:
            return {"at": entry.settled_at or entry.started_at, "result": entry.result}
    return None
