"""Whole turns session 39 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, calls_of, executions, refunds_of, say

# --- another thing in place of the refund waiting ---------------------------------------------


async def test_do_it_for_another_thing_instead_moves_the_refund(tmp_path: Path) -> None:
    """ "refund 100609" → "do it for the thermos instead": "do" was read as a question, the
    ¥866 was offered again and the next yes paid it. Now the thermos's order is offered."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    out = await say(bot, "do it for the thermos instead")
    assert [c for c in calls_of(out) if c[0]] == [("request_refund", "100200", None)]
    assert "129.00" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == []
    assert await refunds_of(bot, "100200") == [129.0]


async def test_a_correction_asked_as_a_question_is_of_the_thing(tmp_path: Path) -> None:
    """ "退100609" → "我说错了，退100200的保温杯吗？" moved the whole refund to 100200 (¥797)."""
    bot = bot_for(tmp_path)
    await say(bot, "退100609")
    out = await say(bot, "我说错了，退100200的保温杯吗？")
    assert "129.00" in out["reply"] and "797" not in out["reply"]
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [129.0]
    assert await refunds_of(bot, "100609") == []


async def test_whether_the_corrected_thing_can_be_refunded_is_answered(tmp_path: Path) -> None:
    """ "我说错了，100200的保温杯能退吗？" offered ¥797 on 100200; a 确认 would have paid it. Now
    the waiting refund is dropped and the question answered; the 确认 runs nothing."""
    bot = bot_for(tmp_path)
    await say(bot, "退100609")
    out = await say(bot, "我说错了，100200的保温杯能退吗？")
    assert not [c for c in calls_of(out) if c[0] == "request_refund"]
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []


# --- several things of one order in one refund ------------------------------------------------


async def test_two_things_listed_without_a_second_article_cost_their_sum(tmp_path: Path) -> None:
    """ "refund the air fryer and thermos in 100200" asked how much (¥797 up to); the two
    things cost ¥528 together."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund the air fryer and thermos in 100200")
    assert "528.00" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [528.0]


@pytest.mark.parametrize(
    "text",
    ["refund 600 for the air fryer and thermos in 100200", "100200的空气炸锅和保温杯退600"],
)
async def test_more_than_two_things_cost_is_refused_with_their_sum(
    tmp_path: Path, text: str
) -> None:
    """¥600 for two things costing ¥528 was offered (English); now the most is said."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "528.00" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    [
        "refund 100 for the thermos and 200 for the air fryer in 100200",
        "refund 100 for the thermos and 200 for the air fryer",
        "100200的保温杯退100 空气炸锅退200",
    ],
)
async def test_an_amount_for_each_thing_is_one_refund_of_their_sum(
    tmp_path: Path, text: str
) -> None:
    """An amount for each of two things: ¥200 alone was offered (¥100 without the order id,
    and in Chinese). Now one refund of ¥300, once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "300.00" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [300.0]


async def test_a_price_told_is_no_amount_for_a_thing(tmp_path: Path) -> None:
    """A pin: "I paid 399 for the air fryer, refund 100 for the thermos" is ¥100."""
    bot = bot_for(tmp_path)
    out = await say(bot, "I paid 399 for the air fryer, refund 100 for the thermos in 100200")
    assert calls_of(out) == [("request_refund", "100200", 100.0)]


async def test_two_orders_before_the_refund_are_both_refunded(tmp_path: Path) -> None:
    """ "100609 100200 帮我退款" offered 100200 only; 100609 was split off as a look."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100609 100200 帮我退款")
    assert {c[1] for c in calls_of(out) if c[0] == "request_refund"} == {"100609", "100200"}
