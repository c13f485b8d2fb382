"""A long Chinese conversation through the graph: compaction at the watermark keeps the facts."""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import build_bot
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.graph.compaction import CompactionPolicy
from helpdesk.graph.tokens import MESSAGE_OVERHEAD, get_encoding
from tests.integration.shopworld import seeded_copy

TURNS = [
    "你好",
    "我想先发两件，剩下的以后再发",
    "订单100683发货了吗？",
    "订单100200的物流到哪了？",
    "SKU-1001 还有货吗？",
    "退货政策是什么？",
    "订单100998现在是什么状态？",
    "多久能到？",
]


def tiktoken_count(messages: list[object]) -> int:
    encoding = get_encoding()
    total = 0
    for message in messages:
        content = getattr(message, "content", "")
        total += len(encoding.encode(str(content))) + MESSAGE_OVERHEAD
    return total


async def test_sixty_turn_chinese_conversation_compacts_and_keeps_facts(tmp_path: Path) -> None:
    window = 3000
    settings = Settings(
        data_dir=tmp_path, shop_db_path=seeded_copy(tmp_path), context_window=window
    )
    bot = build_bot(settings, checkpointer=InMemorySaver(serde=state_serializer()))
    threshold = CompactionPolicy(window_tokens=window).threshold_tokens
    compactions = 0
    config = {"configurable": {"thread_id": "long"}}
    for turn in range(64):
        before = (await bot.graph.aget_state(config)).values.get("messages", [])
        text = TURNS[turn % len(TURNS)]
        out = await run_turn(bot, text, session="long", customer="C0001")
        assert out["reply"].strip()
        state = (await bot.graph.aget_state(config)).values
        counted = tiktoken_count([*before, HumanMessage(content=text)])
        if counted >= threshold:
            compactions += 1
            assert state.get("summary") is not None
            assert len(state["messages"]) < len(before) + 2
        else:
            assert len(state["messages"]) == len(before) + 2
        for message in state["messages"]:
            assert not isinstance(message, ToolMessage | AIMessage) or not getattr(
                message, "tool_calls", None
            )
    assert compactions >= 3
    facts = state["facts"]
    for order_id in ("100683", "100200", "100998"):
        assert order_id in facts["order_ids"]
    assert any("先发两件" in p for p in facts["preferences"])
    summary_text = " ".join(str(m.content) for m in state["messages"])
    assert "先发两件" in summary_text
    # the bot still knows the last order after compaction
    out = await run_turn(bot, "多久能到？", session="long", customer="C0001")
    assert out["tasks"][0]["args"] == {"order_id": "100998"}
