"""Whether and when a failed attempt is retried, and the tenacity loop it is plugged into.

:func:`retry_wait` is the decision: a pure function of the tool's policy, the classified
failure, the write's key and the attempt number (seconds to wait, or None: do not retry).
:func:`grant_retry` then takes the retry from the request's budget and the process-wide
ratio cap; :func:`attempt_with_retries` runs the attempts with tenacity, and
:func:`settle_breaker` tells the breaker about a failed attempt only once it is known whether a
retry follows (the breaker counts logical calls, not attempts).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tenacity import AsyncRetrying, RetryCallState, stop_never

from helpdesk.degrade.backoff import FullJitterBackoff
from helpdesk.degrade.breaker import BreakerBoard
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.clock import Clock
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import TRUNCATED_JSON, ErrorClass, Failure
from helpdesk.degrade.throttle import ThrottleBoard
from helpdesk.tools.attempt import classify
from helpdesk.tools.call_run import AttemptBook, note
from helpdesk.tools.context import RequestContext
from helpdesk.tools.registry import ToolPolicy, ToolSpec

__all__ = ["attempt_with_retries", "grant_retry", "retry_wait", "settle_breaker"]

BookedAttemptFn = Callable[
    [ToolSpec, dict[str, Any], str | None, RequestContext, AttemptBook], Awaitable[Any]
]
"""One attempt that leaves a counted failure in the book for :func:`settle_breaker`."""


def retry_wait(
    policy: ToolPolicy,
    failure: Failure,
    key: str | None,
    attempt: int,
    *,
    max_attempts: int,
    fast_retry_wait: float,
    backoff: FullJitterBackoff,
    dependency_healthy: bool = False,
    served_since_failure: bool = False,
) -> float | None:
    """Seconds to wait before retrying, or None when this failure must not be retried.

    Args:
        dependency_healthy: the dependency accepted nearly all of its recent attempts
            (:meth:`~helpdesk.degrade.throttle.AdaptiveThrottle.healthy`): a read's 503 from
            it is a blip (a momentarily full queue), retried once after a jittered backoff of
            at least half its ceiling (0.25-0.5 s: a queue that was full a moment ago is still
            full a few milliseconds later); a 503 from a dependency that refuses a share of its
            traffic is overload, never retried (the throttle sheds).
        served_since_failure: the dependency accepted someone else's attempt after this call's
            first failure: its queue is moving, and a healthy dependency's blip is retried
            once more (a second refusal from a queue still draining a burst); one that served
            nobody since may have just gone down (it looks healthy for a few seconds), and is
            not.
    """
    if attempt >= max_attempts:
        return None
    if policy.kind == "money":
        return None
    if policy.is_write and not (policy.is_idempotent and key):
        return None
    if failure.error_class is ErrorClass.RATE_LIMITED:
        # Honoured only when the server said how long; the budget decides if it fits.
        return failure.retry_after
    if failure.code == TRUNCATED_JSON and not policy.is_write:
        # A body cut off in transit: the same read, once, at once.
        return fast_retry_wait if attempt == 1 else None
    if (
        failure.error_class is ErrorClass.UNAVAILABLE
        and failure.status_code == 503
        and not policy.is_write
        and dependency_healthy
        and (attempt == 1 or (attempt == 2 and served_since_failure))
    ):
        # Noise, not overload: a refusal from a dependency that took nearly everything else.
        # Retried after a backoff long enough for its queue to move, only while the budgets
        # grant it: once, and a second time only if it served others since (a dependency that
        # has just gone down still looks healthy for a few seconds; retrying its calls again
        # and again with growing waits raised the dependency_down turns' P95 to 6.2 s).
        return backoff.delay_from_half(attempt)
    if failure.error_class is not ErrorClass.TRANSIENT:
        return None
    if isinstance(failure.cause, TimeoutError) or "timed out" in failure.reason:
        # A read that timed out is retried at once, not after a backoff: its timeout was
        # the wait. Up to max_attempts, each retry only while the request's budget (time
        # and retries, shared by the turn's calls) grants it.
        return fast_retry_wait
    return backoff.delay(attempt)


def grant_retry(ctx: RequestContext, wait: float, retry_cap: RatioLimiter) -> str | None:
    """Take one retry from the request's budget and the process-wide cap; the refusal
    reason (nothing taken from either) when one of them says no."""
    if not ctx.budget.can_retry(wait):
        return (
            f"request budget left {ctx.budget.remaining():.2f}s / "
            f"{ctx.budget.retries_left()} retries"
        )
    if not retry_cap.try_acquire():
        return "process retry ratio cap reached"
    if not ctx.budget.try_acquire_retry(wait):  # a parallel call took the last one
        retry_cap.refund()
        return f"request budget left {ctx.budget.retries_left()} retries"
    return None


def settle_breaker(
    breakers: BreakerBoard, spec: ToolSpec, book: AttemptBook, *, retried: bool
) -> None:
    """Tell the breaker about the attempt that just failed: nothing about its health if
    a retry follows (it only releases a half-open permit), a failure if the call ends."""
    failure, book.unsettled = book.unsettled, None
    if failure is None:
        return
    breaker = breakers.get(spec.name)
    if retried:
        breaker.record_ignored()
    else:
        breaker.record_failure(failure.error_class, retry_after=failure.retry_after)


async def attempt_with_retries(
    spec: ToolSpec,
    args: dict[str, Any],
    key: str | None,
    ctx: RequestContext,
    book: AttemptBook,
    *,
    attempt: BookedAttemptFn,
    clock: Clock,
    breakers: BreakerBoard,
    retry_cap: RatioLimiter,
    max_attempts: int,
    fast_retry_wait: float,
    backoff: FullJitterBackoff,
    throttles: ThrottleBoard | None = None,
) -> Any:
    """The call's attempts until one succeeds or the retry decision says no (then the last
    attempt's exception is raised); every failure is classified into ``book.failures``.
    ``throttles`` tell whether the dependency is healthy (a 503 from it is then a blip)."""

    def should_retry(state: RetryCallState) -> bool:
        retried = decide(state)
        settle_breaker(breakers, spec, book, retried=retried)
        return retried

    def decide(state: RetryCallState) -> bool:
        assert state.outcome is not None
        exc = state.outcome.exception()
        if exc is None:
            return False
        failure = classify(spec, exc)
        book.failures.append(failure)
        if book.first_failed_at is None:
            book.first_failed_at = clock.now()
        throttle = throttles.get(spec.name) if throttles is not None else None
        wait = retry_wait(
            spec.policy,
            failure,
            key,
            state.attempt_number,
            max_attempts=max_attempts,
            fast_retry_wait=fast_retry_wait,
            backoff=backoff,
            dependency_healthy=throttle is not None and throttle.healthy(),
            served_since_failure=throttle is not None
            and throttle.served_since(book.first_failed_at),
        )
        if wait is None:
            return False
        if ctx.guard.entries >= ctx.guard.max_entries:
            # Degradation is merged per request: once the request is degraded, later
            # failures go down the ladder instead of each retrying on its own.
            note(
                ctx,
                spec.name,
                failure,
                LadderStep.RETRY,
                f"no retry: the request is already degraded ({failure.reason})",
                clock=clock,
            )
            return False
        refused = grant_retry(ctx, wait, retry_cap)
        if refused is not None:
            note(
                ctx,
                spec.name,
                failure,
                LadderStep.RETRY,
                f"no retry: {refused} ({failure.reason})",
                clock=clock,
            )
            return False
        book.next_wait = wait
        book.waits.append(wait)
        book.ladder.append(LadderStep.RETRY)
        note(
            ctx,
            spec.name,
            failure,
            LadderStep.RETRY,
            f"retry in {wait:.2f}s after {failure.reason}",
            clock=clock,
        )
        return True

    retrying = AsyncRetrying(
        sleep=clock.sleep,
        stop=stop_never,
        wait=lambda _state: book.next_wait,
        retry=should_retry,
        reraise=True,
    )
    async for attempt_state in retrying:
        with attempt_state:
            book.count += 1
            return await attempt(spec, args, key, ctx, book)
    raise AssertionError("unreachable: tenacity either returns or re-raises")  # pragma: no cover
