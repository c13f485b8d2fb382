"""Whole turns session 41 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpdesk.graph.money import read_amount
from helpdesk.packs import default_packs
from tests.integration.test_trust import bot_for, executions, refunds_of, say

SHOP = default_packs()

# --- an amount refused is never the amount asked ------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "amount"),
    [
        ("not 100", "invalid", None),
        ("refund part of 100200 not 100", "invalid", None),
        ("不是100", "invalid", None),
        ("don't refund 100", "invalid", None),
        ("退200，不是100", "exact", "200.00"),
        ("not 100, 50", "exact", "50.00"),
        ("no, not 100, 50", "exact", "50.00"),
        ("不要退100 退50", "exact", "50.00"),
        # pins: a correction after a pause, and an amount said before the one refused
        ("退100，不是，退50", "exact", "50.00"),
        ("refund 200 not 100", "exact", "200.00"),
    ],
)
def test_an_amount_refused_is_not_read(text: str, kind: str, amount: str | None) -> None:
    reading = read_amount(text, money_context=True, packs=SHOP)
    assert reading.kind == kind
    assert (str(reading.amount) if reading.amount is not None else None) == amount


async def test_not_an_amount_to_how_much_asks_again(tmp_path: Path) -> None:
    """ "refund part of 100200" → "not 100" offered ¥100 and a yes paid it."""
    bot = bot_for(tmp_path)
    await say(bot, "refund part of 100200")
    out = await say(bot, "not 100")
    assert "how much" in out["reply"].lower()
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    ("text", "paid"), [("100609退200，不是100", 200.0), ("refund 100609 not 100", None)]
)
async def test_the_amount_said_not_is_never_paid(
    tmp_path: Path, text: str, paid: float | None
) -> None:
    """ "退200，不是100" offered ¥100 (the one refused); "refund 100609 not 100" offered ¥100."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "确认" if "退" in text else "yes")
    assert await refunds_of(bot, "100609") == ([paid] if paid else [])
