"""OpenTelemetry spans for the bot: one per turn, per node run, per tool attempt, per model call.

Only the OpenTelemetry *API* is required: without an SDK the spans are no-ops and cost almost
nothing. Pass a ``TracerProvider`` (from ``opentelemetry-sdk``, e.g. with an in-memory or OTLP
exporter) to record them. Degrade events become span events named ``degrade`` carrying their
stage, target, action, level, error class and reason. Tool attempts are reported after the fact
(the executor tells us their duration), so their spans are back-dated by that duration.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from opentelemetry import trace
from opentelemetry.trace import Span, Status, StatusCode, TracerProvider

__all__ = ["SPAN_MODEL_CALL", "SPAN_NODE", "SPAN_TOOL_ATTEMPT", "SPAN_TURN", "TurnTracer"]

SPAN_TURN: Final = "helpdesk.turn"
SPAN_NODE: Final = "helpdesk.node"
"""Node spans are named ``helpdesk.node.<node name>``."""
SPAN_TOOL_ATTEMPT: Final = "helpdesk.tool_attempt"
SPAN_MODEL_CALL: Final = "helpdesk.model_call"

_Attr = str | bool | int | float


def _clean(attributes: Mapping[str, Any]) -> dict[str, _Attr]:
    """OpenTelemetry attributes cannot be None or nested: drop the former, stringify the rest."""
    out: dict[str, _Attr] = {}
    for key, value in attributes.items():
        if value is None:
            continue
        out[key] = value if isinstance(value, str | bool | int | float) else str(value)
    return out


class TurnTracer:
    """Opens the bot's spans on a tracer from ``provider`` (the global provider when None)."""

    def __init__(self, provider: TracerProvider | None = None) -> None:
        self.tracer = trace.get_tracer("helpdesk", tracer_provider=provider)

    @contextlib.contextmanager
    def turn(self, **attributes: Any) -> Iterator[Span]:
        """The span of one customer turn (made current: node and tool spans nest under it)."""
        with self.tracer.start_as_current_span(SPAN_TURN, attributes=_clean(attributes)) as span:
            yield span

    @contextlib.contextmanager
    def node(self, name: str, **attributes: Any) -> Iterator[Span]:
        with self.tracer.start_as_current_span(
            f"{SPAN_NODE}.{name}", attributes=_clean({"node": name, **attributes})
        ) as span:
            yield span

    @contextlib.contextmanager
    def model_call(self, tier: str, **attributes: Any) -> Iterator[Span]:
        with self.tracer.start_as_current_span(
            SPAN_MODEL_CALL, attributes=_clean({"model.tier": tier, **attributes})
        ) as span:
            yield span

    def tool_attempt(self, tool: str, duration_s: float, error_class: str | None) -> None:
        """A finished tool attempt: a span back-dated by ``duration_s``, under the current one."""
        end = time.time_ns()
        start = end - int(max(0.0, duration_s) * 1e9)
        span = self.tracer.start_span(
            SPAN_TOOL_ATTEMPT,
            attributes=_clean({"tool": tool, "error_class": error_class, "duration_s": duration_s}),
            start_time=start,
        )
        if error_class:
            span.set_status(Status(StatusCode.ERROR, error_class))
        span.end(end_time=end)

    def degrade_events(self, events: Sequence[Mapping[str, Any]], span: Span | None = None) -> None:
        """Add each degrade event (as in a turn payload) to ``span`` (default: the current)."""
        target = span if span is not None else trace.get_current_span()
        for event in events:
            target.add_event(
                "degrade",
                attributes=_clean(
                    {
                        "stage": event.get("stage"),
                        "target": event.get("target"),
                        "action": event.get("action"),
                        "level": event.get("level"),
                        "error_class": event.get("error_class"),
                        "reason": event.get("reason"),
                    }
                ),
            )
