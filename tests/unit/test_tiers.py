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

from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.clock import FakeClock
from helpdesk.graph.intents import Intent
from helpdesk.graph.llm import build_chat_model, parse_model_spec
from helpdesk.graph.stages import IntentName
from helpdesk.graph.tiers import ModelTier, Prober, TierHealth, TierRouter


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
    quota = RatioLimiter(ratio=0.5, window_s=10.0, floor=floor, clock=clock)
    return TierRouter(
        [tier("backup"), tier("primary")], health or TierHealth(clock), backup_quota=quota
    )


# --- TierHealth ---------------------------------------------------------------------------------


def test_health_is_up_for_unknown_tier() -> None:
    assert TierHealth(FakeClock()).is_up("primary")


def test_health_passive_failures_below_half_mark_tier_down() -> None:
    health = TierHealth(FakeClock())
    for ok in (True, False, False):
        health.record("primary", ok)
    assert not health.is_up("primary")


def test_health_passive_needs_min_samples() -> None:
    health = TierHealth(FakeClock(), min_samples=3)
    health.record("primary", False)
    health.record("primary", False)
    assert health.is_up("primary")


def test_health_passive_half_success_stays_up() -> None:
    health = TierHealth(FakeClock(), min_samples=2)
    health.record("primary", True)
    health.record("primary", False)
    assert health.is_up("primary")


def test_health_passive_window_forgets_old_failures() -> None:
    clock = FakeClock()
    health = TierHealth(clock, window_s=60)
    for _ in range(3):
        health.record("primary", False)
    clock.advance(60)
    assert health.is_up("primary")


def test_health_passive_window_keeps_recent_failures() -> None:
    clock = FakeClock()
    health = TierHealth(clock, window_s=60)
    for _ in range(3):
        health.record("primary", False)
    clock.advance(59)
    assert not health.is_up("primary")


def test_health_probes_below_half_mark_tier_down() -> None:
    health = TierHealth(FakeClock())
    health.record("backup", False, probe=True)
    health.record("backup", False, probe=True)
    assert not health.is_up("backup")


def test_health_single_failed_probe_is_not_enough() -> None:
    health = TierHealth(FakeClock(), min_probes=2)
    health.record("backup", False, probe=True)
    assert health.is_up("backup")


def test_health_probe_recovery_brings_tier_back() -> None:
    health = TierHealth(FakeClock(), probe_window=4)
    for ok in (False, False, True):
        health.record("primary", ok, probe=True)
    assert not health.is_up("primary")
    health.record("primary", True, probe=True)
    assert health.is_up("primary")


def test_health_successful_probe_clears_passive_outage() -> None:
    health = TierHealth(FakeClock())
    for _ in range(3):
        health.record("primary", False)
    health.record("primary", True, probe=True)
    assert health.is_up("primary")


def test_health_snapshot_reports_counts() -> None:
    health = TierHealth(FakeClock())
    health.record("primary", True)
    health.record("primary", False)
    health.record("backup", False, probe=True)
    assert health.snapshot() == {
        "backup": {
            "up": True,
            "passive_ok": 0,
            "passive_total": 0,
            "probe_ok": 0,
            "probe_total": 1,
        },
        "primary": {
            "up": True,
            "passive_ok": 1,
            "passive_total": 2,
            "probe_ok": 0,
            "probe_total": 0,
        },
    }


@pytest.mark.parametrize(
    "kwargs",
    [
        {"window_s": 0},
        {"min_samples": 0},
        {"down_below": 0},
        {"down_below": 1.5},
        {"min_probes": 5, "probe_window": 4},
    ],
)
def test_health_rejects_bad_config(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        TierHealth(FakeClock(), **kwargs)


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
    health = TierHealth(clock, min_probes=1)
    quota = RatioLimiter(ratio=0.5, clock=clock)
    router = TierRouter(
        [tier("primary", [RuntimeError("down")]), tier("backup", ["p"])], health, backup_quota=quota
    )
    assert await Prober(router, clock=clock).probe_once() == {"primary": False, "backup": True}
    assert not health.is_up("primary")
    assert health.is_up("backup")


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


def test_prober_rejects_non_positive_interval() -> None:
    clock = FakeClock()
    with pytest.raises(ValueError, match="interval_s"):
        Prober(router_for(clock), clock=clock, interval_s=0)


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
