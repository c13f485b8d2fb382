"""Whole conversations session 16 found moving money wrongly or asking twice: a hesitation
paying, a refund of an item the order does not hold offered as the whole order, a question while
an action waits dropping it, "yes both" running nothing, "wait, cancel that" both declining and
asking again. Run as a customer meets the bot (the demo shop seeded, the minimal tier) and
counted in the shop's audit log."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say


@pytest.mark.parametrize("hesitation", ["嗯……", "ok...", "hmm", "我再想想", "maybe"])
async def test_a_hesitation_to_a_refund_question_pays_nothing_and_asks_again(
    tmp_path: Path, hesitation: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100200退200块吧，保温杯漏水")
    out = await say(bot, hesitation)
    assert await executions(bot, "create_refund") == []
    assert "200.00" in out["reply"]  # the question, asked again
    await say(bot, "那就退吧")
    assert await refunds_of(bot, "100200") == [200.0]


@pytest.mark.parametrize(
    ("message", "named"),
    [("refund the phone from 100200", "Smartphone X12"), ("100200 退手机", "X12 智能手机")],
)
async def test_a_refund_of_a_product_the_order_does_not_hold_is_never_the_whole_order(
    tmp_path: Path, message: str, named: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert named in out["reply"] and "797.00" in out["reply"]
    assert all(r["status"] != "needs_confirmation" for r in out["tool_results"])
    await say(bot, "yes" if message.isascii() else "是")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "message", ["100200 退保温杯", "把100200里的保温杯退了", "保温杯退掉 100200"]
)
async def test_a_chinese_refund_of_one_item_asks_that_items_price(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert "129.00" in out["reply"]
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [129.0]


async def test_only_the_item_named_is_paid_when_the_order_is_named_by_it(tmp_path: Path) -> None:
    # "手机那单" is the phone's order, not the phone's screen protector's; "只退" is "only"
    bot = bot_for(tmp_path)
    out = await say(bot, "手机那单退2999 只退手机")
    assert "100998" in out["reply"] and "2999.00" in out["reply"]
    await say(bot, "确认")
    assert await refunds_of(bot, "100998") == [2999.0]


@pytest.mark.parametrize(
    ("first", "question", "yes"),
    [
        ("取消订单100998", "取消了钱多久能退回来", "好的，确认取消"),
        ("refund 300 on 100200", "does that go back to my card?", "ok yes"),
    ],
)
async def test_a_question_about_the_waiting_action_is_answered_and_the_action_asked_again(
    tmp_path: Path, first: str, question: str, yes: str
) -> None:
    bot = bot_for(tmp_path)
    asked = await say(bot, first)
    out = await say(bot, question)
    # the policy answered, the same question asked again, nothing run
    assert "1-3" in out["reply"]
    assert asked["reply"].strip().splitlines()[-1] in out["reply"]
    assert [t["asked_again"] for t in out["tasks"] if t["tool"] != "search_faq"] == [True]
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []
    await say(bot, yes)
    done = await executions(bot, "cancel_order") + await executions(bot, "create_refund")
    assert len(done) == 1
    # a second yes runs nothing again
    await say(bot, yes)
    again = await executions(bot, "cancel_order") + await executions(bot, "create_refund")
    assert len(again) == 1


async def test_a_question_about_another_order_still_drops_the_waiting_action(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100904")
    out = await say(bot, "where is 100683?")
    assert "100904" in out["reply"]  # said not to be done
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize("answer", ["wait, cancel that", "cancel that"])
async def test_calling_off_a_refund_declines_it_and_asks_nothing(
    tmp_path: Path, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 300 on 100200")
    out = await say(bot, answer)
    assert all(r["status"] != "needs_confirmation" for r in out["tool_results"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


async def test_yes_both_runs_both_waiting_cancels_once(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancle 100904 and 100998 asap")
    await say(bot, "yes both")
    assert {e["target"] for e in await executions(bot, "cancel_order")} == {"100904", "100998"}
    await say(bot, "yes both")
    assert len(await executions(bot, "cancel_order")) == 2


@pytest.mark.parametrize(
    "question",
    [
        "would a refund on 100200 go back to my alipay?",
        "100200能部分退款吗还是只能全退",
        "如果取消100998，钱是全额退回吗？",
        "100200里那个保温杯不想要了，能退吗？",
    ],
)
async def test_questions_about_refunds_plan_no_write(tmp_path: Path, question: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, question)
    assert all(r["status"] != "needs_confirmation" for r in out["tool_results"])
    assert all(t["tool"] not in ("request_refund", "cancel_order") for t in out["tasks"])


async def test_asking_when_a_human_calls_back_shows_the_transfer_and_files_no_second(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    first = await say(bot, "转人工")
    assert len(await executions(bot, "create_ticket")) == 1
    out = await say(bot, "人工大概多久联系我")
    assert len(await executions(bot, "create_ticket")) == 1
    filed = re.search(r"T-\d{6}", first["reply"])
    assert filed is not None and filed.group(0) in out["reply"]


@pytest.mark.parametrize(
    "message",
    [
        "别把保温杯退了",
        "我不想把保温杯退掉",
        "你们别把100200退了",
        "我朋友说他把手机退掉了",
        "100200退的钱呢",
        "100200 退运费",
        "100683 退回去了",
        "手机退掉？",
        "如果把保温杯退了，钱退到哪",
        "能只退保温杯吗",
        "只退手机不行吗",
    ],
)
async def test_a_no_a_question_or_a_thing_told_about_an_items_refund_pays_nothing(
    tmp_path: Path, message: str
) -> None:
    # session 16 review: each was offered a refund (¥129 .. ¥2999, ¥797 for the whole order)
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "是")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("first", "answer"),
    [
        ("refund half of 100609", "all of them"),
        ("100609退一半", "全部"),
        ("refund 300 on 100200", "both"),
        ("100200退200块吧，保温杯漏水", "两个都"),
    ],
)
async def test_all_or_both_to_one_partial_refund_pays_nothing_on_that_answer(
    tmp_path: Path, first: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, answer)
    assert await executions(bot, "create_refund") == []


async def test_a_count_of_items_is_never_yuan(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "100200保温杯退2只要退款")
    await say(bot, "是")
    assert await executions(bot, "create_refund") == []
    assert "¥2.00" not in out["reply"]


@pytest.mark.parametrize(
    ("first", "question"),
    [("cancel 100904", "where's my phone?"), ("100609退一半", "保温杯已经退掉了")],
)
async def test_a_look_at_another_order_or_a_thing_told_drops_the_waiting_action(
    tmp_path: Path, first: str, question: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, question)
    await say(bot, "yes" if first.isascii() else "是")
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []


async def test_a_bare_refund_word_to_an_item_question_pays_that_item_only(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "手机退掉")
    await say(bot, "退掉")
    assert await refunds_of(bot, "100998") == [2999.0]


async def test_a_no_to_a_refund_beside_a_waiting_cancel_runs_nothing(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消订单100904")
    await say(bot, "别把保温杯退了")
    await say(bot, "是")
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "message",
    [
        "refund the phone from 100998, keep the monitor",  # asked in session 15
        "100998里面的手机我不要了 只退手机 显示器留着",
    ],
)
async def test_one_item_refunded_and_the_other_kept_pays_that_item(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert "2999.00" in out["reply"]
    await say(bot, "yes" if message.isascii() else "是")
    assert await refunds_of(bot, "100998") == [2999.0]


@pytest.mark.parametrize(
    "answer",
    [
        "对，退50，算了",
        "yes, refund 50 — no, don't",
        "yes refund 50 later",
        "yes 50, wait no 30",
        "yes refund 129 for the dinnerware",
        "是，退50吗",
    ],
)
async def test_an_amount_said_again_with_anything_else_is_no_yes(
    tmp_path: Path, answer: str
) -> None:
    # session 16, second review: each ran the waiting ¥50 refund
    bot = bot_for(tmp_path)
    await say(bot, "refund 50 on 100609")
    await say(bot, answer)
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("answer", ["yes, refund the 50", "对，退50吧"])
async def test_an_amount_said_again_alone_is_the_yes(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 50 on 100609")
    await say(bot, answer)
    assert await refunds_of(bot, "100609") == [50.0]


@pytest.mark.parametrize(
    "message",
    [
        "100998 退手机膜",
        "100998 退手机壳",
        "100998 退显示器支架",
        "只退保温杯的盖子 100200",
        "100200 退盘子",
        "100200 退杯盖",
        "100609 退净化器滤芯",
        "100998 退屏幕",
        "refund the monitor cable from my 100998 order",
        "refund the cup from 100200",
    ],
)
async def test_a_part_or_another_thing_of_an_order_is_asked_never_an_item_or_the_whole(
    tmp_path: Path, message: str
) -> None:
    # session 16, second review: the phone (¥2999), the monitor, the thermos or the whole order
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert all(r["status"] != "needs_confirmation" for r in out["tool_results"])
    await say(bot, "yes" if message.isascii() else "是")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(("first", "verb"), [("取消100998", "那退吧"), ("取消100998", "退掉吧")])
async def test_a_refund_word_to_a_cancel_question_cancels_nothing(
    tmp_path: Path, first: str, verb: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, verb)
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize("question", ["is the phone shipped?", "is SKU-1004 in stock?"])
async def test_a_question_about_something_else_leaves_the_waiting_refund_undone(
    tmp_path: Path, question: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 129 on 100200")
    await say(bot, question)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "message", ["发票开不了了", "快递柜开不了了", "我已经不热了", "天气不热了，取消100904吧"]
)
async def test_things_that_are_no_product_fault_are_offered_no_ticket(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert all(
        not (r["status"] == "needs_confirmation" and r.get("tool") == "create_ticket")
        for r in out["tool_results"]
    )
    assert all(t["tool"] != "create_ticket" for t in out["tasks"])


@pytest.mark.parametrize(
    ("first", "answer"),
    [
        ("refund 50 on 100609 and 50 on 100200", "两个都取消"),
        ("cancel 100904 and 100998", "两个都退"),
    ],
)
async def test_both_with_the_other_actions_verb_runs_nothing(
    tmp_path: Path, first: str, answer: str
) -> None:
    # session 16, third review
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, answer)
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []
