"""Whole conversations session 22 changed: a refund beside a cancel of another order, a refund
said with "不想要了", a ticket waiting for a yes and named again, the rest of an order refunded,
questions that only look like requests — run as a customer meets the bot (the demo shop seeded,
the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpdesk.app.session import run_turn
from helpdesk.app.wiring import Bot
from tests.integration.test_trust import bot_for, executions, refunds_of, say


async def _cancelled(bot: Bot) -> list[str]:
    return [e["target"] for e in await executions(bot, "cancel_order")]


def _calls(out: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(str(t["tool"]), dict(t.get("args") or {})) for t in out["tasks"] if t.get("tool")]


def _statuses(out: dict[str, Any]) -> list[str]:
    return [str(r["status"]) for r in out["tool_results"]]


# --- refunds and cancels of different orders in one message -------------------------------------


async def test_the_rest_of_an_order_refunded_beside_a_cancel_asks_both_and_runs_on_yes(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "refund what's left on 100609 and also cancel 100998 please")
    assert [tool for tool, _ in _calls(out)] == ["request_refund", "cancel_order"]
    assert _statuses(out) == ["needs_confirmation", "needs_confirmation"]
    assert "866.00" in str(out["reply"])
    assert await executions(bot, "create_refund") == [] and await _cancelled(bot) == []
    await say(bot, "yes both")
    assert await refunds_of(bot, "100609") == [866.0]
    assert await _cancelled(bot) == ["100998"]


async def test_a_refund_and_then_a_cancel_of_another_order_are_two_requests(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "100200整单退了吧，再把100998取消")
    assert [(tool, args.get("order_id")) for tool, args in _calls(out)] == [
        ("request_refund", "100200"),
        ("cancel_order", "100998"),
    ]
    assert await executions(bot, "create_refund") == [] and await _cancelled(bot) == []


async def test_a_cancel_naming_its_own_order_by_a_thing_is_that_orders(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "100200整单退了吧，手机那单也取消，这周真是够了")
    reply = str(out["reply"])
    # the refund is of 100200 whole (the phone is the cancel's order, not an item refunded)
    assert "797.00" in reply and "里没有" not in reply
    assert "100998" in reply
    await say(bot, "都确认")
    assert await refunds_of(bot, "100200") == [797.0]
    assert await _cancelled(bot) == ["100998"]


async def test_a_refund_said_with_not_wanting_it_is_a_refund_not_a_cancel(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "100200整单退了吧 不想要了")
    assert [tool for tool, _ in _calls(out)] == ["request_refund"]
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [797.0]
    assert await _cancelled(bot) == []


async def test_a_fault_told_before_a_refund_names_what_the_refund_is_of(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "空气净化器有点异响，懒得寄回去了，退我100块算了")
    assert [(tool, args.get("order_id")) for tool, args in _calls(out)] == [
        ("request_refund", "100609")
    ]
    assert await executions(bot, "create_ticket") == []
    await say(bot, "确认")
    assert await refunds_of(bot, "100609") == [100.0]


@pytest.mark.parametrize(
    "message",
    [
        # a thing not yet received, someone else's, one that might break: the refund's order
        # is asked for, never taken from the fault
        "the phone is broken, refund me 2999",
        "my friend's air purifier is making noises, refund me 100",
        "要是空气净化器有异响，退我100",
    ],
)
async def test_a_fault_names_no_order_it_cannot_be_of(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes" if message.isascii() else "确认")
    assert await executions(bot, "create_refund") == []


# --- questions that only look like requests ---------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "refund what's left on 100609?",
        "is it even possible to get a refund on something delivered two months ago? thinking "
        "about the dinnerware",
        "how long after delivery do I have to ask for a refund",
        "list my orders pls, and which ones can I still cancel?",
        "don't cancel anything!! just tell me when 100998 ships and how cancelling works in "
        "general",
    ],
)
async def test_questions_move_no_money_on_a_hurried_yes(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await _cancelled(bot) == []


async def test_which_orders_can_be_cancelled_beside_the_list_gets_the_policy(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "list my orders pls, and which ones can I still cancel?")
    assert [tool for tool, _ in _calls(out)] == ["list_orders", "search_faq"]
    assert "cancel an order while it is pending payment" in str(out["reply"])


@pytest.mark.parametrize(
    ("message", "topic"),
    [
        (
            "Dont refund 100200, i want to exchange the thermos bc its the wrong colour, how does "
            "that work",
            "exchange",
        ),
        ("不要退款！！我要换货 保温杯颜色不对 怎么换", "exchange"),
        ("how long after delivery do I have to ask for a refund", "returns"),
        ("100200的发票一直没收到是咋回事", "invoice"),
    ],
)
async def test_the_policy_asked_about_is_the_one_answered(
    tmp_path: Path, message: str, topic: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert ("search_faq", topic) in [(tool, args.get("topic")) for tool, args in _calls(out)]
    assert await executions(bot, "create_ticket") == []


# --- a ticket waiting for a yes, named again --------------------------------------------------


@pytest.mark.parametrize("answer", ["ok then open a ticket for it", "open a ticket for it"])
async def test_naming_the_waiting_ticket_files_it_once(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    turns = [
        "hello, question about order 100452",
        "the steamer in it stopped working after a month. is that under warranty?",
    ]
    for text in turns:
        await run_turn(bot, text, session="s", customer="C0002")
    out = await run_turn(bot, answer, session="s", customer="C0002")
    assert "T-000041" in str(out["reply"])
    tickets = await executions(bot, "create_ticket", "C0002")
    assert len(tickets) == 1


async def test_a_refund_named_again_while_it_waits_is_asked_again_not_run(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    out = await say(bot, "退吧")
    assert _statuses(out) == ["needs_confirmation"]
    assert await executions(bot, "create_refund") == []


# --- looks -------------------------------------------------------------------------------------


async def test_two_orders_described_are_looked_at_apart(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "我的手机那单和贴膜那单 分别到哪了")
    reply = str(out["reply"])
    assert "100998" in reply and "YT9433239273" in reply


@pytest.mark.parametrize(
    "message", ["when will my parcel come", "was my screen protector order delivered?"]
)
async def test_the_customers_own_delivery_is_looked_up(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert "100683" in str(out["reply"])


async def test_a_thing_bought_now_gets_its_stock_and_the_delivery_times(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "现在买降噪耳机，几天能到天津？")
    assert [tool for tool, _ in _calls(out)] == ["search_products", "search_faq"]
    assert "SKU-1001" in str(out["reply"])


@pytest.mark.parametrize(
    ("message", "tools"),
    [
        # where the customer is, told beside when the order ships: the delivery times too
        (
            "paid for the monitor and the phone last night, when do they actually ship out? "
            "I'm in Tianjin btw",
            ["get_order", "search_faq"],
        ),
        ("I'm in a hurry, when does my order 100998 ship", ["get_order"]),
        (
            "which warehouses have the robot vacuum? and how quick is delivery there",
            ["search_products", "search_faq"],
        ),
        ("happy halloween 🎃 (late lol). do you have scented candles?", ["search_products"]),
        # nothing named, nothing talked about: asked what, nothing offered
        ("it broke", []),
        ("can you recommend a good ramen place nearby", []),
    ],
)
async def test_what_is_looked_up(tmp_path: Path, message: str, tools: list[str]) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert [tool for tool, _ in _calls(out)] == tools
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


# --- found by the review (2809 scripted conversations): nothing moves on a hurried yes ---------


@pytest.mark.parametrize(
    ("turns", "refunded", "cancelled"),
    [
        (["100200整单退了吧，别把手机那单取消了", "ok"], [797.0], []),
        (["别把手机那单取消了", "好的"], [], []),
        (["100200整单退了吧，手机那单取消不了吧", "ok"], [], []),  # (the amount is asked)
        (["100200要不要整单退了 不想要了", "好的"], [], []),
        (["100200整单退了吧 先别操作", "确认"], [], []),
        (["100200整单退了吧 不想要了 开玩笑的", "确认"], [], []),
        (["100200退款，100998取消，算了都别动了", "都确认"], [], []),
        (["refund 100609, and the phone order cancel it too lol jk", "yes both"], [], []),
        (["refund 100200, and the phone order, cancel it? no", "yes"], [], []),
        (["cancel 100998", "cancel this"], [], []),
        (["取消100998", "取消了"], [], []),
        (["cancel 100998? no", "yes"], [], []),
        (["100904整单退了吧 不想要了", "确认"], [], []),
        (["客服之前说100200退款，100998取消，是真的吗", "是"], [], []),
        # (second review: wrong at the starting commit too)
        (["100200退款，100998再说", "yes"], [], []),
        (["100200退款，不对，100998取消", "yes"], [], ["100998"]),
    ],
)
async def test_weighed_joked_refused_or_hearsay_writes_never_run(
    tmp_path: Path, turns: list[str], refunded: list[float], cancelled: list[str]
) -> None:
    bot = bot_for(tmp_path)
    for text in turns:
        await say(bot, text)
    assert await refunds_of(bot, "100200") == refunded
    assert len(await executions(bot, "create_refund")) == len(refunded)
    assert await _cancelled(bot) == cancelled


async def test_a_refund_of_an_unpaid_order_says_to_cancel_it(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "100904整单退了吧 不想要了")
    assert "取消订单 100904" in str(out["reply"])
    assert await executions(bot, "create_refund") == [] and await _cancelled(bot) == []


async def test_an_order_looked_at_after_a_refund_is_not_refunded(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "100200退款，100683查一下")
    assert [(tool, args.get("order_id")) for tool, args in _calls(out)] == [
        ("request_refund", "100200"),
        ("get_order", "100683"),
    ]
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [797.0]
    assert await refunds_of(bot, "100683") == []
