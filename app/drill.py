"""Fault drills through the whole bot: the matrix of expected paths (and, re-exported from
:mod:`helpdesk.app.drill_random`, seeded random chaos).

``run_matrix`` runs every :class:`~helpdesk.app.drill_matrix.DrillCell` as real graph turns
(the customer messages of the tool's :class:`~helpdesk.app.drill_matrix.ToolProbe`) against a
fresh copy of a seeded demo-shop database, with a :class:`~helpdesk.degrade.chaos.ChaosPlan` at
the shop transport (or, for a pack with an in-process backend, around its tool calls; see
:mod:`helpdesk.app.drill_packs`) and a :class:`~helpdesk.degrade.clock.FakeClock`, then compares
the path taken (status, error class, ladder, recorded reason, audited executions) and the
reply's properties with the declared expectation. ``run_random`` plays seeded conversations
against one bot under a seeded random fault schedule and checks the invariants. Both return a
:class:`~helpdesk.app.drill_common.DrillReport`; :mod:`helpdesk.app.drill_output` writes it.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from helpdesk.app.drill_checks import ReplyFacts, ShopTruth, reply_violations
from helpdesk.app.drill_common import (
    CUSTOMER,
    CellOutcome,
    DrillReport,
    Invariant,
    ModelFactory,
    Progress,
    drill_bot,
    drill_turn,
    fresh_db,
    seeded_db,
)
from helpdesk.app.drill_matrix import (
    MODEL_PROBE,
    TOOL_PROBES,
    DrillCell,
    ExpectedModelPath,
    ExpectedPath,
    default_reply_checks,
    expected_model_path,
    expected_path,
    matrix_cells,
)
from helpdesk.app.drill_packs import cell_world
from helpdesk.app.drill_random import RANDOM_SCRIPTS, run_random
from helpdesk.app.observe import Observer
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot
from helpdesk.degrade.chaos import ChaosPlan, Fault, FaultRule
from helpdesk.degrade.clock import FakeClock

__all__ = [
    "CUSTOMER",
    "NOT_APPLICABLE_NO_TIERS",
    "RANDOM_SCRIPTS",
    "CellOutcome",
    "DrillReport",
    "Invariant",
    "ModelFactory",
    "Progress",
    "configured_model_tiers",
    "run_matrix",
    "run_random",
]

WARM_GAP_S: Final = 30.0
"""Seconds between the warming turn and the faulted turn of a ``warm`` cell."""
NOT_APPLICABLE_NO_TIERS: Final = "not applicable: no model tier configured"


def configured_model_tiers(bot: Bot) -> tuple[str, ...]:
    """Model tiers the bot runs with: its router's tiers when it has one, else none."""
    router = getattr(bot, "router", None)
    tiers = getattr(router, "tiers", None) or ()
    return tuple(str(getattr(t, "name", t)) for t in tiers if getattr(t, "name", t) != "minimal")


def _path_json(path: ExpectedPath, checks: Iterable[str]) -> dict[str, Any]:
    return {
        "status": str(path.status),
        "error_class": str(path.error_class) if path.error_class else None,
        "ladder": [str(s) for s in path.ladder],
        "reason": path.reason,
        "executions": path.executions,
        "reply": sorted(str(c) for c in checks),
    }


# --------------------------------------------------------------------------- matrix


async def _run_tool_cell(
    cell: DrillCell,
    path: ExpectedPath,
    *,
    settings: Settings,
    seed_db: Path,
    cell_dir: Path,
    observer: Observer,
    seed: int,
    models: ModelFactory | None = None,
) -> CellOutcome:
    probe = TOOL_PROBES[cell.target]
    checks = path.reply or default_reply_checks(probe.kind, probe.tool, path)
    outcome = CellOutcome(cell=cell, expected=_path_json(path, checks))
    clock = FakeClock()
    warm = cell.variant == "warm"
    rule = FaultRule(
        fault=cell.fault,
        rate=1.0,
        # verify_lost: the key lookup (``<tool>.verify``) fails the same way as the write.
        target=f"{cell.target}*" if cell.variant == "verify_lost" else cell.target,
        latency_s=0.5,
        retry_after_s=1.0,
        start_s=WARM_GAP_S / 2 if warm else None,
    )
    plan = ChaosPlan([rule], seed=seed, clock=clock)
    world = cell_world(probe, plan)
    bot = drill_bot(settings, fresh_db(seed_db, cell_dir), plan, clock, observer, models, world)
    session = "drill-" + cell.id.replace("[", ".").replace("]", "")  # a valid session id
    started = time.perf_counter()
    try:
        if warm:
            for text in probe.messages:
                await drill_turn(bot, observer, clock, text, session)
            clock.advance(WARM_GAP_S)
        payload: dict[str, Any] = {}
        for text in probe.messages:
            payload, outcome.virtual_s = await drill_turn(bot, observer, clock, text, session)
        outcome.reply = str(payload.get("reply", ""))
        results = [r for r in payload.get("tool_results", []) if r.get("tool") == probe.tool]
        if not results:
            outcome.mismatches.append(f"the bot never called {probe.tool}")
            return outcome
        result = results[-1]
        truth = ShopTruth(bot.client, CUSTOMER)
        key = result.get("idempotency_key")
        executions = await world.counter(bot.client, CUSTOMER)(key) if key else None
        events = payload["degrade"]["events"]
        outcome.actual = {
            "status": result["status"],
            "error_class": result["error_class"],
            "ladder": list(result["ladder"]),
            "reason": result["reason"],
            "executions": executions,
            "ticket_id": result.get("ticket_id"),
            "events": [f"{e['target']}: {e['action']}: {e['reason']}" for e in events],
        }
        _compare_path(outcome, path, result, events, executions)
        known = {str(p["ticket_id"]) for p in payload["degrade"]["pending"] if p.get("ticket_id")}
        known |= {str(r["ticket_id"]) for r in payload["tool_results"] if r.get("ticket_id")}
        facts = ReplyFacts(
            reply=outcome.reply,
            validation_ok=bool(payload.get("validation", {}).get("ok", True)),
            tool=probe.tool,
            said_by_customer=" ".join(probe.messages),
            ticket_id=result.get("ticket_id"),
            executions=executions,
            hotline=bot.settings.hotline,
            known_tickets=frozenset(known),
            success=world.success,
            unknown=world.unknown,
        )
        outcome.mismatches += reply_violations(checks, facts)
        outcome.mismatches += await truth.false_claims(
            outcome.reply, [probe.order_id] if probe.order_id else []
        )
        retries = observer.retries_by_request.get(str(payload["degrade"].get("request_id")), 0)
        if retries > bot.settings.request_max_retries:
            outcome.mismatches.append(f"budget: {retries} retries in one turn")
    finally:
        outcome.wall_s = time.perf_counter() - started
        await bot.aclose()
    return outcome


def _compare_path(
    outcome: CellOutcome,
    path: ExpectedPath,
    result: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    executions: int | None,
) -> None:
    wanted = outcome.expected
    for name in ("status", "error_class", "ladder"):
        got = list(result[name]) if name == "ladder" else result[name]
        if got != wanted[name]:
            outcome.mismatches.append(f"{name}: expected {wanted[name]!r}, got {got!r}")
    if path.reason and path.reason not in str(result["reason"]):
        outcome.mismatches.append(
            f"reason: expected it to mention {path.reason!r}, got {result['reason']!r}"
        )
    if path.reason and path.ladder and not any(path.reason in str(e["reason"]) for e in events):
        outcome.mismatches.append(f"reason: no degrade event records {path.reason!r}")
    if path.executions is not None and executions != path.executions:
        outcome.mismatches.append(
            f"executions: expected {path.executions} in the audit log, got {executions}"
        )


async def _run_model_cell(
    cell: DrillCell,
    path: ExpectedModelPath,
    *,
    settings: Settings,
    seed_db: Path,
    cell_dir: Path,
    observer: Observer,
    seed: int,
    models: ModelFactory | None = None,
) -> CellOutcome:
    outcome = CellOutcome(
        cell=cell,
        expected={
            "switched": path.switched,
            "error_class": str(path.error_class) if path.error_class else None,
            "reason": path.reason,
            "reply": sorted(str(c) for c in path.reply),
        },
    )
    clock = FakeClock()
    rules = [FaultRule(fault=cell.fault, rate=1.0, target=cell.target, latency_s=0.5)]
    if cell.target == "model:backup":
        # The backup only gets traffic when the primary fails: take the primary down too.
        rules.append(FaultRule(fault=Fault.UNAVAILABLE, rate=1.0, target="model:primary"))
    plan = ChaosPlan(rules, seed=seed, clock=clock)
    bot = drill_bot(settings, fresh_db(seed_db, cell_dir), plan, clock, observer, models)
    started = time.perf_counter()
    try:
        tiers = configured_model_tiers(bot)
        tier = cell.target.split(":", 1)[1]
        if not tiers:
            outcome.not_applicable = NOT_APPLICABLE_NO_TIERS
            return outcome
        if tier not in tiers:
            outcome.not_applicable = f"not applicable: model tier {tier} not configured"
            return outcome
        payload: dict[str, Any] = {}
        for text in MODEL_PROBE:
            payload, outcome.virtual_s = await drill_turn(
                bot, observer, clock, text, f"drill-{cell.id}"
            )
        outcome.reply = str(payload.get("reply", ""))
        switches = [
            e
            for e in payload["degrade"]["events"]
            if e["action"] == "model" and e["target"] == cell.target
        ]
        outcome.actual = {
            "switched": bool(switches),
            "error_class": switches[0]["error_class"] if switches else None,
            "tier": payload.get("tier"),
            "events": [f"{e['target']}: {e['action']}: {e['reason']}" for e in switches],
        }
        if bool(switches) != path.switched:
            outcome.mismatches.append(
                f"switched: expected {path.switched}, got {bool(switches)} (tier "
                f"{payload.get('tier')})"
            )
        elif switches and outcome.actual["error_class"] != outcome.expected["error_class"]:
            outcome.mismatches.append(
                f"error_class: expected {outcome.expected['error_class']!r}, "
                f"got {outcome.actual['error_class']!r}"
            )
        if path.reason and not any(path.reason in str(e["reason"]) for e in switches):
            outcome.mismatches.append(f"reason: no model event records {path.reason!r}")
        facts = ReplyFacts(
            reply=outcome.reply,
            validation_ok=bool(payload.get("validation", {}).get("ok", True)),
            tool=cell.target,
            said_by_customer=" ".join(MODEL_PROBE),
            hotline=bot.settings.hotline,
        )
        outcome.mismatches += reply_violations(path.reply, facts)
    finally:
        outcome.wall_s = time.perf_counter() - started
        await bot.aclose()
    return outcome


async def run_matrix(
    settings: Settings,
    *,
    work_dir: Path,
    cells: Sequence[DrillCell] | None = None,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
    observer: Observer | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    models: ModelFactory | None = None,
) -> DrillReport:
    """Run matrix cells (all of them by default) and compare each with its declared path.

    Args:
        settings: the deployment's settings (hotline, budget, model tiers); the shop is always
            a fresh copy of the seeded demo shop under ``work_dir``.
        work_dir: scratch space for the per-cell databases.
        cells: which cells; :func:`~helpdesk.app.drill_matrix.matrix_cells` when None.
        overrides: cell id -> fields replacing the declared expectation (e.g.
            ``{"get_order:unavailable": {"status": "ok"}}``), for pinning a deployment's own
            paths, or for proving the drill catches a wrong one.
        observer: receives every call and turn (metrics, traces, the run's events file).
        seed: seed of the chaos plans.
        progress: called after each cell.
        models: builds the model tiers of the model cells' bots (e.g.
            :func:`helpdesk.testing.drill_models.scripted_models`); None = the tiers the
            settings configure. Tool cells always run on the settings'
            tiers, so their declared reply properties stay those of the deployment.
    """
    chosen = list(cells) if cells is not None else matrix_cells()
    observer = observer or Observer()
    report = DrillReport(mode="matrix", seed=seed)
    started = time.perf_counter()
    seed_db = seeded_db(work_dir)
    for index, cell in enumerate(chosen):
        cell_dir = work_dir / "cells" / f"{index:03d}"
        if cell.is_model:
            model_path = expected_model_path(cell.fault)
            if overrides and cell.id in overrides:
                model_path = replace(model_path, **_coerce(overrides[cell.id]))
            outcome = await _run_model_cell(
                cell,
                model_path,
                settings=settings,
                seed_db=seed_db,
                cell_dir=cell_dir,
                observer=observer,
                seed=seed,
                models=models,
            )
        else:
            path = expected_path(cell.target, cell.fault, cell.variant)
            if path is None:
                continue
            if overrides and cell.id in overrides:
                path = replace(path, **_coerce(overrides[cell.id]))
            outcome = await _run_tool_cell(
                cell,
                path,
                settings=settings,
                seed_db=seed_db,
                cell_dir=cell_dir,
                observer=observer,
                seed=seed,
            )
        shutil.rmtree(cell_dir, ignore_errors=True)
        report.cells.append(outcome)
        if progress is not None:
            progress(cell.id)
    report.wall_s = time.perf_counter() - started
    ran = [c for c in report.cells if c.not_applicable is None]
    report.stats = {
        "cells": len(report.cells),
        "ran": len(ran),
        "not_applicable": len(report.cells) - len(ran),
        "mismatches": len(report.mismatches),
        "p95_turn_latency_s": observer.metrics.turn_latency_quantile(0.95),
    }
    return report


def _coerce(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Override values as the expectation dataclasses hold them (enums, tuples)."""
    from helpdesk.app.drill_matrix import ReplyCheck
    from helpdesk.degrade.context import LadderStep
    from helpdesk.degrade.errors import ErrorClass
    from helpdesk.tools.results import ToolStatus

    out: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "status":
            value = ToolStatus(value)
        elif name == "error_class":
            value = ErrorClass(value) if value is not None else None
        elif name == "ladder":
            value = tuple(LadderStep(v) for v in value)
        elif name == "reply":
            value = frozenset(ReplyCheck(v) for v in value)
        out[name] = value
    return out
