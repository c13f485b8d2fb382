"""Whole turns with model tiers: real ChatOpenAI clients against the scripted OpenAI-compatible
server, the demo shop behind the tools. Which tier answered each stage, what each tier was sent,
and how many model calls a turn made are all asserted at the server."""

from __future__ import annotations

import asyncio
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
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.graph.prompting import load_templates
from helpdesk.testing.llm_server import (
    LLMFault,
    Reply,
    ScriptedLLM,
    create_llm_app,
    llm_http_client,
)
from tests.integration.shopworld import seeded_copy

PRIMARY, BACKUP = "primary-model", "backup-model"
DECOMPOSE = Reply.calls(
    ("DecomposeResult", {"tasks": [{"intent": "tracking", "order_id": "100683"}]})
)
SELECT = Reply.calls(("track_shipment", {"order_id": "100683"}))
ANSWER = Reply.text(
    "Order 100683 is on its way: YTO tracking number YT9433239273, expected 2026-10-31."
)
CHECKED = Reply.calls(("CheckResult", {"answered_all": True, "missing": []}))
"""The semantic check's answer, for turns whose coverage the rules cannot see."""
TURN = (DECOMPOSE, SELECT, ANSWER)
"""A turn's model calls: the reply quotes the order it answers about, so the rules can see it
answers everything and no model is asked to check it (graph/coverage.py)."""


@pytest.fixture
def script() -> ScriptedLLM:
    return ScriptedLLM()


@pytest.fixture
async def llm(script: ScriptedLLM) -> AsyncIterator[httpx.AsyncClient]:
    async with llm_http_client(create_llm_app(script)) as client:
        yield client


def assert_answered_by(out: dict[str, Any], tier: str = "primary") -> None:
    """Every stage answered by ``tier``; of the first round (decompose and select_tool, asked
    at once) the stage whose answer came second may be ``rules`` — the round ended at the
    first answer the template matcher's reading corroborated (graph/first_round.py), and which
    answer comes first is the event loop's to decide."""
    tiers = out["tiers"]
    first_round = {tiers["decompose"], tiers["select_tool"]}
    assert tier in first_round and first_round <= {tier, "rules"}, tiers
    assert tiers["generate"] == tier, tiers


def make_bot(tmp: Path, llm: httpx.AsyncClient, **overrides: Any) -> Bot:
    # which first-round answer arrives first is the event loop's to decide: tests not about
    # the first round wait for both (deterministic); the first round's own tests turn it on
    overrides.setdefault("first_round_early", False)
    settings = Settings(
        data_dir=tmp,
        shop_db_path=seeded_copy(tmp),
        primary_model=f"openai_compatible:{PRIMARY}",
        primary_base_url="http://llm.test/v1",
        backup_model=f"openai_compatible:{BACKUP}",
        backup_base_url="http://llm.test/v1",
        model_timeout_s=2.0,
        **overrides,
    )
    return build_bot(
        settings,
        checkpointer=InMemorySaver(serde=state_serializer()),
        clock=FakeClock(),
        http_async_client=llm,
    )


async def ask(bot: Bot, text: str = "Where is my order 100683?") -> dict[str, Any]:
    return await run_turn(bot, text, session="t", customer="C0001")


def system_prompts(script: ScriptedLLM, model: str) -> list[str]:
    return [r.system_prompt for r in script.requests_for(model)]


async def test_primary_answers_every_stage(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    script.add(PRIMARY, *TURN)
    out = await ask(make_bot(tmp_path, llm, first_round_early=True))
    assert_answered_by(out, "primary")
    assert out["reply"] == ANSWER.content
    assert out["tool_results"][0]["tool"] == "track_shipment"
    assert out["tool_results"][0]["status"] == "ok"
    assert len(script.requests_for(PRIMARY)) == 3 and script.requests_for(BACKUP) == []
    decompose_prompt = load_templates("primary", "decompose", "en")["system"].split("{")[0]
    first_two = system_prompts(script, PRIMARY)[:2]
    assert any(p.startswith(decompose_prompt[:40]) for p in first_two)


@pytest.mark.parametrize(
    "fault",
    [
        LLMFault.rate_limited(30.0),
        LLMFault.server_error(500),
        LLMFault.unavailable(),
        LLMFault.empty_choices(),
        LLMFault.refusal(),
    ],
    ids=["429", "500", "503", "empty", "refusal"],
)
async def test_primary_fault_hands_each_stage_to_backup_with_its_own_prompt(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient, fault: LLMFault
) -> None:
    script.always(PRIMARY, fault)
    script.add(BACKUP, *TURN)
    out = await ask(make_bot(tmp_path, llm))
    # the first round may end at whichever backup answer comes first ("rules": the stage it
    # did not wait for, graph/first_round.py); the other stage is the backup's
    first_round = (out["tiers"]["decompose"], out["tiers"]["select_tool"])
    assert set(first_round) <= {"backup", "rules"} and "backup" in first_round
    assert out["tier"] == "backup"
    assert out["reply"] == ANSWER.content
    backup_decompose = load_templates("backup", "decompose", "en")["system"][:40]
    # decompose and select_tool go out in parallel: any order
    assert any(p.startswith(backup_decompose) for p in system_prompts(script, BACKUP)[:2])
    switches = [e for e in out["degrade"]["events"] if e["action"] == "model"]
    assert switches and all(
        "model:primary" in e["target"] or e["target"] == "model:primary" for e in switches[:1]
    )


async def test_both_tiers_down_minimal_answers_with_real_data(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    script.always(PRIMARY, LLMFault.server_error(500))
    script.always(BACKUP, LLMFault.unavailable())
    out = await ask(make_bot(tmp_path, llm), "订单100683的物流到哪了？")
    assert out["tiers"] == {"decompose": "minimal", "select_tool": "minimal", "generate": "minimal"}
    assert "YT9433239273" in out["reply"] and "运输中" in out["reply"]
    assert out["validation"]["ok"] is True
    reasons = " ".join(e["reason"] for e in out["degrade"]["events"])
    assert "minimal tier answered" in reasons


async def test_invalid_tool_call_gets_field_level_correction(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    script.add(
        PRIMARY,
        DECOMPOSE,
        Reply.calls(("track_shipmnt", {"order_id": "100683"})),
        SELECT,
        ANSWER,
    )
    out = await ask(make_bot(tmp_path, llm))
    assert out["tool_results"][0]["tool"] == "track_shipment"
    correction = script.requests_for(PRIMARY)[2]
    last = str(correction.messages[-1]["content"])
    assert "track_shipmnt" in last and "track_shipment" in last  # allowed names listed
    assert any(e["action"] == "self_correct" for e in out["degrade"]["events"])


async def test_confirmation_is_read_by_the_template_matcher_not_a_model(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    bot = make_bot(tmp_path, llm)
    script.add(
        PRIMARY,
        Reply.calls(
            ("DecomposeResult", {"tasks": [{"intent": "cancel_order", "order_id": "100998"}]})
        ),
        Reply.calls(("cancel_order", {"order_id": "100998"})),
        Reply.text('Do you want me to cancel order 100998? Please reply "yes".'),
    )
    ask_out = await ask(bot, "please cancel order 100998")
    assert ask_out["tool_results"][0]["status"] == "needs_confirmation"
    calls_before = len(script.requests)
    script.add(PRIMARY, Reply.text("Order 100998 has been cancelled."))
    done = await ask(bot, "yes")
    assert done["tiers"]["decompose"] == "minimal"
    assert done["tool_results"][0]["status"] == "ok"
    assert len(script.requests) == calls_before + 1  # generate only: the reply quotes 100998


async def test_no_turn_makes_more_model_calls_than_the_budget_allows(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    script.always(PRIMARY, LLMFault.malformed_tool_args())
    script.always(BACKUP, LLMFault.malformed_tool_args())
    bot = make_bot(tmp_path, llm, request_max_retries=3)
    out = await ask(bot)
    # 3 model stages x 2 tiers, plus at most 3 budgeted retries for the whole turn
    assert len(script.requests) <= 3 * 2 + 3
    assert out["reply"].strip() and "YT9433239273" in out["reply"]


async def test_the_stored_turn_carries_its_budget_as_data(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    """Every model stage's schema retry is drawn from the one budget the stored state records
    (issue #11: a resumed run or another process reads the same retries used and deadline)."""
    script.always(PRIMARY, LLMFault.malformed_tool_args())
    script.always(BACKUP, LLMFault.malformed_tool_args())
    bot = make_bot(tmp_path, llm, request_max_retries=2)
    await ask(bot)
    state = (await bot.graph.aget_state({"configurable": {"thread_id": "t"}})).values
    request, degrade = state["request"], state["degrade"]
    assert request.request_id == degrade.request_id
    retries = [e for e in degrade.events if e.action == "retry" and e.target.startswith("model:")]
    assert request.retries_used == len(retries) == 2  # the whole budget, shared by the stages
    assert request.max_retries == 2


async def test_model_written_reply_with_invented_data_is_regenerated(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    script.add(
        PRIMARY,
        DECOMPOSE,
        SELECT,
        Reply.text("Order 100683 arrives tomorrow, tracking SF0000000000."),
        ANSWER,
    )
    out = await ask(make_bot(tmp_path, llm))
    assert out["reply"] == ANSWER.content
    assert out["validation"]["regenerations"] == 1
    feedback_prompt = str(script.requests_for(PRIMARY)[3].messages[-1]["content"])
    assert "SF0000000000" in feedback_prompt
    assert len(script.requests_for(PRIMARY)) == 4  # no semantic check: the rules decided


async def test_semantic_check_runs_only_where_the_rules_cannot_decide(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    vague = Reply.text("It is on its way with YTO, expected 2026-10-31.")  # which order?
    missing = Reply.calls(("CheckResult", {"answered_all": False, "missing": ["order 100683"]}))
    script.add(PRIMARY, DECOMPOSE, SELECT, vague, missing, ANSWER)
    out = await ask(make_bot(tmp_path, llm))
    assert out["reply"] == ANSWER.content
    assert out["validation"]["regenerations"] == 1
    # decompose, select, the vague draft, its check, the regenerated draft (quotes 100683: no
    # second check)
    assert len(script.requests_for(PRIMARY)) == 5
    feedback_prompt = str(script.requests_for(PRIMARY)[4].messages[-1]["content"])
    assert "order 100683" in feedback_prompt


async def test_simplified_mode_after_repeated_degraded_turns(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    script.always(PRIMARY, LLMFault.server_error(500))
    script.always(BACKUP, LLMFault.server_error(500))
    bot = make_bot(tmp_path, llm, degraded_turns_for_simplified=2)
    for _ in range(2):
        await ask(bot)
    before = len(script.requests)
    out = await ask(bot)
    assert out["degrade"]["simplified_mode"] is True
    assert "simplified mode" in out["reply"]
    assert len(script.requests) == before  # no model calls in simplified mode


async def test_model_calls_are_spans_of_the_turn(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from helpdesk.app.observe import Observer

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    observer = Observer(tracer_provider=provider)
    script.add(PRIMARY, *TURN)
    settings = Settings(
        data_dir=tmp_path,
        shop_db_path=seeded_copy(tmp_path),
        primary_model=f"openai_compatible:{PRIMARY}",
        primary_base_url="http://llm.test/v1",
    )
    bot = build_bot(
        settings,
        checkpointer=InMemorySaver(serde=state_serializer()),
        clock=FakeClock(),
        http_async_client=llm,
        observer=observer,
    )
    await run_turn(bot, "Where is my order 100683?", session="span", customer="C0001")
    names = [s.name for s in exporter.get_finished_spans()]
    assert names.count("helpdesk.model_call") == 3  # decompose, select, generate (no check needed)
    assert "helpdesk.turn" in names and "helpdesk.node.execute" in names
    assert "helpdesk.tool_attempt" in names


async def test_compaction_summary_is_written_by_a_model_tier_when_one_is_up(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    from helpdesk.graph.nodes import TurnConfig, TurnNodes

    summary = "- Customer asked about order 100683 (YT9433239273); prefers office delivery."
    script.always(PRIMARY, Reply.text(summary))
    bot = make_bot(tmp_path, llm)
    nodes = TurnNodes(
        executor=bot.executor,
        config=TurnConfig(context_window=400),
        clock=FakeClock(),
        router=bot.router,
        packs=bot.packs,
    )
    history: list[Any] = []
    for i in range(12):
        history.append(HumanMessage(content=f"where is order 100683? question {i}", id=f"h{i}"))
        history.append(AIMessage(content=f"Order 100683 is in transit, answer {i}.", id=f"a{i}"))
    history.append(HumanMessage(content="and when will it arrive?", id="last"))
    update = await nodes.guard_context(
        {"messages": history, "session": "s", "customer": "C0001", "turn": 12, "facts": {}}
    )
    kept = update["messages"][1:]  # after the remove-all marker
    assert summary in str(kept[0].content)
    assert kept[-1].content == "and when will it arrive?"
    sent = script.requests_for(PRIMARY)[0]
    assert sent.system_prompt.startswith("You condense the earlier part")


class Gate:
    """A ``slow`` fault's sleep that lasts until the test opens the gate (no real wait)."""

    def __init__(self) -> None:
        self.opened = asyncio.Event()
        self.reached = asyncio.Event()
        self.waiting = 0

    async def sleep(self, seconds: float) -> None:
        self.waiting += 1
        self.reached.set()
        await self.opened.wait()


async def spin(rounds: int = 50) -> None:
    for _ in range(rounds):
        await asyncio.sleep(0)


async def test_a_tool_selection_that_agrees_with_the_rules_ends_the_first_round(
    tmp_path: Path, llm: httpx.AsyncClient, script: ScriptedLLM
) -> None:
    """The primary's decomposition hangs; its tool selection names exactly the call the template
    matcher's reading plans: the turn does not wait for the decomposition (graph/first_round.py),
    and the hung call finishes in the background without a fall-through to the backup."""
    gate = Gate()
    script.sleep = gate.sleep
    script.add(PRIMARY, SELECT, LLMFault.slow(1.0, then=DECOMPOSE), ANSWER)
    bot = make_bot(tmp_path, llm, first_round_early=True)
    # the turn must finish while the decomposition hangs (if it waited, this would not return)
    out = await asyncio.wait_for(ask(bot), timeout=60)
    assert gate.waiting == 1 and not gate.opened.is_set()  # answered while decompose hung
    assert out["tiers"] == {"decompose": "rules", "select_tool": "primary", "generate": "primary"}
    assert out["tool_results"][0]["tool"] == "track_shipment"
    assert out["tasks"][0]["args"]["order_id"] == "100683"
    assert out["reply"] == ANSWER.content
    gate.opened.set()
    await spin()
    assert script.requests_for(BACKUP) == []  # the abandoned call never falls through
    assert len(script.requests_for(PRIMARY)) == 3


async def test_a_write_waits_for_the_decomposition_even_when_the_selection_agrees(
    tmp_path: Path, llm: httpx.AsyncClient, script: ScriptedLLM
) -> None:
    """A selection sees the words, not the request: a question whose words fit a write ("do
    you open tickets for damaged items like in order 100609?") must not be settled by a
    selection that calls the write, even when the template matcher read a ticket request too;
    the decomposition (a policy question) is awaited and wins."""
    gate = Gate()
    script.sleep = gate.sleep
    faq = Reply.calls(("DecomposeResult", {"tasks": [{"intent": "faq", "topic": "after_sales"}]}))
    script.add(
        PRIMARY,
        Reply.calls(("create_ticket", {"order_id": "100609", "description": "damaged"})),
        LLMFault.slow(1.0, then=faq),
    )
    script.always(PRIMARY, Reply.text("Tickets for damaged items are opened by our team."))
    script.always(BACKUP, Reply.text("Tickets for damaged items are opened by our team."))
    bot = make_bot(tmp_path, llm, first_round_early=True)
    text = "do you open tickets for damaged items like in order 100609?"
    turn = asyncio.ensure_future(run_turn(bot, text, session="w", customer="C0001"))
    await asyncio.wait_for(gate.reached.wait(), timeout=60)
    for _ in range(200):  # the selection's answer arrives and is judged meanwhile
        await asyncio.sleep(0)
    assert not turn.done()
    gate.opened.set()
    out = await asyncio.wait_for(turn, timeout=60)
    assert "create_ticket" not in [r["tool"] for r in out["tool_results"]]
    assert out["tiers"]["decompose"] == "primary"
