"""A demo shop + built-in tools + executor on a fake clock, for integration tests and drills."""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import FakeClock
from helpdesk.tools.builtin import build_shop_registry, make_compensation
from helpdesk.tools.context import RequestContext
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.shop import ensure_seeded
from helpdesk.tools.shop_client import ShopClient

_SEEDED: dict[str, Path] = {}


def seeded_copy(tmp: Path) -> Path:
    """A fresh copy of a seeded shop DB (seeding once per process keeps tests fast)."""
    if "db" not in _SEEDED:
        base = Path(tmp.parent / "seeded-shop.sqlite")
        if not base.exists():
            ensure_seeded(base)  # seeds and closes, so the file is complete on disk
        _SEEDED["db"] = base
    target = tmp / "shop.sqlite"
    shutil.copy(_SEEDED["db"], target)
    return target


@dataclass
class ShopWorld:
    clock: FakeClock
    client: ShopClient
    executor: ResilientExecutor
    plan: ChaosPlan | None

    def ctx(self, *, customer: str = "C0001", turn: int = 1, session: str = "s1") -> RequestContext:
        return RequestContext.new(session=session, turn=turn, customer=customer, clock=self.clock)

    async def audit(self, key: str | None = None) -> list[dict[str, Any]]:
        params = {"key": key} if key else None
        response = await self.client.http.get(
            "/audit", params=params, headers={"X-Customer-Id": "C0001"}
        )
        response.raise_for_status()
        return list(response.json()["entries"])


def make_world(tmp: Path, plan_rules: Any = None, *, seed: int = 0) -> ShopWorld:
    clock = FakeClock()
    plan = ChaosPlan(plan_rules, seed=seed, clock=clock) if plan_rules is not None else None
    client = ShopClient.in_process(seeded_copy(tmp), chaos=plan)
    registry = build_shop_registry(client)
    executor = ResilientExecutor(
        registry, clock=clock, rng=random.Random(seed), compensation=make_compensation(client)
    )
    return ShopWorld(clock=clock, client=client, executor=executor, plan=plan)
