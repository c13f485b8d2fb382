"""Readings session 32 changed: requests counted off by number, a thanks or goodbye at the end,
what is left to refund asked of an order named or described (each reading is what the planner
acts on; executions are counted in tests/integration/test_session32_turns.py)."""

from __future__ import annotations

import pytest

from helpdesk.graph.conversation import clause_spans, normalize
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import kind_of, match_shop, order_of

SHOP = default_packs()


def kinds(text: str) -> list[str]:
    return [str(kind_of(m)) for m in match_shop(text, packs=SHOP)]


def read(text: str) -> list[tuple[str, str | None]]:
    return [(str(kind_of(m)), order_of(m)) for m in match_shop(text, packs=SHOP)]


def clauses(text: str) -> list[str]:
    norm = normalize(text)
    return [norm[s:e].strip(" ,") for s, e in clause_spans(norm)]


def test_requests_counted_off_by_number_are_each_read() -> None:
    """Only the transfer was read; the parcel and the stock question were dropped."""
    text = (
        "lol the bot again. ok: 1 where's the screen protector, 2 I want a human for the "
        "chipped plates, 3 is the dinnerware set back in stock"
    )
    assert sorted(kinds(text)) == ["handoff", "stock", "tracking"]


@pytest.mark.parametrize(
    "text", ["I need 1 pillow, 2 towels", "refund 1 of the 2 plates", "2 thermos 1 kettle"]
)
def test_numbers_counting_things_split_nothing(text: str) -> None:
    assert len(clauses(text)) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ok I'll wait then. thank you, goodbye", ["thanks", "goodbye"]),
    ],
)
def test_a_goodbye_at_the_end_is_answered_too(text: str, expected: list[str]) -> None:
    assert kinds(text) == expected


@pytest.mark.parametrize("text", ["no thanks", "ok thanks"])
def test_a_bare_answer_with_thanks_stays_one_clause(text: str) -> None:
    assert clauses(text) == [text]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("100609还剩多少没退", [("order_status", "100609")]),
        (
            "扫地机器人有货吗？另外净化器那单的退款成功了没",
            [("stock", None), ("order_status", None)],
        ),
        ("那台净化器，还能退多少钱？", [("order_status", None)]),
        ("how much can I still get back?", [("order_status", None)]),
    ],
)
def test_what_is_left_to_refund_is_a_look_at_the_order(
    text: str, expected: list[tuple[str, str | None]]
) -> None:
    """Was a stock count, the refund-time policy or the list of orders: the order named is
    looked at, one described is looked up before planning (naming none, the list is shown)."""
    assert read(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the courier asked about beside a look (the clause was left unread)
        (
            "my phone and monitor order - any tracking number yet? btw do you ship with SF",
            ["tracking", "faq"],
        ),
        ("你们发顺丰吗", ["faq"]),
        # the order's number asked for (a tracking look, or unread)
        ("what's my order number for the monitor?", ["order_status"]),
        ("顺便告诉我一下那个订单号，我找不到了", ["order_status"]),
        # why the parcel is stuck (unread)
        ("I want to know why it's stuck", ["tracking"]),
        # a ticket asked after, then the parcel (the parcel was folded in as the complaint's reason)
        ("我之前投诉的工单怎么样了？包裹还是没动", ["ticket_status", "tracking"]),
    ],
)
def test_questions_beside_others_are_each_read(text: str, expected: list[str]) -> None:
    assert kinds(text) == expected


def test_a_write_asked_in_both_halves_of_a_question_is_asked_for() -> None:
    """ "could I cancel 100998 and refund 100609?": the first half is read as asked for, so is
    the second (never the refund policy in its place)."""
    assert read("could I cancel 100998 and refund 100609?") == [
        ("cancel_order", "100998"),
        ("refund", "100609"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the cancel was made a look ("if the monitor ships this week" read as a day it waits on)
        (
            "please cancel 100904 and tell me if the monitor ships this week",
            [("cancel_order", "100904"), ("order_status", None)],
        ),
        # the look at the monitor took the cancel's order
        (
            "cancel 100904 and when does the monitor ship",
            [("cancel_order", "100904"), ("order_status", None)],
        ),
        # the thing's shipping was dropped beside the parcel asked after
        ("100683到哪了 显示器啥时候发货", [("tracking", "100683"), ("order_status", None)]),
        # the policy, not a thing
        ("你们什么时候发货", [("faq", None)]),
    ],
)
def test_when_a_thing_ships_is_asked_of_its_own_order(
    text: str, expected: list[tuple[str, str | None]]
) -> None:
    assert read(text) == expected
