"""ResilientExecutor: every tool call goes through here.

One call: look the tool up, validate its arguments, ask for confirmation where the policy says so,
derive the write's idempotency key, then attempt it behind its circuit breaker with retries that
draw from the request's budget and the process-wide retry ratio cap. A failure is classified once
(:func:`helpdesk.degrade.errors.classify_failure`) and walks the degrade ladder — simplified
parameters, last-good data, the tool's fallback, dropping a non-core task, handoff — recording
every step in the request's DegradeContext. A write whose response was lost is reconciled by its
idempotency key (the tool's ``verify``) before anything is said about it.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import random
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from cachetools import TTLCache
from pydantic import ValidationError
from tenacity import AsyncRetrying, RetryCallState, stop_never

from helpdesk.degrade.backoff import FullJitterBackoff
from helpdesk.degrade.breaker import BreakerBoard, BreakerState
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.cache import LastGoodCache
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.degrade.context import LadderStep, PendingItem
from helpdesk.degrade.errors import (
    TRUNCATED_JSON,
    ErrorClass,
    Failure,
    FieldIssue,
    SchemaError,
    ToolInputError,
    TransientError,
    UnavailableError,
    classify_failure,
)
from helpdesk.degrade.failpoints import failpoint
from helpdesk.degrade.ladder import LadderOptions, plan_ladder
from helpdesk.degrade.throttle import ThrottleBoard
from helpdesk.tools.context import RequestContext, derive_idempotency_key
from helpdesk.tools.journal import (
    UNSETTLED,
    JournalEntry,
    JournalState,
    MemoryWriteJournal,
    WriteJournal,
    journal_args,
    journal_result,
)
from helpdesk.tools.registry import (
    INJECTED_PARAMS,
    PrecheckOutcome,
    ToolRegistry,
    ToolSpec,
    VerifyOutcome,
)
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus

__all__ = ["CallObserver", "CompensationFn", "Reconciled", "ResilientExecutor"]

log = logging.getLogger("helpdesk.tools")

CompensationFn = Callable[[ToolCall, str, str, RequestContext], Awaitable[str | None]]
"""``(call, idempotency_key, reason, ctx) -> ticket_id``: files a compensation ticket."""

_STAGE = "execute"
_LOAD_REFUSALS = frozenset({ErrorClass.UNAVAILABLE, ErrorClass.RATE_LIMITED})
"""Refusals that say the dependency would not take the request (503, 429): the throttle's
input, and an outage for the breaker only when the dependency serves nothing at all."""
BUDGET_EXHAUSTED = "budget_exhausted"
"""Failure code of a call that was never sent because the request's time was used up."""
COMPENSATION_TIMEOUT_S = 3.0
"""Seconds a compensation ticket may take (outside the spent request budget)."""
VERIFY_TIMEOUT_S = 3.0
"""Most seconds a lost write's verification may take (its own slice, outside the budget)."""
RECONCILE_TIMEOUT_S = 3.0
"""Seconds the start-of-turn reconciliation may spend verifying one earlier write."""
REPEAT_WINDOW_S = 24 * 3600.0
"""An identical money action within this window is asked about explicitly ("another one?")."""


@dataclass(frozen=True, slots=True)
class Reconciled:
    """An earlier write whose outcome the start of a turn established (or still could not)."""

    entry: JournalEntry
    state: JournalState
    """``executed``, ``not_executed``, ``refused`` or ``unknown``."""
    data: Any = None


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


@dataclass(frozen=True, slots=True)
class _CallRun:
    """One call in flight: what every step after a failure needs."""

    spec: ToolSpec
    call: ToolCall
    args: dict[str, Any]
    key: str | None
    ctx: RequestContext
    book: _Attempts


class _Attempts:
    """Book-keeping of one call's attempts, shared with the tenacity callbacks."""

    def __init__(self) -> None:
        self.count = 0
        self.failures: list[Failure] = []
        self.next_wait = 0.0
        self.waits: list[float] = []
        self.ladder: list[LadderStep] = []
        self.unsettled: Failure | None = None
        """The last attempt's failure, not yet told to the breaker (see ``_settle_breaker``)."""


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
        max_attempts: int = 3,
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
        book = _Attempts()
        result = await self._run(call, ctx, book)
        await self._settle(result)
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

    async def _run(self, call: ToolCall, ctx: RequestContext, book: _Attempts) -> ToolResult:
        spec = self.registry.get(call.name)
        if spec is None:
            return self._unknown_tool(call)
        try:
            args = self._validate_args(spec, call.args)
        except ToolInputError as exc:
            return _input_failure(call, spec, exc)
        if (spec.policy.needs_confirmation or call.ask_first) and not call.confirmed:
            return await self._ask_first(spec, call, args, ctx)
        key = self._idempotency_key(spec, call, args, ctx)
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
                )
            )
        failpoint("write.before_call", when=key is not None)  # crash drills
        self.retry_cap.record_primary()
        self.fallback_quota.record_primary()
        try:
            data = await self._attempt_with_retries(spec, args, key, ctx, book)
        except Exception as exc:
            failure = book.failures[-1] if book.failures else self._classify(spec, exc)
            run = _CallRun(spec=spec, call=call, args=args, key=key, ctx=ctx, book=book)
            return await self._after_failure(run, failure)
        failpoint("write.after_execute", when=key is not None)  # crash drills
        if spec.policy.kind == "read" and spec.policy.cache_ttl > 0:
            self.cache.put(spec.name, args, ctx.customer, data, ttl_s=spec.policy.cache_ttl)
        return ToolResult(
            call_id=call.id,
            tool=spec.name,
            status=ToolStatus.OK,
            data=data,
            attempts=book.count,
            ladder=tuple(book.ladder),
            idempotency_key=key,
        )

    async def run_many(self, calls: Sequence[ToolCall], ctx: RequestContext) -> list[ToolResult]:
        """Run a turn's independent calls: in parallel, or serially once the session has had
        ``serial_after`` consecutive rate-limited batches."""
        if not calls:
            return []
        before = ctx.rate_limited_seen
        if self._rate_limited_batches.get(ctx.session, 0) >= self.serial_after and len(calls) > 1:
            ctx.record(
                stage=_STAGE,
                target="*",
                action=LadderStep.SERIALIZE,
                reason=(
                    f"{self.serial_after} consecutive rate-limited batches in this session: "
                    "running calls one at a time"
                ),
                error_class=ErrorClass.RATE_LIMITED,
                at=self.clock.wall(),
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

    def check_call(self, call: ToolCall) -> ToolResult | None:
        """Name and argument checks without running anything: None when the call is valid, else
        the input failure with field-level issues (for a model's self-correction)."""
        spec = self.registry.get(call.name)
        if spec is None:
            return self._unknown_tool(call)
        try:
            self._validate_args(spec, call.args)
        except ToolInputError as exc:
            return _input_failure(call, spec, exc)
        return None

    def is_serialized(self, session: str) -> bool:
        return self._rate_limited_batches.get(session, 0) >= self.serial_after

    # ------------------------------------------------------------------ validation

    def _unknown_tool(self, call: ToolCall) -> ToolResult:
        valid = tuple(self.registry.names())
        issue = FieldIssue(path="name", message=f"unknown tool {call.name!r}", allowed=valid)
        return ToolResult(
            call_id=call.id,
            tool=call.name,
            status=ToolStatus.FAILED,
            error_class=ErrorClass.INPUT,
            reason=f"unknown tool {call.name!r}; valid tools: {', '.join(valid)}",
            issues=(issue.as_dict(),),
        )

    def _validate_args(self, spec: ToolSpec, raw: dict[str, Any]) -> dict[str, Any]:
        smuggled = sorted(k for k in raw if k in INJECTED_PARAMS)
        if smuggled:
            raise ToolInputError(
                f"{spec.name}: {', '.join(smuggled)} cannot be passed as arguments",
                issues=tuple(
                    FieldIssue(path=k, message="set by the session, not by the caller")
                    for k in smuggled
                ),
            )
        try:
            model = spec.args_model.model_validate(raw)
        except ValidationError as exc:
            issues = tuple(_issue_from_error(e) for e in exc.errors())
            summary = "; ".join(f"{i.path}: {i.message}" for i in issues)
            raise ToolInputError(
                f"{spec.name}: invalid arguments ({summary})", issues=issues
            ) from exc
        return model.model_dump()

    def _idempotency_key(
        self, spec: ToolSpec, call: ToolCall, args: dict[str, Any], ctx: RequestContext
    ) -> str | None:
        if not spec.policy.is_write:
            return None
        if call.action_id:
            return derive_idempotency_key(ctx.session, call.action_id, spec.name, args)
        turn = call.action_turn if call.action_turn is not None else ctx.turn
        return derive_idempotency_key(ctx.session, turn, spec.name, args)

    # ------------------------------------------------------------------ confirm-first

    async def _ask_first(
        self, spec: ToolSpec, call: ToolCall, args: dict[str, Any], ctx: RequestContext
    ) -> ToolResult:
        """A confirm-first action is not run: it is checked (can it happen at all? with exactly
        which arguments?) and returned as ``needs_confirmation`` with what to ask, or refused."""
        outcome = PrecheckOutcome()
        if spec.policy.precheck is not None:

            async def lookup(tool: str, lookup_args: dict[str, Any]) -> ToolResult:
                return await self.run(ToolCall(name=tool, args=lookup_args, id=call.id), ctx)

            outcome = await spec.policy.precheck(dict(args), lookup)
        if outcome.refusal is not None:
            code = str(outcome.refusal.get("code", "refused"))
            message = str(outcome.refusal.get("message", code))
            return ToolResult(
                call_id=call.id,
                tool=spec.name,
                status=ToolStatus.FAILED,
                error_class=ErrorClass(outcome.refusal.get("error_class", "business")),
                reason=f"{spec.name}: {message}",
                data={**outcome.refusal, "code": code, "message": message, "args": args},
            )
        asked = dict(outcome.args) if outcome.args is not None else args
        data: dict[str, Any] = {**(outcome.data or {}), "args": asked}
        previous = await self._same_action_recently(spec, asked, ctx)
        if previous is not None:
            data["previous"] = previous
        return ToolResult(
            call_id=call.id,
            tool=spec.name,
            status=ToolStatus.NEEDS_CONFIRMATION,
            data=data,
            reason=f"{spec.name} needs the customer's explicit confirmation",
        )

    async def _same_action_recently(
        self, spec: ToolSpec, args: dict[str, Any], ctx: RequestContext
    ) -> dict[str, Any] | None:
        """The same money action (same tool, same arguments) that took effect for this customer
        within :data:`REPEAT_WINDOW_S`: asked about explicitly, never silently repeated."""
        if spec.policy.kind != "money" or not ctx.customer:
            return None
        since = self.clock.wall() - REPEAT_WINDOW_S
        wanted = journal_args(args)
        for entry in reversed(await self.journal.executed_since(ctx.customer, spec.name, since)):
            if entry.args == wanted:
                return {"at": entry.settled_at or entry.started_at, "result": entry.result}
        return None

    # ------------------------------------------------------------------ the write journal

    async def _settle(self, result: ToolResult) -> None:
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
        await self.journal.settle(key, state, at=self.clock.wall(), result=journal_result(data))

    async def reconcile_session(self, session: str, customer: str | None) -> list[Reconciled]:
        """Find out what became of the session's writes whose outcome was never recorded (the
        process died after sending them, or their outcome was unknown), before anything else.

        Each is verified by its idempotency key with its own small time slice. Returns the
        writes whose outcome is now known, and those still unknown that the customer has not
        been told about yet.
        """
        found: list[Reconciled] = []
        for entry in await self.journal.to_report(session):
            if entry.state not in UNSETTLED:
                # settled, but the reply that would have said so was never published
                await self.journal.mark_reported(entry.key)
                found.append(Reconciled(entry=entry, state=entry.state, data=entry.result))
                continue
            spec = self.registry.get(entry.tool)
            outcome = VerifyOutcome(executed=None)
            if spec is not None and spec.policy.verify is not None:
                try:
                    async with self.clock.timeout(RECONCILE_TIMEOUT_S):
                        raw = spec.policy.verify(dict(entry.args), entry.key, customer)
                        outcome = await raw if inspect.isawaitable(raw) else raw
                except Exception as exc:
                    log.info("reconcile %s: verify failed: %r", entry.tool, exc)
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
            await self.journal.settle(
                entry.key, state, at=self.clock.wall(), result=journal_result(data)
            )
            if state == "unknown" and entry.reported:
                continue
            await self.journal.mark_reported(entry.key)
            found.append(Reconciled(entry=entry, state=state, data=outcome.data))
        return found

    async def mark_reported(self, results: Sequence[ToolResult]) -> None:
        """A published reply told the customer about these writes' outcomes."""
        for result in results:
            if result.idempotency_key is not None:
                await self.journal.mark_reported(result.idempotency_key)

    # ------------------------------------------------------------------ attempts

    def _classify(self, spec: ToolSpec, exc: BaseException) -> Failure:
        return classify_failure(exc, tool=spec.name, is_write=spec.policy.is_write)

    def _injected(self, spec: ToolSpec, key: str | None, ctx: RequestContext) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if "customer" in spec.injected:
            out["customer"] = ctx.customer
        if "idempotency_key" in spec.injected:
            out["idempotency_key"] = key
        return out

    async def _attempt(
        self,
        spec: ToolSpec,
        args: dict[str, Any],
        key: str | None,
        ctx: RequestContext,
        book: _Attempts | None = None,
    ) -> Any:
        """One attempt behind the breaker, within what is left of the request's time.

        With ``book``, a counted failure is left in ``book.unsettled`` for the retry decision
        to settle (:meth:`_settle_breaker`) instead of being recorded at once.
        """
        timeout = ctx.budget.call_timeout(spec.policy.timeout)
        if timeout <= 0:
            # Nothing is sent: not an unknown outcome, and not the dependency's fault.
            raise TransientError(
                f"{spec.name}: request budget exhausted before the call was sent",
                code=BUDGET_EXHAUSTED,
            )
        breaker = self.breakers.get(spec.name)
        if not breaker.try_acquire():
            raise UnavailableError(
                f"{spec.name}: circuit open (retry in {breaker.retry_after():.0f}s)"
            )
        throttle = self.throttles.get(spec.name)
        if not throttle.admit():
            breaker.record_ignored()
            ctx.rate_limited_seen += 1  # shed for the shop's load: the batch counts as limited
            raise UnavailableError(
                f"{spec.name}: shed by client-side throttling ({throttle.reject_probability():.0%}"
                f" of attempts: it refused most of what it got in the last"
                f" {throttle.policy.window_s:g}s)"
            )
        kwargs = {**args, **self._injected(spec, key, ctx)}
        started = self.clock.now()
        try:
            async with self.clock.timeout(timeout):
                if self.chaos is not None:
                    wrapped = self.chaos.wrap(spec.name, spec.invoke, is_write=spec.policy.is_write)
                    data = await wrapped(kwargs)
                else:
                    data = await spec.invoke(kwargs)
            data = self._validate_output(spec, data)
        except Exception as exc:
            failure = self._classify(spec, exc)
            refused_for_load = failure.error_class in _LOAD_REFUSALS
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
            if self.observer is not None:
                self.observer.attempt_finished(
                    tool=spec.name,
                    duration_s=self.clock.now() - started,
                    failure=failure,
                    ctx=ctx,
                )
            raise
        throttle.record(accepted=True)
        breaker.record_success()
        if self.observer is not None:
            self.observer.attempt_finished(
                tool=spec.name, duration_s=self.clock.now() - started, failure=None, ctx=ctx
            )
        return data

    def _validate_output(self, spec: ToolSpec, data: Any) -> Any:
        data = _parsed_json_text(spec, data)
        model = spec.policy.output
        if model is None:
            return data
        if data is None or data == {} or data == []:
            raise SchemaError(f"{spec.name}: empty response (no data)")
        try:
            model.model_validate(data)
        except ValidationError as exc:
            fields = ", ".join(
                ".".join(str(p) for p in e["loc"]) or "(root)" for e in exc.errors()[:5]
            )
            raise SchemaError(
                f"{spec.name}: response misses or nulls core fields: {fields}"
            ) from exc
        return data

    async def _attempt_with_retries(
        self,
        spec: ToolSpec,
        args: dict[str, Any],
        key: str | None,
        ctx: RequestContext,
        book: _Attempts,
    ) -> Any:
        def should_retry(state: RetryCallState) -> bool:
            retried = decide(state)
            self._settle_breaker(spec, book, retried=retried)
            return retried

        def decide(state: RetryCallState) -> bool:
            assert state.outcome is not None
            exc = state.outcome.exception()
            if exc is None:
                return False
            failure = self._classify(spec, exc)
            book.failures.append(failure)
            wait = self._retry_wait(spec, failure, key, state.attempt_number)
            if wait is None:
                return False
            if ctx.guard.entries >= ctx.guard.max_entries:
                # Degradation is merged per request: once the request is degraded, later
                # failures go down the ladder instead of each retrying on its own.
                self._note(
                    ctx,
                    spec.name,
                    failure,
                    LadderStep.RETRY,
                    f"no retry: the request is already degraded ({failure.reason})",
                )
                return False
            refused = self._grant_retry(ctx, wait)
            if refused is not None:
                self._note(
                    ctx,
                    spec.name,
                    failure,
                    LadderStep.RETRY,
                    f"no retry: {refused} ({failure.reason})",
                )
                return False
            book.next_wait = wait
            book.waits.append(wait)
            book.ladder.append(LadderStep.RETRY)
            self._note(
                ctx,
                spec.name,
                failure,
                LadderStep.RETRY,
                f"retry in {wait:.2f}s after {failure.reason}",
            )
            return True

        retrying = AsyncRetrying(
            sleep=self.clock.sleep,
            stop=stop_never,
            wait=lambda _state: book.next_wait,
            retry=should_retry,
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                book.count += 1
                return await self._attempt(spec, args, key, ctx, book)
        raise AssertionError(
            "unreachable: tenacity either returns or re-raises"
        )  # pragma: no cover

    def _settle_breaker(self, spec: ToolSpec, book: _Attempts, *, retried: bool) -> None:
        """Tell the breaker about the attempt that just failed: nothing about its health if
        a retry follows (it only releases a half-open permit), a failure if the call ends."""
        failure, book.unsettled = book.unsettled, None
        if failure is None:
            return
        breaker = self.breakers.get(spec.name)
        if retried:
            breaker.record_ignored()
        else:
            breaker.record_failure(failure.error_class, retry_after=failure.retry_after)

    def _grant_retry(self, ctx: RequestContext, wait: float) -> str | None:
        """Take one retry from the request's budget and the process-wide cap; the refusal
        reason (nothing taken from either) when one of them says no."""
        if not ctx.budget.can_retry(wait):
            return (
                f"request budget left {ctx.budget.remaining():.2f}s / "
                f"{ctx.budget.retries_left()} retries"
            )
        if not self.retry_cap.try_acquire():
            return "process retry ratio cap reached"
        if not ctx.budget.try_acquire_retry(wait):  # a parallel call took the last one
            self.retry_cap.refund()
            return f"request budget left {ctx.budget.retries_left()} retries"
        return None

    def _retry_wait(
        self, spec: ToolSpec, failure: Failure, key: str | None, attempt: int
    ) -> float | None:
        """Seconds to wait before retrying, or None when this failure must not be retried."""
        if attempt >= self.max_attempts:
            return None
        policy = spec.policy
        if policy.kind == "money":
            return None
        if policy.is_write and not (policy.is_idempotent and key):
            return None
        if failure.error_class is ErrorClass.RATE_LIMITED:
            # Honoured only when the server said how long; the budget decides if it fits.
            return failure.retry_after
        if failure.code == TRUNCATED_JSON and not policy.is_write:
            # A body cut off in transit: the same read, once, at once.
            return self.fast_retry_wait if attempt == 1 else None
        if failure.error_class is not ErrorClass.TRANSIENT:
            return None
        if isinstance(failure.cause, TimeoutError) or "timed out" in failure.reason:
            # A read that timed out is retried at once, not after a backoff: its timeout was
            # the wait. Up to max_attempts, each retry only while the request's budget (time
            # and retries, shared by the turn's calls) grants it.
            return self.fast_retry_wait
        return self.backoff.delay(attempt)

    def _note(
        self,
        ctx: RequestContext,
        target: str,
        failure: Failure | None,
        step: LadderStep,
        reason: str,
    ) -> None:
        ctx.record(
            stage=_STAGE,
            target=target,
            action=step,
            reason=reason,
            error_class=failure.error_class if failure else None,
            at=self.clock.wall(),
        )
        log.info("tool %s: %s: %s", target, step.value, reason)

    # ------------------------------------------------------------------ after failure

    async def _after_failure(self, run: _CallRun, failure: Failure) -> ToolResult:
        spec, call, key, book = run.spec, run.call, run.key, run.book
        base = {
            "call_id": call.id,
            "tool": spec.name,
            "attempts": book.count,
            "idempotency_key": key,
        }
        cls = failure.error_class
        if cls is ErrorClass.INPUT:
            return ToolResult(
                **base,
                status=ToolStatus.FAILED,
                error_class=cls,
                reason=failure.reason,
                issues=ToolResult.issues_of(failure.issues),
                ladder=tuple(book.ladder),
            )
        if cls is ErrorClass.BUSINESS:
            return ToolResult(
                **base,
                status=ToolStatus.FAILED,
                error_class=cls,
                reason=failure.reason,
                data={"code": failure.code, "message": failure.reason},
                ladder=tuple(book.ladder),
            )
        if spec.policy.is_write and cls in (ErrorClass.UNKNOWN_OUTCOME, ErrorClass.SCHEMA):
            # The write was sent and answered with something unreadable, or not answered:
            # it may have taken effect. Find out before saying anything.
            return await self._reconcile(run, failure)
        return await self._walk_ladder(run, failure)

    async def _walk_ladder(self, run: _CallRun, failure: Failure) -> ToolResult:
        spec, call, args, key, ctx, book = run.spec, run.call, run.args, run.key, run.ctx, run.book
        policy = spec.policy
        breaker = self.breakers.get(spec.name)
        cached = (
            self.cache.get(spec.name, args, ctx.customer)
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
        base = {
            "call_id": call.id,
            "tool": spec.name,
            "error_class": failure.error_class,
            "idempotency_key": key,
        }
        for step in steps:
            if step is not LadderStep.HANDOFF and not ctx.guard.try_descend(step):
                self._note(
                    ctx,
                    spec.name,
                    failure,
                    step,
                    f"skipped {step.value}: 3 ladder levels already used in this request",
                )
                continue
            if step is LadderStep.PARAMETER:
                simpler = policy.simplify(dict(args)) if policy.simplify else None
                if not simpler or simpler == args:
                    continue
                # one more call to the dependency: it draws from the same budgets as a retry
                if self._grant_retry(ctx, 0.0) is not None:
                    self._note(
                        ctx,
                        spec.name,
                        failure,
                        step,
                        "simplified retry skipped: no retry budget left",
                    )
                    continue
                book.ladder.append(step)
                try:
                    simple_args = self._validate_args(spec, simpler)
                    book.count += 1
                    data = await self._attempt(spec, simple_args, key, ctx)
                except Exception as exc:
                    second = self._classify(spec, exc)
                    self._note(
                        ctx,
                        spec.name,
                        failure,
                        step,
                        f"simplified arguments failed too: {second.reason}",
                    )
                    continue
                self._note(
                    ctx,
                    spec.name,
                    failure,
                    step,
                    f"answered with simplified arguments after {failure.reason}",
                )
                return ToolResult(
                    **base,
                    status=ToolStatus.DEGRADED,
                    data=data,
                    reason=failure.reason,
                    attempts=book.count,
                    ladder=tuple(book.ladder),
                )
            if step is LadderStep.DATA and cached is not None:
                book.ladder.append(step)
                ctx.mark_stale(spec.name, cached.age_s)
                self._note(
                    ctx,
                    spec.name,
                    failure,
                    step,
                    f"served last-good data {cached.age_s:.0f}s old after {failure.reason}",
                )
                return ToolResult(
                    **base,
                    status=ToolStatus.STALE,
                    data=cached.value,
                    reason=failure.reason,
                    age_s=cached.age_s,
                    attempts=book.count,
                    ladder=tuple(book.ladder),
                )
            if step is LadderStep.FUNCTION and policy.fallback is not None:
                result = self._run_fallback(spec, args, failure, ctx)
                if result is _NO_FALLBACK:
                    continue
                book.ladder.append(step)
                self._note(
                    ctx,
                    spec.name,
                    failure,
                    step,
                    f"answered by {spec.name}'s fallback after {failure.reason}",
                )
                return ToolResult(
                    **base,
                    status=ToolStatus.DEGRADED,
                    data=result,
                    reason=failure.reason,
                    attempts=book.count,
                    ladder=tuple(book.ladder),
                    fallback=True,
                )
            if step is LadderStep.CHAIN:
                book.ladder.append(step)
                _add_pending(ctx, call, spec, args, "dropped")
                self._note(
                    ctx,
                    spec.name,
                    failure,
                    step,
                    f"dropped non-core task {spec.name} after {failure.reason}",
                )
                return ToolResult(
                    **base,
                    status=ToolStatus.SKIPPED,
                    reason=failure.reason,
                    attempts=book.count,
                    ladder=tuple(book.ladder),
                )
            if step is LadderStep.HANDOFF:
                book.ladder.append(step)
                _add_pending(ctx, call, spec, args, "failed")
                self._note(
                    ctx,
                    spec.name,
                    failure,
                    step,
                    f"nothing else can answer {spec.name}; handing off: {failure.reason}",
                )
                break
        if LadderStep.HANDOFF not in book.ladder and policy.core:
            book.ladder.append(LadderStep.HANDOFF)
            _add_pending(ctx, call, spec, args, "failed")
            self._note(
                ctx,
                spec.name,
                failure,
                LadderStep.HANDOFF,
                f"ladder exhausted for {spec.name}; handing off: {failure.reason}",
            )
        return ToolResult(
            **base,
            status=ToolStatus.FAILED,
            reason=failure.reason,
            attempts=book.count,
            ladder=tuple(book.ladder),
        )

    def _run_fallback(
        self, spec: ToolSpec, args: dict[str, Any], failure: Failure, ctx: RequestContext
    ) -> Any:
        assert spec.policy.fallback is not None
        path = f"{spec.name}.fallback"
        breaker = self.breakers.get(path)
        if not self.fallback_quota.try_acquire():
            self._note(
                ctx,
                path,
                failure,
                LadderStep.FUNCTION,
                "fallback skipped: degrade-path quota reached",
            )
            return _NO_FALLBACK
        if not breaker.try_acquire():
            self._note(
                ctx, path, failure, LadderStep.FUNCTION, "fallback skipped: its circuit is open"
            )
            return _NO_FALLBACK
        try:
            data = spec.policy.fallback(dict(args), failure)
        except Exception as exc:
            breaker.record_failure(ErrorClass.UNAVAILABLE)
            self._note(ctx, path, failure, LadderStep.FUNCTION, f"fallback failed: {exc!r}")
            return _NO_FALLBACK
        breaker.record_success()
        return data

    async def _reconcile(self, run: _CallRun, failure: Failure) -> ToolResult:
        """A write's outcome is unknown: find out what happened before saying anything.

        Verify by the idempotency key; if it did not take effect and replaying is safe (an
        idempotent, non-money write with its key), replay once with the same key and verify
        again. What still cannot be established is reported as unknown with a compensation
        ticket.
        """
        spec, call, args, key, ctx, book = run.spec, run.call, run.args, run.key, run.ctx, run.book
        book.ladder.append(LadderStep.RECONCILE)
        base = {"call_id": call.id, "tool": spec.name, "idempotency_key": key}
        replayed = False
        while True:
            outcome = await self._verify(spec, args, key, ctx)
            if outcome.executed is None:
                return await self._unknown(run, failure)
            if outcome.refused:
                refusal = outcome.data if isinstance(outcome.data, dict) else {}
                self._note(
                    ctx,
                    spec.name,
                    failure,
                    LadderStep.RECONCILE,
                    f"verified it arrived and was refused (key {key}): never replayed",
                )
                return ToolResult(
                    **base,
                    status=ToolStatus.FAILED,
                    error_class=ErrorClass.BUSINESS,
                    reason=str(refusal.get("message") or f"{spec.name} was refused"),
                    data={"code": refusal.get("code", "refused"), **refusal},
                    attempts=book.count,
                    ladder=tuple(book.ladder),
                )
            if outcome.executed:
                self._note(
                    ctx,
                    spec.name,
                    failure,
                    LadderStep.RECONCILE,
                    f"verified it took effect (key {key}) after: {failure.reason}",
                )
                return ToolResult(
                    **base,
                    status=ToolStatus.OK,
                    data=outcome.data,
                    attempts=book.count,
                    ladder=tuple(book.ladder),
                )
            can_replay = (
                not replayed
                and spec.policy.kind != "money"
                and spec.policy.is_idempotent
                and key is not None
                and self._grant_retry(ctx, 0.0) is None
            )
            if not can_replay:
                self._note(
                    ctx,
                    spec.name,
                    failure,
                    LadderStep.RECONCILE,
                    f"verified it did not take effect: {failure.reason}",
                )
                return self._write_failed(run, failure)
            self._note(
                ctx,
                spec.name,
                failure,
                LadderStep.RECONCILE,
                f"verified it did not take effect; replaying once with key {key}",
            )
            replayed = True
            book.count += 1
            try:
                data = await self._attempt(spec, args, key, ctx)
            except Exception as exc:
                second = self._classify(spec, exc)
                if second.error_class not in (ErrorClass.UNKNOWN_OUTCOME, ErrorClass.SCHEMA):
                    return self._write_failed(run, second)
                failure = second
                continue
            return ToolResult(
                **base,
                status=ToolStatus.OK,
                data=data,
                attempts=book.count,
                ladder=tuple(book.ladder),
            )

    async def _verify(
        self, spec: ToolSpec, args: dict[str, Any], key: str | None, ctx: RequestContext
    ) -> VerifyOutcome:
        verify = spec.policy.verify
        if verify is None or key is None:
            return VerifyOutcome(executed=None)
        try:
            # Its own time slice: the lost write's own timeout has usually spent the request's
            # (a check cut off after 1 ms would report a done write as unknown).
            async with self.clock.timeout(min(spec.policy.timeout, VERIFY_TIMEOUT_S)):
                outcome = verify(dict(args), key, ctx.customer)
                if inspect.isawaitable(outcome):
                    outcome = await outcome
        except Exception as exc:
            log.info("tool %s: verify failed: %r", spec.name, exc)
            return VerifyOutcome(executed=None)
        return outcome

    async def _unknown(self, run: _CallRun, failure: Failure) -> ToolResult:
        spec, call, args, key, ctx, book = run.spec, run.call, run.args, run.key, run.ctx, run.book
        ticket_id: str | None = None
        if self.compensation is not None and key is not None:
            try:
                # its own small time slice: the request's may be spent by now
                async with self.clock.timeout(COMPENSATION_TIMEOUT_S):
                    ticket_id = await self.compensation(call, key, failure.reason, ctx)
            except Exception as exc:
                log.info("tool %s: compensation ticket failed: %r", spec.name, exc)
        _add_pending(ctx, call, spec, args, "unknown", ticket_id=ticket_id)
        self._note(
            ctx,
            spec.name,
            failure,
            LadderStep.HANDOFF,
            f"outcome unknown, could not be reconciled"
            f"{f'; compensation ticket {ticket_id}' if ticket_id else '; no ticket filed'}"
            f": {failure.reason}",
        )
        book.ladder.append(LadderStep.HANDOFF)
        return ToolResult(
            call_id=call.id,
            tool=spec.name,
            status=ToolStatus.UNKNOWN,
            error_class=ErrorClass.UNKNOWN_OUTCOME,
            reason=failure.reason,
            attempts=book.count,
            ladder=tuple(book.ladder),
            idempotency_key=key,
            ticket_id=ticket_id,
        )

    def _write_failed(self, run: _CallRun, failure: Failure) -> ToolResult:
        spec, call, args, key, ctx, book = run.spec, run.call, run.args, run.key, run.ctx, run.book
        if failure.error_class is ErrorClass.BUSINESS:
            return ToolResult(
                call_id=call.id,
                tool=spec.name,
                status=ToolStatus.FAILED,
                error_class=failure.error_class,
                reason=failure.reason,
                data={"code": failure.code, "message": failure.reason},
                attempts=book.count,
                ladder=tuple(book.ladder),
                idempotency_key=key,
            )
        _add_pending(ctx, call, spec, args, "failed")
        return ToolResult(
            call_id=call.id,
            tool=spec.name,
            status=ToolStatus.FAILED,
            error_class=failure.error_class,
            reason=failure.reason,
            attempts=book.count,
            ladder=tuple(book.ladder),
            idempotency_key=key,
        )


_NO_FALLBACK = object()


def _input_failure(call: ToolCall, spec: ToolSpec, exc: ToolInputError) -> ToolResult:
    """The result of a call refused for its arguments, with field-level issues."""
    return ToolResult(
        call_id=call.id,
        tool=spec.name,
        status=ToolStatus.FAILED,
        error_class=ErrorClass.INPUT,
        reason=exc.reason,
        issues=ToolResult.issues_of(exc.issues),
    )


def _add_pending(
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


def _issue_from_error(error: Any) -> FieldIssue:
    path = ".".join(str(p) for p in error.get("loc", ())) or "(arguments)"
    message = str(error.get("msg", "invalid"))
    ctx = error.get("ctx") or {}
    allowed: tuple[str, ...] = ()
    expected = ctx.get("expected")
    if isinstance(expected, str) and "'" in expected:
        allowed = tuple(
            part.strip().strip("'") for part in expected.replace(" or ", ",").split(",")
        )
        allowed = tuple(a for a in allowed if a)
    return FieldIssue(path=path, message=message, allowed=allowed)


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
