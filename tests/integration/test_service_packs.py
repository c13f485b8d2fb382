"""`helpdesk serve` serves capability packs: the loyalty pack (examples/loyalty) through the
service's HTTP API, offline — its read answered, its money capability asked about first and run
once on the customer's yes (counted in the pack's own audit log) — and `--pack` from the command
line, with a clear error for a pack that cannot be loaded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

from helpdesk.app.service.auth import TokenIssuer
from helpdesk.examples.loyalty import LoyaltyBackend, loyalty_pack
from tests.integration.service_harness import SECRET, live_service, serve_process


def test_service_serves_the_loyalty_pack_in_both_languages(tmp_path: Path) -> None:
    backend = LoyaltyBackend()
    with live_service(tmp_path, packs=[loyalty_pack(backend)]) as live, live.client() as client:
        session = live.new_session()

        def say(text: str) -> dict:
            response = client.post(
                f"/v1/sessions/{session}/messages", json={"text": text}, headers=live.headers()
            )
            assert response.status_code == 200, response.text
            return response.json()

        balance = say("how many points do I have?")
        assert balance["reply"] == "You have 1250 points and ¥0.00 of store credit."
        assert [t["tool"] for t in balance["result"]["tools"]] == ["points_balance"]
        asked = say("把500积分换成购物金")
        assert [p["tool"] for p in asked["result"]["pending_confirmation"]] == ["convert_points"]
        assert asked["result"]["pending_confirmation"][0]["kind"] == "money"
        assert backend.executions("convert") == 0  # asked, not run
        done = client.post(
            f"/v1/sessions/{session}/confirmation", json={"answer": "yes"}, headers=live.headers()
        ).json()
        assert done["result"]["tools"][0]["status"] == "ok"
        again = client.post(
            f"/v1/sessions/{session}/confirmation", json={"answer": "yes"}, headers=live.headers()
        ).json()
    assert backend.executions("convert") == 1
    assert again["result"]["pending_confirmation"] == []
    assert backend.members["C0001"].points == 750


def test_serve_loads_a_pack_named_on_the_command_line(tmp_path: Path) -> None:
    spec = "helpdesk.examples.loyalty:pack"
    env = {"HELPDESK_DATA_DIR": str(tmp_path)}
    with serve_process(tmp_path, "loyalty", env, args=["--pack", spec]) as (base, _):
        headers = {"Authorization": f"Bearer {TokenIssuer(secret=SECRET).mint('C0001')}"}
        with httpx.Client(base_url=base, trust_env=False, timeout=30.0) as client:
            session = client.post("/v1/sessions", headers=headers).json()["session"]
            out = client.post(
                f"/v1/sessions/{session}/messages", json={"text": "我有多少积分"}, headers=headers
            ).json()
    assert out["reply"] == "您目前有 1250 积分，购物金余额 ¥0.00。"


def test_serve_refuses_a_pack_it_cannot_load(tmp_path: Path) -> None:
    helpdesk = Path(sys.executable).parent / "helpdesk"
    done = subprocess.run(
        [str(helpdesk), "serve", "--pack", "helpdesk.examples.loyalty:nothing_here"],
        env={
            **os.environ,
            "HELPDESK_DATA_DIR": str(tmp_path),
            "HELPDESK_TOKEN_SECRET": "x" * 48,
            "HELPDESK_CHECKPOINT_KEY": "00" * 32,
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "Cannot load pack" in done.stderr
    assert "has no 'nothing_here'" in done.stderr
    assert "Traceback" not in done.stderr
