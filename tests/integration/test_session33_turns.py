"""Whole turns session 33 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpdesk.app.session import run_turn
from tests.integration.test_trust import bot_for, executions, refunds_of, say


def _tools(out: dict[str, Any]) -> list[Any]:
    return [t.get("tool") for t in out["tasks"]]


# --- how much can still come back, naming no order: each order with what is refundable --------


@pytest.mark.parametrize(
    "text",
    [
        "how much can I still get back?",
        "how much of my money can you still refund",
        "what can I still get refunded",
        "我还能退多少钱",
        "还有多少钱可以退给我",
    ],
)
async def test_what_is_left_to_refund_naming_no_order_lists_it_per_order(
    tmp_path: Path, text: str
) -> None:
    """The orders were listed without what is refundable on them (or the refund-time policy
    answered, or the menu); now each order says what can still come back, and nothing is
    offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    reply = str(out["reply"])
    assert "866.00" in reply  # 100609: 1299 paid, 433 refunded
    assert "797.00" in reply  # 100200: nothing refunded yet
    assert "request_refund" not in _tools(out)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_a_list_not_about_money_shows_no_refundable_amounts(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "show me my orders")
    assert "100609" in str(out["reply"])
    assert "refunded" not in str(out["reply"])


# --- two refunds, one of a thing, one of an order by number: each its own ------------------------


async def test_a_thing_refunded_beside_an_order_refunded_by_number(tmp_path: Path) -> None:
    """ "refund the thermos and refund 100609" asked how much on 100609, which "does not
    include the thermos" (the thermos's words were read as 100609's share); now ¥129 on 100200
    and the ¥866 left on 100609 are offered, and one yes pays each once."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund the thermos and refund 100609")
    reply = str(out["reply"])
    assert "129.00" in reply and "866.00" in reply
    assert "does not include" not in reply
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [129.0]
    assert await refunds_of(bot, "100609") == [866.0]


async def test_two_things_of_one_order_stay_one_refund(tmp_path: Path) -> None:
    """A pin: the things of one order named across the message are one refund of both."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund the thermos and the dinnerware from 100200")
    assert "398.00" in str(out["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [398.0]


# --- every part unread by the shop: each said, one a pack reads answered -----------------------


async def test_a_part_beside_an_address_change_is_not_dropped(tmp_path: Path) -> None:
    """ "can i change my address for 100998 and add a phone case to it" answered the address
    change and dropped the phone case silently; now the phone case is said to be unread,
    after the address answer."""
    bot = bot_for(tmp_path)
    out = await say(bot, "can i change my address for 100998 and add a phone case to it")
    reply = str(out["reply"])
    assert "address" in reply
    assert '"add a phone case to it"' in reply
    assert reply.index("address") < reply.index("phone case")


# --- one of several waiting actions kept by its order's number, without a yes -----------------


@pytest.mark.parametrize("answer", ["only 100803", "just 100803 please", "只要100803"])
async def test_one_waiting_cancel_kept_by_number_is_asked_again_alone(
    tmp_path: Path, answer: str
) -> None:
    """ "just 100803" to the cancels of 100803 and 100806 was a look at 100803 and both cancels
    were dropped; now 100803's cancel is asked again alone (nothing runs on the answer itself),
    and the yes after it cancels 100803 once and nothing else."""
    bot = bot_for(tmp_path)
    await run_turn(bot, "cancel 100803 and 100806", session="s", customer="C0078")
    out = await run_turn(bot, answer, session="s", customer="C0078")
    assert await executions(bot, "cancel_order", customer="C0078") == []
    assert "100803" in str(out["reply"])
    await run_turn(bot, "yes", session="s", customer="C0078")
    cancelled = await executions(bot, "cancel_order", customer="C0078")
    assert [e["target"] for e in cancelled] == ["100803"]


async def test_an_order_kept_that_is_not_waiting_drops_the_waiting_ones(tmp_path: Path) -> None:
    """A pin: "just 100219" names no waiting order — a look at it; the yes after runs nothing."""
    bot = bot_for(tmp_path)
    await run_turn(bot, "cancel 100803 and 100806", session="s", customer="C0078")
    out = await run_turn(bot, "just 100219", session="s", customer="C0078")
    assert "100219" in str(out["reply"])
    await run_turn(bot, "yes", session="s", customer="C0078")
    assert await executions(bot, "cancel_order", customer="C0078") == []


# --- questions about money back: answered, nothing offered, nothing run ------------------------


@pytest.mark.parametrize(
    "text",
    [
        "can I still get a refund on the purifier if I already threw the box away?",
        "if I return the air fryer from the 797 order, do I get 399 back or do you take "
        "shipping off?",
        "797那单里的炸锅要是退了 是退399吗 运费扣不扣",
        "pls check both 100609 and 100200 - which of them can I still return?",
        "Hi, I'm thinking of returning the thermos I bought, is it still within the return window?",
        "is the refund automatic?",
    ],
)
async def test_a_question_about_money_back_offers_nothing(tmp_path: Path, text: str) -> None:
    """Each offered a refund or an after-sales ticket (a hurried yes would have made it)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not {"request_refund", "create_ticket"} & set(_tools(out))
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "create_ticket") == []


async def test_whether_the_purifier_can_still_be_refunded_says_how_much(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "can I still get a refund on the purifier?")
    assert "866.00" in str(out["reply"])


# --- a product named alone: how many each warehouse has ----------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Which warehouse does the smart watch ship from?", "Shanghai 27"),
        ("手表是从哪个仓发货的", "上海仓 27"),
        ("how many smart watches do you have in stock", "Shanghai 27"),
    ],
)
async def test_a_product_named_alone_shows_its_stock_by_warehouse(
    tmp_path: Path, text: str, said: str
) -> None:
    """The reply asked for the product code to tell the warehouses."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert said in str(out["reply"])


# --- a parcel named by its thing beside another order: its own order ---------------------------


@pytest.mark.parametrize(
    "text",
    ["100998发了没 还有钢化膜到哪了", "has 100998 shipped, and where is my screen protector"],
)
async def test_a_things_parcel_beside_another_order_is_its_own(tmp_path: Path, text: str) -> None:
    """ "100998发了没 还有钢化膜到哪了" was one look at 100998 (the screen protector's parcel
    dropped)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    reply = str(out["reply"])
    assert "100998" in reply and "YT9433239273" in reply


# --- a refund of the order described as unpaid: never another order's --------------------------


@pytest.mark.parametrize(
    "text",
    [
        "can I get a refund for the air fryer that's still waiting for payment?",
        "refund the air fryer that's still waiting for payment",
    ],
)
async def test_a_refund_of_the_unpaid_air_fryer_never_refunds_the_paid_one(
    tmp_path: Path, text: str
) -> None:
    """ "… the air fryer that's still waiting for payment" offered ¥399 back on 100200 (the
    delivered air fryer): a yes would have refunded an order the customer did not mean. Now
    100904, unpaid, is shown (nothing to refund), and nothing is offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "100904" in str(out["reply"])
    assert "nothing to refund" in str(out["reply"])
    assert "request_refund" not in _tools(out)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
