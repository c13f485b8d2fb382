"""No control character hides in the sources: a ``"\\b"`` written in a plain (not raw) string
is a backspace, and a pattern holding one never matches anything — silently (three word
patterns of the shop pack were dead that way until session 21)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "degrade", "examples", "graph", "packs", "prompts", "testing", "tools", "tests")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _sources() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_no_source_holds_a_control_character() -> None:
    found = {
        f"{p.relative_to(ROOT)}:{n}"
        for p in _sources()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if _CONTROL.search(line)
    }
    assert found == set()


def test_the_check_sees_a_backspace() -> None:
    assert _CONTROL.search("|\x08what happens if i refuse")
    assert len(_sources()) > 100
