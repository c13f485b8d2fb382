"""What a pack declares so that graph/ needs no domain knowledge: identifier mentions (money
reader), request fields (decomposition schema), fact fields (compaction), a subject (scoped
requests and follow-ups), done-claim wording and empty-list wording (validation), and the
automatic handoff's arguments. Each is checked with a pack that is not the demo shop."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from helpdesk.graph.compaction import _ids_in
from helpdesk.graph.intents import Intent
from helpdesk.graph.money import read_amount
from helpdesk.graph.stages import PlannedTask, decompose_schema
from helpdesk.graph.tiered import matches_from_plan
from helpdesk.graph.validation import ReplyFacts, find_violations
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import ShopIntent as SI
from helpdesk.tools.packs import Capability, IntentSpec, Pack, PackEnv, PackError, PackSet
from helpdesk.tools.registry import ToolRegistry
from helpdesk.tools.results import ToolResult, ToolStatus


def _tools(env: PackEnv) -> ToolRegistry:
    registry = ToolRegistry()

    @registry.tool(kind="read")
    def bookings(customer: str | None = None) -> dict[str, Any]:
        return {"bookings": []}

    @registry.tool(kind="write")
    def cancel_booking(booking: str, customer: str | None = None) -> dict[str, Any]:
        return {"booking": booking, "state": "void"}

    return registry


def _handoff(summary: str, facts: Mapping[str, Any], failed: Sequence[str]) -> dict[str, Any]:
    return {"summary": summary, "booking": facts.get("last_booking"), "calls": list(failed)}


def _pack(**overrides: Any) -> Pack:
    fields: dict[str, Any] = {
        "name": "hotel",
        "capabilities": (
            Capability(
                name="bookings",
                tool="bookings",
                intents=(IntentSpec(name="my_bookings", patterns=(r"\bbookings\b",)),),
                empty_key="bookings.empty",
                empty_patterns=(r"no bookings",),
            ),
            Capability(
                name="void_booking",
                tool="cancel_booking",
                kind="write",
                intents=(IntentSpec(name="void_booking", patterns=(r"\bvoid\b",)),),
                subject="booking",
                done_words={"en": ("voided",), "zh": ("作废",)},
                claim_stem=r"void|作废",
                evidence='"void"',
            ),
        ),
        "tools": _tools,
        "identifiers": {"booking": r"BK\d{6}"},
        "mentions": {"booking": r"bk\s*\d{6}"},
        "subject": "booking",
        "request_fields": ("booking",),
        "facts": {"booking": "bookings_seen"},
        "handoff_tool": "bookings",
        "handoff_args": _handoff,
    }
    fields.update(overrides)
    return Pack(**fields)


def test_money_reader_blanks_the_identifiers_a_pack_declares() -> None:
    packs = PackSet([_pack()])
    assert read_amount("void bk 123456", money_context=True, packs=packs).kind == "none"
    # without the declaration the number after "bk" reads as an amount
    bare = PackSet([_pack(mentions={})])
    assert read_amount("void bk 123456", money_context=True, packs=bare).kind == "exact"


def test_a_bad_mention_shape_is_refused_with_the_pack_named() -> None:
    with pytest.raises(PackError, match=r"hotel.*mention shape"):
        _pack(mentions={"booking": "bk("})


def test_decompose_schema_carries_the_packs_request_fields() -> None:
    schema = decompose_schema(PackSet([_pack()]))
    task = schema.model_json_schema()["$defs"]["PlannedTask"]
    assert "booking" in task["properties"]
    parsed = schema.model_validate({"tasks": [{"intent": "void_booking", "booking": "BK000001"}]})
    assert parsed.tasks[0].request_args() == {"booking": "BK000001"}
    # a task built directly with the same field asks the same
    assert parsed.tasks[0] == PlannedTask(intent="void_booking", booking="BK000001")


def test_a_scoped_request_inherits_the_session_subject() -> None:
    packs = PackSet([_pack()])
    planned = [PlannedTask(intent="order_status"), PlannedTask(intent="void_booking")]
    # the shop's intents mean nothing without the shop pack; this pack's scoped one inherits
    got = matches_from_plan(planned, text="t", lang="en", last_subject="BK1", packs=packs)
    assert got[0].intent is Intent.UNKNOWN
    assert got[0].request_value("booking") is None and not got[0].inferred_order
    assert (got[1].intent, got[1].capability) == (Intent.PACK, "void_booking")
    assert got[1].request_value("booking") == "BK1" and got[1].inferred_order


def test_the_shop_pack_declares_its_order_as_the_subject_scoped_requests_inherit() -> None:
    planned = [PlannedTask(intent="tracking"), PlannedTask(intent="faq")]
    got = matches_from_plan(
        planned, text="where is it?", lang="en", last_subject="100683", packs=default_packs()
    )
    assert [(m.capability, m.request_value("order_id"), m.inferred_order) for m in got] == [
        (SI.TRACKING, "100683", True),
        (SI.FAQ, None, False),
    ]


def test_compaction_reads_the_packs_fact_fields_from_tool_results() -> None:
    shrunk = json.dumps({"items": [{"booking": "BK000001"}, {"booking": "BK000002"}]})
    assert _ids_in(shrunk, {"booking": "bookings_seen"}) == {
        "bookings_seen": ["BK000001", "BK000002"]
    }
    assert _ids_in("not json", {"booking": "bookings_seen"}) == {}


def _facts(draft: str, results: Sequence[ToolResult], **kw: Any) -> ReplyFacts:
    return ReplyFacts(
        draft=draft,
        lang="en",
        hotline="400-820-8820",
        results=results,
        packs=PackSet([_pack()]),
        **kw,
    )


def test_a_done_claim_in_the_packs_words_needs_a_successful_write() -> None:
    failed = ToolResult(call_id="c1", tool="cancel_booking", status=ToolStatus.FAILED)
    draft = "Booking BK000001 has been voided."
    violations = find_violations(_facts(draft, [failed], customer_text="void BK000001"))
    assert any("BK000001 is done" in v for v in violations)
    read = ToolResult(
        call_id="c2",
        tool="bookings",
        status=ToolStatus.OK,
        data={"booking": "BK000001", "state": "void"},
    )
    shown = find_violations(_facts(draft, [read], customer_text="void BK000001"))
    assert not any("is done" in v for v in shown)


def test_a_failed_list_is_never_said_empty_in_the_packs_words() -> None:
    failed = ToolResult(call_id="c1", tool="bookings", status=ToolStatus.FAILED)
    violations = find_violations(_facts("You have no bookings.", [failed]))
    assert any("presents an empty result" in v for v in violations)


def test_the_automatic_handoff_arguments_come_from_the_pack() -> None:
    packs = PackSet([_pack()])
    args = packs.handoff_args("help", {"last_booking": "BK000001"}, ["c1"])
    assert args == {"summary": "help", "booking": "BK000001", "calls": ["c1"]}
    plain = PackSet([_pack(handoff_args=None)])
    assert plain.handoff_args("help", {}, ["c1"]) == {"summary": "help"}
