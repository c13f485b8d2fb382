"""The ``helpdesk bench`` command: run the side-by-side benchmark and write its report.

:func:`register` adds the command to the main Typer app (``register(app)`` in
``helpdesk.app.cli``).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    # imported when the command runs: ``helpdesk`` itself must start without LangChain's agents
    from helpdesk.app.bench.runner import BenchConfig

__all__ = ["bench", "quick_config", "register"]


def quick_config(seed: int) -> BenchConfig:
    """``--quick``: a tiny run for CI smoke tests: every system x scenario, a few turns each, no
    injected latencies, pairs run concurrently (its timings are not measurements)."""
    from helpdesk.app.bench.runner import BenchConfig

    return BenchConfig(
        seed=seed,
        turns=2,
        model_latency_s=0.0,
        shop_latency_s=0.0,
        overhead_turns=3,
        overhead_passes=1,
        token_sizes=(10, 100),
        token_repeats=3,
        concurrent=True,
    )


def bench(
    turns: Annotated[int, typer.Option("--turns", min=1, help="Logical turns per scenario.")] = 48,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the workload and faults.")] = 7,
    out: Annotated[
        Path, typer.Option("--out", help="Directory for report.md, report.json, report.png.")
    ] = Path("benchmarks/results"),
    quick: Annotated[
        bool, typer.Option("--quick", help="A tiny run (CI smoke): a few turns, no latencies.")
    ] = False,
) -> None:
    """Benchmark helpdesk vs a LangChain agent with resilience middleware vs a naive agent."""
    from helpdesk.app.bench.report import write_report
    from helpdesk.app.bench.runner import BenchConfig, run_benchmark

    config = quick_config(seed) if quick else BenchConfig(seed=seed, turns=turns)

    def say(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    report = asyncio.run(run_benchmark(config, progress=say))
    paths = write_report(report, out)
    print(paths["md"].read_text(encoding="utf-8"))
    say("wrote " + ", ".join(str(p) for p in paths.values()))


def register(app: typer.Typer) -> None:
    """Add ``bench`` to the ``helpdesk`` command."""
    app.command("bench")(bench)
