"""Which customer owns which session: the binding made when a session is created.

A session is bound to the customer whose token created it; every later request for it must
carry that customer's token. The graph's own state also records the owner once a turn ran (the
trust rule, enforced inside the graph); this directory covers the time before the first turn.
In one process it is a dict; replicas share it through Redis
(:class:`~helpdesk.app.service.shared.RedisSessionDirectory`).
"""

from __future__ import annotations

import re
from typing import Protocol

__all__ = ["SESSION_ID", "MemorySessionDirectory", "SessionDirectory", "is_session_id"]

SESSION_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
"""Session ids: at most 128 characters of ``[A-Za-z0-9._:-]``."""


def is_session_id(value: str) -> bool:
    return bool(SESSION_ID.fullmatch(value))


class SessionDirectory(Protocol):
    """Session -> owning customer."""

    async def bind(self, session: str, customer: str) -> None:
        """Record that ``customer`` owns ``session``."""
        ...

    async def owner(self, session: str) -> str | None:
        """The owner of ``session``; None when it was never created."""
        ...


class MemorySessionDirectory:
    """The one-process directory."""

    def __init__(self) -> None:
        self._owners: dict[str, str] = {}

    async def bind(self, session: str, customer: str) -> None:
        self._owners[session] = customer

    async def owner(self, session: str) -> str | None:
        return self._owners.get(session)
