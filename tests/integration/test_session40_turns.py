"""Whole turns session 40 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_trust import bot_for, calls_of, executions, refunds_of, say

# --- an amount said for each of several things --------------------------------------------


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("refund 100 for the thermos and 200 for the air fryer", ("100.00", "200.00")),
        ("保温杯退100，空气炸锅退200", ("100.00", "200.00")),
    ],
)
async def test_amounts_said_per_thing_are_refunded_together(
    tmp_path: Path, text: str, parts: tuple[str, str]
) -> None:
    """The ¥200 (English: the ¥100) was dropped silently and a yes paid the other one; now the
    sum is asked, each part named, and the yes pays ¥300."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "300.00" in out["reply"] and all(p in out["reply"] for p in parts)
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [300.0]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a thing the order does not hold: said, and how much asked
        ("refund 100 for the thermos and 200 for the monitor", "monitor"),
        # more for one thing than it cost: the most for it said
        ("refund 100200: 200 for the thermos and 200 for the air fryer", "129.00"),
        # money for something that is no product: how much asked, never "not in the order"
        ("refund 100200 100 for the thermos 2 for the delay", "797.00"),
    ],
)
async def test_amounts_per_thing_that_do_not_fit_are_asked(
    tmp_path: Path, text: str, said: str
) -> None:
    """Each of these paid one of the amounts (¥100 or ¥200) after a yes, the rest dropped."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert said in out["reply"].lower()
    assert "does not include delay" not in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_a_price_told_beside_one_amount_is_no_second_part(tmp_path: Path) -> None:
    """A pin: "I paid 399 for the air fryer, refund 100 for the thermos" stays ¥100."""
    bot = bot_for(tmp_path)
    out = await say(bot, "I paid 399 for the air fryer, refund 100 for the thermos")
    assert "100.00" in out["reply"] and "499" not in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [100.0]


# --- a count of things is no amount ----------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["refund 1 out of 3 items on 100200", "refund 2 of the 3 items in 100200"]
)
async def test_a_count_of_the_orders_things_is_asked(tmp_path: Path, text: str) -> None:
    """ "refund 1 out of 3 items on 100200" offered ¥1 and a yes paid it."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "1.00" not in out["reply"] and "797.00" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- a refund asked to be processed ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "please process my refund for 100200",
        "the agent promised me a refund on 100200, please process it now",
    ],
)
async def test_a_refund_asked_to_be_processed_is_offered_once(tmp_path: Path, text: str) -> None:
    """Both showed the order and offered nothing (the first read "process" as a question about
    a refund's progress); now the refund is asked about once and a yes runs it once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert [c for c in calls_of(out) if c[0]] == [("request_refund", "100200", None)]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [797.0]


@pytest.mark.parametrize(
    "text",
    [
        "has my refund for 100200 been processed?",
        "the agent promised a refund on 100200, did you process it?",
    ],
)
async def test_whether_a_refund_was_processed_offers_none(tmp_path: Path, text: str) -> None:
    """A pin: asked whether, never offered."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not [c for c in calls_of(out) if c[0] == "request_refund"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    [
        "refund 100 for the thermos but not the 200 for the air fryer",
        "refund 100 for the thermos or 200 for the air fryer",
        "保温杯退100，空气炸锅的200就算了",
        "refund 100 each for the thermos and the air fryer",
        "保温杯和空气炸锅各退100",
        "refund 100 for each item on 100200",
        "保温杯只给1分，退100，空气炸锅退200",
        "the thermos was rated 1 star, refund 100 for it and 200 for the air fryer",
        "refund 100 for the thermos and 200 for the air fryer, total 250",
    ],
)
async def test_amounts_per_thing_that_are_no_plain_list_are_asked(
    tmp_path: Path, text: str
) -> None:
    """A part left out, one or the other, "each", a rating or a total beside the amounts: each
    of these offered a sum or one of the amounts (¥300, ¥100, ¥201, ¥200) and a yes paid it."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "797.00" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text", ["refund thermos 100 air fryer 200", "退100200：保温杯100，餐具50"]
)
async def test_amounts_per_thing_said_without_for_add_up(tmp_path: Path, text: str) -> None:
    """ "refund thermos 100 air fryer 200" offered ¥100, the ¥200 dropped."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    total = "300.00" if "air fryer" in text else "150.00"
    assert total in out["reply"]


async def test_an_answer_after_the_per_thing_question_is_the_amount(tmp_path: Path) -> None:
    """The amount given after "how much?" is the one paid (the words before it, joined to it,
    are no second amount)."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 for the thermos and 200 for the monitor")
    out = await say(bot, "120")
    assert "120.00" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [120.0]


# --- all of one thing is that thing's price --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "price"),
    [
        ("refund the thermos in full", "129.00"),
        ("保温杯全额退款", "129.00"),
        ("保温杯全退", "129.00"),
    ],
)
async def test_all_of_a_thing_is_its_price(tmp_path: Path, text: str, price: str) -> None:
    """Each offered the whole order (¥797) and a yes paid it."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert price in out["reply"] and "797.00" not in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [float(price)]


@pytest.mark.parametrize(
    "text",
    ["refund the full air fryer and 100 for the thermos", "保温杯退100，空气炸锅全退"],
)
async def test_all_of_one_thing_beside_an_amount_is_asked(tmp_path: Path, text: str) -> None:
    """Both offered ¥797 (the whole order) and a yes paid it."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("text", ["refund 100200 in full", "全额退款100200", "100200全退"])
async def test_all_of_an_order_named_is_the_order(tmp_path: Path, text: str) -> None:
    """A pin: the order named in full is all that is refundable on it."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [797.0]


# --- a refund said not to be processed, promised, or weighed -------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "stop processing my refund for 100200",
        "forget about processing the refund for 100200",
        "不要处理100200的退款",
        "不用处理100200的退款",
        "先不要处理100200的退款",
        "我不要100200的退款",
        "客服答应给我100200退款",
        "客服答应给我100200退款，处理了吗？",
        "was 100 refunded for the thermos?",
        "is 100 for the thermos and 200 for the air fryer a fair refund?",
        "保温杯退100，空气炸锅退200合理吗",
    ],
)
async def test_a_refund_not_asked_for_is_not_offered(tmp_path: Path, text: str) -> None:
    """Each offered a refund (¥797, ¥100, ¥300) and a yes paid it."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not [c for c in calls_of(out) if c[0] == "request_refund"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("text", ["我不要了 退款100200", "客服答应给我100200退款，现在帮我退吧"])
async def test_a_refund_asked_beside_those_words_is_offered(tmp_path: Path, text: str) -> None:
    """A pin: "not wanted" of the thing, and a promise followed by "now refund me", ask it."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [797.0]


# --- a write demanded, and one threatened ----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "if you don't refund 100609 I will sue you",
        "不给我退款100609我就投诉",
        "100609再不退款我就去12315",
    ],
)
async def test_a_refund_demanded_under_a_threat_is_offered(tmp_path: Path, text: str) -> None:
    """The English was read as a no ("nothing will be done"); "…12315" offered ¥12315."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "12315.00" not in out["reply"]
    if "12315" not in text:
        assert "866.00" in out["reply"]
        await say(bot, "yes")
        assert await refunds_of(bot, "100609") == [866.0]


@pytest.mark.parametrize(
    "text",
    [
        "赶紧发货100998 否则我就取消",
        "hurry up with 100998 or I'm cancelling",
        "100998赶紧发货，不发就取消吧",
    ],
)
async def test_a_cancel_threatened_if_it_does_not_ship_is_not_offered(
    tmp_path: Path, text: str
) -> None:
    """Each offered the ¥5198 cancel and a yes ran it."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert not [c for c in calls_of(out) if c[0] == "cancel_order"]
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []


async def test_a_small_amount_for_a_thing_is_an_amount(tmp_path: Path) -> None:
    """ "refund 50 for the thermos" was "50 thermoses" (a count): asked how much."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 50 for the thermos")
    assert "50.00" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [50.0]


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("process my refund for 100200", 797.0),
        ("can you process my refund for 100200?", 797.0),
        ("I was promised a refund of 100 on 100200, please process it", 100.0),
        ("客服答应退我100200的100块，现在帮我退吧", 100.0),
    ],
)
async def test_a_refund_to_process_keeps_its_amount(
    tmp_path: Path, text: str, amount: float
) -> None:
    """The first two showed the order; the promised ¥100 was offered as ¥797 (all of it)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert len([c for c in calls_of(out) if c[0] == "request_refund"]) == 1
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [amount]


@pytest.mark.parametrize(
    ("first", "answer", "yes"),
    [
        ("refund 100200", "100 for the thermos and 200 for the air fryer", "yes"),
        ("退款100200", "保温杯100，空气炸锅200", "确认"),
    ],
)
async def test_amounts_per_thing_as_the_answer_replace_the_whole(
    tmp_path: Path, first: str, answer: str, yes: str
) -> None:
    """The answer was not understood, the ¥797 stayed waiting and two yeses paid it."""
    bot = bot_for(tmp_path)
    await say(bot, first)
    out = await say(bot, answer)
    assert "300.00" in out["reply"] and "nothing will be done" not in out["reply"]
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [300.0]


async def test_the_order_found_names_every_thing_the_words_name(tmp_path: Path) -> None:
    """ "(The order your message describes is 100200: Air Fryer 5L.)" named one of the two."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 100 for the thermos and 200 for the air fryer")
    first = out["reply"].splitlines()[0]
    assert "Thermos" in first and "Air Fryer" in first


async def test_it_after_two_orders_is_asked_which(tmp_path: Path) -> None:
    """ "what's in 100200 and 100609" → "refund it" offered ¥866 on 100609 (the last named)."""
    bot = bot_for(tmp_path)
    await say(bot, "what's in 100200 and 100609")
    out = await say(bot, "refund it")
    assert not [c for c in calls_of(out) if c[0] == "request_refund"]
    out = await say(bot, "100200")
    assert "797.00" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [797.0]
    assert await refunds_of(bot, "100609") == []


async def test_a_replacement_beside_an_order_named_is_that_orders_ticket(tmp_path: Path) -> None:
    """The ticket asked for beside "look at 100200" was filed with no order; it is 100200's,
    and asked before it is filed (the order was not named with it)."""
    bot = bot_for(tmp_path)
    text = "can u pls look at 100200, one parcel never came, also send a replacement"
    out = await say(bot, text)
    tickets = [t for t in out["tasks"] if t.get("tool") == "create_ticket"]
    assert [t["args"]["order_id"] for t in tickets] == ["100200"]
    assert await executions(bot, "create_ticket") == []


async def test_whether_an_unpaid_order_can_still_be_paid_is_answered(tmp_path: Path) -> None:
    """ "…, and can I still pay for it" was quoted as not understood."""
    bot = bot_for(tmp_path)
    out = await say(bot, "where's my unpaid air fryer order, and can I still pay for it")
    assert any(t.get("tool") == "search_faq" for t in out["tasks"])
    assert not any(t.get("deferred") for t in out["tasks"])


# --- a paired review's findings (the first versions of this session, or before it) ---------


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("refund 100 for the thermos and 200 for the air fryer thanks", "300.00"),
        ("保温杯退100；空气炸锅退200；餐具退50", "350.00"),
        ("保温杯退100元，餐具退50元，空气炸锅退200元", "350.00"),
    ],
)
async def test_amounts_per_thing_said_apart_add_up(tmp_path: Path, text: str, total: str) -> None:
    """Each paid one of the amounts (¥100, ¥50, ¥200), the others dropped."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert total in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [float(total)]


@pytest.mark.parametrize("text", ["空气炸锅全额退，保温杯退100", "保温杯全退，空气炸锅退100"])
async def test_all_of_one_thing_beside_an_amount_is_never_the_amount(
    tmp_path: Path, text: str
) -> None:
    """The first versions paid ¥100, dropping the thing asked in full."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "turns",
    [
        ["when will you process my refund for 100200?", "yes"],
        ["will you process my refund for 100200?", "yes"],
        ["the agent promised me 300 on 100200", "please process it", "yes"],
        ["客服说会给我100200退款", "确认"],
        ["不要保温杯退100", "确认"],
    ],
)
async def test_no_refund_is_run_on_these(tmp_path: Path, turns: list[str]) -> None:
    """Each paid a refund (¥797 or ¥100) on its last yes."""
    bot = bot_for(tmp_path)
    for text in turns:
        await say(bot, text)
    assert await executions(bot, "create_refund") == []


async def test_a_write_asked_beside_a_refund_told_of_is_offered(tmp_path: Path) -> None:
    """ "客服答应给我100200退款 另外取消100904": the first version held the cancel too."""
    bot = bot_for(tmp_path)
    out = await say(bot, "客服答应给我100200退款 另外取消100904")
    assert [c[:2] for c in calls_of(out) if c[0] in ("cancel_order", "request_refund")] == [
        ("cancel_order", "100904")
    ]
    await say(bot, "确认")
    assert len(await executions(bot, "cancel_order")) == 1
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "text",
    ["hurry up and refund 100609 or im cancelling 100998", "ship my order 100998 or else i cancel"],
)
async def test_a_cancel_threatened_after_or_is_never_run(tmp_path: Path, text: str) -> None:
    """Both cancelled 100998 on a yes (before this session too)."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("refund the thermos in full and cancel 100998", "129.00"),
        ("保温杯全退 顺便取消100904", "129.00"),
    ],
)
async def test_all_of_a_thing_beside_another_order_is_the_things_price(
    tmp_path: Path, text: str, amount: str
) -> None:
    """The order named for the other request made "in full" the whole order (¥797)."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert amount in out["reply"] and "797.00" not in out["reply"]


@pytest.mark.parametrize("text", ["refund 1/3 items 100200", "100200: refund 1 item out of 3"])
async def test_more_counts_of_things_are_asked(tmp_path: Path, text: str) -> None:
    """ "refund 1/3 items" offered ¥1, "1 item out of 3" ¥797."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_an_amount_with_a_thousands_comma_is_one_amount(tmp_path: Path) -> None:
    """ "refund 1,000 for the air fryer" said the most for the air fryer before this session;
    the first version read "1" and "000" and asked which part."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund 1,000 for the air fryer")
    assert "399.00" in out["reply"]


@pytest.mark.parametrize(
    "answer",
    ["yes for the thermos, no for the air fryer", "yes, 100 each", "yes and 100 for the purifier"],
)
async def test_more_than_a_yes_to_a_per_thing_refund_runs_nothing(
    tmp_path: Path, answer: str
) -> None:
    """Each asked the ¥300 again (without its parts) and the next yes paid it."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 for the thermos and 200 for the air fryer")
    out = await say(bot, answer)
    assert answer in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("yes", ["yes please go ahead", "确认退款"])
async def test_a_yes_to_a_per_thing_refund_pays_the_sum_once(tmp_path: Path, yes: str) -> None:
    """A pin: the shop's record says what the money is for."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 for the thermos and 200 for the air fryer")
    await say(bot, yes)
    assert await refunds_of(bot, "100200") == [300.0]
    entry = (await executions(bot, "create_refund"))[0]
    refund = await bot.client.call("GET", f"/refunds/{entry['target']}", tool="t", customer="C0001")
    assert "Thermos" in str(refund.get("reason"))


# --- a thing refunded in another turn --------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("refund 100 for the thermos", "refund 100 for the thermos"),
        ("refund the thermos", "refund the thermos"),
        ("refund 399 for the air fryer", "refund 100 for the air fryer and 100 for the thermos"),
        ("refund 100 for the thermos and 200 for the air fryer", "refund 50 for the thermos"),
    ],
)
async def test_a_things_refunds_never_add_up_to_more_than_it_cost(
    tmp_path: Path, first: str, again: str
) -> None:
    """Each second refund was asked "again?" and paid on a yes: ¥200 or ¥258 for a ¥129
    thermos, ¥499 for a ¥399 air fryer. A refund of a thing says so in its reason now, and
    what is left of the thing caps the next one."""
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, "yes")
    assert len(await executions(bot, "create_refund")) == 1
    await say(bot, again)
    await say(bot, "yes")
    assert len(await executions(bot, "create_refund")) == 1


async def test_what_is_left_of_a_thing_can_still_be_refunded(tmp_path: Path) -> None:
    """A pin: ¥100 of the ¥129 thermos refunded, ¥29 more is offered and paid."""
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 for the thermos")
    await say(bot, "yes")
    out = await say(bot, "refund 29 for the thermos")
    assert "29.00" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [100.0, 29.0]


@pytest.mark.parametrize(
    "text",
    ["refund the air fryer and 100 for the thermos", "refund the thermos and 50 for the plates"],
)
async def test_a_thing_listed_beside_an_amount_for_another_is_asked(
    tmp_path: Path, text: str
) -> None:
    """Each offered the one amount (¥100, ¥50) with the other thing dropped; a yes paid it."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
