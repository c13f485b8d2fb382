"""The demo shop's product search ranks like a shop's search box, and the shop pack reads the
product words out of a customer's question."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpdesk.packs.shop.words import product_query
from helpdesk.tools.shop.browse import search_products
from helpdesk.tools.shop.catalog import PRODUCTS, SEARCH_ALIASES
from helpdesk.tools.shop.db import connect
from helpdesk.tools.shop.product_search import (
    price_cap,
    product_text,
    rank_products,
    search_terms,
)
from helpdesk.tools.shop.seed import ensure_seeded

CATALOG = [
    product_text(f"SKU-{1001 + i}", (p.name, p.name_zh, p.category), SEARCH_ALIASES.get(p.name, ()))
    for i, p in enumerate(PRODUCTS)
]


def sku_of(name: str) -> str:
    return next(f"SKU-{1001 + i}" for i, p in enumerate(PRODUCTS) if p.name == name)


def test_every_alias_names_a_catalog_product() -> None:
    names = {p.name for p in PRODUCTS}
    assert set(SEARCH_ALIASES) <= names


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("smart watches", "Smart Watch S3"),  # plural
        ("air fryers", "Air Fryer 5L"),
        ("usb-c cables", "USB-C Cable 2m"),
        ("mens down jacket", "Men's Down Jacket"),  # apostrophe, and not Women's
        ("充电宝", "20000mAh Power Bank"),  # an alias
        ("27 寸 4k 显示器", "27-inch 4K Monitor"),
        ("smart watch s3 chengdu", "Smart Watch S3"),  # no product has every word: best wins
        ("不粘锅", "Non-stick Frying Pan 28cm"),
        ("e-reader beijing wait", "E-book Reader"),  # aliases customers use
        ("cozy hoodie", "Hooded Sweatshirt"),
        ("围巾 不", "Merino Wool Scarf"),  # "不" is no piece of 不锈钢 (the thermos)
        ("200 以内 蓝牙音箱", "Mini Bluetooth Speaker"),  # "200" is no hit in "20000mAh"
    ],
)
def test_a_query_finds_the_product_first(query: str, name: str) -> None:
    assert rank_products(query, CATALOG)[0] == sku_of(name)


def test_mens_does_not_match_womens() -> None:
    assert rank_products("mens down jacket", CATALOG) == [sku_of("Men's Down Jacket")]


def test_products_holding_every_word_come_before_partial_matches() -> None:
    found = rank_products("down jacket", CATALOG)
    assert found == [sku_of("Men's Down Jacket"), sku_of("Women's Down Jacket")]


def test_nothing_matching_finds_nothing() -> None:
    assert rank_products("iphone", CATALOG) == []
    assert rank_products("量子计算机", CATALOG) == []


def test_an_empty_query_lists_everything() -> None:
    assert len(rank_products("", CATALOG)) == len(PRODUCTS)


def test_search_terms_split_chinese_from_english() -> None:
    assert search_terms("Men's 羽绒服 XL") == ["mens", "羽绒服", "xl"]


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("do you have a down jacket?", "down jacket"),
        ("how much are the noise cancelling headphones?", "noise cancelling headphones"),
        ("Is the smart watch S3 available in Chengdu?", "smart watch s3"),
        ("robot vacuum price?", "robot vacuum"),
        ("I want to buy 3 of the wireless mouse", "wireless mouse"),
        ("有没有65W的充电器", "65w 充电器"),
        ("耳机多少钱", "耳机"),
        ("男士羽绒服啥时候有货", "男士羽绒服"),
        ("你们卖空气炸锅吗", "空气炸锅"),
        ("顺便问下耳机多少钱", "耳机"),
        ("另外问下空气炸锅有货吗", "空气炸锅"),
        ("顺便帮我看看有没有充电宝", "充电宝"),
        ("can you tell me the price of the air fryer", "air fryer"),
        ("whether it's in stock", None),
        (
            "what's the difference between the smart watch and the fitness band",
            "smart watch fitness band",
        ),
    ],
)
def test_product_query_keeps_the_product_words(text: str, query: str | None) -> None:
    assert product_query(text) == query


@pytest.mark.parametrize("text", ["do you have any?", "有吗", "多少钱", "in stock?"])
def test_a_question_without_product_words_has_no_query(text: str) -> None:
    assert product_query(text) is None


@pytest.mark.parametrize(
    ("query", "cap", "rest"),
    [
        ("earphones under 500?", 500.0, "earphones  ?"),
        ("budget around 500 kuai", 500.0, ""),
        ("有没有200以内的蓝牙音箱", 200.0, "有没有 的蓝牙音箱"),
        ("再配个一百以内的无线鼠标", 100.0, "再配个 的无线鼠标"),
        ("两千五以内的手机", 2500.0, "的手机"),
        ("不超过300的耳机", 300.0, "的耳机"),
        ("65w charger", None, "65w charger"),
    ],
)
def test_a_price_cap_is_read_and_taken_out_of_the_words(
    query: str, cap: float | None, rest: str
) -> None:
    assert price_cap(query) == (cap, rest)


def test_a_search_with_a_price_cap_keeps_what_costs_no_more(tmp_path: Path) -> None:
    db = tmp_path / "shop.sqlite"
    ensure_seeded(db)
    conn = connect(db)
    found = search_products(conn, "earphones under 500", 10)
    assert found["max_price"] == 500.0
    assert [p["sku"] for p in found["products"]] == [sku_of("True Wireless Earbuds")]
    cheap = search_products(conn, "under 50", 20)["products"]
    assert cheap and all(float(p["price"]) <= 50 for p in cheap)


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("earphones under 500?", "earphones under 500"),
        ("有没有200以内的蓝牙音箱推荐下", "蓝牙音箱 200元以内"),
        ("Do you have anything under 50 yuan?", "under 50"),
    ],
)
def test_the_product_words_keep_the_price_cap(text: str, query: str) -> None:
    assert product_query(text) == query


@pytest.mark.parametrize(
    ("query", "name"),
    [("x12 手机壳", "Clear Phone Case"), ("x12 钢化膜", "Tempered Glass Screen Protector")],
)
def test_one_chinese_word_beside_a_model_is_what_is_wanted(query: str, name: str) -> None:
    # the phone is only what the case fits: the case first, not the X12 phone
    assert rank_products(query, CATALOG)[0] == sku_of(name)


def test_a_budget_in_chinese_tens_is_read() -> None:
    assert price_cap("三十块以下的东西")[0] == 30.0
    assert price_cap("五十块以内的袜子")[0] == 50.0
    assert price_cap("十五块以内")[0] == 15.0
    assert price_cap("一百以内的无线鼠标")[0] == 100.0


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # a word of a phrase alias ("keep hot") said alone names nothing
        ("the app keeps disconnecting", None),
        ("does it keep hot for long", "Stainless Steel Thermos 500ml"),
        ("my thermos leaks", "Stainless Steel Thermos 500ml"),
        ("the fan is so loud I can't sleep", None),
        ("something warm to sleep under", "Winter Down Duvet"),
    ],
)
def test_a_phrase_alias_names_its_product_only_said_whole(text: str, named: str | None) -> None:
    """ "… the app keeps disconnecting" named the thermos ("keep hot"), and a purifier's
    ticket found two orders (none was picked)."""
    from helpdesk.tools.shop.product_search import mention_scores

    scores = mention_scores(text, CATALOG)
    best = max(scores.values(), default=0)
    found = [s for s, v in scores.items() if v == best and best]
    assert found == ([sku_of(named)] if named else [])
