"""What the service tells a client about a turn: the reply's facts in a small stable shape.

:func:`turn_result` summarises a turn payload (tool statuses, the degrade summary, stale data
with its age, pending items, and the actions waiting for the customer's yes with their exact
arguments and amount); :func:`history` lists a session's messages.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from helpdesk.tools.registry import ToolRegistry

__all__ = ["CURRENCY", "history", "offer_token", "pending_confirmations", "turn_result"]

CURRENCY = "CNY"
"""The demo shop's currency (amounts are shown as ¥)."""


def pending_confirmations(
    tool_results: Iterable[Mapping[str, Any]], registry: ToolRegistry
) -> list[dict[str, Any]]:
    """The actions a reply asked the customer to confirm, with their exact arguments/amount."""
    pending: list[dict[str, Any]] = []
    for result in tool_results:
        if result.get("status") != "needs_confirmation":
            continue
        raw = result.get("data")
        data: dict[str, Any] = raw if isinstance(raw, dict) else {}
        args = dict(data.get("args") or {})
        spec = registry.get(str(result.get("tool")))
        kind = spec.policy.kind if spec is not None else "write"
        item: dict[str, Any] = {
            "tool": result.get("tool"),
            "kind": kind,
            "args": {k: v for k, v in args.items() if v is not None},
        }
        if kind == "money":
            amount = args.get("amount")
            if amount is None:
                amount = data.get("refundable_amount")
            item["amount"] = amount
            item["currency"] = CURRENCY
        pending.append(item)
    return pending


def offer_token(pending: list[dict[str, Any]]) -> str | None:
    """A short token naming exactly what waits for the customer's yes (each action's tool,
    arguments and amount); None when nothing waits. A client sends it back with the answer so
    that a yes pressed for one offer never confirms another that replaced it."""
    if not pending:
        return None
    said = json.dumps(pending, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(said.encode("utf-8")).hexdigest()[:16]


def turn_result(payload: Mapping[str, Any], registry: ToolRegistry) -> dict[str, Any]:
    """The turn's result: tool statuses, degrade summary, pending confirmation."""
    degrade = payload.get("degrade") or {}
    tool_results = list(payload.get("tool_results") or [])
    return {
        "session": payload.get("session"),
        "tier": payload.get("tier"),
        "tools": [
            {
                "tool": r.get("tool"),
                "status": r.get("status"),
                "error_class": r.get("error_class"),
                "age_s": r.get("age_s"),
                "ticket_id": r.get("ticket_id"),
            }
            for r in tool_results
        ],
        "degrade": {
            "level": degrade.get("level", 0),
            "stale": degrade.get("stale") or {},
            "partial": bool(degrade.get("partial")),
            "simplified_mode": bool(degrade.get("simplified_mode")),
            "pending": list(degrade.get("pending") or []),
            "events": len(degrade.get("events") or []),
        },
        "pending_confirmation": (pending := pending_confirmations(tool_results, registry)),
        "offer": offer_token(pending),
    }


def history(messages: Iterable[BaseMessage]) -> list[dict[str, str]]:
    """The conversation as ``[{role: customer|bot, text}]`` (system notes left out)."""
    out: list[dict[str, str]] = []
    for message in messages:
        if isinstance(message, HumanMessage):
            role = "customer"
        elif isinstance(message, AIMessage) and not message.tool_calls:
            role = "bot"
        else:
            continue
        content = message.content
        text = content if isinstance(content, str) else str(content)
        out.append({"role": role, "text": text})
    return out
