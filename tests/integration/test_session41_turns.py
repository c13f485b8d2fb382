"""Whole turns session 41 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpdesk.graph.money import read_amount
from helpdesk.packs import default_packs
from helpdesk.tools.refund_per_item import reason_for_amount
from tests.integration.test_trust import bot_for, calls_of, executions, refunds_of, say

SHOP = default_packs()

# --- an amount refused is never the amount asked ------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "amount"),
    [
        ("not 100", "invalid", None),
        ("refund part of 100200 not 100", "invalid", None),
        ("不是100", "invalid", None),
        ("don't refund 100", "invalid", None),
        ("退200，不是100", "exact", "200.00"),
        ("not 100, 50", "exact", "50.00"),
        ("no, not 100, 50", "exact", "50.00"),
        ("不要退100 退50", "exact", "50.00"),
        # pins: a correction after a pause, and an amount said before the one refused
        ("退100，不是，退50", "exact", "50.00"),
        ("refund 200 not 100", "exact", "200.00"),
    ],
)
def test_an_amount_refused_is_not_read(text: str, kind: str, amount: str | None) -> None:
    reading = read_amount(text, money_context=True, packs=SHOP)
    assert reading.kind == kind
    assert (str(reading.amount) if reading.amount is not None else None) == amount


async def test_not_an_amount_to_how_much_asks_again(tmp_path: Path) -> None:
    """ "refund part of 100200" → "not 100" offered ¥100 and a yes paid it."""
    bot = bot_for(tmp_path)
    await say(bot, "refund part of 100200")
    out = await say(bot, "not 100")
    assert "how much" in out["reply"].lower()
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("text", "paid"), [("100609退200，不是100", 200.0), ("refund 100609 not 100", None)]
)
async def test_the_amount_said_not_is_never_paid(
    tmp_path: Path, text: str, paid: float | None
) -> None:
    """ "退200，不是100" offered ¥100 (the one refused); "refund 100609 not 100" offered ¥100."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "确认" if "退" in text else "yes")
    assert await refunds_of(bot, "100609") == ([paid] if paid else [])


# --- an answer to a refund asked per thing -------------------------------------------------

PER_THING = "refund 100 for the thermos and 200 for the air fryer"


async def _reason_of_the_refund(bot: Any) -> str:
    (entry,) = await executions(bot, "create_refund")
    refund = await bot.client.call("GET", f"/refunds/{entry['target']}", tool="t", customer="C0001")
    return str(refund.get("reason"))


@pytest.mark.parametrize(
    ("answer", "yes"), [("yes but only 250", "yes"), ("可以 但是只退250", "确认")]
)
async def test_an_amount_changed_at_a_per_thing_offer_is_asked(
    tmp_path: Path, answer: str, yes: str
) -> None:
    """The ¥300 asked as ¥100 for the thermos and ¥200 for the air fryer was dropped and the
    answer quoted as not handled; the amount alone changed is asked, and the shop's record no
    longer says ¥100 and ¥200 were paid for the two things."""
    bot = bot_for(tmp_path)
    await say(bot, PER_THING)
    out = await say(bot, answer)
    assert "250.00" in out["reply"]
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [250.0]
    assert "Thermos" not in await _reason_of_the_refund(bot)


async def test_one_things_refund_changed_is_recorded_at_its_new_amount(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 for the thermos")
    await say(bot, "yes but only 50")
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [50.0]
    assert "50.00 Stainless Steel Thermos" in await _reason_of_the_refund(bot)


@pytest.mark.parametrize("answer", ["不了", "no thanks", "不用退了"])
async def test_a_plain_no_to_a_per_thing_offer_is_only_a_no(tmp_path: Path, answer: str) -> None:
    """ "不了" dropped the offer but was also quoted as a part of the message not handled."""
    bot = bot_for(tmp_path)
    await say(bot, PER_THING)
    out = await say(bot, answer)
    assert not [t for t in out["tasks"] if t.get("deferred")]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("reason", "amount", "kept"),
    [
        ("per item: 100.00 A; 200.00 B", 300.0, "per item: 100.00 A; 200.00 B"),
        ("per item: 100.00 A; 200.00 B", 250.0, None),
        ("per item: 100.00 A", 50.0, "per item: 50.00 A"),
        ("damaged in transit", 50.0, "damaged in transit"),
    ],
)
def test_a_reason_follows_the_amount(reason: str, amount: float, kept: str | None) -> None:
    assert reason_for_amount(reason, amount) == kept


def test_a_reason_naming_a_thing_the_order_does_not_hold_is_dropped() -> None:
    order = {"items": [{"name": "Air Purifier"}]}
    assert reason_for_amount("per item: 100.00 Stainless Steel Thermos 500ml", 100.0, order) is None
    assert reason_for_amount("per item: 100.00 Air Purifier", 100.0, order) == (
        "per item: 100.00 Air Purifier"
    )


async def test_a_things_refund_moved_to_another_order_does_not_say_it_was_for_the_thing(
    tmp_path: Path,
) -> None:
    """ "refund 100 for the thermos" → "不对，是100609": the ¥100 said is asked on 100609 and paid
    on a yes — the shop's record said it was for the thermos, which 100609 does not hold."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 for the thermos")
    await say(bot, "不对，是100609")
    await say(bot, "确认")
    assert await refunds_of(bot, "100609") == [100.0]
    assert "Thermos" not in await _reason_of_the_refund(bot)


# --- a person threatened beside a write ---------------------------------------------------


@pytest.mark.parametrize(
    "text", ["退款100609 不然我就转人工", "refund 100609, otherwise I want to talk to a human"]
)
async def test_a_transfer_threatened_beside_a_refund_is_not_offered(
    tmp_path: Path, text: str
) -> None:
    """ "退款100609 不然我就转人工" offered the refund and the transfer; a yes did both."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [c[0] for c in calls_of(out)] == ["request_refund"]
    await say(bot, "确认" if "退" in text else "yes")
    assert await refunds_of(bot, "100609") == [866.0]
    assert await executions(bot, "create_ticket") == []


# --- a thing refunded in two characters ------------------------------------------------------


async def test_refund_and_a_thing_alone_is_the_things_refund(tmp_path: Path) -> None:
    """ "退保温杯" was not understood (the help menu); "我想退保温杯" was read."""
    bot = bot_for(tmp_path)
    out = await say(bot, "退保温杯")
    assert "129.00" in out["reply"]
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [129.0]


@pytest.mark.parametrize("text", ["退出登录", "退保险", "退单", "别退保温杯"])
async def test_other_words_after_the_verb_are_no_refund(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "request_refund" not in [c[0] for c in calls_of(out)]


# --- what a refund or a cancel takes, asked ------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "do I need to file a complaint to get my refund on 100200?",
        "do I have to send it back to get a refund on 100200?",
        "我需要先寄回才能退款100200吗？",
        "我是不是得投诉才能拿到100200的退款？",
        "can my wife get a refund on 100609 instead of me?",
        "where do I go to cancel 100998?",
        "do I have to call to cancel 100998?",
    ],
)
async def test_what_a_write_takes_asked_offers_nothing(tmp_path: Path, text: str) -> None:
    """Each was offered (¥797, ¥866, the ¥5198 cancel) and a yes ran it."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not {"request_refund", "cancel_order"} & {c[0] for c in calls_of(out)}
    await say(bot, "确认" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


async def test_a_refund_asked_beside_what_it_takes_is_offered(tmp_path: Path) -> None:
    """A pin: "refund 100200 please, do I need to send it back?" asks for the refund."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 100200 please, do I need to send it back?")
    assert "request_refund" in [c[0] for c in calls_of(out)]


# --- numbers that are no amount ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("refund order 200", "none"),
        ("refund #609", "none"),
        ("退款 订单号 609", "none"),
        ("退款订单10020", "none"),
        ("refund order no. 10609", "none"),
        ("refund 100200 delivered on Sept 3", "none"),
        ("refund 100200 it came on Oct 2", "none"),
        ("refund 100200 bought on 2026-08-30", "none"),
        ("refund order 100200 call me at 13912345678", "none"),
        ("refund 100200 - 4 out of 16 plates broken", "invalid"),
        ("refund order 100200 - 1 air fryer", "invalid"),
        # pins: an amount beside an order number or a date is still the amount
        ("refund 100 on order 609", "exact"),
        ("refund 100609 200 yuan, delivered on Sept 3", "exact"),
    ],
)
def test_order_numbers_dates_phones_and_counts_are_no_amount(text: str, kind: str) -> None:
    assert read_amount(text, money_context=True, packs=SHOP).kind == kind


@pytest.mark.parametrize(
    ("turns", "order", "paid"),
    [
        (("refund order 200", "100200", "yes"), "100200", [797.0]),
        (("refund #609", "100609", "yes"), "100609", [866.0]),
        (("refund 100200 delivered on Sept 3", "yes"), "100200", [797.0]),
        (("refund order 100200 - 1 air fryer", "yes"), "100200", []),
    ],
)
async def test_a_number_that_is_no_amount_is_never_paid(
    tmp_path: Path, turns: tuple[str, ...], order: str, paid: list[float]
) -> None:
    """Each paid the number as yuan on a yes: ¥200, ¥609, ¥3, ¥1."""
    bot = bot_for(tmp_path)
    for turn in turns:
        await say(bot, turn)
    assert await refunds_of(bot, order) == paid


# --- the amount told after "more than can be refunded" ---------------------------------------


@pytest.mark.parametrize(
    ("answer", "yes", "paid"),
    [
        ("797", "yes", 797.0),
        ("fine, 700", "yes", 700.0),
        ("那就500", "确认", 500.0),
        ("ok then the max", "yes", 797.0),
    ],
)
async def test_the_amount_answered_after_too_much_is_read(
    tmp_path: Path, answer: str, yes: str, paid: float
) -> None:
    """ "refund 1000 on 100200" → "at most ¥797.00 … Tell me the amount you want" → "797" got
    the help menu: the question asked was not remembered."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 1000 on 100200")
    out = await say(bot, answer)
    assert f"{paid:.2f}" in out["reply"]
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [paid]


# --- a question beside a transfer ------------------------------------------------------------


async def test_a_policy_asked_beside_a_transfer_is_answered(tmp_path: Path) -> None:
    """ "…warranty 多久 还有帮我转 human": the warranty question was dropped (only the transfer)."""
    bot = bot_for(tmp_path)
    out = await say(bot, "那个 air fryer 坏了 warranty 多久 还有帮我转 human")
    tools = [c[0] for c in calls_of(out)]
    assert "search_faq" in tools and "handoff_to_human" in tools


# --- a cancel of what has arrived --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "said", "not_said"),
    [
        ("cancel order 100200", "return or a refund", "once it arrives"),
        ("取消订单100200", "退货或退款", "收到商品后"),
        # a pin: on its way, "once it arrives" is right
        ("cancel order 100683", "once it arrives", "no such words"),
    ],
)
async def test_a_delivered_order_is_not_said_to_arrive(
    tmp_path: Path, text: str, said: str, not_said: str
) -> None:
    """ "cancel order 100200" (delivered) said "if you no longer need it once it arrives"."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert said in out["reply"] and not_said not in out["reply"]


# --- after a refund ran, and other words for money ----------------------------------------------


@pytest.mark.parametrize("denial", ["I said no!", "undo that", "我没同意啊"])
async def test_a_refund_denied_after_it_ran_shows_it(tmp_path: Path, denial: str) -> None:
    """Each got the help menu: nothing said the refund had gone through."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    await say(bot, "yes")
    out = await say(bot, denial)
    assert "866.00" in out["reply"] and "R-" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [866.0]


async def test_a_no_said_so_to_a_question_waiting_is_its_no(tmp_path: Path) -> None:
    """A pin: after a refund ran, "我说了不要" to another refund's question is that one's no."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    await say(bot, "yes")
    await say(bot, "refund 100200")
    await say(bot, "我说了不要")
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == []


async def test_half_of_what_is_left_given_back_is_a_refund(tmp_path: Path) -> None:
    """ "100609剩下的一半退给我" got the help menu."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100609剩下的一半退给我")
    assert "433.00" in out["reply"]
    await say(bot, "确认")
    assert await refunds_of(bot, "100609") == [433.0]


def test_yuan_and_jiao_are_quoted_whole() -> None:
    """ "100200退150块5" was quoted back as "0 块5"."""
    reading = read_amount("100200退150块5", money_context=True, packs=SHOP)
    assert reading.kind == "invalid" and reading.raw.startswith("150")


# --- the customer's refunds, asked ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "need to know the status of all my refunds and all my tickets please",
        "show me all my refunds",
        "我退的那笔钱到哪了 还有空气净化器滤芯有卖吗",
    ],
)
async def test_the_customers_refunds_asked_are_listed(tmp_path: Path, text: str) -> None:
    """Each got the refund-timing policy (or the order list) instead of the refund R-000094."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "R-000094" in out["reply"]


async def test_whether_it_can_be_cancelled_beside_its_state_is_answered(tmp_path: Path) -> None:
    """ "…the status of order 100998, and whether I can still cancel it?": one look at the order
    answered the state; whether it can be cancelled was dropped."""
    bot = bot_for(tmp_path)
    out = await say(
        bot, "Could you tell me the status of order 100998, and whether I can still cancel it?"
    )
    assert "can still be cancelled" in out["reply"]
    assert "cancel_order" not in [c[0] for c in calls_of(out)]


async def test_a_parcel_named_by_its_tracking_number_beside_a_refund_is_tracked(
    tmp_path: Path,
) -> None:
    """Only the refund was read; the parcel named was taken for the refund's reason."""
    bot = bot_for(tmp_path)
    out = await say(
        bot, "my package YT9433239273 is stuck, whats going on? also can I get a refund on shipping"
    )
    assert "track_shipment" in [c[0] for c in calls_of(out)]


async def test_a_go_ahead_after_a_cancel_question_asks_the_cancel(tmp_path: Path) -> None:
    """ "…if I cancel 100998 now? and do it" answered "nothing is waiting for your confirmation";
    the cancel is now asked (and run on a yes)."""
    bot = bot_for(tmp_path)
    out = await say(bot, "how much would I get back if I cancel 100998 now? and do it")
    assert "cancel_order" in [c[0] for c in calls_of(out)]
    assert await executions(bot, "cancel_order") == []
    await say(bot, "yes")
    assert len(await executions(bot, "cancel_order")) == 1


@pytest.mark.parametrize("text", ["谢谢你帮我查了物流", "拜拜 谢谢你帮我查了物流 对了换货怎么换"])
async def test_thanks_for_a_look_done_looks_at_nothing(tmp_path: Path, text: str) -> None:
    """The thanks were read as a request to track 100683 again."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "track_shipment" not in [c[0] for c in calls_of(out)]


# --- pins from the paired review: what the first versions of this session broke --------------


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("refund 50 maybe for 100200", "50.00"),
        ("100200 refund 30 may be enough", "30.00"),
        ("I decided 50 is fair, refund 100200", "50.00"),
        ("refund order 100200 100 yuan", "100.00"),
        ("refund #100200 100", "100.00"),
        ("退款 订单号 100200 100元", "100.00"),
        ("100200这个订单100块退给我", "100.00"),
        ("refund 33.6 for 2 out of 16 plates on 100200", "33.60"),
        ("100200 refund 50 for 1 broken mug", "50.00"),
    ],
)
def test_an_amount_beside_a_month_word_an_order_word_or_a_count_is_read(
    text: str, amount: str
) -> None:
    reading = read_amount(text, money_context=True, packs=SHOP)
    assert reading.kind == "exact" and str(reading.amount) == amount


@pytest.mark.parametrize(
    "turns",
    [
        ("查一下100200", "退发票", "确认"),
        ("查一下100200", "退到原卡", "确认"),
        ("查一下100609", "退好了", "确认"),
        ("退保温杯还是换", "确认"),
        ("100609 一半退给我了，剩下的呢", "确认"),
        ("100609 你们只把一半退给我", "确认"),
    ],
)
async def test_words_after_the_verb_that_name_no_thing_refund_nothing(
    tmp_path: Path, turns: tuple[str, ...]
) -> None:
    bot = bot_for(tmp_path)
    for turn in turns:
        await say(bot, turn)
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("answer", ["炸锅退150", "保温杯只退50", "退250吗？", "保温杯不用了"])
async def test_one_parts_change_at_a_per_thing_offer_is_not_the_total(
    tmp_path: Path, answer: str
) -> None:
    """ "炸锅退150" to ¥300 asked as ¥100 + ¥200 was asked (and paid) as ¥150 in all."""
    bot = bot_for(tmp_path)
    await say(bot, "100200 保温杯退100 空气炸锅退200")
    await say(bot, answer)
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("text", "paid"),
    [("100200 必须退款才可以，马上退", [797.0]), ("我需要退款才能买新的 100200退了吧", [797.0])],
)
async def test_a_refund_asked_beside_what_it_is_needed_for_is_offered(
    tmp_path: Path, text: str, paid: list[float]
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == paid


async def test_a_denial_read_as_a_no_says_the_write_stands(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 on 100200")
    await say(bot, "yes")
    out = await say(bot, "我没说要退100，我要退200")
    assert "无法撤销" in out["reply"]


@pytest.mark.parametrize(("text", "amount"), [("不不不 200", "200.00"), ("不不不200", "200.00")])
def test_a_no_repeated_before_the_amount_is_no_refusal_of_it(text: str, amount: str) -> None:
    """A pin (the first refused-amount pattern took "不 200" for "not 200")."""
    reading = read_amount(text, money_context=True, packs=SHOP)
    assert reading.kind == "exact" and str(reading.amount) == amount
