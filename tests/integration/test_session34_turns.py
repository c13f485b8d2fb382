"""Whole turns session 34 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_trust import CUSTOMER, bot_for, executions, say


def _calls(out: dict[str, Any]) -> list[tuple[Any, Any]]:
    return [(t.get("tool"), (t.get("args") or {}).get("order_id")) for t in out["tasks"]]


# --- the parcel of the order a ticket is about -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "T-000031有进展没 快递动了没",
        "T-000031 status? and can u also give me the tracking number for that order",
    ],
)
async def test_the_parcel_beside_a_ticket_is_that_tickets_order(tmp_path: Path, text: str) -> None:
    """The parcel asked beside a ticket was not looked at ("快递动了没" went unread in one
    clause with the ticket; "the tracking number for that order" asked which order); now the
    order the ticket is about (100683) is tracked, and the ticket shown."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    calls = _calls(out)
    assert ("track_shipment", "100683") in calls
    assert any(tool == "get_ticket" for tool, _ in calls)
    reply = str(out["reply"])
    assert "YT9433239273" in reply and "T-000031" in reply


async def test_the_shop_lists_the_order_of_a_ticket_only_for_its_customer(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    http, headers = bot.client.http, {"X-Customer-Id": CUSTOMER}
    own = (await http.get("/orders", params={"ticket": "T-000031"}, headers=headers)).json()
    assert [o["order_id"] for o in own["orders"]] == ["100683"]
    assert own["ticket_id"] == "T-000031"
    # T-000005 is another customer's: nothing of theirs is shown
    other = (await http.get("/orders", params={"ticket": "T-000005"}, headers=headers)).json()
    assert other["orders"] == []
    bad = await http.get("/orders", params={"ticket": "T-31<b>"}, headers=headers)
    assert bad.status_code == 422


async def test_another_customers_ticket_finds_no_parcel(tmp_path: Path) -> None:
    """The ticket's order is looked up among the customer's own: another customer's ticket
    beside a parcel question shows nothing of that customer's."""
    bot = bot_for(tmp_path)
    out = await say(bot, "T-000005 还没处理 快递动了没")
    assert "100104" not in str(out["reply"])


# --- an address change let go ----------------------------------------------------------------


async def test_an_address_change_let_go_changes_nothing(tmp_path: Path) -> None:
    """ "no need to change the address after all" was read as the address change asked again
    (the transfer offered once more); now it is a no — and a yes after it runs nothing."""
    bot = bot_for(tmp_path)
    await say(bot, "can I change the delivery address of 100998?")
    out = await say(bot, "no need to change the address after all, she'll pick it up")
    assert [t.get("intent") for t in out["tasks"]] == ["confirm_no"]
    assert "talk to a human" not in str(out["reply"])
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []  # (a transfer files a ticket)
