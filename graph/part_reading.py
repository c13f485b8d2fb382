"""Parts of a message no matcher read, looked up once before they are said to be unread.

"Is the humidifier quiet enough for a baby's room", "保温杯能放洗碗机吗", "e-reader vs the 11
inch tablet, which is cheaper?": the templates read what they were written for; a part they do
not read is said to be unread ("I could not read this part"). Before that, a pack with a
:attr:`~helpdesk.tools.packs.Pack.part_reader` is asked what the part could be about: one read
(the shop searches its catalogue), and when the read's data shows the part names something
(a product whose name it contains), the part becomes that request and is planned like one.
Nothing is guessed: a failed or fallback read, or data the part does not name, leaves the part
unread, as before. Domain-free: what to look up and what counts as named is the pack's.

Like the subject lookup (:mod:`helpdesk.graph.subject_resolution`) the read has a small time
slice of its own and never spends the turn's retries or degrade ladder.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from helpdesk.graph.planning import call_for, match_from_task
from helpdesk.graph.request import DEFERRED_PART, Intent, MatchedIntent, plain_match
from helpdesk.graph.state import Task
from helpdesk.graph.subject_resolution import lookup_context, settles
from helpdesk.graph.unclaimed_parts import UNCLAIMED
from helpdesk.tools.context import RequestContext
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import Pack, PackSet
from helpdesk.tools.results import ToolCall

__all__ = ["drop_unnamed_reads", "read_unread_parts"]


def _unread(task: Task) -> MatchedIntent | None:
    match = match_from_task(task)
    # a part said to be unread, or a whole message nothing read (the menu would answer it)
    if (
        match.intent is Intent.UNKNOWN
        and match.details in (DEFERRED_PART, "")
        and match.text.strip()
        and not match.args.get(UNCLAIMED)
    ):
        return match
    return None


def _same_call(task: Task | None, call: ToolCall, facts: Mapping[str, Any], packs: PackSet) -> bool:
    """Whether ``task`` makes (or will make, once planned) the same read as ``call``."""
    if task is None:
        return False
    own = task.call or call_for(match_from_task(task), task.id, facts=dict(facts), packs=packs)
    if own is None or own.name != call.name:
        return False
    # the same arguments, or ones holding every word of the part's (a search of "women's down
    # jacket warm -20 men's" already shows what "women's down jacket warm -20" would)
    return own.args == call.args or _words(call.args) <= _words(own.args)


def _words(args: Mapping[str, Any]) -> set[str]:
    return {w for v in args.values() if isinstance(v, str) for w in v.lower().split()}


def _readers(packs: PackSet) -> list[Pack]:
    return [pack for pack in packs.packs if pack.part_reader is not None]


async def read_unread_parts(
    tasks: Sequence[Task],
    *,
    packs: PackSet,
    executor: ResilientExecutor,
    ctx: RequestContext,
    facts: Mapping[str, Any],
) -> list[Task]:
    """``tasks`` with each unread part a pack's read shows the meaning of replaced by that
    request (and its call planned)."""
    readers = _readers(packs)
    if not readers:
        return list(tasks)
    wanted: list[tuple[int, MatchedIntent, Pack, dict[str, Any]]] = []
    for n, task in enumerate(tasks):
        match = _unread(task)
        if match is None:
            continue
        for pack in readers:
            assert pack.part_reader is not None
            args = pack.part_reader.query(match.text)
            if args is not None:
                wanted.append((n, match, pack, dict(args)))
                break
    if not wanted:
        return list(tasks)
    calls: dict[str, ToolCall] = {}
    keys = []
    for n, _match, pack, args in wanted:
        assert pack.part_reader is not None
        key = pack.part_reader.tool + json.dumps(args, sort_keys=True, default=str)
        keys.append(key)
        calls.setdefault(key, ToolCall(name=pack.part_reader.tool, args=args, id=f"part-{n}"))
    results = await executor.run_many(list(calls.values()), lookup_context(ctx, executor))
    by_key = dict(zip(calls, results, strict=True))
    out: list[Task | None] = list(tasks)
    for (n, match, pack, _args), key in zip(wanted, keys, strict=True):
        assert pack.part_reader is not None
        result = by_key[key]
        if not settles(result):
            continue
        picked = pack.part_reader.pick(match.text, result.data)
        if picked is None:
            continue
        capability, args = picked
        request = MatchedIntent(
            Intent.PACK, text=match.text, lang=match.lang, capability=capability, args=args
        )
        call = call_for(request, tasks[n].id, facts=dict(facts), packs=packs)
        if call is None:
            continue
        if any(_same_call(t, call, facts, packs) for t in out if t is not tasks[n]):
            # the same read already answers it ("what's the capacity of your power bank and how
            # much is it"): the part is answered, not repeated
            out[n] = None
            continue
        cap = packs.for_intent(capability)
        out[n] = tasks[n].model_copy(
            update={
                "intent": capability,
                "match": plain_match(request),
                "call": call,
                "core": cap.core if cap is not None else True,
            }
        )
    return [task for task in out if task is not None]


async def drop_unnamed_reads(
    tasks: Sequence[Task],
    *,
    packs: PackSet,
    executor: ResilientExecutor,
    ctx: RequestContext,
    facts: Mapping[str, Any],
) -> list[Task]:
    """Of several reads of a pack's part-reader tool in one message ("is the duvet warm enough?
    and the pillow, is it firm or soft": searches for the duvet, the pillow and "soft"), the
    ones whose words name nothing the read found are not made: each is said to be unread (a
    detail the catalogue cannot answer, or a thing it does not sell: "and a toaster?"), never
    dropped silently. One read alone, or none naming anything, stays."""
    out = list(tasks)
    for pack in _readers(packs):
        reader = pack.part_reader
        assert reader is not None
        planned = {
            n: call
            for n, task in enumerate(out)
            if (
                call := task.call
                or call_for(match_from_task(task), task.id, facts=dict(facts), packs=packs)
            )
            is not None
            and call.name == reader.tool
        }
        if len(planned) < 2:
            continue
        lookups = {
            n: ToolCall(name=reader.tool, args=call.args, id=f"named-{n}")
            for n, call in planned.items()
        }
        results = await executor.run_many(list(lookups.values()), lookup_context(ctx, executor))
        unnamed = {
            n
            for n, result in zip(lookups, results, strict=True)
            if settles(result) and reader.pick(match_from_task(out[n]).text, result.data) is None
        }
        if unnamed and len(unnamed) < len(planned):
            # never dropped silently: said to be unread ("I couldn't handle this part: …")
            out = [_unread_part(task) if n in unnamed else task for n, task in enumerate(out)]
    return out


def _unread_part(task: Task) -> Task:
    match = match_from_task(task)
    part = MatchedIntent(Intent.UNKNOWN, text=match.text, lang=match.lang, details=DEFERRED_PART)
    return task.model_copy(
        update={"intent": Intent.UNKNOWN.value, "match": plain_match(part), "call": None}
    )
