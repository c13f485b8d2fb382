"""One attempt of a tool call: breaker admission, client-side throttling, the timeout left in
the request's budget, chaos injection, output validation and classification of what failed.

An attempt raises what went wrong (the retry decision and the ladder classify it with
:func:`classify`); it tells the breaker and the throttle about its outcome, except a counted
failure handed to the retry decision through ``book.unsettled`` (a failure a retry recovers
from is noise, not the dependency's health).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from helpdesk.degrade.breaker import BreakerBoard
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import Clock
from helpdesk.degrade.errors import (
    ErrorClass,
    Failure,
    SchemaError,
    TransientError,
    UnavailableError,
    classify_failure,
)
from helpdesk.degrade.throttle import ThrottleBoard
from helpdesk.tools.arguments import injected_args
from helpdesk.tools.call_run import AttemptBook, CallObserver
from helpdesk.tools.context import RequestContext
from helpdesk.tools.registry import ToolSpec

__all__ = ["BUDGET_EXHAUSTED", "LOAD_REFUSALS", "attempt", "classify", "validate_output"]

BUDGET_EXHAUSTED = "budget_exhausted"
"""Failure code of a call that was never sent because the request's time was used up."""
LOAD_REFUSALS = frozenset({ErrorClass.UNAVAILABLE, ErrorClass.RATE_LIMITED})
"""Refusals that say the dependency would not take the request (503, 429): the throttle's
input, and an outage for the breaker only when the dependency serves nothing at all."""


def classify(spec: ToolSpec, exc: BaseException) -> Failure:
    """What an exception from ``spec``'s call means in the failure taxonomy."""
    return classify_failure(exc, tool=spec.name, is_write=spec.policy.is_write)


async def attempt(
    spec: ToolSpec,
    args: dict[str, Any],
    key: str | None,
    ctx: RequestContext,
    book: AttemptBook | None = None,
    *,
    clock: Clock,
    breakers: BreakerBoard,
    throttles: ThrottleBoard,
    chaos: ChaosPlan | None,
    observer: CallObserver | None,
) -> Any:
    """One attempt behind the breaker, within what is left of the request's time.

    With ``book``, a counted failure is left in ``book.unsettled`` for the retry decision
    to settle (:func:`helpdesk.tools.retry_policy.settle_breaker`) instead of being recorded
    at once.
    """
    timeout = ctx.budget.call_timeout(spec.policy.timeout)
    if timeout <= 0:
        # Nothing is sent: not an unknown outcome, and not the dependency's fault.
        raise TransientError(
            f"{spec.name}: request budget exhausted before the call was sent",
            code=BUDGET_EXHAUSTED,
        )
    held_back = ctx.held_back.get(spec.name)
    if held_back is not None:
        # Not sent: the overloaded dependency refused this request already (nothing to tell
        # its breaker or throttle; the call goes down the ladder).
        raise UnavailableError(f"{spec.name}: not sent: {held_back}")
    breaker = breakers.get(spec.name)
    if not breaker.try_acquire():
        raise UnavailableError(f"{spec.name}: circuit open (retry in {breaker.retry_after():.0f}s)")
    throttle = throttles.get(spec.name)
    if not throttle.admit():
        breaker.record_ignored()
        ctx.rate_limited_seen += 1  # shed for the shop's load: the batch counts as limited
        raise UnavailableError(
            f"{spec.name}: shed by client-side throttling ({throttle.reject_probability():.0%}"
            f" of attempts: it refused most of what it got in the last"
            f" {throttle.policy.window_s:g}s)"
        )
    kwargs = {**args, **injected_args(spec, key, ctx)}
    started = clock.now()
    try:
        async with clock.timeout(timeout):
            if chaos is not None:
                wrapped = chaos.wrap(spec.name, spec.invoke, is_write=spec.policy.is_write)
                data = await wrapped(kwargs)
            else:
                data = await spec.invoke(kwargs)
        data = validate_output(spec, data)
    except Exception as exc:
        failure = classify(spec, exc)
        refused_for_load = failure.error_class in LOAD_REFUSALS
        throttle.record(accepted=not refused_for_load)
        if failure.error_class in (ErrorClass.INPUT, ErrorClass.BUSINESS):
            breaker.record_ignored()
        elif refused_for_load and throttle.serving():
            # Overload, not an outage: the shop still serves a share of what is sent. The
            # throttle sheds the excess; a breaker trip would refuse everything for open_s.
            breaker.record_ignored()
        elif book is not None:
            # Settled by the retry decision: a failure the retry recovers from is noise,
            # not the dependency's health (the breaker counts logical-call outcomes).
            book.unsettled = failure
        else:
            breaker.record_failure(failure.error_class, retry_after=failure.retry_after)
        if failure.error_class is ErrorClass.RATE_LIMITED:
            ctx.rate_limited_seen += 1
        if observer is not None:
            observer.attempt_finished(
                tool=spec.name,
                duration_s=clock.now() - started,
                failure=failure,
                ctx=ctx,
            )
        raise
    throttle.record(accepted=True)
    breaker.record_success()
    if observer is not None:
        observer.attempt_finished(
            tool=spec.name, duration_s=clock.now() - started, failure=None, ctx=ctx
        )
    return data


def validate_output(spec: ToolSpec, data: Any) -> Any:
    """The tool's response checked against its ``output`` model; raises SchemaError when it is
    empty or misses or nulls core fields."""
    data = _parsed_json_text(spec, data)
    model = spec.policy.output
    if model is None:
        return data
    if data is None or data == {} or data == []:
        raise SchemaError(f"{spec.name}: empty response (no data)")
    try:
        model.model_validate(data)
    except ValidationError as exc:
        fields = ", ".join(".".join(str(p) for p in e["loc"]) or "(root)" for e in exc.errors()[:5])
        raise SchemaError(f"{spec.name}: response misses or nulls core fields: {fields}") from exc
    return data


def _parsed_json_text(spec: ToolSpec, data: Any) -> Any:
    """A tool that returns JSON text (many existing tools do) is parsed before output checks;
    text that looks like JSON but is not is a schema failure, other text stays text."""
    if not isinstance(data, str | bytes):
        return data
    text = data.decode() if isinstance(data, bytes) else data
    if not text.lstrip().startswith(("{", "[")):
        return data
    try:
        return json.loads(text)
    except ValueError as exc:
        raise SchemaError(f"{spec.name}: response is not valid JSON: {exc}") from exc
