"""ResilientExecutor: every tool call goes through here.

One call: look the tool up, validate its arguments, ask for confirmation where the policy says so,
derive the write's idempotency key, then attempt it behind its circuit breaker with retries that
draw from the request's budget and the process-wide retry ratio cap. A failure is classified once
(:func:`helpdesk.degrade.errors.classify_failure`) and walks the degrade ladder — simplified
parameters, last-good data, the tool's fallback, dropping a non-core task, handoff — recording
every step in the request's DegradeContext. A write whose response was lost is reconciled by its
idempotency key (the tool's ``verify``) before anything is said about it.

This class is the orchestrator; each concern is its own module: the arguments and the write's
key (:mod:`~helpdesk.tools.arguments`), the confirm-first check
(:mod:`~helpdesk.tools.confirm_first`), one attempt (:mod:`~helpdesk.tools.attempt`), the retry
decision and its tenacity loop (:mod:`~helpdesk.tools.retry_policy`), the ladder's rungs
(:mod:`~helpdesk.tools.ladder_rungs`), write reconciliation (:mod:`~helpdesk.tools.reconcile`)
and the results (:mod:`~helpdesk.tools.result_builder`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine, MutableMapping, Sequence
from typing import Any, Final, TypeVar

from cachetools import TTLCache

from helpdesk.degrade.backoff import FullJitterBackoff
from helpdesk.degrade.breaker import BreakerBoard
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.cache import LastGoodCache
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass, Failure, ToolInputError
from helpdesk.degrade.failpoints import failpoint
from helpdesk.degrade.throttle import ThrottleBoard
from helpdesk.tools.arguments import idempotency_key, validate_args
from helpdesk.tools.attempt import BUDGET_EXHAUSTED, LOAD_REFUSALS, attempt, classify
from helpdesk.tools.call_run import STAGE, AttemptBook, CallObserver, CallRun
from helpdesk.tools.confirm_first import REPEAT_WINDOW_S, ask_first
from helpdesk.tools.context import RequestContext
from helpdesk.tools.journal import JournalEntry, MemoryWriteJournal, WriteJournal, journal_args
from helpdesk.tools.ladder_rungs import LadderEnv, walk_ladder
from helpdesk.tools.reconcile import (
    COMPENSATION_TIMEOUT_S,
    RECONCILE_TIMEOUT_S,
    SENDING_MARGIN_S,
    VERIFY_TIMEOUT_S,
    CompensationFn,
    Reconciled,
    reconcile_session,
    reconcile_write,
    settle_journal,
)
from helpdesk.tools.registry import ToolRegistry, ToolSpec
from helpdesk.tools.result_builder import (
    business_failure,
    input_failure,
    run_result,
    unknown_tool,
)
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus
from helpdesk.tools.retry_policy import attempt_with_retries

__all__ = [
    "BUDGET_EXHAUSTED",
    "COMPENSATION_TIMEOUT_S",
    "DEFAULT_MAX_ATTEMPTS",
    "RECONCILE_TIMEOUT_S",
    "REPEAT_WINDOW_S",
    "VERIFY_TIMEOUT_S",
    "CallObserver",
    "CompensationFn",
    "Reconciled",
    "ResilientExecutor",
    "run_blocking",
]

DEFAULT_MAX_ATTEMPTS: Final = 4
"""Attempts one tool call may make, the first included (``HELPDESK_TOOL_MAX_ATTEMPTS``): at 30%
independent failures a read then fails 0.8% of the time (3 attempts: 2.7%) for 1.42 requests
per call (1.39); each retry still needs the request's budget and the process-wide cap."""


class ResilientExecutor:
    """Runs :class:`ToolCall` s with retries, breakers, stale cache and the degrade ladder."""

    def __init__(
        self,
        registry: ToolRegistry,
        *,
        clock: Clock | None = None,
        breakers: BreakerBoard | None = None,
        cache: LastGoodCache | None = None,
        retry_cap: RatioLimiter | None = None,
        fallback_quota: RatioLimiter | None = None,
        chaos: ChaosPlan | None = None,
        rng: random.Random | None = None,
        compensation: CompensationFn | None = None,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        fast_retry_wait: float = 0.05,
        serial_after_rate_limited_batches: int = 2,
        observer: CallObserver | None = None,
        journal: WriteJournal | None = None,
        session_counters: MutableMapping[str, int] | None = None,
        throttles: ThrottleBoard | None = None,
    ) -> None:
        self.registry = registry
        self.journal: WriteJournal = journal or MemoryWriteJournal()
        self.clock: Clock = clock or SystemClock()
        self.breakers = breakers or BreakerBoard(clock=self.clock)
        self.cache = cache or LastGoodCache(clock=self.clock)
        self.retry_cap = retry_cap or RatioLimiter(ratio=0.5, reserve_per_s=1.0, clock=self.clock)
        self.fallback_quota = fallback_quota or RatioLimiter(ratio=0.5, clock=self.clock)
        self.chaos = chaos
        self.backoff = FullJitterBackoff(rng=rng or random.Random())
        # The throttle draws from its own generator (a seeded caller's backoff sequence stays
        # as it was), seeded too when the caller seeds.
        throttle_rng = random.Random(0) if rng is not None else random.Random()
        self.throttles = throttles or ThrottleBoard(clock=self.clock, rng=throttle_rng)
        self.compensation = compensation
        self.max_attempts = max_attempts
        self.fast_retry_wait = fast_retry_wait
        self.serial_after = serial_after_rate_limited_batches
        # Per-session counters, bounded: idle sessions age out instead of growing forever.
        # Replicas pass a mapping shared through Redis (sessions move between replicas).
        self._rate_limited_batches: MutableMapping[str, int] = (
            session_counters
            if session_counters is not None
            else TTLCache(maxsize=100_000, ttl=3600.0, timer=self.clock.now)
        )
        self.observer = observer

    # ------------------------------------------------------------------ public API

    async def run(self, call: ToolCall, ctx: RequestContext) -> ToolResult:
        """Run one call to completion: a :class:`ToolResult`, never an exception."""
        started = self.clock.now()
        book = AttemptBook()
        result = await self._run(call, ctx, book)
        await settle_journal(result, journal=self.journal, clock=self.clock)
        if self.observer is not None:
            self.observer.call_finished(
                call=call,
                result=result,
                duration_s=self.clock.now() - started,
                waits=tuple(book.waits),
                ctx=ctx,
            )
        return result

    def run_sync(self, call: ToolCall, ctx: RequestContext | None = None) -> ToolResult:
        """:meth:`run` for scripts and notebooks: blocks until the call is done.

        Works with or without a running event loop (in a notebook the call runs on a worker
        thread with its own loop). ``ctx`` defaults to a fresh one-call request context.
        """
        context = ctx or RequestContext.new(session="sync", turn=1, customer=None, clock=self.clock)
        return run_blocking(self.run(call, context))

    async def _run(self, call: ToolCall, ctx: RequestContext, book: AttemptBook) -> ToolResult:
        spec = self.registry.get(call.name)
        if spec is None:
            return unknown_tool(call, tuple(self.registry.names()))
        try:
            args = validate_args(spec, call.args)
        except ToolInputError as exc:
            return input_failure(call, spec.name, exc)
        if (spec.policy.needs_confirmation or call.ask_first) and not call.confirmed:
            return await ask_first(
                spec, call, args, ctx, run=self.run, journal=self.journal, clock=self.clock
            )
        key = idempotency_key(spec, call, args, ctx)
        if key is not None:
            await self.journal.begin(
                JournalEntry(
                    key=key,
                    session=ctx.session,
                    customer=ctx.customer,
                    tool=spec.name,
                    args=journal_args(args),
                    kind=spec.policy.kind,
                    confirmation_id=call.action_id if call.confirmed else None,
                    started_at=self.clock.wall(),
                    sending_until=ctx.budget.deadline_wall() + SENDING_MARGIN_S,
                )
            )
        failpoint("write.before_call", when=key is not None)  # crash drills
        self.retry_cap.record_primary()
        self.fallback_quota.record_primary()
        run = CallRun(spec=spec, call=call, args=args, key=key, ctx=ctx, book=book)
        try:
            data = await attempt_with_retries(
                spec,
                args,
                key,
                ctx,
                book,
                attempt=self._attempt,
                clock=self.clock,
                breakers=self.breakers,
                retry_cap=self.retry_cap,
                max_attempts=self.max_attempts,
                fast_retry_wait=self.fast_retry_wait,
                backoff=self.backoff,
                throttles=self.throttles,
            )
        except Exception as exc:
            failure = book.failures[-1] if book.failures else classify(spec, exc)
            return await self._after_failure(run, failure)
        failpoint("write.after_execute", when=key is not None)  # crash drills
        if spec.policy.kind == "read" and spec.policy.cache_ttl > 0:
            self.cache.put(spec.name, args, ctx.customer, data, ttl_s=spec.policy.cache_ttl)
        return run_result(run, ToolStatus.OK, data=data)

    async def run_many(self, calls: Sequence[ToolCall], ctx: RequestContext) -> list[ToolResult]:
        """Run a turn's independent calls: in parallel; serially once the session has had
        ``serial_after`` consecutive rate-limited batches; serially and up to the first refusal
        when one of the batch's dependencies is overloaded (:meth:`_run_overloaded`)."""
        if not calls:
            return []
        before = ctx.rate_limited_seen
        overloaded = sorted({c.name for c in calls if self._overloaded(c.name)})
        if overloaded and len(calls) > 1:
            results = await self._run_overloaded(calls, ctx, overloaded)
        elif self._rate_limited_batches.get(ctx.session, 0) >= self.serial_after and len(calls) > 1:
            self._note_serial(
                ctx,
                f"{self.serial_after} consecutive rate-limited batches in this session: "
                "running calls one at a time",
                ErrorClass.RATE_LIMITED,
            )
            results = [await self.run(c, ctx) for c in calls]
        else:
            results = list(await asyncio.gather(*(self.run(c, ctx) for c in calls)))
        if ctx.rate_limited_seen > before:
            self._rate_limited_batches[ctx.session] = (
                self._rate_limited_batches.get(ctx.session, 0) + 1
            )
        else:
            self._rate_limited_batches[ctx.session] = 0
        return results

    def _note_serial(self, ctx: RequestContext, reason: str, error_class: ErrorClass) -> None:
        ctx.record(
            stage=STAGE,
            target="*",
            action=LadderStep.SERIALIZE,
            reason=reason,
            error_class=error_class,
            at=self.clock.wall(),
        )

    def _overloaded(self, tool: str) -> bool:
        return self.registry.get(tool) is not None and self.throttles.get(tool).overloaded()

    async def _run_overloaded(
        self, calls: Sequence[ToolCall], ctx: RequestContext, overloaded: Sequence[str]
    ) -> list[ToolResult]:
        """A batch with a call to an overloaded dependency (it refuses a share of its traffic
        and still serves the rest): the calls run one at a time, and once the dependency
        refuses one for load, the batch's later calls to overloaded tools are not sent (they
        go down the ladder: cache, fallback). A burst of parallel calls is what such a
        dependency sheds first, and the slots it has are better spent finishing some turns
        whole than every turn in part; nothing is retried into it."""
        self._note_serial(
            ctx,
            f"{', '.join(overloaded)} refusing a share of their traffic: running calls one at a"
            " time, up to the first refusal",
            ErrorClass.UNAVAILABLE,
        )
        results: list[ToolResult] = []
        try:
            for call in calls:
                result = await self.run(call, ctx)
                results.append(result)
                if (
                    result.status is not ToolStatus.OK
                    and result.error_class in LOAD_REFUSALS
                    and call.name in overloaded
                    and call.name not in ctx.held_back
                ):
                    why = f"{call.name} refused this turn's call for load ({result.reason})"
                    for name in overloaded:
                        ctx.held_back.setdefault(name, why)
            return results
        finally:
            ctx.held_back.clear()

    def check_call(self, call: ToolCall) -> ToolResult | None:
        """Name and argument checks without running anything: None when the call is valid, else
        the input failure with field-level issues (for a model's self-correction)."""
        spec = self.registry.get(call.name)
        if spec is None:
            return unknown_tool(call, tuple(self.registry.names()))
        try:
            validate_args(spec, call.args)
        except ToolInputError as exc:
            return input_failure(call, spec.name, exc)
        return None

    def is_serialized(self, session: str) -> bool:
        return self._rate_limited_batches.get(session, 0) >= self.serial_after

    # ------------------------------------------------------------------ the write journal

    async def reconcile_session(self, session: str, customer: str | None) -> list[Reconciled]:
        """Find out what became of the session's writes whose outcome was never recorded (the
        process died after sending them, or their outcome was unknown), before anything else.

        Each is verified by its idempotency key with its own small time slice. Returns the
        writes whose outcome is now known, and those still unknown that the customer has not
        been told about yet.
        """
        return await reconcile_session(
            session, customer, journal=self.journal, registry=self.registry, clock=self.clock
        )

    async def mark_reported(self, results: Sequence[ToolResult]) -> None:
        """A published reply told the customer about these writes' outcomes."""
        for result in results:
            if result.idempotency_key is not None:
                await self.journal.mark_reported(result.idempotency_key)

    # ------------------------------------------------------------------ attempts and after

    async def _attempt(
        self,
        spec: ToolSpec,
        args: dict[str, Any],
        key: str | None,
        ctx: RequestContext,
        book: AttemptBook | None = None,
    ) -> Any:
        """One attempt (:func:`helpdesk.tools.attempt.attempt`) with this executor's breakers,
        throttles, chaos and observer as they are now (drills swap chaos and observer in)."""
        return await attempt(
            spec,
            args,
            key,
            ctx,
            book,
            clock=self.clock,
            breakers=self.breakers,
            throttles=self.throttles,
            chaos=self.chaos,
            observer=self.observer,
        )

    async def _after_failure(self, run: CallRun, failure: Failure) -> ToolResult:
        cls = failure.error_class
        if cls is ErrorClass.INPUT:
            return run_result(
                run,
                ToolStatus.FAILED,
                error_class=cls,
                reason=failure.reason,
                issues=ToolResult.issues_of(failure.issues),
            )
        if cls is ErrorClass.BUSINESS:
            return business_failure(run, failure)
        if run.spec.policy.is_write and cls in (ErrorClass.UNKNOWN_OUTCOME, ErrorClass.SCHEMA):
            # The write was sent and answered with something unreadable, or not answered:
            # it may have taken effect. Find out before saying anything.
            return await reconcile_write(
                run,
                failure,
                clock=self.clock,
                retry_cap=self.retry_cap,
                compensation=self.compensation,
                attempt=self._attempt,
            )
        env = LadderEnv(
            clock=self.clock,
            breakers=self.breakers,
            retry_cap=self.retry_cap,
            fallback_quota=self.fallback_quota,
            attempt=self._attempt,
        )
        return await walk_ladder(run, failure, cache=self.cache, env=env)


_T = TypeVar("_T")


def run_blocking(coro: Coroutine[Any, Any, _T]) -> _T:
    """Run a coroutine to completion from sync code, even inside a running loop (notebooks)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
