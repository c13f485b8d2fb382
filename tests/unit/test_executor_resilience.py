"""ResilientExecutor against issue 15's defects: each test fails on the code before the fix."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx

from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass, TransientError
from helpdesk.tools.context import RequestContext
from helpdesk.tools.executor import DEFAULT_MAX_ATTEMPTS, ResilientExecutor
from helpdesk.tools.registry import ToolRegistry, VerifyOutcome
from helpdesk.tools.results import ToolCall, ToolStatus
from tests.fakes import ScriptedTool

ORDER = {"order_id": "100123", "status": "shipped"}


def read_setup(
    tool: ScriptedTool, *, retry_cap: RatioLimiter | None = None
) -> tuple[ResilientExecutor, FakeClock, RequestContext]:
    clock = FakeClock()
    registry = ToolRegistry()

    async def get_order(order_id: str) -> Any:
        return await tool(order_id=order_id)

    registry.register(get_order)
    executor = ResilientExecutor(registry, clock=clock, rng=random.Random(1), retry_cap=retry_cap)
    ctx = RequestContext.new(session="s1", turn=1, customer="C0001", clock=clock)
    return executor, clock, ctx


def get_order_call() -> ToolCall:
    return ToolCall(name="get_order", args={"order_id": "100123"}, id="c1")


class VendorRateLimit(Exception):
    """What some SDK helpdesk has never heard of raises on a 429."""

    def __init__(self, retry_after: float) -> None:
        super().__init__("slow down")
        self.status_code = 429
        self.retry_after = retry_after


async def test_executor_verify_gets_its_own_time_slice_after_the_budget_is_spent() -> None:
    # The write's response is lost 1 ms before the request's deadline; the verify read takes
    # 10 ms. Before: it ran under the ~1 ms left and the done write was reported unknown.
    clock = FakeClock()
    done: dict[str, Any] = {}

    async def cancel_order(order_id: str, idempotency_key: str | None = None) -> Any:
        await clock.sleep(7.999)
        done[str(idempotency_key)] = {"order_id": order_id, "status": "cancelled"}
        raise httpx.ReadTimeout("lost")

    async def check(args: dict[str, Any], key: str, customer: str | None) -> VerifyOutcome:
        await clock.sleep(0.01)
        return VerifyOutcome(executed=key in done, data=done.get(key))

    registry = ToolRegistry()
    registry.register(cancel_order, kind="write", idempotent=True, verify=check, timeout=10.0)
    executor = ResilientExecutor(registry, clock=clock)
    ctx = RequestContext.new(session="s1", turn=1, customer="C0001", clock=clock)
    call = ToolCall(name="cancel_order", args={"order_id": "100123"}, id="w1", confirmed=True)
    result = await executor.run(call, ctx)
    assert result.status is ToolStatus.OK
    assert result.ladder == (LadderStep.RECONCILE,)
    assert ctx.budget.expired()


async def test_executor_retry_refused_by_process_cap_is_not_taken_from_request_budget() -> None:
    cap = RatioLimiter(ratio=0.01, reserve_per_s=0.0, clock=FakeClock())
    cap.record_primary()
    assert cap.try_acquire() is True  # the process has used its retries
    executor, _clock, ctx = read_setup(
        ScriptedTool([TransientError("get_order: 502")]), retry_cap=cap
    )
    executor.retry_cap = cap
    result = await executor.run(get_order_call(), ctx)
    assert result.status is ToolStatus.FAILED
    assert ctx.budget.retries_used == 0
    assert any("process retry ratio cap" in e.reason for e in ctx.degrade.events)


async def test_executor_truncated_json_on_a_read_is_retried_once() -> None:
    truncated = json.JSONDecodeError("truncated", '{"order_id": "10', 16)
    executor, clock, ctx = read_setup(ScriptedTool([truncated, ORDER]))
    result = await executor.run(get_order_call(), ctx)
    assert (result.status, result.attempts, result.ladder) == (
        ToolStatus.OK,
        2,
        (LadderStep.RETRY,),
    )
    assert clock.sleeps == [executor.fast_retry_wait]


async def test_executor_truncated_json_twice_is_a_schema_failure() -> None:
    truncated = json.JSONDecodeError("truncated", '{"order_id": "10', 16)
    executor, _clock, ctx = read_setup(ScriptedTool([truncated, truncated]))
    result = await executor.run(get_order_call(), ctx)
    assert (result.status, result.error_class, result.attempts) == (
        ToolStatus.FAILED,
        ErrorClass.SCHEMA,
        2,
    )


async def test_executor_duck_typed_429_is_rate_limited_and_honours_retry_after() -> None:
    executor, clock, ctx = read_setup(ScriptedTool([VendorRateLimit(0.5), ORDER]))
    result = await executor.run(get_order_call(), ctx)
    assert result.status is ToolStatus.OK
    assert clock.sleeps == [0.5]
    events = [e for e in ctx.degrade.events if e.action is LadderStep.RETRY]
    assert [e.error_class for e in events] == [ErrorClass.RATE_LIMITED]


async def test_executor_breaker_does_not_count_a_failure_the_retry_recovered() -> None:
    executor, _clock, ctx = read_setup(ScriptedTool([TransientError("get_order: 502"), ORDER]))
    await executor.run(get_order_call(), ctx)
    snap = executor.breakers.get("get_order").snapshot()
    assert (snap["calls"], snap["failures"]) == (1, {})


async def test_executor_breaker_counts_one_failure_per_failed_call() -> None:
    tool = ScriptedTool([TransientError("get_order: 502")] * DEFAULT_MAX_ATTEMPTS)
    executor, _clock, ctx = read_setup(tool)
    result = await executor.run(get_order_call(), ctx)
    assert result.attempts == DEFAULT_MAX_ATTEMPTS == 4
    snap = executor.breakers.get("get_order").snapshot()
    assert (snap["calls"], snap["failures"]) == (1, {"transient": 1})


async def _overloaded_run(executor: ResilientExecutor, clock: FakeClock, serve_every: int) -> None:
    """40 calls at 20/s against a dependency that serves one in ``serve_every`` (0: none)."""
    for i in range(40):
        ctx = RequestContext.new(session=f"s{i}", turn=1, customer="C0001", clock=clock)
        await executor.run(ToolCall(name="get_order", args={"order_id": str(i)}, id=f"c{i}"), ctx)
        clock.advance(0.05)


def _load_setup(serve_every: int) -> tuple[ResilientExecutor, FakeClock, list[int]]:
    from helpdesk.degrade.errors import UnavailableError

    clock = FakeClock()
    registry = ToolRegistry()
    sent: list[int] = []

    async def get_order(order_id: str) -> Any:
        sent.append(1)
        if serve_every and len(sent) % serve_every == 0:
            return {"order_id": order_id, "status": "shipped"}
        raise UnavailableError("get_order: HTTP 503")  # shed by the shop, no Retry-After

    registry.register(get_order)
    return ResilientExecutor(registry, clock=clock, rng=random.Random(1)), clock, sent


async def test_overload_503s_are_shed_by_the_throttle_and_never_trip_the_breaker() -> None:
    # Before: 503s from an overloaded shop tripped the breaker (>= 50% and >= 10 in 60 s), which
    # then refused every call for 30 s and ramped — long after the overload ended.
    executor, clock, sent = _load_setup(serve_every=3)  # a 3x overload
    await _overloaded_run(executor, clock, 3)
    assert executor.breakers.get("get_order").state.value == "closed"
    assert len(sent) < 40  # the excess beyond 2x what it served was shed here
    clock.advance(10.0)  # the overload ended: nothing remembers it
    assert executor.throttles.get("get_order").reject_probability() == 0.0


async def test_a_dependency_serving_nothing_still_trips_the_breaker() -> None:
    executor, clock, _ = _load_setup(serve_every=0)
    await _overloaded_run(executor, clock, 0)
    assert executor.breakers.get("get_order").state.value == "open"


async def test_a_503_blip_from_a_healthy_dependency_is_retried_once_and_answers() -> None:
    """After issue 15's overload step the shop answered an occasional 503 at half its capacity
    (a momentary full queue); a 503 was never retried, so those turns went to the fallback."""
    from helpdesk.degrade.errors import UnavailableError

    clock = FakeClock()
    registry = ToolRegistry()
    sent: list[str] = []

    async def get_order(order_id: str) -> Any:
        sent.append(order_id)
        if order_id == "blip" and sent.count("blip") == 1:
            raise UnavailableError("get_order: HTTP 503", status_code=503)
        return {"order_id": order_id, "status": "shipped"}

    registry.register(get_order)
    executor = ResilientExecutor(registry, clock=clock, rng=random.Random(1))
    for i in range(12):  # a healthy history: everything accepted
        ctx = RequestContext.new(session=f"s{i}", turn=1, customer="C0001", clock=clock)
        ok = await executor.run(ToolCall(name="get_order", args={"order_id": str(i)}, id="c"), ctx)
        assert ok.status is ToolStatus.OK
        clock.advance(0.2)
    ctx = RequestContext.new(session="sb", turn=1, customer="C0001", clock=clock)
    result = await executor.run(ToolCall(name="get_order", args={"order_id": "blip"}, id="b"), ctx)
    assert result.status is ToolStatus.OK and result.attempts == 2
    assert sent.count("blip") == 2


async def test_overload_503s_are_not_retried() -> None:
    """The same 503 from a dependency refusing two in three: overload, never retried (a retry
    would add load to what it already refuses)."""
    executor, clock, sent = _load_setup(serve_every=3)
    await _overloaded_run(executor, clock, 3)
    calls = len(sent)
    ctx = RequestContext.new(session="sx", turn=1, customer="C0001", clock=clock)
    result = await executor.run(ToolCall(name="get_order", args={"order_id": "x"}, id="x"), ctx)
    assert result.attempts <= 1 and len(sent) - calls <= 1
