"""A module-level graph for LangGraph Studio / ``langgraph dev`` (langgraph.json points here).

The server brings its own checkpointer, so this graph is compiled without one. A bad setting
stops the import with the same message the CLI prints (naming the ``HELPDESK_*`` variable and
its allowed range), not a validation traceback.
"""

from __future__ import annotations

from helpdesk.app.settings import SettingsError, load_settings
from helpdesk.app.wiring import build_bot

__all__ = ["graph"]

try:
    _settings = load_settings()
except SettingsError as exc:
    raise SystemExit(f"Invalid configuration:\n{exc}") from None

graph = build_bot(_settings).graph
