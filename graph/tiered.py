"""Glue between the model tiers' stage outputs and the turn: tasks, tool calls, reply facts.

Models propose; this module turns what they propose into the same :class:`Task` s and
:class:`ToolCall` s the minimal tier produces, so every later stage (executor, replies,
validation) is the same whichever tier answered. Invalid tool calls get bounded self-correction
rounds with field-level feedback; what still cannot be used is dropped as a pending item.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from helpdesk.degrade.clock import Clock
from helpdesk.degrade.context import LadderStep, PendingItem
from helpdesk.degrade.errors import ErrorClass
from helpdesk.graph.intents import Intent, MatchedIntent
from helpdesk.graph.language import Lang
from helpdesk.graph.money import given_amount
from helpdesk.graph.planning import call_for, match_from_task, plain_match
from helpdesk.graph.replies import ReplyItem
from helpdesk.graph.stages import PlannedTask, StageOutcome, select_tools_with_tiers
from helpdesk.graph.state import Task
from helpdesk.graph.tiers import TierRouter
from helpdesk.tools.context import RequestContext
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import PackSet
from helpdesk.tools.results import ToolCall, ToolResult

__all__ = [
    "MAX_CORRECTION_ROUNDS",
    "matches_from_plan",
    "reply_facts_json",
    "select_with_models",
    "tool_schemas",
]

MAX_CORRECTION_ROUNDS = 2
"""Self-correction rounds a turn may spend on invalid tool calls before dropping them."""


def matches_from_plan(
    planned: Sequence[PlannedTask],
    *,
    text: str,
    lang: Lang,
    last_subject: str | None,
    packs: PackSet,
) -> list[MatchedIntent]:
    """A model's decomposition as MatchedIntents (scoped asks that name no subject inherit the
    session's last one, :meth:`~helpdesk.tools.packs.PackSet.subject`; a pack's intent becomes a
    pack request, anything else unknown)."""
    subject = packs.subject()
    matches: list[MatchedIntent] = []
    for task in planned:
        if task.intent in _ENGINE_INTENTS:
            intent = Intent(task.intent)
            if intent in (Intent.CONFIRM_YES, Intent.CONFIRM_NO):
                continue  # a model never decides that the customer confirmed (or declined)
            matches.append(
                MatchedIntent(intent=intent, text=text, lang=lang, details=task.details or "")
            )
            continue
        cap = packs.for_intent(task.intent)
        if cap is None:
            matches.append(MatchedIntent(intent=Intent.UNKNOWN, text=text, lang=lang))
            continue
        request = task.request_args()
        inferred = False
        scoped = bool(subject) and cap.subject == subject
        if scoped and request.get(subject) is None and last_subject:
            request[subject], inferred = last_subject, True
        # the model's amount is held to the rules of the customer's own words (exact, or
        # invalid and asked about): it was dropped before, and a refund of 50 offered it all
        amount = given_amount(task.amount)
        base = MatchedIntent(
            intent=Intent.PACK,
            text=text,
            lang=lang,
            quantity=task.quantity,
            topic=task.topic,
            amount=amount.value,
            amount_kind=amount.kind,
            amount_raw=amount.raw,
            details=task.details or "",
            inferred_order=inferred,
            capability=task.intent,
        )
        matches.append(base.with_request(request))
    return matches


def tool_schemas(executor: ResilientExecutor) -> list[dict[str, Any]]:
    """The registry's tools in OpenAI function format (identity and keys never included)."""
    return [
        {
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": spec.model_schema(),
            },
        }
        for spec in executor.registry
    ]


async def select_with_models(
    router: TierRouter,
    executor: ResilientExecutor,
    tasks: list[Task],
    *,
    text: str,
    lang: Lang,
    facts: Mapping[str, Any],
    ctx: RequestContext,
    clock: Clock,
    proposed: tuple[list[ToolCall], str] | None = None,
    packs: PackSet,
) -> tuple[list[Task], str] | None:
    """Tool calls chosen by a model tier, checked, corrected at most twice, bound to tasks.

    Args:
        proposed: the first round's calls and tier when they were already asked for (the
            decompose node asks in parallel with decomposition); None = ask now.

    Returns the tasks with their calls and the tier that chose them, or None when no model tier
    could answer (the caller maps intents to tools itself).
    """
    schemas = tool_schemas(executor)
    if proposed is not None:
        outcome: StageOutcome[list[ToolCall]] | None = StageOutcome(
            value=proposed[0], tier=proposed[1], attempts=[]
        )
    else:
        outcome = await select_tools_with_tiers(router, text, lang, schemas, ctx, clock)
    if outcome is None:
        return None
    tier = outcome.tier
    valid: list[ToolCall] = []
    pending = list(outcome.value)
    for round_no in range(MAX_CORRECTION_ROUNDS + 1):
        problems: list[tuple[ToolCall, ToolResult]] = []
        for call in pending:
            problem = executor.check_call(call)
            if problem is None:
                valid.append(call)
            else:
                problems.append((call, problem))
        if not problems:
            break
        feedback = _feedback(problems)
        if round_no == MAX_CORRECTION_ROUNDS:
            for call, problem in problems:
                ctx.add_pending(
                    PendingItem(task_id=call.id or call.name, what=call.name, status="dropped")
                )
                ctx.record(
                    stage="select_tool",
                    target=call.name,
                    action=LadderStep.CHAIN,
                    error_class=ErrorClass.INPUT,
                    at=clock.wall(),
                    reason=f"dropped after {MAX_CORRECTION_ROUNDS} correction rounds: "
                    f"{problem.reason}",
                )
            break
        ctx.record(
            stage="select_tool",
            target=f"model:{tier}",
            action=LadderStep.SELF_CORRECT,
            error_class=ErrorClass.INPUT,
            at=clock.wall(),
            reason=f"correction round {round_no + 1}: {feedback}",
        )
        again = await select_tools_with_tiers(
            router, text, lang, schemas, ctx, clock, feedback=feedback
        )
        if again is None:
            break
        tier = again.tier
        # the model re-issues its calls; the ones already accepted are not taken twice
        pending = [
            c for c in again.value if not any(v.name == c.name and v.args == c.args for v in valid)
        ]

    def is_write(name: str) -> bool:
        spec = executor.registry.get(name)
        return spec is not None and spec.policy.is_write

    bound = _bind(tasks, valid, facts=facts, is_write=is_write, packs=packs)
    for call in valid:
        used = any(t.call is not None and t.call.name == call.name for t in bound)
        if is_write(call.name) and not used:
            # a write only ever comes from what the customer asked for: say what was not run
            ctx.record(
                stage="select_tool",
                target=call.name,
                action=LadderStep.CHAIN,
                error_class=None,
                at=clock.wall(),
                reason=f"model:{tier} proposed {call.name} the customer did not ask for; not run",
            )
    return bound, tier


def _feedback(problems: Sequence[tuple[ToolCall, ToolResult]]) -> str:
    lines = []
    for call, problem in problems:
        issues = (
            "; ".join(
                f"{i['path']}: {i['message']}"
                + (f" (allowed: {', '.join(i['allowed'])})" if i.get("allowed") else "")
                for i in problem.issues
            )
            or problem.reason
        )
        lines.append(f"- {call.name}({json.dumps(call.args, ensure_ascii=False)}): {issues}")
    return "\n".join(lines)


def _bind(
    tasks: list[Task],
    calls: list[ToolCall],
    *,
    facts: Mapping[str, Any],
    is_write: Callable[[str], bool],
    packs: PackSet,
) -> list[Task]:
    """Give each task the model's call for its tool (same object first, then same tool);
    tasks the model skipped keep the mapped call; extra reads become tasks of their own, extra
    writes are dropped (a write is only ever what the customer's request decomposed into)."""
    unused = list(calls)
    out: list[Task] = []
    for task in tasks:
        expected = call_for(match_from_task(task), task.id, facts=dict(facts), packs=packs)
        if task.call is not None and task.call.confirmed:
            out.append(task)
            continue
        chosen = None
        if expected is not None:
            same_tool = [c for c in unused if c.name == expected.name]
            targets = packs.request_fields()
            chosen = next(
                (c for c in same_tool if _same_target(c.args, expected.args, targets)),
                same_tool[0] if same_tool else None,
            )
        if chosen is not None:
            unused.remove(chosen)
            # the planner's ask-first (a complaint) holds whatever the model's call says
            ask_first = chosen.ask_first or (expected is not None and expected.ask_first)
            bound = chosen.model_copy(update={"id": task.id, "ask_first": ask_first})
            out.append(task.model_copy(update={"call": bound}))
        else:
            out.append(task.model_copy(update={"call": expected}))
    turn_prefix = tasks[0].id.rsplit("-", 1)[0] if tasks else "t"
    unused = [c for c in unused if not is_write(c.name)]
    for index, call in enumerate(unused, start=len(tasks)):
        intent, pack_intent = _intent_for_tool(call.name, packs)
        task_id = f"{turn_prefix}-{index}"
        base = MatchedIntent(intent=intent, text="", lang="en", capability=pack_intent or "")
        fields = packs.request_fields()
        match = replace(
            base.with_request({f: call.args.get(f) for f in fields}),
            topic=call.args.get("topic"),
        )
        out.append(
            Task(
                id=task_id,
                intent=pack_intent or intent.value,
                match=plain_match(match),
                call=call.model_copy(update={"id": task_id}),
            )
        )
    return out


def _intent_for_tool(tool: str, packs: PackSet) -> tuple[Intent, str | None]:
    """The intent a model-chosen call serves: a pack's (``PACK`` plus its name), or unknown for
    a tool registered without a capability."""
    name = packs.intent_for_tool(tool)
    if name is None:
        return Intent.UNKNOWN, None
    return Intent.PACK, name


_ENGINE_INTENTS = frozenset(i.value for i in Intent) - {Intent.PACK.value}
"""The intents the engine answers itself (a model may name them; confirmations are ignored)."""


def _same_target(left: Mapping[str, Any], right: Mapping[str, Any], targets: Sequence[str]) -> bool:
    """Both calls are about the same object (the packs' request fields, when either names
    one)."""
    keys = [k for k in targets if left.get(k) or right.get(k)]
    return bool(keys) and all(left.get(k) == right.get(k) for k in keys)


def reply_facts_json(
    items: Sequence[ReplyItem],
    *,
    stale: Mapping[str, float],
    pending: Sequence[PendingItem],
    simplified: bool,
    hotline: str,
    feedback: Sequence[str],
    packs: PackSet,
) -> str:
    """What a model may say in its reply, as JSON: requests (with the packs' request fields)
    with their results, and the notes."""
    fields = packs.request_fields()
    requests = []
    for item in items:
        entry: dict[str, Any] = {"request": item.intent.intent.value}
        entry.update({f: item.intent.request_value(f) for f in fields})
        result = item.result
        if result is not None:
            entry.update(
                tool=result.tool,
                status=result.status.value,
                error_class=result.error_class.value if result.error_class else None,
                data=result.data,
                data_age_seconds=result.age_s,
                is_fallback=result.fallback,
                ticket_id=result.ticket_id,
            )
        requests.append(entry)
    return json.dumps(
        {
            "requests": requests,
            "stale_sources_age_seconds": dict(stale),
            "pending": [p.model_dump(mode="json") for p in pending],
            "simplified_mode": simplified,
            "hotline": hotline,
            "previous_draft_problems": list(feedback),
        },
        ensure_ascii=False,
        default=str,
    )
