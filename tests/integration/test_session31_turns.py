"""Whole turns session 31 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpdesk.app.session import run_turn
from tests.integration.test_trust import bot_for, executions, refunds_of, say


def _tools(out: dict[str, Any]) -> list[Any]:
    return [t.get("tool") for t in out["tasks"]]


# --- a person asked for beside a ticket: the transfer is made, the ticket shown -----------------


@pytest.mark.parametrize(
    "text",
    [
        "我要转人工 T-000031一直没人处理",
        "转人工，T-000031没人管",
        "I want a human, T-000031 has had no reply",
    ],
)
async def test_a_person_asked_for_beside_a_ticket_is_transferred(tmp_path: Path, text: str) -> None:
    """The ticket's state was shown alone, ending "if it's urgent, say 'talk to a human'" —
    what the customer had just said."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert _tools(out) == ["handoff_to_human", "get_ticket"]
    assert len(await executions(bot, "create_ticket")) == 1
    reply = str(out["reply"])
    assert "T-000031" in reply
    assert "转人工”" not in reply and 'say "talk to a human"' not in reply


async def test_a_ticket_asked_after_alone_still_offers_the_way_to_a_person(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "T-000031怎么样了")
    assert _tools(out) == ["get_ticket"]
    assert "转人工" in str(out["reply"])
    assert await executions(bot, "create_ticket") == []


# --- the bot asked whether it is a person: told, nothing filed ----------------------------------


@pytest.mark.parametrize(
    "text", ["你到底是不是人啊", "你是人是机器", "是不是人工客服", "你是人工客服吗"]
)
async def test_whether_the_bot_is_a_person_is_answered_not_transferred(
    tmp_path: Path, text: str
) -> None:
    """ "你到底是不是人啊" asked for an order number (read as a parcel "到"); "你是人工客服吗"
    filed a handoff ticket."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [t["intent"] for t in out["tasks"]] == ["identity"]
    assert "机器人" in str(out["reply"])
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize("text", ["我要人工客服", "人工客服", "帮我找人工客服"])
async def test_a_person_asked_for_is_still_a_transfer(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert _tools(out) == ["handoff_to_human"]


# --- warranty asked as "保一年的吧"; a fault and its remedy --------------------------------------


@pytest.mark.parametrize("text", ["这个是保一年的吧", "净化器是保一年的吧", "耳机保多久"])
async def test_how_long_a_thing_is_covered_is_the_warranty(tmp_path: Path, text: str) -> None:
    out = await say(bot_for(tmp_path), text)
    assert [t["args"].get("topic") for t in out["tasks"]] == ["warranty"]


async def test_a_fault_reported_with_a_warranty_question_gets_both(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "净化器开机就响 异响很大 帮我报个售后 这个是保一年的吧")
    assert _tools(out) == ["create_ticket", "search_faq"]
    reply = str(out["reply"])
    assert "保修" in reply and "100609" in reply
    assert await executions(bot, "create_ticket") == []  # offered, not filed


async def test_how_thermos_keeps_warm_is_still_a_product_question(tmp_path: Path) -> None:
    out = await say(bot_for(tmp_path), "保温杯保温多久")
    assert _tools(out) == ["search_products"]


async def test_what_to_do_about_a_fault_told_before_is_the_policy_not_a_search(
    tmp_path: Path,
) -> None:
    """ "保温杯你告诉我咋弄" searched the catalogue for those words."""
    bot = bot_for(tmp_path)
    out = await say(
        bot,
        "盘子碎了俩（请客的时候才拆开，丢死人了），保温杯盖子也盖不严。我不想全退，盘子那269退我，"
        "保温杯你告诉我咋弄",
    )
    assert _tools(out) == ["request_refund", "search_faq"]
    assert "269" in str(out["reply"])
    assert await executions(bot, "create_refund") == []  # asked first


@pytest.mark.parametrize("text", ["保温杯盖子盖不严 你告诉我咋弄", "保温杯盖子关不上了"])
async def test_a_lid_that_no_longer_shuts_is_a_fault(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert _tools(out) == ["create_ticket"]
    assert await executions(bot, "create_ticket") == []


# --- a second thing wanted too; a refund's time asked of that refund; the thing of an order -----


async def test_a_second_thing_wanted_too_is_searched_on_its_own(tmp_path: Path) -> None:
    """One search for "便宜点 音箱 鼠标也 一百块左右 200元以内" found nothing."""
    text = "有没有便宜点的音箱 两百块以内的 鼠标也想要一个 一百块左右的"
    out = await say(bot_for(tmp_path), text)
    assert [t["args"]["q"] for t in out["tasks"]] == ["便宜点 音箱 200元以内", "鼠标 100元以内"]
    reply = str(out["reply"])
    assert "SKU-1003" in reply and "SKU-1010" in reply


@pytest.mark.parametrize("text", ["退的钱多久能到 R-000094那笔", "R-000094多久到账"])
async def test_how_long_a_named_refund_takes_shows_it_and_the_time(
    tmp_path: Path, text: str
) -> None:
    out = await say(bot_for(tmp_path), text)
    assert _tools(out) == ["get_order", "search_faq"]
    reply = str(out["reply"])
    assert "R-000094" in reply and "1-3 个工作日" in reply


async def test_whether_a_named_refund_came_is_its_order_alone(tmp_path: Path) -> None:
    out = await say(bot_for(tmp_path), "退款R-000094到账了没")
    assert _tools(out) == ["get_order"]


async def test_which_colours_asked_after_an_exchange_question_search_that_thing(
    tmp_path: Path,
) -> None:
    """ "你们有几种颜色" asked for a product code though the thermos was named."""
    out = await say(bot_for(tmp_path), "100200的保温杯想换个颜色 怎么换？你们有几种颜色")
    assert _tools(out) == ["search_faq", "search_products"]
    assert out["tasks"][1]["args"]["q"] == "保温杯"
    assert "SKU-1025" in str(out["reply"])


# --- every order not shipped yet, cancelled: each asked, a yes runs each once -------------------


@pytest.mark.parametrize(
    "text",
    ["两个没发货的单都取消 一个都不要了", "cancel all my orders that haven't shipped"],
)
async def test_every_order_not_shipped_is_asked_and_a_yes_cancels_each_once(
    tmp_path: Path, text: str
) -> None:
    """It asked for an order number."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [t["args"].get("order_id") for t in out["tasks"]] == ["100998", "100904"]
    assert "5198.00" in str(out["reply"])  # the paid one's money back, said before the yes
    assert await executions(bot, "cancel_order") == []
    await say(bot, "确认" if "取消" in text else "yes")
    cancelled = await executions(bot, "cancel_order")
    assert sorted(e["target"] for e in cancelled) == ["100904", "100998"]
    await say(bot, "yes")
    assert len(await executions(bot, "cancel_order")) == 2


async def test_every_order_not_shipped_declined_or_halved(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel both unshipped orders")
    await say(bot, "no")
    assert await executions(bot, "cancel_order") == []
    await say(bot, "cancel both unshipped orders", session="t")
    await say(bot, "only the second one", session="t")
    await say(bot, "yes", session="t")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        ("取消没发货的那单", [None]),  # one of two: which one, asked
        ("把没付款的订单都取消", ["cancel_order"]),  # the one unpaid order
        ("帮我查下我还没发货的订单有哪些", ["list_orders"]),  # a look lists them
    ],
)
async def test_orders_not_shipped_one_or_a_look_are_not_every_order(
    tmp_path: Path, text: str, tools: list[str | None]
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert _tools(out) == tools
    assert await executions(bot, "cancel_order") == []


# --- a replacement wanted, "not a refund": never a refund offered ------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "the air fryer stopped working after 2 weeks, I want a replacement, not a refund",
        "I want a replacement not a refund for 100200",
        "空气炸锅坏了 我要换货不要退款",
    ],
)
async def test_a_replacement_not_a_refund_offers_the_ticket_never_the_refund(
    tmp_path: Path, text: str
) -> None:
    """Each offered the whole ¥797 refund of 100200 ("换货不要" was read as the replacement
    refused, "not a refund" as nothing); a yes paid it."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "request_refund" not in _tools(out)
    assert "create_ticket" in _tools(out)
    assert not [t for t in out["tasks"] if t.get("deferred")]  # no "couldn't handle" part
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert len(await executions(bot, "create_ticket")) == 1


async def test_not_a_refund_alone_is_a_no(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    out = await say(bot, "not a refund, no")
    assert "request_refund" not in _tools(out)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- refusals and doubts a hurried customer types: nothing offered, a yes runs nothing ---------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("don't you dare refund 100200", "create_refund"),
        ("I never said cancel", "cancel_order"),
        ("I'd prefer a repair over a refund for 100200", "create_refund"),
        ("I'd rather get a new one than a refund", "create_refund"),
        ("I don't know if I want to cancel 100904", "cancel_order"),
        ("还没想好要不要退100609", "create_refund"),
        ("not sure whether to refund 100200, what would I get back?", "create_refund"),
        ("我要取消100998吗？", "cancel_order"),
        ("should I cancel 100904?", "cancel_order"),
        ("my mom said to cancel 100904, but I want to keep it", "cancel_order"),
        ("我妈让我取消100904 但是我想留着", "cancel_order"),
        ("I told my husband I'd refund 100200 but I changed my mind", "create_refund"),
        ("我老公让我退100200 不过我改主意了", "create_refund"),
        ("退款就算了 给我补个优惠券", "create_refund"),
        ("取消个锤子 我要的是快点发货", "cancel_order"),
        ("不是退款吗", "create_refund"),
    ],
)
async def test_a_refusal_or_a_doubt_offers_no_write_and_a_yes_runs_none(
    tmp_path: Path, text: str, action: str
) -> None:
    """Each offered the refund or cancel it named (or asked which order to do it to)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not {"request_refund", "cancel_order"} & set(_tools(out))
    assert not [t for t in out["tasks"] if t["intent"] in ("refund", "cancel_order")]
    await say(bot, "yes")
    assert await executions(bot, action) == []


async def test_a_doubt_then_the_action_asked_for_after_all_is_offered(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "I don't know if I want to cancel 100904, ok yes please cancel it")
    assert "cancel_order" in _tools(out)
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


@pytest.mark.parametrize(
    ("text", "action", "target"),
    [
        ("I was going to keep it but I changed my mind, refund 100200", "create_refund", None),
        ("cancel 100904 but I want to keep 100998", "cancel_order", "100904"),
        ("取消100904 但是我想留着100998", "cancel_order", "100904"),
        ("我要取消100998", "cancel_order", "100998"),
    ],
)
async def test_the_action_asked_for_beside_a_change_of_mind_or_a_kept_order_runs_once(
    tmp_path: Path, text: str, action: str, target: str | None
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    assert await executions(bot, action) == []
    await say(bot, "yes")
    done = await executions(bot, action)
    assert len(done) == 1
    if target is not None:
        assert done[0]["target"] == target


@pytest.mark.parametrize(
    ("text", "amount"), [("退100200 除了空气炸锅", 398.0), ("100200都退 除了保温杯以外", 668.0)]
)
async def test_an_order_refunded_but_one_thing_pays_what_the_rest_cost_once(
    tmp_path: Path, text: str, amount: float
) -> None:
    """Both asked how much (the English "refund 100200 except the air fryer" offered ¥398)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert f"{amount:.2f}" in str(out["reply"])
    await say(bot, "确认")
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [amount]


# --- a hold said to an offer, then a look asked: nothing done, the look answered ----------------


@pytest.mark.parametrize(
    ("offer", "hold", "parcel"),
    [
        ("refund 100609", "wait, check the tracking first", "SF5969721286"),
        ("退100609", "等等 先查下100609的物流", "SF5969721286"),
    ],
)
async def test_a_hold_then_a_look_answers_the_look_and_runs_nothing(
    tmp_path: Path, offer: str, hold: str, parcel: str
) -> None:
    """The look was dropped: only "nothing was done" came back."""
    bot = bot_for(tmp_path)
    await say(bot, offer)
    out = await say(bot, hold)
    assert "track_shipment" in _tools(out)
    assert parcel in str(out["reply"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_a_hold_then_another_action_asks_that_action_and_drops_the_offer(
    tmp_path: Path,
) -> None:
    """A yes after it cancels 100998 once and never pays the refund it replaced."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    out = await say(bot, "wait, cancel 100998 first")
    assert "cancel_order" in _tools(out)
    assert await executions(bot, "cancel_order") == []
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]
    assert await executions(bot, "create_refund") == []


async def test_wait_cancel_that_calls_the_offer_off_and_cancels_no_order(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200")
    out = await say(bot, "wait, cancel that")
    assert "cancel_order" not in _tools(out)
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text", ["净化器剩下的钱能退吗", "帮我看看100200的两个包裹 还有净化器剩下的钱能退吗"]
)
async def test_what_is_left_of_a_things_money_asked_shows_its_order(
    tmp_path: Path, text: str
) -> None:
    """The returns policy answered (beside 100200's parcels, 100200 was shown instead)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert out["tasks"][-1]["args"] == {"order_id": "100609"}
    assert "866.00" in str(out["reply"])
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("text", ["这个能退吗", "拆了能退吗"])
async def test_whether_a_thing_can_go_back_is_still_the_returns_policy(
    tmp_path: Path, text: str
) -> None:
    out = await say(bot_for(tmp_path), text)
    assert [t["args"].get("topic") for t in out["tasks"]] == ["returns"]


# --- two refunds waiting, a yes to each by its place: both paid once ---------------------------


@pytest.mark.parametrize(
    ("offer", "answer"),
    [
        ("refund 100200 and 100609", "the first one yes, the second one too"),
        ("refund 100200 and 100609", "first yes, second yes"),
        ("100200和100609都退", "第一个要 第二个也要"),
    ],
)
async def test_a_yes_to_each_waiting_refund_by_its_place_pays_each_once(
    tmp_path: Path, offer: str, answer: str
) -> None:
    """It showed the help menu and ran nothing."""
    bot = bot_for(tmp_path)
    await say(bot, offer)
    await say(bot, answer)
    assert await refunds_of(bot, "100200") == [797.0]
    assert await refunds_of(bot, "100609") == [866.0]
    await say(bot, "yes")
    assert len(await executions(bot, "create_refund")) == 2


async def test_a_yes_to_a_cancel_and_a_refund_by_their_places_runs_each_once(
    tmp_path: Path,
) -> None:
    """Session 30 read "the first one yes, the second one too" as unclear (nothing ran)."""
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100904 and refund 100 on 100609")
    await say(bot, "the first one yes, the second one too")
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]
    assert await refunds_of(bot, "100609") == [100.0]


async def test_a_yes_and_a_maybe_by_place_runs_nothing(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 and 100609")
    await say(bot, "the first one yes, the second one maybe")
    assert await executions(bot, "create_refund") == []


# --- "where's my refund?" naming no order: the customer's refunds, each with its order ---------


@pytest.mark.parametrize(
    "text", ["where's my refund?", "did my refund go through?", "我的退款呢", "😭😭 退款呢"]
)
async def test_where_is_my_refund_lists_the_customers_refunds(tmp_path: Path, text: str) -> None:
    """It answered the refund-timing policy only ("how long do refunds take" still does)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert _tools(out) == ["list_refunds"]
    reply = str(out["reply"])
    assert "R-000094" in reply and "100609" in reply and "433.00" in reply
    assert await executions(bot, "create_refund") == []


async def test_a_refund_made_in_the_conversation_is_listed_first(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "where is 100200")
    await say(bot, "refund 100 on 100200")
    await say(bot, "yes")
    out = await say(bot, "where's my refund?")
    reply = str(out["reply"])
    assert reply.index("R-000109") < reply.index("R-000094")  # the newest first
    assert "100.00" in reply
    assert len(await executions(bot, "create_refund")) == 1


async def test_a_customer_with_no_refunds_is_told_so_and_how_long_refunds_take_is_the_policy(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await run_turn(bot, "where's my refund?", session="e", customer="C0002")
    assert _tools(out) == ["list_refunds"]
    assert "can't find any refund" in str(out["reply"])
    general = await say(bot, "how long do refunds take")
    assert _tools(general) == ["search_faq"]


async def test_what_is_left_named_by_its_amount_beside_a_warranty_question_shows_the_order(
    tmp_path: Path,
) -> None:
    """ "还是只能退剩下的866" was folded into the warranty question and lost."""
    bot = bot_for(tmp_path)
    out = await say(bot, "净化器坏了 保修期内能修吗 还是只能退剩下的866")
    assert _tools(out) == ["create_ticket", "search_faq", "get_order"]
    assert "866.00" in str(out["reply"])
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("no cancel, just change the address of 100904", "get_order"),
        ("退个锤子 我问的是物流", "track_shipment"),
        ("不是退款 我问的是发票", "search_faq"),
    ],
)
async def test_a_refusal_then_what_is_really_asked_answers_it_and_runs_nothing(
    tmp_path: Path, text: str, tool: str
) -> None:
    """The request after the refusal was dropped ("不是退款" alone, once split off, asked which
    order to refund)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert _tools(out) == [None, tool]
    assert not [t for t in out["tasks"] if t["intent"] in ("refund", "cancel_order")]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


async def test_how_much_is_left_on_it_after_a_fault_told_shows_that_things_order(
    tmp_path: Path,
) -> None:
    """ "净化器坏了 它还能退多少" listed the orders."""
    bot = bot_for(tmp_path)
    out = await say(bot, "净化器坏了 它还能退多少")
    assert _tools(out) == ["create_ticket", "get_order"]
    assert out["tasks"][1]["args"] == {"order_id": "100609"}
    assert "866.00" in str(out["reply"])
    assert await executions(bot, "create_ticket") == []
