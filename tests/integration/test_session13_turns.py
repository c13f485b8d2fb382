"""Whole turns session 13's batches showed the bot getting wrong: the bot is run as a customer
would meet it (the demo shop seeded, the minimal tier), and what it planned, said and executed is
checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, executions, say


def _calls(out: dict[str, object]) -> list[tuple[str, object]]:
    return [(r["tool"], r.get("args", {}).get("order_id")) for r in out["tool_results"]]  # type: ignore[attr-defined, index]


@pytest.mark.parametrize(
    ("message", "order_id"),
    [
        ("can i get 100998 sent to my office instead + when will it ship", "100998"),
        ("moving next week, can the address on my phone order be changed?", "100998"),
        ("100998能不能改送到公司", "100998"),
        # "it" is the parcel the tracking number names, found by the look before it
        ("where's my parcel YT9433239273? and can the courier drop it at my work address "
         "instead of home", "100683"),
    ],
)  # fmt: skip
async def test_a_parcel_sent_somewhere_else_is_an_address_change(
    tmp_path: Path, message: str, order_id: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert any(t["intent"] == "change_address" for t in out["tasks"])
    assert f"{order_id}" in out["reply"]
    assert "address" in out["reply"] or "地址" in out["reply"]
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "message",
    [
        "can you deliver to my office on weekends",
        "100609退款，顺便开张发票寄到公司",
    ],
)
async def test_delivery_questions_and_invoices_by_post_are_no_address_change(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert all(t["intent"] != "change_address" for t in out["tasks"])
