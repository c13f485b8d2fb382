"""``helpdesk serve`` (the HTTP service) and ``helpdesk token`` (demo customer tokens).

``serve`` loads capability packs like ``helpdesk chat``: ``--pack module:attr`` (repeatable) plus
every pack installed in the ``helpdesk.packs`` entry-point group; a pack that cannot be loaded
stops start-up with exit code 2 and a message naming it.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from helpdesk.app.packs_cli import PACK_HELP, PackError, packs_or_error
from helpdesk.app.settings import (
    Settings,
    SettingsError,
    load_settings,
    storage_error,
    storage_errors,
)

__all__ = ["register"]

_err = Console(stderr=True, soft_wrap=True)


def _settings(**overrides: object) -> Settings:
    try:
        return load_settings(**overrides)
    except SettingsError as exc:
        _err.print(f"[red]Invalid configuration:[/red]\n{escape(str(exc))}")
        raise typer.Exit(2) from exc


def _issuer(settings: Settings) -> object:
    from helpdesk.app.service.auth import TokenIssuer

    secret = settings.token_secret.get_secret_value() if settings.token_secret else ""
    try:
        return TokenIssuer(secret=secret, ttl_s=settings.token_ttl_s)
    except ValueError as exc:
        _err.print(f"[red]Invalid configuration:[/red] {exc} (e.g. `openssl rand -hex 32`)")
        raise typer.Exit(2) from exc


async def _preflight(settings: Settings) -> str | None:
    """Check the checkpoint key, open the session store and ping Redis once before serving: a
    missing key, a bad URL or an unreachable server stops start-up with a message naming the
    setting, never a traceback."""
    from helpdesk.app.privacy import CheckpointKeyMissingError, require_checkpoint_key
    from helpdesk.graph.checkpoint import open_checkpointer

    try:
        key = require_checkpoint_key(settings)
    except CheckpointKeyMissingError as exc:
        return str(exc)
    try:
        async with open_checkpointer(
            url=settings.checkpoint_url, path=settings.sessions_file, key=key
        ):
            pass
    except storage_errors() as exc:
        return storage_error(settings, exc)
    if settings.redis_url:
        from redis.asyncio import Redis
        from redis.exceptions import RedisError

        client = Redis.from_url(settings.redis_url)
        try:
            await client.ping()
        except (RedisError, OSError) as exc:
            return f"HELPDESK_REDIS_URL: cannot reach Redis: {exc} (must be a reachable redis://)"
        finally:
            await client.aclose()
    return None


def register(app: typer.Typer) -> None:
    """Add ``serve`` and ``token`` to the ``helpdesk`` command."""

    @app.command("serve")
    def serve(
        port: Annotated[int, typer.Option("--port", "-p", help="Port to listen on.")] = 8000,
        host: Annotated[str, typer.Option("--host", help="Interface to bind.")] = "127.0.0.1",
        demo: Annotated[
            bool, typer.Option("--demo", help="Let the web page log in as a demo customer.")
        ] = False,
        pack: Annotated[list[str] | None, typer.Option("--pack", help=PACK_HELP)] = None,
    ) -> None:
        """Run the HTTP service: JSON API (/v1), SSE progress, the web chat page (/)."""
        import uvicorn

        from helpdesk.app.service.api import create_app

        settings = _settings(service_demo_login=True) if demo else _settings()
        _issuer(settings)
        packs, unloadable = packs_or_error(pack)
        if unloadable is not None:
            _err.print(f"[red]Cannot load pack:[/red] {escape(unloadable)}")
            raise typer.Exit(2)
        problem = asyncio.run(_preflight(settings))
        if problem is not None:
            _err.print(f"[red]Invalid configuration:[/red] {escape(problem)}")
            raise typer.Exit(2)
        try:
            application = create_app(settings, packs=packs)
        except ValueError as exc:
            what = "pack" if isinstance(exc, PackError) else "configuration"
            _err.print(f"[red]Invalid {what}:[/red] {escape(str(exc))}")
            raise typer.Exit(2) from exc
        uvicorn.run(
            application,
            host=host,
            port=port,
            log_level="info",
            lifespan="on",  # a failed start-up stops the process instead of serving without state
            timeout_graceful_shutdown=5,
        )

    @app.command("token")
    def token(
        customer: Annotated[str, typer.Argument(help="Customer id, e.g. C0001.")],
    ) -> None:
        """Print a signed token for CUSTOMER (HELPDESK_TOKEN_SECRET signs it)."""
        from helpdesk.app.service.auth import TokenIssuer

        issuer = _issuer(_settings())
        assert isinstance(issuer, TokenIssuer)
        try:
            print(issuer.mint(customer))
        except ValueError as exc:
            _err.print(f"[red]Error:[/red] {exc}")
            raise typer.Exit(2) from exc
