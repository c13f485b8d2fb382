"""Every "Try it" example of README.md, run as the README runs it, against what it promises.

The commands are read from the README's "Try it" code block (and the quoted examples of its
"What the minimal tier understands" paragraph), so a changed example without a changed promise
here fails :func:`test_every_try_it_command_has_a_promise`. Each runs as a ``helpdesk``
subprocess on a fresh seeded demo shop; commands sharing a ``--session`` run in README order in
one data dir. ``chat`` commands get ``--json`` added when the README has none (the same turn,
printed as data), so tasks, tool results and the shop's audit log can be checked, not only text.
Examples that do not keep their promise today are ``xfail(strict=True)`` with the reason, so
the test flips when they are fixed.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.integration.shopworld import seeded_copy

README = Path(__file__).resolve().parents[2] / "README.md"


def try_it_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## Try it")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def readme_commands() -> list[list[str]]:
    """The ``helpdesk ...`` lines of the Try it code block, as argv (comments dropped)."""
    block = re.search(r"```bash\n(.*?)```", try_it_section(), re.DOTALL)
    assert block is not None, "README Try it has no bash block"
    lines = [ln for ln in block.group(1).splitlines() if ln.strip().startswith("helpdesk ")]
    return [shlex.split(ln, comments=True)[1:] for ln in lines]


def prose_examples() -> list[str]:
    """Quoted customer messages in "What the minimal tier understands" that name a product."""
    section = try_it_section()
    heading = "### What the minimal tier understands"
    assert heading in section, f"README Try it has no {heading!r}"
    paragraph = section[section.index(heading) :]
    found = re.search(r"\(or of products found by name,?\s[^:]*: ([^)]*)\)", paragraph)
    assert found is not None, "README no longer quotes products found by name: update PROMISES"
    return re.findall(r'"([^"]+)"', found.group(1))


# --- running -------------------------------------------------------------------------------------


def helpdesk(tmp: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "HELPDESK_"))}
    env["HELPDESK_DATA_DIR"] = str(tmp)
    env["COLUMNS"] = "300"  # rich tables: no wrapped tool names
    env["HELPDESK_SHOP_DB_PATH"] = str(tmp / "shop.sqlite")
    return subprocess.run(
        [sys.executable, "-m", "helpdesk.app.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def chat(tmp: Path, args: list[str]) -> dict[str, Any]:
    argv = args if "--json" in args else [*args, "--json"]
    proc = helpdesk(tmp, argv)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


def audit(tmp: Path, action: str) -> list[tuple[str, int]]:
    """(target, status) of every execution of ``action`` in the shop's audit log."""
    with sqlite3.connect(tmp / "shop.sqlite") as conn:
        rows = conn.execute(
            "SELECT target, status_code FROM audit_log WHERE action = ?", (action,)
        ).fetchall()
    return [(str(t), int(s)) for t, s in rows]


def calls(out: dict[str, Any]) -> list[tuple[str | None, dict[str, Any]]]:
    return [(t["tool"], t["args"]) for t in out["tasks"]]


# --- what each example promises ------------------------------------------------------------------


def why_not_shipped(tmp: Path, outs: list[dict[str, Any]]) -> None:
    (out,) = outs
    # it has shipped: the reply says so, in Chinese, with the real tracking number
    assert ("get_order", {"order_id": "100683"}) in calls(out)
    assert "已发货" in out["reply"] and "YT9433239273" in out["reply"]


def stock_and_tracking(tmp: Path, outs: list[dict[str, Any]]) -> None:
    (out,) = outs
    assert calls(out) == [
        ("check_stock", {"sku": "SKU-1001"}),
        ("track_shipment", {"order_id": "100683"}),
    ]
    assert "SKU-1001" in out["reply"] and "in stock" in out["reply"]
    assert "YT9433239273" in out["reply"]


def remembers_the_order(tmp: Path, outs: list[dict[str, Any]]) -> None:
    where, when = outs
    assert calls(where) == [("track_shipment", {"order_id": "100683"})]
    assert "YT9433239273" in where["reply"]
    assert calls(when) == [("track_shipment", {"order_id": "100683"})]
    assert "2026-10-31" in when["reply"]


def cancels_once_after_yes(tmp: Path, outs: list[dict[str, Any]]) -> None:
    ask, yes = outs
    assert [r["status"] for r in ask["tool_results"]] == ["needs_confirmation"]
    assert "100998" in ask["reply"] and '"yes"' in ask["reply"]
    assert [(r["tool"], r["status"]) for r in yes["tool_results"]] == [("cancel_order", "ok")]
    assert audit(tmp, "cancel_order") == [("100998", 200)]
    with sqlite3.connect(tmp / "shop.sqlite") as conn:
        (status,) = conn.execute("SELECT status FROM orders WHERE order_id='100998'").fetchone()
    assert status == "cancelled"


def refunds_the_share_asked_once(tmp: Path, outs: list[dict[str, Any]]) -> None:
    ask, yes = outs
    # half of the air fryer's ¥399.00 in order 100200 (the order its words describe), asked
    # with the amount and what it is half of; paid exactly that, once
    assert [r["status"] for r in ask["tool_results"]] == ["needs_confirmation"]
    assert "¥199.50" in ask["reply"] and "100200" in ask["reply"] and "399.00" in ask["reply"]
    assert [(r["tool"], r["status"]) for r in yes["tool_results"]] == [("request_refund", "ok")]
    ((refund_id, status),) = audit(tmp, "create_refund")
    with sqlite3.connect(tmp / "shop.sqlite") as conn:
        row = conn.execute(
            "SELECT order_id, amount_cents FROM refunds WHERE refund_id = ?", (refund_id,)
        ).fetchone()
    assert status == 201 and row == ("100200", 19950)


def not_yours(tmp: Path, outs: list[dict[str, Any]]) -> None:
    (out,) = outs
    assert re.search(r"couldn't find order 100452", out["reply"])
    for leak in ("Emma", "YT8418224117", "Shenzhen", "Pillow"):
        assert leak not in out["reply"]


def whole_turn_as_json(tmp: Path, outs: list[dict[str, Any]]) -> None:
    (out,) = outs
    keys = {"reply", "session", "tier", "tiers", "tasks", "tool_results", "degrade", "validation"}
    assert set(out) >= keys
    assert out["tier"] == "minimal" and calls(out) == [("get_order", {"order_id": "100683"})]
    assert {"status", "data", "error_class", "reason", "age_s", "attempts", "ladder",
            "idempotency_key", "ticket_id"} <= set(out["tool_results"][0])  # fmt: skip
    assert {"events", "stale", "pending", "level"} <= set(out["degrade"])


def product_by_name(sku_pattern: str, fact: str) -> Callable[[Path, list[dict[str, Any]]], None]:
    def check(tmp: Path, outs: list[dict[str, Any]]) -> None:
        (out,) = outs
        assert [t["tool"] for t in out["tasks"]] in (["search_products"], ["check_stock"])
        assert re.search(sku_pattern, out["reply"]) and fact in out["reply"]

    return check


def answers_then_asks_again_and_refunds_once(tmp: Path, outs: list[dict[str, Any]]) -> None:
    ask, question, hesitation, yes = outs
    # a question about the waiting refund is answered and the refund asked about again; a
    # hesitation is asked again; "那就退吧" pays exactly the ¥300 asked, once
    for waiting in (ask, question, hesitation):
        assert "needs_confirmation" in [r["status"] for r in waiting["tool_results"]]
        assert "¥300.00" in waiting["reply"] and "100609" in waiting["reply"]
    assert "1-3" in question["reply"]
    assert [t["asked_again"] for t in question["tasks"] if t["tool"] == "request_refund"] == [True]
    assert [(r["tool"], r["status"]) for r in yes["tool_results"]] == [("request_refund", "ok")]
    ((refund_id, status),) = audit(tmp, "create_refund")
    with sqlite3.connect(tmp / "shop.sqlite") as conn:
        row = conn.execute(
            "SELECT order_id, amount_cents FROM refunds WHERE refund_id = ?", (refund_id,)
        ).fetchone()
    assert status == 201 and row == ("100609", 30000)


PROMISES: dict[str, Callable[[Path, list[dict[str, Any]]], None]] = {
    'chat -m "我的订单 100683 为什么还没发货？"': why_not_shipped,
    'chat -m "Is SKU-1001 in stock, and where is order 100683?"': stock_and_tracking,
    "session demo": remembers_the_order,
    "session c1": cancels_once_after_yes,
    "session r1": refunds_the_share_asked_once,
    "session q1": answers_then_asks_again_and_refunds_once,
    'chat -m "what about order 100452?"': not_yours,
    'chat -m "订单100683发货了吗" --json': whole_turn_as_json,
    'chat -m "耳机有货吗"': product_by_name(r"SKU-100[12]", "有货"),
    # SKU-1047 (men's) is sold out until 2026-11-10, SKU-1048 (women's) is in stock
    'chat -m "do you have a down jacket?"': product_by_name(r"SKU-104[78]", "Down Jacket"),
    'chat -m "耳机多少钱"': product_by_name(r"SKU-100[12]", "¥899.00"),
    'chat -m "有没有65W的充电器"': product_by_name(r"SKU-1004", "65W"),
}
BROKEN: dict[str, str] = {}
"""README examples that do not keep their promise yet, with the reason (none today)."""


@dataclass(frozen=True)
class Scenario:
    name: str
    commands: tuple[tuple[str, ...], ...]


def scenarios() -> list[Scenario]:
    """README chat commands grouped by ``--session`` (in README order); the rest alone."""
    grouped: dict[str, list[tuple[str, ...]]] = {}
    order: list[str] = []
    for argv in readme_commands():
        if argv[0] != "chat":
            continue
        if "--session" in argv:
            key = f"session {argv[argv.index('--session') + 1]}"
        else:
            key = shlex.join(argv).replace("'", '"')
        if key not in grouped:
            order.append(key)
        grouped.setdefault(key, []).append(tuple(argv))
    for text in prose_examples():
        key = shlex.join(["chat", "-m", text]).replace("'", '"')
        order.append(key)
        grouped[key] = [("chat", "-m", text)]
    return [Scenario(key, tuple(grouped[key])) for key in order]


def _params() -> list[Any]:
    params = []
    for scenario in scenarios():
        marks = [pytest.mark.xfail(strict=True, reason=BROKEN[scenario.name])] if (
            scenario.name in BROKEN
        ) else []  # fmt: skip
        params.append(pytest.param(scenario, id=scenario.name, marks=marks))
    return params


def test_every_try_it_command_has_a_promise() -> None:
    names = {s.name for s in scenarios()}
    assert names == set(PROMISES), {"no promise": names - set(PROMISES),
                                    "no longer in README": set(PROMISES) - names}  # fmt: skip
    assert ["tools"] in readme_commands()


@pytest.mark.parametrize("scenario", _params())
def test_try_it_example_keeps_its_promise(tmp_path: Path, scenario: Scenario) -> None:
    seeded_copy(tmp_path)
    outs = [chat(tmp_path, list(argv)) for argv in scenario.commands]
    PROMISES[scenario.name](tmp_path, outs)


def test_try_it_tools_lists_the_tools_and_their_policies(tmp_path: Path) -> None:
    proc = helpdesk(tmp_path, ["tools"])
    assert proc.returncode == 0, proc.stderr
    for name in ("get_order", "list_orders", "track_shipment", "check_stock", "search_products",
                 "search_faq", "create_ticket", "cancel_order", "request_refund",
                 "handoff_to_human"):  # fmt: skip
        assert name in proc.stdout
    for column in ("kind", "idempotent", "timeout_s", "confirm"):
        assert column in proc.stdout
