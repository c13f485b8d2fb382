"""Whole turns session 15 found planning writes or money from questions, thanks or conditions,
or offering a second ticket beside an open one: run as a customer meets the bot (the demo shop
seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, say

WRITES = ("cancel_order", "create_refund", "create_ticket")


async def _writes(bot: object) -> int:
    return sum([len(await executions(bot, action)) for action in WRITES])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "complaint",
    ["screen protector still not here. not happy.", "我要投诉 100683物流太慢了"],
)
async def test_a_complaint_about_an_order_with_an_open_ticket_names_it_and_offers_none(
    tmp_path: Path, complaint: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, complaint)
    assert "T-000031" in out["reply"]
    assert all(r["status"] != "needs_confirmation" for r in out["tool_results"])
    # nothing waits for a yes: a yes files nothing
    await say(bot, "yes" if complaint.isascii() else "是")
    assert await executions(bot, "create_ticket") == []


async def test_a_ticket_asked_for_in_so_many_words_is_filed_beside_an_open_one(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "file a complaint ticket for 100683 please")
    assert len(await executions(bot, "create_ticket")) == 1


async def test_a_complaint_about_an_order_without_a_ticket_is_still_offered_one(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "我要投诉 100200 盘子碎了")
    assert any(r["status"] == "needs_confirmation" for r in out["tool_results"])
    await say(bot, "是")
    assert len(await executions(bot, "create_ticket")) == 1


async def test_the_same_line_is_said_once_in_a_reply(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "screen protector still not here. not happy.")
    lines = [line for line in out["reply"].splitlines() if line.strip()]
    assert len(lines) == len(set(lines))


@pytest.mark.parametrize(
    "message",
    [
        "if the screen protector doesnt show up by friday refund me, otherwise nvm",
        "钢化膜那单要是今天还不到就给我退了",
        "refund 100683 if it's not here by tomorrow",
        "cancel 100998 if it hasn't shipped by friday",
    ],
)
async def test_a_refund_or_cancel_wanted_if_late_by_a_day_to_come_is_a_look_now(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert {t["tool"] for t in out["tasks"]} <= {"track_shipment", "get_order"}
    await say(bot, "yes" if message.isascii() else "好的")
    assert await _writes(bot) == 0


@pytest.mark.parametrize(
    "message",
    [
        "thx for the 433 refund. btw is the purifier filter covered under warranty?",
        "ok thats all, thanks for sorting the refund 👍",
        "谢谢 退款收到了",
        "hey whats up with 100609, I thought you only refunded part of it?",
        "could I still cancel the monitor + phone order if I wanted to? not asking you to do it,"
        " just checking",
        "never mind about cancelling 100904, I'll keep the air fryer. how soon does it ship once I"
        " pay?",
        "I was about to cancel 100904 but don't, I still want the air fryer. when will it ship?",
        "100181是谁取消的？？我没点取消啊 那条围巾我还想要呢",
        "我不想投诉 就想问下T-000031现在是谁在跟",
        "你好 想问下已付款的订单取消的话 钱是全额退吗",
        "快递到了发现箱子压扁了 是拒收还是先签收再退",
        "did R-000094 go through? I requested that refund two weeks ago and it still says"
        " requested",
    ],
)
async def test_questions_thanks_and_withdrawn_actions_plan_and_do_nothing(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    planned = {t["tool"] for t in out["tasks"]}
    assert not planned & {"cancel_order", "request_refund", "create_ticket", "handoff_to_human"}
    await say(bot, "yes")
    assert await _writes(bot) == 0
