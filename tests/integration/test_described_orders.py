"""Orders the customer describes instead of numbering ("cancel my air fryer order", "净化器那单"):
found by one read of the customer's orders, confirmed by the customer for a write, and counted
in the shop's audit log. Customer C0001's orders: 100904 air fryer (unpaid), 100998 monitor and
phone (paid), 100683 screen protector (shipped), 100609 air purifier (delivered, partly refunded),
100200 air fryer, dinnerware and thermos (delivered)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpdesk.degrade.chaos import ChaosPlan
from tests.integration.test_trust import bot_for, executions, refunds_of, say


def _calls(out: dict[str, object]) -> list[tuple[str, object]]:
    return [
        (str(r["tool"]), dict(r.get("args") or {}).get("order_id"))  # type: ignore[index]
        for r in out["tasks"]  # type: ignore[attr-defined]
        if r.get("tool")  # type: ignore[union-attr]
    ]


@pytest.mark.parametrize(
    ("message", "answer", "order_id"),
    [
        ("please cancel my air fryer order", "yes", "100904"),
        ("cancel the order I haven't paid for", "yes", "100904"),
        ("空气炸锅那单帮我取消了吧", "确认", "100904"),
    ],
)
async def test_a_described_order_is_cancelled_after_a_yes_naming_it(
    tmp_path: Path, message: str, answer: str, order_id: str
) -> None:
    bot = bot_for(tmp_path)
    asked = await say(bot, message)
    assert order_id in asked["reply"]  # the confirmation names the order it found
    assert await executions(bot, "cancel_order") == []
    await say(bot, answer)
    cancels = await executions(bot, "cancel_order")
    assert [e["target"] for e in cancels] == [order_id]


async def test_the_session_order_does_not_hide_the_order_described(tmp_path: Path) -> None:
    """It did: after a look at 100998, "cancel the order I haven't paid for" asked to cancel
    100998 ("going by our earlier conversation") and a yes cancelled the paid order."""
    bot = bot_for(tmp_path)
    await say(bot, "where is 100998")
    asked = await say(bot, "cancel the order I haven't paid for")
    assert "100904" in asked["reply"]
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


async def test_a_refund_of_a_described_order_refunds_that_order_once(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    asked = await say(bot, "refund 100 on the purifier order")
    assert "100609" in asked["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [100.0]
    assert len(await executions(bot, "create_refund")) == 1


async def test_a_described_order_that_cannot_be_cancelled_says_why(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "please cancel my screen protector order, it's taking forever")
    assert "100683" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    ("message", "tool", "order_id"),
    [
        ("has my monitor shipped yet", "get_order", "100998"),
        ("净化器那单还能退多少", "get_order", "100609"),
        ("where's my screen protector", "track_shipment", "100683"),
    ],
)
async def test_a_look_at_a_described_order_reads_that_order(
    tmp_path: Path, message: str, tool: str, order_id: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert (tool, order_id) in _calls(out) or order_id in out["reply"]
    assert order_id in out["reply"]


async def test_words_naming_no_product_of_the_customer_ask_for_the_order(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "please cancel my kayak order")
    assert not [c for c in _calls(out) if c[0] == "cancel_order"]
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []


# --- found by a review of the first version (each reproduced on it) ----------------------------


@pytest.mark.parametrize(
    ("first", "message"),
    [
        ("status of 100998", "cancel my kayak order"),  # names no order of the customer
        ("where is 100683", "refund 20 on my purifier and thermos order"),  # two orders fit
    ],
)
async def test_an_order_described_but_not_found_never_falls_back_to_the_session_order(
    tmp_path: Path, first: str, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, message)
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []


async def test_a_failed_lookup_never_falls_back_to_the_session_order(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "what is in order 100200")
    bot.executor.chaos = ChaosPlan.simple({"list_orders": {"unavailable": 1.0}})
    asked = await say(bot, "refund 100 on the purifier order")
    assert "100200" not in asked["reply"]
    bot.executor.chaos = None
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_an_order_ruled_out_in_the_words_is_not_the_one_taken(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    asked = await say(bot, "cancel the monitor order, not the air fryer one")
    assert "100998" in asked["reply"] and "27-inch 4K Monitor" in asked["reply"]
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]


async def test_a_ticket_on_a_described_order_waits_for_a_yes_even_when_asked_for(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "please open a ticket: the monitor order, not the screen protector one, is dead")
    assert await executions(bot, "create_ticket") == []
    await say(bot, "yes")
    tickets = await executions(bot, "create_ticket")
    assert len(tickets) == 1


async def test_a_failed_lookup_spends_none_of_the_turns_ladder(tmp_path: Path) -> None:
    """It did: the lookup's fallback used the ladder's levels, so the customer's own question
    ended in a handoff ticket nobody asked for and an empty reply."""
    bot = bot_for(tmp_path)
    bot.executor.chaos = ChaosPlan.simple({"list_orders": {"unavailable": 1.0}})
    out = await say(bot, "has my monitor shipped? also what is your returns policy")
    assert await executions(bot, "create_ticket") == []
    assert "7 days" in out["reply"]  # the returns policy is still answered


@pytest.mark.parametrize(
    "message",
    [
        "should I cancel my air fryer order?",
        "I never asked to cancel my air fryer order",
        "would cancelling my air fryer order refund me?",
        "did you refund 100 on the purifier order?",
    ],
)
async def test_questions_about_a_described_order_plan_no_write(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    first = await say(bot, message)
    assert all(t.get("tool") not in ("cancel_order", "request_refund") for t in first["tasks"])
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []
