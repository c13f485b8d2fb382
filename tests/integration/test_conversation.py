"""Whole turns through the graph on the embedded default (minimal tier, demo shop)."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.session import TurnError, run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.graph.builder import GRAPH_NODES, NODE_ORDER, build_graph
from helpdesk.graph.checkpoint import state_serializer
from tests.integration.shopworld import seeded_copy


@pytest.fixture
def bot(tmp_path: Path) -> Bot:
    settings = Settings(data_dir=tmp_path, shop_db_path=seeded_copy(tmp_path))
    return build_bot(settings, checkpointer=InMemorySaver(serde=state_serializer()))


async def say(bot: Bot, text: str, session: str = "s1", customer: str = "C0001") -> dict[str, Any]:
    return await run_turn(bot, text, session=session, customer=customer)


def test_graph_has_the_designed_nodes(bot: Bot) -> None:
    nodes = [n for n in bot.graph.get_graph().nodes if not n.startswith("__")]
    assert nodes == list(GRAPH_NODES)


class _Stages:
    """A NodeObserver recording the stage names it wraps, and the state each one saw."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, Any]]] = []

    @contextlib.contextmanager
    def node(self, name: str, state: Mapping[str, Any]) -> Iterator[None]:
        self.seen.append((name, dict(state)))
        yield


async def test_a_turn_runs_every_stage_in_order_in_one_graph_step(bot: Bot) -> None:
    stages = _Stages()
    graph = build_graph(
        executor=bot.executor,
        packs=bot.packs,
        checkpointer=InMemorySaver(serde=state_serializer()),
        observer=stages,
    )
    config = {"configurable": {"thread_id": "one-step"}}
    turn = {
        "messages": [HumanMessage("where is order 100683?")],
        "customer": "C0001",
        "session": "one-step",
    }
    steps = [chunk async for chunk in graph.astream(turn, config, stream_mode="updates")]
    assert [list(step) for step in steps] == [["turn"]]
    assert [name for name, _ in stages.seen] == list(NODE_ORDER)
    # each stage sees the earlier stages' updates applied, as separate graph nodes would
    seen = dict(stages.seen)
    assert seen["execute"]["tasks"] and seen["generate"]["results"]
    assert seen["validate"]["draft"]
    state = (await graph.aget_state(config)).values
    assert [m.type for m in state["messages"]] == ["human", "ai"]
    assert state["owner"] == "C0001" and state["refused"] is None


async def test_chinese_shipping_question_answers_with_real_order_data(bot: Bot) -> None:
    out = await say(bot, "我的订单 100683 为什么还没发货？")
    assert out["tier"] == "minimal"
    assert "100683" in out["reply"] and "已发货" in out["reply"]
    assert "YT9433239273" in out["reply"]
    assert [t["tool"] for t in out["tasks"]] == ["get_order"]
    assert out["tool_results"][0]["status"] == "ok"


async def test_english_question_answers_in_english(bot: Bot) -> None:
    out = await say(bot, "Why hasn't my order 100998 shipped yet?")
    assert "100998" in out["reply"] and "paid" in out["reply"].lower()
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in out["reply"])


async def test_two_questions_in_one_message_are_both_answered(bot: Bot) -> None:
    out = await say(bot, "Is SKU-1001 in stock, and where is order 100683?")
    assert [t["tool"] for t in out["tasks"]] == ["check_stock", "track_shipment"]
    assert "SKU-1001" in out["reply"] and "373" in out["reply"]
    assert "YT9433239273" in out["reply"]


async def test_follow_up_uses_the_order_from_the_previous_turn(bot: Bot) -> None:
    await say(bot, "where is order 100683?", session="f")
    out = await say(bot, "when will it arrive?", session="f")
    assert out["tasks"][0]["args"] == {"order_id": "100683"}
    assert "2026-10-31" in out["reply"]


async def test_chinese_multi_turn_conversation(bot: Bot) -> None:
    first = await say(bot, "你好", session="zh")
    assert first["tasks"][0]["intent"] == "greeting"
    second = await say(bot, "订单100200的物流到哪了？", session="zh")
    assert "YT8741553924" in second["reply"] and "SF8168184950" in second["reply"]
    third = await say(bot, "退货政策是什么？", session="zh")
    assert third["tasks"][0]["tool"] == "search_faq"
    assert "7" in third["reply"]


async def test_other_customers_order_is_a_polite_not_found_without_its_data(
    bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    out = await say(bot, "what is the status of order 100452?")
    dumped = json.dumps(out, ensure_ascii=False)
    assert "100452" in out["reply"]
    assert "C0002" not in dumped and "Emma" not in dumped
    assert out["tool_results"][0]["error_class"] == "business"
    assert "Emma" not in caplog.text and "C0002" not in caplog.text


async def test_cancel_asks_confirmation_then_cancels_exactly_once(bot: Bot) -> None:
    ask = await say(bot, "cancel order 100998", session="c")
    assert ask["tool_results"][0]["status"] == "needs_confirmation"
    assert "yes" in ask["reply"].lower()
    done = await say(bot, "yes", session="c")
    assert done["tool_results"][0]["status"] == "ok"
    assert "cancelled" in done["reply"]
    again = await say(bot, "yes", session="c")
    assert again["tool_results"] == []
    key = done["tool_results"][0]["idempotency_key"]
    audit = await bot.client.call("GET", "/audit", tool="t", customer="C0001", params={"key": key})
    assert len(audit["entries"]) == 1


async def test_cancel_declined_changes_nothing(bot: Bot) -> None:
    await say(bot, "取消订单100904", session="n")
    out = await say(bot, "不用了", session="n")
    assert out["tool_results"] == []
    order = await bot.client.call("GET", "/orders/100904", tool="t", customer="C0001")
    assert order["status"] == "pending"


async def test_shipped_order_cancel_is_refused_without_asking(bot: Bot) -> None:
    out = await say(bot, "cancel order 100683")
    assert out["tool_results"][0]["status"] == "failed"
    assert "can no longer be cancelled" in out["reply"]


async def test_refund_is_money_and_needs_confirmation(bot: Bot) -> None:
    ask = await say(bot, "I want a refund for order 100609", session="r")
    assert ask["tool_results"][0]["status"] == "needs_confirmation"
    done = await say(bot, "yes", session="r")
    assert done["tool_results"][0]["data"]["refund_id"] == "R-000109"
    assert "R-000109" in done["reply"]


async def test_after_sales_ticket_and_handoff(bot: Bot) -> None:
    # a fault told is offered a ticket first (session 16); "please help" asks for it
    ticket = await say(bot, "my headphones from order 100200 are broken, please help")
    assert ticket["tool_results"][0]["data"]["ticket_id"] == "T-000041"
    assert "T-000041" in ticket["reply"]
    human = await say(bot, "转人工")
    assert human["tasks"][0]["tool"] == "handoff_to_human"
    assert "T-000042" in human["reply"]


async def test_unknown_request_gets_a_clarifying_answer(bot: Bot) -> None:
    out = await say(bot, "blorp fnord")
    assert out["tasks"][0]["intent"] == "unknown"
    assert "SKU-1001" in out["reply"] and "{" not in out["reply"]


async def test_list_orders_without_an_id(bot: Bot) -> None:
    out = await say(bot, "我的订单有哪些？")
    assert out["tasks"][0]["tool"] == "list_orders"
    for order_id in ("100998", "100904", "100683"):
        assert order_id in out["reply"]


async def test_every_reply_passes_validation(bot: Bot) -> None:
    for text in (
        "hi",
        "订单100683发货了吗",
        "Is SKU-1004 in stock?",
        "how long is delivery?",
        "where is order 100683?",
        "订单100200的物流到哪了？",
        "我的订单有哪些",
        "cancel order 100904",
    ):
        out = await say(bot, text, session="v")
        validation = out["validation"]
        assert (validation["ok"], validation["violations"]) == (True, []), (text, out["reply"])
        assert validation["regenerations"] == 0


async def test_oversize_and_empty_messages_are_refused_clearly(bot: Bot) -> None:
    with pytest.raises(TurnError, match="at most 4000 at a time"):
        await say(bot, "x" * 4001)
    with pytest.raises(TurnError, match="empty"):
        await say(bot, "   ")


async def test_session_cannot_be_taken_over_by_another_customer(bot: Bot) -> None:
    await say(bot, "hi", session="mine", customer="C0001")
    with pytest.raises(TurnError, match="another customer"):
        await say(bot, "where is order 100683?", session="mine", customer="C0002")


async def test_stock_question_by_product_name_finds_the_products(bot: Bot) -> None:
    out = await say(bot, "耳机有货吗？")
    assert out["tasks"][0]["tool"] == "search_products"
    assert out["tasks"][0]["args"] == {"q": "耳机"}
    assert "SKU-1001" in out["reply"] and "有货" in out["reply"]
    none = await say(bot, "is the unicorn kite available?")
    assert 'matching "unicorn kite"' in none["reply"]


# --- the language policy, whole turns -------------------------------------------------------------


async def test_a_message_without_language_is_answered_in_the_profile_language(bot: Bot) -> None:
    # C0001's profile says zh; C0002's says en
    zh = await say(bot, "100683", session="profile-zh", customer="C0001")
    assert zh["lang"] == "zh" and "100683" in zh["reply"]
    en = await say(bot, "😡😡😡", session="profile-en", customer="C0002")
    assert en["lang"] == "en"


async def test_asking_for_english_switches_the_session_until_asked_again(bot: Bot) -> None:
    await say(bot, "你好")
    switched = await say(bot, "可以用英文回复吗")
    assert switched["lang"] == "en" and "English" in switched["reply"]
    still = await say(bot, "100683到哪了")
    assert still["lang"] == "en"
    back = await say(bot, "说中文")
    assert back["lang"] == "zh"
    assert (await say(bot, "100683"))["lang"] == "zh"


async def test_another_language_gets_a_short_answer_in_a_supported_one(bot: Bot) -> None:
    out = await say(bot, "注文はどこですか", session="ja", customer="C0001")
    assert out["lang"] == "zh" and "中文和英文" in out["reply"]


async def test_hotline_and_goodbye(bot: Bot) -> None:
    hotline = await say(bot, "你们客服电话多少")
    assert bot.settings.hotline in hotline["reply"]
    assert "再见" in (await say(bot, "拜拜"))["reply"]
