"""Requests that describe their subject instead of naming it: one read finds it.

"Cancel my air fryer order", "has my monitor shipped", "净化器那单还能退多少": a scoped request
(its capability's :attr:`~helpdesk.tools.packs.Capability.subject` is its pack's subject) that
names no subject, or only the session's last one, is asked of the pack's
:attr:`~helpdesk.tools.packs.Pack.resolver` before it is planned. When the read finds exactly one
subject the request fits, the request is about that one (flagged ``inferred_order``, with
:data:`~helpdesk.graph.request.RESOLVED` in its arguments — the pack's label of what it matched,
"Air Fryer 5L" — so the reply says which it took and a write's confirmation names it). When the
words describe a subject the read cannot settle on (none fits, several do, or the read failed),
the session's last subject is dropped too: the reply asks which one, never acts on the order the
conversation happened to be about. Domain-free: which words describe a subject and which subjects
fit is the pack's.

The read is one call with a small time slice of its own: it never spends the turn's retries or
degrade ladder (a failed lookup nobody asked for must not turn the customer's own question into
a handoff), and only a live answer for the arguments asked counts (a fallback, or a simplified
retry that dropped a filter, settles nothing).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from helpdesk.degrade.budget import RetryBudget
from helpdesk.graph.planning import call_for, described_subject, match_from_task
from helpdesk.graph.request import EVERY_DESCRIBED, RESOLVED, Intent, MatchedIntent, plain_match
from helpdesk.graph.state import Task
from helpdesk.tools.context import RequestContext
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import Pack, PackSet
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus

__all__ = ["LOOKUP_BUDGET_S", "lookup_context", "resolve_subjects", "settles"]

LOOKUP_BUDGET_S = 2.0
"""The most time a lookup may take (less when the turn has less left); no retries."""


@dataclasses.dataclass(frozen=True)
class _Wanted:
    pack: Pack
    match: MatchedIntent
    args: dict[str, Any]
    writes: bool


def _describes(task: Task, packs: PackSet) -> _Wanted | None:
    """What a task whose words may describe its subject asks the pack's resolver."""
    found = described_subject(task, packs)
    if found is None:
        return None
    pack, match, args = found
    cap = packs.for_intent(match.capability)
    return _Wanted(pack, match, args, writes=cap is not None and cap.kind != "read")


def _key(tool: str, args: Mapping[str, Any]) -> str:
    return tool + json.dumps(args, sort_keys=True, default=str)


def settles(result: ToolResult) -> bool:
    """A live (or cached) answer to exactly the arguments asked."""
    return (
        result.status in (ToolStatus.OK, ToolStatus.STALE)
        and not result.fallback
        and not result.ladder
    )


def lookup_context(ctx: RequestContext, executor: ResilientExecutor) -> RequestContext:
    """The context of a lookup nobody asked for: its own small time slice, no retries."""
    seconds = max(0.0, min(LOOKUP_BUDGET_S, ctx.budget.remaining()))
    return RequestContext(
        session=ctx.session,
        turn=ctx.turn,
        customer=ctx.customer,
        budget=RetryBudget(max_retries=0, max_seconds=seconds, clock=executor.clock),
        request_id=ctx.request_id,
    )


def _without_subject(match: MatchedIntent, subject: str) -> MatchedIntent:
    """The request with the session's subject it had inherited taken away (asked instead)."""
    args = {k: v for k, v in match.args.items() if k != subject}
    plain = dataclasses.replace(match, inferred_order=False, args=args)
    if not hasattr(plain, subject):
        return plain
    cleared: dict[str, Any] = {subject: None}  # a subject kept as a field of the record
    return dataclasses.replace(plain, **cleared)


async def resolve_subjects(
    tasks: Sequence[Task],
    *,
    packs: PackSet,
    executor: ResilientExecutor,
    ctx: RequestContext,
    facts: Mapping[str, Any],
) -> list[Task]:
    """``tasks`` with the subjects their words describe filled in (and their calls planned
    again); see the module docstring for what happens when the lookup does not settle."""
    wanted = {n: found for n, task in enumerate(tasks) if (found := _describes(task, packs))}
    if not wanted:
        return _not_the_sessions(list(tasks), packs, facts)
    calls: dict[str, ToolCall] = {}
    for n, item in wanted.items():
        assert item.pack.resolver is not None
        key = _key(item.pack.resolver.tool, item.args)
        calls.setdefault(
            key, ToolCall(name=item.pack.resolver.tool, args=item.args, id=f"resolve-{n}")
        )
    results = await executor.run_many(list(calls.values()), lookup_context(ctx, executor))
    by_key = dict(zip(calls, results, strict=True))
    out = list(tasks)
    unsettled: set[int] = set()
    every: dict[int, list[Task]] = {}
    for n, item in wanted.items():
        resolver, subject = item.pack.resolver, item.pack.subject
        assert resolver is not None
        result = by_key[_key(resolver.tool, item.args)]
        request = {**plain_match(item.match), "intent": item.match.capability}
        picked = resolver.pick(request, result.data) if settles(result) else []
        if picked is None:
            continue  # the words describe no subject: the request stays as it was
        if len(picked) > 1 and item.match.args.get(EVERY_DESCRIBED):
            every[n] = _one_per_subject(tasks[n], item, picked, result.data, facts, packs)
            continue
        if len(picked) != 1:
            unsettled.add(n)  # described, but not one subject: never another request's
        if len(picked) == 1:
            updated = _found(item, picked[0], result.data)
        elif item.match.inferred_order and (item.writes or settles(result)):
            # described but not settled: never the session's order in its place (a write
            # always; a look when the answer said the description fits none or several)
            updated = _without_subject(item.match, subject)
        else:
            continue
        task = tasks[n]
        own_facts = dict(facts)
        if not updated.request_value(subject):
            own_facts.pop(f"last_{subject}", None)  # an extractor must not bring it back
        call = call_for(updated, task.id, facts=own_facts, packs=packs)
        out[n] = task.model_copy(update={"match": plain_match(updated), "call": call})
    if every:
        expanded: list[Task] = []
        moved: set[int] = set()  # the unsettled requests' places in the expanded list
        for n, task in enumerate(out):
            if n in unsettled:
                moved.add(len(expanded))
            expanded.extend(every.get(n, [task]))
        out, unsettled = expanded, moved
    return _not_the_sessions(_carried(out, packs, facts, described=unsettled), packs, facts)


def _found(item: _Wanted, value: str, data: Any) -> MatchedIntent:
    """The request about the subject the lookup found, with the pack's label of what matched
    (flagged ``inferred_order``: the reply says which it took)."""
    resolver = item.pack.resolver
    assert resolver is not None
    label = resolver.label(data, value) if resolver.label else ""
    return dataclasses.replace(item.match, inferred_order=True).with_request(
        {item.pack.subject: value, RESOLVED: label or True}
    )


def _one_per_subject(
    task: Task,
    item: _Wanted,
    picked: Sequence[str],
    data: Any,
    facts: Mapping[str, Any],
    packs: PackSet,
) -> list[Task]:
    """The request once per subject the lookup found ("两个没发货的单都取消": each order's
    cancel, each asked on its own)."""
    out = []
    for k, value in enumerate(picked):
        updated = _found(item, value, data)
        task_id = task.id if k == 0 else f"{task.id}-{k}"
        call = call_for(updated, task_id, facts=dict(facts), packs=packs)
        out.append(
            task.model_copy(update={"id": task_id, "match": plain_match(updated), "call": call})
        )
    return out


def _not_the_sessions(tasks: list[Task], packs: PackSet, facts: Mapping[str, Any]) -> list[Task]:
    """A write that took the session's subject only because its words name none ("没发就取消掉"
    after talking about another order) is asked which subject, when the same message is about
    another one ("三件冲锋衣那单还没发货吧？没发就取消掉": the order the look found, not the one
    talked about before) — never acted on for the subject the conversation happened to be
    about while the customer's words point elsewhere. (A request after the write that names
    its own subject in so many words is another topic: "没发就取消吧 顺便看下100683到哪了" cancels
    the order talked about.)"""
    named: list[tuple[int, str, str, str]] = []  # (task, subject kind, value, its words)
    for n, task in enumerate(tasks):
        match = match_from_task(task)
        cap = packs.for_intent(match.capability) if match.intent is Intent.PACK else None
        value = _subject_of(task, match, cap.subject) if cap is not None and cap.subject else None
        if cap is not None and value and (not match.inferred_order or match.args.get(RESOLVED)):
            named.append((n, cap.subject, value, match.text))
    out = list(tasks)
    for n, task in enumerate(tasks):
        match = match_from_task(task)
        cap = packs.for_intent(match.capability) if match.intent is Intent.PACK else None
        if cap is None or cap.kind == "read" or not cap.subject:
            continue
        value = _subject_of(task, match, cap.subject)
        if not (value and match.inferred_order and not match.args.get(RESOLVED)):
            continue
        elsewhere = [
            v
            for m, kind, v, words in named
            if kind == cap.subject and m != n and (m < n or v not in words)
        ]
        if not elsewhere or value in elsewhere:
            continue
        updated = _without_subject(match, cap.subject)
        own_facts = {k: v for k, v in facts.items() if k != f"last_{cap.subject}"}
        call = call_for(updated, task.id, facts=own_facts, packs=packs)
        out[n] = task.model_copy(update={"match": plain_match(updated), "call": call})
    return out


def _carried(
    tasks: list[Task], packs: PackSet, facts: Mapping[str, Any], *, described: set[int]
) -> list[Task]:
    """A request left without its subject takes the one an earlier request of the message was
    found to be about ("where's my parcel? can the courier drop it at my office instead"), as
    :func:`~helpdesk.graph.planning.plan_tasks` does for subjects named in so many words; a
    write whose subject is optional takes it and is asked first, a write that needs one and a
    money request never take it, nor does a request whose own words describe another."""
    out, said = list(tasks), {}
    for n, task in enumerate(tasks):
        match = match_from_task(task)
        cap = packs.for_intent(match.capability) if match.intent is Intent.PACK else None
        if cap is None or not cap.subject:
            continue
        planned = task.call or call_for(match, task.id, facts=dict(facts), packs=packs)
        if planned is not None and planned.args.get(cap.subject):
            said[cap.subject] = planned.args[cap.subject]
            continue
        if n in described:
            continue  # its words describe a subject the lookup did not settle on: asked which
        # a write takes it only where its subject is optional (it plans without one): one that
        # needs a subject to act ("cancel it") is asked which, as before
        if cap.subject not in said or not (
            cap.kind == "read" or (cap.kind == "write" and planned is not None)
        ):
            continue
        # not "inferred" from the conversation: the message itself named or described it (the
        # reply must not say "going by our earlier conversation")
        updated = match.with_request({cap.subject: said[cap.subject]})
        own = {**facts, f"last_{cap.subject}": said[cap.subject]}
        call = call_for(updated, task.id, facts=own, packs=packs)
        if call is None:
            continue
        pack = packs.pack_of(match.capability)
        if cap.kind != "read" and (pack is None or call.name != pack.handoff_tool):
            # "my parcel is late AGAIN. please file a ticket": the write is about the parcel
            # the look found, which the customer never named: asked first, naming it (a
            # transfer to a person is never held back: the order only goes with it)
            call = call.model_copy(update={"ask_first": True})
        out[n] = task.model_copy(update={"match": plain_match(updated), "call": call})
    return out


def _subject_of(task: Task, match: MatchedIntent, subject: str) -> str | None:
    """The subject a task is about: its call's, or (a confirm-first action not yet planned)
    its request's."""
    value = task.call.args.get(subject) if task.call is not None else None
    value = value or match.request_value(subject)
    return str(value) if value else None
