"""Whole turns session 32 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpdesk.app.session import run_turn
from tests.integration.test_trust import bot_for, executions, refunds_of, say


def _tools(out: dict[str, Any]) -> list[Any]:
    return [t.get("tool") for t in out["tasks"]]


# --- whether the bot is a person, a transfer put off: answered, nothing filed -------------------


@pytest.mark.parametrize(
    "text", ["who am I talking to, a bot or a human", "is this a bot or a real person?"]
)
async def test_whether_the_bot_is_a_person_files_no_transfer(tmp_path: Path, text: str) -> None:
    """ "who am I talking to, a bot or a human" filed a transfer to a person."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [t["intent"] for t in out["tasks"]] == ["identity"]
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


async def test_a_transfer_put_off_beside_the_hotline_question_files_nothing(
    tmp_path: Path,
) -> None:
    """ "不转人工的话，有电话可以打吗？先别帮我转" filed a transfer it said not to make."""
    bot = bot_for(tmp_path)
    out = await say(bot, "不转人工的话，有电话可以打吗？先别帮我转")
    assert "400-820-8820" in str(out["reply"])
    assert "handoff_to_human" not in _tools(out)
    assert await executions(bot, "create_ticket") == []


# --- a write asked about is answered with the policy, never offered ----------------------------


async def test_a_part_cancel_asked_about_is_the_policy(tmp_path: Path) -> None:
    """ "can I cancel only the e-reader in 100803 and keep the detergent?" planned the cancel
    (its precheck refused a part cancel, but a question planned a write)."""
    bot = bot_for(tmp_path)
    said = "can I cancel only the e-reader in 100803 and keep the detergent?"
    out = await run_turn(bot, said, session="s", customer="C0078")
    assert "cancel_order" not in _tools(out)
    assert "as a whole" in str(out["reply"])
    await run_turn(bot, "yes", session="s", customer="C0078")
    assert await executions(bot, "cancel_order", customer="C0078") == []


@pytest.mark.parametrize(
    "text",
    [
        "and the air fryer - can I refuse it at the door and get my money back?",
        "can i return it and get my money back?",
        "could I send it back and get a refund on 100200?",
    ],
)
async def test_money_back_in_the_second_half_of_a_question_is_asked_about(
    tmp_path: Path, text: str
) -> None:
    """ "get my money back" after "can I … and" was read as a refund asked for."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "request_refund" not in _tools(out)
    assert "search_faq" in _tools(out)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_a_request_after_a_question_to_the_bot_is_still_asked_for(tmp_path: Path) -> None:
    """ "can you check 100200 and refund the thermos?" asks the bot to do both (a pin)."""
    bot = bot_for(tmp_path)
    out = await say(bot, "can you check 100200 and refund the thermos?")
    assert _tools(out) == ["get_order", "request_refund"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [129.0]


# --- what a refund leaves out: the things kept are not refunded ---------------------------------


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("把100200的空气炸锅退了 餐具和保温杯留着", 399.0),
        ("退100200，除了空气炸锅都退", 398.0),
    ],
)
async def test_the_things_kept_are_left_out_of_the_refund(
    tmp_path: Path, text: str, amount: float
) -> None:
    """Both asked how much (up to ¥797): the things kept were read as more things named."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert f"¥{amount:.2f}" in str(out["reply"])
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [amount]


# --- a new one instead of the money: the after-sales ticket offered, no refund ------------------


@pytest.mark.parametrize(
    "text",
    [
        "I'd rather get a new one than a refund",
        "can you send me a new one instead",
        "要换新的 不要退款",
    ],
)
async def test_a_new_one_asked_for_offers_the_after_sales_ticket(tmp_path: Path, text: str) -> None:
    """These got the help menu: nothing wrong was done, but nothing asked for either."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert _tools(out) == ["create_ticket"]
    assert await executions(bot, "create_ticket") == []  # asked first
    await say(bot, "yes")
    assert len(await executions(bot, "create_ticket")) == 1
    assert await executions(bot, "create_refund") == []


# --- what is left to refund, asked ---------------------------------------------------------------


async def test_what_is_left_on_the_thing_told_is_shown(tmp_path: Path) -> None:
    """ "my purifier broke. how much of it can I still get back?" answered how long refunds
    take."""
    bot = bot_for(tmp_path)
    out = await say(bot, "my purifier broke. how much of it can I still get back?")
    assert "get_order" in _tools(out) and "search_faq" not in _tools(out)
    assert "866" in str(out["reply"])
    assert await executions(bot, "create_refund") == []


async def test_what_is_left_naming_no_order_lists_the_orders(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "how much can I still get back?")
    assert _tools(out) == ["list_orders"]


# --- an amount changed in the same message as a question: the change is what is asked ---------


@pytest.mark.parametrize(
    ("change", "yes"),
    [
        ("actually make it 400. and how long does that take to come back?", "yes"),
        ("改成400吧。多久能到账？", "确认"),
    ],
)
async def test_an_amount_changed_beside_a_question_is_the_amount_asked(
    tmp_path: Path, change: str, yes: str
) -> None:
    """The change was dropped: the refund of 300 was asked again beside the answer, and a
    hurried yes paid ¥300 instead of the ¥400 asked for."""
    bot = bot_for(tmp_path)
    await say(bot, "the purifier order - how much is left to refund? refund me 300 of it")
    out = await say(bot, change)
    assert "¥400.00" in str(out["reply"]) and "¥300.00" not in str(out["reply"])
    assert "search_faq" in _tools(out)
    await say(bot, yes)
    assert await refunds_of(bot, "100609") == [400.0]


# --- two writes, one naming its order by what is in it -----------------------------------------


async def test_a_cancel_naming_a_thing_beside_a_cancel_naming_an_order_is_its_own(
    tmp_path: Path,
) -> None:
    """ "cancel the air fryer and cancel 100998" was one cancel of 100998 (the air fryer's order,
    100904, asked for nowhere)."""
    bot = bot_for(tmp_path)
    out = await say(bot, "cancel the air fryer and cancel 100998")
    cancels = [t["args"]["order_id"] for t in out["tasks"] if t.get("tool") == "cancel_order"]
    assert sorted(cancels) == ["100904", "100998"]
    await say(bot, "yes")
    cancelled = sorted(e["target"] for e in await executions(bot, "cancel_order"))
    assert cancelled == ["100904", "100998"]


async def test_an_order_described_beside_another_described_is_not_the_cancels(
    tmp_path: Path,
) -> None:
    """ "空气炸锅那单改个地址，手机那单取消" offered to cancel the air fryer's order (100904): the
    address clause's words were folded into the cancel."""
    bot = bot_for(tmp_path)
    out = await say(bot, "空气炸锅那单改个地址，手机那单取消")
    cancels = [t["args"]["order_id"] for t in out["tasks"] if t.get("tool") == "cancel_order"]
    assert cancels == ["100998"]
    await say(bot, "确认")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]


# --- a request beside another's question, a question beside "not a complaint" -----------------


async def test_a_refund_asked_beside_a_question_about_the_parcel_is_offered(
    tmp_path: Path,
) -> None:
    """ "帮我看看净化器那单 签收了吗 顺便把剩下的866退了": the 吗 of the parcel question made the
    refund a question too (the order was shown, the refund never offered)."""
    bot = bot_for(tmp_path)
    out = await say(bot, "帮我看看净化器那单 签收了吗 顺便把剩下的866退了")
    assert "request_refund" in _tools(out)
    assert "¥866.00" in str(out["reply"])
    await say(bot, "确认")
    assert await refunds_of(bot, "100609") == [866.0]


@pytest.mark.parametrize(
    "text",
    [
        "Not a complaint, just curious: why did the 797 order come in two boxes? and were both "
        "delivered",
        "不是投诉哈，就是好奇797那单为什么分两个包裹发，都签收了吧？",
    ],
)
async def test_not_a_complaint_then_a_question_answers_the_question(
    tmp_path: Path, text: str
) -> None:
    """The question was dropped: "nothing was done" was all the reply said."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    reply = str(out["reply"])
    assert "YT8741553924" in reply and "SF8168184950" in reply
    assert "create_ticket" not in _tools(out)


@pytest.mark.parametrize(
    "text",
    [
        "100998好像扣了我两次钱！两次5198！赶紧找人处理",
        "I think I was charged twice for 100998?? please check and get someone to sort it out",
    ],
)
async def test_someone_asked_to_sort_it_out_is_a_transfer(tmp_path: Path, text: str) -> None:
    """Only the order was shown: the person asked for was not."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "handoff_to_human" in _tools(out)
    assert len(await executions(bot, "create_ticket")) == 1


@pytest.mark.parametrize(
    ("change", "yes"),
    [("make it 400. and cancel 100904", "yes"), ("改成400吧。另外把100904取消了", "确认")],
)
async def test_an_amount_changed_beside_another_write_changes_only_its_own(
    tmp_path: Path, change: str, yes: str
) -> None:
    """The English dropped the refund (only the cancel was asked); the Chinese moved the waiting
    refund of ¥300 to 100904 (the cancel's order) and asked no cancel."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 300 on 100609")
    out = await say(bot, change)
    assert "¥400.00" in str(out["reply"]) and "100904" in str(out["reply"])
    await say(bot, yes)
    assert await refunds_of(bot, "100609") == [400.0]
    assert await refunds_of(bot, "100904") == []
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


# --- one yes, one execution of each action ------------------------------------------------------


async def test_an_action_read_twice_from_one_message_runs_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reading that planned the same refund twice (session 32's first split of "refund the
    thermos and the dinnerware from 100200" did) had one yes pay it twice: identical actions now
    wait once. The matcher's own merging is switched off to plan the duplicate."""
    import helpdesk.packs.shop.intents as shop_intents

    monkeypatch.setattr(shop_intents, "_dedupe", lambda items: items)
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 300 on 100609, refund 300 on 100609")
    assert _tools(out) == ["request_refund", "request_refund"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [300.0]
