"""Orders described instead of numbered: the shop's words-to-products scoring, the pack's
resolver (query and pick) and the engine's resolution step on a fake executor."""

from __future__ import annotations

from typing import Any

import pytest

from helpdesk.degrade.clock import FakeClock
from helpdesk.graph.planning import plan_tasks
from helpdesk.graph.request import RESOLVED
from helpdesk.graph.subject_resolution import resolve_subjects
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import ShopIntent as SI
from helpdesk.packs.shop.intents import shop_request
from helpdesk.packs.shop.order_label import order_label
from helpdesk.packs.shop.order_reference import (
    describes_an_order,
    order_query,
    pick_order,
)
from helpdesk.tools.context import RequestContext
from helpdesk.tools.packs import PackSet
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus
from helpdesk.tools.shop.product_search import mention_scores, product_text

PRODUCTS = [
    product_text("SKU-1029", ["Air Fryer 5L", "空气炸锅 5L", "home"]),
    product_text("SKU-1035", ["Air Purifier", "空气净化器", "home"]),
    product_text("SKU-1021", ["Tempered Glass Screen Protector", "钢化玻璃膜", "钢化膜", "膜"]),
]


@pytest.mark.parametrize(
    ("text", "best"),
    [
        ("please cancel my air fryer order", "SKU-1029"),
        ("净化器那单还能退多少", "SKU-1035"),
        ("膜到现在没到", "SKU-1021"),
        ("where are my screen protectors", "SKU-1021"),
    ],
)
def test_the_product_a_customer_names_scores_highest(text: str, best: str) -> None:
    scores = mention_scores(text, PRODUCTS)
    assert max(scores, key=lambda sku: scores[sku]) == best


def test_words_naming_no_product_score_nothing() -> None:
    assert mention_scores("please cancel my order, it is taking forever", PRODUCTS) == {}


@pytest.mark.parametrize(
    ("intent", "text", "expected"),
    [
        ("cancel_order", "cancel my air fryer order", {"limit": 20, "product": "x"}),
        ("cancel_order", "cancel the order I haven't paid for", {"limit": 20, "status": "pending"}),
        ("order_status", "还没付款的那单", {"limit": 20, "status": "pending"}),
        ("faq", "how do refunds work for the air fryer", None),
        ("cancel_order", "cancel it", None),
    ],
)
def test_the_query_asks_for_the_orders_the_words_describe(
    intent: str, text: str, expected: dict[str, Any] | None
) -> None:
    query = order_query({"intent": intent, "text": text})
    if expected is None:
        assert query is None or ("status" not in query and "product" in query)
        return
    assert query is not None
    # words beside a state may be sent as a product too: naming none, they filter nothing
    assert set(expected) <= set(query)
    if "status" in expected:
        assert query["status"] == expected["status"]
    else:
        assert "status" not in query


def _orders(*rows: tuple[str, str], matched: bool = True) -> dict[str, Any]:
    fryer = {"en": "Air Fryer 5L", "zh": "空气炸锅 5L"}
    return {
        "orders": [
            {"order_id": o, "status": s, "matched": [fryer] if matched else []} for o, s in rows
        ],
        "matched_products": [{"sku": "SKU-1029", **fryer}] if matched else [],
        "names_a_product": matched,
    }


def test_a_cancel_takes_the_one_order_that_can_be_cancelled() -> None:
    data = _orders(("100904", "pending"), ("100200", "delivered"))
    assert pick_order({"intent": "cancel_order", "text": "cancel my air fryer order"}, data) == [
        "100904"
    ]
    # a refund takes the delivered one
    assert pick_order({"intent": "refund", "text": "refund my air fryer order"}, data) == ["100200"]


def test_two_orders_that_could_take_a_write_are_not_chosen_between() -> None:
    data = _orders(("100904", "pending"), ("100998", "paid"))
    assert pick_order({"intent": "cancel_order", "text": "cancel my air fryer order"}, data) == [
        "100904",
        "100998",
    ]


def test_a_look_takes_the_order_on_its_way_first() -> None:
    data = _orders(("100200", "delivered"), ("100683", "shipped"))
    assert pick_order({"intent": "tracking", "text": "where is my air fryer"}, data) == ["100683"]


def test_words_that_matched_no_product_pick_nothing() -> None:
    data = _orders(("100904", "pending"), matched=False)
    # an order described by something the customer never bought: described, none fits
    assert pick_order({"intent": "cancel_order", "text": "cancel my kayak order"}, data) == []
    # no description at all ("cancel it"): the request stays as it was
    assert pick_order({"intent": "cancel_order", "text": "cancel it please"}, data) is None


def test_an_order_described_by_what_is_in_it_is_an_order_to_be_about() -> None:
    assert describes_an_order("净化器那单还能退多少")
    assert describes_an_order("cancel my air fryer order")
    assert describes_an_order("the one I haven't paid for")
    assert not describes_an_order("how long do refunds take")


class _Reader:
    """A fake executor: answers ``list_orders`` with fixed data and counts the calls."""

    def __init__(self, data: Any, status: ToolStatus = ToolStatus.OK) -> None:
        self.data, self.status, self.calls = data, status, []
        self.clock = FakeClock()
        self.contexts: list[RequestContext] = []

    async def run_many(self, calls: list[ToolCall], ctx: RequestContext) -> list[ToolResult]:
        self.calls.extend(calls)
        self.contexts.append(ctx)
        return [
            ToolResult(call_id=c.id, tool=c.name, status=self.status, data=self.data) for c in calls
        ]


def _tasks(*matches: Any) -> list[Any]:
    packs = PackSet(default_packs())
    return plan_tasks(list(matches), turn=1, facts={}, packs=packs)


async def test_resolution_fills_the_order_and_plans_the_call_again() -> None:
    packs = PackSet(default_packs())
    tasks = _tasks(shop_request(SI.CANCEL_ORDER, "please cancel my air fryer order"))
    assert tasks[0].call is None  # no order: nothing to call before the lookup
    reader = _Reader(_orders(("100904", "pending"), ("100200", "delivered")))
    ctx = RequestContext.new(session="s", turn=1, customer="C0001", clock=FakeClock())
    out = await resolve_subjects(tasks, packs=packs, executor=reader, ctx=ctx, facts={})  # type: ignore[arg-type]
    assert [c.name for c in reader.calls] == ["list_orders"]
    assert out[0].call is not None and out[0].call.args["order_id"] == "100904"
    assert out[0].match[RESOLVED] and out[0].match["inferred_order"] is True
    # the lookup runs on a context of its own: no retries, never the turn's ladder
    (side,) = reader.contexts
    assert side is not ctx and side.budget.max_retries == 0 and side.guard is not ctx.guard


async def test_a_failed_or_ambiguous_lookup_leaves_the_request_to_ask() -> None:
    packs = PackSet(default_packs())
    ctx = RequestContext.new(session="s", turn=1, customer="C0001", clock=FakeClock())
    tasks = _tasks(shop_request(SI.CANCEL_ORDER, "please cancel my air fryer order"))
    failed = _Reader(None, status=ToolStatus.FAILED)
    out = await resolve_subjects(tasks, packs=packs, executor=failed, ctx=ctx, facts={})  # type: ignore[arg-type]
    assert out == tasks
    two = _Reader(_orders(("100904", "pending"), ("100998", "paid")))
    out = await resolve_subjects(tasks, packs=packs, executor=two, ctx=ctx, facts={})  # type: ignore[arg-type]
    assert out == tasks


async def test_a_numbered_order_is_never_looked_up() -> None:
    packs = PackSet(default_packs())
    ctx = RequestContext.new(session="s", turn=1, customer="C0001", clock=FakeClock())
    tasks = _tasks(
        shop_request(SI.CANCEL_ORDER, "cancel 100998 my air fryer order", order_id="100998")
    )
    reader = _Reader(_orders(("100904", "pending")))
    out = await resolve_subjects(tasks, packs=packs, executor=reader, ctx=ctx, facts={})  # type: ignore[arg-type]
    assert reader.calls == [] and out == tasks


async def test_a_description_that_does_not_settle_drops_the_sessions_order() -> None:
    packs = PackSet(default_packs())
    ctx = RequestContext.new(session="s", turn=1, customer="C0001", clock=FakeClock())
    guessed = shop_request(
        SI.CANCEL_ORDER, "cancel my air fryer order", order_id="100998", inferred_order=True
    )
    tasks = _tasks(guessed)
    assert tasks[0].call is not None and tasks[0].call.args["order_id"] == "100998"
    for reader in (
        _Reader(_orders(("100904", "pending"), ("100200", "paid"))),  # two fit
        _Reader(None, status=ToolStatus.FAILED),  # the lookup failed
    ):
        out = await resolve_subjects(tasks, packs=packs, executor=reader, ctx=ctx, facts={})  # type: ignore[arg-type]
        assert out[0].call is None  # asked which order, never 100998


def test_the_label_names_what_the_words_matched() -> None:
    data = _orders(("100904", "pending"))
    assert order_label(data, "100904") == {"en": "Air Fryer 5L", "zh": "空气炸锅 5L"}
    assert order_label(data, "100200") is None


def test_a_product_named_before_a_full_stop_is_named() -> None:
    # "I got 433 back on the purifier. was that the whole refund?" named nothing (session 16)
    from helpdesk.tools.shop.product_search import mention_scores, product_text, search_terms

    purifier = [product_text("SKU-1", ["Air Purifier", "空气净化器"])]
    assert mention_scores("I got 433 back on the purifier. was that all?", purifier) == {"SKU-1": 1}
    assert search_terms("any air purifiers. or 1.7l kettles") == [
        "any", "air", "purifiers", "or", "1.7l", "kettles"
    ]  # fmt: skip


def test_a_chinese_name_names_by_what_it_is_more_than_by_what_it_is_for() -> None:
    # "手机那单" is the phone's order, not its screen protector's (alias 手机膜)
    from helpdesk.tools.shop.product_search import mention_scores, product_text

    phone = product_text("P", ["Smartphone X12 128GB", "X12 智能手机 128GB"])
    film = product_text("F", ["Tempered Glass Screen Protector", "钢化玻璃膜", "手机膜"])
    scores = mention_scores("手机那单退2999 只退手机", [phone, film])
    assert scores["P"] > scores["F"]
