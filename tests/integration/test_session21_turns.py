"""Whole conversations session 21 changed: a bare yes right after an action was moved on from,
a cancel on a condition ("要是没付就取消吧", "三件冲锋衣那单还没发货吧？没发就取消掉"), "cancel it"
to a cancel question, a money question's "多久能到" — run as a customer meets the bot (the demo
shop seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpdesk.app.session import run_turn
from helpdesk.app.wiring import Bot
from tests.integration.test_trust import bot_for, executions, say


async def _cancelled(bot: Bot) -> list[str]:
    return [e["target"] for e in await executions(bot, "cancel_order")]


async def _turns(bot: Bot, *texts: str, customer: str = "C0001") -> list[dict[str, object]]:
    return [await run_turn(bot, t, session="s", customer=customer) for t in texts]


# --- a bare yes right after an action was moved on from ------------------------------------------


@pytest.mark.parametrize("late_yes", ["yeah go on then", "fine, go ahead", "行吧"])
async def test_a_yes_right_after_a_dropped_cancel_asks_it_again_and_a_second_yes_runs_it(
    tmp_path: Path, late_yes: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "I need to cancel 100904")
    moved_on = await say(bot, "is SKU-1004 in stock?")
    assert "has not been cancelled" in str(moved_on["reply"])
    asked = await say(bot, late_yes)
    assert [r["status"] for r in asked["tool_results"]] == ["needs_confirmation"]
    assert await _cancelled(bot) == []
    await say(bot, "yes")
    assert await _cancelled(bot) == ["100904"]


async def test_a_new_request_right_after_a_dropped_action_is_that_request(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    # (the ticket offered on the first turn is moved on from; the refund is its own request)
    await _turns(
        bot,
        "I AM SO DONE WITH YOUR DELIVERIES. ORDER 100609 NEVER CAME",
        "oh wait, no, I mean the screen protector, the purifier came fine",
    )
    (refund,) = await _turns(bot, "just refund the whole thing then")
    assert "29.00" in str(refund["reply"])
    (no,) = await _turns(bot, "no wait, don't. I'll give it two more days.")
    assert [t["intent"] for t in no["tasks"]] == ["confirm_no"]  # type: ignore[index]
    await _turns(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize("answer", ["cancel it", "取消吧", "cancel"])
async def test_the_cancel_verb_alone_to_a_cancel_question_is_asked_again(
    tmp_path: Path, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel order 100904")
    out = await say(bot, answer)
    assert [r["status"] for r in out["tool_results"]] == ["needs_confirmation"]
    assert await _cancelled(bot) == []


async def test_when_the_money_comes_keeps_the_cancel_question(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100998 帮我取消掉")
    out = await say(bot, "取消了钱是原路退回吗？多久能到？")
    assert [t["tool"] for t in out["tasks"]] == ["search_faq", "cancel_order"]
    assert "没有取消" not in str(out["reply"])
    await say(bot, "行吧")
    assert await _cancelled(bot) == ["100998"]


# --- a cancel on a condition -----------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "100904付了没 我记得付了 要是没付就取消吧",
        "帮我看看炸锅那个订单是不是还没付 没付的话就取消了吧",
        "if I havent paid for 100904 yet, cancel it",
        "is 100904 unpaid? if so cancel it",
    ],
)
async def test_a_cancel_if_unpaid_of_an_unpaid_order_is_asked_and_runs_on_a_yes(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    assert await _cancelled(bot) == []
    await say(bot, "yes")
    assert await _cancelled(bot) == ["100904"]


@pytest.mark.parametrize(
    "message", ["100998要是没付就取消吧", "if 100998 is still unpaid, cancel it"]
)
async def test_a_cancel_if_unpaid_of_a_paid_order_is_never_asked_and_says_why(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert "100998" in str(out["reply"])
    assert ("没有取消" in str(out["reply"])) or ("haven't cancelled" in str(out["reply"]))
    await say(bot, "yes")
    await say(bot, "确认")
    assert await _cancelled(bot) == []


@pytest.mark.parametrize(
    "message",
    [
        "100904没付的话会取消吗？",
        "100904没付的话就取消吗？",
        "if I dont pay will 100904 be cancelled?",
        "100904付了没？付了就别取消",
        "100998还没发货吧？没发也别取消",
    ],
)
async def test_a_question_or_a_no_about_a_conditional_cancel_never_cancels(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes")
    await say(bot, "确认")
    assert await _cancelled(bot) == []


async def test_a_cancel_if_not_shipped_takes_the_order_the_look_describes(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await run_turn(
        bot, "三件冲锋衣那单还没发货吧？没发就取消掉", session="s", customer="C0103"
    )
    assert "100812" in str(out["reply"])
    await run_turn(bot, "对", session="s", customer="C0103")
    response = await bot.client.http.get(
        "/audit", params={"action": "cancel_order"}, headers={"X-Customer-Id": "C0103"}
    )
    assert [e["target"] for e in response.json()["entries"]] == ["100812"]


async def test_a_count_in_a_product_name_names_nothing(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    # C0001 bought no jacket: "三件" is not the "（16 件）" of the dinnerware set's name
    out = await say(bot, "三件冲锋衣那单还没发货吧？没发就取消掉")
    assert "您说的是订单 100200" not in str(out["reply"])
    assert "您最近的订单" in str(out["reply"])  # which one: the list to pick from
    await say(bot, "确认")
    assert await _cancelled(bot) == []


async def test_a_refund_of_the_same_for_an_order_not_found_says_so(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 866 on 100609")
    await say(bot, "yes")
    out = await say(bot, "now do the same for 100452")
    assert "couldn't find order 100452" in str(out["reply"])
    assert "right now" not in str(out["reply"])


async def test_a_ticket_asked_for_with_its_order_told_beside_is_filed_for_that_order(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "帮我开个工单，100683的包裹丢了")
    assert "根据之前的对话" not in str(out["reply"])  # the order is this message's own
    assert [e["target"] for e in await executions(bot, "create_ticket")] == ["T-000041"]
    # beside another request the order may be the other one's: asked first
    (tmp_path / "other").mkdir()
    other = bot_for(tmp_path / "other")
    await say(other, "can you file a ticket about my broken thermos? also cancel 100904")
    assert await executions(other, "create_ticket") == []


# --- how much is still refundable, on a thing ---------------------------------------------------


@pytest.mark.parametrize(
    ("message", "facts"),
    [
        ("净化器还能退多少", ["100609", "866.00"]),
        ("如果只退保温杯的话，能退多少？", ["100200", "129.00"]),
        ("If I send back only the thermos from 100200, how much would I get back?", ["129.00"]),
    ],
)
async def test_how_much_a_thing_would_bring_back_is_its_orders_look_never_a_refund(
    tmp_path: Path, message: str, facts: list[str]
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert all(f in str(out["reply"]) for f in facts)
    await say(bot, "确认" if not message.isascii() else "yes")
    assert await executions(bot, "create_refund") == []


async def test_a_thing_not_bought_lists_the_orders(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "空调还能退多少")
    assert "您最近的订单" in str(out["reply"])


# --- what the review of this session's first version found ------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "100683一直没到，要不要给你开个工单",
        "你们开工单有什么用？100683的包裹丢了",
        "上次你们说帮我开个工单，100683还是没到",
        "can you even open a ticket? 100683 is lost",
        "帮我开个工单？100683的包裹丢了",
    ],
)
async def test_a_ticket_asked_about_or_reported_is_never_filed_before_a_yes(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "不要了" if not message.isascii() else "no")
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "answer", ["cancel it", "取消", "no wait, don't. I'll give it two more days.", "取消退款"]
)
async def test_an_answer_to_two_questions_then_bare_yeses_run_nothing(
    tmp_path: Path, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100998 and refund 100609")
    await say(bot, answer)
    await say(bot, "ok")
    await say(bot, "好的")
    assert await _cancelled(bot) == []
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "message",
    [
        "is 100998 unpaid? if so cancel it",
        "is 100998 paid? if not, cancel it",
        "100998付了吗？没付就取消掉",
        "100998付款了吗？没有就取消吧",
        "100998付钱了没 没的话就取消吧",
        "100998付了吗 没有的话取消",
        "100998 paid yet? no? then cancel",
        "my wife says 100998 isn't paid, if so cancel it",
        "100998没付款就取消，付了就退款",
        # a condition about another order: no cancel at all
        "if 100998 is unpaid cancel 100904",
        "100998没付的话把100904取消了",
        "100683发货了吗？没发的话取消100998",
        "100683还没发货吧？没发就取消100998",
    ],
)
async def test_a_cancel_on_a_false_condition_never_runs(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes")
    await say(bot, "确认")
    assert await _cancelled(bot) == []


# --- words that only say what a request beside them is about ------------------------------------


async def test_what_a_transfer_is_about_goes_with_it(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(
        bot,
        "i want to speak with someone from customer service, not a machine. it's about the "
        "refund on 100609",
    )
    assert [(t["tool"], t["args"].get("order_id")) for t in out["tasks"] if t["tool"]] == [
        ("handoff_to_human", "100609")
    ]


async def test_a_fault_told_beside_its_ticket_is_the_tickets_reason(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "100200的餐具到的时候碎了两个碗 马上给我开工单")
    assert "get_order" not in [t["tool"] for t in out["tasks"]]
    assert [e["target"] for e in await executions(bot, "create_ticket")] == ["T-000041"]
    (tmp_path / "q").mkdir()
    quiet = bot_for(tmp_path / "q")
    out = await say(
        quiet, "My order 100200 came with a kettle instead of the thermos. Not what I ordered!"
    )
    assert "search_faq" not in [t["tool"] for t in out["tasks"]]


@pytest.mark.parametrize(
    "message",
    [
        "price of the 27 inch monitor? i might buy a second one. and when does my first one ship",
        "27寸显示器多少钱 想再买一台 之前那台什么时候发",
        "when does my phone ship",
        "我的手机啥时候发货",
    ],
)
async def test_when_a_thing_bought_ships_is_its_orders_state(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert ("get_order", "100998") in [(t["tool"], t["args"].get("order_id")) for t in out["tasks"]]


# --- the second review ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer", ["取消退款", "cancel that request", "取消这个退款申请", "just cancel", "好 取消"]
)
async def test_a_refund_called_off_is_never_asked_again_by_a_bare_yes(
    tmp_path: Path, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    await say(bot, answer)
    await say(bot, "ok")
    await say(bot, "ok")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "message",
    [
        "不用给100683开工单",
        "要不要给100683开个工单",
        "can I open a ticket for 100683?",
        "如果明天还没到就给100683开个工单",
        "open a ticket if 100683 isnt here by friday",
        "you said youd open a ticket for 100683 last week",
    ],
)
async def test_a_ticket_for_a_named_order_asked_about_is_not_filed_at_once(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "message",
    [
        "is 100998 paid? if not, cancel 100904",
        "100998付了没？没付的话，取消100904",
        "has 100609 shipped? if it hasnt, cancel 100904",
        "if payment for 100998 hasn't gone through, cancel it",
        "100998待付款的话取消",
        "100904如果没付的话，你们会取消吗？",
        "would you cancel 100904 automatically if unpaid? please dont",
    ],
)
async def test_more_conditions_never_cancel_on_a_yes(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "对")
    assert await _cancelled(bot) == []


@pytest.mark.parametrize(
    "message",
    ["100683到哪了 另外100904要是还没付就取消吧", "取消100904，100683要是周五还不到就退"],
)
async def test_a_cancels_own_condition_still_holds_beside_a_look(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "对")
    assert await _cancelled(bot) == ["100904"]


async def test_an_order_the_message_names_apart_is_not_said_to_come_from_earlier(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "100683一直没到，要不要给你开个工单")
    assert "根据之前的对话" not in str(out["reply"]) and "100683" in str(out["reply"])
    assert await executions(bot, "create_ticket") == []
