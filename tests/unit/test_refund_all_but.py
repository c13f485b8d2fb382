"""Everything on an order but some of its items (tools/refund_all_but.py): what the other items
cost, or asked (None, True) — never the whole order; words that ask for no such thing: None."""

from __future__ import annotations

from typing import Any

import pytest

from helpdesk.tools.refund_all_but import items_but
from helpdesk.tools.refund_shares import _named_items

KITCHEN: dict[str, Any] = {
    "total": 797.0,
    "refundable_amount": 797.0,
    "items": [
        {"name": "Air Fryer 5L", "name_zh": "空气炸锅 5L", "unit_price": 399.0, "quantity": 1},
        {
            "name": "Ceramic Dinnerware Set (16 pcs)",
            "name_zh": "陶瓷餐具套装（16 件）",
            "unit_price": 269.0,
            "quantity": 1,
        },
        {
            "name": "Stainless Steel Thermos 500ml",
            "name_zh": "不锈钢保温杯 500ml",
            "unit_price": 129.0,
            "quantity": 1,
        },
    ],
}


def rest(words: str, order: dict[str, Any] = KITCHEN) -> tuple[Any, bool] | None:
    return items_but(order, words, _named_items)


@pytest.mark.parametrize(
    ("words", "price"),
    [
        ("refund everything on 100200 but the air fryer", 398.0),
        ("refund 100200 except the air fryer", 398.0),
        ("refund all of it apart from the thermos", 668.0),
        ("除了空气炸锅都退了", 398.0),
        ("除了空气炸锅以外其他的全部退了", 398.0),
        ("空气炸锅不退 其他的都退", 398.0),
        # (session 27: the thing kept, said before or after the rest; "除…外"; typos)
        ("keep the air fryer, refund the rest of 100200", 398.0),
        ("I kept the air fryer from 100200. refund everything else", 398.0),
        ("refund the rest of 100200, I'm keeping the air fryer", 398.0),
        ("空气炸锅留着 剩下的全退", 398.0),
        ("100200除空气炸锅外全退", 398.0),
        ("除保温杯之外其他都退", 668.0),
        ("refund evrything on 100200 exept the air fryer", 398.0),
    ],
)
def test_all_but_items_costs_the_other_items(words: str, price: float) -> None:
    found = rest(words)
    assert found is not None
    item, singled_out = found
    assert singled_out and item is not None
    assert item["unit_price"] == price


def test_the_other_items_are_named_in_both_languages() -> None:
    found = rest("refund everything but the air fryer")
    assert found is not None and found[0] is not None
    assert found[0]["name"] == "Ceramic Dinnerware Set (16 pcs) and Stainless Steel Thermos 500ml"
    assert found[0]["name_zh"] == "陶瓷餐具套装（16 件）和不锈钢保温杯 500ml"


@pytest.mark.parametrize(
    "words",
    [
        "refund everything but the phone",  # not an item of the order
        "refund everything but the air fryer and the dinnerware and the thermos",  # none left
        "I've tried everything but the air fryer still doesn't work",  # no list of things
        # (a review's findings: each paid a wrong sum before it was asked)
        "refund everything on 100200 but the air purifier",  # another product sharing "air"
        "除了空气净化器都退 100200",
        "refund everything except the thermos and the plates",
        "refund everything but the thermos lid",
        "100200 不是除了空气炸锅都退，是只退空气炸锅",
        "refund everything on 100200 but the air fryer, actually no just the thermos",
        # a number left out is what is kept, never the amount
        "refund everything on 100200 but ¥100",
        "100200除了100块都退",
    ],
)
def test_what_cannot_be_worked_out_is_asked(words: str) -> None:
    assert rest(words) == (None, True)


def test_an_order_partly_refunded_is_asked() -> None:
    assert rest("refund everything but the air fryer", {**KITCHEN, "refundable_amount": 500.0}) == (
        None,
        True,
    )


@pytest.mark.parametrize(
    "words",
    [
        "refund the thermos from 100200",
        "basket is all scratched but i'll keep it",
        "refund half of 100200",
        "refund 100200 but not the air fryer",
        "keep the rest, refund the thermos",  # the one thing refunded, the rest kept
        "删除空气炸锅的收藏后都退不了吗",  # no 除…外 at all
    ],
)
def test_words_asking_no_all_but_are_left_alone(words: str) -> None:
    assert rest(words) is None


@pytest.mark.parametrize(
    "words",
    [
        "I'll keep everything except the thermos from 100200, refund it",
        "everything on 100200 is fine except the thermos, refund it",
        "the whole order 100200 was fine except the thermos, refund that",
    ],
)
def test_everything_kept_but_a_thing_is_that_thing(words: str) -> None:
    found = rest(words)
    assert found is not None and found[0] is not None
    assert found[0]["unit_price"] == 129.0
