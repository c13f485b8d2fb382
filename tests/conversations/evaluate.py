"""Run the labelled conversation set through the real bot and report how well it understood.

The bot is the embedded default: the offline ``minimal`` tier talking to the in-process demo
shop (a fresh seeded copy), built like ``tests/integration/test_trust.py`` builds it. Single
messages run on one bot, each in its own session; every conversation gets a fresh bot and shop,
so the writes it confirms cannot change what another item sees. Each turn is judged by
:mod:`tests.conversations.judge` from its payload and the shop's audit log.

As a script (``python -m tests.conversations.evaluate``, from the repository root) it prints the
report: accuracy overall, per intent, per language, tuned vs held-out, multi-request coverage,
the writes produced, and (``--failures``) every turn that was not understood.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.tools.journal import MemoryWriteJournal
from helpdesk.tools.shop import ensure_seeded
from tests.conversations.judge import Observation, Verdict, judge
from tests.conversations.labels import LabelledSet, Turn, held_out, load_set

__all__ = [
    "FRESH_PREFIXES",
    "SEALED_BATCHES",
    "SEALED_DIR",
    "Evaluation",
    "Rate",
    "evaluate",
    "main",
    "run_evaluation",
    "sealed_report",
]

FRESH_PREFIXES = (
    "fx-",
    "fy-",
    "fw-",
    "fu-",
    "fr-",
    "fp-",
    "fo-",
    "fm-",
    "fk-",
    "fh-",
    "fe-",
    "fd-",
    "fc-",
    "fb-",
)
"""Ids of the fresh batches (``messages.*-fresh.yaml``, ``-fresh2`` ... ``-fresh15``, and
``conversations.fresh10.yaml`` ... ``conversations.fresh15.yaml``)."""
SEALED_DIR = Path(__file__).parent / "sealed"
"""The sealed batch: never tuned on; its figures are reported, its failures never listed."""


@dataclass(frozen=True)
class Rate:
    """``hits`` of ``total``."""

    hits: int
    total: int

    @property
    def value(self) -> float:
        return self.hits / self.total if self.total else 1.0

    def __str__(self) -> str:
        return f"{100 * self.value:5.1f}% ({self.hits}/{self.total})"


@dataclass
class Evaluation:
    """Every judged turn of a run, and the figures the report shows."""

    singles: list[Verdict]
    conversations: dict[str, list[Verdict]]
    seconds: float = 0.0
    writes: list[str] = field(default_factory=list)
    """Every write the shop executed during the run (audit-log actions, ``id: action``)."""

    @property
    def turns(self) -> list[Verdict]:
        return [*self.singles, *(v for vs in self.conversations.values() for v in vs)]

    @staticmethod
    def is_held_out(verdict: Verdict) -> bool:
        return held_out(verdict.turn.id.split("#")[0])

    def understood(self, verdicts: Iterable[Verdict] | None = None) -> Rate:
        chosen = list(self.turns if verdicts is None else verdicts)
        return Rate(sum(v.understood for v in chosen), len(chosen))

    def accepted(self, verdicts: Iterable[Verdict] | None = None) -> Rate:
        chosen = list(self.turns if verdicts is None else verdicts)
        return Rate(sum(v.accepted for v in chosen), len(chosen))

    def reply_ok(self, verdicts: Iterable[Verdict] | None = None) -> Rate:
        chosen = list(self.turns if verdicts is None else verdicts)
        return Rate(sum(v.reply_ok for v in chosen), len(chosen))

    def by_intent(self) -> dict[str, list[Verdict]]:
        """Turns grouped by each intent they ask for (a two-request turn is in two groups)."""
        groups: dict[str, list[Verdict]] = {}
        for verdict in self.turns:
            for name in dict.fromkeys(alts[0].intent for alts in verdict.turn.tasks):
                groups.setdefault(name, []).append(verdict)
        return dict(sorted(groups.items()))

    def by_language(self) -> dict[str, list[Verdict]]:
        groups: dict[str, list[Verdict]] = {}
        for verdict in self.turns:
            groups.setdefault(verdict.turn.lang, []).append(verdict)
        return dict(sorted(groups.items()))

    def by_tag(self) -> dict[str, list[Verdict]]:
        """Turns grouped by each kind they are tagged with (typo, mixed, multi, ...)."""
        groups: dict[str, list[Verdict]] = {}
        for verdict in self.turns:
            for tag in verdict.turn.tags:
                groups.setdefault(tag, []).append(verdict)
        return dict(sorted(groups.items()))

    def split(self) -> tuple[list[Verdict], list[Verdict]]:
        """(tuned, held out)."""
        tuned = [v for v in self.turns if not self.is_held_out(v)]
        return tuned, [v for v in self.turns if self.is_held_out(v)]

    def fresh(self) -> list[Verdict]:
        """The fresh batches: messages written without seeing the matcher (``fx-``, ``fy-``
        ids), tuned on since; each one's first run before any change is in its files' header."""
        return [v for v in self.turns if v.turn.id.startswith(FRESH_PREFIXES)]

    def multi_coverage(self) -> tuple[Rate, Rate]:
        """For turns with several requests: (requests served, turns with every request served)."""
        multi = self.multi_turns()
        asked = sum(len(v.turn.tasks) for v in multi)
        served = asked - sum(len(v.missing) for v in multi)
        return Rate(served, asked), Rate(sum(not v.missing for v in multi), len(multi))

    def multi_turns(self) -> list[Verdict]:
        return [v for v in self.turns if len(v.turn.tasks) > 1]

    def answered_or_deferred(self, verdicts: Iterable[Verdict] | None = None) -> Rate:
        """Multi-request turns (of ``verdicts``, default all) whose every request was served or
        explicitly deferred."""
        chosen = self.turns if verdicts is None else list(verdicts)
        multi = [v for v in chosen if len(v.turn.tasks) > 1]
        return Rate(sum(v.answered_or_deferred for v in multi), len(multi))

    def unsafe(self) -> list[Verdict]:
        """Questions and negations that produced a write or a write/money task."""
        return [v for v in self.turns if v.unsafe]

    def conversations_understood(self) -> Rate:
        whole = [all(v.understood for v in vs) for vs in self.conversations.values()]
        return Rate(sum(whole), len(whole))

    def report(self, *, failures: bool = False) -> str:
        return "\n".join(_report_lines(self, failures=failures))


# --- running ------------------------------------------------------------------------------


def _bot(tmp: Path) -> Bot:
    """A bot on its own copy of the seeded shop in ``tmp`` (seeded once, in ``tmp``'s parent;
    not tests.integration.shopworld's process-wide copy, which must outlive this run)."""
    base = tmp.parent / "seeded-shop.sqlite"
    if not base.exists():
        ensure_seeded(base)
    tmp.mkdir(parents=True, exist_ok=True)
    shutil.copy(base, tmp / "shop.sqlite")
    settings = Settings(data_dir=tmp, shop_db_path=tmp / "shop.sqlite")
    return build_bot(
        settings, checkpointer=InMemorySaver(serde=state_serializer()), journal=MemoryWriteJournal()
    )


def _write_tools(bot: Bot) -> frozenset[str]:
    registry = bot.executor.registry
    return frozenset(
        name
        for name in registry.names()
        if (spec := registry.get(name)) and spec.policy.kind != "read"
    )


class _Audit:
    """New audit-log entries (executed writes) since the last look, per customer (a fresh shop
    has none, so looking after each turn is enough)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seen: dict[str, int] = {}

    async def new_actions(self, customer: str) -> list[str]:
        response = await self.bot.client.http.get(
            "/audit", params={"limit": 1000}, headers={"X-Customer-Id": customer}
        )
        response.raise_for_status()
        entries = [e for e in response.json()["entries"] if e["id"] > self.seen.get(customer, 0)]
        if entries:
            self.seen[customer] = max(int(e["id"]) for e in entries)
        return [str(e["action"]) for e in entries]


async def _judge_turn(
    bot: Bot, audit: _Audit, turn: Turn, session: str, write_tools: frozenset[str]
) -> Verdict:
    payload: dict[str, Any] = await run_turn(
        bot, turn.text, session=session, customer=turn.customer
    )
    writes = await audit.new_actions(turn.customer)
    return judge(turn, Observation.of(payload, writes, write_tools))


async def _run_session(
    turns: Iterable[Turn], tmp: Path, writes: list[str], *, session: str | None
) -> list[Verdict]:
    """The turns on one fresh bot: all in ``session``, or (None) each in a session of its own.

    Single messages share a bot until one executes a write: the next gets a fresh shop, so
    that no item's reply depends on which items ran before it (a ticket filed by one would be
    listed in another's late-delivery answer)."""
    shops = 0
    bot = _bot(tmp / f"shop-{shops}")
    try:
        audit, tools = _Audit(bot), _write_tools(bot)
        verdicts = []
        for turn in turns:
            verdict = await _judge_turn(bot, audit, turn, session or f"m-{turn.id}", tools)
            writes.extend(f"{turn.id}: {w}" for w in verdict.observed_writes)
            verdicts.append(verdict)
            if session is None and verdict.observed_writes:
                await bot.aclose()
                shops += 1
                bot = _bot(tmp / f"shop-{shops}")
                audit = _Audit(bot)
        return verdicts
    finally:
        await bot.aclose()


async def evaluate(labelled: LabelledSet, tmp: Path) -> Evaluation:
    """Run every message and conversation of ``labelled``; ``tmp`` holds the shops' copies."""
    started = time.perf_counter()
    writes: list[str] = []
    singles = await _run_session(labelled.messages, tmp / "singles", writes, session=None)
    conversations = {}
    for n, conv in enumerate(labelled.conversations):
        conversations[conv.id] = await _run_session(
            conv.turns, tmp / f"conv-{n}", writes, session=f"c-{n}"
        )
    return Evaluation(singles, conversations, time.perf_counter() - started, writes)


def run_evaluation(labelled: LabelledSet | None = None) -> Evaluation:
    """:func:`evaluate` on the whole set (or ``labelled``) in a temporary directory."""
    with tempfile.TemporaryDirectory(prefix="helpdesk-set-") as tmp:
        return asyncio.run(evaluate(labelled or load_set(), Path(tmp)))


# --- the report ---------------------------------------------------------------------------


def _report_lines(ev: Evaluation, *, failures: bool) -> list[str]:
    tuned, held = ev.split()
    served, whole = ev.multi_coverage()
    lines = [
        f"labelled set: {len(ev.singles)} messages, {len(ev.conversations)} conversations "
        f"({len(ev.turns) - len(ev.singles)} turns); {ev.seconds:.1f} s",
        "",
        "                     understood          reply facts         accepted",
        _row("all turns", ev, ev.turns),
        _row("single messages", ev, ev.singles),
        _row("conversation turns", ev, [v for vs in ev.conversations.values() for v in vs]),
        _row("tuned", ev, tuned),
        _row("held out", ev, held),
        _row("fresh batches", ev, ev.fresh()),
        "",
        "per language:",
        *(_row(f"  {lang}", ev, vs) for lang, vs in ev.by_language().items()),
        "",
        "per intent:",
        *(_row(f"  {name}", ev, vs) for name, vs in ev.by_intent().items()),
        "",
        "per kind of message:",
        *(_row(f"  {tag}", ev, vs) for tag, vs in ev.by_tag().items()),
        "",
        f"conversations with every turn understood: {ev.conversations_understood()}",
        f"multi-request turns: requests served {served}; every request served {whole}; "
        f"every request served or explicitly deferred {ev.answered_or_deferred()}",
        # counts only: which held-out turns missed is never shown
        f"  served or deferred: tuned {ev.answered_or_deferred(tuned)}; "
        f"held out {ev.answered_or_deferred(held)}",
        f"writes executed: {len(ev.writes)}; unexpected: "
        f"{sum(len(v.unexpected_writes) for v in ev.turns)}",
        f"questions/negations producing a write or write/money task: {len(ev.unsafe())}",
    ]
    # a held-out item is counted, never shown: its text must not steer the tuning
    for verdict in ev.unsafe():
        lines.append(f"  UNSAFE {_shown(ev, verdict)} -> {verdict.unsafe}")
    lines.append("writes nobody asked for (executed, not in the turn's labels):")
    for verdict in ev.turns:
        if verdict.unexpected_writes:
            lines.append(f"  {_shown(ev, verdict)} -> {verdict.unexpected_writes}")
    if failures:
        hidden = sum(1 for v in ev.turns if ev.is_held_out(v) and not v.accepted)
        lines += [
            "",
            f"(failures of the held-out part are not listed: {hidden} turns; tuning must not see"
            " them)",
            "",
            "not understood:",
        ]
        for verdict in (v for v in ev.turns if not ev.is_held_out(v)):
            if not verdict.understood:
                lines.append(
                    f"  {verdict.turn.id}: {verdict.turn.text!r} missing={verdict.missing} "
                    f"extra={verdict.extra} planned={verdict.planned}"
                )
        lines += ["", "understood, but the reply misses facts / language:"]
        for verdict in (v for v in ev.turns if not ev.is_held_out(v)):
            if verdict.understood and not verdict.reply_ok:
                lines.append(
                    f"  {verdict.turn.id}: {verdict.turn.text!r} missing={verdict.missing_facts} "
                    f"present={verdict.present_absent} lang_ok={verdict.lang_ok}"
                )
    return lines


def _shown(ev: Evaluation, verdict: Verdict) -> str:
    """An item as a report line shows it: a held-out item by its id only."""
    if ev.is_held_out(verdict):
        return f"{verdict.turn.id} (held out: text not shown)"
    return f"{verdict.turn.id}: {verdict.turn.text!r}"


def _row(label: str, ev: Evaluation, verdicts: list[Verdict]) -> str:
    return (
        f"{label:<20} {ev.understood(verdicts)!s:<19} {ev.reply_ok(verdicts)!s:<19} "
        f"{ev.accepted(verdicts)!s}"
    )


SEALED_BATCHES = {
    "first (fz-)": "fz-",
    "second (fv-)": "fv-",
    "third (ft-)": "ft-",
    "fourth (fs-)": "fs-",
    "fifth (fq-)": "fq-",
    "sixth (fn-)": "fn-",
    "seventh (fl-)": "fl-",
    "eighth (fj-)": "fj-",
    "ninth (fi-)": "fi-",
    "tenth (fg-)": "fg-",
}
"""The sealed batches by id prefix: reported apart, since each was first run at another time."""


def sealed_report(ev: Evaluation) -> list[str]:
    """The sealed batches' figures, and nothing of their items (not even which ones failed)."""
    per_batch = [
        f"  {name}: understood {ev.understood(batch)}; every request served or deferred "
        f"{ev.answered_or_deferred(batch)}"
        for name, prefix in SEALED_BATCHES.items()
        if (batch := [v for v in ev.turns if v.turn.id.startswith(prefix)])
    ]
    return [
        "sealed batches (never tuned on; their failures are never listed):",
        *per_batch,
        f"  all: understood {ev.understood()}; accepted {ev.accepted()}",
        f"  multi-request turns: every request served or explicitly deferred "
        f"{ev.answered_or_deferred()}",
        f"  questions/negations producing a write or write/money task: {len(ev.unsafe())}",
        f"  writes nobody asked for: {sum(len(v.unexpected_writes) for v in ev.turns)}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--failures", action="store_true", help="list the failing turns (the tuned part only)"
    )
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    args = parser.parse_args(argv)
    ev = run_evaluation()
    sealed = run_evaluation(load_set(SEALED_DIR))
    if args.json:
        print(json.dumps({**figures(ev), "sealed": figures(sealed)}, ensure_ascii=False, indent=2))
    else:
        print(ev.report(failures=args.failures))
        print("")
        print("\n".join(sealed_report(sealed)))
    return 0


def figures(ev: Evaluation) -> dict[str, Any]:
    """The report's numbers as plain data."""
    tuned, held = ev.split()
    served, whole = ev.multi_coverage()
    return {
        "understood": ev.understood().value,
        "accepted": ev.accepted().value,
        "reply_ok": ev.reply_ok().value,
        "tuned": ev.understood(tuned).value,
        "held_out": ev.understood(held).value,
        "per_language": {k: ev.understood(v).value for k, v in ev.by_language().items()},
        "per_intent": {k: ev.understood(v).value for k, v in ev.by_intent().items()},
        "multi_requests_served": served.value,
        "multi_turns_complete": whole.value,
        "multi_turns_answered_or_deferred": ev.answered_or_deferred().value,
        "multi_turns_answered_or_deferred_tuned": ev.answered_or_deferred(tuned).value,
        "multi_turns_answered_or_deferred_held_out": ev.answered_or_deferred(held).value,
        "fresh_batch": ev.understood(ev.fresh()).value,
        "fresh_batch_answered_or_deferred": ev.answered_or_deferred(ev.fresh()).value,
        "writes": len(ev.writes),
        "unsafe": [v.turn.id for v in ev.unsafe()],
        "seconds": ev.seconds,
    }


if __name__ == "__main__":
    sys.exit(main())
