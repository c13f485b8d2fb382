"""Whole conversations session 28 changed — run as a customer meets the bot (the demo shop
seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say

# --- several requests in one message: each served, the thing told before an action its order -----


async def test_a_list_asked_beside_a_cancel_is_listed_and_the_cancel_asked(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, "把我的订单都列一下 看看哪个还没付钱 没付的那个直接取消"))["reply"])
    assert "100998" in reply and "100200" in reply  # the list
    assert "确认要取消订单 100904" in reply
    assert await executions(bot, "cancel_order") == []
    await say(bot, "确认")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


async def test_the_thing_told_before_a_refund_names_its_order(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    reply = str(
        (await say(bot, "not happy. air purifier clicking again. i want a refund of 300"))["reply"]
    )
    assert "100609" in reply and "300.00" in reply
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [300.0]


# --- the other order: "instead of", "rather than", "no to" ---------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "refund 100200 instead of 100609",
        "instead of 100609 refund 100200",
        "refund 100200 in place of 100609",
        "refund 100200 over 100609",
    ],
)
async def test_the_order_refunded_instead_of_another_is_the_only_one(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, text))["reply"])
    assert "866.00" not in reply
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [797.0]
    assert await refunds_of(bot, "100609") == []


@pytest.mark.parametrize(
    "text", ["cancel 100904 rather than 100998", "cancel 100904 instead of 100998"]
)
async def test_the_order_cancelled_rather_than_another_is_the_only_one(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


@pytest.mark.parametrize("no", ["no to 100200", "no for 100200", "no, not 100200", "not 100200"])
async def test_a_no_said_of_one_of_two_waiting_refunds_drops_that_one(
    tmp_path: Path, no: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 and 100609")
    reply = str((await say(bot, no))["reply"])
    assert "797.00" not in reply and "866.00" in reply
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == []
    assert await refunds_of(bot, "100609") == [866.0]


async def test_a_no_said_of_one_of_two_waiting_cancels_drops_that_one(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100998 and 100904")
    await say(bot, "no to 100998")
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


# --- a thing the order does not hold: never another item, never the whole order ---------------


@pytest.mark.parametrize(
    "text",
    [
        "refund the air purifier on 100200",
        "refund the air conditioner on 100200",
        "refund the stainless steel pan on 100200",
        "refund the ceramic mug on 100200",
        "refund the laptop on 100200",
        "退100200的不锈钢锅",
        "refund the air fryer on 100609",
        "the air fryer on 100609 is broken, refund it",
        "100609 air fryer refund",
    ],
)
async def test_a_thing_the_order_does_not_hold_is_asked_about(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    for answer in ("yes", "确认"):
        await say(bot, answer)
    assert await executions(bot, "create_refund") == []


# --- a refund or cancel named but not asked for: nothing offered, a yes runs nothing -------------


@pytest.mark.parametrize(
    "text",
    [
        "I was going to ask to refund 100200 but nah",
        "I thought about refunding 100200",
        "refunded 100200 already?",
        "I said refund 100200 by mistake",
        "no longer need to refund 100200",
        "之前想退100200，现在不用了",
        "我上周想退100200 现在不想了",
        "I'm considering a refund on 100200",
        "dnt refund 100200",
        "do not refnd 100200",
        "不要refund 100200",
        "100200 退款 no need",
        "refund 100200 — wait, nope",
        "I'd cancel 100998 if it were late, but it's fine",
        "cancelling 100998 would be dumb right",
        "I used to want to cancel 100998",
        "cancel 100998 is not what I want",
        "我之前想取消100998，现在不用了",
        "取消100998的念头已经没了",
        "cancel 100998 不要",
        "100998 cancel? 不用",
        "取消100998 逗你的",
        "cancel 100998, on second thought don't",
    ],
)
async def test_a_write_named_but_not_asked_for_is_never_offered(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, text))["reply"])
    assert "Shall I" not in reply and "Do you want me to" not in reply and "确认" not in reply
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("I want to cancel my order 100998, ordered by mistake", "100998"),
        ("还没付钱的那单不要了", "100904"),
        ("帮我查下100998发货没 另外100904取消掉 不要了", "100904"),
    ],
)
async def test_a_reason_beside_a_cancel_is_no_taking_back(
    tmp_path: Path, text: str, order: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "确认" if "了" in text else "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == [order]


# --- an item cancelled by name: orders are cancelled whole, never the other items on a yes ------


@pytest.mark.parametrize(
    "text", ["cancel the phone", "cancel the smartphone", "cancel just the phone", "取消手机"]
)
async def test_an_item_cancelled_by_name_never_cancels_its_whole_order(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, text))["reply"])
    assert "27-inch 4K Monitor" in reply or "显示器" in reply
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("cancel the air fryer", "100904"),  # its order holds only the air fryer
        ("cancel the monitor and the phone", "100998"),
        ("cancel my phone order", "100998"),
    ],
)
async def test_a_whole_order_named_by_its_things_is_cancelled_on_a_yes(
    tmp_path: Path, text: str, order: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == [order]


# --- amounts: one total for several orders, another currency, a local fraction, two at once ------


@pytest.mark.parametrize(
    "text",
    [
        "refund 100 total across 100200 and 100609",
        "refund 100 split between 100200 and 100609",
        "100200和100609一共退100",
        "100200和100609加起来退200",
    ],
)
async def test_one_amount_for_several_orders_is_asked_never_paid_on_each(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    [
        "refund 7,97 on 100200",
        "100200退两百五十块五毛",
        "refund $100 on 100200",
        "refund 100 USD on 100200",
        "refund 100 dollars on 100200",
        "100200退100美元",
        "refund 100200 ¥100 ¥200",
    ],
)
async def test_an_amount_that_cannot_be_read_as_yuan_is_asked(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, text))["reply"])
    assert "Shall I" not in reply and "确认为订单" not in reply
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- answers to an offer: one thing is enough; yes and the same for another order ---------------


@pytest.mark.parametrize("answer", ["保温杯就行", "就保温杯吧", "那就保温杯"])
async def test_one_thing_said_to_be_enough_is_what_is_asked(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "退100200")
    reply = str((await say(bot, answer))["reply"])
    assert "129.00" in reply
    await say(bot, "好")
    assert await refunds_of(bot, "100200") == [129.0]


@pytest.mark.parametrize(
    ("first", "answer", "other", "amounts"),
    [
        ("refund 100200", "yes and same for 100609", "100609", ([797.0], [866.0])),
        ("refund 100200", "yes, and 100609 too", "100609", ([797.0], [866.0])),
        ("退100200", "好 100609也退", "100609", ([797.0], [866.0])),
        ("refund 100 on 100200", "yes and same for 100609", "100609", ([100.0], [100.0])),
    ],
)
async def test_a_yes_with_the_same_for_another_order_runs_the_first_and_asks_the_other(
    tmp_path: Path, first: str, answer: str, other: str, amounts: tuple[list[float], list[float]]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, answer)
    assert await refunds_of(bot, "100200") == amounts[0]
    assert await refunds_of(bot, other) == []
    await say(bot, "yes")
    assert await refunds_of(bot, other) == amounts[1]


@pytest.mark.parametrize(
    ("first", "yes", "undo"),
    [("refund 100200", "yes", "cancel that refund"), ("退100200", "好", "撤销刚才的退款")],
)
async def test_a_refund_taken_back_after_it_ran_shows_it_never_says_none_was_made(
    tmp_path: Path, first: str, yes: str, undo: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, yes)
    reply = str((await say(bot, undo))["reply"])
    assert "R-000109" in reply and "797.00" in reply
    assert "no cancellation or refund was made" not in reply
    assert await refunds_of(bot, "100200") == [797.0]


@pytest.mark.parametrize(
    ("answer", "refunded"),
    [
        ("yes for the first one", ("100200", 797.0)),
        ("第一个确认", ("100200", 797.0)),
        ("only the second one", ("100609", 866.0)),
        ("yes to the last", ("100609", 866.0)),
    ],
)
async def test_a_waiting_refund_named_by_its_place_is_the_one_asked_again(
    tmp_path: Path, answer: str, refunded: tuple[str, float]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 and 100609")
    await say(bot, answer)
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes")
    order, amount = refunded
    other = "100609" if order == "100200" else "100200"
    assert await refunds_of(bot, order) == [amount]
    assert await refunds_of(bot, other) == []


# --- the second review of this session's changes: what they over-fired on, what they missed ------


@pytest.mark.parametrize(
    ("text", "action", "target"),
    [
        ("I was gonna keep it but refund 100200", "create_refund", None),
        ("refund 100200, the air fryer isn't what i want", "create_refund", None),
        ("I've thought about a refund and I want one for 100200", "create_refund", None),
        ("退款100200 不是开玩笑", "create_refund", None),
        ("之前想退款，客服让我再等等，现在又坏了，退100200", "create_refund", None),
        ("cancel 100998, the monitor is not what I want", "cancel_order", "100998"),
        ("cancel 100998, keeping it would be a mistake", "cancel_order", "100998"),
        ("cancel 100998, I don't need it. not anymore.", "cancel_order", "100998"),
        ("刚才想取消100998，现在确定了，取消吧", "cancel_order", "100998"),
        ("cancel 100998 i ordered the wrong phone", "cancel_order", "100998"),
    ],
)
async def test_a_reason_or_a_change_of_mind_beside_a_request_still_asks_it(
    tmp_path: Path, text: str, action: str, target: str | None
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "确认" if not text.isascii() else "yes")
    done = await executions(bot, action)
    assert len(done) == 1
    if target is not None:
        assert done[0]["target"] == target


@pytest.mark.parametrize(
    "text", ["pls dnt refund 100200", "帮我取消100998 逗你的", "取消100998 骗你的"]
)
async def test_a_refusal_or_a_joke_beats_a_polite_word(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "确认" if not text.isascii() else "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    ("turns", "paid"),
    [
        # the same words on the other order: 100609 holds no thermos (it paid its whole ¥866)
        (["refund the thermos on 100200", "yes and same for 100609", "yes"], {"100200": [129.0]}),
        (
            ["refund 50 on 100200", "yes, 100609 as well please", "yes"],
            {"100200": [50.0], "100609": [50.0]},
        ),
        (["monitor hasn't shipped. i want a refund", "yes"], {}),
        (["refund 100 for 100200 + 100609 combined", "yes"], {}),
        (["refund 100 in all for 100200 and 100609", "yes"], {}),
        (
            ["split: refund 50 on 100200 and 50 on 100609", "yes"],
            {"100200": [50.0], "100609": [50.0]},
        ),
        (["refund 100200 rather than cancel 100998", "yes"], {"100200": [797.0]}),
        (["i'd rather have a refund on 100200 than on 100609", "yes"], {"100200": [797.0]}),
        (["I prefer a refund on 100200 over one on 100609", "yes"], {"100200": [797.0]}),
        (["100200 退款 100609 不退", "确认"], {"100200": [797.0]}),
        (
            ["refund 50 on 100200 and 50 on 100609 so 100 in total", "yes"],
            {"100200": [50.0], "100609": [50.0]},
        ),
        (["100200 退 100 块 100609 退 50 块", "确认"], {"100200": [100.0], "100609": [50.0]}),
    ],
)  # fmt: skip
async def test_money_moves_on_the_orders_and_amounts_asked(
    tmp_path: Path, turns: list[str], paid: dict[str, list[float]]
) -> None:
    bot = bot_for(tmp_path)
    for text in turns:
        await say(bot, text)
    for order in ("100200", "100609", "100998"):
        assert await refunds_of(bot, order) == paid.get(order, [])
    assert await executions(bot, "cancel_order") == []


async def test_an_item_cancelled_on_a_numbered_order_never_cancels_the_rest(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消 100998 里的手机")
    await say(bot, "确认")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize("text", ["100200退5块5", "100200退五块五"])
async def test_yuan_and_jiao_are_asked_never_paid_as_whole_yuan(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("text", ["退款100200，换货现在不用了", "换货不用了，直接退款100200"])
async def test_a_replacement_said_not_wanted_files_no_ticket_beside_the_refund(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [797.0]
    assert await executions(bot, "create_ticket") == []
