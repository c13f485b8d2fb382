"""Identity everywhere: a session's owner is enforced inside the graph, whatever invokes it."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.session import (
    MissingCustomerError,
    SessionOwnerError,
    TurnError,
    UnknownCustomerError,
    run_turn,
)
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot
from helpdesk.graph.checkpoint import state_serializer
from tests.integration.shopworld import seeded_copy
from tests.integration.test_cli import helpdesk


@pytest.fixture
def bot(tmp_path: Path) -> Bot:
    settings = Settings(data_dir=tmp_path, shop_db_path=seeded_copy(tmp_path))
    return build_bot(settings, checkpointer=InMemorySaver(serde=state_serializer()))


def _config(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


async def _invoke(graph: Any, text: str, *, thread: str, customer: str) -> dict[str, Any]:
    """What LangGraph Studio / ``langgraph dev`` does: the compiled graph, no session API."""
    return dict(
        await graph.ainvoke(
            {"messages": [HumanMessage(content=text)], "customer": customer, "session": thread},
            _config(thread),
        )
    )


async def test_graph_refuses_another_customer_on_an_existing_thread(bot: Bot) -> None:
    first = await _invoke(bot.graph, "where is order 100683?", thread="t1", customer="C0001")
    assert "YT9433239273" in first["messages"][-1].content
    before = (await bot.graph.aget_state(_config("t1"))).values

    with pytest.raises(SessionOwnerError, match="session 't1' belongs to another customer"):
        await _invoke(bot.graph, "where is order 100683?", thread="t1", customer="C0002")

    after = (await bot.graph.aget_state(_config("t1"))).values
    assert after["owner"] == "C0001" and after["customer"] == "C0001"
    assert [m.content for m in after["messages"]] == [m.content for m in before["messages"]]
    assert after["results"] == before["results"] and after["turn"] == before["turn"]


async def test_graph_input_cannot_set_the_owner(bot: Bot) -> None:
    await _invoke(bot.graph, "hi", thread="t2", customer="C0001")
    with pytest.raises(SessionOwnerError):
        await bot.graph.ainvoke(
            {
                "messages": [HumanMessage(content="my orders")],
                "customer": "C0002",
                "owner": "C0002",
            },
            _config("t2"),
        )
    assert (await bot.graph.aget_state(_config("t2"))).values["owner"] == "C0001"


async def test_graph_owner_continues_after_a_refused_intruder(bot: Bot) -> None:
    await _invoke(bot.graph, "where is order 100683?", thread="t3", customer="C0001")
    with pytest.raises(SessionOwnerError):
        await _invoke(bot.graph, "我的订单有哪些", thread="t3", customer="C0002")
    out = await _invoke(bot.graph, "when will it arrive?", thread="t3", customer="C0001")
    assert "2026-10-31" in out["messages"][-1].content
    humans = [m.content for m in out["messages"] if m.type == "human"]
    assert humans == ["where is order 100683?", "when will it arrive?"]


async def test_graph_refused_turn_calls_no_tool(bot: Bot, tmp_path: Path) -> None:
    await _invoke(bot.graph, "hi", thread="t4", customer="C0001")
    audit_before = _audit_rows(tmp_path)
    with pytest.raises(SessionOwnerError):
        await _invoke(bot.graph, "cancel order 100998", thread="t4", customer="C0002")
    with pytest.raises(SessionOwnerError):
        await _invoke(bot.graph, "yes", thread="t4", customer="C0002")
    assert _audit_rows(tmp_path) == audit_before
    state = (await bot.graph.aget_state(_config("t4"))).values
    assert state["results"] == [] and not state["facts"].get("pending")


async def test_graph_refuses_an_empty_customer(bot: Bot) -> None:
    with pytest.raises(MissingCustomerError, match="every turn must name its customer"):
        await _invoke(bot.graph, "where is order 100683?", thread="t5", customer="")
    state = (await bot.graph.aget_state(_config("t5"))).values
    assert state.get("messages", []) == [] and not state.get("owner")


async def test_graph_refuses_an_unknown_customer_clearly(bot: Bot) -> None:
    with pytest.raises(UnknownCustomerError, match="unknown customer 'C9999'"):
        await _invoke(bot.graph, "where is order 100683?", thread="t6", customer="C9999")
    assert not (await bot.graph.aget_state(_config("t6"))).values.get("owner")


async def test_graph_unknown_customer_check_outage_lets_the_turn_run(tmp_path: Path) -> None:
    """The shop is down: that is an outage (the turn runs and says so), not 'unknown customer'."""
    from helpdesk.degrade.chaos import ChaosPlan

    settings = Settings(data_dir=tmp_path, shop_db_path=seeded_copy(tmp_path))
    plan = ChaosPlan.simple({"*": {"unavailable": 1.0}})
    down = build_bot(settings, checkpointer=InMemorySaver(serde=state_serializer()), chaos=plan)
    out = await run_turn(down, "where is order 100683?", session="o", customer="C0001")
    assert out["tool_results"][0]["status"] != "ok"
    assert (await down.graph.aget_state(_config("o"))).values["owner"] == "C0001"
    assert ("identify", plan.injected[0][1]) in plan.injected


def _count_tools(bot: Bot) -> list[str]:
    """Records the tool of every request the bot's shop client sends."""
    tools: list[str] = []
    call = bot.client.call

    async def counted(*args: Any, **kwargs: Any) -> Any:
        tools.append(kwargs["tool"])
        return await call(*args, **kwargs)

    bot.client.call = counted  # type: ignore[method-assign]
    return tools


async def test_a_first_turn_with_tool_calls_needs_no_separate_customer_check(bot: Bot) -> None:
    tools = _count_tools(bot)
    out = await run_turn(bot, "where is order 100683?", session="v1", customer="C0001")
    assert "YT9433239273" in out["reply"]
    assert "identify" not in tools and tools  # the tracking call was the check
    await run_turn(bot, "hi", session="v2", customer="C0001")  # served already: not asked
    assert "identify" not in tools


async def test_a_first_turn_without_tool_calls_still_checks_the_customer(bot: Bot) -> None:
    tools = _count_tools(bot)
    await run_turn(bot, "hi", session="v3", customer="C0002")
    assert tools == ["identify"]
    state = (await bot.graph.aget_state(_config("v3"))).values
    assert state["owner"] == "C0002" and state["owner_unverified"] is False


async def test_an_unknown_customer_is_refused_by_the_first_tool_call_and_nothing_is_kept(
    bot: Bot, tmp_path: Path
) -> None:
    audit_before = _audit_rows(tmp_path)
    with pytest.raises(UnknownCustomerError, match="unknown customer 'C9999'"):
        await run_turn(
            bot, "cancel order 100998 and where is 100683", session="v4", customer="C9999"
        )
    state = (await bot.graph.aget_state(_config("v4"))).values
    assert not state.get("owner") and not state.get("messages")
    assert not state.get("results") and not (state.get("facts") or {}).get("pending")
    assert _audit_rows(tmp_path) == audit_before


async def test_a_message_without_a_language_asks_for_the_profile_up_front(bot: Bot) -> None:
    tools = _count_tools(bot)
    out = await run_turn(bot, "100683", session="v5", customer="C0001")  # profile zh
    assert tools[0] == "identify"
    assert "运单" in out["reply"] or "物流" in out["reply"]


async def test_session_api_refuses_empty_and_unknown_customers(bot: Bot) -> None:
    with pytest.raises(MissingCustomerError):
        await run_turn(bot, "hi", session="e", customer="")
    with pytest.raises(MissingCustomerError):
        await run_turn(bot, "hi", session="e", customer="   ")
    with pytest.raises(UnknownCustomerError):
        await run_turn(bot, "hi", session="u", customer="C9999")
    assert issubclass(UnknownCustomerError, TurnError)


async def test_bot_turn_refuses_another_customer(bot: Bot) -> None:
    await bot.turn("where is order 100683?", session="b", customer="C0001")
    with pytest.raises(SessionOwnerError):
        await bot.turn("where is order 100683?", session="b", customer="C0002")


async def test_studio_graph_refuses_another_customer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The module-level graph langgraph.json serves, with a checkpointer as the server adds."""
    seeded_copy(tmp_path)
    monkeypatch.setenv("HELPDESK_DATA_DIR", str(tmp_path))
    studio = importlib.reload(importlib.import_module("helpdesk.app.studio"))
    graph = studio.graph.copy(update={"checkpointer": InMemorySaver(serde=state_serializer())})
    first = await _invoke(graph, "where is order 100683?", thread="st", customer="C0001")
    assert "YT9433239273" in first["messages"][-1].content
    with pytest.raises(SessionOwnerError):
        await _invoke(graph, "where is order 100683?", thread="st", customer="C0002")
    state = (await graph.aget_state(_config("st"))).values
    assert state["owner"] == "C0001"
    assert [m.content for m in state["messages"] if m.type == "human"] == ["where is order 100683?"]


def test_cli_refuses_another_customer_cleanly(tmp_path: Path) -> None:
    seeded_copy(tmp_path)
    ok = helpdesk(tmp_path, "chat", "-m", "where is order 100683?", "--session", "c1")
    assert ok.returncode == 0, ok.stderr
    proc = helpdesk(
        tmp_path, "chat", "-m", "where is order 100683?", "--session", "c1", "--customer", "C0002"
    )
    assert proc.returncode == 2
    assert "session 'c1' belongs to another customer" in proc.stderr
    assert "Traceback" not in proc.stderr and "YT9433239273" not in proc.stdout


def test_cli_empty_customer_is_an_error_not_the_default(tmp_path: Path) -> None:
    seeded_copy(tmp_path)
    proc = helpdesk(tmp_path, "chat", "-m", "where is order 100683?", "--customer", "")
    assert proc.returncode == 2
    assert "every turn must name its customer" in proc.stderr
    assert "Traceback" not in proc.stderr and "YT9433239273" not in proc.stdout


def test_cli_unknown_customer_is_named_not_an_outage(tmp_path: Path) -> None:
    seeded_copy(tmp_path)
    proc = helpdesk(tmp_path, "chat", "-m", "where is order 100683?", "--customer", "C9999")
    assert proc.returncode == 2
    assert "unknown customer 'C9999'" in proc.stderr and "Traceback" not in proc.stderr


def _audit_rows(tmp_path: Path) -> list[tuple[Any, ...]]:
    import sqlite3

    with sqlite3.connect(tmp_path / "shop.sqlite") as conn:
        return list(conn.execute("SELECT action, target, status_code FROM audit_log"))
