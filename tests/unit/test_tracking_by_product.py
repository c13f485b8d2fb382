"""Parcels asked about by the product bought ("where are my headphones?", "我买的钢化膜到哪了"):
the shop looks up the customer's latest order holding it instead of asking for the number."""

from __future__ import annotations

import pytest

from helpdesk.degrade.context import DegradeContext
from helpdesk.degrade.errors import ErrorClass
from helpdesk.graph.language import Lang
from helpdesk.graph.planning import call_for
from helpdesk.graph.replies import ReplyItem, render_reply
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import ShopIntent, match_shop, shop_request
from helpdesk.packs.shop.words import tracked_product
from helpdesk.tools.results import ToolResult, ToolStatus

SHOP = default_packs()


@pytest.mark.parametrize(
    ("text", "product"),
    [
        ("where are my headphones?", "headphones"),
        ("我买的钢化膜到哪了", "钢化膜"),
        ("帮我查一下耳机到哪了", "耳机"),
        ("my rice cooker hasn't come yet", "rice cooker"),
        ("where's the jacket I bought?", "jacket"),
        ("多久能到？", None),
        ("第一个到哪了", None),
        ("大概什么时候送到", None),
        ("where is my package", None),
        ("物流到哪了", None),
        ("tracking please", None),
        ("where is order 100683", None),
        ("我的快递怎么还没到", None),
    ],
)
def test_the_product_a_delivery_question_names(text: str, product: str | None) -> None:
    assert tracked_product(text) == product


def _call(text: str, last_order_id: str | None = None) -> dict[str, object]:
    (match,) = match_shop(text, packs=SHOP, last_order_id=last_order_id)
    call = call_for(match, "t1-0", facts={}, packs=SHOP)
    assert call is not None
    return {"tool": call.name, **call.args}


def test_a_named_product_is_tracked_by_name() -> None:
    assert _call("where is my rice cooker") == {"tool": "track_shipment", "product": "rice cooker"}
    assert _call("我买的钢化膜到哪了") == {"tool": "track_shipment", "product": "钢化膜"}


def test_a_named_product_wins_over_the_order_the_session_talked_about() -> None:
    # 100683 came from session memory; the customer named another purchase
    assert _call("where are my headphones?", last_order_id="100683") == {
        "tool": "track_shipment",
        "product": "headphones",
    }
    # an order named in the message is the order asked about
    assert _call("where are my headphones, order 100683?")["order_id"] == "100683"


def test_without_product_or_order_the_bot_asks_for_the_order() -> None:
    (match,) = match_shop("where is my package", packs=SHOP)
    assert call_for(match, "t1-0", facts={}, packs=SHOP) is None


TRACKED = {
    "order_id": "100904",
    "shipments": [],
    "open_tickets": [],
    "matched_product": {"sku": "SKU-1028", "name": "Air Fryer 5L", "name_zh": "空气炸锅 5L"},
    "other_orders_with_product": ["100200"],
}


@pytest.mark.parametrize(
    ("lang", "first", "second"),
    [
        ("en", "Your latest order with Air Fryer 5L is 100904.", "You also have Air Fryer 5L in"),
        ("zh", "您最近一笔含空气炸锅 5L 的订单是 100904。", "订单 100200 里也有空气炸锅 5L"),
    ],
)
def test_the_reply_says_which_order_it_found(lang: Lang, first: str, second: str) -> None:
    match = shop_request(ShopIntent.TRACKING, "where is my air fryer", lang)
    result = ToolResult(call_id="t1-0", tool="track_shipment", status=ToolStatus.OK, data=TRACKED)
    text = render_reply([ReplyItem(match, result)], DegradeContext(), lang, hotline="4", packs=SHOP)
    lines = text.splitlines()
    assert lines[0] == first and lines[1].startswith(second)
    assert "100904" in lines[2]


def test_no_order_with_the_product_asks_for_the_number_naming_it() -> None:
    match = shop_request(ShopIntent.TRACKING, "where are my headphones?", "en")
    result = ToolResult(
        call_id="t1-0",
        tool="track_shipment",
        status=ToolStatus.FAILED,
        error_class=ErrorClass.BUSINESS,
        data={
            "code": "no_order_with_product",
            "message": "No order of this customer holds the product: headphones",
        },
        reason="404 from GET /tracking",
    )
    items = [ReplyItem(match, result)]
    text = render_reply(items, DegradeContext(), "en", hotline="400", packs=SHOP)
    assert "couldn't find an order of yours with headphones" in text
    assert "order number" in text


@pytest.mark.parametrize(
    ("text", "orders"),
    [
        ("where is order 100683.", ("100683",)),
        ("the screen protector from 100683... it hasn't come", ("100683",)),
        ("订单100683。", ("100683",)),
        ("refund 100683.50 please", ()),
    ],
)
def test_an_order_number_at_the_end_of_a_sentence_is_still_an_order(
    text: str, orders: tuple[str, ...]
) -> None:
    from helpdesk.packs.shop.intents import extract_entities

    assert extract_entities(text).order_ids == orders


@pytest.mark.parametrize(
    "text",
    ["hi, my air fryer still hasn't arrived, what's going on?", "100683还没到，怎么回事？"],
)
def test_exasperation_beside_a_request_is_not_an_unread_question(text: str) -> None:
    read = match_shop(text, packs=SHOP)
    assert [m.details for m in read if m.details == "part"] == []
    assert any(m.capability in ("tracking", "order_status") for m in read)


def test_a_real_unread_question_beside_a_request_is_still_deferred() -> None:
    read = match_shop("where is order 100683? and what colour is the sky there", packs=SHOP)
    assert any(m.details == "part" for m in read)
