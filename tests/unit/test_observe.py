"""Observability: metrics counts, redaction, call-log shape, events file and span names."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import REGISTRY

from helpdesk.app.calllog import CALL_RECORD_FIELDS, turn_outcome, turn_succeeded
from helpdesk.app.degrade_report import build_degrade_report, normalize_reason
from helpdesk.app.metrics import HelpdeskMetrics
from helpdesk.app.observe import CALL_LOGGER, Observer
from helpdesk.app.redaction import redact, summarize_args
from helpdesk.degrade.breaker import BreakerBoard
from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass, Failure
from helpdesk.tools.context import RequestContext
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus


def _ctx(request_id: str = "req-1") -> RequestContext:
    return RequestContext.new(
        session="s1", turn=2, customer="C0001", clock=FakeClock(), request_id=request_id
    )


def _payload(*, level: int = 3, status: str = "degraded", ok: bool = True) -> dict[str, Any]:
    events = [
        {
            "stage": "execute",
            "target": "get_order",
            "error_class": "unavailable",
            "action": "function",
            "level": level,
            "reason": "answered by get_order's fallback after get_order: 503 from GET",
            "at": 0.0,
        }
    ]
    return {
        "reply": "暂时无法为您查询订单 100683 的状态。",
        "session": "s1",
        "tier": "minimal",
        "tasks": [],
        "tool_results": [
            {"tool": "get_order", "status": status, "error_class": "unavailable", "ladder": []}
        ],
        "degrade": {
            "request_id": "req-1",
            "events": events if level else [],
            "stale": {},
            "pending": [],
            "partial": False,
            "level": level,
        },
        "validation": {"ok": ok, "violations": []},
    }


def _finish_call(observer: Observer, ctx: RequestContext, **result: Any) -> None:
    call = ToolCall(name="create_ticket", args={"subject": "call 13812345678"}, id="c1")
    fields: dict[str, Any] = {"call_id": "c1", "tool": "create_ticket", "status": ToolStatus.OK}
    observer.call_finished(
        call=call,
        result=ToolResult(**{**fields, **result}),
        duration_s=0.25,
        waits=(0.05,),
        ctx=ctx,
    )


# ------------------------------------------------------------------------------------ metrics


def test_metrics_count_turns_calls_attempts_and_degrade_events() -> None:
    observer = Observer()
    ctx = _ctx()
    failure = Failure(error_class=ErrorClass.UNAVAILABLE, reason="503 from POST /tickets")
    observer.attempt_finished(tool="create_ticket", duration_s=0.1, failure=failure, ctx=ctx)
    observer.attempt_finished(tool="create_ticket", duration_s=0.1, failure=None, ctx=ctx)
    _finish_call(observer, ctx, attempts=2)
    observer.turn_finished(_payload(), 0.4)
    observer.turn_finished(_payload(level=0, status="ok"), 0.1)
    m = observer.metrics
    assert m.value("helpdesk_turns_total", outcome="degraded") == 1.0
    assert m.value("helpdesk_turns_total", outcome="ok") == 1.0
    assert m.value("helpdesk_tool_calls_total", tool="create_ticket", outcome="ok", error_class="")
    assert m.value("helpdesk_tool_attempts_total", tool="create_ticket", error_class="unavailable")
    assert m.value("helpdesk_tool_attempts_total", tool="create_ticket", error_class="") == 1.0
    labels = {"stage": "execute", "action": "function", "level": "3"}
    assert m.value("helpdesk_degrade_events_total", **labels) == 1.0
    assert m.value("helpdesk_turn_latency_seconds_count") == 2.0


def test_metrics_registry_is_not_the_global_one() -> None:
    metrics = HelpdeskMetrics()
    metrics.record_turn("ok", 0.1)
    assert metrics.registry is not REGISTRY
    assert REGISTRY.get_sample_value("helpdesk_turns_total", {"outcome": "ok"}) is None
    assert b"helpdesk_turns_total" in metrics.exposition()


def test_metrics_turn_latency_p95_reads_from_buckets() -> None:
    metrics = HelpdeskMetrics()
    assert metrics.turn_latency_quantile(0.95) is None
    for _ in range(95):
        metrics.record_turn("ok", 0.07)
    for _ in range(5):
        metrics.record_turn("ok", 3.0)
    p95 = metrics.turn_latency_quantile(0.95)
    assert p95 is not None and 0.05 <= p95 <= 0.1


def test_metrics_breaker_gauge_mirrors_board_snapshot() -> None:
    clock = FakeClock()
    board = BreakerBoard(clock=clock)
    board.get("get_order")
    breaker = board.get("check_stock")
    while breaker.try_acquire():
        breaker.record_failure(ErrorClass.UNAVAILABLE)
    observer = Observer(breakers=board)
    observer.turn_finished(_payload(level=0, status="ok"), 0.1)
    m = observer.metrics
    assert m.value("helpdesk_breaker_state", breaker="get_order") == 0.0
    assert m.value("helpdesk_breaker_state", breaker="check_stock") == 2.0


# ------------------------------------------------------------------------------------ redaction


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("call me at 13812345678 please", "call me at [phone] please"),
        ("电话 138-1234-5678", "电话 [phone]"),
        ("+86 138 1234 5678", "[phone]"),
        ("office (212) 555-0147", "office [phone]"),
        ("座机 010-62345678", "座机 [phone]"),
        ("mail li.na@example.com now", "mail [email] now"),
        ("card 4111 1111 1111 1111 ok", "card [card] ok"),
        ("card 5500-0000-0000-0004", "card [card]"),
        ("寄到：北京市朝阳区建国路88号3楼", "寄到：[address]"),
        ("地址：上海市浦东新区世纪大道100号", "地址：[address]"),
        ("送到 建国路88号", "送到 [address]"),
        ("ship to 221B Baker Street, London", "ship to [address], London"),
        ("I live at 42 Main St. Apt 5", "I live at [address]"),
    ],
)
def test_redact_replaces_personal_data(text: str, expected: str) -> None:
    assert redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "order 100683 shipped as YT9433239273",
        "SKU-1001 x 2, total 5198.00 CNY",
        "tickets T-000041 and refund R-000109 on 2026-10-31",
        "1234567812345678 is not a card number (Luhn)",
        "idempotency key hd-3f2a9c",
    ],
)
def test_redact_keeps_business_identifiers(text: str) -> None:
    assert redact(text) == text


def test_summarize_args_redacts_named_secrets_and_cuts_long_values() -> None:
    summary = summarize_args(
        {"phone": "anything", "order_id": "100683", "description": "x" * 200, "amount": None}
    )
    assert summary["phone"] == "[redacted]"
    assert summary["order_id"] == "100683"
    assert summary["amount"] is None
    assert len(summary["description"]) == 80


# ------------------------------------------------------------------------------------ call logs


def test_observer_logs_one_redacted_json_line_per_call(caplog: pytest.LogCaptureFixture) -> None:
    observer = Observer()
    with caplog.at_level(logging.INFO, logger=CALL_LOGGER):
        _finish_call(
            observer,
            _ctx(),
            status=ToolStatus.UNKNOWN,
            error_class=ErrorClass.UNKNOWN_OUTCOME,
            attempts=2,
            ladder=(LadderStep.RECONCILE, LadderStep.HANDOFF),
            idempotency_key="hd-abc",
            ticket_id="T-000041",
        )
    records = [json.loads(r.getMessage()) for r in caplog.records if r.name == CALL_LOGGER]
    assert len(records) == 1
    record = records[0]
    assert tuple(record) == CALL_RECORD_FIELDS
    assert record["args"] == {"subject": "call [phone]"}
    assert (record["status"], record["error_class"], record["attempts"]) == (
        "unknown",
        "unknown_outcome",
        2,
    )
    assert record["waits"] == [0.05]
    assert record["ladder"] == ["reconcile", "handoff"]
    assert record["idempotency_key_present"] is True
    assert record["result"]["ticket_id"] == "T-000041"
    assert (record["session"], record["turn"], record["request_id"]) == ("s1", 2, "req-1")


def test_observer_writes_calls_and_turns_to_events_file(tmp_path: Path) -> None:
    events = tmp_path / "run" / "events.jsonl"
    with Observer(events_path=events) as observer:
        _finish_call(observer, _ctx())
        observer.turn_finished(_payload(), 0.4)
    lines = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert [line["type"] for line in lines] == ["call", "turn"]
    assert lines[1]["outcome"] == "degraded"
    assert lines[1]["degrade"]["events"][0]["action"] == "function"


def test_observer_remembers_retries_granted_per_request() -> None:
    observer = Observer()
    ctx = _ctx("req-9")
    assert ctx.budget.try_acquire_retry(0.0)
    assert ctx.budget.try_acquire_retry(0.0)
    _finish_call(observer, ctx)
    assert observer.retries_by_request == {"req-9": 2}


def test_turn_outcome_and_success_distinguish_degraded_from_failed() -> None:
    assert turn_outcome(_payload(level=0, status="ok")) == "ok"
    assert turn_outcome(_payload()) == "degraded"
    assert turn_outcome(_payload(ok=False)) == "failed"
    assert turn_succeeded(_payload()) is True
    assert turn_succeeded(_payload(status="failed")) is False


def test_degrade_report_ranks_targets_by_customer_impact() -> None:
    records = [
        {"type": "turn", **_turn_record("get_order", "unavailable", "degraded")},
        {"type": "turn", **_turn_record("get_order", "unavailable", "degraded")},
        {"type": "turn", **_turn_record("cancel_order", "unknown_outcome", "unknown")},
        {"type": "turn", "outcome": "ok", "succeeded": True, "degrade": {}, "tool_results": []},
    ]
    report = build_degrade_report(records)
    assert report["turns"] == 4
    assert report["success_rate_not_degraded"] == 1.0
    assert [(r["target"], r["impact"]) for r in report["impact"]] == [
        ("get_order", 6),
        ("cancel_order", 5),
    ]
    assert report["events_per_stage"] == {"execute": 3}
    assert normalize_reason("retry in 0.31s after 503") == "retry in #s after #"


def _turn_record(tool: str, error_class: str, status: str) -> dict[str, Any]:
    return {
        "outcome": "degraded",
        "succeeded": status == "degraded",
        "duration_s": 0.1,
        "tool_results": [{"tool": tool, "status": status}],
        "degrade": {
            "events": [
                {
                    "stage": "execute",
                    "target": tool,
                    "error_class": error_class,
                    "action": "function",
                    "level": 3,
                    "reason": f"{tool}: 503",
                }
            ]
        },
    }


# ------------------------------------------------------------------------------------ traces


def test_observer_spans_cover_turn_node_tool_attempt_and_model_call() -> None:
    sdk = pytest.importorskip("opentelemetry.sdk.trace")
    export = pytest.importorskip("opentelemetry.sdk.trace.export")
    memory = pytest.importorskip("opentelemetry.sdk.trace.export.in_memory_span_exporter")
    exporter = memory.InMemorySpanExporter()
    provider = sdk.TracerProvider()
    provider.add_span_processor(export.SimpleSpanProcessor(exporter))
    observer = Observer(tracer_provider=provider)
    ctx = _ctx()
    with observer.turn(session="s1"):
        with observer.node("execute", {"session": "s1", "turn": 2}):
            observer.attempt_finished(tool="get_order", duration_s=0.2, failure=None, ctx=ctx)
        with observer.model_call("primary", stage="generate"):
            pass
        observer.turn_finished(_payload(), 0.4)
    spans = {s.name: s for s in exporter.get_finished_spans()}
    assert set(spans) == {
        "helpdesk.turn",
        "helpdesk.node.execute",
        "helpdesk.tool_attempt",
        "helpdesk.model_call",
    }
    turn = spans["helpdesk.turn"]
    assert spans["helpdesk.node.execute"].parent.span_id == turn.context.span_id
    assert spans["helpdesk.tool_attempt"].parent.span_id == (
        spans["helpdesk.node.execute"].context.span_id
    )
    assert spans["helpdesk.tool_attempt"].attributes["tool"] == "get_order"
    assert spans["helpdesk.model_call"].attributes["model.tier"] == "primary"
    [event] = turn.events
    assert event.name == "degrade"
    assert event.attributes["action"] == "function"
    assert "503 from GET" in event.attributes["reason"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("订单100683一直没到，我电话13812345678，谢谢", "订单100683一直没到，我电话[phone]，谢谢"),
        ("转人工，我的手机号码是13987654321", "转人工，我的手机号码是[phone]"),
        ("身份证 110101199003071234", "身份证 [id]"),
        ("call 010 6234 5678", "call [phone]"),
        ("卡号4111111111111111", "卡号[card]"),
        ("order 100683 total 1299", "order 100683 total 1299"),
    ],
)
def test_redact_after_chinese_text_and_more_formats(text: str, expected: str) -> None:
    assert redact(text) == expected
