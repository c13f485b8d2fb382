"""Structured records of what happened: one JSON object per tool call and one per turn.

:func:`call_record` is the structured log line of one tool call (call id, tool, redacted argument
summary, status, error class, attempts, retry waits, whether an idempotency key was sent, a
summary of the result); :func:`turn_record` is the record of one answered turn (outcome, latency,
tool results, the DegradeContext). Both are JSON-able dicts with a ``type`` field, written as-is
to a run's events file (JSONL) and read back by :mod:`helpdesk.app.degrade_report`.
:func:`turn_outcome` and :func:`turn_succeeded` are the one definition of a turn's outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from helpdesk.app.redaction import redact, summarize_args
from helpdesk.tools.context import RequestContext
from helpdesk.tools.results import ToolCall, ToolResult

__all__ = [
    "CALL_RECORD_FIELDS",
    "TurnOutcome",
    "call_record",
    "turn_outcome",
    "turn_record",
    "turn_succeeded",
]

TurnOutcome = Literal["ok", "degraded", "failed"]

CALL_RECORD_FIELDS: Final[tuple[str, ...]] = (
    "type",
    "call_id",
    "tool",
    "args",
    "status",
    "error_class",
    "reason",
    "attempts",
    "waits",
    "ladder",
    "idempotency_key_present",
    "result",
    "duration_s",
    "session",
    "turn",
    "request_id",
)
"""Keys of every call record, in order."""

_SERVED = frozenset({"ok", "needs_confirmation"})
_ANSWERED = _SERVED | {"stale", "degraded"}


def _result_summary(result: ToolResult) -> dict[str, Any]:
    data = result.data
    summary: dict[str, Any] = {
        "fallback": result.fallback,
        "ticket_id": result.ticket_id,
        "age_s": result.age_s,
    }
    if isinstance(data, Mapping):
        summary["data_keys"] = sorted(str(k) for k in data)[:20]
    elif isinstance(data, list):
        summary["data_items"] = len(data)
    else:
        summary["data_type"] = type(data).__name__
    return summary


def call_record(
    *,
    call: ToolCall,
    result: ToolResult,
    duration_s: float,
    waits: tuple[float, ...],
    ctx: RequestContext,
) -> dict[str, Any]:
    """The structured (and redacted) record of one finished tool call."""
    return {
        "type": "call",
        "call_id": call.id,
        "tool": result.tool,
        "args": summarize_args(call.args),
        "status": str(result.status),
        "error_class": str(result.error_class) if result.error_class else None,
        "reason": redact(result.reason),
        "attempts": result.attempts,
        "waits": [round(w, 3) for w in waits],
        "ladder": [str(step) for step in result.ladder],
        "idempotency_key_present": result.idempotency_key is not None,
        "result": _result_summary(result),
        "duration_s": round(duration_s, 6),
        "session": ctx.session,
        "turn": ctx.turn,
        "request_id": ctx.request_id,
    }


def _business(result: Mapping[str, Any]) -> bool:
    return result.get("error_class") == "business"


def turn_outcome(payload: Mapping[str, Any]) -> TurnOutcome:
    """``failed``: no usable reply (empty, or validation found violations); ``degraded``:
    answered, but something was stale, a fallback, pending or failed; ``ok`` otherwise."""
    validation = payload.get("validation") or {}
    if not str(payload.get("reply") or "").strip() or validation.get("ok") is False:
        return "failed"
    degrade = payload.get("degrade") or {}
    if degrade.get("level", 0) or degrade.get("pending") or degrade.get("stale"):
        return "degraded"
    for result in payload.get("tool_results", []):
        if result.get("status") not in _SERVED and not _business(result):
            return "degraded"
    return "ok"


def turn_succeeded(payload: Mapping[str, Any]) -> bool:
    """Whether the customer got an answer to everything asked: a valid reply and every call
    served — live, from last-good data or by its fallback — or asked to confirm, or refused by
    a business rule (an answer too). Failed, unknown and dropped calls are not successes."""
    if turn_outcome(payload) == "failed":
        return False
    results = payload.get("tool_results", [])
    return all(r.get("status") in _ANSWERED or _business(r) for r in results)


def turn_record(payload: Mapping[str, Any], duration_s: float, *, at: float) -> dict[str, Any]:
    """The record of one answered turn (no reply text: only its size; reasons redacted)."""
    degrade = dict(payload.get("degrade") or {})
    events = [{**e, "reason": redact(str(e.get("reason", "")))} for e in degrade.get("events", [])]
    return {
        "type": "turn",
        "at": at,
        "session": payload.get("session"),
        "request_id": degrade.get("request_id"),
        "tier": payload.get("tier"),
        "duration_s": round(duration_s, 6),
        "outcome": turn_outcome(payload),
        "succeeded": turn_succeeded(payload),
        "reply_chars": len(str(payload.get("reply") or "")),
        "validation_ok": (payload.get("validation") or {}).get("ok", True),
        "tool_results": [
            {
                "tool": r.get("tool"),
                "status": r.get("status"),
                "error_class": r.get("error_class"),
                "ladder": list(r.get("ladder", [])),
                "reason": redact(str(r.get("reason", ""))),
                "ticket_id": r.get("ticket_id"),
            }
            for r in payload.get("tool_results", [])
        ],
        "degrade": {
            "level": degrade.get("level", 0),
            "partial": degrade.get("partial", False),
            "stale": degrade.get("stale", {}),
            "pending": [
                {**p, "what": redact(str(p.get("what", "")))} for p in degrade.get("pending", [])
            ],
            "events": events,
        },
    }
