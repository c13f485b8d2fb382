"""The crash drill's world: the standalone shop process, its ledger (the truth, read from its
SQLite file past the bot) and the ``helpdesk chat --json`` processes that get killed. See
:mod:`helpdesk.app.drill_crash`."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import httpx

from helpdesk.app.drill_crash_plan import CrashScenario
from helpdesk.degrade.failpoints import ENV_VAR

__all__ = ["TURN_TIMEOUT_S", "ChatRun", "ShopLedger", "ShopProcess", "chat"]

TURN_TIMEOUT_S: Final = 180.0


class ShopProcess:
    """``helpdesk shop serve`` on a free port, with its own SQLite file."""

    def __init__(self, db_path: Path, work_dir: Path, python: str) -> None:
        self.db_path = db_path
        self.work_dir = work_dir
        self.python = python
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> ShopProcess:
        env = clean_env(
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
    args = ["-m", "helpdesk.app.entry", "chat", "--json", "--session", scenario.session]
    args += ["--customer", scenario.customer]
    for text in messages:
        args += ["-m", text]
    extra = {"HELPDESK_DATA_DIR": str(data_dir), "HELPDESK_SHOP_URL": shop_url}
    if failpoint:
        extra[ENV_VAR] = failpoint
    proc = await asyncio.create_subprocess_exec(
        python,
        *args,
        env=clean_env(**extra),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), TURN_TIMEOUT_S)
    except TimeoutError:
        proc.kill()
        out, err = await proc.communicate()
        return ChatRun(payloads=json_stream(out.decode()), returncode=-999, stderr="timed out")
    code = proc.returncode if proc.returncode is not None else -999
    return ChatRun(payloads=json_stream(out.decode()), returncode=code, stderr=err.decode())


def json_stream(text: str) -> list[dict[str, Any]]:
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


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HELPDESK_", "OPENAI"))}
    env["PYTHONUNBUFFERED"] = "1"  # every turn's JSON is out before a kill
    env.update(extra)
    return env
