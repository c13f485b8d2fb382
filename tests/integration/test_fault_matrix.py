"""Every fault kind against every built-in tool of the demo shop: the exact path taken.

Faults are injected at the httpx transport (ChaosTransport), so the executor sees real HTTP:
statuses, Retry-After headers, cut bodies, timeouts. Each cell pins the ToolResult status, the
recorded error class, the ladder steps and a fragment of the recorded reason; for writes, the
shop's audit log says how many times the write really executed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpdesk.degrade.chaos import Fault, FaultRule
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass
from helpdesk.tools.results import ToolCall, ToolStatus
from tests.integration.shopworld import make_world

R, P, D, F, C, H, X = (
    LadderStep.RETRY,
    LadderStep.PARAMETER,
    LadderStep.DATA,
    LadderStep.FUNCTION,
    LadderStep.CHAIN,
    LadderStep.HANDOFF,
    LadderStep.RECONCILE,
)
E = ErrorClass

READS: dict[str, dict[str, Any]] = {
    "get_order": {"order_id": "100683"},
    "list_orders": {"limit": 5},
    "track_shipment": {"order_id": "100683"},
    "check_stock": {"sku": "SKU-1001"},
    "search_faq": {"topic": "returns", "lang": "en"},
}
WRITES: dict[str, dict[str, Any]] = {
    "create_ticket": {"subject": "Broken screen", "description": "Cracked", "order_id": "100683"},
    "cancel_order": {"order_id": "100998"},
    "request_refund": {"order_id": "100609"},
    "handoff_to_human": {"summary": "Customer wants a person"},
}

# fault -> (status, error class, ladder, reason fragment) for every read tool
READ_PATHS: dict[Fault, tuple[ToolStatus, ErrorClass | None, tuple[LadderStep, ...], str]] = {
    Fault.LATENCY: (ToolStatus.OK, None, (), ""),
    Fault.TIMEOUT: (ToolStatus.DEGRADED, E.TRANSIENT, (R, F), "timed out"),
    Fault.RESPONSE_LOST: (ToolStatus.DEGRADED, E.TRANSIENT, (R, F), "timed out"),
    Fault.CONNECTION_RESET: (ToolStatus.DEGRADED, E.TRANSIENT, (R, R, F), "cannot connect"),
    Fault.RATE_LIMITED: (ToolStatus.DEGRADED, E.RATE_LIMITED, (R, R, F), "429 from GET"),
    Fault.UNAVAILABLE: (ToolStatus.DEGRADED, E.UNAVAILABLE, (F,), "503 from GET"),
    Fault.SERVER_ERROR: (ToolStatus.DEGRADED, E.UNAVAILABLE, (F,), "500 from GET"),
    Fault.TRUNCATED_JSON: (ToolStatus.DEGRADED, E.SCHEMA, (F,), "not valid JSON"),
    Fault.EMPTY_DATA: (ToolStatus.DEGRADED, E.SCHEMA, (F,), "empty response"),
    Fault.BUSINESS_ERROR: (ToolStatus.FAILED, E.BUSINESS, (), "409 from GET"),
}

# fault -> (status, error class, ladder, reason fragment, executions) for idempotent writes
WRITE_PATHS: dict[Fault, tuple[ToolStatus, ErrorClass | None, tuple[LadderStep, ...], str, int]] = {
    Fault.LATENCY: (ToolStatus.OK, None, (), "", 1),
    Fault.TIMEOUT: (ToolStatus.FAILED, E.UNKNOWN_OUTCOME, (X,), "no response", 0),
    Fault.RESPONSE_LOST: (ToolStatus.OK, None, (X,), "", 1),
    Fault.CONNECTION_RESET: (ToolStatus.FAILED, E.TRANSIENT, (R, R, H), "cannot connect", 0),
    Fault.RATE_LIMITED: (ToolStatus.FAILED, E.RATE_LIMITED, (R, R, H), "429 from POST", 0),
    Fault.UNAVAILABLE: (ToolStatus.FAILED, E.UNAVAILABLE, (H,), "503 from POST", 0),
    Fault.SERVER_ERROR: (ToolStatus.FAILED, E.UNAVAILABLE, (H,), "500 from POST", 0),
    Fault.TRUNCATED_JSON: (ToolStatus.OK, None, (X,), "", 1),
    Fault.EMPTY_DATA: (ToolStatus.OK, None, (X,), "", 1),
    Fault.BUSINESS_ERROR: (ToolStatus.FAILED, E.BUSINESS, (), "409 from POST", 0),
}

# Money is never retried automatically: no retry, no replay after reconciliation.
MONEY_PATHS = {
    **WRITE_PATHS,
    Fault.CONNECTION_RESET: (ToolStatus.FAILED, E.TRANSIENT, (H,), "cannot connect", 0),
    Fault.RATE_LIMITED: (ToolStatus.FAILED, E.RATE_LIMITED, (H,), "429 from POST", 0),
}


def rules_for(tool: str, fault: Fault) -> list[FaultRule]:
    return [FaultRule(fault=fault, rate=1.0, target=tool, latency_s=0.5, retry_after_s=1.0)]


@pytest.mark.parametrize("fault", list(Fault), ids=str)
@pytest.mark.parametrize("tool", list(READS))
async def test_fault_matrix_reads(tool: str, fault: Fault, tmp_path: Path) -> None:
    world = make_world(tmp_path, rules_for(tool, fault))
    ctx = world.ctx()
    result = await world.executor.run(ToolCall(name=tool, args=READS[tool], id="c"), ctx)
    status, error_class, ladder, reason = READ_PATHS[fault]
    assert (result.status, result.error_class, result.ladder) == (status, error_class, ladder)
    assert reason in result.reason
    if status is ToolStatus.DEGRADED:
        assert result.fallback is True
        assert result.data["message_key"] == "self_service"
    if ladder:
        assert any(reason in e.reason for e in ctx.degrade.events)
    assert ctx.budget.retries_used <= 3


@pytest.mark.parametrize("fault", list(Fault), ids=str)
@pytest.mark.parametrize("tool", list(WRITES))
async def test_fault_matrix_writes(tool: str, fault: Fault, tmp_path: Path) -> None:
    world = make_world(tmp_path, rules_for(tool, fault))
    ctx = world.ctx()
    call = ToolCall(name=tool, args=WRITES[tool], id="w", confirmed=True)
    result = await world.executor.run(call, ctx)
    table = MONEY_PATHS if tool == "request_refund" else WRITE_PATHS
    status, error_class, ladder, reason, executions = table[fault]
    assert (result.status, result.error_class, result.ladder) == (status, error_class, ladder)
    assert reason in result.reason
    assert result.idempotency_key
    assert len(await world.audit(result.idempotency_key)) == executions
    if status is ToolStatus.FAILED and error_class is not E.BUSINESS:
        assert [p.status for p in ctx.degrade.pending] == ["failed"]
