"""Model stages over tiers: try primary, then backup, each with its own prompts, inside the budget.

:func:`run_stage` is the one loop every model stage goes through. For each configured tier in
order it skips tiers marked down by :class:`~helpdesk.graph.tiers.TierHealth`, asks the router
for a backup quota slot, builds the messages from *that tier's* templates
(``prompts/<tier>/<stage>.<lang>.yaml``), calls the model with a timeout cut by the request's
:class:`~helpdesk.degrade.budget.RetryBudget`, and checks the reply: transport and HTTP failures
are classified by :func:`~helpdesk.degrade.errors.classify_failure`; an empty reply, a refusal,
invalid tool-call JSON or a reply the stage cannot parse is a ``schema`` failure (structured
stages retry once on the same tier with a simplified instruction when the budget grants it).
Every switch away from a tier is a ``LadderStep.MODEL`` event in the request's DegradeContext
and every outcome feeds the tier's health. ``None`` means no model tier answered: the caller
falls to the minimal tier. The concrete stages — :func:`decompose_with_tiers`,
:func:`select_tools_with_tiers`, :func:`generate_with_tiers`, :func:`check_with_tiers` — only
say how to build messages and parse replies.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Literal, TypeVar, cast

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from langchain_openai.chat_models.base import BaseChatOpenAI
from pydantic import BaseModel, ConfigDict, Field

from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import Clock
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import (
    BREAKER_IGNORED,
    ErrorClass,
    Failure,
    SchemaError,
    classify_failure,
)
from helpdesk.graph.language import Lang
from helpdesk.graph.prompting import load_templates, render
from helpdesk.graph.tiers import ModelCallObserver, ModelTier, TierRouter
from helpdesk.tools.context import RequestContext
from helpdesk.tools.results import ToolCall

__all__ = [
    "MODEL_CALL_BUDGET_SHARE",
    "CheckResult",
    "DecomposeResult",
    "IntentName",
    "PlannedTask",
    "StageOutcome",
    "check_with_tiers",
    "decompose_with_tiers",
    "generate_with_tiers",
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

IntentName = Literal[
    "order_status",
    "list_orders",
    "tracking",
    "stock",
    "create_ticket",
    "cancel_order",
    "refund",
    "handoff",
    "faq",
    "greeting",
    "thanks",
    "confirm_yes",
    "confirm_no",
    "unknown",
]
"""The values of :class:`~helpdesk.graph.intents.Intent`, as a type a model schema can carry."""


class PlannedTask(BaseModel):
    """One request found in the customer's message."""

    model_config = ConfigDict(frozen=True)

    intent: IntentName | str
    """A built-in intent or a loaded pack's intent name (anything else is read as unknown)."""
    order_id: str | None = None
    sku: str | None = None
    quantity: int | None = None
    topic: str | None = None
    amount: float | None = None
    details: str | None = None


class DecomposeResult(BaseModel):
    """The requests in the customer's message, in the order asked."""

    tasks: list[PlannedTask] = Field(min_length=1)


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


def _classify(exc: BaseException, tier: ModelTier) -> Failure:
    who = f"model:{tier.name}"
    if isinstance(exc, IndexError | KeyError | TypeError | ValueError | AttributeError) and not (
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
    kwargs: dict[str, Any] = {"timeout": limit_s} if isinstance(tier.model, BaseChatOpenAI) else {}
    async with clock.timeout(limit_s):
        if chaos is not None:
            # Drills: faults injected into this tier's calls, classified like real ones.
            call = chaos.wrap(f"model:{tier.name}", runnable.ainvoke)
            reply = await call(messages, **kwargs)
            if not isinstance(reply, BaseMessage):
                raise SchemaError(f"model:{tier.name}: empty response (no message)")
            return reply
        return await runnable.ainvoke(messages, **kwargs)


MODEL_CALL_BUDGET_SHARE: Final = 0.4
"""Fraction of the request's remaining time one model call may use."""
_MIN_MODEL_CALL_S: Final = 0.05


@dataclass
class _Attempt(Generic[T]):
    value: T | None = None
    ok: bool = False
    failure: Failure | None = None
    budget_spent: bool = False


async def _try_tier(
    tier: ModelTier,
    stage: str,
    lang: Lang,
    ctx: RequestContext,
    clock: Clock,
    *,
    build: BuildMessages,
    parse: ParseReply[T],
    bind: BindModel | None,
    retry_build: BuildMessages | None,
    chaos: ChaosPlan | None = None,
    observer: ModelCallObserver | None = None,
) -> _Attempt[T]:
    templates = load_templates(tier.name, stage, lang)
    messages = build(tier, templates)
    runnable: Runnable[LanguageModelInput, BaseMessage] = bind(tier) if bind else tier.model
    retried = False
    while True:
        # One model call may take at most a share of what is left of the request, so a hung
        # tier still leaves time for the next tier and for the turn's tool calls.
        timeout = min(tier.timeout_s, ctx.budget.remaining() * MODEL_CALL_BUDGET_SHARE)
        if timeout <= _MIN_MODEL_CALL_S:
            return _Attempt(budget_spent=True)
        try:
            span = observer.model_call(tier.name, stage=stage) if observer else nullcontext()
            with span:
                message = await _invoke(tier, runnable, messages, timeout, clock, chaos)
            reply = _check_reply(tier, message)
            return _Attempt(value=parse(tier, reply), ok=True)
        except Exception as exc:
            failure = _classify(exc, tier)
        if (
            failure.error_class is ErrorClass.SCHEMA
            and failure.code != "refusal"
            and retry_build is not None
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
            messages = retry_build(tier, templates)
            continue
        return _Attempt(failure=failure)


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
    router.record_request()
    attempts: list[tuple[str, str]] = []

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

    for tier in router.tiers:
        if not router.health.is_up(tier.name):
            switch(tier, f"model:{tier.name}: marked down by health checks", None)
            continue
        refused = router.admit(tier)
        if refused is not None:
            switch(tier, refused, None)
            break
        attempt = await _try_tier(
            tier,
            stage,
            lang,
            ctx,
            clock,
            build=build,
            parse=parse,
            bind=bind,
            retry_build=retry_build,
            chaos=router.chaos,
            observer=router.observer,
        )
        if attempt.ok:
            router.health.record(tier.name, True)
            return StageOutcome(value=cast(T, attempt.value), tier=tier.name, attempts=attempts)
        if attempt.budget_spent:
            switch(tier, f"model:{tier.name}: request budget spent, no time left for a call", None)
            break
        failure = attempt.failure
        assert failure is not None
        if failure.error_class not in BREAKER_IGNORED:
            router.health.record(tier.name, False)
        switch(tier, failure.reason, failure.error_class)
    return None


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
) -> StageOutcome[list[PlannedTask]] | None:
    """Split the customer's message into tasks with a model (structured output)."""
    values = {"text": text, "facts": _as_json(dict(facts))}

    def parse(tier: ModelTier, message: AIMessage) -> list[PlannedTask]:
        return list(_structured(DecomposeResult, message).tasks)

    return await run_stage(
        router,
        "decompose",
        lang,
        ctx,
        build=lambda tier, t: _messages(t, **values),
        retry_build=lambda tier, t: _with_retry(t, **values),
        parse=parse,
        bind=_bind_structured(DecomposeResult),
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
