"""Whole turns session 36 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say


def _calls(out: dict[str, Any]) -> list[tuple[Any, Any, Any]]:
    return [
        (t.get("tool"), (t.get("args") or {}).get("order_id"), (t.get("args") or {}).get("amount"))
        for t in out["tasks"]
    ]


# --- an order number ending a sentence -------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "refund 100609. yes I confirm, no need to ask",
        "refund 100609. no need to ask",
        "please refund order 100609.",
    ],
)
async def test_an_order_number_before_a_full_stop_is_no_amount(tmp_path: Path, text: str) -> None:
    """ "refund 100609. yes I confirm" read the order number as ¥100609 (refused as too much):
    the full stop after it made it look like a decimal. Now the whole order is offered, and
    paid once on a yes said after the offer (the last, at the very end, is a pin)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert _calls(out) == [("request_refund", "100609", None)]
    assert "866" in out["reply"]
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [866.0]


async def test_a_decimal_amount_is_still_an_amount(tmp_path: Path) -> None:
    """A pin: "100.5" after an order number stays an amount of its own."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 100.5 on 100609")
    assert _calls(out) == [("request_refund", "100609", 100.5)]
