"""Reply validation rules: each one fails on a bad draft and passes on a good one."""

from __future__ import annotations

from typing import Any

import pytest

from helpdesk.degrade.context import DegradeContext, PendingItem
from helpdesk.degrade.errors import ErrorClass
from helpdesk.graph.validation import ReplyFacts, find_violations
from helpdesk.packs import default_packs
from helpdesk.tools.results import ToolResult, ToolStatus

SHOP = default_packs()

ORDER = {
    "order_id": "100683",
    "status": "shipped",
    "total": 29.0,
    "shipments": [{"tracking_number": "YT9433239273", "eta": "2026-10-31"}],
}


def ok(tool: str, data: Any) -> ToolResult:
    return ToolResult(call_id="c", tool=tool, status=ToolStatus.OK, data=data)


def facts(draft: str, *results: ToolResult, lang: str = "en", **kw: Any) -> ReplyFacts:
    return ReplyFacts(
        draft=draft,
        lang=lang,
        hotline="400-820-8820",  # type: ignore[arg-type]
        customer_text=kw.pop("text", ""),
        results=results,
        packs=SHOP,
        **kw,
    )


GOOD = "Order 100683 is shipped: YT9433239273, ¥29.00, expected 2026-10-31."


def test_validation_good_reply_passes() -> None:
    assert find_violations(facts(GOOD, ok("get_order", ORDER))) == []


@pytest.mark.parametrize(
    ("draft", "violation"),
    [
        ("", "empty reply"),
        ("Order {order_id} is shipped.", "unfilled template field"),
        ("Order 100684 is shipped.", "identifier 100684 is not in this turn's data"),
        ("Tracking YT0000000000.", "identifier YT0000000000 is not in this turn's data"),
        ("Order 100683 cost ¥39.00.", "amount ¥39.00 does not match any tool data"),
        ("Order 100683 arrives 2026-11-02.", "date 2026-11-02 does not match any tool data"),
        ("Call us at 021-5555-0199.", "phone number 021-5555-0199 is not the configured hotline"),
        ("订单 100683 已发货。", "the customer wrote English but the reply contains Chinese"),
    ],
)
def test_validation_rule_catches(draft: str, violation: str) -> None:
    assert violation in find_violations(facts(draft, ok("get_order", ORDER)))


def test_validation_chinese_customer_needs_chinese_reply() -> None:
    assert find_violations(facts(GOOD, ok("get_order", ORDER), lang="zh")) == [
        "the customer wrote Chinese but the reply is not in Chinese"
    ]


def test_validation_hotline_and_template_examples_are_allowed() -> None:
    draft = "Please give me the order number (6 digits, e.g. 100123), or call 400-820-8820."
    assert find_violations(facts(draft)) == []


def test_validation_stale_data_needs_a_notice() -> None:
    stale = ToolResult(
        call_id="c",
        tool="check_stock",
        status=ToolStatus.STALE,
        data={"sku": "SKU-1001", "total_available": 373},
        age_s=120,
    )
    degrade = DegradeContext(stale={"check_stock": 120.0})
    bare = "SKU-1001: 373 available."
    assert find_violations(facts(bare, stale, degrade=degrade)) == [
        "stale data from check_stock is presented without a staleness notice"
    ]
    told = bare + " The following comes from data cached 2 minutes ago and may not be up to date."
    assert find_violations(facts(told, stale, degrade=degrade)) == []


@pytest.mark.parametrize("status", [ToolStatus.FAILED, ToolStatus.UNKNOWN])
def test_validation_failed_or_unknown_write_is_never_claimed_done(status: ToolStatus) -> None:
    result = ToolResult(
        call_id="c",
        tool="cancel_order",
        status=status,
        data={"args": {"order_id": "100998"}},
        error_class=ErrorClass.UNKNOWN_OUTCOME,
    )
    pending = DegradeContext(
        pending=(PendingItem(task_id="c", what="cancel_order 100998", status=status.value),)
    )
    claim = "Order 100998 has been cancelled."
    expected = [
        f"cancel_order is {status.value} but the reply says it is done",
        "the reply says an action on 100998 is done; nothing shows that",
    ]
    assert find_violations(facts(claim, result, degrade=pending)) == expected
    zh = "订单 100998 已为您取消。"
    assert find_violations(facts(zh, result, degrade=pending, lang="zh")) == expected


def test_validation_done_claim_needs_a_result_showing_it_done() -> None:
    asked = ToolResult(
        call_id="c1",
        tool="cancel_order",
        status=ToolStatus.NEEDS_CONFIRMATION,
        data={"args": {"order_id": "100998"}},
    )
    money = ToolResult(
        call_id="c2",
        tool="request_refund",
        status=ToolStatus.NEEDS_CONFIRMATION,
        data={"args": {"order_id": "100200", "amount": 797.0}},
    )
    draft = "Order 100998 is now cancelled. The refund of ¥797.00 for order 100200 is complete."
    assert find_violations(facts(draft, asked, money)) == [
        "the reply says an action on 100998 is done; nothing shows that",
        "the reply says an action on 100200 is done; nothing shows that",
    ]


def test_validation_done_claim_passes_when_live_data_shows_it() -> None:
    order = ToolResult(
        call_id="c1",
        tool="get_order",
        status=ToolStatus.OK,
        data={"order_id": "100181", "status": "cancelled"},
    )
    assert find_violations(facts("Order 100181 was cancelled on 2026-10-02.", order)) == [
        "date 2026-10-02 does not match any tool data"
    ]


def test_validation_a_state_read_from_live_data_is_not_a_done_claim() -> None:
    order = ToolResult(
        call_id="c1",
        tool="get_order",
        status=ToolStatus.OK,
        data={"order_id": "100998", "status": "paid"},
    )
    assert find_violations(facts("Order 100998 is paid and waiting to ship.", order)) == []
    # the order being paid is no evidence that a refund on it was paid
    assert find_violations(facts("The refund for order 100998 has been paid.", order)) == [
        "the reply says an action on 100998 is done; nothing shows that"
    ]
    # nor is a paid order evidence for another order
    assert "the reply says an action on 100200 is done; nothing shows that" in find_violations(
        facts("Order 100200 is paid.", order)
    )


def test_validation_failed_lookup_is_never_an_empty_result() -> None:
    failed = ToolResult(
        call_id="c",
        tool="list_orders",
        status=ToolStatus.FAILED,
        error_class=ErrorClass.UNAVAILABLE,
    )
    assert find_violations(facts("There are no orders on your account yet.", failed)) == [
        "list_orders failed but the reply presents an empty result"
    ]


def test_validation_dates_and_times_are_not_phone_numbers() -> None:
    data = {"events": [{"at": "2026-10-31T23:14:00Z"}], "eta": "2026-10-31"}
    draft = "· 2026-10-31 23:14  Chengdu: departed\nExpected 2026-10-31; call 400-820-8820."
    assert find_violations(facts(draft, ok("track_shipment", data))) == []


@pytest.mark.parametrize(
    "draft",
    [
        "Order 100998 has been cancelled.",
        "Good news: I've cancelled order 100998 for you.",
        "订单 100998 已经取消了。",
    ],
)
def test_validation_unknown_write_without_data_is_never_claimed_done(draft: str) -> None:
    # the executor's unknown/failed results carry no data: the order comes from the call
    result = ToolResult(
        call_id="w",
        tool="cancel_order",
        status=ToolStatus.UNKNOWN,
        error_class=ErrorClass.UNKNOWN_OUTCOME,
    )
    lang = "zh" if "订单" in draft else "en"
    violations = find_violations(
        facts(draft, result, lang=lang, actions={"w": {"order_id": "100998"}})
    )
    assert "cancel_order is unknown but the reply says it is done" in violations


def test_validation_honest_unknown_write_passes() -> None:
    result = ToolResult(
        call_id="w",
        tool="cancel_order",
        status=ToolStatus.UNKNOWN,
        error_class=ErrorClass.UNKNOWN_OUTCOME,
        ticket_id="T-000041",
    )
    draft = (
        "I can't confirm yet whether cancelling order 100998 went through. "
        "I've opened follow-up ticket T-000041."
    )
    assert find_violations(facts(draft, result, actions={"w": {"order_id": "100998"}})) == []


@pytest.mark.parametrize(
    ("draft", "lang"),
    [("You don't have any orders at the moment.", "en"), ("您目前没有订单。", "zh")],
)
def test_validation_failed_lookup_paraphrased_as_empty(draft: str, lang: str) -> None:
    failed = ToolResult(
        call_id="c",
        tool="list_orders",
        status=ToolStatus.FAILED,
        error_class=ErrorClass.UNAVAILABLE,
    )
    assert find_violations(facts(draft, failed, lang=lang)) == [
        "list_orders failed but the reply presents an empty result"
    ]


def test_validation_amounts_quoted_in_tool_text_are_known() -> None:
    faq = {"articles": [{"question": "分期", "answer": "单笔满¥600可分期，最多12期。"}]}
    draft = "单笔满 ¥600 即可分期付款。"
    assert find_violations(facts(draft, ok("search_faq", faq), lang="zh")) == []


def test_validation_accepts_a_data_time_shown_in_the_packs_time_zone() -> None:
    # 2026-10-31T20:14Z is 2026-11-01 04:14 in China, where the shop pack shows times
    data = {"events": [{"at": "2026-10-31T20:14:00Z"}]}
    shown = "· 2026-11-01 04:14  Chengdu: departed"
    assert find_violations(facts(shown, ok("track_shipment", data))) == []
    invented = "· 2026-11-02 04:14  Chengdu: departed"
    assert find_violations(facts(invented, ok("track_shipment", data))) == [
        "date 2026-11-02 does not match any tool data"
    ]


def test_validation_english_reply_may_quote_chinese_data_word_for_word() -> None:
    data = {"ticket_id": "T-000031", "subject": "物流太慢", "status": "open"}
    quoted = 'Ticket T-000031 ("物流太慢") is open.'
    assert find_violations(facts(quoted, ok("get_ticket", data))) == []
    added = 'Ticket T-000031 ("物流太慢") is open. 谢谢'
    assert find_violations(facts(added, ok("get_ticket", data))) == [
        "the customer wrote English but the reply contains Chinese"
    ]
