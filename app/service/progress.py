"""Stage progress of a running turn, in the customer's language.

:class:`ProgressObserver` is the bot's :class:`~helpdesk.app.observe.Observer` plus one thing:
while a turn runs under :func:`watching`, every node start, tool attempt that failed and tool
result that is stale or degraded becomes a :class:`Progress` item on that turn's
:class:`TurnWatch` (found through a context variable, so concurrent turns never mix). The node
hook also tells the watch when a write may be on the wire (the ``execute`` stage with a write or
money call), which is what makes an abort safe. :func:`render_progress` turns an item into the
text of ``prompts/service/progress.<lang>.yaml``.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from helpdesk.app.observe import Observer
from helpdesk.degrade.errors import Failure
from helpdesk.graph.language import Lang
from helpdesk.graph.prompting import load_templates, render
from helpdesk.tools.context import RequestContext
from helpdesk.tools.registry import ToolRegistry
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus

__all__ = [
    "Progress",
    "ProgressObserver",
    "TurnWatch",
    "current_watch",
    "render_progress",
    "watching",
]


@dataclass(frozen=True, slots=True)
class Progress:
    """One step of a turn the customer may see."""

    key: str
    """Template key in ``prompts/service/progress.*.yaml``."""
    stage: str
    """Graph stage it belongs to."""
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class TurnWatch:
    """What one running turn reports while it runs."""

    queue: asyncio.Queue[Progress] = field(default_factory=asyncio.Queue)
    write_stage: bool = False
    """A write or money call may be on the wire now (inside ``execute``)."""
    write_done: asyncio.Event = field(default_factory=asyncio.Event)
    """Set whenever no write is on the wire."""

    def __post_init__(self) -> None:
        self.write_done.set()

    def report(self, item: Progress) -> None:
        self.queue.put_nowait(item)

    def enter_write_stage(self) -> None:
        self.write_stage = True
        self.write_done.clear()

    def leave_write_stage(self) -> None:
        self.write_stage = False
        self.write_done.set()


current_watch: contextvars.ContextVar[TurnWatch | None] = contextvars.ContextVar(
    "helpdesk_turn_watch", default=None
)


@contextlib.contextmanager
def watching(watch: TurnWatch) -> Iterator[None]:
    """Report the progress of the turn run inside this block (and its child tasks) to
    ``watch``."""
    token = current_watch.set(watch)
    try:
        yield
    finally:
        current_watch.reset(token)


class ProgressObserver(Observer):
    """The bot's observer, also reporting each turn's progress to its :class:`TurnWatch`.

    Args:
        registry: the tools (tells a read from a write).
        **kwargs: as for :class:`~helpdesk.app.observe.Observer`.
    """

    def __init__(self, registry: ToolRegistry | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.registry = registry

    def node(self, name: str, state: Mapping[str, Any]) -> contextlib.AbstractContextManager[None]:
        watch = current_watch.get()
        if watch is None:
            return super().node(name, state)
        return self._watched_node(watch, name, state)

    @contextlib.contextmanager
    def _watched_node(
        self, watch: TurnWatch, name: str, state: Mapping[str, Any]
    ) -> Iterator[None]:
        calls = [t.call for t in state.get("tasks") or () if getattr(t, "call", None)]
        writes = name == "execute" and any(self._is_write(c) for c in calls)
        if name == "execute" and calls:
            for call in calls:
                watch.report(_call_progress(call, write=self._is_write(call)))
        else:
            watch.report(Progress(f"stage_{name}", name))
        if writes:
            watch.enter_write_stage()
        try:
            with super().node(name, state):
                yield
        finally:
            if writes:
                watch.leave_write_stage()

    def _is_write(self, call: ToolCall) -> bool:
        spec = self.registry.get(call.name) if self.registry is not None else None
        # Unknown tools count as writes: an abort must never cut one off blindly.
        return spec is None or spec.policy.kind != "read"

    def attempt_finished(
        self, *, tool: str, duration_s: float, failure: Failure | None, ctx: RequestContext
    ) -> None:
        super().attempt_finished(tool=tool, duration_s=duration_s, failure=failure, ctx=ctx)
        watch = current_watch.get()
        if watch is not None and failure is not None:
            watch.report(Progress("retrying", "execute", {"tool": tool}))

    def call_finished(
        self,
        *,
        call: ToolCall,
        result: ToolResult,
        duration_s: float,
        waits: tuple[float, ...],
        ctx: RequestContext,
    ) -> None:
        super().call_finished(call=call, result=result, duration_s=duration_s, waits=waits, ctx=ctx)
        watch = current_watch.get()
        if watch is None:
            return
        if result.status is ToolStatus.STALE:
            age = result.age_s or 0.0
            watch.report(Progress("stale", "execute", {"tool": call.name, "age_s": age}))
        elif result.status in (ToolStatus.DEGRADED, ToolStatus.FAILED):
            watch.report(Progress("unavailable", "execute", {"tool": call.name}))


def _call_progress(call: ToolCall, *, write: bool) -> Progress:
    if write:
        return Progress("sending_write", "execute", {"tool": call.name})
    if call.args.get("order_id"):
        return Progress("checking_order", "execute", {"order_id": str(call.args["order_id"])})
    if call.args.get("sku"):
        return Progress("checking_sku", "execute", {"sku": str(call.args["sku"])})
    return Progress("stage_execute", "execute")


def render_progress(item: Progress, lang: Lang) -> str:
    """The customer-facing line for ``item`` in ``lang``."""
    t = load_templates("service", "progress", lang)
    values = dict(item.values)
    if "tool" in values:
        tool = str(values.pop("tool"))
        key = f"service_{tool}"
        values["service"] = t[key] if key in t else t["service_generic"]
    if "age_s" in values:
        values["age"] = _age(float(values.pop("age_s")), lang)
    return render(t[item.key], **values)


def _age(seconds: float, lang: Lang) -> str:
    t = load_templates("service", "progress", lang)
    if seconds < 90:
        return render(t["age_seconds"], n=max(1, round(seconds)))
    if seconds < 90 * 60:
        return render(t["age_minutes"], n=round(seconds / 60))
    return render(t["age_hours"], n=round(seconds / 3600))
