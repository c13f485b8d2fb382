"""The shop's trained clause classifier: what a part of a message no template read asks.

The templates of :mod:`helpdesk.packs.shop.intents` read what they were written for; a part of
a message they do not read is said to be unread ("I could not read this part"). Before that,
this model — naive Bayes (:mod:`helpdesk.graph.text_classifier`) trained by
``python -m tests.conversations.train_clause_model`` from the tuned part of the labelled set,
shipped as ``clause_model.json`` — is asked what the part asks. Only a confident reading of a
*question* is used (a product, an order or parcel, the refundable amount, a policy, the
hotline, a ticket): the model never asks for a cancel, a refund, a ticket or a transfer, which
only the templates (and then the customer's yes) can do.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from helpdesk.graph.conversation import rx
from helpdesk.graph.text_classifier import TextClassifier, text_features

__all__ = [
    "MIN_CONFIDENCE",
    "MIN_EVIDENCE",
    "MODEL_PATH",
    "READ_LABELS",
    "ClauseReading",
    "clause_features",
    "load_model",
    "read_clause",
]

_LOG = logging.getLogger(__name__)

MODEL_PATH = Path(__file__).with_name("clause_model.json")
MIN_CONFIDENCE = 0.6
"""The least confidence a reading is used with (chosen by cross-validation on the tuned part:
the train script prints accuracy against coverage for each threshold)."""
MIN_EVIDENCE = 2
"""The least number of known features: a part of one unknown word is never guessed at."""

#: Identifiers become placeholder words: which order a clause names is no evidence of its intent.
_PLACEHOLDERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (rx(r"(?<![a-z0-9])sku[\s_-]*\d{3,6}(?!\d)"), "zzsku"),
    (rx(r"(?<![a-z0-9])(?:sf|yt)\d{10}(?!\d)"), "zztracking"),
    (rx(r"(?<![a-z0-9])t-?\d{6}(?!\d)"), "zzticket"),
    (rx(r"(?<!\d)\d{6}(?!\d)"), "zzorder"),
    (rx(r"\d+(?:\.\d+)?"), "zznumber"),
)

READ_LABELS = frozenset(
    {
        "product",
        "tracking",
        "order_status",
        "list_orders",
        "refund_info",
        "ticket_status",
        "hotline",
        "faq:refund_time",
        "faq:returns",
        "faq:exchange",
        "faq:cancel_order",
        "faq:shipping_fee",
        "faq:delivery_times",
        "faq:invoice",
        "faq:warranty",
        "faq:payment",
    }
)
"""Labels whose reading is a question answered by reading: the only ones :func:`read_clause`
returns. The model knows the others (actions, small talk, ``clarify``) so that a part asking
for one of them is not mistaken for a question."""


@dataclass(frozen=True, slots=True)
class ClauseReading:
    """What the model read a part as: a label of :data:`READ_LABELS`, and its FAQ topic."""

    label: str
    confidence: float

    @property
    def intent(self) -> str:
        return self.label.split(":", 1)[0]

    @property
    def topic(self) -> str | None:
        return self.label.split(":", 1)[1] if ":" in self.label else None


def clause_features(text: str) -> set[str]:
    """The features the shop's model reads (identifiers as placeholders)."""
    return text_features(text, _PLACEHOLDERS)


@lru_cache(maxsize=1)
def load_model() -> TextClassifier | None:
    """The shipped model, or None when the file is missing or broken (logged; the templates
    still read every message, only the model's fallback readings are lost)."""
    try:
        return TextClassifier.load(MODEL_PATH)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        _LOG.warning("clause model not used (%s): %s", MODEL_PATH, exc)
        return None


def read_clause(text: str, model: TextClassifier | None = None) -> ClauseReading | None:
    """A confident reading of ``text`` as a question of :data:`READ_LABELS`, or None."""
    model = model or load_model()
    if model is None:
        return None
    prediction = model.predict(clause_features(text))
    if (
        prediction.label not in READ_LABELS
        or prediction.confidence < MIN_CONFIDENCE
        or prediction.evidence < MIN_EVIDENCE
    ):
        return None
    return ClauseReading(prediction.label, prediction.confidence)
