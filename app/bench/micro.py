"""The micro-benchmarks: helpdesk's happy-path overhead and the per-turn cost of the token check.

:func:`happy_path_overhead` times the same read-only, fault-free turns through helpdesk, its own
graph over a pass-through executor and the naive agent, with a fixed model latency, so the
difference is the resilience layer's own cost. :func:`token_check_cost` times the context check
at several history sizes against LangChain's approximate counter.
"""

from __future__ import annotations

import shutil
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately

from helpdesk.app.bench.brain import ScriptedBrain
from helpdesk.app.bench.pair import percentile
from helpdesk.app.bench.systems import open_system
from helpdesk.app.bench.workload import (
    CountingPlan,
    Scenario,
    TurnClock,
    Workload,
    build_plan,
    build_workload,
)
from helpdesk.graph.compaction import IncrementalTokenTally, count_messages

if TYPE_CHECKING:
    from helpdesk.app.bench.runner import BenchConfig

__all__ = ["OVERHEAD_MODEL_LATENCY_S", "happy_path_overhead", "token_check_cost"]


OVERHEAD_MODEL_LATENCY_S: Final = 0.02
"""Fixed model latency of the happy-path overhead measurement (the layer's cost, not models')."""


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
    # a fixed 20 ms per model call: this measures the resilience layer's own cost, not models
    primary = ScriptedBrain(label="primary", latency_s=OVERHEAD_MODEL_LATENCY_S)
    backup = ScriptedBrain(label="backup", latency_s=OVERHEAD_MODEL_LATENCY_S)
    system = await open_system(system_name, primary=primary, backup=backup, db=db, chaos=plan)
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
            "p95_ms": percentile(values, 0.95) * 1000,
        }
        for name, values in runs.items()
    }
    helpdesk = summary["helpdesk"]["p50_ms"]
    return {
        "turns": len(runs["helpdesk"]),
        "model_latency_ms": OVERHEAD_MODEL_LATENCY_S * 1000,
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
