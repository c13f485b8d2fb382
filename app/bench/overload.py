"""The overload scenario: a shop with a fixed capacity, and open-loop load that steps past it.

:class:`CapacityPlan` models the shop's admission: at most ``capacity`` requests in service at
once, each held ``service_s`` seconds; a request beyond that waits for a free slot (it is slow)
if the wait is at most ``max_wait_s``, and is answered ``503`` at once (no Retry-After)
otherwise, like a server with a short queue that sheds load beyond it. Capacity in requests per
second is ``capacity / service_s``. :func:`run_overload` offers one-turn conversations as a Poisson
stream (open loop: arrivals do not wait for replies, as customers do not) at 0.5x, then 2x, then
0.5x of that capacity (in shop requests, at ~2.33 lookups per turn), and reports per step: the
offered load, the goodput (requests the shop served per second, as a share of its capacity),
turns fully answered, and P95 latency; and the share of turns fully answered that arrive more
than 10 s after the 2x step ends (a metastable retry storm would keep that low).
"""

from __future__ import annotations

import asyncio
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from helpdesk.app.bench.oracle import judge_turn
from helpdesk.app.bench.systems import open_system
from helpdesk.app.bench.workload import (
    SCENARIOS,
    CountingPlan,
    TurnClock,
    build_workload,
    scenario_brains,
)
from helpdesk.degrade.chaos import Fault, FaultRule
from helpdesk.tools.shop_client import ShopClient

if TYPE_CHECKING:
    from helpdesk.app.bench.runner import BenchConfig

__all__ = ["CAPACITY", "SERVICE_S", "CapacityPlan", "run_overload"]

CAPACITY: Final = 2
"""Requests the shop serves at once."""
SERVICE_S: Final = 0.25
"""Seconds each admitted request holds its slot."""
LOOKUPS_PER_TURN: Final = 7 / 3
"""Shop requests per read turn of the workload (2, 2 or 3 lookups, equally likely)."""
MAX_WAIT_S: Final = 2 * SERVICE_S
"""Longest wait for a slot before the shop answers 503 (its queue)."""
SETTLE_S: Final = 10.0
"""Turns arriving this long after the 2x step ended must be fully answered again."""

_SHED: Final = FaultRule(fault=Fault.UNAVAILABLE)


class CapacityPlan(CountingPlan):
    """Serves ``capacity`` concurrent shop requests (each ``service_s``); a request waits up to
    ``max_wait_s`` for a slot, else it is answered 503."""

    def __init__(
        self,
        *,
        seed: int,
        capacity: int = CAPACITY,
        service_s: float = SERVICE_S,
        max_wait_s: float = MAX_WAIT_S,
    ) -> None:
        super().__init__((), seed=seed, clock=TurnClock())
        self.capacity = capacity
        self.service_s = service_s
        self.max_wait_s = max_wait_s
        self._free_at = [0.0] * capacity
        self.admitted: list[float] = []
        """Monotonic times at which served requests started service."""
        self.shed: list[float] = []
        """Monotonic times of requests answered 503 for want of capacity."""

    def decide(self, target: str) -> FaultRule | None:
        if target.startswith("model:"):
            return None
        self.requests += 1
        self.by_target[target] = self.by_target.get(target, 0) + 1
        now = time.monotonic()
        slot = min(range(self.capacity), key=self._free_at.__getitem__)
        start = max(now, self._free_at[slot])
        if start - now > self.max_wait_s:
            self.shed.append(now)
            return _SHED
        self._free_at[slot] = start + self.service_s
        self.admitted.append(start)
        return FaultRule(fault=Fault.LATENCY, latency_s=start + self.service_s - now)


@dataclass
class _Arrival:
    at: float
    done: float = 0.0
    answered: bool = False
    correct_or_honest: bool = False


def _rate(times: list[float], start: float, end: float) -> float:
    return sum(start <= t < end for t in times) / (end - start) if end > start else 0.0


def _p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, int(0.95 * len(ordered) + 0.999999) - 1)]


async def run_overload(
    system_name: str, *, config: BenchConfig, workdir: Path, base_db: Path, repeat: int = 0
) -> dict[str, Any]:
    """One system through the 0.5x -> 2x -> 0.5x load steps; figures per step."""
    scenario = next(s for s in SCENARIOS if s.overload)
    seed = config.seed + repeat
    pair_dir = workdir / f"overload-{system_name}-r{repeat}"
    pair_dir.mkdir(parents=True, exist_ok=True)
    db = pair_dir / "shop.sqlite"
    shutil.copy(base_db, db)
    plan = CapacityPlan(seed=seed)
    primary, backup, _ = scenario_brains(config.latency, scenario, seed)
    system = await open_system(system_name, primary=primary, backup=backup, db=db, chaos=plan)
    truth = ShopClient.in_process(db)
    pool = [
        (session.customer, turn)
        for session in build_workload(scenario, db=base_db, turns=400, seed=seed).sessions
        for turn in session.turns
    ]
    capacity_rps = plan.capacity / plan.service_s
    steps = list(zip((0.5, 2.0, 0.5), config.overload_phase_s, strict=True))
    rng = random.Random(f"{seed}:overload")
    arrivals: list[_Arrival] = []
    tasks: list[asyncio.Task[None]] = []

    async def serve(index: int, arrival: _Arrival) -> None:
        customer, turn = pool[index % len(pool)]
        reply: str | None = None
        error: str | None = None
        try:
            reply = await system.reply(f"ov{repeat}-{index}", customer, turn.text)
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"[:200]
        arrival.done = time.monotonic()
        verdict = await judge_turn(truth, customer, turn.expects, reply, error=error)
        arrival.answered = verdict.answered
        arrival.correct_or_honest = verdict.correct_or_honest

    started = time.monotonic()
    bounds: list[tuple[float, float, float]] = []
    try:
        at = started
        for load, seconds in steps:
            rate = load * capacity_rps / LOOKUPS_PER_TURN
            end = at + seconds
            bounds.append((load, at, end))
            while True:
                at += rng.expovariate(rate)
                if at >= end:
                    at = end
                    break
                delay = at - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                arrival = _Arrival(at=time.monotonic())
                arrivals.append(arrival)
                tasks.append(asyncio.create_task(serve(len(arrivals) - 1, arrival)))
        await asyncio.gather(*tasks)
    finally:
        await system.aclose()
        await truth.aclose()
    steps_out = []
    for load, start, end in bounds:
        mine = [a for a in arrivals if start <= a.at < end]
        steps_out.append(
            {
                "load": load,
                "seconds": end - start,
                "turns": len(mine),
                "offered_x": _rate(plan.admitted + plan.shed, start, end) / capacity_rps,
                "goodput_x": _rate(plan.admitted, start, end) / capacity_rps,
                "fully_answered": sum(a.answered for a in mine) / len(mine) if mine else 0.0,
                "correct_or_honest": (
                    sum(a.correct_or_honest for a in mine) / len(mine) if mine else 0.0
                ),
                "p95_s": _p95([a.done - a.at for a in mine]),
            }
        )
    peak_end = bounds[1][2]
    settled = [a for a in arrivals if a.at >= peak_end + SETTLE_S]
    settled_answered = sum(a.answered for a in settled) / len(settled) if settled else 0.0
    peak = steps_out[1]
    return {
        "system": system_name,
        "repeat": repeat,
        "capacity": plan.capacity,
        "service_s": plan.service_s,
        "max_wait_s": plan.max_wait_s,
        "capacity_rps": capacity_rps,
        "steps": steps_out,
        "settled_turns": len(settled),
        "settled_fully_answered": settled_answered,
        "shop_requests": plan.requests,
        "shed": len(plan.shed),
        "elapsed_s": time.monotonic() - started,
        "summary": (
            f"2x step: offered {peak['offered_x']:.2f}x, goodput {peak['goodput_x']:.0%} of"
            f" capacity, fully answered {peak['fully_answered']:.0%}; >= {SETTLE_S:g} s after:"
            f" fully answered {settled_answered:.0%} of {len(settled)}"
        ),
    }
