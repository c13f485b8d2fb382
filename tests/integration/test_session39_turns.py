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


# --- the refund waiting, asked for again --------------------------------------------------------


@pytest.mark.parametrize(
    "again", ["refund it", "please refund it", "ok refund 100200", "yes, refund 100200", "退吧"]
)
async def test_the_refund_waiting_asked_for_again_keeps_its_amount(
    tmp_path: Path, again: str
) -> None:
    """ "refund 100 on 100200" → "refund it": read as a new request of the whole order, ¥797
    offered, and the next yes paid it. Now the ¥100 waiting is what a yes pays."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 on 100200")
    out = await say(bot, again)
    assert "797" not in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [100.0]


async def test_the_refund_waiting_can_still_become_all_of_it(tmp_path: Path) -> None:
    """A pin: "refund all of it" to ¥100 waiting is the whole ¥797, asked again."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 on 100200")
    out = await say(bot, "refund all of it")
    assert "797.00" in out["reply"]
    await say(bot, "no")
    assert await executions(bot, "create_refund") == []


async def test_another_order_meant_is_not_the_refund_waiting(tmp_path: Path) -> None:
    """A pin (fk-conv-zh-02): "不对，是另一单，净化器那个" moves the refund to 100609."""
    bot = bot_for(tmp_path)
    await say(bot, "100200退款")
    await say(bot, "不对，是另一单，净化器那个")
    await say(bot, "确认")
    assert await refunds_of(bot, "100609") == [866.0]
    assert await refunds_of(bot, "100200") == []


# --- numbers that are no amount -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "order", "whole"),
    [
        ("refund 100609, rated 1 out of 5", "100609", 866.0),
        ("refund 100200 - I ordered it on 8/30", "100200", 797.0),
        ("refund 100609, qty 1", "100609", 866.0),
        ("refund 100609, it only lasted 1 week", "100609", 866.0),
        ("退100609 用了3天就坏了", "100609", 866.0),
    ],
)
async def test_a_rating_a_date_a_count_or_a_time_is_no_amount(
    tmp_path: Path, text: str, order: str, whole: float
) -> None:
    """ "rated 1 out of 5" paid ¥1, "on 8/30" ¥8, "qty 1" and "1 week" ¥1. None of them is an
    amount: the refund is of the order (its whole refundable amount, asked first)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert f"{whole:.2f}" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, order) == [whole]


async def test_some_broken_out_of_many_asks_how_much(tmp_path: Path) -> None:
    """ "refund 100200 the plates, 3 broke out of 16" paid ¥3. Now how much is asked."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 100200 the plates, 3 broke out of 16")
    assert "3.00" not in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    [
        "refund the difference on 100200, the air fryer went down to 299",
        "the air fryer went down to 299, refund the difference on 100200",
    ],
)
async def test_the_difference_is_asked_never_the_new_price(tmp_path: Path, text: str) -> None:
    """ "refund the difference…went down to 299" paid ¥299 (the difference is ¥100)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "299.00" not in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("text", ["refund 100200 shipping fee", "refund 100683 shipping"])
async def test_a_fee_after_the_order_is_asked(tmp_path: Path, text: str) -> None:
    """ "refund 100200 shipping fee" paid ¥797, the whole order."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- conditions, put-offs and words against the write -----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "if 100998 has shipped, refund the monitor",
        "refund 100609 if it wasn't delivered",
        "100609如果没签收就退100",
        "if 100609 isn't delivered refund 100",
        "cancel 100998 if the phone is the 256GB version",
        "refund the thermos in 100200 if it cost less than 100",
        "once 100998 ships, cancel it",
        "if 100998 ships after Friday, cancel it",
        "cancel 100998 when it becomes late",
        "cancel 100998 on Monday",
        "周一再取消100998",
        "after I return the air fryer refund 100200",
        "as soon as you get the thermos back, refund 100200",
        "refund 100200 if the air fryer cost more than 300",
    ],
)
async def test_a_write_on_a_condition_is_shown_not_offered(tmp_path: Path, text: str) -> None:
    """Each offered the write and a yes ran it, whether the condition held or not (100998 has
    not shipped, 100609 was delivered, the phone is 128GB, the thermos cost ¥129), or before
    the day or event named. Now the order is shown and nothing waits."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not [c for c in calls_of(out) if c[0] in ("request_refund", "cancel_order")]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    "text",
    [
        "cancel 100998 if it hasn't shipped yet",
        "Has my order 100998 shipped yet? If it hasn't, cancel it.",
        "没发货的话就取消100998",
        "refund 100200 if possible",
        "如果可以的话帮我取消100998",
        "在吗 100609还能退多少 能退的话全退了吧",
    ],
)
async def test_a_write_on_a_condition_it_settles_itself_is_offered(
    tmp_path: Path, text: str
) -> None:
    """Pins: "if it hasn't shipped" (no shipped order is cancelled), "if possible", "能退的话"
    still offer the write; a yes runs it once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [c for c in calls_of(out) if c[0] in ("request_refund", "cancel_order")]
    await say(bot, "yes")
    done = await executions(bot, "create_refund") + await executions(bot, "cancel_order")
    assert len(done) == 1


@pytest.mark.parametrize(
    "text",
    [
        "100998千万不能取消，我急用",
        "I'd rather die than cancel 100998",
        "the last thing I want is to cancel 100998",
        "cancelling 100998 would be a disaster",
        "取消100998是最坏的选择",
        "I regret asking to cancel 100998",
        "my previous message about cancelling 100998 was a mistake",
        "stop trying to refund 100200",
        "ignore my request to refund 100200",
        "refunding 100200 won't fix anything",
        "my husband already asked you to refund 100200, did you?",
        'you said "Shall I request a refund of ¥797.00 for order 100200?"',
        "can I cancel 100998 and still get the monitor?",
        "if you cancel 100998 I'll never shop here again",
        "the last agent promised a refund of 200 on 100200",
    ],
)
async def test_words_against_a_write_never_offer_it(tmp_path: Path, text: str) -> None:
    """Each offered the cancel (¥5198) or the refund (¥797) and a 好/yes ran it."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not [c for c in calls_of(out) if c[0] in ("request_refund", "cancel_order")]
    await say(bot, "yes")
    await say(bot, "好")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


async def test_an_agent_told_about_files_no_handoff(tmp_path: Path) -> None:
    """ "the previous agent said I'd get a refund for 100609" filed a handoff at once."""
    bot = bot_for(tmp_path)
    await say(bot, "the previous agent said I'd get a refund for 100609")
    assert await executions(bot, "create_ticket") == []


async def test_an_agent_asked_for_is_still_a_handoff(tmp_path: Path) -> None:
    """A pin: "I want an agent" is a transfer."""
    bot = bot_for(tmp_path)
    out = await say(bot, "I want an agent")
    assert [t for t in out["tasks"] if t.get("intent") == "handoff"]


# --- a no after a write done: what was done is never denied -----------------------------------


@pytest.mark.parametrize(
    ("ask", "yes", "no", "denied", "said"),
    [
        ("cancel 100998", "yes", "no wait, don't cancel", "Nothing was changed", "100998"),
        ("refund 100609", "yes", "no don't refund", "no cancellation or refund was made", "100609"),
        ("退100609", "确认", "算了不退了", "没有做任何更改", "100609"),
    ],
)
async def test_a_no_after_the_write_ran_says_it_stands(
    tmp_path: Path, ask: str, yes: str, no: str, denied: str, said: str
) -> None:
    """After the cancel or refund ran, "no wait, don't cancel" was answered "no cancellation or
    refund was made. Nothing was changed." — false. Now the reply names what was done, says it
    stands and how it could be reversed; nothing runs again."""
    bot = bot_for(tmp_path)
    await say(bot, ask)
    await say(bot, yes)
    out = await say(bot, no)
    assert denied not in out["reply"]
    assert said in out["reply"]
    assert not out["validation"].get("fallback")
    done = await executions(bot, "create_refund") + await executions(bot, "cancel_order")
    assert len(done) == 1


async def test_a_no_to_a_new_offer_after_a_write_keeps_both_true(tmp_path: Path) -> None:
    """ "refund 100609" → yes → "cancel 100998" → "no": the cancel is not done and the reply
    does not say no refund was made (one was)."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    await say(bot, "yes")
    await say(bot, "cancel 100998")
    out = await say(bot, "no")
    assert "no cancellation or refund was made" not in out["reply"]
    assert "100609" in out["reply"]
    assert await executions(bot, "cancel_order") == []
    assert len(await executions(bot, "create_refund")) == 1


async def test_a_no_with_nothing_done_still_says_nothing_was_changed(tmp_path: Path) -> None:
    """A pin: "cancel 100998" → "no" with nothing done before says nothing was changed."""
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100998")
    out = await say(bot, "no")
    assert "Nothing was changed" in out["reply"]


# --- pins from a paired review of this session's first versions -------------------------------


@pytest.mark.parametrize(
    ("text", "order", "amount"),
    [
        ("refund 100 out of 797 on 100200", "100200", 100.0),
        ("refund 64.5 out of 129 for the thermos on 100200", "100200", 64.5),
        ("100200 50元 帮我退", "100200", 50.0),
        ("100200 100块 退款", "100200", 100.0),
        ("refund me the difference, 100 yuan, on 100200", "100200", 100.0),
        ("100200退100块差价", "100200", 100.0),
        ("refund 100 on 100200, I can't tell the difference", "100200", 100.0),
        ("the price dropped by 100, refund the difference on 100200", "100200", 100.0),
    ],
)
async def test_an_amount_said_is_the_amount(
    tmp_path: Path, text: str, order: str, amount: float
) -> None:
    """A first version read "100 out of 797" as no amount (¥797 paid), dropped a stated amount
    beside "difference"; "100200 50元 帮我退" paid ¥797 before this session too."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert f"{amount:.2f}" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, order) == [amount]


@pytest.mark.parametrize(
    "text", ["refund 100200 for the 5 days it was late", "refund 100683 for 3 days of delay"]
)
async def test_money_for_days_late_is_asked(tmp_path: Path, text: str) -> None:
    """A pin: compensation for days late asks how much (a first version offered the order)."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    ["保温杯一装热水就漏，退100200", "空气净化器一开就响，退100609"],
)
async def test_a_lone_yi_before_a_verb_is_no_amount(tmp_path: Path, text: str) -> None:
    """ "保温杯一装热水就漏" (as soon as it holds hot water) paid ¥1.00 (before this session
    too)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not [c for c in calls_of(out) if c[2] == 1.0]
    await say(bot, "确认")
    assert 1.0 not in await refunds_of(bot, "100200") + await refunds_of(bot, "100609")


@pytest.mark.parametrize(
    "text",
    [
        "refund the air fryer and not the thermos from 100200",
        "refund the air fryer and skip the thermos from 100200",
    ],
)
async def test_a_thing_left_out_is_never_summed_in(tmp_path: Path, text: str) -> None:
    """A first version summed the thermos it was told to leave out (¥528)."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert 528.0 not in await refunds_of(bot, "100200")


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("refund 100200, the thermos leaks when it is hot", "request_refund"),
        ("cancel 100998 since I won't be home when it arrives", "cancel_order"),
        ("cancel 100998 I'll order again when it is cheaper", "cancel_order"),
        ("refund 100200, i can send photos if you need them", "request_refund"),
        ("取消100998，如果有问题请联系我", "cancel_order"),
        ("保温杯要是装热水就漏，退款100200", "request_refund"),
        ("refund 100200 i sent it back on monday", "request_refund"),
        ("100998 不等了 就取消吧", "cancel_order"),
        ("cancel 100998 if it's no trouble", "cancel_order"),
        ("I would appreciate if you cancel 100998", "cancel_order"),
        ("如果不麻烦的话帮我取消100998", "cancel_order"),
        ("refund 100200 if posible", "request_refund"),
        ("ignore my last message and cancel 100998", "cancel_order"),
        ("cancel 100998, keeping it would be a mistake", "cancel_order"),
        ("退100200的保温杯，可别退错了", "request_refund"),
        ("I want a refund for 100200, a replacement won't help", "request_refund"),
        ("I'd be happy if you refund 100200", "request_refund"),
        ("refund 100200 i sent it back over the weekend", "request_refund"),
        ("cancel 100998 when you have a moment", "cancel_order"),
        ("refund 100200 the air fryer trips the breaker when I turn it on", "request_refund"),
        ("cancel 100998 - when I get the refund can you email me?", "cancel_order"),
        ("退款100683 要是到了我就拒收", "request_refund"),
        ("取消100998，等降价了再买", "cancel_order"),
        ("100998等太久了就取消了吧", "cancel_order"),
        ("取消100998 可别取消成别的订单了", "cancel_order"),
        ("cancel 100998 if yall can", "cancel_order"),
    ],
)
async def test_a_plain_request_beside_a_condition_of_something_else_is_offered(
    tmp_path: Path, text: str, tool: str
) -> None:
    """Pins: a first version held each as a write on a condition or against the write."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert tool in [c[0] for c in calls_of(out)]


@pytest.mark.parametrize(
    "text", ["I want an agent before I cancel 100998", "can I speak to another agent"]
)
async def test_a_person_asked_for_is_a_transfer(tmp_path: Path, text: str) -> None:
    """Pins: a first version's "agent said" reading took these for an agent told about."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [t for t in out["tasks"] if t.get("intent") == "handoff"]
    assert await executions(bot, "cancel_order") == []


async def test_the_total_to_a_part_waiting_is_all_of_it(tmp_path: Path) -> None:
    """A pin: "refund the total amount" to ¥100 waiting is ¥797 (a first version kept ¥100)."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 on 100200")
    out = await say(bot, "refund the total amount")
    assert "797.00" in out["reply"]


async def test_a_yes_changing_one_of_two_refunds_changes_that_one(tmp_path: Path) -> None:
    """ "yes but 200 for 100200" to ¥100 on each of 100200 and 100609 asked both again at ¥100
    and the next yes paid ¥100 on 100200."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 on 100200 and 100 on 100609")
    out = await say(bot, "yes but 200 for 100200")
    assert "200.00" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [200.0]
    assert await refunds_of(bot, "100609") == [100.0]


async def test_a_cancel_of_an_order_named_by_one_item_says_what_else_goes(tmp_path: Path) -> None:
    """ "cancel the phone order" asked to cancel 100998 without saying the monitor goes too."""
    bot = bot_for(tmp_path)
    out = await say(bot, "cancel the phone order")
    assert "Monitor" in out["reply"] and "all of it" in out["reply"]
    await say(bot, "yes")
    assert len(await executions(bot, "cancel_order")) == 1


@pytest.mark.parametrize(
    ("text", "yes"),
    [("退款100609 不然我就投诉", "确认"), ("refund 100609 or I'll complain", "yes")],
)
async def test_a_complaint_threatened_beside_a_refund_files_no_ticket(
    tmp_path: Path, text: str, yes: str
) -> None:
    """ "退款100609 不然我就投诉" + 确认 filed a complaint ticket as well as the refund (before
    this session too): the complaint was threatened, not asked for."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, yes)
    assert await refunds_of(bot, "100609") == [866.0]
    assert await executions(bot, "create_ticket") == []


async def test_a_complaint_asked_beside_a_refund_is_still_filed_on_a_yes(tmp_path: Path) -> None:
    """A pin: "退款100609 另外我要投诉快递太慢" asks for both."""
    bot = bot_for(tmp_path)
    await say(bot, "退款100609 另外我要投诉快递太慢")
    await say(bot, "确认")
    assert len(await executions(bot, "create_ticket")) == 1
