"""What the session API does around every turn for the sessions: lock, store, privacy.

:func:`guarded_turn` holds the session's lock (:mod:`helpdesk.app.session_lock`) while the turn
reads and writes its state, and after a turn that completed indexes it and prunes the session's
older checkpoints (:class:`~helpdesk.graph.session_store.SessionStore`). :func:`busy_reply` is the
payload of a turn that could not get the lock in time ("still working on your previous message",
in the customer's language) — nothing in that message was run. :func:`received` masks what the bot
must never keep from an incoming message (cards, ID cards, bank accounts).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from helpdesk.app.redaction import mask_secrets
from helpdesk.degrade.context import DegradeContext
from helpdesk.graph.language import detect_language
from helpdesk.graph.prompting import load_templates

if TYPE_CHECKING:
    from helpdesk.app.wiring import Bot

__all__ = ["busy_reply", "guarded_turn", "received"]


def received(text: str) -> str:
    """An incoming message as the bot may keep it: card/ID-card/bank numbers masked."""
    return mask_secrets(text)


@contextlib.asynccontextmanager
async def guarded_turn(bot: Bot, *, session: str, customer: str) -> AsyncIterator[None]:
    """One turn at a time on ``session``; the turn is indexed and the session pruned after it.

    Raises:
        SessionBusyError: another turn held the session for longer than the wait.
    """
    lock = bot.session_lock
    async with lock.hold(session) if lock is not None else contextlib.nullcontext():
        yield
        if bot.session_store is not None:
            await bot.session_store.after_turn(session, customer)


def busy_reply(text: str, session: str) -> dict[str, Any]:
    """The turn payload when the session stayed busy: nothing ran, the customer resends."""
    templates = load_templates("minimal", "session", detect_language(text))
    return {
        "reply": templates["session_busy"],
        "session": session,
        "busy": True,
        "tier": "minimal",
        "tiers": {},
        "tasks": [],
        "tool_results": [],
        "degrade": {**DegradeContext().model_dump(mode="json"), "level": DegradeContext().level},
        "validation": {},
    }
