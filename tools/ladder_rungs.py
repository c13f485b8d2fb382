"""The degrade ladder as the executor walks it: one small function per rung, keyed by
:class:`~helpdesk.degrade.context.LadderStep` in :data:`RUNGS`.

:func:`~helpdesk.degrade.ladder.plan_ladder` decides which rungs apply to a failure;
:func:`walk_ladder` tries them cheapest first within the request's :class:`LadderGuard` (at most
one entry into degraded mode, three levels deep) and returns the first rung's answer. A rung
returns a :class:`ToolResult` when it answered, None to go on to the next one. A new rung is one
function here and one line in :data:`RUNGS` (and its place in ``plan_ladder``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from helpdesk.degrade.breaker import BreakerBoard, BreakerState
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.cache import CachedValue, LastGoodCache
from helpdesk.degrade.clock import Clock
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass, Failure
from helpdesk.degrade.ladder import LadderOptions, plan_ladder
from helpdesk.tools.arguments import validate_args
from helpdesk.tools.attempt import classify
from helpdesk.tools.call_run import AttemptFn, CallRun, add_pending, note
from helpdesk.tools.result_builder import run_result
from helpdesk.tools.results import ToolResult, ToolStatus
from helpdesk.tools.retry_policy import grant_retry

__all__ = ["RUNGS", "LadderEnv", "Rung", "walk_ladder"]


@dataclass(frozen=True, slots=True)
class LadderEnv:
    """What the rungs use besides the call: the executor's collaborators."""

    clock: Clock
    """Stamps every step noted in the request's DegradeContext."""
    breakers: BreakerBoard
    """The tool's breaker (is it open?) and each fallback's own breaker."""
    retry_cap: RatioLimiter
    """A simplified retry is one more call to the dependency: it draws from the retry cap."""
    fallback_quota: RatioLimiter
    """The degrade path's rate quota (a fraction of the main path)."""
    attempt: AttemptFn
    """One attempt behind the breaker (the executor's, with its chaos and observer)."""


Rung = Callable[[CallRun, Failure, CachedValue | None, LadderEnv], Awaitable[ToolResult | None]]
"""``(run, failure, cached, env) -> result``: None when the rung cannot answer this call."""


async def walk_ladder(
    run: CallRun, failure: Failure, *, cache: LastGoodCache, env: LadderEnv
) -> ToolResult:
    """Try the rungs that apply to ``failure``, cheapest first; a failed result (with a handoff
    for a core task) when none answers."""
    spec, args, ctx = run.spec, run.args, run.ctx
    policy = spec.policy
    breaker = env.breakers.get(spec.name)
    cached = (
        cache.get(spec.name, args, ctx.customer)
        if policy.kind == "read" and policy.cache_ttl > 0
        else None
    )
    options = LadderOptions(
        can_simplify=policy.simplify is not None,
        breaker_open=breaker.state is not BreakerState.CLOSED,
        has_cached=cached is not None,
        has_fallback=policy.fallback is not None,
        core=policy.core,
        is_write=policy.is_write,
    )
    steps = plan_ladder(failure.error_class, options)
    ctx.guard.enter()
    for step in steps:
        if step is not LadderStep.HANDOFF and not ctx.guard.try_descend(step):
            note(
                ctx,
                spec.name,
                failure,
                step,
                f"skipped {step.value}: 3 ladder levels already used in this request",
                clock=env.clock,
            )
            continue
        rung = RUNGS.get(step)
        if rung is None:
            continue
        result = await rung(run, failure, cached, env)
        if result is not None:
            return result
    if LadderStep.HANDOFF not in run.book.ladder and policy.core:
        run.book.ladder.append(LadderStep.HANDOFF)
        add_pending(ctx, run.call, spec, args, "failed")
        note(
            ctx,
            spec.name,
            failure,
            LadderStep.HANDOFF,
            f"ladder exhausted for {spec.name}; handing off: {failure.reason}",
            clock=env.clock,
        )
    return _failed(run, failure)


async def simplified_arguments(
    run: CallRun, failure: Failure, cached: CachedValue | None, env: LadderEnv
) -> ToolResult | None:
    """PARAMETER: one more attempt with the tool's ``simplify``-ed arguments."""
    spec, args, key, ctx, book = run.spec, run.args, run.key, run.ctx, run.book
    step = LadderStep.PARAMETER
    policy = spec.policy
    simpler = policy.simplify(dict(args)) if policy.simplify else None
    if not simpler or simpler == args:
        return None
    # one more call to the dependency: it draws from the same budgets as a retry
    if grant_retry(ctx, 0.0, env.retry_cap) is not None:
        note(
            ctx,
            spec.name,
            failure,
            step,
            "simplified retry skipped: no retry budget left",
            clock=env.clock,
        )
        return None
    book.ladder.append(step)
    try:
        simple_args = validate_args(spec, simpler)
        book.count += 1
        data = await env.attempt(spec, simple_args, key, ctx)
    except Exception as exc:
        second = classify(spec, exc)
        note(
            ctx,
            spec.name,
            failure,
            step,
            f"simplified arguments failed too: {second.reason}",
            clock=env.clock,
        )
        return None
    note(
        ctx,
        spec.name,
        failure,
        step,
        f"answered with simplified arguments after {failure.reason}",
        clock=env.clock,
    )
    return run_result(
        run,
        ToolStatus.DEGRADED,
        data=data,
        error_class=failure.error_class,
        reason=failure.reason,
    )


async def last_good_data(
    run: CallRun, failure: Failure, cached: CachedValue | None, env: LadderEnv
) -> ToolResult | None:
    """DATA: the last-good cached response, marked stale with its age."""
    if cached is None:
        return None
    spec, ctx = run.spec, run.ctx
    run.book.ladder.append(LadderStep.DATA)
    ctx.mark_stale(spec.name, cached.age_s)
    note(
        ctx,
        spec.name,
        failure,
        LadderStep.DATA,
        f"served last-good data {cached.age_s:.0f}s old after {failure.reason}",
        clock=env.clock,
    )
    return run_result(
        run,
        ToolStatus.STALE,
        data=cached.value,
        error_class=failure.error_class,
        reason=failure.reason,
        age_s=cached.age_s,
    )


async def tool_fallback(
    run: CallRun, failure: Failure, cached: CachedValue | None, env: LadderEnv
) -> ToolResult | None:
    """FUNCTION: the tool's fallback (a self-service pointer), behind its own breaker and the
    degrade path's quota."""
    spec = run.spec
    if spec.policy.fallback is None:
        return None
    result = _run_fallback(run, failure, env)
    if result is _NO_FALLBACK:
        return None
    run.book.ladder.append(LadderStep.FUNCTION)
    note(
        run.ctx,
        spec.name,
        failure,
        LadderStep.FUNCTION,
        f"answered by {spec.name}'s fallback after {failure.reason}",
        clock=env.clock,
    )
    return run_result(
        run,
        ToolStatus.DEGRADED,
        data=result,
        error_class=failure.error_class,
        reason=failure.reason,
        fallback=True,
    )


async def drop_task(
    run: CallRun, failure: Failure, cached: CachedValue | None, env: LadderEnv
) -> ToolResult | None:
    """CHAIN: a non-core task is dropped; the reply says that part is unavailable."""
    spec = run.spec
    run.book.ladder.append(LadderStep.CHAIN)
    add_pending(run.ctx, run.call, spec, run.args, "dropped")
    note(
        run.ctx,
        spec.name,
        failure,
        LadderStep.CHAIN,
        f"dropped non-core task {spec.name} after {failure.reason}",
        clock=env.clock,
    )
    return run_result(
        run,
        ToolStatus.SKIPPED,
        error_class=failure.error_class,
        reason=failure.reason,
    )


async def hand_off(
    run: CallRun, failure: Failure, cached: CachedValue | None, env: LadderEnv
) -> ToolResult | None:
    """HANDOFF: nothing else can answer; the task goes to a human (the last line)."""
    spec = run.spec
    run.book.ladder.append(LadderStep.HANDOFF)
    add_pending(run.ctx, run.call, spec, run.args, "failed")
    note(
        run.ctx,
        spec.name,
        failure,
        LadderStep.HANDOFF,
        f"nothing else can answer {spec.name}; handing off: {failure.reason}",
        clock=env.clock,
    )
    return _failed(run, failure)


RUNGS: dict[LadderStep, Rung] = {
    LadderStep.PARAMETER: simplified_arguments,
    LadderStep.DATA: last_good_data,
    LadderStep.FUNCTION: tool_fallback,
    LadderStep.CHAIN: drop_task,
    LadderStep.HANDOFF: hand_off,
}
"""The executor's rungs by ladder step (the model tier rung lives in the model layer)."""


def _failed(run: CallRun, failure: Failure) -> ToolResult:
    return run_result(
        run,
        ToolStatus.FAILED,
        error_class=failure.error_class,
        reason=failure.reason,
    )


_NO_FALLBACK = object()


def _run_fallback(run: CallRun, failure: Failure, env: LadderEnv) -> Any:
    spec, args, ctx = run.spec, run.args, run.ctx
    assert spec.policy.fallback is not None
    path = f"{spec.name}.fallback"
    breaker = env.breakers.get(path)
    if not env.fallback_quota.try_acquire():
        note(
            ctx,
            path,
            failure,
            LadderStep.FUNCTION,
            "fallback skipped: degrade-path quota reached",
            clock=env.clock,
        )
        return _NO_FALLBACK
    if not breaker.try_acquire():
        note(
            ctx,
            path,
            failure,
            LadderStep.FUNCTION,
            "fallback skipped: its circuit is open",
            clock=env.clock,
        )
        return _NO_FALLBACK
    try:
        data = spec.policy.fallback(dict(args), failure)
    except Exception as exc:
        breaker.record_failure(ErrorClass.UNAVAILABLE)
        note(ctx, path, failure, LadderStep.FUNCTION, f"fallback failed: {exc!r}", clock=env.clock)
        return _NO_FALLBACK
    breaker.record_success()
    return data
