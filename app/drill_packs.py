"""What a matrix cell's bot serves, where its faults go in, and what its writes are counted by.

A :class:`~helpdesk.app.drill_matrix.ToolProbe` names the pack its tool comes from. The demo
shop's cells inject faults at the shop's HTTP transport and count writes in the shop's audit log
(:class:`~helpdesk.app.drill_checks.ShopTruth`). Another pack's cells (the loyalty pack of
``examples/loyalty``) run a bot that serves that pack beside the shop, on a fresh seeded backend
per cell; their faults are injected around the tool call itself (the backend is in-process) and,
for the ``verify_lost`` variant, into the backend's look-up by idempotency key, and their writes
are counted in the backend's own audit log. The replies that say such a write went through are
recognised by the pack's own ``<intent>.ok`` templates, and an unknown outcome by its
``<intent>.unknown`` (or the generic wording it falls back to).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from helpdesk.app.drill_checks import ShopTruth, template_fragment
from helpdesk.app.drill_matrix import ToolProbe
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.examples.loyalty import LoyaltyBackend, loyalty_pack
from helpdesk.graph.prompting import load_templates
from helpdesk.tools.packs import Pack, PackSet, load_pack_templates
from helpdesk.tools.shop_client import ShopClient

__all__ = ["DRILLED_PACKS", "CellWorld", "cell_world"]

LANGS = ("zh", "en")

Executions = Callable[[str], Awaitable[int]]
"""Idempotency key -> how many times the write with that key really executed."""


@dataclass(kw_only=True)
class CellWorld:
    """The pack side of one tool cell."""

    packs: list[Pack] = field(default_factory=list)
    """Packs the cell's bot serves beside the demo shop."""
    options: dict[str, Any] = field(default_factory=dict)
    """``PackEnv.options`` of the cell's bot."""
    faults_at_call: bool = False
    """Faults go in around the tool call (the executor's chaos), not at the shop transport."""
    executions: Executions | None = None
    """Counts a write's executions; None: the shop's audit log (needs the bot's shop client)."""
    success: tuple[str, ...] | None = None
    """Literal text of the replies saying the write went through; None: the shop's
    (:data:`~helpdesk.app.drill_checks.SUCCESS_KEYS`)."""
    unknown: tuple[str, ...] | None = None
    """Literal text of the replies saying the write's outcome is unknown; None: the shop's."""

    def counter(self, client: ShopClient, customer: str) -> Executions:
        return self.executions or ShopTruth(client, customer).executions


@dataclass
class _DrilledLoyaltyBackend(LoyaltyBackend):
    """The seeded loyalty backend whose key look-up fails when the cell's plan says so."""

    plan: ChaosPlan | None = None
    verify_target: str = ""

    def outcome(self, key: str) -> dict[str, Any] | None:
        if self.plan is not None and self.plan.decide(self.verify_target) is not None:
            raise TimeoutError(f"{self.verify_target}: no answer (fault injection)")
        return super().outcome(key)


@cache
def _fragments(package: str, key: str, *generic_keys: str) -> tuple[str, ...]:
    """The literal text of a pack's template ``key`` in zh and en, and of the minimal tier's
    ``generic_keys`` (the wording a pack without that key is answered in), where they exist."""
    templates = [load_pack_templates(package, lang).get(key, "") for lang in LANGS]
    for generic in generic_keys:
        templates += [
            load_templates("minimal", "generate", lang).get(generic, "") for lang in LANGS
        ]
    fragments = (template_fragment(t) for t in templates)
    return tuple(f for f in fragments if len(f) >= 4)


def _loyalty(probe: ToolProbe, plan: ChaosPlan) -> CellWorld:
    backend = _DrilledLoyaltyBackend(plan=plan, verify_target=f"{probe.tool}.verify")

    async def executions(key: str) -> int:
        return sum(1 for entry in backend.audit if entry.key == key)

    pack = loyalty_pack(backend)
    intent = PackSet([pack]).intent_for_tool(probe.tool) or probe.tool
    return CellWorld(
        packs=[pack],
        faults_at_call=True,
        executions=executions,
        success=_fragments(pack.templates or "", f"{intent}.ok"),
        unknown=_fragments(
            pack.templates or "", f"{intent}.unknown", "generic_unknown", "generic_unknown_ticket"
        ),
    )


DRILLED_PACKS: Mapping[str, Callable[[ToolProbe, ChaosPlan], CellWorld]] = {
    "loyalty": _loyalty,
}
"""Pack name (``ToolProbe.pack``) -> the world of its cells; the shop's is the default."""


def cell_world(probe: ToolProbe, plan: ChaosPlan) -> CellWorld:
    """The pack side of the cell that drills ``probe`` under ``plan``."""
    if probe.pack == "shop":
        return CellWorld()
    build = DRILLED_PACKS.get(probe.pack)
    if build is None:
        raise ValueError(f"no drill world for pack {probe.pack!r} (tool {probe.tool})")
    return build(probe, plan)
