"""``helpdesk drill --crash``: kill real ``helpdesk chat`` processes in the middle of write turns
and check what the customer is told afterwards against the shop's audit log.

The shop runs as its own process (``helpdesk shop serve`` on a free 127.0.0.1 port, with its own
SQLite file), so it survives the bot's death, as a real backend would. For each crash point the
drill picks, with a seeded RNG, a customer and one of their orders, an action (cancel the order,
or refund an amount of it), a language and a failpoint (:mod:`helpdesk.degrade.failpoints`);
then it plays the conversation with ``helpdesk chat --json`` subprocesses, each with a fresh
data dir of its own and ``HELPDESK_SHOP_URL`` pointing at the shop:

1. ask for the action and say yes — with ``HELPDESK_FAILPOINT`` set, so the process kills itself
   (SIGKILL) before the write is sent, after the shop executed it, before the reply is
   published, or as a turn starts;
2. ask what happened, then ask for the action again (a new process, as after any crash);
3. say yes if the bot asked for a confirmation that is not the explicit "you already got this —
   another one?" question.

After every turn it compares what the reply says (done / not done / unknown, in the minimal
tier's own template words, and every refund or ticket id it names) with the shop's truth at
that moment, and at the end it counts the executions of the logical action. A violation is any
duplicate execution (more than one), or a reply that says the action was done when the shop has
no execution of it, or that it was not done when it was. ``report.md`` and ``report.json`` list
each crash point and its outcome.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import socket
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal

import httpx

from helpdesk.app.drill_checks import claimed_writes
from helpdesk.degrade.failpoints import ENV_VAR, POINTS, FailpointSpec
from helpdesk.graph.prompting import load_templates
from helpdesk.tools.shop import ensure_seeded

__all__ = [
    "CrashOutcome",
    "CrashReport",
    "CrashScenario",
    "plan_scenarios",
    "run_crash_drill",
    "write_crash_report",
]

Kind = Literal["cancel", "refund"]
Lang = Literal["en", "zh"]

TOOL_OF: Final[dict[Kind, str]] = {"cancel": "cancel_order", "refund": "request_refund"}
REQUEST: Final[dict[tuple[Kind, Lang], str]] = {
    ("cancel", "en"): "cancel order {order_id}",
    ("cancel", "zh"): "取消订单{order_id}",
    ("refund", "en"): "I want a refund of {amount} yuan for order {order_id}",
    ("refund", "zh"): "订单{order_id}退款{amount}元",
}
YES: Final[dict[Lang, str]] = {"en": "yes", "zh": "确认"}
WHAT_HAPPENED: Final[dict[Lang, str]] = {
    "en": "what happened with my request?",
    "zh": "我刚才的请求怎么样了？",
}

_DONE_KEYS = ("reconciled_executed",)
_NOT_DONE_KEYS = (
    "reconciled_not_executed",
    "reconciled_refused",
    "confirmation_expired",
    "dropped_cancel",
    "dropped_refund",
    "dropped_action",
    "confirm_cancelled",
    "turn_failed",
)
"""Templates that tell the customer the action was not done (nothing changed)."""
_UNKNOWN_KEYS = ("reconciled_unknown", "write_unknown_ticket")
_AGAIN_KEYS = ("refund_confirm_again",)
_REFUND_ID = re.compile(r"(?<![0-9A-Za-z-])R-\d{6}(?!\d)")
_FIELD = re.compile(r"\{[^{}]*\}")
_SPACE = re.compile(r"\s+")
TURN_TIMEOUT_S: Final = 180.0


@dataclass(frozen=True, kw_only=True, slots=True)
class CrashScenario:
    """One crash point: who asks for what, in which language, and where the process dies."""

    index: int
    kind: Kind
    lang: Lang
    customer: str
    order_id: str
    amount: int | None
    """Refunds: whole yuan asked for; None for a cancellation."""
    failpoint: str
    """``name@N`` armed in the first process (request + yes)."""

    @property
    def session(self) -> str:
        return f"crash-{self.index:04d}"

    @property
    def tool(self) -> str:
        return TOOL_OF[self.kind]

    def request(self) -> str:
        return REQUEST[(self.kind, self.lang)].format(order_id=self.order_id, amount=self.amount)


@dataclass(kw_only=True)
class Statement:
    """What one reply said about the action, next to the shop's truth at that moment."""

    turn: str
    message: str
    reply: str
    said: str
    """done / not_done / unknown / asks / asks_again / none / no reply (killed)."""
    executions: int


@dataclass(kw_only=True)
class CrashOutcome:
    """What happened at one crash point."""

    scenario: CrashScenario
    killed: bool = False
    """The first process died at its failpoint (False: the point was not reached)."""
    statements: list[Statement] = field(default_factory=list)
    executions: int = 0
    """Executions of the action in the shop at the end."""
    violations: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations


@dataclass(kw_only=True)
class CrashReport:
    seed: int
    points: int
    workers: int
    duration_s: float = 0.0
    outcomes: list[CrashOutcome] = field(default_factory=list)

    @property
    def violations(self) -> int:
        return sum(len(o.violations) for o in self.outcomes)

    @property
    def duplicates(self) -> int:
        return sum(1 for o in self.outcomes if o.executions > 1)

    @property
    def ok(self) -> bool:
        return self.violations == 0

    def as_json(self) -> dict[str, Any]:
        return {
            "mode": "crash",
            "seed": self.seed,
            "points": self.points,
            "workers": self.workers,
            "duration_s": round(self.duration_s, 1),
            "ok": self.ok,
            "violations": self.violations,
            "duplicate_executions": self.duplicates,
            "killed": sum(1 for o in self.outcomes if o.killed),
            "outcomes": [_outcome_json(o) for o in self.outcomes],
        }


def _outcome_json(o: CrashOutcome) -> dict[str, Any]:
    return {
        **asdict(o.scenario),
        "session": o.scenario.session,
        "killed": o.killed,
        "executions": o.executions,
        "ok": o.ok,
        "violations": o.violations,
        "statements": [asdict(s) for s in o.statements],
    }


# ---------------------------------------------------------------------------------- planning


def plan_scenarios(shop_db: Path, *, points: int, seed: int) -> list[CrashScenario]:
    """``points`` crash points on distinct orders of the seeded shop, chosen with ``seed``."""
    rng = random.Random(seed)
    with sqlite3.connect(f"file:{shop_db}?mode=ro", uri=True) as conn:
        cancellable = conn.execute(
            "SELECT order_id, customer_id FROM orders WHERE status IN ('pending', 'paid')"
            " ORDER BY order_id"
        ).fetchall()
        refundable = conn.execute(
            "SELECT order_id, customer_id, total_cents FROM orders o WHERE status = 'delivered'"
            " AND total_cents >= 5000 AND NOT EXISTS"
            " (SELECT 1 FROM refunds r WHERE r.order_id = o.order_id) ORDER BY order_id"
        ).fetchall()
    rng.shuffle(cancellable)
    rng.shuffle(refundable)
    if points > len(cancellable) + len(refundable):
        raise ValueError(
            f"at most {len(cancellable) + len(refundable)} crash points on the seeded shop"
        )
    scenarios: list[CrashScenario] = []
    for index in range(points):
        kind: Kind = rng.choice(("cancel", "refund"))
        if kind == "cancel" and not cancellable:
            kind = "refund"
        if kind == "refund" and not refundable:
            kind = "cancel"
        lang: Lang = rng.choice(("en", "zh"))
        point = rng.choice(POINTS)
        # turn.start / reply.before_publish: the asking turn (1) or the confirming turn (2)
        hit = rng.choice((1, 2)) if point in ("turn.start", "reply.before_publish") else 1
        spec = FailpointSpec(name=point, hit=hit)
        if kind == "cancel":
            order_id, customer = cancellable.pop()
            amount = None
        else:
            order_id, customer, total_cents = refundable.pop()
            amount = rng.randint(1, min(total_cents // 100, 500))
        scenarios.append(
            CrashScenario(
                index=index,
                kind=kind,
                lang=lang,
                customer=str(customer),
                order_id=str(order_id),
                amount=amount,
                failpoint=str(spec),
            )
        )
    return scenarios


# ---------------------------------------------------------------------------------- judging


@cache
def _template_pattern(key: str, lang: str) -> re.Pattern[str] | None:
    template = load_templates("minimal", "generate", lang).get(key)
    if not template:
        return None
    pieces = [re.escape(_SPACE.sub("", p)) for p in _FIELD.split(template)]
    return re.compile(".*?".join(p for p in pieces if p), re.S)


def says(reply: str, keys: Sequence[str]) -> bool:
    """Whether ``reply`` contains one of the minimal tier's templates ``keys`` (zh or en): every
    literal piece, in order."""
    text = _SPACE.sub("", reply)
    for key in keys:
        for lang in ("en", "zh"):
            pattern = _template_pattern(key, lang)
            if pattern is not None and pattern.search(text):
                return True
    return False


def classify_reply(reply: str, tool: str) -> str:
    """What a reply says about the action: done, not_done, unknown, asks_again, or none."""
    if says(reply, _UNKNOWN_KEYS):
        return "unknown"
    if says(reply, _NOT_DONE_KEYS):
        return "not_done"
    if says(reply, _DONE_KEYS) or tool in claimed_writes(reply):
        return "done"
    if says(reply, _AGAIN_KEYS):
        return "asks_again"
    return "none"


def judge(statement: Statement, scenario: CrashScenario, refund_ids: set[str]) -> list[str]:
    """Violations in one statement: a claim the shop's truth contradicts."""
    out: list[str] = []
    where = f"{statement.turn} ({statement.message!r})"
    if statement.said == "done" and statement.executions == 0:
        out.append(f"{where}: says {scenario.tool} was done; the shop has no execution")
    if statement.said == "not_done" and statement.executions > 0:
        out.append(f"{where}: says {scenario.tool} was not done; the shop executed it")
    for refund_id in sorted(set(_REFUND_ID.findall(statement.reply)) - refund_ids):
        out.append(f"{where}: names refund {refund_id}, which the shop does not have")
    return out


# ---------------------------------------------------------------------------------- the shop


class ShopProcess:
    """``helpdesk shop serve`` on a free port, with its own SQLite file."""

    def __init__(self, db_path: Path, work_dir: Path, python: str) -> None:
        self.db_path = db_path
        self.work_dir = work_dir
        self.python = python
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> ShopProcess:
        env = _clean_env(
            HELPDESK_DATA_DIR=str(self.work_dir), HELPDESK_SHOP_DB_PATH=str(self.db_path)
        )
        log = (self.work_dir / "shop.log").open("wb")
        self.proc = await asyncio.create_subprocess_exec(
            self.python,
            "-m",
            "helpdesk.app.cli",
            "shop",
            "serve",
            "--port",
            str(self.port),
            env=env,
            stdout=log,
            stderr=log,
        )
        log.close()
        deadline = time.monotonic() + 60
        async with httpx.AsyncClient() as client:
            while True:
                if self.proc.returncode is not None:
                    raise RuntimeError(f"the shop exited ({self.proc.returncode}); see shop.log")
                try:
                    await client.get(f"{self.url}/customers/me", timeout=2)
                    return self
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise RuntimeError("the shop did not start within 60 s") from None
                    await asyncio.sleep(0.2)

    async def __aexit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()


class ShopLedger:
    """The shop's truth, read from its SQLite file (read-only, past the bot entirely)."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=30) as conn:
            return list(conn.execute(sql, params))

    def executions(self, scenario: CrashScenario) -> int:
        if scenario.kind == "cancel":
            rows = self._query(
                "SELECT count(*) FROM audit_log WHERE action = 'cancel_order' AND target = ?"
                " AND status_code BETWEEN 200 AND 299",
                (scenario.order_id,),
            )
        else:
            rows = self._query(
                "SELECT count(*) FROM refunds WHERE order_id = ?", (scenario.order_id,)
            )
        return int(rows[0][0])

    def refund_ids(self, customer: str) -> set[str]:
        rows = self._query("SELECT refund_id FROM refunds WHERE customer_id = ?", (customer,))
        return {str(r[0]) for r in rows}


# ---------------------------------------------------------------------------------- chatting


@dataclass(kw_only=True)
class ChatRun:
    """One ``helpdesk chat --json`` process: the turns it answered before it ended."""

    payloads: list[dict[str, Any]]
    returncode: int
    stderr: str

    @property
    def killed_at_failpoint(self) -> bool:
        return self.returncode == -9 and "failpoint " in self.stderr


async def chat(
    python: str,
    messages: Sequence[str],
    *,
    scenario: CrashScenario,
    data_dir: Path,
    shop_url: str,
    failpoint: str | None = None,
) -> ChatRun:
    args = ["-m", "helpdesk.app.cli", "chat", "--json", "--session", scenario.session]
    args += ["--customer", scenario.customer]
    for text in messages:
        args += ["-m", text]
    extra = {"HELPDESK_DATA_DIR": str(data_dir), "HELPDESK_SHOP_URL": shop_url}
    if failpoint:
        extra[ENV_VAR] = failpoint
    proc = await asyncio.create_subprocess_exec(
        python,
        *args,
        env=_clean_env(**extra),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), TURN_TIMEOUT_S)
    except TimeoutError:
        proc.kill()
        out, err = await proc.communicate()
        return ChatRun(payloads=_json_stream(out.decode()), returncode=-999, stderr="timed out")
    code = proc.returncode if proc.returncode is not None else -999
    return ChatRun(payloads=_json_stream(out.decode()), returncode=code, stderr=err.decode())


def _json_stream(text: str) -> list[dict[str, Any]]:
    decoder = json.JSONDecoder()
    out: list[dict[str, Any]] = []
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position >= len(text):
            return out
        try:
            value, position = decoder.raw_decode(text, position)
        except json.JSONDecodeError:
            return out  # a partial document: the process died while printing it
        if isinstance(value, dict):
            out.append(value)


async def play(
    scenario: CrashScenario,
    *,
    python: str,
    shop: ShopProcess,
    ledger: ShopLedger,
    work_dir: Path,
) -> CrashOutcome:
    """Play one crash point's conversation and judge every reply against the ledger."""
    outcome = CrashOutcome(scenario=scenario)
    data_dir = work_dir / scenario.session
    data_dir.mkdir(parents=True, exist_ok=True)
    request, yes = scenario.request(), YES[scenario.lang]

    def record(label: str, messages: Sequence[str], run: ChatRun) -> None:
        executions = ledger.executions(scenario)
        for i, text in enumerate(messages):
            if i < len(run.payloads):
                reply = str(run.payloads[i].get("reply", ""))
                said = classify_reply(reply, scenario.tool)
                if said == "none" and _asks_confirmation(run.payloads[i]):
                    said = "asks"
            else:
                reply, said = "", "no reply (killed)" if run.returncode == -9 else "no reply"
            outcome.statements.append(
                Statement(
                    turn=f"{label}.{i + 1}",
                    message=text,
                    reply=reply,
                    said=said,
                    executions=executions,
                )
            )
        if run.returncode not in (0, -9):
            tail = run.stderr.strip().splitlines()[-1:] or [""]
            outcome.violations.append(f"{label}: chat exited {run.returncode}: {tail[0][:200]}")

    first = await chat(
        python,
        [request, yes],
        scenario=scenario,
        data_dir=data_dir,
        shop_url=shop.url,
        failpoint=scenario.failpoint,
    )
    outcome.killed = first.killed_at_failpoint
    record("crash", [request, yes], first)

    after = await chat(
        python, [WHAT_HAPPENED[scenario.lang], request], scenario=scenario, data_dir=data_dir,
        shop_url=shop.url,
    )  # fmt: skip
    record("after", [WHAT_HAPPENED[scenario.lang], request], after)
    again = after.payloads[1] if len(after.payloads) > 1 else None
    if again is not None and _asks_confirmation(again) and not says(
        str(again.get("reply", "")), _AGAIN_KEYS
    ):
        final = await chat(
            python, [yes], scenario=scenario, data_dir=data_dir, shop_url=shop.url
        )
        record("confirm", [yes], final)

    outcome.executions = ledger.executions(scenario)
    refund_ids = ledger.refund_ids(scenario.customer)
    for statement in outcome.statements:
        outcome.violations.extend(judge(statement, scenario, refund_ids))
    if outcome.executions > 1:
        outcome.violations.append(
            f"{scenario.tool} on {scenario.order_id} executed {outcome.executions} times"
        )
    return outcome


def _asks_confirmation(payload: dict[str, Any]) -> bool:
    return any(r.get("status") == "needs_confirmation" for r in payload.get("tool_results", []))


# ---------------------------------------------------------------------------------- the run


async def run_crash_drill(
    *,
    points: int,
    seed: int,
    out: Path,
    workers: int = 4,
    python: str = sys.executable,
    progress: Callable[[str], None] | None = None,
) -> CrashReport:
    """Run ``points`` crash points (``workers`` conversations at a time) and judge them.

    Args:
        points: crash points to play (one conversation each, on its own order).
        seed: seed of the plan (orders, actions, languages, failpoints).
        out: working directory (the shop's database, one data dir per conversation, logs).
        workers: conversations played concurrently.
        python: the interpreter that runs ``helpdesk`` subprocesses.
        progress: called with a label after each crash point.
    """
    if points < 1 or workers < 1:
        raise ValueError("points and workers must be >= 1")
    started = time.perf_counter()
    shop_db = _fresh_shop(out)
    scenarios = plan_scenarios(shop_db, points=points, seed=seed)
    report = CrashReport(seed=seed, points=points, workers=workers)
    ledger = ShopLedger(shop_db)
    conversations = out / "conversations"
    gate = asyncio.Semaphore(workers)
    async with ShopProcess(shop_db, out, python) as shop:

        async def one(scenario: CrashScenario) -> CrashOutcome:
            async with gate:
                outcome = await play(
                    scenario, python=python, shop=shop, ledger=ledger, work_dir=conversations
                )
            with (out / "outcomes.jsonl").open("a", encoding="utf-8") as log:
                log.write(json.dumps(_outcome_json(outcome), ensure_ascii=False) + "\n")
            if progress is not None:
                progress(f"{scenario.session} {scenario.failpoint}")
            return outcome

        report.outcomes = list(await asyncio.gather(*(one(s) for s in scenarios)))
    report.duration_s = time.perf_counter() - started
    return report


def write_crash_report(report: CrashReport, out: Path) -> dict[str, Path]:
    """``report.json`` and ``report.md`` in ``out`` (``outcomes.jsonl`` grows during the run)."""
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out / "report.json", out / "report.md"
    json_path.write_text(
        json.dumps(report.as_json(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    md_path.write_text(_markdown(report), encoding="utf-8")
    return {"json": json_path, "markdown": md_path}


def _markdown(report: CrashReport) -> str:
    killed = sum(1 for o in report.outcomes if o.killed)
    lines = [
        f"# Crash drill — {'PASS' if report.ok else 'FAIL'}",
        "",
        f"seed {report.seed}, {report.points} crash points ({killed} processes killed at their "
        f"failpoint), {report.workers} at a time, {report.duration_s:.0f} s.",
        "",
        f"- duplicate executions: {report.duplicates}",
        f"- violations: {report.violations}",
        "",
        "| # | action | lang | failpoint | killed | executions | what the bot said after "
        "| outcome |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for o in report.outcomes:
        s = o.scenario
        action = (
            f"cancel {s.order_id}" if s.kind == "cancel" else f"refund ¥{s.amount} {s.order_id}"
        )
        said = ", ".join(st.said for st in o.statements)
        verdict = "ok" if o.ok else "VIOLATION: " + "; ".join(o.violations)
        lines.append(
            f"| {s.index} | {action} ({s.customer}) | {s.lang} | `{s.failpoint}` | "
            f"{'yes' if o.killed else 'no'} | {o.executions} | {said} | "
            f"{verdict.replace('|', '/')} |"
        )
    return "\n".join(lines) + "\n"


def _fresh_shop(out: Path) -> Path:
    """A newly seeded shop database in ``out`` (any earlier run's is removed)."""
    out.mkdir(parents=True, exist_ok=True)
    shop_db = out / "shop.sqlite"
    for stale in [*out.glob("shop.sqlite*"), out / "outcomes.jsonl"]:
        stale.unlink(missing_ok=True)
    ensure_seeded(shop_db)
    return shop_db


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HELPDESK_", "OPENAI"))}
    env["PYTHONUNBUFFERED"] = "1"  # every turn's JSON is out before a kill
    env.update(extra)
    return env
