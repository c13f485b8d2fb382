"""Runs the benchmark: every system through every scenario, then the two micro-benchmarks.

Each (system, scenario) pair gets a fresh copy of the seeded shop, fresh brains (primary and
backup, same logic), and a fresh :class:`CountingPlan` built from the scenario with the same
seed, so the fault schedule a system meets depends only on its own traffic. Turns run one at a
time; a turn's latency is the wall time of the system's reply. Metrics per pair: correct-or-
honest and fully-answered turn rates, false claims, turns that raised, duplicate write
executions (audit log), shop requests per logical tool call (amplification) and per turn, and
P50/P95 turn latency. Then the happy-path overhead (helpdesk vs the same graph over a
pass-through executor, and vs the naive agent) and the token-check cost as history grows.
"""

from __future__ import annotations

import asyncio
import math
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately

from helpdesk.app.bench.brain import OutageSwitch, ScriptedBrain
from helpdesk.app.bench.oracle import TurnVerdict, duplicate_writes, judge_turn
from helpdesk.app.bench.systems import SYSTEM_NAMES, make_system
from helpdesk.app.bench.workload import (
    SCENARIOS,
    Scenario,
    TurnClock,
    Workload,
    build_plan,
    build_workload,
)
from helpdesk.degrade.chaos import ChaosPlan, FaultRule
from helpdesk.graph.compaction import IncrementalTokenTally, count_messages
from helpdesk.tools.shop import create_app
from helpdesk.tools.shop_client import ShopClient

__all__ = [
    "BenchConfig",
    "CountingPlan",
    "PairResult",
    "run_benchmark",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class BenchConfig:
    """What to run."""

    turns: int = 100
    """Logical turns per scenario (helpdesk adds a "yes" turn per cancel)."""
    seed: int = 7
    """Seeds the workload and every fault schedule."""
    model_latency_s: float = 0.02
    """Seconds every model call takes."""
    shop_latency_s: float = 0.005
    """Seconds added to every shop request that is not failed by a fault."""
    systems: tuple[str, ...] = SYSTEM_NAMES
    scenarios: tuple[str, ...] = tuple(s.name for s in SCENARIOS)
    overhead_turns: int = 30
    """Happy-path turns per system for the overhead comparison."""
    overhead_passes: int = 2
    """Passes per system over those turns; the pass with the lowest median is kept."""
    token_sizes: tuple[int, ...] = (10, 100, 1000)
    """History lengths (messages) for the token-check cost."""
    token_repeats: int = 50
    """Checks timed per history length."""
    concurrent: bool = False
    """Run all (system, scenario) pairs at once: fast, but latencies then include contention
    (``--quick`` only)."""

    def __post_init__(self) -> None:
        if self.turns < 1:
            raise ValueError(f"turns must be >= 1, got {self.turns}")
        unknown = set(self.scenarios) - {s.name for s in SCENARIOS}
        if unknown:
            raise ValueError(f"unknown scenarios: {sorted(unknown)}")


class CountingPlan(ChaosPlan):
    """A chaos plan that also counts every shop request it is asked about (one per request)."""

    def __init__(self, rules: Sequence[FaultRule], *, seed: int, clock: TurnClock) -> None:
        super().__init__(rules, seed=seed, clock=clock)
        self.requests = 0
        self.by_target: dict[str, int] = {}

    def decide(self, target: str) -> FaultRule | None:
        if not target.startswith("model:"):
            self.requests += 1
            self.by_target[target] = self.by_target.get(target, 0) + 1
        return super().decide(target)


@dataclass
class PairResult:
    """Metrics of one system on one scenario."""

    system: str
    scenario: str
    turns: int = 0
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
    model_calls: int = 0
    requests_by_target: dict[str, int] = field(default_factory=dict)
    faults_injected: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)
    """The first few turns that were not correct-or-honest, for diagnosis."""


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, math.ceil(q * len(ordered)) - 1)
    return ordered[rank]


def _seeded_base(workdir: Path) -> Path:
    base = workdir / "seeded-shop.sqlite"
    if not base.exists():
        create_app(base)  # seeds the file
    return base


def _outage_window(workload: Workload) -> tuple[float, float]:
    if not workload.scenario.primary_outage:
        return (math.inf, math.inf)
    return workload.window(0.25, 0.75)


async def run_pair(
    system_name: str,
    workload: Workload,
    *,
    config: BenchConfig,
    workdir: Path,
    base_db: Path,
    max_failures: int = 5,
) -> PairResult:
    """One system through one scenario's workload on a fresh shop."""
    scenario = workload.scenario
    pair_dir = workdir / f"{scenario.name}-{system_name}"
    pair_dir.mkdir(parents=True, exist_ok=True)
    db = pair_dir / "shop.sqlite"
    shutil.copy(base_db, db)
    clock = TurnClock()
    rules = build_plan(
        workload, seed=config.seed, clock=clock, shop_latency_s=config.shop_latency_s
    ).rules
    plan = CountingPlan(rules, seed=config.seed, clock=clock)
    outage = OutageSwitch()
    primary = ScriptedBrain(label="primary", latency_s=config.model_latency_s, outage=outage)
    backup = ScriptedBrain(label="backup", latency_s=config.model_latency_s)
    system = make_system(system_name, primary=primary, backup=backup, db=db, chaos=plan)
    truth = ShopClient.in_process(db)
    start, end = _outage_window(workload)
    result = PairResult(system=system_name, scenario=scenario.name)
    latencies: list[float] = []
    verdicts: list[TurnVerdict] = []
    try:
        for session, turn in workload.schedule():
            clock.turn = turn.index
            outage.down = start <= turn.index < end
            result.logical_calls += sum(1 for e in turn.expects if e.tool)
            for text, expects in system.messages_for(turn):
                error: str | None = None
                reply: str | None = None
                began = time.perf_counter()
                try:
                    reply = await system.reply(session.id, session.customer, text)
                except Exception as exc:
                    error = f"{type(exc).__name__}: {exc}"[:300]
                latencies.append(time.perf_counter() - began)
                verdict = await judge_turn(truth, session.customer, expects, reply, error=error)
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
    result.shop_requests = plan.requests
    result.requests_by_target = dict(sorted(plan.by_target.items()))
    result.faults_injected = sum(
        1 for target, fault in plan.injected if fault.value != "latency" and target[:6] != "model:"
    )
    result.amplification = plan.requests / result.logical_calls if result.logical_calls else 0.0
    result.requests_per_turn = plan.requests / n if n else 0.0
    result.p50_ms = _percentile(latencies, 0.50) * 1000
    result.p95_ms = _percentile(latencies, 0.95) * 1000
    result.mean_ms = statistics.fmean(latencies) * 1000 if latencies else 0.0
    result.model_calls = primary.stats.calls + backup.stats.calls
    return result


# --- happy-path overhead ------------------------------------------------------------------------


async def _happy_latencies(
    system_name: str, workload: Workload, *, config: BenchConfig, workdir: Path, base_db: Path
) -> list[float]:
    db_dir = workdir / f"overhead-{system_name}"
    db_dir.mkdir(parents=True, exist_ok=True)
    db = db_dir / "shop.sqlite"
    shutil.copy(base_db, db)
    clock = TurnClock()
    rules = build_plan(
        workload, seed=config.seed, clock=clock, shop_latency_s=config.shop_latency_s
    ).rules
    plan = CountingPlan(rules, seed=config.seed, clock=clock)
    primary = ScriptedBrain(label="primary", latency_s=config.model_latency_s)
    backup = ScriptedBrain(label="backup", latency_s=config.model_latency_s)
    system = make_system(system_name, primary=primary, backup=backup, db=db, chaos=plan)
    out: list[float] = []
    try:
        schedule = workload.schedule()
        for session, turn in schedule[:3]:  # warm-up: imports, templates, tokenizer
            await system.reply(f"warm-{session.id}", session.customer, turn.text)
        for session, turn in schedule:
            clock.turn = turn.index
            began = time.perf_counter()
            await system.reply(session.id, session.customer, turn.text)
            out.append(time.perf_counter() - began)
    finally:
        await system.aclose()
    return out


async def happy_path_overhead(
    config: BenchConfig, *, workdir: Path, base_db: Path
) -> dict[str, Any]:
    """helpdesk vs the same graph over a pass-through executor vs the naive agent, no faults."""
    happy = Scenario("happy_overhead", "reads only, no faults", cancel_share=0.0)
    workload = build_workload(happy, db=base_db, turns=config.overhead_turns, seed=config.seed)
    names = ("helpdesk", "helpdesk_bare", "naive")
    runs: dict[str, list[float]] = {}
    # passes interleave the systems; the fastest median per system is kept (less noise from
    # warm-up order and from whatever else the machine is doing)
    for number in range(max(1, config.overhead_passes)):
        for name in names:
            values = await _happy_latencies(
                name, workload, config=config, workdir=workdir / f"pass{number}", base_db=base_db
            )
            if name not in runs or statistics.median(values) < statistics.median(runs[name]):
                runs[name] = values
    summary = {
        name: {
            "p50_ms": statistics.median(values) * 1000,
            "mean_ms": statistics.fmean(values) * 1000,
            "p95_ms": _percentile(values, 0.95) * 1000,
        }
        for name, values in runs.items()
    }
    helpdesk = summary["helpdesk"]["p50_ms"]
    return {
        "turns": len(runs["helpdesk"]),
        "model_latency_ms": config.model_latency_s * 1000,
        "shop_latency_ms": config.shop_latency_s * 1000,
        "systems": summary,
        "ratio_vs_bare_graph": helpdesk / summary["helpdesk_bare"]["p50_ms"],
        "ratio_vs_naive_agent": helpdesk / summary["naive"]["p50_ms"],
        "compared": (
            "P50 turn latency on the same read-only turns, no faults, same brain and shop "
            "latencies. bare graph = helpdesk's own graph (same nodes, same model tiers and "
            "model calls) with a pass-through executor: no breaker, retry, budget, last-good "
            "cache, ladder, idempotency or reconciliation. naive agent = the model->tools->model "
            "loop (2 model calls per turn vs helpdesk's 4: decompose, select_tool, generate, "
            "check)."
        ),
    }


# --- token-check cost ---------------------------------------------------------------------------


def _history(size: int) -> list[BaseMessage]:
    messages: list[BaseMessage] = []
    for i in range(size):
        oid = 100000 + i % 900
        kind = i % 4
        if kind == 0:
            messages.append(HumanMessage(f"Where is order {oid}? Also is SKU-1001 in stock?"))
        elif kind == 1:
            call = {"name": "track_shipment", "args": {"order_id": str(oid)}, "id": f"c{i}"}
            messages.append(AIMessage("", tool_calls=[call]))
        elif kind == 2:
            messages.append(
                ToolMessage(
                    f'{{"order_id": "{oid}", "shipments": [{{"carrier": "SF", '
                    f'"tracking_number": "SF{i:010d}", "status": "in_transit"}}]}}',
                    tool_call_id=f"c{i - 1}",
                )
            )
        else:
            messages.append(AIMessage(f"Order {oid} is in transit with SF{i:010d}."))
        messages[-1].id = f"m{i}"
    return messages


def _time_per_call(fn: Callable[[], object], repeats: int) -> float:
    fn()  # warm (tokenizer loaded, memo filled)
    began = time.perf_counter()
    for _ in range(repeats):
        fn()
    return (time.perf_counter() - began) / repeats


def _sync_both(
    tally: IncrementalTokenTally, before: list[BaseMessage], after: list[BaseMessage]
) -> int:
    tally.sync(before)
    return tally.sync(after)


def token_check_cost(config: BenchConfig) -> list[dict[str, Any]]:
    """Per-turn cost of the context check at each history size, in microseconds.

    ``count_messages`` re-walks the whole history (token counts memoised per text, so only new
    text is tokenized); ``IncrementalTokenTally.sync`` after a turn adds 2 new messages;
    ``count_tokens_approximately`` is what LangChain's SummarizationMiddleware calls before
    every model call.
    """
    rows = []
    for size in config.token_sizes:
        history = _history(size)
        tally = IncrementalTokenTally()
        tally.sync(history)
        extra = _history(size + 2)[-2:]
        grown = [*history, *extra]

        rows.append(
            {
                "messages": size,
                "count_messages_us": _time_per_call(
                    partial(count_messages, history), config.token_repeats
                )
                * 1e6,
                # each timed call syncs twice (drop the 2 new messages, add them back)
                "incremental_sync_us": _time_per_call(
                    partial(_sync_both, tally, history, grown), config.token_repeats
                )
                * 1e6
                / 2,
                "langchain_approx_us": _time_per_call(
                    partial(count_tokens_approximately, history), config.token_repeats
                )
                * 1e6,
                "tokens": count_messages(history),
            }
        )
    return rows


# --- the whole run ------------------------------------------------------------------------------


async def _warm_up(config: BenchConfig, *, workdir: Path, base_db: Path) -> None:
    """One unmeasured turn per system on a throwaway shop: lazy imports, prompt templates and
    the tokenizer load here, not in the first measured turn of whichever system runs first."""
    workload = build_workload(
        Scenario("warm_up", "no faults", cancel_share=0.0), db=base_db, turns=1, seed=config.seed
    )
    session, turn = workload.schedule()[0]
    for name in (*config.systems, "helpdesk_bare"):
        db_dir = workdir / f"warm-{name}"
        db_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy(base_db, db_dir / "shop.sqlite")
        plan = CountingPlan((), seed=config.seed, clock=TurnClock())
        brain = ScriptedBrain(label="primary")
        system = make_system(
            name,
            primary=brain,
            backup=ScriptedBrain(label="backup"),
            db=db_dir / "shop.sqlite",
            chaos=plan,
        )
        try:
            await system.reply(session.id, session.customer, turn.text)
        finally:
            await system.aclose()


async def run_benchmark(
    config: BenchConfig,
    *,
    workdir: Path | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every system through every scenario, plus overhead and token cost, as one JSON document."""
    say = progress or (lambda _msg: None)
    owned = workdir is None
    root = Path(tempfile.mkdtemp(prefix="helpdesk-bench-")) if workdir is None else workdir
    began = time.perf_counter()
    try:
        base_db = _seeded_base(root)
        await _warm_up(config, workdir=root, base_db=base_db)
        scenarios = [s for s in SCENARIOS if s.name in config.scenarios]
        jobs = [
            (name, build_workload(s, db=base_db, turns=config.turns, seed=config.seed))
            for s in scenarios
            for name in config.systems
        ]

        async def one(name: str, workload: Workload) -> PairResult:
            say(f"{workload.scenario.name}: {name} ({workload.turns} logical turns)")
            pair = await run_pair(name, workload, config=config, workdir=root, base_db=base_db)
            say(
                f"  {workload.scenario.name}/{name}: correct-or-honest "
                f"{pair.correct_or_honest:.1%}, false claims {pair.false_claims}, dup writes "
                f"{pair.duplicate_writes}, amplification {pair.amplification:.2f}, "
                f"p95 {pair.p95_ms:.0f} ms"
            )
            return pair

        if config.concurrent:
            pairs = list(await asyncio.gather(*(one(n, w) for n, w in jobs)))
        else:
            pairs = [await one(n, w) for n, w in jobs]
        say("happy-path overhead")
        overhead = await happy_path_overhead(config, workdir=root, base_db=base_db)
        say("token-check cost")
        tokens = token_check_cost(config)
    finally:
        if owned:
            shutil.rmtree(root, ignore_errors=True)
    return {
        "config": {
            **asdict(config),
            "scenarios_described": {s.name: s.description for s in SCENARIOS},
        },
        "results": [asdict(p) for p in pairs],
        "happy_path_overhead": overhead,
        "token_check_cost": tokens,
        "elapsed_s": time.perf_counter() - began,
    }
