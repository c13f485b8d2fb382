"""graph/ names no demo-shop tool, status or field: shop knowledge lives in the shop pack.

The names are collected from the shop pack itself — its registry's tool names, the order
statuses and the fields of its output models — and every graph/*.py module's code (string
constants other than docstrings, identifiers, attributes, parameters and keywords; not
comments or docstrings) is scanned for them.

The shop's template matcher, its intents and identifiers live in the pack
(``packs/shop/intents.py``); no graph module is exempt.
"""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

from pydantic import BaseModel

from helpdesk.packs.shop import shop_declarations
from helpdesk.tools import builtin
from helpdesk.tools.packs import PackEnv
from helpdesk.tools.shop_client import ShopClient

GRAPH = Path(__file__).resolve().parents[2] / "graph"

GENERIC = frozenset(
    {
        # words every domain uses; ToolResult/DegradeContext fields of the engine itself
        "status",
        "name",
        "items",
        "total",
        "amount",
        "quantity",
        "question",
        "answer",
        "available",
        "code",
        "pending",
        "ticket_id",
        # the engine's session fact of the tickets a session opened (ToolResult.ticket_id)
        "tickets",
        # money language every domain that pays back reads ("I paid 500 for it" is the price
        # paid, never the amount asked back); it is also the demo shop's order status, which
        # graph/ never compares against
        "paid",
    }
)


def shop_names() -> frozenset[str]:
    registry = shop_declarations().tools(PackEnv(options={"shop_client": ShopClient()}))
    names = set(registry.names())
    names |= set(typing.get_args(builtin.OrderStatus))
    for value in vars(builtin).values():
        if (
            isinstance(value, type)
            and issubclass(value, BaseModel)
            and (value.__module__ == builtin.__name__)
        ):
            names |= set(value.model_fields)
    return frozenset(names - GENERIC)


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
        # attribute docstrings: a string expression right after an assignment
        if isinstance(node, ast.Module | ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    ids.add(id(stmt.value))
    return ids


def code_words(source: str) -> set[str]:
    tree = ast.parse(source)
    skip = _docstrings(tree)
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            # regex escapes (\b, \d, \s) would hide a word: "\bsku" reads as "bsku"
            text = re.sub(r"\\[A-Za-z]", " ", node.value)
            words |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
        elif isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            words.add(node.arg)
    return words


def offenders() -> dict[str, set[str]]:
    names = shop_names()
    found = {}
    for path in sorted(GRAPH.glob("*.py")):
        hits = code_words(path.read_text(encoding="utf-8")) & names
        if hits:
            found[path.name] = hits
    return found


def test_shop_names_are_collected_from_the_shop_pack() -> None:
    names = shop_names()
    assert {"get_order", "request_refund", "handoff_to_human"} <= names  # tools
    assert {"shipped", "delivered", "cancelled"} <= names  # statuses
    assert {"order_id", "sku", "tracking_number", "refund_id"} <= names  # fields


def test_no_graph_module_names_a_shop_tool_status_or_field() -> None:
    dirty = {m: sorted(h) for m, h in offenders().items()}
    assert dirty == {}


def test_the_scan_finds_a_shop_name_in_a_graph_like_module(tmp_path: Path) -> None:
    # the check can fail: a module naming a shop field in code is reported
    source = 'def f(match):\n    return match.args.get("order_id")\n'
    assert code_words(source) & shop_names() == {"order_id"}


def test_code_words_see_through_regex_escapes() -> None:
    assert "sku" in code_words('x = r"(?i)\\bsku[\\s_-]*\\d+"\n')


def test_code_words_ignore_docstrings_and_comments() -> None:
    source = '"""get_order in a docstring"""\n# cancel_order in a comment\nx = "track_shipment"\n'
    assert code_words(source) & shop_names() == {"track_shipment"}
