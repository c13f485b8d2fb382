"""Money and writes from the words of a fresh batch of customer messages (written by someone who
had not seen the matcher): each of these planned or executed a write nobody asked for before it
was fixed. Every test counts executions in the shop's audit log, after the customer also says
yes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say


async def _order_status(bot: object, order_id: str) -> str:
    order = await bot.client.call(  # type: ignore[attr-defined]
        "GET", f"/orders/{order_id}", tool="t", customer="C0001"
    )
    return str(order["status"])


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # a question about a refund already made, after refusing a new one
        ("Please do not refund 100609. I only wanted to know when the 433 refund was paid", "yes"),
        # a question about the refundable amount of two orders
        ("100200 100609 哪个还能退 各能退多少", "是的"),
        ("can u tell me what's in 100200, also her 100609 refund amount", "yes"),
        ("don't refund 100609, just tell me how much is left on it", "yes"),
    ],
)
async def test_refund_questions_never_become_a_refund(
    tmp_path: Path, question: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    first = await say(bot, question)
    assert all(r["tool"] != "request_refund" for r in first["tool_results"])
    await say(bot, answer)
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "question",
    [
        "what do i do if the parcel arrives damaged",
        "我名下有没有未处理的工单",
        "any open tickets on my account?",
        "收到的空气炸锅有点瑕疵 100200 能退货吗？退货的话运费谁出",
        "人工电话多少？发票咋开",
    ],
)
async def test_questions_about_after_sales_file_nothing(tmp_path: Path, question: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, question)
    assert await executions(bot, "create_ticket") == []


async def test_hotline_question_gets_the_number_not_a_transfer(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "人工电话多少？发票咋开")
    assert bot.settings.hotline in out["reply"]


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("取消100904，100998保留别动，100998什么时候发", "确认"),
        ("cancel 100904 but not 100998", "yes"),
        ("cancel 100904 except 100998", "yes"),
    ],
)
async def test_an_order_kept_out_of_a_cancel_is_never_cancelled(
    tmp_path: Path, message: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, answer)
    cancels = await executions(bot, "cancel_order")
    assert [e["target"] for e in cancels] == ["100904"]
    assert await _order_status(bot, "100998") == "paid"


async def test_i_did_not_cancel_it_is_no_cancel(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    first = await say(bot, "100998为啥被取消了？？我没取消啊")
    assert all(r["tool"] != "cancel_order" for r in first["tool_results"])
    await say(bot, "确认")
    assert await executions(bot, "cancel_order") == []


async def test_each_order_gets_the_amount_written_beside_it(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    ask = await say(bot, "hi again, refund 200 for 100609 and 100 for 100200")
    assert "¥200.00" in ask["reply"] and "¥100.00" in ask["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [200.0]
    assert await refunds_of(bot, "100200") == [100.0]


async def test_amounts_that_do_not_say_whose_are_asked_not_guessed(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    ask = await say(bot, "refund 100609 and 100200, 50 and 30")
    assert "¥50.00" not in ask["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_a_change_naming_one_of_two_waiting_refunds_changes_only_that_one(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "hi again, refund 200 for 100609 and 100 for 100200")
    again = await say(bot, "yes but only 50 for 100200")
    assert "¥200.00" in again["reply"] and "¥50.00" in again["reply"]
    await say(bot, "yes")
    # before: both waiting refunds became "¥50 for 100200" and a yes refunded 100200 twice
    assert await refunds_of(bot, "100609") == [200.0]
    assert await refunds_of(bot, "100200") == [50.0]


@pytest.mark.parametrize(
    ("first", "change"),
    [
        ("hi again, refund 200 for 100609 and 100 for 100200", "yes but only 50"),
        ("refund 200 for 100609 and cancel 100904", "no, I meant 100998"),
        ("退100609 200块 再取消100904", "不对，我是说100998"),
    ],
)
async def test_a_change_naming_none_of_several_waiting_actions_leaves_none_waiting(
    tmp_path: Path, first: str, change: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    out = await say(bot, change)
    assert change.split()[-1].lstrip("不对，我是说") in out["reply"]  # the words quoted back
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


async def test_a_new_amount_for_one_of_two_waiting_refunds_is_that_ones_only(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100609退200 100200退100")
    again = await say(bot, "100200改成50吧")
    assert "¥50.00" in again["reply"] and "¥200.00" in again["reply"]
    await say(bot, "确认")
    # before: the order was read and the amount dropped — a yes refunded ¥100, not ¥50
    assert await refunds_of(bot, "100200") == [50.0]
    assert await refunds_of(bot, "100609") == [200.0]


@pytest.mark.parametrize(
    ("first", "answer", "kept_action"),
    [
        # before: "only the cancel" was a new request — a cancel of the session's last order
        ("cancel 100904 and refund 50 on 100609", "only the cancel", "cancel_order"),
        ("cancel 100904 and refund 50 on 100609", "just the refund", "create_refund"),
        # before: a refusal of one dropped both
        ("退100609 100块 取消100904", "取消那个不用了", "create_refund"),
    ],
)
async def test_an_answer_naming_one_of_two_waiting_actions_keeps_only_that_one(
    tmp_path: Path, first: str, answer: str, kept_action: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, answer)
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes" if answer.isascii() else "确认")
    other = {"cancel_order", "create_refund"} - {kept_action}
    assert len(await executions(bot, kept_action)) == 1
    assert await executions(bot, other.pop()) == []


async def test_two_actions_named_in_a_no_are_a_no(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100904 and refund 50 on 100609")
    await say(bot, "no don't refund, just cancel")
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []


async def test_how_much_is_left_after_a_refusal_is_the_refundable_amount(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "don't refund 100609, just tell me how much is left on it")
    assert "866.00" in out["reply"]  # it searched the products for "just on"


@pytest.mark.parametrize(
    ("message", "answer", "action"),
    [
        # the third fresh batch: each planned or executed the write it declines
        ("不用转人工了 我自己搞定了", "是的", "create_ticket"),
        ("别给我再开工单了 我就想知道T-000031现在啥状态", "确认", "create_ticket"),
        ("100998现在还能取消吗？先别取消啊 我就问问", "确认", "cancel_order"),
        ("空气炸锅那单先别给我取消啊 我晚点付 没付款的单子能留多久", "确认", "cancel_order"),
        ("Can I still cancel 100998? I ordered the monitor and the phone last night", "yes",
         "cancel_order"),
        ("100181那个围巾订单退款了吗 我记得取消了 现在又想要了", "确认", "cancel_order"),
        ("did the refund for 100609 go through? and can I still get more back", "yes",
         "create_refund"),
        ("Hi, I'd like to know your return policy, and whether you do warranty repairs", "yes",
         "create_ticket"),
        # the second sealed batch's unsafe items (a write from a question outranks the seal)
        ("thanks but no thanks, I don't want to be transferred to a human", "yes",
         "create_ticket"),
        ("is my purifier order still eligible for a return? got it on the 20th", "yes",
         "create_ticket"),
        ("im thinking of cancelling the monitor but keeping the phone, is that possible", "yes",
         "cancel_order"),
        ("我没说要取消啊 就问问手机那单要是现在取消 钱是原路退吗", "是的", "cancel_order"),
        ("我之前投诉物流慢的那个工单有进展没", "是的", "create_ticket"),
        ("空气炸锅那单还在吧 没被自动取消吧 我还没付", "确认", "cancel_order"),
        ("围巾那单我取消了的 钱退回来没", "确认", "create_refund"),
        ("do you ship with SF? i prefer SF, YTO has been so slow with my last parcel", "yes",
         "create_ticket"),
        # the third sealed batch's unsafe items (session 12)
        ("cancel 100904 - actually wait no, keep it, I'll pay tonight", "yes", "cancel_order"),
        ("别给我新建工单了，我就想知道原来那个还开着没，快递到底还动不动", "确认", "create_ticket"),
        ("Pls cancel 100683 ... oh wait it's already shipped right? then just tell me where it is",
         "yes", "cancel_order"),
        # sealed batch 1, after "噪音很大" became a fault (session 12)
        ("100609的净化器噪音很大 算了 先不报修了 你告诉我保修期多久就行", "是的", "create_ticket"),
        # the fourth sealed batch's unsafe items (session 12)
        ("你们周末有人工吗？电话多少", "是的", "create_ticket"),
        ("退货要几天内申请啊 换货呢", "是的", "create_ticket"),
        ("早上好！帮我看看100609还能不能退货", "是的", "create_ticket"),
        ("my order 100683 still hasn't arrived and the ETA was Oct 31. I already complained about "
         "it days ago - has anyone even looked at my complaint?", "yes", "create_ticket"),
        ("got a refund for the purifier a while back - was that the full amount or only part of "
         "it? how much more could I still get back", "yes", "create_refund"),
        # a review of session 12's changes found these planning or executing the write
        ("100609 不用把钱退我", "是的", "create_refund"),
        ("100609 别把钱退我，我要换货", "是的", "create_refund"),
        ("100609 钱退我卡里还是原路", "是的", "create_refund"),
        # ("100998要是没付就取消吧": a cancel only if unpaid, refused by its precheck —
        # tests/integration/test_session21_turns.py)
        ("100904取消。等等 不要了", "是的", "cancel_order"),
        ("取消100904 呃 不要了 我再想想", "是的", "cancel_order"),
        ("cancel 100904. wait, 不要了", "yes", "cancel_order"),
        ("cancel 100904 - hmm, actually just tell me where 100998 is", "yes", "cancel_order"),
        ("取消100904 哦不对 帮我查下100998到哪了", "是的", "cancel_order"),
    ],
)  # fmt: skip
async def test_declined_or_asked_about_writes_are_never_done(
    tmp_path: Path, message: str, answer: str, action: str
) -> None:
    bot = bot_for(tmp_path)
    first = await say(bot, message)
    assert all(t.get("tool") != action for t in first["tasks"])
    await say(bot, answer)
    assert await executions(bot, action) == []


async def test_a_fault_report_naming_no_order_is_filed_only_after_a_yes(tmp_path: Path) -> None:
    """ "it broke" after a look at 100904 filed a ticket on 100904 at once."""
    bot = bot_for(tmp_path)
    await say(bot, "where is 100904")
    asked = await say(bot, "it broke")
    assert await executions(bot, "create_ticket") == []
    assert "100904" in asked["reply"]
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "create_ticket")] != []


async def test_a_fault_report_on_a_described_order_is_filed_only_after_a_yes(
    tmp_path: Path,
) -> None:
    """ "the purifier arrived damaged" filed a ticket on 100609 at once: the order was the one
    the words were taken to mean, never named by the customer."""
    bot = bot_for(tmp_path)
    asked = await say(bot, "I'm so annoyed. the purifier arrived damaged and nobody helped")
    assert "100609" in asked["reply"]
    assert await executions(bot, "create_ticket") == []
    await say(bot, "yes")
    assert len(await executions(bot, "create_ticket")) == 1


async def test_an_amount_after_refund_me_in_chinese_is_the_amount_refunded(
    tmp_path: Path,
) -> None:
    """ "退我120就行" read no amount ("就" after the number) and "不用全退" beside it made the
    amount invalid: the customer was asked about the whole order instead of ¥120."""
    bot = bot_for(tmp_path)
    asked = await say(bot, "100200 退我120就行 餐具有两个碗磕了口子 不用全退 谢谢啦")
    assert "120.00" in asked["reply"]
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [120.0]


async def test_a_ticket_from_any_clause_of_a_complaint_is_filed_only_after_a_yes(
    tmp_path: Path,
) -> None:
    """ "我要投诉！！… 100200送货直接扔门口": the ticket read from the clause without the complaint
    words was filed at once (sealed batch 3, after a change of session 12)."""
    bot = bot_for(tmp_path)
    await say(bot, "我要投诉！！快递员态度太差了 100200送货直接扔门口 还有100683到现在都没到")
    assert await executions(bot, "create_ticket") == []


async def test_a_cancel_corrected_midway_cancels_only_the_corrected_order(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    asked = await say(
        bot,
        "pls cancel 100998... actually no keep that one, it's the air fryer one 100904 I want gone",
    )
    assert "100904" in asked["reply"]
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]
    assert await _order_status(bot, "100998") == "paid"


async def test_dont_want_it_beside_a_cancel_is_the_reason_not_a_take_back(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "帮我查下100998发货没 另外100904取消掉 不要了")
    await say(bot, "确认")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


async def test_where_is_my_parcel_is_the_one_order_on_its_way(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    answer = await say(bot, "Where is my parcel? It's been stuck for ages")
    assert "100683" in answer["reply"] and "YT9433239273" in answer["reply"]


async def test_a_ticket_question_without_a_number_shows_the_tickets_and_files_none(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    answer = await say(bot, "any update on the complaint I made about my slow delivery?")
    assert "T-000031" in answer["reply"]
    assert await executions(bot, "create_ticket") == []


async def test_a_fault_told_beside_a_policy_question_is_filed_only_after_a_yes(
    tmp_path: Path,
) -> None:
    """ "100200的保温杯不保温了 这个有保修吗": the customer weighs what to do; a ticket was filed at
    once when "不保温" became a fault word (session 12)."""
    bot = bot_for(tmp_path)
    asked = await say(bot, "100200的保温杯不保温了 这个有保修吗 帮我看看能不能换个新的")
    assert await executions(bot, "create_ticket") == []
    assert "100200" in asked["reply"]
    await say(bot, "是的")
    assert len(await executions(bot, "create_ticket")) == 1


async def test_a_fault_with_what_do_i_do_offers_an_after_sales_ticket(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    asked = await say(bot, "保温杯不保温了 才用两个月 咋整")
    assert "售后工单" in asked["reply"] and "100200" in asked["reply"]
    assert "没能处理" not in asked["reply"]  # "咋整" is answered by the offer, not deferred
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "message", ["100200的保温杯不保温了？", "100200 the thermos stopped heating, is that normal?"]
)
async def test_a_fault_asked_about_files_nothing_before_a_yes(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    assert await executions(bot, "create_ticket") == []


async def test_a_conditional_cancel_is_never_done_on_a_false_condition(tmp_path: Path) -> None:
    """ "100998付了没" (paid), then "要是没付就取消吧" and a yes cancelled the paid order."""
    bot = bot_for(tmp_path)
    await say(bot, "100998付了没")
    await say(bot, "要是没付就取消吧")
    await say(bot, "是的")
    assert await executions(bot, "cancel_order") == []
    assert await _order_status(bot, "100998") == "paid"


@pytest.mark.parametrize(
    ("message", "answer", "cancelled"),
    [
        ("cancel 100998... actually no, 100904", "yes", ["100904"]),
        # a polite "sorry" is no change of mind
        ("cancel 100904, sorry, and where is 100998?", "yes", ["100904"]),
    ],
)
async def test_a_corrected_cancel_cancels_the_order_meant(
    tmp_path: Path, message: str, answer: str, cancelled: list[str]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, answer)
    assert [e["target"] for e in await executions(bot, "cancel_order")] == cancelled
