"""Whole conversations session 29 changed — run as a customer meets the bot (the demo shop
seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say

# --- damage told in other words: the after-sales ticket offered, nothing filed before a yes ------


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("the purifier came with a dent", "100609"),
        ("the dinnerware from 100200 is smashed", "100200"),
        ("my thermos arrived with a dent, not happy", "100200"),
        ("two plates of the dinnerware set shattered in the box", "100200"),
        ("空气净化器到的时候外壳有个凹坑", "100609"),
        ("保温杯瘪了一块", "100200"),
    ],
)
async def test_damage_told_is_offered_a_ticket_for_its_order(
    tmp_path: Path, text: str, order: str
) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, text))["reply"])
    assert f"ticket for order {order}" in reply or f"订单 {order} 提交" in reply
    assert await executions(bot, "create_ticket") == []
    await say(bot, "yes" if text.isascii() else "好的")
    assert len(await executions(bot, "create_ticket")) == 1


@pytest.mark.parametrize(
    "text",
    [
        "what if it arrives smashed?",
        "did the purifier come with a dent?",
        "will the dinnerware come with a dent if it's shipped in a bag?",
        "运输途中会不会压扁了？",
    ],
)
async def test_damage_asked_about_offers_no_ticket(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert all(t.get("tool") != "create_ticket" for t in out["tasks"])
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


# --- "再" opening a request is "also, then": the request is read --------------------------------


@pytest.mark.parametrize("text", ["再把餐具也退了", "再把100200的餐具退了"])
async def test_a_request_opened_by_zai_is_read(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, text))["reply"])
    assert "¥269.00" in reply and "100200" in reply
    assert await refunds_of(bot, "100200") == []
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [269.0]


# --- "which order is that?" while an action waits: the order shown, the question kept -----------


@pytest.mark.parametrize(
    ("asked", "shown", "answer", "cancelled"),
    [
        ("which order is that", "Air Fryer 5L", "no", []),
        ("which order is that?", "Air Fryer 5L", "yes", ["100904"]),
        ("哪个订单？", "空气炸锅", "确认", ["100904"]),
        ("which one is that?", "Air Fryer 5L", "yes", ["100904"]),
        # (the orders listed, and the cancel said not done: the yes after it asks again)
        ("是哪个单来着", "待付款，¥399.00", "确认", []),
    ],
)
async def test_which_order_asked_while_a_cancel_waits_shows_it_and_runs_nothing_unasked(
    tmp_path: Path, asked: str, shown: str, answer: str, cancelled: list[str]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "pls cancel my unpaid order" if asked.isascii() else "帮我把没付款的那单取消")
    reply = str((await say(bot, asked))["reply"])
    assert shown in reply and "100904" in reply
    assert await executions(bot, "cancel_order") == []
    await say(bot, answer)
    assert [e["target"] for e in await executions(bot, "cancel_order")] == cancelled
