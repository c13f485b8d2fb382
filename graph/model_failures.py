"""A model tier's failures: the checks every reply passes (an AI message, not empty, not a
refusal, no invalid tool-call JSON), which failures fall through to the next tier
(:func:`fallback_on`) and how they are classified (:func:`~helpdesk.degrade.errors.classify_failure`
with the tier named). Used by the fallback chain, :mod:`helpdesk.graph.stage_chain`.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Final

from langchain_core.messages import AIMessage, BaseMessage

from helpdesk.degrade.errors import Failure, SchemaError, classify_failure
from helpdesk.graph.tiers import ModelTier

__all__ = ["fallback_on"]

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
