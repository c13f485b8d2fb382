"""One turn at a time per session: two `helpdesk chat` processes on one session, one shop.

The shop runs standalone (`helpdesk shop serve` on a free port) so both processes write to the
same shop and its audit log says how many times each write executed. Each process sends 4 turns
(a cancel and its "yes", a refund and its "yes") on the same session at the same time; the
session lock must run the 8 turns one after the other: all 8 in the stored history, each
process's in its own order, every turn's reply right after its message, and no write executed
more than once or without a reply saying so.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langchain_core.messages import AIMessage, HumanMessage

from helpdesk.graph.checkpoint import open_checkpointer
from tests.integration.shopworld import seeded_copy
from tests.pg import isolated_pg_url, needs_postgres

FIRST = ["cancel order 100998", "yes", "refund order 100200", "yes"]
SECOND = ["取消订单100904", "确认", "订单100609退款", "确认"]
WRITES = {"cancel_order", "create_refund"}


def _env(tmp: Path, shop_url: str, extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "HELPDESK_"))}
    env.update(
        HELPDESK_DATA_DIR=str(tmp),
        HELPDESK_SHOP_DB_PATH=str(tmp / "shop.sqlite"),
        HELPDESK_SHOP_URL=shop_url,
        **extra,
    )
    return env


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def shop(tmp_path: Path) -> Iterator[str]:
    """`helpdesk shop serve` on a free port, on a fresh seeded copy; yields its base URL."""
    seeded_copy(tmp_path)
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "helpdesk.app.entry", "shop", "serve", "--port", str(port)],
        env=_env(tmp_path, "", {}),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:  # wait for the server process to listen
            try:
                httpx.get(f"{url}/audit", headers={"X-Customer-Id": "C0001"}, timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the shop did not start") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _chat_processes(
    tmp: Path, shop_url: str, session: str, extra: dict[str, str]
) -> list[list[dict[str, Any]]]:
    procs = []
    for turns in (FIRST, SECOND):
        args = [a for text in turns for a in ("-m", text)]
        chat = [sys.executable, "-m", "helpdesk.app.entry", "chat", "--json", "--session", session]
        procs.append(
            subprocess.Popen(
                [*chat, *args],
                env=_env(tmp, shop_url, extra),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    outputs = []
    for proc in procs:
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
        decoder = json.JSONDecoder()
        payloads, rest = [], out.strip()
        while rest:
            payload, end = decoder.raw_decode(rest)
            payloads.append(payload)
            rest = rest[end:].strip()
        outputs.append(payloads)
    return outputs


async def _history(tmp: Path, session: str, url: str | None) -> list[Any]:
    async with open_checkpointer(url=url, path=tmp / "sessions.sqlite") as saver:
        stored = await saver.aget_tuple({"configurable": {"thread_id": session}})
    assert stored is not None
    return list(stored.checkpoint["channel_values"]["messages"])


def _executed_writes(shop_url: str) -> list[dict[str, Any]]:
    response = httpx.get(
        f"{shop_url}/audit", headers={"X-Customer-Id": "C0001"}, params={"limit": 1000}
    )
    response.raise_for_status()
    return [
        e
        for e in response.json()["entries"]
        if e["action"] in WRITES and 200 <= e["status_code"] < 300
    ]


def _is_subsequence(needle: list[str], haystack: list[str]) -> bool:
    it = iter(haystack)
    return all(any(item == h for h in it) for item in needle)


async def _check_two_processes(tmp: Path, shop_url: str, url: str | None) -> None:
    session = f"two-{uuid.uuid4().hex[:8]}"
    extra = {"HELPDESK_CHECKPOINT_URL": url} if url else {}
    first, second = _chat_processes(tmp, shop_url, session, extra)
    assert [len(first), len(second)] == [4, 4]
    assert not any(p.get("busy") for p in first + second)

    messages = await _history(tmp, session, url)
    humans = [m.content for m in messages if isinstance(m, HumanMessage)]
    assert sorted(humans) == sorted(FIRST + SECOND)  # no turn lost, none stored twice
    assert _is_subsequence(FIRST, humans) and _is_subsequence(SECOND, humans)
    # never interleaved: every message is answered before the next one is read
    kinds = [type(m) for m in messages if isinstance(m, HumanMessage | AIMessage)]
    assert kinds == [HumanMessage, AIMessage] * 8

    executed = _executed_writes(shop_url)
    keys = [e["key"] for e in executed]
    assert len(keys) == len(set(keys))  # no write executed twice
    claimed = [
        r
        for p in first + second
        for r in p["tool_results"]
        if r["status"] == "ok" and r.get("idempotency_key")
    ]
    assert sorted(r["idempotency_key"] for r in claimed) == sorted(keys)
    # every "yes" answered a question asked just before it was acted on, exactly once
    asks = {
        p["reply"]: any(r["status"] == "needs_confirmation" for r in p["tool_results"])
        for p in first + second
    }
    texts = [m.content for m in messages if isinstance(m, HumanMessage | AIMessage)]
    yes_after_question = sum(
        1 for i in range(1, len(texts) - 1, 2) if asks[texts[i]] and texts[i + 1] in ("yes", "确认")
    )
    assert len(executed) == yes_after_question >= 1


def test_two_processes_on_one_sqlite_session_take_turns(tmp_path: Path, shop: str) -> None:
    import asyncio

    asyncio.run(_check_two_processes(tmp_path, shop, None))


@needs_postgres
def test_two_processes_on_one_postgres_session_take_turns(tmp_path: Path, shop: str) -> None:
    import asyncio

    with isolated_pg_url() as url:
        asyncio.run(_check_two_processes(tmp_path, shop, url))


async def test_run_turn_answers_busy_when_the_session_stays_locked(tmp_path: Path) -> None:
    from helpdesk.app.session import run_turn
    from helpdesk.app.settings import Settings
    from helpdesk.app.wiring import build_bot
    from helpdesk.degrade.clock import FakeClock
    from helpdesk.graph.session_lock import FileSessionLock

    settings = Settings(data_dir=tmp_path, shop_db_path=seeded_copy(tmp_path))
    lock = FileSessionLock(tmp_path / "locks", wait_s=5, clock=FakeClock())
    async with open_checkpointer(url=None, path=settings.sessions_file) as saver:
        bot = build_bot(settings, checkpointer=saver, session_lock=lock)
        async with lock.hold("busy-1"):
            zh = await run_turn(bot, "订单100683到哪了", session="busy-1", customer="C0001")
            en = await run_turn(bot, "where is order 100683?", session="busy-1", customer="C0001")
        after = await run_turn(bot, "where is order 100683?", session="busy-1", customer="C0001")
        state = await saver.aget_tuple({"configurable": {"thread_id": "busy-1"}})
        await bot.aclose()
    assert zh["busy"] is True and zh["reply"].startswith("我还在处理您的上一条消息")
    assert en["busy"] is True and en["reply"].startswith("I'm still working on your previous")
    assert en["tasks"] == [] and en["tool_results"] == []
    assert "busy" not in after and "YT9433239273" in after["reply"]
    assert state is not None
    humans = [m.content for m in state.checkpoint["channel_values"]["messages"]]
    assert humans[0] == "where is order 100683?" and len(humans) == 2  # busy turns never ran
