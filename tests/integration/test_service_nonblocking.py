"""`langgraph dev` runs the graph under blockbuster: no node may block the event loop.

The tokenizer and the prompt templates are loaded when the graph is built, and the embedded
shop's SQLite calls run in Starlette's thread pool, so a whole turn runs with every blocking call
that blockbuster knows about forbidden.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from langchain_core.messages import HumanMessage

from helpdesk.app.settings import Settings
from helpdesk.app.wiring import build_bot

ROOT = Path(__file__).resolve().parents[2]


def test_graph_turn_runs_with_blocking_calls_forbidden(tmp_path: Path) -> None:
    blockbuster = pytest.importorskip("blockbuster", reason="blockbuster is not installed")
    bot = build_bot(Settings(data_dir=tmp_path))

    async def turn(text: str) -> dict[str, object]:
        with blockbuster.blockbuster_ctx(excluded_modules=[]):
            state: dict[str, object] = await bot.graph.ainvoke(
                {"messages": [HumanMessage(content=text)], "customer": "C0001", "session": "s1"}
            )
        await bot.aclose()
        return state

    state = asyncio.run(turn("我的订单 100683 为什么还没发货？"))
    results = state["results"]
    assert isinstance(results, list)
    assert [(r.tool, str(r.status)) for r in results] == [("get_order", "ok")]
    assert "100683" in str(state["messages"][-1].content)  # type: ignore[index]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_langgraph_dev_run_answers_without_blocking_error(tmp_path: Path) -> None:
    cli = Path(sys.executable).parent / "langgraph"
    if not cli.exists() and shutil.which("langgraph") is None:
        pytest.skip("langgraph-cli[inmem] is not installed (pip install 'langgraph-cli[inmem]')")
    pytest.importorskip("langgraph_api", reason="langgraph-cli is installed without [inmem]")
    port = _free_port()
    env = {**os.environ, "HELPDESK_DATA_DIR": str(tmp_path), "LANGSMITH_TRACING": "false"}
    log = (tmp_path / "langgraph-dev.log").open("w")
    proc = subprocess.Popen(
        [
            str(cli if cli.exists() else "langgraph"),
            "dev",
            "--no-browser",
            "--no-reload",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=60.0, trust_env=False) as client:
            deadline = time.monotonic() + 90
            while True:
                assert proc.poll() is None, (tmp_path / "langgraph-dev.log").read_text()[-2000:]
                try:
                    if client.get("/ok", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, "langgraph dev did not start in 90 s"
                time.sleep(0.5)
            message = {"role": "user", "content": "where is order 100683?"}
            run_input = {"messages": [message], "customer": "C0001", "session": "x1"}
            body = {"assistant_id": "helpdesk", "input": run_input}
            response = client.post("/runs/wait", json=body)
        assert response.status_code == 200, response.text
        state = response.json()
        assert "BlockingError" not in json.dumps(state)
        assert [(r["tool"], r["status"]) for r in state["results"]] == [("track_shipment", "ok")]
        assert "100683" in state["messages"][-1]["content"]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
