"""Whole turns session 30 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from helpdesk.app.session import run_turn
from tests.integration.test_trust import bot_for, executions, refunds_of, say


def _tools(out: dict[str, Any]) -> list[Any]:
    return [t.get("tool") for t in out["tasks"]]


# --- a late order told beside a cancel of another: both answered, only the cancel asked ---------


async def test_late_order_beside_a_cancel_of_another_order(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    daniel = "C0113"
    text = (
        "hey it's Daniel. my phone order 100770 is taking forever, and while you're at it "
        "cancel the knife order"
    )
    out = await run_turn(bot, text, session="d", customer=daniel)
    reply = str(out["reply"])
    assert "YT4005196189" in reply  # the late order's parcel, shown
    assert "cancel order 100821" in reply  # the knife order's cancel, asked
    assert await executions(bot, "cancel_order", daniel) == []
    await run_turn(bot, "yes", session="d", customer=daniel)
    cancelled = await executions(bot, "cancel_order", daniel)
    assert [e["target"] for e in cancelled] == ["100821"]


# --- a product asked after beside a remark: the product is looked up ---------------------------


async def test_still_sold_beside_a_remark_is_a_product_question(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(
        bot,
        "is the air fryer still sold? I want a second one for my mum. and when does the "
        "dinnerware set come back, mine came chipped",
    )
    reply = str(out["reply"])
    assert "Air Fryer 5L (SKU-1028), ¥399.00" in reply
    assert "SKU-1037" in reply


@pytest.mark.parametrize(("text", "sku"), [("保温杯有几种颜色", "SKU-1025")])
async def test_which_variants_a_thing_has_is_a_product_question(
    tmp_path: Path, text: str, sku: str
) -> None:
    out = await say(bot_for(tmp_path), text)
    assert _tools(out) == ["search_products"]
    assert sku in str(out["reply"])


async def test_replacing_it_myself_is_no_ticket(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "is the dinnerware set back in stock so I can replace them?")
    assert "create_ticket" not in _tools(out)
    assert "SKU-1037" in str(out["reply"])
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


# --- a noise told is a fault (a ticket offered); asked about, it is not --------------------------


async def test_a_noise_told_beside_a_warranty_question_is_offered_a_ticket(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(
        bot,
        "what's the warranty on the air purifier? it's making a weird rattling noise since "
        "last week",
    )
    reply = str(out["reply"])
    assert "1-year warranty" in reply
    assert "ticket for order 100609" in reply
    assert await executions(bot, "create_ticket") == []
    await say(bot, "yes")
    assert len(await executions(bot, "create_ticket")) == 1


@pytest.mark.parametrize(
    "text",
    [
        "is it normal that the purifier makes a loud noise?",
        "the purifier makes a weird noise, is that normal?",
        "my purifier is making a weird noise, is that normal?",
        "will it make a loud noise?",
    ],
)
async def test_a_noise_asked_about_offers_no_ticket(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "create_ticket" not in _tools(out)
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


# --- "change where it gets delivered" is an address change -------------------------------------


async def test_change_where_an_order_is_delivered(tmp_path: Path) -> None:
    out = await say(
        bot_for(tmp_path),
        "Is it possible to change where 100904 gets delivered before I pay? also do you have "
        "a smaller cheaper air fryer than that one",
    )
    reply = str(out["reply"])
    assert "can't change a delivery address myself" in reply and "100904" in reply
    assert "SKU-1028" in reply


# --- what an order holds beside its parcels' numbers: both shown, each history headed ----------


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("100200里面都有啥来着 是不是分两个包裹寄的 两个快递单号都发我下", "空气炸锅 5L ×1"),
        ("what's in 100200 and send me both tracking numbers", "Air Fryer 5L ×1"),
    ],
)
async def test_contents_and_tracking_numbers_of_one_order(
    tmp_path: Path, text: str, items: str
) -> None:
    out = await say(bot_for(tmp_path), text)
    assert _tools(out) == ["get_order", "track_shipment"]
    reply = str(out["reply"])
    assert items in reply
    tracking = reply.split("\n\n")[1]
    # each parcel's history follows its own number, though the order's answer named both
    for number in ("YT8741553924", "SF8168184950"):
        assert number in tracking
    assert tracking.index("YT8741553924") < tracking.index("SF8168184950")


async def test_thanks_said_apart_before_a_question(tmp_path: Path) -> None:
    out = await say(bot_for(tmp_path), "哈哈谢谢你 净化器那单能开发票吗")
    reply = str(out["reply"])
    assert "不客气" in reply and "发票" in reply


# --- a fault with its remedy asked beside a policy question: the ticket kept, with its order ----


@pytest.mark.parametrize(
    ("text", "shown", "order"),
    [
        (
            "my thermos from 100200 is leaking, want a replacement, also how do returns work",
            "within 7 days of delivery",
            "ticket for order 100200",
        ),
        (
            "我买的耳机坏了 订单100200 要换新的 另外再问下你们保修几年",
            "保修 1 年",
            "订单 100200 提交",
        ),
        (
            "帮我查100200 两个包裹都到了吗 少了一个的话帮我补发",
            "SF8168184950",
            "订单 100200 提交",
        ),
    ],
)
async def test_remedy_asked_beside_a_question_offers_the_ticket_of_its_order(
    tmp_path: Path, text: str, shown: str, order: str
) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, text))["reply"])
    assert shown in reply and order in reply
    assert await executions(bot, "create_ticket") == []
    await say(bot, "yes" if text.isascii() else "是")
    assert len(await executions(bot, "create_ticket")) == 1


async def test_a_replacement_wanted_is_filed_once(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, "my thermos from 100200 is leaking, want a replacement"))["reply"])
    assert "T-000041" in reply and "100200" in reply
    await say(bot, "yes")
    assert len(await executions(bot, "create_ticket")) == 1


@pytest.mark.parametrize("text", ["补发要多久？", "少了一个能补发吗"])
async def test_a_resend_asked_about_files_nothing(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "create_ticket" not in _tools(out)
    await say(bot, "是")
    assert await executions(bot, "create_ticket") == []


# --- a person asked for beside a late parcel: the transfer carries the whole message -----------


async def test_transfer_beside_a_late_parcel_shows_the_parcel_and_tells_the_agent(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "别跟我扯机器人了 找个真人来 快递一个礼拜了还没到")
    reply = str(out["reply"])
    assert "T-000041" in reply and "YT9433239273" in reply
    handoffs = await executions(bot, "create_ticket")
    assert len(handoffs) == 1
    ticket = await bot.client.call(
        "GET", f"/tickets/{handoffs[0]['target']}", tool="t", customer="C0001"
    )
    # the agent reads what the customer is upset about, not only "find me a person"
    assert "快递一个礼拜了还没到" in str(ticket)


async def test_a_reproach_is_no_policy_question(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "唉最近真倒霉 净化器坏了手机还没到 你们能不能靠谱点 100998到底啥时候发")
    reply = str(out["reply"])
    assert "订单 100609 提交售后工单" in reply and "100998" in reply
    assert "search_faq" not in _tools(out)
    assert await executions(bot, "create_ticket") == []


# --- a thing added to a refund that waits: the refund of both asked, paid once -------------------


@pytest.mark.parametrize(
    ("first", "added", "yes"),
    [
        ("refund the thermos from 100200", "actually add the dinnerware set too", "yes"),
        ("refund the thermos from 100200", "can you add the dinnerware set as well?", "yes"),
        ("refund the thermos from 100200", "add the dinnerware set to it", "yes"),
        ("退100200的保温杯", "餐具也加上", "确认"),
        ("退100200的保温杯", "再加上餐具", "确认"),
        ("退100200的保温杯", "好，餐具也退", "确认"),
    ],
)
async def test_a_thing_added_to_a_waiting_refund(
    tmp_path: Path, first: str, added: str, yes: str
) -> None:
    bot = bot_for(tmp_path)
    assert "¥129.00" in str((await say(bot, first))["reply"])
    reply = str((await say(bot, added))["reply"])
    assert "¥398.00" in reply
    # the offer replaced, not dropped: no "it was not done" beside the new question
    assert "needed your confirmation" not in reply and "需要您的确认" not in reply
    assert await refunds_of(bot, "100200") == []
    await say(bot, yes)
    await say(bot, yes)  # a second yes pays nothing more
    assert await refunds_of(bot, "100200") == [398.0]


@pytest.mark.parametrize(
    "said",
    ["don't add the dinnerware set", "should I add the dinnerware set too?", "餐具也加上吗？"],
)
async def test_a_thing_not_added_leaves_the_waiting_refund(tmp_path: Path, said: str) -> None:
    bot = bot_for(tmp_path)
    first = "refund the thermos from 100200" if said.isascii() else "退100200的保温杯"
    await say(bot, first)
    reply = str((await say(bot, said))["reply"])
    assert "¥398.00" not in reply
    assert await refunds_of(bot, "100200") == []


# --- an amount kept is never the amount refunded -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "order", "yes"),
    [
        ("refund 100609, keep 200 of it", "100609", "yes"),
        ("refund 100200 but keep 100 of it", "100200", "yes"),
        ("退100609 留200", "100609", "确认"),
        ("100609退款 保留100", "100609", "确认"),
        # (the amount kept said apart from the refund, and a difference from a past refund)
        ("退我100609的钱 不过留100给我下次用", "100609", "确认"),
        ("refund 100609 minus the 100 you already gave me", "100609", "yes"),
    ],
)
async def test_an_amount_kept_is_asked_never_refunded(
    tmp_path: Path, text: str, order: str, yes: str
) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, text))["reply"])
    assert "¥200.00 for" not in reply and "¥100.00 for" not in reply
    assert "申请退款 ¥200.00" not in reply and "申请退款 ¥100.00" not in reply
    await say(bot, yes)
    assert await refunds_of(bot, order) == []
    # the amount the customer then gives is the one asked, and paid once
    reply = str((await say(bot, "300"))["reply"])
    assert "¥300.00" in reply
    await say(bot, yes)
    assert await refunds_of(bot, order) == [300.0]


# --- all of an order but one thing kept: the rest's price ----------------------------------------


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("退100200，保温杯不退", "确认"),
        ("100200退了吧 保温杯留着", "确认"),
        ("refund 100200 but keep the thermos", "yes"),
        ("refund order 100200, I'll keep the thermos", "yes"),
    ],
)
async def test_an_order_refunded_but_one_thing_kept(tmp_path: Path, text: str, yes: str) -> None:
    bot = bot_for(tmp_path)
    assert "¥668.00" in str((await say(bot, text))["reply"])
    await say(bot, yes)
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [668.0]


# --- the time of an earlier refund is shown in the shop's time zone, not UTC ---------------------


async def test_an_earlier_refund_is_dated_in_the_customers_time_zone(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 on 100609")
    before = datetime.now(UTC)
    await say(bot, "yes")
    after = datetime.now(UTC)
    reply = str((await say(bot, "refund 100 on 100609 again"))["reply"])
    assert "UTC" not in reply
    shanghai = timezone(timedelta(hours=8))
    shown = {t.astimezone(shanghai).strftime("%Y-%m-%d %H:%M") for t in (before, after)}
    assert any(f"on {when}." in reply for when in shown), reply
    await say(bot, "no")
    assert await refunds_of(bot, "100609") == [100.0]


# --- a cancel beside a thing kept that is in the same order: nothing asked, nothing cancelled ----


@pytest.mark.parametrize(
    ("text", "yes", "shown"),
    [
        ("I want to cancel the monitor order but keep the phone one", "yes", "Smartphone X12"),
        ("显示器那单取消 手机那单留着", "确认", "X12 智能手机"),
        ("cancel 100998 but keep the phone", "yes", "Smartphone X12"),
    ],
)
async def test_a_cancel_that_would_take_the_thing_kept_is_not_offered(
    tmp_path: Path, text: str, yes: str, shown: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    reply = str(out["reply"])
    # the customer hears that the order holds the thing they keep, and nothing is asked
    assert shown in reply and "100998" in reply
    assert "Do you want me to cancel" not in reply and "确认取消" not in reply
    assert not any(t.get("deferred") for t in out["tasks"])
    await say(bot, yes)
    assert await executions(bot, "cancel_order") == []


async def test_a_cancel_beside_a_thing_kept_in_another_order_is_asked(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, "cancel the air fryer order but keep the phone one"))["reply"])
    assert "cancel order 100904" in reply
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


# --- "still isn't here" is a look at the parcel; a fault with "what now" is offered its ticket ---


@pytest.mark.parametrize(
    "text",
    [
        "my screen protector still isnt here",
        "my screen protector is still not here",
        "the screen protector isn't here yet",
        "still no sign of my screen protector",
    ],
)
async def test_not_here_yet_shows_the_parcel(tmp_path: Path, text: str) -> None:
    out = await say(bot_for(tmp_path), text)
    assert _tools(out) == ["track_shipment"]
    assert "YT9433239273" in str(out["reply"])


async def test_a_late_parcel_and_a_fault_what_now(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(
        bot, "my screen protector still isnt here and the purifier filter cover cracked, what now"
    )
    reply = str(out["reply"])
    assert "YT9433239273" in reply and "ticket for order 100609" in reply
    assert await executions(bot, "create_ticket") == []
    await say(bot, "yes")
    assert len(await executions(bot, "create_ticket")) == 1


# --- a fee refunded is asked how much, never the whole order --------------------------------------


@pytest.mark.parametrize(
    ("text", "yes"),
    [("100683 is late again, refund the shipping please", "yes"), ("退100683的邮费", "确认")],
)
async def test_the_shipping_refunded_is_asked_never_the_order(
    tmp_path: Path, text: str, yes: str
) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, text))["reply"])
    assert "¥29.00" in reply  # what is refundable, stated
    assert "Shall I request" not in reply and "确认为订单" not in reply
    await say(bot, yes)
    assert await refunds_of(bot, "100683") == []


# --- a look at an order named by a thing, beside a write on another order ------------------------


async def test_a_look_named_by_a_thing_beside_a_cancel_is_about_its_own_order(
    tmp_path: Path,
) -> None:
    out = await say(bot_for(tmp_path), "取消100904 另外显示器那单啥时候发")
    calls = [(t.get("tool"), (t.get("args") or {}).get("order_id")) for t in out["tasks"]]
    assert calls == [("cancel_order", "100904"), ("get_order", "100998")]


# --- a delivery's state told, then another request: both read ------------------------------------


async def test_a_parcel_not_come_then_a_fault(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "钢化膜还没到 净化器的滤网也坏了 咋整")
    reply = str(out["reply"])
    assert "YT9433239273" in reply or "100683" in reply
    assert "订单 100609 提交售后工单" in reply
    assert await executions(bot, "create_ticket") == []


async def test_a_late_thing_then_money_back_refunds_its_order_once(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    reply = str((await say(bot, "钢化膜都超时了还没到 直接退钱吧 29块也是钱"))["reply"])
    assert "100683" in reply and "¥29.00" in reply
    await say(bot, "确认")
    await say(bot, "确认")
    assert await refunds_of(bot, "100683") == [29.0]


# --- two actions waiting, one said yes to and the other no: only that one, asked again ----------


@pytest.mark.parametrize(
    ("answer", "yes", "cancelled", "refunded"),
    [
        ("the first one yes, the second no", "yes", ["100904"], []),
        ("first no, second yes", "yes", [], [100.0]),
        ("第一个要 第二个不要", "确认", ["100904"], []),
        # (nothing clear about each: nothing runs; "the first one yes, the second one too" is
        # a yes to both since session 31: test_session31_turns)
        ("第一个不要 第二个也不要", "确认", [], []),
    ],
)
async def test_one_of_two_waiting_actions_said_yes_to(
    tmp_path: Path, answer: str, yes: str, cancelled: list[str], refunded: list[float]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100904 and refund 100 on 100609")
    await say(bot, answer)
    assert await executions(bot, "cancel_order") == []
    assert await refunds_of(bot, "100609") == []
    await say(bot, yes)
    await say(bot, yes)
    assert [e["target"] for e in await executions(bot, "cancel_order")] == cancelled
    assert await refunds_of(bot, "100609") == refunded
