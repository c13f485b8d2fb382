"""The concrete model stages over tiers: decompose, select_tool, generate, check and summarize.

Each stage only says how to build its messages from a tier's templates and how to parse the
reply; :func:`~helpdesk.graph.stage_chain.run_stage` (:mod:`helpdesk.graph.stage_chain`) tries
primary, then backup, inside the request's budget, and returns None when no model tier answered
(the caller falls to the minimal tier). This module also re-exports the chain's public names
(:func:`run_chain`, :func:`run_stage`, :class:`StageOutcome`, :func:`fallback_on` ...).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, ConfigDict, Field, create_model

from helpdesk.degrade.clock import Clock
from helpdesk.degrade.errors import SchemaError
from helpdesk.graph.intents import Intent
from helpdesk.graph.language import Lang
from helpdesk.graph.model_failures import fallback_on
from helpdesk.graph.prompting import render
from helpdesk.graph.stage_chain import (
    MIN_MODEL_CALL_S,
    BindModel,
    ChainResult,
    StageOutcome,
    run_chain,
    run_stage,
)
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

# --- structured outputs -------------------------------------------------------------------------

_TEMPLATE_ONLY: Final = frozenset({Intent.CONFIRM_CHANGE, Intent.CONFIRM_UNCLEAR, Intent.PACK})
"""Intents only the template matcher reads (a changed or questioning answer, a pack request)."""

if TYPE_CHECKING:
    from langchain_core.language_models import LanguageModelInput

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
