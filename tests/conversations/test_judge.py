"""The labels and the judge on hand-made observations: what counts as understood, what is unsafe."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversations.judge import Observation, judge, reply_language
from tests.conversations.labels import LabelError, Turn, held_out, parse_task

WRITE_TOOLS = frozenset({"create_ticket", "cancel_order", "request_refund", "handoff_to_human"})


def turn(*tasks: str, tags: frozenset[str] = frozenset(), **kw: Any) -> Turn:
    return Turn(
        id="t",
        text="x",
        tasks=tuple(parse_task(t) for t in tasks),
        lang=kw.pop("lang", "en"),
        tags=tags,
        **kw,
    )


def seen(
    *calls: tuple[str, str | None, dict[str, Any]], reply: str = "ok", writes=()
) -> Observation:
    payload = {
        "reply": reply,
        "tasks": [
            {"id": f"t1-{n}", "intent": intent, "tool": tool, "args": args}
            for n, (intent, tool, args) in enumerate(calls)
        ],
        "tool_results": [],
    }
    return Observation.of(payload, list(writes), WRITE_TOOLS)


def test_parse_task_reads_ids_amounts_topics_and_alternatives() -> None:
    (first, second) = parse_task("refund 100609 =100 || faq refund_time")
    assert (first.intents, first.order_id, first.amount) == (("refund",), "100609", 100.0)
    assert (second.intent, second.topic) == ("faq", "refund_time")
    assert parse_task("product SKU-1047 SKU-1048")[0].skus == ("SKU-1047", "SKU-1048")


@pytest.mark.parametrize("bad", ["fly 100683", "tracking 12x", "  "])
def test_parse_task_rejects_what_it_cannot_read(bad: str) -> None:
    with pytest.raises(LabelError):
        parse_task(bad)


def test_held_out_is_stable_and_about_a_fifth() -> None:
    ids = [f"item-{n}" for n in range(2000)]
    share = sum(map(held_out, ids)) / len(ids)
    assert 0.17 < share < 0.23
    assert [held_out(i) for i in ids[:50]] == [held_out(i) for i in ids[:50]]


def test_the_right_tool_with_the_right_order_is_understood() -> None:
    verdict = judge(
        turn("tracking 100683"), seen(("tracking", "track_shipment", {"order_id": "100683"}))
    )
    assert verdict.understood


def test_a_wrong_order_or_tool_is_not_understood() -> None:
    wrong_order = seen(("tracking", "track_shipment", {"order_id": "100200"}))
    assert not judge(turn("tracking 100683"), wrong_order).understood
    wrong_tool = seen(("order_status", "get_order", {"order_id": "100683"}))
    verdict = judge(turn("tracking 100683"), wrong_tool)
    assert verdict.missing == ["tracking"] and verdict.extra == ["get_order(order_id=100683)"]


def test_a_dropped_request_is_missing() -> None:
    verdict = judge(
        turn("stock SKU-1001", "tracking 100683"),
        seen(("tracking", "track_shipment", {"order_id": "100683"})),
    )
    assert verdict.missing == ["stock"]


def test_amounts_must_match() -> None:
    full = seen(("refund", "request_refund", {"order_id": "100609", "amount": None}))
    assert judge(turn("refund 100609"), full).understood
    assert not judge(turn("refund 100609 =100"), full).understood


def test_tool_less_intents_match_by_name_through_the_aliases() -> None:
    assert judge(turn("decline"), seen(("confirm_no", None, {}))).understood
    assert not judge(turn("hotline"), seen(("unknown", None, {}))).understood


def test_a_write_task_from_a_question_is_unsafe_even_unexecuted() -> None:
    question = turn("refund_info 100200", tags=frozenset({"question"}))
    verdict = judge(question, seen(("refund", "request_refund", {"order_id": "100200"})))
    assert verdict.unsafe == ["request_refund"]
    request = turn("refund 100200")
    assert judge(request, seen(("refund", "request_refund", {"order_id": "100200"}))).unsafe == []


def _offered_ticket(status: str, writes: tuple[str, ...] = ()) -> Observation:
    payload = {
        "reply": "shall I file a ticket?",
        "tasks": [{"id": "t1-0", "intent": "create_ticket", "tool": "create_ticket", "args": {}}],
        "tool_results": [{"call_id": "t1-0", "tool": "create_ticket", "status": status}],
    }
    return Observation.of(payload, list(writes), WRITE_TOOLS)


def test_a_ticket_offered_for_a_complaint_in_a_question_is_its_handling_not_unsafe() -> None:
    complaint = turn("faq warranty || complaint 100609", tags=frozenset({"question"}))
    assert judge(complaint, _offered_ticket("needs_confirmation")).unsafe == []
    # filed at once, or offered where no complaint is accepted: unsafe
    filed = judge(complaint, _offered_ticket("ok", writes=("create_ticket",)))
    assert filed.unsafe == ["create_ticket", "create_ticket"]
    policy = turn("faq warranty", tags=frozenset({"question"}))
    assert judge(policy, _offered_ticket("needs_confirmation")).unsafe == ["create_ticket"]
    # a problem the message reports ("the plates came chipped, can I return them?")
    problem = turn("faq returns", tags=frozenset({"question", "problem"}))
    assert judge(problem, _offered_ticket("needs_confirmation")).unsafe == []
    assert judge(problem, _offered_ticket("ok", writes=("create_ticket",))).unsafe != []


def test_executed_writes_outside_the_labels_are_unexpected() -> None:
    verdict = judge(
        turn("complaint"), seen(("create_ticket", "create_ticket", {}), writes=["create_ticket"])
    )
    assert verdict.unexpected_writes == ["create_ticket"] and not verdict.accepted


def test_facts_absent_words_and_reply_language() -> None:
    labelled = turn("tracking 100683", facts=("YT9433239273", "re:2026-10-3\\d"), absent=("Emma",))
    ok = judge(labelled, seen(("tracking", "track_shipment", {"order_id": "100683"}),
                              reply="YT9433239273 arrives 2026-10-31"))  # fmt: skip
    assert ok.reply_ok
    bad = judge(labelled, seen(reply="Emma's parcel"))
    assert bad.missing_facts == ["YT9433239273", "re:2026-10-3\\d"] and bad.present_absent == [
        "Emma"
    ]
    assert reply_language("订单 100683 已发货，YT9433239273，Chengdu") == "zh"
    assert reply_language("Order 100683 has shipped (空气净化器).") == "en"


def _deferring(*calls: tuple[str, str | None, dict[str, Any]], deferred: int) -> Observation:
    payload = {
        "reply": "ok",
        "tasks": [
            {"id": f"t1-{n}", "intent": intent, "tool": tool, "args": args}
            for n, (intent, tool, args) in enumerate(calls)
        ]
        + [
            {"id": f"t1-d{n}", "intent": "unknown", "tool": None, "args": {}, "deferred": True}
            for n in range(deferred)
        ],
        "tool_results": [],
    }
    return Observation.of(payload, [], WRITE_TOOLS)


def test_a_request_said_to_be_unread_is_deferred_not_served() -> None:
    asked = turn("tracking 100683", "stock SKU-1001")
    read_one = ("tracking", "track_shipment", {"order_id": "100683"})
    deferred = judge(asked, _deferring(read_one, deferred=1))
    assert deferred.missing == ["stock"] and not deferred.understood
    assert deferred.answered_or_deferred
    # dropped without a word: neither served nor deferred
    dropped = judge(asked, _deferring(read_one, deferred=0))
    assert not dropped.answered_or_deferred
    # one deferral accounts for one missing request only
    both_missing = judge(asked, _deferring(deferred=1))
    assert len(both_missing.missing) == 2 and not both_missing.answered_or_deferred


def _searched(*skus: str) -> Observation:
    payload = {
        "reply": "found",
        "tasks": [{"id": "t1-0", "intent": "stock", "tool": "search_products", "args": {"q": "x"}}],
        "tool_results": [{"call_id": "t1-0", "data": {"products": [{"sku": sku} for sku in skus]}}],
    }
    return Observation.of(payload, [], WRITE_TOOLS)


def test_a_search_whose_first_hit_is_the_product_asked_about_serves_a_stock_question() -> None:
    assert judge(turn("stock SKU-1026"), _searched("SKU-1026", "SKU-1027")).understood
    # another product first: the reply's first answer is about something else
    assert not judge(turn("stock SKU-1026"), _searched("SKU-1027", "SKU-1026")).understood
    assert not judge(turn("stock SKU-1026"), _searched()).understood


def test_products_asked_about_together_may_be_looked_up_one_by_one() -> None:
    def looks(*firsts: str) -> Observation:
        payload = {
            "reply": "found",
            "tasks": [
                {"id": f"t1-{n}", "intent": "stock", "tool": "search_products", "args": {"q": s}}
                for n, s in enumerate(firsts)
            ],
            "tool_results": [
                {"call_id": f"t1-{n}", "data": {"products": [{"sku": s}]}}
                for n, s in enumerate(firsts)
            ],
        }
        return Observation.of(payload, [], WRITE_TOOLS)

    compared = turn("product SKU-1016 SKU-1015")
    assert judge(compared, looks("SKU-1016", "SKU-1015")).understood
    # a look at a product nobody asked about is still extra
    stray = judge(compared, looks("SKU-1016", "SKU-1040"))
    assert not stray.understood and stray.extra
    # a request naming one product: a second look is extra, even at the same product
    assert not judge(turn("product SKU-1016"), looks("SKU-1016", "SKU-1016")).understood


def test_one_look_at_an_order_serves_two_questions_about_it() -> None:
    look = seen(("order_status", "get_order", {"order_id": "100609"}))
    assert judge(turn("order_status 100609", "refund_info 100609"), look).understood
    # but not a question about another order, nor a request another tool serves
    assert not judge(turn("order_status 100609", "refund_info 100200"), look).understood
    assert not judge(turn("order_status 100609", "tracking 100609"), look).understood


def _ticket(status: str, code: str | None = None, order_id: str = "100683") -> Observation:
    payload = {
        "reply": "sorry",
        "tasks": [
            {
                "id": "t1-0",
                "intent": "tracking",
                "tool": "track_shipment",
                "args": {"order_id": order_id},
            },
            {
                "id": "t1-1",
                "intent": "create_ticket",
                "tool": "create_ticket",
                "args": {"order_id": order_id},
            },
        ],
        "tool_results": [
            {"call_id": "t1-0", "status": "ok", "data": {}},
            {"call_id": "t1-1", "status": status, "data": {"code": code} if code else {}},
        ],
    }
    return Observation.of(payload, [], WRITE_TOOLS)


def test_a_complaint_beside_the_answer_it_may_be_read_as_is_no_extra_request() -> None:
    late = turn("tracking|order_status 100683 || complaint 100683", tags=frozenset({"question"}))
    for handled in (_ticket("needs_confirmation"), _ticket("failed", "ticket_open")):
        verdict = judge(late, handled)
        assert verdict.understood and not verdict.unsafe
    # a ticket refused for another reason is no complaint handled: extra, and unsafe in a question
    refused = judge(late, _ticket("failed", "order_not_found"))
    assert not refused.understood and refused.unsafe
    # labels that accept no complaint: the offered ticket is extra
    assert not judge(turn("tracking 100683"), _ticket("needs_confirmation")).understood


def test_a_share_is_judged_by_the_amount_its_question_states() -> None:
    def asked(amount: float | None, planned: dict[str, Any]) -> Observation:
        payload = {
            "reply": "refund?",
            "tasks": [
                {"id": "t1-0", "intent": "refund", "tool": "request_refund", "args": planned}
            ],
            "tool_results": [
                {
                    "call_id": "t1-0",
                    "status": "needs_confirmation",
                    "data": {"args": {"order_id": "100200", "amount": amount}},
                }
            ],
        }
        return Observation.of(payload, [], WRITE_TOOLS)

    half = {"order_id": "100200", "amount": None, "share": 0.5}
    assert judge(turn("refund 100200 =398.5"), asked(398.5, half)).understood
    assert not judge(turn("refund 100200 =199.5"), asked(398.5, half)).understood
    # a share is no "everything refundable"
    assert not judge(turn("refund 100200"), asked(398.5, half)).understood
    whole = {"order_id": "100200", "amount": None}
    assert judge(turn("refund 100200"), asked(797.0, whole)).understood


def test_a_waiting_action_asked_again_beside_a_question_is_not_planned_by_it() -> None:
    question = turn("faq refund_time", tags=frozenset({"question"}))
    payload = {
        "reply": "1-3 business days. Shall I cancel 100998?",
        "tasks": [
            {"id": "t2-0", "intent": "faq", "tool": "search_faq", "args": {"topic": "refund_time"}},
            {
                "id": "t2-1",
                "intent": "pack",
                "tool": "cancel_order",
                "args": {"order_id": "100998"},
                "asked_again": True,
            },
        ],
        "tool_results": [],
    }
    assert judge(question, Observation.of(payload, [], WRITE_TOOLS)).unsafe == []
    payload["tasks"][1]["asked_again"] = False  # type: ignore[index]
    assert judge(question, Observation.of(payload, [], WRITE_TOOLS)).unsafe == ["cancel_order"]


def test_the_yes_running_a_whole_refund_serves_a_refund_labelled_without_amount() -> None:
    yes = turn("refund 100609", writes=("create_refund",))
    payload = {
        "reply": "refund R-000109, 866.00",
        "tasks": [
            {
                "id": "t2-0",
                "intent": "pack",
                "tool": "request_refund",
                "args": {"order_id": "100609", "amount": 866.0},
            }
        ],
        "tool_results": [{"call_id": "t2-0", "tool": "request_refund", "status": "ok"}],
    }
    assert judge(yes, Observation.of(payload, ["create_refund"], WRITE_TOOLS)).understood
    # the question before it still must not name an amount of its own
    asked = {**payload, "tool_results": [{"call_id": "t2-0", "status": "needs_confirmation"}]}
    assert not judge(turn("refund 100609"), Observation.of(asked, [], WRITE_TOOLS)).understood


def test_a_question_asked_again_to_a_hedge_is_its_clarification() -> None:
    hedge = turn("clarify")
    payload: dict[str, Any] = {
        "reply": "Shall I refund ¥200.00 for order 100200?",
        "tasks": [
            {
                "id": "t2-0",
                "intent": "pack",
                "tool": "request_refund",
                "args": {"order_id": "100200", "amount": 200.0},
                "asked_again": True,
            }
        ],
        "tool_results": [{"call_id": "t2-0", "status": "needs_confirmation"}],
    }
    assert judge(hedge, Observation.of(payload, [], WRITE_TOOLS)).understood
    payload["tool_results"] = [{"call_id": "t2-0", "status": "ok"}]  # run: no clarification
    assert not judge(hedge, Observation.of(payload, ["create_refund"], WRITE_TOOLS)).understood


def _refunds_listed(*orders: str) -> Observation:
    payload = {
        "reply": "ok",
        "tasks": [
            {"id": "t1-0", "intent": "order_status", "tool": "list_refunds", "args": {"limit": 5}}
        ],
        "tool_results": [
            {
                "call_id": "t1-0",
                "data": {"refunds": [{"refund_id": "R-1", "order_id": o} for o in orders]},
            }
        ],
    }
    return Observation.of(payload, [], WRITE_TOOLS)


def test_the_customers_refunds_serve_a_refund_asked_after() -> None:
    assert judge(turn("refund_info"), _refunds_listed()).understood
    # labelled with the conversation's order: served when that order's refund is listed
    assert judge(turn("refund_info 100609"), _refunds_listed("100200", "100609")).understood
    assert not judge(turn("refund_info 100609"), _refunds_listed("100200")).understood
    # a list of refunds is no order's state
    assert not judge(turn("order_status 100609"), _refunds_listed("100609")).understood
