"""The `helpdesk` command as a user runs it: subprocesses, real files, no network, no API key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.integration.servers import serve_in_thread
from tests.integration.shopworld import seeded_copy
from tests.integration.test_graph_tiers import assert_answered_by


def helpdesk(
    tmp: Path, *args: str, extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "HELPDESK_"))}
    env.update(extra_env or {})
    env["HELPDESK_DATA_DIR"] = str(tmp)
    env["HELPDESK_SHOP_DB_PATH"] = str(tmp / "shop.sqlite")
    return subprocess.run(
        [sys.executable, "-m", "helpdesk.app.entry", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def chat_json(tmp: Path, *args: str, extra_env: dict[str, str] | None = None) -> dict[str, Any]:
    proc = helpdesk(tmp, "chat", "--json", *args, extra_env=extra_env)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


def test_cli_session_continues_across_invocations(tmp_path: Path) -> None:
    seeded_copy(tmp_path)
    first = chat_json(tmp_path, "-m", "where is order 100683?", "--session", "cli-1")
    second = chat_json(tmp_path, "-m", "when will it arrive?", "--session", "cli-1")
    assert first["session"] == second["session"] == "cli-1"
    assert second["tasks"][0]["args"] == {"order_id": "100683"}
    assert "2026-10-31" in second["reply"]
    assert (tmp_path / "sessions.sqlite").exists()


def test_cli_json_output_schema(tmp_path: Path) -> None:
    seeded_copy(tmp_path)
    out = chat_json(tmp_path, "-m", "我的订单 100683 为什么还没发货？")
    assert set(out) >= {"reply", "session", "tier", "tasks", "tool_results", "degrade"}
    assert out["tier"] == "minimal"
    assert out["tasks"] == [
        {
            "id": "t1-0",
            "intent": "order_status",
            "tool": "get_order",
            "args": {"order_id": "100683"},
            "deferred": False,
            "asked_again": False,
        }
    ]
    result = out["tool_results"][0]
    assert set(result) >= {"status", "data", "error_class", "reason", "age_s", "attempts"}
    assert result["status"] == "ok" and result["data"]["order_id"] == "100683"
    assert set(out["degrade"]) >= {"events", "stale", "partial", "pending", "level"}


def test_cli_tools_lists_policies(tmp_path: Path) -> None:
    proc = helpdesk(tmp_path, "tools", "--json")
    assert proc.returncode == 0, proc.stderr
    listing = json.loads(proc.stdout)
    assert {c["pack"] for c in listing["capabilities"]} == {"shop"}  # the demo shop's only
    tools = {t["name"]: t for t in listing["tools"]}
    assert set(tools) == {
        "get_order",
        "list_orders",
        "track_shipment",
        "check_stock",
        "search_faq",
        "search_products",
        "get_ticket",
        "list_tickets",
        "list_refunds",
        "create_ticket",
        "cancel_order",
        "request_refund",
        "handoff_to_human",
    }
    assert tools["request_refund"]["kind"] == "money" and tools["request_refund"]["confirm"]
    assert "customer" not in tools["get_order"]["args"]


def test_cli_tools_lists_a_packs_capabilities(tmp_path: Path) -> None:
    proc = helpdesk(tmp_path, "tools", "--json", "--pack", "helpdesk.examples.loyalty:pack")
    assert proc.returncode == 0, proc.stderr
    listing = json.loads(proc.stdout)
    caps = {c["capability"]: c for c in listing["capabilities"] if c["pack"] == "loyalty"}
    assert set(caps) == {"points_balance", "redeem_voucher", "convert_points"}
    assert (caps["convert_points"]["kind"], caps["convert_points"]["pack"]) == ("money", "loyalty")
    tools = {t["name"]: t for t in listing["tools"]}
    assert tools["convert_points"]["confirm"] and tools["convert_points"]["precheck"]
    assert tools["convert_points"]["capability"] == "convert_points"
    assert tools["get_order"]["capability"] == "order_status"  # the shop is a pack too


def test_cli_chat_with_a_pack_answers_from_it(tmp_path: Path) -> None:
    proc = helpdesk(
        tmp_path, "chat", "-m", "我有多少积分", "--pack", "helpdesk.examples.loyalty:pack"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "您目前有 1250 积分，购物金余额 ¥0.00。"


def test_cli_bad_pack_is_a_clear_error(tmp_path: Path) -> None:
    proc = helpdesk(tmp_path, "chat", "-m", "hi", "--pack", "helpdesk.examples.loyalty:nope")
    assert proc.returncode == 2
    assert "has no 'nope'" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_broken_config_is_a_clear_error(tmp_path: Path) -> None:
    proc = helpdesk(tmp_path, "chat", "-m", "hi", extra_env={"HELPDESK_REQUEST_BUDGET_S": "-1"})
    assert proc.returncode == 2
    assert "request_budget_s" in proc.stderr and "must be > 0" in proc.stderr


def test_cli_help_explains_each_command(tmp_path: Path) -> None:
    proc = helpdesk(tmp_path, "--help")
    assert proc.returncode == 0
    for command in ("chat", "tools", "shop"):
        assert command in proc.stdout


def test_cli_chat_uses_the_configured_models(tmp_path: Path) -> None:
    """HELPDESK_PRIMARY_MODEL pointing at an OpenAI-compatible server on 127.0.0.1."""
    from helpdesk.testing.llm_server import Reply, ScriptedLLM, create_llm_app

    script = ScriptedLLM()
    script.add(
        "served-model",
        Reply.calls(
            ("DecomposeResult", {"tasks": [{"intent": "order_status", "order_id": "100683"}]})
        ),
        Reply.calls(("get_order", {"order_id": "100683"})),
        Reply.text("Order 100683 has shipped (YT9433239273)."),
    )
    seeded_copy(tmp_path)
    with serve_in_thread(create_llm_app(script)) as url:
        proc = helpdesk(
            tmp_path,
            "chat",
            "--json",
            "-m",
            "status of order 100683?",
            extra_env={
                "HELPDESK_PRIMARY_MODEL": "openai_compatible:served-model",
                "HELPDESK_PRIMARY_BASE_URL": f"{url}/v1",
            },
        )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert_answered_by(out, "primary")
    assert out["reply"] == "Order 100683 has shipped (YT9433239273)."
    assert len(script.requests) == 3  # decompose, select, generate: the reply quotes 100683


def test_cli_bad_model_spec_is_a_clear_error(tmp_path: Path) -> None:
    proc = helpdesk(
        tmp_path, "chat", "-m", "hi", extra_env={"HELPDESK_PRIMARY_MODEL": "gpt-4.1-mini"}
    )
    assert proc.returncode == 2
    assert "provider:model" in proc.stderr


def test_cli_talks_to_a_standalone_shop_by_url(tmp_path: Path) -> None:
    """`helpdesk shop serve` + HELPDESK_SHOP_URL: the tools reach the shop over real HTTP."""
    from helpdesk.tools.shop import create_app

    shop_db = seeded_copy(tmp_path)
    with serve_in_thread(create_app(shop_db)) as url:
        out = chat_json(
            tmp_path, "-m", "where is order 100683?", extra_env={"HELPDESK_SHOP_URL": url}
        )
    assert out["tool_results"][0]["status"] == "ok"
    assert "YT9433239273" in out["reply"]


def test_cli_shop_serve_help(tmp_path: Path) -> None:
    proc = helpdesk(tmp_path, "shop", "serve", "--help")
    assert proc.returncode == 0 and "--port" in proc.stdout
