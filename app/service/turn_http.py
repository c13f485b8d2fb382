"""One turn over HTTP: admitted or refused at once (503 / 429 / 404 / 409), then answered as
one JSON body or as Server-Sent Events (``progress``…, ``reply``, ``result``, ``done``); a
client that hangs up aborts the turn."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, StreamingResponse

from helpdesk.app.service.access import check_owner
from helpdesk.app.service.admission import RateLimited
from helpdesk.app.service.admission import Shed as ShedError
from helpdesk.app.service.errors import ApiError, error_body
from helpdesk.app.service.progress import render_progress
from helpdesk.app.service.results import turn_result
from helpdesk.app.service.state import Service
from helpdesk.app.service.turns import RunningTurn, TurnInProgressError, TurnOutcome
from helpdesk.app.session import TurnError, turn_failed_reply
from helpdesk.graph.language import detect_language
from helpdesk.graph.prompting import load_templates, render

__all__ = ["outcome_unless_gone", "sse_response", "start_turn", "turn_response"]

_HEARTBEAT_S = 2.0


async def start_turn(
    service: Service,
    text: str,
    session: str,
    customer: str,
    check: Callable[[], Awaitable[None]] | None = None,
) -> RunningTurn:
    """Admit and start a turn, or refuse it at once (503 / 429 / 404 / 409).

    The admission gate comes first and before anything that waits (the ownership check may
    read the session store), so a shed request never queues behind running turns, and a shed
    request costs the customer no rate-limit token. ``check`` runs under the session lock
    before the turn (:meth:`TurnRunner.start`); an :class:`ApiError` it raises is the answer."""
    try:
        service.gate.acquire()
    except ShedError as exc:
        service.metrics.shed.labels(exc.reason).inc()
        raise ApiError(
            503,
            "overloaded",
            f"The service is busy; try again in {exc.retry_after_s} s.",
            headers={"Retry-After": str(exc.retry_after_s)},
            extra={"retry_after_s": exc.retry_after_s, "reason": exc.reason},
        ) from exc
    try:
        service.limiter.take(customer)
        await check_owner(service, session, customer)
        running = service.runner.start(text, session=session, customer=customer, check=check)
    except RateLimited as exc:
        service.gate.release()
        raise ApiError(
            429,
            "rate_limited",
            f"Too many messages; try again in {exc.retry_after_s} s.",
            headers={"Retry-After": str(exc.retry_after_s)},
            extra={"retry_after_s": exc.retry_after_s},
        ) from exc
    except TurnInProgressError as exc:
        service.gate.release()
        raise ApiError(
            409, "turn_in_progress", "Still working on your previous message in this session."
        ) from exc
    except BaseException:
        service.gate.release()
        raise

    def finished(_: asyncio.Task[dict[str, Any]]) -> None:
        service.gate.release()
        if running.abort_reason is not None:
            service.metrics.aborted.labels(running.abort_reason).inc()

    running.task.add_done_callback(finished)
    return running


async def outcome_unless_gone(request: Request, running: RunningTurn) -> TurnOutcome:
    """The turn's outcome; a client that hangs up meanwhile aborts the turn (as a dropped
    stream does)."""
    waiting = asyncio.ensure_future(running.outcome())
    while not waiting.done():
        await asyncio.wait({waiting}, timeout=0.5)
        if not waiting.done() and await request.is_disconnected():
            running.abort("disconnect")
    return waiting.result()


def turn_response(service: Service, text: str, outcome: TurnOutcome) -> JSONResponse:
    if outcome.payload is not None:
        result = turn_result(outcome.payload, service.bot.executor.registry)
        body = {
            "reply": outcome.payload["reply"],
            "result": result,
            "aborted": outcome.aborted,
            "shielded": outcome.shielded,
            "turn": outcome.payload,
        }
        return JSONResponse(body)
    status, body = _failure(service, text, outcome)
    return JSONResponse(body, status_code=status)


def _failure(service: Service, text: str, outcome: TurnOutcome) -> tuple[int, dict[str, Any]]:
    if outcome.aborted == "deadline":
        return 504, error_body("turn_timeout", "The turn took too long and was stopped.")
    if outcome.aborted:
        return 409, error_body("turn_aborted", "The turn was aborted; nothing more was done.")
    if isinstance(outcome.error, TurnInProgressError):
        message = "Still working on your previous message in this session."
        return 409, error_body("turn_in_progress", message)
    if isinstance(outcome.error, ApiError):
        error = outcome.error
        return error.status, error_body(error.code, error.message, **error.extra)
    if isinstance(outcome.error, TurnError):
        return 422, error_body("turn_refused", str(outcome.error))
    hotline = service.settings.hotline
    return 500, error_body("turn_failed", turn_failed_reply(text, hotline))


def _sse_event(event: str, data: Any) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def sse_response(service: Service, text: str, running: RunningTurn) -> StreamingResponse:
    lang = detect_language(text, default="zh")
    started = time.monotonic()

    async def events() -> AsyncIterator[bytes]:
        completed = False
        try:
            yield _sse_event("accepted", {"session": running.session})
            last = time.monotonic()
            queue = running.watch.queue
            while not running.task.done() or not queue.empty():
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait(
                    {getter, running.task},
                    timeout=_HEARTBEAT_S,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if getter in done:
                    item = getter.result()
                    progress = {
                        "stage": item.stage,
                        "key": item.key,
                        "text": render_progress(item, lang),
                    }
                    yield _sse_event("progress", progress)
                    last = time.monotonic()
                    continue
                getter.cancel()
                if not running.task.done() and time.monotonic() - last >= _HEARTBEAT_S:
                    seconds = round(time.monotonic() - started)
                    t = load_templates("service", "progress", lang)
                    still = {
                        "stage": "running",
                        "key": "still_working",
                        "text": render(t["still_working"], seconds=seconds),
                    }
                    yield _sse_event("progress", still)
                    last = time.monotonic()
            outcome = await running.outcome()
            if outcome.payload is not None:
                if outcome.aborted:
                    yield _sse_event(
                        "aborted", {"reason": outcome.aborted, "shielded": outcome.shielded}
                    )
                yield _sse_event("reply", {"text": outcome.payload["reply"]})
                result = turn_result(outcome.payload, service.bot.executor.registry)
                yield _sse_event("result", result)
            else:
                status, body = _failure(service, text, outcome)
                if outcome.aborted:
                    yield _sse_event("aborted", {"reason": outcome.aborted, "shielded": False})
                yield _sse_event("error", {**body, "status": status})
            yield _sse_event("done", {"seconds": round(time.monotonic() - started, 3)})
            completed = True
        finally:
            if not completed:
                # the client went away: the turn stops (a write on the wire finishes first)
                running.abort("disconnect")

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
