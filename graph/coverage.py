"""Whether the rule checks can see that a reply answers everything the customer asked.

The validate node asks a model tier whether a model-written draft answers every request (the
semantic check, a third sequential model round trip) only when these rules cannot decide:
never for a template reply, which renders one line per request by construction, and never when
every request names its object by an identifier the draft quotes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from helpdesk.tools.packs import PackSet

__all__ = ["SELF_ANSWERING", "Asked", "semantic_check_needed", "uncovered_requests"]

SELF_ANSWERING: frozenset[str] = frozenset(
    {"greeting", "thanks", "confirm_yes", "confirm_no", "confirm_change", "confirm_unclear"}
)
"""Intents whose answer names no object: nothing for a semantic check to find missing."""

_OPEN_ENDED: frozenset[str] = frozenset({"unknown", "faq"})
"""Intents answered in free words (a policy, an unrecognised question): only a model can tell
whether the reply answers them."""


@dataclass(frozen=True)
class Asked:
    """One thing the customer asked for this turn: its intent and its matched fields."""

    intent: str
    fields: Mapping[str, Any] = field(default_factory=dict)


def uncovered_requests(
    asked: Sequence[Asked] | None, draft: str, customer_text: str, packs: PackSet
) -> list[str]:
    """Why the rules cannot tell that ``draft`` answers everything asked (empty: they can).

    They can when the turn's understanding of the message is known, every request is either
    self-answering (a greeting, a yes) or names its object by an identifier the draft quotes,
    none is open-ended (an FAQ, an unrecognised question), and every identifier the customer
    wrote is quoted in the draft too (the understanding dropped none of them).
    """
    if not asked:
        return ["what the customer asked for is not known"]
    pattern = packs.identifier_pattern()
    if pattern is None:
        return ["no identifier shape is declared"]
    quoted = set(pattern.findall(draft))
    reasons: list[str] = []
    for request in asked:
        if request.intent in SELF_ANSWERING:
            continue
        if request.intent in _OPEN_ENDED:
            reasons.append(f"{request.intent} is answered in free words")
            continue
        subjects = {
            value
            for name, value in request.fields.items()
            if name != "text" and isinstance(value, str) and pattern.fullmatch(value)
        }
        if not subjects:
            reasons.append(f"{request.intent} names no object")
        reasons += [f"{request.intent} of {s} is not quoted" for s in sorted(subjects - quoted)]
    reasons += [
        f"{ident} from the message is not quoted"
        for ident in sorted(set(pattern.findall(customer_text)) - quoted)
    ]
    return reasons


def semantic_check_needed(
    asked: Sequence[Asked] | None,
    draft: str,
    customer_text: str,
    packs: PackSet,
    *,
    model_written: bool,
) -> bool:
    """Whether a model tier must judge if ``draft`` answers everything the customer asked:
    only for a model-written draft whose coverage the rules cannot see."""
    return model_written and bool(uncovered_requests(asked, draft, customer_text, packs))
