"""Whole conversations session 18 changed: a late parcel or a fault told beside a ticket or a
refund asked for (its reason, no look of its own), "no thanks", refunds made before asked after,
a look at "it" about the order the message describes, a tracking number's own order — and what
the session's review found moving money when words beside a refund were taken to name its
order, a sum said as compensation was taken as a refund, or "refund what's left" and "把保温杯剩下
的钱都退给我吧" were read as requests (those rules were taken back before they landed; the
phrasings that broke them are pinned here). Run as a customer meets the bot (the demo shop
seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say


def _looked_at(
    out: dict[str, Any], tools: tuple[str, ...] = ("get_order", "track_shipment")
) -> list[str]:
    """The orders the turn's lookups answered about, in the order they ran."""
    return [
        str(r["data"].get("order_id"))
        for r in out["tool_results"]
        if r["tool"] in tools and isinstance(r.get("data"), dict)
    ]


@pytest.mark.parametrize(
    "message",
    [
        # negated, someone else's, another shop's, wanted, hypothetical: never the refund's order
        "don't refund the thermos. refund me 50",
        "净化器不用退，退我50",
        "my friend's air purifier broke. refund me 100",
        "朋友的净化器坏了 退我100",
        "the air fryer my mom bought from jd broke. refund 200",
        "i want to buy another air purifier. refund me 100",
        "空气炸锅要是再坏，退我200",
        "let's say the air fryer broke. refund me 200",
        # a fault of a delivered thing is no cancel of another order holding the same product
        "the air fryer stopped working. just cancel",
        # a paid order that has not shipped is not refunded for a "broken" thing in it
        "the phone is broken, refund me 2999",
        "SF5969721286 显示器坏了 退我100",
        # asked about, not asked for
        "The 4K monitor in my paid order — if I cancel, is the refund automatic?",
        "I returned the air fryer from the 797 order last week - where's that refund?",
        # one of two remedies wanted: never both on one yes
        "the thermos leaks, i want a replacement. or refund me 50",
        "收到货了但是少了保温杯 要么补发要么退我129",
        "refund me 100. the kettle is in stock",
    ],
)
async def test_words_beside_a_refund_or_cancel_never_name_its_order(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes" if message.isascii() else "是")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    "message",
    [
        # a sum said as compensation: refused, asked about, received, someone else's, maybe
        "100609 补偿我100块？你们在开玩笑吧",
        "100609 补偿我100块不够",
        "100609 50块的补偿到了吗",
        "100609 i got compensation of 50 yuan, thanks",
        "my friend got 100 yuan as compensation, 100609",
        "100683 赔我29块或者补发",
        "100609 赔偿100元，不然我投诉",
        "不用赔我50块",
        "能给点补偿吗",
        # "what's left", asked, weighed, taken back, put off
        "refund what's left on 100609?",
        "refund what's left on 100609 or keep it as store credit",
        "refund what's left on 100609 — no wait, don't",
        "refund what's left on 100609 next month",
        # the rest of one thing's price is no refund of the whole order
        "把保温杯剩下的钱都退给我吧",
        "显示器剩下的钱退我",
    ],
)
async def test_compensation_and_whats_left_talk_moves_no_money_on_a_hurried_yes(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes" if message.isascii() else "是")
    assert await executions(bot, "create_refund") == []


async def test_a_sum_turned_down_beside_a_full_refund_pays_the_full_refund(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100609 i don't want 50 yuan as compensation, i want a full refund")
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [866.0]


@pytest.mark.parametrize(
    "message",
    [
        "快递又延误了，帮我开个工单",
        "hi, my parcel is late AGAIN. please file a ticket",
        "帮我开个工单，100683的包裹丢了",
    ],
)
async def test_a_late_parcel_told_beside_a_ticket_is_the_tickets_reason(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    kinds = [r["tool"] for r in out["tool_results"]]
    assert "track_shipment" not in kinds and "get_order" not in kinds
    assert "100683" in out["reply"]
    await say(bot, "yes" if message.isascii() else "是")
    assert len(await executions(bot, "create_ticket")) == 1


async def test_a_where_question_beside_a_ticket_is_still_answered(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "open a ticket for 100683, the parcel is late. where is it now?")
    assert "track_shipment" in [r["tool"] for r in out["tool_results"]]


@pytest.mark.parametrize("message", ["no thanks", "no thx", "Nope, thank you!"])
async def test_no_thanks_declines_what_waits(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100904")
    out = await say(bot, message)
    assert "100904" in out["reply"] or "nothing" in out["reply"].lower()
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    "message",
    [
        "净化器之前退的那笔是什么时候退的？退到哪了",
        "the earlier refund on the purifier, when did it arrive",
    ],
)
async def test_a_refund_made_before_is_shown_never_offered(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert "R-000094" in out["reply"] and "433" in out["reply"]
    await say(bot, "yes" if message.isascii() else "是")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("message", "order_id"),
    [
        ("I want 100 yuan back on 100683. it's late and I needed it for my trip!!", "100683"),
        ("我想退100683 膜还没到 不想等了", "100683"),
        ("The thermos from my 100200 order arrived with a dent. just give me 50 back.", "100200"),
    ],
)
async def test_what_went_wrong_beside_a_refund_is_its_reason_not_a_look(
    tmp_path: Path, message: str, order_id: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    tools = [r["tool"] for r in out["tool_results"]]
    assert "track_shipment" not in tools and "get_order" not in tools
    assert order_id in out["reply"]
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("message", "payment_article"),
    [
        ("退款一般几天到账 微信支付的", False),
        ("净化器那个退款到账没有啊，我支付宝没看到", False),
        # whether a way of paying will do is still asked
        ("wechat pay ok? and will the 100609 refund go back to wechat too", True),
        ("退款几天到账？能用花呗吗", True),
    ],
)
async def test_how_the_customer_paid_beside_a_refund_question_is_no_payment_question(
    tmp_path: Path, message: str, payment_article: bool
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    topics = [
        article.get("topic")
        for r in out["tool_results"]
        if r["tool"] == "search_faq"
        for article in (r.get("data") or {}).get("articles", ())
    ]
    assert ("payment" in topics) is payment_article


@pytest.mark.parametrize(
    ("message", "order_id"),
    [
        ("my company needs an official fapiao for the monitor. also has it shipped yet", "100998"),
        ("显示器可以开公司发票吗？抬头我等下发你 还有这单啥时候到", "100998"),
        ("空气净化器保修多久 我那台是10月20号签收的吧 帮我确认下", "100609"),
    ],
)
async def test_a_look_at_it_is_about_the_order_the_message_describes(
    tmp_path: Path, message: str, order_id: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert order_id in _looked_at(out)


async def test_where_is_my_parcel_beside_a_product_search_is_still_the_parcel(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "is the kettle in stock? and where's my parcel")
    assert "YT9433239273" in out["reply"]


@pytest.mark.parametrize(
    ("message", "order_id", "not_order"),
    [
        # "显示" is what the tracking page shows, no monitor (显示器) named
        ("SF5969721286 这个件显示签收了吗", "100609", "100998"),
        ("顺丰显示已签收，可我根本没收到！！空气净化器那单", "100609", "100998"),
        # a tracking number is its own order, whatever else the words describe
        ("YT9433239273 显示器那单的吗？到哪了", "100683", "100998"),
    ],
)
async def test_the_parcel_a_message_names_is_looked_at_never_another_order(
    tmp_path: Path, message: str, order_id: str, not_order: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    looked = _looked_at(out)
    assert order_id in looked and not_order not in looked


async def test_an_address_change_beside_a_tracking_number_is_for_that_parcels_order(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "where's SF5969721286? and can it go to my office address instead")
    assert "100609" in out["reply"]
    assert "only order on its way" not in out["reply"]  # 100609 is delivered, not on its way


@pytest.mark.parametrize(
    ("message", "number"),
    [("我的订单到哪了", "YT9433239273"), ("wher is my pakage, the one from yto", "YT9433239273")],
)
async def test_where_is_my_order_is_the_order_on_its_way(
    tmp_path: Path, message: str, number: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert number in out["reply"]


@pytest.mark.parametrize(
    ("message", "skus"),
    [
        ("男士羽绒服多少钱 啥时候有货 女款呢", ("SKU-1047", "SKU-1048")),
        ("is the men's down jacket in stock? and the women's?", ("SKU-1047", "SKU-1048")),
    ],
)
async def test_the_other_cut_of_a_thing_is_searched_in_its_turn(
    tmp_path: Path, message: str, skus: tuple[str, ...]
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert all(sku in out["reply"] for sku in skus)


@pytest.mark.parametrize(
    "message",
    [
        # a refund made before, asked after: the order's refunds, never a new refund
        "did you ever refund me anything for the air purifier?",
        "have you guys actually refunded the purifier yet",
        "空气净化器之前是不是退过一次？退了多少",
        "净化器的退款申请好久了 钱呢？",
        # a transfer made before, its answer awaited: no second one
        "any news on T-000031? still waiting for someone to get back to me",
    ],
)
async def test_a_refund_or_transfer_made_before_asked_after_files_nothing(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes" if message.isascii() else "是")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "message",
    [
        "I'd like to return the thermos from 100200, how does that even work?",
        "I want to return the air fryer. how does it work?",
    ],
)
async def test_how_a_return_works_asked_beside_the_wish_is_the_policy_nothing_filed(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert "7" in out["reply"]  # the returns policy: 7 days
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    ("message", "order_id"),
    [("净化器那单呢", "100609"), ("and the monitor order?", "100998")],
)
async def test_an_order_named_by_its_contents_alone_is_looked_at(
    tmp_path: Path, message: str, order_id: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert _looked_at(out, tools=("get_order",)) == [order_id]


@pytest.mark.parametrize("message", ["退空气炸锅那单", "空气炸锅那单不要了", "换空气炸锅那单"])
async def test_an_order_named_with_an_action_word_is_never_only_looked_at_or_acted_on(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert all(r["tool"] != "get_order" for r in out["tool_results"])
    await say(bot, "是")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


async def test_which_warehouse_beside_a_product_search_is_no_list_of_orders(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "加湿器和电热水壶各多少钱，哪个仓发货")
    assert all(r["tool"] != "list_orders" for r in out["tool_results"])


async def test_an_order_not_wanted_but_not_to_be_cancelled_yet_cancels_nothing(
    tmp_path: Path,
) -> None:
    # a module-level name defined twice (the second shadowing the first) once read this as a
    # cancel: pinned
    bot = bot_for(tmp_path)
    await say(bot, "手机那单我不想要了，但先别取消，能换成平板吗？")
    await say(bot, "是")
    assert await executions(bot, "cancel_order") == []


async def test_the_state_of_each_asked_after_the_tickets_is_theirs(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "我开过几个工单？分别是什么状态")
    tools = [r["tool"] for r in out["tool_results"]]
    assert "list_orders" not in tools and "get_order" not in tools
    assert "T-000031" in out["reply"]


async def test_a_refund_told_and_doubted_is_one_look_at_that_order(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "退款金额不对吧 净化器1299 才退了433？？")
    assert "list_orders" not in [r["tool"] for r in out["tool_results"]]
    assert "866" in out["reply"]
