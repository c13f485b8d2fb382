"""The drill matrix's probes describe the tools they drill: every registered tool of the shop and
the loyalty pack has a probe, and each probe's kind and fallback are the tool's own policy (so
the declared paths follow the ladder the tool really has)."""

from __future__ import annotations

from helpdesk.app.drill_matrix import TOOL_PROBES, expected_path
from helpdesk.degrade.chaos import Fault
from helpdesk.degrade.context import LadderStep
from helpdesk.examples.loyalty import LoyaltyBackend, loyalty_pack
from helpdesk.packs.shop import shop_declarations
from helpdesk.tools.packs import PackEnv, PackSet
from helpdesk.tools.shop_client import ShopClient


def _registry():
    packs = PackSet([shop_declarations(), loyalty_pack(LoyaltyBackend())])
    return packs, packs.build_registry(
        PackEnv(hotline="400", options={"shop_client": ShopClient()})
    )


def test_every_tool_of_both_packs_is_drilled_as_it_is() -> None:
    packs, registry = _registry()
    tools = {spec.name: spec for spec in registry}
    assert set(TOOL_PROBES) == set(tools)
    for name, probe in TOOL_PROBES.items():
        policy = tools[name].policy
        assert probe.kind == policy.kind, name
        if probe.kind == "read":  # a write's ladder never uses a fallback
            assert probe.fallback == (policy.fallback is not None), name
        owner = packs.pack_of(packs.for_tool(name).name) if packs.for_tool(name) else None
        if probe.pack != "shop":
            assert owner is not None and owner.name == probe.pack, name


def test_loyalty_paths_differ_from_the_shops_only_where_the_injection_does() -> None:
    for fault in Fault:
        shop_read, pack_read = (
            expected_path("get_order", fault),
            expected_path("points_balance", fault),
        )
        assert shop_read is not None and pack_read is not None
        handed_off = tuple(
            LadderStep.HANDOFF if s is LadderStep.FUNCTION else s for s in shop_read.ladder
        )
        assert pack_read.ladder == handed_off  # no self-service fallback: a ticket instead
        assert pack_read.error_class == shop_read.error_class
        shop_money, pack_money = (
            expected_path("request_refund", fault),
            expected_path("convert_points", fault),
        )
        assert shop_money is not None and pack_money is not None
        if fault is not Fault.SERVER_ERROR:  # around a call, a 500 comes before the write
            assert (pack_money.status, pack_money.ladder, pack_money.executions) == (
                shop_money.status,
                shop_money.ladder,
                shop_money.executions,
            )
