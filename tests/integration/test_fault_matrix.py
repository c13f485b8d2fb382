"""Every fault kind against every built-in tool of the demo shop: the exact path taken.

The expected paths live in :mod:`helpdesk.app.drill_matrix`, the same table that
``helpdesk drill --matrix`` checks through whole bot turns. Faults are injected at the httpx
transport (ChaosTransport), so the executor sees real HTTP: statuses, Retry-After headers, cut
bodies, timeouts. Each cell pins the ToolResult status, the
recorded error class, the ladder steps and a fragment of the recorded reason; for writes, the
shop's audit log says how many times the write really executed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpdesk.app.drill_matrix import TOOL_PROBES, expected_path
from helpdesk.degrade.chaos import Fault, FaultRule
from helpdesk.degrade.errors import ErrorClass
from helpdesk.tools.results import ToolCall, ToolStatus
from tests.integration.shopworld import make_world

READS = [t for t, probe in TOOL_PROBES.items() if probe.kind == "read"]
WRITES = [t for t, probe in TOOL_PROBES.items() if probe.kind != "read"]


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
