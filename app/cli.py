"""The ``helpdesk`` command: chat with the bot, list its tools, run the demo shop.

The entry point only: nothing in the ``helpdesk`` namespace imports this module. The session API
(:func:`~helpdesk.app.session.run_turn`, ``Bot.turn``) lives in :mod:`helpdesk.app.session`, below
this module and below the drills, the bench and the service (``tests/unit/test_import_cycles.py``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from helpdesk.app.bench.cli import register as register_bench
from helpdesk.app.cli_ops import register as register_ops
from helpdesk.app.packs_cli import PACK_HELP, PackError, capability_rows, packs_or_error, tool_rows
from helpdesk.app.privacy import checkpoint_key
from helpdesk.app.service.cli import register as register_service
from helpdesk.app.session import (
    TurnError,
    check_customer_id,
    check_session_id,
    new_session_id,
    run_turn,
    turn_failed_reply,
)
from helpdesk.app.sessions_cli import register as register_sessions
from helpdesk.app.settings import (
    Settings,
    SettingsError,
    load_settings,
    storage_error,
    storage_errors,
)
from helpdesk.app.wiring import Bot, build_bot, start_probing
from helpdesk.graph.checkpoint import open_checkpointer

__all__ = ["app", "main"]

app = typer.Typer(
    help="helpdesk: a customer-service agent that keeps answering, and stays honest, when "
    "models, tools and context fail.",
    no_args_is_help=True,
    add_completion=False,
)
shop_app = typer.Typer(help="The embedded demo shop (orders, tracking, stock, tickets, refunds).")
app.add_typer(shop_app, name="shop")
register_ops(app)
register_bench(app)
register_service(app)
register_sessions(app)

log = logging.getLogger("helpdesk.app")
console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)


def _settings() -> Settings:
    try:
        return load_settings()
    except SettingsError as exc:
        err_console.print(f"[red]Invalid configuration:[/red]\n{escape(str(exc))}")
        raise typer.Exit(2) from exc


def _tier_names(bot: Bot) -> str:
    names = [f"{t.name} ({t.spec})" for t in bot.router.tiers] if bot.router else []
    return ", ".join([*names, "minimal"])


async def _chat(
    messages: list[str] | None,
    session: str,
    customer: str,
    as_json: bool,
    settings: Settings,
    events: Path | None = None,
    packs: list[str] | None = None,
) -> int:
    loaded, problem = packs_or_error(packs)
    if problem is not None:
        err_console.print(f"[red]Cannot load pack:[/red] {escape(problem)}")
        return 2
    observer = None
    if events:
        from helpdesk.app.observe import Observer  # metrics and tracing only when asked for

        observer = Observer(events_path=events)
    async with AsyncExitStack() as stack:
        try:
            saver = await stack.enter_async_context(
                open_checkpointer(
                    url=settings.checkpoint_url,
                    path=settings.sessions_file,
                    key=checkpoint_key(settings),
                )
            )
        except storage_errors() as exc:
            message = escape(storage_error(settings, exc))
            err_console.print(f"[red]Invalid configuration:[/red] {message}")
            return 2
        try:
            bot = build_bot(settings, checkpointer=saver, observer=observer, packs=loaded)
        except ValueError as exc:
            what = "pack" if isinstance(exc, PackError) else "model configuration"
            err_console.print(f"[red]Invalid {what}:[/red] {escape(str(exc))}")
            return 2
        background: list[asyncio.Task[None]] = []
        try:
            if messages is not None:
                for text in messages:
                    try:
                        payload = await run_turn(bot, text, session=session, customer=customer)
                    except TurnError as exc:
                        err_console.print(f"[red]Error:[/red] {escape(str(exc))}")
                        return 2
                    except Exception as exc:
                        # a bug, not bad input: the customer still gets a clean answer
                        log.debug("turn failed", exc_info=True)
                        if observer is not None:
                            observer.turn_failed(exc, 0.0)
                        print(turn_failed_reply(text, settings.hotline))
                        err_console.print(
                            f"[red]Error:[/red] the turn failed ({escape(type(exc).__name__)})"
                        )
                        return 1
                    if as_json:
                        print(json.dumps(payload, ensure_ascii=False, indent=2))
                    else:
                        print(payload["reply"])
                        err_console.print(f"[dim]session {escape(session)}[/dim]")
                return 0
            console.print(
                f"[bold]helpdesk[/bold] — session [cyan]{escape(session)}[/cyan], customer "
                f"[cyan]{escape(customer)}[/cyan], tiers: {escape(_tier_names(bot))}. "
                "Type 'exit' to leave."
            )
            # Long-lived: probe the model tiers so a down tier is routed around and a
            # recovered one comes back without customer traffic finding out first.
            probing = start_probing(bot, settings)
            if probing is not None:
                background.append(probing)
            while True:
                try:
                    # in a thread: the event loop keeps running (health probes) while we wait
                    text = await asyncio.to_thread(console.input, "[bold green]you>[/bold green] ")
                except (EOFError, KeyboardInterrupt):
                    console.print()
                    return 0
                if text.strip().lower() in {"exit", "quit", "退出"}:
                    return 0
                if not text.strip():
                    continue
                try:
                    payload = await run_turn(bot, text, session=session, customer=customer)
                except TurnError as exc:
                    err_console.print(f"[red]Error:[/red] {escape(str(exc))}")
                    continue
                except Exception as exc:
                    log.exception("turn failed")
                    if observer is not None:
                        observer.turn_failed(exc, 0.0)
                    sorry = turn_failed_reply(text, settings.hotline)
                    console.print(f"[bold blue]bot>[/bold blue] {escape(sorry)}")
                    continue
                console.print(f"[bold blue]bot>[/bold blue] {escape(payload['reply'])}")
        finally:
            for task in background:
                task.cancel()
            await bot.aclose()
            if observer is not None:
                observer.close()


@app.command()
def chat(
    message: Annotated[
        list[str] | None,
        typer.Option(
            "--message", "-m", help="Send this message and exit (repeat for several turns)."
        ),
    ] = None,
    session: Annotated[
        str | None, typer.Option("--session", "-s", help="Continue this session (thread id).")
    ] = None,
    customer: Annotated[
        str | None,
        typer.Option("--customer", "-c", help="Talk as this customer (default HELPDESK_CUSTOMER)."),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print {reply, session, tier, tasks, tool_results, degrade}."),
    ] = False,
    events: Annotated[
        Path | None,
        typer.Option(
            "--events",
            help="Append every turn and tool call to this JSONL file "
            "(read it with `helpdesk report`).",
        ),
    ] = None,
    pack: Annotated[list[str] | None, typer.Option("--pack", help=PACK_HELP)] = None,
) -> None:
    """Chat with the bot: interactive, or one-shot with -m."""
    settings = _settings()
    # an explicit --customer "" is an error, not the default
    try:
        session_id = check_session_id(session) if session is not None else new_session_id()
        who = check_customer_id(settings.customer if customer is None else customer)
    except TurnError as exc:
        err_console.print(f"[red]Error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    code = asyncio.run(_chat(message, session_id, who, as_json, settings, events, pack))
    raise typer.Exit(code)


@app.command("tools")
def list_tools(
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    pack: Annotated[list[str] | None, typer.Option("--pack", help=PACK_HELP)] = None,
) -> None:
    """List the capabilities and the registered tools with their resilience policies."""
    settings = _settings()
    loaded, problem = packs_or_error(pack)
    if problem is not None:
        err_console.print(f"[red]Cannot load pack:[/red] {escape(problem)}")
        raise typer.Exit(2)
    rows = tool_rows(loaded, hotline=settings.hotline)
    capabilities = capability_rows(loaded)
    if as_json:
        print(
            json.dumps({"capabilities": capabilities, "tools": rows}, ensure_ascii=False, indent=2)
        )
        return
    if capabilities:
        caps = Table(title="helpdesk capabilities")
        for column in ("pack", "capability", "kind", "tool", "intents", "required"):
            caps.add_column(column)
        for cap in capabilities:
            caps.add_row(
                cap["pack"],
                cap["capability"],
                cap["kind"],
                cap["tool"],
                ", ".join(cap["intents"]),
                ", ".join(cap["required"]),
            )
        console.print(caps)
    table = Table(title="helpdesk tools")
    for column in (
        "name",
        "kind",
        "idempotent",
        "core",
        "timeout_s",
        "cache_ttl_s",
        "confirm",
        "fallback",
        "verify",
        "args",
        "capability",
    ):
        table.add_column(column)
    for row in rows:
        table.add_row(
            *(
                ", ".join(v) if isinstance(v, list) else str(v)
                for v in (
                    row["name"],
                    row["kind"],
                    row["idempotent"],
                    row["core"],
                    row["timeout_s"],
                    row["cache_ttl_s"],
                    row["confirm"],
                    row["fallback"],
                    row["verify"],
                    row["args"],
                    row["capability"] or "-",
                )
            )
        )
    console.print(table)


@shop_app.command("serve")
def shop_serve(
    port: Annotated[int, typer.Option("--port", "-p", help="Port on 127.0.0.1.")] = 8765,
    host: Annotated[str, typer.Option("--host", help="Interface to bind.")] = "127.0.0.1",
) -> None:
    """Run the demo shop as a standalone HTTP service (point HELPDESK_SHOP_URL at it)."""
    import uvicorn

    from helpdesk.tools.shop import create_app

    settings = _settings()
    settings.shop_file.parent.mkdir(parents=True, exist_ok=True)
    uvicorn.run(create_app(settings.shop_file), host=host, port=port, log_level="info")


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover - interactive
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover - `python -m helpdesk.app.cli`
    main()
