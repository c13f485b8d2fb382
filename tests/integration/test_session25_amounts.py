"""Whole conversations session 25 changed: a hurried yes beside a limit, a correction or a
taken-back amount never moves the wrong money — run as a customer meets the bot (the demo shop
seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say

# --- a limit beside a yes: how much is asked, never the whole amount again -----------------------


@pytest.mark.parametrize(
    "answer",
    [
        "yes, but keep 100",
        "yes but less",
        "yes minus shipping",
        "好 但少退点",
        "好 留100",
        "好的但是别退全部",
    ],
)
async def test_a_limit_beside_a_yes_asks_how_much(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200")
    out = await say(bot, answer)
    assert "797.00?" not in str(out["reply"]) and "797.00 吗" not in str(out["reply"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await refunds_of(bot, "100200") == []


# --- a refund asked instead of the waiting cancel: the cancel is dropped, never asked again -----


@pytest.mark.parametrize("answer", ["just refund 300 instead", "好 退300"])
async def test_a_refund_instead_of_the_cancel_drops_the_cancel(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100998")
    out = await say(bot, answer)
    assert "300.00" in str(out["reply"])
    assert [t["tool"] for t in out["tasks"] if t.get("tool") == "cancel_order"] == []
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []


# --- amounts that are no amount, or taken back: asked, or nothing done ----------------------------


async def test_a_negative_amount_answer_is_asked_never_paid(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200")
    out = await say(bot, "-50")
    assert "50.00?" not in str(out["reply"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("first", ["refund 100200 3OO", "refund 100200 0x300"])
async def test_a_mistyped_amount_is_asked_never_the_whole(tmp_path: Path, first: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, first)
    assert "797.00?" not in str(out["reply"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("first", ["refund 100200 300 nvm", "refund 100200 300 haha no"])
async def test_an_amount_taken_back_in_the_same_message_does_nothing(
    tmp_path: Path, first: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, first)
    assert "300.00?" not in str(out["reply"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_an_amount_changed_after_let_it_go_is_the_one_asked(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "100200退300，算了还是200吧")
    assert "200.00" in str(out["reply"]) and "300.00" not in str(out["reply"])
    assert await executions(bot, "create_refund") == []
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [200.0]


# --- a correction changes the amount asked, never drops the refund or runs the old one --------


@pytest.mark.parametrize(
    ("first", "answer", "amount"),
    [
        ("refund 100200", "no wait, 200", 200.0),
        ("refund 100200", "no wait 200", 200.0),
        ("refund 100200", "不对，退300", 300.0),
        ("refund 100200 300", "不不不 200", 200.0),
        ("refund 100200", "100吧，哦不，150", 150.0),
        ("refund 100200 300", "yes no wait 200", 200.0),
    ],
)
async def test_a_corrected_amount_is_asked_again(
    tmp_path: Path, first: str, answer: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    out = await say(bot, answer)
    assert f"{amount:.2f}" in str(out["reply"])
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [amount]


# --- a thumb beside each waiting action answers it ---------------------------------------------


async def test_a_thumbs_down_beside_the_cancel_never_asks_or_runs_it(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 200 and cancel 100904")
    out = await say(bot, "refund 👍 cancel 👎")
    assert "cancel order 100904?" not in str(out["reply"])
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []
    assert await refunds_of(bot, "100200") in ([], [200.0])


# --- the amount said with a refund that waited for its order is the one asked ----------------


@pytest.mark.parametrize(
    ("first", "amount"),
    [("退100块钱，不是，退50", 50.0), ("refund 100 yuan please", 100.0), ("refund half", 398.5)],
)
async def test_the_amount_said_before_the_order_is_kept(
    tmp_path: Path, first: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    out = await say(bot, "100200")
    assert f"{amount:.2f}" in str(out["reply"]) and "797.00?" not in str(out["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [amount]
