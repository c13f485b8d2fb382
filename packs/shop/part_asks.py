"""What a part of a customer's message asks, for the engine's check that no request is dropped.

The engine (:mod:`helpdesk.graph.unclaimed_parts`) says a part of a message is unread when it
asks something no reading of the message answers. The shop tells what a part asks with its
trained clause classifier (:mod:`helpdesk.packs.shop.clause_model`): the capabilities that would
answer the label it reads, or nothing for small talk and what no capability answers. A part left
between readings needs the model's usual confidence; a part folded into a longer reading ("空气
炸锅那单的保温杯退了，另外100998啥时候发货", read whole as a look at 100998) needs a high one — it
overrules a template's grouping. Nothing is ever planned from this reading.
"""

from __future__ import annotations

from helpdesk.graph.text_classifier import TextClassifier
from helpdesk.packs.shop.clause_model import MIN_EVIDENCE, clause_features, load_model

__all__ = ["FOLDED_CONFIDENCE", "FOLDED_EVIDENCE", "LEFT_CONFIDENCE", "SERVED_BY", "part_asks"]

FOLDED_CONFIDENCE = 0.9
"""The least confidence a reading of a part folded into a longer reading needs."""
LEFT_CONFIDENCE = 0.75
"""The least confidence a reading of a part left between readings needs (above the model's own
:data:`~helpdesk.packs.shop.clause_model.MIN_CONFIDENCE`: a short remark beside a request — "都两天
了" — is read as a request at lower confidence)."""
FOLDED_EVIDENCE = 3
"""The least number of known features of such a part."""

SERVED_BY: dict[str, frozenset[str]] = {
    "product": frozenset({"stock"}),
    "tracking": frozenset({"tracking", "order_status"}),
    "order_status": frozenset({"order_status", "tracking", "list_orders"}),
    "list_orders": frozenset({"list_orders", "order_status"}),
    "refund_info": frozenset({"order_status", "refund"}),
    "ticket_status": frozenset({"ticket_status"}),
    "hotline": frozenset({"hotline", "handoff"}),
    "faq": frozenset({"faq"}),
    "cancel_order": frozenset({"cancel_order"}),
    "refund": frozenset({"refund"}),
    "ticket": frozenset({"create_ticket", "handoff"}),
    "handoff": frozenset({"handoff"}),
    "change_address": frozenset({"change_address"}),
}
"""Each request label of the classifier, and the readings that answer it (a look at an order
answers where its parcel is; an FAQ of any topic is the policy asked about). Labels not here
(a greeting, thanks, a complaint, an unclear part) ask nothing a reading must answer."""


def part_asks(part: str, held: bool, model: TextClassifier | None = None) -> frozenset[str] | None:
    """The capabilities that would answer ``part`` (empty: it asks nothing they do), or None
    when the model is not sure enough (``held``: the part is inside a longer reading)."""
    model = model or load_model()
    if model is None:
        return None
    prediction = model.predict(clause_features(part))
    sure = (FOLDED_CONFIDENCE, FOLDED_EVIDENCE) if held else (LEFT_CONFIDENCE, MIN_EVIDENCE)
    if prediction.confidence < sure[0] or prediction.evidence < sure[1]:
        return None
    return SERVED_BY.get(prediction.label.split(":", 1)[0], frozenset())
