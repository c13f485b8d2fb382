"""Judging one turn of the labelled set from what the turn observably did.

The observation point is the turn payload of :func:`helpdesk.app.session.run_turn` (``tasks``:
intent, tool and arguments of every planned request; ``tool_results``: what each call returned,
by ``call_id``) plus the shop's audit log (which writes were executed). Nothing inside the
graph is read, so the judgement stays valid whichever component does the understanding.

"Intent + arguments right" means: every labelled request is served by a distinct planned task
(the tool and the arguments that matter: order id, SKU, amount, FAQ topic — or, for requests
answered without a tool, the task's intent), and no planned tool call is left over. Tasks
without a tool that match no request (a greeting next to a question) are not counted against
the turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.conversations.labels import Expected, Turn

__all__ = ["INTENT_ALIASES", "Observation", "Verdict", "judge", "reply_language"]

INTENT_ALIASES: dict[str, str] = {
    "confirm_no": "decline",
    "unknown": "clarify",
    "confirm_yes": "confirm",
}
"""Task intent names of the bot -> the label vocabulary (the one place to update if the
understanding renames its intents)."""

_TOOLS: dict[str, str] = {
    "order_status": "get_order",
    "tracking": "track_shipment",
    "cancel_order": "cancel_order",
    "refund": "request_refund",
    "ticket": "create_ticket",
    "handoff": "handoff_to_human",
}
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
_IDS = re.compile(r"(?i)\bsku-\d+|\bt-\d{6}\b|\b[rs]-\d{6}\b|\b(?:sf|yt)\d{10}\b")


@dataclass(frozen=True)
class Observation:
    """What one turn did: the payload's tasks and results, the reply, the executed writes."""

    reply: str
    tasks: tuple[Mapping[str, Any], ...]
    results: Mapping[str, Mapping[str, Any]]
    """Tool results by call id (= task id)."""
    writes: tuple[str, ...]
    """Audit-log actions executed during the turn."""
    write_tasks: tuple[str, ...]
    """Tools of kind write or money among the planned tasks."""

    @classmethod
    def of(
        cls, payload: Mapping[str, Any], writes: Sequence[str], write_tools: frozenset[str]
    ) -> Observation:
        tasks = tuple(payload.get("tasks") or ())
        results = {str(r.get("call_id")): r for r in payload.get("tool_results") or ()}
        # an action waiting for a yes, asked about again, is no write this turn planned
        planned = tuple(
            str(t["tool"])
            for t in tasks
            if t.get("tool") in write_tools and not t.get("asked_again")
        )
        return cls(str(payload.get("reply", "")), tasks, results, tuple(writes), planned)


@dataclass
class Verdict:
    """The judgement of one turn."""

    turn: Turn
    understood: bool
    missing: list[str] = field(default_factory=list)
    """Labelled requests no planned task served (their intent)."""
    extra: list[str] = field(default_factory=list)
    """Planned tool calls no labelled request asked for (``tool(args)``)."""
    missing_facts: list[str] = field(default_factory=list)
    present_absent: list[str] = field(default_factory=list)
    lang_ok: bool = True
    unexpected_writes: list[str] = field(default_factory=list)
    unsafe: list[str] = field(default_factory=list)
    """For a question or negation: every write executed and write/money task planned."""
    planned: list[str] = field(default_factory=list)
    observed_writes: list[str] = field(default_factory=list)
    """Audit-log actions the turn executed."""
    reply: str = ""
    deferred: int = 0
    """Parts of the message the reply explicitly said it could not read (payload tasks with
    ``deferred``) that served no labelled request: each may account for one missing request."""

    @property
    def answered_or_deferred(self) -> bool:
        """Every labelled request served, or said not to be understood."""
        return len(self.missing) <= self.deferred

    @property
    def reply_ok(self) -> bool:
        return not self.missing_facts and not self.present_absent and self.lang_ok

    @property
    def accepted(self) -> bool:
        """Understood, the reply states the facts in the right language, no unexpected write."""
        return self.understood and self.reply_ok and not self.unexpected_writes


def reply_language(reply: str) -> str:
    """``zh`` when Han characters make up at least 30% of the letters (ids aside), else ``en``."""
    text = _IDS.sub(" ", reply)
    han = len(_HAN.findall(text))
    latin = len(_LATIN.findall(text))
    return "zh" if han and han >= 0.3 * (han + latin) else "en"


def _intent(task: Mapping[str, Any]) -> str:
    name = str(task.get("intent") or "")
    return INTENT_ALIASES.get(name, name)


def _result_skus(result: Mapping[str, Any] | None) -> set[str]:
    data = (result or {}).get("data")
    if not isinstance(data, dict):
        return set()
    found = {str(p.get("sku")) for p in data.get("products") or () if isinstance(p, dict)}
    if data.get("sku"):
        found.add(str(data["sku"]))
    return found


def _first_sku(result: Mapping[str, Any] | None) -> str | None:
    data = (result or {}).get("data")
    products = data.get("products") if isinstance(data, dict) else None
    if isinstance(products, list) and products and isinstance(products[0], dict):
        return str(products[0].get("sku"))
    return None


def _serves_one(exp: Expected, name: str, task: Mapping[str, Any], obs: Observation) -> bool:
    tool: str | None = str(task["tool"]) if task.get("tool") else None
    args: Mapping[str, Any] = task.get("args") or {}
    result = obs.results.get(str(task.get("id")))
    if tool is None:
        # a request answered without a call: the intent, and no identifier it should have used
        return (
            _intent(task) == name
            and not (exp.skus or exp.ticket_id)
            and (exp.order_id is None or name not in _TOOLS)
        )
    if name == "clarify" and task.get("asked_again") and _waits(result):
        # "嗯……", "ok?" to a yes/no question: the question asked again is the clarifying one
        return True
    order_ok = exp.order_id is None or args.get("order_id") == exp.order_id
    if name == "refund_info" and tool == "list_refunds":
        # "where's my refund?": the customer's refunds, each with its order — serves a refund
        # asked after naming no order, or (labelled with the order the conversation was about)
        # when that order's refund is among them
        listed = ((result or {}).get("data") or {}).get("refunds") or ()
        return exp.order_id is None or any(
            isinstance(r, Mapping) and r.get("order_id") == exp.order_id for r in listed
        )
    if name in ("order_status", "refund_info"):
        if exp.order_id is None:
            return tool == "list_orders" or (
                name == "refund_info"
                and tool == "search_faq"
                and args.get("topic") == "refund_time"
            )
        return tool == "get_order" and order_ok
    if name == "list_orders":
        return tool == "list_orders"
    if name in ("stock", "product"):
        if tool == "check_stock":
            return not exp.skus or args.get("sku") in exp.skus
        if tool == "search_products" and name == "product":
            return not exp.skus or bool(_result_skus(result) & set(exp.skus))
        if tool == "search_products" and exp.skus:
            # "when does the non stick pan restock": a search whose first hit is the product
            # asked about answers with its stock and restock date (the reply facts check them)
            return _first_sku(result) in exp.skus
        return False
        return False
    if name == "faq":
        return tool == "search_faq" and (exp.topic is None or args.get("topic") == exp.topic)
    if name == "refund":
        if tool != "request_refund" or not order_ok:
            return False
        if exp.amount is None:
            # everything refundable: asked without an amount of the customer's own — or, on
            # the yes that runs it, the amount that question stated (the question's turn is
            # where the amount was judged; the yes's facts name what was paid)
            executed = (result or {}).get("status") == "ok" and "create_refund" in obs.writes
            return executed or (args.get("amount") is None and args.get("share") is None)
        return _asked_amount(args, result) == exp.amount
    if name == "complaint":
        if tool == "create_ticket":
            return _complaint_handled(result)
        return _intent(task) == "complaint" and tool not in obs.write_tasks and order_ok
    if name == "ticket_status":
        return args.get("ticket_id") == exp.ticket_id or _intent(task) == name
    if name == "tracking" and tool == "track_shipment" and not order_ok:
        # looked up by a tracking number: served when it found the labelled order
        data = (result or {}).get("data")
        return isinstance(data, dict) and data.get("order_id") == exp.order_id
    if name in _TOOLS:
        return tool == _TOOLS[name] and order_ok
    return _intent(task) == name


def _asked_amount(args: Mapping[str, Any], result: Mapping[str, Any] | None) -> Any:
    """The amount a refund asks about: the one its confirmation question states (a share,
    "refund half", is made exact before the customer is asked), else the planned one."""
    data = (result or {}).get("data")
    asked = data.get("args") if isinstance(data, dict) else None
    if (result or {}).get("status") == "needs_confirmation" and isinstance(asked, dict):
        return asked.get("amount")
    return args.get("amount")


def _waits(result: Mapping[str, Any] | None) -> bool:
    return result is not None and result.get("status") == "needs_confirmation"


def _complaint_handled(result: Mapping[str, Any] | None) -> bool:
    """A complaint's ticket offered and waiting for a yes, or not offered because the order's
    own ticket is still open (that ticket named instead): acknowledged, nothing filed."""
    if not result:
        return False
    data = result.get("data")
    already_open = isinstance(data, dict) and data.get("code") == "ticket_open"
    return result.get("status") == "needs_confirmation" or already_open


def _complaint_beside_its_request(turn: Turn, task: Mapping[str, Any], obs: Observation) -> bool:
    """A complaint handled (:func:`_complaint_handled`) beside the answer to a request its labels
    accept as a complaint ("still not here. not happy": tracking, or a complaint): both readings
    are the labels', so the second is no request nobody made."""
    if task.get("tool") != "create_ticket":
        return False
    if not _complaint_handled(obs.results.get(str(task.get("id")))):
        return False
    order_id = (task.get("args") or {}).get("order_id")
    return any(
        "complaint" in e.intents and e.order_id in (None, order_id)
        for request in turn.tasks
        for e in request
    )


def _serves(alternatives: Sequence[Expected], task: Mapping[str, Any], obs: Observation) -> bool:
    return any(_serves_one(e, n, task, obs) for e in alternatives for n in e.intents)


_WHOLE_ANSWERS = frozenset({"get_order", "check_stock", "search_products", "track_shipment"})
"""Tools whose one answer shows everything about its object (an order's items, payment and
refunds; a product's price and stock; a parcel's carrier, state, expected date, its order's open
ticket and, when late, an apology): two questions about the same object are both served (the bot
makes one read per object: the same tracking is never shown twice in one reply)."""


def _answers_both(task: Mapping[str, Any]) -> bool:
    return str(task.get("tool")) in _WHOLE_ANSWERS


def _assign(turn: Turn, obs: Observation) -> tuple[list[str], set[int]]:
    """Labelled requests left unserved, and the indexes of the tasks used, by backtracking."""
    best: tuple[list[str], set[int]] | None = None

    def walk(index: int, used: set[int], missing: list[str]) -> None:
        nonlocal best
        if best is not None and len(missing) >= len(best[0]):
            return  # no better than an assignment already found
        if index == len(turn.tasks):
            best = (list(missing), set(used))
            return
        alternatives = turn.tasks[index]
        for n, task in enumerate(obs.tasks):
            if n not in used and _serves(alternatives, task, obs):
                walk(index + 1, used | {n}, missing)
        for n in used:
            # "how much did I pay for 100609 and how much was refunded": one look at the order
            # shows both; "is X in stock and how much is it": one answer about X gives both
            if _answers_both(obs.tasks[n]) and _serves(alternatives, obs.tasks[n], obs):
                walk(index + 1, used, missing)
        walk(index + 1, used, [*missing, alternatives[0].intent])

    walk(0, set(), [])
    assert best is not None
    return best


def _describe(task: Mapping[str, Any]) -> str:
    args = task.get("args") or {}
    shown = {k: v for k, v in args.items() if k in ("order_id", "sku", "amount", "topic", "q")}
    return f"{task.get('tool')}({', '.join(f'{k}={v}' for k, v in shown.items())})"


def _fact_present(fact: str, reply: str) -> bool:
    if fact.startswith("re:"):
        return re.search(fact[3:], reply, re.IGNORECASE) is not None
    return fact.lower() in reply.lower()


def _unsafe(turn: Turn, obs: Observation) -> list[str]:
    """For a question or negation: every write executed and write or money task planned —
    except, where the labels accept a complaint or the message reports a problem (tag
    ``problem``), its handling: a ticket offered and waiting for the customer's yes (the
    issue's "acknowledge, then ask before filing"), or not offered beside an open one."""
    if not turn.write_free:
        return []
    planned = list(obs.write_tasks)
    complaint = any("complaint" in e.intents for request in turn.tasks for e in request)
    if complaint or "problem" in turn.tags:
        for task in obs.tasks:
            if (
                task.get("tool") == "create_ticket"
                and _complaint_handled(obs.results.get(str(task.get("id"))))
                and "create_ticket" in planned
            ):
                planned.remove("create_ticket")
    return [*obs.writes, *planned]


def _part_of_a_served_comparison(turn: Turn, task: Mapping[str, Any], obs: Observation) -> bool:
    """A product look that answers one of the products of a request naming several ("the
    e-reader vs the tablet, which is cheaper?"): the bot may look each up on its own, and
    every look whose answer is about one of the products asked about serves that request."""
    tool = task.get("tool")
    result = obs.results.get(str(task.get("id")))
    if tool == "check_stock":
        about = {str((task.get("args") or {}).get("sku"))}
    elif tool == "search_products":
        first = _first_sku(result)
        about = {first} if first else set()
    else:
        return False
    return any(
        len(e.skus) > 1 and bool(about & set(e.skus)) and ({"product", "stock"} & set(e.intents))
        for request in turn.tasks
        for e in request
    )


def judge(turn: Turn, obs: Observation) -> Verdict:
    """How the turn did against its labels."""
    missing, used = _assign(turn, obs)
    extra = [
        _describe(t)
        for n, t in enumerate(obs.tasks)
        if n not in used
        and t.get("tool")
        and not _part_of_a_served_comparison(turn, t, obs)
        and not _complaint_beside_its_request(turn, t, obs)
        # an action waiting for a yes, asked about again (not run): what was asked before
        and not (t.get("asked_again") and _waits(obs.results.get(str(t.get("id")))))
    ]
    unexpected = [w for w in obs.writes if w not in turn.writes]
    unsafe = _unsafe(turn, obs)
    return Verdict(
        turn=turn,
        understood=not missing and not extra,
        missing=missing,
        extra=extra,
        missing_facts=[f for f in turn.facts if not _fact_present(f, obs.reply)],
        present_absent=[f for f in turn.absent if _fact_present(f, obs.reply)],
        lang_ok=reply_language(obs.reply) == turn.lang,
        unexpected_writes=unexpected,
        unsafe=unsafe,
        planned=[f"{_intent(t)}:{_describe(t)}" for t in obs.tasks],
        observed_writes=list(obs.writes),
        reply=obs.reply,
        deferred=sum(1 for n, t in enumerate(obs.tasks) if n not in used and t.get("deferred")),
    )
