"""CLI side of capability packs: ``--pack module:attr`` loading and the ``helpdesk tools`` rows.

Kept apart from ``cli.py`` so the command module only gains an option: loading errors become a
clear message and exit code 2, never a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from helpdesk.packs.shop import shop_declarations
from helpdesk.tools.packs import Pack, PackEnv, PackError, PackSet, load_packs
from helpdesk.tools.shop_client import ShopClient

__all__ = ["PACK_HELP", "PackError", "capability_rows", "packs_or_error", "tool_rows"]

PACK_HELP = (
    "Load a capability pack, 'module:attr' (repeat). Packs installed in the "
    "'helpdesk.packs' entry-point group load too."
)


def packs_or_error(specs: Sequence[str] | None) -> tuple[list[Pack], str | None]:
    """The packs to load, or the reason they cannot be loaded."""
    try:
        return load_packs(list(specs or ())), None
    except PackError as exc:
        return [], str(exc)


def tool_rows(packs: Sequence[Pack], *, hotline: str) -> list[dict[str, Any]]:
    """One row per registered tool (the shop's and every pack's) with its policy and the
    capability it serves ("-" for a tool with none)."""
    loaded = PackSet([shop_declarations(), *packs])
    env = PackEnv(hotline=hotline, options={"shop_client": ShopClient()})
    registry = loaded.build_registry(env)
    rows = []
    for spec in registry:
        cap = loaded.for_tool(spec.name)
        rows.append(
            {
                "name": spec.name,
                "description": spec.description,
                **spec.policy.describe(),
                "args": sorted(spec.args_model.model_fields),
                "capability": cap.name if cap is not None else None,
            }
        )
    return rows


def capability_rows(packs: Sequence[Pack]) -> list[dict[str, Any]]:
    """One row per capability of the loaded packs (the demo shop's first)."""
    packs = [shop_declarations(), *packs]
    return [{"pack": pack.name, **cap.describe()} for pack in packs for cap in pack.capabilities]
