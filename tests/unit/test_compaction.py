"""Context compaction: tiktoken counts, watermark, summary with facts, tool units, reset, tally."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.messages.utils import MessageLikeRepresentation
from langgraph.graph.message import add_messages

from helpdesk.graph.compaction import (
    NOTE_KEY,
    SUMMARY_ID,
    CompactionPolicy,
    CompactionResult,
    IncrementalTokenTally,
    count_messages,
    needs_compaction,
    shrink_tool_content,
)
from helpdesk.graph.compaction import compact as compact_with_packs
from helpdesk.graph.tokens import MESSAGE_OVERHEAD, count_tokens, get_encoding
from helpdesk.packs import default_packs

SHOP = default_packs()


def compact(
    messages: Sequence[BaseMessage], facts: dict[str, Any], policy: CompactionPolicy, **kw: Any
) -> CompactionResult:
    """Compaction with the demo shop loaded (its key and fact fields)."""
    return compact_with_packs(messages, facts, policy, packs=SHOP, **kw)


ORDERS = [str(100101 + 7 * k) for k in range(10)]
PREFERENCES = ["先发两件，剩下的以后再发", "请不要打电话，有事发短信", "送到公司", "周末送货"]


def _order_data(order: str, turn: int) -> dict[str, Any]:
    return {
        "order_id": order,
        "customer_id": "C0001",
        "status": "shipped",
        "total": 299.0,
        "currency": "CNY",
        "items": [{"sku": "SKU-1001", "name": "Kettle", "name_zh": "电水壶", "quantity": 4}],
        "shipments": [
            {
                "shipment_id": f"S-{turn:06d}",
                "carrier": "SF",
                "tracking_number": f"SF{1000000000 + turn}",
                "status": "in_transit",
                "eta": "2026-11-05",
                "events": [
                    {"at": "2026-11-03T09:15:00Z", "description_zh": "快件已到达上海转运中心"}
                ],
            }
        ],
    }


def chinese_conversation(turns: int = 64) -> list[BaseMessage]:
    """A Chinese session: preferences first, an order lookup every third turn, notes every fifth."""
    messages: list[BaseMessage] = []

    def next_id() -> str:
        return f"m{len(messages):04d}"

    for turn in range(turns):
        order = ORDERS[turn % len(ORDERS)]
        if turn < len(PREFERENCES):
            text = f"我的订单{order}。{PREFERENCES[turn]}。"
        else:
            text = f"请帮我查一下订单{order}现在的物流状态，什么时候能送到上海？谢谢。"
        messages.append(HumanMessage(text, id=next_id()))
        if turn % 3 == 0:
            call = {"id": f"call_{turn}", "name": "get_order", "args": {"order_id": order}}
            messages.append(AIMessage("", id=next_id(), tool_calls=[call]))
            content = json.dumps(_order_data(order, turn), ensure_ascii=False)
            messages.append(
                ToolMessage(content, tool_call_id=call["id"], name="get_order", id=next_id())
            )
        messages.append(
            AIMessage(
                f"您好，订单{order}已经发货，运单号SF{1000000000 + turn}，预计11月5日送达。"
                "如有其他问题请随时联系我们。",
                id=next_id(),
            )
        )
        if turn % 5 == 4:
            note = SystemMessage(
                "注意：物流接口响应较慢。", id=next_id(), additional_kwargs={NOTE_KEY: True}
            )
            messages.append(note)
    return messages


def tiktoken_count(messages: Sequence[BaseMessage]) -> int:
    """The count done by hand with tiktoken: content, tool calls' JSON, per-message overhead."""
    encoding = get_encoding()
    total = 0
    for message in messages:
        assert isinstance(message.content, str)
        total += len(encoding.encode(message.content)) + MESSAGE_OVERHEAD
        if isinstance(message, AIMessage) and message.tool_calls:
            calls = [
                {"id": c["id"], "name": c["name"], "args": c["args"]} for c in message.tool_calls
            ]
            text = json.dumps(calls, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            total += len(encoding.encode(text))
    return total


def all_text(messages: Sequence[BaseMessage]) -> str:
    return "\n".join(str(m.content) for m in messages)


def assert_tool_units_intact(messages: Sequence[BaseMessage]) -> None:
    """Every tool call answered right after its AI message; no ToolMessage without its call."""
    index = 0
    while index < len(messages):
        message = messages[index]
        assert not isinstance(message, ToolMessage), f"orphan ToolMessage {message.id}"
        index += 1
        if isinstance(message, AIMessage) and message.tool_calls:
            pending = {c["id"] for c in message.tool_calls}
            while index < len(messages) and isinstance(messages[index], ToolMessage):
                tool = messages[index]
                assert isinstance(tool, ToolMessage)
                assert tool.tool_call_id in pending, f"orphan ToolMessage {tool.id}"
                pending.discard(tool.tool_call_id)
                index += 1
            assert not pending, f"AIMessage {message.id} lacks results for {pending}"


def apply_update(history: list[BaseMessage], update: list[BaseMessage]) -> list[BaseMessage]:
    """What LangGraph's ``add_messages`` reducer makes of ``history`` after ``update``."""
    left = cast(list[MessageLikeRepresentation], history)
    right = cast(list[MessageLikeRepresentation], update)
    return cast(list[BaseMessage], add_messages(left, right))


def last_human(messages: Sequence[BaseMessage]) -> BaseMessage:
    return [m for m in messages if isinstance(m, HumanMessage)][-1]


def policy_for(messages: Sequence[BaseMessage], fraction: float) -> CompactionPolicy:
    """A policy whose window is ``fraction`` of the history's tokens."""
    return CompactionPolicy(window_tokens=int(tiktoken_count(messages) * fraction))


# --- counting -----------------------------------------------------------------------------------


def test_count_messages_matches_tiktoken_for_chinese() -> None:
    messages = chinese_conversation(8)

    assert count_messages(messages) == tiktoken_count(messages)


def test_needs_compaction_flips_exactly_at_the_watermark() -> None:
    history = chinese_conversation(64)
    policy = policy_for(history, 0.8)
    watermark = 0.75 * policy.window_tokens
    seen: list[bool] = []
    running = 0
    for size, message in enumerate(history, start=1):
        running += tiktoken_count([message])
        expected = running >= watermark
        assert needs_compaction(history[:size], policy) is expected, size
        seen.append(expected)

    flip = seen.index(True)
    assert flip > 0
    assert not any(seen[:flip])
    assert all(seen[flip:])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"window_tokens": 0},
        {"window_tokens": 100, "watermark": 0.0},
        {"window_tokens": 100, "watermark": 1.5},
        {"window_tokens": 100, "keep_last_turns": 0},
        {"window_tokens": 100, "reserve_tokens": 100},
        {"window_tokens": 100, "reserve_tokens": -1},
        {"window_tokens": 100, "summary_tokens": -1},
    ],
)
def test_compaction_policy_rejects_invalid_settings(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        CompactionPolicy(**kwargs)


def test_compaction_policy_threshold_uses_budget_after_reserve() -> None:
    policy = CompactionPolicy(window_tokens=1000, reserve_tokens=200, watermark=0.75)

    assert (policy.budget_tokens, policy.threshold_tokens) == (800, 600)


# --- compaction ---------------------------------------------------------------------------------


def test_compact_keeps_every_order_id_and_preference_of_a_long_chinese_session() -> None:
    history = chinese_conversation(64)
    policy = policy_for(history, 0.8)

    result = compact(history, {"customer": "C0001"}, policy)

    text = all_text(result.messages)
    assert [o for o in ORDERS if o not in text] == []
    assert [p for p in PREFERENCES if p not in text] == []
    assert "C0001" in text
    assert result.report.compacted and not result.report.reset
    assert result.report.tokens_before == tiktoken_count(history)
    assert result.report.tokens_after == tiktoken_count(result.messages)
    assert result.report.tokens_after < result.report.tokens_before
    assert result.report.tokens_after < 0.75 * policy.window_tokens


def test_compact_puts_facts_in_the_summary_message_first() -> None:
    history = chinese_conversation(64)

    result = compact(history, {}, policy_for(history, 0.8))

    summary = result.messages[0]
    assert isinstance(summary, SystemMessage) and summary.id == SUMMARY_ID
    assert str(summary.content).startswith("[会话摘要]\n已知信息：\n- 订单：")
    assert result.facts["preferences"] == PREFERENCES
    assert sorted(result.facts["order_ids"]) == ORDERS


def test_compact_keeps_the_last_three_turns_verbatim() -> None:
    history = chinese_conversation(64)
    humans = [i for i, m in enumerate(history) if isinstance(m, HumanMessage)]
    tail = [m for m in history[humans[-3] :] if not m.additional_kwargs.get(NOTE_KEY)]

    result = compact(history, {}, policy_for(history, 0.8))

    assert result.messages[1:] == tail


def test_compact_reports_what_it_dropped() -> None:
    history = chinese_conversation(64)

    result = compact(history, {}, policy_for(history, 0.8))

    assert result.report.dropped == {
        "turns_summarized": 61,
        "tool_results_shrunk": 21,
        "notes_dropped": 12,
        "messages_removed": len(history) - len(result.messages) + 1,
    }
    assert result.report.summarizer == "extractive"
    assert result.report.as_log()["turns_summarized"] == 61


def test_compact_below_the_watermark_changes_nothing() -> None:
    history = chinese_conversation(4)

    result = compact(history, {}, policy_for(history, 2.0), previous_summary="old")

    assert result.messages == history
    assert (result.report.compacted, result.removals, result.summary) == (False, [], "old")
    assert result.as_update() == []
    assert result.report.dropped == {
        "turns_summarized": 0,
        "tool_results_shrunk": 0,
        "notes_dropped": 0,
        "messages_removed": 0,
    }


def test_compact_shrinks_folded_tool_results_to_key_fields() -> None:
    history = chinese_conversation(64)

    result = compact(history, {}, policy_for(history, 0.8))

    summary = str(result.messages[0].content)
    assert '"tracking_number":"SF1000000045"' in summary
    assert "events" not in summary and "customer_id" not in summary


def test_shrink_tool_content_keeps_error_codes() -> None:
    content = json.dumps({"error": {"code": "order_not_found", "message": "No such order"}})

    assert shrink_tool_content(content) == '{"error":{"code":"order_not_found"}}'


def test_compact_drops_notes_older_than_the_last_turn_only() -> None:
    old_note = SystemMessage("旧提示" * 50, id="n1", additional_kwargs={NOTE_KEY: True})
    new_note = SystemMessage("新提示", id="n2", additional_kwargs={NOTE_KEY: True})
    history: list[BaseMessage] = [
        HumanMessage("订单100123到哪了", id="h1"),
        old_note,
        AIMessage("已发货", id="a1"),
        HumanMessage("谢谢", id="h2"),
        new_note,
    ]
    policy = CompactionPolicy(window_tokens=tiktoken_count(history), keep_last_turns=3)

    result = compact(history, {}, policy)

    assert [m.id for m in result.messages] == ["h1", "a1", "h2", "n2"]
    assert result.report.dropped["notes_dropped"] == 1
    assert result.removals == [RemoveMessage(id="n1")]


def test_compact_folds_a_tool_call_without_its_results() -> None:
    call = {"id": "c1", "name": "get_order", "args": {"order_id": "100123", "q": "物流" * 100}}
    history: list[BaseMessage] = [
        HumanMessage("查订单100123", id="h1"),
        AIMessage("", id="a1", tool_calls=[call]),
        HumanMessage("还在吗" * 30, id="h2"),
        ToolMessage('{"order_id": "100456"}', tool_call_id="zz", id="t9"),
        HumanMessage("在吗", id="h3"),
    ]
    policy = CompactionPolicy(window_tokens=2 * tiktoken_count(history), watermark=0.5)

    result = compact(history, {}, policy)

    assert_tool_units_intact(result.messages)
    assert [m.id for m in result.messages] == [SUMMARY_ID, "h1", "h2", "h3"]
    assert "100456" in str(result.messages[0].content)


def test_compact_requires_message_ids() -> None:
    with pytest.raises(ValueError, match="message ids"):
        compact([HumanMessage("hi")], {}, CompactionPolicy(window_tokens=1))


def test_compact_rejects_duplicate_ids() -> None:
    history = [HumanMessage("hi", id="x"), AIMessage("hello", id="x")]

    with pytest.raises(ValueError, match="duplicate message id 'x'"):
        compact(history, {}, CompactionPolicy(window_tokens=1))


def test_compact_result_applies_through_add_messages() -> None:
    history = chinese_conversation(64)
    result = compact(history, {}, policy_for(history, 0.8))

    state = apply_update(history, result.as_update())

    assert [(m.id, m.content) for m in state] == [(m.id, m.content) for m in result.messages]


def test_compact_removals_name_every_dropped_id() -> None:
    history = chinese_conversation(64)
    result = compact(history, {}, policy_for(history, 0.8))

    kept = {m.id for m in result.messages}
    assert [r.id for r in result.removals] == [m.id for m in history if m.id not in kept]


def test_compact_extends_the_previous_summary() -> None:
    history = chinese_conversation(64)
    first = compact(history, {}, policy_for(history, 0.8))
    later = [*first.messages, *chinese_conversation(64)[-40:]]
    later = [m.model_copy(update={"id": f"{m.id}-b{i}"}) for i, m in enumerate(later)]
    later[0] = first.messages[0]

    second = compact(later, first.facts, policy_for(later, 0.8), previous_summary=first.summary)

    assert second.report.compacted
    assert [p for p in PREFERENCES if p not in all_text(second.messages)] == []


def test_compact_uses_the_summarize_hook_once() -> None:
    history = chinese_conversation(64)
    received: list[list[BaseMessage]] = []

    def summarize(messages: list[BaseMessage]) -> str:
        received.append(messages)
        return "客户多次查询物流。"

    result = compact(
        history, {}, policy_for(history, 0.8), summarize=summarize, previous_summary="旧摘要"
    )

    assert len(received) == 1
    assert received[0][0] == SystemMessage("旧摘要")
    assert result.summary == "客户多次查询物流。"
    assert result.report.summarizer == "model"
    assert str(result.messages[0].content).endswith("\n客户多次查询物流。")


def test_a_model_summary_is_applied_after_the_compaction_without_running_it_again() -> None:
    history = chinese_conversation(64)
    extractive = compact(history, {}, policy_for(history, 0.8), previous_summary="旧摘要")

    assert extractive.report.summarizer == "extractive"
    assert extractive.folded[0] == SystemMessage("旧摘要")  # what a model tier would summarize
    model = extractive.with_summary("客户多次查询物流。")

    assert model.summary == "客户多次查询物流。" and model.report.summarizer == "model"
    assert model.facts == extractive.facts
    assert [m.id for m in model.messages[1:]] == [m.id for m in extractive.messages[1:]]
    assert not model.folded and model.with_summary("again") is model  # a model's already
    assert extractive.with_summary("  ") is extractive  # nothing said: extractive stays


def test_with_summary_on_an_uncompacted_history_changes_nothing() -> None:
    history = chinese_conversation(2)
    result = compact(history, {}, policy_for(history, 10.0))
    assert not result.report.compacted and not result.folded
    assert result.with_summary("摘要") is result


def test_compact_falls_back_to_extractive_when_the_hook_fails() -> None:
    history = chinese_conversation(64)

    def summarize(messages: list[BaseMessage]) -> str:
        raise TimeoutError("model down")

    result = compact(history, {}, policy_for(history, 0.8), summarize=summarize)

    assert result.report.summarizer == "extractive"
    assert "- 客服：" in result.summary


def test_compact_resets_when_the_last_turn_alone_overflows() -> None:
    history: list[BaseMessage] = [
        HumanMessage("订单100123请先发两件，剩下的以后再发。", id="h1"),
        AIMessage("好的。", id="a1"),
        HumanMessage("订单100456到哪了？", id="h2"),
        AIMessage("物流信息如下：" + "上海转运中心。" * 400, id="a2"),
    ]
    policy = CompactionPolicy(window_tokens=300)

    result = compact(history, {"customer": "C0001"}, policy)

    assert result.report.reset and result.report.compacted
    assert [m.id for m in result.messages] == [SUMMARY_ID, "h2"]
    summary = str(result.messages[0].content)
    assert "100123" in summary and "先发两件，剩下的以后再发" in summary and "C0001" in summary
    assert [r.id for r in result.removals] == ["h1", "a1", "a2"]
    assert result.report.tokens_after == tiktoken_count(result.messages)
    assert result.report.tokens_after <= policy.window_tokens


# --- properties ---------------------------------------------------------------------------------

_TEXTS = [
    "订单100123到哪了？",
    "先发两件，剩下的以后再发。",
    "Please don't call me, order 100456.",
    "好的谢谢",
    "您好，订单100789已发货，运单号SF1234567890。",
    "The refund of 50 CNY was requested.",
]


@st.composite
def histories(draw: st.DrawFn) -> list[BaseMessage]:
    blocks = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["human", "ai", "tools", "note"]),
                st.sampled_from(_TEXTS),
                st.integers(1, 8),
                st.integers(1, 3),
            ),
            min_size=1,
            max_size=30,
        )
    )
    messages: list[BaseMessage] = []
    for kind, text, repeat, calls in [("human", _TEXTS[0], 1, 1), *blocks]:
        body = text * repeat
        mid = f"m{len(messages)}"
        if kind == "human":
            messages.append(HumanMessage(body, id=mid))
        elif kind == "ai":
            messages.append(AIMessage(body, id=mid))
        elif kind == "note":
            messages.append(SystemMessage(body, id=mid, additional_kwargs={NOTE_KEY: True}))
        else:
            ids = [f"{mid}-c{k}" for k in range(calls)]
            tool_calls = [{"id": i, "name": "get_order", "args": {"q": body}} for i in ids]
            messages.append(AIMessage("", id=mid, tool_calls=tool_calls))
            for i in ids:
                data = json.dumps({"order_id": "100123", "status": "paid", "memo": body})
                messages.append(ToolMessage(data, tool_call_id=i, id=f"t-{i}"))
    return messages


def _snapshot(result: CompactionResult) -> list[tuple[str, str | None, str]]:
    return [(type(m).__name__, m.id, str(m.content)) for m in result.messages]


@settings(max_examples=100, deadline=None)
@given(
    history=histories(),
    window=st.integers(40, 3000),
    keep=st.integers(1, 4),
)
def test_compact_properties_over_random_histories(
    history: list[BaseMessage], window: int, keep: int
) -> None:
    policy = CompactionPolicy(window_tokens=window, keep_last_turns=keep)

    result = compact(history, {}, policy)

    assert_tool_units_intact(result.messages)
    assert last_human(history) in result.messages
    again = compact(history, {}, policy)
    assert (_snapshot(again), again.report) == (_snapshot(result), result.report)
    if result.report.compacted and not result.report.reset:
        assert result.report.tokens_after <= policy.budget_tokens
    state = apply_update(history, result.as_update()) if result.report.compacted else history
    assert [m.id for m in state] == [m.id for m in result.messages]


# --- incremental tally --------------------------------------------------------------------------


def _spy_counts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    counted: list[str] = []

    def spy(text: str) -> int:
        counted.append(text)
        return count_tokens(text)

    monkeypatch.setattr("helpdesk.graph.compaction.count_tokens", spy)
    return counted


def test_incremental_tally_counts_only_the_new_message(monkeypatch: pytest.MonkeyPatch) -> None:
    history = chinese_conversation(20)
    tally = IncrementalTokenTally()
    tally.sync(history)
    counted = _spy_counts(monkeypatch)
    new = HumanMessage("请先发两件，剩下的以后再发", id="new")

    total = tally.sync([*history, new])

    assert counted == ["请先发两件，剩下的以后再发"]
    assert total == tiktoken_count([*history, new])


def test_incremental_tally_recounts_a_replaced_message(monkeypatch: pytest.MonkeyPatch) -> None:
    history = chinese_conversation(5)
    tally = IncrementalTokenTally()
    tally.sync(history)
    counted = _spy_counts(monkeypatch)
    replaced = [*history[:-1], history[-1].model_copy(update={"content": "已更新"})]

    assert tally.sync(replaced) == tiktoken_count(replaced)
    assert counted == ["已更新"]


def test_incremental_tally_forgets_removed_messages() -> None:
    history = chinese_conversation(5)
    tally = IncrementalTokenTally()
    tally.sync(history)

    tally.remove(history[0].id or "")

    assert (tally.total, len(tally)) == (tiktoken_count(history[1:]), len(history) - 1)


def test_incremental_tally_follows_a_compaction() -> None:
    history = chinese_conversation(64)
    tally = IncrementalTokenTally()
    tally.sync(history)
    result = compact(history, {}, policy_for(history, 0.8))

    assert tally.sync(result.messages) == result.report.tokens_after


async def test_short_history_is_bounded_without_the_tokenizer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from helpdesk.graph import compaction

    history = [HumanMessage(content="where is order 100683? 我的订单", id="h1")]

    def no_tokenizer() -> None:
        raise AssertionError("the BPE table was loaded for a short history")

    monkeypatch.setattr(compaction, "get_encoding", no_tokenizer)
    monkeypatch.setattr(compaction, "count_messages", lambda _m: no_tokenizer())
    bound = await compaction.count_messages_near(history, threshold=1000)
    assert bound == compaction.utf8_bound(history) < 1000


async def test_history_near_the_watermark_is_counted_exactly() -> None:
    from helpdesk.graph import compaction

    history = [HumanMessage(content="where is order 100683? " * 40, id="h1")]
    bound = compaction.utf8_bound(history)
    exact = compaction.count_messages(history)
    assert exact <= bound  # a cl100k token is at least one byte
    assert await compaction.count_messages_near(history, threshold=bound) == exact
    assert await compaction.count_messages_near(history, threshold=bound + 1) == bound
