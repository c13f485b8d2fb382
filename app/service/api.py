"""The HTTP service: versioned JSON API, SSE progress, health, metrics and the chat page.

``create_app(settings)`` builds a FastAPI app whose lifespan opens the session store, builds the
bot and starts the event-loop lag monitor. Every turn goes through the session API; the
customer comes only from the bearer token; a session is bound to the customer who created it.
Turn requests are admitted by the per-customer rate limit (429) and the replica's admission gate
(503 + Retry-After, at once, never queued), run with a deadline (504) and can be aborted (the
abort endpoint, or a dropped stream). See the README, "Run the service".

The app is put together here; the routes are in :mod:`.routes`, what they share in
:mod:`.state`, access checks in :mod:`.access` and a turn's HTTP life in :mod:`.turn_http`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from importlib import resources
from typing import Any

from fastapi import FastAPI
from opentelemetry import trace
from opentelemetry.trace import TracerProvider

from helpdesk.app.privacy import require_checkpoint_key
from helpdesk.app.service.admission import AdmissionGate, LoopLagMonitor, RateLimiter
from helpdesk.app.service.auth import TokenIssuer
from helpdesk.app.service.directory import MemorySessionDirectory, SessionDirectory
from helpdesk.app.service.errors import install_error_handlers
from helpdesk.app.service.middleware import BodyLimitMiddleware, RequestSpanMiddleware
from helpdesk.app.service.progress import ProgressObserver
from helpdesk.app.service.replicas import open_replica_state
from helpdesk.app.service.routes import API_VERSION, install_routes
from helpdesk.app.service.state import BotFactory, Service, ServiceMetrics
from helpdesk.app.service.turns import TurnRunner
from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot, start_probing
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.graph.checkpoint import open_checkpointer
from helpdesk.packs.shop import shop_declarations
from helpdesk.tools.packs import Pack, PackSet

__all__ = ["API_VERSION", "BotFactory", "Service", "create_app"]


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
            service.ready_checks["journal"] = lambda: _check_journal(bot)
            background = [asyncio.create_task(lag.run_forever(), name="loop-lag")]
            probing = start_probing(bot, settings)  # model tiers' health, down ones more often
            if probing is not None:
                background.append(probing)
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
    install_routes(app, settings, assets)
    return app


async def _check_checkpointer(saver: Any) -> None:
    await saver.aget_tuple({"configurable": {"thread_id": "__readyz__"}})


async def _check_shop(bot: Bot) -> None:
    response = await bot.client.http.get("/healthz", timeout=2.0)
    response.raise_for_status()


async def _check_journal(bot: Bot) -> None:
    # the write journal is read at the start of every turn: a replica whose journal store does
    # not answer fails every turn
    await bot.executor.journal.unsettled("__readyz__")


def _load_assets() -> dict[str, bytes]:
    """The chat page's files, read once at start-up (package data under ``page/``)."""
    folder = resources.files("helpdesk.app.service").joinpath("page")
    return {f.name: f.read_bytes() for f in folder.iterdir() if f.is_file()}
