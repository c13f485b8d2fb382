"""The loyalty pack (examples/loyalty) through the whole graph on the minimal tier, zh and en:
understood from its own patterns, its write idempotent, its money confirmed first — each
counted in the pack's own audit log, not only in the reply text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.degrade.clock import FakeClock
from helpdesk.examples.loyalty import LoyaltyBackend, loyalty_pack
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.tools.journal import MemoryWriteJournal
from tests.integration.shopworld import seeded_copy

CUSTOMER = "C0001"


def loyalty_bot(tmp: Path, backend: LoyaltyBackend, **kw: Any) -> Bot:
    settings = Settings(data_dir=tmp, shop_db_path=seeded_copy(tmp))
    return build_bot(
        settings,
        checkpointer=InMemorySaver(serde=state_serializer()),
        clock=FakeClock(),
        journal=MemoryWriteJournal(),
        packs=[loyalty_pack(backend)],
        **kw,
    )


async def say(bot: Bot, text: str, session: str = "s") -> dict[str, Any]:
    return await run_turn(bot, text, session=session, customer=CUSTOMER)


async def test_loyalty_balance_answered_in_english(tmp_path: Path) -> None:
    bot = loyalty_bot(tmp_path, LoyaltyBackend())
    out = await say(bot, "how many points do I have?")
    assert out["reply"] == "You have 1250 points and ¥0.00 of store credit."
    assert out["validation"]["ok"] is True
    await bot.aclose()


async def test_loyalty_balance_answered_in_chinese(tmp_path: Path) -> None:
    bot = loyalty_bot(tmp_path, LoyaltyBackend())
    out = await say(bot, "我有多少积分")
    assert out["reply"] == "您目前有 1250 积分，购物金余额 ¥0.00。"
    await bot.aclose()


async def test_loyalty_redeem_is_idempotent_and_refused_twice(tmp_path: Path) -> None:
    backend = LoyaltyBackend()
    bot = loyalty_bot(tmp_path, backend)
    out = await say(bot, "please redeem voucher V-SPRING")
    assert (
        out["reply"] == "Voucher V-SPRING is redeemed: 300 points added, you now have 1550 points."
    )
    again = await say(bot, "redeem V-SPRING")
    assert "already redeemed" in again["reply"]
    assert backend.executions("redeem") == 1
    assert backend.balance(CUSTOMER)["points"] == 1550
    await bot.aclose()


async def test_loyalty_redeem_without_code_asks_for_it(tmp_path: Path) -> None:
    backend = LoyaltyBackend()
    bot = loyalty_bot(tmp_path, backend)
    out = await say(bot, "我想兑换券码")
    assert out["reply"] == "请问要兑换哪个券码？格式类似 V-XXXX。"
    assert backend.executions("redeem") == 0
    await bot.aclose()


async def test_loyalty_convert_is_confirmed_first_with_exact_amount(tmp_path: Path) -> None:
    backend = LoyaltyBackend()
    bot = loyalty_bot(tmp_path, backend)
    asked = await say(bot, "convert 500 points to store credit")
    question = 'Shall I convert 500 points into ¥5.00 of store credit? Reply "yes" to confirm.'
    assert asked["reply"] == question
    assert backend.executions("convert") == 0
    done = await say(bot, "yes")
    assert (
        done["reply"] == "Done: 500 points became ¥5.00 of store credit. You have 750 points left."
    )
    again = await say(bot, "yes")
    assert backend.executions("convert") == 1
    assert "Done" not in again["reply"]
    assert backend.balance(CUSTOMER) == {"points": 750, "credit": 5.0, "vouchers": []}
    await bot.aclose()


async def test_loyalty_convert_all_in_chinese_states_the_amount(tmp_path: Path) -> None:
    backend = LoyaltyBackend()
    bot = loyalty_bot(tmp_path, backend)
    asked = await say(bot, "把积分全部换成购物金")
    assert asked["reply"] == "是否将 1200 积分兑换为 ¥12.00 购物金？回复“确认”即可办理。"
    done = await say(bot, "确认")
    assert done["reply"] == "已办理：1200 积分已兑换为 ¥12.00 购物金，剩余 50 积分。"
    assert backend.executions("convert") == 1
    await bot.aclose()


async def test_loyalty_convert_too_many_is_refused_with_the_maximum(tmp_path: Path) -> None:
    backend = LoyaltyBackend()
    bot = loyalty_bot(tmp_path, backend)
    out = await say(bot, "convert 5000 points into credit")
    assert out["reply"] == (
        "I can't convert that many points: at most 1200 points (¥12.00 of store credit) can be "
        "converted."
    )
    assert backend.executions("convert") == 0
    await bot.aclose()


async def test_loyalty_convert_declined_or_negated_never_runs(tmp_path: Path) -> None:
    backend = LoyaltyBackend()
    bot = loyalty_bot(tmp_path, backend)
    await say(bot, "convert 500 points to store credit")
    await say(bot, "no")
    await say(bot, "yes")
    negated = await say(bot, "don't convert my points")
    assert "convert" not in negated["reply"].lower() or "Shall I" not in negated["reply"]
    assert backend.executions("convert") == 0
    await bot.aclose()


async def test_loyalty_pack_leaves_the_shop_answers_alone(tmp_path: Path) -> None:
    bot = loyalty_bot(tmp_path, LoyaltyBackend())
    out = await say(bot, "where is order 100683?")
    assert "100683" in out["reply"] and out["tool_results"][0]["tool"] == "track_shipment"
    await bot.aclose()


async def test_loyalty_questioning_yes_asks_again_then_a_yes_runs_it_once(tmp_path: Path) -> None:
    backend = LoyaltyBackend()
    bot = loyalty_bot(tmp_path, backend)
    await say(bot, "convert 500 points to store credit")
    again = await say(bot, "yes?")
    assert "Shall I convert 500 points" in again["reply"]
    assert backend.executions("convert") == 0
    done = await say(bot, "yes")
    assert done["reply"].startswith("Done") and backend.executions("convert") == 1
    await bot.aclose()
