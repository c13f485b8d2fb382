"""``helpdesk bench --quick``: the smoke run writes its three files with every metric."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from helpdesk.app.bench.cli import register
from helpdesk.app.bench.systems import SYSTEM_NAMES
from helpdesk.app.bench.workload import SCENARIOS

METRICS = (
    "turns",
    "correct_or_honest",
    "answered",
    "false_claims",
    "errors",
    "duplicate_writes",
    "logical_calls",
    "shop_requests",
    "amplification",
    "requests_per_turn",
    "p50_ms",
    "p95_ms",
)


def _app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.callback()
    def main() -> None:
        """Keeps ``bench`` a sub-command, as in the real ``helpdesk`` app."""

    return app


QUICK_SCENARIOS = ("transient_15", "flapping_primary", "lost_writes", "overload")


def test_bench_quick_writes_report_files_with_every_system_and_scenario(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        _app(),
        [
            "bench",
            "--quick",
            "--seed",
            "3",
            "--scenarios",
            ",".join(QUICK_SCENARIOS),
            "--out",
            str(tmp_path),
        ],
    )

    assert result.exit_code == 0, result.output
    assert {p.name for p in tmp_path.iterdir()} >= {"report.md", "report.json", "report.png"}
    report = json.loads((tmp_path / "report.json").read_text())
    cells = {(r["system"], r["scenario"]): r for r in report["results"]}
    turn_scenarios = [c.name for c in SCENARIOS if c.name in QUICK_SCENARIOS and not c.overload]
    assert set(cells) == {(s, c) for s in SYSTEM_NAMES for c in turn_scenarios}
    for row in cells.values():
        assert all(metric in row for metric in METRICS)
        assert row["turns"] >= 1
    assert {run["system"] for run in report["overload"]} == set(SYSTEM_NAMES)
    assert all(len(run["steps"]) == 3 for run in report["overload"])
    assert set(report["happy_path_overhead"]["systems"]) == {"helpdesk", "helpdesk_bare", "naive"}
    assert [t["messages"] for t in report["token_check_cost"]] == [10, 100]
    markdown = (tmp_path / "report.md").read_text()
    assert all(s in markdown for s in SYSTEM_NAMES)
    assert "## Overload" in markdown and "## Model tiers" in markdown


def test_a_read_turn_never_asks_status_and_tracking_of_one_order(tmp_path: Path) -> None:
    """One tracking look answers a status question about the same order, so such a turn would
    count two logical calls for one call and flatter every system's requests per logical call."""
    from helpdesk.app.bench.workload import SCENARIOS, build_workload
    from tests.integration.shopworld import seeded_copy

    db = seeded_copy(tmp_path)
    for seed in range(6):
        for scenario in SCENARIOS:
            workload = build_workload(scenario, db=db, turns=30, seed=seed)
            for _, turn in workload.schedule():
                status = {e.key for e in turn.expects if e.kind == "status"}
                tracking = {e.key for e in turn.expects if e.kind == "tracking"}
                assert not status & tracking, turn.text
