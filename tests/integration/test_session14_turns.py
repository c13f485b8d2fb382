"""Whole turns session 14 found moving money or orders wrongly, or saying contradictory things:
the bot is run as a customer meets it (the demo shop seeded, the minimal tier), and what it
asked, said and executed is checked in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say


@pytest.mark.parametrize(
    ("question", "noted"),
    [
        ("can you cancel 100904?", "ok thanks"),
        ("can you cancel 100904?", "ok, thank you"),
        ("取消100904", "好的，谢谢"),
        ("取消100904", "嗯嗯 谢谢"),
    ],
)
async def test_ok_thanks_to_a_cancel_question_asks_again_and_cancels_nothing(
    tmp_path: Path, question: str, noted: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, question)
    out = await say(bot, noted)
    assert await executions(bot, "cancel_order") == []
    assert "100904" in out["reply"]
    # asked again, still waiting: a plain yes now cancels it, once
    await say(bot, "yes" if question.startswith("can") else "确认")
    assert len(await executions(bot, "cancel_order")) == 1


async def test_yes_thanks_still_confirms(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "can you cancel 100904?")
    await say(bot, "yes thanks")
    assert len(await executions(bot, "cancel_order")) == 1


@pytest.mark.parametrize(
    "message",
    [
        "file a ticket about my broken purifier, not 100998",
        "cancel my order, not 100998",
        "取消我的订单，不是100998",
        "refund the purifier, not 100998",
    ],
)
async def test_an_order_named_as_not_meant_is_never_the_one_acted_on(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    for task in out["tasks"]:
        if task["tool"] in ("create_ticket", "cancel_order", "request_refund"):
            assert task["args"].get("order_id") != "100998"
    for action in ("create_ticket", "cancel_order", "request_refund"):
        assert await executions(bot, action) == []
    # a yes to whatever was asked never touches the order named as not meant
    await say(bot, "yes")
    for action in ("create_ticket", "cancel_order", "request_refund"):
        assert all(e["target"] != "100998" for e in await executions(bot, action))


@pytest.mark.parametrize(
    ("message", "spared"),
    [
        ("can u cancel 100904 and refund 100609 but dont touch 100998", "100998"),
        ("cancel 100904, but dont touch 100998", "100998"),
        ("取消我的订单，不是100998", "100998"),
    ],
)
async def test_an_order_spared_beside_a_write_is_said_to_be_left_alone(
    tmp_path: Path, message: str, spared: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    reply = out["reply"]
    assert spared in reply
    # never "nothing will be done" beside a question about the write that stands
    assert "nothing will be done: no cancellation" not in reply
    assert "不做任何操作" not in reply


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # two writes after a comma: each its own order, never both the same write
        ("refund 100609 please, cancel 100998 too",
         {("request_refund", "100609"), ("cancel_order", "100998")}),
        ("refund 100609 please, actually cancel 100998 too",
         {("request_refund", "100609"), ("cancel_order", "100998")}),
        # what is not wanted, then what is: only the cancel is asked about
        ("don't refund, cancel 100904", {("cancel_order", "100904")}),
        ("no refund, just cancel 100904", {("cancel_order", "100904")}),
    ],
)  # fmt: skip
async def test_writes_after_a_comma_are_each_their_own(
    tmp_path: Path, message: str, expected: set[tuple[str, str]]
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    asked = {
        (t["tool"], t["args"].get("order_id"))
        for t in out["tasks"]
        if t["tool"] in ("request_refund", "cancel_order", "create_ticket")
    }
    assert asked == expected
    assert "nothing will be done" not in out["reply"]
    for action in ("request_refund", "cancel_order"):
        assert await executions(bot, action) == []


# --- the eighth fresh batch's first run ----------------------------------------------------


async def test_a_transfer_threatened_on_a_condition_is_offered_not_made(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "我的订单100683为啥还没到，你们给个说法，不然我要转人工了")
    assert "YT9433239273" in out["reply"]
    assert await executions(bot, "create_ticket") == []
    await say(bot, "确认")
    assert len(await executions(bot, "create_ticket")) == 1


async def test_a_transfer_asked_after_shows_the_tickets_and_makes_none(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "我之前转人工那个单子有人跟进吗")
    assert "T-000031" in out["reply"]
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("能取消吗？100998", "还可以取消"),
        ("can 100998 be cancelled?", "can still be cancelled"),
        ("can 100683 be cancelled?", "can no longer be cancelled"),
    ],
)
async def test_whether_an_order_can_be_cancelled_is_answered_and_nothing_is_asked(
    tmp_path: Path, message: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert answer in out["reply"]
    assert all(t["tool"] != "cancel_order" for t in out["tasks"])
    # a "yes" after the answer cancels nothing: nothing was asked
    await say(bot, "yes" if message.startswith("can") else "确认")
    assert await executions(bot, "cancel_order") == []


async def test_a_refund_told_of_is_never_offered(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(
        bot, "how much can I still get back from 100609? you refunded part of it already"
    )
    assert "866" in out["reply"]
    assert all(t["tool"] != "request_refund" for t in out["tasks"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_a_count_is_asked_about_never_refunded(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "refund the 1 item from 100200")
    assert "797" in out["reply"]
    assert all(t["tool"] != "request_refund" for t in out["tasks"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        ("退款R-000094到账了没", "433"),
        ("R-000094 has this been paid out", "433"),
        ("what's my refund amount on R-000094?", "866"),
    ],
)
async def test_a_refund_named_by_its_number_shows_its_order(
    tmp_path: Path, message: str, shown: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert [(t["tool"], t["args"].get("order_id")) for t in out["tasks"]] == [
        ("get_order", "100609")
    ]
    assert shown in out["reply"] and "R-000094" in out["reply"]


async def test_a_refund_number_not_theirs_is_said_not_found(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "did refund R-999999 go through?")
    assert "R-999999" in out["reply"] and "couldn't find" in out["reply"]
    assert all(t["tool"] != "request_refund" for t in out["tasks"])


# --- the review's findings ------------------------------------------------------------------


async def test_n_of_the_total_refunds_n(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 50 of the 797 on 100200")
    await say(bot, "yes")
    refunds = await executions(bot, "create_refund")
    assert len(refunds) == 1
    audit = await bot.client.http.get("/orders/100200", headers={"X-Customer-Id": "C0001"})
    assert [r["amount"] for r in audit.json()["refunds"]] == [50.0]


async def test_an_order_said_to_stay_is_never_cancelled_with_the_other(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消100904 100998一直不动")
    await say(bot, "是的")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


async def test_a_spared_order_is_never_what_it_means_next(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消我的订单，不是100998")
    out = await say(bot, "取消吧")
    assert all(t["args"].get("order_id") != "100998" for t in out["tasks"])
    await say(bot, "是的")
    assert await executions(bot, "cancel_order") == []


async def test_a_question_about_an_earlier_transfer_makes_none(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "我之前要求转人工的那个单子现在什么情况了")
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    ("first", "answer"),
    [("cancel 100904", "yes but not 100998"), ("refund 100609 50", "yes, not 100200")],
)
async def test_a_yes_naming_another_order_as_not_meant_runs_nothing_on_it(
    tmp_path: Path, first: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, answer)
    await say(bot, "yes")
    for action in ("cancel_order", "create_refund"):
        assert all(e["target"] not in ("100998", "100200") for e in await executions(bot, action))


async def test_two_of_the_plates_is_asked_never_two_yuan(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 2 of the plates on 100200")
    assert "797" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("first", "answer", "kept"),
    [
        ("cancel 100904 and 100998", "yes but not 100998", ("cancel_order", "100904")),
        ("refund 100609 and 100200", "yes but not 100200", ("create_refund", "100609")),
        ("cancel 100904 and 100998", "yes only 100904", ("cancel_order", "100904")),
    ],
)
async def test_a_yes_sparing_one_of_several_waiting_actions_runs_only_the_others(
    tmp_path: Path, first: str, answer: str, kept: tuple[str, str]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, answer)
    await say(bot, "yes")
    action, order_id = kept
    if action == "cancel_order":
        assert [e["target"] for e in await executions(bot, action)] == [order_id]
        assert await executions(bot, "create_refund") == []
    else:
        assert len(await executions(bot, action)) == 1
        assert await refunds_of(bot, "100200") == []
        assert await refunds_of(bot, order_id) == [866.0]
