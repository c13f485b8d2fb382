"""Operator commands of the ``helpdesk`` CLI: ``drill`` (fault drills) and ``report`` (degrade
report of a run's events).

:func:`register` adds both to the main Typer app. ``helpdesk drill --matrix`` runs every cell of
:mod:`helpdesk.app.drill_matrix` through whole bot turns; ``helpdesk drill --random --turns 500
--seed 7`` plays seeded conversations under seeded chaos and checks the invariants. Both write
``report.md``, ``report.json``, ``report.png`` and the run's ``events.jsonl`` to ``--out`` and
exit non-zero on any mismatch or violation. ``helpdesk report RUN.jsonl`` turns a run's events
into the degrade report. The drill modules are imported when a command runs, not at start-up.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

__all__ = ["register"]

_err = Console(stderr=True, soft_wrap=True)
_out = Console(soft_wrap=True)


def _settings() -> Any:
    from helpdesk.app.settings import SettingsError, load_settings

    try:
        return load_settings()
    except SettingsError as exc:
        _err.print(f"[red]Invalid configuration:[/red]\n{escape(str(exc))}")
        raise typer.Exit(2) from exc


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[label]}"),
        console=_err,
        transient=True,
    )


def drill(
    matrix: Annotated[
        bool,
        typer.Option(
            "--matrix",
            help="Every fault x every tool (the demo shop's, the loyalty pack's) and model tier.",
        ),
    ] = False,
    random_mode: Annotated[
        bool, typer.Option("--random", help="Seeded random faults over many conversations.")
    ] = False,
    crash: Annotated[
        bool,
        typer.Option(
            "--crash",
            help="Kill real `helpdesk chat` processes (kill -9) inside write turns; check what "
            "the customer is told afterwards against the shop's audit log.",
        ),
    ] = False,
    points: Annotated[
        int, typer.Option("--points", min=1, help="Crash mode: crash points to play.")
    ] = 200,
    workers: Annotated[
        int, typer.Option("--workers", min=1, max=32, help="Crash mode: conversations at a time.")
    ] = 4,
    turns: Annotated[int, typer.Option("--turns", min=1, help="Random mode: turns to play.")] = 500,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the fault schedule.")] = 7,
    out: Annotated[
        Path, typer.Option("--out", help="Directory for report.md/json/png and events.jsonl.")
    ] = Path("drill-report"),
    tool: Annotated[
        list[str] | None, typer.Option("--tool", help="Matrix: only these targets (repeat).")
    ] = None,
    fault: Annotated[
        list[str] | None, typer.Option("--fault", help="Matrix: only these faults (repeat).")
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", help="Matrix: cold, warm, verify_lost (repeat; default all)."),
    ] = None,
    expect_file: Annotated[
        Path | None,
        typer.Option(
            "--expect-file",
            help='JSON {"<cell id>": {"status": ..., "ladder": [...]}} replacing declared paths.',
        ),
    ] = None,
    chart: Annotated[bool, typer.Option("--chart/--no-chart", help="Draw report.png.")] = True,
    models: Annotated[
        str,
        typer.Option(
            "--models",
            help="Matrix model cells: 'settings' (HELPDESK_PRIMARY_MODEL/BACKUP_MODEL) or "
            "'scripted' (a deterministic offline English brain on both tiers, no API key).",
        ),
    ] = "settings",
) -> None:
    """Run a fault drill through the whole bot; exit 1 when any path or invariant is wrong."""
    if sum((matrix, random_mode, crash)) != 1:
        _err.print("[red]Error:[/red] choose exactly one of --matrix, --random or --crash")
        raise typer.Exit(2)
    if crash:
        raise typer.Exit(_crash_drill(points=points, seed=seed, out=out, workers=workers))
    if models not in ("settings", "scripted"):
        _err.print("[red]Error:[/red] --models is 'settings' or 'scripted'")
        raise typer.Exit(2)
    settings = _settings()
    cells = _cells(tool, fault, variant) if matrix else None
    overrides = json.loads(expect_file.read_text(encoding="utf-8")) if expect_file else None
    out.mkdir(parents=True, exist_ok=True)
    events = out / "events.jsonl"
    events.unlink(missing_ok=True)
    result = asyncio.run(
        _drill(
            settings,
            cells=cells,
            turns=turns,
            seed=seed,
            events=events,
            overrides=overrides,
            scripted=models == "scripted",
        )
    )
    raise typer.Exit(_finish(result, out, chart=chart))


def _crash_drill(*, points: int, seed: int, out: Path, workers: int) -> int:
    from helpdesk.app.drill_crash import run_crash_drill, write_crash_report

    with _progress() as bar:
        task = bar.add_task("crash", total=points, label="")

        def advance(label: str) -> None:
            bar.update(task, advance=1, label=escape(label))

        try:
            result = asyncio.run(
                run_crash_drill(
                    points=points, seed=seed, out=out, workers=workers, progress=advance
                )
            )
        except (ValueError, RuntimeError) as exc:
            _err.print(f"[red]Error:[/red] {escape(str(exc))}")
            return 2
    written = write_crash_report(result, out)
    verdict = "[green]PASS[/green]" if result.ok else "[red]FAIL[/red]"
    killed = sum(1 for o in result.outcomes if o.killed)
    _out.print(
        f"drill crash {verdict}: {result.points} crash points, {killed} kills, "
        f"{result.duplicates} duplicate executions, {result.violations} violations"
    )
    _out.print(f"report: {escape(str(written['markdown']))} (report.json beside it)")
    return 0 if result.ok else 1


def _cells(
    tools: list[str] | None, faults: list[str] | None, variants: list[str] | None
) -> list[Any]:
    from helpdesk.app.drill_matrix import MODEL_TARGETS, TOOL_PROBES, VARIANTS, matrix_cells
    from helpdesk.degrade.chaos import Fault

    known = [*TOOL_PROBES, *MODEL_TARGETS]
    targets = tools or known
    unknown = sorted(set(targets) - set(known))
    unknown += sorted(set(faults or ()) - {str(f) for f in Fault})
    unknown += sorted(set(variants or ()) - set(VARIANTS))
    if unknown:
        _err.print(
            f"[red]Error:[/red] unknown {', '.join(unknown)}; targets: {', '.join(known)}; "
            f"faults: {', '.join(str(f) for f in Fault)}; variants: {', '.join(VARIANTS)}"
        )
        raise typer.Exit(2)
    return matrix_cells(
        tools=[t for t in targets if t in TOOL_PROBES],
        faults=[Fault(f) for f in faults] if faults else None,
        variants=[v for v in VARIANTS if not variants or v in variants],
        models=[t for t in targets if t in MODEL_TARGETS],
    )


async def _drill(
    settings: Any,
    *,
    cells: list[Any] | None,
    turns: int,
    seed: int,
    events: Path,
    overrides: dict[str, Any] | None,
    scripted: bool = False,
) -> Any:
    from helpdesk.app.drill import run_matrix, run_random
    from helpdesk.app.observe import Observer
    from helpdesk.testing.drill_models import scripted_models

    models = scripted_models if scripted else None

    with (
        Observer(events_path=events) as observer,
        tempfile.TemporaryDirectory() as tmp,
        _progress() as bar,
    ):
        task = bar.add_task(
            "matrix" if cells is not None else "random",
            total=len(cells) if cells is not None else turns,
            label="",
        )

        def advance(label: str) -> None:
            bar.update(task, advance=1, label=escape(label))

        if cells is not None:
            return await run_matrix(
                settings,
                work_dir=Path(tmp),
                cells=cells,
                overrides=overrides,
                observer=observer,
                seed=seed,
                progress=advance,
                models=models,
            )
        return await run_random(
            settings,
            work_dir=Path(tmp),
            turns=turns,
            seed=seed,
            observer=observer,
            progress=advance,
        )


def _finish(report: Any, out: Path, *, chart: bool) -> int:
    from helpdesk.app.drill_output import write_report

    written = write_report(report, out, chart=chart)
    if written["chart_error"]:
        _err.print(f"[yellow]No chart:[/yellow] {escape(written['chart_error'])}")
    verdict = "[green]PASS[/green]" if report.ok else "[red]FAIL[/red]"
    stats = ", ".join(f"{k} {v}" for k, v in report.stats.items())
    _out.print(f"drill {report.mode} {verdict}: {escape(stats)}")
    for cell in report.mismatches:
        _out.print(
            f"  [red]mismatch[/red] {escape(cell.cell.id)}: {escape('; '.join(cell.mismatches))}"
        )
    for violation in report.violations[:20]:
        _out.print(
            f"  [red]{violation.name}[/red] {escape(violation.session)}: {escape(violation.detail)}"
        )
    _out.print(f"report: {written['markdown']} (json, png, events.jsonl beside it)")
    return 0 if report.ok else 1


def report(
    events: Annotated[Path, typer.Argument(help="A run's events file (JSONL).")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the Markdown report here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """The degrade report of a run: top reasons, counts per stage, success rates, impact."""
    from helpdesk.app.degrade_report import build_degrade_report, load_events, render_markdown

    if not events.is_file():
        _err.print(f"[red]Error:[/red] no such events file: {events}")
        raise typer.Exit(2)
    built = build_degrade_report(load_events(events))
    if as_json:
        print(json.dumps(built, ensure_ascii=False, indent=2))
        return
    text = render_markdown(built, source=events.name)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        _err.print(f"report written to {out}")
        return
    print(text, end="")


def register(app: typer.Typer) -> None:
    """Add ``drill`` and ``report`` to the ``helpdesk`` app."""
    app.command("drill")(drill)
    app.command("report")(report)
