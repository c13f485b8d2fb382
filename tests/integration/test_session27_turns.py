"""Whole conversations session 27 changed — run as a customer meets the bot (the demo shop
seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say

# --- the thing kept, the rest refunded: what the other items cost, never the whole -------------


@pytest.mark.parametrize(
    ("text", "yes", "amount"),
    [
        ("keep the air fryer, refund the rest of 100200", "yes", 398.0),
        ("I kept the air fryer from 100200. refund everything else", "yes", 398.0),
        ("refund the rest of 100200, I'm keeping the air fryer", "yes", 398.0),
        ("refund evrything on 100200 exept the air fryer", "yes", 398.0),
        ("100200 空气炸锅留着 剩下的全退", "好", 398.0),
        ("100200除空气炸锅外全退", "好", 398.0),
    ],
)
async def test_the_thing_kept_is_left_out_of_the_refund(
    tmp_path: Path, text: str, yes: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    offer = await say(bot, text)
    assert f"{amount:.2f}" in str(offer["reply"])
    assert "797.00" not in str(offer["reply"])
    assert "couldn't handle" not in str(offer["reply"])
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [amount]


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("refund everything on 100200 but ¥100", "How much should I refund"),
        ("100200除了100块都退", "请告诉我要退的金额"),
    ],
)
async def test_a_number_kept_is_asked_about_never_paid(
    tmp_path: Path, text: str, asked: str
) -> None:
    bot = bot_for(tmp_path)
    reply = await say(bot, text)
    assert asked in str(reply["reply"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- a replacement wanted first: the after-sales ticket, never the refund too --------------------


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("replace the thermos on 100200 or refund", "yes"),
        ("if you can replace the thermos from 100200, do; otherwise refund it", "yes"),
        ("refund the thermos from 100200 if not replacable", "yes"),
        ("100200保温杯最好换一个，不行就退", "好"),
    ],
)
async def test_a_replacement_wanted_first_is_only_the_ticket(
    tmp_path: Path, text: str, yes: str
) -> None:
    bot = bot_for(tmp_path)
    asked = await say(bot, text)
    assert [t["tool"] for t in asked["tasks"] if t["tool"]] == ["create_ticket"]
    await say(bot, yes)
    assert len(await executions(bot, "create_ticket")) == 1
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("refund 100200, I don't want a replacement", "yes"),
        ("refund 100200, no replacement please", "yes"),
        ("我不要换货 100200退款", "好"),
    ],
)
async def test_a_replacement_refused_files_no_ticket(tmp_path: Path, text: str, yes: str) -> None:
    bot = bot_for(tmp_path)
    asked = await say(bot, text)
    assert [t["tool"] for t in asked["tasks"] if t["tool"]] == ["request_refund"]
    await say(bot, yes)
    assert await executions(bot, "create_ticket") == []
    assert await refunds_of(bot, "100200") == [797.0]


# --- a refund asked instead of the ticket just filed is of the broken thing -------------------


async def test_a_refund_instead_of_a_filed_ticket_is_of_the_broken_thing(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "the thermos from 100200 is broken")
    await say(bot, "yes")
    assert len(await executions(bot, "create_ticket")) == 1
    offer = await say(bot, "actually refund instead")
    assert "129.00" in str(offer["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [129.0]


async def test_a_plain_refund_after_a_filed_ticket_is_still_the_order(tmp_path: Path) -> None:
    """A ticket filed earlier does not narrow a refund asked in the customer's own words."""
    bot = bot_for(tmp_path)
    await say(bot, "the thermos from 100200 is broken")
    await say(bot, "yes")
    offer = await say(bot, "refund 100200 please")
    assert "797.00" in str(offer["reply"])


# --- another order meant, described by what it holds, while the action waits --------------------


@pytest.mark.parametrize(
    ("first", "correction", "yes", "order", "amount"),
    [
        ("100200退款", "不对，是另一单，净化器那个", "确认", "100609", 866.0),
        ("refund 100200", "no, the purifier order", "yes", "100609", 866.0),
        ("refund 100200", "no wait, the other order, the purifier one", "yes", "100609", 866.0),
    ],
)
async def test_the_order_meant_instead_is_asked_about_then_refunded(
    tmp_path: Path, first: str, correction: str, yes: str, order: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    asked = await say(bot, correction)
    assert f"{amount:.2f}" in str(asked["reply"]) and order in str(asked["reply"])
    assert await executions(bot, "create_refund") == []
    await say(bot, yes)
    assert await refunds_of(bot, order) == [amount]
    assert await refunds_of(bot, "100200") == []


async def test_the_order_meant_instead_of_a_cancel_is_cancelled(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100998")
    asked = await say(bot, "no, the air fryer order i haven't paid")
    assert "100904" in str(asked["reply"])
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


@pytest.mark.parametrize(
    "correction", ["no, the purifier order is fine", "no, was the purifier order refunded?"]
)
async def test_an_order_described_but_not_asked_for_is_no_request(
    tmp_path: Path, correction: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200")
    reply = await say(bot, correction)
    assert [t["tool"] for t in reply["tasks"] if t["tool"] == "request_refund"] == []
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    [
        "can you refund the air fryer from order 100200 but keep the rest? oh and the thermos too",
        "refund the thermos and the plates but keep the air fryer out of it, I still use that",
    ],
)
async def test_the_thing_kept_beside_a_refund_is_no_unread_part(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    reply = await say(bot, text)
    assert "couldn't handle" not in str(reply["reply"])
    assert "How much should I refund" in str(reply["reply"])  # (which things: asked, never guessed)


# --- answers that change the refund offered: the change is what is asked next ----------------


@pytest.mark.parametrize(
    ("first", "answer", "yes", "amount"),
    [
        # a thing picked out in answer: that thing's price, never the whole again
        ("refund 100200", "yes, only the thermos", "yes", 129.0),
        ("refund 100200", "ok, the thermos only", "yes", 129.0),
        ("refund 100200", "yes just the thermos please", "yes", 129.0),
        ("refund 100200", "yes for the thermos", "yes", 129.0),
        ("refund the thermos on 100200", "actually the air fryer", "yes", 399.0),
        ("退100200保温杯", "不是这个，是空气炸锅", "好", 399.0),
        ("退100200", "保温杯不退，其他都退", "好", 668.0),
        # all but a thing kept, said in answer
        ("退100200", "不对，空气炸锅留着，剩下的全退", "好", 398.0),
        # the order said wrong, a slip
        ("退100200", "说错了，是100609", "好", 866.0),
        ("refund 100200", "my bad, 100609", "yes", 866.0),
    ],
)
async def test_an_answer_changing_the_offer_is_asked_then_paid_as_changed(
    tmp_path: Path, first: str, answer: str, yes: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    asked = await say(bot, answer)
    assert f"{amount:.2f}" in str(asked["reply"])
    assert await executions(bot, "create_refund") == []
    await say(bot, yes)
    paid = await refunds_of(bot, "100200") + await refunds_of(bot, "100609")
    assert paid == [amount]
    await say(bot, yes)  # (a second yes finds nothing more to pay)
    assert len(await executions(bot, "create_refund")) == 1


@pytest.mark.parametrize(
    ("first", "answer"),
    [
        ("refund everything on 100200 but the air fryer", "yes but refund less"),
        ("refund everything on 100200 but the air fryer", "ok but I'll keep the plates too"),
        ("100200除了空气炸锅都退", "好的吧 但是餐具我留着"),
        ("refund 100200", "yes but not the air fryer"),
        ("退100200", "好 除了空气炸锅"),
    ],
)
async def test_a_yes_limiting_a_worked_out_sum_asks_how_much(
    tmp_path: Path, first: str, answer: str
) -> None:
    """The sum first worked out (¥398) is no longer meant, nor the whole (¥797) offered."""
    bot = bot_for(tmp_path)
    await say(bot, first)
    asked = await say(bot, answer)
    assert "398.00" not in str(asked["reply"]) and "Shall I" not in str(asked["reply"])
    assert "797.00" in str(asked["reply"])  # (as the most that can be refunded)
    assert [t["tool"] for t in asked["tasks"] if t["tool"]] == ["get_order"]
    await say(bot, "yes" if answer.isascii() else "好")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    [
        "I'll keep everything except the thermos from 100200, refund it",
        "everything on 100200 is fine except the thermos, refund it",
        "the whole order 100200 was fine except the thermos, refund that",
    ],
)
async def test_everything_kept_but_a_thing_refunds_that_thing(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    offer = await say(bot, text)
    assert "129.00" in str(offer["reply"]) and "668.00" not in str(offer["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [129.0]


@pytest.mark.parametrize(
    ("text", "yes", "paid"),
    [
        ("100200 全部退了，空气炸锅除外", "好", [398.0]),
        ("refund everything on 100200 except the air fryer, I mean except the thermos", "yes", []),
        (
            "refund everything on 100200 except the thermos; and the plates, keep those too",
            "yes",
            [],
        ),
        ("退100200|不是全退，空气炸锅不退", "好", []),
    ],
)
async def test_exclusions_said_apart_or_corrected_are_never_the_first_sum(
    tmp_path: Path, text: str, yes: str, paid: list[float]
) -> None:
    bot = bot_for(tmp_path)
    for turn in text.split("|"):
        await say(bot, turn)
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == paid


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("I want a replacement for the thermos on 100200. If you can't, refund me", "yes"),
        ("can you exchange the thermos on 100200? if not, refund", "yes"),
        ("100200保温杯换货，实在不行退款", "好"),
        ("the thermos from 100200 broke - replace it, and if there's no stock, refund", "yes"),
        ("thermos from 100200 is broken. replacement preferred, refund as a last resort", "yes"),
        ("I'd like a new thermos for 100200, otherwise my money back", "yes"),
        ("send me a new thermos (100200) or give me a refund", "yes"),
        ("refund the thermos from 100200 if you have no replacement", "yes"),
        ("100200保温杯坏了，能换吗？不能就退钱", "好"),
        ("100200保温杯坏了，最好是换，实在不行就退款吧", "好"),
        ("please replace the thermos from 100200; if that's not possible, refund it", "yes"),
    ],
)
async def test_more_ways_of_wanting_a_replacement_first_move_no_money(
    tmp_path: Path, text: str, yes: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, yes)
    assert len(await executions(bot, "create_ticket")) == 1
    assert await executions(bot, "create_refund") == []


# --- an item of an order cancelled in Chinese: orders are cancelled whole, so it is explained -----


@pytest.mark.parametrize(
    "text", ["100998只要显示器，手机取消", "100998里的手机取消", "100998 手机取消 显示器留着"]
)
async def test_an_item_cancel_in_chinese_cancels_nothing(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    reply = await say(bot, text)
    assert [t["tool"] for t in reply["tasks"] if t["tool"]] == ["search_faq"]
    await say(bot, "好")
    assert await executions(bot, "cancel_order") == []


# --- a ticket told of before, or asked about, is asked before it is filed -------------------------


@pytest.mark.parametrize(
    "text",
    [
        "100200保温杯坏了，我昨天已经提交过了",
        "100200保温杯坏了 工单号多少",
        "100200的保温杯坏了，提交了有用吗",
    ],
)
async def test_a_ticket_told_of_or_wondered_about_is_never_filed_at_once(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    assert await executions(bot, "create_ticket") == []


async def test_a_ticket_asked_for_in_so_many_words_is_still_filed(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100200保温杯坏了 帮我提交售后")
    assert len(await executions(bot, "create_ticket")) == 1


# --- "refund it" after a fault told: the broken thing, whatever was said to the ticket -----------


@pytest.mark.parametrize(
    ("turns", "yes"),
    [
        (["the thermos from 100200 is broken", "no", "refund it"], "yes"),
        (["100200保温杯坏了", "不用", "退了吧"], "好"),
        (["the thermos from 100200 is broken", "yes", "and refund it too"], "yes"),
        (
            ["the thermos from 100200 is broken", "yes", "I don't want a replacement, refund it"],
            "yes",
        ),
    ],
)
async def test_refund_it_after_a_fault_is_the_broken_thing(
    tmp_path: Path, turns: list[str], yes: str
) -> None:
    bot = bot_for(tmp_path)
    for turn in turns:
        offer = await say(bot, turn)
    assert "129.00" in str(offer["reply"]) and "797.00" not in str(offer["reply"])
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [129.0]


@pytest.mark.parametrize(
    ("first", "more", "yes", "paid"),
    [
        ("refund the thermos on 100200", "yes and also the dinnerware please", "yes", [398.0]),
        # (a part of the set: how much is asked, never the thermos alone on that yes)
        ("refund the thermos on 100200", "yes, and the plates", "yes", []),
        # (session 30: the Chinese sum is worked out too — ¥528 asked, paid once on the yes)
        ("退100200保温杯", "好，空气炸锅也退", "好", [528.0]),
    ],
)
async def test_a_thing_added_at_the_offer_is_never_dropped(
    tmp_path: Path, first: str, more: str, yes: str, paid: list[float]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    asked = await say(bot, more)
    assert "Shall I request a refund of ¥129.00" not in str(asked["reply"])
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == paid


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("my refund for 100609 never arrived, please refund the 433 again", "yes"),
        ("100609的退款没到账 再退一次433", "好"),
    ],
)
async def test_a_refund_said_not_to_have_come_is_shown_never_paid_twice(
    tmp_path: Path, text: str, yes: str
) -> None:
    bot = bot_for(tmp_path)
    shown = await say(bot, text)
    assert "R-000094" in str(shown["reply"])
    await say(bot, yes)
    assert await executions(bot, "create_refund") == []


async def test_a_refund_instead_of_a_ticket_is_for_the_tickets_order(tmp_path: Path) -> None:
    """Not the order looked at last: "instead" is of the ticket just filed."""
    bot = bot_for(tmp_path)
    await say(bot, "the thermos from 100200 is broken")
    await say(bot, "yes")
    await say(bot, "show 100609")
    offer = await say(bot, "refund instead")
    assert "129.00" in str(offer["reply"]) and "100609" not in str(offer["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [129.0]
    assert await refunds_of(bot, "100609") == []


@pytest.mark.parametrize(
    ("turns", "yes"),
    [
        (["the thermos from 100200 is broken", "no, I want a refund"], "yes"),
        (["100200保温杯坏了", "不用了，我要退款"], "好"),
        (["100200保温杯坏了", "不要工单，我要退款"], "好"),
    ],
)
async def test_a_no_to_the_ticket_with_a_refund_asked_offers_the_refund(
    tmp_path: Path, turns: list[str], yes: str
) -> None:
    bot = bot_for(tmp_path)
    for turn in turns:
        offer = await say(bot, turn)
    assert "129.00" in str(offer["reply"])
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [129.0]
    assert await executions(bot, "create_ticket") == []


async def test_a_fault_told_beside_a_replacement_refused_is_still_offered_a_ticket(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    offer = await say(bot, "the thermos from 100200 is broken, I don't want a replacement")
    assert [t["tool"] for t in offer["tasks"] if t["tool"]] == ["create_ticket"]
    assert await executions(bot, "create_ticket") == []  # (asked first)


# --- a second review of this session's changes: answers that only look like a thing picked -------


@pytest.mark.parametrize(
    "answer",
    [
        "no, the thermos stays",
        "yes, the thermos not included",
        "yes, the thermos excepted",
        "no, the thermos I keep",
        "only the first",
    ],
)
async def test_a_thing_kept_in_answer_is_never_refunded_alone(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200")
    await say(bot, answer)
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == []


@pytest.mark.parametrize("answer", ["行，不退了", "好吧，不退了", "嗯，别退了"])
async def test_a_yes_word_before_no_refund_is_a_no(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "退100200")
    reply = await say(bot, answer)
    assert "退多少" not in str(reply["reply"])
    await say(bot, "好")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("first", "answer"),
    [
        ("refund 100 on 100200", "no, the purifier order"),
        ("refund 100200", "no, it's the purifier order that's broken"),
        ("cancel 100904", "no wait, the phone order, only the phone"),
    ],
)
async def test_an_order_described_after_an_amount_or_a_fault_moves_no_money(
    tmp_path: Path, first: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, answer)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    ("turns", "yes", "paid"),
    [
        (["I'd like a refund for everything on 100200 except the thermos"], "yes", [668.0]),
        (["the thermos from 100200 is broken", "no", "refund the order"], "yes", [797.0]),
        (["refund the air fryer on 100200", "yes, the thermos too"], "yes", [528.0]),
        (
            [
                "the thermos from 100200 is broken, I don't want a replacement. if you can't "
                "refund it today I'll dispute the charge"
            ],
            "yes",
            [129.0],
        ),
    ],
)
async def test_what_the_second_review_found_pays_what_was_meant(
    tmp_path: Path, turns: list[str], yes: str, paid: list[float]
) -> None:
    bot = bot_for(tmp_path)
    for turn in turns:
        await say(bot, turn)
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == paid
    assert await executions(bot, "create_ticket") == []
