"""Whole turns session 36 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, calls_of, executions, refunds_of, say

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
    assert calls_of(out) == [("request_refund", "100609", None)]
    assert "866" in out["reply"]
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [866.0]


async def test_a_decimal_amount_is_still_an_amount(tmp_path: Path) -> None:
    """A pin: "100.5" after an order number stays an amount of its own."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 100.5 on 100609")
    assert calls_of(out) == [("request_refund", "100609", 100.5)]


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
    assert [(tool, order) for tool, order, _ in calls_of(out)] == [("cancel_order", "100998")]
    await say(bot, "确认" if "取消" in text else "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]


@pytest.mark.parametrize("text", ["手机那单和空气炸锅那单，帮我取消一个", "帮我取消一个"])
async def test_one_of_them_cancelled_with_none_said_is_asked(tmp_path: Path, text: str) -> None:
    """Which one, the words do not say: the order is asked for, nothing is offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [order for _, order, _ in calls_of(out)] == [None]
    await say(bot, "确认")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize("text", ["100998不要了吗", "手机那单不要了吗？"])
async def test_whether_an_order_is_not_wanted_asked_is_no_cancel(tmp_path: Path, text: str) -> None:
    """ "100998不要了吗" offered the cancel (a question made a write task)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(tool == "cancel_order" for tool, _, _ in calls_of(out))
    await say(bot, "确认")
    assert await executions(bot, "cancel_order") == []


# --- a person, and what the bot can do --------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Is there a way to talk to a person without opening a ticket?",
        "Is there a way to talk to a person without opening a ticket? just asking, don't "
        "transfer me yet",
        "有没有办法联系到人工客服",
    ],
)
async def test_how_to_reach_a_person_asked_is_the_hotline_no_transfer(
    tmp_path: Path, text: str
) -> None:
    """ "Is there a way to talk to a person without opening a ticket?" filed a handoff ticket at
    once — the very thing the customer asked not to have. Now the hotline is the answer (and how
    to ask for a person here), and nothing is filed."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "400-820-8820" in out["reply"]
    assert await executions(bot, "create_ticket") == []


async def test_a_person_asked_for_is_still_a_transfer(tmp_path: Path) -> None:
    """A pin: asked for, a person is a handoff."""
    bot = bot_for(tmp_path)
    await say(bot, "transfer me to a human")
    assert len(await executions(bot, "create_ticket")) == 1


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("what can you do?", "check orders"),
        ("你能干什么？能帮我查订单吗", "查订单"),
        ("你会什么呀", "查订单"),
    ],
)
async def test_what_the_bot_can_do_asked_is_said(tmp_path: Path, text: str, said: str) -> None:
    """ "你能干什么" got the not-understood menu (or was dropped beside another request)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "identity" in [t["intent"] for t in out["tasks"]]
    assert said in out["reply"]


async def test_what_can_be_done_about_a_thing_is_no_question_about_the_bot(
    tmp_path: Path,
) -> None:
    """A pin: "what can you do about my late parcel?" is about the parcel."""
    bot = bot_for(tmp_path)
    out = await say(bot, "what can you do about my late parcel?")
    assert "identity" not in [t["intent"] for t in out["tasks"]]


# --- found by the money probe (a helper playing a confused customer) --------------------------


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("was 100609 refunded?", "100609"),
        ("is 100200 refunded?", "100200"),
        ("refunded 100609?", "100609"),
        ("was 100609 refunded? thanks", "100609"),
        ("was the thermos from 100200 refunded?", "100200"),
    ],
)
async def test_whether_an_order_was_refunded_is_asked_not_a_refund(
    tmp_path: Path, text: str, order: str
) -> None:
    """ "was 100609 refunded?" offered the ¥866 left, and a yes paid it: now the order (with
    its refunds) is shown and a yes pays nothing."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(tool == "request_refund" for tool, _, _ in calls_of(out))
    assert order in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "turns",
    [
        ("refund 50 yuan, order 100200, no wait 100609", "yes"),
        ("100200退50，不对，是100609", "确认"),
        ("退50 100200 不对 100609", "确认"),
    ],
)
async def test_an_order_corrected_keeps_the_amount_said(
    tmp_path: Path, turns: tuple[str, str]
) -> None:
    """ "refund 50 yuan, order 100200, no wait 100609" offered the ¥866 left of 100609 and a yes
    paid it: the ¥50 said goes with the corrected order."""
    bot = bot_for(tmp_path)
    out = await say(bot, turns[0])
    assert calls_of(out) == [("request_refund", "100609", 50.0)]
    await say(bot, turns[1])
    assert await refunds_of(bot, "100609") == [50.0]
    assert await refunds_of(bot, "100200") == []


@pytest.mark.parametrize(
    "text", ["refund 100200 except 100", "refund 100200 apart from 100", "退100609 除了100"]
)
async def test_an_amount_kept_back_is_no_amount_refunded(tmp_path: Path, text: str) -> None:
    """ "refund 100200 except 100" offered ¥100 and a yes paid it: the amount is asked (the
    words quoted whole: a first version quoted "除了 1")."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [amount for _, _, amount in calls_of(out)] == [None]
    assert "除了" not in text or "除了 100”" in out["reply"]
    await say(bot, "确认" if "退" in text else "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    [
        "你取消了100998吗",
        "谁取消了我的100998",
        "100998你们取消了？",
        "我想知道100998能不能取消",
        "I want to know whether I can cancel 100998",
        "I wonder if I can cancel 100998",
        "tell me if I can cancel 100998",
    ],
)
async def test_a_cancel_asked_about_is_no_cancel(tmp_path: Path, text: str) -> None:
    """Each offered to cancel the paid ¥5198 order and a yes cancelled it: now the order is
    shown (it can still be cancelled) and nothing is offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(tool == "cancel_order" for tool, _, _ in calls_of(out))
    assert "100998" in out["reply"]
    await say(bot, "确认" if any("\u4e00" <= c <= "\u9fff" for c in text) else "yes")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize("text", ["你帮我把100998取消了吧", "我想取消100998"])
async def test_a_cancel_asked_for_is_still_offered(tmp_path: Path, text: str) -> None:
    """A pin: asked for, the cancel is offered and a yes runs it once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [(tool, order) for tool, order, _ in calls_of(out)] == [("cancel_order", "100998")]
    await say(bot, "确认")
    assert len(await executions(bot, "cancel_order")) == 1


@pytest.mark.parametrize(
    "text",
    [
        "if it has shipped cancel 100998",
        "cancel 100998 if it has shipped",
        "cancel 100998 only if it already shipped",
        "if 100998 is delivered cancel it",
        "100998发货了的话取消",
    ],
)
async def test_a_cancel_on_a_condition_that_does_not_hold_is_not_offered(
    tmp_path: Path, text: str
) -> None:
    """ "if it has shipped cancel 100998" offered the cancel of the unshipped ¥5198 order and a
    yes cancelled it: now the order's state is the answer, nothing is offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(tool == "cancel_order" for tool, _, _ in calls_of(out))
    assert "100998" in out["reply"]
    await say(bot, "确认" if "取消" in text else "yes")
    assert await executions(bot, "cancel_order") == []


async def test_a_cancel_if_not_shipped_is_still_offered(tmp_path: Path) -> None:
    """A pin: "if 100998 hasn't shipped cancel it" is offered (it has not shipped)."""
    bot = bot_for(tmp_path)
    out = await say(bot, "if 100998 hasn't shipped cancel it")
    assert [(tool, order) for tool, order, _ in calls_of(out)] == [("cancel_order", "100998")]


@pytest.mark.parametrize(
    ("answer", "confirm"),
    [("少退点 100就行", "确认"), ("少退点吧，100就够了", "确认"), ("less, 100 is enough", "yes")],
)
async def test_less_asked_then_an_amount_is_that_amount(
    tmp_path: Path, answer: str, confirm: str
) -> None:
    """ "100200退保温杯", then "少退点 100就行", asked ¥129 again and a 确认 paid ¥129: now
    ¥100 is asked and paid once."""
    bot = bot_for(tmp_path)
    await say(bot, "100200退保温杯")
    out = await say(bot, answer)
    assert calls_of(out) == [("request_refund", "100200", 100.0)]
    await say(bot, confirm)
    assert await refunds_of(bot, "100200") == [100.0]


@pytest.mark.parametrize(
    ("text", "confirm"),
    [
        ("if 100998 hasn't shipped yet, cancel it; otherwise refund the phone", "yes"),
        ("cancel 100998, otherwise refund 100 on 100609", "yes"),
        ("取消100998，不然就退100609 100块", "确认"),
    ],
)
async def test_what_to_do_otherwise_is_never_offered_beside_the_first(
    tmp_path: Path, text: str, confirm: str
) -> None:
    """ "cancel 100998, otherwise refund 100 on 100609" offered both, and a yes ran both: the
    second is asked only if the first cannot be done. Now the first is offered, the second said
    to be left for later, and a yes runs the first alone."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    writes = [tool for tool, _, _ in calls_of(out) if tool in ("cancel_order", "request_refund")]
    assert writes == ["cancel_order"]
    await say(bot, confirm)
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("text", "order", "named"),
    [
        ("cancel 100904 the phone order", "100904", "Smartphone X12"),
        ("cancel the phone order 100904", "100904", "Smartphone X12"),
        ("取消100998 空气炸锅那单", "100998", "空气炸锅"),
        ("取消100904 就是手机那单", "100904", "智能手机"),
    ],
)
async def test_a_cancel_whose_number_and_words_disagree_asks_which(
    tmp_path: Path, text: str, order: str, named: str
) -> None:
    """ "cancel 100998 the air fryer order" offered the ¥5198 order's cancel on its number and a
    yes cancelled it, though the words describe the air fryer's order. Now the reply says what
    the order holds and asks which one; a yes cancels nothing."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert order in out["reply"] and named in out["reply"]
    await say(bot, "确认" if "取消" in text else "yes")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize("text", ["cancel 100998 the phone order", "取消100904这单"])
async def test_a_cancel_whose_words_fit_its_number_is_offered(tmp_path: Path, text: str) -> None:
    """A pin: the words fit the order named, so its cancel is offered and a yes runs it once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [tool for tool, _, _ in calls_of(out)] == ["cancel_order"]
    await say(bot, "确认" if "取消" in text else "yes")
    assert len(await executions(bot, "cancel_order")) == 1


# --- pins from the paired review of this session's change (each read wrongly by a first version)


@pytest.mark.parametrize(
    ("turns", "order"),
    [
        (("退100200的保温杯129，不对，是100609", "确认"), "100609"),
        (("refund 399 for the air fryer on 100200, no wait 100609", "yes"), "100609"),
    ],
)
async def test_an_amount_of_a_thing_does_not_go_with_a_corrected_order(
    tmp_path: Path, turns: tuple[str, str], order: str
) -> None:
    """The thing's price is not an amount for another order (a first version paid ¥129 and ¥399
    on 100609, which holds neither)."""
    bot = bot_for(tmp_path)
    await say(bot, turns[0])
    await say(bot, turns[1])
    assert 129.0 not in await refunds_of(bot, order)
    assert 399.0 not in await refunds_of(bot, order)


@pytest.mark.parametrize(
    "text",
    [
        "hi, was hoping to get 100609 refunded",
        "have 100609 refunded please",
        "was charged wrong, 100609 should be refunded",
        "refunded 100609 please",
    ],
)
async def test_a_refund_asked_with_refunded_is_still_offered(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [(tool, order) for tool, order, _ in calls_of(out) if tool == "request_refund"] == [
        ("request_refund", "100609")
    ]


@pytest.mark.parametrize(
    "text", ["你现在取消了100998就行", "你赶紧取消了100998", "你们直接取消了100998呗"]
)
async def test_a_cancel_asked_with_you_is_still_offered(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [(tool, order) for tool, order, _ in calls_of(out)] == [("cancel_order", "100998")]


@pytest.mark.parametrize(
    "text",
    ["is there any way I can speak to a human right now, please transfer me", "有没有办法转人工"],
)
async def test_a_transfer_asked_for_beside_how_is_still_a_transfer(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    assert len(await executions(bot, "create_ticket")) == 1


async def test_a_refund_beside_a_few_questions_is_still_offered(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "退100609，还有几个问题")
    assert ("request_refund", "100609") in [(tool, order) for tool, order, _ in calls_of(out)]


async def test_what_can_you_do_beside_a_late_parcel_answers_the_parcel(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "what can you do, 100683 is a week late!")
    assert "100683" in out["reply"]


@pytest.mark.parametrize(
    "text",
    [
        "tell me if I can cancel 100998, if yes do it",
        "I'd like to know if I can cancel 100998 - if so cancel it",
    ],
)
async def test_whether_a_cancel_can_be_then_if_so_do_it_is_offered(
    tmp_path: Path, text: str
) -> None:
    """A first version showed only the order (its own 'if so' pattern shadowed an older one)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert ("cancel_order", "100998") in [(tool, order) for tool, order, _ in calls_of(out)]


async def test_a_cancel_naming_a_wrong_item_of_its_own_order_is_the_order(tmp_path: Path) -> None:
    """A pin (session 28) a first version broke: the words name the order's own item."""
    bot = bot_for(tmp_path)
    out = await say(bot, "cancel 100998 i ordered the wrong phone")
    assert [(tool, order) for tool, order, _ in calls_of(out)] == [("cancel_order", "100998")]
    assert "cancelled whole" not in out["reply"]
