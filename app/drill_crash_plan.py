"""The crash drill's plan and records: which crash points to play (seeded: customer, order,
action, language, failpoint) and what each one came to (:class:`CrashOutcome`,
:class:`CrashReport`). See :mod:`helpdesk.app.drill_crash`."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from helpdesk.degrade.failpoints import POINTS, FailpointSpec

__all__ = [
    "REQUEST",
    "TOOL_OF",
    "WHAT_HAPPENED",
    "YES",
    "CrashOutcome",
    "CrashReport",
    "CrashScenario",
    "Kind",
    "Lang",
    "Statement",
    "outcome_json",
    "plan_scenarios",
]

Kind = Literal["cancel", "refund"]
Lang = Literal["en", "zh"]

TOOL_OF: Final[dict[Kind, str]] = {"cancel": "cancel_order", "refund": "request_refund"}
REQUEST: Final[dict[tuple[Kind, Lang], str]] = {
    ("cancel", "en"): "cancel order {order_id}",
    ("cancel", "zh"): "取消订单{order_id}",
    ("refund", "en"): "I want a refund of {amount} yuan for order {order_id}",
    ("refund", "zh"): "订单{order_id}退款{amount}元",
}
YES: Final[dict[Lang, str]] = {"en": "yes", "zh": "确认"}
WHAT_HAPPENED: Final[dict[Lang, str]] = {
    "en": "what happened with my request?",
    "zh": "我刚才的请求怎么样了？",
}


@dataclass(frozen=True, kw_only=True, slots=True)
class CrashScenario:
    """One crash point: who asks for what, in which language, and where the process dies."""

    index: int
    kind: Kind
    lang: Lang
    customer: str
    order_id: str
    amount: int | None
    """Refunds: whole yuan asked for; None for a cancellation."""
    failpoint: str
    """``name@N`` armed in the first process (request + yes)."""

    @property
    def session(self) -> str:
        return f"crash-{self.index:04d}"

    @property
    def tool(self) -> str:
        return TOOL_OF[self.kind]

    def request(self) -> str:
        return REQUEST[(self.kind, self.lang)].format(order_id=self.order_id, amount=self.amount)


@dataclass(kw_only=True)
class Statement:
    """What one reply said about the action, next to the shop's truth at that moment."""

    turn: str
    message: str
    reply: str
    said: str
    """done / not_done / unknown / asks / asks_again / none / no reply (killed)."""
    executions: int


@dataclass(kw_only=True)
class CrashOutcome:
    """What happened at one crash point."""

    scenario: CrashScenario
    killed: bool = False
    """The first process died at its failpoint (False: the point was not reached)."""
    statements: list[Statement] = field(default_factory=list)
    executions: int = 0
    """Executions of the action in the shop at the end."""
    violations: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations


@dataclass(kw_only=True)
class CrashReport:
    seed: int
    points: int
    workers: int
    duration_s: float = 0.0
    outcomes: list[CrashOutcome] = field(default_factory=list)

    @property
    def violations(self) -> int:
        return sum(len(o.violations) for o in self.outcomes)

    @property
    def duplicates(self) -> int:
        return sum(1 for o in self.outcomes if o.executions > 1)

    @property
    def ok(self) -> bool:
        return self.violations == 0

    def as_json(self) -> dict[str, Any]:
        return {
            "mode": "crash",
            "seed": self.seed,
            "points": self.points,
            "workers": self.workers,
            "duration_s": round(self.duration_s, 1),
            "ok": self.ok,
            "violations": self.violations,
            "duplicate_executions": self.duplicates,
            "killed": sum(1 for o in self.outcomes if o.killed),
            "outcomes": [outcome_json(o) for o in self.outcomes],
        }


def outcome_json(o: CrashOutcome) -> dict[str, Any]:
    return {
        **asdict(o.scenario),
        "session": o.scenario.session,
        "killed": o.killed,
        "executions": o.executions,
        "ok": o.ok,
        "violations": o.violations,
        "statements": [asdict(s) for s in o.statements],
    }


def plan_scenarios(shop_db: Path, *, points: int, seed: int) -> list[CrashScenario]:
    """``points`` crash points on distinct orders of the seeded shop, chosen with ``seed``."""
    rng = random.Random(seed)
    with sqlite3.connect(f"file:{shop_db}?mode=ro", uri=True) as conn:
        cancellable = conn.execute(
            "SELECT order_id, customer_id FROM orders WHERE status IN ('pending', 'paid')"
            " ORDER BY order_id"
        ).fetchall()
        refundable = conn.execute(
            "SELECT order_id, customer_id, total_cents FROM orders o WHERE status = 'delivered'"
            " AND total_cents >= 5000 AND NOT EXISTS"
            " (SELECT 1 FROM refunds r WHERE r.order_id = o.order_id) ORDER BY order_id"
        ).fetchall()
    rng.shuffle(cancellable)
    rng.shuffle(refundable)
    if points > len(cancellable) + len(refundable):
        raise ValueError(
            f"at most {len(cancellable) + len(refundable)} crash points on the seeded shop"
        )
    scenarios: list[CrashScenario] = []
    for index in range(points):
        kind: Kind = rng.choice(("cancel", "refund"))
        if kind == "cancel" and not cancellable:
            kind = "refund"
        if kind == "refund" and not refundable:
            kind = "cancel"
        lang: Lang = rng.choice(("en", "zh"))
        point = rng.choice(POINTS)
        # turn.start / reply.before_publish: the asking turn (1) or the confirming turn (2)
        hit = rng.choice((1, 2)) if point in ("turn.start", "reply.before_publish") else 1
        spec = FailpointSpec(name=point, hit=hit)
        if kind == "cancel":
            order_id, customer = cancellable.pop()
            amount = None
        else:
            order_id, customer, total_cents = refundable.pop()
            amount = rng.randint(1, min(total_cents // 100, 500))
        scenarios.append(
            CrashScenario(
                index=index,
                kind=kind,
                lang=lang,
                customer=str(customer),
                order_id=str(order_id),
                amount=amount,
                failpoint=str(spec),
            )
        )
    return scenarios
