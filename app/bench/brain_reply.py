"""What the scripted brain saw and what it says: tool outcomes as :class:`Observation` records
and the customer's reply written from them (:func:`write_reply`).

Observations come from an agent transcript (:func:`observations_from_messages`) or from
helpdesk's ``generate`` facts (:func:`observations_from_facts`), in system-neutral terms, so
every benchmarked system is answered by the same writer: facts only from tool results the brain
saw, and a plain statement when a tool failed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

__all__ = [
    "HOTLINE",
    "Observation",
    "Outcome",
    "message_text",
    "observations_from_facts",
    "observations_from_messages",
    "write_reply",
]


Outcome = Literal[
    "ok", "stale", "fallback", "business", "failed", "unknown", "needs_confirmation", "skipped"
]

HOTLINE: Final = "400-820-8820"


@dataclass(frozen=True, slots=True)
class Observation:
    """One tool outcome the brain may talk about, in system-neutral terms."""

    tool: str
    args: Mapping[str, Any]
    outcome: Outcome
    data: Any = None
    age_s: float | None = None
    ticket_id: str | None = None


def message_text(message: BaseMessage) -> str:
    """A message's text (its content, or the text of its content blocks)."""
    content = message.content
    return content if isinstance(content, str) else message.text


# --- what the brain saw -------------------------------------------------------------------------


def observations_from_messages(messages: Sequence[BaseMessage]) -> list[Observation] | None:
    """Tool outcomes after the last human message of an agent transcript; None when there are
    none yet (the brain still has to call tools)."""
    start = 0
    for index in range(len(messages) - 1, -1, -1):
        if isinstance(messages[index], HumanMessage):
            start = index + 1
            break
    tail = messages[start:]
    calls: dict[str, tuple[str, Mapping[str, Any]]] = {}
    out: list[Observation] = []
    for message in tail:
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                calls[str(call.get("id"))] = (call["name"], call["args"])
        elif isinstance(message, ToolMessage):
            name, args = calls.get(message.tool_call_id, (message.name or "", {}))
            out.append(_observe_tool_message(name, args, message))
    return out or None


def _observe_tool_message(name: str, args: Mapping[str, Any], message: ToolMessage) -> Observation:
    text = message_text(message)
    if message.status == "error":
        return Observation(name, args, "failed", data=text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return Observation(name, args, "failed", data=text)
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        return Observation(name, args, "business", data=data["error"])
    return Observation(name, args, "ok", data=data)


def observations_from_facts(facts: Mapping[str, Any]) -> list[Observation]:
    """helpdesk's ``generate`` facts (``reply_facts_json``) as observations."""
    tickets = {
        str(p.get("what", "")): p.get("ticket_id")
        for p in facts.get("pending", [])
        if isinstance(p, Mapping)
    }
    out: list[Observation] = []
    for request in facts.get("requests", []):
        if not isinstance(request, Mapping) or not request.get("tool"):
            continue
        tool = str(request["tool"])
        data = request.get("data")
        args: dict[str, Any] = {}
        for key in ("order_id", "sku"):
            if request.get(key):
                args[key] = request[key]
        status = str(request.get("status", "failed"))
        ticket = request.get("ticket_id")
        outcome: Outcome
        if status == "ok":
            outcome = "ok"
        elif status == "stale":
            outcome = "stale"
        elif status == "degraded":
            outcome = "fallback" if request.get("is_fallback") else "ok"
        elif status == "failed" and request.get("error_class") == "business":
            outcome = "business"
        elif status in ("unknown", "needs_confirmation", "skipped"):
            outcome = status  # type: ignore[assignment]
        else:
            outcome = "failed"
        if ticket is None:
            ticket = next((t for what, t in tickets.items() if t and tool in what), None)
        out.append(
            Observation(
                tool,
                args,
                outcome,
                data=data,
                age_s=request.get("data_age_seconds"),
                ticket_id=str(ticket) if ticket else None,
            )
        )
    return out


# --- the reply ----------------------------------------------------------------------------------

_WHAT: Final = {
    "get_order": "the status of order {order_id}",
    "track_shipment": "the tracking details for order {order_id}",
    "check_stock": "the stock level of {sku}",
    "list_orders": "your order list",
    "cancel_order": "cancelling order {order_id}",
}


def _what(obs: Observation) -> str:
    template = _WHAT.get(obs.tool, "one of your requests")
    return template.format(
        order_id=obs.args.get("order_id", "?"), sku=obs.args.get("sku", "this product")
    )


def write_reply(observations: Sequence[Observation]) -> str:
    """The customer's reply: one or two sentences per observation, facts only from the data."""
    if not observations:
        return "Could you tell me the order number or product code you are asking about?"
    return " ".join(_sentence(o) for o in observations)


def _sentence(obs: Observation) -> str:
    if obs.outcome in ("ok", "stale"):
        text = _facts_sentence(obs)
        if obs.outcome == "stale":
            age = round(obs.age_s or 0)
            text += f" (This comes from data cached {age} seconds ago and may not be up to date.)"
        return text
    if obs.outcome == "business":
        return _refusal_sentence(obs)
    if obs.outcome == "needs_confirmation":
        return (
            f"Do you want me to cancel order {obs.args.get('order_id', '?')}? "
            'Please reply "yes" to confirm.'
        )
    if obs.outcome == "unknown":
        ticket = f" I've opened follow-up ticket {obs.ticket_id}." if obs.ticket_id else ""
        return (
            f"I can't confirm yet whether {_what(obs)} went through because our system timed "
            f"out; please don't submit it again for now.{ticket}"
        )
    if obs.outcome == "fallback":
        return (
            f'I can\'t look up {_what(obs)} right now. You can check it under "My orders" in '
            f"the app, or call our hotline at {HOTLINE}."
        )
    if obs.tool == "cancel_order":
        return (
            f"I couldn't confirm whether {_what(obs)} went through because our system returned "
            "an error. Please check the order before trying again."
        )
    return (
        f"Sorry, I couldn't check {_what(obs)} right now because our system returned an "
        "error. Please try again shortly."
    )


def _facts_sentence(obs: Observation) -> str:
    data = obs.data if isinstance(obs.data, Mapping) else {}
    if obs.tool == "get_order":
        return f"Order {data.get('order_id', obs.args.get('order_id'))} is {data.get('status')}."
    if obs.tool == "track_shipment":
        order_id = data.get("order_id", obs.args.get("order_id"))
        shipments = [s for s in data.get("shipments", []) if isinstance(s, Mapping)]
        if not shipments:
            return f"Order {order_id} hasn't shipped yet, so there is no tracking number."
        parts = [
            f"{s.get('carrier_name') or s.get('carrier')} tracking number "
            f"{s.get('tracking_number')} ({str(s.get('status', '')).replace('_', ' ')})"
            for s in shipments
        ]
        status = f" ({data['order_status']})" if data.get("order_status") else ""
        return f"Tracking for order {order_id}{status}: {'; '.join(parts)}."
    if obs.tool == "check_stock":
        sku = data.get("sku", obs.args.get("sku"))
        available = int(data.get("total_available", 0) or 0)
        if available > 0:
            return f"{sku} is in stock ({available} available)."
        return f"{sku} is out of stock right now."
    if obs.tool == "cancel_order":
        return f"Order {data.get('order_id', obs.args.get('order_id'))} has been cancelled."
    if obs.tool == "list_orders":
        orders = [o for o in data.get("orders", []) if isinstance(o, Mapping)]
        listed = ", ".join(f"{o.get('order_id')} ({o.get('status')})" for o in orders)
        return f"Your recent orders: {listed}." if listed else "You have no orders yet."
    return "Done."


def _refusal_sentence(obs: Observation) -> str:
    data = obs.data if isinstance(obs.data, Mapping) else {}
    code = str(data.get("code", ""))
    order_id = obs.args.get("order_id", "?")
    if code in ("not_cancellable", "chaos_business") or obs.tool == "cancel_order":
        status = data.get("status") or _status_in(str(data.get("message", "")))
        if status:
            return f"Order {order_id} can't be cancelled because it is {status}."
        return f"Order {order_id} can't be cancelled in its current state."
    if code == "order_not_found":
        return f"I couldn't find order {order_id}; please check the number."
    if code == "sku_not_found":
        return f"I couldn't find product {obs.args.get('sku', '?')}; please check the code."
    return f"Sorry, {_what(obs)} was refused by our system."


def _status_in(message: str) -> str | None:
    found = re.search(r"\b(pending|paid|shipped|delivered|cancelled)\b", message)
    return found.group(1) if found else None
