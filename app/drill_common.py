"""What both drills share: the report records, the seeded shop per cell, and the drill bot.

:class:`DrillReport` (with :class:`CellOutcome` per matrix cell and :class:`Invariant` per
broken invariant of the random drill) is what :mod:`helpdesk.app.drill` and
:mod:`helpdesk.app.drill_random` return and :mod:`helpdesk.app.drill_output` writes;
:func:`drill_bot` builds a bot on a copy of the seeded demo shop with a chaos plan and a fake
clock; :func:`drill_turn` plays one customer message through the session API.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.drill_matrix import DrillCell
from helpdesk.app.drill_packs import CellWorld
from helpdesk.app.observe import Observer
from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import FakeClock
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.graph.tiers import TierRouter
from helpdesk.tools.shop.seed import ensure_seeded

__all__ = [
    "CUSTOMER",
    "CellOutcome",
    "DrillReport",
    "Invariant",
    "ModelFactory",
    "Progress",
    "drill_bot",
    "drill_turn",
    "fresh_db",
    "seeded_db",
]

CUSTOMER: Final = "C0001"
"""The seeded customer every drill talks as (tools/shop/API.md)."""

Progress = Callable[[str], None]
"""Called once per finished cell / turn with a short label (drives a progress bar)."""

ModelFactory = Callable[[FakeClock], TierRouter]
"""Builds a bot's model tiers on the drill's clock."""


@dataclass
class CellOutcome:
    """One matrix cell: what was expected, what happened, and every difference."""

    cell: DrillCell
    expected: dict[str, Any] = field(default_factory=dict)
    actual: dict[str, Any] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)
    not_applicable: str | None = None
    """Why the cell could not run (e.g. no model tier configured); not a failure."""
    reply: str = ""
    virtual_s: float = 0.0
    """Time the faulted turn took on the drill's fake clock (retry waits, injected latency)."""
    wall_s: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.mismatches

    def as_dict(self) -> dict[str, Any]:
        return {
            "cell": self.cell.id,
            "target": self.cell.target,
            "fault": str(self.cell.fault),
            "variant": self.cell.variant,
            "passed": self.passed,
            "not_applicable": self.not_applicable,
            "expected": self.expected,
            "actual": self.actual,
            "mismatches": self.mismatches,
            "reply": self.reply,
            "virtual_s": round(self.virtual_s, 4),
            "wall_s": round(self.wall_s, 4),
        }


@dataclass(frozen=True, slots=True)
class Invariant:
    """A broken invariant of the random drill."""

    name: Literal["no_duplicate_write", "no_false_claim", "budget_respected", "turn_answered"]
    session: str
    detail: str

    def as_dict(self) -> dict[str, str]:
        return {"invariant": self.name, "session": self.session, "detail": self.detail}


@dataclass
class DrillReport:
    """The result of one drill run (matrix or random)."""

    mode: Literal["matrix", "random"]
    seed: int
    cells: list[CellOutcome] = field(default_factory=list)
    violations: list[Invariant] = field(default_factory=list)
    turns: list[dict[str, Any]] = field(default_factory=list)
    """Random mode: one summary per turn (session, faults seen, outcome, latency)."""
    stats: dict[str, Any] = field(default_factory=dict)
    wall_s: float = 0.0

    @property
    def mismatches(self) -> list[CellOutcome]:
        return [c for c in self.cells if not c.passed]

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.violations

    def as_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "seed": self.seed,
            "ok": self.ok,
            "wall_s": round(self.wall_s, 3),
            "stats": self.stats,
            "cells": [c.as_dict() for c in self.cells],
            "violations": [v.as_dict() for v in self.violations],
            "turns": self.turns,
        }


def seeded_db(work_dir: Path) -> Path:
    """A seeded shop database, made once per drill and copied per cell (closed, so no WAL)."""
    return ensure_seeded(work_dir / "seed" / "shop.sqlite")


def fresh_db(seed_db: Path, cell_dir: Path) -> Path:
    cell_dir.mkdir(parents=True, exist_ok=True)
    target = cell_dir / "shop.sqlite"
    shutil.copy(seed_db, target)
    return target


def drill_bot(
    settings: Settings,
    db: Path,
    plan: ChaosPlan,
    clock: FakeClock,
    observer: Observer,
    models: ModelFactory | None = None,
    world: CellWorld | None = None,
) -> Bot:
    local = settings.model_copy(
        update={"data_dir": db.parent, "shop_url": None, "shop_db_path": db}
    )
    world = world or CellWorld()
    bot = build_bot(
        local,
        checkpointer=InMemorySaver(serde=state_serializer()),
        chaos=plan,
        clock=clock,
        observer=observer,
        router=models(clock) if models is not None else None,
        packs=world.packs,
        pack_options=world.options,
    )
    if world.faults_at_call:
        # an in-process backend has no transport: the plan wraps the tool calls instead (its
        # rules name only this cell's tool, so the shop's calls pass untouched)
        bot.executor.chaos = plan
    observer.breakers = bot.executor.breakers
    return bot


async def drill_turn(
    bot: Bot, observer: Observer, clock: FakeClock, text: str, session: str
) -> tuple[dict[str, Any], float]:
    started = clock.now()
    with observer.turn(session=session, customer=CUSTOMER, mode="drill"):
        payload = await run_turn(bot, text, session=session, customer=CUSTOMER)
        elapsed = clock.now() - started
        observer.turn_finished(payload, elapsed)
    return payload, elapsed
