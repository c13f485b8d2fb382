"""A search's only hit is what "it" means next; a record's own parts never are."""

from __future__ import annotations

from helpdesk.graph.node_merge import _only_hit

FIELDS = {"order_id": "order_ids", "sku": "skus"}


def test_a_search_with_one_hit_names_it() -> None:
    data = {"products": [{"sku": "SKU-1002", "name": "True Wireless Earbuds"}]}
    assert _only_hit(data, FIELDS) == {"sku": "SKU-1002"}


def test_several_hits_or_none_name_nothing() -> None:
    assert _only_hit({"products": [{"sku": "SKU-1001"}, {"sku": "SKU-1002"}]}, FIELDS) == {}
    assert _only_hit({"products": []}, FIELDS) == {}
    assert _only_hit({}, FIELDS) == {}


def test_a_record_is_not_a_search_its_one_item_is_not_the_subject() -> None:
    order = {"order_id": "100683", "items": [{"sku": "SKU-1010", "qty": 1}]}
    assert _only_hit(order, FIELDS) == {}


def test_two_lists_are_not_one_search() -> None:
    data = {"products": [{"sku": "SKU-1002"}], "related": [{"sku": "SKU-1003"}]}
    assert _only_hit(data, FIELDS) == {}
