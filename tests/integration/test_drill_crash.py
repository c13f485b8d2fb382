"""`helpdesk drill --crash`: real `helpdesk chat` processes killed at failpoints inside write
turns, the customer's follow-up checked against a standalone shop's audit log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from helpdesk.app.cli import app
from helpdesk.app.drill_crash import (
    CrashScenario,
    Statement,
    _fresh_shop,
    classify_reply,
    judge,
    plan_scenarios,
)
from helpdesk.degrade.failpoints import POINTS
from helpdesk.tools.shop import ensure_seeded

SCENARIO = CrashScenario(
    index=0, kind="refund", lang="en", customer="C0001", order_id="100200", amount=100,
    failpoint="write.after_execute@1",
)  # fmt: skip


def test_plan_scenarios_is_seeded_and_uses_distinct_orders(tmp_path: Path) -> None:
    shop = ensure_seeded(tmp_path / "shop.sqlite")
    first = plan_scenarios(shop, points=40, seed=7)
    assert first == plan_scenarios(shop, points=40, seed=7)
    assert first != plan_scenarios(shop, points=40, seed=8)
    assert len({s.order_id for s in first}) == 40
    assert {s.kind for s in first} == {"cancel", "refund"} and {s.lang for s in first} == {
        "en",
        "zh",
    }
    assert {s.failpoint.split("@")[0] for s in first} == set(POINTS)


EXECUTED_EN = "About your earlier request: the refund of ¥100.00 for order 100200 went through."
NOT_EXECUTED_EN = (
    "About your earlier request: cancelling order 100998 did not go through, and nothing was "
    "changed. If you still want it, just ask again."
)
DROPPED_EN = (
    "Order 100803 has not been cancelled: that needed your confirmation. If you still want to "
    "cancel it, just ask again.\nSorry, I didn't quite get that."
)
EXECUTED_ZH = "关于您之前的请求：订单 100200 的退款申请已经办理成功。（退款单号 R-000110）"
UNKNOWN_ZH = (
    "关于您之前的请求：取消订单 100998的结果我暂时还无法确认，我们正在核实，请先不要重复提交。"
)


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (EXECUTED_EN, "done"),
        (NOT_EXECUTED_EN, "not_done"),
        (EXECUTED_ZH, "done"),
        (UNKNOWN_ZH, "unknown"),
        (DROPPED_EN, "not_done"),
        ("订单 100803 没有取消：取消需要您的确认。如仍需取消，请再告诉我一次。", "not_done"),
        ("Order 100998 is in status paid.", "none"),
    ],
)
def test_classify_reply_reads_the_templates(reply: str, said: str) -> None:
    assert classify_reply(reply, "request_refund") == said


def test_judge_flags_a_done_claim_without_execution_and_a_not_done_claim_with_one() -> None:
    done = Statement(turn="after.1", message="?", reply="", said="done", executions=0)
    not_done = Statement(turn="after.1", message="?", reply="", said="not_done", executions=1)
    honest = Statement(turn="after.1", message="?", reply="", said="done", executions=1)
    assert judge(done, SCENARIO, set()) == [
        "after.1 ('?'): says request_refund was done; the shop has no execution"
    ]
    assert judge(not_done, SCENARIO, set()) == [
        "after.1 ('?'): says request_refund was not done; the shop executed it"
    ]
    assert judge(honest, SCENARIO, set()) == []
    invented = Statement(turn="t", message="m", reply="refund R-000999", said="none", executions=0)
    assert judge(invented, SCENARIO, {"R-000001"}) == [
        "t ('m'): names refund R-000999, which the shop does not have"
    ]


@pytest.fixture(scope="module")
def crash_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, dict[str, Any], Path]:
    """Ten crash points through real subprocesses (about 30 `helpdesk chat` runs), once."""
    out = tmp_path_factory.mktemp("crash")
    result = CliRunner().invoke(
        app, ["drill", "--crash", "--points", "10", "--seed", "7", "--workers", "5", "--out",
              str(out)],
    )  # fmt: skip
    report = json.loads((out / "report.json").read_text())
    return result.exit_code, result.output, report, out


def test_drill_crash_cli_reports_each_crash_point(
    crash_run: tuple[int, str, dict[str, Any], Path],
) -> None:
    exit_code, output, report, out = crash_run
    assert report["points"] == 10 and len(report["outcomes"]) == 10
    assert sorted(o["index"] for o in report["outcomes"]) == list(range(10))
    assert report["killed"] >= 1
    for outcome in report["outcomes"]:
        assert outcome["failpoint"] and outcome["statements"]
        assert outcome["ok"] == (outcome["violations"] == [])
    markdown = (out / "report.md").read_text()
    assert markdown.count("\n| ") == 11  # header + one row per crash point
    assert exit_code == (0 if report["ok"] else 1), output
    assert len((out / "outcomes.jsonl").read_text().splitlines()) == 10


def test_drill_crash_finds_no_duplicate_and_no_wrong_statement(
    crash_run: tuple[int, str, dict[str, Any], Path],
) -> None:
    _, _, report, _ = crash_run
    assert report["duplicate_executions"] == 0
    assert [o["violations"] for o in report["outcomes"] if o["violations"]] == []


def test_a_second_run_in_the_same_directory_starts_from_a_fresh_shop_and_no_sessions(
    tmp_path: Path,
) -> None:
    stale = tmp_path / "conversations" / "crash-0005"
    stale.mkdir(parents=True)
    (stale / "sessions.sqlite").write_text("an earlier run's sessions")
    (tmp_path / "outcomes.jsonl").write_text("{}\n")
    _fresh_shop(tmp_path)
    assert not (tmp_path / "conversations").exists()
    assert not (tmp_path / "outcomes.jsonl").exists()
    assert (tmp_path / "shop.sqlite").exists()
