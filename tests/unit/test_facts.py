"""Session facts: order ids, SKUs, preferences and asks read from zh/en customer text."""

from __future__ import annotations

from typing import Any

import pytest

from helpdesk.graph.facts import extract_facts, merge_facts, render_facts, split_sentences
from helpdesk.packs import default_packs

SHOP = default_packs()


@pytest.mark.parametrize(
    ("text", "order_ids", "skus", "preferences", "asks"),
    [
        ("先发两件，剩下的以后再发", [], [], ["先发两件，剩下的以后再发"], []),
        ("ship two now, the rest later", [], [], ["ship two now, the rest later"], []),
        ("please don't call me", [], [], ["please don't call me"], []),
        ("请不要打电话", [], [], ["请不要打电话"], []),
        ("送到公司", [], [], ["送到公司"], []),
        ("deliver to my office", [], [], ["deliver to my office"], []),
        ("周末送货", [], [], ["周末送货"], []),
        ("Please reply in English.", [], [], ["Please reply in English"], []),
        (
            "查一下订单100123和100456，SKU-1001还有货吗？",
            ["100123", "100456"],
            ["SKU-1001"],
            [],
            ["查一下订单100123和100456，SKU-1001还有货吗？"],
        ),
        (
            "Where is order 100777? Please email me, don't call.",
            ["100777"],
            [],
            ["Please email me, don't call"],
            ["Where is order 100777?"],
        ),
        (
            "订单100321请送到公司。什么时候到？",
            ["100321"],
            [],
            ["订单100321请送到公司"],
            ["什么时候到？"],
        ),
        (
            "When will it be delivered to my home?",
            [],
            [],
            [],
            ["When will it be delivered to my home?"],
        ),
        ("退款 100200 元", [], [], [], ["退款 100200 元"]),
        ("我的邮编是200000", [], [], [], []),
        ("好的", [], [], [], []),
        ("ok thanks", [], [], [], []),
    ],
)
def test_extract_facts_reads_table(
    text: str, order_ids: list[str], skus: list[str], preferences: list[str], asks: list[str]
) -> None:
    assert extract_facts(text, {}, packs=SHOP) == {
        "order_ids": order_ids,
        "skus": skus,
        "preferences": preferences,
        "asks": asks,
    }


def test_extract_facts_keeps_keys_it_does_not_own() -> None:
    facts = {"customer": "C0001", "pending_confirmation": {"tool": "refund"}}

    merged = extract_facts("订单100123", facts, packs=SHOP)

    assert merged["customer"] == "C0001"
    assert merged["pending_confirmation"] == {"tool": "refund"}
    assert merged["order_ids"] == ["100123"]


def test_extract_facts_does_not_modify_its_input() -> None:
    facts: dict[str, Any] = {"order_ids": ["100001"]}

    extract_facts("订单100123", facts, packs=SHOP)

    assert facts == {"order_ids": ["100001"]}


def test_extract_facts_moves_a_repeated_mention_last() -> None:
    facts = extract_facts("订单100001和100002", {}, packs=SHOP)

    assert extract_facts("再看看100001", facts, packs=SHOP)["order_ids"] == ["100002", "100001"]


def test_merge_facts_caps_lists_keeping_the_latest() -> None:
    ids = [str(100001 + i) for i in range(25)]
    asks = [f"ask {i}" for i in range(12)]

    merged = merge_facts({}, order_ids=ids, asks=asks)

    assert merged["order_ids"] == ids[-20:]
    assert merged["asks"] == asks[-10:]


def test_split_sentences_keeps_commas_and_decimals() -> None:
    assert split_sentences("先发两件，剩下的以后再发。价格12.5元! ok") == [
        "先发两件，剩下的以后再发。",
        "价格12.5元!",
        "ok",
    ]


def test_render_facts_zh_lists_owned_keys_first() -> None:
    facts = {
        "order_ids": ["100123", "100456"],
        "skus": ["SKU-1001"],
        "preferences": ["先发两件，剩下的以后再发", "请不要打电话"],
        "asks": ["查物流"],
        "customer": "C0001",
    }

    assert render_facts(facts, "zh") == (
        "已知信息：\n"
        "- 订单：100123、100456\n"
        "- 商品：SKU-1001\n"
        "- 客户偏好：先发两件，剩下的以后再发；请不要打电话\n"
        "- 客户诉求：查物流\n"
        "- customer：C0001"
    )


def test_render_facts_en_skips_empty_values() -> None:
    facts = {"order_ids": ["100123"], "skus": [], "note": None, "tier": "gold"}

    assert render_facts(facts, "en") == "Known facts:\n- Orders: 100123\n- tier: gold"


def test_render_facts_is_empty_without_facts() -> None:
    assert render_facts({"order_ids": [], "asks": []}, "en") == ""
