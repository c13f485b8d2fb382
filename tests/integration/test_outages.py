"""Acceptance scenarios of the tool layer against the demo shop, on a fake clock."""

from __future__ import annotations

from pathlib import Path

from helpdesk.degrade.breaker import BreakerState
from helpdesk.degrade.chaos import Fault, FaultRule
from helpdesk.tools.results import ToolCall, ToolStatus
from tests.integration.shopworld import make_world


async def test_every_write_with_lost_response_executes_exactly_once(tmp_path: Path) -> None:
    rules = [
        FaultRule(fault=Fault.RESPONSE_LOST, rate=1.0, target=t)
        for t in ("create_ticket", "cancel_order", "request_refund", "handoff_to_human")
    ]
    world = make_world(tmp_path, rules)
    calls = [
        ToolCall(name="cancel_order", args={"order_id": "100998"}, id="a", confirmed=True),
        ToolCall(name="cancel_order", args={"order_id": "100904"}, id="b", confirmed=True),
        ToolCall(name="request_refund", args={"order_id": "100609"}, id="c", confirmed=True),
        ToolCall(name="create_ticket", args={"subject": "Broken", "description": "x"}, id="d"),
        ToolCall(name="handoff_to_human", args={"summary": "human please"}, id="e"),
    ]
    for turn in (1, 2):  # the same actions again in a later turn (a resume) change nothing
        ctx = world.ctx(turn=1)
        results = await world.executor.run_many(calls, ctx)
        assert [r.status for r in results] == [ToolStatus.OK] * 5, turn
    for result in results:
        entries = await world.audit(result.idempotency_key)
        assert len(entries) == 1, result.tool
    # what was reported is what happened: the orders really are cancelled, the refund exists
    order = await world.client.call("GET", "/orders/100998", tool="t", customer="C0001")
    assert order["status"] == "cancelled"
    assert results[0].data["status"] == "cancelled"
    refunded = await world.client.call("GET", "/orders/100609", tool="t", customer="C0001")
    assert [r["refund_id"] for r in refunded["refunds"]].count(results[2].data["refund_id"]) == 1


async def test_thirty_minute_outage_opens_breaker_serves_stale_then_recovers(
    tmp_path: Path,
) -> None:
    outage = FaultRule(
        fault=Fault.UNAVAILABLE, rate=1.0, target="check_stock", start_s=60.0, end_s=60.0 + 30 * 60
    )
    world = make_world(tmp_path, [outage])
    call = ToolCall(name="check_stock", args={"sku": "SKU-1001"}, id="s")
    seen: list[tuple[float, ToolStatus, float | None]] = []
    states: list[BreakerState] = []
    for step in range(0, 40 * 60, 5):  # one request every 5 s for 40 minutes
        world.clock.advance(5 if step else 0)
        ctx = world.ctx(turn=step)
        result = await world.executor.run(call, ctx)
        assert ctx.budget.retries_used <= 3
        seen.append((world.clock.now(), result.status, result.age_s))
        states.append(world.executor.breakers.get("check_stock").state)
    statuses = [s for _, s, _ in seen]
    # before the outage: live data
    assert statuses[:12] == [ToolStatus.OK] * 12
    # during: stale data (with its age) while the 300 s TTL allows, then the fallback
    during = [(t, s, age) for t, s, age in seen if 60 < t < 60 + 30 * 60]
    stale = [(t, age) for t, s, age in during if s is ToolStatus.STALE]
    assert stale and all(age is not None and 0 < age <= 300 for _, age in stale)
    assert {s for _, s, _ in during} <= {ToolStatus.STALE, ToolStatus.DEGRADED}
    assert any(s is ToolStatus.DEGRADED for _, s, _ in during)
    # the breaker opened during the outage, and was closed again by the end
    assert BreakerState.OPEN in states
    transitions = [
        (t.from_state, t.to_state) for t in world.executor.breakers.get("check_stock").transitions
    ]
    assert (BreakerState.CLOSED, BreakerState.OPEN) in transitions
    assert (BreakerState.OPEN, BreakerState.HALF_OPEN) in transitions
    assert transitions[-1] == (BreakerState.HALF_OPEN, BreakerState.CLOSED)
    assert statuses[-5:] == [ToolStatus.OK] * 5
    # while open, the shop was not called: the calls that reached it are far fewer than requests
    injected = [f for target, f in world.plan.injected if target == "check_stock"]
    assert len(injected) < len(during) / 2
