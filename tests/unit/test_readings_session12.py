"""How the shop pack reads messages session 12's batches showed it misread: complaints beside a
late delivery, corrections and take-backs midway, budgets, when people work, policy follow-ups
(each reading is what the planner acts on; executions are counted in test_trust_words.py)."""

from __future__ import annotations

import pytest

from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import kind_of, match_shop

SHOP = default_packs()


def kinds(text: str) -> list[str]:
    return [str(kind_of(m)) for m in match_shop(text, packs=SHOP)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a complaint about a late delivery: offered (after a yes) beside the look at it
        ("3rd time asking. WHERE IS MY PARCEL. worst online shopping experience honestly",
         ["tracking", "create_ticket"]),
        ("你们这物流也太慢了吧 钢化膜一个礼拜了还在成都 差评", ["tracking", "create_ticket"]),
        ("什么破快递", ["create_ticket"]),
        # ... but beside another request the unhappiness is about that request
        ("can I get a refund on 100609? honestly the worst", ["order_status"]),
        ("refund 100609 please. honestly the worst", ["refund"]),
    ],
)  # fmt: skip
def test_unhappiness_about_a_delivery(text: str, expected: list[str]) -> None:
    assert kinds(text) == expected


def test_the_complaint_beside_a_look_is_vented_and_about_its_order() -> None:
    found = match_shop("where is 100683? worst service ever", packs=SHOP)
    complaint = [m for m in found if str(kind_of(m)) == "create_ticket"]
    assert len(complaint) == 1 and complaint[0].args.get("vented")
    assert complaint[0].args.get("order_id") == "100683"


@pytest.mark.parametrize(
    ("text", "order_id"),
    [
        ("pls cancel 100998... actually no keep that one, it's the air fryer one 100904 i want it "
         "gone", "100904"),
        ("帮我取消100904，哦不对，是100998，炸锅那个我还要的", "100998"),
        ("帮我查下100998发货没 另外100904取消掉 不要了", "100904"),
    ],
)  # fmt: skip
def test_the_cancel_asked_about_is_the_one_meant(text: str, order_id: str) -> None:
    cancels = [m for m in match_shop(text, packs=SHOP) if str(kind_of(m)) == "cancel_order"]
    assert [m.args.get("order_id") for m in cancels] == [order_id]


@pytest.mark.parametrize(
    "text",
    [
        "cancel 100904 - actually wait no, keep it, I'll pay tonight",
        "Pls cancel 100683 ... oh wait it's already shipped right? then just tell me where it is",
        "取消100904，算了",
        "100609的净化器噪音很大 算了 先不报修了 你告诉我保修期多久就行",
        "别给我新建工单了，我就想知道原来那个还开着没",
    ],
)
def test_a_write_taken_back_midway_is_no_write(text: str) -> None:
    assert not {"cancel_order", "refund", "create_ticket", "handoff"} & set(kinds(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("你们周末有人工吗？电话多少", ["hotline"]),
        ("do you have human agents on weekends?", ["hotline"]),
        ("转人工", ["handoff"]),
        ("退货要几天内申请啊 换货呢", ["faq", "faq"]),
        ("what about exchanges?", ["faq"]),
        ("早上好！帮我看看100609还能不能退货", ["greeting", "order_status"]),
        ("earphones under 500?", ["stock"]),
        ("want a mechanical keyboard for coding and a wireless mouse to go with it, prices?",
         ["stock", "stock"]),
        ("need a decent kitchen knife for someone who loves cooking, what do you recommend",
         ["stock"]),
        ("any air fryers left? I want to get one for my mum", ["stock"]),
    ],
)  # fmt: skip
def test_questions_read_as_questions(text: str, expected: list[str]) -> None:
    assert kinds(text) == expected


def test_two_policy_questions_in_one_clause_are_both_answered() -> None:
    found = match_shop("怎么自己在app上取消订单 取消了钱会自动退吗", packs=SHOP)
    assert sorted(m.topic or "" for m in found) == ["cancel_order", "refund_time"]


def test_a_budget_said_alone_narrows_the_search_before_it() -> None:
    (_greeting, search) = match_shop(
        "hi 👋 gift idea for a friend who runs marathons? budget around 500 kuai", packs=SHOP
    )
    assert str(kind_of(search)) == "stock" and "500" in search.text


def test_a_cancel_on_a_condition_of_payment_is_only_if_unpaid() -> None:
    """ "要是没付就取消吧": the shop cancels a paid order too — the cancel carries the condition
    (its precheck asks only about an unpaid order; session 21, was: only the order shown)."""
    (cancel,) = match_shop("100998要是没付就取消吧", packs=SHOP)
    assert str(kind_of(cancel)) == "cancel_order" and cancel.args.get("if_unpaid") is True
    assert "order_status" in kinds("100904付了没 我记得付了 要是没付就取消吧")
