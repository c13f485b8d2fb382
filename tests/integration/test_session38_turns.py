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


# --- negations: how phones and hurried customers write them ----------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "don’t cancel 100998",
        "Don’t cancel 100998!!",
        "I don’t want to cancel 100998",
        "donot cancel 100998",
        "i decided against cancelling 100998",
        "keep 100998, cancel nothing",
        "stop the cancellation of 100998",
        "cancel 100998 (not really)",
        "不必取消100998",
        "100998用不着取消",
        "100998 不用你取消",
        "取消100998这个先放一放",
    ],
)
async def test_a_cancel_said_not_to_happen_is_never_offered(tmp_path: Path, text: str) -> None:
    """Each of these offered the cancel of 100998 (¥5198) and a yes ran it: a phone's
    apostrophe (’) was no negation, and these words were none either."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "cancel_order" not in [c[0] for c in calls_of(out)]
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    "text",
    [
        "don’t refund 100609, just checking",
        "you don't need to refund 100609",
        "refunding 100609 won't be necessary",
        "no refnd 100609",
        "无需退款100609",
        "没必要退100609",
        "100609退款就不必了",
        "退款100609作废",
    ],
)
async def test_a_refund_said_not_to_happen_is_never_offered(tmp_path: Path, text: str) -> None:
    """Each of these offered ¥866 on 100609 and a yes paid it."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "request_refund" not in [c[0] for c in calls_of(out)]
    await say(bot, "好的")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text", ["don’t cancel 100998 but refund 100609", "不要取消100998 但是退款100609"]
)
async def test_the_other_action_after_a_refusal_is_the_only_one(tmp_path: Path, text: str) -> None:
    """ "don’t cancel 100998 but refund 100609" + yes cancelled 100998 and refunded 100609; with
    a straight apostrophe both were dropped. Now only the refund is offered, and paid once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert calls_of(out) == [(None, None, None), ("request_refund", "100609", None)]
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []
    assert await refunds_of(bot, "100609") == [866.0]


async def test_cancel_it_then_forget_it_is_still_a_cancel(tmp_path: Path) -> None:
    """A pin: "取消100998算了" (just cancel it) is a cancel."""
    bot = bot_for(tmp_path)
    out = await say(bot, "取消100998算了")
    assert calls_of(out) == [("cancel_order", "100998", None)]


# --- conditions the bot cannot check, threats, and questions about a cancel --------------------


@pytest.mark.parametrize(
    ("text", "order", "yes"),
    [
        ("refund 100 on 100609 if the price dropped", "100609", "yes"),
        ("refund 100609 if the item is defective", "100609", "yes"),
        ("ship 100998 today or i'll cancel it", "100998", "sure"),
        ("显示器没货的话就取消100998", "100998", "好的"),
        ("100998今天发货 否则我就取消", "100998", "好的"),
        ("你们怎么把我的100998取消了", "100998", "嗯"),
        ("为什么把100998取消了", "100998", "嗯"),
        ("取消100998的话优惠券还在吗", "100998", "好的"),
        ("if I cancel 100998, will my coupon still work?", "100998", "yes"),
    ],
)
async def test_a_write_on_a_condition_or_a_threat_is_only_shown(
    tmp_path: Path, text: str, order: str, yes: str
) -> None:
    """Each offered the write (a refund of 100609, the cancel of 100998) and a yes ran it. Now
    the order is shown, and a yes runs nothing."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert ("get_order", order, None) in calls_of(out)
    assert not {"request_refund", "cancel_order"} & {c[0] for c in calls_of(out)}
    await say(bot, yes)
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    "text", ["refund 100200, the thermos is defective", "cancel 100998 or I'll complain"]
)
async def test_a_reason_or_a_complaint_threat_beside_a_write_keeps_it(
    tmp_path: Path, text: str
) -> None:
    """Pins: a fault told as the reason, and a threat to complain, keep the write asked for."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert {"request_refund", "cancel_order"} & {c[0] for c in calls_of(out)}


# --- an order named by its place is asked, never guessed --------------------------------------


@pytest.mark.parametrize(
    ("turns", "yes"),
    [
        (["show order 100904", "show order 100998", "cancel the first one"], "yes"),
        (["查一下100904", "查一下100998", "取消刚才第一个"], "好的"),
        (["tell me about 100609", "and 100200", "refund 100 on the first"], "yes"),
        (["show 100609", "and 100200", "refund both"], "yes"),
    ],
)
async def test_a_write_on_the_first_one_asks_which_order(
    tmp_path: Path, turns: list[str], yes: str
) -> None:
    """ "cancel the first one" after looking at 100904 then 100998 offered the cancel of
    100998 (the last one talked about, ¥5198) and a yes ran it; "refund 100 on the first"
    refunded 100200; "refund both" offered 100200 alone. Now the order is asked for, and a yes
    runs nothing."""
    bot = bot_for(tmp_path)
    for text in turns[:-1]:
        await say(bot, text)
    out = await say(bot, turns[-1])
    assert [c[1] for c in calls_of(out)] == [None]
    await say(bot, yes)
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []


async def test_the_first_of_two_waiting_actions_is_still_that_one(tmp_path: Path) -> None:
    """A pin: with two refunds waiting, "the first one" is the first of them."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 on 100609 and 100 on 100200")
    await say(bot, "yes for the first one")
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [100.0]
    assert await refunds_of(bot, "100200") == []


# --- corrections and one amount for two things -----------------------------------------------


async def test_a_correction_to_another_orders_thing_refunds_that_thing(tmp_path: Path) -> None:
    """ "退100609" → "我说错了，退100200的保温杯" → "好的" paid ¥797 (all of 100200); the English
    correction paid the thermos. Now it is ¥129, once, and nothing on 100609."""
    bot = bot_for(tmp_path)
    await say(bot, "退100609")
    out = await say(bot, "我说错了，退100200的保温杯")
    assert ("request_refund", "100200", None) in calls_of(out)
    await say(bot, "好的")
    assert await refunds_of(bot, "100200") == [129.0]
    assert await refunds_of(bot, "100609") == []


async def test_one_amount_for_two_things_is_one_refund(tmp_path: Path) -> None:
    """ "refund 300 for the air fryer and thermos in 100200" offered ¥300 and the thermos's
    ¥129 apart, and a yes paid both (¥429). Now one refund of ¥300."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 300 for the air fryer and thermos in 100200")
    assert calls_of(out) == [("request_refund", "100200", 300.0)]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [300.0]


# --- a change of mind at the yes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "change", "yes"),
    [
        ("cancel 100998", "yes but only the monitor", "yes"),
        ("取消100998", "好的 只取消显示器", "好的"),
    ],
)
async def test_a_yes_for_part_of_an_order_cancels_nothing(
    tmp_path: Path, first: str, change: str, yes: str
) -> None:
    """ "cancel 100998" → "yes but only the monitor" asked the whole cancel again without a
    word, and a yes cancelled the phone too. Now the policy (an order is cancelled whole) is
    the answer and nothing waits."""
    bot = bot_for(tmp_path)
    await say(bot, first)
    out = await say(bot, change)
    assert ("search_faq", None, None) in calls_of(out)
    await say(bot, yes)
    assert await executions(bot, "cancel_order") == []


async def test_a_refund_moved_to_another_thing_is_that_things(tmp_path: Path) -> None:
    """ "refund 100609" → "ok do it for the thermos instead" asked ¥866 on 100609 again and a
    yes paid it. Now the thermos's order (100200) is offered its price, once."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    await say(bot, "ok do it for the thermos instead")
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [129.0]
    assert await refunds_of(bot, "100609") == []


# --- whether a refund can be, asked ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("can 100609 be refunded", "yes"),
        ("在哪里申请退款 100609", "对"),
        ("100609 可以退一百块吗？", "嗯"),
    ],
)
async def test_whether_a_refund_can_be_is_answered(tmp_path: Path, text: str, yes: str) -> None:
    """Each offered a refund (¥866, ¥866, ¥100) and a yes paid it. Now the order and what is
    refundable are shown."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert ("get_order", "100609", None) in calls_of(out)
    assert "866" in out["reply"]
    await say(bot, yes)
    assert await executions(bot, "create_refund") == []


async def test_an_amount_asked_then_asked_for_is_that_amount(tmp_path: Path) -> None:
    """ "100609 可以退一百块吗 帮我退了吧" (a space after the order) offered all ¥866. Now the
    ¥100 asked about is offered, and paid once."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100609 可以退一百块吗 帮我退了吧")
    assert calls_of(out) == [("request_refund", "100609", 100.0)]
    await say(bot, "好的")
    assert await refunds_of(bot, "100609") == [100.0]


async def test_a_thing_and_the_rest_of_its_order_is_one_refund(tmp_path: Path) -> None:
    """ "refund 129 for the thermos and the rest of 100200" offered ¥129 and ¥797 apart; a yes
    ran both, and the shop refused the second. Now one refund of the whole ¥797."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 129 for the thermos and the rest of 100200")
    assert calls_of(out) == [("request_refund", "100200", None)]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [797.0]


@pytest.mark.parametrize(
    "text", ["someone refunded 100609 without asking me?", "who refunded 100609?"]
)
async def test_a_refund_made_asked_about_is_shown(tmp_path: Path, text: str) -> None:
    """ "who refunded 100609?" offered a refund of everything left; "someone refunded 100609
    without asking me?" asked how much to refund (an answer of 433 and a yes paid it). Now the
    order and its refunds are shown."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert calls_of(out) == [("get_order", "100609", None)]
    await say(bot, "433")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("yes", ["just do it", "yes just do it"])
async def test_just_do_it_is_a_yes(tmp_path: Path, yes: str) -> None:
    """ "yes just do it" to a waiting cancel was not understood (asked again)."""
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100998")
    await say(bot, yes)
    assert len(await executions(bot, "cancel_order")) == 1


# --- pins from the second review: what the first versions of these changes broke -------------


@pytest.mark.parametrize(
    ("text", "tool", "order"),
    [
        ("100998的显示器没货的话也没关系，取消吧", "cancel_order", "100998"),
        ("not sure if it's out of stock but cancel 100998 anyway", "cancel_order", "100998"),
        ("cancel 100998 or else I'll want my money back", "cancel_order", "100998"),
        ("cancel 100998 without cancellation fees please", "cancel_order", "100998"),
        ("cancel 100998, I'm not really using it", "cancel_order", "100998"),
        ("取消100998 优惠券作废也没关系", "cancel_order", "100998"),
        ("帮我退款100609 不用联系我", "request_refund", "100609"),
        ("无需退货 直接退款100609", "request_refund", "100609"),
        ("refund 100609, a ticket isn't needed", "request_refund", "100609"),
    ],
)
async def test_a_write_asked_for_beside_words_like_a_no_is_still_offered(
    tmp_path: Path, text: str, tool: str, order: str
) -> None:
    """Pins: the first versions of this session's negations and conditions dropped these."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert (tool, order) in [(c[0], c[1]) for c in calls_of(out)]


@pytest.mark.parametrize(
    "text",
    [
        "don't cancel 100998 but refund 100609. no wait, don't refund it either",
        "不要取消100998 但是退款100609？",
        "if you don't cancel 100998 it's fine too",
        "If you don't refund 100609, that's fine, I'll keep it",
        "不用退款100609 我就去投诉快递",
    ],
)
async def test_a_write_taken_back_or_let_go_runs_nothing(tmp_path: Path, text: str) -> None:
    """Pins: the first versions of this session's changes paid or cancelled on these."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


async def test_refund_this_order_after_praising_another_thing_is_this_order(
    tmp_path: Path,
) -> None:
    """A pin: "show order 100609" → "thanks. the air fryer works great. now refund this order"
    was offered on 100200 (the air fryer's) by a first version; "this order" is 100609."""
    bot = bot_for(tmp_path)
    await say(bot, "show order 100609")
    out = await say(bot, "thanks. the air fryer works great. now refund this order")
    assert [c[1] for c in calls_of(out) if c[0] == "request_refund"] in ([], ["100609"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == []


@pytest.mark.parametrize(
    "text", ["I won’t cancel 100998, refund 100609 instead", "I'm not going to cancel 100998"]
)
async def test_i_wont_cancel_cancels_nothing(tmp_path: Path, text: str) -> None:
    """ "I won’t cancel 100998, refund 100609 instead" + yes cancelled 100998 (¥5198) and
    refunded 100609 — before this session and after its first fixes."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []
