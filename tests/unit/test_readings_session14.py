"""Readings session 14 found wrong: a thank-you to a yes/no question, an order named as not meant,
writes after a comma, a count read as money, who pays the postage (each reading is what the
planner acts on; executions are counted in tests/integration/test_session14_turns.py)."""

from __future__ import annotations

import pytest

from helpdesk.graph.asking import ASKS
from helpdesk.graph.intents import SPARED_SUBJECT, Intent
from helpdesk.graph.money import read_amount
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import kind_of, match_shop, order_of
from helpdesk.packs.shop.order_parts import kept_out, spared_before

SHOP = default_packs()


def read(text: str, *, awaiting: bool = False) -> list[tuple[str, str | None]]:
    return [
        (str(kind_of(m)), order_of(m))
        for m in match_shop(text, packs=SHOP, awaiting_confirmation=awaiting)
    ]


@pytest.mark.parametrize("text", ["ok thanks", "ok, thank you", "好的，谢谢", "嗯嗯 谢谢"])
def test_an_acknowledgement_with_thanks_is_no_yes(text: str) -> None:
    (answer,) = match_shop(text, packs=SHOP, awaiting_confirmation=True)
    assert answer.intent is Intent.CONFIRM_UNCLEAR  # asked again, nothing run


def test_a_thank_you_without_a_yes_word_is_a_thank_you() -> None:
    (answer,) = match_shop("got it thx", packs=SHOP, awaiting_confirmation=True)
    assert answer.intent is Intent.THANKS


@pytest.mark.parametrize("text", ["yes thanks", "确认，谢谢", "yes please", "ok"])
def test_a_yes_with_thanks_is_still_a_yes(text: str) -> None:
    (answer,) = match_shop(text, packs=SHOP, awaiting_confirmation=True)
    assert answer.intent is Intent.CONFIRM_YES


@pytest.mark.parametrize(
    ("words", "spared"),
    [
        ("cancel my order, not ", True),
        ("file a ticket about my broken purifier, not ", True),
        ("cancel everything except ", True),
        ("取消我的订单，不是", True),
        ("cancel ", False),
        ("where is ", False),
        ("don't cancel ", False),  # a refusal of the write, read elsewhere
    ],
)
def test_words_right_before_an_order_that_spare_it(words: str, spared: bool) -> None:
    assert spared_before(words) is spared


def test_a_single_order_kept_out_only_by_words_for_several() -> None:
    assert kept_out("cancel 100904 but not 100998", ["100904", "100998"]) == {"100998"}
    assert kept_out("cancel my order, not 100998", ["100998"]) == {"100998"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the only order named is the one not meant: the write names no order (asked about)
        ("cancel my order, not 100998", [("cancel_order", None)]),
        ("file a ticket about my broken purifier, not 100998", [("create_ticket", None)]),
        ("取消我的订单，不是100998", [("cancel_order", None), ("confirm_no", "100998")]),
        # a correction is no sparing: the order named after it is the one meant
        ("取消100904，哦不对，是100998", [("cancel_order", "100998")]),
        ("cancel 100998... actually no, 100904", [("cancel_order", "100904")]),
        # two writes after a comma, each its own
        ("refund 100609 please, cancel 100998 too",
         [("refund", "100609"), ("cancel_order", "100998")]),
        ("refund 100609 please, actually cancel 100998 too",
         [("refund", "100609"), ("cancel_order", "100998")]),
        # what is not wanted before what is: only the write
        ("don't refund, cancel 100904", [("cancel_order", "100904")]),
        ("no refund, just cancel 100904", [("cancel_order", "100904")]),
        ("不要退款，取消100904就行", [("cancel_order", "100904")]),
        # ... and a refusal alone stays one
        ("don't cancel 100998", [("confirm_no", None)]),
    ],
)  # fmt: skip
def test_orders_spared_corrected_and_writes_split(
    text: str, expected: list[tuple[str, str | None]]
) -> None:
    assert read(text) == expected


def test_an_order_spared_beside_a_write_is_named_by_the_refusal() -> None:
    matches = match_shop("can u cancel 100904 and refund 100609 but dont touch 100998", packs=SHOP)
    spared = [m for m in matches if m.intent is Intent.CONFIRM_NO]
    assert [(m.details, order_of(m)) for m in spared] == [(SPARED_SUBJECT, "100998")]


@pytest.mark.parametrize(
    ("text", "kind", "raw"),
    [
        ("refund the 1 item from 100200", "invalid", "1 item"),
        ("refund 2 plates from 100200", "invalid", "2 plates"),
        ("refund 100200 for the 2 plates", "invalid", "2 plates"),
        ("I bought 2 of them, refund 100", "exact", "100"),
        ("refund 30 yuan", "exact", "30"),
        ("refund 100 please", "exact", "100"),
    ],
)
def test_a_count_is_never_money(text: str, kind: str, raw: str) -> None:
    reading = read_amount(text, money_context=True, packs=SHOP)
    assert (reading.kind, reading.raw) == (kind, raw)


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("who pays the shipping", True),
        ("运费谁出", True),
        ("who covers return postage", True),
        ("the guy who delivered it was rude", False),
    ],
)
def test_who_bears_a_cost_is_a_question(text: str, asks: bool) -> None:
    assert bool(ASKS.search(text)) is asks


def test_a_return_with_who_pays_the_postage_is_asked_first_and_answered() -> None:
    matches = match_shop("return 100609 and who pays the shipping", packs=SHOP)
    assert [(str(kind_of(m)), m.topic) for m in matches] == [
        ("create_ticket", None),
        ("faq", "returns"),
    ]
    assert matches[0].args.get("ask_first") is True


# --- the eighth fresh batch (fo-): what its first run showed ---------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # whether an order can be cancelled, asked: its state answers (never a cancel planned)
        ("能取消吗？100998", [("order_status", "100998")]),
        ("100998可以取消吗", [("order_status", "100998")]),
        ("can 100998 be cancelled?", [("order_status", "100998")]),
        ("is 100998 cancellable", [("order_status", "100998")]),
        # ... asked for, however politely, it is a cancel (asked first)
        ("能帮我取消100998吗", [("cancel_order", "100998")]),
        ("can you cancel 100998?", [("cancel_order", "100998")]),
        # a transfer made before, asked after: the tickets, never a new transfer
        ("我之前转人工那个单子有人跟进吗", [("ticket_status", None)]),
        ("I asked for a human yesterday, has anyone followed up?", [("ticket_status", None)]),
        ("转人工", [("handoff", None)]),
        # a refund told of is no refund asked for
        ("how much can I still get back from 100322? you refunded the fitness band already",
         [("order_status", "100322")]),
        ("you guys refunded me 100 already, refund the rest", [("refund", None)]),
        # a look naming a thing of its own is about that thing's order, not the one before
        ("Refund 200 yuan on 100609 pls, the filter was missing. and where's my screen protector",
         [("refund", "100609"), ("tracking", None)]),
        ("订单100609退200块钱，滤网少了一个。另外钢化膜到哪了",
         [("refund", "100609"), ("tracking", None)]),
        # ... but "it" / "那个定单" is the order named before
        # (how far it has got, "到哪一步": the order's state since session 19)
        ("100609先退两百 100998别动 我就想知道它到哪一步了",
         [("refund", "100609"), ("confirm_no", "100998"), ("order_status", "100998")]),
        # a ticket asked for politely is asked for; the problem told after it is its order's
        # (and, since session 18, its reason: no look of its own)
        ("能不能帮我开个工单 100683 物流一直不动", [("create_ticket", "100683")]),
        # whether a thing can be sent back on its own: the returns policy
        ("充电器能单独退吗", [("faq", None)]),
        # a problem and the ticket asked for it are one ticket
        ("我想投诉快递员态度差，给我建个投诉单，订单100609。谢谢",
         [("create_ticket", "100609"), ("thanks", None)]),
    ],
)  # fmt: skip
def test_fresh_batch_eight_readings(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert read(text) == expected


def test_a_ticket_number_said_apart_is_the_one_asked_after() -> None:
    matches = match_shop("我的投诉处理得怎么样了，单号T-000031，顺便看看包裹到哪了", packs=SHOP)
    statuses = [m for m in matches if str(kind_of(m)) == "ticket_status"]
    assert [m.args.get("ticket_id") for m in statuses] == ["T-000031"]


@pytest.mark.parametrize("text", ["哈哈好的 👌", "哦哦原来如此 谢啦 😄", "ok cool", "原来如此"])
def test_an_answer_taken_in_is_an_acknowledgement(text: str) -> None:
    assert [m.intent for m in match_shop(text, packs=SHOP)] == [Intent.THANKS]


def test_a_transfer_threatened_on_a_condition_is_offered() -> None:
    matches = match_shop("我的订单100683为啥还没到，你们给个说法，不然我要转人工了", packs=SHOP)
    handoffs = [m for m in matches if str(kind_of(m)) == "handoff"]
    assert handoffs and all(m.args.get("ask_first") is True for m in handoffs)
    # asked alone, the transfer is made at once
    (alone,) = match_shop("if you can't fix it, get me a human", packs=SHOP)
    assert str(kind_of(alone)) == "handoff" and not alone.args.get("ask_first")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Which courier has my screen protector and what's the tracking number",
         [("tracking", None)]),
        ("which courier do you use", [("faq", None)]),
        ("what did I order on 100609 and when did it arrive?", [("tracking", "100609")]),
        ("帮我看一下我有哪些订单是可以退款的", [("list_orders", None)]),
        ("which of my orders can I still get a refund on", [("list_orders", None)]),
        ("whats the refund status on my air purifier, did the 433 come through",
         [("order_status", None)]),
        ("你好 我是英语用户 please answer in English, where is my order 100998",
         [("greeting", None), ("tracking", "100998"), ("language", None)]),
        ("ok so first, is the power bank in stock, second, how much is the wireless charging "
         "pad, third where is my screen protector. thanks!!",
         [("stock", None), ("stock", None), ("tracking", None), ("thanks", None)]),
        ("the first is fine", [("unknown", None)]),
    ],
)  # fmt: skip
def test_fresh_batch_eight_more_readings(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert read(text) == expected


# --- a review of this session's changes (806 sessions run on the commit before and after) ----


@pytest.mark.parametrize(
    ("text", "kind", "raw"),
    [
        # "N of the M" is N (the count rule read "50 of the" as a count and paid the 797)
        ("refund 50 of the 797 on 100200", "exact", "50"),
        ("refund only 25 of the money, 100609", "exact", "25"),
        ("100609 refund 30 of the remaining 866", "exact", "30"),
        # a price per item is asked about, never taken for the amount
        ("refund 2 plates at 40 each 100200", "invalid", "at 40 each"),
        # one amount for each of two orders is still read
        ("refund 100609 and 100200 50 each", "exact", "50"),
    ],
)
def test_amounts_beside_counts(text: str, kind: str, raw: str) -> None:
    reading = read_amount(text, money_context=True, packs=SHOP)
    assert (reading.kind, reading.raw) == (kind, raw)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "都不动" / "一直不动" beside a write keeps that order out of it ...
        ("取消100904 100998一直不动", [("cancel_order", "100904"), ("confirm_no", "100998")]),
        ("取消100904 100998都不动", [("cancel_order", "100904"), ("confirm_no", "100998")]),
        ("退100609 100200一直不动", [("refund", "100609"), ("confirm_no", "100200")]),
        # ... a parcel that does not move keeps nothing out
        ("能不能帮我开个工单 100683 物流一直不动", [("create_ticket", "100683")]),
        # orders listed, then one verb for them all: every order
        ("100904, 100998, cancel both", [("cancel_order", "100904"), ("cancel_order", "100998")]),
        ("100609, 100200, refund both 50", [("refund", "100609"), ("refund", "100200")]),
        # a ticket weighed, not asked for
        ("could you open a ticket for returns or should I do it myself?", [("faq", None)]),
        ("帮我开工单要多久", [("faq", None)]),
        # a new transfer asked beside the one made before
        ("I asked for a human yesterday nobody called, transfer me again now", [("handoff", None)]),
        ("上次转人工没人管 转人工", [("handoff", None)]),
        ("我之前要求转人工的那个单子现在什么情况了", [("ticket_status", None)]),
        # a cancel on the condition it can be is a cancel (the shop refuses if not)
        ("cancel 100998 if it's still cancellable", [("cancel_order", "100998")]),
        # a refund told of, with more asked for
        ("you guys refunded 100609 already but I want another 50", [("refund", "100609")]),
        # (session 31: the customer's refunds, each with its state and how long one takes)
        ("数据线那笔退款批了 但是钱还没到 这正常吗", [("order_status", None)]),
        # whether money can come back, asked (with "just asking, not now"): never a refund
        ("如果钢化膜一直不到 能退钱吗？先问问 不是现在就要退", [("faq", None), ("unknown", None)]),
        ("100609能退款吗", [("order_status", "100609")]),
        ("帮我退钱", [("refund", None)]),
        # the customer's own old thing broke: why a new one is wanted, no ticket
        ("早上好 电饭煲有货吗 家里那个坏了", [("greeting", None), ("stock", None)]),
        ("my old kettle broke, do you sell kettles?", [("stock", None)]),
        ("my kettle broke", [("create_ticket", None)]),
        ("cancel 100998 & 100904, not kidding",
         [("cancel_order", "100998"), ("cancel_order", "100904")]),
        ("transfer me", [("handoff", None)]),
    ],
)  # fmt: skip
def test_review_readings(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("早上好～帮我看看100609什么时候签收的", [("greeting", None), ("order_status", "100609")]),
        # a fault beside the policy asked about: both (the ticket asked first); "making a noise"
        # alone is no fault ("the kids are making noise, where's 100683")
        ("my thermos from order 100200 is broken after a month smh, warranty covers that right?",
         [("create_ticket", "100200"), ("faq", None)]),
        ("the kids are making noise sorry, where's 100683", [("tracking", "100683")]),
        ("换货要几天内申请啊", [("faq", None)]),
        ("does the kettle make a loud noise?", [("unknown", None)]),
    ],
)  # fmt: skip
def test_fresh_batch_eight_last_readings(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert read(text) == expected


def test_a_fault_beside_a_policy_question_is_asked_first() -> None:
    matches = match_shop("the purifier is broken, what's the warranty on it?", packs=SHOP)
    tickets = [m for m in matches if str(kind_of(m)) == "create_ticket"]
    assert tickets and all(m.args.get("ask_first") for m in tickets)
    assert [m.topic for m in matches if str(kind_of(m)) == "faq"] == ["warranty"]
    assert [m.topic for m in match_shop("换货要几天内申请啊", packs=SHOP)] == ["exchange"]


# --- a second review (1514 sessions on the commit before and after) --------------------------


@pytest.mark.parametrize(
    ("text", "kind", "raw"),
    [
        ("refund 2 of the plates on 100200", "invalid", "2 of the plates"),
        ("refund 2 of the 3 plates, 100200", "invalid", "2 of the 3 plates"),
        ("refund 100609 1 of the filters", "invalid", "1 of the filters"),
        ("refund 50 of the 797 yuan", "exact", "50"),
        ("refund 10 of those 797 on 100200", "exact", "10"),
        ("refund 40 of the 797 for the plates, 100200", "exact", "40"),
    ],
)
def test_n_of_the_things_is_a_count_n_of_the_total_an_amount(
    text: str, kind: str, raw: str
) -> None:
    reading = read_amount(text, money_context=True, packs=SHOP)
    assert (reading.kind, reading.raw) == (kind, raw)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "transfer me" is a transfer only asked for as one
        ("don't escalate this", [("unknown", None)]),
        ("transfer me the money", [("unknown", None)]),
        ("ok thanks, transfer me", [("handoff", None)]),
        ("I asked for a human yesterday, any update now?", [("ticket_status", None)]),
        ("转人工？算了不用", [("confirm_no", None)]),
        # more asked for beside a refund told of; nothing more is no request
        ("you refunded 100609 already, I don't want more trouble",
         [("order_status", "100609")]),
        # the customer's own old thing only beside a purchase; bought here, it is ours
        ("家里那台空气净化器坏了 是在你们这买的", [("create_ticket", None)]),
        ("my current purifier is broken", [("create_ticket", None)]),
        ("帮我投诉 怎么一直没人回", [("create_ticket", None)]),
        # an order named as not meant, without a comma
        ("cancel my order not 100998", [("cancel_order", None)]),
        ("cancel everything but 100904", [("cancel_order", None)]),
        ("不是100998，取消100904", [("cancel_order", "100904")]),
    ],
)  # fmt: skip
def test_second_review_readings(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize("text", ["yes but not 100998", "yes, not 100200", "是的 不是100998"])
def test_a_yes_naming_an_order_not_meant_moves_nothing(text: str) -> None:
    (answer,) = match_shop(text, packs=SHOP, awaiting_confirmation=True)
    assert answer.intent is Intent.CONFIRM_UNCLEAR


def test_a_transfer_asked_then_refused_is_none() -> None:
    for text in ("transfer me? no thanks", "transfer me? no, cancel 100904", "转人工？不用了"):
        assert all(str(kind_of(m)) != "handoff" for m in match_shop(text, packs=SHOP))
    assert read("transfer me? no, cancel 100904") == [("cancel_order", "100904")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("escalate this", [("handoff", None)]),
        ("transfer me to your manager", [("handoff", None)]),
        ("transfer me, I'm done with the bot", [("handoff", None)]),
        ("should i escalate this?", [("unknown", None)]),
        ("I'll escalate this to my bank", [("unknown", None)]),
        ("stop bugging me about complaints, cancel 100904", [("cancel_order", "100904")]),
        ("stop asking me about a complaint, where is 100683", [("tracking", "100683")]),
    ],
)
def test_third_review_readings(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert read(text) == expected


def test_a_yes_naming_one_of_several_orders_keeps_or_drops_it() -> None:
    (spared,) = match_shop("yes but not 100998", packs=SHOP, awaiting_confirmation=True)
    assert spared.details == "not:100998"
    (only,) = match_shop("yes only 100904", packs=SHOP, awaiting_confirmation=True)
    assert only.details == "only:100904"


def test_can_money_come_back_after_a_look_asks_about_that_order() -> None:
    matches = match_shop("能退钱吗", packs=SHOP, last_order_id="100609")
    assert [(str(kind_of(m)), order_of(m)) for m in matches] == [("order_status", "100609")]
