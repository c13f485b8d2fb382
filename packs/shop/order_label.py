"""How the confirmation names the order a customer's words were looked up to: what they
matched in it ("Air Fryer 5L" / "空气炸锅 5L"), the only order on its way, or the order a
ticket named is about."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["order_label"]

_ON_ITS_WAY_LABEL = {"en": "your only order on its way", "zh": "您目前唯一在途的订单"}


def order_label(data: Any, order_id: str) -> dict[str, str] | None:
    """What the words matched in that order, by language ("Air Fryer 5L" / "空气炸锅 5L"); for
    "where is my parcel", that it is the customer's only order on its way."""
    orders = data.get("orders") if isinstance(data, Mapping) else None
    listed = [o for o in orders if isinstance(o, Mapping)] if isinstance(orders, list) else []
    if isinstance(data, Mapping) and data.get("tracking_number"):
        return None  # the order of the parcel named: the reply names the parcel itself
    ticket = data.get("ticket_id") if isinstance(data, Mapping) else None
    if isinstance(ticket, str) and ticket:
        return {"en": f"the order ticket {ticket} is about", "zh": f"工单 {ticket} 关联的订单"}
    if isinstance(data, Mapping) and not data.get("matched_products"):
        picked = [o for o in listed if o.get("order_id") == order_id]
        if picked and picked[0].get("status") == "shipped":
            return dict(_ON_ITS_WAY_LABEL)
    for order in listed:
        if order.get("order_id") == order_id:
            matched = [m for m in order.get("matched") or () if isinstance(m, Mapping)]
            if matched:
                return {
                    lang: "、".join(str(m.get(lang)) for m in matched)
                    if lang == "zh"
                    else ", ".join(str(m.get(lang)) for m in matched)
                    for lang in ("en", "zh")
                }
    return None
