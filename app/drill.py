"""Fault drills through the whole bot: the matrix of expected paths, and seeded random chaos.

``run_matrix`` runs every :class:`~helpdesk.app.drill_matrix.DrillCell` as real graph turns
(the customer messages of the tool's :class:`~helpdesk.app.drill_matrix.ToolProbe`) against a
fresh copy of a seeded demo-shop database, with a :class:`~helpdesk.degrade.chaos.ChaosPlan` at
the shop transport and a :class:`~helpdesk.degrade.clock.FakeClock`, then compares the path
taken (status, error class, ladder, recorded reason, audited executions) and the reply's
properties with the declared expectation. ``run_random`` plays seeded conversations against one
bot under a seeded random fault schedule and checks the invariants: no write executed twice,
no claim the shop contradicts, the retry budget held, every turn answered. Both return a
:class:`DrillReport`; :mod:`helpdesk.app.drill_output` writes it to disk.
"""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Literal

from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.drill_checks import ReplyFacts, ShopTruth, claimed_writes, reply_violations
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
from helpdesk.app.drill_packs import CellWorld, cell_world
from helpdesk.app.observe import Observer
from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.degrade.chaos import ChaosPlan, Fault, FaultRule
from helpdesk.degrade.clock import FakeClock
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.graph.tiers import TierRouter
from helpdesk.tools.shop.seed import ensure_seeded

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

CUSTOMER: Final = "C0001"
"""The seeded customer every drill talks as (tools/shop/API.md)."""
WARM_GAP_S: Final = 30.0
"""Seconds between the warming turn and the faulted turn of a ``warm`` cell."""
NOT_APPLICABLE_NO_TIERS: Final = "not applicable: no model tier configured"

Progress = Callable[[str], None]
"""Called once per finished cell / turn with a short label (drives a progress bar)."""


@dataclass
class CellOutcome:
    """One matrix cell: what was expected, what happened, and every difference."""

    cell: DrillCell
    expected: dict[str, Any] = field(default_factory=dict)
    actual: dict[str, Any] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)
    not_applicable: str | None = None
    """Why the cell could not run (e.g. no model tier configured); not a failure."""
    reply: str = ""
    virtual_s: float = 0.0
    """Time the faulted turn took on the drill's fake clock (retry waits, injected latency)."""
    wall_s: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.mismatches

    def as_dict(self) -> dict[str, Any]:
        return {
            "cell": self.cell.id,
            "target": self.cell.target,
            "fault": str(self.cell.fault),
            "variant": self.cell.variant,
            "passed": self.passed,
            "not_applicable": self.not_applicable,
            "expected": self.expected,
            "actual": self.actual,
            "mismatches": self.mismatches,
            "reply": self.reply,
            "virtual_s": round(self.virtual_s, 4),
            "wall_s": round(self.wall_s, 4),
        }


@dataclass(frozen=True, slots=True)
class Invariant:
    """A broken invariant of the random drill."""

    name: Literal["no_duplicate_write", "no_false_claim", "budget_respected", "turn_answered"]
    session: str
    detail: str

    def as_dict(self) -> dict[str, str]:
        return {"invariant": self.name, "session": self.session, "detail": self.detail}


@dataclass
class DrillReport:
    """The result of one drill run (matrix or random)."""

    mode: Literal["matrix", "random"]
    seed: int
    cells: list[CellOutcome] = field(default_factory=list)
    violations: list[Invariant] = field(default_factory=list)
    turns: list[dict[str, Any]] = field(default_factory=list)
    """Random mode: one summary per turn (session, faults seen, outcome, latency)."""
    stats: dict[str, Any] = field(default_factory=dict)
    wall_s: float = 0.0

    @property
    def mismatches(self) -> list[CellOutcome]:
        return [c for c in self.cells if not c.passed]

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.violations

    def as_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "seed": self.seed,
            "ok": self.ok,
            "wall_s": round(self.wall_s, 3),
            "stats": self.stats,
            "cells": [c.as_dict() for c in self.cells],
            "violations": [v.as_dict() for v in self.violations],
            "turns": self.turns,
        }


# --------------------------------------------------------------------------- shared plumbing


def _seed_db(work_dir: Path) -> Path:
    """A seeded shop database, made once per drill and copied per cell (closed, so no WAL)."""
    return ensure_seeded(work_dir / "seed" / "shop.sqlite")


def _fresh_db(seed_db: Path, cell_dir: Path) -> Path:
    cell_dir.mkdir(parents=True, exist_ok=True)
    target = cell_dir / "shop.sqlite"
    shutil.copy(seed_db, target)
    return target


def _bot(
    settings: Settings,
    db: Path,
    plan: ChaosPlan,
    clock: FakeClock,
    observer: Observer,
    models: ModelFactory | None = None,
    world: CellWorld | None = None,
) -> Bot:
    local = settings.model_copy(
        update={"data_dir": db.parent, "shop_url": None, "shop_db_path": db}
    )
    world = world or CellWorld()
    bot = build_bot(
        local,
        checkpointer=InMemorySaver(serde=state_serializer()),
        chaos=plan,
        clock=clock,
        observer=observer,
        router=models(clock) if models is not None else None,
        packs=world.packs,
        pack_options=world.options,
    )
    if world.faults_at_call:
        # an in-process backend has no transport: the plan wraps the tool calls instead (its
        # rules name only this cell's tool, so the shop's calls pass untouched)
        bot.executor.chaos = plan
    observer.breakers = bot.executor.breakers
    return bot


async def _turn(
    bot: Bot, observer: Observer, clock: FakeClock, text: str, session: str
) -> tuple[dict[str, Any], float]:
    started = clock.now()
    with observer.turn(session=session, customer=CUSTOMER, mode="drill"):
        payload = await run_turn(bot, text, session=session, customer=CUSTOMER)
        elapsed = clock.now() - started
        observer.turn_finished(payload, elapsed)
    return payload, elapsed


ModelFactory = Callable[[FakeClock], TierRouter]
"""Builds a bot's model tiers on the drill's clock."""


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
    bot = _bot(settings, _fresh_db(seed_db, cell_dir), plan, clock, observer, models, world)
    session = "drill-" + cell.id.replace("[", ".").replace("]", "")  # a valid session id
    started = time.perf_counter()
    try:
        if warm:
            for text in probe.messages:
                await _turn(bot, observer, clock, text, session)
            clock.advance(WARM_GAP_S)
        payload: dict[str, Any] = {}
        for text in probe.messages:
            payload, outcome.virtual_s = await _turn(bot, observer, clock, text, session)
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
    bot = _bot(settings, _fresh_db(seed_db, cell_dir), plan, clock, observer, models)
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
            payload, outcome.virtual_s = await _turn(bot, observer, clock, text, f"drill-{cell.id}")
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
    seed_db = _seed_db(work_dir)
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


# --------------------------------------------------------------------------- random


RANDOM_SCRIPTS: Final[tuple[tuple[str, ...], ...]] = (
    ("订单100683现在什么状态", "什么时候能到"),
    ("我的订单",),
    ("订单100683物流到哪了",),
    ("SKU-1001有货吗",),
    ("SKU-1004还有货吗",),
    ("退货政策是什么",),
    ("取消订单100904", "是"),
    ("取消订单100998", "确认"),
    ("订单100200退款", "是"),
    ("订单100609退款", "确认"),
    ("订单100683的耳机坏了，我要售后",),
    ("转人工",),
    ("where is order 100683?", "when will it arrive?"),
    ("cancel order 100904", "yes"),
    ("Is SKU-1001 in stock, and where is order 100683?",),
    ("what about order 100452?",),
    ("你好",),
)
"""Conversation openings the random drill picks from (ids from tools/shop/API.md)."""

_MEAN_GAP_S: Final = 10.0
"""Mean fake-clock seconds between two turns of the random drill."""

_RANDOM_TARGETS: Final[tuple[str, ...]] = (
    *TOOL_PROBES,
    *(f"{t}.verify" for t, p in TOOL_PROBES.items() if p.kind != "read"),
    "compensation",
)


def random_plan(rng: random.Random, clock: FakeClock, *, seed: int, horizon_s: float) -> ChaosPlan:
    """A seeded fault schedule over ``horizon_s`` seconds: each target gets one to three faults,
    half of them only inside a time window (an outage that starts and ends)."""
    rules: list[FaultRule] = []
    for target in _RANDOM_TARGETS:
        for _ in range(rng.randint(1, 3)):
            windowed = rng.random() < 0.5
            start = rng.uniform(0, horizon_s) if windowed else None
            rules.append(
                FaultRule(
                    fault=rng.choice(list(Fault)),
                    rate=round(rng.uniform(0.1, 0.6), 2),
                    target=target,
                    start_s=start,
                    end_s=None if start is None else start + rng.uniform(60, horizon_s / 4 + 60),
                    latency_s=round(rng.uniform(0.1, 3.0), 2),
                    retry_after_s=rng.choice([0.5, 1.0, 2.0, 30.0]),
                )
            )
    return ChaosPlan(rules, seed=seed, clock=clock)


async def run_random(
    settings: Settings,
    *,
    work_dir: Path,
    turns: int = 500,
    seed: int = 7,
    observer: Observer | None = None,
    progress: Progress | None = None,
    models: ModelFactory | None = None,
) -> DrillReport:
    """Play ``turns`` turns of seeded conversations under a seeded fault schedule, checking
    every invariant after every turn (and the audit log at the end)."""
    rng = random.Random(seed)
    observer = observer or Observer()
    clock = FakeClock()
    plan = random_plan(rng, clock, seed=seed, horizon_s=turns * _MEAN_GAP_S)
    report = DrillReport(mode="random", seed=seed)
    started = time.perf_counter()
    db = _fresh_db(_seed_db(work_dir), work_dir / "random")
    bot = _bot(settings, db, plan, clock, observer, models)
    truth = ShopTruth(bot.client, CUSTOMER)
    keys: set[str] = set()
    played = 0
    conversation = 0
    try:
        while played < turns:
            conversation += 1
            session = f"random-{seed}-{conversation:04d}"
            script = [m for s in rng.sample(RANDOM_SCRIPTS, rng.randint(1, 3)) for m in s]
            for text in script[: turns - played]:
                clock.advance(rng.uniform(0.5, 2 * _MEAN_GAP_S))
                before = len(plan.injected)
                try:
                    payload, elapsed = await _turn(bot, observer, clock, text, session)
                except Exception as exc:  # a turn must never raise: that is a finding
                    report.violations.append(
                        Invariant("turn_answered", session, f"{text!r} raised {exc!r}")
                    )
                    played += 1
                    continue
                played += 1
                faults = [f"{t}:{f}" for t, f in plan.injected[before:]]
                keys |= {
                    str(r["idempotency_key"])
                    for r in payload["tool_results"]
                    if r.get("idempotency_key")
                }
                await _check_turn(report, bot, truth, observer, session, text, payload)
                report.turns.append(
                    {
                        "session": session,
                        "text": text,
                        "faults": faults,
                        "virtual_s": round(elapsed, 4),
                        "level": payload["degrade"]["level"],
                        "statuses": [r["status"] for r in payload["tool_results"]],
                        "actions": [e["action"] for e in payload["degrade"]["events"]],
                    }
                )
                if progress is not None:
                    progress(session)
        await _check_audit(report, truth, keys)
    finally:
        await bot.aclose()
    report.wall_s = time.perf_counter() - started
    report.stats = {
        "turns": played,
        "conversations": conversation,
        "faults_injected": len(plan.injected),
        "writes_keyed": len(keys),
        "violations": len(report.violations),
        "p95_turn_latency_s": observer.metrics.turn_latency_quantile(0.95),
    }
    return report


async def _check_turn(
    report: DrillReport,
    bot: Bot,
    truth: ShopTruth,
    observer: Observer,
    session: str,
    text: str,
    payload: Mapping[str, Any],
) -> None:
    reply = str(payload.get("reply") or "")
    if not reply.strip() or payload.get("validation", {}).get("ok") is False:
        detail = payload.get("validation", {}).get("violations") or "empty reply"
        report.violations.append(Invariant("turn_answered", session, f"{text!r}: {detail}"))
    request_id = str(payload["degrade"].get("request_id"))
    limit = bot.settings.request_max_retries
    granted = observer.retries_by_request.get(request_id, 0)
    retried = sum(
        1
        for e in payload["degrade"]["events"]
        if e["action"] == "retry" and str(e["reason"]).startswith("retry in")
    )
    if granted > limit or retried > limit:
        report.violations.append(
            Invariant(
                "budget_respected",
                session,
                f"{text!r}: {max(granted, retried)} retries (limit {limit})",
            )
        )
    results = payload.get("tool_results", [])
    for tool in claimed_writes(reply):
        done = [r for r in results if r["tool"] == tool and r["status"] == "ok"]
        executed = [r for r in done if r.get("idempotency_key")]
        if not done:
            if any(r["tool"] == tool for r in results):
                report.violations.append(
                    Invariant("no_false_claim", session, f"{text!r}: claims {tool} succeeded")
                )
            continue
        for r in executed:
            if await truth.executions(str(r["idempotency_key"])) < 1:
                report.violations.append(
                    Invariant(
                        "no_false_claim",
                        session,
                        f"{text!r}: claims {tool} succeeded; the audit log has no execution",
                    )
                )
    order_ids = sorted(
        {str(t["args"].get("order_id")) for t in payload.get("tasks", [])} - {"None"}
    )
    for problem in await truth.false_claims(reply, order_ids):
        report.violations.append(Invariant("no_false_claim", session, f"{text!r}: {problem}"))


async def _check_audit(report: DrillReport, truth: ShopTruth, keys: Iterable[str]) -> None:
    """Every keyed write executed at most once (the shop's audit log is the judge)."""
    counts: dict[str, int] = {}
    for entry in await truth.audit():
        if entry.get("key"):
            counts[str(entry["key"])] = counts.get(str(entry["key"]), 0) + 1
    for key in keys:
        counts.setdefault(key, 0)
    for key, n in sorted(counts.items()):
        if n > 1:
            report.violations.append(
                Invariant("no_duplicate_write", "*", f"key {key} executed {n} times")
            )
