"""Parts of a message no reading answers are said to be unread (graph/unclaimed_parts.py): which
parts ask something, which are a reading's, what a pack's ``part_asks`` decides, and when nothing
is added; and the demo shop's ``part_asks`` (packs/shop/part_asks.py)."""

from __future__ import annotations

import dataclasses

import pytest

from helpdesk.graph.request import DEFERRED_PART, Intent, MatchedIntent
from helpdesk.graph.unclaimed_parts import (
    UNCLAIMED,
    asks_something,
    defer_unclaimed_parts,
    unclaimed_parts,
)
from helpdesk.packs import default_packs
from helpdesk.packs.shop.part_asks import part_asks
from helpdesk.tools.packs import Pack, PackSet

SHOP = default_packs()
(_SHOP_PACK,) = [p for p in SHOP.packs if p.part_asks is not None]
GENERIC = PackSet([dataclasses.replace(_SHOP_PACK, part_asks=None)])
"""The shop without its ``part_asks``: parts are judged by language alone."""


def with_part_asks(asked: dict[str, frozenset[str] | None]) -> PackSet:
    """The shop whose ``part_asks`` answers from ``asked`` (by part; held or not alike)."""

    def fake(part: str, held: bool) -> frozenset[str] | None:
        return asked.get(part)

    pack: Pack = dataclasses.replace(_SHOP_PACK, part_asks=fake)
    return PackSet([pack])


def read(text: str, capability: str = "stock") -> MatchedIntent:
    return MatchedIntent(Intent.PACK, text=text, lang="en", capability=capability)


# --- language alone (no pack says what a part asks) ----------------------------------------------


@pytest.mark.parametrize(
    "part",
    [
        "is the air fryer still sold",
        "can u check where it is",
        "I want a second one for my mum",
        "tell me when it ships",
        "100200里面都有啥来着",
        "能不能快点",
        "帮我看看",
        "订单100200 要换新的",
        "my phone order 100770 is taking forever",
    ],
)
def test_questions_requests_and_identifiers_ask_something(part: str) -> None:
    assert asks_something(part, GENERIC)


@pytest.mark.parametrize(
    "part",
    ["not happy", "哈哈谢谢你", "丢死人了", "the purifier came with a dent", "ok", "真的无语"],
)
def test_small_talk_and_statements_ask_nothing(part: str) -> None:
    assert not asks_something(part, GENERIC)


def test_an_identifier_asks_only_where_a_pack_declares_its_shape() -> None:
    assert not asks_something("my order 100770 is taking forever", PackSet([]))


def test_a_part_whose_words_no_reading_used_is_unclaimed() -> None:
    text = "is the air fryer still sold? and when does the dinnerware set come back"
    readings = [read("when does the dinnerware set come back")]
    assert unclaimed_parts(text, readings, GENERIC) == ["is the air fryer still sold"]


def test_a_part_folded_into_a_reading_is_that_readings_without_a_pack_to_say() -> None:
    text = "is the air fryer still sold? and when does the dinnerware set come back"
    assert unclaimed_parts(text, [read(text)], GENERIC) == []


def test_a_part_sharing_half_its_words_with_a_reading_is_that_readings() -> None:
    text = "where is 100683, where is it now"
    assert unclaimed_parts(text, [read("where is 100683", "tracking")], GENERIC) == []


def test_what_a_reading_read_elsewhere_counts_as_used() -> None:
    text = "我的包裹晚了 100683"
    reading = read("我的包裹晚了", "tracking").with_request({"order_id": "100683"})
    assert unclaimed_parts(text, [reading], GENERIC) == []


def test_chinese_parts_are_compared_by_character_pairs() -> None:
    text = "我买的耳机坏了 订单100200 要换新的 另外再问下你们保修几年"
    readings = [read("我买的耳机坏了", "create_ticket"), read("再问下你们保修几年", "faq")]
    assert unclaimed_parts(text, readings, GENERIC) == ["订单100200 要换新的"]


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("no need to open a ticket, just tell me where 100683 is", "just tell me where 100683 is"),
        ("不用退了 100683到哪了", "100683到哪了"),
    ],
)
def test_a_part_that_refuses_is_never_unclaimed(text: str, asked: str) -> None:
    assert unclaimed_parts(text, [read(asked, "tracking")], GENERIC) == []


def test_one_part_is_never_unclaimed() -> None:
    assert unclaimed_parts("is the air fryer still sold", [read("hello")], GENERIC) == []


# --- a pack says what a part asks ---------------------------------------------------------------


def test_a_part_left_over_is_unclaimed_only_when_what_it_asks_is_not_answered() -> None:
    text = "how much is the s3 watch, and is it available? also T-000031 status"
    readings = [read("how much is the s3 watch")]
    packs = with_part_asks(
        {"is it available": frozenset({"stock"}), "T-000031 status": frozenset({"ticket_status"})}
    )
    assert unclaimed_parts(text, readings, packs) == ["T-000031 status"]


def test_a_part_the_pack_reads_as_nothing_or_cannot_read_is_not_unclaimed() -> None:
    text = "T-000031 有人处理吗 都两天了 谢谢"
    packs = with_part_asks({"都两天了": None, "谢谢": frozenset()})
    assert unclaimed_parts(text, [read("T-000031 有人处理吗", "ticket_status")], packs) == []


def test_a_part_folded_into_a_read_is_unclaimed_when_the_pack_reads_another_request() -> None:
    text = "空气炸锅那单的保温杯退了，另外100998啥时候发货"
    packs = with_part_asks(
        {
            "空气炸锅那单的保温杯退了": frozenset({"refund"}),
            "100998啥时候发货": frozenset({"order_status"}),
        }
    )
    readings = [read(text, "order_status")]
    assert unclaimed_parts(text, readings, packs) == ["空气炸锅那单的保温杯退了"]


def test_a_part_folded_into_an_action_travels_with_it() -> None:
    text = "能不能帮我开个工单 100683 物流一直不动"
    packs = with_part_asks({"100683 物流一直不动": frozenset({"tracking"})})
    assert unclaimed_parts(text, [read(text, "create_ticket")], packs) == []


# --- what is added ------------------------------------------------------------------------------


def test_unclaimed_parts_are_added_as_unread_and_never_looked_up() -> None:
    text = "hey. my order 100770 is taking forever, and cancel the knife order"
    readings = [read("cancel the knife order", "cancel_order")]
    out = defer_unclaimed_parts(text, readings, GENERIC, "en")
    assert out[0] is readings[0]
    (part,) = out[1:]
    assert part.intent is Intent.UNKNOWN
    assert part.details == DEFERRED_PART
    assert part.text == "my order 100770 is taking forever"
    assert part.args == {UNCLAIMED: True}


def test_the_language_of_an_unclaimed_part_is_its_own() -> None:
    text = "where is 100683? 另外100200里的保温杯也退了吗"
    out = defer_unclaimed_parts(text, [read("where is 100683", "tracking")], GENERIC, "en")
    assert [m.lang for m in out] == ["en", "zh"]


@pytest.mark.parametrize(
    "reading",
    [
        MatchedIntent(Intent.CONFIRM_YES, text="yes", lang="en"),
        MatchedIntent(Intent.CONFIRM_NO, text="no", lang="en"),
        # a message nothing read is answered by the menu, not part by part
        MatchedIntent(Intent.UNKNOWN, text="blah? and what is this", lang="en"),
    ],
)
def test_answers_and_unread_messages_are_left_as_they_are(reading: MatchedIntent) -> None:
    text = "yes. and where is 100683?"
    assert defer_unclaimed_parts(text, [reading], GENERIC, "en") == [reading]


def test_no_reading_adds_nothing() -> None:
    assert defer_unclaimed_parts("where is 100683? and 100200?", [], GENERIC, "en") == []


# --- the demo shop's part_asks ------------------------------------------------------------------


def test_the_shop_reads_a_folded_refund_as_a_refund() -> None:
    assert part_asks("空气炸锅那单的保温杯退了", True) == frozenset({"refund"})


def test_the_shop_reads_thanks_as_asking_nothing() -> None:
    assert part_asks("谢谢", False) == frozenset()


def test_the_shop_does_not_guess_at_a_short_remark() -> None:
    assert part_asks("都两天了", False) is None


def test_the_shop_answers_a_parcel_question_with_both_looks() -> None:
    assert part_asks("where is 100683", False) == frozenset({"order_status", "tracking"})
