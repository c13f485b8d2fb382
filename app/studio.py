"""A module-level graph for LangGraph Studio / ``langgraph dev`` (langgraph.json points here).

The server brings its own checkpointer, so this graph is compiled without one.
"""

from __future__ import annotations

from helpdesk.app.settings import Settings
from helpdesk.app.wiring import build_bot

__all__ = ["graph"]

graph = build_bot(Settings()).graph
