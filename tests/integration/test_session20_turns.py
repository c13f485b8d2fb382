"""Whole conversations session 20 changed: a refund of one thing of an order named beside other
requests or inside a long story, a no that names the amount wanted, and what a thirteenth blind
batch found writing (tickets refused or made before, refunds and cancels only asked about, a
person talked to before) — run as a customer meets the bot (the demo shop seeded, the minimal
tier) and counted in the shop's audit log."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpdesk.app.session import run_turn
from helpdesk.app.wiring import Bot
from tests.integration.test_trust import bot_for, executions, refunds_of, say


def _yes(text: str) -> str:
    return "yes" if text.isascii() else "确认"


async def _hurried(bot: Bot, *turns: str, yeses: int = 1) -> None:
    """Say ``turns``, then a bare yes (in the last turn's language) ``yeses`` times."""
    for text in turns:
        await say(bot, text)
    for _ in range(yeses):
        await say(bot, _yes(turns[-1]))


async def _cancelled(bot: Bot) -> list[str]:
    return [e["target"] for e in await executions(bot, "cancel_order")]


@pytest.mark.parametrize(
    ("message", "order_id", "amount"),
    [
        # the thing's part is faulty: the thing is named ("保温杯盖子拧不紧")
        ("100200里的保温杯盖子拧不紧 我要退这个的钱 退到支付宝要多久", "100200", 129.0),
        # the dinnerware is the ticket's; the thermos the refund's
        ("保温杯那129退了吧 另外餐具碎了帮我开个工单", "100200", 129.0),
        # a long story naming every item, then "just the air fryer"
        (
            "OK so here's the story. Back in late August I ordered an air fryer, the 16 piece "
            "dinnerware set and a thermos. Now my flatmate brings her own air fryer. Please "
            "refund me for just the air fryer from that order, I'll send it back unused.",
            "100200",
            399.0,
        ),
        # the monitor kept ("let the monitor ship"), the phone refunded
        (
            "I ordered the monitor and the phone together, already paid. My company gave me a "
            "work phone so I don't need the X12 anymore. I still want the monitor though. Can "
            "you just refund the phone and let the monitor ship as normal?",
            "100998",
            2999.0,
        ),
    ],
)
async def test_a_refund_of_one_thing_pays_that_things_price_once(
    tmp_path: Path, message: str, order_id: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert f"{amount:.2f}" in out["reply"]
    await say(bot, _yes(message))
    await say(bot, _yes(message))
    assert await refunds_of(bot, order_id) == [amount]


async def test_two_things_refunded_from_one_sentence_are_asked_never_one_of_them(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "refund just the thermos and the air fryer from 100200")
    assert "129.00" not in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize("answer", ["no, just 200", "算了，退200就行", "不用了，就退200吧"])
async def test_a_no_naming_another_amount_asks_again_at_that_amount(
    tmp_path: Path, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    out = await say(bot, answer)
    assert "200.00" in out["reply"]
    assert await executions(bot, "create_refund") == []
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [200.0]


@pytest.mark.parametrize("answer", ["no, just 200", "no 200 is too much", "不要，退200也不要"])
async def test_a_no_with_a_number_to_a_cancel_or_refusing_it_runs_nothing(
    tmp_path: Path, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100904" if answer.startswith("no, just") else "refund 100609")
    await say(bot, answer)
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "message",
    [
        # a ticket refused in the words of the message
        "别再给我开工单了，上次开了也没用，就告诉我快递到哪了",
        "不要再帮我开工单 100683到哪了",
        # a ticket made before, asked after
        "我之前投诉物流慢那个工单，有人管吗？顺便看看包裹到哪了",
        # a person talked to before, told about
        "so I talked to one of your agents last week and they said the purifier refund was "
        "approved. was it? is the rest still refundable",
        # refunds and cancels only asked about
        "would you be able to refund the screen protector if it never shows up? not asking you "
        "to do it now",
        "could I cancel the phone order in theory? I'm waiting to see if it ships first",
        "also could I get a refund on the pillow from 100452? not now, just asking",
        # a refund made, asked after by its amount
        "did you ever actually pay out that purifier refund? 433 was it? and how much of that "
        "order is left",
    ],
)
async def test_what_the_thirteenth_blind_batch_found_writing_writes_nothing(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await _hurried(bot, message, yeses=2)
    assert await executions(bot, "create_ticket") == []
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


async def test_a_ticket_status_asked_as_news_of_a_request_is_looked_up(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "any news on my exchange request? it's been ages")
    assert any(r["tool"] in ("get_ticket", "list_tickets") for r in out["tool_results"])
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    ("message", "amount"),
    [
        ("refund the thermos and the dinnerware set from 100200, keep the air fryer", 398.0),
        ("100200的保温杯和餐具都退了吧", 398.0),
    ],
)
async def test_things_listed_for_a_refund_add_up(
    tmp_path: Path, message: str, amount: float
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert f"{amount:.2f}" in out["reply"]
    await say(bot, _yes(message))
    assert await refunds_of(bot, "100200") == [amount]


async def test_plates_are_some_of_the_set_never_the_whole_item(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "refund the thermos and the plates from 100200")
    assert "398.00" not in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_the_same_again_is_the_last_action_on_the_order_named(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 150 on 100609")
    await say(bot, "yes")
    out = await say(bot, "same for the air fryer order, 150 too")
    assert "150.00" in out["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [150.0]
    assert await refunds_of(bot, "100200") == [150.0]


async def test_the_same_amount_said_before_in_the_message_is_the_one_offered(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "上次你们给净化器退了433对吧？盘子那单也照这个数退")
    await say(bot, "确认")
    assert await refunds_of(bot, "100200") == [433.0]
    assert await refunds_of(bot, "100609") == []  # R-000094 was made before, not again


async def test_the_same_with_no_amount_to_repeat_asks_how_much(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "the purifier refund you did, do the same for the air fryer order")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_the_same_cancel_again_cancels_the_order_named(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel 100904")
    await say(bot, "yes")
    await say(bot, "same for 100998")
    await say(bot, "yes")
    assert sorted(await _cancelled(bot)) == [
        "100904",
        "100998",
    ]


@pytest.mark.parametrize(
    "message",
    [
        "cancel both my unpaid and my paid orders",
        "cancel the air fryer order and the phone one too",
    ],
)
async def test_two_orders_described_for_one_cancel_are_each_asked(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert "100904" in out["reply"] and "100998" in out["reply"]
    await say(bot, "yes")
    assert sorted(await _cancelled(bot)) == [
        "100904",
        "100998",
    ]


async def test_a_refund_of_a_thing_of_its_own_is_not_the_order_cancelled_after_it(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(
        bot, "the thermos from my august order leaks, refund me the 129 for it. and cancel 100904"
    )
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [129.0]
    assert await _cancelled(bot) == ["100904"]


@pytest.mark.parametrize(
    "message",
    [
        "the air fryer I got in august is throwing sparks — is that covered? I don't want my "
        "money back, I want it repaired",
        "本来想申请退款的，算了，东西还能用。就问下净化器保修几年",
        "Hi, I bought an air purifier in October and you already gave me some money back because "
        "of a dent. How much was that, and how much more could I still claim?",
    ],
)
async def test_a_refund_refused_once_meant_or_made_before_is_never_offered(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await _hurried(bot, message)
    assert await executions(bot, "create_refund") == []


async def test_and_the_other_described_one_too_is_the_same_write(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel my unpaid order. and the paid one too.")
    await say(bot, "yes")
    assert sorted(await _cancelled(bot)) == [
        "100904",
        "100998",
    ]


async def test_and_another_one_too_after_a_look_is_no_write(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 on 100609")  # an action asked before: never repeated by a look
    await say(bot, "no")
    await say(bot, "where is 100683? and the air fryer one too")
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    assert await executions(bot, "cancel_order") == []


async def test_a_thing_named_by_a_status_question_is_the_parcels(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "我的钢化膜咋还没到？？说好31号到的，这都几号了")
    assert "YT9433239273" in out["reply"]


async def test_two_orders_described_in_one_message_are_both_looked_at(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await run_turn(
        bot, "我的冲锋衣咋还没到 说是31号到 还有浴巾那单发了没", session="s", customer="C0028"
    )
    assert "100694" in out["reply"] and "100802" in out["reply"]


# --- what the review of this session's first version found (each moved money wrongly there) --


@pytest.mark.parametrize(
    "then",
    [
        "don't do the same for 100200",
        "I'm not asking for the same for 100200",
        "别对100200也这样退",
        "100200不要也照这个数退",
        "do the same for 100200, not now, just asking",
        "is the refund time the same for 100200?",
        "same for 100200?",
        "my sister said the same with 100200",
        "would you do the same for 100200 if it broke?",
        "100200那单也同样有问题，帮我开个工单",
    ],
)
async def test_the_same_refused_asked_or_reported_repeats_nothing(
    tmp_path: Path, then: str
) -> None:
    bot = bot_for(tmp_path)
    await _hurried(bot, "refund 100 from 100609")
    await _hurried(bot, then)
    assert await refunds_of(bot, "100200") == []


@pytest.mark.parametrize(
    "then", ["is it the same for 100904?", "100904也一样吗", "100904也一样，不过先别取消"]
)
async def test_the_same_asked_after_a_cancel_cancels_nothing_more(
    tmp_path: Path, then: str
) -> None:
    bot = bot_for(tmp_path)
    await _hurried(bot, "cancel 100998")
    await _hurried(bot, then)
    assert await _cancelled(bot) == ["100998"]


@pytest.mark.parametrize(
    "turns",
    [
        ["cancel 100904", "no", "do the same for 100998"],
        ["refund 100 from 100609", "no", "same for 100200"],
        ["refund 100200", "yes", "do the same for 100609"],  # no amount said: asked
    ],
)
async def test_only_an_action_done_with_its_amount_said_is_repeated(
    tmp_path: Path, turns: list[str]
) -> None:
    bot = bot_for(tmp_path)
    for text in turns:
        await say(bot, text)
    before = len(await executions(bot, "create_refund"))
    await say(bot, "yes")
    assert await executions(bot, "cancel_order") == []
    assert len(await executions(bot, "create_refund")) == before


@pytest.mark.parametrize(
    "message",
    [
        "refund the plates",
        "盘子退了吧",
        "把盘子的钱退我",
        "盘子那单退了吧",
        "保温杯和餐具别退了，空气炸锅退了吧 100200",
        "don't refund the thermos and the dinnerware, refund the air fryer from 100200",
        "refund the thermos and the dinnerware from 100200 later, not now",
        "cancel the unpaid order and the paid one stays",
        "my friend has the phone order and the air fryer one, cancel neither",
        "100200 不用补偿我50块吧",
        "你们不会只赔我50块吧？",
        "上次客服说赔我50块吧",
        "your agent said I could get a refund for 100683",
        "I spoke with a human earlier who promised a refund on 100609",
        "I'm just asking, can I cancel 100998?",
    ],
)
async def test_review_phrasings_move_no_money_on_a_hurried_yes(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await _hurried(bot, message)
    assert await executions(bot, "create_refund") == []
    cancelled = await _cancelled(bot)
    # ("cancel the unpaid order and the paid one stays": the unpaid one only, as asked)
    assert cancelled == (["100904"] if "unpaid" in message else [])


@pytest.mark.parametrize(
    "answer",
    ["no, just 200 less", "no, make it 100 more", "nah just 2OO", "no, just 200, 300",
     "no, refund me 200 tomorrow", "不，少退200", "不，再多退200", "不，二百太少了",
     "不要，退200也不要"],
)  # fmt: skip
async def test_a_no_with_an_amount_that_is_not_the_amount_wanted_pays_nothing(
    tmp_path: Path, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100609")
    await say(bot, answer)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


@pytest.mark.parametrize(
    "message",
    ["不要再给我开新工单了，之前那个T-000031处理了吗", "我之前开过工单了，别再开了，就告诉我进度"],
)
async def test_a_new_ticket_refused_is_never_filed(tmp_path: Path, message: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, message)
    await say(bot, "是")
    assert await executions(bot, "create_ticket") == []


@pytest.mark.parametrize(
    "message",
    [
        "没付钱那个炸锅不要了，男士羽绒服啥时候有货",
        "I dont want the air fryer anymore, the one I havent paid for yet",
    ],
)
async def test_an_unpaid_order_not_wanted_any_more_is_offered_its_cancel(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, message)
    assert await executions(bot, "cancel_order") == []
    assert "100904" in out["reply"]
    await say(bot, _yes(message))
    assert await _cancelled(bot) == ["100904"]


async def test_one_thing_of_an_unpaid_order_not_wanted_cancels_nothing(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "待付款那单里的空气炸锅不想要了，能只删掉这一个吗？")
    await say(bot, "是")
    assert await executions(bot, "cancel_order") == []


async def test_an_order_or_parcel_asked_after_by_what_is_in_it_is_that_one(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await run_turn(bot, "我的冲锋衣到哪了", session="s", customer="C0028")
    out = await run_turn(bot, "那浴巾那单呢 发了没", session="s", customer="C0028")
    assert "100802" in out["reply"] and "100694" not in out["reply"]
    await run_turn(bot, "hi, my air fryer is late. order 100734", session="t", customer="C0078")
    out = await run_turn(bot, "and the camera parcel?", session="t", customer="C0078")
    assert "SF1419888806" in out["reply"]


# --- what a second review (1494 conversations on the fixed version) found ----------------------


@pytest.mark.parametrize(
    "then",
    [
        "do the same for 100998 soon",
        "I think I'll do the same for 100998",
        "you did the same for 100998 last month",
        "same for the phone order but only when I say so",
    ],
)
async def test_the_same_put_off_hedged_or_reported_repeats_nothing(
    tmp_path: Path, then: str
) -> None:
    bot = bot_for(tmp_path)
    await _hurried(bot, "cancel 100904")
    await _hurried(bot, then)
    assert await _cancelled(bot) == ["100904"]


@pytest.mark.parametrize(
    "message",
    [
        "净化器的钱也退了，谢谢你们",
        "我没说没付钱那个炸锅不要了",
        "没付钱那个炸锅不要了？",
        "没付钱那个炸锅不要了，开玩笑的",
        "没付钱那个炸锅不是不要了",
        "没付钱那个炸锅先不要了，明天再说",
        "refund the thermos and the dinnerware from 100200, no wait, just the thermos",
        "my husband says refund the thermos and the dinnerware from 100200, I disagree",
    ],
)
async def test_second_review_phrasings_move_no_money_on_a_hurried_yes(
    tmp_path: Path, message: str
) -> None:
    bot = bot_for(tmp_path)
    await _hurried(bot, message, yeses=2)
    assert await executions(bot, "cancel_order") == []
    assert [a for a in await refunds_of(bot, "100200") if a != 129.0] == []
    assert await refunds_of(bot, "100609") == []


@pytest.mark.parametrize(
    ("first", "answer"),
    [
        ("cancel both my unpaid and my paid orders", "yes, not the unpaid one"),
        ("空气炸锅那单和手机那单都取消", "是，空气炸锅那单不用"),
    ],
)
async def test_a_yes_picking_one_of_two_questions_in_words_runs_neither(
    tmp_path: Path, first: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, first)
    await say(bot, answer)
    await say(bot, _yes(first))
    assert await executions(bot, "cancel_order") == []


@pytest.mark.parametrize("answer", ["no, just 200, I was joking", "算了，退200就行，下周吧"])
async def test_a_no_with_an_amount_not_settled_pays_nothing(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 399 for 100200")
    await say(bot, answer)
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


async def test_can_i_exchange_it_is_the_exchange_policy(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(
        bot, "whats the warranty on the robot vacuum and can i exchange it if the colour is wrong"
    )
    topics = {
        a.get("topic")
        for r in out["tool_results"]
        if r["tool"] == "search_faq" and isinstance(r.get("data"), dict)
        for a in r["data"].get("articles") or ()
    }
    assert "exchange" in topics and "warranty" in topics
