"""What an answer to the yes/no question changes: the amount ("yes but only 100") or the subject
("不对，我是说100904"), built for :mod:`helpdesk.graph.confirmation_reading` (never run as they
stand: the changed action is asked again)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from helpdesk.graph.conversation import bare
from helpdesk.graph.language import Lang
from helpdesk.graph.money import AmountReading, read_amount
from helpdesk.graph.request import Intent, MatchedIntent
from helpdesk.tools.packs import PackSet

__all__ = ["PART_ARGS", "changed_amount", "corrected_subject", "said_instead", "without"]


def changed_amount(text: str, lang: Lang, reading: AmountReading) -> MatchedIntent:
    """A confirmation answer that changes the amount (asked again, never run as it stands)."""
    return MatchedIntent(
        intent=Intent.CONFIRM_CHANGE,
        text=text,
        lang=lang,
        amount=reading.value,
        amount_kind=reading.kind,
        amount_raw=reading.raw,
    )


def _changed_subject(text: str, lang: Lang, subject: str, value: str) -> MatchedIntent:
    changed = MatchedIntent(intent=Intent.CONFIRM_CHANGE, text=text, lang=lang)
    return changed.with_request({subject: value}) if subject else changed


def corrected_subject(
    text: str, norm: str, lang: Lang, subject_field: str, subject: str, packs: PackSet
) -> MatchedIntent:
    """A correction to another subject ("不对，我是说100904"), with the amount if said with it
    ("sorry I meant 100609, full refund", "不对，100609 全退", "no I meant 100609, 200 yuan":
    never the old one's part)."""
    changed = _changed_subject(text, lang, subject_field, subject)
    said = read_amount(bare(without(norm, (subject,))), money_context=True, packs=packs)
    if said.kind not in ("full", "exact"):
        return changed
    return dataclasses.replace(
        changed, amount=said.value, amount_kind=said.kind, amount_raw=said.raw
    )


def without(norm: str, ids: tuple[str, ...]) -> str:
    """``norm`` with the identifiers blanked (same length)."""
    for value in ids:
        norm = re.sub(re.escape(value.lower()), lambda m: " " * len(m.group(0)), norm)
    return norm


PART_ARGS = frozenset({"share", "share_of", "share_own"})
"""A pack's words for a part of a subject ("half", "the thermos"): never carried to another."""


def said_instead(request: dict[str, Any], answer: MatchedIntent) -> dict[str, Any]:
    """The request of a waiting action after an answer whose amount cannot be used ("yes but
    refund less", "ok but I'll keep the plates too"): the answer's words now say the amount —
    the part first asked about (:data:`PART_ARGS`: "everything but the air fryer") no longer does,
    so it is never worked out again, nor the whole offered; the request is planned again from
    those words (an amount to ask about)."""
    kept = {k: v for k, v in request.items() if k not in PART_ARGS}
    args = {k: v for k, v in (request.get("args") or {}).items() if k not in PART_ARGS}
    said = answer.amount_raw or answer.text
    return {**kept, "text": answer.text, "args": args, "amount_raw": said}
