"""One benchmark run: one system through one closed-loop scenario's workload, and its metrics.

The run gets a fresh copy of the seeded shop, its own SQLite session file, fresh brains (primary
and backup, same logic, latency drawn per call from a
:class:`~helpdesk.app.bench.brain.LatencyModel`) and a fresh :class:`CountingPlan` built from the
scenario with the repeat's seed, so the fault schedule a system meets depends only on its own
traffic. Turns run one at a time (fault windows count turns). Metrics (:class:`PairResult`):
correct-or-honest and fully-answered rates over the logical turns, false claims, turns that
raised, duplicate writes (audit log), shop requests per logical call and per turn, P50/P95
latency of logical turns; helpdesk's confirmation turns ("do you want me to cancel?") apart;
model-tier figures (turns a lower tier answered, hung primary calls per turn, time until a
recovered primary serves again).
"""

from __future__ import annotations

import math
import shutil
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from helpdesk.app.bench.brain import OutageSwitch, ScriptedBrain
from helpdesk.app.bench.oracle import TurnVerdict, duplicate_writes, judge_turn
from helpdesk.app.bench.systems import open_system
from helpdesk.app.bench.workload import (
    CountingPlan,
    Scenario,
    TurnClock,
    Workload,
    build_plan,
    scenario_brains,
)
from helpdesk.tools.shop_client import ShopClient

if TYPE_CHECKING:
    from helpdesk.app.bench.runner import BenchConfig

__all__ = ["PairResult", "percentile", "run_pair"]


@dataclass
class PairResult:
    """Metrics of one system on one scenario (one repeat)."""

    system: str
    scenario: str
    repeat: int = 0
    turns: int = 0
    """Logical turns judged (helpdesk's confirmation questions are counted apart)."""
    correct_or_honest: float = 0.0
    answered: float = 0.0
    false_claims: int = 0
    errors: int = 0
    duplicate_writes: int = 0
    logical_calls: int = 0
    shop_requests: int = 0
    amplification: float = 0.0
    requests_per_turn: float = 0.0
    p50_ms: float = 0.0
    p95_ms: float = 0.0
    mean_ms: float = 0.0
    affected_p95_ms: float | None = None
    """dependency_down: P95 of the turns that needed the down tool while it was down (the
    turns the outage touched; the rest are happy-path turns)."""
    confirm_turns: int = 0
    """helpdesk: "do you want me to cancel order X?" turns (before the customer's "yes")."""
    confirm_ok: float = 0.0
    confirm_p50_ms: float = 0.0
    model_calls: int = 0
    lower_tier_turns: int = 0
    """helpdesk: turns in which a stage was answered below the primary while it was healthy."""
    budget_moves: int = 0
    """helpdesk: turns in which a tier was skipped because the request budget was spent."""
    hung_calls: int = 0
    """Calls that met a hung primary (each costs its caller a timeout)."""
    max_hung_per_turn: int = 0
    """Most calls that met a hung primary within one customer message (decompose and select
    run in parallel: 2 calls, one timeout of wall time)."""
    turns_hitting_hung_primary: int = 0
    recovery_s: float | None = None
    """Seconds from the first turn after the primary recovered to the start of the first call it
    served (when it got traffic back)."""
    recovery_turns: int | None = None
    requests_by_target: dict[str, int] = field(default_factory=dict)
    faults_injected: int = 0
    elapsed_s: float = 0.0
    failures: list[dict[str, Any]] = field(default_factory=list)
    """The first few turns that were not correct-or-honest, for diagnosis."""


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank; 0.0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, math.ceil(q * len(ordered)) - 1)
    return ordered[rank]


def _brains(
    config: BenchConfig, scenario: Scenario, seed: int
) -> tuple[ScriptedBrain, ScriptedBrain, OutageSwitch]:
    return scenario_brains(config.latency, scenario, seed)


async def run_pair(
    system_name: str,
    workload: Workload,
    *,
    config: BenchConfig,
    workdir: Path,
    base_db: Path,
    repeat: int = 0,
    max_failures: int = 5,
) -> PairResult:
    """One system through one scenario's workload on a fresh shop."""
    scenario = workload.scenario
    seed = config.seed + repeat
    pair_dir = workdir / f"{scenario.name}-{system_name}-r{repeat}"
    pair_dir.mkdir(parents=True, exist_ok=True)
    db = pair_dir / "shop.sqlite"
    shutil.copy(base_db, db)
    clock = TurnClock()
    rules = build_plan(workload, seed=seed, clock=clock, shop_latency_s=config.shop_latency_s).rules
    plan = CountingPlan(rules, seed=seed, clock=clock)
    primary, backup, outage = _brains(config, scenario, seed)
    system = await open_system(system_name, primary=primary, backup=backup, db=db, chaos=plan)
    truth = ShopClient.in_process(db)
    result = PairResult(system=system_name, scenario=scenario.name, repeat=repeat)
    latencies: list[float] = []
    confirm_latencies: list[float] = []
    confirm_ok: list[bool] = []
    verdicts: list[TurnVerdict] = []
    turn_payload = getattr(system, "turn", None)
    recovered_at: float | None = None
    recovered_turn: int | None = None
    affected: list[float] = []
    down_tool = scenario.down_tool
    down_from, down_until = workload.down_turns()
    began_pair = time.perf_counter()
    try:
        for session, turn in workload.schedule():
            clock.turn = turn.index
            was_down = outage.down
            outage.down = workload.primary_down(turn.index)
            if was_down and not outage.down and recovered_at is None:
                recovered_at, recovered_turn = time.perf_counter(), turn.index
            result.logical_calls += sum(1 for e in turn.expects if e.tool)
            hung_before, served_before = primary.stats.hung, primary.stats.served
            lower = False
            for text, expects in system.messages_for(turn):
                hung_at_message = primary.stats.hung
                error: str | None = None
                reply: str | None = None
                payload: dict[str, Any] | None = None
                began = time.perf_counter()
                try:
                    if turn_payload is not None:
                        payload = await turn_payload(session.id, session.customer, text)
                        reply = str(payload["reply"])
                    else:
                        reply = await system.reply(session.id, session.customer, text)
                except Exception as exc:
                    error = f"{type(exc).__name__}: {exc}"[:300]
                took = time.perf_counter() - began
                result.max_hung_per_turn = max(
                    result.max_hung_per_turn, primary.stats.hung - hung_at_message
                )
                verdict = await judge_turn(truth, session.customer, expects, reply, error=error)
                if payload is not None:
                    lower |= _answered_below_primary(payload)
                    result.budget_moves += _budget_move(payload)
                if expects and expects[0].kind == "confirm":
                    confirm_latencies.append(took)
                    confirm_ok.append(verdict.correct_or_honest)
                    continue
                latencies.append(took)
                if down_from <= turn.index < down_until and any(
                    e.tool == down_tool for e in expects
                ):
                    affected.append(took)
                verdicts.append(verdict)
                if not verdict.correct_or_honest and len(result.failures) < max_failures:
                    result.failures.append(
                        {
                            "turn": turn.index,
                            "message": text,
                            "reply": reply,
                            "error": error,
                            "false_claims": list(verdict.false_claims),
                            "items": [asdict(i) for i in verdict.items],
                        }
                    )
            hung = primary.stats.hung - hung_before
            result.hung_calls += hung
            result.turns_hitting_hung_primary += hung > 0
            if lower and not outage.down and not workload.scenario.primary_outage:
                result.lower_tier_turns += 1
            served = primary.stats.served > served_before
            if recovered_at is not None and result.recovery_s is None and served:
                # from the recovery to the start of the first call the primary served: when it
                # got traffic back (not the end of the turn that call was part of)
                back = min(t for t in primary.stats.served_started if t >= recovered_at)
                result.recovery_s = back - recovered_at
                assert recovered_turn is not None
                result.recovery_turns = turn.index - recovered_turn + 1
        result.duplicate_writes = await duplicate_writes(
            truth, (s.customer for s in workload.sessions)
        )
    finally:
        await system.aclose()
        await truth.aclose()
    n = len(verdicts)
    result.turns = n
    result.correct_or_honest = sum(v.correct_or_honest for v in verdicts) / n if n else 0.0
    result.answered = sum(v.answered for v in verdicts) / n if n else 0.0
    result.false_claims = sum(len(v.false_claims) for v in verdicts)
    result.errors = sum(v.error is not None for v in verdicts)
    result.confirm_turns = len(confirm_latencies)
    result.confirm_ok = sum(confirm_ok) / len(confirm_ok) if confirm_ok else 0.0
    result.confirm_p50_ms = percentile(confirm_latencies, 0.50) * 1000
    result.shop_requests = plan.requests
    result.requests_by_target = dict(sorted(plan.by_target.items()))
    result.faults_injected = sum(
        1 for target, fault in plan.injected if fault.value != "latency" and target[:6] != "model:"
    )
    result.amplification = plan.requests / result.logical_calls if result.logical_calls else 0.0
    result.requests_per_turn = plan.requests / n if n else 0.0
    result.p50_ms = percentile(latencies, 0.50) * 1000
    result.p95_ms = percentile(latencies, 0.95) * 1000
    result.mean_ms = statistics.fmean(latencies) * 1000 if latencies else 0.0
    if affected:
        result.affected_p95_ms = percentile(affected, 0.95) * 1000
    result.model_calls = primary.stats.calls + backup.stats.calls
    result.elapsed_s = time.perf_counter() - began_pair
    return result


def _answered_below_primary(payload: Mapping[str, Any]) -> bool:
    tiers = payload.get("tiers") or {}
    # "rules": a stage the first round did not wait for, the template matcher's reading
    # corroborated by the primary's answer to the other stage (graph/first_round.py)
    return any(tier not in ("primary", "rules") for tier in tiers.values())


def _budget_move(payload: Mapping[str, Any]) -> int:
    events = (payload.get("degrade") or {}).get("events") or []
    return int(any("request budget spent" in str(e.get("reason", "")) for e in events))
