"""The question that asks a refund's yes: its exact amount, and what it is — the whole
refundable amount, a share of what was paid, one item's price, or the amounts said per thing —
so that the customer checks the money before a yes runs it."""

from __future__ import annotations

from typing import Any

from helpdesk.graph.replies import Writer
from helpdesk.packs.shop.reply_data import as_dict, as_str, money

__all__ = ["refund_question"]


def refund_question(w: Writer, order_id: str, amount: Any, data: dict[str, Any]) -> str:
    """The confirmation question of a refund of ``amount`` on ``order_id`` (``data``: what the
    refund's precheck found)."""
    previous = as_dict(data.get("previous"))
    if previous:
        return w.say(
            "refund_confirm_again",
            order_id=order_id,
            amount=money(amount),
            when=as_str(previous.get("when")) or as_str(previous.get("at")),
        )
    if data.get("full"):
        return w.say("refund_confirm_full", order_id=order_id, amount=money(amount))
    per_item = [as_dict(p) for p in data.get("per_item") or () if isinstance(p, dict)]
    if per_item:
        # "refund 100 for the thermos and 200 for the air fryer": the sum, and each part
        key = "item_zh" if w.lang == "zh" else "item"
        parts = [
            w.say("refund_part", item=as_str(p.get(key)), amount=money(p.get("amount", 0)))
            for p in per_item
        ]
        return w.say(
            "refund_confirm_parts",
            order_id=order_id,
            amount=money(amount),
            parts=("、" if w.lang == "zh" else "; ").join(parts),
        )
    if data.get("share") and data.get("share_base") is not None:
        # "refund half": the exact amount, and what it is a share of, to check before a yes
        item = as_str(data.get("share_item_zh" if w.lang == "zh" else "share_item"))
        of = (
            w.say("share_of_remaining")
            if data.get("share_of_remaining")
            else w.say("share_of_item", item=item)
            if item
            else w.say("share_of_order")
        )
        if item and float(data["share"]) >= 1:
            # "refund the thermos from 100200": that item's price, said as such
            return w.say("refund_confirm_item", order_id=order_id, amount=money(amount), item=item)
        percent = f"{float(data['share']) * 100:.2f}".rstrip("0").rstrip(".")
        return w.say(
            "refund_confirm_share",
            order_id=order_id,
            amount=money(amount),
            percent=percent,
            base=money(data["share_base"]),
            of=of,
        )
    return w.say("refund_confirm", order_id=order_id, amount=money(amount))
