"""The decompose node: the customer's message as tasks (a model tier or the template matcher),
and the answers that continue an earlier request (an amount or a subject the reply asked for)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from helpdesk.graph.capabilities import match_packs, merge_matches
from helpdesk.graph.conversation import NO_ANY, bare
from helpdesk.graph.first_round import RULES, calls_signature, first_round, reading_signature
from helpdesk.graph.intents import (
    JUST_DROPPED,
    Intent,
    MatchedIntent,
    match_intents,
    split_clauses,
    stored_intent,
)
from helpdesk.graph.language import Lang
from helpdesk.graph.money import read_amount
from helpdesk.graph.node_base import NodeBase, _lang, _last_human_text
from helpdesk.graph.planning import plan_tasks
from helpdesk.graph.request import ASKED_WITH
from helpdesk.graph.stage_chain import StageOutcome
from helpdesk.graph.stages import PlannedTask, decompose_with_tiers, select_tools_with_tiers
from helpdesk.graph.state import HelpdeskState, Task
from helpdesk.graph.tiered import matches_from_plan, tool_schemas
from helpdesk.graph.unclaimed_parts import ANSWERS, defer_unclaimed_parts
from helpdesk.tools.context import RequestContext
from helpdesk.tools.packs import Pack, PackSet
from helpdesk.tools.results import ToolCall

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
        awaiting = bool(facts.get("pending_actions"))
        template = match_intents(
            text, packs=self.packs, facts=facts, awaiting_confirmation=awaiting
        )
        just = [a for a in facts.get("dropped_actions") or [] if a.get(JUST_DROPPED)]
        if not awaiting and len(just) == 1:
            # the one action moved on from on the turn before (said not done, "if you still want
            # it, just ask again"): a bare yes now ("yeah go on then", "行吧") asks about it
            # again; nothing else is read as an answer to it (of several, which one: not said)
            answer = match_intents(text, packs=self.packs, facts=facts, awaiting_confirmation=True)
            if [m.intent for m in answer] == [Intent.CONFIRM_YES]:
                template, awaiting = answer, True
        is_confirmation = any(m.intent in ANSWERS for m in template)
        # a part the matcher could not read that a pack's claim merged away may still be a
        # request of its own: such a reading is never taken as settled without the models
        unread = any(m.intent is Intent.UNKNOWN for m in template)
        # a no with nothing waiting for an answer is a refused request ("don't cancel 100904.
        # is T-000031 closed?"): the packs still read the rest of the message
        answers_question = is_confirmation and (awaiting or len(split_clauses(text)) <= 1)
        if len(self.packs) and not answers_question:
            template = merge_matches(
                template, match_packs(text, lang, facts, self.packs), self.packs
            )
        if not is_confirmation:
            # a part asking something that no reading used is said to be unread, never dropped
            template = defer_unclaimed_parts(text, template, self.packs, lang)
            unread = unread or any(m.intent is Intent.UNKNOWN for m in template)
        simplified = self._simplified(state)
        if simplified:
            ctx.degrade = ctx.degrade.model_copy(update={"simplified_mode": True})
        matches, tier = template, "minimal"
        proposed: dict[str, Any] | None = None
        if self.router is not None and not simplified and not is_confirmation:
            matches, tier, proposed = await self._ask_models(
                state, template, text, lang, ctx, complete=not unread
            )
        tasks = self._plan(matches, state, allow_confirm=tier == "minimal")
        # Calls are attached by select_tool; a confirmation keeps the call it resumes, and an
        # action asked again keeps the call that asks (a write that needs no confirmation of its
        # own, offered and then changed — "no, for 100609" — must be asked, never run)
        planned = [
            t
            if t.call and (t.call.confirmed or t.match.get("reasked"))
            else t.model_copy(update={"call": None})
            for t in tasks
        ]
        return {
            "tasks": planned,
            "tier": tier,
            "tiers": {"decompose": tier},
            "proposed_calls": proposed,
            "degrade": ctx.degrade,
            "request": ctx.to_state(),
        }

    def _plan(
        self, matches: list[MatchedIntent], state: HelpdeskState, *, allow_confirm: bool
    ) -> list[Task]:
        """The turn's tasks from a reading of the message (answers that continue an earlier
        request — an amount or a subject the reply asked for — applied first)."""
        facts = state.get("facts", {})
        text = _last_human_text(state.get("messages", []))
        resumed = _resume_awaiting_amount(
            _resume_awaiting_subject(matches, facts, self.packs), facts, text, self.packs
        )
        resumed = _go_ahead_for_the_amount_asked(resumed, facts, text, self.packs)
        return plan_tasks(
            resumed,
            turn=state.get("turn", 1),
            facts=facts,
            allow_confirm=allow_confirm,
            packs=self.packs,
        )

    async def _ask_models(
        self,
        state: HelpdeskState,
        template: list[MatchedIntent],
        text: str,
        lang: Lang,
        ctx: RequestContext,
        *,
        complete: bool,
    ) -> tuple[list[MatchedIntent], str, dict[str, Any] | None]:
        """The first model round (:mod:`helpdesk.graph.first_round`): decomposition and tool
        selection at once — tool selection needs only the customer's words — ended by the first
        answer that agrees with the template matcher's reading, else by both.

        A tool selection settles the round only for a reading that asks nothing but reads: the
        selection sees the words and the tool list, not the request, and would call a write
        that fits the words ("do you open tickets for damaged items?") — a decomposition is what
        tells a question from a request, so a write waits for it.

        Args:
            complete: the template matcher read every part of the message (no unread part was
                merged away by a pack's claim); else nothing settles the round early.

        Returns the reading to plan from, the tier it is credited to (``minimal`` when no model
        tier decomposed the message, :data:`RULES` when the template matcher's reading was
        used because a model's tool selection corroborated it) and the tool calls proposed for
        ``select_tool`` to check and bind (None: select_tool maps intents to tools, or asks the
        models itself).
        """
        assert self.router is not None
        facts = state.get("facts", {})
        targets = self.packs.request_fields()
        rules = self._plan(template, state, allow_confirm=True)
        early = complete and self.config.first_round_early
        rules_reading = reading_signature(rules) if early else None
        rules_calls = calls_signature((t.call for t in rules if t.call), targets)
        only_reads = all(
            not self._is_write(t.call.name) and not t.call.ask_first for t in rules if t.call
        )

        def model_matches(outcome: StageOutcome[list[PlannedTask]]) -> list[MatchedIntent]:
            return matches_from_plan(
                outcome.value,
                text=text,
                lang=lang,
                last_subject=facts.get(f"last_{self.packs.subject()}"),
                packs=self.packs,
            )

        def decompose_settles(outcome: StageOutcome[list[PlannedTask]]) -> bool:
            if rules_reading is None:
                return False
            planned = self._plan(model_matches(outcome), state, allow_confirm=False)
            return reading_signature(planned) == rules_reading

        def select_settles(outcome: StageOutcome[list[ToolCall]]) -> bool:
            return (
                rules_reading is not None
                and only_reads
                and calls_signature(outcome.value, targets) == rules_calls
            )

        round_ = await first_round(
            decompose_with_tiers(self.router, text, lang, facts, ctx, self.clock, self.packs),
            select_tools_with_tiers(
                self.router, text, lang, tool_schemas(self.executor), ctx, self.clock
            ),
            decompose_settles=decompose_settles,
            select_settles=select_settles,
        )
        selected, decomposed = round_.selected, round_.decomposed
        if round_.settled_by == "select_tool":
            # the model's calls are the rules' reading: plan from the rules, bind its calls
            assert selected is not None
            return template, RULES, {"calls": list(selected.value), "tier": selected.tier}
        if decomposed is None:
            self._fell_to_minimal(ctx, "decompose")
            proposed = {"calls": list(selected.value), "tier": selected.tier} if selected else None
            return template, "minimal", proposed
        matches = model_matches(decomposed)
        if round_.settled_by == "decompose":
            # the model's reading is the rules': its calls are the ones the reading plans
            calls = [t.call for t in self._plan(matches, state, allow_confirm=False) if t.call]
            return matches, decomposed.tier, {"calls": calls, "tier": RULES}
        proposed = {"calls": list(selected.value), "tier": selected.tier} if selected else None
        return matches, decomposed.tier, proposed

    def _is_write(self, tool: str) -> bool:
        spec = self.executor.registry.get(tool)
        return spec is None or spec.policy.is_write


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
    plain = bare(text.lower())
    if (
        only.intent is Intent.UNKNOWN
        and len(plain) <= 24
        and NO_ANY.search(plain)
        and read_amount(text, money_context=True, packs=packs).kind == "none"
    ):
        # "how much?" -> "never mind" / "算了": nothing is refunded, and the reply says so
        return [dataclasses.replace(only, intent=Intent.CONFIRM_NO, capability="", details="")]
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
    said = str(waiting.get("said") or "")
    if said:
        resumed = dataclasses.replace(resumed, args={**resumed.args, ASKED_WITH: said})
    return [resumed.with_request({subject: waiting["subject"]})]


def _go_ahead_for_the_amount_asked(
    matches: list[MatchedIntent], facts: dict[str, Any], text: str, packs: PackSet
) -> list[MatchedIntent]:
    """ "100200能退100吗" -> (the order shown) -> "好的 退吧": a short go-ahead asking for money
    with no amount of its own is for the amount just asked about, on that subject."""
    asked = facts.get("amount_asked")
    subject = packs.subject()
    if not asked or not subject or len(matches) != 1 or len(bare(text)) > 12:
        return matches
    only = matches[0]
    cap = packs.for_intent(only.capability) if only.capability else None
    if cap is None or not cap.amounts or only.amount_kind != "none":
        return matches
    if only.request_value(subject) not in (None, asked.get("subject")):
        return matches
    amount = float(asked["amount"])
    resumed = dataclasses.replace(
        only, amount=amount, amount_kind="exact", amount_raw=f"{amount:g}", inferred_order=False
    )
    return [resumed.with_request({subject: asked.get("subject")})]


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
            # "退100块钱" -> "100200": the amount said with the request is the one asked (its
            # kind too: never the whole amount for want of it)
            amount_kind=str(waiting.get("amount_kind") or only.amount_kind),
            amount_raw=str(waiting.get("amount_raw") or only.amount_raw),
            details=waiting.get("details") or only.details,
            # ("refund half" -> "100200": the part said with it, ¥398.50 — never the whole)
            args={**dict(waiting.get("args") or {}), **only.args},
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
