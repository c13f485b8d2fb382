"""Whole conversations session 24 changed: a sum of money asked beside a described order, what
is left to refund named by its amount, a fault told of "it", and answers that change one of
several waiting actions — run as a customer meets the bot (the demo shop seeded, the minimal
tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_trust import CUSTOMER, bot_for, executions, refunds_of, say


def _calls(out: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [
        (str(t["tool"]), (t.get("args") or {}).get("order_id"))
        for t in out["tasks"]
        if t.get("tool")
    ]


async def _cancelled(bot: Any) -> list[str]:
    return [e["target"] for e in await executions(bot, "cancel_order")]


_COMPLAINT_AND_REST = (
    "I'm not happy. The purifier came damaged, you gave me 433, that's a third. "
    "I want a complaint filed AND the remaining 866 refunded."
)


# --- several actions waiting, an amount alone changes the one that takes amounts ----------------


async def test_an_amount_alone_changes_the_refund_not_the_ticket(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, _COMPLAINT_AND_REST)
    out = await say(bot, "yes but only 500")
    assert "500.00" in str(out["reply"])
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "create_ticket") == []
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [500.0]
    assert len(await executions(bot, "create_ticket")) == 1


async def test_the_waiting_refund_asked_again_keeps_both_waiting(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, _COMPLAINT_AND_REST)
    out = await say(bot, "refund the remaining 866 please")
    assert "866.00" in str(out["reply"])
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes")
    await say(bot, "yes")  # a second yes runs nothing more
    assert await refunds_of(bot, "100609") == [866.0]
    assert len(await executions(bot, "create_ticket")) == 1


async def test_an_amount_alone_changes_the_refund_beside_a_cancel(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 and cancel 100998")
    out = await say(bot, "yes but only 100")
    assert "100.00" in str(out["reply"])
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [100.0]
    assert await _cancelled(bot) == ["100998"]


async def test_a_share_alone_beside_a_cancel_asks_the_amount_and_pays_nothing(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100200退款，100998取消")
    await say(bot, "嗯？")
    await say(bot, "好的但是只退一半")
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []  # how much is asked, never guessed
    assert await _cancelled(bot) == ["100998"]  # asked again beside it, and confirmed


async def test_two_refunds_waiting_an_amount_alone_changes_neither(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 200 on 100609 and 100 on 100200")
    await say(bot, "yes but only 50")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- what is left to refund, named by its amount ------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "剩下那866还能退吗",
        "is the 866 that's left still refundable if I return it",
        "She'd like to know if the 866 left on the purifier can be refunded to WeChat Pay",
    ],
)
async def test_the_amount_left_names_its_order_and_asks_nothing(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert ("get_order", "100609") in _calls(out)
    assert "866" in str(out["reply"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_the_shop_lists_orders_by_what_is_left_to_refund(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    http, headers = bot.client.http, {"X-Customer-Id": CUSTOMER}
    found = (await http.get("/orders", params={"left": "866"}, headers=headers)).json()
    assert [o["order_id"] for o in found["orders"]] == ["100609"]
    whole = (await http.get("/orders", params={"left": "797"}, headers=headers)).json()
    assert [o["order_id"] for o in whole["orders"]] == ["100200"]
    assert (await http.get("/orders", params={"left": "1299"}, headers=headers)).json()[
        "orders"
    ] == []
    bad = await http.get("/orders", params={"left": "most"}, headers=headers)
    assert bad.status_code == 422


# --- a fault told of "it", or in words the shop did not know ------------------------------------


@pytest.mark.parametrize(
    ("text", "order"),
    [
        # "it" is the thing the question before it named
        ("what's the warranty on the air purifier? it's broken since last week", "100609"),
        ("what's the warranty on the thermos? it stopped keeping my tea hot", "100200"),
        (
            "the thermos from order 100200 stopped keeping stuff hot after a month smh, "
            "warranty covers that right?",
            "100200",
        ),
    ],
)
async def test_a_fault_beside_a_warranty_question_offers_a_ticket_for_its_order(
    tmp_path: Path, text: str, order: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    calls = _calls(out)
    assert ("create_ticket", order) in calls
    assert any(tool == "search_faq" for tool, _ in calls)
    assert await executions(bot, "create_ticket") == []  # offered, not filed
    await say(bot, "no")
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "text",
    [
        "is it normal for the purifier to stop keeping the air warm?",
        "does the thermos stay hot for 12 hours?",
    ],
)
async def test_a_thing_asked_about_files_nothing(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert all(tool != "create_ticket" for tool, _ in _calls(out))
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


# --- a yes to each waiting action, each named ---------------------------------------------------


@pytest.mark.parametrize(
    ("ask", "answer"),
    [
        ("100200退款，100998取消", "退款确认，取消也确认"),
        ("refund 100200 and cancel 100998", "refund yes cancel yes"),
        ("refund 100200 and cancel 100998", "refund yes, cancel yes"),
    ],
)
async def test_a_yes_to_each_action_named_runs_each_once(
    tmp_path: Path, ask: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, ask)
    await say(bot, answer)
    await say(bot, "yes")  # nothing is left waiting
    assert await refunds_of(bot, "100200") == [797.0]
    assert await _cancelled(bot) == ["100998"]


@pytest.mark.parametrize(
    "answer",
    ["refund yes refund yes", "cancel yes", "refund yes cancel yes?", "退款确认，取消不要"],
)
async def test_a_yes_naming_not_every_action_runs_no_other(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    await say(
        bot, "refund 100200 and cancel 100998" if answer.isascii() else "100200退款，100998取消"
    )
    await say(bot, answer)
    refunded, cancelled = await refunds_of(bot, "100200"), await _cancelled(bot)
    assert not (refunded and cancelled)  # never both from an answer that did not name both
    assert len(refunded) <= 1 and len(cancelled) <= 1
