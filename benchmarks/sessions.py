"""Session storage benchmark: what a checkpointed turn costs, how storage grows, how turns scale.

Minimal tier, embedded demo shop (in-process), read-only turns (order status, tracking, stock,
greeting), a fresh data dir per measurement. Compares

- ``before``: the checkpointer as it was built before issue 13 — ``AsyncSqliteSaver`` with its own
  defaults (``synchronous=FULL``), LangGraph's default durability (``async``: a checkpoint after
  every step), no pruning, no session lock;
- ``after``: what ``helpdesk chat`` runs now — the session API (``run_turn``: per-session lock,
  ``durability="exit"``, index and pruning after the turn), SQLite in WAL with
  ``synchronous=NORMAL``;
- ``memory``: the same bot on LangGraph's in-memory saver (no storage at all);
- ``bare``: a LangGraph graph with as many steps per turn as helpdesk's (one: the turn's stages run
  as one graph node) doing nothing but handing a message on, on the same saver and durability as
  ``after``; ``bare7``: the same with 7 nodes (helpdesk's shape before the stages were fused).

Measures per-turn mean latency (and the process's CPU time per turn), bytes stored per turn over
one long session (database + WAL files on disk), and turns per second for N sessions run
concurrently in one process vs one after the other — with the process's CPU time per turn in
both modes and its CPU share while concurrent (``cpu_share_concurrent``: 1.0 = one core busy all
the time, the most one process's GIL-holding Python work can use). ``--shop-latency-ms`` adds a
delay to every shop call (fault injection at the HTTP transport, ``Fault.LATENCY``) to measure
turns that wait on a remote backend.
Run: ``python benchmarks/sessions.py [--turns 60] [--long 300] [--sessions 50] [--out F]``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import shutil
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages

from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.degrade.chaos import ChaosPlan, Fault, FaultRule
from helpdesk.graph.builder import GRAPH_NODES, NODE_ORDER
from helpdesk.graph.checkpoint import open_sqlite_checkpointer, state_serializer
from helpdesk.tools.shop import ensure_seeded

MESSAGES = (
    "where is order 100683?",
    "when will it arrive?",
    "is SKU-1001 in stock?",
    "hello",
    "我的订单100200到哪了",
)
CUSTOMER = "C0001"

Turn = Callable[[str, str], Awaitable[Any]]
"""(session, text) -> anything: one turn of the system under test."""


SHOP_URL: str | None = None
"""``--shop-url``: a standalone shop (``helpdesk shop serve``) instead of the in-process one."""
SHOP_LATENCY_S = 0.0
"""``--shop-latency-ms``: delay added to every shop call (0: none)."""


def _chaos() -> ChaosPlan | None:
    if not SHOP_LATENCY_S:
        return None
    return ChaosPlan([FaultRule(fault=Fault.LATENCY, rate=1.0, latency_s=SHOP_LATENCY_S)])


def _settings(tmp: Path, seed_db: Path) -> Settings:
    shop = tmp / "shop.sqlite"
    shutil.copy(seed_db, shop)
    return Settings(
        data_dir=tmp, shop_db_path=shop, shop_url=SHOP_URL, primary_model=None, backup_model=None
    )


@asynccontextmanager
async def system(name: str, tmp: Path, seed_db: Path) -> AsyncIterator[Turn]:
    """The ``turn`` function of one system, open for the duration of the block."""
    settings = _settings(tmp, seed_db)
    if name in ("bare", "bare7"):
        async with open_sqlite_checkpointer(settings.sessions_file) as saver:
            steps = len(NODE_ORDER) if name == "bare7" else len(GRAPH_NODES) - 1  # not refuse_turn
            graph = _bare_graph(saver, steps)

            async def bare_turn(session: str, text: str) -> Any:
                config = {"configurable": {"thread_id": session}}
                return await graph.ainvoke(
                    {"messages": [HumanMessage(text)]}, config, durability="exit"
                )

            yield bare_turn
        return
    if name == "before":
        async with AsyncSqliteSaver.from_conn_string(str(settings.sessions_file)) as saver:
            saver.serde = state_serializer()
            bot = build_bot(settings, checkpointer=saver, chaos=_chaos())

            async def before_turn(session: str, text: str) -> Any:
                config = {"configurable": {"thread_id": session}}
                return await bot.graph.ainvoke(
                    {"messages": [HumanMessage(text)], "customer": CUSTOMER, "session": session},
                    config,
                )

            try:
                yield before_turn
            finally:
                await bot.aclose()
        return
    if name == "memory":
        bot = build_bot(
            settings, checkpointer=InMemorySaver(serde=state_serializer()), chaos=_chaos()
        )
        try:
            yield _api_turn(bot)
        finally:
            await bot.aclose()
        return
    async with open_sqlite_checkpointer(settings.sessions_file) as saver:
        bot = build_bot(settings, checkpointer=saver, chaos=_chaos())
        try:
            yield _api_turn(bot)
        finally:
            await bot.aclose()


def _api_turn(bot: Bot) -> Turn:
    async def turn(session: str, text: str) -> Any:
        return await run_turn(bot, text, session=session, customer=CUSTOMER)

    return turn


class _BareState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    draft: str


def _bare_graph(saver: Any, steps: int) -> Any:
    """A graph of ``steps`` nodes in a row that only hand the message on."""
    builder = StateGraph(_BareState)

    def node(name: str, last: bool) -> Callable[[_BareState], Awaitable[dict[str, Any]]]:
        async def run(state: _BareState) -> dict[str, Any]:
            if last:
                return {"messages": [AIMessage(f"ok: {state['messages'][-1].content}")]}
            return {"draft": name}

        return run

    names = [f"step{i}" for i in range(steps)]
    for i, name in enumerate(names):
        builder.add_node(name, node(name, i == steps - 1))  # type: ignore[call-overload]
    builder.add_edge(START, names[0])
    for left, right in itertools.pairwise(names):
        builder.add_edge(left, right)
    builder.add_edge(names[-1], END)
    return builder.compile(checkpointer=saver)


def _disk_bytes(tmp: Path) -> int:
    return sum(p.stat().st_size for p in tmp.glob("sessions.sqlite*") if p.is_file())


async def latency(
    names: tuple[str, ...], turns: int, seed_db: Path
) -> tuple[dict[str, float], dict[str, float]]:
    """Mean ms per turn of each system over ``turns`` turns spread over 5 sessions, and the
    process's mean CPU ms per turn (every thread: the aiosqlite worker's too).

    The systems are open side by side and take turns (one turn each, round robin), so a busy
    machine slows them all alike; one warm-up turn each is not counted.
    """
    took: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory() as d:
        async with AsyncExitStack() as stack:
            systems = {}
            for name in names:
                tmp = Path(d) / name
                tmp.mkdir()
                systems[name] = await stack.enter_async_context(system(name, tmp, seed_db))
                await systems[name]("warm", MESSAGES[0])
            for i in range(turns):
                for name, turn in systems.items():
                    started, cpu_started = time.perf_counter(), time.process_time()
                    await turn(f"lat-{i % 5}", MESSAGES[i % len(MESSAGES)])
                    took[name].append(time.perf_counter() - started)
                    cpu[name].append(time.process_time() - cpu_started)
    return (
        {name: statistics.fmean(values) * 1000 for name, values in took.items()},
        {name: statistics.fmean(values) * 1000 for name, values in cpu.items()},
    )


async def growth(name: str, turns: int, seed_db: Path) -> dict[str, float]:
    """Bytes on disk per turn over one session of ``turns`` turns (database + WAL)."""
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        async with system(name, tmp, seed_db) as turn:
            await turn("long", MESSAGES[0])
            first = _disk_bytes(tmp)
            for i in range(1, turns):
                await turn("long", MESSAGES[i % len(MESSAGES)])
            last = _disk_bytes(tmp)
    return {
        "bytes_after_first": first,
        "bytes_after_last": last,
        "bytes_per_turn": (last - first) / (turns - 1),
    }


async def throughput(
    name: str, sessions: int, turns_each: int, seed_db: Path, rounds: int = 2
) -> dict[str, float]:
    """Turns per second: ``sessions`` sessions one after the other, then all at once, ``rounds``
    times alternately (a machine whose load changes during the run biases both alike)."""
    seq_wall = seq_cpu = con_wall = con_cpu = 0.0
    turns = sessions * turns_each
    with tempfile.TemporaryDirectory() as d:
        async with system(name, Path(d), seed_db) as turn:
            await turn("warm", MESSAGES[0])

            async def conversation(session: str) -> None:
                for i in range(turns_each):
                    await turn(session, MESSAGES[i % len(MESSAGES)])

            for r in range(rounds):
                started, cpu_started = time.perf_counter(), time.process_time()
                for s in range(sessions):
                    await conversation(f"seq-{r}-{s}")
                seq_wall += time.perf_counter() - started
                seq_cpu += time.process_time() - cpu_started
                started, cpu_started = time.perf_counter(), time.process_time()
                await asyncio.gather(*(conversation(f"con-{r}-{s}") for s in range(sessions)))
                con_wall += time.perf_counter() - started
                con_cpu += time.process_time() - cpu_started
    return {
        "sequential_tps": rounds * turns / seq_wall,
        "concurrent_tps": rounds * turns / con_wall,
        "speedup": seq_wall / con_wall,
        "sequential_ms_per_turn": seq_wall / (rounds * turns) * 1000,
        "cpu_ms_per_turn": seq_cpu / (rounds * turns) * 1000,
        "concurrent_cpu_ms_per_turn": con_cpu / (rounds * turns) * 1000,
        "cpu_share_concurrent": con_cpu / con_wall,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60, help="turns per latency run")
    parser.add_argument("--long", type=int, default=300, help="turns of the storage session")
    parser.add_argument("--sessions", type=int, default=50, help="concurrent sessions")
    parser.add_argument("--turns-each", type=int, default=4, help="turns per concurrent session")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    parser.add_argument(
        "--shop-url", default=None, help="a standalone shop (helpdesk shop serve) to call"
    )
    parser.add_argument(
        "--shop-latency-ms", type=float, default=0.0, help="delay added to every shop call"
    )
    parser.add_argument(
        "--only", choices=("latency", "storage", "throughput"), default=None, help="one part"
    )
    parser.add_argument(
        "--throughput-systems", default="before,after", help="systems of the throughput part"
    )
    parser.add_argument("--rounds", type=int, default=2, help="throughput: sequential+concurrent")
    args = parser.parse_args()
    global SHOP_URL, SHOP_LATENCY_S
    SHOP_URL = args.shop_url
    SHOP_LATENCY_S = args.shop_latency_ms / 1000
    with tempfile.TemporaryDirectory() as d:
        seed_db = Path(d) / "seed.sqlite"
        ensure_seeded(seed_db)
        report: dict[str, Any] = {"latency_ms": {}, "storage": {}, "throughput": {}}
        report["shop"] = args.shop_url or "in-process"
        report["shop_latency_ms"] = args.shop_latency_ms
        if args.only in (None, "latency"):
            lat, cpu = await latency(
                ("before", "after", "memory", "bare", "bare7"), args.turns, seed_db
            )
            report["latency_ms"], report["cpu_ms"] = lat, cpu
            print(f"latency ms/turn: {lat}\ncpu ms/turn: {cpu}", flush=True)
            report["ratios"] = {
                "after_vs_memory": lat["after"] / lat["memory"],
                "after_vs_bare": lat["after"] / lat["bare"],
                "after_vs_bare7": lat["after"] / lat["bare7"],
                "before_vs_memory": lat["before"] / lat["memory"],
                "cpu_after_vs_memory": cpu["after"] / cpu["memory"],
                "cpu_after_vs_bare": cpu["after"] / cpu["bare"],
            }
        for name in ("before", "after") if args.only in (None, "storage") else ():
            report["storage"][name] = await growth(name, args.long, seed_db)
            print(f"storage {name}: {report['storage'][name]}", flush=True)
        systems = args.throughput_systems.split(",")
        for name in systems if args.only in (None, "throughput") else ():
            report["throughput"][name] = await throughput(
                name, args.sessions, args.turns_each, seed_db, args.rounds
            )
            print(f"throughput {name}: {report['throughput'][name]}", flush=True)
    print(json.dumps(report, indent=2))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main())
