"""ResilientExecutor: retries within the budget, breakers, stale cache, ladder, writes."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any, Literal

import httpx
import pytest
from pydantic import BaseModel

from helpdesk.degrade.breaker import BreakerBoard, BreakerPolicy, BreakerState
from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import (
    BusinessError,
    ErrorClass,
    RateLimitedError,
    TransientError,
    UnavailableError,
)
from helpdesk.tools.context import RequestContext, derive_idempotency_key
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.registry import ToolRegistry, VerifyOutcome
from helpdesk.tools.results import ToolCall, ToolStatus
from tests.fakes import ScriptedTool

ORDER = {"order_id": "100123", "status": "shipped"}


class OrderModel(BaseModel):
    order_id: str
    status: str


def setup(
    tool: Any, *, name: str = "get_order", seed: int = 1, **policy: Any
) -> tuple[ResilientExecutor, FakeClock, RequestContext]:
    clock = FakeClock()
    registry = ToolRegistry()

    async def wrapper(order_id: str, customer: str | None = None) -> Any:
        return await tool(order_id=order_id, customer=customer)

    registry.register(wrapper, name=name, **policy)
    executor = ResilientExecutor(registry, clock=clock, rng=random.Random(seed))
    return executor, clock, new_ctx(clock)


def new_ctx(clock: FakeClock, **kw: Any) -> RequestContext:
    return RequestContext.new(session="s1", turn=1, customer="C0001", clock=clock, **kw)


def call(name: str = "get_order", **args: Any) -> ToolCall:
    return ToolCall(name=name, args=args or {"order_id": "100123"}, id="c1")


async def test_executor_ok_returns_data_and_injects_customer() -> None:
    tool = ScriptedTool([ORDER])
    executor, _clock, ctx = setup(tool)
    result = await executor.run(call(), ctx)
    assert (result.status, result.data, result.attempts) == (ToolStatus.OK, ORDER, 1)
    assert tool.calls == [{"order_id": "100123", "customer": "C0001"}]


async def test_executor_transient_read_retries_with_full_jitter_backoff() -> None:
    tool = ScriptedTool([TransientError("get_order: 502"), ORDER])
    executor, clock, ctx = setup(tool, seed=3)
    result = await executor.run(call(), ctx)
    expected_wait = random.Random(3).uniform(0, 0.5)
    assert result.status is ToolStatus.OK
    assert result.attempts == 2
    assert result.ladder == (LadderStep.RETRY,)
    assert clock.sleeps == [pytest.approx(expected_wait)]
    assert ctx.budget.retries_used == 1


async def test_executor_read_timeout_gets_fast_retries_while_the_budget_allows() -> None:
    tool = ScriptedTool([], clock=None)

    async def slow(order_id: str, customer: str | None = None) -> Any:
        tool.calls.append({"order_id": order_id})
        await clock.sleep(10)
        return ORDER

    clock = FakeClock()
    registry = ToolRegistry()
    registry.register(slow, name="get_order", timeout=2.0)
    executor = ResilientExecutor(registry, clock=clock, rng=random.Random(1))
    ctx = new_ctx(clock)
    result = await executor.run(call(), ctx)
    assert result.status is ToolStatus.FAILED
    assert result.error_class is ErrorClass.TRANSIENT
    # four attempts (max_attempts) in the 8 s budget, the last cut to what is left of it; no
    # backoff between them
    assert len(tool.calls) == 4
    assert clock.sleeps == [10, 0.05, 10, 0.05, 10, 0.05, 10]
    assert clock.now() <= 8.0
    assert "timed out" in result.reason


async def test_executor_read_timeout_is_not_retried_past_the_request_budget() -> None:
    clock = FakeClock()
    attempts: list[int] = []

    async def slow(order_id: str, customer: str | None = None) -> Any:
        attempts.append(1)
        await clock.sleep(10)
        return ORDER

    registry = ToolRegistry()
    registry.register(slow, name="get_order", timeout=3.0)
    executor = ResilientExecutor(registry, clock=clock, rng=random.Random(1))
    ctx = new_ctx(clock)
    clock.advance(4.0)  # half the 8 s budget already spent by the turn
    result = await executor.run(call(), ctx)
    assert result.status is ToolStatus.FAILED
    # 3 s, a fast retry cut to what is left (~1 s); then the budget has no time for another
    assert len(attempts) == 2
    assert ctx.budget.remaining() == 0.0


async def test_executor_rate_limited_waits_retry_after_when_it_fits() -> None:
    tool = ScriptedTool([RateLimitedError("get_order: 429", retry_after=2.0), ORDER])
    executor, clock, ctx = setup(tool)
    result = await executor.run(call(), ctx)
    assert result.status is ToolStatus.OK
    assert clock.sleeps == [2.0]


async def test_executor_rate_limited_degrades_at_once_when_retry_after_exceeds_budget() -> None:
    tool = ScriptedTool([RateLimitedError("get_order: 429", retry_after=30.0)])
    executor, clock, ctx = setup(tool)
    result = await executor.run(call(), ctx)
    assert result.status is ToolStatus.FAILED
    assert result.error_class is ErrorClass.RATE_LIMITED
    assert clock.sleeps == []
    assert len(tool.calls) == 1


async def test_executor_rate_limited_without_retry_after_is_not_retried() -> None:
    tool = ScriptedTool([RateLimitedError("get_order: 429")])
    executor, _clock, ctx = setup(tool)
    result = await executor.run(call(), ctx)
    assert result.status is ToolStatus.FAILED
    assert len(tool.calls) == 1


@pytest.mark.parametrize(
    "error",
    [UnavailableError("503"), BusinessError("not cancellable", code="not_cancellable")],
)
async def test_executor_never_retries_unavailable_or_business(error: Exception) -> None:
    tool = ScriptedTool([error])
    executor, clock, ctx = setup(tool)
    result = await executor.run(call(), ctx)
    assert result.status is ToolStatus.FAILED
    assert len(tool.calls) == 1
    assert clock.sleeps == []


async def test_executor_business_error_is_plain_failure_with_code() -> None:
    tool = ScriptedTool([BusinessError("order 100123 is shipped", code="not_cancellable")])
    executor, _clock, ctx = setup(tool)
    result = await executor.run(call(), ctx)
    assert result.error_class is ErrorClass.BUSINESS
    assert result.data == {"code": "not_cancellable", "message": "order 100123 is shipped"}
    assert result.ladder == ()
    assert executor.breakers.get("get_order").snapshot()["failures"] == {}


async def test_executor_serves_stale_cache_with_age_after_failure() -> None:
    tool = ScriptedTool([ORDER, UnavailableError("get_order: 503 from GET /orders/100123")])
    executor, clock, ctx = setup(tool, cache_ttl=120.0)
    assert (await executor.run(call(), ctx)).status is ToolStatus.OK
    clock.advance(45)
    ctx2 = new_ctx(clock)
    result = await executor.run(call(), ctx2)
    assert result.status is ToolStatus.STALE
    assert result.data == ORDER
    assert result.age_s == pytest.approx(45)
    assert result.ladder == (LadderStep.DATA,)
    assert ctx2.degrade.stale == {"get_order": pytest.approx(45)}
    assert [e.action for e in ctx2.degrade.events] == [LadderStep.DATA]
    assert "503 from GET /orders/100123" in ctx2.degrade.events[0].reason


async def test_executor_stale_cache_expires_after_ttl() -> None:
    tool = ScriptedTool([ORDER, UnavailableError("503")])
    executor, clock, ctx = setup(tool, cache_ttl=30.0)
    await executor.run(call(), ctx)
    clock.advance(31)
    result = await executor.run(call(), new_ctx(clock))
    assert result.status is ToolStatus.FAILED
    assert LadderStep.HANDOFF in result.ladder


async def test_executor_cache_is_per_customer() -> None:
    tool = ScriptedTool([ORDER, UnavailableError("503")])
    executor, clock, ctx = setup(tool, cache_ttl=60.0)
    await executor.run(call(), ctx)
    other = RequestContext.new(session="s2", turn=1, customer="C0002", clock=clock)
    result = await executor.run(call(), other)
    assert result.status is not ToolStatus.STALE


async def test_executor_function_fallback_is_marked_as_fallback() -> None:
    tool = ScriptedTool([UnavailableError("503")])
    executor, _clock, ctx = setup(
        tool, fallback=lambda args, failure: {"message_key": "self_service", **args}
    )
    result = await executor.run(call(), ctx)
    assert result.status is ToolStatus.DEGRADED
    assert result.fallback is True
    assert result.data == {"message_key": "self_service", "order_id": "100123"}
    assert result.ladder == (LadderStep.FUNCTION,)


async def test_executor_parameter_step_retries_once_with_simplified_args() -> None:
    tool = ScriptedTool([UnavailableError("503"), ORDER])
    executor, _clock, ctx = setup(tool, simplify=lambda a: {"order_id": a["order_id"].strip("0")})
    result = await executor.run(call(order_id="1001230"), ctx)
    assert result.status is ToolStatus.DEGRADED
    assert tool.calls[1]["order_id"] == "100123"
    assert result.ladder == (LadderStep.PARAMETER,)


async def test_executor_open_breaker_skips_parameter_step() -> None:
    clock = FakeClock()
    tool = ScriptedTool([UnavailableError("503")] * 3)
    registry = ToolRegistry()

    async def get_order(order_id: str) -> Any:
        return await tool(order_id=order_id)

    registry.register(get_order, simplify=lambda a: {"order_id": "1"})
    board = BreakerBoard(BreakerPolicy(min_calls=2, failure_count=2, failure_rate=0.5), clock)
    executor = ResilientExecutor(registry, clock=clock, breakers=board)
    await executor.run(call(), new_ctx(clock))  # 503, then simplified 503: 2/2 -> open
    assert board.get("get_order").state is BreakerState.OPEN
    result = await executor.run(call(), new_ctx(clock))
    assert LadderStep.PARAMETER not in result.ladder
    assert "circuit open" in result.reason
    assert len(tool.calls) == 2


async def test_executor_non_core_failure_is_dropped_with_pending_item() -> None:
    tool = ScriptedTool([UnavailableError("503")])
    executor, _clock, ctx = setup(tool, core=False)
    result = await executor.run(call(), ctx)
    assert result.status is ToolStatus.SKIPPED
    assert result.ladder == (LadderStep.CHAIN,)
    assert ctx.degrade.partial
    assert [(p.status, p.what) for p in ctx.degrade.pending] == [("dropped", "get_order 100123")]


async def test_executor_core_failure_ends_in_handoff() -> None:
    tool = ScriptedTool([UnavailableError("get_order: 500")])
    executor, _clock, ctx = setup(tool)
    result = await executor.run(call(), ctx)
    assert result.status is ToolStatus.FAILED
    assert result.ladder == (LadderStep.HANDOFF,)
    assert [p.status for p in ctx.degrade.pending] == ["failed"]


async def test_executor_empty_response_is_schema_failure_not_data() -> None:
    tool = ScriptedTool([{}])
    executor, _clock, ctx = setup(tool, output=OrderModel)
    result = await executor.run(call(), ctx)
    assert result.status is ToolStatus.FAILED
    assert result.error_class is ErrorClass.SCHEMA


async def test_executor_null_core_field_is_schema_failure() -> None:
    tool = ScriptedTool([{"order_id": "100123", "status": None}])
    executor, _clock, ctx = setup(tool, output=OrderModel)
    result = await executor.run(call(), ctx)
    assert result.error_class is ErrorClass.SCHEMA
    assert "status" in result.reason


async def test_executor_unknown_tool_lists_valid_tools() -> None:
    executor, _clock, ctx = setup(ScriptedTool([]))
    result = await executor.run(ToolCall(name="get_ordr", args={}, id="x"), ctx)
    assert result.error_class is ErrorClass.INPUT
    assert result.issues == (
        {"path": "name", "message": "unknown tool 'get_ordr'", "allowed": ["get_order"]},
    )


async def test_executor_invalid_args_give_field_level_feedback_with_allowed_values() -> None:
    clock = FakeClock()
    registry = ToolRegistry()

    async def list_orders(status: Literal["paid", "shipped"], limit: int = 5) -> Any:
        return {}

    registry.register(list_orders)
    executor = ResilientExecutor(registry, clock=clock)
    result = await executor.run(
        ToolCall(name="list_orders", args={"status": "lost", "limit": "x"}), new_ctx(clock)
    )
    assert result.error_class is ErrorClass.INPUT
    paths = {i["path"]: i for i in result.issues}
    assert set(paths) == {"status", "limit"}
    assert paths["status"]["allowed"] == ["paid", "shipped"]


async def test_executor_refuses_identity_passed_as_argument() -> None:
    tool = ScriptedTool([ORDER])
    executor, _clock, ctx = setup(tool)
    result = await executor.run(call(order_id="100123", customer="C0002"), ctx)
    assert result.error_class is ErrorClass.INPUT
    assert tool.calls == []


async def test_executor_budget_caps_retries_across_calls_of_a_request() -> None:
    bad = TransientError("502")
    tool = ScriptedTool([bad, bad, ORDER, bad, bad, bad])
    executor, _clock, ctx = setup(tool)
    first = await executor.run(call(), ctx)  # 2 retries, then ok
    second = await executor.run(call(), ctx)  # the 3rd retry, then the budget is spent
    third = await executor.run(call(), ctx)  # no budget (and the request is degraded)
    assert (first.attempts, second.attempts, third.attempts) == (3, 2, 1)
    assert ctx.budget.retries_used == 3
    assert len(tool.calls) == 6


async def test_executor_respects_remaining_request_time_as_timeout() -> None:
    clock = FakeClock()
    seen: list[float | None] = []

    async def get_order(order_id: str) -> Any:
        seen.append(clock.deadline())
        return ORDER

    registry = ToolRegistry()
    registry.register(get_order, timeout=5.0)
    executor = ResilientExecutor(registry, clock=clock)
    ctx = new_ctx(clock, max_seconds=8.0)
    clock.advance(6)
    await executor.run(call(), ctx)
    assert seen == [pytest.approx(8.0)]  # 2 s left, not the tool's 5 s


# ---------------------------------------------------------------- writes


class Ledger:
    """A fake backend honouring idempotency keys, recording real executions."""

    def __init__(self) -> None:
        self.executions: list[str] = []
        self.by_key: dict[str, dict[str, Any]] = {}

    def execute(self, key: str, order_id: str) -> dict[str, Any]:
        if key in self.by_key:
            return self.by_key[key]
        self.executions.append(key)
        self.by_key[key] = {"order_id": order_id, "status": "cancelled"}
        return self.by_key[key]


def write_setup(
    *,
    lose_response: int = 0,
    fail_before: int = 0,
    kind: str = "write",
    idempotent: bool = True,
    verify: bool = True,
    compensation: bool = True,
) -> tuple[ResilientExecutor, Ledger, FakeClock, list[str]]:
    clock = FakeClock()
    ledger = Ledger()
    state = {"lose": lose_response, "before": fail_before}
    tickets: list[str] = []

    async def cancel_order(order_id: str, idempotency_key: str | None = None) -> Any:
        assert idempotency_key
        if state["before"]:
            state["before"] -= 1
            raise httpx.ConnectError("refused")
        result = ledger.execute(idempotency_key, order_id)
        if state["lose"]:
            state["lose"] -= 1
            raise httpx.ReadTimeout("lost")
        return result

    async def check(args: dict[str, Any], key: str, customer: str | None) -> VerifyOutcome:
        if key in ledger.by_key:
            return VerifyOutcome(executed=True, data=ledger.by_key[key])
        return VerifyOutcome(executed=False)

    async def compensate(c: ToolCall, key: str, reason: str, ctx: RequestContext) -> str:
        tickets.append(key)
        return "T-000900"

    registry = ToolRegistry()
    registry.register(
        cancel_order, kind=kind, idempotent=idempotent, verify=check if verify else None
    )
    executor = ResilientExecutor(
        registry,
        clock=clock,
        rng=random.Random(0),
        compensation=compensate if compensation else None,
    )
    return executor, ledger, clock, tickets


def cancel(confirmed: bool = False) -> ToolCall:
    return ToolCall(name="cancel_order", args={"order_id": "100123"}, id="w1", confirmed=confirmed)


async def test_write_lost_response_is_reconciled_by_key_and_executed_once() -> None:
    executor, ledger, clock, _ = write_setup(lose_response=1)
    ctx = new_ctx(clock)
    result = await executor.run(cancel(), ctx)
    assert result.status is ToolStatus.OK
    assert result.data == {"order_id": "100123", "status": "cancelled"}
    assert result.ladder == (LadderStep.RECONCILE,)
    assert len(ledger.executions) == 1
    assert result.idempotency_key == derive_idempotency_key(
        "s1", 1, "cancel_order", {"order_id": "100123"}
    )


async def test_write_unverifiable_is_unknown_with_compensation_ticket() -> None:
    executor, ledger, clock, tickets = write_setup(lose_response=1, verify=False)
    ctx = new_ctx(clock)
    result = await executor.run(cancel(), ctx)
    assert result.status is ToolStatus.UNKNOWN
    assert result.error_class is ErrorClass.UNKNOWN_OUTCOME
    assert result.ticket_id == "T-000900"
    assert tickets == [result.idempotency_key]
    assert [(p.status, p.ticket_id) for p in ctx.degrade.pending] == [("unknown", "T-000900")]
    assert len(ledger.executions) == 1


async def test_write_connect_error_before_send_is_retried_with_same_key() -> None:
    executor, ledger, clock, _ = write_setup(fail_before=1)
    result = await executor.run(cancel(), new_ctx(clock))
    assert result.status is ToolStatus.OK
    assert result.attempts == 2
    assert len(ledger.executions) == 1


async def test_non_idempotent_write_is_never_retried() -> None:
    executor, ledger, clock, _ = write_setup(fail_before=1, idempotent=False)
    result = await executor.run(cancel(), new_ctx(clock))
    assert result.status is ToolStatus.FAILED
    assert result.attempts == 1
    assert ledger.executions == []


async def test_money_needs_confirmation_then_is_never_retried() -> None:
    executor, ledger, clock, _ = write_setup(fail_before=1, kind="money")
    first = await executor.run(cancel(), new_ctx(clock))
    assert first.status is ToolStatus.NEEDS_CONFIRMATION
    assert ledger.executions == []
    second = await executor.run(cancel(confirmed=True), new_ctx(clock))
    assert second.status is ToolStatus.FAILED
    assert second.attempts == 1


async def test_write_key_is_stable_across_turns_for_the_same_action() -> None:
    executor, ledger, clock, _ = write_setup()
    c = ToolCall(name="cancel_order", args={"order_id": "100123"}, action_turn=4)
    r1 = await executor.run(c, RequestContext.new(session="s", turn=5, customer=None, clock=clock))
    r2 = await executor.run(c, RequestContext.new(session="s", turn=6, customer=None, clock=clock))
    assert r1.idempotency_key == r2.idempotency_key
    assert len(ledger.executions) == 1


# ---------------------------------------------------------------- concurrency


async def test_run_many_runs_in_parallel() -> None:
    clock = FakeClock()
    registry = ToolRegistry()

    async def get_order(order_id: str) -> Any:
        await clock.sleep(1.0)
        return {"order_id": order_id}

    registry.register(get_order)
    executor = ResilientExecutor(registry, clock=clock)
    calls = [ToolCall(name="get_order", args={"order_id": str(i)}, id=str(i)) for i in range(5)]
    results = await executor.run_many(calls, new_ctx(clock))
    assert [r.status for r in results] == [ToolStatus.OK] * 5
    assert clock.now() == pytest.approx(1.0)


async def test_run_many_goes_serial_after_two_rate_limited_batches() -> None:
    clock = FakeClock()
    registry = ToolRegistry()

    async def get_order(order_id: str) -> Any:
        raise RateLimitedError("429")

    registry.register(get_order)
    executor = ResilientExecutor(registry, clock=clock)
    calls = [ToolCall(name="get_order", args={"order_id": str(i)}, id=str(i)) for i in range(2)]
    for _ in range(2):
        await executor.run_many(calls, new_ctx(clock))
    assert executor.is_serialized("s1")
    ctx = new_ctx(clock)
    await executor.run_many(calls, ctx)
    assert LadderStep.SERIALIZE in [e.action for e in ctx.degrade.events]


def _overloaded_shop(
    refuse: set[str], *, cache_ttl: float = 0.0
) -> tuple[ResilientExecutor, FakeClock, list[str]]:
    """get_order refusing the orders in ``refuse`` with a 503, its throttle having seen half of
    its recent attempts refused (an overload: not healthy, still serving)."""
    clock = FakeClock()
    registry = ToolRegistry()
    sent: list[str] = []

    async def get_order(order_id: str) -> Any:
        sent.append(order_id)
        await clock.sleep(0.25)
        if order_id in refuse:
            raise UnavailableError("get_order: HTTP 503", status_code=503)
        return {"order_id": order_id}

    registry.register(get_order, cache_ttl=cache_ttl)
    executor = ResilientExecutor(registry, clock=clock, rng=random.Random(1))
    throttle = executor.throttles.get("get_order")
    for i in range(10):
        throttle.record(accepted=i % 2 == 0)
    assert throttle.overloaded()
    return executor, clock, sent


def _lookups(*orders: str) -> list[ToolCall]:
    return [ToolCall(name="get_order", args={"order_id": o}, id=o) for o in orders]


async def test_run_many_to_an_overloaded_dependency_runs_serially_up_to_its_first_refusal() -> None:
    """A burst of parallel calls is what an overloaded dependency sheds first: one at a time,
    and once it refused this turn's call the rest are not sent (never retried into it)."""
    executor, clock, sent = _overloaded_shop({"2"})
    ctx = new_ctx(clock)
    results = await executor.run_many(_lookups("1", "2", "3", "4"), ctx)
    assert sent == ["1", "2"]  # one at a time; nothing after the refusal, no retry of it
    assert clock.now() == pytest.approx(0.5)
    assert [r.status for r in results] == [ToolStatus.OK] + [ToolStatus.FAILED] * 3
    assert all("not sent" in r.reason and "refused" in r.reason for r in results[2:])
    assert LadderStep.SERIALIZE in [e.action for e in ctx.degrade.events]
    assert ctx.held_back == {}  # lasts one batch
    # the next turn sends again
    sent.clear()
    later = await executor.run_many(_lookups("3", "4"), new_ctx(clock))
    assert sent == ["3", "4"] and all(r.status is ToolStatus.OK for r in later)


async def test_a_call_held_back_from_an_overloaded_dependency_is_served_from_the_cache() -> None:
    refuse: set[str] = set()
    executor, clock, sent = _overloaded_shop(refuse, cache_ttl=600.0)
    await executor.run(_lookups("3")[0], new_ctx(clock))  # order 3's last good answer
    refuse.add("1")
    sent.clear()
    results = await executor.run_many(_lookups("1", "3"), new_ctx(clock))
    assert sent == ["1"]
    assert results[1].status is ToolStatus.STALE and results[1].data == {"order_id": "3"}


async def test_run_many_to_a_healthy_dependency_stays_parallel() -> None:
    executor, clock, sent = _overloaded_shop(set())
    clock.advance(11.0)  # the overload is forgotten
    results = await executor.run_many(_lookups("1", "2", "3"), new_ctx(clock))
    assert sorted(sent) == ["1", "2", "3"] and all(r.status is ToolStatus.OK for r in results)
    assert clock.now() == pytest.approx(11.25)  # in parallel


async def test_executor_100_concurrent_calls_share_one_budget() -> None:
    clock = FakeClock()
    registry = ToolRegistry()
    attempts = {"n": 0}

    async def get_order(order_id: str) -> Any:
        attempts["n"] += 1
        await asyncio.sleep(0)
        raise TransientError("502")

    registry.register(get_order)
    executor = ResilientExecutor(registry, clock=clock, rng=random.Random(0))
    ctx = new_ctx(clock)
    calls = [ToolCall(name="get_order", args={"order_id": str(i)}, id=str(i)) for i in range(100)]
    results = await asyncio.gather(*(executor.run(c, ctx) for c in calls))
    assert all(r.status is ToolStatus.FAILED for r in results)
    assert ctx.budget.retries_used <= 3
    assert attempts["n"] <= 100 + 3
    assert json.dumps([r.model_dump(mode="json") for r in results])


async def test_write_never_sent_when_budget_is_spent_is_failed_not_unknown() -> None:
    executor, ledger, clock, tickets = write_setup()
    ctx = new_ctx(clock, max_seconds=1.0)
    clock.advance(2.0)
    result = await executor.run(cancel(), ctx)
    assert result.status is ToolStatus.FAILED
    assert result.error_class is ErrorClass.TRANSIENT
    assert "budget exhausted before the call was sent" in result.reason
    assert ledger.executions == [] and tickets == []
    assert executor.breakers.get("cancel_order").snapshot()["failures"] == {}


async def test_parameter_step_draws_from_the_retry_budget() -> None:
    tool = ScriptedTool([UnavailableError("503")])
    executor, clock, _ = setup(tool, simplify=lambda a: {"order_id": "1"})
    ctx = new_ctx(clock, max_retries=0)
    result = await executor.run(call(), ctx)
    assert len(tool.calls) == 1
    assert LadderStep.PARAMETER not in result.ladder


async def test_once_a_request_is_degraded_later_failures_do_not_retry() -> None:
    tool = ScriptedTool([UnavailableError("503"), TransientError("502")])
    executor, _clock, ctx = setup(tool)
    first = await executor.run(call(), ctx)
    assert LadderStep.HANDOFF in first.ladder  # the request entered degraded mode
    second = await executor.run(call(order_id="100124"), ctx)
    assert second.attempts == 1 and LadderStep.RETRY not in second.ladder
    assert "the request is already degraded" in ctx.degrade.events[-2].reason
