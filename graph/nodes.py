"""The nodes of one turn: guard_context -> decompose -> select_tool -> execute -> merge_context
-> generate -> validate.

Each node lives in its own module (``node_guard``, ``node_decompose``, ``node_select``,
``node_execute``, ``node_merge``, ``node_generate``, ``node_validate``) as a subclass of
:class:`~helpdesk.graph.node_base.NodeBase`, which holds the dependencies and the shared
helpers; :class:`TurnNodes` composes them. Each node returns only the keys it changes.
Dependencies (executor, clock, settings) come in through :class:`TurnNodes`, so tests build a
graph with fakes and no globals.
"""

from __future__ import annotations

from dataclasses import dataclass

from helpdesk.graph.node_base import HANDOFF_BUDGET_S, ReplyWriter, TurnConfig, minimal_writer
from helpdesk.graph.node_decompose import DecomposeNode
from helpdesk.graph.node_execute import ExecuteNode
from helpdesk.graph.node_generate import GenerateNode
from helpdesk.graph.node_guard import GuardContextNode
from helpdesk.graph.node_merge import MergeContextNode
from helpdesk.graph.node_select import SelectToolNode
from helpdesk.graph.node_validate import ValidateNode, route_after_validate

__all__ = [
    "HANDOFF_BUDGET_S",
    "ReplyWriter",
    "TurnConfig",
    "TurnNodes",
    "minimal_writer",
    "route_after_validate",
]


@dataclass
class TurnNodes(
    GuardContextNode,
    DecomposeNode,
    SelectToolNode,
    ExecuteNode,
    MergeContextNode,
    GenerateNode,
    ValidateNode,
):
    """The node functions, bound to their dependencies (fields: :class:`NodeBase`)."""
