"""Whole turns session 37 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpdesk.app.session import run_turn
from tests.integration.test_trust import bot_for, calls_of, executions, refunds_of, say

# --- one item's refund is never more than it cost ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "yes"),
    [("refund 200 for the thermos in 100200", "yes"), ("100200的保温杯退200", "确认")],
)
async def test_more_for_an_item_than_it_cost_is_asked(tmp_path: Path, text: str, yes: str) -> None:
    """ "refund 200 for the thermos in 100200" offered ¥200 and a yes paid it: the thermos cost
    ¥129. Now the most for it is said and the amount asked; nothing is paid on a yes."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "129" in out["reply"]
    await say(bot, yes)
    assert await executions(bot, "create_refund") == []
    await say(bot, "100")
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [100.0]


@pytest.mark.parametrize(
    "text",
    [
        "refund 100 for the thermos in 100200",  # within its price
        "refund 300 on 100200",  # no item named: the order's refundable amount is the cap
        "refund 300 for the air fryer from 100200",  # the ¥399 air fryer
    ],
)
async def test_an_amount_an_item_or_the_order_covers_is_offered(tmp_path: Path, text: str) -> None:
    """Pins: an amount within the item's price, or with no single item named, is offered as
    said and paid once on a yes."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    amount = 100.0 if "100 for" in text else 300.0
    assert calls_of(out) == [("request_refund", "100200", amount)]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [amount]


# --- whether an amount can come back, asked --------------------------------------------------


@pytest.mark.parametrize("text", ["100200 能退100吗?", "100200可以退100块吗"])
async def test_whether_an_amount_can_come_back_is_answered(tmp_path: Path, text: str) -> None:
    """ "100200 能退100吗?" offered a ¥100 refund (a question made a money task), while "can I
    get 100 back on 100200?" showed the order. Now the order and what is refundable are shown."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert calls_of(out) == [("get_order", "100200", None)]
    assert "797" in out["reply"]
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []


async def test_asking_politely_for_an_amount_is_still_a_request(tmp_path: Path) -> None:
    """A pin: "能帮我退100吗" asks for it."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100200能帮我退100吗")
    assert calls_of(out) == [("request_refund", "100200", 100.0)]


# --- a cancel on a condition -----------------------------------------------------------------


@pytest.mark.parametrize("text", ["如果没发货就取消100998", "还没发货的话就取消100998"])
async def test_cancel_if_not_shipped_with_the_order_after_is_offered(
    tmp_path: Path, text: str
) -> None:
    """ "如果没发货就取消100998" showed the order and asked the customer to say it again, while
    "if it hasn't shipped cancel 100998" offered the cancel (the shop refuses a shipped order).
    Now both offer it; a yes cancels once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert calls_of(out) == [("cancel_order", "100998", None)]
    await say(bot, "确认")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]


@pytest.mark.parametrize(
    "text", ["如果100683还没到就取消100998", "if 100683 hasn't arrived cancel 100998"]
)
async def test_cancel_on_another_orders_condition_is_shown(tmp_path: Path, text: str) -> None:
    """ "if 100683 hasn't arrived cancel 100998" planned two cancels — one of 100683, which
    nobody asked to cancel — and offered 100998's. Now both orders are shown, with how to ask
    for the cancel; nothing is offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert calls_of(out) == [("get_order", "100683", None), ("get_order", "100998", None)]
    assert "取消 100998" in out["reply"] or 'cancel 100998"' in out["reply"]
    await say(bot, "确认" if "取消" in text else "yes")
    assert await executions(bot, "cancel_order") == []


# --- whether to open a ticket, asked ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "should I open a ticket for 100683?",
        "should i file a complaint about 100683",
        "我要不要开个工单 100683",
    ],
)
async def test_whether_to_open_a_ticket_is_answered(tmp_path: Path, text: str) -> None:
    """ "should I open a ticket for 100683?" offered a ticket (a question made a write task).
    Now the order is shown with its open ticket; nothing is filed on a yes."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert calls_of(out) == [("get_order", "100683", None)]
    assert "T-000031" in out["reply"]
    await say(bot, "确认" if "工单" in text else "yes")
    assert await executions(bot, "create_ticket") == []


# --- several things told of, asked after together ---------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I ordered the monitor and the screen protector, where are they?",
        "显示器和钢化膜 两个都到哪了",
    ],
)
async def test_where_are_they_looks_at_each_order_told_of(tmp_path: Path, text: str) -> None:
    """ "the monitor and the screen protector, where are they?" looked at one order (the one on
    its way). Now each thing's order is looked at."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert sorted(order for _, order, _ in calls_of(out)) == ["100683", "100998"]
    assert "YT9433239273" in out["reply"]


async def test_where_is_one_thing_looks_at_its_order_only(tmp_path: Path) -> None:
    """A pin: one thing asked after is one look."""
    bot = bot_for(tmp_path)
    out = await say(bot, "where is my screen protector")
    assert calls_of(out) == [("track_shipment", "100683", None)]


# --- words that read as something else --------------------------------------------------------


async def test_torn_between_two_products_is_no_fault(tmp_path: Path) -> None:
    """ "I'm torn between the smart watch and the fitness band" offered an after-sales ticket
    ("torn" read as a fault). Now both products are looked up; nothing is filed on a yes."""
    bot = bot_for(tmp_path)
    text = "I'm torn between the smart watch and the fitness band, are both in stock?"
    out = await say(bot, text)
    assert not any(tool == "create_ticket" for tool, _, _ in calls_of(out))
    assert "SKU-1007" in out["reply"] and "SKU-1008" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "text", ["另外你们发货到天津一般几天", "how long does delivery take to Tianjin"]
)
async def test_delivery_time_to_a_city_is_the_delivery_policy(tmp_path: Path, text: str) -> None:
    """ "你们发货到天津一般几天" listed the customer's orders. Now the delivery times are given
    (the English is a pin)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [tool for tool, _, _ in calls_of(out)] == ["search_faq"]
    assert "3-5" in out["reply"] or "3-5 天" in out["reply"] or "3–5" in out["reply"]


@pytest.mark.parametrize(
    "text",
    [
        "are you a real person? if not put me through to someone who is",
        "put me through to someone please",
        "connect me to an agent",
    ],
)
async def test_put_me_through_is_a_transfer(tmp_path: Path, text: str) -> None:
    """ "are you a real person? if not put me through to someone who is" only said what the bot
    is. Now the customer is transferred (one ticket for the people who answer)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "handoff_to_human" in [tool for tool, _, _ in calls_of(out)]
    if not await executions(bot, "create_ticket"):
        await say(bot, "yes")  # (asked beside what the bot is: the transfer confirmed first)
    assert len(await executions(bot, "create_ticket")) == 1


async def test_do_not_put_me_through_is_no_transfer(tmp_path: Path) -> None:
    """A pin: "don't put me through to someone" transfers nobody."""
    bot = bot_for(tmp_path)
    out = await say(bot, "don't put me through to someone, just answer: where is 100683")
    assert not any(tool == "handoff_to_human" for tool, _, _ in calls_of(out))
    assert await executions(bot, "create_ticket") == []


async def test_the_shop_lists_the_orders_of_every_product_named(tmp_path: Path) -> None:
    """``GET /orders?product=…&every=true``: the orders of each product the words name, not
    only of the most strongly named; ``every`` is true or false."""
    bot = bot_for(tmp_path)
    http, headers = bot.client.http, {"X-Customer-Id": "C0001"}
    words = "the monitor and the screen protector"
    strongest = (await http.get("/orders", params={"product": words}, headers=headers)).json()
    assert len(strongest["orders"]) == 1
    every = await http.get("/orders", params={"product": words, "every": "true"}, headers=headers)
    assert sorted(o["order_id"] for o in every.json()["orders"]) == ["100683", "100998"]
    bad = await http.get("/orders", params={"product": words, "every": "yes"}, headers=headers)
    assert bad.status_code == 422


# --- two refunds typed with spaces -------------------------------------------------------------


async def test_two_refunds_typed_with_spaces_are_both_offered(tmp_path: Path) -> None:
    """ "100200 退 50 100609 退 30" showed 100200 and offered only ¥30 on 100609 (the space
    between 退 and 50 split the amount from its verb). Now both are offered; one yes pays
    each once."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100200 退 50 100609 退 30")
    assert calls_of(out) == [("request_refund", "100200", 50.0), ("request_refund", "100609", 30.0)]
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [50.0]
    assert await refunds_of(bot, "100609") == [30.0]


# --- what is said beside a yes ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("refund 100609", "do it otherwise I'll complain"),
        ("refund 100609", "yes, otherwise I'm leaving a bad review"),
        ("100609退款", "确认 不然我投诉你们"),
    ],
)
async def test_a_threat_beside_a_yes_is_still_a_yes(tmp_path: Path, text: str, yes: str) -> None:
    """ "do it otherwise I'll complain" to the refund question offered a complaint ticket and
    dropped the refund. Now the refund is made, once, and nothing is filed."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    out = await say(bot, yes)
    assert await refunds_of(bot, "100609") == [866.0]
    assert not any(tool == "create_ticket" for tool, _, _ in calls_of(out))
    assert await executions(bot, "create_ticket") == []


async def test_a_threat_alone_is_no_yes(tmp_path: Path) -> None:
    """A pin: "不然我投诉你们" alone runs nothing."""
    bot = bot_for(tmp_path)
    await say(bot, "100609退款")
    await say(bot, "不然我投诉你们")
    assert await executions(bot, "create_refund") == []


async def test_thanks_for_the_thing_after_a_yes_keeps_the_refund(tmp_path: Path) -> None:
    """ "yes, thanks for sorting the thermos" to the thermos's refund dropped it (read as thanks
    and a look). Now it is a yes: the ¥129 is paid once."""
    bot = bot_for(tmp_path)
    await say(bot, "refund the thermos from 100200")
    await say(bot, "yes, thanks for sorting the thermos")
    assert await refunds_of(bot, "100200") == [129.0]


async def test_one_item_or_another_is_asked(tmp_path: Path) -> None:
    """ "refund the thermos or the dinnerware from 100200" offered the dinnerware's ¥269 (one of
    the two picked). Now how much is asked; a yes pays nothing."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund the thermos or the dinnerware from 100200")
    assert "269" not in out["reply"] and "797" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_a_look_beside_a_ticket_is_at_the_order_of_the_story(tmp_path: Path) -> None:
    """ "快递显示28号签收了 …只有充电宝 菜刀没有 … 帮我查下物流 然后给我开个工单" offered the ticket
    on the power bank's order 100670 but asked which order the tracking was of (the parcel
    words were read as "the one on its way"). Now the same order is tracked."""
    bot = bot_for(tmp_path)
    text = (
        "快递显示28号签收了 我下班拿到箱子打开一看只有充电宝 菜刀没有 箱子也没破 胶带都是好的 "
        "是不是仓库漏发了 帮我查下物流 然后给我开个工单处理一下 谢谢"
    )
    out = await run_turn(bot, text, session="s", customer="C0125")
    assert ("track_shipment", "100670", None) in calls_of(out)
    assert "YT0667811863" in out["reply"]


# --- parts the catalogue cannot answer --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("SKU-1047和SKU-1048有货吗 哪个更保暖", "哪个更保暖"),
        ("is SKU-1047 in stock? and SKU-1048? which one is warmer", "which one is warmer"),
        ("你们卖手机壳吗 还有钢化膜 能帮忙贴膜吗", "能帮忙贴膜吗"),
    ],
)
async def test_a_part_the_catalogue_cannot_answer_is_said_unread(
    tmp_path: Path, text: str, part: str
) -> None:
    """ "SKU-1047和SKU-1048有货吗 哪个更保暖" answered "which is warmer" with a search for "保暖"
    (thermal underwear); "能帮忙贴膜吗" (a service) with the screen protector's price. Now
    those parts are quoted as not handled; the stock questions are answered."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert f"“{part}”" in out["reply"] or f'"{part}"' in out["reply"]
    assert "SKU-1056" not in out["reply"]  # the thermal underwear


async def test_a_comparison_naming_its_products_is_still_looked_up(tmp_path: Path) -> None:
    """A pin: "e-reader vs the 11 inch tablet, which is cheaper?" shows both."""
    bot = bot_for(tmp_path)
    out = await say(bot, "e-reader vs the 11 inch tablet, which is cheaper?")
    assert "E-book Reader" in out["reply"] and "Tablet" in out["reply"]


# --- an order of its own beside a parcel ------------------------------------------------------


async def test_a_status_question_about_another_thing_beside_a_parcel_is_kept(
    tmp_path: Path,
) -> None:
    """ "The wool scarf I almost bought in August - was that order cancelled properly? … Also,
    where's my screen protector now?" answered only the parcel (the scarf's question was taken
    for the parcel's, and dropped). Now the scarf's order 100181 is shown too."""
    bot = bot_for(tmp_path)
    text = (
        "The wool scarf I almost bought in August - was that order cancelled properly? I really "
        "don't want a surprise parcel or a surprise charge. Also, where's my screen protector "
        "now? And please, no new tickets, I already have one open."
    )
    out = await say(bot, text)
    assert calls_of(out) == [("get_order", "100181", None), ("track_shipment", "100683", None)]
    assert await executions(bot, "create_ticket") == []


async def test_the_order_i_cancelled_is_looked_up_by_its_state(tmp_path: Path) -> None:
    """ "The order I cancelled back in August: was I ever charged for it?" listed every order.
    Now the cancelled order is shown."""
    bot = bot_for(tmp_path)
    out = await say(bot, "The order I cancelled back in August: was I ever charged for it?")
    assert calls_of(out) == [("get_order", "100181", None)]


# --- pins from the paired review of this session's first versions ------------------------------


@pytest.mark.parametrize(
    ("offer", "answer"),
    [
        ("cancel 100998", "yes thanks for nothing, I'm going elsewhere and don't cancel"),
        ("cancel 100998", "sure, thanks for asking but cancel 100904 instead"),
        ("cancel 100998", "yes thank you for the warning, I'll keep it"),
        ("cancel 100998", "yes or wait, I'd rather report it first"),
        ("取消100998", "好 要不算了 我去投诉"),
        ("取消100998", "确认，要不然就不用了，我去投诉"),
        ("取消100998", "可以 要不先等等 我怕投诉"),
    ],
)
async def test_a_yes_with_a_hold_or_change_beside_it_cancels_nothing(
    tmp_path: Path, offer: str, answer: str
) -> None:
    """A first version kept only the yes of a yes followed by thanks or by "or/要不 … complain",
    and cancelled 100998 on a no, a hold or a change. The whole answer is read again."""
    bot = bot_for(tmp_path)
    await say(bot, offer)
    await say(bot, answer)
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    "answer",
    [
        "yes thanks for the refund of 100 not 129",
        "yes, or rather 100, otherwise I'll complain",
        "yes thanks for the info but dont do it yet",
        "sure thanks for the quick reply, let me check with my wife first",
    ],
)
async def test_a_yes_with_another_amount_or_a_hold_pays_nothing_asked(
    tmp_path: Path, answer: str
) -> None:
    """The same first version paid the ¥129 asked about on these."""
    bot = bot_for(tmp_path)
    await say(bot, "refund the thermos from 100200")
    await say(bot, answer)
    assert 129.0 not in await refunds_of(bot, "100200")


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("100200能退100吗 帮我退了吧", 100.0),
        ("100200可以退100吗？退吧", 100.0),
        ("我想问下100200能退100吗，能就帮我退", 100.0),
    ],
)
async def test_whether_an_amount_then_go_ahead_offers_that_amount(
    tmp_path: Path, text: str, amount: float
) -> None:
    """A first version answered "能退100吗" and then offered all ¥797 for "帮我退了吧" (a yes paid
    it). The amount asked about is the one offered; a yes pays it once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert calls_of(out) == [("request_refund", "100200", amount)]
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [amount]


@pytest.mark.parametrize(
    "text", ["100200 退 30 天内可以吗", "100200 退 15 天了还没到账", "100200 退 7 天无理由"]
)
async def test_days_after_a_spaced_refund_word_are_no_amount(tmp_path: Path, text: str) -> None:
    """A first version read "退 30 天" as ¥30 and paid it on a 确认."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    [
        "如果没发货就取消100998吗",
        "如果没发货就取消100998？",
        "如果没发货就取消100998 先别 等我想想",
        "取消100998 先别 等我想想",
        "refund 100609, wait, let me think",
    ],
)
async def test_a_cancel_asked_about_or_held_back_is_not_offered(tmp_path: Path, text: str) -> None:
    """A first version offered the cancel on these (a yes cancelled ¥5198); "取消100998 先别
    等我想想" offered it before this session too. The order is shown; nothing runs on a yes."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(tool in ("cancel_order", "request_refund") for tool, _, _ in calls_of(out))
    await say(bot, "确认")
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    [
        "no need to put me through to someone, just check 100683",
        "before you put me through to someone, where is 100683?",
        "I don't want you to connect me to an agent, where is 100683",
    ],
)
async def test_a_transfer_not_asked_for_files_nothing(tmp_path: Path, text: str) -> None:
    """A first version transferred (a ticket filed at once) on these; the last did before
    this session too."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    assert await executions(bot, "create_ticket") == []


async def test_two_items_with_one_amount_are_not_capped_by_one(tmp_path: Path) -> None:
    """A first version refused "…空气炸锅坏了 保温杯也漏水 退500" as more than the thermos cost."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100200 空气炸锅坏了 保温杯也漏水 退500")
    assert calls_of(out) == [("request_refund", "100200", 500.0)]
    assert "超过" not in out["reply"]


async def test_keeping_one_thing_and_refunding_another_is_no_either(tmp_path: Path) -> None:
    """A first version read 还是 as "or" in "空气炸锅还是留着吧 把保温杯退了" and asked how much."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100200 空气炸锅还是留着吧 把保温杯退了")
    assert "129" in out["reply"]


async def test_a_late_parcel_since_shipping_is_no_delivery_policy(tmp_path: Path) -> None:
    """A first version answered "发货到现在都几天了还没收到" with the delivery times."""
    bot = bot_for(tmp_path)
    out = await say(bot, "发货到现在都几天了还没收到")
    assert not any(tool == "search_faq" for tool, _, _ in calls_of(out))


@pytest.mark.parametrize(
    "text",
    [
        "why should I have to file a ticket for 100683 myself, just open one",
        "should I open a ticket for 100683? yes open one",
    ],
)
async def test_a_ticket_asked_for_after_the_question_is_offered(tmp_path: Path, text: str) -> None:
    """A first version only showed the order."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert any(tool == "create_ticket" for tool, _, _ in calls_of(out))


async def test_where_are_they_skips_a_product_named_by_a_shared_word(tmp_path: Path) -> None:
    """A first version also tracked the air purifier for "the air fryer and the screen
    protector, where are they?" ("air")."""
    bot = bot_for(tmp_path)
    out = await say(bot, "the air fryer and the screen protector, where are they?")
    assert "100609" not in [order for _, order, _ in calls_of(out)]


@pytest.mark.parametrize(
    "text",
    [
        "if 100683 hasn't arrived refund 100200",
        "cancel 100998 if 100683 hasn't arrived",
        "取消100998 如果100683还没到的话",
    ],
)
async def test_a_write_on_another_orders_condition_is_shown(tmp_path: Path, text: str) -> None:
    """ "if 100683 hasn't arrived refund 100200" offered refunds of both orders (a yes paid
    ¥29 and ¥797); "cancel 100998 if 100683 hasn't arrived" offered cancels of both. Before this
    session too. Now both orders are shown; nothing runs on a yes."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert {tool for tool, _, _ in calls_of(out)} == {"get_order"}
    await say(bot, "确认" if "取消" in text else "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


# --- pins from the second review -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "如果没发货就取消100998 但是先别取消",
        "如果没发货就取消100998 不过等我想想",
        "cancel 100998, but not yet",
        "if 100998 hasn't shipped cancel it, but not yet",
        "cancel 100998, not yet though",
    ],
)
async def test_a_cancel_held_back_in_its_own_words_is_not_offered(
    tmp_path: Path, text: str
) -> None:
    """ "如果没发货就取消100998 但是先别取消" asked to cancel and said nothing was done in one
    reply, and a 确认 cancelled ¥5198 (the English forms did before this session too)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(tool == "cancel_order" for tool, _, _ in calls_of(out))
    await say(bot, "确认" if "取消" in text else "yes")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize("go_ahead", ["好的 退吧", "那退吧", "好的 帮我退", "嗯 退吧"])
async def test_a_go_ahead_after_whether_an_amount_is_for_that_amount(
    tmp_path: Path, go_ahead: str
) -> None:
    """ "100200能退100吗" -> (the order shown) -> "好的 退吧" offered all ¥797, and a 确认 paid
    it. The ¥100 asked about is offered and paid once."""
    bot = bot_for(tmp_path)
    await say(bot, "100200能退100吗")
    out = await say(bot, go_ahead)
    assert calls_of(out) == [("request_refund", "100200", 100.0)]
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [100.0]


async def test_all_of_it_after_whether_an_amount_is_all(tmp_path: Path) -> None:
    """A pin: "退吧 全退" says how much."""
    bot = bot_for(tmp_path)
    await say(bot, "100200能退100吗")
    out = await say(bot, "退吧 全退")
    assert calls_of(out) == [("request_refund", "100200", None)]


@pytest.mark.parametrize(
    "text",
    [
        "I never asked to be connected to an agent",
        "I did not ask for a human",
        "who said I want to talk to an agent?",
        "我没说要转人工",
        "我不是要转人工",
        "should I talk to a human?",
        "do I have to be connected to an agent to get a refund?",
    ],
)
async def test_a_transfer_denied_or_asked_about_files_nothing(tmp_path: Path, text: str) -> None:
    """Each filed a handoff ticket at once (before this session too)."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "text", ["100200 退 3 天了", "100200 退 2 次了", "100200退款 3 次都失败了", "100200 退 7 天"]
)
async def test_days_or_times_are_no_refund_amount(tmp_path: Path, text: str) -> None:
    """ "100200 退 3 天了" offered ¥3 and a 确认 paid it (before this session too)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not any(amount in (2.0, 3.0, 7.0) for _, _, amount in calls_of(out))
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []


async def test_more_than_the_item_after_being_told_its_most_is_asked_again(
    tmp_path: Path,
) -> None:
    """ "refund 200 for the thermos" -> (at most ¥129) -> "just do 200 anyway" offered ¥200 and a
    yes paid it: the amount answered lost what it was for. It is asked again."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 200 for the thermos in 100200")
    await say(bot, "just do 200 anyway")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
