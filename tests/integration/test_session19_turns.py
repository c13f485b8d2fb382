"""Whole conversations session 19 changed: the writes a blind batch's questions planned (a ticket
on "do I need to open a ticket…?", a transfer on "不想找人工…"), a refund named by its amount, a
transfer about a described product, products asked of apart in one message, one read per
parcel — run as a customer meets the bot (the demo shop seeded, the minimal tier) and counted in
the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpdesk.app.session import run_turn
from tests.integration.test_trust import CUSTOMER, bot_for, executions, say


def _results(out: dict[str, Any], tool: str) -> list[dict[str, Any]]:
    return [r for r in out["tool_results"] if r["tool"] == tool]


def _looked_at(out: dict[str, Any]) -> list[str]:
    """The orders the turn's lookups answered about, in the order they ran."""
    return [
        str(r["data"].get("order_id"))
        for tool in ("get_order", "track_shipment")
        for r in _results(out, tool)
        if isinstance(r.get("data"), dict)
    ]


def _found_skus(out: dict[str, Any]) -> set[str]:
    return {
        str(p.get("sku"))
        for r in _results(out, "search_products")
        if isinstance(r.get("data"), dict)
        for p in r["data"].get("products") or ()
    }


@pytest.mark.parametrize(
    "message",
    [
        # whether a ticket is needed, asked: none filed
        "do I need to open a ticket to get an invoice?",
        "我需要开个工单吗 发票怎么开",
        # a transfer refused, and a question asked instead
        "不想找人工 你直接告诉我包裹啥时候到 另外新疆能发吗",
        # how to pay, asked of an order: no fault told ("不能用" in "能不能用微信付")
        "100998多少钱来着 还有100904能不能用微信付",
        # a complaint made before, asked after
        "之前投诉物流慢的那个 有进展没",
        # a thing broken at home, wanted again: shopping, no after-sales ticket
        "家里烧水壶坏了 1.7升那个有货没",
        "my kettle broke, do you have the same one in stock?",
    ],
)
async def test_questions_the_blind_batch_found_filing_things_file_nothing(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes" if message.isascii() else "是")
    assert await executions(bot, "create_ticket") == []
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


async def test_a_refused_transfer_still_answers_the_question_beside_it(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "不想找人工 你直接告诉我包裹啥时候到 另外新疆能发吗")
    assert "YT9433239273" in out["reply"]  # the parcel on its way (100683)
    assert "新疆" in out["reply"]  # the delivery policy names the remote regions


async def test_an_orders_total_asked_is_that_order(tmp_path: Path) -> None:
    out = await say(bot_for(tmp_path), "100998多少钱来着")
    assert _looked_at(out) == ["100998"]
    assert "5198" in out["reply"]


async def test_a_thing_broken_and_wanted_again_is_searched_by_its_name(tmp_path: Path) -> None:
    out = await say(bot_for(tmp_path), "家里烧水壶坏了 1.7升那个有货没")
    assert "SKU-1029" in _found_skus(out)  # the 1.7L kettle


@pytest.mark.parametrize(
    "message",
    [
        "之前退的那433到账了没 钱去哪了都",
        "帮我看看 之前退的那433是因为啥退的",
        "was my 433 refund actually paid out? btw are the noise cancelling headphones in stock",
        "don't refund the purifier, I just want to know whether the 433 already came back to my "
        "account",
    ],
)
async def test_a_refund_named_by_its_amount_is_its_orders_refunds(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert "100609" in _looked_at(out)
    assert "R-000094" in out["reply"]
    await say(bot, "yes" if message.isascii() else "是")
    assert await executions(bot, "create_refund") == []


async def test_the_shop_lists_the_orders_with_a_refund_of_an_amount(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    http = bot.client.http
    headers = {"X-Customer-Id": CUSTOMER}
    found = (await http.get("/orders", params={"refunded": "433"}, headers=headers)).json()
    assert [o["order_id"] for o in found["orders"]] == ["100609"]
    none = (await http.get("/orders", params={"refunded": "432.99"}, headers=headers)).json()
    assert none["orders"] == []
    bad = await http.get("/orders", params={"refunded": "lots"}, headers=headers)
    assert bad.status_code == 422


@pytest.mark.parametrize(
    "message",
    [
        "Hi there, can I talk to a human about the dented purifier please",
        "转人工，净化器的事跟机器说不清楚",
    ],
)
async def test_a_transfer_about_a_described_thing_goes_with_its_order(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    filed = await executions(bot, "create_ticket")
    assert len(filed) == 1  # transferred at once, never held back to ask which order
    ticket = await bot.client.call(
        "GET", f"/tickets/{filed[0]['target']}", tool="t", customer=CUSTOMER
    )
    assert ticket["order_id"] == "100609"
    assert "100609" in out["reply"]


async def test_a_transfer_beside_a_late_parcel_is_made_and_not_offered_again(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "where is my screen protector? get me a human")
    assert len(await executions(bot, "create_ticket")) == 1
    assert "just say" not in out["reply"]  # no "I can pass this to a human" beside the transfer


@pytest.mark.parametrize(
    ("message", "skus"),
    [
        ("羊毛袜我要三份 库存够吗 触屏手套也看下", {"SKU-1057", "SKU-1065"}),
        ("电饭煲是几升的 五口人够用吗 空气炸锅多大", {"SKU-1027", "SKU-1028"}),
        ("any cheap gloves that work with phone screens and a beanie to match",
         {"SKU-1065", "SKU-1064"}),
    ],
)  # fmt: skip
async def test_products_asked_of_apart_are_each_found(
    tmp_path: Path, message: str, skus: set[str]
) -> None:
    out = await say(bot_for(tmp_path), message)
    assert all(sku in out["reply"] for sku in skus)


async def test_a_one_letter_size_is_no_start_of_a_word(tmp_path: Path) -> None:
    out = await say(bot_for(tmp_path), "女士羽绒服有几个颜色？M码还有吗？")
    assert "SKU-1048" in out["reply"]  # the women's down jacket
    assert "SKU-1047" not in out["reply"]  # "m" is a size, not the start of "men's"


async def test_two_parts_about_one_parcel_read_it_once(tmp_path: Path) -> None:
    out = await say(bot_for(tmp_path), "我的钢化膜什么时候到，已经超时了吧")
    assert _looked_at(out) == ["100683"]
    assert out["reply"].count("YT9433239273") == 1


@pytest.mark.parametrize(
    ("message", "topic", "fact"),
    [
        ("how much can I still get refunded for the purifier, and how long would it take",
         "refund_time", "business days"),
        ("what happens if I place an order and don't pay straight away?", "payment", "24"),
        ("how many days do I have to send something back", "returns", "7"),
        ("下了单还没付款 不想要了是不是放着不管就自动取消了", "payment", "24"),
    ],
)  # fmt: skip
async def test_policy_questions_read_across_their_parts(
    tmp_path: Path, message: str, topic: str, fact: str
) -> None:
    out = await say(bot_for(tmp_path), message)
    asked = [t["args"].get("topic") for t in out["tasks"] if t.get("tool") == "search_faq"]
    assert topic in asked
    assert fact in out["reply"]


async def test_a_write_naming_nothing_after_a_look_at_another_order_asks_which(
    tmp_path: Path,
) -> None:
    """ "平底锅那单呢" then "三件冲锋衣那单还没发货吧？没发就取消掉": the cancel is never offered
    for the frying-pan order talked about before (the words point at the jacket order, which
    session 21 offers it for)."""
    bot = bot_for(tmp_path)
    other = "C0103"
    await run_turn(bot, "平底锅那单呢", session="s", customer=other)
    out = await run_turn(bot, "三件冲锋衣那单还没发货吧？没发就取消掉", session="s", customer=other)
    assert "100695" not in out["reply"]  # the frying-pan order
    await run_turn(bot, "对", session="s", customer=other)
    response = await bot.client.http.get(
        "/audit", params={"action": "cancel_order"}, headers={"X-Customer-Id": other}
    )
    assert [e["target"] for e in response.json()["entries"]] == ["100812"]


async def test_a_write_before_a_look_at_another_order_keeps_the_order_talked_about(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100998发货了吗")
    out = await say(bot, "没发就取消吧 顺便看下100683到哪了")
    assert "100998" in out["reply"]  # the cancel asked about the order talked about
    await say(bot, "确认")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]


# --- what the session's review found (a helper ran 1016 scripted sessions per version) ----------


@pytest.mark.parametrize(
    "turns",
    [
        # "the other one" never cancels the order just talked about
        ["100998发货了吗", "取消另一个"],
        ["100998发货了吗", "keep 100998, cancel the other one"],
        ["don't cancel 100998, cancel the other"],
        ["100998别动 取消另一个"],
        ["100998发货了吗", "不是这个 取消另一个"],
        ["100904付了吗", "别动这个 取消另一个"],
        # a refund named, nothing asked of it
        ["the purifier refund"],
        ["the monitor refund?"],
        ["100609的退款 100609的退款到了吗"],
        # a cancel or refund weighed, asked about or doubted
        ["要是显示器还没发 我可能会取消"],
        ["如果退100200 多久到账"],
        ["取消100998的话 钱多久回来"],
        ["100998多少钱来着 取消不了吧？"],
        # a write naming nothing beside a look at another order, after talking about a third
        ["100998发货了吗", "之前退的那433到账了没 然后退款"],
        # a refund made, named by its amount and asked about
        [
            "the 433 refund — was that for the purifier? and what about the air fryer, can that be "
            "refunded?"
        ],
        # a refund chased is no refund asked for
        ["your chat is useless, I've been asking about my purifier refund for days"],
    ],
)
async def test_review_phrasings_move_no_money_on_a_hurried_yes(
    tmp_path: Path, turns: list[str]
) -> None:
    bot = bot_for(tmp_path)
    for text in turns:
        await say(bot, text)
    await say(bot, "yes" if turns[-1].isascii() else "是")
    await say(bot, "yes" if turns[-1].isascii() else "对")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


async def test_a_refund_asked_on_a_condition_the_shop_checks_is_still_offered(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "在吗 100609还能退多少 能退的话全退了吧")
    await say(bot, "是")
    assert len(await executions(bot, "create_refund")) == 1


@pytest.mark.parametrize(
    "message",
    [
        "转人工 不是净化器的事 是手机",
        "talk to a human about buying a purifier",
        "transfer me. I bought an air purifier elsewhere",
        "talk to a human about my friend's purifier",
    ],
)
async def test_a_transfer_about_a_thing_not_bought_here_carries_no_such_order(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    filed = await executions(bot, "create_ticket")
    assert len(filed) == 1
    ticket = await bot.client.call(
        "GET", f"/tickets/{filed[0]['target']}", tool="t", customer=CUSTOMER
    )
    assert ticket["order_id"] != "100609"  # the purifier order


@pytest.mark.parametrize(
    "message",
    [
        "can I open a ticket about the late screen protector",
        "could we file a ticket for the dented purifier?",
    ],
)
async def test_a_ticket_asked_for_politely_is_still_filed(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes")
    assert len(await executions(bot, "create_ticket")) == 1


async def test_a_complaint_asked_beside_a_thing_wanted_again_stands(tmp_path: Path) -> None:
    out = await say(bot_for(tmp_path), "盘子碎了 同款有货没 顺便投诉一下")
    assert "create_ticket" in [t.get("tool") for t in out["tasks"]]


async def test_an_action_taken_back_before_another_is_not_run(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund the purifier, actually no, cancel the monitor order")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]


async def test_an_action_asked_about_and_wanted_if_possible_is_offered(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "Is it possible to cancel 100904? If yes please do it.")
    assert "100904" in out["reply"]
    assert await executions(bot, "cancel_order") == []  # asked first
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


@pytest.mark.parametrize(
    ("message", "tool"),
    [
        ("Order 100904: I DON'T want to cancel it, I'll pay tonight. Is it still held for me?",
         "get_order"),
        ("oh and peek at my phone order while youre at it", "get_order"),
        ("what time do you ship? if I pay now will it go out today", "search_faq"),
    ],
)  # fmt: skip
async def test_more_everyday_looks(tmp_path: Path, message: str, tool: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert tool in [t.get("tool") for t in out["tasks"]]
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []
