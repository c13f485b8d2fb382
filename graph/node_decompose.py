"""The decompose node: the customer's message as tasks (a model tier or the template matcher),
and the answers that continue an earlier request (an amount or a subject the reply asked for)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from typing import Any

from helpdesk.graph.capabilities import match_packs, merge_matches
from helpdesk.graph.intents import Intent, MatchedIntent, match_intents, stored_intent
from helpdesk.graph.money import read_amount
from helpdesk.graph.node_base import NodeBase, _lang, _last_human_text
from helpdesk.graph.planning import plan_tasks
from helpdesk.graph.stages import decompose_with_tiers, select_tools_with_tiers
from helpdesk.graph.state import HelpdeskState
from helpdesk.graph.tiered import matches_from_plan, tool_schemas
from helpdesk.tools.packs import Pack, PackSet

__all__ = ["DecomposeNode"]


class DecomposeNode(NodeBase):
    """decompose: split the message into tasks."""

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


_ANSWERS = frozenset(
    {Intent.CONFIRM_YES, Intent.CONFIRM_NO, Intent.CONFIRM_CHANGE, Intent.CONFIRM_UNCLEAR}
)


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
