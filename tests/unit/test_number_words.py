"""Amounts written in words, with a unit, corrected or to be worked out (tools/number_words.py
and graph/money.read_amount): never the whole, never ¥1 for "1百", never a guess."""

from __future__ import annotations

from decimal import Decimal

import pytest

from helpdesk.graph.money import read_amount
from helpdesk.packs import default_packs
from helpdesk.tools.number_words import chinese_number, english_number, scaled_number

PACKS = default_packs()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("refund fifty for 100200", 50),
        ("one hundred", 100),
        ("a hundred yuan", 100),
        ("two hundred and fifty", 250),
        ("twenty-five", 25),
        ("twenty five", 25),
        ("one thousand two hundred", 1200),
        ("ninety nine", 99),
    ],
)
def test_english_number_words_are_read(text: str, value: int) -> None:
    found = english_number(text)
    assert found is not None and found[0] == Decimal(value)


@pytest.mark.parametrize("text", ["refund that one", "one more", "the other one", "five six"])
def test_one_alone_or_no_number_is_none(text: str) -> None:
    assert english_number(text) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [("退1百", 100), ("1.5千", 1500), ("3百块", 300), ("2 hundred", 200), ("1 thousand", 1000)],
)
def test_digits_with_a_unit_are_scaled(text: str, value: int) -> None:
    found = scaled_number(text)
    assert found is not None and found[0] == Decimal(value)


def test_a_chinese_unit_followed_by_more_digits_is_left_to_the_numeral_reader() -> None:
    assert scaled_number("退1千2") is None
    assert chinese_number("1千2") == 1200


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("refund fifty for 100200", 50.0),
        ("100200退1百", 100.0),
        ("退1千2", 1200.0),
        ("退三百五", 350.0),
        ("100200退100，不是，退50", 50.0),
        ("100200退100块，不对，50", 50.0),
        ("refund 100, no wait 50", 50.0),
        ("refund 50 for 100200... actually 100", 100.0),
        ("refund two hundred and fifty yuan", 250.0),
    ],
)
def test_read_amount_takes_the_amount_meant(text: str, amount: float) -> None:
    reading = read_amount(text, packs=PACKS, money_context=True)
    assert reading.kind == "exact" and reading.value == amount


@pytest.mark.parametrize(
    "text",
    [
        "refund 100200 minus 100",
        "100200少退100",
        "797-100",
        "refund ten percent",
        "refund 1.5k on 100200",
        "refund 2k",
    ],
)
def test_an_amount_to_work_out_is_invalid_never_exact(text: str) -> None:
    assert read_amount(text, packs=PACKS, money_context=True).kind == "invalid"


@pytest.mark.parametrize(
    "text", ["refund the 4k monitor", "refund that one", "refund 100200 please"]
)
def test_no_amount_is_read_from_product_words_or_pronouns(text: str) -> None:
    assert read_amount(text, packs=PACKS, money_context=True).kind == "none"
