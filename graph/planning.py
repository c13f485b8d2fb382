"""From matched intents to tasks and tool calls (the minimal tier's decomposition and selection).

Deterministic and offline: each intent maps to the call its capability's planner chooses
(:attr:`~helpdesk.tools.packs.Capability.plan`), arguments from the words and the session's
facts. Intents that need no tool (greeting, clarifying) become tasks without a call; missing
information (no order id) becomes a task the reply asks about instead of a guess.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from helpdesk.graph.answer_changes import PART_ARGS, said_instead
from helpdesk.graph.asking import ASKS
from helpdesk.graph.capabilities import pack_call
from helpdesk.graph.confirmation_reading import RESTATED
from helpdesk.graph.conversation import NO_ANY, QUESTION_MARK
from helpdesk.graph.intents import (
    CHANGE_UNCLEAR,
    DONE_BEFORE,
    JUST_DROPPED,
    WRITES_DONE,
    Intent,
    MatchedIntent,
    plain_match,
)
from helpdesk.graph.named_answers import REFUSED_OTHERS
from helpdesk.graph.request import ALTERNATIVE, RESOLVED
from helpdesk.graph.state import Task
from helpdesk.graph.task_matches import match_from_task
from helpdesk.tools.packs import Capability, Pack, PackSet
from helpdesk.tools.results import ToolCall

__all__ = ["call_for", "described_subject", "match_from_task", "plain_match", "plan_tasks"]


def call_for(
    match: MatchedIntent,
    task_id: str,
    *,
    facts: dict[str, Any],
    packs: PackSet,
) -> ToolCall | None:
    """The tool call serving ``match``, or None when no tool is needed or information is missing."""
    if match.intent is Intent.PACK:
        return pack_call(match, task_id, facts=facts, packs=packs)
    return None


def _with_said(
    facts: dict[str, Any], said: dict[str, Any], cap: Capability | None
) -> dict[str, Any]:
    """The facts a look is planned with: a subject an earlier request of the same message named
    is the last one ("where's my parcel YT9433239273? can the courier drop it at my office"). A
    write keeps the session's facts: it never acts on a subject only a look named."""
    if not said or cap is None or cap.kind != "read":
        return facts
    return {**facts, **{f"last_{name}": value for name, value in said.items()}}


def plan_tasks(
    matches: list[MatchedIntent],
    *,
    turn: int,
    facts: dict[str, Any],
    allow_confirm: bool = True,
    packs: PackSet,
) -> list[Task]:
    """Tasks for this turn, with their calls.

    Only an unqualified yes (:attr:`Intent.CONFIRM_YES`) runs what the published reply asked
    about: every pending action, each keyed by the confirmation that authorised it, so a
    retry, a resume or a crash repeats the same business action. A changed answer
    (:attr:`Intent.CONFIRM_CHANGE`) asks again with the change; a questioning one
    (:attr:`Intent.CONFIRM_UNCLEAR`) asks again unchanged; nothing else runs a pending action.
    ``allow_confirm`` is False for a model's decomposition (its confirm intents are ignored).
    """
    tasks: list[Task] = []
    pending = list(facts.get("pending_actions") or [])
    said: dict[str, Any] = {}  # subjects this message's earlier requests named
    index = 0

    def next_id() -> str:
        nonlocal index
        task_id = f"t{turn}-{index}"
        index += 1
        return task_id

    done = [d for d in facts.get(WRITES_DONE) or () if isinstance(d, dict)]
    for match in matches:
        if match.intent in _ANSWERS and not allow_confirm:
            continue
        if match.intent is Intent.CONFIRM_NO and done:
            # "no wait, don't cancel" after the cancel ran: the reply must not say nothing was
            # done — it says what was, and that it stands
            said = {**done[-1], "answering": bool(pending)}  # (a no to what was just asked)
            match = dataclasses.replace(match, args={**match.args, DONE_BEFORE: said})
        if match.intent is Intent.CONFIRM_YES and pending:
            # "确认退款" names what it confirms: a waiting action of another kind is asked again
            named, refused, _ = match.details.partition(REFUSED_OTHERS)
            others = [a for a in pending if not _names(a, named)]
            for action in others if not refused else ():  # ("…, the cancel no": dropped)
                tasks.append(_ask_again(action, match, next_id(), packs))
            for action in (a for a in pending if _names(a, named)):
                tasks.append(_resumed(action, next_id()))
            pending = []
            continue
        if match.intent is Intent.CONFIRM_YES and not pending:
            # "确认取消" after the customer moved on from the cancel question (a bare yes: on the
            # turn right after): asked again, never run (it answered no published question)
            dropped, named = facts.get("dropped_actions") or [], match.details
            again = [a for a in dropped if _names(a, named) and (named or a.get(JUST_DROPPED))]
            if again:
                tasks.append(_ask_again(again[-1], match, next_id(), packs))
                continue
        if match.intent is Intent.CONFIRM_NO and pending and match.details.startswith("not:"):
            # "取消那个不用了" while a refund waits too: the cancel is declined, the refund asked
            # again (a no naming no action, or the only one waiting, declines everything)
            others = _still_asked(pending, match.details)
            if len(others) == len(pending):
                # "别把保温杯退了" while only a cancel waits: a no naming nothing that waits is
                # a no — nothing is asked again
                others = []
            pending = []
            tasks.append(_answered(dataclasses.replace(match, details=""), next_id()))
            for action in others:
                unchanged = dataclasses.replace(match, intent=Intent.CONFIRM_UNCLEAR, details="")
                tasks.append(_ask_again(action, unchanged, next_id(), packs))
            continue
        if match.intent is Intent.CONFIRM_CHANGE and _restates(pending, match, packs):
            # "yes, refund the 50" to "shall I refund ¥50.00 for 100609?": nothing changed —
            # the yes to that question, run as asked
            for action in pending:
                tasks.append(_resumed(action, next_id()))
            pending = []
            continue
        if match.intent in (Intent.CONFIRM_UNCLEAR, Intent.CONFIRM_CHANGE) and pending:
            changed = _changed_actions(pending, match, packs)
            pending, waiting = [], pending
            if match.intent is Intent.CONFIRM_CHANGE and not changed:
                # several actions wait and the change names none of them: none stays waiting
                # (a later "yes" runs nothing) and the reply says which words were not used
                unclear = MatchedIntent(
                    Intent.UNKNOWN, text=match.text, lang=match.lang, details=CHANGE_UNCLEAR
                )
                tasks.append(_answered(unclear, next_id()))
                continue
            unchanged = dataclasses.replace(match, intent=Intent.CONFIRM_UNCLEAR)
            for action in _still_asked(waiting, match.details):
                answer = match if action in changed else unchanged
                tasks.append(_ask_again(action, answer, next_id(), packs))
            continue
        task_id = next_id()
        cap = packs.for_intent(match.capability) if match.capability else None
        call = call_for(match, task_id, facts=_with_said(facts, said, cap), packs=packs)
        if call is not None and cap is not None and cap.subject and call.args.get(cap.subject):
            said[cap.subject] = call.args[cap.subject]
        tasks.append(
            Task(
                id=task_id,
                intent=match.capability or match.intent.value,
                match=plain_match(match),
                call=call,
                core=cap.core if cap is not None else True,
            )
        )
    if pending and matches and _side_questions(matches, tasks, pending, packs):
        # "取消了钱多久能退回来" / "does that go back to my card?" while the cancel or refund
        # waits: the question is answered and the action asked about again in the same reply
        # (still waiting for a yes to that question, never run on this message)
        asked = MatchedIntent(Intent.CONFIRM_UNCLEAR, text=matches[0].text, lang=matches[0].lang)
        for action in pending:
            tasks.append(_ask_again(action, asked, next_id(), packs))
    return tasks


_SIDE = frozenset({Intent.PACK, Intent.THANKS, Intent.GREETING})
"""What a message beside a question about a waiting action may hold ("thanks, how long ...")."""
_SMALL_TALK = frozenset({Intent.THANKS.value, Intent.GREETING.value})


def described_subject(
    task: Task, packs: PackSet
) -> tuple[Pack, MatchedIntent, dict[str, Any]] | None:
    """For a task whose words describe its subject instead of naming it ("is the phone
    shipped?"): the pack, the request and the arguments its resolver looks the subject up with
    (:mod:`helpdesk.graph.subject_resolution`); None when there is nothing to look up."""
    match = match_from_task(task)
    if match.intent is not Intent.PACK or match.args.get(RESOLVED):
        return None
    cap = packs.for_intent(match.capability)
    pack = packs.pack_of(match.capability)
    if cap is None or pack is None or pack.resolver is None or not pack.subject:
        return None
    if cap.subject != pack.subject:
        return None
    if match.request_value(pack.subject) and not match.inferred_order:
        return None
    args = pack.resolver.query({**plain_match(match), "intent": match.capability})
    return None if args is None else (pack, match, dict(args))


def _described(task: Task, packs: PackSet) -> bool:
    return described_subject(task, packs) is not None


def _side_questions(
    matches: list[MatchedIntent],
    tasks: list[Task],
    pending: list[dict[str, Any]],
    packs: PackSet,
) -> bool:
    """Whether this message only asks about what waits for a yes: a question, every request in
    it a look at a policy of the actions (:attr:`Capability.about_actions`) or at the waiting
    action's own subject, named — no answer to the question, no write, nothing about another
    order or a product, nothing unread, nothing told ("保温杯已经退掉了" is no question)."""
    if any(m.intent in _ANSWERS or m.intent not in _SIDE for m in matches):
        return False
    if any(m.details == ALTERNATIVE for m in matches):
        return False  # "换货可以吗" while a refund waits: weighing something else instead
    if not any(m.intent is Intent.PACK for m in matches):
        return False
    subjects = {
        str(v)
        for a in pending
        for k, v in (a.get("args") or {}).items()
        if (cap := packs.for_tool(str(a.get("tool")))) is not None and k == cap.subject and v
    }
    for task in tasks:
        if task.intent in _SMALL_TALK:
            continue
        cap = packs.for_intent(task.intent)
        if task.call is None or cap is None or cap.kind != "read":
            return False
        if cap.about_actions:
            continue  # "取消了钱多久能退回来": a policy of the action itself
        same = bool(cap.subject) and str(task.call.args.get(cap.subject) or "") in subjects
        if same and match_from_task(task).inferred_order and not _described(task, packs):
            continue  # "多久能到" beside the cancel question: the waiting order's own look
        if not cap.subject or _described(task, packs):
            return False  # "is SKU-1004 in stock?", "is the phone shipped?": something else
        if str(task.call.args.get(cap.subject) or "") not in subjects:
            return False  # another order
    return any(QUESTION_MARK.search(m.text) or ASKS.search(m.text.lower()) for m in matches)


_ANSWERS = frozenset(
    {Intent.CONFIRM_YES, Intent.CONFIRM_NO, Intent.CONFIRM_CHANGE, Intent.CONFIRM_UNCLEAR}
)


def _names(action: dict[str, Any], verb: str) -> bool:
    """Whether a confirmation naming ``verb`` ("cancel", "refund"; "" names any) is about
    ``action``."""
    intent = str((action.get("match") or {}).get("intent", ""))
    args = action.get("args") or {}
    # ... or a subject it acts on ("not:100998" from "yes but not 100998")
    named = any(verb == str(v) for v in args.values()) if isinstance(args, dict) else False
    return not verb or verb in intent or verb in str(action.get("tool", "")) or named


def _answered(match: MatchedIntent, task_id: str) -> Task:
    """A task the reply answers without a tool (a decline, a change it could not place)."""
    return Task(id=task_id, intent=match.intent.value, match=plain_match(match))


def _still_asked(waiting: list[dict[str, Any]], details: str) -> list[dict[str, Any]]:
    """The waiting actions an unclear answer asks about again: all of them, or, for an answer
    naming an action kind ("only:cancel" from "only the cancel", "not:refund" from "don't
    refund"), only those it keeps. The others are dropped (reported as not done)."""
    keep, _, verb = details.partition(":")
    if keep == "only" and verb:
        return [a for a in waiting if _names(a, verb)]
    if keep == "not" and verb:
        return [a for a in waiting if not _names(a, verb)]
    return waiting


def _changed_actions(
    pending: list[dict[str, Any]], answer: MatchedIntent, packs: PackSet
) -> list[dict[str, Any]]:
    """The pending actions a changed answer is about: the one waiting; of several, those whose
    subject it names (the others are asked again unchanged), or — an amount alone — the one
    taking amounts (a ticket and a refund: the refund's). Else empty: never one change applied
    to all ("yes but only 50 for 100200" would refund 100200 twice)."""
    if answer.intent is not Intent.CONFIRM_CHANGE:
        return []
    priced = [a for a in pending if (c := packs.for_tool(a["tool"])) is not None and c.amounts]
    said = answer.text.lower()  # an amount alone (no "no", no "forget the complaint")
    alone = answer.amount_kind != "none" and not NO_ANY.search(said) and "forget" not in said
    if len(pending) == 1 or (alone and len(priced) == 1):
        return list(pending) if len(pending) == 1 else priced
    chosen = []
    for action in pending:
        cap = packs.for_tool(action["tool"])
        subject = cap.subject if cap is not None else ""
        named = answer.request_value(subject) if subject else None
        if named and str(action["args"].get(subject)) == str(named):
            chosen.append(action)
    return chosen


def _resumed(action: dict[str, Any], task_id: str) -> Task:
    """A waiting action run on the yes that answered its question (keyed by that action)."""
    call = ToolCall(
        name=action["tool"],
        args=action["args"],
        id=task_id,
        confirmed=True,
        action_id=action["id"],
    )
    original = action["match"]
    return Task(id=task_id, intent=original["intent"], match=original, call=call)


def _restates(pending: list[dict[str, Any]], answer: MatchedIntent, packs: PackSet) -> bool:
    """Whether a changed answer changes nothing: one action waits, and the answer's amount (and
    subject, if it names one) is the one it was asked with ("yes, refund the 50" to ¥50.00)."""
    if answer.details != RESTATED or len(pending) != 1 or answer.amount is None:
        return False
    (action,) = pending
    cap = packs.for_tool(str(action.get("tool")))
    if cap is None or not cap.amounts:
        return False
    args = action.get("args") or {}
    asked = args.get(cap.amounts[0])
    if asked is None or abs(float(asked) - float(answer.amount)) > 0.005:
        return False
    named = answer.request_value(cap.subject) if cap.subject else None
    return named is None or str(named) == str(args.get(cap.subject))


def _ask_again(action: dict[str, Any], answer: MatchedIntent, task_id: str, packs: PackSet) -> Task:
    """The pending action asked about again: with the customer's change ("yes but only 100",
    "不对，我是说100904": the capability's :attr:`~Capability.subject` and first amount
    argument), or unchanged after a questioning yes. Never confirmed here."""
    args = dict(action["args"])
    original = dict(action["match"])
    cap = packs.for_tool(action["tool"])
    reworked = False  # the call is planned again from the request, on its new subject
    if answer.intent is Intent.CONFIRM_CHANGE and cap is not None:
        subject = answer.request_value(cap.subject) if cap.subject else None
        amount = cap.amounts[0] if cap.amounts else ""
        if subject and cap.subject in args:
            stated = original.get("amount_kind") == "exact"
            if str(args.get(cap.subject)) != str(subject) and amount in args and not stated:
                # "refund the thermos from 100200" -> "no, 100609": an amount worked out from the
                # other subject is not carried over; the part the customer named (the thermos,
                # "half") is, and is worked out again on the new subject — asked about when it
                # holds no such part, never offered as a whole; an amount said ("refund 129")
                # stays
                args[amount] = None
                original[amount] = None
                original.update(
                    {k: v for k, v in (original.get("args") or {}).items() if k in PART_ARGS}
                )
                reworked = True
            args[cap.subject] = subject
            original.update({cap.subject: subject, "inferred_order": False})
        if answer.amount_kind != "none" and amount in args:
            args[amount] = answer.amount if answer.amount_kind == "exact" else None
            original.update({amount: args[amount], "amount_kind": answer.amount_kind})
        if answer.amount_kind == "invalid":
            original, reworked = said_instead(original, answer), True
    replanned = cap.plan(original, {}) if cap is not None and cap.plan is not None else None
    if replanned is not None and replanned.tool != action["tool"]:
        # the change cannot be used as it is (an invalid amount): look it up and ask instead
        call = ToolCall(name=replanned.tool, args=dict(replanned.args), id=task_id)
    else:
        # asked again, whatever the tool: a write that needs no confirmation of its own (a
        # ticket offered because the bot found its order) must not run on "no, for 100609"
        if reworked and replanned is not None:
            args = dict(replanned.args)
        call = ToolCall(name=action["tool"], args=args, id=task_id, ask_first=True)
    return Task(
        id=task_id,
        intent=original.get("intent", action["tool"]),
        match={**original, "reasked": True, "reasked_from": action.get("id", "")},
        call=call,
    )
