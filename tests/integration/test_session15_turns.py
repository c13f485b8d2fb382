"""Whole turns session 15 found planning writes or money from questions, thanks or conditions,
or offering a second ticket beside an open one: run as a customer meets the bot (the demo shop
seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say

WRITES = ("cancel_order", "create_refund", "create_ticket")


async def _said_then_yes(bot: Any, message: str) -> dict[str, Any]:
    """The message, then a plain yes in its language; the first reply."""
    out = await say(bot, message)
    await say(bot, "yes" if message.isascii() else "确认")
    return out


async def _writes(bot: object) -> int:
    return sum([len(await executions(bot, action)) for action in WRITES])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "complaint",
    ["screen protector still not here. not happy.", "钢化膜还没到 服了"],
)
async def test_a_complaint_about_an_order_with_an_open_ticket_names_it_and_offers_none(
    tmp_path: Path, complaint: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, complaint)
    assert "T-000031" in out["reply"]
    assert all(r["status"] != "needs_confirmation" for r in out["tool_results"])
    # nothing waits for a yes: a yes files nothing
    await say(bot, "yes" if complaint.isascii() else "是")
    assert await executions(bot, "create_ticket") == []


async def test_a_ticket_asked_for_in_so_many_words_is_filed_beside_an_open_one(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "file a complaint ticket for 100683 please")
    assert len(await executions(bot, "create_ticket")) == 1


async def test_a_complaint_about_an_order_without_a_ticket_is_still_offered_one(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "我要投诉 100200 盘子碎了")
    assert any(r["status"] == "needs_confirmation" for r in out["tool_results"])
    await say(bot, "是")
    assert len(await executions(bot, "create_ticket")) == 1


async def test_the_same_line_is_said_once_in_a_reply(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "screen protector still not here. not happy.")
    lines = [line for line in out["reply"].splitlines() if line.strip()]
    assert len(lines) == len(set(lines))


@pytest.mark.parametrize(
    "message",
    [
        "if the screen protector doesnt show up by friday refund me, otherwise nvm",
        "钢化膜那单要是今天还不到就给我退了",
        "refund 100683 if it's not here by tomorrow",
        "cancel 100998 if it hasn't shipped by friday",
    ],
)
async def test_a_refund_or_cancel_wanted_if_late_by_a_day_to_come_is_a_look_now(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert {t["tool"] for t in out["tasks"]} <= {"track_shipment", "get_order"}
    await say(bot, "yes" if message.isascii() else "好的")
    assert await _writes(bot) == 0


@pytest.mark.parametrize(
    "message",
    [
        "thx for the 433 refund. btw is the purifier filter covered under warranty?",
        "ok thats all, thanks for sorting the refund 👍",
        "谢谢 退款收到了",
        "hey whats up with 100609, I thought you only refunded part of it?",
        "could I still cancel the monitor + phone order if I wanted to? not asking you to do it,"
        " just checking",
        "never mind about cancelling 100904, I'll keep the air fryer. how soon does it ship once I"
        " pay?",
        "I was about to cancel 100904 but don't, I still want the air fryer. when will it ship?",
        "100181是谁取消的？？我没点取消啊 那条围巾我还想要呢",
        "我不想投诉 就想问下T-000031现在是谁在跟",
        "你好 想问下已付款的订单取消的话 钱是全额退吗",
        "快递到了发现箱子压扁了 是拒收还是先签收再退",
        "did R-000094 go through? I requested that refund two weeks ago and it still says"
        " requested",
    ],
)
async def test_questions_thanks_and_withdrawn_actions_plan_and_do_nothing(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    planned = {t["tool"] for t in out["tasks"]}
    assert not planned & {"cancel_order", "request_refund", "create_ticket", "handoff_to_human"}
    await say(bot, "yes")
    assert await _writes(bot) == 0


@pytest.mark.parametrize(
    ("message", "yes", "order_id", "amount"),
    [
        ("can u refund half of what i paid for the air fryer? basket is scratched but i'll keep it",
         "yes", "100200", 199.5),
        ("100200 退我三分之一", "确认", "100200", 265.67),
        ("refund me 30% on 100200", "yes", "100200", 239.1),
        ("帮我把空气净化器剩下能退的退一半", "确认", "100609", 433.0),
        ("refund just the thermos from 100200 please", "yes", "100200", 129.0),
        ("refund the air fryer order, all of it", "yes", "100200", 797.0),
    ],
)  # fmt: skip
async def test_a_share_or_an_item_is_asked_as_its_exact_amount_and_refunded_once(
    tmp_path: Path, message: str, yes: str, order_id: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert f"{amount:.2f}" in out["reply"]
    await say(bot, yes)
    assert await refunds_of(bot, order_id) == [amount]
    # a second yes moves no more money
    await say(bot, yes)
    assert await refunds_of(bot, order_id) == [amount]


async def test_a_share_of_more_than_is_left_is_refused_with_the_maximum(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "refund half of what I paid for 100609")  # 649.5 of 866 left: fine
    assert "649.50" in out["reply"]
    await say(bot, "yes")
    out = await say(bot, "now refund another half of what I paid for 100609")
    assert "216.50" in out["reply"]  # the most left, said; nothing asked
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [649.5]


@pytest.mark.parametrize(
    "message",
    [
        "if 100998 doesn't ship by monday cancel it and refund me",
        "if 100683 isn't here by tomorrow, cancel it and refund",
    ],
)
async def test_every_write_waiting_on_a_day_to_come_is_a_look_now(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert {t["tool"] for t in out["tasks"]} == {"get_order"}
    await say(bot, "yes")
    assert await _writes(bot) == 0


@pytest.mark.parametrize(
    ("message", "action"),
    [
        ("I was planning to cancel 100904 anyway, so please cancel it", "cancel_order"),
        ("I was about to cancel 100904, please do it now", "cancel_order"),
        ("please don't forget about cancelling 100904", "cancel_order"),
        ("cancel 100904 right away, if it isn't cancelled by tonight I'll dispute it",
         "cancel_order"),
        ("我已经申请过退款了，100200，请尽快处理退款", "create_refund"),
        ("感谢 请把空气炸锅退款", "create_refund"),
        ("I'm not complaining, but the air fryer in 100200 stopped heating, please open a ticket",
         "create_ticket"),
        ("I want to complain about 100683 and open a ticket for it", "create_ticket"),
    ],
)  # fmt: skip
async def test_writes_asked_for_beside_words_that_look_like_a_withdrawal_still_happen(
    tmp_path: Path, message: str, action: str
) -> None:
    bot = bot_for(tmp_path)
    await _said_then_yes(bot, message)
    assert len(await executions(bot, action)) == 1


async def test_two_orders_tracked_each_keep_their_own_lines(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "track 100609 and 100200")
    assert out["reply"].count("Tracking history") == 3  # one per shipment of both orders


@pytest.mark.parametrize(
    ("message", "order_id"),
    [
        ("where's the refund for the 797 order? I sent the air fryer back", "100200"),
        ("花了5198那单啥时候发货啊 急用", "100998"),
        ("The order I paid 5198 for, has it left the warehouse yet?", "100998"),
    ],
)
async def test_an_order_named_by_its_total_is_that_order(
    tmp_path: Path, message: str, order_id: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    looked = [t["args"].get("order_id") for t in out["tasks"] if t["tool"] == "get_order"]
    assert looked == [order_id]
    assert await _writes(bot) == 0


async def test_an_action_on_an_order_named_by_its_total_acts_on_that_order_only(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel the 399 order")
    await say(bot, "yes")
    cancelled = await executions(bot, "cancel_order")
    assert [e["target"] for e in cancelled] == ["100904"]


@pytest.mark.parametrize(
    "message",
    [
        "I want to complain about 100683",
        "我要投诉 100683 一直不到",
        "100683 I want to complain about the courier",
    ],
)
async def test_a_complaint_made_in_so_many_words_is_offered_beside_an_open_ticket(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert any(r["status"] == "needs_confirmation" for r in out["tool_results"])
    await say(bot, "yes" if message.isascii() else "是")
    assert len(await executions(bot, "create_ticket")) == 1


@pytest.mark.parametrize(
    "message",
    [
        "refund 100200 but not the air fryer",
        "the thermos leaks but the air fryer is fine. refund 100200",
        "refund half of 100200 please, the air fryer and thermos are both broken",
        "退一半 100200 和 100609",
        "I've spent half my weekend on this, just refund 100200",
    ],
)
async def test_which_part_to_refund_unclear_is_asked_never_guessed(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert all(r["status"] != "needs_confirmation" for r in out["tool_results"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_the_part_asked_about_is_then_refunded_as_said(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 but not the air fryer")
    out = await say(bot, "398")
    assert "398.00" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [398.0]


async def test_things_listed_for_a_refund_are_offered_at_what_they_cost_together(
    tmp_path: Path,
) -> None:
    # (session 20: two things listed one after the other are a sum, no longer asked)
    bot = bot_for(tmp_path)
    out = await say(bot, "refund the thermos and the dinnerware from 100200")
    assert "398.00" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [398.0]


@pytest.mark.parametrize(
    ("message", "cancelled", "looked"),
    [
        ("cancel 100904 now, and refund 100683 if it doesn't come by friday", ["100904"], "100683"),
        ("cancel 100904. if 100683 isn't here by friday, refund it", ["100904"], "100683"),
        ("100998 要是明天还不发就取消吧 100904现在就取消", ["100904"], "100998"),
    ],
)  # fmt: skip
async def test_only_the_write_that_waits_on_a_day_waits(
    tmp_path: Path, message: str, cancelled: list[str], looked: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert ("get_order", looked) in [(t["tool"], t["args"].get("order_id")) for t in out["tasks"]]
    await say(bot, "yes" if message.isascii() else "确认")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == cancelled
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("message", "action"),
    [
        ("I was about to cancel 100904 but it's not letting me, please cancel it", "cancel_order"),
        ("R-000094 refund the rest of 100609", "create_refund"),
        ("thanks for the refund, I'd like the thermos from 100200 refunded as well",
         "create_refund"),
    ],
)  # fmt: skip
async def test_requests_beside_a_past_refund_or_an_aborted_try_are_served(
    tmp_path: Path, message: str, action: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes")
    assert len(await executions(bot, action)) == 1


async def test_a_chinese_confirmation_is_said_once(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "退100200里的保温杯")
    assert out["reply"].count("申请退款") == 1 and "¥129.00" in out["reply"]


@pytest.mark.parametrize(
    ("message", "action", "target"),
    [
        ("取消100904，100683要是周五还不到就退", "cancel_order", "100904"),
        ("100904先取消，100998要是周一还不发货也取消", "cancel_order", "100904"),
        ("I'm not asking you to refund 100609, but please cancel 100904", "cancel_order", "100904"),
        ("thanks for refunding 100609. please cancel 100904", "cancel_order", "100904"),
        ("谢谢100609的退款，帮我取消100904", "cancel_order", "100904"),
    ],
)
async def test_one_yes_runs_only_the_write_asked_for_now(
    tmp_path: Path, message: str, action: str, target: str
) -> None:
    bot = bot_for(tmp_path)
    await _said_then_yes(bot, message)
    assert [e["target"] for e in await executions(bot, action)] == [target]
    assert await executions(bot, "create_refund") == []
    assert len(await executions(bot, "cancel_order")) == (action == "cancel_order")


async def test_the_refund_beside_a_conditional_one_is_the_only_money_moved(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "退100200的保温杯，100683要是周五还不到就退")
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [129.0]
    assert await refunds_of(bot, "100683") == []


@pytest.mark.parametrize(
    "message",
    [
        "refund me for 100683 if it doesn't come tomorrow",
        "if 100683 still isn't here next week, refund it",
        "refund 100683 if it's late again",
        "cancel 100998 if it doesn't ship in 2 days",
        "100998两天内不发货就取消",
        "refund 100609 if the purifier breaks again",
        "100683 再不到我就要退款了",
        "再退一个 100200",
        "100200 退一部分",
        "refund 2 thermoses from 100200",
        "refund some of 100200",
        "没有投诉，100200很好",
        "not a complaint, just asking about 100683",
        "I don't want to file a complaint, just track 100683",
        "I was going to file a ticket for 100200 but it's fixed",
        "本来想开个工单说100200的餐具碎了，后来发现没碎",
        "I'll complain if 100683 doesn't arrive by friday",
        "我要撤回对100683的投诉",
    ],
)
async def test_conditions_counts_and_denials_move_nothing_even_after_a_yes(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await _said_then_yes(bot, message)
    assert await _writes(bot) == 0


async def test_never_mind_to_which_part_does_nothing_and_says_so(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund the thermos and the dinnerware from 100200")
    out = await say(bot, "never mind")
    assert "nothing will be done" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("first", "correction", "order_id", "amount"),
    [
        ("refund 100200", "sorry I meant 100609", "100609", 866.0),
        ("refund half of 100200", "no, the whole thing", "100200", 797.0),
    ],
)
async def test_a_correction_asks_the_new_refund_as_a_whole_never_with_the_old_amount(
    tmp_path: Path, first: str, correction: str, order_id: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    out = await say(bot, correction)
    assert f"{amount:.2f}" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, order_id) == [amount]
    assert len(await executions(bot, "create_refund")) == 1


@pytest.mark.parametrize(
    "message",
    [
        "I wanted to cancel 100904 earlier but I'll keep it",
        "I no longer want to cancel 100904",
        "ignore my earlier message about refunding 100609",
        "scratch that refund on 100200",
        "I changed my mind about the refund for 100200",
        "I wanted a refund for 100200 but actually it's fine now",
        "thanks for the 433 refund on 100609",
        "appreciate the refund on 100609",
        "thank you for refunding me for the purifier",
        "除了餐具，100200都退",
        "refund 269 and 129 on 100200",
        "refund 100683 in case it never arrives",
        "maybe I'll cancel 100998 next week",
        "要是100998今晚还没发货就取消",
        "100683丢件的话就退款",
        "I'm going to complain if this keeps happening",
        "file a complaint if 100683 doesn't arrive tomorrow",
        "再不到我就投诉了 100683",
        "pls dont open any new ticket, I only want to know if my old one is still open",
    ],
)
async def test_withdrawals_thanks_exceptions_and_threats_move_nothing_after_a_yes(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await _said_then_yes(bot, message)
    assert await _writes(bot) == 0


async def test_a_cancel_asked_for_now_beside_a_conditional_refund_is_kept(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(
        bot, "Cancel 100904 now. The screen protector, refund it only if it's not here by Friday."
    )
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]
    assert await executions(bot, "create_refund") == []


async def test_a_filed_complaint_is_called_one_and_names_the_open_ticket_first(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    asked = await say(bot, "I want to file a complaint about 100683")
    assert "T-000031" in asked["reply"]
    done = await say(bot, "yes")
    assert "complaint ticket" in done["reply"]
    assert len(await executions(bot, "create_ticket")) == 1


@pytest.mark.parametrize(
    "message",
    [
        "refund 100200 save the thermos",
        "cancel 100904, actually changed my mind",
        "refund 100200 — ignore that, it's fine",
        "I had planned to cancel 100904 but decided to keep it",
        "100904 不需要取消了",
        "thank u for the refund on my purifier order",
        "谢谢你们给100609退款",
        "refund for 100609 came through, thank you",
        "maybe later refund 100683",
        "refund 100683 later, not now",
        "100683 要是丢件了给我退",
        "refund 100683 if it never comes",
        "要是明天还不到我要投诉",
        "100683 明天还不到我就要投诉",
        "refund 2 down jackets from 100200",
        "refund 269 or 129 on 100200",
    ],
)
async def test_fifth_review_phrasings_move_nothing_after_a_yes(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await _said_then_yes(bot, message)
    assert await _writes(bot) == 0


@pytest.mark.parametrize(
    ("message", "order_id", "amount"),
    [
        ("refund 100609 the rest, R-000094 was only 433", "100609", 866.0),
        ("100200 现在退款，100683 要是周五还不到也退", "100200", 797.0),
    ],
)
async def test_the_amount_meant_is_the_one_paid_and_nothing_else(
    tmp_path: Path, message: str, order_id: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    await _said_then_yes(bot, message)
    assert await refunds_of(bot, order_id) == [amount]
    assert len(await executions(bot, "create_refund")) == 1


async def test_a_stated_amount_follows_the_corrected_order(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 129 from 100200")
    out = await say(bot, "no, from 100609")
    assert "129.00" in out["reply"] and "100609" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [129.0]


async def test_the_cancel_beside_a_conditional_refund_of_a_described_order_stays(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(
        bot,
        "cancel the air fryer order, and refund the screen protector if it doesnt come by friday",
    )
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "message",
    [
        "cancel 100904 and 100998. scratch the 100998 part",
        "cancel 100904 and 100998. keep 100998",
        "取消100904和100998。100998算了",
    ],
)
async def test_an_order_let_go_of_in_a_later_sentence_is_left_alone(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert "100998" in out["reply"]  # said to be left alone
    assert "couldn't handle" not in out["reply"] and "没能处理" not in out["reply"]
    await say(bot, "yes" if message.isascii() else "确认")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]
