"""Unit tests of model tiers: health windows and probes, routing order, backup quota, prober loop,
model specs — all on a FakeClock, no network."""

from __future__ import annotations

import asyncio
from typing import Any, get_args

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_openai import ChatOpenAI
from pydantic import Field, SecretStr

from helpdesk.degrade.breaker import BreakerState, CircuitBreaker
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.errors import ErrorClass, Failure
from helpdesk.graph.intents import Intent
from helpdesk.graph.llm import build_chat_model, parse_model_spec
from helpdesk.graph.prober import Prober
from helpdesk.graph.stages import IntentName
from helpdesk.graph.tiers import (
    TIER_BREAKER_POLICY,
    ModelTier,
    TierHealth,
    TierRouter,
    TimeoutPolicy,
)


class ScriptedChatModel(BaseChatModel):
    """Pops one outcome per call (an exception is raised); records the call kwargs."""

    outcomes: list[Any]
    calls: list[dict[str, Any]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        self.calls.append(kw)
        if not self.outcomes:
            raise AssertionError("script exhausted")
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        return ChatResult(generations=[ChatGeneration(message=AIMessage(outcome))])

    async def _agenerate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        # On the event loop (no executor thread), so a test can step the loop deterministically.
        return self._generate(messages, stop, **kw)


def tier(name: Any, outcomes: list[Any] | None = None) -> ModelTier:
    model = ScriptedChatModel(outcomes=list(outcomes or []), calls=[])
    return ModelTier(name, model, f"openai_compatible:{name}-model")


def router_for(clock: FakeClock, *, floor: int = 5, health: TierHealth | None = None) -> TierRouter:
    quota = RatioLimiter(ratio=0.5, window_s=10.0, reserve_per_s=floor / 10.0, clock=clock)
    return TierRouter(
        [tier("backup"), tier("primary")], health or TierHealth(clock), backup_quota=quota
    )


# --- TierHealth ---------------------------------------------------------------------------------

TRANSIENT = Failure(ErrorClass.TRANSIENT, "model:primary: timed out")


def test_health_is_up_for_unknown_tier() -> None:
    assert TierHealth(FakeClock()).is_up("primary")


def test_health_tiers_use_the_tool_circuit_breaker() -> None:
    health = TierHealth(FakeClock())
    assert isinstance(health.breaker("primary"), CircuitBreaker)
    assert health.breaker("primary").policy is TIER_BREAKER_POLICY


def test_health_hung_tier_routed_around_after_three_failures() -> None:
    health = TierHealth(FakeClock())
    health.record_failure("primary", TRANSIENT)
    health.record_failure("primary", TRANSIENT)
    assert health.is_up("primary")
    health.record_failure("primary", TRANSIENT)
    assert not health.is_up("primary")
    assert health.try_acquire("primary") is False


def test_health_occasional_failures_keep_tier_up() -> None:
    health = TierHealth(FakeClock())
    for _ in range(20):
        health.record_success("primary")
        health.record_success("primary")
        health.record_failure("primary", TRANSIENT)
    assert health.is_up("primary")


def test_health_retry_after_holds_tier_until_it_passes() -> None:
    # issue 15: "Retry-After 30 did not stop two more calls in the same turn"
    clock = FakeClock()
    health = TierHealth(clock)
    limited = Failure(ErrorClass.RATE_LIMITED, "model:primary: 429", retry_after=30.0)
    health.record_failure("primary", limited)
    assert health.try_acquire("primary") is False
    assert not health.is_up("primary")
    clock.advance(29.0)
    assert health.try_acquire("primary") is False
    clock.advance(1.0)
    assert health.try_acquire("primary") is True


def test_health_first_good_probe_half_opens_then_traffic_closes() -> None:
    # issue 15: "a primary that recovered got traffic back only after 50 s and 5 turns"
    clock = FakeClock()
    health = TierHealth(clock)
    for _ in range(3):
        health.record_failure("primary", TRANSIENT)
    clock.advance(5.0)
    health.record_probe("primary", False)
    assert not health.is_up("primary")
    health.record_probe("primary", True)
    breaker = health.breaker("primary")
    assert breaker.state is BreakerState.HALF_OPEN
    assert health.try_acquire("primary") is True  # the first call of the ramp goes through
    for _ in range(6):
        health.record_success("primary")
    assert breaker.state is BreakerState.CLOSED


def test_health_failed_probes_mark_tier_down() -> None:
    health = TierHealth(FakeClock())
    for _ in range(3):
        health.record_probe("backup", False)
    assert not health.is_up("backup")


def test_health_cold_timeout_before_latency_is_known() -> None:
    health = TierHealth(FakeClock())
    assert health.call_timeout(tier("primary"), "generate") == 4.0


def test_health_timeout_follows_observed_latency() -> None:
    # issue 15: a healthy 2.5 s model got 40% of what was left of 8 s and never wrote a reply
    health = TierHealth(FakeClock())
    slow = ModelTier("primary", ScriptedChatModel(outcomes=[]), "x:slow", timeout_s=10.0)
    for _ in range(5):
        health.record_success("primary", "generate", 2.5)
    assert health.call_timeout(slow, "generate") == 5.5  # 2 x P95 + 0.5
    assert health.call_timeout(slow, "decompose") == 4.0  # another stage: not learned yet
    for _ in range(5):
        health.record_success("primary", "decompose", 0.2)
    assert health.call_timeout(slow, "decompose") == 1.0  # the floor


def test_health_timeout_never_above_tier_timeout() -> None:
    health = TierHealth(FakeClock())
    short = ModelTier("backup", ScriptedChatModel(outcomes=[]), "x:fast", timeout_s=3.0)
    for _ in range(5):
        health.record_success("backup", "generate", 4.0)
    assert health.call_timeout(short, "generate") == 3.0


def test_health_compat_record_counts_outcomes() -> None:
    health = TierHealth(FakeClock())
    for _ in range(3):
        health.record("primary", False)
    assert not health.is_up("primary")
    health.record("primary", True, probe=True)
    assert health.breaker("primary").state is BreakerState.HALF_OPEN


def test_health_snapshot_reports_breaker_and_latency() -> None:
    health = TierHealth(FakeClock())
    health.record_success("primary", "generate", 0.8)
    snap = health.snapshot()
    assert snap["primary"]["up"] is True
    assert snap["primary"]["state"] == "closed"
    assert snap["primary"]["calls"] == 1
    assert snap["primary"]["p95_s"] == {"generate": 0.8}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"factor": 0.5},
        {"margin_s": -1},
        {"floor_s": 0},
        {"floor_s": 5.0, "cold_s": 4.0},
        {"min_samples": 0},
    ],
)
def test_timeout_policy_rejects_bad_config(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        TimeoutPolicy(**kwargs)


# --- ModelTier / TierRouter ---------------------------------------------------------------------


def test_model_tier_rejects_minimal() -> None:
    with pytest.raises(ValueError, match="minimal"):
        tier("minimal")


def test_router_orders_primary_then_backup() -> None:
    router = router_for(FakeClock())
    assert [t.name for t in router.candidates()] == ["primary", "backup"]


def test_router_skips_down_tier() -> None:
    clock = FakeClock()
    router = router_for(clock)
    for _ in range(3):
        router.health.record("primary", False)
    assert [t.name for t in router.candidates()] == ["backup"]
    assert [t.name for t in router.down()] == ["primary"]


def test_router_rejects_two_models_for_one_tier() -> None:
    clock = FakeClock()
    quota = RatioLimiter(ratio=0.5, clock=clock)
    with pytest.raises(ValueError, match="one model per tier"):
        TierRouter([tier("primary"), tier("primary")], TierHealth(clock), backup_quota=quota)


def test_router_admits_primary_without_quota() -> None:
    router = router_for(FakeClock(), floor=0)
    primary = router.tier("primary")
    assert primary is not None
    assert router.admit(primary) is None
    assert router.backup_quota.snapshot()["secondary"] == 0


def test_router_backup_within_quota_is_admitted() -> None:
    router = router_for(FakeClock(), floor=0)
    backup = router.tier("backup")
    assert backup is not None
    router.record_request()
    router.record_request()
    assert router.admit(backup) is None


def test_router_backup_over_quota_goes_to_minimal() -> None:
    router = router_for(FakeClock(), floor=0)
    backup = router.tier("backup")
    assert backup is not None
    router.record_request()
    assert router.admit(backup) is None
    assert router.admit(backup) == (
        "model:backup: backup quota used (1 of 0.5 allowed in 10s); going to minimal"
    )


# --- Prober -------------------------------------------------------------------------------------


async def test_prober_probe_once_records_outcomes() -> None:
    clock = FakeClock()
    health = TierHealth(clock)
    quota = RatioLimiter(ratio=0.5, clock=clock)
    router = TierRouter(
        [tier("primary", [RuntimeError("down")]), tier("backup", ["p"])], health, backup_quota=quota
    )
    assert await Prober(router, clock=clock).probe_once() == {"primary": False, "backup": True}
    assert health.snapshot()["primary"]["failures"] == {"unavailable": 1}
    assert health.snapshot()["backup"]["calls"] == 1


async def test_prober_sends_one_token_request() -> None:
    clock = FakeClock()
    primary = tier("primary", ["p"])
    router = TierRouter(
        [primary], TierHealth(clock), backup_quota=RatioLimiter(ratio=0.5, clock=clock)
    )
    await Prober(router, clock=clock).probe_once()
    assert isinstance(primary.model, ScriptedChatModel)
    assert primary.model.calls == [{"max_tokens": 1}]


async def test_prober_run_forever_sleeps_interval_until_cancelled() -> None:
    clock = FakeClock()
    primary = tier("primary", ["p"] * 50)
    router = TierRouter(
        [primary], TierHealth(clock), backup_quota=RatioLimiter(ratio=0.5, clock=clock)
    )
    task = asyncio.create_task(Prober(router, clock=clock, interval_s=7).run_forever())
    for _ in range(200):
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert clock.sleeps[:3] == [7, 7, 7]
    assert len(primary.model.calls) >= 3  # type: ignore[attr-defined]


class TickingClock(FakeClock):
    """A fake clock that moves on every reading, as a real one does between two reads."""

    def now(self) -> float:
        self.advance(1e-6)
        return super().now()


async def test_prober_probes_at_once_with_a_clock_that_moves_between_reads() -> None:
    # a never-probed tier was due "now", read again after the loop's own "now": with a real
    # clock it was never due, the first probe never came and the loop spun on sleep(0)
    clock = TickingClock()
    primary = tier("primary", ["p"] * 50)
    router = TierRouter(
        [primary], TierHealth(clock), backup_quota=RatioLimiter(ratio=0.5, clock=clock)
    )
    task = asyncio.create_task(Prober(router, clock=clock, interval_s=7).run_forever())
    for _ in range(50):
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert len(primary.model.calls) >= 2  # type: ignore[attr-defined]
    assert clock.sleeps and all(s > 6.9 for s in clock.sleeps[:2])


async def test_prober_probes_a_down_tier_at_the_unhealthy_interval_until_it_is_back() -> None:
    clock = FakeClock()
    down = RuntimeError("down")
    primary = tier("primary", [down, down, down, "p", "p", "p"])
    backup = tier("backup", ["b"] * 5)
    health = TierHealth(clock)
    router = TierRouter(
        [primary, backup], health, backup_quota=RatioLimiter(ratio=0.5, clock=clock)
    )
    for _ in range(3):
        health.record("primary", False)  # the primary is open before probing starts
    assert not health.is_up("primary")
    prober = Prober(router, clock=clock, interval_s=30, unhealthy_interval_s=10)
    task = asyncio.create_task(prober.run_forever())
    probed_at: dict[str, list[float]] = {"primary": [], "backup": []}
    seen = {"primary": 0, "backup": 0}
    for _ in range(400):
        await asyncio.sleep(0)
        for name, t in (("primary", primary), ("backup", backup)):
            calls = len(t.model.calls)  # type: ignore[attr-defined]
            if calls > seen[name]:
                seen[name] = calls
                probed_at[name].append(clock.now())
        if clock.now() > 60:
            break
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # down: probed every 10 s; the 4th probe (t=30) is good and half-opens it; half-open (still
    # ramping) it is probed every 10 s too, and every 30 s once its breaker closes
    assert probed_at["primary"][:5] == [0, 10, 20, 30, 40]
    assert probed_at["backup"][:3] == [0, 30, 60]
    assert health.breaker("primary").state is not BreakerState.OPEN


class HangingChatModel(BaseChatModel):
    """Never answers: each call sleeps on the fake clock until its timeout cuts it off."""

    clock: Any
    started: list[float] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "hanging"

    def _generate(self, *args: Any, **kw: Any) -> ChatResult:
        raise AssertionError("async only")

    async def _agenerate(self, *args: Any, **kw: Any) -> ChatResult:
        self.started.append(self.clock.now())
        await self.clock.sleep(3600)
        raise AssertionError("a hung call outlived its timeout")


async def test_a_hung_probe_does_not_push_the_next_one_back_by_its_timeout() -> None:
    clock = FakeClock()
    model = HangingChatModel(clock=clock)
    primary = ModelTier("primary", model, "openai_compatible:hung")
    health = TierHealth(clock)
    router = TierRouter([primary], health, backup_quota=RatioLimiter(ratio=0.5, clock=clock))
    for _ in range(3):
        health.record("primary", False)
    prober = Prober(router, clock=clock, interval_s=30, unhealthy_interval_s=10, timeout_s=5)
    task = asyncio.create_task(prober.run_forever())
    for _ in range(400):
        await asyncio.sleep(0)
        if clock.now() > 35:
            break
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # each probe waits out its 5 s timeout; the next still starts 10 s after the last began
    assert model.started[:4] == [0, 10, 20, 30]  # before: [0, 15, 30]


def test_prober_next_interval_follows_the_tiers_state() -> None:
    clock = FakeClock()
    health = TierHealth(clock)
    router = TierRouter(
        [tier("primary"), tier("backup")], health, backup_quota=RatioLimiter(ratio=0.5, clock=clock)
    )
    prober = Prober(router, clock=clock, interval_s=30, unhealthy_interval_s=10)
    assert prober.next_interval("primary") == 30
    for _ in range(3):
        health.record("primary", False)
    assert prober.next_interval("primary") == 10
    assert Prober(router, clock=clock, interval_s=30).next_interval("primary") == 30


def test_prober_rejects_non_positive_interval() -> None:
    clock = FakeClock()
    with pytest.raises(ValueError, match="interval_s"):
        Prober(router_for(clock), clock=clock, interval_s=0)
    with pytest.raises(ValueError, match="unhealthy_interval_s"):
        Prober(router_for(clock), clock=clock, unhealthy_interval_s=-1)


# --- model specs --------------------------------------------------------------------------------


def test_parse_model_spec_splits_on_first_colon() -> None:
    assert parse_model_spec("ollama:qwen2.5:7b") == ("ollama", "qwen2.5:7b")
    assert parse_model_spec(" OpenAI:gpt-4.1-mini ") == ("openai", "gpt-4.1-mini")


@pytest.mark.parametrize("spec", ["gpt-4.1-mini", "openai:", ":gpt", ""])
def test_parse_model_spec_rejects_malformed(spec: str) -> None:
    with pytest.raises(ValueError, match="provider:model"):
        parse_model_spec(spec)


def test_parse_model_spec_rejects_unknown_provider() -> None:
    with pytest.raises(ValueError, match="unknown provider 'anthropic'"):
        parse_model_spec("anthropic:claude")


def test_build_chat_model_local_provider_defaults() -> None:
    model = build_chat_model("ollama:qwen2.5:7b", base_url=None, api_key=None, timeout_s=3.0)
    assert isinstance(model, ChatOpenAI)
    assert model.model_name == "qwen2.5:7b"
    assert model.openai_api_base == "http://127.0.0.1:11434/v1"
    assert model.max_retries == 0
    assert model.request_timeout == 3.0
    assert isinstance(model.openai_api_key, SecretStr)
    assert model.openai_api_key.get_secret_value() == "not-needed"


def test_build_chat_model_openai_without_key_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ValueError, match="no API key"):
        build_chat_model("openai:gpt-4.1-mini", base_url=None, api_key=None)


def test_build_chat_model_openai_compatible_needs_base_url() -> None:
    with pytest.raises(ValueError, match="needs a base URL"):
        build_chat_model("openai_compatible:m", base_url=None, api_key=None)


def test_intent_name_matches_intent_enum() -> None:
    # a changed or questioning answer to a confirmation is read by the template matcher only
    template_only = {Intent.CONFIRM_CHANGE.value, Intent.CONFIRM_UNCLEAR.value, Intent.PACK.value}
    assert get_args(IntentName) == tuple(i.value for i in Intent if i.value not in template_only)


async def test_prober_replans_a_tier_that_went_down_after_its_last_probe() -> None:
    """Probed healthy at t=0, tripped by its calls between probes (seen at t=10): it is probed
    at the down interval from then on (t=20), not 30 s after its healthy probe — the
    benchmark's recovery scenario waited 35 s between two probes of a down primary."""
    clock = FakeClock()
    primary = tier("primary", ["p"] * 10)
    health = TierHealth(clock)
    router = TierRouter([primary], health, backup_quota=RatioLimiter(ratio=0.5, clock=clock))
    prober = Prober(router, clock=clock, interval_s=30, unhealthy_interval_s=10)
    task = asyncio.create_task(prober.run_forever())
    probed_at: list[float] = []
    tripped = False
    for _ in range(400):
        await asyncio.sleep(0)
        calls = len(primary.model.calls)  # type: ignore[attr-defined]
        if calls > len(probed_at):
            probed_at.append(clock.now())
        if not tripped and clock.now() > 0:
            for _ in range(3):
                health.record("primary", False)  # its calls fail: the breaker opens
            tripped = True
        if clock.now() > 45:
            break
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert probed_at[:2] == [0, 20]  # before: [0, 30]
