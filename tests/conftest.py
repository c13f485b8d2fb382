"""Shared pytest configuration: every test runs offline, with no API key and no real waits."""

from __future__ import annotations

import os

import pytest

os.environ.pop("OPENAI_API_KEY", None)
os.environ.setdefault("HELPDESK_PRIMARY_MODEL", "")
os.environ.setdefault("HELPDESK_BACKUP_MODEL", "")


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sessions and the shop DB of every test live in its own temp dir."""
    monkeypatch.setenv("HELPDESK_DATA_DIR", str(tmp_path))
