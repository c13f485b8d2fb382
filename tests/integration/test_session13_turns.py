"""Whole turns session 13's batches showed the bot getting wrong: the bot is run as a customer
would meet it (the demo shop seeded, the minimal tier), and what it planned, said and executed is
checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpdesk.degrade.chaos import Fault, FaultRule
from helpdesk.degrade.clock import FakeClock
from tests.integration.test_honesty import chaos_bot
from tests.integration.test_trust import bot_for, executions, refunds_of, say


def _calls(out: dict[str, object]) -> list[tuple[str, object]]:
    return [(r["tool"], r.get("args", {}).get("order_id")) for r in out["tool_results"]]  # type: ignore[attr-defined, index]


@pytest.mark.parametrize(
    ("message", "order_id"),
    [
        ("can i get 100998 sent to my office instead + when will it ship", "100998"),
        ("moving next week, can the address on my phone order be changed?", "100998"),
        ("100998能不能改送到公司", "100998"),
        # "it" is the parcel the tracking number names, found by the look before it
        ("where's my parcel YT9433239273? and can the courier drop it at my work address "
         "instead of home", "100683"),
    ],
)  # fmt: skip
async def test_a_parcel_sent_somewhere_else_is_an_address_change(
    tmp_path: Path, message: str, order_id: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert any(t["intent"] == "change_address" for t in out["tasks"])
    assert f"{order_id}" in out["reply"]
    assert "address" in out["reply"] or "地址" in out["reply"]
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "message",
    [
        "can you deliver to my office on weekends",
        "100609退款，顺便开张发票寄到公司",
    ],
)
async def test_delivery_questions_and_invoices_by_post_are_no_address_change(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert all(t["intent"] != "change_address" for t in out["tasks"])


# --- a part no template read, looked up in the catalogue ---------------------------------------


@pytest.mark.parametrize(
    ("message", "sku"),
    [
        ("tracking for 100200 pls plus is the thermos dishwasher safe", "SKU-1025"),
        ("上次多谢啦 顺便问下保温杯能放洗碗机吗", "SKU-1025"),
        # nothing else read: the catalogue before the menu
        ("保温杯能放洗碗机吗", "SKU-1025"),
    ],
)
async def test_a_question_about_a_named_product_shows_what_the_catalogue_knows(
    tmp_path: Path, message: str, sku: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert sku in out["reply"]
    # and says that is all it knows of the product, not that it answered the question
    assert "catalogue" in out["reply"] or "商品目录" in out["reply"]
    assert not any(t.get("deferred") for t in out["tasks"])


@pytest.mark.parametrize(
    "message",
    [
        "cancel 100998, and could you gift wrap the thermos for my mum",
        "whats the return policy and can you add a second thermos to order 100200",
    ],
)
async def test_something_asked_done_with_a_product_stays_unread(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert any(t.get("deferred") for t in out["tasks"])
    assert all(r["tool"] != "search_products" for r in out["tool_results"])


async def test_a_failed_catalogue_lookup_leaves_the_part_unread(tmp_path: Path) -> None:
    clock = FakeClock()
    outage = FaultRule(fault=Fault.UNAVAILABLE, rate=1.0, target="search_products")
    bot = chaos_bot(tmp_path, [outage], clock)
    out = await say(bot, "where is 100683? also is the humidifier quiet enough for a baby's room")
    assert "YT9433239273" in out["reply"]
    assert "humidifier quiet enough" in out["reply"]  # named as the part not handled
    assert "SKU-1035" not in out["reply"]


# --- money and tickets from everyday words -----------------------------------------------------


async def test_can_i_get_a_refund_shows_the_amount_and_how_to_ask_and_refunds_nothing(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "can i get a refund on 100609?")
    assert all(r["tool"] != "request_refund" for r in out["tool_results"])
    assert "866.00" in out["reply"] and 'say "refund 100609"' in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    # asked for in so many words, it is asked and then done
    await say(bot, "refund 100609")
    await say(bot, "yes")
    assert len(await executions(bot, "create_refund")) == 1


@pytest.mark.parametrize(
    "message",
    [
        "i asked for a refund on 100609 last month, how much was it and how much is left?",
        "100609里的净化器想退货 能退多少 不用帮我退 我先问问",
        "Order 100181 - why was it cancelled? I didn't cancel it!",
        "Good afternoon. I would be grateful if you could confirm whether my earlier complaint "
        "regarding the delayed parcel has been resolved.",
    ],
)
async def test_questions_and_take_backs_plan_and_execute_no_write(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    planned = {r["tool"] for r in out["tool_results"]}
    assert not planned & {"request_refund", "cancel_order", "create_ticket", "search_products"}
    await say(bot, "yes")
    for action in ("create_refund", "cancel_order", "create_ticket"):
        assert await executions(bot, action) == []


async def test_a_fault_told_beside_another_orders_cancel_is_asked_about_for_its_own_order(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "8月买的保温杯漏水了 把那129退给我 顺便把100904取消了")
    # the thermos is the August order's (100200), not 100904's; nothing filed before a yes
    assert await executions(bot, "create_ticket") == []
    ticket = [t for t in out["tasks"] if t["tool"] == "create_ticket"]
    assert ticket and ticket[0]["args"]["order_id"] == "100200"
    assert "129" in out["reply"]  # the refund it could not read is named, not dropped


async def test_a_complaint_asked_after_lists_the_tickets(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "what happened to my complaint")
    assert "T-000031" in out["reply"]
    assert all(r["tool"] != "create_ticket" for r in out["tool_results"])


@pytest.mark.parametrize(
    "message", ["hi, my parcel is late AGAIN. please file a ticket", "快递又延误了，帮我开个工单"]
)
async def test_a_ticket_for_the_parcel_a_look_found_names_it_and_asks_first(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    ticket = [t for t in out["tasks"] if t["tool"] == "create_ticket"]
    assert ticket and ticket[0]["args"]["order_id"] == "100683"
    assert await executions(bot, "create_ticket") == []  # the order was found, not named
    await say(bot, "yes" if message.isascii() else "是")
    filed = await executions(bot, "create_ticket")
    assert [e["target"] for e in filed] == ["100683"] or len(filed) == 1


async def test_a_cancel_never_takes_the_order_a_look_found(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "the screen protector: where is it, and can I even cancel it now?")
    assert all(t["tool"] != "cancel_order" for t in out["tasks"])


async def test_a_refund_corrected_to_a_cancel_refunds_nothing(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "我想退空气炸锅那单 不对 是取消 还没付钱的那个")
    assert [t["tool"] for t in out["tasks"]] == ["cancel_order"]
    assert out["tasks"][0]["args"]["order_id"] == "100904"
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


async def test_a_refund_taken_back_by_forget_it_is_never_made(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(
        bot,
        "hey, two things: where's my phone order, and can you refund the 433 I was charged on "
        "the purifier?? wait no, that one was already refunded, forget it. just the phone",
    )
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- found by a review of this session's changes (each executed or dropped a write) -----------


@pytest.mark.parametrize(
    "answer", ["no, for 100609", "不是这个，是100609", "yes please but for 100609"]
)
async def test_a_changed_answer_to_a_ticket_offer_is_asked_again_not_filed(
    tmp_path: Path, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "where's my parcel? file a ticket")
    await say(bot, answer)
    assert await executions(bot, "create_ticket") == []
    out = await say(bot, "yes")
    assert len(await executions(bot, "create_ticket")) == 1
    assert "100609" in out["reply"]


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("100609就退了这么点？", "是"),
        ("100609上次就退了一部分，这次还能退多少", "确认"),
        ("refund 866 - 66 on 100609", "yes"),
    ],
)
async def test_a_refund_told_of_or_an_unclear_sum_refunds_nothing(
    tmp_path: Path, message: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, answer)
    assert await executions(bot, "create_refund") == []


async def test_thanks_then_a_take_back_takes_the_cancel_back(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消100904，谢谢啦 不用了")
    await say(bot, "确认")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    "message",
    [
        "I didn't cancel it, cancel 100904",
        "cancel 100904 and never mind the address, where's my parcel",
    ],
)
async def test_a_cancel_beside_other_words_is_still_asked(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]


async def test_cancelling_a_paid_order_says_what_goes_back_before_the_yes(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "Please cancel the order with the phone and the 4K monitor in it")
    assert "100998" in out["reply"] and "5198.00" in out["reply"]
    assert await executions(bot, "cancel_order") == []
    pending = await say(bot, "取消100904")  # unpaid: nothing goes back, nothing is said of it
    assert "¥" not in pending["reply"]


# --- found by a second review (prices as descriptions were withdrawn; these stay pinned) ------


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("5198那单先不动，399那单取消", "确认"),
        ("取消5198那单 不对 是399那单", "确认"),
        ("keep the order I paid 5198 for, cancel the other paid one", "yes"),
    ],
)
async def test_a_price_beside_a_keep_or_a_correction_never_cancels_that_order(
    tmp_path: Path, message: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, answer)
    assert "100998" not in [e["target"] for e in await executions(bot, "cancel_order")]


@pytest.mark.parametrize(
    ("message", "order_id", "amount"),
    [("refund the 797 order, 100 only", "100200", 100.0),
     ("the 29 yuan thing, refund 10", "100683", 10.0)],
)  # fmt: skip
async def test_a_price_told_of_is_never_the_refund_amount(
    tmp_path: Path, message: str, order_id: str, amount: float
) -> None:
    # session 15: the total names the order ("the 797 order": 100200), the amount is the one
    # said; before, the order was not found and nothing was refunded
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "yes")
    assert await refunds_of(bot, order_id) == [amount]


@pytest.mark.parametrize(
    "message",
    [
        "can you file a ticket about my broken thermos? also cancel 100904",
        "保温杯漏水了帮我开个工单，100904取消",
    ],
)
async def test_a_ticket_about_a_product_is_never_filed_at_once_on_another_orders_number(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert await executions(bot, "create_ticket") == []
    tickets = [t for t in out["tasks"] if t["tool"] == "create_ticket"]
    assert all(t["args"].get("order_id") != "100904" for t in tickets)


@pytest.mark.parametrize(
    "message",
    ["is my complaint resolved?", "did my complaint get resolved?", "is my case closed yet?"],
)
async def test_a_complaint_asked_after_lists_the_tickets_and_files_none(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert "T-000031" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


async def test_a_second_product_the_catalogue_lacks_is_said_unread_not_dropped(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "do you sell a kettle? and a toaster?")
    assert "SKU-1029" in out["reply"]  # the kettle
    assert "toaster" in out["reply"]  # named as a part not handled
