"""Whole conversations session 25 changed — run as a customer meets the bot (the demo shop
seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say

# --- an amount said before "退我", or alone before "back" ----------------------------------------


@pytest.mark.parametrize(
    "text", ["盘子碎了俩，我不想全退，盘子那269退我", "餐具那269退我", "dinnerware 269 back please"]
)
async def test_the_amount_said_before_the_refund_is_the_one_asked(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "269.00" in str(out["reply"])
    assert "797.00" not in str(out["reply"])
    await say(bot, "好的" if not text.isascii() else "yes")
    assert await refunds_of(bot, "100200") == [269.0]


async def test_a_product_code_before_back_is_no_amount(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "where is 100683 also is SKU-1004 back")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_a_call_back_asked_beside_a_refund_is_a_handoff(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "Hi 👋 refund for 100200 please, all of it, and a call back would be nice")
    tools = [t.get("tool") for t in out["tasks"]]
    assert "handoff_to_human" in tools
    assert await executions(bot, "create_refund") == []


# --- a third review: refusals, stops and questions that were offered as the write ---------------


@pytest.mark.parametrize(
    "text",
    [
        "undo the refund on 100609",
        "stop the refund on 100200",
        "halt the 100200 refund please",
        "I want to withdraw my refund request for 100200",
        "停止100200退款",
        "100609退款撤回",
        "把100200的退款停掉",
        "I never asked for a refund on 100200",
        "who said anything about refunding 100200?",
        "I'd rather not get a refund for 100200",
        "refunding 100200 isn't what I want",
        "100200 should not be refunded",
        "refund 100200 is the last thing I want",
        "I changed my mind about the 100200 refund",
        "谁说要退100200了",
        "100200的退款不需要了",
        "100200退款的事就算了吧",
        "100609的钱退回来没",
        "refund of 100609 when",
        "100200退款运费谁出",
        "is a refund on 100200 even possible?",
        "do you do refunds on 100200?",
        "can you explain how refunds work for 100200",
        "tell me about refunding 100200",
        "refund 100200??? how??",
        "I was promised a refund for 100200. where is it?",
        "if I refund 100200, do I keep the items?",
    ],
)
async def test_refusals_and_questions_about_a_refund_pay_nothing(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert all(t.get("tool") != "request_refund" for t in out["tasks"])
    await say(bot, "yes" if text.isascii() else "好")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    [
        "don't you dare cancel 100998",
        "100998取消？不不不",
        "is cancelling 100998 free?",
        "I'm wondering if I should cancel 100998",
    ],
)
async def test_refusals_and_questions_about_a_cancel_cancel_nothing(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes" if text.isascii() else "好")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    "text",
    [
        "保温杯坏了 不用建工单",
        "保温杯坏了，别给我开工单",
        "保温杯坏了 不需要售后",
        "人工客服在吗？不用了我自己看看",
        "the thermos was broken but it's fine now",
        "保温杯之前坏了，现在好了",
        "my wife says the thermos is broken but I think it's fine",
    ],
)
async def test_a_ticket_refused_or_a_fault_gone_files_nothing(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes" if text.isascii() else "好")
    assert await executions(bot, "create_ticket") == []


async def test_a_refusal_said_alone_is_still_a_no(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "the thermos is broken")
    out = await say(bot, "no, I don't want a ticket")
    assert [t["intent"] for t in out["tasks"]] == ["confirm_no"]
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


# --- tickets: another customer's order is refused first; an open one is named -------------------


@pytest.mark.parametrize("text", ["complaint about order 100452", "投诉100452"])
async def test_a_ticket_on_another_customers_order_is_refused_before_asking(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "100452" in str(out["reply"])
    assert 'reply "yes"' not in str(out["reply"]) and "请回复" not in str(out["reply"])
    await say(bot, "yes" if text.isascii() else "好")
    assert await executions(bot, "create_ticket") == []


async def test_a_second_after_sales_ticket_names_the_open_one(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "the thermos from 100200 is broken")
    await say(bot, "yes")
    [first] = await executions(bot, "create_ticket")
    out = await say(bot, "the thermos from 100200 is broken")
    assert "T-" in str(out["reply"]) and "still open" in str(out["reply"])
    assert len(await executions(bot, "create_ticket")) == 1
    assert first


# --- a plain yes, then another order's request said "also" ---------------------------------------


@pytest.mark.parametrize(
    ("answer", "then"), [("好的，100998也取消", "确认"), ("ok, and also cancel 100998", "yes")]
)
async def test_a_yes_with_another_orders_request_runs_the_yes_and_asks_the_other(
    tmp_path: Path, answer: str, then: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200")
    await say(bot, answer)
    assert await refunds_of(bot, "100200") == [797.0]
    assert await executions(bot, "cancel_order") == []  # asked first
    await say(bot, then)
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]
    assert await refunds_of(bot, "100200") == [797.0]


@pytest.mark.parametrize("answer", ["好的 但是100998也取消", "不好的，100998也取消"])
async def test_a_yes_with_but_or_a_no_runs_nothing_waiting(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200")
    await say(bot, answer)
    await say(bot, "好")
    assert await executions(bot, "create_refund") == []


async def test_the_rest_refunded_while_a_ticket_waits_is_a_new_request(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "the air purifier is broken")
    out = await say(bot, "refund the rest")
    assert "866.00" in str(out["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [866.0]
    assert await executions(bot, "create_ticket") == []


async def test_a_sum_asked_back_beside_a_cancel_asks_its_order_naming_the_sum(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "把那129退给我 顺便把100904取消了")
    assert "¥129.00" in out["reply"]
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("turns", "paid"),
    [
        # (session 26: what the other items cost is asked, and a yes pays exactly that;
        # session 27: also when said in answer to the whole amount offered)
        (["refund 100200", "除了空气炸锅都退"], [398.0]),
        (["100200除了空气炸锅都退了吧"], [398.0]),
    ],
)
async def test_all_but_a_part_is_never_the_whole(
    tmp_path: Path, turns: list[str], paid: list[float]
) -> None:
    bot = bot_for(tmp_path)
    for text in turns:
        out = await say(bot, text)
    assert "797.00（即全部可退金额）" not in out["reply"]
    await say(bot, "好")
    assert await refunds_of(bot, "100200") == paid
