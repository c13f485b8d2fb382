"""Every fault kind against every drilled tool (the demo shop's, the loyalty pack's): the path.

The expected paths live in :mod:`helpdesk.app.drill_matrix`, the same table that
``helpdesk drill --matrix`` checks through whole bot turns. Faults are injected at the httpx
transport (ChaosTransport), so the executor sees real HTTP: statuses, Retry-After headers, cut
bodies, timeouts. Each cell pins the ToolResult status, the
recorded error class, the ladder steps and a fragment of the recorded reason; for writes, the
shop's audit log says how many times the write really executed. The loyalty pack's backend is
in-process: its faults are injected around the tool call (the executor's chaos plan) and its
writes are counted in the backend's own audit log.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpdesk.app.drill_matrix import TOOL_PROBES, expected_path
from helpdesk.degrade.chaos import ChaosPlan, Fault, FaultRule
from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.errors import ErrorClass
from helpdesk.examples.loyalty import LoyaltyBackend, loyalty_pack
from helpdesk.packs.shop import shop_declarations
from helpdesk.tools.builtin import make_compensation
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import PackEnv, PackSet
from helpdesk.tools.results import ToolCall, ToolStatus
from helpdesk.tools.shop_client import ShopClient
from tests.integration.shopworld import ShopWorld, make_world, seeded_copy

SHOP = {t: probe for t, probe in TOOL_PROBES.items() if probe.pack == "shop"}
READS = [t for t, probe in SHOP.items() if probe.kind == "read"]
WRITES = [t for t, probe in SHOP.items() if probe.kind != "read"]
LOYALTY = [t for t, probe in TOOL_PROBES.items() if probe.pack == "loyalty"]


def rules_for(tool: str, fault: Fault) -> list[FaultRule]:
    return [FaultRule(fault=fault, rate=1.0, target=tool, latency_s=0.5, retry_after_s=1.0)]


@pytest.mark.parametrize("fault", list(Fault), ids=str)
@pytest.mark.parametrize("tool", READS)
async def test_fault_matrix_reads(tool: str, fault: Fault, tmp_path: Path) -> None:
    world = make_world(tmp_path, rules_for(tool, fault))
    ctx = world.ctx()
    call = ToolCall(name=tool, args=dict(TOOL_PROBES[tool].args), id="c")
    result = await world.executor.run(call, ctx)
    path = expected_path(tool, fault)
    assert path is not None
    assert (result.status, result.error_class, result.ladder) == (
        path.status,
        path.error_class,
        path.ladder,
    )
    assert path.reason in result.reason
    if path.status is ToolStatus.DEGRADED:
        assert result.fallback is True
        assert result.data["message_key"] == "self_service"
    if path.ladder:
        assert any(path.reason in e.reason for e in ctx.degrade.events)
    assert ctx.budget.retries_used <= 3


@pytest.mark.parametrize("fault", list(Fault), ids=str)
@pytest.mark.parametrize("tool", WRITES)
async def test_fault_matrix_writes(tool: str, fault: Fault, tmp_path: Path) -> None:
    world = make_world(tmp_path, rules_for(tool, fault))
    ctx = world.ctx()
    call = ToolCall(name=tool, args=dict(TOOL_PROBES[tool].args), id="w", confirmed=True)
    result = await world.executor.run(call, ctx)
    path = expected_path(tool, fault)
    assert path is not None
    assert (result.status, result.error_class, result.ladder) == (
        path.status,
        path.error_class,
        path.ladder,
    )
    assert path.reason in result.reason
    assert result.idempotency_key
    assert len(await world.audit(result.idempotency_key)) == path.executions
    if path.status is ToolStatus.FAILED and path.error_class is not ErrorClass.BUSINESS:
        assert [p.status for p in ctx.degrade.pending] == ["failed"]


def loyalty_world(tmp: Path, backend: LoyaltyBackend, rules: list[FaultRule]) -> ShopWorld:
    clock = FakeClock()
    plan = ChaosPlan(rules, clock=clock)
    client = ShopClient.in_process(seeded_copy(tmp))
    packs = PackSet([shop_declarations(), loyalty_pack(backend)])
    registry = packs.build_registry(PackEnv(hotline="400", options={"shop_client": client}))
    executor = ResilientExecutor(
        registry, clock=clock, compensation=make_compensation(client), chaos=plan
    )
    return ShopWorld(clock=clock, client=client, executor=executor, plan=plan)


@pytest.mark.parametrize("fault", list(Fault), ids=str)
@pytest.mark.parametrize("tool", LOYALTY)
async def test_fault_matrix_loyalty_pack(tool: str, fault: Fault, tmp_path: Path) -> None:
    backend = LoyaltyBackend()
    world = loyalty_world(tmp_path, backend, rules_for(tool, fault))
    ctx = world.ctx()
    probe = TOOL_PROBES[tool]
    call = ToolCall(name=tool, args=dict(probe.args), id="p", confirmed=probe.kind != "read")
    result = await world.executor.run(call, ctx)
    path = expected_path(tool, fault)
    assert path is not None
    assert (result.status, result.error_class, result.ladder) == (
        path.status,
        path.error_class,
        path.ladder,
    )
    assert path.reason in result.reason
    if path.ladder:
        assert any(path.reason in e.reason for e in ctx.degrade.events)
    if probe.kind != "read":
        assert result.idempotency_key
        runs = [e for e in backend.audit if e.key == result.idempotency_key]
        assert len(runs) == path.executions
    await world.client.aclose()
