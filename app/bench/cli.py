"""The ``helpdesk bench`` command: run the side-by-side benchmark and write its report.

:func:`register` adds the command to the main Typer app (``register(app)`` in
``helpdesk.app.cli``).
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    # imported when the command runs: ``helpdesk`` itself must start without LangChain's agents
    from helpdesk.app.bench.runner import BenchConfig

__all__ = ["bench", "quick_config", "register"]


def quick_config(seed: int) -> BenchConfig:
    """``--quick``: a smoke run for CI: every system x scenario, a few turns, one repeat, model
    latency 10x shorter than the real default, short overload steps (not a measurement)."""
    from helpdesk.app.bench.brain import LatencyModel
    from helpdesk.app.bench.runner import BenchConfig

    return BenchConfig(
        seed=seed,
        turns=3,
        repeats=1,
        latency=LatencyModel(median_s=0.02, p95_s=0.05, per_token_s=0.0),
        shop_latency_s=0.0,
        parallel=12,
        overload_phase_s=(2.0, 3.0, 3.0),
        overhead_turns=3,
        overhead_passes=1,
        token_sizes=(10, 100),
        token_repeats=3,
    )


def bench(
    turns: Annotated[int, typer.Option("--turns", min=1, help="Logical turns per scenario.")] = 30,
    repeats: Annotated[
        int, typer.Option("--repeats", min=1, help="Runs per system and scenario (spread).")
    ] = 2,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the workload and faults.")] = 7,
    median_s: Annotated[
        float, typer.Option("--model-median-s", min=0.0, help="Median model latency per call.")
    ] = 0.8,
    p95_s: Annotated[
        float, typer.Option("--model-p95-s", min=0.0, help="P95 model latency per call.")
    ] = 2.5,
    per_token_s: Annotated[
        float, typer.Option("--model-per-token-s", min=0.0, help="Seconds per output token.")
    ] = 0.01,
    scenarios: Annotated[
        str | None,
        typer.Option("--scenarios", help="Comma-separated scenario names (default: all)."),
    ] = None,
    systems: Annotated[
        str | None,
        typer.Option("--systems", help="Comma-separated system names (default: all)."),
    ] = None,
    parallel: Annotated[
        int, typer.Option("--parallel", min=1, help="Worker processes (runs at once).")
    ] = 12,
    out: Annotated[
        Path, typer.Option("--out", help="Directory for report.md, report.json, report.png.")
    ] = Path("benchmarks/results"),
    quick: Annotated[
        bool, typer.Option("--quick", help="A tiny run (CI smoke): a few turns, short latencies.")
    ] = False,
) -> None:
    """Benchmark helpdesk vs LangChain agents (defaults and careful) vs a naive agent."""
    from helpdesk.app.bench.brain import LatencyModel
    from helpdesk.app.bench.report import write_report
    from helpdesk.app.bench.runner import BenchConfig, run_benchmark

    try:
        latency = LatencyModel(median_s=median_s, p95_s=p95_s, per_token_s=per_token_s)
        chosen = tuple(s.strip() for s in scenarios.split(",")) if scenarios else None
        if quick:
            config = quick_config(seed)
        else:
            config = BenchConfig(
                seed=seed, turns=turns, repeats=repeats, latency=latency, parallel=parallel
            )
        if chosen:
            config = replace(config, scenarios=chosen)
        if systems:
            config = replace(config, systems=tuple(s.strip() for s in systems.split(",")))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc

    def say(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    report = asyncio.run(run_benchmark(config, progress=say))
    paths = write_report(report, out)
    print(paths["md"].read_text(encoding="utf-8"))
    say("wrote " + ", ".join(str(p) for p in paths.values()))


def register(app: typer.Typer) -> None:
    """Add ``bench`` to the ``helpdesk`` command."""
    app.command("bench")(bench)
