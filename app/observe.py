"""The Observer: one object that instruments a bot with metrics, traces, logs and an events file.

It implements both :class:`~helpdesk.tools.executor.CallObserver` (every tool attempt and every
finished call) and :class:`~helpdesk.graph.builder.NodeObserver` (a context around every node
run), and adds :meth:`Observer.turn` (the span around a turn) and :meth:`Observer.turn_finished`
(called by the CLI, the service or a drill with the turn's payload). Each finished call is
logged as one JSON line on the ``helpdesk.calls`` logger; when ``events_path`` is given, calls
and turns are appended to that JSONL file: the run's events, from which ``helpdesk report``
builds the degrade report. It also remembers, per request, how many retries the request budget
granted, so drills can check the budget held.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from opentelemetry.trace import Span, TracerProvider

from helpdesk.app.calllog import call_record, turn_record
from helpdesk.app.metrics import HelpdeskMetrics
from helpdesk.app.tracing import TurnTracer
from helpdesk.degrade.breaker import BreakerBoard
from helpdesk.degrade.errors import Failure
from helpdesk.tools.context import RequestContext
from helpdesk.tools.results import ToolCall, ToolResult

__all__ = ["CALL_LOGGER", "Observer"]

CALL_LOGGER = "helpdesk.calls"
"""Logger name of the structured per-call JSON lines."""


class Observer:
    """Metrics + traces + structured logs + events file, behind the executor's and the graph's
    observer protocols.

    Args:
        metrics: where counts go; a fresh :class:`HelpdeskMetrics` (own registry) when None.
        tracer_provider: OpenTelemetry provider; the global one (a no-op without an SDK) if None.
        events_path: append call and turn records to this JSONL file; None = no file.
        breakers: a breaker board whose states are mirrored into the metrics after each turn.
        logger: where per-call JSON lines go (default the ``helpdesk.calls`` logger).
        wall: wall-clock source for record timestamps (a FakeClock's ``wall`` in drills).
    """

    def __init__(
        self,
        *,
        metrics: HelpdeskMetrics | None = None,
        tracer_provider: TracerProvider | None = None,
        events_path: str | Path | None = None,
        breakers: BreakerBoard | None = None,
        logger: logging.Logger | None = None,
        wall: Callable[[], float] | None = None,
    ) -> None:
        self.metrics = metrics if metrics is not None else HelpdeskMetrics()
        self.tracer = TurnTracer(tracer_provider)
        self.breakers = breakers
        self.log = logger or logging.getLogger(CALL_LOGGER)
        self._wall = wall or time.time
        self._lock = threading.Lock()
        self._events: IO[str] | None = None
        self.events_path = Path(events_path) if events_path is not None else None
        if self.events_path is not None:
            self.events_path.parent.mkdir(parents=True, exist_ok=True)
            self._events = self.events_path.open("a", encoding="utf-8")
        self.retries_by_request: dict[str, int] = {}
        """Request id -> retries its budget granted (the most seen at any finished call)."""
        self.calls: list[dict[str, Any]] = []
        """Every call record of this observer's life, in order (also in the events file)."""

    # ----------------------------------------------------------------- CallObserver

    def attempt_finished(
        self, *, tool: str, duration_s: float, failure: Failure | None, ctx: RequestContext
    ) -> None:
        error_class = str(failure.error_class) if failure is not None else None
        self.metrics.record_attempt(tool, error_class)
        self.tracer.tool_attempt(tool, duration_s, error_class)

    def call_finished(
        self,
        *,
        call: ToolCall,
        result: ToolResult,
        duration_s: float,
        waits: tuple[float, ...],
        ctx: RequestContext,
    ) -> None:
        record = call_record(call=call, result=result, duration_s=duration_s, waits=waits, ctx=ctx)
        self.metrics.record_call(record["tool"], record["status"], record["error_class"])
        with self._lock:
            used = ctx.budget.retries_used
            self.retries_by_request[ctx.request_id] = max(
                used, self.retries_by_request.get(ctx.request_id, 0)
            )
            self.calls.append(record)
        self.log.info(json.dumps(record, ensure_ascii=False))
        self._write(record)

    # ----------------------------------------------------------------- NodeObserver

    def node(self, name: str, state: Mapping[str, Any]) -> contextlib.AbstractContextManager[None]:
        return self._node(name, state)

    @contextlib.contextmanager
    def _node(self, name: str, state: Mapping[str, Any]) -> Iterator[None]:
        with self.tracer.node(name, session=state.get("session"), turn=state.get("turn")):
            yield

    # ----------------------------------------------------------------- turns and models

    @contextlib.contextmanager
    def turn(self, **attributes: Any) -> Iterator[Span]:
        """The span around one turn; call :meth:`turn_finished` inside it so the degrade events
        land on this span."""
        with self.tracer.turn(**attributes) as span:
            yield span

    def model_call(self, tier: str, **attributes: Any) -> contextlib.AbstractContextManager[Span]:
        """The span around one model call of ``tier`` (for the model layer to enter)."""
        return self.tracer.model_call(tier, **attributes)

    def turn_finished(self, payload: Mapping[str, Any], duration_s: float) -> dict[str, Any]:
        """Count, trace and record one answered turn; returns its record."""
        record = turn_record(payload, duration_s, at=float(self._wall()))
        self.metrics.record_turn(record["outcome"], duration_s)
        events = record["degrade"]["events"]
        for event in events:
            self.metrics.record_degrade_event(
                str(event.get("stage")), str(event.get("action")), int(event.get("level", 0))
            )
        self.tracer.degrade_events(events)
        if self.breakers is not None:
            self.metrics.refresh_breakers(self.breakers.snapshot())
        self._write(record)
        return record

    def turn_failed(self, error: BaseException, duration_s: float) -> None:
        """A turn that raised instead of answering (should never happen; counted if it does)."""
        self.metrics.record_turn("error", duration_s)
        self._write(
            {
                "type": "turn_error",
                "at": float(self._wall()),
                "duration_s": round(duration_s, 6),
                "error": type(error).__name__,
            }
        )

    # ----------------------------------------------------------------- events file

    def _write(self, record: Mapping[str, Any]) -> None:
        if self._events is None:
            return
        line = json.dumps(record, ensure_ascii=False, default=str)
        with self._lock:
            self._events.write(line + "\n")
            self._events.flush()

    def close(self) -> None:
        """Close the events file (further records are dropped)."""
        with self._lock:
            if self._events is not None:
                self._events.close()
                self._events = None

    def __enter__(self) -> Observer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
