"""Packs with model tiers: real ChatOpenAI clients against the scripted OpenAI-compatible
server. A model may decompose into a pack's intent and pick its tool; confirmation, the exact
question and the backend's audit behave as on the minimal tier; a tool registered without a
capability is used by the models and rendered truthfully when the minimal tier writes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.degrade.clock import FakeClock
from helpdesk.examples.loyalty import LoyaltyBackend, loyalty_pack
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.testing.llm_server import (
    LLMFault,
    Reply,
    ScriptedLLM,
    create_llm_app,
    llm_http_client,
)
from helpdesk.tools.packs import Pack, PackEnv
from helpdesk.tools.registry import ToolRegistry
from tests.integration.shopworld import seeded_copy
from tests.integration.test_graph_tiers import assert_answered_by

PRIMARY = "primary-model"
CHECKED = Reply.calls(("CheckResult", {"answered_all": True, "missing": []}))


@pytest.fixture
def script() -> ScriptedLLM:
    return ScriptedLLM()


@pytest.fixture
async def llm(script: ScriptedLLM) -> AsyncIterator[httpx.AsyncClient]:
    async with llm_http_client(create_llm_app(script)) as client:
        yield client


def make_bot(tmp: Path, llm: httpx.AsyncClient, packs: list[Pack]) -> Bot:
    settings = Settings(
        data_dir=tmp,
        shop_db_path=seeded_copy(tmp),
        primary_model=f"openai_compatible:{PRIMARY}",
        primary_base_url="http://llm.test/v1",
        model_timeout_s=2.0,
    )
    return build_bot(
        settings,
        checkpointer=InMemorySaver(serde=state_serializer()),
        clock=FakeClock(),
        http_async_client=llm,
        packs=packs,
    )


async def say(bot: Bot, text: str) -> dict[str, Any]:
    return await run_turn(bot, text, session="t", customer="C0001")


async def test_pack_model_tier_decomposes_into_a_pack_intent(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    answer = "You have 1250 points and ¥0.00 of store credit."
    script.add(
        PRIMARY,
        Reply.calls(("DecomposeResult", {"tasks": [{"intent": "points_balance"}]})),
        Reply.calls(("points_balance", {})),
        Reply.text(answer),
        CHECKED,
    )
    bot = make_bot(tmp_path, llm, [loyalty_pack(LoyaltyBackend())])
    out = await say(bot, "how many points have I got")
    assert_answered_by(out, "primary")
    assert [(r["tool"], r["status"]) for r in out["tool_results"]] == [("points_balance", "ok")]
    assert out["reply"] == answer and out["validation"]["ok"] is True
    assert script.exhausted == []
    await bot.aclose()


async def test_pack_model_tier_money_is_asked_exactly_and_runs_once(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    backend = LoyaltyBackend()
    script.add(
        PRIMARY,
        Reply.calls(("DecomposeResult", {"tasks": [{"intent": "convert_points"}]})),
        Reply.calls(("convert_points", {"points": 500})),
        Reply.text("好的，这就为您办理积分兑换。"),  # the model paraphrased the question away
        CHECKED,
    )
    bot = make_bot(tmp_path, llm, [loyalty_pack(backend)])
    asked = await say(bot, "把500积分换成购物金")
    question = "是否将 500 积分兑换为 ¥5.00 购物金？回复“确认”即可办理。"
    assert asked["reply"].endswith(question)  # appended verbatim: the yes is read against it
    assert backend.executions("convert") == 0
    done_text = "已办理：500 积分已兑换为 ¥5.00 购物金，剩余 750 积分。"
    script.add(PRIMARY, Reply.text(done_text), CHECKED)
    done = await say(bot, "确认")
    assert done["reply"] == done_text
    assert backend.executions("convert") == 1
    assert backend.balance("C0001")["credit"] == 5.0
    await bot.aclose()


async def test_pack_model_tier_cannot_add_an_unasked_pack_write(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    backend = LoyaltyBackend()
    script.add(
        PRIMARY,
        Reply.calls(("DecomposeResult", {"tasks": [{"intent": "points_balance"}]})),
        Reply.calls(("points_balance", {}), ("redeem_voucher", {"code": "V-SPRING"})),
        Reply.text("You have 1250 points and ¥0.00 of store credit."),
        CHECKED,
    )
    bot = make_bot(tmp_path, llm, [loyalty_pack(backend)])
    out = await say(bot, "my points balance please")
    assert [r["tool"] for r in out["tool_results"]] == ["points_balance"]
    assert backend.executions("redeem") == 0
    await bot.aclose()


def _bare_tool_pack() -> Pack:
    def tools(env: PackEnv) -> ToolRegistry:
        registry = ToolRegistry()

        @registry.tool(kind="read")
        def loyalty_points(customer: str | None = None) -> dict[str, Any]:
            """Loyalty points of the customer."""
            return {"balance": 420}

        return registry

    return Pack(name="bare", capabilities=(), tools=tools)


async def test_tool_without_capability_used_by_model_rendered_by_minimal(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    script.add(
        PRIMARY,
        Reply.calls(("DecomposeResult", {"tasks": [{"intent": "unknown"}]})),
        Reply.calls(("loyalty_points", {})),
    )
    script.always(PRIMARY, LLMFault.unavailable())  # the model goes down before it can write
    bot = make_bot(tmp_path, llm, [_bare_tool_pack()])
    out = await say(bot, "how many points do I have?")
    assert out["tiers"]["generate"] == "minimal"
    assert [(r["tool"], r["status"]) for r in out["tool_results"]] == [("loyalty_points", "ok")]
    assert "Here is what that request (loyalty_points) returned: balance: 420" in out["reply"]
    assert "can't confirm" not in out["reply"]
    assert out["validation"]["ok"] is True
    await bot.aclose()
