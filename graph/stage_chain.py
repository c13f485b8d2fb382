"""Model stages over tiers: try primary, then backup, each with its own prompts, inside the budget.

:func:`run_chain` is the one loop every model stage goes through, shaped like a fallback chain
(pydantic-ai's ``FallbackModel``). For each configured tier in order it skips tiers whose
:class:`~helpdesk.degrade.breaker.CircuitBreaker` refuses (open, half-open and not admitted,
holding for a Retry-After), tiers that already failed like an outage earlier in this request
(a hung tier costs one timeout per turn), and the backup past its quota; builds the messages
from *that tier's* templates (``prompts/<tier>/<stage>.<lang>.yaml``) outside any ``try``; calls
the model with the timeout the tier's observed latency earns (:meth:`TierHealth.call_timeout`),
cut only by the request's deadline; and checks the reply. Failures that :func:`fallback_on`
accepts — transport and HTTP failures (classified by
:func:`~helpdesk.degrade.errors.classify_failure`), an empty reply, a refusal, invalid tool-call
JSON, a reply the stage cannot parse (``schema``; structured stages retry once on the same tier
with a simplified instruction when the budget grants it) — fall through to the next tier and
are collected as causes; a programming error raised in helpdesk's own code is re-raised. Every
switch away from a tier is a ``LadderStep.MODEL`` event in the request's DegradeContext and
every outcome feeds the tier's breaker. :func:`run_stage` returns None when no model tier
answered: the caller falls to the minimal tier. Which failures fall through and how they are
classified is :mod:`helpdesk.graph.model_failures`; the concrete stages
(:mod:`helpdesk.graph.stages`) only say how to build messages and parse replies.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from contextlib import nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Generic, TypeAlias, TypeVar, cast

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable

from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import Clock
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass, Failure, SchemaError
from helpdesk.graph.language import Lang
from helpdesk.graph.model_failures import _check_reply, _classify, fallback_on
from helpdesk.graph.prompting import load_templates
from helpdesk.graph.tiers import ModelTier, TierRouter
from helpdesk.tools.context import RequestContext

if TYPE_CHECKING:  # langchain's model classes cost ~35 ms to import; no model, no import
    from langchain_core.language_models import LanguageModelInput


__all__ = [
    "MIN_MODEL_CALL_S",
    "Abandon",
    "BindModel",
    "BuildMessages",
    "ChainResult",
    "ParseReply",
    "StageOutcome",
    "abandon_scope",
    "abandoned",
    "run_chain",
    "run_stage",
]

T = TypeVar("T")

BuildMessages = Callable[[ModelTier, Mapping[str, str]], list[BaseMessage]]
"""Messages for one tier from that tier's templates of the stage."""
ParseReply = Callable[[ModelTier, AIMessage], T]
"""The stage's value from a reply; raise (SchemaError, ValueError, ValidationError) if unusable."""
BindModel: TypeAlias = "Callable[[ModelTier], Runnable[LanguageModelInput, BaseMessage]]"
"""The runnable to call for a tier (e.g. the model with tools bound)."""


@dataclass(frozen=True, slots=True)
class StageOutcome(Generic[T]):
    """What a model stage produced and which tier produced it."""

    value: T
    tier: str
    """The tier that answered: ``primary`` or ``backup``."""
    attempts: list[tuple[str, str]] = field(default_factory=list)
    """(tier, reason) of every tier tried or skipped before the one that answered."""


async def _invoke(
    tier: ModelTier,
    runnable: Runnable[LanguageModelInput, BaseMessage],
    messages: list[BaseMessage],
    limit_s: float,
    clock: Clock,
    chaos: ChaosPlan | None = None,
) -> BaseMessage:
    # The client's own timeout is cut to the budget too, so a hung socket is closed by the
    # transport; the clock's deadline covers models without one.
    kwargs: dict[str, Any] = {"timeout": limit_s} if _is_openai_client(tier.model) else {}
    async with clock.timeout(limit_s):
        if chaos is not None:
            # Drills: faults injected into this tier's calls, classified like real ones.
            call = chaos.wrap(f"model:{tier.name}", runnable.ainvoke)
            reply = await call(messages, **kwargs)
            if not isinstance(reply, BaseMessage):
                raise SchemaError(f"model:{tier.name}: empty response (no message)")
            return reply
        return await runnable.ainvoke(messages, **kwargs)


def _is_openai_client(model: object) -> bool:
    # By class name, so a process without a model tier never imports langchain_openai.
    return any(
        cls.__name__ == "BaseChatOpenAI" and cls.__module__.startswith("langchain_openai")
        for cls in type(model).__mro__
    )


class Abandon:
    """Set when nobody waits for a chain's answer any more (:mod:`helpdesk.graph.first_round`):
    the tier being called finishes its call — its health and latency are still learned — but no
    further tier is tried."""

    __slots__ = ("_set",)

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        self._set = True

    def is_set(self) -> bool:
        return self._set


_ABANDON: ContextVar[Abandon | None] = ContextVar("helpdesk_chain_abandon", default=None)


async def abandon_scope(flag: Abandon, work: Awaitable[T]) -> T:
    """Await ``work`` with ``flag`` as the chains' abandon flag (run it in a task of its own:
    the flag belongs to that task's context)."""
    _ABANDON.set(flag)
    return await work


def abandoned() -> bool:
    """Whether the running chain's answer is no longer awaited."""
    flag = _ABANDON.get()
    return flag is not None and flag.is_set()


MIN_MODEL_CALL_S: Final = 0.05
"""Below this much time left in the request, a tier is not called at all."""

#: Failure classes after which a tier is skipped for the rest of the request: one hung or
#: refusing tier costs one timeout per turn, not one per stage. A malformed answer (schema) is
#: about one prompt, so the next stage still tries the tier.
_SKIP_FOR_REQUEST: Final = frozenset(
    {ErrorClass.TRANSIENT, ErrorClass.UNAVAILABLE, ErrorClass.RATE_LIMITED, ErrorClass.AUTH}
)


@dataclass
class _Attempt(Generic[T]):
    value: T | None = None
    ok: bool = False
    failure: Failure | None = None
    budget_spent: bool = False
    seconds: float = 0.0


def _failed_earlier(ctx: RequestContext, tier: ModelTier) -> ErrorClass | None:
    """The class of this tier's outage-like failure earlier in the request, if any."""
    target = f"model:{tier.name}"
    for event in ctx.degrade.events:
        if (
            event.target == target
            and event.action is LadderStep.MODEL
            and event.error_class in _SKIP_FOR_REQUEST
        ):
            return event.error_class
    return None


async def _try_tier(
    router: TierRouter,
    tier: ModelTier,
    stage: str,
    messages: list[BaseMessage],
    ctx: RequestContext,
    clock: Clock,
    *,
    parse: ParseReply[T],
    runnable: Runnable[LanguageModelInput, BaseMessage],
    retry_messages: Callable[[], list[BaseMessage]] | None,
    fallback_on: Callable[[BaseException], bool],
) -> _Attempt[T]:
    observer = router.observer
    retried = False
    while True:
        # The tier's learned timeout for this stage, cut only by the request's deadline.
        timeout = min(router.health.call_timeout(tier, stage), ctx.budget.remaining())
        if timeout <= MIN_MODEL_CALL_S:
            return _Attempt(budget_spent=True)
        started = clock.now()
        try:
            span = observer.model_call(tier.name, stage=stage) if observer else nullcontext()
            with span:
                message = await _invoke(tier, runnable, messages, timeout, clock, router.chaos)
            seconds = clock.now() - started
            reply = _check_reply(tier, message)
            return _Attempt(value=parse(tier, reply), ok=True, seconds=seconds)
        except Exception as exc:
            if not fallback_on(exc):
                raise
            failure = _classify(exc, tier)
        if (
            failure.error_class is ErrorClass.SCHEMA
            and failure.code != "refusal"
            and retry_messages is not None
            and not retried
            and not abandoned()
            and ctx.budget.try_acquire_retry(0)
        ):
            retried = True
            ctx.record(
                stage=stage,
                target=f"model:{tier.name}",
                action=LadderStep.RETRY,
                reason=f"{failure.reason}; retrying once with a simplified instruction",
                error_class=failure.error_class,
                at=clock.wall(),
            )
            messages = retry_messages()
            continue
        return _Attempt(failure=failure)


@dataclass(frozen=True, slots=True)
class ChainResult(Generic[T]):
    """What a fallback chain over the tiers produced: a value from one tier, or every cause."""

    outcome: StageOutcome[T] | None
    causes: list[Failure] = field(default_factory=list)
    """Every failure met on the way, in order (empty when the first tier answered)."""


async def run_chain(
    router: TierRouter,
    stage: str,
    lang: Lang,
    ctx: RequestContext,
    *,
    build: BuildMessages,
    parse: ParseReply[T],
    clock: Clock,
    bind: BindModel | None = None,
    retry_build: BuildMessages | None = None,
    fallback_on: Callable[[BaseException], bool] = fallback_on,
) -> ChainResult[T]:
    """The tiers as a fallback chain: the first that answers wins; failures the predicate
    accepts fall through (causes collected), anything else — a bug — is raised.

    Messages are built outside the ``try`` (a bug there raises). Each tier is skipped when its
    breaker refuses (open, half-open and not admitted, or holding for a Retry-After), when it
    failed like an outage earlier in this request, or when the backup quota is used.
    """
    router.record_request()
    attempts: list[tuple[str, str]] = []
    causes: list[Failure] = []

    def switch(tier: ModelTier, reason: str, error_class: ErrorClass | None) -> None:
        attempts.append((tier.name, reason))
        ctx.record(
            stage=stage,
            target=f"model:{tier.name}",
            action=LadderStep.MODEL,
            reason=reason,
            error_class=error_class,
            at=clock.wall(),
        )

    health = router.health
    for tier in router.tiers:
        if abandoned():
            break  # nobody reads this answer any more: no other tier is asked for it
        earlier = _failed_earlier(ctx, tier)
        if earlier is not None:
            switch(tier, f"model:{tier.name}: failed earlier in this turn ({earlier})", None)
            continue
        if not health.try_acquire(tier.name):
            wait = health.breaker(tier.name).retry_after()
            switch(
                tier,
                f"model:{tier.name}: marked down by health checks (retry in {wait:.0f}s)",
                None,
            )
            continue
        refused = router.admit(tier)
        if refused is not None:
            health.release(tier.name)
            switch(tier, refused, None)
            break
        templates = load_templates(tier.name, stage, lang)
        messages = build(tier, templates)
        runnable: Runnable[LanguageModelInput, BaseMessage] = bind(tier) if bind else tier.model
        retry_messages = (
            (lambda tier=tier, templates=templates: retry_build(tier, templates))
            if retry_build is not None
            else None
        )
        try:
            attempt = await _try_tier(
                router,
                tier,
                stage,
                messages,
                ctx,
                clock,
                parse=parse,
                runnable=runnable,
                retry_messages=retry_messages,
                fallback_on=fallback_on,
            )
        except BaseException:
            health.release(tier.name)
            raise
        if attempt.ok:
            health.record_success(tier.name, stage, attempt.seconds)
            outcome = StageOutcome(value=cast(T, attempt.value), tier=tier.name, attempts=attempts)
            return ChainResult(outcome, causes)
        if attempt.budget_spent:
            health.release(tier.name)
            switch(tier, f"model:{tier.name}: request budget spent, no time left for a call", None)
            break
        failure = attempt.failure
        assert failure is not None
        causes.append(failure)
        health.record_failure(tier.name, failure)
        switch(tier, failure.reason, failure.error_class)
    return ChainResult(None, causes)


async def run_stage(
    router: TierRouter,
    stage: str,
    lang: Lang,
    ctx: RequestContext,
    *,
    build: BuildMessages,
    parse: ParseReply[T],
    clock: Clock,
    bind: BindModel | None = None,
    retry_build: BuildMessages | None = None,
) -> StageOutcome[T] | None:
    """Run one model stage on the first tier that answers; None when every model tier failed.

    Args:
        router: the tiers, their health and the backup quota.
        stage: the prompt stage (``decompose``, ``select_tool``, ``generate``, ``check``).
        lang: language of the templates.
        ctx: the request: its budget bounds every call, its DegradeContext gets the events.
        build: messages for a tier from its templates.
        parse: the stage's value from a checked reply.
        clock: time source for timeouts and event times.
        bind: the runnable to call per tier (tools bound); default the tier's model.
        retry_build: simplified messages for one retry on the same tier after a schema
            failure (malformed or unparsable output), granted by ``ctx.budget``.
    """
    result = await run_chain(
        router,
        stage,
        lang,
        ctx,
        build=build,
        parse=parse,
        clock=clock,
        bind=bind,
        retry_build=retry_build,
    )
    return result.outcome
