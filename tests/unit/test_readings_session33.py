"""Readings session 33 changed: questions about a return or a refund that planned one, a
complaint already made told of, a thing's parcel beside another order, a product's warehouse,
the hotline instead of a transfer, a language switched back (each reading is what the planner
acts on; executions are counted in tests/integration/test_session33_turns.py)."""

from __future__ import annotations

import pytest

from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import kind_of, match_shop, order_of

SHOP = default_packs()


def kinds(text: str) -> list[str]:
    return [str(kind_of(m)) for m in match_shop(text, packs=SHOP)]


def read(text: str) -> list[tuple[str, str | None]]:
    return [(str(kind_of(m)), order_of(m)) for m in match_shop(text, packs=SHOP)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a return weighed or asked about: the policy, never a ticket
        ("I'm thinking of returning the down jacket I bought", ["faq"]),
        ("I might return the thermos", ["faq"]),
        ("if I return the air fryer, do I get 399 back?", ["faq", "faq"]),
        ("do I get 399 back", ["faq"]),
        # whether a refund can still be had on a thing: its order looked at, never a refund
        ("can I still get a refund on the purifier?", ["order_status"]),
        (
            "can I still get a refund on the purifier if I already threw the box away?",
            ["order_status"],
        ),
        # how a refund comes back, asked: the policy
        ("is the refund automatic?", ["faq"]),
        ("钱是自动退吗还是要我自己申请", ["faq"]),
        ("797那单里的炸锅要是退了 是退399吗", ["faq"]),
        ("how many days does it take to reach my bank card?", ["faq"]),
    ],
)
def test_questions_about_money_back_plan_no_write(text: str, expected: list[str]) -> None:
    """Each was a refund or an after-sales ticket planned from a question."""
    assert kinds(text) == expected


def test_which_orders_can_still_be_returned_looks_at_each() -> None:
    """ "which of them can I still return?" planned a ticket on each order."""
    assert read("pls check both 100609 and 100200 - which of them can I still return?") == [
        ("order_status", "100609"),
        ("order_status", "100200"),
    ]


def test_a_complaint_already_made_is_told_of_not_filed() -> None:
    """ "I can see a complaint was already opened about it" filed a new complaint (and was
    later said to be unread); the status of that complaint is what is asked."""
    text = (
        "I can see a complaint was already opened about it. What's the status of that "
        "complaint, and where is the parcel actually right now?"
    )
    assert sorted(kinds(text)) == ["ticket_status", "tracking"]


def test_a_thing_late_is_its_parcel() -> None:
    """ "the screen protector was supposed to arrive on Oct 31" was the delivery-times policy."""
    assert kinds("the screen protector was supposed to arrive on Oct 31") == ["tracking"]


@pytest.mark.parametrize(
    "text", ["手表是从哪个仓发货的", "Which warehouse does the smart watch ship from?"]
)
def test_a_products_warehouse_is_asked_of_the_product(text: str) -> None:
    """A product's warehouse was read as the customer's orders (or nothing)."""
    assert kinds(text) == ["stock"]


@pytest.mark.parametrize("text", ["钢化膜到底从哪个仓发的 啥时候能到天津", "我的耳机从哪个仓发的"])
def test_where_a_bought_things_parcel_ships_from_is_the_parcel(text: str) -> None:
    """A pin: the customer's own parcel is no catalogue question."""
    assert kinds(text) == ["tracking"]


def test_a_number_to_call_instead_of_a_transfer() -> None:
    """ "不用转人工 给个电话就行" was a bare no."""
    assert kinds("不用转人工 给个电话就行 我晚上自己打") == ["hotline"]


def test_can_it_be_repaired_is_the_warranty() -> None:
    assert kinds("能修吗") == ["faq"]
    # ("your app keeps crashing, can you fix it": nothing of the shop's to repair)
    assert kinds("btw your app keeps crashing, can you fix it") != ["faq"]


def test_an_order_named_by_a_thing_in_it_is_looked_at() -> None:
    """ "what's in the phone order exactly and how much was it" was two unread parts."""
    assert kinds("what's in the phone order exactly and how much was it") == ["order_status"]


def test_typos_of_arrived_and_when() -> None:
    assert sorted(kinds("我的膜到拉没 炸锅啥时侯发货")) == ["order_status", "tracking"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a parcel's day asked before the order's number said alone: that order's parcel
        ("明天能到吗 100683", [("tracking", "100683")]),
        # (a pin: where the shop delivers is the policy beside the looks)
        (
            "Can you check on 100200 as well as 100609, and tell me if you ship to Macau",
            [("order_status", "100200"), ("order_status", "100609"), ("faq", None)],
        ),
        # a refund made, its arrival asked after: the order it is of (looked up by it)
        ("did the 433 reach my account?", [("order_status", None)]),
        # an unpaid order lapsing, asked
        ("How long do I have before it gets cancelled automatically?", [("faq", None)]),
        # refusing the parcel at the door, asked: the policy
        ("if I refuse the screen protector at the door, do I get my 29 back?", [("faq", None)] * 2),
    ],
)
def test_readings_of_order_and_money_questions(
    text: str, expected: list[tuple[str, str | None]]
) -> None:
    assert read(text) == expected


def test_a_problem_announced_after_a_hello_is_asked_about() -> None:
    """ "hi, I have a problem" was only greeted."""
    assert kinds("hi, I have a problem") == ["greeting", "unknown"]
    assert kinds("hi, I have a problem with 100683, where is it") == ["greeting", "tracking"]


def test_appreciation_is_thanks() -> None:
    said = (
        "I really appreciate you sorting out the whole mess today. do gold members get free "
        "shipping? Bye!"
    )
    assert kinds(said) == ["thanks", "faq", "goodbye"]


def test_two_parcels_named_by_their_things_are_two_looks() -> None:
    """ "膜到哪了 还有净化器的快递单号发我下" was one look (the purifier's parcel dropped)."""
    assert kinds("你好 钢化膜到哪了 还有净化器的快递单号发我下 保险要用") == [
        "greeting",
        "tracking",
        "tracking",
    ]


def test_two_orders_described_are_two_looks() -> None:
    """The air fryer's order, described as "the air fryer one I placed yesterday", was dropped
    beside the phone's."""
    text = (
        "has the phone/monitor order shipped yet? and the air fryer one I placed yesterday, did "
        "the payment go through?"
    )
    assert kinds(text) == ["order_status", "order_status"]


@pytest.mark.parametrize(
    "text",
    [
        "will I be refunded for the missing plates?",
        "am I able to get a refund on the air fryer?",
        "can you refund me for the chipped plates or do I need to send them back?",
        "can the plates be refunded?",
        "any chance of a refund on the purifier?",
        "is it too late to get a refund on the air fryer from august?",
        "the thermos leaks and my bag got soaked, so can I get a refund?",
        "the plates arrived chipped. do I have to ask for a refund or is it automatic?",
        "the screen protector never came. does that mean I get a refund?",
        "is the refund for the purifier going to be the full amount?",
        "my purifier broke, would the refund be 1299 or less since you already refunded some?",
        "if I keep the plates can you refund part of it?",
        "我能申请退款吗",
        "100609我能申请退款吗",
    ],
)
def test_a_question_whether_money_comes_back_plans_no_refund(text: str) -> None:
    """Each planned a refund (a hurried yes to the offer would have paid it)."""
    assert "refund" not in kinds(text)
    assert "unknown" not in kinds(text)


@pytest.mark.parametrize(
    "text", ["refund 100609 please", "can I get a refund of ¥50 on 100200", "退100609"]
)
def test_a_refund_asked_for_is_still_one(text: str) -> None:
    """A pin: a refund asked for (an amount named, or told) is offered as before."""
    assert kinds(text) == ["refund"]


def test_what_is_told_beside_a_transfer_asks_no_policy() -> None:
    """ "… It came damaged, you refunded part of it, fine, but now there's a burning smell when
    it runs … Get me a real person please." answered the refund-time policy beside the transfer
    (the "when" of "when it runs"); the person reached reads the story."""
    english = (
        "This is the third time I'm writing about the same purifier. It came damaged, you refunded "
        "part of it, fine, but now there's a burning smell when it runs for more than an hour and "
        "I'm scared to leave it on. I'm not going through a chatbot for this again. Get me a real "
        "person please."
    )
    assert kinds(english) == ["handoff"]
    # (a question beside the transfer is still answered)
    assert kinds("get me a human, and what's your return policy") == ["handoff", "faq"]


def test_a_fault_beside_the_refund_it_wants_offers_no_ticket() -> None:
    """The wrong item told was offered a ticket beside the refund asked for it."""
    text = (
        "I ordered a memory foam pillow and a garment steamer together. The steamer box had a hair "
        "straightener in it, completely the wrong item. so just refund the steamer please."
    )
    assert "create_ticket" not in kinds(text)
    # (a replacement asked for beside a refund is a ticket of its own)
    both = "my headphones from 100200 stopped working!!! want a replacement asap and also a refund"
    assert "create_ticket" in kinds(both)
    # ("这个能退吗 … 直接给我退款吧": the refund asked answers whether it can be)
    assert kinds("不粘锅掉涂层了 这个能退吗 我是真不想要了 直接给我退款吧") == ["refund"]


@pytest.mark.parametrize(
    "text",
    [
        "hold off on the refund for now, I might keep the plates",
        "I don't want you to refund the thermos, I want to know why it leaks",
        "can you tell me how the refund for the purifier was calculated? I don't want another one",
        "is it worth asking for a refund on the thermos or is it covered by warranty?",
        "would refunding the thermos affect my other order?",
        "not sure yet — can you hold the refund for the thermos until I decide?",
        "hold off on cancelling 100998, I need to think",
        "I don't want you to cancel anything, just tell me when 100998 ships",
    ],
)
def test_a_write_held_weighed_or_refused_is_never_planned(text: str) -> None:
    """Each planned the refund or cancel it held off, weighed or refused."""
    assert not {"refund", "cancel_order"} & set(kinds(text))


@pytest.mark.parametrize(
    "text",
    [
        "I'm not after a refund, I just want to know why it took so long",
        "the purifier makes noise again. I don't want another partial refund, I want it fixed",
        "can I still get a refund if the box is opened?",
        "could I still get a refund after 7 days if it's faulty?",
    ],
)
def test_a_refund_not_wanted_or_only_wondered_about_is_not_offered(text: str) -> None:
    assert "refund" not in kinds(text)


def test_two_parcels_asked_of_by_their_things_in_english() -> None:
    """ "where's the screen protector, and what's the tracking number of the purifier parcel?"
    dropped the screen protector (its clause was read by nothing)."""
    text = (
        "Two things: where's the screen protector, and what's the tracking number of the "
        "purifier parcel?"
    )
    assert kinds(text) == ["tracking", "tracking"]


def test_whether_an_order_was_cancelled_is_its_status() -> None:
    text = "The wool scarf I almost bought in August - was that order cancelled properly?"
    assert kinds(text) == ["order_status"]


def test_hasnt_shipped_yet_right_and_the_usual_days() -> None:
    """ "手机那单还没发吧 另外寄到杭州一般几天能到" was one look at the parcel (the usual delivery
    days to Hangzhou folded into it)."""
    assert kinds("手机那单还没发吧 另外寄到杭州一般几天能到") == ["order_status", "faq"]


def test_a_cancel_made_before_is_told_not_asked() -> None:
    """ "八月份那个围巾我后来取消了 …" planned a cancel of the scarf's (already cancelled) order."""
    text = (
        "八月份那个围巾我后来取消了 可我记得信用卡账单上好像扣了199 到底扣没扣啊 围巾现在还有货吗"
    )
    assert "cancel_order" not in kinds(text)
    assert kinds("取消100904") == ["cancel_order"]


def test_the_other_branch_of_a_condition_takes_nothing_back() -> None:
    """ "If it hasn't, cancel it. If it's already on the way, leave it" was read as the cancel
    taken back (a bare no): the conditional cancel was lost."""
    text = (
        "Has 100998 shipped yet? If it hasn't, cancel it. If it's already on the way, leave it "
        "and I'll deal with it when it arrives."
    )
    assert read(text)[:2] == [("order_status", "100998"), ("cancel_order", "100998")]
    # (a pin: "…, actually no, leave it" takes it back)
    assert kinds("cancel 100998, actually no, leave it") == ["confirm_no"]
