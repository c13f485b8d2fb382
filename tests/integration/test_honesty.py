"""Honest answers through the whole graph: stale notices, unknown writes, regenerate, fallback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.degrade.chaos import ChaosPlan, Fault, FaultRule
from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.context import DegradeContext
from helpdesk.graph.builder import build_graph
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.graph.language import Lang
from helpdesk.graph.replies import ReplyItem
from tests.integration.shopworld import seeded_copy


def chaos_bot(tmp: Path, rules: list[FaultRule], clock: FakeClock) -> Bot:
    settings = Settings(data_dir=tmp, shop_db_path=seeded_copy(tmp))
    plan = ChaosPlan(rules, seed=1, clock=clock)
    return build_bot(
        settings, checkpointer=InMemorySaver(serde=state_serializer()), chaos=plan, clock=clock
    )


async def test_inventory_outage_served_from_cache_says_it_may_not_be_live(tmp_path: Path) -> None:
    clock = FakeClock()
    outage = FaultRule(fault=Fault.UNAVAILABLE, rate=1.0, target="check_stock", start_s=30.0)
    bot = chaos_bot(tmp_path, [outage], clock)
    live = await run_turn(bot, "SKU-1001 还有货吗？", session="a", customer="C0001")
    assert live["tool_results"][0]["status"] == "ok"
    clock.advance(90)
    out = await run_turn(bot, "SKU-1001 还有货吗？", session="a", customer="C0001")
    result = out["tool_results"][0]
    # 90 s old, plus the jittered wait of the one retry a quiet dependency's 503 gets
    assert result["status"] == "stale" and 90.0 <= result["age_s"] <= 90.5
    assert "可能不是实时的" in out["reply"] and "1 分钟前" in out["reply"]
    assert "373" in out["reply"]
    assert out["degrade"]["stale"] == {"check_stock": result["age_s"]}
    assert out["validation"]["ok"] is True


async def test_lost_write_response_says_status_unknown_and_gives_the_ticket(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    rules = [
        FaultRule(fault=Fault.RESPONSE_LOST, rate=1.0, target="cancel_order"),
        FaultRule(fault=Fault.UNAVAILABLE, rate=1.0, target="cancel_order.verify"),
    ]
    bot = chaos_bot(tmp_path, rules, clock)
    await run_turn(bot, "cancel order 100998", session="w", customer="C0001")
    out = await run_turn(bot, "yes", session="w", customer="C0001")
    result = out["tool_results"][0]
    assert result["status"] == "unknown" and result["ticket_id"] == "T-000041"
    assert "can't confirm yet" in out["reply"] and "T-000041" in out["reply"]
    assert "has been cancelled" not in out["reply"]
    # the truth: it did execute once; the ticket is there to verify it
    audit = await bot.client.call(
        "GET", "/audit", tool="t", customer="C0001", params={"key": result["idempotency_key"]}
    )
    assert len(audit["entries"]) == 1


async def test_failed_lookup_is_not_an_empty_result(tmp_path: Path) -> None:
    clock = FakeClock()
    bot = chaos_bot(tmp_path, [FaultRule(fault=Fault.SERVER_ERROR, target="list_orders")], clock)
    out = await run_turn(bot, "我的订单有哪些", session="l", customer="C0001")
    assert out["tool_results"][0]["status"] == "degraded"
    assert "没有订单" not in out["reply"].replace("不代表您没有订单", "")
    assert "400-820-8820" in out["reply"]


class ScriptedWriter:
    """A reply writer that returns scripted drafts and records the feedback it got."""

    def __init__(self, *drafts: str) -> None:
        self.drafts = list(drafts)
        self.feedback: list[list[str]] = []

    async def __call__(
        self, items: list[ReplyItem], degrade: DegradeContext, lang: Lang, feedback: list[str]
    ) -> str:
        self.feedback.append(list(feedback))
        if not self.drafts:
            raise AssertionError("writer script exhausted")
        return self.drafts.pop(0)


def writer_bot(tmp: Path, writer: ScriptedWriter) -> Any:
    bot = build_bot(Settings(data_dir=tmp, shop_db_path=seeded_copy(tmp)))
    bot.graph = build_graph(
        executor=bot.executor,
        packs=bot.packs,
        writer=writer,
        checkpointer=InMemorySaver(serde=state_serializer()),
    )
    return bot


async def test_failed_validation_regenerates_once_with_the_violations(tmp_path: Path) -> None:
    writer = ScriptedWriter(
        "Order 100683 was delivered to 100684.", "Order 100683 is shipped, tracking YT9433239273."
    )
    bot = writer_bot(tmp_path, writer)
    out = await run_turn(bot, "where is order 100683?", session="g", customer="C0001")
    assert out["reply"] == "Order 100683 is shipped, tracking YT9433239273."
    assert writer.feedback == [[], ["identifier 100684 is not in this turn's data"]]
    assert out["validation"]["regenerations"] == 1 and out["validation"]["ok"] is True


async def test_second_failure_falls_back_to_the_structured_template(tmp_path: Path) -> None:
    writer = ScriptedWriter("Order 100683 costs ¥1.00.", "Call 021-5555-0199 about 100683.")
    bot = writer_bot(tmp_path, writer)
    out = await run_turn(bot, "where is order 100683?", session="h", customer="C0001")
    assert out["validation"]["fallback"] is True
    assert out["validation"]["violations"] == [
        "phone number 021-5555-0199 is not the configured hotline"
    ]
    assert out["reply"].startswith("Here is what I can confirm right now:")
    assert "YT9433239273" in out["reply"] and "021-5555-0199" not in out["reply"]
    assert len(writer.feedback) == 2
