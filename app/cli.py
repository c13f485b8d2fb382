"""The ``helpdesk`` command: chat with the bot, list its tools, run the demo shop."""

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
from helpdesk.app.privacy import checkpoint_key
from helpdesk.app.session import (
    MAX_MESSAGE_CHARS,
    TurnError,
    check_customer_id,
    check_session_id,
    new_session_id,
    run_turn,
    turn_failed_reply,
    turn_payload,
)
from helpdesk.app.sessions_cli import register as register_sessions
from helpdesk.app.settings import (
    Settings,
    SettingsError,
    load_settings,
    storage_error,
    storage_errors,
)
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.graph.checkpoint import open_checkpointer
from helpdesk.graph.tiers import Prober

__all__ = [
    "MAX_MESSAGE_CHARS",
    "TurnError",
    "app",
    "main",
    "run_turn",
    "turn_failed_reply",
    "turn_payload",
]

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
) -> int:
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
            bot = build_bot(settings, checkpointer=saver, observer=observer)
        except ValueError as exc:
            err_console.print(f"[red]Invalid model configuration:[/red] {escape(str(exc))}")
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
            if bot.router is not None:
                # Long-lived: probe the model tiers so a down tier is routed around and a
                # recovered one comes back without customer traffic finding out first.
                prober = Prober(
                    bot.router, clock=bot.executor.clock, interval_s=settings.probe_interval_s
                )
                probing = asyncio.create_task(prober.run_forever())
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
    code = asyncio.run(_chat(message, session_id, who, as_json, settings, events))
    raise typer.Exit(code)


@app.command("tools")
def list_tools(
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """List the registered tools and their resilience policies."""
    from helpdesk.tools.builtin import build_shop_registry
    from helpdesk.tools.shop_client import ShopClient

    settings = _settings()
    registry = build_shop_registry(ShopClient(), hotline=settings.hotline)
    rows = [
        {
            "name": spec.name,
            "description": spec.description,
            **spec.policy.describe(),
            "args": sorted(spec.args_model.model_fields),
        }
        for spec in registry
    ]
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return
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
