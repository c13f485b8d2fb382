"""The degrade report of a run: built from the run's events file (JSONL) for ``helpdesk report``.

:func:`load_events` reads the call and turn records an :class:`~helpdesk.app.observe.Observer`
wrote; :func:`build_degrade_report` folds them into: how many turns succeeded, with and without
degradation; degrade events per stage; the most frequent reasons (numbers and identifiers
normalised away, so "retry in 0.05s" and "retry in 0.31s" count together); and the failing
dependencies ranked by customer impact — the summed severity of what the customer got in each
turn a dependency degraded (unknown write > failed > fallback or dropped > stale > retried).
:func:`render_markdown` prints it for operators.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

__all__ = ["SEVERITY", "build_degrade_report", "load_events", "normalize_reason", "render_markdown"]

SEVERITY: Final[Mapping[str, int]] = {
    "unknown": 5,
    "failed": 4,
    "degraded": 3,
    "skipped": 3,
    "stale": 2,
    "ok": 1,
}
"""Customer impact of a call's final status when it degraded on the way (``ok`` = retried)."""

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_KEY = re.compile(r"hd-[0-9a-f]{8,}")


def normalize_reason(reason: str) -> str:
    """A reason with keys and numbers replaced, so the same cause counts as one."""
    return _NUMBER.sub("#", _KEY.sub("<key>", reason)).strip()


def load_events(path: str | Path) -> list[dict[str, Any]]:
    """Records of a run's events file; blank and malformed lines are skipped."""
    out: list[dict[str, Any]] = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict):
            out.append(record)
    return out


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def build_degrade_report(records: Iterable[Mapping[str, Any]], *, top: int = 10) -> dict[str, Any]:
    """Fold a run's records into the degrade report (a JSON-able dict)."""
    records = list(records)
    turns = [r for r in records if r.get("type") == "turn"]
    stages: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    impact: Counter[tuple[str, str]] = Counter()
    affected: Counter[tuple[str, str]] = Counter()
    degraded_total = degraded_ok = clean_total = clean_ok = 0
    for turn in turns:
        degrade = turn.get("degrade") or {}
        events = [e for e in degrade.get("events", []) if isinstance(e, Mapping)]
        is_degraded = turn.get("outcome") != "ok"
        if is_degraded:
            degraded_total += 1
            degraded_ok += bool(turn.get("succeeded"))
        else:
            clean_total += 1
            clean_ok += bool(turn.get("succeeded"))
        statuses = {str(r.get("tool")): str(r.get("status")) for r in turn.get("tool_results", [])}
        seen: set[tuple[str, str]] = set()
        for event in events:
            stages[str(event.get("stage"))] += 1
            actions[str(event.get("action"))] += 1
            reasons[normalize_reason(str(event.get("reason", "")))] += 1
            target = str(event.get("target"))
            cause = (target, str(event.get("error_class") or "-"))
            if cause in seen or event.get("error_class") is None:
                continue
            seen.add(cause)
            affected[cause] += 1
            impact[cause] += SEVERITY.get(statuses.get(target, "ok"), 1)
    errors = sum(1 for r in records if r.get("type") == "turn_error")
    succeeded = degraded_ok + clean_ok
    durations = sorted(float(t.get("duration_s", 0.0)) for t in turns)
    p95 = durations[min(len(durations) - 1, int(0.95 * len(durations)))] if durations else None
    return {
        "turns": len(turns),
        "turn_errors": errors,
        "succeeded": succeeded,
        "success_rate": _rate(succeeded, len(turns)),
        "degraded_turns": degraded_total,
        "success_rate_degraded": _rate(degraded_ok, degraded_total),
        "success_rate_not_degraded": _rate(clean_ok, clean_total),
        "p95_turn_latency_s": p95,
        "calls": sum(1 for r in records if r.get("type") == "call"),
        "events_per_stage": dict(stages.most_common()),
        "events_per_action": dict(actions.most_common()),
        "top_reasons": [{"reason": r, "count": n} for r, n in reasons.most_common(top)],
        "impact": [
            {
                "target": target,
                "error_class": error_class,
                "turns": affected[(target, error_class)],
                "impact": score,
            }
            for (target, error_class), score in sorted(
                impact.items(), key=lambda item: (-item[1], item[0])
            )[:top]
        ],
    }


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"


def render_markdown(report: Mapping[str, Any], *, source: str = "") -> str:
    """The degrade report as Markdown for operators."""
    lines = ["# Degrade report" + (f": {source}" if source else ""), ""]
    p95 = report["p95_turn_latency_s"]
    lines += [
        f"- turns: {report['turns']} ({report['turn_errors']} raised)",
        f"- success rate: {_pct(report['success_rate'])}",
        f"- success rate with degradation: {_pct(report['success_rate_degraded'])} "
        f"of {report['degraded_turns']} degraded turns",
        f"- success rate without degradation: {_pct(report['success_rate_not_degraded'])}",
        f"- P95 turn latency: {'n/a' if p95 is None else f'{p95:.3f} s'}",
        "",
        "## Ranked by customer impact",
        "",
        "| target | error class | turns | impact |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {row['target']} | {row['error_class']} | {row['turns']} | {row['impact']} |"
        for row in report["impact"]
    ]
    lines += ["", "## Degrade events per stage", "", "| stage | events |", "|---|---|"]
    lines += [f"| {stage} | {n} |" for stage, n in report["events_per_stage"].items()]
    lines += ["", "## Top reasons", "", "| count | reason |", "|---|---|"]
    lines += [
        f"| {row['count']} | {row['reason'].replace('|', '/')} |" for row in report["top_reasons"]
    ]
    return "\n".join(lines) + "\n"
