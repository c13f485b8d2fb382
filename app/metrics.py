"""Prometheus metrics of the bot, in a registry of their own (never the process-global one).

:class:`HelpdeskMetrics` counts turns by outcome, tool calls by tool / status / error class,
tool attempts, degrade events by stage / action / level, observes turn latency in a histogram
(:meth:`HelpdeskMetrics.turn_latency_quantile` reads P95 back from its buckets, as PromQL's
``histogram_quantile`` would) and mirrors circuit-breaker states from
:meth:`~helpdesk.degrade.breaker.BreakerBoard.snapshot` as a gauge. :meth:`exposition` is the text
a ``/metrics`` endpoint serves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

__all__ = ["BREAKER_STATE_VALUES", "LATENCY_BUCKETS", "HelpdeskMetrics"]

LATENCY_BUCKETS: Final[tuple[float, ...]] = (
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.0,
    4.0,
    8.0,
    16.0,
    30.0,
)
"""Turn latency buckets, seconds: the request budget (8 s by default) sits in the middle."""

BREAKER_STATE_VALUES: Final[Mapping[str, int]] = {"closed": 0, "half_open": 1, "open": 2}
"""Gauge value per breaker state."""


class HelpdeskMetrics:
    """The bot's metrics. One instance per process (or per drill), each with its own registry."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        self.turns = Counter(
            "helpdesk_turns",
            "Customer turns answered, by outcome (ok, degraded, failed, error).",
            ["outcome"],
            registry=self.registry,
        )
        self.tool_calls = Counter(
            "helpdesk_tool_calls",
            "Tool calls by tool, final status and error class ('' when none).",
            ["tool", "outcome", "error_class"],
            registry=self.registry,
        )
        self.tool_attempts = Counter(
            "helpdesk_tool_attempts",
            "Tool attempts (a call makes one or more) by tool and error class ('' on success).",
            ["tool", "error_class"],
            registry=self.registry,
        )
        self.degrade_events = Counter(
            "helpdesk_degrade_events",
            "Degrade events by stage, action (ladder step) and ladder level.",
            ["stage", "action", "level"],
            registry=self.registry,
        )
        self.turn_latency = Histogram(
            "helpdesk_turn_latency_seconds",
            "Time to answer one turn, seconds.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.breaker_state = Gauge(
            "helpdesk_breaker_state",
            "Circuit breaker state per breaker: 0 closed, 1 half-open, 2 open.",
            ["breaker"],
            registry=self.registry,
        )

    # ----------------------------------------------------------------- recording

    def record_turn(self, outcome: str, duration_s: float) -> None:
        self.turns.labels(outcome=outcome).inc()
        self.turn_latency.observe(max(0.0, duration_s))

    def record_call(self, tool: str, status: str, error_class: str | None) -> None:
        self.tool_calls.labels(tool=tool, outcome=status, error_class=error_class or "").inc()

    def record_attempt(self, tool: str, error_class: str | None) -> None:
        self.tool_attempts.labels(tool=tool, error_class=error_class or "").inc()

    def record_degrade_event(self, stage: str, action: str, level: int) -> None:
        self.degrade_events.labels(stage=stage, action=action, level=str(level)).inc()

    def refresh_breakers(self, snapshot: Mapping[str, Mapping[str, Any]]) -> None:
        """Mirror ``BreakerBoard.snapshot()`` into the breaker gauge."""
        for name, info in snapshot.items():
            state = str(info.get("state", "closed")).lower().replace("-", "_")
            self.breaker_state.labels(breaker=name).set(BREAKER_STATE_VALUES.get(state, 0))

    # ----------------------------------------------------------------- reading

    def value(self, name: str, **labels: str) -> float:
        """A sample's current value (0.0 when it was never recorded); for tests and reports."""
        found = self.registry.get_sample_value(name, labels)
        return float(found) if found is not None else 0.0

    def turn_latency_quantile(self, q: float) -> float | None:
        """Quantile ``q`` of turn latency from the histogram buckets (linear interpolation
        inside the bucket, as ``histogram_quantile``); None before the first turn."""
        if not 0 < q < 1:
            raise ValueError(f"q must be in (0, 1), got {q}")
        total = self.value("helpdesk_turn_latency_seconds_count")
        if total <= 0:
            return None
        rank = q * total
        lower, below = 0.0, 0.0
        for bound in LATENCY_BUCKETS:
            cumulative = self.value("helpdesk_turn_latency_seconds_bucket", le=_le(bound))
            if cumulative >= rank:
                inside = cumulative - below
                fraction = (rank - below) / inside if inside else 1.0
                return lower + (bound - lower) * fraction
            lower, below = bound, cumulative
        return LATENCY_BUCKETS[-1]

    def exposition(self) -> bytes:
        """The Prometheus text format of every metric in this registry."""
        return generate_latest(self.registry)


def _le(bound: float) -> str:
    return str(float(bound))
