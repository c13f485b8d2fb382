"""langgraph.json points at a module-level graph that LangGraph Studio / `langgraph dev` loads."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from helpdesk.graph.builder import GRAPH_NODES

ROOT = Path(__file__).resolve().parents[2]


def test_langgraph_json_points_at_the_module_level_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = json.loads((ROOT / "langgraph.json").read_text())
    path, attr = config["graphs"]["helpdesk"].split(":")
    assert (ROOT / path).exists()
    monkeypatch.setenv("HELPDESK_DATA_DIR", str(tmp_path))
    module = importlib.import_module("helpdesk.app.studio")
    graph = getattr(module, attr)
    nodes = [n for n in graph.get_graph().nodes if not n.startswith("__")]
    assert nodes == list(GRAPH_NODES)  # the whole turn in one step, and the refusal
