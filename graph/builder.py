"""build_graph: the compiled turn graph, with every dependency passed in."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, cast

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph

from helpdesk.degrade.clock import Clock
from helpdesk.graph.identity import CustomerCheck, identity_gate, refuse_turn, route_after_guard
from helpdesk.graph.nodes import ReplyWriter, TurnConfig, TurnNodes, route_after_validate
from helpdesk.graph.state import HelpdeskState, TurnInput
from helpdesk.graph.tiers import TierRouter
from helpdesk.graph.warmup import warm_up
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import Pack, PackSet, check_capabilities, default_packs

__all__ = ["NODE_ORDER", "NodeObserver", "build_graph"]


class NodeObserver(Protocol):
    """Wraps each node run (a trace span per node, for example)."""

    def node(self, name: str, state: Mapping[str, Any]) -> AbstractContextManager[None]:
        """Context entered around one run of node ``name``."""
        ...


NodeFn = Callable[[HelpdeskState], Awaitable[dict[str, Any]]]


def _observed(name: str, fn: NodeFn, observer: NodeObserver) -> NodeFn:
    async def run(state: HelpdeskState) -> dict[str, Any]:
        with observer.node(name, state):
            return await fn(state)

    run.__name__ = name
    return run


NODE_ORDER = (
    "guard_context",
    "decompose",
    "select_tool",
    "execute",
    "merge_context",
    "generate",
    "validate",
)


def build_graph(
    *,
    executor: ResilientExecutor,
    config: TurnConfig | None = None,
    clock: Clock | None = None,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    observer: NodeObserver | None = None,
    writer: ReplyWriter | None = None,
    router: TierRouter | None = None,
    check_customer: CustomerCheck | None = None,
    packs: PackSet | Sequence[Pack] | None = None,
) -> Any:
    """Compile the turn graph.

    Args:
        executor: runs every tool call (its registry is the set of tools the bot may use).
        config: hotline, request budget and other per-deployment knobs.
        clock: time source shared with the executor (a FakeClock in tests and drills).
        checkpointer: where sessions live (SQLite by default in the app; None = no memory).
        observer: wraps every node run (spans); None = no instrumentation.
        writer: writes replies instead of the tiers (tests).
        router: the model tiers (primary / backup); None = the minimal tier only.
        check_customer: asks the backend whether a new session's customer exists (None: no
            check; the session's owner is enforced either way, see graph/identity.py).
        packs: every capability pack the turn serves; each capability's tool must be in the
            executor's registry (checked here, with a clear error). None: the demo shop's
            declarations (``helpdesk.tools.packs.default_packs``), unchecked.
    """
    warm_up()  # nodes must not read files on first use (blocking calls in the event loop)
    if packs is None:
        loaded = default_packs()
    else:
        loaded = packs if isinstance(packs, PackSet) else PackSet(packs)
        check_capabilities(loaded, executor.registry)
    for lang in ("zh", "en"):
        loaded.templates(lang)  # the packs' reply files are read now, not in the event loop
    nodes = TurnNodes(
        executor=executor,
        config=config or TurnConfig(),
        clock=clock or executor.clock,
        writer=writer,
        router=router,
        packs=loaded,
    )
    builder = StateGraph(HelpdeskState, input_schema=TurnInput)
    for name in NODE_ORDER:
        fn: NodeFn = getattr(nodes, name)
        if name == "guard_context":
            fn = identity_gate(fn, check_customer)
        action = _observed(name, fn, observer) if observer else fn
        builder.add_node(name, cast(Any, action))
        if name == "guard_context":
            builder.add_node("refuse_turn", cast(Any, refuse_turn))
    builder.add_edge(START, NODE_ORDER[0])
    for left, right in itertools.pairwise(NODE_ORDER):
        if left != "guard_context":
            builder.add_edge(left, right)
    builder.add_conditional_edges("guard_context", route_after_guard, ["decompose", "refuse_turn"])
    builder.add_conditional_edges("validate", route_after_validate, ["generate", END])
    return builder.compile(checkpointer=checkpointer, name="helpdesk")
