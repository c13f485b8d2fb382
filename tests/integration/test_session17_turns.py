"""Whole conversations session 17 found moving money wrongly or filing unasked: a correction
to another order offered as that whole order, "only" another item read as a yes to the first,
pieces of other names naming items, a unit price taken as the refund, put-off yeses, questions
about tickets filing new ones. Run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpdesk.app.session import run_turn
from tests.integration.test_trust import bot_for, executions, refunds_of, say


@pytest.mark.parametrize(
    ("first", "correction", "order_id", "amount"),
    [
        # the thing named goes along to the corrected order; 100609 holds no thermos: asked
        ("refund the thermos from 100200", "no, 100609", "100609", None),
        ("把100200里的保温杯退了", "不对，100609", "100609", None),
        # a share goes along too: half of what 100609 cost
        ("refund half of 100200", "no, 100609", "100609", 649.5),
    ],
)
async def test_a_corrected_order_keeps_the_part_named_never_the_whole_new_order(
    tmp_path: Path, first: str, correction: str, order_id: str, amount: float | None
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    out = await say(bot, correction)
    assert "866.00（即全部" not in out["reply"] and "whole refundable" not in out["reply"]
    await say(bot, "yes" if first.isascii() else "确认")
    assert await refunds_of(bot, order_id) == ([] if amount is None else [amount])
    assert await refunds_of(bot, "100200") == []


async def test_only_another_item_of_the_order_is_a_new_request_not_a_yes(tmp_path: Path) -> None:
    # "只退手机" to the monitor's refund question: the phone's refund asked, the monitor's not
    bot = bot_for(tmp_path)
    await say(bot, "100998只退显示器")
    out = await say(bot, "只退手机")
    assert "2999.00" in out["reply"]
    await say(bot, "是")
    assert await refunds_of(bot, "100998") == [2999.0]


async def test_only_the_action_among_several_still_keeps_it(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 and cancel 100998")
    await say(bot, "only the cancel")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert len(await executions(bot, "cancel_order")) == 1


@pytest.mark.parametrize(
    ("customer", "message"),
    [
        ("C0006", "100595只退衣服"),  # no "熨衣服" steamer
        ("C0001", "100683 退手机"),  # no "手机膜" protector
        ("C0001", "100200 退汤锅"),  # no "汤" thermos
    ],
)
async def test_a_piece_of_another_name_never_names_an_item(
    tmp_path: Path, customer: str, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await run_turn(bot, message, session="s", customer=customer)
    assert all(r["status"] != "needs_confirmation" for r in out["tool_results"])
    await run_turn(bot, "确认", session="s", customer=customer)
    assert await executions(bot, "create_refund") == []


async def test_a_price_of_one_beside_a_count_is_no_refund_amount(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await run_turn(bot, "100079 退2个窗帘 每个239元", session="s", customer="C0004")
    assert "239.00" not in out["reply"]
    await run_turn(bot, "是", session="s", customer="C0004")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "message",
    ["I don't want to send back the air fryer", "do I need to send it back?", "要寄回去吗"],
)
async def test_whether_to_send_back_is_answered_and_files_nothing(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert "7" in out["reply"]  # the returns policy
    await say(bot, "yes" if message.isascii() else "好")
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    ("first", "answer", "yes"),
    [
        ("refund 300 on 100200", "yes 50 but dont refund yet", "yes"),
        ("100200退200块", "好的，先别退", "好"),
        ("100200退200块", "换货可以吗", "好"),
        ("refund 300 on 100200", "can I get a replacement instead?", "ok"),
    ],
)
async def test_a_yes_put_off_or_an_alternative_weighed_leaves_nothing_waiting(
    tmp_path: Path, first: str, answer: str, yes: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, answer)
    await say(bot, yes)
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("message", "paid"),
    [
        ("refund the thermos from 100200, keep the rest", 129.0),
        ("100200 退保温杯 剩下的留着", 129.0),
    ],
)
async def test_the_rest_kept_is_only_the_item_named(
    tmp_path: Path, message: str, paid: float
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert f"{paid:.2f}" in out["reply"]
    await say(bot, "yes" if message.isascii() else "确认")
    assert await refunds_of(bot, "100200") == [paid]


@pytest.mark.parametrize(
    "message",
    ["100200炸锅坏了，不用帮我处理", "my air fryer from 100200 is broken, just letting you know"],
)
async def test_a_fault_told_with_nothing_asked_files_nothing(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes" if message.isascii() else "好")
    assert await executions(bot, "create_ticket") == []


# ---- the review of the first round of session 17 ----


@pytest.mark.parametrize(
    ("first", "answer", "paid"),
    [
        ("refund the thermos from 100200", "just refund it already", 129.0),
        ("refund half of 100200", "just refund it quickly", 398.5),
        ("100200退200块", "只退款 赶紧的", 200.0),
        ("100200退200块", "只要退款 麻烦了", 200.0),
        ("refund the monitor from 100998", "just refund it asap", 2199.0),
    ],
)
async def test_an_impatient_only_is_no_new_request_for_the_whole_order(
    tmp_path: Path, first: str, answer: str, paid: float
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, answer)
    await say(bot, "yes" if first.isascii() else "是")
    assert sum(await refunds_of(bot, "100200")) + sum(await refunds_of(bot, "100998")) == paid


async def test_only_refund_it_beside_a_waiting_cancel_never_refunds_that_order(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 and cancel 100998")
    await say(bot, "just refund it already")
    await say(bot, "yes")
    assert await refunds_of(bot, "100998") == []
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    ("first", "correction", "order_id", "paid"),
    [
        ("refund half of 100200", "sorry I meant 100609, full refund", "100609", 866.0),
        ("refund half of 100200", "不对，100609 全退", "100609", 866.0),
        # (100998, paid and not shipped, is cancelled whole, never refunded: session 23)
        ("refund a third of 100200", "不对，100683 全退", "100683", 29.0),
        ("refund the thermos from 100200", "不对，100609 全退", "100609", 866.0),
    ],
)
async def test_full_said_with_a_correction_is_the_new_orders_whole(
    tmp_path: Path, first: str, correction: str, order_id: str, paid: float
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, correction)
    await say(bot, "yes")
    assert await refunds_of(bot, order_id) == [paid]


@pytest.mark.parametrize(
    ("first", "answer"),
    [
        ("cancel 100998", "yes, it's not shipped yet, cancel it"),
        ("refund the thermos from 100200", "yes, I have not used it yet"),
        ("refund the thermos from 100200", "可以，先不用寄回吧"),
    ],
)
async def test_not_yet_about_something_else_is_no_decline(
    tmp_path: Path, first: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    out = await say(bot, answer)
    assert "nothing will be done" not in out["reply"] and "不做任何操作" not in out["reply"]


@pytest.mark.parametrize(
    "message",
    [
        "cancel the phone but keep the monitor",
        "could I cancel just the smartphone and keep the monitor?",
        "只取消手机 100998",
    ],
)
async def test_cancelling_one_item_of_an_order_offers_no_cancel(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes" if message.isascii() else "是")
    assert await executions(bot, "cancel_order") == []


async def test_a_ticket_offer_declined_with_no_need_to_do_anything_files_nothing(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "my air fryer from 100200 is broken")
    out = await say(bot, "no need to do anything")
    assert "nothing will be done" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    ("customer", "message"),
    [
        ("C0001", "我记得我投诉过一次，那个投诉怎么样了"),
        ("C0001", "Is anyone even looking at my complaint?"),
        ("C0032", "我之前还提过一个破损的售后单，有人跟进吗"),
        ("C0001", "我上周就要求转人工了，到现在都没人联系我"),
    ],
)
async def test_asking_after_a_complaint_made_files_no_second_one(
    tmp_path: Path, customer: str, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await run_turn(bot, message, session="s", customer=customer)
    assert all(r["status"] != "needs_confirmation" for r in out["tool_results"])
    await run_turn(bot, "好" if not message.isascii() else "yes", session="s", customer=customer)
    assert await executions(bot, "create_ticket") == []


async def test_a_question_beside_the_amount_asked_for_is_no_amount(tmp_path: Path) -> None:
    # "how much?" -> a question with "the rest" in it: not the whole order
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 one of them")
    await say(bot, "and the other order, when will the rest of it get here?")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_things_counted_while_a_ticket_waits_are_no_change_to_it(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100200炸锅坏了")
    out = await say(bot, "另外键盘那单分了两个包裹，帮我看看都到哪了")
    assert all(r["status"] != "needs_confirmation" for r in out["tool_results"])
    await say(bot, "行，谢谢")
    assert await executions(bot, "create_ticket") == []


# ---- the second review (8b51409): what the first fixes broke ----


@pytest.mark.parametrize(
    ("first", "answer", "order_id", "paid"),
    [
        ("refund the thermos from 100200", "yes just refund the item", "100200", [129.0]),
        ("refund the thermos from 100200", "just refund the product", "100200", [129.0]),
        ("refund the monitor from 100998", "yes just refund the bottle", "100200", []),
        ("refund 300 on 100200", "好，其他的不用了", "100200", [300.0]),
        ("refund the thermos from 100200", "只退就行", "100200", [129.0]),
        ("refund the thermos from 100200", "只退这个商品", "100200", [129.0]),
        ("refund half of 100200", "no I meant 100609, 200 yuan", "100609", [200.0]),
    ],
)
async def test_an_answer_with_a_general_word_never_pays_the_whole_order(
    tmp_path: Path, first: str, answer: str, order_id: str, paid: list[float]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, answer)
    await say(bot, "yes" if answer.isascii() else "是")
    assert await refunds_of(bot, order_id) == paid


async def test_just_refund_the_item_beside_a_waiting_cancel_refunds_nothing(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消100998")
    await say(bot, "yes just refund the item")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("turns", "cancels"),
    [
        (["just cancel please 100904", "yes"], 1),
        (["cancel 100904 but keep my other orders", "yes"], 1),
        (["check 100904", "just cancel the thing", "yes"], 1),
        (["cancel 100998", "只取消就行", "是"], 1),
        (["refund the thermos from the order 100200 and cancel 100904", "yes"], 1),
        (["cancel the phone but keep the monitor", "yes"], 0),
        # the fourth review: an item named after "只取消" is no cancel of "this order"
        (["100998只取消这单里的手机", "是", "好"], 0),
        (["100998只取消一下手机", "是"], 0),
        (["100998只取消这单", "是"], 1),
    ],
)
async def test_everyday_cancel_words_still_cancel_and_an_item_never_does(
    tmp_path: Path, turns: list[str], cancels: int
) -> None:
    bot = bot_for(tmp_path)
    for text in turns:
        await say(bot, text)
    assert len(await executions(bot, "cancel_order")) == cancels


@pytest.mark.parametrize(
    "message",
    [
        "just letting you know my 100683 is late, please open a complaint",
        "我只是说一下，100683太慢了，我要投诉",
    ],
)
async def test_a_complaint_asked_for_beside_just_letting_you_know_is_filed(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes" if message.isascii() else "是")
    assert len(await executions(bot, "create_ticket")) == 1


@pytest.mark.parametrize(
    ("first", "answers", "paid"),
    [
        ("refund 300 on 100200", ["确认，另外换货流程是什么", "是"], [300.0]),
        (
            "refund 300 on 100200",
            ["I'd rather not swap it, how many days for the refund?", "yes"],
            [300.0],
        ),
        ("refund part of 100200", ["can you do 200?", "yes"], [200.0]),
        ("refund the air fryer from 100200 and everything else", ["yes"], [797.0]),
    ],
)
async def test_what_the_customer_clearly_asked_still_runs(
    tmp_path: Path, first: str, answers: list[str], paid: list[float]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    for text in answers:
        await say(bot, text)
    assert await refunds_of(bot, "100200") == paid


# ---- the third review (9516b93): what the second round of fixes broke ----


@pytest.mark.parametrize(
    ("turns", "cancels", "tickets"),
    [
        (["cancel the unpaid order and keep the phone", "yes"], 1, 0),
        (["where is 100998?", "cancel it but keep my preferences", "yes"], 1, 0),
        (["取消100998", "只取消本单", "是"], 1, 0),
        (["I bought the wrong model, cancel 100998", "yes"], 1, 0),
        (
            [
                "my thermos from 100200 leaks, no need to do anything fancy, just send me a "
                "replacement",
                "yes",
            ],
            0,
            1,
        ),
        (["100200炸锅坏了，不用跟进，直接给我换货", "是"], 0, 1),
        (["我报过好几次售后都没人管我要投诉", "是"], 0, 1),
        (
            [
                "check my tickets, and the thermos I opened from 100200 is leaking, I need a "
                "replacement",
                "yes",
            ],
            0,
            1,
        ),
    ],
)
async def test_what_was_clearly_asked_is_done_once(
    tmp_path: Path, turns: list[str], cancels: int, tickets: int
) -> None:
    bot = bot_for(tmp_path)
    for text in turns:
        await say(bot, text)
    assert len(await executions(bot, "cancel_order")) == cancels
    assert len(await executions(bot, "create_ticket")) == tickets


@pytest.mark.parametrize(
    ("turns", "order_id", "paid"),
    [
        (["refund 100200", "好的，其他的先不要了", "是"], "100200", [797.0]),
        (["refund 300 on 100200", "sure - no point to hold off", "yes"], "100200", [300.0]),
        (
            ["refund 300 on 100200", "yes, I haven't opened the box, not yet", "yes"],
            "100200",
            [300.0],
        ),
        (["refund 100200", "just refund my card", "yes"], "100200", [797.0]),
        (["refund 100200", "只退到卡里", "是"], "100200", [797.0]),
        (["refund the thermos from 100200 and don't keep the rest", "yes"], "100200", [797.0]),
        (["refund the thermos from 100200", "no, 100609", "200", "yes"], "100609", [200.0]),
        (
            ["refund part of 100609", "how about 200? it's only fair after all this", "yes"],
            "100609",
            [200.0],
        ),
        (["did u get my email i need a refund on 100609", "yes"], "100609", [866.0]),
    ],
)
async def test_what_was_clearly_asked_is_paid_as_asked(
    tmp_path: Path, turns: list[str], order_id: str, paid: list[float]
) -> None:
    bot = bot_for(tmp_path)
    for text in turns:
        await say(bot, text)
    assert await refunds_of(bot, order_id) == paid


# ---- the fourth review (fc17ff5) ----


@pytest.mark.parametrize(
    "answer",
    [
        "yes but not yet",
        "ok... not yet",
        "hold on, don't do it yet, the rest can wait",
        "好的，先不要退，剩下的再说",
    ],
)
async def test_the_action_put_off_is_not_run(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 300 on 100200")
    await say(bot, answer)
    await say(bot, "yes" if answer.isascii() else "是")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("message", "cancels"),
    [
        ("cancel the phone on 100998 but keep the monitor please", 0),
        ("100998: cancel the phone, keep the monitor", 0),
        ("cancel just the phone on 100998", 0),
        ("帮我把100998里的手机取消掉，其他的保留", 0),
        ("cancel the phone order 100998", 1),
        ("refund the thermos from the order 100200 and cancel 100904", 1),
    ],
)
async def test_an_item_of_a_named_order_is_never_the_orders_cancel(
    tmp_path: Path, message: str, cancels: int
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes" if message.isascii() else "是")
    assert len(await executions(bot, "cancel_order")) == cancels
