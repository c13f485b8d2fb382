"""How the shop pack reads messages session 13's batches showed it misread: refund ids, refund
questions about a described order, parcels by what is wrong with them, mistyped order numbers,
an action named as not meant, a sum or a comparison beside a product (each reading is what the
planner acts on; executions are counted in tests/integration/test_session13_turns.py)."""

from __future__ import annotations

import pytest

from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import extract_entities, kind_of, match_shop, order_of
from helpdesk.packs.shop.words import product_query

SHOP = default_packs()


def read(text: str) -> list[tuple[str, str | None]]:
    return [(str(kind_of(m)), order_of(m)) for m in match_shop(text, packs=SHOP)]


def test_a_refund_number_is_no_order_number() -> None:
    assert extract_entities("still waiting on refund R-000094, did it go through?").order_ids == ()
    assert extract_entities("S-000123 shipment").order_ids == ()
    assert extract_entities("order 100609 and R-000094").order_ids == ("100609",)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a look at an order, corrected for a mistyped number: only the corrected one
        ("where's order 100698 - sorry, typo, 100683. and 100609 too",
         [("tracking", "100683"), ("tracking", "100609")]),
        ("查下100200 不对 我是说100609的物流", [("tracking", "100609")]),
        # ... but "actually" alone adds an order, it corrects none
        ("where's 100683, actually 100609 too", [("tracking", "100683"), ("tracking", "100609")]),
        # the action named as not meant is no request
        ("oops i meant refund not cancel for 100609 - 100 yuan please", [("refund", "100609")]),
        ("说错了 100609不是取消是退款 退100", [("refund", "100609")]),
        # "I didn't cancel it" / "我没点取消啊": what the customer did not do, never a cancel
        ("Order 100181 - why was it cancelled? I didn't cancel it!",
         [("order_status", "100181"), ("confirm_no", None)]),
        ("围巾那单怎么被取消了？我没点取消啊", [("order_status", None), ("confirm_no", None)]),
        # how long it has been is no product of the parcel asked after
        ("我的快递到底还要等多久！！！都六天了", [("tracking", None)]),
        # "how much in total" beside an order's contents asks about the order, no product
        ("100998里买了啥 一共多少钱 100904呢",
         [("order_status", "100998"), ("order_status", "100904")]),
        # a write taken back by a later "forget it", wherever its words ended up
        ("hey, two things: where's my phone order, and can you refund the 433 I was charged on "
         "the purifier?? wait no, that one was already refunded, forget it. just the phone",
         [("greeting", None), ("tracking", None), ("confirm_no", None)]),
        # (the order let go is said to be left alone, session 14)
        ("cancel 100904. never mind, cancel 100998 instead",
         [("confirm_no", "100904"), ("cancel_order", "100998")]),
        ("cancel 100904. never mind", [("confirm_no", None)]),
        # a refund asked for now, its delay the reason (not a question about a refund's progress)
        ("一个29块的膜寄了快一个礼拜还没到 直接退了吧", [("refund", None)]),
        # (session 31: the customer's refunds, each with its state and how long one takes)
        ("退款还没到 能不能快点", [("order_status", None)]),
        ("What happened to my scarf order?", [("order_status", None)]),
        # thanks and goodbye in one breath: both answered
        ("谢谢 拜拜", [("thanks", None), ("goodbye", None)]),
        ("Thanks, bye!", [("thanks", None), ("goodbye", None)]),
        # "nothing else" beside thanks or a goodbye closes, it declines nothing
        ("谢谢啦 没别的事了 拜拜", [("thanks", None), ("goodbye", None)]),
        ("nah I'm good, don't need anything else", [("confirm_no", None)]),
        # "could you check where my ... parcel is": the look asked inside a request
        ("could you check where my screen protector parcel is", [("tracking", None)]),
        # a status question naming no order beside a look at the parcel is about that parcel
        ("物流还停在成都，能不能帮我催一下", [("tracking", None)]),
        # a complaint made, asked after; a complaint made now is no question
        ("物流慢的那个投诉有进展吗", [("ticket_status", None)]),
        ("我之前的投诉处理了吗", [("ticket_status", None)]),
        ("我要投诉 快递太慢 处理一下", [("create_ticket", None)]),
        ("is my complaint resolved?", [("ticket_status", None)]),
        ("please file my complaint and get it handled", [("create_ticket", None)]),
        # "nothing else" beside a cancel closes the message, the cancel still stands
        ("取消100904吧，谢谢，没别的事了",
         [("cancel_order", "100904"), ("thanks", None), ("goodbye", None)]),
        # an exchange asked how, and what a return costs: the policies
        ("衣服大了一码想换货，怎么操作", [("faq", None)]),
        ("if I return something do I pay the postage myself", [("faq", None)]),
        # a bare "when" after a stock or a timed policy question asks about that one
        ("平底锅多少钱 啥时候到货", [("stock", None)]),
        ("发票能开电子的吗 多久能收到", [("faq", None)]),
        ("运费怎么算 多久能到", [("faq", None), ("faq", None)]),
        ("电动牙刷有货吗？保修多久？", [("stock", None), ("faq", None)]),
        # the action itself corrected to another: only the corrected one is asked about
        ("我想退空气炸锅那单 不对 是取消 还没付钱的那个", [("cancel_order", None)]),
        ("cancel 100904, sorry, and refund 100609",
         [("cancel_order", "100904"), ("refund", "100609")]),
        # a question, then a question about a thing of its own, apart; thanks said apart
        ("几点前付款能当天发货 智能手表有现货吗", [("faq", None), ("stock", None)]),
        ("帮我看下100998和100683，谢谢啦",
         [("order_status", "100998"), ("order_status", "100683"), ("thanks", None)]),
    ],
)  # fmt: skip
def test_readings(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "can i get a refund on 100609?",
        "i asked for a refund on 100609 last month, how much was it and how much is left?",
        "How much can I still get back on the air purifier?",
        "上个月净化器退过一次款 退了多少 还剩多少能退",
        "Can I get some money back for those",
    ],
)
def test_refund_questions_are_no_refund(text: str) -> None:
    assert all(str(kind_of(m)) != "refund" for m in match_shop(text, packs=SHOP))


def test_a_refund_of_an_amount_is_still_asked_for() -> None:
    assert read("can I get a refund of ¥50 on 100200") == [("refund", "100200")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("电子书阅读器和平板哪个便宜", "电子书阅读器和平板"),
        ("X12配什么手机壳 谢谢", "x12 手机壳"),
        ("M码还有吗", None),  # a size letter and a character name nothing
    ],
)
def test_product_words_leave_comparisons_sums_thanks_and_sizes_out(
    text: str, expected: str | None
) -> None:
    assert product_query(text) == expected
