"""Every request of a multi-request message is read or explicitly deferred, never dropped.

A part the minimal tier cannot do ("gift wrap it", "改一下手机号") is a deferred UNKNOWN
(details ``"part"``, quoted back by the reply); its words and its order never become, or
change, another request of the message.
"""

from __future__ import annotations

import pytest

from helpdesk.graph.asking import asks_for_a_change, asks_for_something
from helpdesk.graph.capabilities import match_packs, merge_matches
from helpdesk.graph.intents import DEFERRED_PART, Intent, MatchedIntent
from helpdesk.packs.shop.intents import ShopIntent as SI
from tests.shop_view import SHOP, read

Reading = list[tuple[object, str | None]]


def reading(text: str) -> Reading:
    """(intent, order) of each request; a deferred part as ``(UNKNOWN, "part: <text>")``."""
    out: Reading = []
    for m in read(text):
        if m.intent is Intent.UNKNOWN and m.details == DEFERRED_PART:
            out.append((Intent.UNKNOWN, f"part: {m.text}"))
        else:
            out.append((m.intent, m.order_id))
    return out


@pytest.mark.parametrize(
    ("clause", "asks"),
    [
        ("please unsubscribe me from your newsletter", True),
        ("can you hold one for me", True),
        ("gift wrap the headphones pls", True),
        ("帮我改一下账号绑定的手机号", True),
        ("礼品包装一下", True),
        ("please hurry", False),
        ("麻烦快点", False),
        ("what's going on", False),
        ("thanks a lot", False),
    ],
)
def test_asking_for_something_is_read_from_generic_words(clause: str, asks: bool) -> None:
    assert asks_for_something(clause) is asks


def test_a_change_is_told_from_a_look() -> None:
    assert asks_for_a_change("can I pick a delivery time slot")
    assert asks_for_a_change("然后帮我备注一下放快递柜")
    assert not asks_for_a_change("can you tell me where it is")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "cancel 100998 pls and add a gift message to 100904",
            [(SI.CANCEL_ORDER, "100998"), (Intent.UNKNOWN, "part: add a gift message to 100904")],
        ),
        (
            "100998帮我取消，然后给100904加一件羽绒服",
            [(SI.CANCEL_ORDER, "100998"), (Intent.UNKNOWN, "part: 给100904加一件羽绒服")],
        ),
        (
            "I want to talk to a human, and change my account email please",
            [(SI.HANDOFF, None), (Intent.UNKNOWN, "part: change my account email please")],
        ),
        (
            "where is 100683 and pls change the delivery date to next monday",
            [
                (SI.TRACKING, "100683"),
                (Intent.UNKNOWN, "part: pls change the delivery date to next monday"),
            ],
        ),
        (
            "where is 100683 i need it by friday can you speed it up",
            [(SI.TRACKING, "100683"), (Intent.UNKNOWN, "part: can you speed it up")],
        ),
        (
            "请问SKU-1004什么时候补货，到货了能通知我吗",
            [(SI.STOCK, None), (Intent.UNKNOWN, "part: 到货了能通知我吗")],
        ),
    ],
)
def test_a_part_no_template_reads_is_deferred_on_its_own(text: str, expected: Reading) -> None:
    assert reading(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "再" after an order, before a verb: the look is its own request, never a second cancel
        (
            "帮我取消100904再查下100683物流",
            [(SI.CANCEL_ORDER, "100904"), (SI.TRACKING, "100683")],
        ),
        # "wheres" as customers type it is a question: it never continues the ticket before it
        (
            "i need help with 100200 one item is broken and also wheres 100683",
            [(SI.CREATE_TICKET, "100200"), (SI.TRACKING, "100683")],
        ),
        # "顺便问下...": a question, not an after-sales ticket
        (
            "100200少了个东西 帮我看下物流 顺便问下退货地址",
            [(SI.TRACKING, "100200"), (SI.FAQ, None)],
        ),
        # an order after an order, with words of its own, is a request of its own
        ("取消100904 100998呢", [(SI.CANCEL_ORDER, "100904"), (SI.ORDER_STATUS, "100998")]),
        ("100609退50 100200的物流呢", [(SI.REFUND, "100609"), (SI.TRACKING, "100200")]),
        ("取消100904 100998", [(SI.CANCEL_ORDER, "100904"), (SI.CANCEL_ORDER, "100998")]),
        ("100683 100998 都取消", [(SI.CANCEL_ORDER, "100683"), (SI.CANCEL_ORDER, "100998")]),
        # whether a refund is due is asked, not a refund asked for
        (
            "cancel 100904 and do I get a refund for 100998",
            [(SI.CANCEL_ORDER, "100904"), (SI.ORDER_STATUS, "100998")],
        ),
        (
            "refund 100609 but is 100200 refundable too",
            [(SI.REFUND, "100609"), (SI.ORDER_STATUS, "100200")],
        ),
        # a request taken back in the same breath is a refusal; a refusal naming an order or a
        # thing leaves the write beside it
        ("can you refund 100609? actually no, forget it", [(Intent.CONFIRM_NO, None)]),
        ("取消100904，算了", [(Intent.CONFIRM_NO, None)]),
        ("退100609 算了不退了", [(Intent.CONFIRM_NO, None)]),
        (
            "cancel 100998 but dont touch 100904",
            # the refusal names the order it spares (the reply says it is left alone)
            [(SI.CANCEL_ORDER, "100998"), (Intent.CONFIRM_NO, "100904")],
        ),
        (
            "refund 100609 but dont refund the shipping",
            [(SI.REFUND, "100609"), (Intent.CONFIRM_NO, None)],
        ),
        # a refusal is not the look beside it
        (
            "don't cancel 100904, just tell me when 100998 ships",
            [(Intent.CONFIRM_NO, None), (SI.ORDER_STATUS, "100998")],
        ),
        # why a refund was what it was is asked, never a refund of that amount
        ("why did you refund only 433 last time for 100609", [(SI.ORDER_STATUS, "100609")]),
        ("100609的退款为什么只有433", [(SI.ORDER_STATUS, "100609")]),
        # a request for a person, then a question about an order: both kept
        (
            "转人工 100998为什么还不发货",
            [(SI.HANDOFF, "100998"), (SI.ORDER_STATUS, "100998")],
        ),
        ("我要转人工 100683一直不到", [(SI.HANDOFF, "100683")]),
        # a question naming no order, a space, then an order's own question: both kept
        (
            "你们几点下班 100683今天能到吗",
            [(SI.ORDER_STATUS, "100683"), (Intent.UNKNOWN, "part: 你们几点下班")],
        ),
    ],
)
def test_a_question_after_a_write_is_never_the_write(text: str, expected: Reading) -> None:
    assert reading(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("track 100683, cancel 100998", [(SI.TRACKING, "100683"), (SI.CANCEL_ORDER, "100998")]),
        ("100998, cancel it", [(SI.CANCEL_ORDER, "100998")]),
        ("order 100683, cancel it", [(SI.CANCEL_ORDER, "100683")]),
        (
            "check 100200 and 100609 for me pls",
            [(SI.ORDER_STATUS, "100200"), (SI.ORDER_STATUS, "100609")],
        ),
        ("please check 100683 for me, thanks", [(SI.ORDER_STATUS, "100683")]),
        ("100683到哪了？麻烦快点", [(SI.TRACKING, "100683")]),
        ("SKU-1001 还有货吗？我想买3个", [(SI.STOCK, None)]),
    ],
)
def test_requests_that_are_read_are_not_deferred(text: str, expected: Reading) -> None:
    assert reading(text) == expected


def test_a_new_payment_method_is_not_a_support_ticket() -> None:
    # "换个" is a replacement only when it is the item that is changed
    assert SI.CREATE_TICKET not in {m.intent for m in read("退货政策是什么？还有我想换个支付方式")}
    assert [m.intent for m in read("保温杯坏了给我换个新的 100200")] == [SI.CREATE_TICKET]


def test_something_instead_of_a_refund_is_never_a_refund() -> None:
    found = reading(
        "how do I return the dinnerware set and can I get store credit instead of a refund"
    )
    assert SI.REFUND not in {intent for intent, _ in found}
    assert found[-1] == (Intent.UNKNOWN, "part: can I get store credit instead of a refund")


def test_a_problem_beside_a_refund_is_its_reason_not_a_second_ticket() -> None:
    text = "my headphones broke and I'd like a refund, order 100200. also can I talk to someone"
    assert [i for i, _ in reading(text)] == [SI.REFUND, SI.HANDOFF]


def test_a_complaint_then_its_reason_is_one_complaint() -> None:
    assert reading("投诉！100683物流慢得离谱") == [(SI.CREATE_TICKET, "100683")]
    # a question after the complaint is a request of its own
    assert [i for i, _ in reading("我要投诉快递！100683到哪了？")] == [
        SI.CREATE_TICKET,
        SI.TRACKING,
    ]
    # a Chinese comma before the order ends the complaint too
    assert [i for i, _ in reading("我要投诉快递，100683到哪了")] == [
        SI.CREATE_TICKET,
        SI.TRACKING,
    ]
    # words that only introduce the order are not a request of their own
    assert reading("我的订单，100683到哪了") == [(SI.TRACKING, "100683")]


def test_a_deferred_part_survives_a_pack_claiming_another_clause() -> None:
    text = "where is 100683, can you change the address of 100904 and gift wrap it please"
    merged = merge_matches(read_matches(text), match_packs(text, "en", {}, SHOP), SHOP)
    parts = [m.text for m in merged if m.details == DEFERRED_PART]
    assert parts == ["gift wrap it please"]
    assert "change_address" in {m.capability for m in merged}


def read_matches(text: str) -> list[MatchedIntent]:
    return [view.match for view in read(text)]


def test_and_as_customers_type_it_separates_requests() -> None:
    # read as one clause, the cancel took both orders
    assert reading("cancel 100998 n refund 100609") == [
        (SI.CANCEL_ORDER, "100998"),
        (SI.REFUND, "100609"),
    ]
    assert reading("where is 100683 & 100998") == [
        (SI.TRACKING, "100683"),
        (SI.TRACKING, "100998"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "where is my order 100683 and can you combine it with 100998",
            [(SI.TRACKING, "100683"), (Intent.UNKNOWN, "part: can you combine it with 100998")],
        ),
        (
            "check order 100904 and pay it with my balance",
            [(SI.ORDER_STATUS, "100904"), (Intent.UNKNOWN, "part: pay it with my balance")],
        ),
        ("can you also do 100998", [(SI.ORDER_STATUS, "100998")]),
    ],
)
def test_an_order_named_in_a_request_for_something_else_is_not_looked_up(
    text: str, expected: Reading
) -> None:
    assert reading(text) == expected


def test_a_request_with_a_price_word_is_not_a_product_search() -> None:
    found = read("thx! also pls remove the price tag before shipping 100998")
    assert SI.STOCK not in {m.intent for m in found}
    assert [m.text for m in found if m.details == DEFERRED_PART] == [
        "pls remove the price tag before shipping 100998"
    ]


def test_a_request_the_shop_cannot_do_beside_a_greeting_is_deferred_not_dropped() -> None:
    assert reading("hi, can you gift wrap my order") == [
        (Intent.GREETING, None),
        (Intent.UNKNOWN, "part: can you gift wrap my order"),
    ]


def test_a_yes_with_a_request_of_its_own_changes_nothing_pending() -> None:
    # the order in the request is not a change of the pending action's order
    found = read("yes and also add a gift message to 100904", awaiting_confirmation=True)
    assert Intent.CONFIRM_CHANGE not in {m.intent for m in found}
    assert [m.text for m in found if m.details == DEFERRED_PART] == ["add a gift message to 100904"]
    # a change of the pending action is still one
    changed = read("yes but for 100904 instead", awaiting_confirmation=True)
    assert [(m.intent, m.order_id) for m in changed] == [(Intent.CONFIRM_CHANGE, "100904")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "X不" / "X没" after a verb or its object is asked, not a negation waiting for its object
        (
            "SKU-1001还有货不 有的话帮我刻个字",
            [(SI.STOCK, None), (Intent.UNKNOWN, "part: 有的话帮我刻个字")],
        ),
        # an exclamation particle ends a request too
        ("退款一般多久到账啊 100609那笔退了没", [(SI.FAQ, None), (SI.ORDER_STATUS, "100609")]),
        (
            "取消100904 然后100609剩下的钱退给我",
            [(SI.CANCEL_ORDER, "100904"), (SI.REFUND, "100609")],
        ),
        (
            "帮我催一下100683 然后100998也帮我看看发了没",
            [(SI.ORDER_STATUS, "100683"), (SI.ORDER_STATUS, "100998")],
        ),
    ],
)
def test_unpunctuated_chinese_requests_are_each_read(text: str, expected: Reading) -> None:
    assert reading(text) == expected


def test_a_product_asked_again_of_another_thing_is_a_search_of_its_own() -> None:
    found = read("羽绒服有货吗 数据线呢 还有运费多少")
    assert [(m.intent, m.text) for m in found if m.intent is SI.STOCK] == [
        (SI.STOCK, "羽绒服有货吗"),
        (SI.STOCK, "数据线呢"),
    ]
    assert [m.text for m in read("do you have usb-c cables? what about a 65w charger")] == [
        "do you have usb-c cables",
        "what about a 65w charger",
    ]
    # without a product question before it, "X呢" is not a product search
    assert SI.STOCK not in {m.intent for m in read("100683到哪了 数据线呢")}


def test_when_the_shop_ships_is_a_policy_question_and_booking_a_day_is_deferred() -> None:
    assert [(m.intent, m.topic) for m in read("查下100683到哪 顺便问下你们周末发货吗")] == [
        (SI.TRACKING, None),
        (SI.FAQ, "delivery_times"),
    ]
    assert reading("100998取消掉，再帮我预约周六送货") == [
        (SI.CANCEL_ORDER, "100998"),
        (Intent.UNKNOWN, "part: 再帮我预约周六送货"),
    ]


def test_policy_questions_in_customer_words_open_nothing() -> None:
    found = read("track 100200 and 100683 and let me know if i can return the thermos")
    assert [(m.intent, m.topic) for m in found][-1] == (SI.FAQ, "returns")
    assert SI.CREATE_TICKET not in {m.intent for m in found}
    assert [(m.intent, m.topic) for m in read("why do you charge for shipping")] == [
        (SI.FAQ, "shipping_fee")
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a numbered list
        (
            "1) where is 100683 2) refund 100609 3) can you send me a catalogue",
            [
                (SI.TRACKING, "100683"),
                (SI.REFUND, "100609"),
                (Intent.UNKNOWN, "part: can you send me a catalogue"),
            ],
        ),
        ("1.100683到哪了 2.100609退款", [(SI.TRACKING, "100683"), (SI.REFUND, "100609")]),
        # "btw", "对了", "最后", "顺带": separators as customers type them
        (
            "where is 100683 btw can i change the size of the jacket in 100998",
            [
                (SI.TRACKING, "100683"),
                (Intent.UNKNOWN, "part: can i change the size of the jacket in 100998"),
            ],
        ),
        (
            "对了，100904我不想要了帮我取消，最后问下退款几天到",
            [(SI.CANCEL_ORDER, "100904"), (SI.FAQ, None)],
        ),
        # after an identifier, a space ends a request when "再/也..." opens the next one
        (
            "帮我查查100200 再查查100609 顺带问下发票能开吗",
            [(SI.ORDER_STATUS, "100200"), (SI.ORDER_STATUS, "100609"), (SI.FAQ, None)],
        ),
        ("我的订单 100123 为什么还没发货", [(SI.ORDER_STATUS, "100123")]),
        # a clause ending in a question word is complete
        (
            "100609退了多少了 还能退多少 剩下的帮我退了",
            [(SI.ORDER_STATUS, "100609"), (SI.REFUND, "100609")],
        ),
        # "几点", "还要": a question and a request no template reads
        (
            # "改下地址": an opening verb of change, deferred by the shop (the change-of-address
            # capability claims it in the whole reading, test_understanding_more)
            "100904改下地址 再把100998取消 还有你们几点下班",
            [
                (SI.CANCEL_ORDER, "100998"),
                (Intent.UNKNOWN, "part: 100904改下地址"),
                (Intent.UNKNOWN, "part: 你们几点下班"),
            ],
        ),
        (
            "100683物流太慢 我要投诉 还要你们赔钱",
            [
                (SI.TRACKING, "100683"),
                (SI.CREATE_TICKET, "100683"),
                (Intent.UNKNOWN, "part: 还要你们赔钱"),
            ],
        ),
        # ", where is it?" asks about what came before it
        ("my 100609 refund, where is it?", [(SI.ORDER_STATUS, "100609")]),
    ],
)
def test_more_ways_customers_string_requests_together(text: str, expected: Reading) -> None:
    assert reading(text) == expected


def test_an_account_address_and_a_price_policy_are_not_shop_requests() -> None:
    text = "pls cancel 100904 thx and btw could you update the billing address on my account"
    merged = merge_matches(read_matches(text), match_packs(text, "en", {}, SHOP), SHOP)
    assert "change_address" not in {m.capability for m in merged}
    assert [m.text for m in merged if m.details == DEFERRED_PART] == [
        "could you update the billing address on my account"
    ]
    assert SI.STOCK not in {m.intent for m in read("do you price match")}


def test_a_replacement_asked_in_another_clause_keeps_the_ticket_beside_a_refund() -> None:
    text = "my headphones from 100200 stopped working!!! want a replacement and a refund too"
    assert [i for i, _ in reading(text)] == [SI.CREATE_TICKET, SI.REFUND]


def test_a_product_question_naming_no_product_asks_about_the_one_before() -> None:
    found = read("羽绒服多少钱 有没有女款")
    assert [m.text for m in found] == ["羽绒服多少钱", "羽绒服 有没有女款"]
    # the spec question is deferred; "it" is the product it names
    found = read("is the smart watch waterproof and do you have it in stock")
    assert [(m.intent, m.details) for m in found] == [
        (SI.STOCK, ""),
        (Intent.UNKNOWN, DEFERRED_PART),
    ]
    assert found[0].text.startswith("smart watch")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a look at a refund is a question, and an order named with a look is looked at
        (
            "帮我看下100609的退款 另一个订单100200也看下",
            [(SI.ORDER_STATUS, "100609"), (SI.ORDER_STATUS, "100200")],
        ),
        ("can you check my refund for 100609", [(SI.ORDER_STATUS, "100609")]),
        ("100609剩下的钱能退吗", [(SI.ORDER_STATUS, "100609")]),
        # a question never continues the cancel before it
        (
            "cancel 100904 asap!! and where the hell is 100683",
            [(SI.CANCEL_ORDER, "100904"), (SI.TRACKING, "100683")],
        ),
        # "/", "as well as", "和" before a verb separate requests
        (
            "track 100683 / cancel 100904 / whats the return policy",
            [(SI.TRACKING, "100683"), (SI.CANCEL_ORDER, "100904"), (SI.FAQ, None)],
        ),
        (
            "Can you check on 100200 as well as 100609, and tell me if you ship to Macau",
            [(SI.ORDER_STATUS, "100200"), (SI.ORDER_STATUS, "100609"), (SI.FAQ, None)],
        ),
        ("取消100904和查一下100683物流", [(SI.CANCEL_ORDER, "100904"), (SI.TRACKING, "100683")]),
        # an order named alone still continues the write before it
        ("取消100904 100998也取消", [(SI.CANCEL_ORDER, "100904"), (SI.CANCEL_ORDER, "100998")]),
        ("refund 100609 and 100200", [(SI.REFUND, "100609"), (SI.REFUND, "100200")]),
    ],
)
def test_a_look_or_a_question_never_becomes_a_write(text: str, expected: Reading) -> None:
    assert reading(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a refund named as a noun phrase is asked about; a negation never continues a write
        (
            "any news on 100683? and my refund for 100609?",
            [(SI.ORDER_STATUS, "100683"), (SI.ORDER_STATUS, "100609")],
        ),
        (
            "can u cancel 100904 and refund 100609 but dont touch 100998",
            [(SI.CANCEL_ORDER, "100904"), (SI.REFUND, "100609"), (Intent.CONFIRM_NO, "100998")],
        ),
        # a clause opening with an auxiliary verb asks
        (
            "do you have wireless earbuds? and a power bank? and are they cheaper if i buy both",
            [
                (SI.STOCK, None),
                (SI.STOCK, None),
                (Intent.UNKNOWN, "part: are they cheaper if i buy both"),
            ],
        ),
        (
            "100609退款退到哪了？还有100200我也想退",
            [(SI.ORDER_STATUS, "100609"), (SI.REFUND, "100200")],
        ),
        # "或者" before what the customer would do instead; a courier is not an exchange
        (
            "100683太慢了 能不能换个快递公司 或者直接退款",
            [
                (SI.ORDER_STATUS, "100683"),
                (SI.REFUND, "100683"),
                (Intent.UNKNOWN, "part: 能不能换个快递公司"),
            ],
        ),
        # a look that asks only for a change is deferred
        (
            "订单100904帮我改成加急发货 另外100609还能退多少",
            [(SI.ORDER_STATUS, "100609"), (Intent.UNKNOWN, "part: 订单100904帮我改成加急发货")],
        ),
        (
            "我要投诉 100200发错货了 要换货 另外我要找你们领导",
            [(SI.CREATE_TICKET, "100200"), (SI.HANDOFF, "100200")],
        ),
    ],
)
def test_what_a_clause_asks_is_read_from_how_it_is_asked(text: str, expected: Reading) -> None:
    assert reading(text) == expected


def test_a_product_question_without_product_words_asks_about_the_product_before() -> None:
    assert [m.sku for m in read("看了一下SKU-1001评价还不错，想问问现在有没有货")] == ["SKU-1001"]
    assert len(read("你们有没有充电宝 有的话多少钱")) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "where is 100683 i also need to update my phone number",
            [(SI.TRACKING, "100683"), (Intent.UNKNOWN, "part: need to update my phone number")],
        ),
        # ", I ..." / ", my X changed": the customer speaking of themselves opens a clause
        (
            "is SKU-1001 in stock, I have a coupon code WINTER10 that I want to use",
            [
                (SI.STOCK, None),
                (Intent.UNKNOWN, "part: I have a coupon code WINTER10 that I want to use"),
            ],
        ),
        (
            "check 100998 please, I think I used the wrong coupon on it, can you reapply it",
            [(SI.ORDER_STATUS, "100998"), (Intent.UNKNOWN, "part: can you reapply it")],
        ),
        # a look that asks for something done is deferred
        (
            "track 100200 for me and let the courier know to ring the bell",
            [
                (SI.TRACKING, "100200"),
                (Intent.UNKNOWN, "part: let the courier know to ring the bell"),
            ],
        ),
        (
            "帮我查100200的物流 再让快递员送货前打个电话",
            [(SI.TRACKING, "100200"), (Intent.UNKNOWN, "part: 再让快递员送货前打个电话")],
        ),
        (
            "where is 100683 also i moved so update my default address on the account",
            [
                (SI.TRACKING, "100683"),
                (Intent.UNKNOWN, "part: update my default address on the account"),
            ],
        ),
        (
            "退100609的钱 顺便送我张优惠券呗",
            [(SI.REFUND, "100609"), (Intent.UNKNOWN, "part: 送我张优惠券呗")],
        ),
        # a second order opening a request of its own does not join the cancel
        (
            "取消100904 100998的包裹帮我备注放门卫",
            [(SI.CANCEL_ORDER, "100904"), (Intent.UNKNOWN, "part: 100998的包裹帮我备注放门卫")],
        ),
        ("取消100904 100998", [(SI.CANCEL_ORDER, "100904"), (SI.CANCEL_ORDER, "100998")]),
        # a warranty question naming a product is the policy
        (
            "what is the warranty on SKU-1007 and can I buy an extended one",
            [(SI.FAQ, None), (Intent.UNKNOWN, "part: can I buy an extended one")],
        ),
    ],
)
def test_a_part_the_shop_cannot_do_is_deferred_however_it_is_joined(
    text: str, expected: Reading
) -> None:
    assert reading(text) == expected


def test_a_read_keeps_its_own_clause_beside_a_clause_a_pack_claimed() -> None:
    text = "hey where is 100683, my address changed so please deliver it to 88 Nanjing Road instead"
    merged = merge_matches(read_matches(text), match_packs(text, "en", {}, SHOP), SHOP)
    assert {m.capability for m in merged} >= {"tracking", "change_address"}
    assert [m.text for m in merged if m.details == DEFERRED_PART] == [
        "please deliver it to 88 Nanjing Road instead"
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a way to reach the shop is not a product; "有没有..." asks
        (
            "whats ur hotline and do u have an email address i can write to",
            [
                (Intent.HOTLINE, None),
                (Intent.UNKNOWN, "part: do u have an email address i can write to"),
            ],
        ),
        (
            "客服电话多少 有没有邮箱可以联系",
            [(Intent.HOTLINE, None), (Intent.UNKNOWN, "part: 有没有邮箱可以联系")],
        ),
        # "能帮忙..." after a space opens a request of its own
        (
            "你们卖手机壳吗 还有钢化膜 能帮忙贴膜吗",
            [(SI.STOCK, None), (SI.STOCK, None), (Intent.UNKNOWN, "part: 能帮忙贴膜吗")],
        ),
        (
            "cancel 100904 and how long for my money",
            [(SI.CANCEL_ORDER, "100904"), (SI.FAQ, None)],
        ),
    ],
)
def test_contact_channels_and_money_words_are_read_as_asked(text: str, expected: Reading) -> None:
    assert reading(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a ticket dropped beside the refund of its order, asking for something sent
        (
            "refund 100200 in full and send me a return label",
            [(SI.REFUND, "100200"), (Intent.UNKNOWN, "part: send me a return label")],
        ),
        (
            "100200全额退款 再给我寄个退货单",
            [(SI.REFUND, "100200"), (Intent.UNKNOWN, "part: 再给我寄个退货单")],
        ),
        (
            "能不能让人打电话给我 说一下100683的事 另外100904取消",
            [(SI.HANDOFF, "100683"), (SI.CANCEL_ORDER, "100904")],
        ),
        ("65W充电器补货了没 USB-C数据线多少钱", [(SI.STOCK, None), (SI.STOCK, None)]),
        (
            "are the 65w chargers back yet and how much are usb c cables",
            [(SI.STOCK, None), (SI.STOCK, None)],
        ),
    ],
)
def test_requests_beside_a_refund_a_callback_and_mixed_words(text: str, expected: Reading) -> None:
    assert reading(text) == expected


def test_the_same_product_in_another_colour_is_the_one_looked_at() -> None:
    found = read("100200的耳机到哪了 有没有黑色的同款")
    assert [m.text for m in found] == ["100200的耳机到哪了", "耳机 有没有黑色的同款"]
    found = read("where r my headphones from 100200 and do u have the same ones in black")
    assert found[-1].text.startswith("headphones")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an order named with thanks after a cancel continues the cancel
        (
            "Please cancel order #100904 and order #100998, thank you",
            [(SI.CANCEL_ORDER, "100904"), (SI.CANCEL_ORDER, "100998")],
        ),
        # two identifiers joined by "and" stay in their request, and a question about doing
        # something with them is deferred whole
        (
            "is there any way to combine 100904 and 100998 into one shipment? and shipping fees?",
            [
                (SI.FAQ, None),
                (
                    Intent.UNKNOWN,
                    "part: is there any way to combine 100904 and 100998 into one shipment",
                ),
            ],
        ),
        # a greeting in front of a question is not what the clause asks
        (
            "hey is the air purifier on sale? and where is my refund for it (100609)",
            [
                (Intent.GREETING, None),
                (SI.ORDER_STATUS, "100609"),
                (Intent.UNKNOWN, "part: is the air purifier on sale"),
            ],
        ),
        # "再..." after a space opens a request; a damaged box is the refund's reason
        (
            "100609外包装破了 退我50块 再补发个盒子",
            [(SI.REFUND, "100609"), (Intent.UNKNOWN, "part: 再补发个盒子")],
        ),
        (
            "帮我看看100609退款到账没有 再帮我看看100200是不是签收了",
            [(SI.ORDER_STATUS, "100609"), (SI.ORDER_STATUS, "100200")],
        ),
    ],
)
def test_thanks_greetings_and_joined_identifiers(text: str, expected: Reading) -> None:
    assert reading(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a part of an order is no cancel of the order: the policy (orders are cancelled whole)
        ("100998里有什么 只取消里面的手表可以吗", [(SI.ORDER_STATUS, "100998"), (SI.FAQ, None)]),
        (
            "can you tell me what's in 100998 and cancel the watch from it only",
            [(SI.ORDER_STATUS, "100998"), (SI.FAQ, None)],
        ),
        ("cancel the phone but keep the monitor", [(SI.FAQ, None)]),
        ("could I cancel just the smartphone and keep the monitor?", [(SI.FAQ, None)]),
        ("only cancel 100998", [(SI.CANCEL_ORDER, "100998")]),
        # a promotion on a product is not its stock
        (
            "SKU-1047有优惠吗 有货吗",
            [(SI.STOCK, None), (Intent.UNKNOWN, "part: SKU-1047有优惠吗")],
        ),
        # why a request is asked is not a look of its own, unless it is about the delivery
        (
            "100904尺码买错了 帮我取消 顺便问下换货流程",
            [(SI.CANCEL_ORDER, "100904"), (SI.FAQ, None)],
        ),
        (
            "my order 100683 never came!!! refund me now and cancel 100998 too",
            [(SI.ORDER_STATUS, "100683"), (SI.REFUND, "100683"), (SI.CANCEL_ORDER, "100998")],
        ),
    ],
)
def test_parts_promotions_and_reasons(text: str, expected: Reading) -> None:
    assert reading(text) == expected


def test_a_product_question_after_an_unread_clause_naming_a_sku_asks_about_that_sku() -> None:
    assert [m.sku for m in read("SKU-1047有优惠吗 有货吗") if m.intent is SI.STOCK] == ["SKU-1047"]


@pytest.mark.parametrize(
    ("text", "orders", "last", "expected"),
    [
        ("and the other one?", ["100998", "100683"], "100683", (SI.ORDER_STATUS, "100998")),
        ("那另一个呢", ["100998", "100683"], "100683", (SI.ORDER_STATUS, "100998")),
        ("what about the other order", ["100683"], "100683", (SI.LIST_ORDERS, None)),
    ],
)
def test_the_other_one_is_the_other_order_the_session_named(
    text: str, orders: list[str], last: str, expected: tuple[object, str | None]
) -> None:
    found = read(text, known_orders=orders, last_order_id=last)
    assert [(m.intent, m.order_id) for m in found] == [expected]
