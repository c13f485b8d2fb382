"""The ``helpdesk`` entry point loads with the cyclic collector off, then turns it back on."""

from __future__ import annotations

import gc
import sys

import pytest

from helpdesk.app import entry


def test_entry_runs_the_cli_with_the_collector_on_again_and_startup_frozen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, object] = {}

    def fake_cli() -> None:
        seen["enabled"] = gc.isenabled()
        seen["frozen"] = gc.get_freeze_count()

    monkeypatch.setattr("helpdesk.app.cli.main", fake_cli)
    monkeypatch.setattr(sys, "argv", ["helpdesk", "--help"])
    try:
        entry.main()
    finally:
        gc.unfreeze()
        gc.enable()
    assert seen["enabled"] is True
    assert isinstance(seen["frozen"], int) and seen["frozen"] > 0


def test_collector_comes_back_on_even_when_loading_the_cli_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "helpdesk.app.cli", None)  # import raises ImportError
    try:
        with pytest.raises(ImportError):
            entry.main()
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()
