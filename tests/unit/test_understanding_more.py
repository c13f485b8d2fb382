"""Requests the minimal tier reads since the labelled set was built: change of address, list of
orders, refusals followed by an order number, "X but don't Y"."""

from __future__ import annotations

from typing import Any

import pytest

from helpdesk.graph.capabilities import match_packs, merge_matches
from helpdesk.graph.intents import Intent
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import ShopIntent as SI
from tests.shop_view import ShopView, read

SHOP = default_packs()


def match_intents(text: str, **kw: Any) -> list[ShopView]:
    return read(text, **kw)


def understood(text: str) -> list[str]:
    """What the turn plans for: built-in intents merged with the packs' pattern matches."""
    builtin = match_intents(text)
    merged = merge_matches(builtin, match_packs(text, "en", {}, SHOP))
    return [m.capability or m.intent.value for m in merged]


@pytest.mark.parametrize(
    "text",
    [
        "Can I change my shipping address for order 100904?",
        "I need to change the delivery address of 100998 to Beijing",
        "100904能改收货地址吗",
        "100998地址填错了，要改成北京",
    ],
)
def test_a_change_of_address_is_its_own_request(text: str) -> None:
    assert understood(text) == ["change_address"]


@pytest.mark.parametrize(
    "text", ["what did I order recently", "看看我最近买了啥", "我所有的订单都列一下"]
)
def test_list_orders_wording(text: str) -> None:
    assert [m.intent for m in match_intents(text)] == [SI.LIST_ORDERS]


def test_a_refusal_keeps_its_order_number() -> None:
    assert [m.intent for m in match_intents("算了不退了 100609")] == [Intent.CONFIRM_NO]


def test_a_request_and_a_refusal_in_one_message() -> None:
    found = match_intents("refund 100609 but don't cancel 100998")
    assert [(m.intent, m.order_id) for m in found] == [
        (SI.REFUND, "100609"),
        (Intent.CONFIRM_NO, "100998"),  # the order spared, said to be left alone
    ]


def test_a_story_with_but_is_not_split_into_a_ticket() -> None:
    text = (
        "you already gave me 433 back for 100609 because it arrived damaged, but I'd like to "
        "know how much more I could get back"
    )
    assert SI.CREATE_TICKET not in {m.intent for m in match_intents(text)}


@pytest.mark.parametrize(
    "text", ["where is YT9433239273", "物流单号YT9433239273到哪了", "查一下 yt9433239273"]
)
def test_a_tracking_number_is_tracked_by_its_number(text: str) -> None:
    found = match_intents(text)
    assert [(m.intent, m.args.get("tracking_number")) for m in found] == [
        (SI.TRACKING, "YT9433239273")
    ]


def test_an_order_id_wins_over_a_tracking_number() -> None:
    found = match_intents("100683 YT9433239273到哪了")
    assert [(m.intent, m.order_id) for m in found] == [(SI.TRACKING, "100683")]


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("帮我催一下", SI.ORDER_STATUS),
        ("can someone call me about it", SI.HANDOFF),
        ("what was in it?", SI.ORDER_STATUS),
        ("when will it be back?", SI.STOCK),
    ],
)
def test_references_to_the_conversation(text: str, intent: Intent) -> None:
    found = match_intents(text, last_order_id="100683", last_sku="SKU-1004")
    assert [m.intent for m in found] == [intent]
    if intent is SI.STOCK:
        assert found[0].sku == "SKU-1004"
    else:
        assert found[0].order_id == "100683"


def test_a_new_product_is_not_the_last_one() -> None:
    found = match_intents("do you have a down jacket?", last_sku="SKU-1004")
    assert [m.sku for m in found] == [None]


def test_a_question_nothing_reads_is_said_to_be_unread() -> None:
    found = match_intents("100683到哪了？你们周末上班吗？")
    assert [(m.intent, m.details) for m in found] == [
        (SI.TRACKING, ""),
        (Intent.UNKNOWN, "part"),
    ]
    assert found[1].text == "你们周末上班吗"


@pytest.mark.parametrize(
    "text", ["Do you have earbuds? like true wireless ones", "where is 100683? thanks a lot"]
)
def test_context_and_small_talk_are_not_unread_parts(text: str) -> None:
    assert Intent.UNKNOWN not in {m.intent for m in match_intents(text)}
