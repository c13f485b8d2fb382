"""Which orders a write clause is for, and each one's amount (packs/shop/order_parts.py), and the
readings of a fresh batch of customer messages that planned the wrong thing before."""

from __future__ import annotations

import pytest

from helpdesk.graph.conversation import normalize
from helpdesk.graph.intents import Intent
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import ShopIntent as SI
from helpdesk.packs.shop.order_parts import amounts_by_order, kept_out
from tests.shop_view import read

SHOP = default_packs()


@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("取消100904，100998保留别动", {"100998"}),
        ("cancel 100904 but keep 100998", {"100998"}),
        ("cancel 100904 but not 100998", {"100998"}),
        ("cancel 100904 except 100998", {"100998"}),
        ("cancel 100904 and 100998", set()),
        ("取消100904 100998", set()),
        # "don't" before the first order is the whole clause's refusal, read elsewhere
        ("cancel 100904, 100998 leave it", {"100998"}),
    ],
)
def test_orders_kept_out_of_a_write(text: str, out: set[str]) -> None:
    norm = normalize(text)
    ids = [o for o in ("100904", "100998") if o in norm]
    assert kept_out(norm, ids) == out


def _amounts(text: str) -> dict[str, float | str | None]:
    norm = normalize(text)
    ids = [o for o in ("100609", "100200") if o in norm]
    return {
        o: (r.value if r.kind == "exact" else r.kind)
        for o, r in amounts_by_order(norm, ids, SHOP).items()
    }


@pytest.mark.parametrize(
    ("text", "amounts"),
    [
        ("refund 200 for 100609 and 100 for 100200", {"100609": 200.0, "100200": 100.0}),
        ("refund 100609 200 and 100200 100", {"100609": 200.0, "100200": 100.0}),
        ("100609退50 100200退30", {"100609": 50.0, "100200": 30.0}),
        # which amount is whose is not said: asked about, never guessed
        ("refund 100609 and 100200, 50 and 30", {"100609": "invalid", "100200": "invalid"}),
        # one amount for both, or none: the clause's own reading stands
        ("退100609和100200各50", {}),
        ("refund 100609 and 100200", {}),
    ],
)
def test_each_order_gets_its_own_amount(text: str, amounts: dict[str, object]) -> None:
    assert _amounts(text) == amounts


def _intents(text: str) -> list[object]:
    return [m.intent for m in read(text)]


def test_a_numbered_list_splits_at_its_markers_and_keeps_the_orders() -> None:
    found = read("三件事：1.100683到哪了 2.取消100904 3.充电宝有货吗")
    assert [(m.intent, m.order_id) for m in found] == [
        (SI.TRACKING, "100683"),
        (SI.CANCEL_ORDER, "100904"),
        (SI.STOCK, None),
    ]


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        ("人工电话多少", [Intent.HOTLINE]),
        ("客服电话多少", [Intent.HOTLINE]),
        ("我要转人工", [SI.HANDOFF]),
        ("你是真人还是AI？是AI的话帮我转人工", [Intent.IDENTITY, SI.HANDOFF]),
        ("what do i do if the parcel arrives damaged", [SI.FAQ]),
        ("收到的空气炸锅有点瑕疵 100200 能退货吗", [SI.FAQ]),
        ("100200的碗碎了 帮我开个售后工单", [SI.CREATE_TICKET]),
        ("100181为啥被取消了", [SI.ORDER_STATUS]),
        ("which of my orders havent shipped yet", [SI.LIST_ORDERS]),
        ("有加湿器吗", [SI.STOCK]),
        ("冲锋衣有XL吗", [SI.STOCK]),
        ("这个有保修吗", [SI.FAQ]),
        ("when does 100998 ship?", [SI.ORDER_STATUS]),
    ],
)
def test_readings_of_the_fresh_batch(text: str, intents: list[object]) -> None:
    assert _intents(text) == intents


@pytest.mark.parametrize("text", ["我名下有没有未处理的工单", "any open tickets on my account?"])
def test_a_question_about_tickets_files_none(text: str) -> None:
    assert SI.CREATE_TICKET not in _intents(text)


@pytest.mark.parametrize(
    "text",
    [
        "Please do not refund 100609. I only wanted to know when the 433 refund was paid",
        "also her 100609 refund amount",
        "100200 100609 哪个还能退 各能退多少",
    ],
)
def test_questions_about_refunds_plan_no_refund(text: str) -> None:
    assert SI.REFUND not in _intents(text)


def test_two_products_bought_are_two_looks() -> None:
    found = read("我的耳机到哪了 还有保温杯")
    assert [m.intent for m in found] == [SI.TRACKING, SI.TRACKING]
    assert found[1].args["product"] == "保温杯"
