"""A deployment with only a pack that brings no template matcher (the loyalty example): the
engine reads greetings and answers to its own question itself, the pack's patterns claim its
requests, and money still waits for an unqualified yes — counted in the pack's own backend."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.degrade.clock import FakeClock
from helpdesk.examples.loyalty import LoyaltyBackend, loyalty_pack
from helpdesk.graph.builder import build_graph
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import PackEnv, PackSet

CUSTOMER = "C0001"


def loyalty_only(backend: LoyaltyBackend) -> Any:
    packs = PackSet([loyalty_pack(backend)])
    clock = FakeClock()
    registry = packs.build_registry(PackEnv(options={}))
    return build_graph(
        executor=ResilientExecutor(registry, clock=clock),
        packs=packs,
        clock=clock,
        checkpointer=InMemorySaver(serde=state_serializer()),
    )


async def say(graph: Any, text: str, session: str = "s") -> str:
    config = {"configurable": {"thread_id": session}}
    turn = {"messages": [HumanMessage(text)], "customer": CUSTOMER, "session": session}
    state = await graph.ainvoke(turn, config)
    return str(state["messages"][-1].content)


async def test_points_conversions_wait_for_a_yes_with_no_matcher_pack_loaded() -> None:
    backend = LoyaltyBackend()
    graph = loyalty_only(backend)
    assert "points" in (await say(graph, "how many points do I have?")).lower()
    asked = await say(graph, "convert 500 points to store credit")
    assert "Shall I convert 500 points" in asked and backend.executions("convert") == 0
    assert "Done" not in await say(graph, "yes?")  # a questioning yes runs nothing
    assert backend.executions("convert") == 0
    done = await say(graph, "yes")
    assert done.startswith("Done") and backend.executions("convert") == 1
    assert backend.executions("convert") == 1


async def test_a_no_and_small_talk_are_read_by_the_engine() -> None:
    backend = LoyaltyBackend()
    graph = loyalty_only(backend)
    greeting = await say(graph, "hi")
    assert (greeting and "points" not in greeting.lower()) or "help" in greeting.lower()
    await say(graph, "把积分全部换成购物金")
    declined = await say(graph, "不用了")
    assert "取消" in declined or "不" in declined
    assert "已办理" not in await say(graph, "好的")  # nothing waits any more: an acknowledgement
    assert backend.executions("convert") == 0
