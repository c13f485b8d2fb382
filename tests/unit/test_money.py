"""read_amount: exact amounts in digits and Chinese numerals, "the rest", and invalid amounts that
must be asked about instead of reinterpreted."""

from __future__ import annotations

from decimal import Decimal

import pytest

from helpdesk.graph.money import given_amount, read_amount
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
    "text", ["100609 refund一下", "帮我退一下", "万一退不了呢", "三天了还没退"]
)
def test_chinese_words_with_numerals_are_not_amounts(text: str) -> None:
    assert read_amount(text, money_context=True, packs=SHOP).kind in ("none", "full")


@pytest.mark.parametrize(
    "text",
    [
        "两个都退",
        "再退一台",
        "退一根腰带",
        "100200 退一部分",
        "refund one more item",
        "refund 2 thermoses from 100200",
        "refund 1 curtain",
        "refund some of 100200",
        "refund a tenth of the monitor",
        "refund 269 + 129",
        "100200 退十分之一",
        "100239 退两成",
        "refund 1/2 of 100200",
    ],
)
def test_things_counted_and_parts_unsaid_are_asked_never_yuan(text: str) -> None:
    # session 15: "再退一台" was everything, "退十分之一" ¥1, "refund 1 curtain" ¥1
    assert read_amount(text, money_context=True, packs=SHOP).kind == "invalid"


def test_counts_outside_a_refund_are_no_amount() -> None:
    assert read_amount("I have 2 questions", packs=SHOP).kind == "none"
    assert read_amount("两个都看一下", packs=SHOP).kind == "none"


@pytest.mark.parametrize("text", ["refund 100609 but not the full amount", "不要全退，100609"])
def test_not_the_full_amount_is_asked_about_never_the_whole(text: str) -> None:
    assert read_amount(text, money_context=True, packs=SHOP).kind == "invalid"


@pytest.mark.parametrize(
    "text",
    [
        "keep the air fryer, refund the rest of 100200",
        "I kept the air fryer. refund everything else",
        "refund the rest, I'm keeping the air fryer",
        "空气炸锅留着 剩下的全退",
        "100200除空气炸锅外全退",
        # the number beside "but" is what is kept, never the amount
        "refund everything on 100200 but ¥100",
        "100200除了100块都退",
    ],
)
def test_all_but_something_is_never_the_whole_nor_the_number_kept(text: str) -> None:
    assert read_amount(text, money_context=True, packs=SHOP).kind == "invalid"


@pytest.mark.parametrize("text", ["refund the rest of 100609", "剩下的全退了吧"])
def test_the_rest_alone_is_everything_left(text: str) -> None:
    assert read_amount(text, money_context=True, packs=SHOP).kind == "full"


def test_an_order_number_after_chinese_is_not_an_amount() -> None:
    assert read_amount("退款100609", money_context=True, packs=SHOP).kind == "none"


@pytest.mark.parametrize(
    ("value", "kind", "amount"),
    [
        (None, "none", None),
        (50, "exact", 50.0),
        (50.5, "exact", 50.5),
        (0.01, "exact", 0.01),
        (12.345, "invalid", None),
        (0, "invalid", None),
        (-5, "invalid", None),
        (float("nan"), "invalid", None),
        (float("inf"), "invalid", None),
        (1e308, "invalid", None),  # more digits than an amount has
    ],
)
def test_an_amount_a_model_names_is_held_to_the_customers_rules(
    value: float | None, kind: str, amount: float | None
) -> None:
    reading = given_amount(value)
    assert reading.kind == kind
    assert reading.value == amount


def test_a_model_decomposition_keeps_its_amount() -> None:
    """A model tier's "refund 50 on 100609" was planned as the whole refundable amount: the
    amount reached the match but not its kind."""
    from helpdesk.graph.stages import PlannedTask
    from helpdesk.graph.tiered import matches_from_plan

    packs = default_packs()
    planned = [PlannedTask(intent="refund", order_id="100609", amount=50)]
    (match,) = matches_from_plan(planned, text="x", lang="en", last_subject=None, packs=packs)
    assert (match.amount, match.amount_kind) == (50.0, "exact")
    (bad,) = matches_from_plan(
        [PlannedTask(intent="refund", order_id="100609", amount=-3)],
        text="x",
        lang="en",
        last_subject=None,
        packs=packs,
    )
    assert bad.amount_kind == "invalid" and bad.amount is None


@pytest.mark.parametrize(
    ("text", "amount"),
    [("不要全退 退300就行", "300.00"), ("not the full amount, just 200", "200.00")],
)
def test_read_amount_a_number_beside_not_all_is_the_amount(text: str, amount: str) -> None:
    reading = read_amount(text, money_context=True, packs=SHOP)
    assert reading.kind == "exact" and str(reading.amount) == amount


@pytest.mark.parametrize(("text", "raw"), [("refund 100609 -50", "-50"), ("负50元", "负50")])
def test_an_invalid_amount_is_quoted_back_whole(text: str, raw: str) -> None:
    reading = read_amount(text, money_context=True, packs=SHOP)
    assert reading.kind == "invalid" and reading.raw == raw
