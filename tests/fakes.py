"""Fakes shared by the tests: scripted tools and a scripted clock-aware world."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from helpdesk.degrade.clock import FakeClock


class ScriptedTool:
    """A tool whose outcomes are scripted: each call pops the next value or raises it.

    Fails loudly when the script runs out, and records every call's arguments.
    """

    def __init__(
        self, outcomes: Iterable[Any], *, clock: FakeClock | None = None, latency: float = 0.0
    ) -> None:
        self.outcomes = list(outcomes)
        self.calls: list[dict[str, Any]] = []
        self.clock = clock
        self.latency = latency

    async def __call__(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        if self.clock is not None and self.latency:
            await self.clock.sleep(self.latency)
        if not self.outcomes:
            raise AssertionError(f"script exhausted after {len(self.calls)} calls: {kwargs}")
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        if callable(outcome):
            return outcome(**kwargs)
        return outcome


def make_async(fn: Callable[..., Any]) -> Callable[..., Any]:
    async def wrapper(**kwargs: Any) -> Any:
        return fn(**kwargs)

    return wrapper
