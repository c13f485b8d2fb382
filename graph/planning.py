"""From matched intents to tasks and tool calls (the minimal tier's decomposition and selection).

Deterministic and offline: each intent maps to one built-in tool with arguments taken from the
customer's words and the session's facts. Intents that need no tool (greeting, FAQ framing,
clarifying questions) become tasks without a call; missing information (no order id) becomes a
task the reply asks about instead of a guess.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from helpdesk.graph.intents import Intent, MatchedIntent, product_query
from helpdesk.graph.state import Task
from helpdesk.tools.results import ToolCall

__all__ = ["call_for", "match_from_task", "plain_match", "plan_tasks"]

_NON_CORE = frozenset({Intent.STOCK, Intent.FAQ})


def call_for(match: MatchedIntent, task_id: str, *, facts: dict[str, Any]) -> ToolCall | None:
    """The tool call serving ``match``, or None when no tool is needed or information is missing."""
    intent = match.intent
    oid = match.order_id
    if intent is Intent.ORDER_STATUS:
        if oid:
            return ToolCall(name="get_order", args={"order_id": oid}, id=task_id)
        return ToolCall(name="list_orders", args={"limit": 5}, id=task_id)
    if intent is Intent.LIST_ORDERS:
        return ToolCall(name="list_orders", args={"limit": 5}, id=task_id)
    if intent is Intent.TRACKING and oid:
        return ToolCall(name="track_shipment", args={"order_id": oid}, id=task_id)
    if intent is Intent.STOCK and match.sku:
        return ToolCall(name="check_stock", args={"sku": match.sku}, id=task_id)
    if intent is Intent.STOCK:
        query = product_query(match.text)
        if query:
            return ToolCall(name="search_products", args={"q": query}, id=task_id)
    if intent is Intent.FAQ:
        args: dict[str, Any] = {"lang": match.lang}
        if match.topic:
            args["topic"] = match.topic
        else:
            args["q"] = match.text[:200]
        return ToolCall(name="search_faq", args=args, id=task_id)
    if intent is Intent.CANCEL_ORDER and oid:
        return ToolCall(name="cancel_order", args={"order_id": oid}, id=task_id)
    if intent is Intent.REFUND and oid:
        return ToolCall(
            name="request_refund", args={"order_id": oid, "amount": match.amount}, id=task_id
        )
    if intent is Intent.CREATE_TICKET:
        subject = (match.details or match.text)[:120]
        return ToolCall(
            name="create_ticket",
            args={"subject": subject, "description": match.text[:2000], "order_id": oid},
            id=task_id,
        )
    if intent is Intent.HANDOFF:
        return ToolCall(
            name="handoff_to_human",
            args={"summary": match.text[:2000], "order_id": oid, "facts": _ticket_facts(facts)},
            id=task_id,
        )
    return None


def _ticket_facts(facts: dict[str, Any]) -> dict[str, Any]:
    return {k: facts[k] for k in ("order_ids", "skus", "preferences") if facts.get(k)}


def plan_tasks(
    matches: list[MatchedIntent],
    *,
    turn: int,
    facts: dict[str, Any],
    allow_confirm: bool = True,
) -> list[Task]:
    """Tasks for this turn, with their calls.

    A confirmation resumes exactly the actions the previous reply asked about (every pending
    action, each with the turn it was requested in, so its idempotency key is the one it was
    shown with). ``allow_confirm`` is False for a model's decomposition: only the template
    matcher may read a customer's "yes"; a model's confirm intents are ignored.
    """
    tasks: list[Task] = []
    pending = list(facts.get("pending_actions") or [])
    index = 0
    for match in matches:
        if match.intent in (Intent.CONFIRM_YES, Intent.CONFIRM_NO) and not allow_confirm:
            continue
        if match.intent is Intent.CONFIRM_YES and pending:
            for action in pending:
                task_id = f"t{turn}-{index}"
                index += 1
                original = action["match"]
                resumed = ToolCall(
                    name=action["tool"],
                    args=action["args"],
                    id=task_id,
                    confirmed=True,
                    action_turn=action["turn"],
                )
                tasks.append(
                    Task(id=task_id, intent=original["intent"], match=original, call=resumed)
                )
            pending = []
            continue
        task_id = f"t{turn}-{index}"
        index += 1
        call = call_for(match, task_id, facts=facts)
        tasks.append(
            Task(
                id=task_id,
                intent=match.intent.value,
                match=plain_match(match),
                call=call,
                core=match.intent not in _NON_CORE,
            )
        )
    return tasks


def plain_match(match: MatchedIntent) -> dict[str, Any]:
    """The match's fields as plain JSON values (checkpoints store no custom enums)."""
    fields = dataclasses.asdict(match)
    return {k: (v.value if isinstance(v, Enum) else v) for k, v in fields.items()}


def match_from_task(task: Task) -> MatchedIntent:
    """Rebuild the MatchedIntent a task was planned from (checkpoints store plain fields)."""
    fields = dict(task.match)
    fields["intent"] = Intent(fields.get("intent", task.intent))
    known = {f.name for f in dataclasses.fields(MatchedIntent)}
    return MatchedIntent(**{k: v for k, v in fields.items() if k in known})
