"""Readings session 27 changed: the refund time asked beside a write, a replacement refused, the
order meant instead described while an action waits (each reading is what the planner acts on;
executions are counted in tests/integration/test_session27_turns.py)."""

from __future__ import annotations

import pytest

from helpdesk.graph.intents import Intent
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import kind_of, match_shop, order_of

SHOP = default_packs()
REFUND_WAITING = ("request_refund refund",)


def read(text: str, *, waiting: tuple[str, ...] = ()) -> list[tuple[str, str | None]]:
    found = match_shop(text, packs=SHOP, awaiting_confirmation=bool(waiting), waiting=waiting)
    return [(str(kind_of(m)), order_of(m)) for m in found]


@pytest.mark.parametrize(
    "text",
    [
        "please cancel 100998 if its not shipped yet and tell me when i get my money back",
        "cancel 100998 and tell me when i get my money back",
        "取消100998 钱多久能回来",
    ],
)
def test_when_the_money_comes_back_beside_a_cancel_is_the_refund_time(text: str) -> None:
    found = match_shop(text, packs=SHOP)
    assert [(kind_of(m), m.topic) for m in found] == [
        ("cancel_order", None),
        ("faq", "refund_time"),
    ]


def test_when_the_money_comes_back_for_an_order_named_is_that_order() -> None:
    assert read("when i get my money back for 100609?") == [("order_status", "100609")]


@pytest.mark.parametrize(
    "text",
    ["refund 100200, I don't want a replacement", "refund 100200, no replacement please"],
)
def test_a_replacement_refused_is_no_ticket(text: str) -> None:
    assert read(text) == [("refund", "100200")]


def test_a_replacement_refused_alone_asks_nothing_of_after_sales() -> None:
    assert [m.intent for m in match_shop("I don't want a replacement", packs=SHOP)] == [
        Intent.UNKNOWN
    ]


@pytest.mark.parametrize(
    "text",
    [
        "不对，是另一单，净化器那个",
        "no, the purifier order",
        "no wait, the other order, the purifier one",
    ],
)
def test_another_order_described_while_a_refund_waits_is_that_refund(text: str) -> None:
    (found,) = match_shop(text, packs=SHOP, awaiting_confirmation=True, waiting=REFUND_WAITING)
    assert kind_of(found) == "refund"
    assert found.args.get("order_id") is None  # (the resolver finds the order described)


@pytest.mark.parametrize(
    "text",
    [
        "no, the purifier order is fine",
        "no, was the purifier order refunded?",
        "no, for 100609",  # (a number: the engine's own subject correction)
        "no",
    ],
)
def test_no_other_order_asked_for_is_left_to_the_confirmation(text: str) -> None:
    found = match_shop(text, packs=SHOP, awaiting_confirmation=True, waiting=REFUND_WAITING)
    assert all(kind_of(m) != "refund" for m in found)
