"""Judging the crash drill's replies: what a reply says about the action (done / not done /
unknown / asked again), read from the minimal tier's own template words, and which statements
the shop's truth contradicts. See :mod:`helpdesk.app.drill_crash`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from helpdesk.app.drill_checks import claimed_writes
from helpdesk.app.drill_crash_plan import CrashScenario, Statement
from helpdesk.graph.prompting import load_templates

__all__ = ["AGAIN_KEYS", "classify_reply", "judge", "says"]

_DONE_KEYS = ("reconciled_executed",)
_NOT_DONE_KEYS = (
    "reconciled_not_executed",
    "reconciled_refused",
    "confirmation_expired",
    "dropped_cancel",
    "dropped_refund",
    "dropped_action",
    "confirm_cancelled",
    "turn_failed",
)
"""Templates that tell the customer the action was not done (nothing changed)."""
_UNKNOWN_KEYS = ("reconciled_unknown", "write_unknown_ticket")
AGAIN_KEYS = ("refund_confirm_again",)
_REFUND_ID = re.compile(r"(?<![0-9A-Za-z-])R-\d{6}(?!\d)")
_FIELD = re.compile(r"\{[^{}]*\}")
_SPACE = re.compile(r"\s+")


@cache
def _template_pattern(key: str, lang: str) -> re.Pattern[str] | None:
    template = load_templates("minimal", "generate", lang).get(key)
    if not template:
        return None
    pieces = [re.escape(_SPACE.sub("", p)) for p in _FIELD.split(template)]
    return re.compile(".*?".join(p for p in pieces if p), re.S)


def says(reply: str, keys: Sequence[str]) -> bool:
    """Whether ``reply`` contains one of the minimal tier's templates ``keys`` (zh or en): every
    literal piece, in order."""
    text = _SPACE.sub("", reply)
    for key in keys:
        for lang in ("en", "zh"):
            pattern = _template_pattern(key, lang)
            if pattern is not None and pattern.search(text):
                return True
    return False


def classify_reply(reply: str, tool: str) -> str:
    """What a reply says about the action: done, not_done, unknown, asks_again, or none."""
    if says(reply, _UNKNOWN_KEYS):
        return "unknown"
    if says(reply, _NOT_DONE_KEYS):
        return "not_done"
    if says(reply, _DONE_KEYS) or tool in claimed_writes(reply):
        return "done"
    if says(reply, AGAIN_KEYS):
        return "asks_again"
    return "none"


def judge(statement: Statement, scenario: CrashScenario, refund_ids: set[str]) -> list[str]:
    """Violations in one statement: a claim the shop's truth contradicts."""
    out: list[str] = []
    where = f"{statement.turn} ({statement.message!r})"
    if statement.said == "done" and statement.executions == 0:
        out.append(f"{where}: says {scenario.tool} was done; the shop has no execution")
    if statement.said == "not_done" and statement.executions > 0:
        out.append(f"{where}: says {scenario.tool} was not done; the shop executed it")
    for refund_id in sorted(set(_REFUND_ID.findall(statement.reply)) - refund_ids):
        out.append(f"{where}: names refund {refund_id}, which the shop does not have")
    return out
