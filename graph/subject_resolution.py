"""Requests that describe their subject instead of naming it: one read finds it.

"Cancel my air fryer order", "has my monitor shipped", "净化器那单还能退多少": a scoped request
(its capability's :attr:`~helpdesk.tools.packs.Capability.subject` is its pack's subject) that
names no subject, or only the session's last one, is asked of the pack's
:attr:`~helpdesk.tools.packs.Pack.resolver` before it is planned. When the read finds exactly one
subject the request fits, the request is about that one (flagged ``inferred_order``, with
``resolved`` in its arguments, so the reply says which it took and a write's confirmation names
it); otherwise the request stays as it was and the reply asks. Domain-free: which words
describe a subject and which subjects fit is the pack's.

The read is a read like any other (the executor's budget, breaker and retries); when it fails,
nothing is guessed.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from helpdesk.graph.planning import call_for, match_from_task
from helpdesk.graph.request import RESOLVED, Intent, MatchedIntent, plain_match
from helpdesk.graph.state import Task
from helpdesk.tools.context import RequestContext
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import Pack, PackSet
from helpdesk.tools.results import ToolCall

__all__ = ["resolve_subjects"]


def _describes(task: Task, packs: PackSet) -> tuple[Pack, MatchedIntent, dict[str, Any]] | None:
    """The pack, match and resolver arguments of a task whose subject its words describe."""
    match = match_from_task(task)
    if match.intent is not Intent.PACK or match.args.get(RESOLVED):
        return None
    cap = packs.for_intent(match.capability)
    pack = packs.pack_of(match.capability)
    if cap is None or pack is None or pack.resolver is None or not pack.subject:
        return None
    if cap.subject != pack.subject:
        return None
    if match.request_value(pack.subject) and not match.inferred_order:
        return None
    args = pack.resolver.query({**plain_match(match), "intent": match.capability})
    return (pack, match, dict(args)) if args is not None else None


def _key(tool: str, args: Mapping[str, Any]) -> str:
    return tool + json.dumps(args, sort_keys=True, default=str)


async def resolve_subjects(
    tasks: Sequence[Task],
    *,
    packs: PackSet,
    executor: ResilientExecutor,
    ctx: RequestContext,
    facts: Mapping[str, Any],
) -> list[Task]:
    """``tasks`` with the subjects their words describe filled in (and their calls planned
    again); a task whose subject is not found unambiguously is returned unchanged."""
    wanted = {n: found for n, task in enumerate(tasks) if (found := _describes(task, packs))}
    if not wanted:
        return list(tasks)
    calls: dict[str, ToolCall] = {}
    for n, (pack, _, args) in wanted.items():
        assert pack.resolver is not None
        key = _key(pack.resolver.tool, args)
        calls.setdefault(key, ToolCall(name=pack.resolver.tool, args=args, id=f"resolve-{n}"))
    results = await executor.run_many(list(calls.values()), ctx)
    by_key = {key: result for key, result in zip(calls, results, strict=True)}
    out = list(tasks)
    for n, (pack, match, args) in wanted.items():
        assert pack.resolver is not None
        result = by_key[_key(pack.resolver.tool, args)]
        if not result.usable or result.fallback:
            continue
        request = {**plain_match(match), "intent": match.capability}
        subjects = list(pack.resolver.pick(request, result.data))
        if len(subjects) != 1:
            continue
        resolved = dataclasses.replace(match, inferred_order=True).with_request(
            {pack.subject: subjects[0], RESOLVED: True}
        )
        task = tasks[n]
        call = call_for(resolved, task.id, facts=dict(facts), packs=packs)
        out[n] = task.model_copy(update={"match": plain_match(resolved), "call": call})
    return out
