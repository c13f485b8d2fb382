"""One graph step for a whole turn: the turn's stages run in order inside a single graph node.

The stages (``guard_context`` ... ``validate``, :data:`STAGE_ORDER`) only hand data on to each
other: none of them needs a checkpoint of its own (a turn's state is stored once, when the turn
ends — ``durability="exit"`` — and confirmed writes are recorded in the write journal before they
are sent, whatever the graph's shape). Running them as one LangGraph superstep instead of seven to
nine saves the per-step work of the Pregel loop (task preparation, channel updates, a "values"
snapshot per step), which was about half of a minimal-tier turn in memory.

Inside the step each stage sees the state as LangGraph would have shown it — every earlier
stage's update applied with the state's own reducers — and the node returns one update that,
applied by LangGraph to the state the step started from, gives the same result:

- ``messages`` (``add_messages``): the stages' message updates, concatenated in order (removals
  included, so compaction's ``RemoveMessage`` still removes);
- ``degrade`` (``merge_degrade``): the merged context; the reducer is idempotent on its own result
  (``merge(s, merge(s, x)) == merge(s, x)``), so merging it once more onto the start is a no-op;
- every other key: the last value written.

A refused turn (the identity gate set ``refused``) stops after ``guard_context``; the graph then
routes to ``refuse_turn`` in a second step, exactly as before, so the refusal's clean-up is stored
before the error is raised. A later stage may refuse too (``execute``, when the turn's own tool
calls were its identity check and the backend knows no such customer): the step then returns only
the refusal's clean-up of the state it started from — nothing the turn did is stored.
``validate`` asking for a regeneration loops back to ``generate`` inside the step (at most
:data:`MAX_REPLY_ROUNDS` drafts).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final, get_args, get_origin, get_type_hints

from langgraph.graph.message import add_messages

from helpdesk.degrade.context import merge_degrade
from helpdesk.graph.identity import Refusal, refusal_update
from helpdesk.graph.state import HelpdeskState

__all__ = ["MAX_REPLY_ROUNDS", "STAGE_ORDER", "StageFn", "fused_turn", "state_reducers"]

StageFn = Callable[[HelpdeskState], Awaitable[dict[str, Any]]]

STAGE_ORDER: Final = (
    "guard_context",
    "decompose",
    "select_tool",
    "execute",
    "merge_context",
    "generate",
    "validate",
)
"""The stages of a turn, in the order they run."""

MAX_REPLY_ROUNDS: Final = 8
"""Drafts (generate + validate) one turn may write; validate's own limit is far lower, this only
stops a misbehaving reply writer from looping forever (LangGraph's recursion limit did before)."""

_APPENDED: Final = {"messages"}
"""Reducer channels whose updates accumulate: the step returns every stage's update, in order."""


def state_reducers() -> dict[str, Callable[[Any, Any], Any]]:
    """The reducer of every ``Annotated`` key of :class:`HelpdeskState`.

    Raises:
        TypeError: a reducer this module does not know how to fold (a new reducer channel must
            be classified here: accumulating like ``messages`` or idempotent like ``degrade``).
    """
    reducers: dict[str, Callable[[Any, Any], Any]] = {}
    for key, hint in get_type_hints(HelpdeskState, include_extras=True).items():
        if get_origin(hint) is None or not hasattr(hint, "__metadata__"):
            continue
        reducer = next(m for m in get_args(hint)[1:] if callable(m))
        reducers[key] = reducer
    known = {"messages": add_messages, "degrade": merge_degrade}
    for key, reducer in reducers.items():
        if known.get(key) is not reducer:
            raise TypeError(
                f"state key {key!r} has a reducer graph/fused_turn.py does not know how to fold"
            )
    return reducers


class _Fold:
    """The state as the stages see it, and the one update the step returns."""

    def __init__(self, state: Mapping[str, Any], reducers: Mapping[str, Any]) -> None:
        self.view: dict[str, Any] = dict(state)
        self.update: dict[str, Any] = {}
        self.reducers = reducers

    def apply(self, part: Mapping[str, Any]) -> None:
        for key, value in part.items():
            reducer = self.reducers.get(key)
            if reducer is None:
                self.view[key] = value
                self.update[key] = value
                continue
            self.view[key] = reducer(self.view.get(key), value)
            if key in _APPENDED:
                added = value if isinstance(value, list) else [value]
                self.update[key] = [*self.update.get(key, []), *added]
            else:
                self.update[key] = self.view[key]


def fused_turn(
    stages: Mapping[str, StageFn],
    *,
    regenerate: Callable[[HelpdeskState], str],
    order: Sequence[str] = STAGE_ORDER,
) -> StageFn:
    """The graph node that runs ``stages`` (named as in ``order``) as one step.

    Args:
        stages: every stage of ``order`` (already wrapped: identity gate, observer spans).
        regenerate: after ``validate``, ``"generate"`` to write another draft, else done
            (``route_after_validate``).
        order: the stage names; the first is the guard, the last two draft and check the reply.
    """
    missing = [name for name in order if name not in stages]
    if missing:
        raise ValueError(f"fused_turn: no function for stage(s) {missing}")
    guard, *middle, draft, check = (stages[name] for name in order)
    reducers = state_reducers()

    async def turn(state: HelpdeskState) -> dict[str, Any]:
        fold = _Fold(state, reducers)
        fold.apply(await guard(_as_state(fold.view)))
        if fold.view.get("refused"):
            return fold.update
        for stage in middle:
            fold.apply(await stage(_as_state(fold.view)))
            refused = fold.view.get("refused")
            if refused:
                return refusal_update(state, Refusal(**refused))
        for _ in range(MAX_REPLY_ROUNDS):
            fold.apply(await draft(_as_state(fold.view)))
            fold.apply(await check(_as_state(fold.view)))
            if regenerate(_as_state(fold.view)) != "generate":
                return fold.update
        raise RuntimeError(f"the reply failed validation {MAX_REPLY_ROUNDS} times in one turn")

    turn.__name__ = "turn"
    return turn


def _as_state(view: dict[str, Any]) -> HelpdeskState:
    """A stage's own copy of the state (LangGraph hands each node a fresh dict too)."""
    return dict(view)  # type: ignore[return-value]  # the view holds HelpdeskState's keys
