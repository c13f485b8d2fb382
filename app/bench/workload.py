"""The benchmark's workload: scenarios, customer sessions and turns, and their fault schedules.

Turns are generated once per scenario from the seeded demo shop (``random.Random(seed)``), so
every system sees the same messages in the same order. Each turn asks for 2-3 lookups (order
status, tracking, stock) or cancels one order; the :class:`Expectation` s say what a correct
reply must contain. Fault windows are counted in *turns*, not seconds: :class:`TurnClock` is the
chaos plan's clock and reads the harness's turn counter, so "track_shipment is down for turns
15-30" means the same turns for a fast system and a slow one.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from helpdesk.app.bench.brain import LatencyModel, OutageSwitch, ScriptedBrain
from helpdesk.degrade.chaos import ChaosPlan, Fault, FaultRule
from helpdesk.degrade.clock import SystemClock

__all__ = [
    "SCENARIOS",
    "SHOP_TARGETS",
    "SLOW_MODELS",
    "TIMEOUT_HANG_S",
    "CountingPlan",
    "Expectation",
    "Scenario",
    "Session",
    "Turn",
    "TurnClock",
    "Workload",
    "build_plan",
    "build_workload",
    "scenario_brains",
]

SHOP_TARGETS: Final = "[!m]*"
"""Every shop request's chaos target (tool names, ``<tool>.verify``, ``compensation``) and not
``model:<tier>``: helpdesk's router consults the same plan for its model calls, and the brains'
faults are the outage switch, the same for every system."""

ExpectKind = Literal["status", "tracking", "stock", "cancel", "confirm"]


@dataclass(frozen=True, slots=True)
class Expectation:
    """One thing the customer asked for in a turn, and the logical tool call serving it."""

    kind: ExpectKind
    """``confirm`` is helpdesk's "do you want me to cancel?" turn (no logical call)."""
    key: str
    """The order id or SKU."""

    @property
    def tool(self) -> str | None:
        return {
            "status": "get_order",
            "tracking": "track_shipment",
            "stock": "check_stock",
            "cancel": "cancel_order",
        }.get(self.kind)


@dataclass(frozen=True, slots=True)
class Turn:
    """One customer message and what it asks for."""

    index: int
    """Logical turn number in the scenario (fault windows count these)."""
    text: str
    expects: tuple[Expectation, ...]


@dataclass(frozen=True, slots=True)
class Session:
    """A conversation: one customer, a few turns."""

    id: str
    customer: str
    turns: tuple[Turn, ...]


@dataclass(frozen=True, slots=True)
class Scenario:
    """A fault schedule the workload runs under."""

    name: str
    description: str
    transient_rate: float = 0.0
    """Per shop request: connection reset or read timeout (which hangs 3 s), half each."""
    down_tool: str | None = None
    """A dependency that answers 503 for the middle stretch of the run."""
    primary_windows: tuple[tuple[float, float], ...] = ()
    """Stretches of the run (fractions of its turns) during which the primary model is down."""
    primary_mode: Literal["error", "hang"] = "error"
    """How the primary is down: answers 503 at once, or hangs until the caller's timeout."""
    lost_write_rate: float = 0.0
    """Per ``cancel_order`` request: executed, then the response is lost."""
    cancel_share: float = 0.125
    """Fraction of turns that cancel an order."""
    slow_models: bool = False
    """Every model call takes a steady 2.5 s (healthy but slow models)."""
    overload: bool = False
    """The shop admits a fixed number of concurrent requests and answers 503 beyond; offered
    load steps 0.5x -> 2x -> 0.5x of its capacity (open-loop arrivals, see ``overload.py``)."""

    @property
    def primary_outage(self) -> bool:
        return bool(self.primary_windows)


SCENARIOS: Final[tuple[Scenario, ...]] = (
    Scenario("transient_0", "no injected faults"),
    Scenario("transient_15", "15% transient shop failures", transient_rate=0.15),
    Scenario("transient_30", "30% transient shop failures", transient_rate=0.30),
    Scenario(
        "dependency_down",
        "track_shipment answers 503 for turns 25%-60%",
        down_tool="track_shipment",
    ),
    Scenario(
        "primary_outage", "primary model 503 for turns 25%-75%", primary_windows=((0.25, 0.75),)
    ),
    Scenario(
        "lost_writes",
        "half the cancel_order responses lost after execution",
        lost_write_rate=0.5,
        cancel_share=0.5,
    ),
    Scenario(
        "slow_models",
        "healthy models at a steady 2.5 s per call",
        slow_models=True,
        cancel_share=0.0,
    ),
    Scenario(
        "flapping_primary",
        "primary model hangs for turns 10-20%, 30-40%, 50-60%, 70-80%",
        primary_windows=((0.1, 0.2), (0.3, 0.4), (0.5, 0.6), (0.7, 0.8)),
        primary_mode="hang",
    ),
    Scenario(
        "recovery",
        "primary model hangs for turns 0-40%, then recovers",
        primary_windows=((0.0, 0.4),),
        primary_mode="hang",
    ),
    Scenario(
        "overload",
        "shop admits 2 concurrent requests (503 beyond); offered load 0.5x -> 2x -> 0.5x",
        overload=True,
        cancel_share=0.0,
    ),
)

TIMEOUT_HANG_S: Final = 3.0
"""A timeout fault hangs this long before the read times out (a 3 s client read timeout)."""


@dataclass
class Workload:
    """The sessions of one scenario, in the order they run (sessions are interleaved)."""

    scenario: Scenario
    sessions: list[Session] = field(default_factory=list)

    @property
    def turns(self) -> int:
        return sum(len(s.turns) for s in self.sessions)

    def schedule(self) -> list[tuple[Session, Turn]]:
        """(session, turn) in run order: turn index order."""
        pairs = [(s, t) for s in self.sessions for t in s.turns]
        return sorted(pairs, key=lambda p: p[1].index)

    def window(self, start: float, end: float) -> tuple[float, float]:
        """Turn indexes ``[start, end)`` as fractions of the run."""
        return (round(self.turns * start), round(self.turns * end))

    def down_turns(self) -> tuple[float, float]:
        """The turn indexes ``[start, end)`` during which the scenario's ``down_tool`` is down
        (25%-60% of the run; empty without one)."""
        return self.window(0.25, 0.60) if self.scenario.down_tool else (0, 0)

    def primary_down(self, turn: int) -> bool:
        """Whether the primary model is down during logical turn ``turn``."""
        return any(
            a <= turn < b for a, b in (self.window(s, e) for s, e in self.scenario.primary_windows)
        )


class TurnClock(SystemClock):
    """The real clock, except :meth:`now` is the harness's logical turn number (for fault
    windows); sleeps and timeouts are real."""

    __slots__ = ("turn",)

    def __init__(self) -> None:
        self.turn = 0

    def now(self) -> float:
        return float(self.turn)


@dataclass(frozen=True, slots=True)
class _Customer:
    id: str
    tracked: tuple[str, ...]
    """Shipped or delivered orders with shipments."""
    settled: tuple[str, ...]
    """Orders whose status cannot change during the run (shipped, delivered, cancelled)."""
    cancellable: tuple[str, ...]
    """Pending or paid orders."""


def _customers(db: Path) -> list[_Customer]:
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT o.customer_id, o.order_id, o.status,"
            " EXISTS(SELECT 1 FROM shipments s WHERE s.order_id = o.order_id)"
            " FROM orders o ORDER BY o.customer_id, o.order_id"
        ).fetchall()
    finally:
        conn.close()
    by_customer: dict[str, list[tuple[str, str, bool]]] = {}
    for customer, order_id, status, shipped in rows:
        by_customer.setdefault(customer, []).append((order_id, status, bool(shipped)))
    out = []
    for customer, orders in sorted(by_customer.items()):
        tracked = tuple(o for o, s, shipped in orders if shipped and s in ("shipped", "delivered"))
        settled = tuple(o for o, s, _ in orders if s in ("shipped", "delivered", "cancelled"))
        cancellable = tuple(o for o, s, _ in orders if s in ("pending", "paid"))
        if tracked and len(settled) >= 2:
            out.append(_Customer(customer, tracked, settled, cancellable))
    return out


def _skus(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return [r[0] for r in conn.execute("SELECT sku FROM products ORDER BY sku").fetchall()]
    finally:
        conn.close()


def _read_turn(index: int, rng: random.Random, who: _Customer, skus: Sequence[str]) -> Turn:
    status = rng.choice([o for o in who.settled] or list(who.tracked))
    tracked = rng.choice(who.tracked)
    if status == tracked:
        # two different orders: one tracking look answers a status question about the order it
        # tracks too, so the same order twice would be one logical call counted as two (no
        # extra draw, so the rest of the workload stays as seeded)
        status = next((o for o in who.settled if o != tracked), status)
    sku = rng.choice(skus)
    shape = rng.randrange(3)
    if shape == 0:
        return Turn(
            index,
            f"What is the status of order {status} and where is order {tracked}?",
            (Expectation("status", status), Expectation("tracking", tracked)),
        )
    if shape == 1:
        return Turn(
            index,
            f"Where is order {tracked}? Also, is {sku} in stock?",
            (Expectation("tracking", tracked), Expectation("stock", sku)),
        )
    return Turn(
        index,
        f"What is the status of order {status} and where is order {tracked}? "
        f"Also, is {sku} in stock?",
        (
            Expectation("status", status),
            Expectation("tracking", tracked),
            Expectation("stock", sku),
        ),
    )


def build_workload(
    scenario: Scenario, *, db: Path, turns: int, seed: int, session_turns: int = 4
) -> Workload:
    """``turns`` logical turns for ``scenario`` from the seeded shop at ``db``.

    Sessions of ``session_turns`` turns each go to distinct customers; cancels use each
    customer's pending or paid orders (never an order another turn reads).
    """
    rng = random.Random(f"{seed}:{scenario.name}")
    customers = _customers(db)
    rng.shuffle(customers)
    skus = _skus(db)
    workload = Workload(scenario)
    index = 0
    for number, who in enumerate(customers):
        if index >= turns:
            break
        size = min(session_turns, turns - index)
        free = list(who.cancellable)
        session_turns_out: list[Turn] = []
        for _ in range(size):
            if free and rng.random() < scenario.cancel_share:
                order = free.pop(rng.randrange(len(free)))
                session_turns_out.append(
                    Turn(index, f"Please cancel order {order}.", (Expectation("cancel", order),))
                )
            else:
                session_turns_out.append(_read_turn(index, rng, who, skus))
            index += 1
        workload.sessions.append(
            Session(f"{scenario.name}-s{number}", who.id, tuple(session_turns_out))
        )
    return workload


def build_plan(
    workload: Workload, *, seed: int, clock: TurnClock, shop_latency_s: float
) -> ChaosPlan:
    """The scenario's shop faults (same seed, same schedule for every system)."""
    scenario = workload.scenario
    rules: list[FaultRule] = []
    shop = SHOP_TARGETS
    rate = scenario.transient_rate
    if rate > 0:
        half = rate / 2
        rules.append(FaultRule(fault=Fault.CONNECTION_RESET, rate=half, target=shop))
        # the second rule draws only when the first missed: total = half + (1-half)*x = rate
        rules.append(
            FaultRule(
                fault=Fault.TIMEOUT, rate=half / (1 - half), target=shop, hang_s=TIMEOUT_HANG_S
            )
        )
    if scenario.down_tool:
        start, end = workload.down_turns()
        rules.append(
            FaultRule(fault=Fault.UNAVAILABLE, target=scenario.down_tool, start_s=start, end_s=end)
        )
    if scenario.lost_write_rate > 0:
        rules.append(
            FaultRule(
                fault=Fault.RESPONSE_LOST,
                rate=scenario.lost_write_rate,
                target="cancel_order",
                hang_s=TIMEOUT_HANG_S,
            )
        )
    if shop_latency_s > 0:
        rules.append(
            FaultRule(fault=Fault.LATENCY, rate=1.0, target=shop, latency_s=shop_latency_s)
        )
    return ChaosPlan(rules, seed=seed, clock=clock)


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


SLOW_MODELS: Final = LatencyModel(median_s=2.5, p95_s=2.5, per_token_s=0.0, fixed=True)
"""The slow_models scenario: every call a steady 2.5 s."""


def scenario_brains(
    latency: LatencyModel, scenario: Scenario, seed: int
) -> tuple[ScriptedBrain, ScriptedBrain, OutageSwitch]:
    """Primary and backup brains for ``scenario`` (same logic, latency drawn per call) and the
    primary's outage switch."""
    chosen = SLOW_MODELS if scenario.slow_models else latency
    outage = OutageSwitch(mode=scenario.primary_mode)
    primary = ScriptedBrain(label="primary", latency=chosen, seed=seed, outage=outage)
    backup = ScriptedBrain(label="backup", latency=chosen, seed=seed + 1000)
    return primary, backup, outage
