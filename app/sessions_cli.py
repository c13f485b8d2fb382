"""``helpdesk sessions``: list, show, delete and purge the stored sessions (SQLite or PostgreSQL).

Works on whatever store the settings select (``HELPDESK_CHECKPOINT_URL`` / the SQLite file) and
reads encrypted sessions with ``HELPDESK_CHECKPOINT_KEY``. Deleting removes every row of a
session: its checkpoints and their writes (and blobs), its index row, its lock file and its
write-journal entries.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from helpdesk.app.privacy import checkpoint_key
from helpdesk.app.session_lock import session_lock_for
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import default_journal, session_store_for
from helpdesk.degrade.clock import SystemClock
from helpdesk.graph.checkpoint import CheckpointKeyError, open_checkpointer
from helpdesk.graph.session_store import DAY_S, SessionInfo, SessionStore

__all__ = ["parse_age", "register", "sessions_app"]

sessions_app = typer.Typer(
    help="Stored sessions: list, show, delete (one, or a customer's), purge old ones.",
    no_args_is_help=True,
)
console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)

T = TypeVar("T")

_AGE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNIT_S = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": DAY_S, "": DAY_S}


def register(app: typer.Typer) -> None:
    """Add ``helpdesk sessions`` to the main CLI."""
    app.add_typer(sessions_app, name="sessions")


def parse_age(text: str) -> float:
    """``30d``, ``12h``, ``90m``, ``45s`` or a number of days -> seconds.

    Raises:
        ValueError: anything else (the message shows the accepted forms).
    """
    match = _AGE.match(text)
    if not match:
        raise ValueError(f"{text!r} is not an age: use e.g. 30d, 12h, 90m or 45s")
    return float(match.group(1)) * _UNIT_S[match.group(2)]


@asynccontextmanager
async def _store(settings: Settings) -> AsyncIterator[SessionStore]:
    async with open_checkpointer(
        url=settings.checkpoint_url, path=settings.sessions_file, key=checkpoint_key(settings)
    ) as saver:
        lock = session_lock_for(settings)
        journal = default_journal(settings, persistent=True)
        store = session_store_for(saver, settings, SystemClock(), lock, journal=journal)
        if store is None:  # pragma: no cover - open_checkpointer only opens supported savers
            raise RuntimeError("this checkpointer has no session store")
        try:
            yield store
        finally:
            await lock.aclose()
            close = getattr(journal, "close", None)
            if close is not None:
                close()


def _run(settings: Settings, job: Callable[[SessionStore], Awaitable[T]]) -> T:
    async def main() -> T:
        async with _store(settings) as store:
            return await job(store)

    try:
        return asyncio.run(main())
    except (CheckpointKeyError, ValueError, OSError) as exc:
        err_console.print(f"[red]Error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc


def _settings() -> Settings:
    try:
        return Settings()
    except ValidationError as exc:
        err_console.print(f"[red]Invalid configuration:[/red]\n{escape(str(exc))}")
        raise typer.Exit(2) from exc


def _when(stamp: float | None) -> str:
    if stamp is None:
        return "-"
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M:%S")


def _table(rows: list[SessionInfo]) -> Table:
    table = Table(title=f"{len(rows)} session(s)")
    for column in ("session", "customer", "last active (UTC)", "created (UTC)", "turns", "ckpts"):
        table.add_column(column)
    for row in rows:
        table.add_row(
            escape(row.session),
            escape(row.customer or "-"),
            _when(row.last_active_at),
            _when(row.created_at),
            str(row.turns),
            str(row.checkpoints),
        )
    return table


JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


@sessions_app.command("list")
def list_sessions(
    customer: Annotated[
        str | None, typer.Option("--customer", "-c", help="Only this customer's sessions.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """List the sessions, most recently active first."""
    rows = _run(_settings(), lambda store: store.sessions(customer=customer))
    if as_json:
        print(json.dumps([r.as_json() for r in rows], ensure_ascii=False, indent=2))
    else:
        console.print(_table(rows))


@sessions_app.command("show")
def show(
    session: Annotated[str, typer.Argument(help="The session id.")],
    as_json: JsonOption = False,
) -> None:
    """Show one session: owner, activity and its conversation."""

    async def job(store: SessionStore) -> tuple[SessionInfo | None, list[dict[str, Any]]]:
        info = await store.get(session)
        stored = await store.saver.aget_tuple({"configurable": {"thread_id": session}})
        values = stored.checkpoint["channel_values"] if stored else {}
        messages = [
            {"role": m.type, "content": m.content}
            for m in values.get("messages", [])
            if m.type in ("human", "ai")
        ]
        return info, messages

    info, messages = _run(_settings(), job)
    if info is None:
        err_console.print(f"[red]Error:[/red] no session {escape(session)!r}")
        raise typer.Exit(1)
    if as_json:
        print(json.dumps({**info.as_json(), "messages": messages}, ensure_ascii=False, indent=2))
        return
    console.print(_table([info]))
    for message in messages:
        who = "customer" if message["role"] == "human" else "bot"
        console.print(f"[bold]{who}>[/bold] {escape(str(message['content']))}")


@sessions_app.command("delete")
def delete(
    session: Annotated[str | None, typer.Argument(help="The session id to delete.")] = None,
    customer: Annotated[
        str | None, typer.Option("--customer", "-c", help="Delete every session of this customer.")
    ] = None,
) -> None:
    """Delete one session, or every session of a customer (every row: checkpoints, index,
    lock file, write journal)."""
    if (session is None) == (customer is None):
        err_console.print("[red]Error:[/red] give a session id or --customer C (not both)")
        raise typer.Exit(2)
    if session is not None:
        one = session
        existed = _run(_settings(), lambda store: store.delete(one))
        if not existed:
            err_console.print(f"[red]Error:[/red] no session {escape(one)!r}")
            raise typer.Exit(1)
        console.print(f"deleted session {escape(one)}")
        return
    who = customer or ""
    gone = _run(_settings(), lambda store: store.delete_customer(who))
    console.print(f"deleted {len(gone)} session(s) of customer {escape(who)}")


@sessions_app.command("purge")
def purge(
    older_than: Annotated[
        str | None,
        typer.Option(
            "--older-than",
            help="Delete sessions idle for longer than this (30d, 12h, 90m, 45s; "
            "default: HELPDESK_SESSION_RETENTION_DAYS).",
        ),
    ] = None,
) -> None:
    """Delete the sessions idle for longer than the retention period."""
    settings = _settings()
    try:
        age = parse_age(older_than) if older_than else settings.session_retention_days * DAY_S
    except ValueError as exc:
        err_console.print(f"[red]Error:[/red] --older-than: {escape(str(exc))}")
        raise typer.Exit(2) from exc
    gone = _run(settings, lambda store: store.purge(older_than_s=age))
    console.print(f"purged {len(gone)} session(s) idle for more than {age / DAY_S:g} day(s)")
