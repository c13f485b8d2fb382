"""More multi-request messages as hurried customers write them: every request read or deferred,
and no write ever on an object the customer did not ask to change (issue 12)."""

from __future__ import annotations

import pytest

from helpdesk.graph.intents import DEFERRED_PART, Intent
from helpdesk.packs.shop.intents import ShopIntent as SI
from tests.shop_view import read

Reading = list[tuple[object, str | None]]


def reading(text: str, **kw: object) -> Reading:
    """(intent, order) of each request; a deferred part as ``(UNKNOWN, "part: <text>")``."""
    out: Reading = []
    for m in read(text, **kw):  # type: ignore[arg-type]
        if m.intent is Intent.UNKNOWN and m.details == DEFERRED_PART:
            out.append((Intent.UNKNOWN, f"part: {m.text}"))
        else:
            out.append((m.intent, m.order_id))
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the session's order (100998) is the write's, the look's own order stays with the look
        (
            "没发就取消吧 顺便看下100683到哪了",
            [(SI.CANCEL_ORDER, "100998"), (SI.TRACKING, "100683")],
        ),
        ("那都退了吧 另外100200也帮我看看", [(SI.REFUND, "100998"), (SI.ORDER_STATUS, "100200")]),
        ("cancel it and where is 100683", [(SI.CANCEL_ORDER, "100998"), (SI.TRACKING, "100683")]),
    ],
)
def test_a_write_never_takes_the_order_of_a_look_after_it(text: str, expected: Reading) -> None:
    assert reading(text, last_order_id="100998") == expected


def test_a_write_still_takes_the_order_named_after_it_for_it() -> None:
    assert reading("cancel it, order 100904") == [(SI.CANCEL_ORDER, "100904")]
    # a problem and the refund it is the reason for share the order
    text = "my headphones broke and I'd like a refund, order 100200"
    assert reading(text) == [(SI.REFUND, "100200")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "cancel 100998 but keep 100904 and where is 100683",
            [
                (SI.CANCEL_ORDER, "100998"),
                (SI.TRACKING, "100683"),
                (Intent.UNKNOWN, "part: keep 100904"),
            ],
        ),
        # the refusal names the order it spares (the reply says it is left alone)
        ("取消100998 100904保留", [(SI.CANCEL_ORDER, "100998"), (Intent.CONFIRM_NO, "100904")]),
        (
            "取消100998 但是100904别取消",
            [(SI.CANCEL_ORDER, "100998"), (Intent.CONFIRM_NO, "100904")],
        ),
        (
            "refund 100609 but leave 100200 alone",
            [(SI.REFUND, "100609"), (Intent.UNKNOWN, "part: leave 100200 alone")],
        ),
    ],
)
def test_an_order_to_keep_is_never_the_object_of_the_write_beside_it(
    text: str, expected: Reading
) -> None:
    assert reading(text) == expected


def test_a_question_about_returns_opens_no_ticket() -> None:
    assert reading("do you do free returns") == [(SI.FAQ, None)]
    assert [i for i, _ in reading("100683到哪了 还有退货地址是哪")] == [SI.TRACKING, SI.FAQ]
    # asking for the return is still a return
    assert reading("i want to return the thermos can you help") == [(SI.CREATE_TICKET, None)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "can u check if 100998 has shipped, if it hasnt pls cancel it, and refund to alipay",
            [
                (SI.ORDER_STATUS, "100998"),
                (SI.CANCEL_ORDER, "100998"),
                (Intent.UNKNOWN, "part: refund to alipay"),
            ],
        ),
        (
            "cancel 100998 and refund me to my wechat",
            [(SI.CANCEL_ORDER, "100998"), (Intent.UNKNOWN, "part: refund me to my wechat")],
        ),
        (
            "取消100998 钱退回微信",
            [(SI.CANCEL_ORDER, "100998"), (Intent.UNKNOWN, "part: 钱退回微信")],
        ),
        (
            "帮我看看100998发货没 没发的话帮我取消 钱原路退回就行",
            [
                (SI.ORDER_STATUS, "100998"),
                (SI.CANCEL_ORDER, "100998"),
                (Intent.UNKNOWN, "part: 钱原路退回就行"),
            ],
        ),
    ],
)
def test_where_the_money_of_a_cancelled_order_goes_is_deferred_not_a_second_refund(
    text: str, expected: Reading
) -> None:
    assert reading(text) == expected


def test_asking_where_a_refund_goes_is_never_a_refund() -> None:
    assert reading("钱会退回支付宝吗") == [(SI.FAQ, None)]
    assert reading("取消100998 钱会退回支付宝吗") == [(SI.CANCEL_ORDER, "100998"), (SI.FAQ, None)]
    # a refund of an order nobody cancels keeps its refund
    assert reading("refund 100609 to my alipay") == [(SI.REFUND, "100609")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("track 100200 pls also do u ship to taiwan", [(SI.TRACKING, "100200"), (SI.FAQ, None)]),
        (
            "where is 100683 and whats inside 100998",
            [(SI.TRACKING, "100683"), (SI.ORDER_STATUS, "100998")],
        ),
        (
            "100683到哪了 我下周出差 先放快递站",
            [(SI.TRACKING, "100683"), (Intent.UNKNOWN, "part: 先放快递站")],
        ),
        (
            "100683到哪了 快递员电话怎么打不通",
            [(SI.TRACKING, "100683"), (Intent.UNKNOWN, "part: 快递员电话怎么打不通")],
        ),
        (
            "can i change the delivery time for 100683 and whats the tracking number",
            [
                (SI.TRACKING, "100683"),
                (Intent.UNKNOWN, "part: can i change the delivery time for 100683"),
            ],
        ),
        (
            "100683物流一直不更新 怎么回事 顺便改个送货时间",
            [(SI.TRACKING, "100683"), (Intent.UNKNOWN, "part: 改个送货时间")],
        ),
        (
            "SKU-1037什么时候到货 到货了帮我预留一套",
            [(SI.STOCK, None), (Intent.UNKNOWN, "part: 到货了帮我预留一套")],
        ),
        (
            "100998帮我取消 然后优惠券能退回来吗",
            [(SI.CANCEL_ORDER, "100998"), (Intent.UNKNOWN, "part: 优惠券能退回来吗")],
        ),
        (
            "SKU-1006什么时候补货 补货了能给点补偿吗",
            [(SI.STOCK, None), (Intent.UNKNOWN, "part: 补货了能给点补偿吗")],
        ),
        ("SKU-1007保修多久 能买延保吗", [(SI.FAQ, None), (Intent.UNKNOWN, "part: 能买延保吗")]),
        # why a parcel is late is what its tracking answers
        ("100683到哪了 为什么这么慢", [(SI.TRACKING, "100683")]),
    ],
)
def test_a_part_beside_a_look_or_a_stock_question_is_read_or_deferred(
    text: str, expected: Reading
) -> None:
    assert reading(text) == expected


def test_products_listed_with_also_or_n_are_searched_each() -> None:
    texts = [m.text for m in read("do you have phone cases? also screen protectors?")]
    assert texts == ["do you have phone cases", "screen protectors"]
    texts = [m.text for m in read("do u sell power banks n usb c cables")]
    assert texts == ["do u sell power banks", "usb c cables"]


def test_a_refund_of_a_fee_is_deferred_never_a_refund_of_the_order() -> None:
    text = "where is 100200 the 2nd parcel and can u refund the shipping fee"
    assert reading(text) == [
        (SI.TRACKING, "100200"),
        (Intent.UNKNOWN, "part: can u refund the shipping fee"),
    ]


def test_a_quantity_asked_with_something_other_than_buying_is_deferred() -> None:
    text = "stock check: SKU-1001, SKU-1007. also need a quote for 50 units"
    assert [i for i, _ in reading(text)] == [SI.STOCK, SI.STOCK, Intent.UNKNOWN]
    # a quantity to buy belongs to the product question beside it
    assert [i for i, _ in reading("SKU-1001 还有货吗？我想买3个")] == [SI.STOCK]


@pytest.mark.parametrize(
    "text",
    [
        "cancel 100998 and refund me",
        "please cancel order 100998 and give me a refund",
        "取消100998 然后退款",
    ],
)
def test_a_refund_of_the_order_being_cancelled_is_the_refund_the_cancel_makes(text: str) -> None:
    # cancelling a paid order refunds it in full: a second refund question of the same order
    # was asked, and a "yes" to both cancelled and then had the refund refused (nothing left
    # to refund); the refund-timing answer says the cancel refunds automatically
    got = read(text)
    assert [(m.intent, m.order_id) for m in got if m.intent is not SI.FAQ] == [
        (SI.CANCEL_ORDER, "100998")
    ]
    assert [m.topic for m in got if m.intent is SI.FAQ] == ["refund_time"]


def test_a_refund_of_another_order_beside_a_cancel_is_still_a_refund() -> None:
    assert reading("cancel 100998 and refund 100609") == [
        (SI.CANCEL_ORDER, "100998"),
        (SI.REFUND, "100609"),
    ]


def test_cancel_and_refund_in_one_clause_is_one_cancel() -> None:
    # "取消并退款": one action (the cancel refunds), never a refund beside it
    assert reading("100998取消并退款") == [(SI.CANCEL_ORDER, "100998")]
