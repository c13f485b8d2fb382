"""The scripted model "brain" every benchmarked system talks to: deterministic, offline, honest.

:class:`ScriptedBrain` is a LangChain chat model (``bind_tools`` supported) whose decisions come
from :func:`~helpdesk.packs.shop.intents.match_shop` and
:func:`~helpdesk.graph.planning.call_for`, so the naive agent, the LangChain agent and helpdesk
all get the same tool names and arguments for the same customer message. It answers every shape
the systems ask for: tool calls for the customer's last message, a final reply after tool
results (agents), a ``DecomposeResult`` / ``CheckResult`` call when that tool is bound with
``tool_choice``, and a plain-text reply from helpdesk's ``generate`` facts. Replies state only
facts from tool results the brain saw and say plainly when a tool failed: the brain is good, the
systems differ in resilience. An :class:`OutageSwitch` makes one instance raise an OpenAI-style
``503`` (``openai.InternalServerError``) while it is on, or hang (``mode="hang"``) until the
caller's timeout: a primary-model outage. Every call takes a time drawn from a
:class:`LatencyModel` (log-normal, default median 0.8 s and P95 2.5 s, plus time per output
token): a real model is neither instant nor constant.

What the brain saw (:class:`~helpdesk.app.bench.brain_reply.Observation`) and the reply it writes
from that live in :mod:`helpdesk.app.bench.brain_reply`; this module decides and answers.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

import httpx2
import openai
from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
)
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field

from helpdesk.app.bench.brain_reply import (
    Observation,
    message_text,
    observations_from_facts,
    observations_from_messages,
    write_reply,
)
from helpdesk.graph.intents import Intent, MatchedIntent
from helpdesk.graph.planning import call_for
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import match_shop, order_of, sku_of

__all__ = [
    "BrainStats",
    "LatencyModel",
    "Observation",
    "OutageSwitch",
    "ScriptedBrain",
    "observations_from_facts",
    "observations_from_messages",
    "write_reply",
]

# Prompt shapes of helpdesk's stage templates (prompts/<tier>/<stage>.en.yaml): the customer's
# text follows "Customer:" / "MESSAGE:", the facts JSON follows "Facts:" / "FACTS:".
_CUSTOMER_LINE: Final = re.compile(r"^(?:Customer|MESSAGE):[ \t]?(.*)$", re.MULTILINE)
_FACTS_LINE: Final = re.compile(r"^(?:Facts|FACTS|Session facts):[ \t]?(\{.*\})\s*$", re.MULTILINE)


class OutageSwitch:
    """Whether the model behind a brain is down (the harness flips it per turn), and how:
    ``error`` answers 503 at once, ``hang`` never answers (the caller's timeout ends it)."""

    def __init__(self, down: bool = False, mode: Literal["error", "hang"] = "error") -> None:
        self.down = down
        self.mode = mode


HANG_S: Final = 20.0
"""How long a hung model keeps a caller without a timeout of its own waiting."""


@dataclass(frozen=True, kw_only=True, slots=True)
class LatencyModel:
    """Seconds one model call takes: log-normal around ``median_s`` with the given P95, plus
    ``per_token_s`` per output token (estimated as 4 characters per token)."""

    median_s: float = 0.8
    """Median time to the first token, seconds."""
    p95_s: float = 2.5
    """95th percentile of that time, seconds (>= median)."""
    per_token_s: float = 0.01
    """Seconds per output token (100 tokens/s)."""
    fixed: bool = False
    """Always ``median_s`` (no draw): the slow_models scenario's steady 2.5 s."""

    def __post_init__(self) -> None:
        if not 0 <= self.median_s <= self.p95_s:
            raise ValueError(f"need 0 <= median_s <= p95_s, got {self.median_s}, {self.p95_s}")
        if self.per_token_s < 0:
            raise ValueError(f"per_token_s must be >= 0, got {self.per_token_s}")

    def draw(self, rng: random.Random, output_chars: int) -> float:
        """One call's seconds for an answer of ``output_chars`` characters."""
        tokens = output_chars / 4
        if self.median_s == 0:
            return tokens * self.per_token_s
        if self.fixed or self.p95_s == self.median_s:
            base = self.median_s
        else:
            sigma = (math.log(self.p95_s) - math.log(self.median_s)) / 1.6449
            base = rng.lognormvariate(math.log(self.median_s), sigma)
        return base + tokens * self.per_token_s


class BrainStats:
    """What one brain instance was asked (shared, mutable)."""

    def __init__(self) -> None:
        self.calls = 0
        self.failures = 0
        self.served = 0
        """Calls that returned an answer to the caller."""
        self.hung = 0
        """Calls that found the model hung (each costs its caller a timeout)."""
        self.probes = 0
        """Health probes (one-token requests from the prober), not in the counts above."""
        self.served_started: list[float] = []
        """``time.perf_counter()`` at the start of each served call (when it got the traffic)."""
        self.by_shape: dict[str, int] = {}

    def count(self, shape: str) -> None:
        self.calls += 1
        self.by_shape[shape] = self.by_shape.get(shape, 0) + 1


def _service_unavailable(label: str) -> openai.InternalServerError:
    # httpx2 is the HTTP library of this openai SDK (what a real client would raise with)
    request = httpx2.Request("POST", f"https://{label}.models.invalid/v1/chat/completions")
    response = httpx2.Response(503, request=request, json={"error": {"message": "overloaded"}})
    return openai.InternalServerError(
        f"Error code: 503 - {label} model is unavailable (benchmark outage)",
        response=response,
        body={"error": {"message": "overloaded"}},
    )


class ScriptedBrain(BaseChatModel):
    """A deterministic chat model that decides like a good agent model would (see module doc)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    label: str = "primary"
    """Name used in errors and traces."""
    latency_s: float = 0.0
    """Seconds every call takes when no ``latency`` model is set (a real sleep)."""
    latency: LatencyModel | None = None
    """Per-call latency distribution (a real sleep); overrides ``latency_s``."""
    seed: int = 0
    """Seeds the latency draws."""
    timeout_s: float | None = None
    """The client's own timeout: a call that would take longer raises an OpenAI timeout after
    this long (None: wait, like a client without a timeout)."""
    outage: OutageSwitch = Field(default_factory=OutageSwitch)
    """While ``outage.down``, every call raises an OpenAI ``503`` (or hangs)."""
    stats: BrainStats = Field(default_factory=BrainStats)
    """Calls received, by request shape."""

    @property
    def _llm_type(self) -> str:
        return "helpdesk-bench-scripted"

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        formatted = [convert_to_openai_tool(t) for t in tools]
        return self.bind(tools=formatted, tool_choice=tool_choice)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.outage.down:
            self.stats.failures += 1
            raise _service_unavailable(self.label)
        return self._respond(messages, kwargs)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # a health probe (one token) is not customer traffic: counted apart, never as a turn's
        # hung or served call
        probe = kwargs.get("max_tokens") == 1
        hung = self.outage.down and self.outage.mode == "hang"
        started = time.perf_counter()
        if probe:
            self.stats.probes += 1
        elif hung:
            self.stats.hung += 1
        result = None if self.outage.down else self._respond(messages, kwargs, probe=probe)
        seconds = HANG_S if hung else self._seconds(result)
        limit = kwargs.get("timeout") or self.timeout_s
        if limit is not None and seconds > limit:
            await asyncio.sleep(limit)
            self.stats.failures += not probe
            raise openai.APITimeoutError(request=httpx2.Request("POST", self._url()))
        if seconds > 0:
            await asyncio.sleep(seconds)
        if result is None:
            self.stats.failures += not probe
            raise _service_unavailable(self.label)
        self.stats.served += not probe
        if not probe:
            self.stats.served_started.append(started)
        return result

    def _url(self) -> str:
        return f"https://{self.label}.models.invalid/v1/chat/completions"

    def _seconds(self, result: ChatResult | None) -> float:
        if self.latency is None:
            return self.latency_s
        rng = self.__dict__.setdefault("_rng", random.Random(f"{self.seed}:{self.label}"))
        chars = 0
        if result is not None:
            message = result.generations[0].message
            chars = len(message_text(message)) + len(json.dumps(getattr(message, "tool_calls", [])))
        return self.latency.draw(rng, chars)

    # -- decisions -------------------------------------------------------------------------------

    def _respond(
        self, messages: list[BaseMessage], kwargs: Mapping[str, Any], *, probe: bool = False
    ) -> ChatResult:
        if probe:
            return _result(AIMessage(content="OK"))
        tools: list[dict[str, Any]] = list(kwargs.get("tools") or [])
        names = [str(t.get("function", t).get("name", "")) for t in tools]
        choice = _choice_name(kwargs.get("tool_choice"))
        human = _last_human(messages)
        text = message_text(human) if human is not None else ""
        if "DecomposeResult" in names and choice in (None, "DecomposeResult", "any", "required"):
            self.stats.count("decompose")
            return _result(_tool_call_message("DecomposeResult", _decompose(text)))
        if "CheckResult" in names:
            self.stats.count("check")
            return _result(_tool_call_message("CheckResult", {"answered_all": True, "missing": []}))
        observed = observations_from_messages(messages)
        if observed is not None:
            self.stats.count("answer")
            return _result(AIMessage(content=write_reply(observed)))
        if tools:
            self.stats.count("select")
            customer_text = _customer_text(text)
            calls = _tool_calls(customer_text, set(names))
            if calls:
                return _result(AIMessage(content="", tool_calls=calls))
            return _result(AIMessage(content=_no_tool_reply(customer_text)))
        facts = _facts_json(text)
        if facts is not None and "requests" in facts:
            self.stats.count("generate")
            return _result(AIMessage(content=write_reply(observations_from_facts(facts))))
        self.stats.count("other")
        return _result(AIMessage(content="OK"))


# --- request parsing ----------------------------------------------------------------------------


def _choice_name(choice: Any) -> str | None:
    if choice is None:
        return None
    if isinstance(choice, str):
        return choice
    if isinstance(choice, Mapping):
        inner = choice.get("function", choice)
        if isinstance(inner, Mapping) and inner.get("name"):
            return str(inner["name"])
    return None


def _last_human(messages: Sequence[BaseMessage]) -> HumanMessage | None:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return message
    return None


def _customer_text(text: str) -> str:
    found = _CUSTOMER_LINE.findall(text)
    return str(found[-1]).strip() if found else text.strip()


def _facts_json(text: str) -> dict[str, Any] | None:
    for raw in reversed(_FACTS_LINE.findall(text)):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _matches(text: str, last_order_id: str | None = None) -> list[MatchedIntent]:
    return match_shop(text, packs=default_packs(), last_order_id=last_order_id)


def _decompose(prompt: str) -> dict[str, Any]:
    facts = _facts_json(prompt) or {}
    last = facts.get("last_order_id")
    matches = _matches(_customer_text(prompt), str(last) if last else None)
    tasks = [
        {
            "intent": m.capability or m.intent.value,
            "order_id": order_of(m),
            "sku": sku_of(m),
            "quantity": m.quantity,
            "topic": m.topic,
            "amount": m.amount,
            "details": m.details or None,
        }
        for m in matches
    ]
    return {"tasks": tasks or [{"intent": "unknown"}]}


def _tool_calls(text: str, allowed: set[str]) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    for index, match in enumerate(_matches(text)):
        call = call_for(match, f"call_{index}", facts={}, packs=default_packs())
        if call is None or call.name not in allowed:
            continue
        args = {k: v for k, v in call.args.items() if v is not None}
        calls.append({"name": call.name, "args": args, "id": f"call_{index}", "type": "tool_call"})
    return calls


def _no_tool_reply(text: str) -> str:
    intents = {m.intent for m in _matches(text)}
    if Intent.GREETING in intents:
        return "Hello! How can I help you with your orders today?"
    if Intent.THANKS in intents:
        return "You're welcome!"
    return "Could you tell me the order number or product code you are asking about?"


def _tool_call_message(name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage(
        content="",
        tool_calls=[{"name": name, "args": args, "id": f"{name}_0", "type": "tool_call"}],
    )


def _result(message: AIMessage) -> ChatResult:
    return ChatResult(generations=[ChatGeneration(message=message)])
