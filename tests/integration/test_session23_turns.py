"""Whole conversations session 23 changed: two orders in one clause, each with its own write;
a cancel waiting on something that has not happened (an order that may never arrive, another
order's state); writes told of as done — run as a customer meets the bot (the demo shop
seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpdesk.app.wiring import Bot
from tests.integration.test_trust import bot_for, executions, refunds_of, say


async def _cancelled(bot: Bot) -> list[str]:
    return [e["target"] for e in await executions(bot, "cancel_order")]


def _calls(out: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [
        (str(t["tool"]), (t.get("args") or {}).get("order_id"))
        for t in out["tasks"]
        if t.get("tool")
    ]


# --- two orders in one clause, each with its own write ------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["100200退款，100998取消", "100998取消，100200退款", "100200退款 100998取消"],
)
async def test_each_order_gets_the_write_said_beside_it(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert sorted(_calls(out)) == [("cancel_order", "100998"), ("request_refund", "100200")]
    assert await executions(bot, "create_refund") == [] and await _cancelled(bot) == []
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [797.0]
    assert await _cancelled(bot) == ["100998"]


async def test_the_amount_beside_its_order_is_that_refunds(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "100998取消，100200退100")
    assert sorted(_calls(out)) == [("cancel_order", "100998"), ("request_refund", "100200")]
    assert "100.00" in str(out["reply"])
    await say(bot, "都确认")
    assert await refunds_of(bot, "100200") == [100.0]
    assert await _cancelled(bot) == ["100998"]


# --- a cancel waiting on something that has not happened ----------------------------------------


async def test_a_cancel_if_the_order_never_arrives_is_shown_not_asked(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "如果100998到不了就取消，100200退款")
    assert _calls(out)[-1] == ("request_refund", "100200")
    assert ("cancel_order", "100998") not in _calls(out)
    await say(bot, "确认")
    assert await _cancelled(bot) == []
    assert await refunds_of(bot, "100200") == [797.0]


async def test_a_cancel_on_another_orders_state_in_one_clause_asks_nothing(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "100683没发的话取消100998")
    assert [tool for tool, _ in _calls(out)] == ["get_order", "get_order"]
    await say(bot, "确认")
    assert await _cancelled(bot) == []


async def test_a_refund_on_a_day_and_a_cancel_now_keep_the_cancel(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "要是100683周五还不到就退款，100904取消")
    assert ("cancel_order", "100904") in _calls(out)
    assert ("request_refund", "100683") not in _calls(out)
    await say(bot, "确认")
    assert await _cancelled(bot) == ["100904"]
    assert await executions(bot, "create_refund") == []


async def test_a_cancel_on_the_orders_own_state_is_asked(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100683退款，如果100998没发就取消")
    await say(bot, "确认")
    assert await refunds_of(bot, "100683") == [29.0]
    assert await _cancelled(bot) == ["100998"]


# --- writes told of as done ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["我昨天取消了100998，钱什么时候到", "上次100200退款，100998取消了，钱怎么还没到"],
)
async def test_a_write_told_as_done_is_never_offered(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(tool in ("cancel_order", "request_refund") for tool, _ in _calls(out))
    await say(bot, "好的")
    assert await _cancelled(bot) == [] and await executions(bot, "create_refund") == []


async def test_an_old_problem_told_before_a_cancel_asked_now_is_asked(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "之前的问题没解决，帮我把100998取消了")
    await say(bot, "确认")
    assert await _cancelled(bot) == ["100998"]


# --- a paid order not shipped yet is cancelled, never refunded whole -----------------------------


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("100998整单退了吧 不想要了", "确认"),
        ("refund what's left on 100998", "yes"),
        ("refund 100998 please, 5198", "yes"),
    ],
)
async def test_a_whole_refund_of_an_unshipped_order_says_to_cancel_and_moves_nothing(
    tmp_path: Path, text: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "5198.00" in str(out["reply"])
    assert "取消订单 100998" in str(out["reply"]) or "cancel order 100998" in str(out["reply"])
    await say(bot, answer)
    assert await executions(bot, "create_refund") == [] and await _cancelled(bot) == []
    await say(bot, "取消订单 100998" if answer == "确认" else "cancel order 100998")
    await say(bot, answer)
    assert await _cancelled(bot) == ["100998"]


@pytest.mark.parametrize(
    ("text", "amount"),
    [("100998退我300 显示器降价了", 300.0), ("refund the phone from 100998", 2999.0)],
)
async def test_a_part_of_an_unshipped_order_is_still_refunded(
    tmp_path: Path, text: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await refunds_of(bot, "100998") == [amount]


async def test_a_cancel_taken_back_after_an_ellipsis_cancels_only_the_order_named_next(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "手机那单我不要了 取消吧……算了 手机留着 把空气炸锅那单取消")
    assert _calls(out) == [("cancel_order", "100904")]
    await say(bot, "确认")
    assert await _cancelled(bot) == ["100904"]


# --- answers naming one of two waiting actions (review 1) ----------------------------------------


@pytest.mark.parametrize(
    "answer",
    ["yes to the refund", "refund yes", "confirm the refund", "ok the refund", "退款那个确认"],
)
async def test_a_yes_naming_the_refund_runs_only_that_refund_at_its_amount(
    tmp_path: Path, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 for 100200 and cancel 100998")
    await say(bot, answer)
    assert await refunds_of(bot, "100200") == [100.0]
    assert await refunds_of(bot, "100998") == [] and await _cancelled(bot) == []


@pytest.mark.parametrize(
    "answer", ["100998不要取消", "don't cancel 100998", "100998 no", "100998先不取消", "100998算了"]
)
async def test_a_no_naming_one_of_two_waiting_cancels_drops_only_that_one(
    tmp_path: Path, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消100998和100904")
    out = await say(bot, answer)
    assert await _cancelled(bot) == []
    assert "100904" in str(out["reply"])
    await say(bot, "好的")
    assert await _cancelled(bot) == ["100904"]


@pytest.mark.parametrize(
    "text",
    [
        "cancel 100998 or 100904, not both",
        "cancel either 100998 or 100904",
        "100998和100904取消一个就行",
        "refund 100200 or 100609",
    ],
)
async def test_one_of_two_orders_asks_which_and_a_yes_runs_nothing(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not [tool for tool, order in _calls(out) if order and tool != "get_order"]
    await say(bot, "yes")
    assert await _cancelled(bot) == [] and await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("refund fifty for 100200", 50.0),
        ("refund one hundred on 100200", 100.0),
        ("refund two hundred and fifty yuan for 100200", 250.0),
        ("100200退1百", 100.0),
        ("100200退3百", 300.0),
        ("100200退1千2", 1200.0),
        ("100200退100，不是，退50", 50.0),
        ("refund 100 for 100200, no wait 50", 50.0),
    ],
)
async def test_an_amount_in_words_or_corrected_is_the_one_asked_and_paid(
    tmp_path: Path, text: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    if amount > 797:
        assert "797.00" in str(out["reply"])  # more than refundable: refused with the maximum
        await say(bot, "yes")
        assert await executions(bot, "create_refund") == []
        return
    assert f"{amount:.2f}" in str(out["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [amount]


@pytest.mark.parametrize(
    "text", ["refund 100200 minus 100", "100200少退100", "refund 797-100 on 100200"]
)
async def test_an_amount_to_work_out_is_asked_never_paid_whole(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- a person to talk to mentioned, not asked for (review 1) ------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "no human please",
        "no humans, just answer",
        "I'd rather not talk to a human",
        "human agents are useless",
        "do you have human agents?",
        "人工客服几点上班",
        "转人工要多久",
        "之前转过人工了",
        "我朋友说找人工客服比较快",
        "I'll ask a human later",
        "my friend said I should talk to a human",
        "last time I talked to a human it was useless",
    ],
)
async def test_a_human_mentioned_not_asked_for_transfers_nothing(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize("text", ["transfer me to a human", "转人工", "我要人工客服"])
async def test_a_transfer_asked_for_still_transfers_at_once(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    assert len(await executions(bot, "create_ticket")) == 1


@pytest.mark.parametrize(
    "text",
    [
        "I won't file a complaint",
        "我不投诉，只想知道100683在哪",
        "my sister filed a complaint",
        "if 100683 is broken I'll complain",
    ],
)
async def test_a_complaint_not_made_offers_no_ticket(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


# --- writes told as done, put off, weighed or someone else's (review 1) --------------------------


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("我之前申请了100200退款", "对"),
        ("I already asked you to refund 100200", "yes"),
        ("I refunded 100200, right?", "yes"),
        ("我之前取消过100998", "对"),
        ("明天帮我取消100998", "好的"),
        ("cancel 100998 next week", "yes"),
        ("refund 100200 next month", "yes"),
        ("等我想好了再取消100998", "好的"),
        ("cancel 100998 once the refund for 100200 arrives", "yes"),
        ("退款100200？不是，我是问退款流程", "好的"),
        ("取消100998？不，我问问而已", "好的"),
        ("my wife wants to cancel 100998, I don't", "yes"),
        ("我老婆要取消100998，我不同意", "好的"),
        ("a friend told me to cancel 100998 but I like it", "yes"),
        ("cancel 100998? hmm not sure", "yes"),
        ("I'm not sure whether to refund 100200", "yes"),
        ("my wife said cancel 100998", "yes"),
        ("the courier told me to ask for a refund on 100683", "yes"),
        ("suppose I refund 100200, when do I get the money?", "yes"),
        ("what if I cancel 100998 and refund 100200?", "yes"),
    ],
)
async def test_a_write_not_asked_for_now_moves_no_money(
    tmp_path: Path, text: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, answer)
    assert await _cancelled(bot) == [] and await executions(bot, "create_refund") == []


@pytest.mark.parametrize("text", ["我老婆说这单不要了，帮我取消100998", "我明天搬家，100998取消吧"])
async def test_a_cancel_asked_beside_other_words_is_still_asked(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "好的")
    assert await _cancelled(bot) == ["100998"]


@pytest.mark.parametrize("again", ["没收到，再退一次", "nothing arrived, refund it again"])
async def test_a_refund_asked_again_shows_the_one_made_and_offers_nothing(
    tmp_path: Path, again: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100200退100块")
    await say(bot, "好的")
    out = await say(bot, again)
    assert "R-000109" in str(out["reply"])
    await say(bot, "好的")
    assert await refunds_of(bot, "100200") == [100.0]


async def test_make_it_another_order_moves_the_waiting_refund_there(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 for 100200")
    out = await say(bot, "actually make it 100609")
    assert "100609" in str(out["reply"]) and "100.00" in str(out["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [100.0]
    assert await refunds_of(bot, "100200") == []


@pytest.mark.parametrize(
    ("text", "answer", "refunded", "cancelled"),
    [
        ("refund 100 for 100200, not sure if that's enough but ok", "yes", [100.0], []),
        ("我妈说不要了，100904取消吧", "好", [], ["100904"]),
        ("帮我取消100998，明天就要搬家了", "确认", [], ["100998"]),
        ("cancel 100998, my wife agrees", "yes", [], ["100998"]),
    ],
)
async def test_a_write_asked_for_beside_doubt_or_someone_else_is_still_asked(
    tmp_path: Path, text: str, answer: str, refunded: list[float], cancelled: list[str]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, answer)
    assert await refunds_of(bot, "100200") == refunded
    assert await _cancelled(bot) == cancelled


# --- second review run -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("上次100200退款了，100998也取消了，钱怎么还没到", "好的"),
        ("上次100200退款了，钱怎么还没到", "好的"),
        ("I cancelled 100998 and refunded 100200 last week but no money yet", "yes"),
        ("我上周申请退款100200，到现在没消息", "对"),
        ("稍后取消100998", "好的"),
        ("过两天再取消100998", "好的"),
        ("cancel 100998 in an hour", "yes"),
        ("我想取消100998，不过再等等", "好的"),
        ("100998、100904随便取消一个", "好的"),
        ("我老公想取消100998，我还没决定", "好的"),
        ("快递员说让我申请退款100683", "好的"),
        ("the shop assistant said I could refund 100200", "yes"),
    ],
)
async def test_told_put_off_or_someone_elses_writes_move_nothing(
    tmp_path: Path, text: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, answer)
    assert await _cancelled(bot) == [] and await executions(bot, "create_refund") == []


async def test_human_agents_called_slow_transfer_nothing(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "人工太慢了")
    await say(bot, "好")
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    ("text", "answer", "refunded", "cancelled"),
    [
        ("cancel 100998, no, 100904", "yes", [], ["100904"]),
        ("100200退100块，不对，50", "好的", [50.0], []),
        ("refund 100 on 100200, 100998 doesn't need cancelling", "yes", [100.0], []),
        ("退款100200，不确定能不能退，试试吧", "确认", [797.0], []),
        ("取消100998，不确定什么时候发货，所以不要了", "好的", [], ["100998"]),
        ("I'm not sure about the amount, refund 100 on 100200 for now", "yes", [100.0], []),
    ],
)
async def test_corrections_and_clear_asks_beside_doubt_do_what_was_meant(
    tmp_path: Path, text: str, answer: str, refunded: list[float], cancelled: list[str]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, answer)
    assert await refunds_of(bot, "100200") == refunded
    assert await _cancelled(bot) == cancelled


async def test_a_write_answered_no_holds_only_itself(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100998 cancel? no, refund 100200 instead")
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [797.0]
    assert await _cancelled(bot) == []


async def test_not_that_order_beside_the_one_meant_cancels_the_one_meant(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消的是100904，不是100998！别搞错了")
    await say(bot, "确认")
    assert await _cancelled(bot) == ["100904"]


@pytest.mark.parametrize(
    ("answer", "refunded", "cancelled"),
    [
        ("the refund yes, the cancel no", [100.0], []),
        ("退款的确认，取消的不要", [100.0], []),
        ("取消那个确认，退款不要", [], ["100998"]),
        ("yes to the cancel, not the refund", [], ["100998"]),
    ],
)
async def test_a_yes_to_one_and_a_no_to_the_other_runs_one_and_drops_the_other(
    tmp_path: Path, answer: str, refunded: list[float], cancelled: list[str]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 for 100200 and cancel 100998")
    await say(bot, answer)
    await say(bot, "ok")  # a hurried "ok" afterwards runs nothing more
    assert await refunds_of(bot, "100200") == refunded
    assert await _cancelled(bot) == cancelled


# --- third review run ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "my wife wants me to cancel 100998 but I'm not sure",
        "I'm not sure, my wife wants me to cancel 100998",
        "my wife wants me to refund 100200 but I'm not sure",
        "refund 100200? no. cancel 100998? also no. just checking",
        "退款100200？不要。取消100998？也不要。只是看看",
        "cancel 100998? also no",
        "I've decided not to cancel 100998",
        "I've decided not to refund 100200",
        "refund 1.5k on 100200",
        "thinking of a refund for 100200",
        "would a refund on 100200 be possible?",
        "my husband wants me to cancel 100998",
        "my wife wants me to cancel 100998 but I haven't decided",
    ],
)
async def test_a_yes_after_words_that_do_not_ask_moves_no_money(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await _cancelled(bot) == [] and await executions(bot, "create_refund") == []


async def test_a_decision_said_before_the_cancel_is_still_asked(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "I've decided: cancel 100998")
    await say(bot, "yes")
    assert await _cancelled(bot) == ["100998"]


@pytest.mark.parametrize(
    ("text", "refunded", "cancelled"),
    [
        ("cancel 100998 but I'm not sure about 100904", [], ["100998"]),
        ("can you refund 100 on 100200? not the full amount, just 100", [100.0], []),
        ("cancel 100998? no doubt about it, cancel it", [], ["100998"]),
        ("would a refund on 100200 be possible? I'd like one please", [797.0], []),
        ("I was thinking of a refund, and now I'm sure: refund 100200 please", [797.0], []),
        ("I haven't decided on my next order yet, but cancel 100998 now", [], ["100998"]),
    ],
)
async def test_clear_asks_beside_the_newest_guards_are_asked(
    tmp_path: Path, text: str, refunded: list[float], cancelled: list[str]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == refunded
    assert await _cancelled(bot) == cancelled


async def test_a_condition_true_now_said_with_jiaru_is_asked(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "假如100998还没发货就取消吧")
    await say(bot, "确认")
    assert await _cancelled(bot) == ["100998"]


@pytest.mark.parametrize(
    ("text", "cancelled"),
    [("cancel 100998, I'll reorder later", ["100998"]), ("cancel 100998 later", [])],
)
async def test_later_is_the_cancels_only_when_said_of_it(
    tmp_path: Path, text: str, cancelled: list[str]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await _cancelled(bot) == cancelled
