"""Runs the benchmark: every system through every scenario, repeated, then the micro-benchmarks.

Each (system, scenario, repeat) is one run of :func:`~helpdesk.app.bench.pair.run_pair` (a fresh
shop, session file, brains and fault plan; its metrics are a
:class:`~helpdesk.app.bench.pair.PairResult`). Runs go to ``parallel`` worker processes (each its
own event loop, so one run's CPU work never delays another's turns; a turn is mostly waiting on
model latency), each process warmed up first. The overload scenario has its own open-loop driver
(:mod:`~helpdesk.app.bench.overload`). Then the happy-path overhead and the token-check cost
(:mod:`~helpdesk.app.bench.micro`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from helpdesk.app.bench.brain import LatencyModel, ScriptedBrain
from helpdesk.app.bench.micro import (
    OVERHEAD_MODEL_LATENCY_S,
    happy_path_overhead,
    token_check_cost,
)
from helpdesk.app.bench.pair import PairResult, run_pair
from helpdesk.app.bench.systems import SYSTEM_NAMES, open_system
from helpdesk.app.bench.workload import (
    SCENARIOS,
    CountingPlan,
    Scenario,
    TurnClock,
    Workload,
    build_workload,
)
from helpdesk.tools.shop import create_app

__all__ = [
    "OVERHEAD_MODEL_LATENCY_S",
    "BenchConfig",
    "CountingPlan",
    "PairResult",
    "happy_path_overhead",
    "run_benchmark",
    "run_pair",
    "token_check_cost",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class BenchConfig:
    """What to run."""

    turns: int = 30
    """Logical turns per scenario (helpdesk adds a "yes" turn per cancel)."""
    repeats: int = 2
    """Runs of every (system, scenario) pair, seeds ``seed``, ``seed + 1``, ..."""
    seed: int = 7
    """Seeds the workload and every fault schedule."""
    latency: LatencyModel = field(default_factory=LatencyModel)
    """Model latency per call (default median 0.8 s, P95 2.5 s, 10 ms per output token)."""
    shop_latency_s: float = 0.005
    """Seconds added to every shop request that is not failed by a fault."""
    systems: tuple[str, ...] = SYSTEM_NAMES
    scenarios: tuple[str, ...] = tuple(s.name for s in SCENARIOS)
    parallel: int = 12
    """Worker processes: (system, scenario, repeat) runs in flight at once."""
    overload_phase_s: tuple[float, float, float] = (15.0, 20.0, 20.0)
    """Seconds of the overload scenario's 0.5x, 2x and 0.5x load steps."""
    overhead_turns: int = 20
    """Happy-path turns per system for the overhead comparison."""
    overhead_passes: int = 1
    """Passes per system over those turns; the pass with the lowest median is kept."""
    token_sizes: tuple[int, ...] = (10, 100, 1000)
    """History lengths (messages) for the token-check cost."""
    token_repeats: int = 50
    """Checks timed per history length."""

    def __post_init__(self) -> None:
        if self.turns < 1:
            raise ValueError(f"turns must be >= 1, got {self.turns}")
        if self.repeats < 1:
            raise ValueError(f"repeats must be >= 1, got {self.repeats}")
        if self.parallel < 1:
            raise ValueError(f"parallel must be >= 1, got {self.parallel}")
        unknown = set(self.scenarios) - {s.name for s in SCENARIOS}
        if unknown:
            raise ValueError(f"unknown scenarios: {sorted(unknown)}")
        strangers = set(self.systems) - set(SYSTEM_NAMES)
        if strangers or not self.systems:
            raise ValueError(
                f"unknown systems: {sorted(strangers)} (known: {', '.join(SYSTEM_NAMES)})"
            )


def _seeded_base(workdir: Path) -> Path:
    base = workdir / "seeded-shop.sqlite"
    if not base.exists():
        create_app(base)  # seeds the file
    return base


# --- the whole run ---


_WARM = False
"""Whether this (worker) process has run its warm-up turn."""


def _pair_job(
    name: str, workload: Workload, repeat: int, config: BenchConfig, workdir: Path, base_db: Path
) -> PairResult:
    """One run in a worker process: its own event loop, so runs never queue behind each other's
    CPU work and latencies stay the systems' own. The process's first run warms it up first
    (imports, templates, tokenizer) on a throwaway shop."""
    global _WARM
    if not _WARM:
        warm_dir = Path(tempfile.mkdtemp(prefix="helpdesk-bench-warm-"))
        try:
            asyncio.run(_warm_up(config, workdir=warm_dir, base_db=base_db))
        finally:
            shutil.rmtree(warm_dir, ignore_errors=True)
        _WARM = True
    return asyncio.run(
        run_pair(name, workload, config=config, workdir=workdir, base_db=base_db, repeat=repeat)
    )


async def _run_jobs(
    jobs: Sequence[tuple[str, Workload, int]],
    *,
    config: BenchConfig,
    workdir: Path,
    base_db: Path,
    say: Callable[[str], None],
) -> list[PairResult]:
    loop = asyncio.get_running_loop()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=config.parallel, mp_context=context) as pool:
        futures = [
            loop.run_in_executor(pool, _pair_job, name, workload, repeat, config, workdir, base_db)
            for name, workload, repeat in jobs
        ]
        for done in asyncio.as_completed(futures):
            pair = await done
            say(
                f"  {pair.scenario}/{pair.system}#{pair.repeat}: fully answered"
                f" {pair.answered:.1%}, correct-or-honest {pair.correct_or_honest:.1%}, false"
                f" claims {pair.false_claims}, dup writes {pair.duplicate_writes}, amplification"
                f" {pair.amplification:.2f}, p95 {pair.p95_ms:.0f} ms ({pair.elapsed_s:.0f} s)"
            )
        return [f.result() for f in futures]


# ------------------------------------------------------------------------------------------------


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
        system = await open_system(
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
            (name, build_workload(s, db=base_db, turns=config.turns, seed=config.seed), r)
            for r in range(config.repeats)
            for s in scenarios
            if not s.overload
            for name in config.systems
        ]
        say(f"{len(jobs)} runs, {config.parallel} processes")
        pairs = await _run_jobs(jobs, config=config, workdir=root, base_db=base_db, say=say)
        overload: list[dict[str, Any]] = []
        if any(s.overload for s in scenarios):
            from helpdesk.app.bench.overload import run_overload

            for repeat in range(config.repeats):
                for name in config.systems:
                    say(f"overload: {name}#{repeat}")
                    run = await run_overload(
                        name, config=config, workdir=root, base_db=base_db, repeat=repeat
                    )
                    say(f"  overload/{name}#{repeat}: {run['summary']}")
                    overload.append(run)
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
        "overload": overload,
        "happy_path_overhead": overhead,
        "token_check_cost": tokens,
        "elapsed_s": time.perf_counter() - began,
    }
