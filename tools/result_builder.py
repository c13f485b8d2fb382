"""The one place a :class:`~helpdesk.tools.results.ToolResult` is built.

A call that was attempted takes its id, tool, idempotency key, attempt count and ladder from its
:class:`~helpdesk.tools.call_run.CallRun` (:func:`run_result`); a call refused before any attempt
(unknown tool, bad arguments, a confirm-first action) has none of those (:func:`unrun_result`).
The shapes that several steps share are named here: an input failure with field-level issues
and a business refusal with its code.
"""

from __future__ import annotations

from typing import Any

from helpdesk.degrade.errors import ErrorClass, Failure, FieldIssue, ToolInputError
from helpdesk.tools.call_run import CallRun
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus

__all__ = [
    "business_failure",
    "input_failure",
    "run_result",
    "unknown_tool",
    "unrun_result",
]


def run_result(
    run: CallRun,
    status: ToolStatus,
    *,
    data: Any = None,
    error_class: ErrorClass | None = None,
    reason: str = "",
    age_s: float | None = None,
    issues: tuple[dict[str, Any], ...] = (),
    ticket_id: str | None = None,
    fallback: bool = False,
) -> ToolResult:
    """The result of an attempted call, with its key, attempts and ladder as they are now."""
    return ToolResult(
        call_id=run.call.id,
        tool=run.spec.name,
        status=status,
        data=data,
        error_class=error_class,
        reason=reason,
        age_s=age_s,
        attempts=run.book.count,
        ladder=tuple(run.book.ladder),
        idempotency_key=run.key,
        issues=issues,
        ticket_id=ticket_id,
        fallback=fallback,
    )


def unrun_result(
    call: ToolCall,
    tool: str,
    status: ToolStatus,
    *,
    data: Any = None,
    error_class: ErrorClass | None = None,
    reason: str = "",
    issues: tuple[dict[str, Any], ...] = (),
) -> ToolResult:
    """The result of a call that was never attempted (no key, no attempts, no ladder)."""
    return ToolResult(
        call_id=call.id,
        tool=tool,
        status=status,
        data=data,
        error_class=error_class,
        reason=reason,
        issues=issues,
    )


def business_failure(run: CallRun, failure: Failure) -> ToolResult:
    """A refusal on business grounds (not cancellable, out of stock): said plainly, with its
    code for the reply."""
    return run_result(
        run,
        ToolStatus.FAILED,
        error_class=failure.error_class,
        reason=failure.reason,
        data={"code": failure.code, "message": failure.reason},
    )


def input_failure(call: ToolCall, tool: str, exc: ToolInputError) -> ToolResult:
    """The result of a call refused for its arguments, with field-level issues."""
    return unrun_result(
        call,
        tool,
        ToolStatus.FAILED,
        error_class=ErrorClass.INPUT,
        reason=exc.reason,
        issues=ToolResult.issues_of(exc.issues),
    )


def unknown_tool(call: ToolCall, valid: tuple[str, ...]) -> ToolResult:
    """The result of a call to a tool that is not registered, naming the valid ones."""
    issue = FieldIssue(path="name", message=f"unknown tool {call.name!r}", allowed=valid)
    return unrun_result(
        call,
        call.name,
        ToolStatus.FAILED,
        error_class=ErrorClass.INPUT,
        reason=f"unknown tool {call.name!r}; valid tools: {', '.join(valid)}",
        issues=(issue.as_dict(),),
    )
