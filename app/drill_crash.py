"""``helpdesk drill --crash``: kill real ``helpdesk chat`` processes in the middle of write turns
and check what the customer is told afterwards against the shop's audit log.

The shop runs as its own process (``helpdesk shop serve`` on a free 127.0.0.1 port, with its own
SQLite file), so it survives the bot's death, as a real backend would. For each crash point the
drill picks, with a seeded RNG, a customer and one of their orders, an action (cancel the order,
or refund an amount of it), a language and a failpoint (:mod:`helpdesk.degrade.failpoints`);
then it plays the conversation with ``helpdesk chat --json`` subprocesses, each with a fresh
data dir of its own and ``HELPDESK_SHOP_URL`` pointing at the shop:

1. ask for the action and say yes — with ``HELPDESK_FAILPOINT`` set, so the process kills itself
   (SIGKILL) before the write is sent, after the shop executed it, before the reply is
   published, or as a turn starts;
2. ask what happened, then ask for the action again (a new process, as after any crash);
3. say yes if the bot asked for a confirmation that is not the explicit "you already got this —
   another one?" question.

After every turn it compares what the reply says (done / not done / unknown, in the minimal
tier's own template words, and every refund or ticket id it names) with the shop's truth at
that moment, and at the end it counts the executions of the logical action. A violation is any
duplicate execution (more than one), or a reply that says the action was done when the shop has
no execution of it, or that it was not done when it was. ``report.md`` and ``report.json`` list
each crash point and its outcome.

The plan and records are in :mod:`.drill_crash_plan`, the judging of replies in
:mod:`.drill_crash_judge`, the shop and chat processes in :mod:`.drill_crash_world`.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from helpdesk.app.drill_crash_judge import AGAIN_KEYS, classify_reply, judge, says
from helpdesk.app.drill_crash_plan import (
    WHAT_HAPPENED,
    YES,
    CrashOutcome,
    CrashReport,
    CrashScenario,
    Statement,
    outcome_json,
    plan_scenarios,
)
from helpdesk.app.drill_crash_world import ChatRun, ShopLedger, ShopProcess, chat
from helpdesk.tools.shop import ensure_seeded

__all__ = [
    "CrashOutcome",
    "CrashReport",
    "CrashScenario",
    "Statement",
    "classify_reply",
    "judge",
    "plan_scenarios",
    "run_crash_drill",
    "write_crash_report",
]


async def play(
    scenario: CrashScenario,
    *,
    python: str,
    shop: ShopProcess,
    ledger: ShopLedger,
    work_dir: Path,
) -> CrashOutcome:
    """Play one crash point's conversation and judge every reply against the ledger."""
    outcome = CrashOutcome(scenario=scenario)
    data_dir = work_dir / scenario.session
    data_dir.mkdir(parents=True, exist_ok=True)
    request, yes = scenario.request(), YES[scenario.lang]

    def record(label: str, messages: Sequence[str], run: ChatRun) -> None:
        executions = ledger.executions(scenario)
        for i, text in enumerate(messages):
            if i < len(run.payloads):
                reply = str(run.payloads[i].get("reply", ""))
                said = classify_reply(reply, scenario.tool)
                if said == "none" and _asks_confirmation(run.payloads[i]):
                    said = "asks"
            else:
                reply, said = "", "no reply (killed)" if run.returncode == -9 else "no reply"
            outcome.statements.append(
                Statement(
                    turn=f"{label}.{i + 1}",
                    message=text,
                    reply=reply,
                    said=said,
                    executions=executions,
                )
            )
        if run.returncode not in (0, -9):
            tail = run.stderr.strip().splitlines()[-1:] or [""]
            outcome.violations.append(f"{label}: chat exited {run.returncode}: {tail[0][:200]}")

    first = await chat(
        python,
        [request, yes],
        scenario=scenario,
        data_dir=data_dir,
        shop_url=shop.url,
        failpoint=scenario.failpoint,
    )
    outcome.killed = first.killed_at_failpoint
    record("crash", [request, yes], first)

    after = await chat(
        python, [WHAT_HAPPENED[scenario.lang], request], scenario=scenario, data_dir=data_dir,
        shop_url=shop.url,
    )  # fmt: skip
    record("after", [WHAT_HAPPENED[scenario.lang], request], after)
    again = after.payloads[1] if len(after.payloads) > 1 else None
    if (
        again is not None
        and _asks_confirmation(again)
        and not says(str(again.get("reply", "")), AGAIN_KEYS)
    ):
        final = await chat(python, [yes], scenario=scenario, data_dir=data_dir, shop_url=shop.url)
        record("confirm", [yes], final)

    outcome.executions = ledger.executions(scenario)
    refund_ids = ledger.refund_ids(scenario.customer)
    for statement in outcome.statements:
        outcome.violations.extend(judge(statement, scenario, refund_ids))
    if outcome.executions > 1:
        outcome.violations.append(
            f"{scenario.tool} on {scenario.order_id} executed {outcome.executions} times"
        )
    return outcome


def _asks_confirmation(payload: dict[str, Any]) -> bool:
    return any(r.get("status") == "needs_confirmation" for r in payload.get("tool_results", []))


async def run_crash_drill(
    *,
    points: int,
    seed: int,
    out: Path,
    workers: int = 4,
    python: str = sys.executable,
    progress: Callable[[str], None] | None = None,
) -> CrashReport:
    """Run ``points`` crash points (``workers`` conversations at a time) and judge them.

    Args:
        points: crash points to play (one conversation each, on its own order).
        seed: seed of the plan (orders, actions, languages, failpoints).
        out: working directory (the shop's database, one data dir per conversation, logs).
        workers: conversations played concurrently.
        python: the interpreter that runs ``helpdesk`` subprocesses.
        progress: called with a label after each crash point.
    """
    if points < 1 or workers < 1:
        raise ValueError("points and workers must be >= 1")
    started = time.perf_counter()
    shop_db = _fresh_shop(out)
    scenarios = plan_scenarios(shop_db, points=points, seed=seed)
    report = CrashReport(seed=seed, points=points, workers=workers)
    ledger = ShopLedger(shop_db)
    conversations = out / "conversations"
    gate = asyncio.Semaphore(workers)
    async with ShopProcess(shop_db, out, python) as shop:

        async def one(scenario: CrashScenario) -> CrashOutcome:
            async with gate:
                outcome = await play(
                    scenario, python=python, shop=shop, ledger=ledger, work_dir=conversations
                )
            with (out / "outcomes.jsonl").open("a", encoding="utf-8") as log:
                log.write(json.dumps(outcome_json(outcome), ensure_ascii=False) + "\n")
            if progress is not None:
                progress(f"{scenario.session} {scenario.failpoint}")
            return outcome

        report.outcomes = list(await asyncio.gather(*(one(s) for s in scenarios)))
    report.duration_s = time.perf_counter() - started
    return report


def write_crash_report(report: CrashReport, out: Path) -> dict[str, Path]:
    """``report.json`` and ``report.md`` in ``out`` (``outcomes.jsonl`` grows during the run)."""
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out / "report.json", out / "report.md"
    json_path.write_text(
        json.dumps(report.as_json(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    md_path.write_text(_markdown(report), encoding="utf-8")
    return {"json": json_path, "markdown": md_path}


def _markdown(report: CrashReport) -> str:
    killed = sum(1 for o in report.outcomes if o.killed)
    lines = [
        f"# Crash drill — {'PASS' if report.ok else 'FAIL'}",
        "",
        f"seed {report.seed}, {report.points} crash points ({killed} processes killed at their "
        f"failpoint), {report.workers} at a time, {report.duration_s:.0f} s.",
        "",
        f"- duplicate executions: {report.duplicates}",
        f"- violations: {report.violations}",
        "",
        "| # | action | lang | failpoint | killed | executions | what the bot said after "
        "| outcome |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for o in report.outcomes:
        s = o.scenario
        action = (
            f"cancel {s.order_id}" if s.kind == "cancel" else f"refund ¥{s.amount} {s.order_id}"
        )
        said = ", ".join(st.said for st in o.statements)
        verdict = "ok" if o.ok else "VIOLATION: " + "; ".join(o.violations)
        lines.append(
            f"| {s.index} | {action} ({s.customer}) | {s.lang} | `{s.failpoint}` | "
            f"{'yes' if o.killed else 'no'} | {o.executions} | {said} | "
            f"{verdict.replace('|', '/')} |"
        )
    return "\n".join(lines) + "\n"


def _fresh_shop(out: Path) -> Path:
    """A newly seeded shop database in ``out``; any earlier run's shop, outcomes and
    conversations (their sessions and write journals) are removed — a second run in the same
    directory found the first run's refunds and pending confirmations and reported them as
    violations."""
    out.mkdir(parents=True, exist_ok=True)
    shop_db = out / "shop.sqlite"
    for stale in [*out.glob("shop.sqlite*"), out / "outcomes.jsonl"]:
        stale.unlink(missing_ok=True)
    shutil.rmtree(out / "conversations", ignore_errors=True)
    ensure_seeded(shop_db)
    return shop_db
