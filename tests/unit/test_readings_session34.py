"""Readings session 34 changed: an address change let go, thanks said after an order number,
a Chinese request after an emoji, a thing's parcel beside another order named, "有进展没"
ending a question (each reading is what the planner acts on; whole turns are in
tests/integration/test_session34_turns.py)."""

from __future__ import annotations

import pytest

from helpdesk.graph.conversation import clause_spans, normalize
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import kind_of, match_shop, order_of
from helpdesk.packs.shop.words import tracked_product

SHOP = default_packs()


def kinds(text: str) -> list[str]:
    return [str(kind_of(m)) for m in match_shop(text, packs=SHOP)]


def clauses(text: str) -> list[str]:
    norm = normalize(text)
    return [norm[a:b] for a, b in clause_spans(norm)]


@pytest.mark.parametrize(
    "text",
    [
        "no need to change the address after all, she'll pick it up at my place",
        "don't change the address",
        "keep the original address",
        "不改了",
        "地址不改了",
        "地址不用改了",
    ],
)
def test_an_address_change_let_go_is_a_no(text: str) -> None:
    """Each was read as nothing (the menu) or as the address change itself."""
    assert kinds(text) == ["confirm_no"]


@pytest.mark.parametrize(
    "text", ["can I change the address of 100998?", "100998能不能改地址", "100998还能改地址吗"]
)
def test_an_address_change_asked_is_still_asked(text: str) -> None:
    """A pin: asking whether it can change is no refusal."""
    assert "confirm_no" not in kinds(text)


def test_a_language_switch_beside_an_address_let_go_is_both() -> None:
    assert kinds(
        "ok back to English please, and no need to change the address after all, she'll pick it"
        " up at my place"
    ) == ["language", "confirm_no"]


def test_thanks_said_beside_a_no_is_not_lost() -> None:
    """ "算了 不改了 谢谢": the thanks went with the "算了" taken as an okay."""
    assert sorted(kinds("算了 不改了 谢谢")) == ["confirm_no", "thanks"]


def test_thanks_after_an_order_number_is_said_apart() -> None:
    assert clauses("whats the eta for 100683 and 100998 thx") == [
        "whats the eta for 100683 and 100998",
        "thx",
    ]
    assert kinds("whats the eta for 100683 and 100998 thx") == [
        "tracking",
        "tracking",
        "thanks",
    ]


def test_no_thanks_stays_one_clause() -> None:
    assert clauses("no thanks") == ["no thanks"]


def test_a_request_after_an_emoji_is_its_own() -> None:
    """The space after "😤" ended nothing: the whole message was one address question."""
    assert clauses("我说了半天你到底是不是人啊😤 100998能不能改地址") == [
        "我说了半天你到底是不是人啊😤",
        "100998能不能改地址",
    ]
    assert kinds("我说了半天你到底是不是人啊😤 100998能不能改地址")[0] == "identity"


def test_progress_asked_ends_a_question() -> None:
    assert clauses("T-000031有进展没 快递动了没") == ["t-000031有进展没", "快递动了没"]


@pytest.mark.parametrize(
    "text",
    [
        "Did my down jacket get delivered",
        "has my down jacket arrived",
        "did the down jacket arrive",
        "is my down jacket here yet",
    ],
)
def test_a_thing_asked_whether_it_came_is_tracked_by_its_name(text: str) -> None:
    assert tracked_product(text) == "down jacket"


def test_a_things_parcel_beside_another_order_named_is_its_own_look() -> None:
    """ "Did my down jacket get delivered? And the pillow order too, 100452": the jacket took
    100452 and the two looks were one."""
    found = match_shop(
        "Hi, Emma here. Did my down jacket get delivered? And the pillow order too, 100452",
        packs=SHOP,
    )
    looks = [m for m in found if str(kind_of(m)) == "tracking"]
    assert len(looks) == 2
    named = [order_of(m) for m in looks if not m.inferred_order]
    assert named == ["100452"]  # the jacket's order is looked up by its words


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("净化器剩下那部分钱也退给我吧", "full"),
        ("剩下那部分也退了吧", "full"),
        ("退一部分钱", "invalid"),
        ("退部分钱", "invalid"),
        ("剩下那部分我留着", "none"),
    ],
)
def test_what_is_left_of_it_is_all_of_it(text: str, expected: str) -> None:
    """ "剩下那部分钱" was read as "部分钱" (part of it, how much asked): what is left is all."""
    from helpdesk.graph.money import read_amount

    assert read_amount(text, money_context=True, packs=SHOP).kind == expected


def test_a_things_refund_beside_an_order_named_is_its_own() -> None:
    """The purifier's refund took 100200 (named for the thermos) and the two were one."""
    found = match_shop(
        "净化器剩下那部分钱也退给我吧 机器我不想要了 另外100200里的保温杯也退了 129那个",
        packs=SHOP,
    )
    refunds = [m for m in found if str(kind_of(m)) == "refund"]
    assert len(refunds) == 2
    assert [order_of(m) for m in refunds if not m.inferred_order] == ["100200"]


def test_how_much_said_beside_a_refund_is_no_refund_of_its_own() -> None:
    """A pin: "不用全退" beside the refund it qualifies stays that one refund."""
    found = match_shop("100200 退我120就行 餐具有两个碗磕了口子 不用全退 谢谢啦", packs=SHOP)
    assert [str(kind_of(m)) for m in found].count("refund") == 1


@pytest.mark.parametrize(
    "text",
    [
        "炸锅那个订单是不是还没付",
        "我的炸锅订单付了没",
        "is my air fryer order paid",
        "did I pay for the air fryer order",
    ],
)
def test_whether_an_order_described_is_paid_is_its_state(text: str) -> None:
    """Each was read as nothing (the menu)."""
    assert kinds(text) == ["order_status"]


@pytest.mark.parametrize(
    "text",
    [
        "do u refund thermoses? mine leaks",
        "do you refund opened items?",
        "do you guys do refunds on sale items",
        "你们退款吗",
    ],
)
def test_whether_the_shop_refunds_is_the_policy(text: str) -> None:
    """Each planned a refund (¥129 offered for the thermos) from a question about the policy."""
    assert "refund" not in kinds(text)
    assert "faq" in kinds(text)
