"""Whole turns session 35 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, calls_of, executions, refunds_of, say

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
    assert calls_of(out) == [("request_refund", order, amount)]
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
    assert not any(tool == "request_refund" for tool, _, _ in calls_of(out))
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []


async def test_a_share_back_asked_for_is_that_share(tmp_path: Path) -> None:
    """ "can i get 30% back on 100200 instead of returning stuff" offered a ticket; now 30% of
    ¥797 is offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, "can i get 30% back on 100200 instead of returning stuff")
    assert [tool for tool, _, _ in calls_of(out)] == ["request_refund"]
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
    assert [tool for tool, _, _ in calls_of(out)] == ["get_order"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- a fault told as the reason of the refund asked -------------------------------------------


async def test_a_fault_beside_a_refund_naming_nothing_is_its_reason(tmp_path: Path) -> None:
    """ "餐具套装到的时候碎了两个碗 … 退269" offered a ticket beside the refund; the fault is why
    the refund is wanted."""
    bot = bot_for(tmp_path)
    out = await say(bot, "餐具套装到的时候碎了两个碗，这套餐具单独退吧，退269")
    assert calls_of(out) == [("request_refund", "100200", 269.0)]
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [269.0]
    assert await executions(bot, "create_ticket") == []


async def test_a_ticket_asked_for_beside_a_refund_is_still_offered(tmp_path: Path) -> None:
    """A pin: a ticket asked for by name stays beside the refund."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100200退100块，再帮我开个工单说盘子碎了")
    tools = [tool for tool, _, _ in calls_of(out)]
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


# --- found by a helper session playing a confused customer (429 conversations) ----------------


@pytest.mark.parametrize(
    "text",
    [
        "退100200的保温杯，100609全退",
        "退100200的保温杯，100609退200",
        "refund the thermos from 100200 and 100 on 100609",
        "refund 100609 200 and 100200's thermos",
    ],
)
async def test_a_things_refund_beside_another_orders_amount_keeps_its_price(
    tmp_path: Path, text: str
) -> None:
    """The thermos's refund took the amount said for 100609 (¥797, ¥200, ¥100), and a 确认
    paid it on 100200. Each order's part of the clause is its own: ¥129 for the thermos."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    by_order = {order: amount for tool, order, amount in calls_of(out) if tool == "request_refund"}
    assert set(by_order) == {"100200", "100609"}
    await say(bot, "确认" if not text.isascii() else "yes")
    assert await refunds_of(bot, "100200") == [129.0]
    assert len(await refunds_of(bot, "100609")) == 1


@pytest.mark.parametrize(
    "text", ["refund 100200 and 100609 for 100", "refund 50 on 100200 and 50 on 100609"]
)
async def test_an_amount_said_of_both_orders_is_not_a_whole_order(
    tmp_path: Path, text: str
) -> None:
    """A pin: parts naming no thing of their own are not read apart (never ¥797 guessed)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "797" not in str(out["reply"])


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("did I already cancel 100904?", "100904"),
        ("did you cancel 100998?", "100998"),
        ("did the cancel of 100998 go through?", "100998"),
        ("did I refund 100200 already?", "100200"),
    ],
)
async def test_whether_a_write_was_done_is_asked_and_shown(
    tmp_path: Path, text: str, order: str
) -> None:
    """Each offered the cancel (¥5198 returned on 100998) or a ¥797 refund, and a yes ran it."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert calls_of(out) == [("get_order", order, None)]
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []


async def test_a_cancel_asked_beside_a_question_is_still_offered(tmp_path: Path) -> None:
    """A pin: a request said with please is no question about a cancel done."""
    bot = bot_for(tmp_path)
    out = await say(bot, "cancel 100998 please, did I pay for it already?")
    assert ("cancel_order", "100998", None) in calls_of(out)


@pytest.mark.parametrize(
    "text",
    [
        "is a human going to call me?",
        "will a human review my refund?",
        "are humans reading this?",
        "人工客服会给我打电话吗？",
        "maybe I should talk to a human",
        "要是还解决不了我就找人工",
        "a human agent already handled this, thanks",
        "what's the hotline? I might need a human later",
    ],
)
async def test_a_person_talked_about_is_no_transfer(tmp_path: Path, text: str) -> None:
    """Each filed a handoff ticket at once (a write nobody asked for)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(tool == "handoff_to_human" for tool, _, _ in calls_of(out))
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "text", ["can a human call me?", "转人工", "I want a human to look at this"]
)
async def test_a_person_asked_for_is_still_a_transfer(tmp_path: Path, text: str) -> None:
    """A pin."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    assert len(await executions(bot, "create_ticket")) == 1


@pytest.mark.parametrize(
    ("first", "then", "yes"),
    [
        ("refund 100 on 100609", "yes and the thermos from 100200", "yes"),
        ("100609退100", "好的，另外100200的保温杯也退", "确认"),
    ],
)
async def test_a_yes_and_another_orders_thing_pays_the_yes_and_asks_the_thing(
    tmp_path: Path, first: str, then: str, yes: str
) -> None:
    """The ¥100 waiting on 100609 was moved to 100200 (dropped without a word) and the next yes
    paid ¥100 on 100200. Now the yes pays ¥100 on 100609 and ¥129 for the thermos is asked."""
    bot = bot_for(tmp_path)
    await say(bot, first)
    out = await say(bot, then)
    assert await refunds_of(bot, "100609") == [100.0]
    assert await refunds_of(bot, "100200") == []
    assert "129.00" in str(out["reply"])
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [129.0]


@pytest.mark.parametrize(
    "then",
    ["yes and where is 100683", "yes and cancel 100998"],
)
async def test_a_yes_and_a_look_or_another_action_is_no_refund_of_it(
    tmp_path: Path, then: str
) -> None:
    """A pin: only a thing named beside "and" becomes a refund."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 on 100609")
    out = await say(bot, then)
    assert not any(
        tool == "request_refund" and order != "100609" for tool, order, _ in calls_of(out)
    )


@pytest.mark.parametrize(
    ("then", "amount"),
    [
        ("I meant the thermos from 100200", 129.0),
        ("make it 100200 but only the thermos", 129.0),
        ("change it to 100200, the air fryer only", 399.0),
    ],
)
async def test_another_orders_thing_meant_is_its_refund_not_the_whole_order(
    tmp_path: Path, then: str, amount: float
) -> None:
    """¥797 (all of 100200) was offered, and a yes paid it."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    out = await say(bot, then)
    assert "797" not in str(out["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [amount]
    assert await refunds_of(bot, "100609") == []


@pytest.mark.parametrize(
    ("then", "amount"),
    [
        ("yes, two hundred", 200.0),
        ("好，三百", 300.0),
        ("确认 五百", 500.0),
        ("可以，一百五", 150.0),
    ],
)
async def test_a_yes_with_an_amount_in_words_asks_that_amount(
    tmp_path: Path, then: str, amount: float
) -> None:
    """The amount in words was ignored: ¥866 was asked again and the next yes paid ¥866."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    out = await say(bot, then)
    assert f"{amount:.2f}" in str(out["reply"])
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes" if then.isascii() else "确认")
    assert await refunds_of(bot, "100609") == [amount]


@pytest.mark.parametrize(
    "text",
    [
        "refund 100609 a couple hundred",
        "100609退个几百",
        "100609退几十块就行",
        "100609退个百八十",
        "refund a few hundred on 100609",
        "refund one fifty on 100609",
        "100609退三十几块",
    ],
)
async def test_a_vague_amount_is_asked_never_a_number_picked(tmp_path: Path, text: str) -> None:
    """¥100, ¥10, ¥180, ¥30 or the whole ¥866 were offered and paid on a yes."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(isinstance(amount, float) for _, _, amount in calls_of(out))
    assert "866.00" in str(out["reply"])  # the most that can be refunded, with the question
    await say(bot, "yes" if text.isascii() else "确认")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("then", ["取消确认", "cancel confirm", "撤销确认"])
async def test_the_confirmation_cancelled_is_asked_again(tmp_path: Path, then: str) -> None:
    """ "取消确认" to "shall I cancel 100998?" ran the cancel (¥5198 sent back)."""
    bot = bot_for(tmp_path)
    await say(bot, "取消100998")
    await say(bot, then)
    assert await executions(bot, "cancel_order") == []


async def test_both_cancelled_in_chinese_runs_both(tmp_path: Path) -> None:
    """ "都取消" to two cancels dropped 100904 and asked about 100998 again."""
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100904 and 100998")
    await say(bot, "都取消")
    assert len(await executions(bot, "cancel_order")) == 2


async def test_both_cancelled_to_one_cancel_is_asked_again(tmp_path: Path) -> None:
    """A pin: "都取消" to one waiting cancel answers nothing asked."""
    bot = bot_for(tmp_path)
    await say(bot, "取消100998")
    await say(bot, "都取消")
    assert await executions(bot, "cancel_order") == []


# --- found by a second helper reviewing this session's change against the code before --------


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("补偿我100块吧，订单100200", "100200"),
        ("compensate me 100. order 100200", "100200"),
        ("补偿我100吧，100200的保温杯坏了", "100200"),
        ("100200的保温杯坏了，补偿我100吧", "100200"),
    ],
)
async def test_compensation_with_its_order_apart_is_one_refund_of_that_amount(
    tmp_path: Path, text: str, order: str
) -> None:
    """A first version offered ¥100 and ¥797 (a 确认 paid ¥797), or the thermos's ¥129."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [c for c in calls_of(out) if c[0] == "request_refund"] == [
        ("request_refund", order, 100.0)
    ]
    await say(bot, "yes" if text.isascii() else "确认")
    assert await refunds_of(bot, order) == [100.0]


@pytest.mark.parametrize(
    "text",
    [
        "did you compensate me 100?",
        "if it's late compensate me 50",
        "will you compensate me 100?",
        "你们说要补偿我100块",
        "如果迟到了就补偿我50块吧",
        "will I get 30% back on 100609?",
    ],
)
async def test_compensation_asked_about_or_on_a_condition_offers_nothing(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "100200")
    await say(bot, "yes" if text.isascii() else "确认")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "then",
    [
        "add the dinnerware set too, a couple of the plates were chipped, refund 50 for those",
        "add the dinnerware set too, the air fryer was damaged",
    ],
)
async def test_more_than_a_reason_after_the_thing_added_is_no_sum(
    tmp_path: Path, then: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund the thermos from 100200")
    out = await say(bot, then)
    assert "398.00" not in str(out["reply"])


@pytest.mark.parametrize(
    "then",
    ["yes and thanks for the thermos from 100200", "yes and the thermos from 100200 is great"],
)
async def test_a_thing_praised_beside_a_yes_is_no_refund(tmp_path: Path, then: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 on 100609")
    out = await say(bot, then)
    assert not any(
        tool == "request_refund" and order == "100200" for tool, order, _ in calls_of(out)
    )
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == []


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("100609退一百八十", 180.0),
        ("我买了好几百的东西，100609退100", 100.0),
        ("refund 100 on 100609, I spent hundreds of dollars here", 100.0),
    ],
)
async def test_an_exact_amount_is_not_taken_for_a_vague_one(
    tmp_path: Path, text: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert ("request_refund", "100609", amount) in calls_of(out)


@pytest.mark.parametrize(
    "text",
    [
        "will a human call me? I want one now",
        "a human agent already handled this, but I want to talk to a human again",
    ],
)
async def test_a_person_asked_for_beside_talk_of_one_is_a_transfer(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    assert len(await executions(bot, "create_ticket")) == 1


@pytest.mark.parametrize("then", ["都取消", "都退了"])
async def test_all_of_them_said_with_another_verb_or_as_told_runs_nothing(
    tmp_path: Path, then: str
) -> None:
    """ "都取消" to two refunds is no yes to them; "都退了" may tell what was done."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 and 100609")
    await say(bot, then)
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("then", ["yes, two", "好的，一"])
async def test_a_small_number_in_words_after_a_yes_is_no_amount(tmp_path: Path, then: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    out = await say(bot, then)
    assert "2.00" not in str(out["reply"]) and "1.00" not in str(out["reply"])
    assert await executions(bot, "create_refund") == []


async def test_a_total_said_of_two_orders_parts_is_no_thing_apart(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "refund the thermos from 100200 and 100609, 200 total")
    assert "129.00" not in str(out["reply"])


async def test_an_amount_in_chinese_numerals_is_quoted_in_the_reply(tmp_path: Path) -> None:
    """ "退我一百块吧" failed validation (¥100.00 matched no data) and the fallback answered."""
    bot = bot_for(tmp_path)
    out = await say(bot, "退我一百块吧")
    assert "100.00" in str(out["reply"])


@pytest.mark.parametrize(
    ("text", "yes", "action"),
    [
        ("did I already cancel 100904? if not cancel it", "yes", "cancel_order"),
        ("did you cancel 100998? if not, cancel it now", "yes", "cancel_order"),
        ("我是不是已经取消了100904 如果没有就帮我取消", "确认", "cancel_order"),
        ("did I refund 100200 already? if not refund the thermos", "yes", "create_refund"),
    ],
)
async def test_a_write_asked_for_if_it_was_not_done_is_offered(
    tmp_path: Path, text: str, yes: str, action: str
) -> None:
    """A first version showed the order and read "if not cancel it" as a no: nothing ran."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert next(tool for tool, _, _ in calls_of(out)) == "get_order"
    assert await executions(bot, action) == []
    await say(bot, yes)
    assert len(await executions(bot, action)) == 1
