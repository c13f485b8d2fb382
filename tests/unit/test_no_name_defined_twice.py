"""A module-level name assigned twice in one module silently replaces the first: session 18 found
``_ORDER_WORD`` defined again far below the first, turning "手机那单我不想要了，但先别取消" into a
cancel. Every module of the package is checked: each module-level name (constant or function) is
bound once."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_NOT_SOURCE = {"tests", "build", "dist"}
MODULES = sorted(
    p
    for p in ROOT.rglob("*.py")
    if not _NOT_SOURCE & set(p.relative_to(ROOT).parts)
    and not any(
        part.startswith(".") or part.endswith(".egg-info") for part in p.relative_to(ROOT).parts
    )
)


def _bound_names(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.value is not None:
                names.append(node.target.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
    return names


def test_modules_are_found() -> None:
    assert len(MODULES) > 50


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_level_name_is_bound_twice(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    twice = [name for name, n in Counter(_bound_names(tree)).items() if n > 1]
    assert twice == [], f"{path.relative_to(ROOT)}: bound more than once: {twice}"
