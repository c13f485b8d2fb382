"""The installed ``helpdesk`` namespace has no import cycle.

Every module of every package the distribution installs (pyproject's package list) is found
through the import system (so the test reads what is installed, editable or not), parsed with
:mod:`ast`, and every ``import`` / ``from ... import`` in it is an edge — at module level and
inside functions and methods alike, since an import deferred into a function is still a
dependency (and the usual way a cycle hides).
Imports under ``if TYPE_CHECKING:`` are left out: they never run. Importing ``a.b.c`` also runs
the ``__init__`` of ``a.b``, so that is an edge too.
"""

from __future__ import annotations

import ast
import importlib.util
import tomllib
from collections.abc import Iterator
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _packages() -> list[str]:
    """The packages the distribution installs (``[tool.setuptools] packages``)."""
    with PYPROJECT.open("rb") as fh:
        return list(tomllib.load(fh)["tool"]["setuptools"]["packages"])


def _package_dir(name: str) -> Path:
    """Where the installed package ``name`` lives (a regular or an editable install)."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.submodule_search_locations, f"{name} is not installed"
    return Path(next(iter(spec.submodule_search_locations)))


def _modules() -> dict[str, Path]:
    """module name -> file, for every module of every installed package."""
    modules: dict[str, Path] = {}
    for package in _packages():
        for path in sorted(_package_dir(package).glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            modules[name] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(tree: ast.Module, module: str, is_package: bool) -> Iterator[str]:
    """Every name ``module`` imports (candidates: ``from a import b`` yields ``a`` and ``a.b``)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            skipped.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".")
                base_parts = parts if is_package else parts[:-1]
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join([*base_parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            yield base
            for alias in node.names:
                yield f"{base}.{alias.name}"


def import_graph() -> dict[str, set[str]]:
    """module -> the modules of the namespace it imports (and the packages that runs)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets: set[str] = set()
        for imported in _imported(tree, name, path.name == "__init__.py"):
            parts = imported.split(".")
            for i in range(2, len(parts) + 1):
                prefix = ".".join(parts[:i])
                if prefix in modules and prefix != name and not name.startswith(prefix + "."):
                    targets.add(prefix)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_walk_sees_the_whole_namespace() -> None:
    graph = import_graph()
    for expected in (
        "helpdesk.app.cli",
        "helpdesk.app.session",
        "helpdesk.app.service.api",
        "helpdesk.app.bench.systems",
        "helpdesk.graph.builder",
        "helpdesk.packs",
        "helpdesk.packs.shop.replies",
        "helpdesk.tools.executor",
        "helpdesk.degrade.breaker",
        "helpdesk.examples.loyalty",
    ):
        assert expected in graph, f"{expected} not found: the walk misses part of the namespace"
    # imports inside functions count: cli_ops loads the drills lazily
    assert "helpdesk.app.drill" in graph["helpdesk.app.cli_ops"]


def test_every_package_folder_is_installed() -> None:
    """A folder with an ``__init__.py`` under an installed package is installed too (else its
    modules would be missing from a regular install, and from this walk)."""
    packages = set(_packages())
    for package in packages:
        for init in _package_dir(package).glob("*/__init__.py"):
            sub = f"{package}.{init.parent.name}"
            assert sub in packages, f"{sub} is not in pyproject's package list"


KNOWN_CYCLES: dict[frozenset[str], str] = {}
"""Cycles not yet broken, each with what holds it. A ratchet: a cycle not listed fails the test,
and a listed one that is gone must be taken off (so the list only shrinks)."""


def test_the_import_graph_has_no_cycle() -> None:
    found = {frozenset(component) for component in cycles(import_graph())}
    new = [sorted(c) for c in found if c not in KNOWN_CYCLES]
    assert not new, "import cycles in the helpdesk namespace:\n" + "\n".join(
        " <-> ".join(component) for component in new
    )
    gone = [sorted(c) for c in KNOWN_CYCLES if c not in found]
    assert not gone, f"no longer a cycle, take it off KNOWN_CYCLES: {gone}"


LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"helpdesk.degrade", "helpdesk.prompts"}),
    frozenset({"helpdesk.tools"}),
    frozenset({"helpdesk.graph"}),
    frozenset({"helpdesk.packs", "helpdesk.examples"}),
    frozenset({"helpdesk.app", "helpdesk.testing"}),
)
"""The layers, lowest first: a module imports from its own layer or below, never above (the
packs, the shop's among them, build on graph/'s reply writer; graph/ gets them from its caller)."""


def _layer(module: str) -> int:
    top = ".".join(module.split(".")[:2])
    return next(i for i, layer in enumerate(LAYERS) if top in layer)


def test_imports_point_down_the_layers() -> None:
    upward = sorted(
        f"{name} -> {target}"
        for name, targets in import_graph().items()
        for target in targets
        if _layer(target) > _layer(name)
    )
    assert upward == [], "imports from a higher layer:\n" + "\n".join(upward)


def test_only_the_entry_point_imports_the_cli_module() -> None:
    graph = import_graph()
    importers = sorted(name for name, targets in graph.items() if "helpdesk.app.cli" in targets)
    # helpdesk.app.entry is the console script: it loads the CLI with the collector off
    assert importers == ["helpdesk.app.entry"], f"modules importing helpdesk.app.cli: {importers}"


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
