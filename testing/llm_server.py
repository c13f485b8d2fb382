"""A scripted OpenAI-compatible chat server for tests and drills: replies and faults on demand.

:func:`create_llm_app` serves ``POST /v1/chat/completions`` (plain JSON, or server-sent events
with ``"stream": true``; tools and tool calls included) and ``GET /v1/models`` from a
:class:`ScriptedLLM`: per model, a queue of :class:`Reply` (text, tool calls, or a structured
JSON answer sent as a call of the tool the request asked for) and :class:`LLMFault` (429 with
Retry-After, 500, 503, a slow answer, malformed tool-call arguments, empty ``choices``, a
refusal). Every request is recorded (model, messages, tools) so a test can assert what each
tier was sent — e.g. that the backup got the backup's own prompt — and count calls. A model
whose queue runs out gets a 500 naming the exhausted script and is listed in
``ScriptedLLM.exhausted``, so a test that calls more than it scripted fails loudly. Real
``ChatOpenAI`` clients reach it in-process through :func:`llm_http_client`, whose transport
honours the client's read timeout the way a socket would, so a slow fault is a real timeout.

Over 400 lines on purpose: the scripts, the fault rendering and the plain / streamed responses
share one recorded state and one wire format, and are read together when a test fails.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

__all__ = [
    "FaultKind",
    "LLMFault",
    "RecordedRequest",
    "Reply",
    "ScriptedLLM",
    "TimeoutASGITransport",
    "create_llm_app",
    "llm_http_client",
]

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Reply:
    """One scripted answer: text, tool calls, or a structured JSON answer."""

    content: str | None = None
    """Assistant text."""
    tool_calls: tuple[tuple[str, Mapping[str, Any] | str], ...] = ()
    """(tool name, arguments as a dict or as the raw JSON string to send)."""
    structured: Mapping[str, Any] | None = None
    """Sent as the arguments of the tool the request forces (``tool_choice``), else of its
    first tool, else as JSON text."""

    @classmethod
    def text(cls, content: str) -> Reply:
        return cls(content=content)

    @classmethod
    def calls(cls, *calls: tuple[str, Mapping[str, Any] | str]) -> Reply:
        return cls(tool_calls=tuple(calls))

    @classmethod
    def json(cls, data: Mapping[str, Any]) -> Reply:
        return cls(structured=data)


class FaultKind(StrEnum):
    """What an :class:`LLMFault` does to the request it answers."""

    RATE_LIMITED = "rate_limited"
    SERVER_ERROR = "server_error"
    UNAVAILABLE = "unavailable"
    SLOW = "slow"
    MALFORMED_TOOL_ARGS = "malformed_tool_args"
    EMPTY_CHOICES = "empty_choices"
    REFUSAL = "refusal"


@dataclass(frozen=True, slots=True)
class LLMFault:
    """One scripted failure; build it with the class methods."""

    kind: FaultKind
    status: int = 500
    """HTTP status of ``server_error`` / ``unavailable``."""
    retry_after: float | None = None
    """Retry-After seconds of ``rate_limited`` (and optionally ``unavailable``)."""
    seconds: float = 0.0
    """Delay of ``slow`` before it answers."""
    then: Reply | None = None
    """What ``slow`` answers once the delay is over (if the client still listens)."""
    text: str = "I'm sorry, but I can't help with that."
    """The refusal of ``refusal``."""

    @classmethod
    def rate_limited(cls, retry_after: float = 1.0) -> LLMFault:
        return cls(FaultKind.RATE_LIMITED, status=429, retry_after=retry_after)

    @classmethod
    def server_error(cls, status: int = 500) -> LLMFault:
        return cls(FaultKind.SERVER_ERROR, status=status)

    @classmethod
    def unavailable(cls, retry_after: float | None = None) -> LLMFault:
        return cls(FaultKind.UNAVAILABLE, status=503, retry_after=retry_after)

    @classmethod
    def slow(cls, seconds: float, then: Reply | None = None) -> LLMFault:
        return cls(FaultKind.SLOW, seconds=seconds, then=then)

    @classmethod
    def malformed_tool_args(cls) -> LLMFault:
        return cls(FaultKind.MALFORMED_TOOL_ARGS)

    @classmethod
    def empty_choices(cls) -> LLMFault:
        return cls(FaultKind.EMPTY_CHOICES)

    @classmethod
    def refusal(cls, text: str | None = None) -> LLMFault:
        return cls(FaultKind.REFUSAL) if text is None else cls(FaultKind.REFUSAL, text=text)


ScriptItem = Reply | LLMFault


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request the server received."""

    model: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    stream: bool
    body: dict[str, Any]

    @property
    def system_prompt(self) -> str:
        """The system (or developer) messages' text, joined."""
        return "\n".join(
            _text_of(m.get("content"))
            for m in self.messages
            if m.get("role") in ("system", "developer")
        )

    @property
    def tool_names(self) -> list[str]:
        return [str(t.get("function", {}).get("name", "")) for t in self.tools]


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


@dataclass
class ScriptedLLM:
    """Per-model queues of replies and faults, and the record of every request.

    Args:
        sleep: how a ``slow`` fault waits (real ``asyncio.sleep`` by default, so the client's
            timeout fires as it would against a hung server).
    """

    sleep: Sleep = asyncio.sleep
    requests: list[RecordedRequest] = field(default_factory=list)
    """Every request received, in order."""
    exhausted: list[str] = field(default_factory=list)
    """Models that were called after their script ran out (one entry per such call)."""
    _queues: dict[str, deque[ScriptItem]] = field(default_factory=dict)
    _always: dict[str, ScriptItem] = field(default_factory=dict)

    def add(self, model: str, *items: ScriptItem) -> ScriptedLLM:
        """Queue ``items`` for ``model``, in order; returns self for chaining."""
        self._queues.setdefault(model, deque()).extend(items)
        return self

    def always(self, model: str, item: ScriptItem | None) -> ScriptedLLM:
        """Answer ``model`` with ``item`` whenever its queue is empty (None: stop doing so)."""
        if item is None:
            self._always.pop(model, None)
        else:
            self._always[model] = item
        return self

    @property
    def models(self) -> list[str]:
        return sorted(set(self._queues) | set(self._always))

    def pending(self, model: str) -> int:
        """Items still queued for ``model``."""
        return len(self._queues.get(model, ()))

    def requests_for(self, model: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.model == model]

    def next_item(self, model: str, body: Mapping[str, Any] | None = None) -> ScriptItem | None:
        """The next scripted answer for ``model``: the first queued one that fits the request
        (tool calls only to a request offering those tools), so requests a client sends
        concurrently get their own answers. Faults and text fit any request."""
        queue = self._queues.get(model)
        if queue:
            for index, queued in enumerate(queue):
                if body is None or _fits(queued, body):
                    del queue[index]
                    return queued
            return queue.popleft()
        fallback = self._always.get(model)
        if fallback is None:
            self.exhausted.append(model)
        return fallback


# --- response bodies ----------------------------------------------------------------------------

_ids = itertools.count(1)


def _error(status: int, message: str, code: str, *, retry_after: float | None = None) -> Response:
    headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else None
    kind = "rate_limit_error" if status == 429 else "server_error"
    return JSONResponse(
        {"error": {"message": message, "type": kind, "code": code, "param": None}},
        status_code=status,
        headers=headers,
    )


def _fits(item: ScriptItem, body: Mapping[str, Any]) -> bool:
    """Whether a queued answer may answer this request.

    A call to the tool a request forces (``tool_choice``: the structured stages, decompose and
    check) answers only that request; other tool-call replies answer requests that force no
    tool (tool selection); text and faults answer anything.
    """
    if not isinstance(item, Reply) or not item.tool_calls:
        return True
    forced = _forced_choice(body)
    names = {name for name, _ in item.tool_calls}
    if forced is not None:
        return names == {forced}
    return not (names & _STRUCTURED_TOOLS)


_STRUCTURED_TOOLS = frozenset({"DecomposeResult", "CheckResult"})


def _forced_choice(body: Mapping[str, Any]) -> str | None:
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        name = choice.get("function", {}).get("name")
        return str(name) if name else None
    return None


def _forced_tool(body: Mapping[str, Any]) -> str | None:
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        name = choice.get("function", {}).get("name")
        if name:
            return str(name)
    tools = body.get("tools") or []
    if tools:
        return str(tools[0].get("function", {}).get("name", "")) or None
    return None


def _tool_call(name: str, arguments: Mapping[str, Any] | str) -> dict[str, Any]:
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {
        "id": f"call_{next(_ids)}",
        "type": "function",
        "function": {"name": name, "arguments": raw},
    }


def _message(reply: Reply, body: Mapping[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content, "refusal": None}
    calls = [_tool_call(name, args) for name, args in reply.tool_calls]
    if reply.structured is not None:
        name = _forced_tool(body)
        if name is None:
            message["content"] = json.dumps(reply.structured, ensure_ascii=False)
        else:
            calls.append(_tool_call(name, reply.structured))
    if calls:
        message["tool_calls"] = calls
    return message


def _completion(model: str, choices: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{next(_ids)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": choices,
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def _choice(message: dict[str, Any]) -> dict[str, Any]:
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}


def _chunk(model: str, cid: str, choices: list[dict[str, Any]]) -> str:
    payload = {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": choices,
    }
    return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n"


async def _sse(model: str, message: dict[str, Any] | None) -> AsyncIterator[str]:
    """The message as chat.completion.chunk events (None: one chunk with no choices)."""
    cid = f"chatcmpl-{next(_ids)}"
    if message is None:
        yield _chunk(model, cid, [])
        yield "data: [DONE]\n\n"
        return

    def delta(d: dict[str, Any], finish: str | None = None) -> str:
        return _chunk(model, cid, [{"index": 0, "delta": d, "finish_reason": finish}])

    yield delta({"role": "assistant", "content": ""})
    if message.get("refusal"):
        yield delta({"refusal": message["refusal"]})
    content = message.get("content") or ""
    half = len(content) // 2
    for piece in (content[:half], content[half:]):
        if piece:
            yield delta({"content": piece})
    for index, call in enumerate(message.get("tool_calls", [])):
        head = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["function"]["name"], "arguments": ""},
        }
        yield delta({"tool_calls": [head]})
        args = call["function"]["arguments"]
        yield delta({"tool_calls": [{"index": index, "function": {"arguments": args}}]})
    yield delta({}, "tool_calls" if message.get("tool_calls") else "stop")
    yield "data: [DONE]\n\n"


# --- the app ------------------------------------------------------------------------------------


def create_llm_app(script: ScriptedLLM) -> FastAPI:
    """The OpenAI-compatible app answering from ``script``."""
    app = FastAPI(title="helpdesk scripted LLM", docs_url=None, redoc_url=None)

    @app.get("/v1/models")
    async def list_models() -> dict[str, Any]:
        return {
            "object": "list",
            "data": [
                {"id": m, "object": "model", "created": 0, "owned_by": "helpdesk-test"}
                for m in script.models
            ],
        }

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        model = str(body.get("model", ""))
        stream = bool(body.get("stream"))
        script.requests.append(
            RecordedRequest(
                model=model,
                messages=list(body.get("messages", [])),
                tools=list(body.get("tools") or []),
                stream=stream,
                body=body,
            )
        )
        item = script.next_item(model, body)
        if item is None:
            return _error(500, f"script for model {model!r} is exhausted", "script_exhausted")
        message: dict[str, Any] | None
        if isinstance(item, LLMFault):
            if item.kind is FaultKind.RATE_LIMITED:
                return _error(
                    429, "Rate limit reached", "rate_limit_exceeded", retry_after=item.retry_after
                )
            if item.kind in (FaultKind.SERVER_ERROR, FaultKind.UNAVAILABLE):
                return _error(
                    item.status,
                    f"upstream failure {item.status}",
                    str(item.kind),
                    retry_after=item.retry_after,
                )
            if item.kind is FaultKind.SLOW:
                await script.sleep(item.seconds)
                message = _message(item.then or Reply(content="(late)"), body)
            elif item.kind is FaultKind.MALFORMED_TOOL_ARGS:
                name = _forced_tool(body) or "unknown_tool"
                message = {
                    "role": "assistant",
                    "content": None,
                    "refusal": None,
                    "tool_calls": [_tool_call(name, "{not json")],
                }
            elif item.kind is FaultKind.EMPTY_CHOICES:
                message = None
            else:  # refusal
                message = {"role": "assistant", "content": None, "refusal": item.text}
        else:
            message = _message(item, body)
        if stream:
            return StreamingResponse(_sse(model, message), media_type="text/event-stream")
        choices = [] if message is None else [_choice(message)]
        return JSONResponse(_completion(model, choices))

    return app


# --- in-process client --------------------------------------------------------------------------


class TimeoutASGITransport(httpx.AsyncBaseTransport):
    """An ASGI transport that honours the request's read timeout like a socket would.

    ``httpx.ASGITransport`` calls the app directly and ignores timeouts; this one raises
    :class:`httpx.ReadTimeout` when the app takes longer than the request's read timeout.
    """

    def __init__(self, app: Any) -> None:
        self._inner = httpx.ASGITransport(app=app)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        limits: Mapping[str, Any] = request.extensions.get("timeout", {})
        read = limits.get("read")
        try:
            async with asyncio.timeout(read):
                return await self._inner.handle_async_request(request)
        except TimeoutError as exc:
            raise httpx.ReadTimeout(f"no response within {read}s", request=request) from exc

    async def aclose(self) -> None:
        await self._inner.aclose()


def llm_http_client(app: Any, *, base_url: str = "http://llm.test") -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` reaching ``app`` in-process (pass it as ``http_async_client``)."""
    return httpx.AsyncClient(transport=TimeoutASGITransport(app), base_url=base_url)
