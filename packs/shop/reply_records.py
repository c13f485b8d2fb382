"""The customer's tickets and refunds as reply text ("any update on my complaint?", "where's
my refund?" naming no order), from the shop API's documented shapes (``tools/shop/API.md``)."""

from __future__ import annotations

from typing import Any

from helpdesk.graph.replies import Writer
from helpdesk.packs.shop.reply_data import as_list, as_str, date_text, money, need

__all__ = ["refunds_text", "ticket_text"]

_CLOSED = frozenset({"closed", "resolved"})


def ticket_text(w: Writer, ticket: dict[str, Any]) -> str:
    """A ticket's status, what it is about and when it was opened; for the customer's list of
    tickets ("any update on my complaint?"), the open ones (else the latest), each so."""
    if "tickets" in ticket:
        listed = [t for t in ticket.get("tickets") or () if isinstance(t, dict)]
        if not listed:
            return w.say("tickets_none")
        shown = [t for t in listed if t.get("status") not in _CLOSED] or listed[:1]
        return "\n\n".join(ticket_text(w, t) for t in shown[:3])
    ticket_id = need(as_str(ticket["ticket_id"]))
    status = as_str(ticket["status"])
    lines = [
        w.say(
            "ticket_status_line",
            ticket_id=ticket_id,
            subject=as_str(ticket.get("subject")),
            status=w.label(f"ticket_status_{status}", status),
            created=date_text(ticket.get("created_at")),
        )
    ]
    if ticket.get("order_id"):
        lines.append(w.say("ticket_order_line", order_id=as_str(ticket["order_id"])))
    key = f"ticket_next_{status}"
    if w.handed_off and f"{key}_handed_off" in w.t:
        key = f"{key}_handed_off"  # a person asked for this turn: never "say talk to a human"
    if key in w.t:
        lines.append(w.say(key))
    return "\n".join(lines)


def refunds_text(w: Writer, data: dict[str, Any]) -> str:
    """The customer's refunds ("where's my refund?" naming no order): each with its order,
    amount, state and the day it was asked; then how long a refund takes to arrive."""
    refunds = [r for r in as_list(data.get("refunds")) if isinstance(r, dict)]
    if not refunds:
        return w.say("refunds_none")
    lines = [w.say("refunds_intro")]
    for refund in refunds[:5]:
        r_status = as_str(refund.get("status"))
        lines.append(
            w.say(
                "refunds_item",
                refund_id=as_str(refund.get("refund_id")),
                order_id=as_str(refund.get("order_id")),
                amount=money(refund.get("amount", 0)),
                refund_status=w.label(f"refund_status_{r_status}", r_status),
                created=date_text(refund.get("created_at")),
            )
        )
    lines.append(w.say("refunds_arrival"))
    return "\n".join(lines)
