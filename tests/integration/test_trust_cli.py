"""Money conversations through `helpdesk chat` subprocesses (one process per message, as a
one-shot CLI user talks), counted in the shop's audit log: zh and en, each yes acted on once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.integration.shopworld import seeded_copy
from tests.integration.test_cli import chat_json


def successful(tmp: Path, action: str) -> list[str]:
    """Targets of the successful ``action`` executions in the shop's audit log."""
    with sqlite3.connect(tmp / "shop.sqlite") as conn:
        rows = conn.execute(
            "SELECT target FROM audit_log WHERE action = ? AND status_code < 300", (action,)
        ).fetchall()
    return [row[0] for row in rows]


def refund_amounts(tmp: Path) -> list[float]:
    with sqlite3.connect(tmp / "shop.sqlite") as conn:
        targets = successful(tmp, "create_refund")
        return [
            conn.execute("SELECT amount_cents FROM refunds WHERE refund_id = ?", (t,)).fetchone()[0]
            / 100
            for t in targets
        ]


@pytest.mark.parametrize(
    ("messages", "amounts"),
    [
        (["订单100609退款一百元", "好的", "确认"], [100.0]),
        (["refund order 100200", "yes but only 100", "yes", "yes"], [100.0]),
        (["refund 40 on order 100609 please", "yes but make it 30", "yes", "yes"], [30.0]),
        (["where's my refund for order 100609?", "yes, I asked a week ago", "yes"], []),
        (["refund 12.345 for 100609", "yes"], []),
        (["算了不退了 100609", "确认"], []),
    ],
)
def test_cli_money_conversation_moves_exactly_what_was_confirmed(
    tmp_path: Path, messages: list[str], amounts: list[float]
) -> None:
    seeded_copy(tmp_path)
    for text in messages:
        chat_json(tmp_path, "-m", text, "--session", "money")
    assert refund_amounts(tmp_path) == amounts


def test_cli_cancel_correction_cancels_only_the_corrected_order(tmp_path: Path) -> None:
    seeded_copy(tmp_path)
    for text in ["取消订单100998", "不对，我是说100904", "确认", "确认"]:
        chat_json(tmp_path, "-m", text, "--session", "cancel")
    assert successful(tmp_path, "cancel_order") == ["100904"]


def test_cli_cancel_and_refund_me_cancels_once_and_asks_no_second_refund(tmp_path: Path) -> None:
    # the cancel of a paid order refunds it: no refund question beside it, no refund attempted
    seeded_copy(tmp_path)
    for text in ["cancel 100998 and refund me", "yes", "yes"]:
        chat_json(tmp_path, "-m", text, "--session", "cancel-refund")
    assert successful(tmp_path, "cancel_order") == ["100998"]
    with sqlite3.connect(tmp_path / "shop.sqlite") as conn:
        attempted = conn.execute(
            "SELECT COUNT(*) FROM audit_log WHERE action = 'create_refund'"
        ).fetchone()[0]
    assert attempted == 0
