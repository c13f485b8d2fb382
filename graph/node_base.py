"""What every node of a turn shares: the turn's knobs, its dependencies and the helpers.

:class:`NodeBase` holds the dependencies (executor, config, clock, writer, router, packs); each
node module (``node_guard`` ... ``node_validate``) adds its node as a subclass of it, and
:class:`~helpdesk.graph.nodes.TurnNodes` composes them. Each node returns only the keys it
changes.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AnyMessage, BaseMessage, HumanMessage

from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.degrade.context import DegradeContext, LadderStep
from helpdesk.graph.language import Lang, plain_apostrophes
from helpdesk.graph.planning import match_from_task
from helpdesk.graph.prompting import load_templates, render
from helpdesk.graph.replies import ReplyItem, render_reply
from helpdesk.graph.state import HelpdeskState
from helpdesk.graph.tiered import reply_facts_json
from helpdesk.graph.tiers import TierRouter
from helpdesk.tools.context import RequestContext
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import PackSet

__all__ = [
    "HANDOFF_BUDGET_S",
    "NodeBase",
    "ReplyWriter",
    "TurnConfig",
    "minimal_writer",
]

log = logging.getLogger("helpdesk.graph")

HANDOFF_BUDGET_S = 3.0
"""Seconds the automatic handoff ticket may take, outside the turn's (possibly spent) budget."""

ReplyWriter = Callable[[list[ReplyItem], DegradeContext, Lang, list[str]], Awaitable[str]]
"""``(items, degrade, lang, feedback) -> draft``: writes a reply; feedback lists the previous
draft's violations on a regeneration."""


@dataclass(frozen=True, kw_only=True, slots=True)
class TurnConfig:
    """Per-deployment knobs the nodes read."""

    hotline: str = "400-820-8820"
    """The only phone number a reply may contain."""
    request_budget_s: float = 8.0
    """Seconds of retries a turn may spend."""
    request_max_retries: int = 3
    """Retries a turn may make, all calls together."""
    degraded_turns_for_simplified: int = 3
    """Consecutive degraded turns after which the session runs in simplified mode."""
    context_window: int = 8000
    """Token window of the conversation kept in state."""
    context_watermark: float = 0.75
    """Compact when the conversation reaches this fraction of the window."""
    max_regenerations: int = 1
    """Regenerations after a failed validation before the template fallback."""
    confirmation_ttl_s: float = 600.0
    """Seconds a question waiting for the customer's yes stays valid; then it expires, undone."""
    first_round_early: bool = True
    """End the first model round at the first answer the rules corroborate
    (:mod:`helpdesk.graph.first_round`); False: always wait for both answers."""

    def __post_init__(self) -> None:
        if self.request_budget_s <= 0:
            raise ValueError("request_budget_s must be > 0")
        if self.request_max_retries < 0:
            raise ValueError("request_max_retries must be >= 0")
        if not self.confirmation_ttl_s > 0:
            raise ValueError("confirmation_ttl_s must be > 0")


@dataclass
class NodeBase:
    """The dependencies every node of a turn uses, and the helpers they share."""

    executor: ResilientExecutor
    config: TurnConfig = field(default_factory=TurnConfig)
    clock: Clock = field(default_factory=SystemClock)
    writer: ReplyWriter | None = None
    """Writes replies instead of the tiers (tests); None = model tiers, then minimal."""
    router: TierRouter | None = None
    """The model tiers; None = the minimal tier only (the embedded default)."""
    packs: PackSet = field(kw_only=True)
    """The loaded capability packs: what the turn understands, plans and words beyond the
    built-in intents."""

    def __post_init__(self) -> None:
        self._writer: ReplyWriter = self.writer or minimal_writer(self.config.hotline, self.packs)

    def _new_request(
        self, state: HelpdeskState, turn: int, request_id: str | None = None
    ) -> RequestContext:
        """A fresh request: a new id (unless given), the configured budget starting now."""
        return RequestContext.new(
            session=state.get("session", "default"),
            turn=turn,
            customer=state.get("customer"),
            clock=self.clock,
            max_retries=self.config.request_max_retries,
            max_seconds=self.config.request_budget_s,
            request_id=request_id or uuid.uuid4().hex[:12],
        )

    def _ctx(self, state: HelpdeskState) -> RequestContext:
        """The request's shared context (budget, ladder guard, DegradeContext) for this turn.

        Rebuilt from state on every call — the ``request`` snapshot and the ``degrade`` context —
        never kept in the process: each stage that may spend budget returns
        ``"request": ctx.to_state()`` with its update, so the next stage, a resumed run or
        another process continues with what the turn has left. A state without a snapshot for
        this request (a checkpoint written before snapshots existed) starts a fresh budget.
        """
        degrade = state.get("degrade") or DegradeContext()
        snapshot = state.get("request")
        if snapshot is None or snapshot.request_id != degrade.request_id:
            ctx = self._new_request(state, state.get("turn", 1), degrade.request_id)
            ctx.degrade = degrade
            return ctx
        return RequestContext.from_state(
            snapshot,
            session=state.get("session", "default"),
            turn=state.get("turn", 1),
            customer=state.get("customer"),
            degrade=degrade,
            clock=self.clock,
        )

    def _simplified(self, state: HelpdeskState) -> bool:
        return state.get("degraded_turns", 0) >= self.config.degraded_turns_for_simplified

    def _fell_to_minimal(self, ctx: RequestContext, stage: str) -> None:
        ctx.record(
            stage=stage,
            target="minimal",
            action=LadderStep.MODEL,
            error_class=None,
            at=self.clock.wall(),
            reason=f"no model tier could answer {stage}; the minimal tier answered",
        )

    def _reply_facts(
        self, items: list[ReplyItem], degrade: DegradeContext, feedback: list[str]
    ) -> str:
        return reply_facts_json(
            items,
            stale=degrade.stale,
            pending=degrade.pending,
            simplified=degrade.simplified_mode,
            hotline=self.config.hotline,
            feedback=feedback,
            packs=self.packs,
        )

    def _with_notices(self, state: HelpdeskState, draft: str, lang: Lang) -> str:
        notices = state.get("notices", [])
        if not notices:
            return draft
        templates = load_templates("minimal", "generate", lang)
        lead = []
        for notice in notices:
            key, values = (notice, {}) if isinstance(notice, str) else (notice["key"], notice)
            fields = {k: v for k, v in values.items() if k != "key"}
            lead.append(render(templates[key], hotline=self.config.hotline, **fields))
        return "\n".join([*lead, draft])


def minimal_writer(hotline: str, packs: PackSet) -> ReplyWriter:
    """The minimal tier's writer: templated replies filled with the tools' data."""

    async def write(
        items: list[ReplyItem], degrade: DegradeContext, lang: Lang, feedback: list[str]
    ) -> str:
        return render_reply(items, degrade, lang, hotline=hotline, packs=packs)

    return write


def _with_questions(draft: str, asking: list[dict[str, Any]]) -> str:
    """The reply with every confirmation question it must ask, word for word: a model may
    phrase the rest, but not the question a yes will be read against."""
    missing = [a["question"] for a in asking if a.get("question") and a["question"] not in draft]
    return "\n".join([draft, *dict.fromkeys(missing)]) if missing else draft


def _reply_items(state: HelpdeskState) -> list[ReplyItem]:
    results = {r.call_id: r for r in state.get("results", [])}
    return [
        ReplyItem(intent=match_from_task(t), result=results.get(t.id))
        for t in state.get("tasks", [])
    ]


def _lang(state: HelpdeskState) -> Lang:
    return "zh" if state.get("lang") == "zh" else "en"


def _content(message: BaseMessage) -> str:
    content = message.content
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def _last_human_text(messages: list[AnyMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return plain_apostrophes(_content(message))
    return ""
