"""The shop's part reader: which unread parts are looked up in the catalogue, and when a
search's hit counts as the product the part names (a search box's best guess never does)."""

from __future__ import annotations

import pytest

from helpdesk.packs.shop.product_parts import (
    LOOKED_UP,
    names_product,
    part_query,
    pick_product,
)

HUMIDIFIER = {"sku": "SKU-1035", "name": "Humidifier 4L", "name_zh": "加湿器 4L"}
THERMOS = {
    "sku": "SKU-1025",
    "name": "Stainless Steel Thermos 500ml",
    "name_zh": "不锈钢保温杯 500ml",
}
POWER_BANK = {"sku": "SKU-1005", "name": "20000mAh Power Bank", "name_zh": "20000毫安移动电源"}
PHONE = {"sku": "SKU-1014", "name": "Smartphone X12 128GB", "name_zh": "X12 智能手机 128GB"}


@pytest.mark.parametrize(
    ("part", "product"),
    [
        ("is the humidifier quiet enough for a baby's room", HUMIDIFIER),
        ("加湿器声音大吗", HUMIDIFIER),
        ("保温杯能放洗碗机吗", THERMOS),
        ("is the thermos dishwasher safe", THERMOS),
        ("what's the capacity of your power bank", POWER_BANK),
        ("is the x12 smartphone dual sim?", PHONE),
    ],
)
def test_a_part_names_a_product_by_a_distinctive_word(part: str, product: dict[str, str]) -> None:
    assert names_product(part, product)


@pytest.mark.parametrize(
    ("part", "product"),
    [
        # general words of a name are no name: "smart", "wireless", "bank", "不锈钢", "智能"
        ("can I pay by bank transfer", POWER_BANK),
        ("is it smart enough", PHONE),
        ("不锈钢的东西能进洗碗机吗", THERMOS),
        ("智能的吗", PHONE),
        ("is the kettle quiet", HUMIDIFIER),
    ],
)
def test_general_words_or_another_product_are_not_a_name(
    part: str, product: dict[str, str]
) -> None:
    assert not names_product(part, product)


@pytest.mark.parametrize(
    "part",
    [
        "could you gift wrap the thermos for my mum",  # something done with it, not asked
        "can i keep the free gift",
        "can you add a second thermos to order 100200",
        "can you install the protector for me",
        "给100904加一件羽绒服吗",
        "收到一个箱子 里面只有炸锅和餐具 保温杯呢",  # what an order brought, not a product
        "I need a new pair of headphones for my commute",  # told, not asked
        "what?",  # asks, but names nothing to look up
    ],
)
def test_parts_that_ask_nothing_about_a_product_are_not_looked_up(part: str) -> None:
    assert part_query(part) is None


def test_keeping_something_hot_is_a_question_about_the_product() -> None:
    assert part_query("does your steel thermos keep tea hot all day") is not None


def test_a_question_about_a_product_is_searched_by_its_product_words() -> None:
    assert part_query("is the humidifier quiet enough for a baby's room") == {
        "q": "humidifier quiet baby's room"
    }


def test_a_hit_the_part_names_is_a_stock_request_and_one_it_does_not_is_nothing() -> None:
    part = "is the humidifier quiet enough for a baby's room"
    assert pick_product(part, {"products": [HUMIDIFIER]}) == ("stock", {LOOKED_UP: True})
    # the search ranks partial matches too: a hit the part does not name is no reading
    assert pick_product(part, {"products": [THERMOS, PHONE]}) is None
    assert pick_product(part, {"products": []}) is None
    assert pick_product(part, {"error": "boom"}) is None
    assert pick_product(part, None) is None
