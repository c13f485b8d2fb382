"""Writes a drill's results for operators: ``report.json``, ``report.md`` and ``report.png``.

The JSON is the whole :class:`~helpdesk.app.drill.DrillReport`; the Markdown leads with the
verdict, then every mismatch (expected vs actual path and reply), then the matrix as a table
(or, for a random drill, the invariant violations and the turn statistics). The chart has two
panels: the degrade path taken per fault kind (stacked counts) and the turn latency per fault
kind on the drill's fake clock. matplotlib is imported only here, lazily, so the bot itself does
not need it; without it the chart is skipped with a clear message.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from helpdesk.app.drill_common import DrillReport

__all__ = ["ChartUnavailableError", "degrade_paths", "latencies", "write_report"]

_PATH_ORDER = (
    "ok",
    "retry",
    "reconcile",
    "data",
    "function",
    "chain",
    "model",
    "handoff",
    "refused",
)


class ChartUnavailableError(RuntimeError):
    """matplotlib is not installed, so no PNG could be drawn."""


def _path_of(ladder: list[str], status: str | None) -> str:
    """The deepest step a call reached (``refused`` = a business no; ``ok`` = nothing)."""
    if not ladder:
        return "refused" if status == "failed" else "ok"
    return max(ladder, key=lambda step: _PATH_ORDER.index(step) if step in _PATH_ORDER else 0)


def degrade_paths(report: DrillReport) -> dict[str, Counter[str]]:
    """Fault kind -> how often each degrade path was taken."""
    out: dict[str, Counter[str]] = {}
    if report.mode == "matrix":
        for cell in report.cells:
            if cell.not_applicable or not cell.actual:
                continue
            path = _path_of(list(cell.actual.get("ladder", [])), cell.actual.get("status"))
            out.setdefault(str(cell.cell.fault), Counter())[path] += 1
        return out
    for turn in report.turns:
        actions = [a for a in turn["actions"] if a in _PATH_ORDER]
        path = _path_of(actions, None)
        for fault in sorted({f.rsplit(":", 1)[1] for f in turn["faults"]}) or ["none"]:
            out.setdefault(fault, Counter())[path] += 1
    return out


def latencies(report: DrillReport) -> dict[str, list[float]]:
    """Fault kind -> turn latencies (fake-clock seconds) of the turns that saw it."""
    out: dict[str, list[float]] = {}
    if report.mode == "matrix":
        for cell in report.cells:
            if cell.not_applicable is None and cell.actual:
                out.setdefault(str(cell.cell.fault), []).append(cell.virtual_s)
        return out
    for turn in report.turns:
        for fault in sorted({f.rsplit(":", 1)[1] for f in turn["faults"]}) or ["none"]:
            out.setdefault(fault, []).append(float(turn["virtual_s"]))
    return out


def _chart(report: DrillReport, target: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ChartUnavailableError(
            "the drill chart needs matplotlib: pip install 'helpdesk[ops]'"
        ) from exc
    paths = degrade_paths(report)
    lat = latencies(report)
    faults = sorted(set(paths) | set(lat))
    fig, (left, right) = plt.subplots(1, 2, figsize=(14, 5.5))
    bottom = [0] * len(faults)
    for step in _PATH_ORDER:
        counts = [paths.get(f, Counter())[step] for f in faults]
        if any(counts):
            left.bar(faults, counts, bottom=bottom, label=step)
            bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    left.set_title("Degrade path per fault")
    left.set_ylabel("calls" if report.mode == "matrix" else "turns")
    left.tick_params(axis="x", rotation=45)
    left.legend(fontsize="small")
    data = [lat.get(f, [0.0]) for f in faults]
    right.boxplot(data, tick_labels=faults)
    right.set_title("Turn latency per fault (fake-clock seconds)")
    right.set_ylabel("seconds")
    right.tick_params(axis="x", rotation=45)
    fig.suptitle(f"helpdesk drill ({report.mode}, seed {report.seed})")
    fig.tight_layout()
    fig.savefig(target, dpi=100)
    plt.close(fig)


def _markdown(report: DrillReport, chart: str | None) -> str:
    verdict = "PASS" if report.ok else "FAIL"
    lines = [f"# helpdesk drill: {report.mode} — {verdict}", ""]
    stats = ", ".join(f"{k}: {v}" for k, v in report.stats.items())
    lines += [f"Seed {report.seed}; {stats}; {report.wall_s:.1f} s wall.", ""]
    if chart:
        lines += [f"![degrade paths and latency]({chart})", ""]
    if report.mode == "matrix":
        bad = report.mismatches
        lines += [f"## Mismatches ({len(bad)})", ""]
        if not bad:
            lines += ["None: every cell took its declared path.", ""]
        for cell in bad:
            lines += [f"### {cell.cell.id}", ""]
            lines += [f"- {m}" for m in cell.mismatches]
            lines += [
                f"- expected: `{json.dumps(cell.expected, ensure_ascii=False)}`",
                f"- actual: `{json.dumps(cell.actual, ensure_ascii=False)}`",
                f"- reply: {cell.reply!r}",
                "",
            ]
        lines += [
            "## Matrix",
            "",
            "| cell | result | status | error class | ladder | executions |",
            "|---|---|---|---|---|---|",
        ]
        for cell in report.cells:
            result = cell.not_applicable or ("ok" if cell.passed else "MISMATCH")
            a = cell.actual
            lines.append(
                f"| {cell.cell.id} | {result} | {a.get('status', '')} | "
                f"{a.get('error_class') or ''} | {' > '.join(a.get('ladder', []))} | "
                f"{'' if a.get('executions') is None else a['executions']} |"
            )
    else:
        lines += [f"## Invariant violations ({len(report.violations)})", ""]
        if not report.violations:
            lines += ["None: no duplicate write, no false claim, budget held, all answered.", ""]
        for v in report.violations:
            lines.append(f"- **{v.name}** ({v.session}): {v.detail}")
        lines += ["", "## Degrade paths per fault", "", "| fault | paths |", "|---|---|"]
        for fault, counts in sorted(degrade_paths(report).items()):
            shown = ", ".join(f"{p} {n}" for p, n in counts.most_common())
            lines.append(f"| {fault} | {shown} |")
    return "\n".join(lines) + "\n"


def write_report(report: DrillReport, out: Path, *, chart: bool = True) -> dict[str, Any]:
    """Write ``report.json``, ``report.md`` and (when ``chart``) ``report.png`` into ``out``.

    Returns:
        ``{"json": path, "markdown": path, "chart": path | None, "chart_error": str | None}``.
    """
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "report.json"
    json_path.write_text(
        json.dumps(report.as_dict(), ensure_ascii=False, indent=2, default=str), encoding="utf-8"
    )
    png: Path | None = out / "report.png"
    error: str | None = None
    if chart:
        try:
            assert png is not None
            _chart(report, png)
        except ChartUnavailableError as exc:
            png, error = None, str(exc)
    else:
        png = None
    md_path = out / "report.md"
    md_path.write_text(_markdown(report, png.name if png else None), encoding="utf-8")
    return {"json": json_path, "markdown": md_path, "chart": png, "chart_error": error}
