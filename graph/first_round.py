"""The turn's first model round: decomposition and tool selection asked at once, and the first
answer the rules can corroborate settles it.

A turn with model tiers asks two things of the models before any tool runs: what the customer
asked for (``decompose``) and which tool calls serve it (``select_tool``). Both need only the
customer's words, so they are asked in parallel. Waiting for both makes the first round as slow as
the slower of two calls — at a realistic latency model (log-normal, median 0.8 s, P95 2.5 s) the
P95 of the slower of two is about 3.1 s against 2.5 s for one call, and the whole turn's P95 is
1.13x that of an agent making one call there (simulated; the benchmark measured 1.19x).

The template matcher has already read the message when the round starts. When the first model
answer to arrive *agrees with the rules*, the round ends there and the turn goes on with the
reading two independent readers agree on:

- a decomposition settles it when it is exactly the matcher's reading (same intents, same
  planned calls with the same arguments, amounts included);
- a tool selection settles it only when the matcher's reading asks for nothing but reads and the
  model's calls are exactly the calls it plans (same tools, same orders/SKUs): a selection sees
  the words and the tools, not the request, and calls a write that fits the words of a question
  ("do you open tickets for damaged items?"), so a write always waits for the decomposition.

Otherwise — the matcher could not read a part (even one a pack's claim merged away), a request
lacks its order, or a model read the message differently — the round waits for both, as
before, and the model's reading wins. The stage nobody waited for is credited to
:data:`RULES` in the turn's ``tiers``.

The call nobody waits for any more is not cancelled: it finishes its current tier's call in the
background, so the tier's health and learned latency see every call (cancelling the slower of
two would teach the timeouts only the faster half of the latency distribution), but it never
falls through to another tier (:func:`~helpdesk.graph.stage_chain.abandoned`): nothing would
read that answer, and the backup's quota is not spent on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, Literal, TypeVar

from helpdesk.graph.intents import Intent
from helpdesk.graph.stage_chain import Abandon, StageOutcome, abandon_scope
from helpdesk.graph.state import Task
from helpdesk.tools.results import ToolCall

__all__ = [
    "RULES",
    "FirstRound",
    "Settled",
    "calls_signature",
    "cancel_background",
    "first_round",
    "reading_signature",
]

D = TypeVar("D")
S = TypeVar("S")

RULES: Final = "rules"
"""The tier credited with a stage the round did not wait for (``tiers`` in the turn's payload):
the template matcher's reading (decompose) or the planner's calls for it (select_tool), each
corroborated by a model tier's answer to the other stage."""

Settled = Literal["both", "decompose", "select_tool"]
"""Which answer ended the round: both were awaited, or the first one, corroborated by the rules."""


@dataclass(frozen=True, slots=True)
class FirstRound(Generic[D, S]):
    """The two first-round answers (one may be missing when the other settled the round)."""

    decomposed: StageOutcome[D] | None
    selected: StageOutcome[S] | None
    settled_by: Settled


_BACKGROUND: set[asyncio.Task[Any]] = set()
"""Abandoned calls still finishing (held so they are not garbage-collected while running)."""


async def first_round(
    decompose: Awaitable[StageOutcome[D] | None],
    select: Awaitable[StageOutcome[S] | None],
    *,
    decompose_settles: Callable[[StageOutcome[D]], bool],
    select_settles: Callable[[StageOutcome[S]], bool],
) -> FirstRound[D, S]:
    """Run both stages at once; return when both answered or when the first answer settles it.

    Args:
        decompose: the decomposition over the model tiers (None: no tier answered).
        select: the tool selection over the model tiers (None: no tier answered).
        decompose_settles: whether a decomposition agrees with the rules' reading.
        select_settles: whether a tool selection agrees with the rules' reading.
    """
    flags = {"decompose": Abandon(), "select_tool": Abandon()}
    tasks: dict[str, asyncio.Task[Any]] = {
        "decompose": asyncio.ensure_future(abandon_scope(flags["decompose"], decompose)),
        "select_tool": asyncio.ensure_future(abandon_scope(flags["select_tool"], select)),
    }
    try:
        done, _ = await asyncio.wait(tasks.values(), return_when=asyncio.FIRST_COMPLETED)
        if len(done) == 1:
            (first,) = done
            name = "decompose" if first is tasks["decompose"] else "select_tool"
            outcome = first.result()
            settles = decompose_settles if name == "decompose" else select_settles
            if outcome is not None and settles(outcome):
                other = "select_tool" if name == "decompose" else "decompose"
                flags[other].set()
                _finish_in_background(tasks[other])
                if name == "decompose":
                    return FirstRound(outcome, None, "decompose")
                return FirstRound(None, outcome, "select_tool")
        decomposed, selected = await asyncio.gather(tasks["decompose"], tasks["select_tool"])
    except BaseException:
        for task in tasks.values():
            task.cancel()
        raise
    return FirstRound(decomposed, selected, "both")


def cancel_background() -> None:
    """Stop the abandoned calls still running (a process shutting down its bot)."""
    for task in list(_BACKGROUND):
        task.cancel()


def _finish_in_background(task: asyncio.Task[Any]) -> None:
    _BACKGROUND.add(task)
    task.add_done_callback(_forget)


def _forget(task: asyncio.Task[Any]) -> None:
    _BACKGROUND.discard(task)
    # retrieved (a stopped task raises here, suppressed): an abandoned call's failure is the
    # tier's, already recorded in its health, not the turn's
    with contextlib.suppress(BaseException):
        task.exception()


def reading_signature(tasks: Iterable[Task]) -> list[str] | None:
    """What a planned reading of the message asks for, comparable between readers: each task's
    intent and planned call (tool and arguments), sorted; None when the reading is not complete
    enough to be corroborated (a part nobody read, or a request whose call could not be planned
    because something is missing — the models may read more there)."""
    out: list[str] = []
    for task in tasks:
        if task.intent == Intent.UNKNOWN.value:
            return None
        if task.intent == Intent.PACK.value or (task.call is None and _is_request(task)):
            return None
        call = task.call
        out.append(
            json.dumps(
                [task.intent, call.name if call else None, call.args if call else None],
                sort_keys=True,
                default=str,
            )
        )
    return sorted(out)


def _is_request(task: Task) -> bool:
    """A pack's request (its intent is a capability, not an engine intent)."""
    return task.intent not in _ENGINE_INTENTS


_ENGINE_INTENTS = frozenset(i.value for i in Intent)


def calls_signature(calls: Iterable[ToolCall], targets: Sequence[str]) -> list[str]:
    """Tool calls comparable between readers: each call's tool and the request fields it names
    (``targets``: the packs' request fields, such as an order number), sorted. Other arguments
    are the model's to phrase; the object and the tool are what must agree."""
    return sorted(
        json.dumps(
            [call.name, {k: call.args.get(k) for k in targets if call.args.get(k) is not None}],
            sort_keys=True,
            default=str,
        )
        for call in calls
    )
