"""The graph's state: a TypedDict whose reducers say how each node's update is merged.

``customer`` is the authenticated identity, set by the session (CLI / service), never by a model.
``degrade`` is merged by :func:`~helpdesk.degrade.context.merge_degrade`; a new turn's request id
replaces the previous turn's context. ``request`` is the turn's retry budget and ladder use
(:class:`~helpdesk.tools.context.RequestState`): started afresh with the request id, then the last
value written wins, so every stage — in this process, another one, or after a resume — draws
from the same budget. ``facts`` (order ids, preferences, a pending confirmation)
survive compaction and session resets.
"""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, ConfigDict, Field

from helpdesk.degrade.context import DegradeContext, merge_degrade
from helpdesk.tools.context import RequestState
from helpdesk.tools.results import ToolCall, ToolResult

__all__ = ["HelpdeskState", "Task", "TurnInput"]


class Task(BaseModel):
    """One thing the customer asked for in this turn, and the tool call that serves it."""

    model_config = ConfigDict(frozen=True)

    id: str
    intent: str
    match: dict[str, Any] = Field(default_factory=dict)
    """The matched intent's fields (order id, SKU, quantity, topic, clause text, language)."""
    call: ToolCall | None = None
    core: bool = True


class HelpdeskState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    customer: str
    session: str
    owner: str
    """The customer the session belongs to (set by its first turn; not part of the input)."""
    refused: dict[str, str] | None
    """Why this run's turn was refused (graph/identity.py), None when it ran."""
    owner_unverified: bool
    """The backend has not yet said whether the owner exists (graph/identity.py: the session's
    first turn let its own tool calls be the check, and they did not reach the backend)."""
    turn: int
    lang: str
    """The language of this turn's reply (graph/language.py's policy)."""
    profile_lang: str | None
    """The customer's profile language, from the customer check of the session's first turn."""
    tasks: list[Task]
    results: list[ToolResult]
    degrade: Annotated[DegradeContext, merge_degrade]
    request: RequestState | None
    """The turn's retries used, deadline (wall clock) and ladder use: a snapshot each stage
    rebuilds its RequestContext from and returns updated (last value wins); reset by
    guard_context with each new request id."""
    facts: dict[str, Any]
    summary: str
    tier: str
    """The tier that wrote this turn's reply."""
    tiers: dict[str, str]
    """Which tier answered each stage: decompose, select_tool, generate."""
    proposed_calls: dict[str, Any] | None
    """Tool calls a model tier proposed while decomposing ({calls, tier}); checked and bound to
    the tasks by select_tool."""
    draft: str
    validation: dict[str, Any]
    tokens: int
    degraded_turns: int
    asking: list[dict[str, Any]]
    """Confirm-first actions this turn's reply asks about, each with its confirmation id and the
    exact question; the ones the published reply contains become the session's pending
    actions."""
    notices: list[Any]
    """Notices the reply must lead with: template keys, or {key, field: value} (the context was
    reset, an action waiting for confirmation was not done)."""


class TurnInput(TypedDict, total=False):
    """What a caller may pass to run a turn; the rest (``owner`` above all) is the graph's."""

    messages: Annotated[list[AnyMessage], add_messages]
    customer: str
    session: str
