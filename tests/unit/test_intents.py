"""Intent matching, entity extraction and language detection of the minimal tier."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from helpdesk.graph.intents import BRIEF, Intent
from helpdesk.graph.language import detect_language
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import (
    Entities,
    Kind,
    extract_entities,
    normalize_sku,
    shop_request,
)
from helpdesk.packs.shop.intents import (
    ShopIntent as SI,
)
from tests.shop_view import ShopView, read

IN = Intent
SHOP = default_packs()


def match_intents(text: str, **kw: Any) -> list[ShopView]:
    """The template matcher with the demo shop loaded (its identifiers are never amounts)."""
    return read(text, **kw)


# (utterance, [(intent, order_id, sku)]) — no session memory, not awaiting a confirmation.
INTENT_TABLE: list[tuple[str, list[tuple[Kind, str | None, str | None]]]] = [
    ("我的订单 100123 为什么还没发货？", [(SI.ORDER_STATUS, "100123", None)]),
    ("订单100123发货了吗", [(SI.ORDER_STATUS, "100123", None)]),
    ("100123号订单", [(SI.ORDER_STATUS, "100123", None)]),
    ("帮我查一下100123", [(SI.ORDER_STATUS, "100123", None)]),
    ("order #100123", [(SI.ORDER_STATUS, "100123", None)]),
    ("Has order 100123 shipped yet?", [(SI.ORDER_STATUS, "100123", None)]),
    ("why was my order 100123 cancelled?", [(SI.ORDER_STATUS, "100123", None)]),
    ("订单100123退款多久到账", [(SI.ORDER_STATUS, "100123", None)]),
    ("what's the status of my order", [(SI.LIST_ORDERS, None, None)]),
    ("my orders", [(SI.LIST_ORDERS, None, None)]),
    ("我的订单有哪些", [(SI.LIST_ORDERS, None, None)]),
    ("我的订单", [(SI.LIST_ORDERS, None, None)]),
    ("Where is my package for order 100123?", [(SI.TRACKING, "100123", None)]),
    ("where is order 100123", [(SI.TRACKING, "100123", None)]),
    ("物流到哪了", [(SI.TRACKING, None, None)]),
    ("快递单号", [(SI.TRACKING, None, None)]),
    ("订单100124的物流信息", [(SI.TRACKING, "100124", None)]),
    # a greeting of its own beside a request is answered in a word (details BRIEF)
    ("hi, where is order 100123?", [(IN.GREETING, None, None), (SI.TRACKING, "100123", None)]),
    ("Is SKU-1001 in stock?", [(SI.STOCK, None, "SKU-1001")]),
    ("sku 1001 in stock?", [(SI.STOCK, None, "SKU-1001")]),
    ("SKU-1001什么时候到货", [(SI.STOCK, None, "SKU-1001")]),
    ("SKU-1002 多少钱", [(SI.STOCK, None, "SKU-1002")]),
    ("cancel order 100123", [(SI.CANCEL_ORDER, "100123", None)]),
    ("帮我取消订单100123", [(SI.CANCEL_ORDER, "100123", None)]),
    ("订单100123不要了", [(SI.CANCEL_ORDER, "100123", None)]),
    ("I want a refund for order 100123", [(SI.REFUND, "100123", None)]),
    ("订单100123申请退款", [(SI.REFUND, "100123", None)]),
    ("my headphones are broken, order 100123", [(SI.CREATE_TICKET, "100123", None)]),
    ("商品坏了要售后", [(SI.CREATE_TICKET, None, None)]),
    ("申请换货", [(SI.CREATE_TICKET, None, None)]),
    ("I want to return order 100123", [(SI.CREATE_TICKET, "100123", None)]),
    ("talk to a human", [(SI.HANDOFF, None, None)]),
    ("转人工", [(SI.HANDOFF, None, None)]),
    ("人工客服", [(SI.HANDOFF, None, None)]),
    ("hi", [(IN.GREETING, None, None)]),
    ("你好", [(IN.GREETING, None, None)]),
    ("Good morning!", [(IN.GREETING, None, None)]),
    ("thanks", [(IN.THANKS, None, None)]),
    ("谢谢", [(IN.THANKS, None, None)]),
    ("asdfgh qwerty", [(IN.UNKNOWN, None, None)]),
    ("今天天气不错", [(IN.UNKNOWN, None, None)]),
    (
        "Is SKU-1001 in stock, and where is order 100123?",
        [(SI.STOCK, None, "SKU-1001"), (SI.TRACKING, "100123", None)],
    ),
    (
        "cancel orders 100123 and 100124",
        [(SI.CANCEL_ORDER, "100123", None), (SI.CANCEL_ORDER, "100124", None)],
    ),
    (
        # "能取消吗" asks whether it can be (the order's state answers, with how to ask)
        "订单100123到哪了？另外能取消吗",
        [(SI.TRACKING, "100123", None), (SI.ORDER_STATUS, "100123", None)],
    ),
    (
        "订单100123的耳机坏了，另外SKU-1002有货吗，还有帮我查下订单100124物流",
        [
            (SI.CREATE_TICKET, "100123", None),
            (SI.STOCK, None, "SKU-1002"),
            (SI.TRACKING, "100124", None),
        ],
    ),
    (
        "where is order 100123? when will it arrive?",
        [(SI.TRACKING, "100123", None)],
    ),
    (
        "thanks! also where is order 100125",
        [(IN.THANKS, None, None), (SI.TRACKING, "100125", None)],
    ),
]


@pytest.mark.parametrize(("text", "expected"), INTENT_TABLE)
def test_match_intents_table(text: str, expected: list[tuple[Kind, str | None, str | None]]):
    got = [(m.intent, m.order_id, m.sku) for m in match_intents(text)]
    assert got == expected


# (utterance, expected FAQ topic) without any order context.
FAQ_TABLE = [
    ("what is your return policy", "returns"),
    ("退货政策", "returns"),
    ("can I return a product after 10 days?", "returns"),
    ("多久能到", "delivery_times"),
    ("when will it arrive?", "delivery_times"),
    ("How long does delivery take?", "delivery_times"),
    ("什么时候发货", "delivery_times"),
    ("退款多久到账", "refund_time"),
    ("how long does a refund take", "refund_time"),
    ("发票", "invoice"),
    ("can I get an invoice", "invoice"),
    ("保修多久", "warranty"),
    ("what's the warranty on headphones", "warranty"),
    ("do you accept alipay", "payment"),
    ("支付方式有哪些", "payment"),
]


@pytest.mark.parametrize(("text", "topic"), FAQ_TABLE)
def test_match_intents_faq_topic(text: str, topic: str):
    assert [(m.intent, m.topic) for m in match_intents(text)] == [(SI.FAQ, topic)]


CONFIRM_TABLE = [
    ("yes", Intent.CONFIRM_YES),
    ("确认", Intent.CONFIRM_YES),
    ("是的", Intent.CONFIRM_YES),
    ("好的", Intent.CONFIRM_YES),
    ("ok go ahead", Intent.CONFIRM_YES),
    ("确认取消", Intent.CONFIRM_YES),
    ("no", Intent.CONFIRM_NO),
    ("不用了", Intent.CONFIRM_NO),
    ("取消吧", Intent.CONFIRM_NO),
    ("不", Intent.CONFIRM_NO),
    ("算了", Intent.CONFIRM_NO),
    ("不要取消", Intent.CONFIRM_NO),
    ("no thanks", Intent.CONFIRM_NO),
]


@pytest.mark.parametrize(("text", "intent"), CONFIRM_TABLE)
def test_match_intents_confirmation_when_awaiting(text: str, intent: Intent):
    assert [m.intent for m in match_intents(text, awaiting_confirmation=True)] == [intent]


@pytest.mark.parametrize("text", ["yes", "好的", "no", "不用了", "算了"])
def test_match_intents_bare_yes_no_is_acknowledgement_when_not_awaiting(text: str):
    assert [(m.intent, m.details) for m in match_intents(text)] == [(Intent.THANKS, "ack")]


def test_match_intents_cancel_with_order_is_cancel_even_when_awaiting():
    got = match_intents("取消订单100123", awaiting_confirmation=True)
    assert [(m.intent, m.order_id) for m in got] == [(SI.CANCEL_ORDER, "100123")]


def test_match_intents_yes_with_a_new_request_is_not_a_confirmation():
    # a yes that comes with a new request never runs what was pending (the reply says so)
    got = match_intents("yes, and where is order 100124", awaiting_confirmation=True)
    assert [(m.intent, m.order_id) for m in got] == [(SI.TRACKING, "100124")]


@pytest.mark.parametrize("text", ["when will it arrive?", "多久能到", "什么时候到"])
def test_match_intents_arrival_with_last_order_is_inferred_tracking(text: str):
    got = match_intents(text, last_order_id="100200")
    assert [(m.intent, m.order_id, m.inferred_order) for m in got] == [
        (SI.TRACKING, "100200", True)
    ]


def test_match_intents_status_without_order_uses_last_order():
    got = match_intents("what's the status of my order", last_order_id="100200")
    assert [(m.intent, m.order_id, m.inferred_order) for m in got] == [
        (SI.ORDER_STATUS, "100200", True)
    ]


def test_match_intents_order_in_text_beats_last_order():
    got = match_intents("cancel order 100123", last_order_id="100200")
    assert [(m.order_id, m.inferred_order) for m in got] == [("100123", False)]


def test_match_intents_order_scoped_without_any_order_keeps_intent():
    got = match_intents("I want to cancel my order")
    assert [(m.intent, m.order_id) for m in got] == [(SI.CANCEL_ORDER, None)]


def test_match_intents_stock_merges_quantity_clause():
    got = match_intents("SKU-1001 还有货吗？我想买3个")
    assert [(m.intent, m.sku, m.quantity) for m in got] == [(SI.STOCK, "SKU-1001", 3)]
    assert got[0].text == "SKU-1001 还有货吗？我想买3个"


def test_match_intents_refund_amount():
    got = match_intents("退款 50 元")
    assert [(m.intent, m.amount, m.order_id) for m in got] == [(SI.REFUND, 50.0, None)]


def test_match_intents_refund_amount_with_order():
    got = match_intents("refund of 30 for order 100456")
    assert [(m.intent, m.amount, m.order_id) for m in got] == [(SI.REFUND, 30.0, "100456")]


def test_match_intents_ticket_details_are_the_clause():
    got = match_intents("my headphones are broken, order 100123")
    expected = shop_request(
        SI.CREATE_TICKET,
        "my headphones are broken, order 100123",
        "en",
        order_id="100123",
        details="my headphones are broken, order 100123",
    )
    # a fault told with nothing asked for is offered a ticket first (session 16)
    assert [m.match for m in got] == [replace(expected, args={**expected.args, "ask_first": True})]


def test_match_intents_unmatched_words_merge_into_neighbour():
    got = match_intents("Black and white headphones are broken, order 100123")
    assert [(m.intent, m.details) for m in got] == [
        (SI.CREATE_TICKET, "Black and white headphones are broken, order 100123")
    ]


def test_match_intents_language_per_message():
    assert [m.lang for m in match_intents("订单100123到哪了")] == ["zh"]
    assert [m.lang for m in match_intents("where is order 100123")] == ["en"]


def test_match_intents_a_greeting_beside_a_request_is_answered_in_a_word():
    found = match_intents("你好，帮我查一下订单100123")
    assert [(m.intent, m.details) for m in found] == [(IN.GREETING, BRIEF), (SI.ORDER_STATUS, "")]
    # an opening greeting inside the request's own clause is greeted back and kept out of it
    found = match_intents("morning! how much is the electric kettle")
    assert [(m.intent, m.details) for m in found] == [(IN.GREETING, BRIEF), (SI.STOCK, "")]
    assert "morning" not in found[1].text


def test_match_intents_dedupes_same_intent_same_order():
    got = match_intents("where is order 100123? and track order 100123 please")
    assert [(m.intent, m.order_id) for m in got] == [(SI.TRACKING, "100123")]


def test_match_intents_empty_text_is_unknown():
    assert [m.intent for m in match_intents("   ")] == [Intent.UNKNOWN]


def test_match_intents_ticket_lookup_is_unknown():
    assert [m.intent for m in match_intents("工单T-000123进度")] == [Intent.UNKNOWN]


# --- entities -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "orders"),
    [
        ("订单100123", ("100123",)),
        ("order #100123", ("100123",)),
        ("order 100123 and 100124", ("100123", "100124")),
        ("100123号订单", ("100123",)),
        ("100123, 100123", ("100123",)),
        ("call 13800138000", ()),
        ("SF1234567890", ()),
        ("T-100123", ()),
        ("退款 100000 元", ()),
        ("1001234", ()),
    ],
)
def test_extract_entities_order_ids(text: str, orders: tuple[str, ...]):
    assert extract_entities(text).order_ids == orders


@pytest.mark.parametrize(
    ("text", "skus"),
    [
        ("SKU-1001", ("SKU-1001",)),
        ("sku-1001", ("SKU-1001",)),
        ("sku 1001", ("SKU-1001",)),
        ("SKU1001", ("SKU-1001",)),
        ("查SKU-1001和sku_1002", ("SKU-1001", "SKU-1002")),
        ("ＳＫＵ－１００１", ("SKU-1001",)),
    ],
)
def test_extract_entities_skus(text: str, skus: tuple[str, ...]):
    assert extract_entities(text).skus == skus


@pytest.mark.parametrize(
    ("text", "quantity"),
    [
        ("2件", 2),
        ("两个", 2),
        ("十二件", 12),
        ("买3个", 3),
        ("3 pcs", 3),
        ("x2", 2),
        ("SKU-1001 x2", 2),
        ("2x", 2),
        ("two", 2),
        ("I need two", 2),
        ("three pieces", 3),
        ("SKU-1001", None),
        ("order 100123", None),
    ],
)
def test_extract_entities_quantity(text: str, quantity: int | None):
    assert extract_entities(text).quantity == quantity


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("退款 50 元", 50.0),
        ("退款50块", 50.0),
        ("¥99.5", 99.5),
        ("refund of 30 for order 100456", 30.0),
        ("CNY 12.50", 12.5),
        ("refund order 100123", None),
    ],
)
def test_extract_entities_amount(text: str, amount: float | None):
    assert extract_entities(text).amount == amount


def test_extract_entities_everything_at_once():
    got = extract_entities("订单100123 SKU-1001 T-000123 SF1234567890 退款 50 元 2件")
    assert got == Entities(
        order_ids=("100123",),
        skus=("SKU-1001",),
        quantity=2,
        ticket_ids=("T-000123",),
        tracking_numbers=("SF1234567890",),
        faq_topic=None,
        amount=50.0,
    )


def test_extract_entities_ticket_ids_normalized():
    assert extract_entities("t-000123 and T000124").ticket_ids == ("T-000123", "T-000124")


def test_extract_entities_faq_topic():
    assert extract_entities("发票怎么开").faq_topic == "invoice"
    assert extract_entities("where is order 100123").faq_topic is None


@pytest.mark.parametrize(
    ("raw", "sku"), [("sku 1001", "SKU-1001"), ("SKU-1001", "SKU-1001"), ("hello", None)]
)
def test_normalize_sku(raw: str, sku: str | None):
    assert normalize_sku(raw) == sku


# --- language -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "default", "lang"),
    [
        ("我的订单到哪了", "en", "zh"),
        ("order 100123 到哪了", "en", "zh"),
        ("where is my order", "zh", "en"),
        ("100123", "zh", "zh"),
        ("100123", "en", "en"),
        ("SKU-1001", "zh", "zh"),
        ("SKU-1001?", "en", "en"),
        ("T-000123 SF1234567890", "zh", "zh"),
        ("SKU-1001 in stock?", "zh", "en"),
        ("", "zh", "zh"),
    ],
)
def test_detect_language(text: str, default: str, lang: str):
    assert detect_language(text, default=default) == lang  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("refund order 100200 ¥1,299.00", [("refund", "100200", 1299.0)]),
        ("退款 1,299 元 订单100200", [("refund", "100200", 1299.0)]),
        ("how much can I still get refunded for 100609?", [("order_status", "100609", None)]),
        ("100609 还能退多少钱？", [("order_status", "100609", None)]),
        ("how long does a refund take for order 100609?", [("order_status", "100609", None)]),
        ("what's the refund time?", [("faq", None, None)]),
        ("hi where's 100200?", [("greeting", None, None), ("tracking", "100200", None)]),
        ("退货怎么弄", [("faq", None, None)]),
    ],
)
def test_match_intents_refund_questions_amounts_and_greetings(
    text: str, expected: list[tuple[str, str | None, float | None]]
) -> None:
    got = [(m.intent.value, m.order_id, m.amount) for m in match_intents(text)]
    assert got == expected


@pytest.mark.parametrize(
    "text", ["yes", "Yes.", "ok", "确认", "好的", "是的，确认", "yes please", "对"]
)
def test_match_intents_unqualified_yes_confirms(text):
    got = match_intents(text, awaiting_confirmation=True)
    assert [m.intent for m in got] == [Intent.CONFIRM_YES]


@pytest.mark.parametrize(
    "text", ["yes?", "确认吗", "yes, I asked a week ago", "ok?", "好的？", "👍", "🙏🙏"]
)
def test_match_intents_questioning_or_hedged_yes_is_unclear(text):
    got = match_intents(text, awaiting_confirmation=True)
    assert [m.intent for m in got] == [Intent.CONFIRM_UNCLEAR]


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("yes but only 100", 100.0),
        ("yes but make it 30", 30.0),
        ("ok but make it 30 please", 30.0),
        ("yes, refund 30 instead", 30.0),
        ("好的，但是改成退30元", 30.0),
        # no yes at all: the amount changed, asked again (never run as it stands)
        ("actually make it 200", 200.0),
        ("改成200吧", 200.0),
    ],
)
def test_match_intents_yes_with_a_changed_amount_is_a_change(text: str, amount: float) -> None:
    got = match_intents(text, awaiting_confirmation=True)
    assert [(m.intent, m.amount, m.amount_kind) for m in got] == [
        (Intent.CONFIRM_CHANGE, amount, "exact")
    ]


@pytest.mark.parametrize(
    "text", ["yes, but can you make it $30 instead", "yes but make it 30 dollars instead"]
)
def test_match_intents_yes_with_an_amount_in_another_currency_asks_it(text: str) -> None:
    """The shop's money is yuan: "$30" is asked about, never paid as ¥30 (session 28)."""
    got = match_intents(text, awaiting_confirmation=True)
    assert [(m.intent, m.amount, m.amount_kind) for m in got] == [
        (Intent.CONFIRM_CHANGE, None, "invalid")
    ]


@pytest.mark.parametrize("text", ["yes, and send me 2 more", "yes and make it quick"])
def test_a_yes_with_a_request_that_names_no_amount_is_not_an_amount_change(text: str) -> None:
    got = match_intents(text, awaiting_confirmation=True)
    assert [m.intent for m in got] != [Intent.CONFIRM_CHANGE]
    assert Intent.CONFIRM_YES not in {m.intent for m in got}


def test_match_intents_yes_with_another_action_is_that_request():
    got = match_intents("对，退款吧", awaiting_confirmation=True, last_order_id="100904")
    assert [(m.intent, m.order_id) for m in got] == [(SI.REFUND, "100904")]


@pytest.mark.parametrize("text", ["不对，我是说100904", "no, I meant 100904", "不是，100904"])
def test_match_intents_correction_names_the_new_order(text):
    got = match_intents(text, awaiting_confirmation=True, last_order_id="100998")
    assert [(m.intent, m.order_id) for m in got] == [(Intent.CONFIRM_CHANGE, "100904")]


@pytest.mark.parametrize(
    "text",
    [
        "don't refund order 100683",
        "不用退了",
        "算了不退了",
        "不要退款",
        "don't cancel order 100904",
    ],
)
def test_match_intents_negated_request_never_asks_for_it(text):
    for awaiting in (False, True):
        got = match_intents(text, awaiting_confirmation=awaiting, last_order_id="100683")
        assert [m.intent for m in got] == [Intent.CONFIRM_NO]


@pytest.mark.parametrize(
    "text",
    [
        "where's my refund for order 100609?",
        "我的退款到哪了 100609",
        "还能退多少 100609",
        "how much can I still get back on 100609?",
        "did my refund for 100609 go through?",
    ],
)
def test_match_intents_refund_question_is_not_a_refund_request(text):
    got = match_intents(text, last_order_id="100609")
    assert [(m.intent, m.order_id) for m in got] == [(SI.ORDER_STATUS, "100609")]


@pytest.mark.parametrize(
    ("text", "kind", "amount"),
    [
        ("订单100609退款一百元", "exact", 100.0),
        ("refund 12.345 on 100609", "invalid", None),
        ("refund 1e3 on 100609", "invalid", None),
        # a share is made exact against the order before anyone is asked (session 15)
        ("refund 50% of 100609", "share", None),
        ("refund half of order 100609", "share", None),
        ("refund -5 for 100609", "invalid", None),
        ("refund order 100609", "none", None),
        ("refund the rest of 100609", "full", None),
        ("100609 退两百块", "exact", 200.0),
    ],
)
def test_match_intents_reads_refund_amounts_without_guessing(text, kind, amount):
    got = match_intents(text)
    assert [(m.intent, m.order_id, m.amount_kind, m.amount) for m in got] == [
        (SI.REFUND, "100609", kind, amount)
    ]


# Questions and negations that the labelled set (tests/conversations) found turned into writes:
# a question about a write or a refusal of one never becomes that write, and a policy question
# never files a ticket.
WRITES = {SI.REFUND, SI.CANCEL_ORDER, SI.CREATE_TICKET, SI.HANDOFF}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("is there any refund on 100200?", SI.ORDER_STATUS),
        ("100200可以退款吗", SI.ORDER_STATUS),
        ("I changed my mind, I don't want to cancel 100998 anymore", IN.CONFIRM_NO),
        ("我没说要取消100998啊", IN.CONFIRM_NO),
        ("100998取消后钱多久退回来", SI.FAQ),
        ("how do i exchange for a bigger size", SI.FAQ),
        ("退货的话运费谁出", SI.FAQ),
        ("电器坏了保修吗", SI.FAQ),
        ("return policy是啥", SI.FAQ),
        ("你是真人还是AI", IN.IDENTITY),
        ("are you a bot?", IN.IDENTITY),
    ],
)
def test_a_question_or_refusal_is_never_a_write(text: str, expected: Intent) -> None:
    got = [m.intent for m in match_intents(text)]
    assert not WRITES & set(got), got
    assert got[0] is expected


@pytest.mark.parametrize(
    "text", ["my headphones are broken, can you help?", "I want to talk to a human", "转人工"]
)
def test_a_problem_report_or_handoff_request_still_acts(text: str) -> None:
    assert WRITES & {m.intent for m in match_intents(text)}


def test_yes_with_a_new_question_is_a_new_request_not_a_changed_confirmation() -> None:
    got = match_intents("yes, and where is 100683?", awaiting_confirmation=True)
    assert [m.intent for m in got] != [IN.CONFIRM_CHANGE]
    assert IN.CONFIRM_YES not in {m.intent for m in got}
    assert SI.CANCEL_ORDER not in {m.intent for m in got}


@pytest.mark.parametrize(
    ("text", "amount"), [("不要全部，退50就行", 50.0), ("not all of it, just 100", 100.0)]
)
def test_not_all_with_an_amount_changes_the_amount_and_asks_again(text: str, amount: float) -> None:
    got = match_intents(text, awaiting_confirmation=True)
    assert [m.intent for m in got] == [IN.CONFIRM_CHANGE]
    assert got[0].amount == amount


def test_not_all_without_an_amount_is_still_no() -> None:
    got = match_intents("不要全部退了", awaiting_confirmation=True)
    assert IN.CONFIRM_YES not in {m.intent for m in got}


@pytest.mark.parametrize("text", ["确认", "confirm", "go ahead"])
def test_an_explicit_confirmation_with_nothing_asked_is_not_an_ack(text: str) -> None:
    # the reply then says nothing waits for a confirmation (never a bare "all right")
    assert [m.intent for m in match_intents(text)] == [IN.CONFIRM_YES]


@pytest.mark.parametrize("text", ["好的", "ok", "thanks"])
def test_a_plain_acknowledgement_stays_an_acknowledgement(text: str) -> None:
    assert [m.intent for m in match_intents(text)] == [IN.THANKS]


@pytest.mark.parametrize(
    "text",
    [
        "do you have a down jacket?",
        "how much are the noise cancelling headphones?",
        "do you sell air fryers",
        "got any wireless headphones",
        "有没有65W的充电器",
        "你们卖空气炸锅吗",
        "空气净化器还卖吗",
    ],
)
def test_match_intents_product_questions_are_stock_questions(text: str):
    assert [m.intent for m in match_intents(text)] == [SI.STOCK]


def test_match_intents_noise_cancelling_is_not_a_cancellation():
    assert SI.CANCEL_ORDER not in {
        m.intent for m in match_intents("noise-cancelling headphones price?")
    }


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("Do you have USB-C cables? And a 65W charger?", 2),
        ("有没有数据线和65W充电器", 2),
        ("do you have a down jacket?", 1),
    ],
)
def test_match_intents_one_product_question_per_product_named(text: str, parts: int):
    found = match_intents(text)
    assert [m.intent for m in found] == [SI.STOCK] * parts
    assert len({m.text for m in found}) == parts


def test_match_intents_someone_there_is_not_a_product_question():
    assert SI.STOCK not in {m.intent for m in match_intents("有没有人在")}


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("how much is shipping", "shipping_fee"),
        ("满多少包邮", "shipping_fee"),
        ("how do i exchange for a bigger size", "exchange"),
        ("衣服小了能换大一码吗", "exchange"),
        ("how do I cancel an order?", "cancel_order"),
        ("发货了还能取消吗", "cancel_order"),
        ("which couriers do you use?", "delivery_times"),
        ("你们发什么快递", "delivery_times"),
        ("寄到天津要几天", "delivery_times"),
        ("退货的话运费谁出", "returns"),
    ],
)
def test_policy_questions_are_answered_from_the_faq_never_acted_on(text: str, topic: str):
    found = match_intents(text)
    assert [(m.intent, m.topic) for m in found] == [(SI.FAQ, topic)]


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        ("SKU-1001有货吗 100683到哪了", [SI.STOCK, SI.TRACKING]),
        ("寄新疆要几天，能开发票吗", [SI.FAQ, SI.FAQ]),
        ("track 100683 then tell me how long refunds take", [SI.TRACKING, SI.FAQ]),
        ("我的订单 100123 为什么还没发货？", [SI.ORDER_STATUS]),
        ("还能退多少 100609", [SI.ORDER_STATUS]),
    ],
)
def test_requests_separated_by_spaces_commas_or_then(text: str, intents: list[Intent]):
    assert [m.intent for m in match_intents(text)] == intents


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("cancle 100998 plz", SI.CANCEL_ORDER),
        ("取小订单100998", SI.CANCEL_ORDER),
        ("帮我把100998撤了", SI.CANCEL_ORDER),
        ("i dont want 100904 anymore", SI.CANCEL_ORDER),
        ("refnd order 100609 pls", SI.REFUND),
        ("100609退宽", SI.REFUND),
        ("定单100683到那了", SI.TRACKING),
        ("forget the refund, I'll keep it", Intent.CONFIRM_NO),
        ("那个退款不用了", Intent.CONFIRM_NO),
    ],
)
def test_typos_and_everyday_words(text: str, intent: Intent):
    assert match_intents(text)[0].intent is intent


def test_an_emoji_ok_is_an_acknowledgement():
    found = match_intents("好的👌")
    assert [(m.intent, m.details) for m in found] == [(Intent.THANKS, "ack")]


@pytest.mark.parametrize("text", ["👍", "🙏", "👌👌"])
def test_an_assent_emoji_with_nothing_waiting_is_an_acknowledgement(text):
    got = match_intents(text)
    assert [(m.intent, m.details) for m in got] == [(Intent.THANKS, "ack")]


@pytest.mark.parametrize("text", ["全退", "refund all of it"])
def test_the_whole_amount_while_a_refund_waits_is_asked_again(text):
    got = match_intents(text, awaiting_confirmation=True)
    assert [(m.intent, m.amount_kind) for m in got] == [(Intent.CONFIRM_CHANGE, "full")]


@pytest.mark.parametrize("text", ["wait which order is that", "等等，是哪个订单？"])
def test_a_question_before_answering_is_no_no(text):
    got = match_intents(text, awaiting_confirmation=True)
    assert [m.intent for m in got] == [Intent.CONFIRM_UNCLEAR]
