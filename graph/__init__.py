"""LangGraph state, nodes, routing, the minimal tier and the builder."""

from helpdesk.graph.builder import build_graph

__all__ = ["build_graph"]
