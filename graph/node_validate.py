"""The validate node: check the draft, then publish it, ask for a regeneration or fall back to
the template reply; :func:`route_after_validate` reads its verdict."""

from __future__ import annotations

import re
from typing import Any, Literal

from langchain_core.messages import AIMessage

from helpdesk.degrade.context import DegradeContext
from helpdesk.degrade.failpoints import failpoint
from helpdesk.graph.coverage import Asked, semantic_check_needed
from helpdesk.graph.intents import LAST_WRITE
from helpdesk.graph.language import Lang
from helpdesk.graph.node_base import (
    NodeBase,
    _lang,
    _last_human_text,
    _reply_items,
    _with_questions,
    log,
)
from helpdesk.graph.replies import render_fallback_reply
from helpdesk.graph.stages import check_with_tiers
from helpdesk.graph.state import HelpdeskState
from helpdesk.graph.validation import ReplyFacts, find_violations
from helpdesk.tools.context import RequestContext

__all__ = ["ValidateNode", "route_after_validate"]

_LONG_DIGITS = re.compile(r"\d[\d -]{6,}\d")


class ValidateNode(NodeBase):
    """validate: the last node of a turn's reply."""

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


def _published(state: HelpdeskState, reply: str) -> dict[str, Any]:
    """The session facts once ``reply`` is published: an action waits for a yes only if this
    reply asked for it, in the exact words."""
    facts = dict(state.get("facts", {}))
    facts["pending_actions"] = [
        a for a in state.get("asking", []) if a.get("question") and a["question"] in reply
    ]
    if facts["pending_actions"]:
        # a new action asked about: "the same" now means it, so until it is done (a "no" to
        # it leaves nothing to repeat) no earlier action is
        facts.pop(LAST_WRITE, None)
    return facts


def route_after_validate(state: HelpdeskState) -> Literal["generate", "__end__"]:
    """Back to generate when validation asked for a regeneration, else done."""
    validation = state.get("validation", {})
    if validation.get("ok") is False and not validation.get("fallback"):
        return "generate"
    return "__end__"
