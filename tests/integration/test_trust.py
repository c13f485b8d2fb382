"""Trust in writes, through the whole graph: no money moves unless the customer clearly asked for
exactly that, once. Every test counts executions (and amounts) in the shop's audit log and data,
not only the reply text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.degrade.clock import FakeClock
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.tools.journal import MemoryWriteJournal
from tests.integration.shopworld import seeded_copy

CUSTOMER = "C0001"


def bot_for(tmp: Path, *, clock: FakeClock | None = None, saver: Any = None) -> Bot:
    settings = Settings(data_dir=tmp, shop_db_path=seeded_copy(tmp))
    return build_bot(
        settings,
        checkpointer=saver or InMemorySaver(serde=state_serializer()),
        clock=clock,
        journal=MemoryWriteJournal(),
    )


def calls_of(out: dict[str, Any]) -> list[tuple[Any, Any, Any]]:
    """(tool, order id, amount) of each task a turn planned."""
    return [
        (t.get("tool"), (t.get("args") or {}).get("order_id"), (t.get("args") or {}).get("amount"))
        for t in out["tasks"]
    ]


async def say(bot: Bot, text: str, session: str = "s") -> dict[str, Any]:
    return await run_turn(bot, text, session=session, customer=CUSTOMER)


async def executions(bot: Bot, action: str, customer: str = CUSTOMER) -> list[dict[str, Any]]:
    """Successful executions of ``action`` in the shop's audit log (of ``customer``'s)."""
    response = await bot.client.http.get(
        "/audit", params={"action": action}, headers={"X-Customer-Id": customer}
    )
    response.raise_for_status()
    return [e for e in response.json()["entries"] if 200 <= int(e["status_code"]) < 300]


async def refunds_of(bot: Bot, order_id: str) -> list[float]:
    """Amounts of the refunds the bot created for the order (from the audit log)."""
    amounts = []
    for entry in await executions(bot, "create_refund"):
        refund = await bot.client.call(
            "GET", f"/refunds/{entry['target']}", tool="t", customer=CUSTOMER
        )
        if refund["order_id"] == order_id:
            amounts.append(float(refund["amount"]))
    return amounts


async def refundable(bot: Bot, order_id: str) -> float:
    order = await bot.client.call("GET", f"/orders/{order_id}", tool="t", customer=CUSTOMER)
    return float(order["refundable_amount"])


# --- questions and negations never move money ----------------------------------------------------


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("where's my refund for order 100609?", "yes, I asked a week ago"),
        ("我的退款到哪了？订单100609", "是的"),
        ("how much can I still get back on 100609?", "yes"),
        ("还能退多少 100609", "好的"),
        ("don't refund order 100683", "yes?"),
        ("算了不退了 100609", "确认"),
    ],
)
async def test_questions_and_negations_never_offer_or_pay_a_refund(
    tmp_path: Path, question: str, answer: str
) -> None:
    bot = bot_for(tmp_path)
    first = await say(bot, question)
    assert [r["status"] for r in first["tool_results"]] != ["needs_confirmation"]
    assert all(r["tool"] != "request_refund" for r in first["tool_results"])
    await say(bot, answer)
    assert await executions(bot, "create_refund") == []


async def test_refund_question_answers_the_refundable_amount(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "how much can I still get back on 100609?")
    remaining = await refundable(bot, "100609")
    assert f"{remaining:,.2f}" in out["reply"]


# --- amounts: exact, stated, never reinterpreted -------------------------------------------------


async def test_full_refund_question_states_the_exact_amount_and_pays_exactly_it(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    remaining = await refundable(bot, "100609")
    ask = await say(bot, "please refund order 100609")
    assert f"¥{remaining:,.2f}" in ask["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [remaining]
    assert len(await executions(bot, "create_refund")) == 1


async def test_yes_with_a_changed_amount_asks_again_and_pays_only_that(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund order 100200")
    changed = await say(bot, "yes but only 100")
    assert await executions(bot, "create_refund") == []
    assert "¥100.00" in changed["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100200") == [100.0]


async def test_chinese_numeral_amount_is_offered_and_paid_exactly(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    ask = await say(bot, "订单100609退款一百元")
    assert "¥100.00" in ask["reply"]
    await say(bot, "好的")
    assert await refunds_of(bot, "100609") == [100.0]


@pytest.mark.parametrize("amount", ["-5", "12.345", "1e3", "150%", "more than half"])
async def test_invalid_amount_gets_a_question_with_the_refundable_amount_never_a_refund(
    tmp_path: Path, amount: str
) -> None:
    bot = bot_for(tmp_path)
    remaining = await refundable(bot, "100609")
    out = await say(bot, f"refund {amount} of order 100609")
    assert f"¥{remaining:,.2f}" in out["reply"]
    assert all(r["status"] != "needs_confirmation" for r in out["tool_results"])
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []
    # the customer then names a usable amount: asked again, paid exactly after a yes
    again = await say(bot, "20")
    assert "¥20.00" in again["reply"]
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [20.0]


@pytest.mark.parametrize("share", ["50%", "half"])
async def test_a_share_is_asked_as_its_exact_amount_never_as_everything(
    tmp_path: Path, share: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, f"refund {share} of order 100609")
    assert "¥649.50" in out["reply"]  # half of the ¥1299.00 paid (¥866.00 is still refundable)
    await say(bot, "yes")
    assert await refunds_of(bot, "100609") == [649.5]


async def test_amount_above_refundable_is_refused_with_the_maximum(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    remaining = await refundable(bot, "100609")
    out = await say(bot, "refund 5000 yuan for order 100609")
    assert f"¥{remaining:,.2f}" in out["reply"]
    await say(bot, "yes")
    assert await executions(bot, "create_refund") == []


# --- answers to a confirmation ------------------------------------------------------------------


async def test_questioning_yes_asks_again_and_runs_nothing(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel order 100998")
    again = await say(bot, "yes?")
    assert "100998" in again["reply"]
    assert await executions(bot, "cancel_order") == []
    await say(bot, "yes")
    assert len(await executions(bot, "cancel_order")) == 1


async def test_yes_with_another_action_never_runs_the_pending_one(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消订单100904")
    out = await say(bot, "对，退款吧")
    assert await executions(bot, "cancel_order") == []
    assert "100904" in out["reply"]
    await say(bot, "确认")
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []


async def test_correction_names_the_other_order_and_only_that_one_is_cancelled(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消订单100998")
    changed = await say(bot, "不对，我是说100904")
    assert "100904" in changed["reply"]
    assert await executions(bot, "cancel_order") == []
    done = await say(bot, "确认")
    assert [r["data"]["order_id"] for r in done["tool_results"] if r["status"] == "ok"] == [
        "100904"
    ]
    cancelled = await executions(bot, "cancel_order")
    assert [e["target"] for e in cancelled] == ["100904"]


async def test_negation_drops_the_pending_action_and_says_so(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 50 yuan for order 100609")
    out = await say(bot, "不用退了")
    assert "没有退款" in out["reply"]
    await say(bot, "确认")
    assert await executions(bot, "create_refund") == []


async def test_pending_confirmation_expires(tmp_path: Path) -> None:
    clock = FakeClock()
    bot = bot_for(tmp_path, clock=clock)
    await say(bot, "cancel order 100998")
    clock.advance(601)
    out = await say(bot, "yes")
    assert "expired" in out["reply"]
    assert await executions(bot, "cancel_order") == []


# --- crash-safe outcomes ------------------------------------------------------------------------


class _Crash(BaseException):
    """Stands for kill -9: nothing after it runs, nothing is stored."""


async def test_crash_after_the_shop_executed_is_reconciled_and_never_repeated(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "refund 100 yuan for order 100609")
    real_call = bot.client.call

    async def crash_after_refund(method: str, path: str, **kwargs: Any) -> Any:
        out = await real_call(method, path, **kwargs)
        if method == "POST" and path == "/refunds":
            raise _Crash
        return out

    bot.client.call = crash_after_refund  # type: ignore[method-assign]
    with pytest.raises(_Crash):
        await say(bot, "yes")
    bot.client.call = real_call  # type: ignore[method-assign]
    assert await refunds_of(bot, "100609") == [100.0]

    # the customer says yes again to the question still shown: the same action, not a new one
    told = await say(bot, "yes")
    assert "went through" in told["reply"]
    assert await refunds_of(bot, "100609") == [100.0]

    # asking for the same refund again is asked about explicitly as a repeat
    again = await say(bot, "refund 100 yuan for order 100609")
    assert "already received a refund of ¥100.00" in again["reply"]
    assert await refunds_of(bot, "100609") == [100.0]


async def test_crash_before_the_call_is_reported_not_done(tmp_path: Path) -> None:
    # (an injected clock: the next turn waits, in its time, until the write's sender could no
    # longer have sent it — tests/unit/test_reconcile_in_flight.py)
    bot = bot_for(tmp_path, clock=FakeClock())
    await say(bot, "cancel order 100998")

    async def crash_before(method: str, path: str, **kwargs: Any) -> Any:
        raise _Crash

    real_call = bot.client.call
    bot.client.call = crash_before  # type: ignore[method-assign]
    with pytest.raises(_Crash):
        await say(bot, "yes")
    bot.client.call = real_call  # type: ignore[method-assign]
    told = await say(bot, "what happened?")
    assert "did not go through" in told["reply"]
    assert await executions(bot, "cancel_order") == []


async def test_handoff_repeated_reuses_the_open_ticket(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    first = await say(bot, "I want to talk to a human")
    second = await say(bot, "let me talk to a real person please")
    tickets = [r["data"]["ticket_id"] for r in (*first["tool_results"], *second["tool_results"])]
    assert len(set(tickets)) == 1
    assert len(await executions(bot, "create_ticket")) == 1


# --- every entry point, both languages -----------------------------------------------------------


async def test_model_reply_claiming_unconfirmed_actions_done_is_rejected(tmp_path: Path) -> None:
    async def lying_writer(items: Any, degrade: Any, lang: Any, feedback: Any) -> str:
        return "Order 100998 is now cancelled. The refund of ¥797.00 for order 100200 is complete."

    settings = Settings(data_dir=tmp_path, shop_db_path=seeded_copy(tmp_path))
    bot = build_bot(settings, checkpointer=InMemorySaver(serde=state_serializer()))
    from helpdesk.graph.builder import build_graph

    bot.graph = build_graph(
        executor=bot.executor,
        packs=bot.packs,
        checkpointer=InMemorySaver(serde=state_serializer()),
        writer=lying_writer,
    )
    out = await say(bot, "cancel order 100998 and refund 797 yuan for order 100200")
    assert out["validation"]["fallback"] is True
    assert "is now cancelled" not in out["reply"]
    assert "100998" in out["reply"] and "¥797.00" in out["reply"]
    assert await executions(bot, "cancel_order") == []
    assert await executions(bot, "create_refund") == []


async def test_crash_after_the_write_before_the_reply_is_told_truly(tmp_path: Path) -> None:
    from helpdesk.graph.builder import build_graph

    saver = InMemorySaver(serde=state_serializer())
    bot = bot_for(tmp_path, saver=saver)
    normal = bot.graph
    await say(bot, "cancel order 100998")

    async def crash_while_writing_the_reply(*_: Any) -> str:
        raise _Crash

    bot.graph = build_graph(
        executor=bot.executor,
        packs=bot.packs,
        checkpointer=saver,
        writer=crash_while_writing_the_reply,
    )
    with pytest.raises(_Crash):
        await say(bot, "yes")
    bot.graph = normal
    assert len(await executions(bot, "cancel_order")) == 1
    told = await say(bot, "what happened?")
    assert "went through" in told["reply"]
    assert "has not been cancelled" not in told["reply"]
    again = await say(bot, "yes")
    assert "has not been cancelled" not in again["reply"]
    assert len(await executions(bot, "cancel_order")) == 1


# --- complaints: acknowledged, then a ticket only on a yes ---------------------------------------


@pytest.mark.parametrize(
    ("complaint", "asked", "yes"),
    [
        ("我要投诉，快递太慢了", "投诉工单", "是"),
        ("I want to file a complaint about the delivery of 100683", "complaint ticket", "yes"),
    ],
)
async def test_a_complaint_is_acknowledged_and_a_ticket_filed_only_after_a_yes(
    tmp_path: Path, complaint: str, asked: str, yes: str
) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, complaint)
    assert asked in out["reply"]
    assert await executions(bot, "create_ticket") == []
    done = await say(bot, yes)
    assert len(await executions(bot, "create_ticket")) == 1
    assert "T-" in done["reply"]
    await say(bot, yes)
    assert len(await executions(bot, "create_ticket")) == 1


async def test_a_complaint_answered_no_files_nothing(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "this is ridiculous, worst service ever, I want to complain")
    await say(bot, "no thanks")
    await say(bot, "yes")
    assert await executions(bot, "create_ticket") == []


async def test_a_reported_fault_is_offered_a_ticket_and_filed_after_a_yes(tmp_path: Path) -> None:
    # session 16: a fault told without asking for anything is offered, never filed unasked
    bot = bot_for(tmp_path)
    out = await say(bot, "my headphones from order 100200 arrived broken")
    assert await executions(bot, "create_ticket") == []
    assert any(r["status"] == "needs_confirmation" for r in out["tool_results"])
    filed = await say(bot, "yes")
    assert len(await executions(bot, "create_ticket")) == 1
    assert "T-" in filed["reply"]


async def test_a_fault_with_help_asked_for_is_filed_at_once(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "my headphones from order 100200 arrived broken, please help")
    assert len(await executions(bot, "create_ticket")) == 1
    assert "T-" in out["reply"]


async def test_confirming_an_action_the_customer_moved_on_from_asks_again_first(
    tmp_path: Path,
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消订单100998")
    moved_on = await say(bot, "好的，另外100683到哪了")
    assert "100998" in moved_on["reply"]  # said not done
    again = await say(bot, "确认取消")
    assert "100998" in again["reply"]
    assert await executions(bot, "cancel_order") == []  # asked again, never run on that message
    await say(bot, "确认")
    assert [e["target"] for e in await executions(bot, "cancel_order")] == ["100998"]
    nothing = await say(bot, "确认取消")
    assert len(await executions(bot, "cancel_order")) == 1
    assert "目前没有需要您确认的操作" in nothing["reply"]


# --- review findings 2026-12-01: each once executed or offered something not asked for --------


@pytest.mark.parametrize("answer", ["yes 🤔", "好的👎", "yes❓", "ok 🤷"])
async def test_a_doubtful_emoji_is_not_a_yes(tmp_path: Path, answer: str) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "cancel order 100998")
    await say(bot, answer)
    assert await executions(bot, "cancel_order") == []


async def test_an_assent_emoji_with_a_yes_is_a_yes(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    await say(bot, "取消订单100998")
    await say(bot, "好的👍")
    assert len(await executions(bot, "cancel_order")) == 1


@pytest.mark.parametrize(
    ("request_text", "answer", "action"),
    [
        ("取消订单100998", "确认退款", "cancel_order"),
        ("refund order 100609", "确认取消", "create_refund"),
    ],
)
async def test_a_yes_naming_another_action_runs_nothing(
    tmp_path: Path, request_text: str, answer: str, action: str
) -> None:
    bot = bot_for(tmp_path)
    await say(bot, request_text)
    await say(bot, answer)
    assert await executions(bot, action) == []


@pytest.mark.parametrize(
    "turns",
    [
        ["100998到哪了", "把投诉撤了", "好的"],
        ["100609到哪了", "钱退给我了吗", "好的"],
        ["I no longer need the charger, just checking where 100998 is", "ok"],
        ["where is 100609?", "do you have an update on my refund?", "yes"],
        ["don't open a ticket, I just want to know where 100683 is"],
        ["我的耳机坏了，但我不想开工单"],
        ["100998不用 取消了", "好的"],
        ["am I talking to an agent?"],
    ],
)
async def test_review_conversations_move_nothing(tmp_path: Path, turns: list[str]) -> None:
    bot = bot_for(tmp_path)
    for text in turns:
        await say(bot, text)
    for action in ("cancel_order", "create_refund", "create_ticket"):
        assert await executions(bot, action) == [], (turns, action)


async def test_an_action_asked_with_a_pack_request_is_kept(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "T-000031 还没处理，我要转人工")
    assert {t["intent"] for t in out["tasks"]} >= {"ticket_status", "handoff"}
    both = await say(bot, "地址填错了，帮我取消100998吧", session="s2")
    assert "cancel_order" in {t["intent"] for t in both["tasks"]}
    assert "get_order" not in both["reply"] and "order_id" not in both["reply"]


async def test_an_amount_said_in_a_second_clause_is_the_amount_offered(tmp_path: Path) -> None:
    bot = bot_for(tmp_path)
    out = await say(bot, "我想退100609的钱，退一百就行")
    assert "¥100.00" in out["reply"] and "866" not in out["reply"]
    await say(bot, "好的")
    assert await refunds_of(bot, "100609") == [100.0]
