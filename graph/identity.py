"""Who may run a turn on a session: the owner check every entry point goes through.

A session (a LangGraph thread) belongs to the first customer who ran a turn on it. The owner is
kept in the state key ``owner``, which the graph's input schema does not contain, so a caller's
input cannot set it — LangGraph applies the run input (``messages``, ``customer``, ``session``)
to the channels before the first node runs, and would otherwise overwrite it. The check runs
first thing in the turn (:func:`identity_gate` wraps ``guard_context``), whatever invoked the
graph: the CLI, the compiled graph served by ``langgraph dev`` / Studio, a library caller, an
HTTP service.

A refused turn leaves no trace in the session's state: the refusing step removes the
caller's message(s) and restores ``customer``, then ``refuse_turn`` raises the typed error, so
the caller sees an exception, never a reply built from another customer's session.

Whether a new session's customer exists is asked of the backend once (a :data:`CustomerCheck`),
unless the backend has already said so by serving them (:data:`CustomerSeen`: every backend
answer on a customer's behalf is that answer). With both, a first turn whose reply language
does not depend on the customer's profile does not ask up front: its own tool calls are the
check (:func:`verify_after`, after ``execute``) — a backend that served them knows them, one
that said "no such customer" refuses the turn exactly as the up-front check would — and only a
turn whose calls did not reach the backend (none made, or all failed) asks then. Before, every
session cost the backend one extra request before its first tool call (0.12 requests per
logical tool call in the benchmark's four-turn sessions).

Exceptions::

    TurnError                  a turn was refused before it ran
    └── IdentityError          the turn's customer may not use this session
        ├── MissingCustomerError   no customer named
        ├── SessionOwnerError      the session belongs to another customer
        └── UnknownCustomerError   the backend has no such customer
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.messages import BaseMessage, RemoveMessage

from helpdesk.degrade.failpoints import failpoint

__all__ = [
    "CustomerCheck",
    "CustomerSeen",
    "IdentityError",
    "KnownCustomer",
    "MissingCustomerError",
    "Refusal",
    "SessionOwnerError",
    "TurnError",
    "UnknownCustomerError",
    "check_identity",
    "identity_gate",
    "refusal_error",
    "refusal_update",
    "refuse_turn",
    "route_after_guard",
    "verify_after",
]

RefusalReason = Literal["missing_customer", "session_owner", "unknown_customer"]


@dataclass(frozen=True, slots=True)
class KnownCustomer:
    """A yes from a :data:`CustomerCheck`, with what the backend's profile says."""

    lang: str | None = None
    """The customer's profile language (``"zh"`` / ``"en"``), if the backend has one: replies
    to messages without a language of their own (ids, emoji) use it."""


CustomerCheck = Callable[[str], Awaitable["bool | KnownCustomer | None"]]
"""Asks the backend whether a customer exists: True (or a :class:`KnownCustomer`) yes, False no
such customer, None cannot tell (an outage: the turn goes on, and its tools report the outage
truthfully)."""

CustomerSeen = Callable[[str], "bool | None"]
"""What the backend's answers so far say about a customer, without asking it: True it served
them, False it answered that there is no such customer, None it said nothing yet."""

ProfileMatters = Callable[[Mapping[str, Any]], bool]
"""Whether the turn's reply would depend on the customer's profile (its language): then the
check is made up front, since it brings the profile."""

NodeFn = Callable[[Any], Awaitable[dict[str, Any]]]


class TurnError(Exception):
    """A turn was refused before it ran (bad input, wrong customer for a session)."""


class IdentityError(TurnError):
    """The turn's customer may not use this session."""


class MissingCustomerError(IdentityError):
    """The turn names no customer."""


class SessionOwnerError(IdentityError):
    """The session belongs to another customer."""


class UnknownCustomerError(IdentityError):
    """The backend has no such customer."""


_ERRORS: dict[RefusalReason, tuple[type[IdentityError], str]] = {
    "missing_customer": (
        MissingCustomerError,
        "no customer given for session {session!r}: every turn must name its customer",
    ),
    "session_owner": (SessionOwnerError, "session {session!r} belongs to another customer"),
    "unknown_customer": (UnknownCustomerError, "unknown customer {customer!r}"),
}


@dataclass(frozen=True, kw_only=True, slots=True)
class Refusal:
    """Why a turn may not run; stored in state ``refused`` until ``refuse_turn`` raises."""

    reason: RefusalReason
    """What was wrong with the turn's identity."""
    session: str
    """The session (thread) the turn was for."""
    customer: str
    """The customer the caller claimed (never the owner: that is not the caller's to know)."""

    def as_state(self) -> dict[str, str]:
        return {"reason": self.reason, "session": self.session, "customer": self.customer}


def check_identity(*, owner: str | None, customer: str | None, session: str) -> Refusal | None:
    """The refusal for a turn by ``customer`` on a session owned by ``owner``, or None.

    Args:
        owner: the session's owner (None or empty: a new session, the customer claims it).
        customer: the customer the caller says the turn is for.
        session: the session id, named in the error.
    """
    claimed = (customer or "").strip()
    if not claimed:
        return Refusal(reason="missing_customer", session=session, customer="")
    if owner and owner != customer:
        return Refusal(reason="session_owner", session=session, customer=claimed)
    return None


def refusal_update(state: Mapping[str, Any], refusal: Refusal) -> dict[str, Any]:
    """The state update that undoes what the refused run's input wrote, plus the refusal.

    The input's message(s) are the trailing human messages; ``customer`` goes back to the owner.
    """
    messages: Sequence[BaseMessage] = state.get("messages", [])
    trailing: list[BaseMessage] = []
    for message in reversed(messages):
        if message.type != "human":
            break
        trailing.append(message)
    return {
        "messages": [RemoveMessage(id=m.id) for m in trailing if m.id],
        "customer": state.get("owner") or "",
        "refused": refusal.as_state(),
    }


def refusal_error(refused: Mapping[str, str]) -> IdentityError:
    """The typed error for a stored refusal (see :class:`Refusal`)."""
    reason: RefusalReason = refused["reason"]  # type: ignore[assignment]
    cls, template = _ERRORS[reason]
    return cls(template.format(session=refused["session"], customer=refused["customer"]))


def identity_gate(
    guard: NodeFn,
    check_customer: CustomerCheck | None = None,
    *,
    seen: CustomerSeen | None = None,
    profile_matters: ProfileMatters | None = None,
) -> NodeFn:
    """``guard`` (the turn's first node) behind the identity check.

    Args:
        guard: the node that starts a turn (``guard_context``).
        check_customer: asks the backend whether a customer exists; called once per session,
            when its first turn claims it (None: no check).
        seen: what the backend's answers already say about a customer (None: nothing is
            observed; the check is always made up front).
        profile_matters: whether this turn's reply depends on the customer's profile (None:
            always — the check is made up front).
    """

    async def guard_context(state: Mapping[str, Any]) -> dict[str, Any]:
        customer = state.get("customer")
        owner = state.get("owner")
        session = str(state.get("session") or "")
        refusal = check_identity(owner=owner, customer=customer, session=session)
        profile: dict[str, Any] = {}
        verified: dict[str, Any] = {}
        pending = not owner or bool(state.get("owner_unverified"))
        if refusal is None and pending and check_customer is not None:
            assert customer is not None  # check_identity refused an empty one
            # a first turn whose reply follows the profile asks up front: the answer brings it
            needs_profile = not owner and (profile_matters is None or profile_matters(state))
            known = seen(customer) if seen is not None and not needs_profile else None
            deferred = seen is not None and known is None and not needs_profile
            if known is True:
                verified = {"owner_unverified": False}  # the backend served them already
            elif deferred:
                verified = {"owner_unverified": True}  # this turn's own calls will tell
            else:
                found = await check_customer(customer)
                if found is False:
                    refusal = Refusal(reason="unknown_customer", session=session, customer=customer)
                elif found is None:
                    verified = {"owner_unverified": seen is not None}
                else:
                    verified = {"owner_unverified": False}
                    if isinstance(found, KnownCustomer) and found.lang and not owner:
                        profile = {"profile_lang": found.lang}
        if refusal is not None:
            return refusal_update(state, refusal)
        failpoint("turn.start")  # crash drills
        update = await guard({**state, **profile})
        return {**update, **profile, **verified, "owner": owner or customer, "refused": None}

    guard_context.__name__ = getattr(guard, "__name__", "guard_context")
    return guard_context


def verify_after(stage: NodeFn, check_customer: CustomerCheck, seen: CustomerSeen) -> NodeFn:
    """``stage`` (``execute``), then the identity check a deferred turn still owes.

    What the stage's tool calls made the backend say decides: served — the customer is known;
    "no such customer" — the turn is refused (``refused`` set; the fused turn drops everything
    the turn did and stores only the refusal's clean-up). When its calls did not reach the
    backend, :data:`CustomerCheck` is asked now; an outage there leaves the session unverified
    for its next turn, as an outage of the up-front check does.
    """

    async def verified_stage(state: Mapping[str, Any]) -> dict[str, Any]:
        update = await stage(state)
        if not state.get("owner_unverified"):
            return update
        customer = str(state.get("customer") or "")
        known = seen(customer)
        if not known:
            # False may be an old answer: a customer created since is asked about once more
            found = await check_customer(customer)
            known = None if found is None else found is not False
        if known is False:
            session = str(state.get("session") or "")
            refusal = Refusal(reason="unknown_customer", session=session, customer=customer)
            return {**update, "refused": refusal.as_state()}
        return {**update, "owner_unverified": known is None}

    verified_stage.__name__ = getattr(stage, "__name__", "execute")
    return verified_stage


async def refuse_turn(state: Mapping[str, Any]) -> dict[str, Any]:
    """Raise the refusal that the turn's first step recorded (its clean-up is already saved)."""
    raise refusal_error(state["refused"])


def route_after_guard(state: Mapping[str, Any]) -> Literal["decompose", "refuse_turn"]:
    return "refuse_turn" if state.get("refused") else "decompose"
