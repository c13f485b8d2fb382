"""A refund asked as a share ("refund half", "退三分之一", "30% back") and an item singled out of
an order ("refund just the thermos"): read from the words, made exact against the order."""

from __future__ import annotations

from typing import Any

import pytest

from helpdesk.packs.shop.refund_share import read_share
from helpdesk.tools.refund_shares import REMAINING, item_meant, resolve_share

ORDER: dict[str, Any] = {
    "total": 797.0,
    "refundable_amount": 797.0,
    "items": [
        {"sku": "SKU-1029", "name": "Air Fryer 5L", "name_zh": "空气炸锅 5L", "quantity": 1,
         "unit_price": 399.0},
        {"sku": "SKU-1031", "name": "Ceramic Dinnerware Set (16 pcs)", "name_zh": "陶瓷餐具套装",
         "quantity": 1, "unit_price": 269.0},
        {"sku": "SKU-1025", "name": "Stainless Steel Thermos 500ml", "name_zh": "不锈钢保温杯",
         "quantity": 1, "unit_price": 129.0},
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "fraction", "remaining"),
    [
        ("can u refund half of what i paid", 0.5, False),
        ("100200 退我三分之一", 1 / 3, False),
        ("can i get 30% back on 100200", 0.3, False),
        ("百分之二十退给我", 0.2, False),
        ("帮我把空气净化器剩下能退的退一半", 0.5, True),
        ("refund a quarter of what's left", 0.25, True),
        ("refund 100200 half", 0.5, False),
    ],
)
def test_a_share_is_read_with_what_it_is_of(text: str, fraction: float, remaining: bool) -> None:
    share = read_share(text)
    assert share is not None
    assert share.fraction == pytest.approx(fraction)
    assert (share.of == REMAINING) is remaining


@pytest.mark.parametrize(
    "text",
    [
        "refund more than half",  # not exact
        "refund 100%",  # everything is no share
        "half an hour ago I asked for a refund",  # time, not money
        "refund half, or maybe a third",  # two shares: asked
        "refund 150% please",
    ],
)
def test_no_share_is_read_from_words_that_give_no_exact_one(text: str) -> None:
    assert read_share(text) is None


def test_a_share_is_made_exact_in_cents_of_the_order_the_item_or_what_is_left() -> None:
    assert resolve_share(ORDER, 1 / 3, "100200 退我三分之一").amount == 265.67  # type: ignore[union-attr]
    half_item = resolve_share(ORDER, 0.5, "half of what i paid for the air fryer")
    assert half_item is not None and half_item.amount == 199.5 and half_item.item == "Air Fryer 5L"
    # "the air fryer order" describes the order: the share is of the order
    assert resolve_share(ORDER, 0.5, "half of the air fryer order").amount == 398.5  # type: ignore[union-attr]
    left = {**ORDER, "refundable_amount": 866.0}
    assert resolve_share(left, 0.5, REMAINING).amount == 433.0  # type: ignore[union-attr]


def test_items_named_without_saying_which_one_are_asked_never_guessed() -> None:
    two = {**ORDER, "items": [*ORDER["items"], {**ORDER["items"][0], "sku": "SKU-1030"}]}
    item, named = item_meant(two, "refund just the air fryer")
    assert item is None and named
    assert resolve_share(two, 0.5, "refund half of the air fryer") is None


def test_an_item_singled_out_of_an_order_but_not_one_that_describes_it() -> None:
    assert item_meant(ORDER, "refund just the thermos from 100200")[0]["unit_price"] == 129.0  # type: ignore[index]
    assert item_meant(ORDER, "refund the air fryer order") == (None, False)
    assert item_meant(ORDER, "refund 100200") == (None, False)
    one = {**ORDER, "items": ORDER["items"][:1]}
    assert item_meant(one, "refund the air fryer") == (None, False)  # the whole order anyway


@pytest.mark.parametrize(
    ("words", "item"),
    [
        ("I'd like to send back the thermos from my 100200 order", "Stainless Steel Thermos 500ml"),
        ("refund the thermos in order 100200", "Stainless Steel Thermos 500ml"),
        ("100200里的保温杯退了", "Stainless Steel Thermos 500ml"),
        ("refund the air fryer order", None),  # the order its item describes: the whole order
    ],
)
def test_a_thing_taken_out_of_an_order_is_that_item(words: str, item: str | None) -> None:
    one, _ = item_meant(ORDER, words)
    assert (one or {}).get("name") == item
