"""``helpdesk drill`` and ``helpdesk report``: whole-bot fault drills against the demo shop and
the loyalty pack."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from helpdesk.app.cli_ops import register
from helpdesk.app.drill import NOT_APPLICABLE_NO_TIERS, run_matrix, run_random
from helpdesk.app.drill_matrix import DrillCell
from helpdesk.app.drill_output import write_report
from helpdesk.app.observe import Observer
from helpdesk.app.settings import Settings
from helpdesk.degrade.chaos import Fault

SUBSET = [
    DrillCell(target="get_order", fault=Fault.UNAVAILABLE),
    DrillCell(target="get_order", fault=Fault.TIMEOUT, variant="warm"),
    DrillCell(target="list_orders", fault=Fault.SERVER_ERROR),
    DrillCell(target="check_stock", fault=Fault.BUSINESS_ERROR),
    DrillCell(target="cancel_order", fault=Fault.RESPONSE_LOST),
    DrillCell(target="cancel_order", fault=Fault.RESPONSE_LOST, variant="verify_lost"),
    DrillCell(target="request_refund", fault=Fault.RATE_LIMITED),
    DrillCell(target="create_ticket", fault=Fault.UNAVAILABLE),
    DrillCell(target="model:primary", fault=Fault.UNAVAILABLE),
]


LOYALTY_SUBSET = [
    DrillCell(target="points_balance", fault=Fault.UNAVAILABLE),
    DrillCell(target="points_balance", fault=Fault.TIMEOUT, variant="warm"),
    DrillCell(target="redeem_voucher", fault=Fault.RESPONSE_LOST),
    DrillCell(target="redeem_voucher", fault=Fault.SERVER_ERROR),
    DrillCell(target="convert_points", fault=Fault.RATE_LIMITED),
    DrillCell(target="convert_points", fault=Fault.TRUNCATED_JSON),
    DrillCell(target="convert_points", fault=Fault.BUSINESS_ERROR),
]
"""The loyalty pack's read, write and money tools (examples/loyalty) in the same matrix."""


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """helpdesk (test app)."""

    register(app)
    return app


async def test_drill_matrix_subset_takes_every_declared_path(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    with Observer(events_path=events) as observer:
        report = await run_matrix(
            Settings(data_dir=tmp_path), work_dir=tmp_path, cells=SUBSET, observer=observer
        )
    assert [c.mismatches for c in report.cells] == [[]] * len(SUBSET)
    assert report.ok
    by_id = {c.cell.id: c for c in report.cells}
    assert by_id["get_order:timeout[warm]"].actual["status"] == "stale"
    unknown = by_id["cancel_order:response_lost[verify_lost]"]
    assert unknown.actual["status"] == "unknown"
    assert unknown.actual["ticket_id"] in unknown.reply
    assert by_id["cancel_order:response_lost"].actual["executions"] == 1
    assert by_id["model:primary:unavailable"].not_applicable == NOT_APPLICABLE_NO_TIERS
    assert observer.metrics.value("helpdesk_turns_total", outcome="degraded") >= 5


async def test_drill_matrix_takes_the_loyalty_packs_declared_paths(tmp_path: Path) -> None:
    report = await run_matrix(Settings(data_dir=tmp_path), work_dir=tmp_path, cells=LOYALTY_SUBSET)
    assert [c.mismatches for c in report.cells] == [[]] * len(LOYALTY_SUBSET)
    by_id = {c.cell.id: c for c in report.cells}
    # a cold tool's 503 is not a blip (it served nothing lately): the pack's handoff at once
    assert by_id["points_balance:unavailable"].actual["ladder"] == ["handoff"]
    assert by_id["points_balance:timeout[warm]"].actual["status"] == "stale"
    # the write ran once, its response was lost, reconciliation found it by its key
    assert by_id["redeem_voucher:response_lost"].actual["executions"] == 1
    assert "V-SPRING" in by_id["redeem_voucher:response_lost"].reply
    assert by_id["convert_points:truncated_json"].actual["executions"] == 1
    assert by_id["convert_points:rate_limited"].actual["ladder"] == ["handoff"]  # money: no retry


async def test_drill_matrix_loyalty_unknown_outcome_names_its_ticket(tmp_path: Path) -> None:
    cell = DrillCell(target="convert_points", fault=Fault.TIMEOUT, variant="verify_lost")
    report = await run_matrix(Settings(data_dir=tmp_path), work_dir=tmp_path, cells=[cell])
    assert report.cells[0].actual["status"] == "unknown"
    assert report.cells[0].actual["executions"] == 0
    assert report.cells[0].mismatches == []


async def test_drill_matrix_reports_a_wrong_expectation_as_mismatch(tmp_path: Path) -> None:
    cell = DrillCell(target="get_order", fault=Fault.UNAVAILABLE)
    report = await run_matrix(
        Settings(data_dir=tmp_path),
        work_dir=tmp_path,
        cells=[cell],
        overrides={cell.id: {"status": "ok", "ladder": [], "reason": "never said"}},
    )
    assert not report.ok
    assert report.mismatches[0].mismatches == [
        "status: expected 'ok', got 'degraded'",
        "ladder: expected [], got ['function']",
        "reason: expected it to mention 'never said', got "
        f"{report.mismatches[0].actual['reason']!r}",
    ]


def test_drill_cli_exits_non_zero_on_mismatch_and_writes_reports(tmp_path: Path) -> None:
    expect = tmp_path / "expect.json"
    expect.write_text(json.dumps({"check_stock:unavailable": {"status": "ok"}}), encoding="utf-8")
    out = tmp_path / "out"
    args = ["drill", "--matrix", "--tool", "check_stock", "--fault", "unavailable"]
    args += ["--variant", "cold", "--out", str(out), "--no-chart"]
    result = CliRunner().invoke(_app(), [*args, "--expect-file", str(expect)])
    assert result.exit_code == 1, result.output
    assert "mismatch check_stock:unavailable: status: expected 'ok'" in result.output
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert (data["mode"], data["ok"], len(data["cells"])) == ("matrix", False, 1)
    assert "FAIL" in (out / "report.md").read_text(encoding="utf-8")
    clean = CliRunner().invoke(_app(), args)
    assert clean.exit_code == 0, clean.output


async def test_drill_random_small_run_holds_every_invariant(tmp_path: Path) -> None:
    report = await run_random(Settings(data_dir=tmp_path), work_dir=tmp_path, turns=40, seed=3)
    assert [v.as_dict() for v in report.violations] == []
    assert report.stats["turns"] == 40
    assert report.stats["faults_injected"] > 0
    assert len(report.turns) == 40


async def test_drill_random_is_reproducible_by_seed(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    first = await run_random(settings, work_dir=tmp_path / "a", turns=15, seed=11)
    second = await run_random(settings, work_dir=tmp_path / "b", turns=15, seed=11)
    assert [t["faults"] for t in first.turns] == [t["faults"] for t in second.turns]
    assert [t["statuses"] for t in first.turns] == [t["statuses"] for t in second.turns]


async def test_drill_report_files_include_chart_and_verdict(tmp_path: Path) -> None:
    report = await run_matrix(Settings(data_dir=tmp_path), work_dir=tmp_path, cells=SUBSET[:3])
    written = write_report(report, tmp_path / "out")
    assert written["chart"] is not None
    assert written["chart"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    markdown = written["markdown"].read_text(encoding="utf-8")
    assert markdown.startswith("# helpdesk drill: matrix — PASS")
    assert "| get_order:timeout[warm] | ok | stale |" in markdown
    data = json.loads(written["json"].read_text(encoding="utf-8"))
    assert [c["cell"] for c in data["cells"]] == [c.id for c in SUBSET[:3]]


async def test_report_command_prints_degrade_report_of_a_run(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    with Observer(events_path=events) as observer:
        await run_matrix(
            Settings(data_dir=tmp_path), work_dir=tmp_path, cells=SUBSET[:4], observer=observer
        )
    result = CliRunner().invoke(_app(), ["report", str(events)])
    assert result.exit_code == 0, result.output
    assert "# Degrade report: events.jsonl" in result.output
    assert "| get_order | unavailable |" in result.output
    assert "## Degrade events per stage" in result.output
    out = tmp_path / "report.md"
    written = CliRunner().invoke(_app(), ["report", str(events), "--out", str(out)])
    assert written.exit_code == 0
    assert out.read_text(encoding="utf-8").startswith("# Degrade report")
    as_json = CliRunner().invoke(_app(), ["report", str(events), "--json"])
    assert json.loads(as_json.output)["turns"] >= 4


async def test_drill_model_cells_with_the_scripted_brain(tmp_path: Path) -> None:
    from helpdesk.testing.drill_models import scripted_models

    cells = [
        DrillCell(target="model:primary", fault=Fault.UNAVAILABLE),
        DrillCell(target="model:primary", fault=Fault.TRUNCATED_JSON),
        DrillCell(target="model:backup", fault=Fault.TIMEOUT),
        DrillCell(target="model:primary", fault=Fault.LATENCY),
    ]
    report = await run_matrix(
        Settings(data_dir=tmp_path), work_dir=tmp_path, cells=cells, models=scripted_models
    )
    assert [c.mismatches for c in report.cells] == [[]] * len(cells)
    by_id = {c.cell.id: c for c in report.cells}
    assert by_id["model:primary:unavailable"].actual["tier"] == "backup"
    assert by_id["model:primary:truncated_json"].actual["error_class"] == "schema"
    assert by_id["model:backup:timeout"].actual["tier"] == "minimal"
    assert by_id["model:primary:latency"].actual["switched"] is False
