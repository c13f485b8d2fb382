"""The merge_context node: what this turn learned, folded into the session facts (remembered
subjects, tickets, questions waiting for a yes, requests waiting for an amount or a subject)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from helpdesk.degrade.context import DegradeContext
from helpdesk.graph.intents import DECLINED_ACTIONS, JUST_DROPPED, LAST_WRITE, WRITES_DONE
from helpdesk.graph.node_base import NodeBase, _lang, _last_human_text
from helpdesk.graph.planning import match_from_task
from helpdesk.graph.put_off import called_off
from helpdesk.graph.replies import ReplyItem, confirmation_question
from helpdesk.graph.request import AMOUNT_ASKED, ASKED_WITH, Intent
from helpdesk.graph.state import HelpdeskState, Task
from helpdesk.tools.packs import PackSet
from helpdesk.tools.results import ToolResult, ToolStatus

__all__ = ["MergeContextNode"]


class MergeContextNode(NodeBase):
    """merge_context: update the session facts."""

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
        named_now: set[str] = set()  # the subjects this turn's requests named
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
                if name == subject and task.match.get("intent") == Intent.CONFIRM_NO:
                    # "取消我的订单，不是100998": the subject spared is never what "it" means next
                    continue
                if value not in remembered[key]:
                    remembered[key].append(value)
                if name == subject:
                    last_subject = value
                    if task.match.get("intent") != Intent.CONFIRM_NO:
                        named_now.add(str(value))
            if result is None:
                continue
            args = (
                dict(result.data.get("args", task.call.args))
                if task.call is not None and isinstance(result.data, dict)
                else {}
            )
            if (
                result.status is ToolStatus.NEEDS_CONFIRMATION
                and task.call is not None
                # the same action with the same arguments, read twice from one message, waits
                # once: one yes never runs it twice
                and not any(a["tool"] == task.call.name and a["args"] == args for a in asking)
            ):
                # every action the reply asks about, with the exact question; it waits for a
                # yes only if the published reply really contains that question (validate)
                item = ReplyItem(intent=match_from_task(task), result=result)
                asking.append(
                    {
                        "id": "c-" + uuid.uuid4().hex[:16],
                        "call_id": result.call_id,
                        "tool": task.call.name,
                        "args": args,
                        "asked_turn": state.get("turn", 1),
                        "asked_at": self.clock.wall(),
                        "match": {k: v for k, v in task.match.items() if k != "reasked"},
                        "question": confirmation_question(
                            item, lang, hotline=self.config.hotline, packs=self.packs
                        ),
                    }
                )
            data = result.data if isinstance(result.data, dict) else {}
            if result.usable:
                # a search's only hit is what "it" means next ("how much is it?")
                for name, value in _only_hit(data, fact_fields).items():
                    key = fact_fields[name]
                    if value in remembered[key]:
                        remembered[key].remove(value)
                    remembered[key].append(value)
                    if name == subject:
                        last_subject = value
            cap = self.packs.for_tool(task.call.name) if task.call is not None else None
            if (
                result.status is ToolStatus.OK
                and task.call is not None
                and cap is not None
                and cap.kind != "read"
            ):
                # "do the same for 100452": the last action done, how its amount was said
                facts[LAST_WRITE] = {
                    "tool": task.call.name,
                    "args": dict(task.call.args),
                    "amount_kind": task.match.get("amount_kind"),
                }
                done = [d for d in facts.get(WRITES_DONE) or () if isinstance(d, dict)]
                done.append({"tool": task.call.name, "args": dict(task.call.args)})
                facts[WRITES_DONE] = done[-5:]
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
            # "what's in 100200 and 100609" → "refund it": "it" is either — asked, never the
            # last one named (the remembered subjects still serve "the first one")
            facts[f"last_{subject}"] = last_subject if len(named_now) < 2 else None
        facts.update(
            tickets=tickets[-20:],
            pending_actions=[],
            awaiting_subject=_awaiting_subject(state.get("tasks", []), self.packs),
            awaiting_amount=_awaiting_amount(state.get("tasks", []), self.packs, results)
            or (
                None
                if any(t.call for t in state.get("tasks", []))
                else facts.get("awaiting_amount")
            ),
            handoff_ticket=handoff_ticket,
            amount_asked=_amount_asked(state.get("tasks", []), self.packs),
        )
        degrade = state.get("degrade") or DegradeContext()
        degraded_turns = state.get("degraded_turns", 0) + 1 if degrade.degraded else 0
        notices = list(state.get("notices", []))
        notices += _dropped_confirmations(state, self.packs)
        facts["dropped_actions"] = self._recently_dropped(state, facts)
        facts[DECLINED_ACTIONS] = _declined(state)
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
            {**a, JUST_DROPPED: False}
            for a in facts.get("dropped_actions") or []
            if now - float(a.get("dropped_at", now)) <= self.config.confirmation_ttl_s
        ]
        moved_on = _moved_on_from(state)
        # words calling anything off ("取消退款", "cancel that request", "no wait") leave nothing
        # a later bare yes may ask about again
        fresh = not called_off(_last_human_text(state.get("messages", [])))
        kept += [{**a, "dropped_at": now, JUST_DROPPED: fresh} for a in moved_on]
        return kept[-3:]


def _awaiting_amount(
    tasks: list[Task], packs: PackSet, results: Mapping[str, ToolResult] | None = None
) -> dict[str, Any] | None:
    """A money request whose amount could not be used, or that its tool's precheck could not
    make exact (its refusal says ``ask_amount``): the reply asked how much."""
    subject = packs.subject()
    for task in tasks:
        # (a request asked again keeps its stored intent, "pack": its capability says which)
        cap = packs.for_intent(str(task.match.get("capability") or task.intent))
        result = (results or {}).get(task.id)
        refused = result is not None and isinstance(result.data, dict)
        asked = refused and bool(result.data.get("ask_amount"))  # type: ignore[union-attr]
        if cap is None or not cap.amounts:
            continue
        if task.match.get("amount_kind") != "invalid" and not asked:
            continue
        intent = str(task.match.get("capability") or task.intent)
        return {
            "intent": intent,
            "subject": task.match.get(subject) if subject else None,
            "said": str(task.match.get(ASKED_WITH) or task.match.get("text") or "")[:300],
        }
    return None


def _amount_asked(tasks: list[Task], packs: PackSet) -> dict[str, Any] | None:
    """A look that answered whether an amount can be had ("100200能退100吗"): its subject and
    the amount, for a go-ahead on the next turn."""
    subject = packs.subject()
    for task in tasks:
        amount = task.match.get(AMOUNT_ASKED)
        if isinstance(amount, int | float) and amount > 0:
            return {"subject": task.match.get(subject) if subject else None, "amount": amount}
    return None


def _awaiting_subject(tasks: list[Task], packs: PackSet) -> dict[str, Any] | None:
    """A request that could not run for want of its subject (the reply asked for it)."""
    subject = packs.subject()
    for task in tasks:
        cap = packs.for_intent(task.intent)
        scoped = cap is not None and bool(subject) and cap.subject == subject
        if task.call is None and scoped and not task.match.get(subject):
            return dict(task.match)
    return None


def _moved_on_from(state: HelpdeskState) -> list[dict[str, Any]]:
    """Actions that waited for a yes the customer did not give: they asked something else."""
    previous = state.get("facts", {}).get("pending_actions") or []
    tasks = state.get("tasks", [])
    answered = any(t.call is not None and t.call.confirmed for t in tasks) or any(
        t.intent == "confirm_no" for t in tasks
    )
    if answered:
        return []
    reasked = {t.match.get("reasked_from") for t in tasks if t.match.get("reasked")}
    if reasked:
        # "only the cancel" while a cancel and a refund waited: the refund was dropped
        return [a for a in previous if a.get("id") not in reasked]
    return list(previous)


def _declined(state: HelpdeskState) -> list[dict[str, Any]]:
    """The actions a plain no answered this turn (kept for the next turn only): what a refund
    asked next may be about ("the thermos is broken" → ticket? → "no" → "refund it")."""
    tasks = state.get("tasks", [])
    if not any(t.intent == "confirm_no" for t in tasks):
        return []
    return list(state.get("facts", {}).get("pending_actions") or [])[-3:]


def _dropped_confirmations(state: HelpdeskState, packs: PackSet) -> list[dict[str, Any]]:
    """Actions that waited for a yes the customer did not give (they asked something else):
    the reply says they were not done, instead of dropping them silently."""
    notices = []
    subject = packs.subject()
    # "refund the thermos" → "actually add the plates too": the same action on the same subject
    # asked again (for more) replaces the one that waited; no "it was not done" beside it
    asked_again = {
        (t.call.name, str(t.call.args.get(subject)))
        for t in state.get("tasks", [])
        if t.call is not None and subject and t.call.args.get(subject) is not None
    }
    for action in _moved_on_from(state):
        said = (str(action.get("tool")), str((action.get("args") or {}).get(subject)))
        if said in asked_again:
            continue
        cap = packs.for_tool(str(action.get("tool")))
        key = cap.dropped_key if cap is not None and cap.dropped_key else "dropped_action"
        args = {k: str(v) for k, v in (action.get("args") or {}).items() if v is not None}
        notices.append({**args, "key": key})
    return notices


def _only_hit(data: Mapping[str, Any], fact_fields: Mapping[str, str]) -> dict[str, str]:
    """The identifiers of a result's only hit: ``data`` names none itself (it is a search, not
    a record: an order's one item is not what the customer looked for) and holds one list of
    records with exactly one record in it ({"products": [{"sku": "SKU-1002", ...}]})."""
    if any(data.get(name) for name in fact_fields):
        return {}
    lists = [v for v in data.values() if isinstance(v, list)]
    if len(lists) != 1 or len(lists[0]) != 1 or not isinstance(lists[0][0], Mapping):
        return {}
    record = lists[0][0]
    return {name: str(record[name]) for name in fact_fields if record.get(name)}
