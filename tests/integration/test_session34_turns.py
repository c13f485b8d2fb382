"""Whole turns session 34 changed — run as a customer meets the bot (the demo shop seeded, the
minimal tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_trust import CUSTOMER, bot_for, executions, refunds_of, say


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


# --- a thing's money asked back, told in a long message ------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Hello, sorry for the long message. I bought a screen protector from you in October and"
        " after waiting so long I bought one at a kiosk downstairs, so I don't need yours anymore."
        " Can you just refund the 29? I'll refuse the parcel if it ever shows up.",
        "我十月份买了个钢化膜 等太久了我已经在楼下贴好了 你们那个我不要了 29块钱退给我吧",
    ],
)
async def test_a_thing_not_wanted_anymore_is_refunded_on_its_order(
    tmp_path: Path, text: str
) -> None:
    """ "I don't need yours anymore" / "我不要了" before the refund kept its thing from naming
    the order (the bot asked which order); now ¥29 on 100683 is offered, paid once on a yes."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert ("request_refund", "100683") in _calls(out)
    await say(bot, "yes")
    assert await refunds_of(bot, "100683") == [29.0]


async def test_two_things_refunded_of_two_orders_each_paid_once(tmp_path: Path) -> None:
    """ "净化器剩下那部分钱也退给我吧 … 另外100200里的保温杯也退了 129那个" asked how much on
    100200 ("部分钱" is no amount) and dropped the purifier; now ¥866 on 100609 and ¥129 on
    100200 are offered, one 确认 pays each once, a second runs nothing."""
    bot = bot_for(tmp_path)
    out = await say(
        bot, "净化器剩下那部分钱也退给我吧 机器我不想要了 另外100200里的保温杯也退了 129那个"
    )
    reply = str(out["reply"])
    assert "866.00" in reply and "129.00" in reply
    await say(bot, "确认")
    await say(bot, "确认")
    assert await refunds_of(bot, "100609") == [866.0]
    assert await refunds_of(bot, "100200") == [129.0]


async def test_a_cancel_if_unpaid_beside_the_state_asked(tmp_path: Path) -> None:
    """A pin (the emoji now ends a clause, which left "是不是还没付" unread on its own for a
    while): the state is shown and the cancel of the unpaid order asked; a yes cancels 100904
    once."""
    bot = bot_for(tmp_path)
    out = await say(bot, "我老公说我乱花钱🙄 帮我看看炸锅那个订单是不是还没付 没付的话就取消了吧")
    assert "100904" in str(out["reply"])
    await say(bot, "确认")
    cancelled = await executions(bot, "cancel_order")
    assert [e["target"] for e in cancelled] == ["100904"]


# --- a ticket asked for after the story of its thing ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "order"),
    [
        (
            "The purifier worked fine for a few weeks, but now the display flickers and the app"
            " keeps disconnecting. I've reset it twice following the manual and nothing changed."
            " I'd like to send it in for repair under warranty, please open a repair ticket"
            " for it.",
            "100609",
        ),
        (
            "净化器用了几个礼拜还好好的 最近显示屏一闪一闪的 app也老掉线 按说明书重置了两次都没用"
            " 估计是坏了 帮我开个维修的工单吧 我这边随时可以寄回去",
            "100609",
        ),
        (
            "The thermos I got in the same order as the air fryer leaks from the lid. Is that"
            " covered under warranty, and can you open an after-sales ticket for it?",
            "100200",
        ),
    ],
)
async def test_a_ticket_after_a_story_is_for_the_order_of_its_thing(
    tmp_path: Path, text: str, order: str
) -> None:
    """The ticket was filed (or offered) with no order: its own words ("open a repair ticket for
    it") name nothing, and "keeps disconnecting" named the thermos ("keep hot"), so the story
    named two orders. Now the story before the ask names the order; one ticket, on that order."""
    bot = bot_for(tmp_path)
    await say(bot, text)
    await say(bot, "yes")
    filed = await executions(bot, "create_ticket")
    assert len(filed) == 1
    ticket = await bot.client.http.get(
        f"/tickets/{filed[0]['target']}", headers={"X-Customer-Id": CUSTOMER}
    )
    assert ticket.json()["order_id"] == order


# --- a thing of the order another thing of it describes -------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "帮我把空气炸锅那单的保温杯退了",
        "refund the thermos from the air fryer order",
    ],
)
async def test_a_thing_of_the_order_named_by_another_is_refunded_alone(
    tmp_path: Path, text: str
) -> None:
    """¥797 (the whole of 100200) was offered for the thermos of "the air fryer order": the
    air fryer named the order and was read as an item too. Now ¥129 is offered, and a yes pays
    that once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    reply = str(out["reply"])
    assert "129.00" in reply and "797.00" not in reply
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [129.0]


async def test_the_order_named_by_its_thing_alone_is_the_whole_order(tmp_path: Path) -> None:
    """A pin: the order described and nothing taken out of it is the whole order."""
    bot = bot_for(tmp_path)
    out = await say(bot, "refund the air fryer order")
    assert "797.00" in str(out["reply"])


# --- a cancel on a condition, the other branch told after it --------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "About my order with the phone and the monitor: I read that this monitor batch has dead"
        " pixels. Has my order shipped yet? If it hasn't, cancel it. If it's already on the way,"
        " leave it and I'll deal with it when it arrives.",
        "手机显示器那单 我刚在网上看到说这批显示器有坏点 我那单发货没 没发的话就直接帮我取消"
        " 已经发了就算了 等到了我自己看看再说",
    ],
)
async def test_a_cancel_if_not_shipped_is_asked_of_the_order_described(
    tmp_path: Path, text: str
) -> None:
    """The cancel had no order (its words "cancel it" came with the other branch of the
    condition), and in Chinese "等到了我自己看看再说" (said of that branch) put the cancel off as
    a whole; now the cancel of 100998 (paid, not shipped) is asked, and a yes cancels it once.
    The other branch is not said to be unread."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    reply = str(out["reply"])
    assert ("cancel_order", "100998") in _calls(out)
    assert "couldn't handle" not in reply and "没能处理" not in reply
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]


async def test_a_cancel_put_off_is_still_held(tmp_path: Path) -> None:
    """A pin: "取消100998吧 等我想好再说" offers no cancel."""
    bot = bot_for(tmp_path)
    out = await say(bot, "取消100998吧 等我想好再说")
    assert ("cancel_order", "100998") not in _calls(out)
    await say(bot, "确认")
    assert await executions(bot, "cancel_order") == []


async def test_the_shop_reads_the_words_told_before_only_when_the_request_names_nothing(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    http, headers = bot.client.http, {"X-Customer-Id": CUSTOMER}

    async def orders(product: str, context: str) -> list[str]:
        params = {"product": product, "context": context, "limit": "100"}
        found = (await http.get("/orders", params=params, headers=headers)).json()
        return [o["order_id"] for o in found["orders"] if o.get("matched")]

    # the request's own words name nothing: the story before them does
    assert await orders("please open a repair ticket for it", "the purifier display flickers") == [
        "100609"
    ]
    # the request's own words name a product: the story before them is not read
    assert await orders("净化器的滤网也坏了 咋整", "钢化膜还没到") == ["100609"]


# --- answers to two offers, and a yes with another thing's refund ---------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "100609的确认 另一个不要",
        "yes for 100609, no for the other",
        "100609 ok, not the other one",
        "100609确认 100200不要",
    ],
)
async def test_one_of_two_offers_said_yes_to_by_its_order(tmp_path: Path, answer: str) -> None:
    """ "100609的确认 另一个不要" dropped 100609 and asked ¥50 on 100200 again — a 确认 then
    refunded the one the customer had refused. Now ¥100 on 100609 is asked again alone, and a
    yes pays that once; 100200 gets nothing."""
    bot = bot_for(tmp_path)
    await say(bot, "100200退50 100609退100")
    out = await say(bot, answer)
    assert "100.00" in str(out["reply"])
    await say(bot, "确认")
    assert await refunds_of(bot, "100609") == [100.0]
    assert await refunds_of(bot, "100200") == []


@pytest.mark.parametrize(
    "answer", ["yes and also refund 50 on the purifier", "好的 另外净化器也退50"]
)
async def test_a_yes_and_another_things_refund(tmp_path: Path, answer: str) -> None:
    """ "refund the thermos" → "yes and also refund 50 on the purifier" asked ¥50 on 100200
    (the thermos's order) and a yes paid it there; now the yes pays the ¥129 thermos, ¥50 on
    100609 (the purifier's order) is asked, and a yes pays that once."""
    bot = bot_for(tmp_path)
    await say(bot, "refund the thermos")
    await say(bot, answer)
    assert await refunds_of(bot, "100200") == [129.0]
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [50.0]
    assert await refunds_of(bot, "100200") == [129.0]


@pytest.mark.parametrize(
    "answer",
    ["no, refund the air fryer instead", "不是保温杯 是空气炸锅", "改成退空气炸锅"],
)
async def test_another_thing_instead_of_the_one_offered(tmp_path: Path, answer: str) -> None:
    """ "refund the thermos" → "no, refund the air fryer instead" / "不是保温杯 是空气炸锅"
    dropped both (or asked the thermos again, paid on a hurried yes); now the thermos is not
    refunded, ¥399 for the air fryer is asked, and a yes pays that once."""
    bot = bot_for(tmp_path)
    await say(bot, "refund the thermos")
    out = await say(bot, answer)
    assert "399.00" in str(out["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [399.0]


async def test_plates_instead_of_the_thermos_is_asked_how_much(tmp_path: Path) -> None:
    """ "yes but for the plates instead" asked the ¥129 thermos again (a yes paid it); now
    the thermos is dropped and how much for the plates is asked (some of a set: never a
    guess); nothing is paid on a yes."""
    bot = bot_for(tmp_path)
    await say(bot, "refund the thermos")
    out = await say(bot, "yes but for the plates instead")
    assert "129.00" not in str(out["reply"])
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == []


# --- a review of this session's changes: what they first over-read ------------------------------


async def test_the_rest_kept_is_never_the_whole_order(tmp_path: Path) -> None:
    """ "剩下那些我自己留着" read as "all of what is left": ¥797 was offered and a 好的 paid it
    (a first version of this session's "剩下那部分钱" reading). Now how much is asked; nothing
    is paid on a 好的."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100200只退保温杯，剩下那些我自己留着")
    assert "797.00（" not in str(out["reply"])
    await say(bot, "好的")
    assert await refunds_of(bot, "100200") == []


async def test_a_no_said_to_the_order_named_is_no_yes_to_it(tmp_path: Path) -> None:
    """ "100609不要，另外那个" was read as a yes to 100609 (a first version): now 100609 is
    dropped and 100200's ¥50 asked again; a 确认 pays that once."""
    bot = bot_for(tmp_path)
    await say(bot, "100200退50 100609退100")
    await say(bot, "100609不要，另外那个")
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [50.0]
    assert await refunds_of(bot, "100609") == []


async def test_doing_something_else_instead_is_no_refund(tmp_path: Path) -> None:
    """ "no, I'll just fix the lid myself instead" was read as a refund of "I'll just fix the
    lid myself" (¥797 offered; a first version). Now it is a no; a yes after it pays nothing."""
    bot = bot_for(tmp_path)
    await say(bot, "refund the thermos from 100200")
    await say(bot, "no, I'll just fix the lid myself instead")
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == []


@pytest.mark.parametrize(
    ("first", "second", "amount"),
    [
        ("100200的保温杯漏水了", "不换了直接退款吧", "129.00"),
        ("hi", "would you refund my thermos please, it leaks", "129.00"),
    ],
)
async def test_a_request_is_not_a_no_or_a_policy_question(
    tmp_path: Path, first: str, second: str, amount: str
) -> None:
    """Pins: "不换了" is no address let go, and "would you refund my thermos please" is a
    request, not whether the shop refunds (first versions read them so)."""
    bot = bot_for(tmp_path)
    await say(bot, first)
    out = await say(bot, second)
    assert amount in str(out["reply"])


async def test_a_cancel_put_off_after_its_condition_is_held(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(
        bot,
        "cancel 100998 if it hasn't shipped. if it's already shipped, leave it. actually hold off"
        " for now, I need to check with my wife first",
    )
    assert ("cancel_order", "100998") not in _calls(out)
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []


async def test_two_orders_in_one_clause_each_refund_its_own_words(tmp_path: Path) -> None:
    """ "100200退保温杯，100609剩下的钱也退了" offered ¥797 for 100200: both refunds took the
    clause's "剩下的" (all that is left). Now ¥129 (the thermos) and ¥866, each paid once."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100200退保温杯，100609剩下的钱也退了")
    reply = str(out["reply"])
    assert "129.00" in reply and "866.00" in reply and "797.00" not in reply
    await say(bot, "确认")
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [129.0]
    assert await refunds_of(bot, "100609") == [866.0]


@pytest.mark.parametrize(
    "text", ["cancel 100904 and refund the thermos", "取消100904 顺便把保温杯退了"]
)
async def test_a_things_refund_beside_a_cancel_is_its_own(tmp_path: Path, text: str) -> None:
    """The thermos's refund beside the cancel of 100904 (the unpaid air fryer) was read as how
    the cancel refunds (the refund-time policy): the thermos was dropped without a word. Now
    the cancel and ¥129 on 100200 are asked, and one yes runs each once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "129.00" in str(out["reply"])
    await say(bot, "yes")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100904"]
    assert await refunds_of(bot, "100200") == [129.0]


async def test_a_chinese_yes_and_another_write(tmp_path: Path) -> None:
    """ "确认 另外100998取消" to the thermos's refund lost the yes (the English "yes, also cancel
    100998" worked): now the yes pays ¥129 and the cancel of 100998 is asked."""
    bot = bot_for(tmp_path)
    await say(bot, "refund the thermos")
    await say(bot, "确认 另外100998取消")
    assert await refunds_of(bot, "100200") == [129.0]
    assert await executions(bot, "cancel_order") == []
    await say(bot, "确认")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]


@pytest.mark.parametrize(
    ("answer", "order", "amount"),
    [
        ("no to the first, yes to the second", "100609", 100.0),
        ("yes to the first, no to the second", "100200", 50.0),
    ],
)
async def test_an_answer_before_each_ordinal(
    tmp_path: Path, answer: str, order: str, amount: float
) -> None:
    """ "no to the first, yes to the second" dropped both offers (the wanted one lost); now the
    one said yes to is asked again alone and a yes pays it once."""
    bot = bot_for(tmp_path)
    await say(bot, "100200退50 100609退100")
    await say(bot, answer)
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes")
    assert await refunds_of(bot, order) == [amount]
    assert len(await executions(bot, "create_refund")) == 1


@pytest.mark.parametrize(
    "text",
    ["那单保温杯退了吧", "那单的保温杯退了吧", "那单保温杯退了吧 另外100609剩下的钱也退给我"],
)
async def test_a_thing_of_that_order_is_not_the_whole_order(tmp_path: Path, text: str) -> None:
    """ "那单保温杯退了吧" (the thermos of that order) offered ¥797, all of 100200, and a 确认
    paid it — "那单" was read as the whole order (from before this session); beside a part said
    to be unread, that part's "剩下的" did the same. Now ¥129, paid once."""
    bot = bot_for(tmp_path)
    out = await say(bot, text)
    assert "129.00" in str(out["reply"]) and "797.00" not in str(out["reply"])
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [129.0]
    assert await refunds_of(bot, "100609") == []


async def test_that_order_refunded_whole_is_still_the_whole(tmp_path: Path) -> None:
    """A pin: "100200那单退了吧" is all of 100200."""
    bot = bot_for(tmp_path)
    out = await say(bot, "100200那单退了吧")
    assert "797.00" in str(out["reply"])
