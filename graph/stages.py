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
answered: the caller falls to the minimal tier. The concrete stages only say how to build
messages and parse replies.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Generic, Literal, TypeVar, cast

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, ConfigDict, Field, create_model

from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import Clock
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import (
    ErrorClass,
    Failure,
    SchemaError,
    classify_failure,
)
from helpdesk.graph.intents import Intent
from helpdesk.graph.language import Lang
from helpdesk.graph.prompting import load_templates, render
from helpdesk.graph.tiers import ModelTier, TierRouter
from helpdesk.tools.context import RequestContext
from helpdesk.tools.packs import PackSet
from helpdesk.tools.results import ToolCall

__all__ = [
    "MIN_MODEL_CALL_S",
    "ChainResult",
    "CheckResult",
    "DecomposeResult",
    "IntentName",
    "PlannedTask",
    "StageOutcome",
    "check_with_tiers",
    "decompose_schema",
    "decompose_with_tiers",
    "fallback_on",
    "generate_with_tiers",
    "run_chain",
    "run_stage",
    "select_tools_with_tiers",
    "summarize_with_tiers",
]

T = TypeVar("T")

BuildMessages = Callable[[ModelTier, Mapping[str, str]], list[BaseMessage]]
"""Messages for one tier from that tier's templates of the stage."""
ParseReply = Callable[[ModelTier, AIMessage], T]
"""The stage's value from a reply; raise (SchemaError, ValueError, ValidationError) if unusable."""
BindModel = Callable[[ModelTier], Runnable[LanguageModelInput, BaseMessage]]
"""The runnable to call for a tier (e.g. the model with tools bound)."""


@dataclass(frozen=True, slots=True)
class StageOutcome(Generic[T]):
    """What a model stage produced and which tier produced it."""

    value: T
    tier: str
    """The tier that answered: ``primary`` or ``backup``."""
    attempts: list[tuple[str, str]] = field(default_factory=list)
    """(tier, reason) of every tier tried or skipped before the one that answered."""


# --- structured outputs -------------------------------------------------------------------------

_TEMPLATE_ONLY: Final = frozenset({Intent.CONFIRM_CHANGE, Intent.CONFIRM_UNCLEAR, Intent.PACK})
"""Intents only the template matcher reads (a changed or questioning answer, a pack request)."""

if TYPE_CHECKING:
    IntentName = str
else:
    IntentName = Literal[tuple(i.value for i in Intent if i not in _TEMPLATE_ONLY)]
"""The values of :class:`~helpdesk.graph.intents.Intent` a model may name, as a type a model
schema can carry."""


class PlannedTask(BaseModel):
    """One request found in the customer's message.

    The generic fields are declared here; the fields a request of a loaded pack carries (its
    :attr:`~helpdesk.tools.packs.Pack.request_fields`, such as an order number) are added by
    :func:`decompose_schema` for the model, and accepted as extra fields when built directly.
    """

    model_config = ConfigDict(frozen=True, extra="allow")

    intent: IntentName | str
    """A built-in intent or a loaded pack's intent name (anything else is read as unknown)."""
    quantity: int | None = None
    topic: str | None = None
    amount: float | None = None
    details: str | None = None

    def request_args(self) -> dict[str, Any]:
        """The pack-declared fields of the request (those the generic ones leave out)."""
        return {k: v for k, v in self.model_dump().items() if k not in PlannedTask.model_fields}

    def _asked(self) -> tuple[Any, ...]:
        request = sorted((k, repr(v)) for k, v in self.request_args().items() if v is not None)
        return (self.intent, self.quantity, self.topic, self.amount, self.details, *request)

    def __eq__(self, other: object) -> bool:
        """Equal when both ask the same (whether the pack fields were declared or extra)."""
        if not isinstance(other, PlannedTask):
            return NotImplemented
        return self._asked() == other._asked()

    def __hash__(self) -> int:
        return hash(self._asked())


class DecomposeResult(BaseModel):
    """The requests in the customer's message, in the order asked."""

    tasks: list[PlannedTask] = Field(min_length=1)


def decompose_schema(packs: PackSet) -> type[DecomposeResult]:
    """The decomposition schema a model fills: :class:`DecomposeResult` whose tasks carry the
    loaded packs' request fields (each an optional string)."""
    return _decompose_schema(packs.request_fields())


@functools.lru_cache(maxsize=16)
def _decompose_schema(request_fields: tuple[str, ...]) -> type[DecomposeResult]:
    if not request_fields:
        return DecomposeResult
    fields: dict[str, Any] = {name: (str | None, None) for name in request_fields}
    task = create_model("PlannedTask", __base__=PlannedTask, **fields)
    result: type[DecomposeResult] = create_model(
        "DecomposeResult",
        __base__=DecomposeResult,
        tasks=(list[task], Field(min_length=1)),
    )
    return result


class CheckResult(BaseModel):
    """Whether a draft reply answers every request of the customer's message."""

    model_config = ConfigDict(frozen=True)

    answered_all: bool
    missing: list[str] = Field(default_factory=list)


# --- reply checks -------------------------------------------------------------------------------

# Matching logic, not text shown to anyone: a reply whose first sentence is nothing but a refusal
# ("I'm sorry, but I can't help with that."). An apology about the shop ("Sorry, we can't cancel
# order 100123 because it has shipped.") is an answer, not a refusal, and must not match.
_REFUSAL: Final = re.compile(
    r"\W*(?:(?:i'?m|i am|we'?re|we are)\s+(?:very\s+|really\s+|so\s+)?sorry|sorry|apologies)?"
    r"[,.!]?\s*(?:but\s+)?(?:i|we)\s*(?:can(?:no|')t|can not|am unable to|'m unable to|won'?t|"
    r"am not able to|'m not able to)\s+(?:help|assist|comply|fulfil+|do that)"
    r"(?:\s+(?:you|with|that|this|the|your|request|it|here))*\W*"
    r"|\W*(?:很抱歉|抱歉|对不起|不好意思)?[，,。！!\s]*(?:但)?我(?:无法|不能|没法|不可以)"
    r"(?:协助|帮助|帮忙|回答|满足|处理){1,2}(?:你|您)?(?:的)?(?:这个|该|此|这)?(?:请求|问题|要求)?\W*",
    re.IGNORECASE,
)
_FIRST_SENTENCE: Final = re.compile(r"^.*?(?:[.!?。！？]|$)", re.DOTALL)
_REFUSAL_MAX_CHARS: Final = 200


def _is_refusal_text(text: str) -> bool:
    first = _FIRST_SENTENCE.match(text)
    return (
        len(text) <= _REFUSAL_MAX_CHARS
        and first is not None
        and _REFUSAL.fullmatch(first.group(0).strip()) is not None
    )


def _refusal_of(message: AIMessage) -> str | None:
    refusal = message.additional_kwargs.get("refusal")
    if refusal:
        return str(refusal)
    if isinstance(message.content, list):
        for block in message.content:
            if isinstance(block, dict) and block.get("type") == "refusal":
                return str(block.get("refusal") or "refused")
    text = message.text.strip()
    if not message.tool_calls and _is_refusal_text(text):
        return text[:120]
    return None


def _check_reply(tier: ModelTier, message: BaseMessage) -> AIMessage:
    """The reply as an AIMessage, or a SchemaError for empty / refused / invalid tool calls."""
    who = f"model:{tier.name}"
    if not isinstance(message, AIMessage):
        raise SchemaError(f"{who}: reply is a {type(message).__name__}, not an AI message")
    refusal = _refusal_of(message)
    if refusal is not None:
        raise SchemaError(f"{who}: refused ({refusal})", code="refusal")
    if message.invalid_tool_calls:
        bad = ", ".join(
            f"{c.get('name') or '?'}: {c.get('error') or 'invalid arguments'}"
            for c in message.invalid_tool_calls
        )
        raise SchemaError(f"{who}: invalid tool-call JSON ({bad})", code="invalid_tool_call")
    if not message.text.strip() and not message.tool_calls:
        raise SchemaError(f"{who}: empty response", code="empty")
    return message


_PROGRAMMING_ERRORS: Final = (
    AssertionError,
    AttributeError,
    IndexError,
    KeyError,
    NameError,
    TypeError,
)


#: Packages a model call runs through: a ``TypeError`` raised inside them while reading an answer
#: means the answer was malformed (``choices: null``), not that our code is wrong.
_CLIENT_PACKAGES: Final = frozenset(
    {
        "anyio",
        "httpcore",
        "httpx",
        "httpx2",
        "json",
        "langchain_core",
        "langchain_openai",
        "openai",
        "pydantic",
        "pydantic_core",
    }
)


def _raised_by_client(exc: BaseException) -> bool:
    tb = exc.__traceback__
    if tb is None:
        return True  # built, not raised: nothing says it is ours
    module = ""
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        tb = tb.tb_next
    return module.split(".")[0] in _CLIENT_PACKAGES


def fallback_on(exc: BaseException) -> bool:
    """Whether a tier's failure should fall through to the next tier.

    Everything a model, its client or its transport can do wrong does (an outage, a timeout, a
    malformed or unparsable answer — the OpenAI client raises ``TypeError`` reading a body with
    ``choices: null``). A programming error (``KeyError``, ``TypeError``, ``AttributeError``...)
    raised in our own code — a stage's parser, a message builder, a pack's hook — does not: it
    is a bug, and it surfaces instead of turning into a "schema" failure.
    """
    return not (isinstance(exc, _PROGRAMMING_ERRORS) and not _raised_by_client(exc))


def _classify(exc: BaseException, tier: ModelTier) -> Failure:
    who = f"model:{tier.name}"
    if isinstance(exc, _PROGRAMMING_ERRORS) and not (
        _is_pydantic_error(exc) or isinstance(exc, json.JSONDecodeError)
    ):
        # Raised by the client while reading a 200 whose body is not a chat completion
        # (no choices, null choices, an error object): a malformed answer, not an outage.
        wrapped = SchemaError(f"{who}: malformed response ({type(exc).__name__}: {exc})")
        wrapped.__cause__ = exc
        return classify_failure(wrapped, tool=who)
    failure = classify_failure(exc, tool=who)
    if not failure.reason.startswith(who):
        # Raised by a stage's parser, which does not know the tier.
        failure = dataclasses.replace(failure, reason=f"{who}: {failure.reason}")
    return failure


def _is_pydantic_error(exc: BaseException) -> bool:
    return type(exc).__name__ == "ValidationError" and type(exc).__module__.startswith("pydantic")


# --- the loop -----------------------------------------------------------------------------------


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


# --- message building ---------------------------------------------------------------------------


def _messages(templates: Mapping[str, str], **values: Any) -> list[BaseMessage]:
    return [
        SystemMessage(render(templates["system"], **values)),
        HumanMessage(render(templates["user"], **values)),
    ]


def _with_retry(templates: Mapping[str, str], **values: Any) -> list[BaseMessage]:
    return [*_messages(templates, **values), HumanMessage(render(templates["retry"], **values))]


def _as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


_FENCE: Final = re.compile(r"^```(?:json)?\s*|\s*```$")

S = TypeVar("S", bound=BaseModel)


def _structured(schema: type[S], message: AIMessage) -> S:
    """The ``schema`` call's arguments, or a JSON object in the text (local models do that)."""
    for call in message.tool_calls:
        if call["name"] == schema.__name__:
            return schema.model_validate(call["args"])
    text = _FENCE.sub("", message.text.strip())
    if text.startswith("{"):
        return schema.model_validate_json(text)
    raise SchemaError(f"reply has no {schema.__name__} call and no JSON object")


def _bind_structured(schema: type[BaseModel]) -> BindModel:
    def bind(tier: ModelTier) -> Runnable[LanguageModelInput, BaseMessage]:
        return tier.model.bind_tools([schema], tool_choice=schema.__name__)

    return bind


# --- concrete stages ----------------------------------------------------------------------------


async def decompose_with_tiers(
    router: TierRouter,
    text: str,
    lang: Lang,
    facts: Mapping[str, Any],
    ctx: RequestContext,
    clock: Clock,
    packs: PackSet,
) -> StageOutcome[list[PlannedTask]] | None:
    """Split the customer's message into tasks with a model (structured output; the tasks
    carry the loaded packs' request fields, :func:`decompose_schema`). The prompt names the
    loaded packs' intents with their meaning and an example (:meth:`PackSet.intent_catalog`):
    a pack's capability is offered to the models without a prompt edit."""
    values = {
        "text": text,
        "facts": _as_json(dict(facts)),
        "intents": packs.intent_catalog(lang) or "-",
        "fields": ", ".join(packs.request_fields()) or "-",
    }
    schema = decompose_schema(packs)

    def parse(tier: ModelTier, message: AIMessage) -> list[PlannedTask]:
        return list(_structured(schema, message).tasks)

    return await run_stage(
        router,
        "decompose",
        lang,
        ctx,
        build=lambda tier, t: _messages(t, **values),
        retry_build=lambda tier, t: _with_retry(t, **values),
        parse=parse,
        bind=_bind_structured(schema),
        clock=clock,
    )


def _function_of(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The ``{name, description, parameters}`` part of an OpenAI tool (either shape)."""
    inner = schema.get("function", schema)
    if not isinstance(inner, Mapping) or "name" not in inner:
        raise ValueError(f"not an OpenAI tool schema: {schema!r}")
    return dict(inner)


def _argument_summary(parameters: Mapping[str, Any]) -> str:
    properties: Mapping[str, Any] = parameters.get("properties", {})
    required = set(parameters.get("required", ()))
    return _as_json(
        {
            name: str(prop.get("type", "any")) + ("" if name in required else ", optional")
            for name, prop in properties.items()
            if isinstance(prop, Mapping)
        }
    )


async def select_tools_with_tiers(
    router: TierRouter,
    text: str,
    lang: Lang,
    tool_schemas: Sequence[Mapping[str, Any]],
    ctx: RequestContext,
    clock: Clock,
    *,
    feedback: str = "",
) -> StageOutcome[list[ToolCall]] | None:
    """Pick the tool calls for the message with ``bind_tools``; an empty list means none needed.

    Tool names are returned as the model gave them: argument and name checks (and the bounded
    self-correction they trigger) belong to the caller, which passes the field-level problems
    of the previous round as ``feedback``.
    """
    functions = [_function_of(s) for s in tool_schemas]
    tools = [
        convert_to_openai_tool({**f, "parameters": f.get("parameters", {})}) for f in functions
    ]

    def build(tier: ModelTier, templates: Mapping[str, str]) -> list[BaseMessage]:
        lines = "\n".join(
            render(
                templates["tool_line"],
                name=f["name"],
                description=f.get("description", ""),
                arguments=_argument_summary(f.get("parameters", {})),
            )
            for f in functions
        )
        messages = _messages(templates, text=text, tools=lines)
        if feedback:
            messages.append(HumanMessage(render(templates["correction"], issues=feedback)))
        return messages

    def bind(tier: ModelTier) -> Runnable[LanguageModelInput, BaseMessage]:
        return tier.model.bind_tools(tools)

    def parse(tier: ModelTier, message: AIMessage) -> list[ToolCall]:
        return [
            ToolCall(name=c["name"], args=dict(c["args"]), id=c.get("id") or f"call_{i}")
            for i, c in enumerate(message.tool_calls)
        ]

    return await run_stage(
        router, "select_tool", lang, ctx, build=build, parse=parse, bind=bind, clock=clock
    )


async def _text_stage(
    router: TierRouter,
    stage: str,
    lang: Lang,
    ctx: RequestContext,
    clock: Clock,
    **values: str,
) -> StageOutcome[str] | None:
    """A stage whose answer is plain text, built from the tier's templates and ``values``."""

    def parse(tier: ModelTier, message: AIMessage) -> str:
        return message.text.strip()

    return await run_stage(
        router,
        stage,
        lang,
        ctx,
        build=lambda tier, t: _messages(t, **values),
        parse=parse,
        clock=clock,
    )


async def generate_with_tiers(
    router: TierRouter,
    facts_for_reply: str,
    lang: Lang,
    ctx: RequestContext,
    clock: Clock,
) -> StageOutcome[str] | None:
    """Write the customer's reply from the facts (JSON of tasks, results and degrade notes)."""
    return await _text_stage(router, "generate", lang, ctx, clock, facts=facts_for_reply)


async def summarize_with_tiers(
    router: TierRouter,
    conversation: str,
    lang: Lang,
    ctx: RequestContext,
    clock: Clock,
) -> StageOutcome[str] | None:
    """Condense the older part of a conversation (compaction's summary, model-written)."""
    return await _text_stage(router, "summarize", lang, ctx, clock, text=conversation)


async def check_with_tiers(
    router: TierRouter,
    question: str,
    draft: str,
    facts_for_reply: str,
    lang: Lang,
    ctx: RequestContext,
    clock: Clock,
) -> StageOutcome[CheckResult] | None:
    """Ask a model whether ``draft`` answers every request of ``question`` (structured)."""
    values = {"question": question, "draft": draft, "facts": facts_for_reply}

    def parse(tier: ModelTier, message: AIMessage) -> CheckResult:
        return _structured(CheckResult, message)

    return await run_stage(
        router,
        "check",
        lang,
        ctx,
        build=lambda tier, t: _messages(t, **values),
        retry_build=lambda tier, t: _with_retry(t, **values),
        parse=parse,
        bind=_bind_structured(CheckResult),
        clock=clock,
    )
