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


# --- review of this session's changes: what a confused or hurried answer moves ------------------


@pytest.mark.parametrize(
    "text",
    [
        "I don't want the remaining 866 refunded, I want a replacement",
        "I don't want 100200 refunded, I want a replacement",
    ],
)
async def test_a_refund_said_not_wanted_is_never_asked(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert all(tool != "request_refund" for tool, _ in _calls(out))
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    [
        "the thermos is broken. no need for a ticket, just tell me how to fix it",
        "the thermos stopped keeping stuff hot. no need for a ticket, just tell me how to fix it",
        "I'm worried the thermos won't keep stuff hot on my hike. any tips",
    ],
)
async def test_a_ticket_said_not_needed_is_never_filed(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "answer",
    [
        "I'll be home after 6",
        "ok 👍 10/10",
        "yes. I bought it on 11/11",
        "you already refunded 433",
        "it cost me 200 to fix it myself",
        "yes but 100 less",
        "yes but only 500 or 600",
    ],
)
async def test_a_number_not_said_as_the_amount_never_becomes_it(
    tmp_path: Path, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 and cancel 100998")
    await say(bot, answer)
    await say(bot, "yes")
    assert all(amount == 797.0 for amount in await refunds_of(bot, "100200"))


@pytest.mark.parametrize(
    ("answer", "amount"),
    [
        ("500", 500.0),
        ("yes but make it 30", 30.0),
        ("好的，退50", 50.0),
        ("fine, do the 300", 300.0),
    ],
)
async def test_an_amount_said_as_one_still_changes_the_refund(
    tmp_path: Path, answer: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200")
    await say(bot, answer)
    await say(bot, "yes" if answer.isascii() else "确认")
    assert await refunds_of(bot, "100200") == [amount]


@pytest.mark.parametrize(
    ("ask", "answer", "refunded", "others"),
    [
        ("refund 100 on 100200 and file a ticket about it", "refund yes ticket no", 1, 0),
        ("refund 100 on 100200 and file a ticket about it", "refund yes ticket yes", 1, 1),
        ("refund 100200 and cancel 100998", "refund no cancel yes", 0, 1),
        ("100200退款，100998取消", "退款确认取消不要", 1, 0),
        # a yes and a no to the same actions: nothing runs, nothing stays waiting
        ("refund 100200 and cancel 100998", "refund yes, cancel yes... no, don't cancel", 0, 0),
        ("refund 100200 and cancel 100998", "refund ok, cancel hold on", 0, 0),
        # "no, only the X": never the other one
        ("refund 100200 and cancel 100998", "no, only the cancel", 0, 1),
    ],
)  # fmt: skip
async def test_answers_naming_each_waiting_action(
    tmp_path: Path, ask: str, answer: str, refunded: int, others: int
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, ask)
    await say(bot, answer)
    await say(bot, "yes" if answer.isascii() else "确认")
    assert len(await executions(bot, "create_refund")) == refunded
    done = await executions(bot, "create_ticket") + await executions(bot, "cancel_order")
    assert len(done) == others


async def test_no_only_the_ticket_never_refunds(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "my thermos stopped keeping stuff hot, refund it and file a ticket")
    await say(bot, "no, only the ticket")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_the_refund_of_what_is_left_beside_a_cancel_is_its_own_order(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "cancel 100998, refund the remaining 866")
    assert sorted(_calls(out)) == [("cancel_order", "100998"), ("request_refund", "100609")]
    await say(bot, "yes")
    assert await _cancelled(bot) == ["100998"]
    assert await refunds_of(bot, "100609") == [866.0]


@pytest.mark.parametrize(
    "text",
    [
        "does the air purifier have a warranty? it is not broken",
        "the thermos isn't broken, just asking about warranty",
    ],
)
async def test_a_fault_said_not_to_be_offers_no_ticket(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert all(tool != "create_ticket" for tool, _ in _calls(out))


# --- a second review: numbers that are something else, short answers, refusals ------------------


@pytest.mark.parametrize(
    ("answer", "amount"),
    [
        ("ok 500 then", 500.0),
        ("yes, refund to my alipay, account ends in 88", 797.0),
        ("yes refund please, I paid 500 for it", 797.0),
    ],
)
async def test_what_the_number_beside_a_yes_is(tmp_path: Path, answer: str, amount: float) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200")
    await say(bot, answer)
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") in ([amount], [])


async def test_a_card_number_is_no_refund_amount(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "100200退款")
    await say(bot, "确认，退到支付宝，尾号66")
    await say(bot, "好的")
    assert 66.0 not in await refunds_of(bot, "100200")


@pytest.mark.parametrize(
    ("answer", "refunded", "cancelled"),
    [
        ("refund y cancel n", 1, 0),
        ("Refund YES. Cancel NO.", 1, 0),
        ("refund fine, cancel no thanks", 1, 0),
        ("refund ok cancel nope", 1, 0),
    ],
)
async def test_short_answers_to_two_waiting_actions(
    tmp_path: Path, answer: str, refunded: int, cancelled: int
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100200 and cancel 100998")
    await say(bot, answer)
    await say(bot, "yes")
    assert len(await executions(bot, "create_refund")) == refunded
    assert len(await _cancelled(bot)) == cancelled


@pytest.mark.parametrize(
    "text",
    [
        "I don't really want 100200 refunded, just a replacement",
        "not looking to get 100200 refunded, only a replacement",
        "no need for a ticket or refund, the thermos is broken",
        "no ticket needed, thermos broke",
        "the thermos broke, no ticket please",
        "nothing is broken, just checking warranty on the air purifier",
    ],
)
async def test_more_refusals_move_nothing(tmp_path: Path, text: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    if "replacement" not in text:
        assert await executions(bot, "create_ticket") == []
