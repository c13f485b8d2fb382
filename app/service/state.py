"""What the service's routes share: the :class:`Service` built by the app's lifespan and its
HTTP-level metrics."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from prometheus_client import Counter, Gauge

from helpdesk.app.service.admission import AdmissionGate, LoopLagMonitor, RateLimiter
from helpdesk.app.service.auth import TokenIssuer
from helpdesk.app.service.directory import SessionDirectory
from helpdesk.app.service.progress import ProgressObserver
from helpdesk.app.service.turns import TurnRunner
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot

__all__ = ["BotFactory", "Service", "ServiceMetrics"]


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
