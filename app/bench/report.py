"""Writes a benchmark run: ``report.json`` (everything), ``report.md`` (tables) and
``report.png`` (correct-or-honest rate and P95 latency per scenario and system).

matplotlib is imported only when the chart is drawn (it is an optional dependency); without it
the chart is skipped and the Markdown says so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

__all__ = ["TARGETS", "render_markdown", "target_checks", "write_report"]

TARGETS: Final = (
    "correct-or-honest >= 99% at 30% transient failures; 0 false claims; 0 duplicate writes; "
    "P95 <= 0.5x the LangChain baseline; amplification <= 1.2x; happy-path overhead <= 1.10x "
    "the bare LangGraph graph"
)


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _results_table(results: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = [
        _row(
            [
                "scenario",
                "system",
                "turns",
                "correct-or-honest",
                "fully answered",
                "false claims",
                "errors",
                "dup writes",
                "shop req / logical call",
                "shop req / turn",
                "P50 ms",
                "P95 ms",
                "P95 vs LangChain",
            ]
        ),
        _row(["---"] * 2 + ["---:"] * 11),
    ]
    p95_langchain = {r["scenario"]: r["p95_ms"] for r in results if r["system"] == "langchain"}
    for r in results:
        base = p95_langchain.get(r["scenario"])
        ratio = f"{r['p95_ms'] / base:.2f}x" if base else "-"
        lines.append(
            _row(
                [
                    r["scenario"],
                    r["system"],
                    str(r["turns"]),
                    f"{r['correct_or_honest']:.1%}",
                    f"{r['answered']:.1%}",
                    str(r["false_claims"]),
                    str(r["errors"]),
                    str(r["duplicate_writes"]),
                    f"{r['amplification']:.2f}",
                    f"{r['requests_per_turn']:.2f}",
                    f"{r['p50_ms']:.0f}",
                    f"{r['p95_ms']:.0f}",
                    ratio,
                ]
            )
        )
    return lines


def target_checks(report: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    """helpdesk against each target: (target, measured, met)."""
    mine = [r for r in report["results"] if r["system"] == "helpdesk"]
    langchain = {r["scenario"]: r for r in report["results"] if r["system"] == "langchain"}
    checks: list[tuple[str, str, bool]] = []
    at30 = next((r for r in mine if r["scenario"] == "transient_30"), None)
    if at30 is not None:
        checks.append(
            (
                "correct-or-honest >= 99% at 30% transient failures",
                f"{at30['correct_or_honest']:.1%} (fully answered {at30['answered']:.1%})",
                at30["correct_or_honest"] >= 0.99,
            )
        )
    claims = sum(r["false_claims"] for r in mine)
    checks.append(("0 false claims", f"{claims} over all scenarios", claims == 0))
    dups = sum(r["duplicate_writes"] for r in mine)
    checks.append(("0 duplicate writes", f"{dups} over all scenarios", dups == 0))
    ratios = {
        r["scenario"]: r["p95_ms"] / langchain[r["scenario"]]["p95_ms"]
        for r in mine
        if langchain.get(r["scenario"], {}).get("p95_ms")
    }
    if ratios:
        over = {k: v for k, v in ratios.items() if v > 0.5}
        checks.append(
            (
                "P95 <= 0.5x the LangChain baseline",
                ", ".join(f"{k} {v:.2f}x" for k, v in ratios.items()),
                not over,
            )
        )
    worst = max(mine, key=lambda r: r["amplification"], default=None)
    if worst is not None:
        checks.append(
            (
                "amplification <= 1.2x",
                f"max {worst['amplification']:.2f} ({worst['scenario']})",
                worst["amplification"] <= 1.2,
            )
        )
    ratio = report["happy_path_overhead"]["ratio_vs_bare_graph"]
    checks.append(("happy-path overhead <= 1.10x bare graph", f"{ratio:.2f}x", ratio <= 1.10))
    return checks


def render_markdown(report: Mapping[str, Any], *, chart: str | None) -> str:
    """The Markdown report of a run (see :func:`write_report`)."""
    config = report["config"]
    overhead = report["happy_path_overhead"]
    lines = [
        "# helpdesk bench",
        "",
        f"Seed {config['seed']}, {config['turns']} logical turns per scenario, model latency "
        f"{config['model_latency_s'] * 1000:g} ms per call, shop latency "
        f"{config['shop_latency_s'] * 1000:g} ms per request; run took "
        f"{report['elapsed_s']:.0f} s.",
        "",
        "Scenarios: "
        + "; ".join(
            f"`{name}` {text}"
            for name, text in config["scenarios_described"].items()
            if name in config["scenarios"]
        )
        + ".",
        "",
        *_results_table(report["results"]),
        "",
        "correct-or-honest: every request in the turn is either answered with the shop's truth "
        "or explicitly reported as not done / unknown, with no false claim. fully answered: "
        "every request answered with the truth. errors: turns where the system raised instead "
        "of replying (counted as not correct-or-honest). dup writes: cancel executions beyond "
        "the first per order in the shop's audit log. shop req / logical call: every request "
        "that reached the shop's transport (retries, prechecks, verifies, tickets included) per "
        "tool call the script asks for. helpdesk turns include its confirmation turns (a "
        'cancel is asked, then confirmed with "yes").',
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
        "## helpdesk against the targets (measured, never asserted)",
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
    results = report["results"]
    scenarios = list(dict.fromkeys(r["scenario"] for r in results))
    systems = list(dict.fromkeys(r["system"] for r in results))
    by_key = {(r["scenario"], r["system"]): r for r in results}
    panels = (
        ("correct_or_honest", "correct-or-honest turns (%)", 100.0),
        ("answered", "fully answered turns (%)", 100.0),
        ("p95_ms", "P95 turn latency (ms)", 1.0),
    )
    fig, axes = plt.subplots(1, len(panels), figsize=(16, 4.8))
    width = 0.8 / max(1, len(systems))
    for ax, (metric, title, scale) in zip(axes, panels, strict=True):
        for index, system in enumerate(systems):
            xs = [i + index * width for i in range(len(scenarios))]
            ax.bar(
                xs, [by_key[(s, system)][metric] * scale for s in scenarios], width, label=system
            )
        ax.set_title(title)
        ax.set_xticks([i + width * (len(systems) - 1) / 2 for i in range(len(scenarios))])
        ax.set_xticklabels(scenarios, rotation=20, ha="right", fontsize=8)
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
