"""The random drill: seeded conversations under a seeded random fault schedule.

``run_random`` plays seeded conversations (:data:`RANDOM_SCRIPTS`) against one bot whose shop
transport follows a seeded :class:`~helpdesk.degrade.chaos.ChaosPlan` (:func:`random_plan`) and
checks the invariants after every turn: no write executed twice, no claim the shop contradicts,
the retry budget held, every turn answered. It returns a
:class:`~helpdesk.app.drill_common.DrillReport`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from helpdesk.app.drill_checks import ShopTruth, claimed_writes
from helpdesk.app.drill_common import (
    CUSTOMER,
    DrillReport,
    Invariant,
    ModelFactory,
    Progress,
    drill_bot,
    drill_turn,
    fresh_db,
    seeded_db,
)
from helpdesk.app.drill_matrix import TOOL_PROBES
from helpdesk.app.observe import Observer
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot
from helpdesk.degrade.chaos import ChaosPlan, Fault, FaultRule
from helpdesk.degrade.clock import FakeClock

__all__ = ["RANDOM_SCRIPTS", "random_plan", "run_random"]

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

_SHOP_PROBES: Final = {t: p for t, p in TOOL_PROBES.items() if p.pack == "shop"}

_RANDOM_TARGETS: Final[tuple[str, ...]] = (
    *_SHOP_PROBES,
    *(f"{t}.verify" for t, p in _SHOP_PROBES.items() if p.kind != "read"),
    "compensation",
)
"""The shop's tools, their verifications and compensation (the conversations are the shop's)."""


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
    db = fresh_db(seeded_db(work_dir), work_dir / "random")
    bot = drill_bot(settings, db, plan, clock, observer, models)
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
                    payload, elapsed = await drill_turn(bot, observer, clock, text, session)
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
                await _checkdrill_turn(report, bot, truth, observer, session, text, payload)
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


async def _checkdrill_turn(
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
