"""build_graph: the compiled turn graph, with every dependency passed in."""

from __future__ import annotations

import itertools
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph

from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.graph.nodes import TurnConfig, TurnNodes
from helpdesk.graph.state import HelpdeskState
from helpdesk.tools.executor import ResilientExecutor

__all__ = ["NODE_ORDER", "build_graph"]

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
) -> Any:
    """Compile the turn graph.

    Args:
        executor: runs every tool call (its registry is the set of tools the bot may use).
        config: hotline, request budget and other per-deployment knobs.
        clock: time source shared with the executor (a FakeClock in tests and drills).
        checkpointer: where sessions live (SQLite by default in the app; None = no memory).
    """
    nodes = TurnNodes(
        executor=executor, config=config or TurnConfig(), clock=clock or executor.clock
    )
    if clock is None:
        nodes.clock = executor.clock if executor.clock else SystemClock()
    builder = StateGraph(HelpdeskState)
    for name in NODE_ORDER:
        builder.add_node(name, getattr(nodes, name))
    builder.add_edge(START, NODE_ORDER[0])
    for left, right in itertools.pairwise(NODE_ORDER):
        builder.add_edge(left, right)
    builder.add_edge(NODE_ORDER[-1], END)
    return builder.compile(checkpointer=checkpointer, name="helpdesk")
