"""The nodes of one turn: guard_context -> decompose -> select_tool -> execute -> merge_context
-> generate -> validate.

Each node returns only the keys it changes. Dependencies (executor, clock, settings) come in
through :class:`TurnNodes`, so tests build a graph with fakes and no globals.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import re
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage

from helpdesk.degrade.budget import RetryBudget
from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.degrade.context import DegradeContext, LadderStep
from helpdesk.degrade.failpoints import failpoint
from helpdesk.graph.capabilities import match_packs, merge_matches
from helpdesk.graph.compaction import CompactionPolicy, compact, count_messages_near
from helpdesk.graph.coverage import Asked, semantic_check_needed
from helpdesk.graph.facts import extract_facts
from helpdesk.graph.intents import Intent, MatchedIntent, match_intents, stored_intent
from helpdesk.graph.language import Lang, reply_language, requested_language
from helpdesk.graph.money import read_amount
from helpdesk.graph.planning import call_for, match_from_task, plan_tasks
from helpdesk.graph.prompting import load_templates, render
from helpdesk.graph.replies import (
    ReplyItem,
    confirmation_question,
    describe_action,
    render_fallback_reply,
    render_notice,
    render_reply,
)
from helpdesk.graph.stages import (
    check_with_tiers,
    decompose_with_tiers,
    generate_with_tiers,
    select_tools_with_tiers,
    summarize_with_tiers,
)
from helpdesk.graph.state import HelpdeskState, Task
from helpdesk.graph.tiered import (
    matches_from_plan,
    reply_facts_json,
    select_with_models,
    tool_schemas,
)
from helpdesk.graph.tiers import TierRouter
from helpdesk.graph.validation import ReplyFacts, find_violations
from helpdesk.tools.context import RequestContext
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import Pack, PackSet
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus

__all__ = [
    "ReplyWriter",
    "TurnConfig",
    "TurnNodes",
    "minimal_writer",
    "route_after_validate",
]

log = logging.getLogger("helpdesk.graph")

_LONG_DIGITS = re.compile(r"\d[\d -]{6,}\d")
HANDOFF_BUDGET_S = 3.0
"""Seconds the automatic handoff ticket may take, outside the turn's (possibly spent) budget."""


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

    def __post_init__(self) -> None:
        if self.request_budget_s <= 0:
            raise ValueError("request_budget_s must be > 0")
        if self.request_max_retries < 0:
            raise ValueError("request_max_retries must be >= 0")
        if not self.confirmation_ttl_s > 0:
            raise ValueError("confirmation_ttl_s must be > 0")


@dataclass
class TurnNodes:
    """The node functions, bound to their dependencies."""

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

    # ----------------------------------------------------------------- guard_context
    async def guard_context(self, state: HelpdeskState) -> dict[str, Any]:
        """Start a turn: note the customer's facts, count tokens, compact at the watermark."""
        messages = list(state.get("messages", []))
        text = _last_human_text(messages)
        facts = extract_facts(text, state.get("facts", {}), packs=self.packs)
        lang = reply_language(
            text,
            chosen=facts.get("reply_lang"),
            session=state.get("lang"),
            profile=state.get("profile_lang"),
        )
        if requested_language(text) is not None:
            facts = {**facts, "reply_lang": lang}  # "reply in English": kept for the session
        facts, settled = await self._settle_earlier_writes(state, facts, lang)
        turn = state.get("turn", 0) + 1
        request = self._new_request(state, turn)  # the turn's budget starts now
        update: dict[str, Any] = {
            "turn": turn,
            "lang": lang,
            "facts": facts,
            "degrade": request.degrade,
            "request": request.to_state(),
            "tasks": [],
            "results": [],
            "draft": "",
            "validation": {},
            "notices": settled,
            "asking": [],
        }
        policy = CompactionPolicy(
            window_tokens=self.config.context_window, watermark=self.config.context_watermark
        )
        tokens = await count_messages_near(messages, policy.threshold_tokens)
        update["tokens"] = tokens  # below the watermark: an upper bound (UTF-8 bytes)
        if tokens < policy.threshold_tokens:
            return update
        previous = state.get("summary", "")
        # the extractive summary first; a model tier rewrites it from what was folded when one
        # can, without running the compaction again
        result = compact(messages, facts, policy, packs=self.packs, previous_summary=previous)
        if result.folded and self.router is not None and not self._simplified(state):
            ctx = self._ctx({**state, **update})  # type: ignore[typeddict-item]
            outcome = await summarize_with_tiers(
                self.router, _transcript(result.folded), lang, ctx, self.clock
            )
            if outcome is not None and outcome.value:
                result = result.with_summary(outcome.value)
            update["degrade"] = ctx.degrade
            update["request"] = ctx.to_state()
        log.info("context compacted: %s", json.dumps(result.report.as_log(), ensure_ascii=False))
        update.update(
            messages=result.as_update(),
            summary=result.summary,
            facts=result.facts,
            tokens=result.report.tokens_after,
        )
        if result.report.reset:
            update["notices"] = ["context_reset", *settled]
        return update

    async def _settle_earlier_writes(
        self, state: HelpdeskState, facts: dict[str, Any], lang: Lang
    ) -> tuple[dict[str, Any], list[Any]]:
        """Before anything else: what became of this session's earlier writes whose outcome was
        never recorded (the process died mid-write), and which questions have expired.

        Returns the facts (consumed and expired confirmations removed, reconciled outcomes
        recorded so the reply may quote them) and the notices the reply leads with.
        """
        hotline = self.config.hotline
        found = await self.executor.reconcile_session(
            state.get("session", "default"), state.get("customer")
        )
        notices: list[Any] = []
        consumed: set[str] = set()
        reconciled: list[dict[str, Any]] = []
        tickets: list[str] = list(facts.get("tickets", []))
        handoff_ticket = facts.get("handoff_ticket")
        for item in found:
            entry = item.entry
            if entry.confirmation_id:
                consumed.add(entry.confirmation_id)
            data = item.data if isinstance(item.data, dict) else {}
            detail = ""
            cap = self.packs.for_tool(entry.tool)
            if item.state == "executed" and cap is not None and cap.receipt_key:
                try:
                    values = {k: v for k, v in data.items() if k not in ("hotline", "lang")}
                    detail = render_notice(cap.receipt_key, lang, hotline=hotline, **values)
                except KeyError:  # a receipt field the result lacks: no receipt, never a guess
                    detail = ""
            if item.state == "executed" and data.get("ticket_id"):
                ticket = str(data["ticket_id"])
                tickets.append(ticket)
                if entry.tool == self.packs.handoff_tool:
                    handoff_ticket = ticket
            what = describe_action(entry.tool, entry.args, lang, hotline=hotline, packs=self.packs)
            notices.append({"key": f"reconciled_{item.state}", "what": what, "detail": detail})
            reconciled.append(
                {"tool": entry.tool, "args": entry.args, "state": item.state, "data": data}
            )
        waiting = {a.get("id") for a in facts.get("pending_actions") or []}
        if waiting - consumed:
            # a confirmed action that ran although the turn that ran it was never stored
            for entry in await self.executor.journal.entries(state.get("session", "default")):
                if entry.confirmation_id is not None and entry.confirmation_id in waiting:
                    consumed.add(entry.confirmation_id)
        now = self.clock.wall()
        kept: list[dict[str, Any]] = []
        for action in facts.get("pending_actions") or []:
            if action.get("id") in consumed or "id" not in action:
                continue
            if now - float(action.get("asked_at", now)) > self.config.confirmation_ttl_s:
                what = describe_action(
                    action["tool"], action["args"], lang, hotline=hotline, packs=self.packs
                )
                notices.append({"key": "confirmation_expired", "what": what})
                continue
            kept.append(action)
        facts = {
            **facts,
            "pending_actions": kept,
            "reconciled": reconciled,
            "tickets": list(dict.fromkeys(tickets))[-20:],
            "handoff_ticket": handoff_ticket,
        }
        return facts, notices

    # ----------------------------------------------------------------- request context
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

    # ----------------------------------------------------------------- decompose
    async def decompose(self, state: HelpdeskState) -> dict[str, Any]:
        """Split the customer's message into tasks: a model tier's structured output, or the
        template matcher (the minimal tier, also the fallback when every model tier fails).

        Confirmations ("yes" to a pending cancel or refund) are always read by the template
        matcher: a model never decides that the customer said yes. In simplified mode (after
        repeated degraded turns) the turn skips model decomposition and says so.
        """
        ctx = self._ctx(state)
        facts = state.get("facts", {})
        text = _last_human_text(state.get("messages", []))
        lang = _lang(state)
        template = match_intents(
            text,
            packs=self.packs,
            facts=facts,
            awaiting_confirmation=bool(facts.get("pending_actions")),
        )
        is_confirmation = any(m.intent in _ANSWERS for m in template)
        if len(self.packs) and not is_confirmation:
            template = merge_matches(
                template, match_packs(text, lang, facts, self.packs), self.packs
            )
        simplified = self._simplified(state)
        if simplified:
            ctx.degrade = ctx.degrade.model_copy(update={"simplified_mode": True})
        matches, tier = template, "minimal"
        proposed: dict[str, Any] | None = None
        if self.router is not None and not simplified and not is_confirmation:
            # Tool selection needs only the customer's words, not the decomposition: ask for
            # both at once and save a model round trip; select_tool checks and binds the calls.
            outcome, selected = await asyncio.gather(
                decompose_with_tiers(self.router, text, lang, facts, ctx, self.clock, self.packs),
                select_tools_with_tiers(
                    self.router, text, lang, tool_schemas(self.executor), ctx, self.clock
                ),
            )
            if selected is not None:
                proposed = {"calls": list(selected.value), "tier": selected.tier}
            if outcome is not None:
                matches = matches_from_plan(
                    outcome.value,
                    text=text,
                    lang=lang,
                    last_subject=facts.get(f"last_{self.packs.subject()}"),
                    packs=self.packs,
                )
                tier = outcome.tier
            else:
                self._fell_to_minimal(ctx, "decompose")
        matches = _resume_awaiting_amount(
            _resume_awaiting_subject(matches, facts, self.packs), facts, text, self.packs
        )
        tasks = plan_tasks(
            matches,
            turn=state.get("turn", 1),
            facts=facts,
            allow_confirm=tier == "minimal",
            packs=self.packs,
        )
        # Calls are attached by select_tool; a confirmation keeps the call it resumes.
        planned = [
            t if t.call and t.call.confirmed else t.model_copy(update={"call": None}) for t in tasks
        ]
        return {
            "tasks": planned,
            "tier": tier,
            "tiers": {"decompose": tier},
            "proposed_calls": proposed,
            "degrade": ctx.degrade,
            "request": ctx.to_state(),
        }

    def _fell_to_minimal(self, ctx: RequestContext, stage: str) -> None:
        ctx.record(
            stage=stage,
            target="minimal",
            action=LadderStep.MODEL,
            error_class=None,
            at=self.clock.wall(),
            reason=f"no model tier could answer {stage}; the minimal tier answered",
        )

    # ----------------------------------------------------------------- select_tool
    async def select_tool(self, state: HelpdeskState) -> dict[str, Any]:
        """Choose the tool and arguments for each task: by a model tier with bind_tools (bounded
        self-correction of invalid calls) when one decomposed the turn, else by intent."""
        ctx = self._ctx(state)
        facts = state.get("facts", {})
        tasks = list(state.get("tasks", []))
        tiers = dict(state.get("tiers", {}))
        tier = "minimal"
        if self.router is not None and tiers.get("decompose", "minimal") != "minimal":
            proposal = state.get("proposed_calls")
            chosen = await select_with_models(
                self.router,
                self.executor,
                tasks,
                text=_last_human_text(state.get("messages", [])),
                lang=_lang(state),
                facts=facts,
                ctx=ctx,
                clock=self.clock,
                proposed=(proposal["calls"], proposal["tier"]) if proposal else None,
                packs=self.packs,
            )
            if chosen is not None:
                tasks, tier = chosen
            else:
                self._fell_to_minimal(ctx, "select_tool")
        out: list[Task] = []
        for task in tasks:
            if task.call is None:
                call = call_for(match_from_task(task), task.id, facts=facts, packs=self.packs)
                task = task.model_copy(update={"call": call})
            out.append(task)
        tiers["select_tool"] = tier
        return {"tasks": out, "tiers": tiers, "degrade": ctx.degrade, "request": ctx.to_state()}

    # ----------------------------------------------------------------- execute
    async def execute(self, state: HelpdeskState) -> dict[str, Any]:
        """Run the turn's calls through the ResilientExecutor; hand off what nothing could serve."""
        ctx = self._ctx(state)
        calls = [t.call for t in state.get("tasks", []) if t.call is not None]
        facts = state.get("facts", {})
        reused = {
            c.id: _reused_ticket(c, facts["handoff_ticket"])
            for c in calls
            if c.name == self.packs.handoff_tool and facts.get("handoff_ticket")
        }
        ran = await self.executor.run_many([c for c in calls if c.id not in reused], ctx)
        by_id = {r.call_id: r for r in [*ran, *reused.values()]}
        results = [_with_when(by_id[c.id]) for c in calls if c.id in by_id]
        if not facts.get("handoff_ticket"):
            await self._handoff_failed(state, results, ctx)
        return {"results": results, "degrade": ctx.degrade, "request": ctx.to_state()}

    async def _handoff_failed(
        self, state: HelpdeskState, results: list[ToolResult], ctx: RequestContext
    ) -> None:
        """The ladder's last line: one handoff ticket for everything core that failed."""
        failed = [
            r for r in results if r.status is ToolStatus.FAILED and LadderStep.HANDOFF in r.ladder
        ]
        handoff = self.packs.handoff_tool
        if not failed or handoff is None or any(r.tool == handoff for r in results):
            return
        if handoff not in self.executor.registry:
            return
        facts = state.get("facts", {})
        summary = "; ".join(f"{r.tool} failed: {r.reason}" for r in failed)
        text = (
            f"Automatic handoff. Customer asked: "
            f"{_last_human_text(state.get('messages', []))[:500]}. {summary}"[:2000]
        )
        failed_ids = [str(r.call_id) for r in failed]
        call = ToolCall(
            name=handoff,
            args=self.packs.handoff_args(text, facts, failed_ids),
            id=f"handoff-{ctx.turn}",
        )
        # The last line gets its own small time slice: the turn's budget may be spent by the
        # very failures that made the handoff necessary.
        side = RequestContext(
            session=ctx.session,
            turn=ctx.turn,
            customer=ctx.customer,
            budget=RetryBudget(max_retries=0, max_seconds=HANDOFF_BUDGET_S, clock=self.clock),
            request_id=ctx.request_id,
        )
        ticket = await self.executor.run(call, side)
        ticket_id = ticket.data.get("ticket_id") if ticket.status is ToolStatus.OK else None
        for item in ctx.degrade.pending:
            if item.status == "failed" and item.ticket_id is None and ticket_id:
                ctx.add_pending(item.model_copy(update={"ticket_id": ticket_id}))
        ctx.record(
            stage="execute",
            target=handoff,
            action=LadderStep.HANDOFF,
            error_class=None,
            at=self.clock.wall(),
            reason=(
                f"handoff ticket {ticket_id} filed"
                if ticket_id
                else f"handoff ticket could not be filed: {ticket.reason}"
            ),
        )

    # ----------------------------------------------------------------- merge_context
    async def merge_context(self, state: HelpdeskState) -> dict[str, Any]:
        """Fold what this turn learned into the session facts."""
        facts = dict(state.get("facts", {}))
        fact_fields = self.packs.fact_fields()
        remembered = {key: list(facts.get(key, [])) for key in fact_fields.values()}
        subject_pack = self.packs.subject_pack()
        subject = subject_pack.subject if subject_pack is not None else ""
        unknown = subject_pack.unknown_codes if subject_pack is not None else ()
        tickets: list[str] = list(facts.get("tickets", []))
        results = {r.call_id: r for r in state.get("results", [])}
        asking: list[dict[str, Any]] = []
        handoff_ticket = facts.get("handoff_ticket")
        lang = _lang(state)
        last_subject = facts.get(f"last_{subject}") if subject else None
        for task in state.get("tasks", []):
            result = results.get(task.id)
            not_found = bool(
                result is not None
                and result.status is ToolStatus.FAILED
                and isinstance(result.data, dict)
                and result.data.get("code") in unknown
            )
            for name, key in fact_fields.items():
                value = task.match.get(name)
                if not value or (name == subject and not_found):
                    continue
                if value not in remembered[key]:
                    remembered[key].append(value)
                if name == subject:
                    last_subject = value
            if result is None:
                continue
            if result.status is ToolStatus.NEEDS_CONFIRMATION and task.call is not None:
                # every action the reply asks about, with the exact question; it waits for a
                # yes only if the published reply really contains that question (validate)
                item = ReplyItem(intent=match_from_task(task), result=result)
                asking.append(
                    {
                        "id": "c-" + uuid.uuid4().hex[:16],
                        "call_id": result.call_id,
                        "tool": task.call.name,
                        "args": dict(result.data.get("args", task.call.args)),
                        "asked_turn": state.get("turn", 1),
                        "asked_at": self.clock.wall(),
                        "match": {k: v for k, v in task.match.items() if k != "reasked"},
                        "question": confirmation_question(
                            item, lang, hotline=self.config.hotline, packs=self.packs
                        ),
                    }
                )
            data = result.data if isinstance(result.data, dict) else {}
            if (
                result.status is ToolStatus.OK
                and task.call is not None
                and task.call.name == self.packs.handoff_tool
                and data.get("ticket_id")
            ):
                handoff_ticket = str(data["ticket_id"])
            if result.usable and data.get("ticket_id") and data["ticket_id"] not in tickets:
                tickets.append(str(data["ticket_id"]))
            if result.ticket_id and result.ticket_id not in tickets:
                tickets.append(result.ticket_id)
        facts.update({key: values[-20:] for key, values in remembered.items()})
        if subject:
            facts[f"last_{subject}"] = last_subject
        facts.update(
            tickets=tickets[-20:],
            pending_actions=[],
            awaiting_subject=_awaiting_subject(state.get("tasks", []), self.packs),
            awaiting_amount=_awaiting_amount(state.get("tasks", []), self.packs)
            or (
                None
                if any(t.call for t in state.get("tasks", []))
                else facts.get("awaiting_amount")
            ),
            handoff_ticket=handoff_ticket,
        )
        degrade = state.get("degrade") or DegradeContext()
        degraded_turns = state.get("degraded_turns", 0) + 1 if degrade.degraded else 0
        notices = list(state.get("notices", []))
        notices += _dropped_confirmations(state, self.packs)
        facts["dropped_actions"] = self._recently_dropped(state, facts)
        return {
            "facts": facts,
            "degraded_turns": degraded_turns,
            "notices": notices,
            "asking": asking,
        }

    def _recently_dropped(
        self, state: HelpdeskState, facts: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """Actions the customer moved on from without answering (at most 3, within the
        confirmation TTL): a later "确认取消" asks about the cancel again instead of "nothing is
        waiting". Cleared once an action is asked again or runs."""
        tasks = state.get("tasks", [])
        if any(t.match.get("reasked") or (t.call is not None and t.call.confirmed) for t in tasks):
            return []
        now = self.clock.wall()
        kept = [
            a
            for a in facts.get("dropped_actions") or []
            if now - float(a.get("dropped_at", now)) <= self.config.confirmation_ttl_s
        ]
        moved_on = _moved_on_from(state)
        kept += [{**a, "dropped_at": now} for a in moved_on]
        return kept[-3:]

    # ----------------------------------------------------------------- generate
    async def generate(self, state: HelpdeskState) -> dict[str, Any]:
        """Write the reply from the tools' data and the DegradeContext.

        On a regeneration the previous draft's violations are passed to the writer as feedback.
        """
        ctx = self._ctx(state)
        items = _reply_items(state)
        degrade = ctx.degrade
        lang = _lang(state)
        feedback = list(state.get("validation", {}).get("violations", []))
        tiers = dict(state.get("tiers", {}))
        draft: str | None = None
        tier = "minimal"
        if self.writer is None and self.router is not None and not self._simplified(state):
            outcome = await generate_with_tiers(
                self.router, self._reply_facts(items, degrade, feedback), lang, ctx, self.clock
            )
            if outcome is not None:
                draft, tier = outcome.value, outcome.tier
            else:
                self._fell_to_minimal(ctx, "generate")
        if draft is None:
            draft = await self._writer(items, degrade, lang, feedback)
        tiers["generate"] = tier
        draft = _with_questions(draft, state.get("asking", []))
        return {
            "draft": self._with_notices(state, draft, lang),
            "tiers": tiers,
            "tier": tier,
            "degrade": ctx.degrade,
            "request": ctx.to_state(),
        }

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

    # ----------------------------------------------------------------- validate
    async def validate(self, state: HelpdeskState) -> dict[str, Any]:
        """Check the draft; publish it, ask for one regeneration, or fall back to the template.

        A failed check regenerates once with the violations as feedback; a second failure
        publishes the structured template reply, which states only what the tools returned.
        """
        failpoint("reply.before_publish")  # crash drills: the reply exists, nothing is stored
        draft = state.get("draft", "")
        lang = _lang(state)
        degrade = state.get("degrade") or DegradeContext()
        facts = ReplyFacts(
            draft=draft,
            lang=lang,
            hotline=self.config.hotline,
            customer_text=_last_human_text(state.get("messages", [])),
            results=state.get("results", []),
            facts=state.get("facts", {}),
            degrade=degrade,
            actions={t.id: dict(t.call.args) for t in state.get("tasks", []) if t.call},
            packs=self.packs,
        )
        violations = find_violations(facts)
        ctx = self._ctx(state)
        asked = [Asked(t.intent, t.match) for t in state.get("tasks", [])]
        if not violations and semantic_check_needed(
            asked,
            draft,
            facts.customer_text,
            self.packs,
            model_written=state.get("tiers", {}).get("generate", "minimal") != "minimal",
        ):
            violations = await self._semantic_check(state, draft, lang, ctx)
        previous = state.get("validation", {})
        regenerations = int(previous.get("regenerations", 0))
        if not violations:
            await self.executor.mark_reported(state.get("results", []))
            return {
                "validation": {
                    "ok": True,
                    "violations": [],
                    "regenerations": regenerations,
                    "fallback": False,
                },
                "messages": [AIMessage(content=draft)],
                "facts": _published(state, draft),
                "degrade": ctx.degrade,
                "request": ctx.to_state(),
            }
        # violations quote the draft: long digit runs (phone numbers) stay out of the logs
        log.warning(
            "reply failed validation: %s", _LONG_DIGITS.sub("[number]", "; ".join(violations))
        )
        if regenerations < self.config.max_regenerations:
            return {
                "validation": {
                    "ok": False,
                    "violations": violations,
                    "regenerations": regenerations + 1,
                    "fallback": False,
                },
                "degrade": ctx.degrade,
                "request": ctx.to_state(),
            }
        fallback = render_fallback_reply(
            _reply_items(state), ctx.degrade, lang, hotline=self.config.hotline, packs=self.packs
        )
        await self.executor.mark_reported(state.get("results", []))
        fallback = self._with_notices(
            state, _with_questions(fallback, state.get("asking", [])), lang
        )
        return {
            "facts": _published(state, fallback),
            "validation": {
                "ok": False,
                "violations": violations,
                "regenerations": regenerations,
                "fallback": True,
            },
            "messages": [AIMessage(content=fallback)],
            "degrade": ctx.degrade,
            "request": ctx.to_state(),
        }

    async def _semantic_check(
        self, state: HelpdeskState, draft: str, lang: Lang, ctx: RequestContext
    ) -> list[str]:
        """Ask a model tier whether the draft answers everything the customer asked."""
        if self.router is None:
            return []
        items = _reply_items(state)
        outcome = await check_with_tiers(
            self.router,
            _last_human_text(state.get("messages", [])),
            draft,
            self._reply_facts(items, ctx.degrade, []),
            lang,
            ctx,
            self.clock,
        )
        if outcome is None or outcome.value.answered_all:
            return []
        missing = ", ".join(outcome.value.missing) or "part of the question"
        return [f"the reply does not answer: {missing}"]


_ANSWERS = frozenset(
    {Intent.CONFIRM_YES, Intent.CONFIRM_NO, Intent.CONFIRM_CHANGE, Intent.CONFIRM_UNCLEAR}
)


def _with_questions(draft: str, asking: list[dict[str, Any]]) -> str:
    """The reply with every confirmation question it must ask, word for word: a model may
    phrase the rest, but not the question a yes will be read against."""
    missing = [a["question"] for a in asking if a.get("question") and a["question"] not in draft]
    return "\n".join([draft, *dict.fromkeys(missing)]) if missing else draft


def _published(state: HelpdeskState, reply: str) -> dict[str, Any]:
    """The session facts once ``reply`` is published: an action waits for a yes only if this
    reply asked for it, in the exact words."""
    facts = dict(state.get("facts", {}))
    facts["pending_actions"] = [
        a for a in state.get("asking", []) if a.get("question") and a["question"] in reply
    ]
    return facts


def _reused_ticket(call: ToolCall, ticket_id: str) -> ToolResult:
    """A handoff when the session already has one open: the same ticket, no second one."""
    return ToolResult(
        call_id=call.id,
        tool=call.name,
        status=ToolStatus.OK,
        data={"ticket_id": ticket_id, "category": "handoff", "reused": True, "status": "open"},
    )


def _with_when(result: ToolResult) -> ToolResult:
    """A repeated money action's earlier execution, with its time as the reply shows it."""
    data = result.data if isinstance(result.data, dict) else {}
    previous = data.get("previous")
    if not isinstance(previous, dict) or "at" not in previous:
        return result
    when = datetime.fromtimestamp(float(previous["at"]), tz=UTC).strftime("%Y-%m-%d %H:%M UTC")
    return result.model_copy(update={"data": {**data, "previous": {**previous, "when": when}}})


def _awaiting_amount(tasks: list[Task], packs: PackSet) -> dict[str, Any] | None:
    """A money request whose amount could not be used: the reply asked how much."""
    subject = packs.subject()
    for task in tasks:
        cap = packs.for_intent(task.intent)
        if cap is None or not cap.amounts or task.match.get("amount_kind") != "invalid":
            continue
        return {"intent": task.intent, "subject": task.match.get(subject) if subject else None}
    return None


def _resume_awaiting_amount(
    matches: list[MatchedIntent], facts: dict[str, Any], text: str, packs: PackSet
) -> list[MatchedIntent]:
    """ "refund half of 100609" -> "how much?" -> "100": a message that only gives the amount
    continues the request that asked for it (on the same subject)."""
    waiting = facts.get("awaiting_amount")
    subject = packs.subject()
    if not waiting or not subject or not waiting.get("subject") or len(matches) != 1:
        return matches
    intent, capability = stored_intent(str(waiting.get("intent", "")))
    only = matches[0]
    same = only.intent is intent and only.capability == capability
    if not (same or only.intent in (Intent.UNKNOWN, Intent.THANKS)) or only.request_value(
        subject
    ) not in (None, waiting["subject"]):
        return matches
    reading = read_amount(text, money_context=True, packs=packs)
    if reading.kind == "none":
        return matches
    resumed = dataclasses.replace(
        only,
        intent=intent,
        capability=capability,
        amount=reading.value,
        amount_kind=reading.kind,
        amount_raw=reading.raw,
        details="",
    )
    return [resumed.with_request({subject: waiting["subject"]})]


def _awaiting_subject(tasks: list[Task], packs: PackSet) -> dict[str, Any] | None:
    """A request that could not run for want of its subject (the reply asked for it)."""
    subject = packs.subject()
    for task in tasks:
        cap = packs.for_intent(task.intent)
        scoped = cap is not None and bool(subject) and cap.subject == subject
        if task.call is None and scoped and not task.match.get(subject):
            return dict(task.match)
    return None


def _resume_awaiting_subject(
    matches: list[MatchedIntent], facts: dict[str, Any], packs: PackSet
) -> list[MatchedIntent]:
    """ "我要退款" -> "订单100200": a message that only gives the subject the previous reply
    asked for continues that request instead of starting a new one."""
    waiting = facts.get("awaiting_subject")
    pack = packs.subject_pack()
    if not waiting or pack is None or len(matches) != 1:
        return matches
    only = matches[0]
    named = only.request_value(pack.subject)
    if (only.capability or only.intent.value) != pack.subject_intent or not named:
        return matches
    if only.inferred_order:
        return matches
    if len(_only_subject(pack, packs).sub("", only.text).strip()) > 6:
        return matches  # more than the subject: a new question
    intent, capability = stored_intent(
        str(waiting.get("intent", "")), str(waiting.get("capability") or "")
    )
    return [
        dataclasses.replace(
            only,
            intent=intent,
            capability=capability,
            amount=waiting.get("amount"),
            details=waiting.get("details") or only.details,
        )
    ]


_NUMBER_WORDS = r"no\.?|number|号|#|[\s,.，。:：]"


def _only_subject(pack: Pack, packs: PackSet) -> re.Pattern[str]:
    """What a message giving only the subject is made of: its identifier, the words naming its
    kind, "number" words and punctuation."""
    parts = [_NUMBER_WORDS]
    shape = packs.identifier_shapes().get(pack.subject)
    if shape:
        parts.insert(0, shape)
    if pack.subject_words:
        parts.insert(1, pack.subject_words)
    return re.compile("|".join(parts), re.IGNORECASE)


def _transcript(messages: list[BaseMessage]) -> str:
    lines = []
    for message in messages:
        role = {"human": "Customer", "ai": "Agent", "tool": "Tool"}.get(message.type, "Note")
        lines.append(f"{role}: {_content(message)}")
    return "\n".join(lines)


def _moved_on_from(state: HelpdeskState) -> list[dict[str, Any]]:
    """Actions that waited for a yes the customer did not give: they asked something else."""
    previous = state.get("facts", {}).get("pending_actions") or []
    tasks = state.get("tasks", [])
    answered = (
        any(t.call is not None and t.call.confirmed for t in tasks)
        or any(t.intent == "confirm_no" for t in tasks)
        or any(t.match.get("reasked") for t in tasks)
    )
    return [] if answered else list(previous)


def _dropped_confirmations(state: HelpdeskState, packs: PackSet) -> list[dict[str, Any]]:
    """Actions that waited for a yes the customer did not give (they asked something else):
    the reply says they were not done, instead of dropping them silently."""
    notices = []
    for action in _moved_on_from(state):
        cap = packs.for_tool(str(action.get("tool")))
        key = cap.dropped_key if cap is not None and cap.dropped_key else "dropped_action"
        args = {k: str(v) for k, v in (action.get("args") or {}).items() if v is not None}
        notices.append({**args, "key": key})
    return notices


def route_after_validate(state: HelpdeskState) -> Literal["generate", "__end__"]:
    """Back to generate when validation asked for a regeneration, else done."""
    validation = state.get("validation", {})
    if validation.get("ok") is False and not validation.get("fallback"):
        return "generate"
    return "__end__"


ReplyWriter = Callable[[list[ReplyItem], DegradeContext, Lang, list[str]], Awaitable[str]]
"""``(items, degrade, lang, feedback) -> draft``: writes a reply; feedback lists the previous
draft's violations on a regeneration."""


def minimal_writer(hotline: str, packs: PackSet) -> ReplyWriter:
    """The minimal tier's writer: templated replies filled with the tools' data."""

    async def write(
        items: list[ReplyItem], degrade: DegradeContext, lang: Lang, feedback: list[str]
    ) -> str:
        return render_reply(items, degrade, lang, hotline=hotline, packs=packs)

    return write


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
            return _content(message)
    return ""
