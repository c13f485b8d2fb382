"""The HTTP service: versioned JSON API, SSE progress, health, metrics and the chat page.

``create_app(settings)`` builds a FastAPI app whose lifespan opens the session store, builds the
bot and starts the event-loop lag monitor. Every turn goes through the session API; the
customer comes only from the bearer token; a session is bound to the customer who created it.
Turn requests are admitted by the per-customer rate limit (429) and the replica's admission gate
(503 + Retry-After, at once, never queued), run with a deadline (504) and can be aborted (the
abort endpoint, or a dropped stream). See the README, "Run the service".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from opentelemetry import trace
from opentelemetry.trace import TracerProvider
from prometheus_client import Counter, Gauge
from pydantic import BaseModel, ConfigDict, Field

from helpdesk.app.privacy import require_checkpoint_key
from helpdesk.app.service.admission import AdmissionGate, LoopLagMonitor, RateLimited, RateLimiter
from helpdesk.app.service.admission import Shed as ShedError
from helpdesk.app.service.auth import TokenError, TokenIssuer, is_customer_id
from helpdesk.app.service.directory import MemorySessionDirectory, SessionDirectory, is_session_id
from helpdesk.app.service.errors import ApiError, error_body, install_error_handlers
from helpdesk.app.service.middleware import BodyLimitMiddleware, RequestSpanMiddleware
from helpdesk.app.service.progress import ProgressObserver, render_progress
from helpdesk.app.service.replicas import open_replica_state
from helpdesk.app.service.results import history, pending_confirmations, turn_result
from helpdesk.app.service.turns import RunningTurn, TurnInProgressError, TurnOutcome, TurnRunner
from helpdesk.app.session import TurnError, run_turn, turn_failed_reply
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.graph.checkpoint import open_checkpointer
from helpdesk.graph.language import Lang, detect_language
from helpdesk.graph.prompting import load_templates, render
from helpdesk.packs.shop import shop_declarations
from helpdesk.tools.packs import Pack, PackSet

__all__ = ["API_VERSION", "Service", "create_app"]

API_VERSION = "v1"
_HEARTBEAT_S = 2.0


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


class DemoLoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    customer: str = Field(min_length=1, max_length=64)


class ServiceMetrics:
    """HTTP-level metrics, in the bot's Prometheus registry."""

    def __init__(self, registry: Any) -> None:
        self.requests = Counter(
            "helpdesk_http_requests",
            "HTTP requests by route and status.",
            ["route", "status"],
            registry=registry,
        )
        self.shed = Counter(
            "helpdesk_shed", "Turn requests shed (503) by reason.", ["reason"], registry=registry
        )
        self.aborted = Counter(
            "helpdesk_turns_aborted", "Turns aborted, by reason.", ["reason"], registry=registry
        )
        self.active = Gauge("helpdesk_turns_active", "Turns running now.", registry=registry)
        self.loop_lag = Gauge(
            "helpdesk_event_loop_lag_seconds", "Last event-loop lag sample.", registry=registry
        )


@dataclass
class Service:
    """Everything the routes need, built by the lifespan."""

    settings: Settings
    bot: Bot
    issuer: TokenIssuer
    gate: AdmissionGate
    limiter: RateLimiter
    runner: TurnRunner
    directory: SessionDirectory
    lag: LoopLagMonitor
    metrics: ServiceMetrics
    ready_checks: dict[str, Callable[[], Awaitable[None]]]


BotFactory = Callable[[Any, ProgressObserver], Bot]
"""``(checkpointer, observer) -> Bot``; tests pass one with faults injected."""


def create_app(
    settings: Settings,
    *,
    chaos: ChaosPlan | None = None,
    bot_factory: BotFactory | None = None,
    directory: SessionDirectory | None = None,
    tracer_provider: TracerProvider | None = None,
    packs: Sequence[Pack] = (),
    pack_options: Mapping[str, Any] | None = None,
) -> FastAPI:
    """The service app. Refuses to build without a valid token secret and a checkpoint key.

    Args:
        settings: what to serve (token secret, limits, session store, shop).
        chaos: faults injected at the shop transport (tests, demos).
        bot_factory: builds the bot instead of :func:`build_bot` (tests).
        directory: session ownership store (default: in-process).
        tracer_provider: OpenTelemetry provider of the request, turn and node spans (default:
            the global one, a no-op without an SDK).
        packs: capability packs served beside the demo shop (``helpdesk serve --pack`` and the
            ``helpdesk.packs`` entry points; see :mod:`helpdesk.tools.packs`).
        pack_options: passed to every pack's tool builder as ``PackEnv.options``.

    Raises:
        ValueError: no valid token secret or checkpoint key; PackError (a ValueError): packs that
            cannot be served together (two define the same capability, intent or pack name).
    """
    secret = settings.token_secret.get_secret_value() if settings.token_secret else ""
    issuer = TokenIssuer(secret=secret, ttl_s=settings.token_ttl_s)
    key = require_checkpoint_key(settings)  # a service never stores sessions unencrypted
    PackSet([shop_declarations(), *packs])  # conflicting packs stop start-up, not the first turn

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with (
            open_checkpointer(
                url=settings.checkpoint_url, path=settings.sessions_file, key=key
            ) as saver,
            open_replica_state(settings) as replicas,
        ):
            observer = ProgressObserver(tracer_provider=tracer_provider)
            if bot_factory is not None:
                bot = bot_factory(saver, observer)
            else:
                bot = build_bot(
                    settings,
                    checkpointer=saver,
                    observer=observer,
                    chaos=chaos,
                    clock=replicas.clock,
                    breakers=replicas.breakers,
                    retry_cap=replicas.retry_cap,
                    session_counters=replicas.counters,
                    packs=packs,
                    pack_options=pack_options,
                )
            observer.registry = bot.executor.registry
            observer.breakers = bot.executor.breakers
            lag = LoopLagMonitor()
            service = Service(
                settings=settings,
                bot=bot,
                issuer=issuer,
                gate=AdmissionGate(
                    max_turns=settings.service_max_turns,
                    max_lag_s=settings.service_max_loop_lag_s,
                    lag=lambda: lag.lag_s,
                ),
                limiter=RateLimiter(
                    per_minute=settings.service_rate_per_minute,
                    burst=settings.service_rate_burst,
                    clock=time.monotonic,
                ),
                runner=TurnRunner(
                    lambda text, session, customer: run_turn(
                        bot, text, session=session, customer=customer
                    ),
                    deadline_s=settings.service_turn_deadline_s,
                    lock=replicas.lock,
                    prepare=replicas.counters.load if replicas.counters is not None else None,
                ),
                directory=directory or replicas.directory or MemorySessionDirectory(),
                lag=lag,
                metrics=ServiceMetrics(observer.metrics.registry),
                ready_checks={},
            )
            service.ready_checks["checkpointer"] = lambda: _check_checkpointer(saver)
            service.ready_checks["shop"] = lambda: _check_shop(bot)
            background = [asyncio.create_task(lag.run_forever(), name="loop-lag")]
            if replicas.shared is not None:
                service.ready_checks["redis"] = replicas.shared.ping
                background.append(asyncio.create_task(replicas.shared.run_forever()))
            app.state.service = service
            try:
                yield
            finally:
                for task in background:
                    task.cancel()
                await service.runner.drain()
                await bot.aclose()
                observer.close()

    app = FastAPI(
        title="helpdesk",
        version=API_VERSION,
        description="Customer-service bot: sessions, messages, confirmations, streamed progress.",
        lifespan=lifespan,
    )
    install_error_handlers(app)
    assets = _load_assets()
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.service_max_body_bytes)
    tracer = (tracer_provider or trace.get_tracer_provider()).get_tracer("helpdesk.service")
    app.add_middleware(RequestSpanMiddleware, tracer=tracer)
    _routes(app, settings, assets)
    return app


async def _check_checkpointer(saver: Any) -> None:
    await saver.aget_tuple({"configurable": {"thread_id": "__readyz__"}})


async def _check_shop(bot: Bot) -> None:
    response = await bot.client.http.get("/healthz", timeout=2.0)
    response.raise_for_status()


# ------------------------------------------------------------------------------------ routes


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


Svc = Annotated[Service, Depends(_service)]


def _customer(service: Svc, authorization: Annotated[str | None, Header()] = None) -> str:
    if not authorization:
        raise ApiError(401, "token_missing", "Send 'Authorization: Bearer <token>'.")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "token_invalid", "Send 'Authorization: Bearer <token>'.")
    try:
        return service.issuer.verify(token.strip())
    except TokenError as exc:
        raise ApiError(401, exc.code, exc.message) from exc


Customer = Annotated[str, Depends(_customer)]


async def _owned_session(service: Service, session: str, customer: str) -> dict[str, Any]:
    """The session's state values, after checking it exists and belongs to ``customer``.

    Another customer's session answers exactly like a missing one (no existence leak)."""
    if not is_session_id(session):
        raise ApiError(404, "session_not_found", "No such session.")
    owner = await service.directory.owner(session)
    snapshot = await service.bot.graph.aget_state({"configurable": {"thread_id": session}})
    values: dict[str, Any] = dict(snapshot.values) if snapshot and snapshot.values else {}
    owner = owner or values.get("owner") or values.get("customer")
    if owner is None or owner != customer:
        raise ApiError(404, "session_not_found", "No such session.")
    return values


async def _check_owner(service: Service, session: str, customer: str) -> None:
    """As :func:`_owned_session`, from the directory alone when it knows the session (cheap:
    no session-store read on the admission path)."""
    if is_session_id(session):
        owner = await service.directory.owner(session)
        if owner is not None:
            if owner != customer:
                raise ApiError(404, "session_not_found", "No such session.")
            return
    await _owned_session(service, session, customer)


def _routes(app: FastAPI, settings: Settings, assets: dict[str, bytes]) -> None:
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
        values = await _owned_session(service, session, customer)
        results = [r.model_dump(mode="json") for r in values.get("results") or []]
        registry = service.bot.executor.registry
        return {
            "session": session,
            "customer": customer,
            "lang": values.get("lang"),
            "messages": history(values.get("messages") or []),
            "pending_confirmation": pending_confirmations(results, registry),
            "running": session in service.runner.running,
        }

    @app.post(f"/{API_VERSION}/sessions/{{session}}/messages", tags=["turns"])
    async def send_message(
        request: Request, service: Svc, customer: Customer, session: str, body: MessageIn
    ) -> JSONResponse:
        """One turn; answers when it is done."""
        running = await _start(service, body.text, session, customer)
        return _turn_response(service, body.text, await _outcome_unless_gone(request, running))

    @app.post(f"/{API_VERSION}/sessions/{{session}}/messages/stream", tags=["turns"])
    async def stream_message(
        service: Svc, customer: Customer, session: str, body: MessageIn
    ) -> StreamingResponse:
        """One turn as Server-Sent Events: ``progress``…, ``reply``, ``result``, ``done``."""
        running = await _start(service, body.text, session, customer)
        return _sse(service, body.text, running)

    @app.post(f"/{API_VERSION}/sessions/{{session}}/confirmation", tags=["turns"])
    async def confirm(
        request: Request, service: Svc, customer: Customer, session: str, body: ConfirmationIn
    ) -> JSONResponse:
        """Answer the pending confirmation: the customer's own yes / no turn."""
        text = await _answer_text(service, body, session, customer)
        running = await _start(service, text, session, customer)
        return _turn_response(service, text, await _outcome_unless_gone(request, running))

    @app.post(f"/{API_VERSION}/sessions/{{session}}/confirmation/stream", tags=["turns"])
    async def confirm_stream(
        service: Svc, customer: Customer, session: str, body: ConfirmationIn
    ) -> StreamingResponse:
        """As ``confirmation``, streamed."""
        text = await _answer_text(service, body, session, customer)
        running = await _start(service, text, session, customer)
        return _sse(service, text, running)

    @app.post(f"/{API_VERSION}/sessions/{{session}}/abort", tags=["turns"])
    async def abort(service: Svc, customer: Customer, session: str) -> dict[str, Any]:
        """Abort the session's running turn on this replica."""
        await _check_owner(service, session, customer)
        running = service.runner.running.get(session)
        if running is None:
            return {"aborted": False}
        running.abort("abort")
        return {"aborted": True, "shielded": running.shielded}


async def _answer_text(service: Service, body: ConfirmationIn, session: str, customer: str) -> str:
    if body.lang is not None:
        lang: Lang = body.lang
    else:
        values = await _owned_session(service, session, customer)
        lang = "zh" if values.get("lang") == "zh" else "en"
    key = "confirm_yes_text" if body.answer == "yes" else "confirm_no_text"
    return load_templates("service", "page", lang)[key]


async def _start(service: Service, text: str, session: str, customer: str) -> RunningTurn:
    """Admit and start a turn, or refuse it at once (503 / 429 / 404 / 409).

    The admission gate comes first and before anything that waits (the ownership check may
    read the session store), so a shed request never queues behind running turns, and a shed
    request costs the customer no rate-limit token."""
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
        await _check_owner(service, session, customer)
        running = service.runner.start(text, session=session, customer=customer)
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


async def _outcome_unless_gone(request: Request, running: RunningTurn) -> TurnOutcome:
    """The turn's outcome; a client that hangs up meanwhile aborts the turn (as a dropped
    stream does)."""
    waiting = asyncio.ensure_future(running.outcome())
    while not waiting.done():
        await asyncio.wait({waiting}, timeout=0.5)
        if not waiting.done() and await request.is_disconnected():
            running.abort("disconnect")
    return waiting.result()


def _turn_response(service: Service, text: str, outcome: TurnOutcome) -> JSONResponse:
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
    if isinstance(outcome.error, TurnError):
        return 422, error_body("turn_refused", str(outcome.error))
    hotline = service.settings.hotline
    return 500, error_body("turn_failed", turn_failed_reply(text, hotline))


def _sse_event(event: str, data: Any) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def _sse(service: Service, text: str, running: RunningTurn) -> StreamingResponse:
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


def _load_assets() -> dict[str, bytes]:
    """The chat page's files, read once at start-up (package data under ``page/``)."""
    folder = resources.files("helpdesk.app.service").joinpath("page")
    return {f.name: f.read_bytes() for f in folder.iterdir() if f.is_file()}
