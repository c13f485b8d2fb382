"""Bad input anywhere (messages, session ids, customer ids, settings): a clean reply or a clean
error, never a traceback."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.session import (
    CustomerIdError,
    SessionIdError,
    clean_text,
    run_turn,
)
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.graph.checkpoint import state_serializer
from tests.integration.shopworld import seeded_copy


@pytest.fixture
def bot(tmp_path: Path) -> Bot:
    settings = Settings(data_dir=tmp_path, shop_db_path=seeded_copy(tmp_path))
    return build_bot(settings, checkpointer=InMemorySaver(serde=state_serializer()))


def _audit(tmp_path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(tmp_path / "shop.sqlite") as conn:
        return list(conn.execute("SELECT action, target, status_code FROM audit_log"))


def _cli(tmp: Path, *args: str | bytes, env: dict[str, str] | None = None) -> Any:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "HELPDESK_"))}
    clean.update({"HELPDESK_DATA_DIR": str(tmp), "HELPDESK_SHOP_DB_PATH": str(tmp / "shop.sqlite")})
    clean.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "helpdesk.app.entry", *args],
        capture_output=True,
        env=clean,
        timeout=120,
        check=False,
    )


async def test_handoff_message_with_a_lone_surrogate_files_one_ticket(
    bot: Bot, tmp_path: Path
) -> None:
    out = await run_turn(bot, "转人工 \udcff", session="h", customer="C0001")
    assert [r["status"] for r in out["tool_results"]] == ["ok"]
    assert [row[0] for row in _audit(tmp_path)] == ["create_ticket"]


async def test_complaint_with_a_lone_surrogate_gets_a_clean_reply(bot: Bot) -> None:
    out = await run_turn(
        bot, "I want to complain \udcff: order 100683 arrived broken", session="p", customer="C0001"
    )
    assert out["reply"] and "\udcff" not in out["reply"]


async def test_write_message_with_a_lone_surrogate_runs_once(bot: Bot, tmp_path: Path) -> None:
    ask = await run_turn(bot, "cancel order 100998 \udcff", session="u", customer="C0001")
    assert ask["tool_results"][0]["status"] == "needs_confirmation"
    done = await run_turn(bot, "yes", session="u", customer="C0001")
    assert done["tool_results"][0]["status"] == "ok"
    assert _audit(tmp_path) == [("cancel_order", "100998", 200)]
    assert "\ufffd" in ask["reply"] or "100998" in ask["reply"]


async def test_control_characters_and_markup_in_a_message_get_a_clean_reply(bot: Bot) -> None:
    out = await run_turn(
        bot, "[/b][red]where is\x00 order\x1b[31m 100683?\x07", session="m", customer="C0001"
    )
    assert "YT9433239273" in out["reply"]
    assert not any(ch in out["reply"] for ch in "\x00\x1b\x07")


def test_clean_text_replaces_lone_surrogates_and_drops_controls() -> None:
    assert clean_text("a\udcffb") == "a\ufffdb"
    assert clean_text("\ud83d\ude00 ok") == "\U0001f600 ok"  # a valid pair is kept
    assert clean_text("a\x00b\x1bc\r\nd\te") == "abc\nd\te"


@pytest.mark.parametrize(
    "session", ["", "a" * 129, "[/b]", "a b", "会话", "x\udcff", "x" * 100_000]
)
async def test_bad_session_id_is_refused_naming_the_limit(bot: Bot, session: str) -> None:
    started = time.perf_counter()
    with pytest.raises(SessionIdError, match=r"1-128 characters of A-Z a-z 0-9 \. _ : -"):
        await run_turn(bot, "hi", session=session, customer="C0001")
    assert time.perf_counter() - started < 1.0


async def test_longest_allowed_session_id_works(bot: Bot) -> None:
    out = await run_turn(bot, "hi", session="Az0._:-" + "x" * 121, customer="C0001")
    assert out["session"].endswith("x")


@pytest.mark.parametrize("customer", ["C0001 ", "客户", "C\udcff", "a" * 129])
async def test_bad_customer_id_is_refused(bot: Bot, customer: str) -> None:
    if customer == "C0001 ":
        out = await run_turn(bot, "hi", session="c", customer=customer)  # stripped, fine
        assert out["session"] == "c"
        return
    with pytest.raises(CustomerIdError, match="printable ASCII"):
        await run_turn(bot, "hi", session="c", customer=customer)


def test_cli_invalid_utf8_in_a_handoff_files_one_ticket(tmp_path: Path) -> None:
    seeded_copy(tmp_path)
    proc = _cli(tmp_path, "chat", "-m", "转人工 ".encode() + b"\xff\xfe", "--session", "b2")
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"Traceback" not in proc.stderr
    assert [row[0] for row in _audit(tmp_path)] == ["create_ticket"]


def test_cli_invalid_utf8_in_a_write_message_runs_once(tmp_path: Path) -> None:
    seeded_copy(tmp_path)
    ask = _cli(tmp_path, "chat", "-m", b"cancel order 100998 \xff\xfe", "--session", "b1")
    assert ask.returncode == 0, ask.stderr.decode()
    done = _cli(tmp_path, "chat", "-m", "yes", "--session", "b1")
    assert done.returncode == 0, done.stderr.decode()
    assert b"Traceback" not in ask.stderr + done.stderr
    assert _audit(tmp_path) == [("cancel_order", "100998", 200)]


def test_cli_markup_in_a_session_id_is_a_clean_error(tmp_path: Path) -> None:
    proc = _cli(tmp_path, "chat", "-m", "hi", "--session", "[/b]")
    assert proc.returncode == 2
    assert b"invalid session id (4 characters)" in proc.stderr
    assert b"Traceback" not in proc.stderr


def test_cli_100kb_session_id_fails_fast(tmp_path: Path) -> None:
    started = time.perf_counter()
    proc = _cli(tmp_path, "chat", "-m", "hi", "--session", "x" * 100_000)
    assert proc.returncode == 2
    assert b"invalid session id (100000 characters)" in proc.stderr
    assert b"Traceback" not in proc.stderr
    assert time.perf_counter() - started < 30


def test_cli_markup_in_a_message_is_printed_verbatim(tmp_path: Path) -> None:
    seeded_copy(tmp_path)
    proc = _cli(tmp_path, "chat", "-m", "[bold]hi[/b] [/]", "--session", "mk")
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"Traceback" not in proc.stderr and b"MarkupError" not in proc.stderr


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("HELPDESK_REQUEST_BUDGET_S", "nan", "must be > 0 and <= 600 seconds"),
        ("HELPDESK_REQUEST_BUDGET_S", "inf", "must be > 0 and <= 600 seconds"),
        ("HELPDESK_REQUEST_BUDGET_S", "0", "must be > 0 and <= 600 seconds"),
        ("HELPDESK_REQUEST_BUDGET_S", "-1", "must be > 0 and <= 600 seconds"),
        ("HELPDESK_CONTEXT_WINDOW", "0", "must be >= 256 and <= 10000000 tokens"),
        ("HELPDESK_CHECKPOINT_URL", "mysql://x", "must be a postgresql://"),
        ("HELPDESK_DATA_DIR", "/proc/nope", "must be a writable directory"),
        ("HELPDESK_CUSTOMER", "", "must be 1-128 printable ASCII"),
    ],
)
def test_cli_bad_setting_stops_start_up_naming_the_variable(
    tmp_path: Path, variable: str, value: str, expected: str
) -> None:
    proc = _cli(tmp_path, "chat", "-m", "hi", env={variable: value})
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert variable in err and expected in err
    assert "Traceback" not in err


def test_cli_unreachable_postgres_stops_start_up_naming_the_variable(tmp_path: Path) -> None:
    proc = _cli(
        tmp_path,
        "chat",
        "-m",
        "hi",
        env={"HELPDESK_CHECKPOINT_URL": "postgresql://u:secret@127.0.0.1:1/x"},
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "HELPDESK_CHECKPOINT_URL" in err and "postgresql://127.0.0.1:1/x" in err
    assert "secret" not in err and "Traceback" not in err


def test_the_studio_graph_names_a_bad_setting_without_a_traceback(tmp_path: Path) -> None:
    """langgraph.json imports app/studio.py: a bad HELPDESK_* value stops it with the CLI's
    message, not a pydantic traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HELPDESK_")}
    env.update(HELPDESK_DATA_DIR=str(tmp_path), HELPDESK_REQUEST_BUDGET_S="nan")
    proc = subprocess.run(
        [sys.executable, "-c", "import helpdesk.app.studio"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode != 0
    assert "HELPDESK_REQUEST_BUDGET_S" in proc.stderr
    assert "Traceback" not in proc.stderr
