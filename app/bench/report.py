"""Writes a benchmark run: ``report.json`` (everything), ``report.md`` (tables) and
``report.png`` (correct-or-honest rate and P95 latency per scenario and system).

matplotlib is imported only when the chart is drawn (it is an optional dependency); without it
the chart is skipped and the Markdown says so.

Over 400 lines on purpose: it is one document; the per-scenario rows, every table of ``report.md``,
the issue-15 target checks read from the same rows and the chart share the row shape and the
formatting helpers.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from helpdesk.app.settings import Settings

__all__ = ["TARGETS", "aggregate", "render_markdown", "target_checks", "write_report"]

TARGETS: Final = "issue 15's targets (see the last table)"

CAREFUL: Final = "langchain_careful"


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def aggregate(results: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per (scenario, system) over its repeats: means with min/max, sums of counts."""
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["scenario"], r["system"]), []).append(r)
    rows = []
    for (scenario, system), runs in groups.items():
        row: dict[str, Any] = {"scenario": scenario, "system": system, "repeats": len(runs)}
        for key in (
            "correct_or_honest",
            "answered",
            "amplification",
            "requests_per_turn",
            "p50_ms",
            "p95_ms",
            "confirm_p50_ms",
            "confirm_ok",
        ):
            values = [float(r[key]) for r in runs]
            row[key] = statistics.fmean(values)
            row[f"{key}_min"] = min(values)
            row[f"{key}_max"] = max(values)
        for key in (
            "turns",
            "false_claims",
            "errors",
            "duplicate_writes",
            "confirm_turns",
            "lower_tier_turns",
            "budget_moves",
            "hung_calls",
            "turns_hitting_hung_primary",
        ):
            row[key] = sum(int(r[key]) for r in runs)
        row["max_hung_per_turn"] = max(int(r["max_hung_per_turn"]) for r in runs)
        recoveries = [r["recovery_s"] for r in runs if r.get("recovery_s") is not None]
        row["recovery_s"] = max(recoveries) if recoveries else None
        turns = [r["recovery_turns"] for r in runs if r.get("recovery_turns") is not None]
        row["recovery_turns"] = max(turns) if turns else None
        affected = [float(r["affected_p95_ms"]) for r in runs if r.get("affected_p95_ms")]
        row["affected_p95_ms"] = statistics.fmean(affected) if affected else None
        rows.append(row)
    return rows


def _spread(row: Mapping[str, Any], key: str, fmt: str, scale: float = 1.0) -> str:
    mean = format(row[key] * scale, fmt)
    if row["repeats"] < 2:
        return mean
    low, high = row[f"{key}_min"] * scale, row[f"{key}_max"] * scale
    return f"{mean} ({format(low, fmt)}–{format(high, fmt)})"


def _results_table(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = [
        _row(
            [
                "scenario",
                "system",
                "turns",
                "fully answered",
                "correct-or-honest",
                "false claims",
                "errors",
                "dup writes",
                "shop req / logical call",
                "P50 ms",
                "P95 ms",
                "P95 vs careful LangChain",
            ]
        ),
        _row(["---"] * 2 + ["---:"] * 10),
    ]
    careful = {r["scenario"]: r["p95_ms"] for r in rows if r["system"] == CAREFUL}
    for r in rows:
        base = careful.get(r["scenario"])
        ratio = f"{r['p95_ms'] / base:.2f}x" if base else "-"
        lines.append(
            _row(
                [
                    r["scenario"],
                    r["system"],
                    str(r["turns"]),
                    _spread(r, "answered", ".1f", 100) + "%",
                    _spread(r, "correct_or_honest", ".1f", 100) + "%",
                    str(r["false_claims"]),
                    str(r["errors"]),
                    str(r["duplicate_writes"]),
                    _spread(r, "amplification", ".2f"),
                    _spread(r, "p50_ms", ".0f"),
                    _spread(r, "p95_ms", ".0f"),
                    ratio,
                ]
            )
        )
    return lines


def _tier_table(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    wanted = ("slow_models", "flapping_primary", "recovery", "primary_outage", "transient_0")
    lines = [
        _row(
            [
                "scenario",
                "system",
                "turns below primary (models healthy)",
                "budget-skipped tiers",
                "calls meeting a hung primary",
                "max per turn",
                "turns that met it",
                "recovery: s / turns until the primary served",
            ]
        ),
        _row(["---"] * 2 + ["---:"] * 6),
    ]
    for r in rows:
        if r["scenario"] not in wanted:
            continue
        recovery = (
            f"{r['recovery_s']:.1f} s / {r['recovery_turns']}"
            if r.get("recovery_s") is not None
            else "-"
        )
        helpdesk = r["system"].startswith("helpdesk")
        lines.append(
            _row(
                [
                    r["scenario"],
                    r["system"],
                    str(r["lower_tier_turns"]) if helpdesk else "-",
                    str(r["budget_moves"]) if helpdesk else "-",
                    str(r["hung_calls"]),
                    str(r["max_hung_per_turn"]),
                    str(r["turns_hitting_hung_primary"]),
                    recovery,
                ]
            )
        )
    return lines


def _overload_rows(runs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    by_system: dict[str, list[Mapping[str, Any]]] = {}
    for run in runs:
        by_system.setdefault(run["system"], []).append(run)
    out = []
    for system, mine in by_system.items():
        peak = [m["steps"][1] for m in mine]
        out.append(
            {
                "system": system,
                "repeats": len(mine),
                "offered_x": [p["offered_x"] for p in peak],
                "goodput_x": [p["goodput_x"] for p in peak],
                "answered": [p["fully_answered"] for p in peak],
                "p95_s": [p["p95_s"] for p in peak],
                "settled": [m["settled_fully_answered"] for m in mine],
                "settled_turns": sum(m["settled_turns"] for m in mine),
                "turns": sum(sum(s["turns"] for s in m["steps"]) for m in mine),
            }
        )
    return out


def _mm(values: Sequence[float], fmt: str, scale: float = 1.0) -> str:
    mean = statistics.fmean(values) * scale
    if len(values) < 2:
        return format(mean, fmt)
    low, high = format(min(values) * scale, fmt), format(max(values) * scale, fmt)
    return f"{format(mean, fmt)} ({low}–{high})"


def _overload_table(runs: Sequence[Mapping[str, Any]]) -> list[str]:
    if not runs:
        return ["(overload scenario not run)"]
    first = runs[0]
    lines = [
        f"Shop capacity {first['capacity']} concurrent requests x {first['service_s']:g} s ="
        f" {first['capacity_rps']:g} requests/s, a request waits up to"
        f" {first.get('max_wait_s', 0):g} s for a slot, 503 beyond; load steps 0.5x -> 2x ->"
        " 0.5x (open-loop"
        " one-turn conversations). Goodput: requests the shop served per second during the 2x"
        " step, as a share of its capacity. Settled: turns arriving >= 10 s after the 2x step"
        " ended.",
        "",
        _row(
            [
                "system",
                "turns",
                "offered (x capacity)",
                "goodput (x capacity)",
                "fully answered during 2x",
                "P95 s during 2x",
                "fully answered, settled",
            ]
        ),
        _row(["---"] + ["---:"] * 6),
    ]
    for r in _overload_rows(runs):
        lines.append(
            _row(
                [
                    r["system"],
                    str(r["turns"]),
                    _mm(r["offered_x"], ".2f"),
                    _mm(r["goodput_x"], ".0f", 100) + "%",
                    _mm(r["answered"], ".1f", 100) + "%",
                    _mm(r["p95_s"], ".1f"),
                    _mm(r["settled"], ".1f", 100) + f"% of {r['settled_turns']}",
                ]
            )
        )
    return lines


def target_checks(report: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    """helpdesk against each target of issue 15: (target, measured, met)."""
    rows = aggregate(report["results"])
    by = {(r["scenario"], r["system"]): r for r in rows}
    checks: list[tuple[str, str, bool]] = []

    def pair(scenario: str) -> tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]:
        return by.get((scenario, "helpdesk")), by.get((scenario, CAREFUL))

    for scenario, floor, amp, p in (
        ("transient_15", 0.98, 1.25, 15),
        ("transient_30", 0.95, 1.5, 30),
    ):
        mine, careful = pair(scenario)
        if mine is None:
            continue
        other = careful["answered"] if careful else 0.0
        checks.append(
            (
                f"{p}% transient: fully answered >= {floor:.0%} and >= careful LangChain",
                f"{mine['answered']:.1%} (min {mine['answered_min']:.1%}) vs {other:.1%}",
                mine["answered_min"] >= floor and mine["answered"] >= other,
            )
        )
        checks.append(
            (
                f"{p}% transient: shop requests per logical call <= {amp}",
                f"{mine['amplification']:.2f} (max {mine['amplification_max']:.2f})",
                mine["amplification_max"] <= amp,
            )
        )
    mine_all = [r for r in rows if r["system"] == "helpdesk"]
    claims = sum(r["false_claims"] for r in mine_all)
    dups = sum(r["duplicate_writes"] for r in mine_all)
    checks.append(("0 false claims", f"{claims} over all scenarios and repeats", claims == 0))
    checks.append(("0 duplicate writes", f"{dups} over all scenarios and repeats", dups == 0))
    overload = [r for r in _overload_rows(report.get("overload", [])) if r["system"] == "helpdesk"]
    if overload:
        o = overload[0]
        checks.append(
            (
                "overload 2x: goodput >= 90% of capacity during the step",
                _mm(o["goodput_x"], ".0f", 100) + "%",
                min(o["goodput_x"]) >= 0.9,
            )
        )
        checks.append(
            (
                "overload: >= 99% fully answered from 10 s after the step",
                _mm(o["settled"], ".1f", 100) + "%",
                min(o["settled"]) >= 0.99,
            )
        )
    for scenario, limit, label in (
        ("dependency_down", 0.2, "dependency down: P95 <= 0.2x careful LangChain"),
        ("transient_0", 1.0, "happy path: P95 <= 1.0x careful LangChain"),
    ):
        mine, careful = pair(scenario)
        if mine is not None and careful is not None and careful["p95_ms"]:
            ratio = mine["p95_ms"] / careful["p95_ms"]
            checks.append(
                (
                    label,
                    f"{ratio:.2f}x ({mine['p95_ms']:.0f} vs {careful['p95_ms']:.0f} ms)",
                    ratio <= limit,
                )
            )
    mine, careful = pair("dependency_down")
    if mine is not None and careful is not None and careful.get("affected_p95_ms"):
        # the turns the outage touched: the others are the happy path, whose P95 (two model
        # calls) bounds the all-turns figure above from below
        ratio = (mine.get("affected_p95_ms") or 0.0) / careful["affected_p95_ms"]
        checks.append(
            (
                "dependency down, the turns that needed the down tool: P95 <= 0.2x careful"
                " LangChain",
                f"{ratio:.2f}x ({mine.get('affected_p95_ms') or 0.0:.0f} vs"
                f" {careful['affected_p95_ms']:.0f} ms)",
                ratio <= 0.2,
            )
        )
    slow, _ = pair("slow_models")
    if slow is not None:
        checks.append(
            (
                "slow_models: 0 turns moved to a lower tier while models are healthy",
                f"{slow['lower_tier_turns']} turns ({slow['budget_moves']} budget skips)",
                slow["lower_tier_turns"] == 0,
            )
        )
    for scenario in ("flapping_primary", "recovery"):
        mine, _ = pair(scenario)
        if mine is None:
            continue
        per_window = mine["turns_hitting_hung_primary"]
        checks.append(
            (
                f"{scenario}: at most one timeout per turn (hung calls run in parallel at most"
                " 2: decompose + select)",
                f"max {mine['max_hung_per_turn']} hung calls in a turn, {per_window} turns met"
                " the hung primary",
                mine["max_hung_per_turn"] <= 2,
            )
        )
    mine, _ = pair("recovery")
    if mine is not None:
        seconds = mine["recovery_s"]
        # a down tier is probed every probe_unhealthy_interval_s: that is its probe interval
        interval = float(Settings.model_fields["probe_unhealthy_interval_s"].default)
        checks.append(
            (
                "recovery: primary serves again within one probe interval of a down tier"
                f" ({interval:.0f} s)",
                f"{seconds:.1f} s / {mine['recovery_turns']} turns"
                if seconds is not None
                else "never",
                seconds is not None and seconds <= interval,
            )
        )
    return checks


def render_markdown(report: Mapping[str, Any], *, chart: str | None) -> str:
    """The Markdown report of a run (see :func:`write_report`)."""
    config = report["config"]
    overhead = report["happy_path_overhead"]
    latency = config["latency"]
    rows = aggregate(report["results"])
    lines = [
        "# helpdesk bench",
        "",
        f"Seed {config['seed']} (+ repeat), {config['turns']} logical turns per scenario,"
        f" {config['repeats']} repeats; model latency per call log-normal, median"
        f" {latency['median_s']:g} s, P95 {latency['p95_s']:g} s, +"
        f" {latency['per_token_s'] * 1000:g} ms per output token; shop latency"
        f" {config['shop_latency_s'] * 1000:g} ms per request; a timeout fault hangs 3 s;"
        f" sessions in SQLite for every system; run took {report['elapsed_s']:.0f} s.",
        "",
        "Scenarios: "
        + "; ".join(
            f"`{name}` {text}"
            for name, text in config["scenarios_described"].items()
            if name in config["scenarios"]
        )
        + ".",
        "",
        "Figures are means over the repeats with (min–max); counts are sums.",
        "",
        *_results_table(rows),
        "",
        "correct-or-honest: every request in the turn is either answered with the shop's truth "
        "or explicitly reported as not done / unknown, with no false claim. fully answered: "
        "every request answered with the truth. errors: turns where the system raised instead "
        "of replying (counted as not correct-or-honest). dup writes: cancel executions beyond "
        "the first per order in the shop's audit log. shop req / logical call: every request "
        "that reached the shop's transport (retries, prechecks, verifies, tickets included) per "
        "tool call the script asks for. Turns are logical turns; helpdesk's confirmation "
        "questions are reported apart below.",
        "",
        "## helpdesk's confirmation turns",
        "",
        _row(["scenario", "confirmation questions", "correct", "P50 ms"]),
        _row(["---", "---:", "---:", "---:"]),
        *(
            _row(
                [
                    r["scenario"],
                    str(r["confirm_turns"]),
                    f"{r['confirm_ok']:.0%}",
                    f"{r['confirm_p50_ms']:.0f}",
                ]
            )
            for r in rows
            if r["system"] == "helpdesk" and r["confirm_turns"]
        ),
        "",
        "## Model tiers",
        "",
        *_tier_table(rows),
        "",
        "## Overload",
        "",
        *_overload_table(report.get("overload", [])),
        "",
        "## Happy-path overhead",
        "",
        _row(["system", "P50 ms", "mean ms", "P95 ms"]),
        _row(["---", "---:", "---:", "---:"]),
        *(
            _row([name, f"{v['p50_ms']:.1f}", f"{v['mean_ms']:.1f}", f"{v['p95_ms']:.1f}"])
            for name, v in overhead["systems"].items()
        ),
        "",
        f"helpdesk / bare graph: **{overhead['ratio_vs_bare_graph']:.2f}x**; "
        f"helpdesk / naive agent: **{overhead['ratio_vs_naive_agent']:.2f}x** "
        f"({overhead['turns']} turns). {overhead['compared']}",
        "",
        "## Token-check cost per turn",
        "",
        _row(
            [
                "messages",
                "tokens",
                "count_messages µs",
                "IncrementalTokenTally.sync µs",
                "LangChain count_tokens_approximately µs",
            ]
        ),
        _row(["---:"] * 5),
        *(
            _row(
                [
                    str(t["messages"]),
                    str(t["tokens"]),
                    f"{t['count_messages_us']:.1f}",
                    f"{t['incremental_sync_us']:.1f}",
                    f"{t['langchain_approx_us']:.1f}",
                ]
            )
            for t in report["token_check_cost"]
        ),
        "",
        "## helpdesk against the targets of issue 15 (measured, never asserted)",
        "",
        _row(["target", "measured", "met"]),
        _row(["---", "---", "---"]),
        *(_row([t, m, "yes" if ok else "**no**"]) for t, m, ok in target_checks(report)),
        "",
        f"![chart]({chart})" if chart else "(chart skipped: matplotlib is not installed)",
        "",
    ]
    return "\n".join(lines)


def _chart(report: Mapping[str, Any], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = aggregate(report["results"])
    if not rows:
        return False  # an overload-only run: no turn scenario to draw
    scenarios = list(dict.fromkeys(r["scenario"] for r in rows))
    systems = list(dict.fromkeys(r["system"] for r in rows))
    by_key = {(r["scenario"], r["system"]): r for r in rows}
    panels = (
        ("answered", "fully answered turns (%)", 100.0),
        ("correct_or_honest", "correct-or-honest turns (%)", 100.0),
        ("p95_ms", "P95 turn latency (ms)", 1.0),
    )
    fig, axes = plt.subplots(1, len(panels), figsize=(17, 5))
    width = 0.8 / max(1, len(systems))
    for ax, (metric, title, scale) in zip(axes, panels, strict=True):
        for index, system in enumerate(systems):
            xs = [i + index * width for i in range(len(scenarios))]
            cells = [by_key.get((s, system)) for s in scenarios]
            heights = [c[metric] * scale if c else 0.0 for c in cells]
            low = [(c[metric] - c[f"{metric}_min"]) * scale if c else 0.0 for c in cells]
            high = [(c[f"{metric}_max"] - c[metric]) * scale if c else 0.0 for c in cells]
            ax.bar(xs, heights, width, label=system, yerr=[low, high], capsize=2)
        ax.set_title(title)
        ax.set_xticks([i + width * (len(systems) - 1) / 2 for i in range(len(scenarios))])
        ax.set_xticklabels(scenarios, rotation=25, ha="right", fontsize=8)
        if scale == 100.0:
            ax.set_ylim(0, 105)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=len(systems), fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def write_report(report: Mapping[str, Any], out: Path) -> dict[str, Path]:
    """Write ``report.json``, ``report.png`` (when matplotlib is there) and ``report.md``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "report.json", "md": out / "report.md", "png": out / "report.png"}
    paths["json"].write_text(json.dumps(report, indent=2, ensure_ascii=False, default=str) + "\n")
    drawn = _chart(report, paths["png"])
    if not drawn:
        del paths["png"]
    paths["md"].write_text(render_markdown(report, chart="report.png" if drawn else None))
    return paths
