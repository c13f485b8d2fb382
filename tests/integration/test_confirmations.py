"""Confirm-first actions: a "yes" runs exactly what the reply asked about, once; a model never
reads a yes."""

from __future__ import annotations

from pathlib import Path

from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.graph.intents import Intent
from helpdesk.graph.language import Lang
from helpdesk.graph.planning import plan_tasks
from helpdesk.graph.stages import PlannedTask
from helpdesk.graph.tiered import matches_from_plan
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import ShopIntent as SI
from tests.integration.shopworld import seeded_copy


def bot_for(tmp: Path) -> Bot:
    settings = Settings(data_dir=tmp, shop_db_path=seeded_copy(tmp))
    return build_bot(settings, checkpointer=InMemorySaver(serde=state_serializer()))


async def test_yes_runs_every_action_the_reply_asked_about(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    first = await run_turn(
        bot, "cancel order 100904 and cancel order 100998", session="two", customer="C0001"
    )
    asked = [r["data"]["args"]["order_id"] for r in first["tool_results"]]
    assert asked == ["100904", "100998"]
    assert "100904" in first["reply"] and "100998" in first["reply"]
    done = await run_turn(bot, "yes", session="two", customer="C0001")
    assert [(r["tool"], r["status"], r["data"]["order_id"]) for r in done["tool_results"]] == [
        ("cancel_order", "ok", "100904"),
        ("cancel_order", "ok", "100998"),
    ]


def test_model_confirm_intents_are_ignored() -> None:
    lang: Lang = "en"
    planned = [
        PlannedTask(intent="confirm_yes"),
        PlannedTask(intent="order_status", order_id="100998"),
    ]
    matches = matches_from_plan(
        planned, text="what about my coupon?", lang=lang, last_subject=None, packs=default_packs()
    )
    assert [(m.intent, m.capability) for m in matches] == [(Intent.PACK, SI.ORDER_STATUS)]


def test_plan_tasks_resumes_only_from_the_template_matcher() -> None:
    from helpdesk.graph.intents import MatchedIntent

    facts = {
        "pending_actions": [
            {
                "id": "c-1",
                "tool": "cancel_order",
                "args": {"order_id": "100998"},
                "turn": 3,
                "match": {"intent": "cancel_order", "order_id": "100998"},
            }
        ]
    }
    yes = [MatchedIntent(intent=Intent.CONFIRM_YES, text="yes", lang="en")]
    packs = default_packs()
    assert plan_tasks(yes, turn=4, facts=facts, allow_confirm=False, packs=packs) == []
    resumed = plan_tasks(yes, turn=4, facts=facts, packs=packs)
    assert resumed[0].call is not None and resumed[0].call.confirmed
    assert resumed[0].call.action_id == "c-1"


async def test_refund_above_the_refundable_amount_is_refused_without_asking(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await run_turn(bot, "退款 5000 元 订单100609", session="r", customer="C0001")
    result = out["tool_results"][0]
    assert (result["status"], result["data"]["code"]) == ("failed", "amount_too_large")
    assert "可退金额" in out["reply"]
    again = await run_turn(bot, "确认", session="r", customer="C0001")
    assert again["tool_results"] == []


async def test_a_confirmation_left_unanswered_is_reported_not_dropped_silently(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await run_turn(bot, "cancel order 100904", session="d", customer="C0001")
    out = await run_turn(bot, "is SKU-1004 in stock?", session="d", customer="C0001")
    assert out["reply"].startswith("Order 100904 has not been cancelled")
    assert "out of stock" in out["reply"]
    # a late yes answers no question any more: the cancel is asked about again, never run
    late_yes = await run_turn(bot, "yes", session="d", customer="C0001")
    assert [r["status"] for r in late_yes["tool_results"]] == ["needs_confirmation"]
    assert "cancel" in late_yes["reply"] and "100904" in late_yes["reply"]
    order = await bot.client.call("GET", "/orders/100904", tool="t", customer="C0001")
    assert order["status"] == "pending"


async def test_a_late_yes_asks_again_only_right_after_the_action_was_dropped(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await run_turn(bot, "cancel order 100904", session="d", customer="C0001")
    await run_turn(bot, "is SKU-1004 in stock?", session="d", customer="C0001")
    await run_turn(bot, "where is 100683?", session="d", customer="C0001")
    # two turns on, a bare yes is about nothing the bot asked: nothing asked, nothing run
    late_yes = await run_turn(bot, "yes", session="d", customer="C0001")
    assert late_yes["tool_results"] == []
    # a "cancel it" to the cancel question is asked again: a yes or a no, it does not say
    await run_turn(bot, "cancel order 100904", session="d", customer="C0001")
    unclear = await run_turn(bot, "cancel it", session="d", customer="C0001")
    assert [r["status"] for r in unclear["tool_results"]] == ["needs_confirmation"]
    order = await bot.client.call("GET", "/orders/100904", tool="t", customer="C0001")
    assert order["status"] == "pending"


async def test_an_order_number_given_later_continues_the_request_that_asked_for_it(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    # ("where is my package?" is the customer's one order on its way: nothing to ask)
    ask = await run_turn(
        bot, "I need the tracking number for my order", session="w", customer="C0001"
    )
    assert ask["tool_results"] == []
    out = await run_turn(bot, "100683", session="w", customer="C0001")
    assert [t["tool"] for t in out["tasks"]] == ["track_shipment"]
    assert "YT9433239273" in out["reply"]
    # a real new question is not hijacked
    await run_turn(bot, "I want a refund", session="w2", customer="C0001")
    other = await run_turn(
        bot, "is order 100683 shipped yet and when will it arrive?", session="w2", customer="C0001"
    )
    assert "request_refund" not in [t["tool"] for t in other["tasks"]]
