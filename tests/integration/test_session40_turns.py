"""Whole turns session 40 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, calls_of, executions, refunds_of, say

# --- an amount said for each of several things --------------------------------------------


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("refund 100 for the thermos and 200 for the air fryer", ("100.00", "200.00")),
        ("保温杯退100，空气炸锅退200", ("100.00", "200.00")),
    ],
)
async def test_amounts_said_per_thing_are_refunded_together(
    tmp_path: Path, text: str, parts: tuple[str, str]
) -> None:
    """The ¥200 (English: the ¥100) was dropped silently and a yes paid the other one; now the
    sum is asked, each part named, and the yes pays ¥300."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "300.00" in out["reply"] and all(p in out["reply"] for p in parts)
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [300.0]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a thing the order does not hold: said, and how much asked
        ("refund 100 for the thermos and 200 for the monitor", "monitor"),
        # more for one thing than it cost: the most for it said
        ("refund 100200: 200 for the thermos and 200 for the air fryer", "129.00"),
        # money for something that is no product: how much asked, never "not in the order"
        ("refund 100200 100 for the thermos 2 for the delay", "797.00"),
    ],
)
async def test_amounts_per_thing_that_do_not_fit_are_asked(
    tmp_path: Path, text: str, said: str
) -> None:
    """Each of these paid one of the amounts (¥100 or ¥200) after a yes, the rest dropped."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert said in out["reply"]
    assert "does not include delay" not in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_a_price_told_beside_one_amount_is_no_second_part(tmp_path: Path) -> None:
    """A pin: "I paid 399 for the air fryer, refund 100 for the thermos" stays ¥100."""
    bot = bot_for(tmp_path)
    out = await say(bot, "I paid 399 for the air fryer, refund 100 for the thermos")
    assert "100.00" in out["reply"] and "499" not in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [100.0]


# --- a count of things is no amount ----------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["refund 1 out of 3 items on 100200", "refund 2 of the 3 items in 100200"]
)
async def test_a_count_of_the_orders_things_is_asked(tmp_path: Path, text: str) -> None:
    """ "refund 1 out of 3 items on 100200" offered ¥1 and a yes paid it."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "1.00" not in out["reply"] and "797.00" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- a refund asked to be processed ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "please process my refund for 100200",
        "the agent promised me a refund on 100200, please process it now",
    ],
)
async def test_a_refund_asked_to_be_processed_is_offered_once(tmp_path: Path, text: str) -> None:
    """Both showed the order and offered nothing (the first read "process" as a question about
    a refund's progress); now the refund is asked about once and a yes runs it once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [c for c in calls_of(out) if c[0]] == [("request_refund", "100200", None)]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [797.0]


@pytest.mark.parametrize(
    "text",
    [
        "has my refund for 100200 been processed?",
        "the agent promised a refund on 100200, did you process it?",
    ],
)
async def test_whether_a_refund_was_processed_offers_none(tmp_path: Path, text: str) -> None:
    """A pin: asked whether, never offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not [c for c in calls_of(out) if c[0] == "request_refund"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
