"""Whole turns session 38 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, calls_of, executions, refunds_of, say

# --- a write is for the thing named in the sentence asking for it ----------------------------


@pytest.mark.parametrize(
    "text",
    [
        "my screen protector and air purifier – hmm. refund the purifier",
        "the screen protector and the purifier, both annoying. refund the purifier",
    ],
)
async def test_a_refund_is_for_the_thing_its_sentence_names(tmp_path: Path, text: str) -> None:
    """The refund was offered on the screen protector's order (the first thing the message
    named) and a yes paid ¥29 on it. Now it is the purifier's order, and its item."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert calls_of(out) == [("request_refund", "100609", None)]
    assert "Screen Protector" not in out["reply"].split("\n", 1)[-1]
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [866.0]
    assert len(await executions(bot, "create_refund")) == 1


async def test_a_status_question_beside_a_refund_of_one_of_them_is_kept(tmp_path: Path) -> None:
    """ "are they both delivered? refund the purifier": the question was folded into the
    refund; both orders are shown, and the refund is the purifier's."""
    bot = bot_for(tmp_path)
    out = await say(
        bot, "my screen protector and air purifier – are they both delivered? refund the purifier"
    )
    assert ("request_refund", "100609", None) in calls_of(out)
    assert {c[1] for c in calls_of(out) if c[0] == "get_order"} == {"100683", "100609"}


async def test_a_refund_after_a_story_still_finds_the_thing_told(tmp_path: Path) -> None:
    """A pin: "the purifier started rattling. I want some money back" (the refund's sentence
    names nothing) is the purifier's order."""
    bot = bot_for(tmp_path)
    out = await say(bot, "the purifier started rattling this week. I want some money back")
    assert calls_of(out) == [("request_refund", "100609", None)]
    await say(bot, "no")
    assert await refunds_of(bot, "100609") == []


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("the screen protector still hasn't arrived, can I just get my money back", "yes"),
        ("膜到现在没到 能不能直接退钱", "好的"),
    ],
)
async def test_a_refund_is_for_the_thing_told_not_the_order_talked_about(
    tmp_path: Path, text: str, yes: str
) -> None:
    """After a look at 100998 (the phone order), a refund told of the screen protector was
    offered on 100998 (asked how much, "no screen protector in it"). Now it is 100683's."""
    bot = bot_for(tmp_path)
    await say(bot, "100998到哪了")
    out = await say(bot, text)
    assert calls_of(out) == [("request_refund", "100683", None)]
    await say(bot, yes)
    assert await refunds_of(bot, "100683") == [29.0]
    assert await refunds_of(bot, "100998") == []
