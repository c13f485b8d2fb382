"""read_amount: exact amounts in digits and Chinese numerals, "the rest", and invalid amounts that
must be asked about instead of reinterpreted."""

from __future__ import annotations

from decimal import Decimal

import pytest

from helpdesk.graph.money import read_amount
from helpdesk.packs import default_packs

SHOP = default_packs()


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("订单100609退款一百元", "100.00"),
        ("退款三百五十块钱", "350.00"),
        ("退1千2块", "1200.00"),
        ("两百块", "200.00"),
        ("一百零五元", "105.00"),
        ("退款一万五", "15000.00"),
        ("¥1,299.50", "1299.50"),
        ("refund 50 yuan on 100609", "50.00"),
        ("refund of 12.5 for order 100200", "12.50"),
        ("退 100", "100.00"),
    ],
)
def test_read_amount_reads_exact_amounts(text: str, amount: str) -> None:
    reading = read_amount(text, packs=SHOP)
    assert (reading.kind, reading.amount) == ("exact", Decimal(amount))


@pytest.mark.parametrize(
    "text",
    [
        "-5",
        "refund -5",
        "12.345",
        "1e3",
        "refund 1e308",
        "50%",
        "half of it",
        "退一半",
        "退款0元",
        "Infinity",
        "负50元",
        "百分之五十",
    ],
)
def test_read_amount_flags_invalid_amounts_instead_of_guessing(text: str) -> None:
    assert read_amount(text, money_context=True, packs=SHOP).kind == "invalid"


@pytest.mark.parametrize("text", ["the rest", "refund all of it", "全部退了吧", "全额退款"])
def test_read_amount_reads_everything_left(text: str) -> None:
    assert read_amount(text, packs=SHOP).kind == "full"


@pytest.mark.parametrize(
    "text", ["refund order 100609", "退款 订单100200", "refund SKU-1001", "ticket T-000031 refund"]
)
def test_read_amount_never_takes_an_identifier_for_an_amount(text: str) -> None:
    assert read_amount(text, money_context=True, packs=SHOP).kind == "none"


def test_read_amount_reads_a_bare_number_only_in_a_money_context() -> None:
    assert read_amount("yes but only 100", packs=SHOP).kind == "exact"
    assert read_amount("I have 2 questions", packs=SHOP).kind == "none"
    assert read_amount("只要三百五", money_context=True, packs=SHOP).amount == Decimal("350.00")


@pytest.mark.parametrize(
    "text", ["100609 refund一下", "帮我退一下", "两个都看一下", "万一退不了呢", "三天了还没退"]
)
def test_chinese_words_with_numerals_are_not_amounts(text: str) -> None:
    assert read_amount(text, money_context=True, packs=SHOP).kind in ("none", "full")


@pytest.mark.parametrize("text", ["refund 100609 but not the full amount", "不要全退，100609"])
def test_not_the_full_amount_is_asked_about_never_the_whole(text: str) -> None:
    assert read_amount(text, money_context=True, packs=SHOP).kind == "invalid"


def test_an_order_number_after_chinese_is_not_an_amount() -> None:
    assert read_amount("退款100609", money_context=True, packs=SHOP).kind == "none"
