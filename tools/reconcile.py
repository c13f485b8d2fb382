"""Write reconciliation: what became of a write whose response was lost, and of the writes
a session sent but never recorded the outcome of.

A lost write (:func:`reconcile_write`) is verified by its idempotency key (the tool's ``verify``)
in its own time slice; if it did not take effect and replaying is safe it is replayed once with
the same key; what cannot be established is reported as unknown with a compensation ticket.
The write journal records every write's outcome (:func:`settle_journal`), and the start of a
turn verifies the session's unsettled writes (:func:`reconcile_session`) before anything else.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.clock import Clock
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass, Failure
from helpdesk.tools.attempt import classify
from helpdesk.tools.call_run import AttemptFn, CallRun, add_pending, note
from helpdesk.tools.context import RequestContext
from helpdesk.tools.journal import (
    UNSETTLED,
    JournalEntry,
    JournalState,
    WriteJournal,
    journal_result,
)
from helpdesk.tools.registry import ToolRegistry, ToolSpec, VerifyOutcome
from helpdesk.tools.result_builder import business_failure, run_result
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus
from helpdesk.tools.retry_policy import grant_retry

__all__ = [
    "COMPENSATION_TIMEOUT_S",
    "IN_FLIGHT_WAIT_S",
    "RECONCILE_TIMEOUT_S",
    "SENDING_MARGIN_S",
    "VERIFY_TIMEOUT_S",
    "CompensationFn",
    "Reconciled",
    "reconcile_session",
    "reconcile_write",
    "settle_journal",
]

log = logging.getLogger("helpdesk.tools")

CompensationFn = Callable[[ToolCall, str, str, RequestContext], Awaitable[str | None]]
"""``(call, idempotency_key, reason, ctx) -> ticket_id``: files a compensation ticket."""

COMPENSATION_TIMEOUT_S = 3.0
"""Seconds a compensation ticket may take (outside the spent request budget)."""
VERIFY_TIMEOUT_S = 3.0
"""Most seconds a lost write's verification may take (its own slice, outside the budget)."""
RECONCILE_TIMEOUT_S = 3.0
"""Seconds the start-of-turn reconciliation may spend verifying one earlier write."""
SENDING_MARGIN_S = 1.0
"""Seconds a write may still be on its way to the backend after its sender's budget ended."""
IN_FLIGHT_WAIT_S = 10.0
"""Most seconds the start of a turn waits for a write another turn may still be sending (a
replica that lost its session lock mid-write, a turn cut off while its write goes on) before
verifying it for good; a longer wait is not made — the write is told as not known yet."""


@dataclass(frozen=True, slots=True)
class Reconciled:
    """An earlier write whose outcome the start of a turn established (or still could not)."""

    entry: JournalEntry
    state: JournalState
    """``executed``, ``not_executed``, ``refused`` or ``unknown``."""
    data: Any = None


async def reconcile_write(
    run: CallRun,
    failure: Failure,
    *,
    clock: Clock,
    retry_cap: RatioLimiter,
    compensation: CompensationFn | None,
    attempt: AttemptFn,
) -> ToolResult:
    """A write's outcome is unknown: find out what happened before saying anything.

    Verify by the idempotency key; if it did not take effect and replaying is safe (an
    idempotent, non-money write with its key), replay once with the same key and verify
    again. What still cannot be established is reported as unknown with a compensation
    ticket.
    """
    spec, args, key, ctx, book = run.spec, run.args, run.key, run.ctx, run.book
    book.ladder.append(LadderStep.RECONCILE)
    replayed = False
    while True:
        outcome = await _verify(spec, args, key, ctx, clock=clock)
        if outcome.executed is None:
            return await _unknown(run, failure, clock=clock, compensation=compensation)
        if outcome.refused:
            refusal = outcome.data if isinstance(outcome.data, dict) else {}
            note(
                ctx,
                spec.name,
                failure,
                LadderStep.RECONCILE,
                f"verified it arrived and was refused (key {key}): never replayed",
                clock=clock,
            )
            return run_result(
                run,
                ToolStatus.FAILED,
                error_class=ErrorClass.BUSINESS,
                reason=str(refusal.get("message") or f"{spec.name} was refused"),
                data={"code": refusal.get("code", "refused"), **refusal},
            )
        if outcome.executed:
            note(
                ctx,
                spec.name,
                failure,
                LadderStep.RECONCILE,
                f"verified it took effect (key {key}) after: {failure.reason}",
                clock=clock,
            )
            return run_result(run, ToolStatus.OK, data=outcome.data)
        can_replay = (
            not replayed
            and spec.policy.kind != "money"
            and spec.policy.is_idempotent
            and key is not None
            and grant_retry(ctx, 0.0, retry_cap) is None
        )
        if not can_replay:
            note(
                ctx,
                spec.name,
                failure,
                LadderStep.RECONCILE,
                f"verified it did not take effect: {failure.reason}",
                clock=clock,
            )
            return _write_failed(run, failure)
        note(
            ctx,
            spec.name,
            failure,
            LadderStep.RECONCILE,
            f"verified it did not take effect; replaying once with key {key}",
            clock=clock,
        )
        replayed = True
        book.count += 1
        try:
            data = await attempt(spec, args, key, ctx)
        except Exception as exc:
            second = classify(spec, exc)
            if second.error_class not in (ErrorClass.UNKNOWN_OUTCOME, ErrorClass.SCHEMA):
                return _write_failed(run, second)
            failure = second
            continue
        return run_result(run, ToolStatus.OK, data=data)


async def _verify(
    spec: ToolSpec, args: dict[str, Any], key: str | None, ctx: RequestContext, *, clock: Clock
) -> VerifyOutcome:
    # Its own time slice: the lost write's own timeout has usually spent the request's
    # (a check cut off after 1 ms would report a done write as unknown).
    seconds = min(spec.policy.timeout, VERIFY_TIMEOUT_S)
    return await _verify_by_key(spec, args, key, ctx.customer, clock=clock, seconds=seconds)


async def _verify_by_key(
    spec: ToolSpec,
    args: dict[str, Any],
    key: str | None,
    customer: str | None,
    *,
    clock: Clock,
    seconds: float,
) -> VerifyOutcome:
    """The tool's verify-read of a write by its idempotency key, in ``seconds`` of its own
    (unknown when it cannot be read: no verify, no key, a failure or the time spent)."""
    verify = spec.policy.verify
    if verify is None or key is None:
        return VerifyOutcome(executed=None)
    try:
        async with clock.timeout(seconds):
            outcome = verify(dict(args), key, customer)
            if inspect.isawaitable(outcome):
                outcome = await outcome
    except Exception as exc:
        log.info("tool %s: verify failed: %r", spec.name, exc)
        return VerifyOutcome(executed=None)
    return outcome


async def _unknown(
    run: CallRun, failure: Failure, *, clock: Clock, compensation: CompensationFn | None
) -> ToolResult:
    spec, call, args, key, ctx, book = run.spec, run.call, run.args, run.key, run.ctx, run.book
    ticket_id: str | None = None
    if compensation is not None and key is not None:
        try:
            # its own small time slice: the request's may be spent by now
            async with clock.timeout(COMPENSATION_TIMEOUT_S):
                ticket_id = await compensation(call, key, failure.reason, ctx)
        except Exception as exc:
            log.info("tool %s: compensation ticket failed: %r", spec.name, exc)
    add_pending(ctx, call, spec, args, "unknown", ticket_id=ticket_id)
    note(
        ctx,
        spec.name,
        failure,
        LadderStep.HANDOFF,
        f"outcome unknown, could not be reconciled"
        f"{f'; compensation ticket {ticket_id}' if ticket_id else '; no ticket filed'}"
        f": {failure.reason}",
        clock=clock,
    )
    book.ladder.append(LadderStep.HANDOFF)
    return run_result(
        run,
        ToolStatus.UNKNOWN,
        error_class=ErrorClass.UNKNOWN_OUTCOME,
        reason=failure.reason,
        ticket_id=ticket_id,
    )


def _write_failed(run: CallRun, failure: Failure) -> ToolResult:
    if failure.error_class is ErrorClass.BUSINESS:
        return business_failure(run, failure)
    add_pending(run.ctx, run.call, run.spec, run.args, "failed")
    return run_result(
        run,
        ToolStatus.FAILED,
        error_class=failure.error_class,
        reason=failure.reason,
    )


async def settle_journal(result: ToolResult, *, journal: WriteJournal, clock: Clock) -> None:
    """Record what became of a journaled write."""
    key = result.idempotency_key
    if key is None:
        return
    state: JournalState
    if result.status is ToolStatus.OK:
        state = "executed"
    elif result.status is ToolStatus.UNKNOWN:
        state = "unknown"
    elif result.status is ToolStatus.FAILED and result.error_class is ErrorClass.BUSINESS:
        state = "refused"
    elif result.status in (ToolStatus.FAILED, ToolStatus.DEGRADED, ToolStatus.SKIPPED):
        state = "not_executed"
    else:
        return
    data = result.data if isinstance(result.data, dict) else None
    await journal.settle(key, state, at=clock.wall(), result=journal_result(data))


async def reconcile_session(
    session: str,
    customer: str | None,
    *,
    journal: WriteJournal,
    registry: ToolRegistry,
    clock: Clock,
) -> list[Reconciled]:
    """Find out what became of the session's writes whose outcome was never recorded (the
    process died after sending them, or their outcome was unknown), before anything else.

    Each is verified by its idempotency key with its own small time slice. Returns the
    writes whose outcome is now known, and those still unknown that the customer has not
    been told about yet.
    """
    found: list[Reconciled] = []
    for entry in await journal.to_report(session):
        if entry.state not in UNSETTLED:
            # settled, but the reply that would have said so was never published
            await journal.mark_reported(entry.key)
            found.append(Reconciled(entry=entry, state=entry.state, data=entry.result))
            continue
        outcome = await _verify_entry(entry, customer, registry=registry, clock=clock)
        if not (outcome.executed or outcome.refused):
            outcome = await _after_its_sender(entry, customer, outcome, registry, clock)
        state: JournalState
        if outcome.executed:
            state = "executed"
        elif outcome.refused:
            state = "refused"
        elif outcome.executed is False:
            state = "not_executed"
        else:
            state = "unknown"
        data = outcome.data if isinstance(outcome.data, dict) else None
        await journal.settle(entry.key, state, at=clock.wall(), result=journal_result(data))
        if state == "unknown" and entry.reported:
            continue
        await journal.mark_reported(entry.key)
        found.append(Reconciled(entry=entry, state=state, data=outcome.data))
    return found


async def _verify_entry(
    entry: JournalEntry, customer: str | None, *, registry: ToolRegistry, clock: Clock
) -> VerifyOutcome:
    """An earlier write verified by its idempotency key (unknown when it cannot be)."""
    spec = registry.get(entry.tool)
    if spec is None:
        return VerifyOutcome(executed=None)
    return await _verify_by_key(
        spec, dict(entry.args), entry.key, customer, clock=clock, seconds=RECONCILE_TIMEOUT_S
    )


async def _after_its_sender(
    entry: JournalEntry,
    customer: str | None,
    outcome: VerifyOutcome,
    registry: ToolRegistry,
    clock: Clock,
) -> VerifyOutcome:
    """``outcome`` of a write not found at the backend, or verified again once its sender can
    no longer send it: a key not found while its sender may still be sending it (another
    replica, a turn cut off mid-write) is no proof it did not take effect — said so, the write
    could run right after the customer was told it did not go through."""
    if entry.sending_until is None:
        return outcome
    wait = entry.sending_until - clock.wall()
    if wait <= 0:
        return outcome
    if wait > IN_FLIGHT_WAIT_S:
        return VerifyOutcome(executed=None)  # not known yet: verified again next turn
    await clock.sleep(wait)
    return await _verify_entry(entry, customer, registry=registry, clock=clock)
