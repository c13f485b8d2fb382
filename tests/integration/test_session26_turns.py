"""Whole conversations session 26 changed — run as a customer meets the bot (the demo shop
seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say

WRITES = ("create_refund", "cancel_order", "create_ticket", "handoff")

# --- a part of a message no reading used is said to be unread, never dropped --------------------


async def test_a_request_folded_into_a_look_is_quoted_as_unread_and_never_run(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "空气炸锅那单的保温杯退了，另外100998啥时候发货")
    assert "“空气炸锅那单的保温杯退了”" in str(out["reply"])
    assert "100998" in str(out["reply"])
    assert [t["deferred"] for t in out["tasks"]] == [False, True]
    await say(bot, "好的")
    for action in WRITES:
        assert await executions(bot, action) == []


async def test_a_remark_beside_a_request_is_not_said_to_be_unread(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    for n, text in enumerate(("not happy. where is 100683", "T-000031 有人处理吗 都两天了")):
        out = await say(bot, text, session=f"s{n}")
        assert not any(t["deferred"] for t in out["tasks"])
        assert "couldn't handle" not in str(out["reply"])
        assert "没能处理" not in str(out["reply"])


# --- the thing of a fault is what a refund asked instead of its ticket is of ---------------------


@pytest.mark.parametrize(
    ("fault", "instead", "yes", "amount"),
    [
        ("the thermos from 100200 is broken", "refund instead", "yes", 129.0),
        ("保温杯坏了", "退钱", "好的", 129.0),
        ("the thermos from 100200 is broken", "refund the air fryer instead", "yes", 399.0),
        ("the thermos from 100200 is broken", "refund everything instead", "yes", 797.0),
        ("保温杯坏了", "全部退了吧", "好的", 797.0),
    ],
)
async def test_a_refund_instead_of_a_ticket_is_of_the_broken_thing(
    tmp_path: Path, fault: str, instead: str, yes: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, fault)
    offer = await say(bot, instead)
    assert f"{amount:.2f}" in str(offer["reply"])
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [amount]
    assert await executions(bot, "create_ticket") == []


# --- everything on an order but some of its items -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "yes", "amount"),
    [
        ("refund everything on 100200 but the air fryer", "yes", 398.0),
        # (session 15 asked how much for these three; the amount is exact)
        ("refund 100200 except the air fryer", "yes", 398.0),
        ("refund everything in 100200 except the dinnerware", "yes", 528.0),
        ("refund all but the thermos from 100200", "yes", 668.0),
        ("100200除了空气炸锅都退了", "好的", 398.0),
        ("100200空气炸锅不退 其他的都退", "好的", 398.0),
    ],
)
async def test_all_but_an_item_is_what_the_other_items_cost(
    tmp_path: Path, text: str, yes: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    offer = await say(bot, text)
    assert f"{amount:.2f}" in str(offer["reply"])
    assert "797.00" not in str(offer["reply"])
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [amount]


@pytest.mark.parametrize(
    "text",
    [
        # a part of the order's one item, on an order partly refunded: no exact amount
        "refund all of 100609 except the filter",
        # no list of things left out: the whole is never offered for it
        "I've tried everything but the air fryer still doesn't work, refund 100200",
    ],
)
async def test_all_but_what_cannot_be_worked_out_is_asked(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    asked = await say(bot, text)
    assert "How much should I refund" in str(asked["reply"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- a refund wanted only if a replacement cannot be had: the after-sales ticket ----------------


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("refund 100200 if you can't replace it", "yes"),
        ("if you can't replace it, refund 100200", "yes"),
        ("the thermos from 100200 leaks, replace it or refund if you can't", "yes"),
        ("refund the thermos from 100200 if a replacement isn't possible", "yes"),
        ("100200换不了的话就退款", "好的"),
    ],
)
async def test_a_refund_wanted_only_without_a_replacement_is_a_ticket(
    tmp_path: Path, text: str, yes: str
) -> None:
    bot = bot_for(tmp_path)
    asked = await say(bot, text)
    assert [t["tool"] for t in asked["tasks"] if t["tool"]] == ["create_ticket"]
    await say(bot, yes)
    assert len(await executions(bot, "create_ticket")) == 1
    assert await executions(bot, "create_refund") == []


# --- the amount asked about is not the amount meant -----------------------------------------------


async def test_why_is_it_the_whole_then_the_thing_named_is_asked(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200")
    asked = await say(bot, "wait why is it 797? I only want the thermos money back")
    assert "129.00" in str(asked["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [129.0]


async def test_why_is_it_the_whole_in_chinese_pays_nothing(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100200退款")
    await say(bot, "等等 为什么是797？我只要保温杯的钱")
    await say(bot, "好的")
    assert await refunds_of(bot, "100200") in ([], [129.0])
