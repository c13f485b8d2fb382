"""Whole turns session 36 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say


def _calls(out: dict[str, Any]) -> list[tuple[Any, Any, Any]]:
    return [
        (t.get("tool"), (t.get("args") or {}).get("order_id"), (t.get("args") or {}).get("amount"))
        for t in out["tasks"]
    ]


# --- an order number ending a sentence -------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "refund 100609. yes I confirm, no need to ask",
        "refund 100609. no need to ask",
        "please refund order 100609.",
    ],
)
async def test_an_order_number_before_a_full_stop_is_no_amount(tmp_path: Path, text: str) -> None:
    """ "refund 100609. yes I confirm" read the order number as ¥100609 (refused as too much):
    the full stop after it made it look like a decimal. Now the whole order is offered, and
    paid once on a yes said after the offer (the last, at the very end, is a pin)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert _calls(out) == [("request_refund", "100609", None)]
    assert "866" in out["reply"]
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [866.0]


async def test_a_decimal_amount_is_still_an_amount(tmp_path: Path) -> None:
    """A pin: "100.5" after an order number stays an amount of its own."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 100.5 on 100609")
    assert _calls(out) == [("request_refund", "100609", 100.5)]


# --- one of two orders cancelled --------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "手机那单和空气炸锅那单，帮我取消一个，手机那单不要了",
        "帮我取消一个，手机那单不要了",
        "I have the phone order and the air fryer order, cancel one of them, the phone order",
    ],
)
async def test_one_of_two_orders_cancelled_is_the_one_said(tmp_path: Path, text: str) -> None:
    """ "手机那单和空气炸锅那单，帮我取消一个，手机那单不要了" offered to cancel the air fryer's
    order 100904, and a yes cancelled it: the words after "取消一个" say which. Now the phone's
    order 100998 is offered, and a yes cancels it alone."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [(tool, order) for tool, order, _ in _calls(out)] == [("cancel_order", "100998")]
    await say(bot, "确认" if "取消" in text else "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]


@pytest.mark.parametrize("text", ["手机那单和空气炸锅那单，帮我取消一个", "帮我取消一个"])
async def test_one_of_them_cancelled_with_none_said_is_asked(tmp_path: Path, text: str) -> None:
    """Which one, the words do not say: the order is asked for, nothing is offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [order for _, order, _ in _calls(out)] == [None]
    await say(bot, "确认")
    assert await executions(bot, "cancel_order") == []


async def test_the_order_a_thing_describes_not_wanted_is_its_cancel(tmp_path: Path) -> None:
    """ "手机那单不要了" was not understood (the menu); now the phone's order is offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, "手机那单不要了")
    assert [(tool, order) for tool, order, _ in _calls(out)] == [("cancel_order", "100998")]


@pytest.mark.parametrize("text", ["100998不要了吗", "手机那单不要了吗？"])
async def test_whether_an_order_is_not_wanted_asked_is_no_cancel(tmp_path: Path, text: str) -> None:
    """ "100998不要了吗" offered the cancel (a question made a write task)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(tool == "cancel_order" for tool, _, _ in _calls(out))
    await say(bot, "确认")
    assert await executions(bot, "cancel_order") == []
