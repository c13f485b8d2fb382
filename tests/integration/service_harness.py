"""Helpers for the service tests: a live `helpdesk serve` app on 127.0.0.1 and an SSE reader."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from helpdesk.app.service.api import create_app
from helpdesk.app.service.auth import TokenIssuer
from helpdesk.app.settings import Settings
from helpdesk.degrade.chaos import ChaosPlan
from tests.integration.servers import serve_in_thread

SECRET = "test-secret-" + "s" * 40
CHECKPOINT_KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"


@dataclass
class LiveService:
    base: str
    app: Any
    settings: Settings
    issuer: TokenIssuer

    def token(self, customer: str = "C0001") -> str:
        return self.issuer.mint(customer)

    def headers(self, customer: str = "C0001") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(customer)}"}

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=30.0, trust_env=False, **kwargs)

    def new_session(self, customer: str = "C0001") -> str:
        with self.client() as client:
            response = client.post("/v1/sessions", headers=self.headers(customer))
        assert response.status_code == 201, response.text
        return str(response.json()["session"])

    @property
    def service(self) -> Any:
        return self.app.state.service

    def audit(self, customer: str = "C0001") -> list[dict[str, Any]]:
        """The embedded shop's audit log of ``customer`` (what really executed)."""
        with sqlite3.connect(self.settings.shop_file) as conn:
            conn.row_factory = sqlite3.Row
            rows = conn.execute(
                "SELECT action, target, status_code FROM audit_log WHERE customer_id = ?",
                (customer,),
            ).fetchall()
        return [dict(r) for r in rows]


@contextmanager
def live_service(
    tmp_path: Path,
    *,
    chaos: ChaosPlan | None = None,
    tracer_provider: Any = None,
    packs: Sequence[Any] = (),
    **overrides: Any,
) -> Iterator[LiveService]:
    settings = Settings(
        data_dir=tmp_path, token_secret=SECRET, checkpoint_key=CHECKPOINT_KEY, **overrides
    )
    app = create_app(settings, chaos=chaos, tracer_provider=tracer_provider, packs=packs)
    with serve_in_thread(app) as base:
        yield LiveService(base, app, settings, TokenIssuer(secret=SECRET))


def sse_events(response: httpx.Response) -> Iterator[tuple[str, dict[str, Any]]]:
    """Parse a text/event-stream response event by event."""
    event, data = "message", []
    for line in response.iter_lines():
        if line == "":
            if data:
                yield event, json.loads("\n".join(data))
            event, data = "message", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class SlowShop:
    """The demo shop as a real HTTP server whose matching requests wait ``delay_s`` first."""

    def __init__(self, db_path: Path, *, delay_s: float, path_prefix: str = "/orders") -> None:
        import asyncio

        from helpdesk.tools.shop import create_app as create_shop

        self.delay_s = delay_s
        shop = create_shop(db_path)
        self.db_path = db_path

        async def app(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http" and str(scope.get("path", "")).startswith(path_prefix):
                await asyncio.sleep(self.delay_s)
            await shop(scope, receive, send)

        self.app = app


@contextmanager
def serve_process(
    tmp_path: Path,
    name: str,
    env: dict[str, str],
    *,
    port: int | None = None,
    args: Sequence[str] = (),
) -> Iterator[tuple[str, Any]]:
    """`helpdesk serve` as a subprocess; yields (base URL, Popen); stops it on exit."""
    import os
    import subprocess
    import sys
    import time

    port = port or free_port()
    helpdesk = Path(sys.executable).parent / "helpdesk"
    full_env = {
        **os.environ,
        "HELPDESK_TOKEN_SECRET": SECRET,
        "HELPDESK_CHECKPOINT_KEY": CHECKPOINT_KEY,
        **env,
    }
    log = (tmp_path / f"{name}.log").open("w")
    proc = subprocess.Popen(
        [str(helpdesk), "serve", "--port", str(port), *args],
        env=full_env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        with httpx.Client(base_url=base, trust_env=False, timeout=2.0) as client:
            while True:
                if proc.poll() is not None:
                    raise AssertionError((tmp_path / f"{name}.log").read_text()[-3000:])
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise AssertionError(f"{name} did not start in 60 s")
                time.sleep(0.2)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
