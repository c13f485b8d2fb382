"""The service's routes: health, metrics, the chat page and its words, demo login, sessions
and turns (``/v1/...``). Each route is thin: access checks in :mod:`.access`, turns in
:mod:`.turn_http`."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from helpdesk.app.service.access import Customer, Svc, check_owner, owned_session
from helpdesk.app.service.auth import is_customer_id
from helpdesk.app.service.errors import ApiError
from helpdesk.app.service.results import history, offer_token, pending_confirmations
from helpdesk.app.service.state import Service
from helpdesk.app.service.turn_http import (
    outcome_unless_gone,
    sse_response,
    start_turn,
    turn_response,
)
from helpdesk.app.settings import Settings
from helpdesk.graph.language import Lang
from helpdesk.graph.prompting import load_templates

__all__ = ["API_VERSION", "ConfirmationIn", "DemoLoginIn", "MessageIn", "install_routes"]

API_VERSION = "v1"


class MessageIn(BaseModel):
    """A customer message."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=4000, description="What the customer typed.")


class ConfirmationIn(BaseModel):
    """The customer's answer to the pending confirmation (sent as their yes / no turn)."""

    model_config = ConfigDict(extra="forbid")
    answer: Literal["yes", "no"]
    lang: Lang | None = Field(
        default=None, description="Language of the answer (default: the session's)."
    )
    offer: str | None = Field(
        default=None,
        max_length=64,
        description="The ``offer`` token of the confirmation answered (from the turn result or "
        "the session): when what waits has changed since, nothing runs (409 offer_changed).",
    )


class DemoLoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    customer: str = Field(min_length=1, max_length=64)


def install_routes(app: FastAPI, settings: Settings, assets: dict[str, bytes]) -> None:
    @app.get("/healthz", tags=["health"])
    async def healthz() -> dict[str, Any]:
        """The process is up."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["health"])
    async def readyz(service: Svc) -> JSONResponse:
        """Ready when the session store, the shop (and Redis, when configured) answer."""
        checks: dict[str, str] = {}
        for name, check in service.ready_checks.items():
            try:
                await asyncio.wait_for(check(), timeout=2.0)
                checks[name] = "ok"
            except Exception as exc:
                checks[name] = f"failed: {type(exc).__name__}"
        ready = all(v == "ok" for v in checks.values())
        return JSONResponse({"ready": ready, "checks": checks}, status_code=200 if ready else 503)

    @app.get("/metrics", tags=["health"])
    async def metrics(service: Svc) -> Response:
        """Prometheus metrics of the bot and the service."""
        service.metrics.loop_lag.set(service.lag.lag_s)
        service.metrics.active.set(service.gate.active)
        observer = service.bot.observer
        assert observer is not None
        observer.metrics.refresh_breakers(service.bot.executor.breakers.snapshot())
        return Response(observer.metrics.exposition(), media_type="text/plain; version=0.0.4")

    @app.get("/", include_in_schema=False)
    async def page() -> HTMLResponse:
        return HTMLResponse(assets["index.html"].decode("utf-8"))

    @app.get("/static/{name}", include_in_schema=False)
    async def static(name: str) -> Response:
        media = {"js": "text/javascript", "css": "text/css", "png": "image/png"}
        suffix = name.rsplit(".", 1)[-1]
        if suffix not in media or name not in assets:
            raise ApiError(404, "not_found", "No such file.")
        return Response(assets[name], media_type=media[suffix])

    @app.get(f"/{API_VERSION}/ui-text", tags=["page"])
    async def ui_text(lang: Lang = "zh") -> dict[str, Any]:
        """The chat page's words in ``lang``."""
        text: dict[str, Any] = dict(load_templates("service", "page", lang))
        progress = load_templates("service", "progress", lang)
        text["actions"] = {
            key.removeprefix("service_"): value
            for key, value in progress.items()
            if key.startswith("service_")
        }
        return {"lang": lang, "text": text, "demo_login": settings.service_demo_login}

    @app.post(f"/{API_VERSION}/demo/token", tags=["page"])
    async def demo_token(service: Svc, body: DemoLoginIn) -> dict[str, Any]:
        """Mint a token for a demo customer (only with ``serve --demo``)."""
        if not settings.service_demo_login:
            raise ApiError(404, "not_found", "Demo login is off.")
        if not is_customer_id(body.customer):
            raise ApiError(422, "invalid_customer", "Not a customer id.")
        return {"token": service.issuer.mint(body.customer), "customer": body.customer}

    @app.post(f"/{API_VERSION}/sessions", status_code=201, tags=["sessions"])
    async def create_session(service: Svc, customer: Customer) -> dict[str, Any]:
        """A new session bound to the token's customer."""
        session = f"s-{uuid.uuid4().hex}"
        await service.directory.bind(session, customer)
        return {"session": session, "customer": customer}

    @app.get(f"/{API_VERSION}/sessions/{{session}}", tags=["sessions"])
    async def read_session(service: Svc, customer: Customer, session: str) -> dict[str, Any]:
        """The session's messages and what waits for the customer's confirmation."""
        values = await owned_session(service, session, customer)
        results = [r.model_dump(mode="json") for r in values.get("results") or []]
        registry = service.bot.executor.registry
        return {
            "session": session,
            "customer": customer,
            "lang": values.get("lang"),
            "messages": history(values.get("messages") or []),
            "pending_confirmation": (pending := pending_confirmations(results, registry)),
            "offer": offer_token(pending),
            "running": session in service.runner.running,
        }

    @app.post(f"/{API_VERSION}/sessions/{{session}}/messages", tags=["turns"])
    async def send_message(
        request: Request, service: Svc, customer: Customer, session: str, body: MessageIn
    ) -> JSONResponse:
        """One turn; answers when it is done."""
        running = await start_turn(service, body.text, session, customer)
        return turn_response(service, body.text, await outcome_unless_gone(request, running))

    @app.post(f"/{API_VERSION}/sessions/{{session}}/messages/stream", tags=["turns"])
    async def stream_message(
        service: Svc, customer: Customer, session: str, body: MessageIn
    ) -> StreamingResponse:
        """One turn as Server-Sent Events: ``progress``…, ``reply``, ``result``, ``done``."""
        running = await start_turn(service, body.text, session, customer)
        return sse_response(service, body.text, running)

    @app.post(f"/{API_VERSION}/sessions/{{session}}/confirmation", tags=["turns"])
    async def confirm(
        request: Request, service: Svc, customer: Customer, session: str, body: ConfirmationIn
    ) -> JSONResponse:
        """Answer the pending confirmation: the customer's own yes / no turn."""
        text = await _answer_text(service, body, session, customer)
        check = _offer_still_waits(service, body, session, customer)
        running = await start_turn(service, text, session, customer, check)
        return turn_response(service, text, await outcome_unless_gone(request, running))

    @app.post(f"/{API_VERSION}/sessions/{{session}}/confirmation/stream", tags=["turns"])
    async def confirm_stream(
        service: Svc, customer: Customer, session: str, body: ConfirmationIn
    ) -> StreamingResponse:
        """As ``confirmation``, streamed."""
        text = await _answer_text(service, body, session, customer)
        check = _offer_still_waits(service, body, session, customer)
        running = await start_turn(service, text, session, customer, check)
        return sse_response(service, text, running)

    @app.post(f"/{API_VERSION}/sessions/{{session}}/abort", tags=["turns"])
    async def abort(service: Svc, customer: Customer, session: str) -> dict[str, Any]:
        """Abort the session's running turn on this replica."""
        await check_owner(service, session, customer)
        running = service.runner.running.get(session)
        if running is None:
            return {"aborted": False}
        running.abort("abort")
        return {"aborted": True, "shielded": running.shielded}


def _check_offer(service: Service, body: ConfirmationIn, values: dict[str, Any]) -> None:
    """A yes pressed for ¥100 never pays the ¥797 offer another tab put in its place."""
    if body.offer is None:
        return
    results = [r.model_dump(mode="json") for r in values.get("results") or []]
    pending = pending_confirmations(results, service.bot.executor.registry)
    if offer_token(pending) != body.offer:
        raise ApiError(
            409,
            "offer_changed",
            "What waits for confirmation has changed since this answer was given; "
            "nothing was done. Please answer the current question.",
            extra={"pending_confirmation": pending, "offer": offer_token(pending)},
        )


def _offer_still_waits(
    service: Service, body: ConfirmationIn, session: str, customer: str
) -> Callable[[], Awaitable[None]]:
    """The offer check again, under the session's lock just before the turn: another turn
    (another tab, another replica) may have replaced the offer after the request was read."""

    async def check() -> None:
        _check_offer(service, body, await owned_session(service, session, customer))

    return check


async def _answer_text(service: Service, body: ConfirmationIn, session: str, customer: str) -> str:
    values = await owned_session(service, session, customer)
    _check_offer(service, body, values)  # refused at once, before admission, when stale already
    if body.lang is not None:
        lang: Lang = body.lang
    else:
        lang = "zh" if values.get("lang") == "zh" else "en"
    key = "confirm_yes_text" if body.answer == "yes" else "confirm_no_text"
    return load_templates("service", "page", lang)[key]
