"""`helpdesk sessions list | show | delete | purge` as a user runs them (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from helpdesk.app.sessions_cli import parse_age
from tests.integration.shopworld import seeded_copy
from tests.integration.test_cli import helpdesk
from tests.pg import PG_URL, needs_postgres

BACKENDS = [
    pytest.param({}, id="sqlite"),
    pytest.param({"HELPDESK_CHECKPOINT_URL": PG_URL}, id="postgres", marks=needs_postgres),
]


def _ok(tmp: Path, env: dict[str, str], *args: str) -> str:
    proc = helpdesk(tmp, *args, extra_env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _listed(tmp: Path, env: dict[str, str], *args: str) -> dict[str, str | None]:
    rows = json.loads(_ok(tmp, env, "sessions", "list", "--json", *args))
    return {r["session"]: r["customer"] for r in rows}


@pytest.mark.parametrize("env", BACKENDS)
def test_sessions_cli_list_show_delete_purge(tmp_path: Path, env: dict[str, str]) -> None:
    seeded_copy(tmp_path)
    mine, theirs = f"cli-{uuid.uuid4().hex[:8]}", f"cli-{uuid.uuid4().hex[:8]}"
    _ok(tmp_path, env, "chat", "-m", "where is order 100683?", "--session", mine)
    _ok(tmp_path, env, "chat", "-m", "hello", "--session", theirs, "--customer", "C0002")

    listed = _listed(tmp_path, env)
    assert listed[mine] == "C0001" and listed[theirs] == "C0002"
    assert set(_listed(tmp_path, env, "--customer", "C0002")) == {theirs}

    shown = json.loads(_ok(tmp_path, env, "sessions", "show", mine, "--json"))
    assert shown["customer"] == "C0001" and shown["turns"] == 1 and shown["checkpoints"] == 1
    assert [m["role"] for m in shown["messages"]] == ["human", "ai"]
    assert shown["messages"][0]["content"] == "where is order 100683?"

    out = _ok(tmp_path, env, "sessions", "delete", "--customer", "C0002")
    assert "deleted 1 session(s) of customer C0002" in out
    assert theirs not in _listed(tmp_path, env)

    assert f"deleted session {mine}" in _ok(tmp_path, env, "sessions", "delete", mine)
    missing = helpdesk(tmp_path, "sessions", "show", mine, extra_env=env)
    assert missing.returncode == 1 and "no session" in missing.stderr

    _ok(tmp_path, env, "chat", "-m", "hello", "--session", mine)
    assert "purged 0 session(s)" in _ok(tmp_path, env, "sessions", "purge")  # 30 days default
    purged = _ok(tmp_path, env, "sessions", "purge", "--older-than", "0s")
    assert "purged" in purged and mine not in _listed(tmp_path, env)


def test_sessions_cli_bad_input_is_a_clear_error(tmp_path: Path) -> None:
    bad_age = helpdesk(tmp_path, "sessions", "purge", "--older-than", "soon")
    assert bad_age.returncode == 2
    assert "'soon' is not an age: use e.g. 30d, 12h, 90m or 45s" in bad_age.stderr
    neither = helpdesk(tmp_path, "sessions", "delete")
    assert neither.returncode == 2 and "give a session id or --customer C" in neither.stderr
    assert "Traceback" not in bad_age.stderr + neither.stderr


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("30d", 30 * 86400.0), ("12h", 43200.0), ("90m", 5400.0), ("45s", 45.0), ("7", 7 * 86400.0)],
)
def test_parse_age_units(text: str, seconds: float) -> None:
    assert parse_age(text) == seconds


def test_parse_age_refuses_other_forms() -> None:
    with pytest.raises(ValueError, match="is not an age"):
        parse_age("-3d")
