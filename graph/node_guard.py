"""The guard_context node: start a turn (facts, language, budget, earlier writes, compaction)."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import BaseMessage

from helpdesk.graph.compaction import CompactionPolicy, compact, count_messages_near
from helpdesk.graph.facts import extract_facts
from helpdesk.graph.language import Lang, reply_language, requested_language
from helpdesk.graph.node_base import NodeBase, _content, _last_human_text, log
from helpdesk.graph.replies import describe_action, render_notice
from helpdesk.graph.stages import summarize_with_tiers
from helpdesk.graph.state import HelpdeskState

__all__ = ["GuardContextNode"]


class GuardContextNode(NodeBase):
    """guard_context: the first node of every turn."""

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


def _transcript(messages: list[BaseMessage]) -> str:
    lines = []
    for message in messages:
        role = {"human": "Customer", "ai": "Agent", "tool": "Tool"}.get(message.type, "Note")
        lines.append(f"{role}: {_content(message)}")
    return "\n".join(lines)
