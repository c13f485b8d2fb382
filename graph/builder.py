"""build_graph: the compiled turn graph, with every dependency passed in.

The graph is two nodes: ``turn`` runs the turn's stages (:data:`NODE_ORDER`, from guard_context to
validate) as one LangGraph step (see :mod:`helpdesk.graph.fused_turn` for why and how), and
``refuse_turn`` raises the refusal the identity gate recorded. Each stage is still its own span
for the observer (``NodeObserver.node(stage, state)``), with the state as the stage sees it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, cast

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph

from helpdesk.degrade.clock import Clock
from helpdesk.graph.fused_turn import STAGE_ORDER, fused_turn
from helpdesk.graph.identity import (
    CustomerCheck,
    CustomerSeen,
    identity_gate,
    refuse_turn,
    verify_after,
)
from helpdesk.graph.language import profile_decides
from helpdesk.graph.node_base import _last_human_text
from helpdesk.graph.nodes import ReplyWriter, TurnConfig, TurnNodes, route_after_validate
from helpdesk.graph.state import HelpdeskState, TurnInput
from helpdesk.graph.tiers import TierRouter
from helpdesk.graph.warmup import warm_up
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import Pack, PackSet, check_capabilities

__all__ = ["GRAPH_NODES", "NODE_ORDER", "NodeObserver", "build_graph"]


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


NODE_ORDER = STAGE_ORDER
"""The stages of a turn in the order they run (each one a span for the observer)."""

GRAPH_NODES = ("turn", "refuse_turn")
"""The compiled graph's nodes: the whole turn in one step, and the refusal."""


def _after_turn(state: HelpdeskState) -> str:
    return "refuse_turn" if state.get("refused") else END


def _profile_matters(state: Mapping[str, Any]) -> bool:
    """Whether the turn's reply language would follow the customer's profile."""
    messages = list(state.get("messages", []))
    facts = state.get("facts") or {}
    return profile_decides(
        _last_human_text(messages), chosen=facts.get("reply_lang"), session=state.get("lang")
    )


def build_graph(
    *,
    executor: ResilientExecutor,
    packs: PackSet | Sequence[Pack],
    config: TurnConfig | None = None,
    clock: Clock | None = None,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    observer: NodeObserver | None = None,
    writer: ReplyWriter | None = None,
    router: TierRouter | None = None,
    check_customer: CustomerCheck | None = None,
    customer_seen: CustomerSeen | None = None,
) -> Any:
    """Compile the turn graph.

    Args:
        executor: runs every tool call (its registry is the set of tools the bot may use).
        packs: every capability pack the turn serves (the demo shop is one:
            ``helpdesk.packs.default_packs()``); each capability's tool must be in the
            executor's registry (checked here, with a clear error). Empty: no capability, tools
            are still used by the model tiers and their results rendered generically.
        config: hotline, request budget and other per-deployment knobs.
        clock: time source shared with the executor (a FakeClock in tests and drills).
        checkpointer: where sessions live (SQLite by default in the app; None = no memory).
        observer: wraps every node run (spans); None = no instrumentation.
        writer: writes replies instead of the tiers (tests).
        router: the model tiers (primary / backup); None = the minimal tier only.
        check_customer: asks the backend whether a new session's customer exists (None: no
            check; the session's owner is enforced either way, see graph/identity.py).
        customer_seen: what the backend's answers so far say about a customer (with
            ``check_customer``: a first turn's own tool calls are its identity check, and the
            check's request is made only when they did not reach the backend).
    """
    warm_up()  # nodes must not read files on first use (blocking calls in the event loop)
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
    stages: dict[str, NodeFn] = {}
    for name in NODE_ORDER:
        fn: NodeFn = getattr(nodes, name)
        if name == "guard_context":
            fn = identity_gate(
                fn, check_customer, seen=customer_seen, profile_matters=_profile_matters
            )
        elif name == "execute" and check_customer is not None and customer_seen is not None:
            fn = verify_after(fn, check_customer, customer_seen)
        stages[name] = _observed(name, fn, observer) if observer else fn
    builder = StateGraph(HelpdeskState, input_schema=TurnInput)
    builder.add_node("turn", cast(Any, fused_turn(stages, regenerate=route_after_validate)))
    builder.add_node("refuse_turn", cast(Any, refuse_turn))
    builder.add_edge(START, "turn")
    builder.add_conditional_edges("turn", _after_turn, ["refuse_turn", END])
    return builder.compile(checkpointer=checkpointer, name="helpdesk")
