"""The session API: one customer message in, one turn payload out (``run_turn``, ``Bot.turn``).

Every entry point (the CLI, drills, the bench, an HTTP service, library callers) goes through
:func:`run_turn`, so the checks that must hold whatever the caller (message limits, session
ownership) live here and in the graph, never in one front end only.
"""

from __future__ import annotations

import re
import time
import uuid
from typing import TYPE_CHECKING, Any

from langchain_core.messages import HumanMessage

from helpdesk.app.turn_guard import busy_reply, guarded_turn, received
from helpdesk.degrade.context import DegradeContext
from helpdesk.graph.checkpoint import read_session
from helpdesk.graph.identity import (
    IdentityError,
    MissingCustomerError,
    SessionOwnerError,
    TurnError,
    UnknownCustomerError,
    check_identity,
    refusal_error,
)
from helpdesk.graph.intents import DEFERRED_PART
from helpdesk.graph.language import detect_language, plain_apostrophes
from helpdesk.graph.prompting import load_templates, render
from helpdesk.graph.session_lock import SessionBusyError

if TYPE_CHECKING:
    from helpdesk.app.wiring import Bot

__all__ = [
    "MAX_MESSAGE_CHARS",
    "MAX_SESSION_ID_CHARS",
    "CustomerIdError",
    "IdentityError",
    "MissingCustomerError",
    "SessionIdError",
    "SessionOwnerError",
    "TurnError",
    "UnknownCustomerError",
    "check_customer_id",
    "check_session_id",
    "clean_text",
    "new_session_id",
    "run_turn",
    "turn_failed_reply",
    "turn_payload",
]

MAX_MESSAGE_CHARS = 4000
"""Longer messages are refused with a clear error before anything runs."""

MAX_SESSION_ID_CHARS = 128
"""Session ids are 1..128 characters of ``[A-Za-z0-9._:-]``."""

_SESSION_ID = re.compile(rf"[A-Za-z0-9._:-]{{1,{MAX_SESSION_ID_CHARS}}}")
_CUSTOMER_ID = re.compile(r"[\x21-\x7e]{1,128}")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


class SessionIdError(TurnError):
    """A session id that is empty, too long or has characters outside ``[A-Za-z0-9._:-]``."""


class CustomerIdError(IdentityError):
    """A customer id that is not 1..128 printable ASCII characters without spaces."""


def new_session_id() -> str:
    """A fresh session id (``s-`` and 10 hex digits)."""
    return f"s-{uuid.uuid4().hex[:10]}"


def check_session_id(session: str) -> str:
    """``session`` when it is a valid session id; else :class:`SessionIdError` naming the limit.

    The id itself is not echoed (it may be 100 KB, or markup): its length is.
    """
    if not isinstance(session, str) or _SESSION_ID.fullmatch(session) is None:
        length = len(session) if isinstance(session, str) else 0
        raise SessionIdError(
            f"invalid session id ({length} characters): use 1-{MAX_SESSION_ID_CHARS} characters "
            "of A-Z a-z 0-9 . _ : -"
        )
    return session


def check_customer_id(customer: str) -> str:
    """``customer`` stripped; empty: MissingCustomerError; malformed: CustomerIdError."""
    claimed = customer.strip() if isinstance(customer, str) else ""
    if not claimed:
        raise MissingCustomerError("no customer given: every turn must name its customer")
    if _CUSTOMER_ID.fullmatch(claimed) is None:
        raise CustomerIdError(
            f"invalid customer id ({len(claimed)} characters): use 1-128 printable ASCII "
            "characters without spaces"
        )
    return claimed


def clean_text(text: str) -> str:
    """The message as the graph may see it: lone surrogates (undecodable bytes from argv, a
    broken client) become U+FFFD, control characters other than tab and newline are dropped."""
    whole = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    lines = whole.replace("\r\n", "\n").replace("\r", "\n")
    return plain_apostrophes(_CONTROL.sub("", lines))


async def run_turn(bot: Bot, text: str, *, session: str, customer: str) -> dict[str, Any]:
    """Run one customer message through the graph; returns the ``--json`` payload.

    With an observer on the bot the turn is a trace span, counted in the metrics and written to
    the observer's events file (what ``helpdesk report`` reads).

    Raises:
        TurnError: the turn was refused before it ran; the message says why.
    """
    session = check_session_id(session)
    customer = check_customer_id(customer)
    text = clean_text(text)
    if bot.observer is None:
        return await _run_turn(bot, text, session=session, customer=customer)
    started = time.perf_counter()
    with bot.observer.turn(session=session, customer=customer):
        payload = await _run_turn(bot, text, session=session, customer=customer)
        bot.observer.turn_finished(payload, time.perf_counter() - started)
    return payload


async def _run_turn(bot: Bot, text: str, *, session: str, customer: str) -> dict[str, Any]:
    if not text.strip():
        raise TurnError(_say(text, "message_empty"))
    if len(text) > MAX_MESSAGE_CHARS:
        raise TurnError(_say(text, "message_too_long", length=len(text), limit=MAX_MESSAGE_CHARS))
    text = received(text)  # card, ID-card and bank numbers go no further than this line
    config = {"configurable": {"thread_id": session}}
    try:
        async with (
            guarded_turn(bot, session=session, customer=customer),  # one turn at a time
            # One read of the session per turn: the graph's own load reuses this one.
            read_session(bot.graph.checkpointer, session) as values,
        ):
            # The graph enforces the owner itself; checking here first keeps a refused turn from
            # writing even a checkpoint, and covers sessions stored before ``owner`` existed.
            owner = values.get("owner") or values.get("customer")
            refusal = check_identity(owner=owner, customer=customer, session=session)
            if refusal is not None:
                raise refusal_error(refusal.as_state())
            message = HumanMessage(content=text)
            state = await bot.graph.ainvoke(
                {"messages": [message], "customer": customer, "session": session},
                config,
                durability=bot.settings.checkpoint_durability,
            )
    except SessionBusyError:
        return busy_reply(text, session)
    return turn_payload(state, session)


def turn_failed_reply(text: str, hotline: str) -> str:
    """What the customer reads when a turn failed unexpectedly (in their language)."""
    return _say(text, "turn_failed", hotline=hotline)


def _say(text: str, key: str, **values: Any) -> str:
    """A customer-facing line from prompts/minimal, in the language of ``text``."""
    templates = load_templates("minimal", "generate", detect_language(text))
    return render(templates[key], **values)


def turn_payload(state: dict[str, Any], session: str) -> dict[str, Any]:
    """The JSON shape of one turn: reply, its language, session, tier, tasks, tool_results,
    degrade."""
    degrade: DegradeContext = state.get("degrade") or DegradeContext()
    results = state.get("results", [])
    return {
        "reply": state["messages"][-1].content,
        "lang": state.get("lang", "en"),
        "session": session,
        "tier": state.get("tier", "minimal"),
        "tiers": state.get("tiers", {}),
        "tasks": [
            {
                "id": t.id,
                "intent": t.intent,
                "tool": t.call.name if t.call else None,
                "args": t.call.args if t.call else {},
                "deferred": t.call is None and t.match.get("details") == DEFERRED_PART,
                "asked_again": bool(t.match.get("reasked")),
            }
            for t in state.get("tasks", [])
        ],
        "tool_results": [r.model_dump(mode="json") for r in results],
        "degrade": {**degrade.model_dump(mode="json"), "level": degrade.level},
        "validation": state.get("validation", {}),
    }
