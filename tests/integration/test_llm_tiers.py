"""Model tiers end to end: real ChatOpenAI clients against the scripted OpenAI-compatible server
(testing/llm_server), in-process, offline. Each fault on the primary hands the stage to the backup
with the backup's own prompt; health and probes steer traffic; the request budget bounds calls."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import httpx2
import openai
import pytest
from langchain_core.messages import HumanMessage

from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass, classify_failure
from helpdesk.examples.loyalty import loyalty_pack
from helpdesk.graph.llm import build_chat_model
from helpdesk.graph.prober import Prober
from helpdesk.graph.prompting import load_templates, render
from helpdesk.graph.stage_chain import Abandon, abandon_scope
from helpdesk.graph.stages import (
    CheckResult,
    PlannedTask,
    check_with_tiers,
    decompose_with_tiers,
    fallback_on,
    generate_with_tiers,
    run_chain,
    run_stage,
    select_tools_with_tiers,
)
from helpdesk.graph.tiers import ModelTier, TierHealth, TierName, TierRouter
from helpdesk.packs import default_packs
from helpdesk.testing.llm_server import (
    LLMFault,
    Reply,
    ScriptedLLM,
    create_llm_app,
    llm_http_client,
)
from helpdesk.tools.context import RequestContext
from helpdesk.tools.packs import PackSet

SHOP = default_packs()

PRIMARY = "primary-model"
BACKUP = "backup-model"
BASE_URL = "http://llm.test/v1"

TRACK: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "track_shipment",
        "description": "Where a shipped order's parcel is.",
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
    },
}
TRACK_CALL = ("track_shipment", {"order_id": "100123"})


@dataclass
class World:
    script: ScriptedLLM
    clock: FakeClock
    router: TierRouter
    client: httpx.AsyncClient

    def ctx(self, *, max_retries: int = 3, max_seconds: float = 8.0) -> RequestContext:
        return RequestContext.new(
            session="s1",
            turn=1,
            customer="C0001",
            clock=self.clock,
            max_retries=max_retries,
            max_seconds=max_seconds,
        )

    def count(self, model: str) -> int:
        return len(self.script.requests_for(model))


def make_world(
    client: httpx.AsyncClient,
    script: ScriptedLLM,
    *,
    primary_timeout: float = 2.0,
    quota_floor: int = 5,
) -> World:
    clock = FakeClock()
    configs: list[tuple[TierName, str, float]] = [
        ("primary", PRIMARY, primary_timeout),
        ("backup", BACKUP, 2.0),
    ]
    tiers = [
        ModelTier(
            name,
            build_chat_model(
                f"openai_compatible:{model}",
                base_url=BASE_URL,
                api_key=None,
                timeout_s=timeout,
                http_async_client=client,
            ),
            f"openai_compatible:{model}",
            timeout_s=timeout,
        )
        for name, model, timeout in configs
    ]
    quota = RatioLimiter(ratio=0.5, window_s=10.0, reserve_per_s=quota_floor / 10.0, clock=clock)
    router = TierRouter(tiers, TierHealth(clock), backup_quota=quota)
    return World(script, clock, router, client)


@pytest.fixture
def script() -> ScriptedLLM:
    return ScriptedLLM()


@pytest.fixture
async def client(script: ScriptedLLM) -> AsyncIterator[httpx.AsyncClient]:
    async with llm_http_client(create_llm_app(script)) as c:
        yield c


@pytest.fixture
def world(client: httpx.AsyncClient, script: ScriptedLLM) -> World:
    return make_world(client, script)


def backup_tool_prompt() -> str:
    templates = load_templates("backup", "select_tool", "en")
    line = render(
        templates["tool_line"],
        name="track_shipment",
        description="Where a shipped order's parcel is.",
        arguments='{"order_id": "string"}',
    )
    return render(templates["system"], tools=line)


# --- each primary fault hands the stage to the backup, with the backup's prompt -----------------

FAULTS = [
    pytest.param(LLMFault.rate_limited(2), ErrorClass.RATE_LIMITED, "429", id="429"),
    pytest.param(LLMFault.server_error(500), ErrorClass.UNAVAILABLE, "500", id="500"),
    pytest.param(LLMFault.unavailable(), ErrorClass.UNAVAILABLE, "503", id="503"),
    pytest.param(LLMFault.slow(0.3), ErrorClass.TRANSIENT, "timed out", id="slow"),
    pytest.param(
        LLMFault.malformed_tool_args(), ErrorClass.SCHEMA, "invalid tool-call JSON", id="bad-json"
    ),
    pytest.param(LLMFault.empty_choices(), ErrorClass.SCHEMA, "malformed response", id="empty"),
    pytest.param(LLMFault.refusal(), ErrorClass.SCHEMA, "refused", id="refusal"),
]


@pytest.mark.parametrize(("fault", "error_class", "in_reason"), FAULTS)
async def test_select_tools_primary_fault_hands_stage_to_backup(
    client: httpx.AsyncClient,
    script: ScriptedLLM,
    fault: LLMFault,
    error_class: ErrorClass,
    in_reason: str,
) -> None:
    world = make_world(client, script, primary_timeout=0.1)
    script.add(PRIMARY, fault).add(BACKUP, Reply.calls(TRACK_CALL))
    ctx = world.ctx()

    outcome = await select_tools_with_tiers(
        world.router, "Where is 100123?", "en", [TRACK], ctx, world.clock
    )

    assert outcome is not None
    assert outcome.tier == "backup"
    assert [(c.name, c.args) for c in outcome.value] == [TRACK_CALL]
    [event] = ctx.degrade.events
    assert (event.stage, event.target, event.action, event.error_class) == (
        "select_tool",
        "model:primary",
        LadderStep.MODEL,
        error_class,
    )
    assert in_reason in event.reason
    assert outcome.attempts == [("primary", event.reason)]
    [sent_primary] = script.requests_for(PRIMARY)
    [sent_backup] = script.requests_for(BACKUP)
    primary_system = load_templates("primary", "select_tool", "en")["system"]
    assert sent_primary.system_prompt == primary_system
    assert sent_backup.system_prompt == backup_tool_prompt()
    assert sent_backup.system_prompt != sent_primary.system_prompt
    assert sent_backup.tool_names == ["track_shipment"]
    assert script.exhausted == []


async def test_run_stage_rate_limit_reason_carries_retry_after(world: World) -> None:
    world.script.add(PRIMARY, LLMFault.rate_limited(2)).add(BACKUP, Reply.text("Hello!"))
    ctx = world.ctx()

    await generate_with_tiers(world.router, "{}", "en", ctx, world.clock)

    assert ctx.degrade.events[0].reason == (
        "model:primary: 429 from POST /v1/chat/completions (Rate limit reached), Retry-After 2s"
    )


async def test_generate_primary_answers_without_events(world: World) -> None:
    world.script.add(PRIMARY, Reply.text("  Your order has shipped.  "))
    ctx = world.ctx()

    outcome = await generate_with_tiers(world.router, '{"tasks": []}', "zh", ctx, world.clock)

    assert outcome is not None
    assert (outcome.value, outcome.tier, outcome.attempts) == (
        "Your order has shipped.",
        "primary",
        [],
    )
    assert ctx.degrade.events == ()
    templates = load_templates("primary", "generate", "zh")
    [sent] = world.script.requests_for(PRIMARY)
    assert sent.messages == [
        {"role": "system", "content": templates["system"]},
        {"role": "user", "content": render(templates["user"], facts='{"tasks": []}')},
    ]


async def test_generate_streaming_client_gets_backup_answer(world: World) -> None:
    streaming = [
        ModelTier(t.name, t.model.model_copy(update={"streaming": True}), t.spec)
        for t in world.router.tiers
    ]
    router = TierRouter(streaming, world.router.health, backup_quota=world.router.backup_quota)
    world.script.add(PRIMARY, LLMFault.server_error()).add(BACKUP, Reply.text("Streamed reply."))

    outcome = await generate_with_tiers(router, "{}", "en", world.ctx(), world.clock)

    assert outcome is not None
    assert (outcome.value, outcome.tier) == ("Streamed reply.", "backup")
    assert [r.stream for r in world.script.requests] == [True, True]


async def test_run_stage_all_tiers_failing_returns_none(world: World) -> None:
    world.script.add(PRIMARY, LLMFault.server_error()).add(BACKUP, LLMFault.unavailable())
    ctx = world.ctx()

    outcome = await generate_with_tiers(world.router, "{}", "en", ctx, world.clock)

    assert outcome is None
    assert [(e.target, e.action, e.error_class) for e in ctx.degrade.events] == [
        ("model:primary", LadderStep.MODEL, ErrorClass.UNAVAILABLE),
        ("model:backup", LadderStep.MODEL, ErrorClass.UNAVAILABLE),
    ]


async def test_run_stage_both_tiers_down_sends_nothing(world: World) -> None:
    for name in ("primary", "backup"):
        for _ in range(3):
            world.router.health.record(name, False)
    ctx = world.ctx()

    outcome = await generate_with_tiers(world.router, "{}", "en", ctx, world.clock)

    assert outcome is None
    assert world.script.requests == []
    assert [e.reason for e in ctx.degrade.events] == [
        "model:primary: marked down by health checks (retry in 30s)",
        "model:backup: marked down by health checks (retry in 30s)",
    ]


async def test_run_stage_failures_mark_tier_down_and_stop_its_traffic(world: World) -> None:
    world.script.always(PRIMARY, LLMFault.server_error()).always(BACKUP, Reply.text("ok"))
    for _ in range(3):
        await generate_with_tiers(world.router, "{}", "en", world.ctx(), world.clock)
    assert world.count(PRIMARY) == 3

    outcome = await generate_with_tiers(world.router, "{}", "en", world.ctx(), world.clock)

    assert outcome is not None and outcome.tier == "backup"
    assert world.count(PRIMARY) == 3
    assert not world.router.health.is_up("primary")


# --- probes -------------------------------------------------------------------------------------


async def test_probes_route_around_unhealthy_primary_and_bring_it_back(world: World) -> None:
    prober = Prober(world.router, clock=world.clock)
    world.script.always(PRIMARY, LLMFault.server_error()).always(BACKUP, Reply.text("pong"))
    for _ in range(3):
        assert await prober.probe_once() == {"primary": False, "backup": True}
    probes_to_primary = world.count(PRIMARY)

    world.script.add(BACKUP, Reply.text("From the backup."))
    outcome = await generate_with_tiers(world.router, "{}", "en", world.ctx(), world.clock)

    assert outcome is not None and outcome.tier == "backup"
    assert world.count(PRIMARY) == probes_to_primary == 3
    assert [r.body.get("max_completion_tokens") for r in world.script.requests_for(PRIMARY)] == [
        1,
        1,
        1,
    ]

    # the first good probe is enough: the primary takes the very next call (half-open ramp)
    world.script.always(PRIMARY, Reply.text("pong"))
    world.clock.advance(1.0)
    await prober.probe_once()
    world.script.add(PRIMARY, Reply.text("Primary is back."))
    outcome = await generate_with_tiers(world.router, "{}", "en", world.ctx(), world.clock)

    assert outcome is not None
    assert (outcome.value, outcome.tier) == ("Primary is back.", "primary")


# --- backup quota -------------------------------------------------------------------------------


async def test_run_stage_backup_over_quota_goes_to_minimal(
    client: httpx.AsyncClient, script: ScriptedLLM
) -> None:
    world = make_world(client, script, quota_floor=0)
    script.always(PRIMARY, LLMFault.server_error())
    script.add(BACKUP, Reply.text("first"))
    first = await generate_with_tiers(world.router, "{}", "en", world.ctx(), world.clock)
    ctx = world.ctx()

    second = await generate_with_tiers(world.router, "{}", "en", ctx, world.clock)

    assert first is not None and first.tier == "backup"
    assert second is None
    assert world.count(BACKUP) == 1
    assert ctx.degrade.events[-1].reason == (
        "model:backup: backup quota used (1 of 1 allowed in 10s); going to minimal"
    )


# --- structured stages, retry and budget --------------------------------------------------------

TASKS = {
    "tasks": [{"intent": "tracking", "order_id": "100123"}, {"intent": "stock", "sku": "SKU-1001"}]
}


async def test_decompose_primary_structured_output(world: World) -> None:
    world.script.add(PRIMARY, Reply.json(TASKS))

    outcome = await decompose_with_tiers(
        world.router,
        "Where is 100123? Is SKU-1001 in stock?",
        "en",
        {},
        world.ctx(),
        world.clock,
        SHOP,
    )

    assert outcome is not None
    assert outcome.value == [
        PlannedTask(intent="tracking", order_id="100123"),
        PlannedTask(intent="stock", sku="SKU-1001"),
    ]
    [sent] = world.script.requests_for(PRIMARY)
    assert sent.tool_names == ["DecomposeResult"]
    assert sent.body["tool_choice"] == {"type": "function", "function": {"name": "DecomposeResult"}}


async def test_decompose_parse_failure_retries_once_with_simplified_instruction(
    world: World,
) -> None:
    world.script.add(PRIMARY, Reply.text("tracking and stock"), Reply.json(TASKS))
    ctx = world.ctx()

    outcome = await decompose_with_tiers(
        world.router, "Where is 100123?", "en", {"last_order_id": "100123"}, ctx, world.clock, SHOP
    )

    assert outcome is not None and outcome.tier == "primary"
    first, second = world.script.requests_for(PRIMARY)
    retry = load_templates("primary", "decompose", "en")["retry"]
    assert second.messages[:-1] == first.messages
    assert second.messages[-1] == {"role": "user", "content": render(retry)}
    assert '"last_order_id": "100123"' in first.messages[1]["content"]
    assert [(e.action, e.reason) for e in ctx.degrade.events] == [
        (
            LadderStep.RETRY,
            "model:primary: reply has no DecomposeResult call and no JSON object; "
            "retrying once with a simplified instruction",
        )
    ]
    assert ctx.budget.retries_used == 1


async def test_decompose_without_retry_budget_goes_to_backup(world: World) -> None:
    world.script.add(PRIMARY, Reply.text("not json")).add(BACKUP, Reply.json(TASKS))
    ctx = world.ctx(max_retries=0)

    outcome = await decompose_with_tiers(world.router, "hi", "zh", {}, ctx, world.clock, SHOP)

    assert outcome is not None and outcome.tier == "backup"
    assert (world.count(PRIMARY), world.count(BACKUP)) == (1, 1)
    [sent] = world.script.requests_for(BACKUP)
    system = load_templates("backup", "decompose", "zh")["system"]
    fields = ", ".join(SHOP.request_fields())
    assert sent.system_prompt == render(system, intents=SHOP.intent_catalog("zh"), fields=fields)
    assert "- cancel_order: " in sent.system_prompt  # the shop pack's intents, with meanings


async def test_decompose_prompt_names_every_loaded_packs_intents(world: World) -> None:
    packs = PackSet([*SHOP, loyalty_pack()])
    world.script.add(PRIMARY, Reply.json(TASKS))
    ctx = world.ctx()

    await decompose_with_tiers(world.router, "how many points?", "en", {}, ctx, world.clock, packs)

    [sent] = world.script.requests_for(PRIMARY)
    assert "- points_balance: the member's points balance" in sent.system_prompt
    assert "- refund: money back for an order" in sent.system_prompt
    assert "{intents}" not in sent.system_prompt and "{fields}" not in sent.system_prompt


async def test_decompose_calls_never_exceed_request_budget(world: World) -> None:
    world.script.always(PRIMARY, Reply.text("nope")).always(BACKUP, Reply.text("nope"))
    ctx = world.ctx(max_retries=1)

    outcome = await decompose_with_tiers(world.router, "hi", "en", {}, ctx, world.clock, SHOP)

    assert outcome is None
    # One call per tier plus the single retry the budget grants.
    assert (world.count(PRIMARY), world.count(BACKUP)) == (2, 1)
    assert ctx.budget.retries_left() == 0


async def test_run_stage_spent_budget_makes_no_call(world: World) -> None:
    ctx = world.ctx(max_seconds=1.0)
    world.clock.advance(1.0)

    outcome = await generate_with_tiers(world.router, "{}", "en", ctx, world.clock)

    assert outcome is None
    assert world.script.requests == []
    assert [e.reason for e in ctx.degrade.events] == [
        "model:primary: request budget spent, no time left for a call"
    ]


async def test_run_stage_call_timeout_is_cut_to_budget(world: World) -> None:
    world.script.add(PRIMARY, Reply.text("ok"))
    ctx = world.ctx(max_seconds=1.5)
    world.clock.advance(1.0)
    seen: list[Any] = []

    async def record_timeout(request: httpx.Request) -> None:
        seen.append(request.extensions["timeout"]["read"])

    world.client.event_hooks["request"].append(record_timeout)
    await generate_with_tiers(world.router, "{}", "en", ctx, world.clock)

    # 0.5 s left: the whole of it (no fixed share), below the tier's cold timeout
    assert seen == [pytest.approx(0.5)]


async def test_check_backup_answers_after_primary_refusal(world: World) -> None:
    world.script.add(PRIMARY, Reply.text("I'm sorry, but I can't help with that."))
    world.script.add(BACKUP, Reply.json({"answered_all": False, "missing": ["stock of SKU-1001"]}))
    ctx = world.ctx()

    outcome = await check_with_tiers(
        world.router, "track 100123, stock SKU-1001", "It shipped.", "{}", "en", ctx, world.clock
    )

    assert outcome is not None
    assert outcome.value == CheckResult(answered_all=False, missing=["stock of SKU-1001"])
    assert outcome.tier == "backup"
    assert world.count(PRIMARY) == 1  # a refusal is not retried
    assert ctx.degrade.events[0].reason.startswith("model:primary: refused")


async def test_select_tools_no_tool_needed_returns_empty_list(world: World) -> None:
    world.script.add(PRIMARY, Reply.text("Hello! How can I help?"))

    outcome = await select_tools_with_tiers(
        world.router, "hello", "en", [TRACK["function"]], world.ctx(), world.clock
    )

    assert outcome is not None
    assert (outcome.value, outcome.tier) == ([], "primary")


# --- the server itself --------------------------------------------------------------------------


async def test_llm_server_lists_models_and_fails_loudly_when_exhausted(
    client: httpx.AsyncClient, script: ScriptedLLM
) -> None:
    script.add(PRIMARY, Reply.text("one"))
    models = (await client.get("/v1/models")).json()
    body = {"model": PRIMARY, "messages": [{"role": "user", "content": "hi"}]}

    first = await client.post("/v1/chat/completions", json=body)
    second = await client.post("/v1/chat/completions", json=body)

    assert [m["id"] for m in models["data"]] == [PRIMARY]
    assert first.json()["choices"][0]["message"]["content"] == "one"
    assert second.status_code == 500
    assert script.exhausted == [PRIMARY]


async def test_llm_server_streams_tool_calls(
    client: httpx.AsyncClient, script: ScriptedLLM
) -> None:
    script.add(PRIMARY, Reply.calls(TRACK_CALL))
    model = build_chat_model(
        f"openai_compatible:{PRIMARY}", base_url=BASE_URL, api_key=None, http_async_client=client
    )

    chunks = [c async for c in model.bind_tools([TRACK]).astream([HumanMessage("where")])]

    message: Any = chunks[0]
    for chunk in chunks[1:]:
        message = message + chunk
    assert [(c["name"], c["args"]) for c in message.tool_calls] == [TRACK_CALL]


# --- classification of openai SDK errors --------------------------------------------------------


def _status_error(status: int, headers: dict[str, str] | None = None) -> openai.APIStatusError:
    # httpx2 is what the SDK uses when no client is passed in (production).
    request = httpx2.Request("POST", "http://llm.test/v1/chat/completions")
    response = httpx2.Response(
        status, headers=headers, json={"error": {"message": "boom"}}, request=request
    )
    cls = {429: openai.RateLimitError, 401: openai.AuthenticationError}.get(
        status, openai.APIStatusError
    )
    return cls("boom", response=response, body=json.loads(response.content))


@pytest.mark.parametrize(
    ("status", "error_class"),
    [
        (429, ErrorClass.RATE_LIMITED),
        (500, ErrorClass.UNAVAILABLE),
        (503, ErrorClass.UNAVAILABLE),
        (401, ErrorClass.AUTH),
        (402, ErrorClass.AUTH),
        (403, ErrorClass.AUTH),
        (400, ErrorClass.INPUT),
        (422, ErrorClass.INPUT),
    ],
)
def test_classify_failure_openai_status(status: int, error_class: ErrorClass) -> None:
    exc = _status_error(status)
    failure = classify_failure(exc, tool="model:primary")
    assert (failure.error_class, failure.status_code, failure.cause) == (error_class, status, exc)


def test_classify_failure_openai_rate_limit_keeps_retry_after() -> None:
    failure = classify_failure(_status_error(429, {"Retry-After": "3"}), tool="model:backup")
    assert failure.retry_after == 3.0
    assert failure.reason == (
        "model:backup: 429 from POST /v1/chat/completions (boom), Retry-After 3s"
    )


def test_classify_failure_openai_timeout_and_connection_are_transient() -> None:
    request = httpx2.Request("POST", "http://llm.test/v1/chat/completions")
    timeout = classify_failure(openai.APITimeoutError(request), tool="model:primary")
    conn = classify_failure(openai.APIConnectionError(request=request), tool="model:primary")
    assert (timeout.error_class, timeout.reason) == (
        ErrorClass.TRANSIENT,
        "model:primary: timed out on POST /v1/chat/completions",
    )
    assert conn.error_class is ErrorClass.TRANSIENT


@pytest.mark.parametrize(
    "reply",
    [
        "Sorry, we can't cancel order 100123 because it has shipped.",
        "抱歉，我无法取消订单100123，因为已经发货。",
    ],
)
async def test_generate_apology_about_the_shop_is_not_a_refusal(world: World, reply: str) -> None:
    world.script.add(PRIMARY, Reply.text(reply))

    outcome = await generate_with_tiers(world.router, "{}", "en", world.ctx(), world.clock)

    assert outcome is not None
    assert (outcome.value, outcome.tier) == (reply, "primary")


@pytest.mark.parametrize(
    "reply", ["I'm sorry, but I can't assist with that request.", "抱歉，我无法协助处理此请求。"]
)
async def test_generate_refusal_text_hands_stage_to_backup(world: World, reply: str) -> None:
    world.script.add(PRIMARY, Reply.text(reply)).add(BACKUP, Reply.text("Here is your answer."))

    outcome = await generate_with_tiers(world.router, "{}", "en", world.ctx(), world.clock)

    assert outcome is not None
    assert outcome.tier == "backup"
    assert outcome.attempts[0][1].startswith("model:primary: refused")


# --- issue 15: latency-aware timeouts, one timeout per turn, Retry-After, bugs surface ----------


def virtual_world(client: httpx.AsyncClient, script: ScriptedLLM) -> World:
    """Tiers with a 10 s ceiling whose ``slow`` faults wait on the world's FakeClock."""
    world = make_world(client, script, primary_timeout=10.0)
    script.sleep = world.clock.sleep
    return world


async def test_healthy_slow_primary_writes_the_reply_late_in_the_turn(
    client: httpx.AsyncClient, script: ScriptedLLM
) -> None:
    # Before: a call got 40% of what was left of 8 s, so a 2.5 s model lost generate.
    world = virtual_world(client, script)
    script.always(PRIMARY, LLMFault.slow(2.5, then=Reply.text("Order 100123 shipped.")))
    for turn in range(4):
        ctx = world.ctx()
        world.clock.advance(3.0)  # decompose, select and tools already took 3 s of the 8
        outcome = await generate_with_tiers(world.router, "{}", "en", ctx, world.clock)
        assert outcome is not None and outcome.tier == "primary", turn
    assert world.count(BACKUP) == 0


async def test_hung_primary_costs_one_timeout_per_turn_then_is_routed_around(
    client: httpx.AsyncClient, script: ScriptedLLM
) -> None:
    world = virtual_world(client, script)
    script.always(PRIMARY, LLMFault.slow(60.0)).always(BACKUP, Reply.text("From the backup."))
    for turn in range(5):
        ctx = world.ctx()
        started = world.clock.now()
        for _ in range(2):  # two model stages in the turn
            outcome = await generate_with_tiers(world.router, "{}", "en", ctx, world.clock)
            assert outcome is not None and outcome.tier == "backup"
        # the cold timeout (4 s) once, never twice in a turn
        assert world.clock.now() - started <= 4.0 + 1e-9, turn
    # routed around after 3 failures: turns 4 and 5 never called it
    assert world.count(PRIMARY) == 3


async def test_retry_after_keeps_calls_off_the_tier_until_it_passes(world: World) -> None:
    world.script.add(PRIMARY, LLMFault.rate_limited(30)).always(BACKUP, Reply.text("backup"))
    first = await generate_with_tiers(world.router, "{}", "en", world.ctx(), world.clock)
    assert first is not None and first.tier == "backup"
    for _ in range(3):
        again = await generate_with_tiers(world.router, "{}", "en", world.ctx(), world.clock)
        assert again is not None and again.tier == "backup"
    assert world.count(PRIMARY) == 1
    world.clock.advance(30.0)
    world.script.add(PRIMARY, Reply.text("primary again"))
    back = await generate_with_tiers(world.router, "{}", "en", world.ctx(), world.clock)
    assert back is not None and (back.tier, back.value) == ("primary", "primary again")


async def test_programming_error_in_a_parser_is_raised_not_a_schema_failure(world: World) -> None:
    world.script.always(PRIMARY, Reply.text("ok")).always(BACKUP, Reply.text("ok"))

    def parse(tier: ModelTier, message: Any) -> str:
        return {"a": 1}["missing"]  # type: ignore[return-value]  # a bug

    with pytest.raises(KeyError, match="missing"):
        await run_stage(
            world.router,
            "generate",
            "en",
            world.ctx(),
            build=lambda tier, t: [HumanMessage("hi")],
            parse=parse,
            clock=world.clock,
        )
    assert world.count(BACKUP) == 0
    assert world.router.health.breaker("primary").snapshot()["failures"] == {}


async def test_run_chain_collects_every_cause(world: World) -> None:
    world.script.add(PRIMARY, LLMFault.server_error()).add(BACKUP, LLMFault.unavailable())
    result = await run_chain(
        world.router,
        "generate",
        "en",
        world.ctx(),
        build=lambda tier, t: [HumanMessage("hi")],
        parse=lambda tier, m: m.text,
        clock=world.clock,
    )
    assert result.outcome is None
    assert [(f.error_class, f.status_code) for f in result.causes] == [
        (ErrorClass.UNAVAILABLE, 500),
        (ErrorClass.UNAVAILABLE, 503),
    ]


async def test_an_abandoned_chain_finishes_its_call_but_asks_no_other_tier(world: World) -> None:
    """A first-round call nobody waits for any more (graph/first_round.py): its tier's failure
    is still recorded, but the backup is not called for an answer nobody reads."""
    world.script.add(PRIMARY, LLMFault.server_error()).add(BACKUP, Reply.text("unused"))
    flag = Abandon()

    def build(tier: object, templates: object) -> list[HumanMessage]:
        flag.set()  # abandoned while the primary's call is under way
        return [HumanMessage("hi")]

    result = await abandon_scope(
        flag,
        run_chain(
            world.router,
            "generate",
            "en",
            world.ctx(),
            build=build,
            parse=lambda tier, m: m.text,
            clock=world.clock,
        ),
    )
    assert result.outcome is None
    assert world.count(PRIMARY) == 1 and world.count(BACKUP) == 0
    assert world.router.health.breaker("primary").snapshot()["failures"]  # still learned


def test_fallback_on_accepts_client_errors_and_rejects_our_bugs() -> None:
    try:
        {}["k"]
    except KeyError as exc:
        ours = exc
    assert fallback_on(ours) is False
    assert fallback_on(httpx.ReadTimeout("slow")) is True
    assert fallback_on(TypeError("'NoneType' object is not iterable")) is True  # no traceback
