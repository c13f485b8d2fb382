"""When the rules can see a reply answer everything asked, no model is asked to check it."""

from __future__ import annotations

from helpdesk.graph.coverage import Asked, semantic_check_needed, uncovered_requests
from helpdesk.packs import default_packs

PACKS = default_packs()
TRACK = Asked("tracking", {"order_id": "100683", "text": "where is 100683"})
STOCK = Asked("stock", {"sku": "SKU-1001", "text": "is SKU-1001 in stock"})
ANSWER = "Order 100683 is on its way (YT9433239273). SKU-1001: 12 in stock."


def _needed(asked: list[Asked] | None, draft: str, text: str = "", *, model: bool = True) -> bool:
    return semantic_check_needed(asked, draft, text, PACKS, model_written=model)


def test_every_request_quoted_needs_no_model_check() -> None:
    assert uncovered_requests([TRACK, STOCK], ANSWER, "where is 100683, SKU-1001?", PACKS) == []
    assert not _needed([TRACK, STOCK], ANSWER, "where is 100683, SKU-1001?")


def test_a_template_reply_is_never_checked_by_a_model() -> None:
    assert not _needed([Asked("faq", {"topic": "returns"})], "Returns: 7 days.", model=False)


def test_a_request_whose_object_the_draft_does_not_quote_is_checked() -> None:
    reasons = uncovered_requests([TRACK, STOCK], "Order 100683 is on its way.", "", PACKS)
    assert reasons == ["stock of SKU-1001 is not quoted"]
    assert _needed([TRACK, STOCK], "Order 100683 is on its way.")


def test_an_identifier_the_understanding_dropped_is_checked() -> None:
    text = "where are 100683 and 100998?"
    assert uncovered_requests([TRACK], ANSWER, text, PACKS) == [
        "100998 from the message is not quoted"
    ]


def test_open_ended_and_unknown_requests_are_checked() -> None:
    assert _needed([Asked("faq", {"topic": "returns"})], "Returns are accepted for 7 days.")
    assert _needed([Asked("unknown", {"text": "can I pay in bitcoin"})], "We take cards.")


def test_a_request_naming_no_object_is_checked() -> None:
    assert _needed([Asked("list_orders", {"text": "my orders"})], "Your orders: 100683.")


def test_self_answering_requests_need_no_object() -> None:
    assert not _needed([Asked("greeting", {"text": "hi"}), TRACK], ANSWER, "hi, where is 100683")


def test_unknown_understanding_is_checked() -> None:
    assert _needed(None, ANSWER) and _needed([], ANSWER)
