"""Two `helpdesk serve` replicas sharing PostgreSQL (sessions, write journal) and Redis
(breakers, retry ratio, session owners and locks), with one demo shop on a real port.

A conversation alternates replicas; a breaker opened through A refuses through B; A is killed
with SIGKILL while a confirmed write is on the wire and the conversation goes on through B,
the write done once and reported truly.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpdesk.app.service.auth import TokenIssuer
from helpdesk.tools.shop import create_app as create_shop
from tests.integration.servers import serve_in_thread
from tests.integration.service_harness import SECRET, serve_process, sse_events

PG_URL = os.environ.get("HELPDESK_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("HELPDESK_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _reachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


pytestmark = [
    pytest.mark.skipif(not _reachable(5432), reason="no PostgreSQL on 127.0.0.1:5432"),
    pytest.mark.skipif(not _reachable(6379), reason="no Redis on 127.0.0.1:6379"),
]
pytest.importorskip("redis", reason="the replicas extra (redis) is not installed")
pytest.importorskip("langgraph.checkpoint.postgres", reason="the postgres extra is not installed")


class ControlledShop:
    """The demo shop on a real port that counts requests and can fail or slow some of them."""

    def __init__(self, db_path: Path) -> None:
        self.shop = create_shop(db_path)
        self.db_path = db_path
        self.hits: Counter[str] = Counter()
        self.fail_tracking = False
        self.rate_limit_inventory = False
        self.write_delay_s = 0.0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            method, path = scope["method"], str(scope["path"])
            self.hits[f"{method} {path}"] += 1
            if path.endswith("/tracking") and self.fail_tracking:
                body = b'{"error": {"code": "unavailable", "message": "down (test)"}}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 503,
                        "headers": [(b"content-type", b"application/json")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
            if path.startswith("/inventory") and self.rate_limit_inventory:
                body = b'{"error": {"code": "rate_limited", "message": "slow down (test)"}}'
                headers = [(b"content-type", b"application/json"), (b"retry-after", b"60")]
                await send({"type": "http.response.start", "status": 429, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
            if method == "POST" and path.endswith("/cancel") and self.write_delay_s:
                # the request has arrived whole; the shop executes it even if the caller dies
                body = b""
                while True:
                    message = await receive()
                    body += message.get("body", b"")
                    if not message.get("more_body"):
                        break
                await asyncio.sleep(self.write_delay_s)
                sent = False

                async def replay() -> dict[str, Any]:
                    nonlocal sent
                    if not sent:
                        sent = True
                        return {"type": "http.request", "body": body, "more_body": False}
                    return await receive()

                await self.shop(scope, replay, send)
                return
        await self.shop(scope, receive, send)

    def tracking_hits(self) -> int:
        return sum(n for k, n in self.hits.items() if k.endswith("/tracking"))

    def audit(self, customer: str = "C0001") -> list[tuple[str, str, int]]:
        import sqlite3

        with sqlite3.connect(self.db_path) as conn:
            rows = conn.execute(
                "SELECT action, target, status_code FROM audit_log WHERE customer_id = ?",
                (customer,),
            ).fetchall()
        return [(str(a), str(t), int(s)) for a, t, s in rows]


@contextmanager
def two_replicas(tmp_path: Path, **env: str) -> Iterator[tuple[ControlledShop, list[Any]]]:
    shop = ControlledShop(tmp_path / "shop.sqlite")
    prefix = f"helpdesk-test-{uuid.uuid4().hex[:8]}"
    with ExitStack() as stack:
        shop_url = stack.enter_context(serve_in_thread(shop))
        common = {
            "HELPDESK_CHECKPOINT_URL": PG_URL,
            "HELPDESK_REDIS_URL": REDIS_URL,
            "HELPDESK_REDIS_PREFIX": prefix,
            "HELPDESK_SHOP_URL": shop_url,
            "HELPDESK_SERVICE_RATE_BURST": "100",
            **env,
        }
        replicas = []
        for name in ("a", "b"):
            data = tmp_path / name
            data.mkdir()
            replicas.append(
                stack.enter_context(
                    serve_process(tmp_path, name, {**common, "HELPDESK_DATA_DIR": str(data)})
                )
            )
        yield shop, replicas


class Customer:
    def __init__(self, name: str = "C0001") -> None:
        self.headers = {"Authorization": f"Bearer {TokenIssuer(secret=SECRET).mint(name)}"}

    def client(self, base: str) -> httpx.Client:
        return httpx.Client(base_url=base, headers=self.headers, timeout=30, trust_env=False)

    def say(self, base: str, session: str, text: str, *, wait_s: float = 15.0) -> dict[str, Any]:
        """One message; retries while the session is still locked by another turn."""
        deadline = time.monotonic() + wait_s
        with self.client(base) as client:
            while True:
                r = client.post(f"/v1/sessions/{session}/messages", json={"text": text})
                if r.status_code != 409 or time.monotonic() > deadline:
                    assert r.status_code == 200, r.text
                    return dict(r.json())
                time.sleep(0.5)

    def confirm(self, base: str, session: str) -> dict[str, Any]:
        with self.client(base) as client:
            r = client.post(f"/v1/sessions/{session}/confirmation", json={"answer": "yes"})
        assert r.status_code == 200, r.text
        return dict(r.json())


def test_replicas_alternate_one_conversation(tmp_path: Path) -> None:
    me = Customer()
    with two_replicas(tmp_path) as (shop, [(a, _), (b, _)]):
        with me.client(a) as client:
            session = client.post("/v1/sessions").json()["session"]
        asked = me.say(b, session, "cancel order 100998")  # created on A, first turn on B
        assert asked["result"]["pending_confirmation"][0]["tool"] == "cancel_order"
        done = me.confirm(a, session)  # the yes on A acts on B's question
        assert done["result"]["tools"][0]["status"] == "ok"
        where = me.say(b, session, "where is order 100683?")
        with me.client(a) as client:
            history = client.get(f"/v1/sessions/{session}").json()
        with Customer("C0002").client(b) as other:
            assert other.get(f"/v1/sessions/{session}").status_code == 404
    texts = [(m["role"], m["text"]) for m in history["messages"]]
    assert [t for role, t in texts if role == "customer"] == [
        "cancel order 100998",
        "yes",
        "where is order 100683?",
    ]
    assert [t for role, t in texts if role == "bot"] == [
        asked["reply"],
        done["reply"],
        where["reply"],
    ]
    assert shop.audit() == [("cancel_order", "100998", 200)]


def test_replicas_share_an_open_breaker(tmp_path: Path) -> None:
    me = Customer()
    env = {
        "HELPDESK_BREAKER_FAILURE_COUNT": "3",
        "HELPDESK_BREAKER_MIN_CALLS": "3",
        "HELPDESK_BREAKER_OPEN_S": "120",
    }
    with two_replicas(tmp_path, **env) as (shop, [(a, _), (b, _)]):
        with me.client(a) as client:
            session = client.post("/v1/sessions").json()["session"]
        shop.fail_tracking = True
        statuses = [
            me.say(a, session, "where is order 100683?")["result"]["tools"][0]["status"]
            for _ in range(4)
        ]
        assert "ok" not in statuses
        with me.client(a) as client:
            assert (
                'helpdesk_breaker_state{breaker="track_shipment"} 2.0'
                in client.get("/metrics").text
            )
        shop.fail_tracking = False  # the shop is fine again, but A's breaker is open
        time.sleep(1.0)  # B's mirror refreshes every 0.25 s
        hits = shop.tracking_hits()
        through_b = me.say(b, session, "where is order 100683?")
    assert shop.tracking_hits() == hits  # B never called the shop
    assert through_b["result"]["tools"][0]["status"] != "ok"
    assert through_b["result"]["degrade"]["level"] > 0


def test_replicas_share_the_rate_limited_serial_mode(tmp_path: Path) -> None:
    me = Customer()
    ask = "where is order 100683, and is SKU-1001 in stock?"
    with two_replicas(tmp_path) as (shop, [(a, _), (b, _)]):
        with me.client(a) as client:
            session = client.post("/v1/sessions").json()["session"]
        shop.rate_limit_inventory = True
        first = [me.say(a, session, ask)["turn"] for _ in range(2)]
        shop.rate_limit_inventory = False
        on_b = me.say(b, session, ask)["turn"]

    def actions(turn: dict[str, Any]) -> list[str]:
        return [e["action"] for e in turn["degrade"]["events"]]

    assert all(len(t["tool_results"]) == 2 for t in [*first, on_b])
    assert all("serialize" not in actions(t) for t in first)
    assert "serialize" in actions(on_b)  # B knew the session's two rate-limited batches


def test_replica_killed_mid_write_conversation_continues_on_the_other(tmp_path: Path) -> None:
    me = Customer()
    with two_replicas(tmp_path) as (shop, [(a, proc_a), (b, _)]):
        with me.client(a) as client:
            session = client.post("/v1/sessions").json()["session"]
        me.say(a, session, "取消订单100998")
        shop.write_delay_s = 2.0
        with me.client(a) as client:
            stream = client.stream(
                "POST", f"/v1/sessions/{session}/confirmation/stream", json={"answer": "yes"}
            )
            with pytest.raises(httpx.HTTPError), stream as response:
                for name, data in sse_events(response):
                    if name == "progress" and data["key"] == "sending_write":
                        deadline = time.monotonic() + 5
                        while not shop.hits["POST /orders/100998/cancel"]:
                            assert time.monotonic() < deadline, shop.hits
                            time.sleep(0.02)
                        os.kill(proc_a.pid, signal.SIGKILL)  # the write is at the shop
        proc_a.wait(timeout=10)
        time.sleep(2.5)  # the shop finishes the write A sent
        shop.write_delay_s = 0.0
        after = me.say(b, session, "订单100998取消了吗？")
        again = me.confirm(b, session)
    assert shop.audit() == [("cancel_order", "100998", 200)]
    assert "100998" in after["reply"] and "已取消" in after["reply"]  # reconciled, told truly
    assert again["result"]["tools"] == [] or all(
        t["tool"] != "cancel_order" or t["status"] != "ok" for t in again["result"]["tools"]
    )
