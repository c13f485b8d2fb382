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

from helpdesk.degrade.chaos import ChaosPlan, Fault, FaultRule
from helpdesk.degrade.clock import SystemClock

__all__ = [
    "SCENARIOS",
    "SHOP_TARGETS",
    "Expectation",
    "Scenario",
    "Session",
    "Turn",
    "TurnClock",
    "Workload",
    "build_plan",
    "build_workload",
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
    """Per shop request: connection reset or read timeout, half each."""
    down_tool: str | None = None
    """A dependency that answers 503 for the middle stretch of the run."""
    primary_outage: bool = False
    """The primary model answers 503 for the middle half of the run."""
    lost_write_rate: float = 0.0
    """Per ``cancel_order`` request: executed, then the response is lost."""
    cancel_share: float = 0.125
    """Fraction of turns that cancel an order."""


SCENARIOS: Final[tuple[Scenario, ...]] = (
    Scenario("transient_0", "no injected faults"),
    Scenario("transient_15", "15% transient shop failures", transient_rate=0.15),
    Scenario("transient_30", "30% transient shop failures", transient_rate=0.30),
    Scenario(
        "dependency_down",
        "track_shipment answers 503 for turns 25%-60%",
        down_tool="track_shipment",
    ),
    Scenario("primary_outage", "primary model 503 for turns 25%-75%", primary_outage=True),
    Scenario(
        "lost_writes",
        "half the cancel_order responses lost after execution",
        lost_write_rate=0.5,
        cancel_share=0.5,
    ),
)


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
        rules.append(FaultRule(fault=Fault.TIMEOUT, rate=half / (1 - half), target=shop))
    if scenario.down_tool:
        start, end = workload.window(0.25, 0.60)
        rules.append(
            FaultRule(fault=Fault.UNAVAILABLE, target=scenario.down_tool, start_s=start, end_s=end)
        )
    if scenario.lost_write_rate > 0:
        rules.append(
            FaultRule(
                fault=Fault.RESPONSE_LOST, rate=scenario.lost_write_rate, target="cancel_order"
            )
        )
    if shop_latency_s > 0:
        rules.append(
            FaultRule(fault=Fault.LATENCY, rate=1.0, target=shop, latency_s=shop_latency_s)
        )
    return ChaosPlan(rules, seed=seed, clock=clock)
