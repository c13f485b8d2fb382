"""Whole conversations session 25 changed — run as a customer meets the bot (the demo shop
seeded, the minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, refunds_of, say

# --- an amount said before "退我", or alone before "back" ----------------------------------------


@pytest.mark.parametrize(
    "text", ["盘子碎了俩，我不想全退，盘子那269退我", "餐具那269退我", "dinnerware 269 back please"]
)
async def test_the_amount_said_before_the_refund_is_the_one_asked(
    tmp_path: Path, text: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "269.00" in str(out["reply"])
    assert "797.00" not in str(out["reply"])
    await say(bot, "好的" if not text.isascii() else "yes")
    assert await refunds_of(bot, "100200") == [269.0]


async def test_a_product_code_before_back_is_no_amount(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "where is 100683 also is SKU-1004 back")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_a_call_back_asked_beside_a_refund_is_a_handoff(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "Hi 👋 refund for 100200 please, all of it, and a call back would be nice")
    tools = [t.get("tool") for t in out["tasks"]]
    assert "handoff_to_human" in tools
    assert await executions(bot, "create_refund") == []
