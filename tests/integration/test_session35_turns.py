"""Whole turns session 35 changed — run as a customer meets the bot (the demo shop seeded, the
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


# --- compensation asked as an amount ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "order", "amount"),
    [
        ("净化器噪音太大了 补偿我100块吧", "100609", 100.0),
        ("the purifier is so loud, compensate me 100", "100609", 100.0),
        ("钢化膜晚了一周，补偿我20块呗", "100683", 20.0),
    ],
)
async def test_compensation_of_an_amount_is_that_refund_offered_then_paid_once(
    tmp_path: Path, text: str, order: str, amount: float
) -> None:
    """ "补偿我100块吧" was read as a fault to file a ticket about (or as nothing): now the
    amount is offered as a refund of the thing's order, and paid once on a yes."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert _calls(out) == [("request_refund", order, amount)]
    assert await executions(bot, "create_refund") == []
    await say(bot, "确认" if "补偿" in text else "yes")
    assert await refunds_of(bot, order) == [amount]
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "text", ["不用补偿我100了", "别补偿我100块", "don't compensate me 50, just fix it"]
)
async def test_compensation_refused_offers_nothing(tmp_path: Path, text: str) -> None:
    """A pin (compensation was read as nothing before): refused, it is no refund's words."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(tool == "request_refund" for tool, _, _ in _calls(out))
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []


async def test_a_share_back_asked_for_is_that_share(tmp_path: Path) -> None:
    """ "can i get 30% back on 100200 instead of returning stuff" offered a ticket; now 30% of
    ¥797 is offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, "can i get 30% back on 100200 instead of returning stuff")
    assert [tool for tool, _, _ in _calls(out)] == ["request_refund"]
    assert "239.10" in str(out["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [239.1]


@pytest.mark.parametrize(
    "text", ["did I get anything back on 100200?", "did I get 30% back on 100200?"]
)
async def test_whether_money_came_back_is_asked_not_a_refund(tmp_path: Path, text: str) -> None:
    """ "did I get anything back on 100200?" offered a ¥797 refund (a yes paid it): now the
    order and its refunds are shown (the share form is a pin for the share read above)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [tool for tool, _, _ in _calls(out)] == ["get_order"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- a fault told as the reason of the refund asked -------------------------------------------


async def test_a_fault_beside_a_refund_naming_nothing_is_its_reason(tmp_path: Path) -> None:
    """ "餐具套装到的时候碎了两个碗 … 退269" offered a ticket beside the refund; the fault is why
    the refund is wanted."""
    bot = bot_for(tmp_path)
    out = await say(bot, "餐具套装到的时候碎了两个碗，这套餐具单独退吧，退269")
    assert _calls(out) == [("request_refund", "100200", 269.0)]
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [269.0]
    assert await executions(bot, "create_ticket") == []


async def test_a_ticket_asked_for_beside_a_refund_is_still_offered(tmp_path: Path) -> None:
    """A pin: a ticket asked for by name stays beside the refund."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100200退100块，再帮我开个工单说盘子碎了")
    tools = [tool for tool, _, _ in _calls(out)]
    assert "request_refund" in tools and "create_ticket" in tools


# --- a thing added to the refund offered, with why -----------------------------------------


async def test_a_thing_added_with_its_reason_is_the_refund_of_both(tmp_path: Path) -> None:
    """ "actually add the dinnerware set too, a couple of the plates were chipped" was read as
    nothing (and let the thermos's refund go); the reason told after the thing added is why."""
    bot = bot_for(tmp_path)
    await say(bot, "refund the thermos from 100200")
    out = await say(bot, "actually add the dinnerware set too, a couple of the plates were chipped")
    assert "398.00" in str(out["reply"])
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [398.0]


async def test_a_thing_added_then_taken_back_is_no_sum(tmp_path: Path) -> None:
    """A pin: what follows the thing added says no to it; the sum is not offered."""
    bot = bot_for(tmp_path)
    await say(bot, "refund the thermos from 100200")
    out = await say(bot, "actually add the dinnerware set too, but not if the plates were chipped")
    assert "398.00" not in str(out["reply"])
