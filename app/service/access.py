"""Who may touch what: the customer comes only from the bearer token, and a session answers
only to the customer it is bound to (another customer's session looks exactly like a missing
one)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header, Request

from helpdesk.app.service.auth import TokenError
from helpdesk.app.service.directory import is_session_id
from helpdesk.app.service.errors import ApiError
from helpdesk.app.service.state import Service

__all__ = ["Customer", "Svc", "bearer_customer", "check_owner", "current_service", "owned_session"]


def current_service(request: Request) -> Service:
    """The :class:`Service` the app's lifespan built."""
    service: Service = request.app.state.service
    return service


Svc = Annotated[Service, Depends(current_service)]


def bearer_customer(service: Svc, authorization: Annotated[str | None, Header()] = None) -> str:
    """The customer named by the request's bearer token (401 without a valid one)."""
    if not authorization:
        raise ApiError(401, "token_missing", "Send 'Authorization: Bearer <token>'.")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "token_invalid", "Send 'Authorization: Bearer <token>'.")
    try:
        return service.issuer.verify(token.strip())
    except TokenError as exc:
        raise ApiError(401, exc.code, exc.message) from exc


Customer = Annotated[str, Depends(bearer_customer)]


async def owned_session(service: Service, session: str, customer: str) -> dict[str, Any]:
    """The session's state values, after checking it exists and belongs to ``customer``.

    Another customer's session answers exactly like a missing one (no existence leak)."""
    if not is_session_id(session):
        raise ApiError(404, "session_not_found", "No such session.")
    owner = await service.directory.owner(session)
    snapshot = await service.bot.graph.aget_state({"configurable": {"thread_id": session}})
    values: dict[str, Any] = dict(snapshot.values) if snapshot and snapshot.values else {}
    owner = owner or values.get("owner") or values.get("customer")
    if owner is None or owner != customer:
        raise ApiError(404, "session_not_found", "No such session.")
    return values


async def check_owner(service: Service, session: str, customer: str) -> None:
    """As :func:`owned_session`, from the directory alone when it knows the session (cheap:
    no session-store read on the admission path)."""
    if is_session_id(session):
        owner = await service.directory.owner(session)
        if owner is not None:
            if owner != customer:
                raise ApiError(404, "session_not_found", "No such session.")
            return
    await owned_session(service, session, customer)
