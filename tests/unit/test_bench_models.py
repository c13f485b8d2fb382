"""The benchmark's models of the world: model latency per call, the shop's capacity."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from helpdesk.app.bench import overload
from helpdesk.app.bench.brain import LatencyModel
from helpdesk.app.bench.overload import CapacityPlan
from helpdesk.degrade.chaos import Fault


def test_latency_model_default_median_and_p95() -> None:
    model = LatencyModel()
    rng = random.Random(1)
    draws = sorted(model.draw(rng, 0) for _ in range(20_000))
    assert draws[10_000] == pytest.approx(0.8, rel=0.05)
    assert draws[19_000] == pytest.approx(2.5, rel=0.05)


def test_latency_model_adds_time_per_output_token() -> None:
    model = LatencyModel(median_s=1.0, p95_s=1.0, per_token_s=0.01)
    assert model.draw(random.Random(1), 400) == pytest.approx(2.0)  # 100 tokens


def test_latency_model_fixed_is_steady() -> None:
    model = LatencyModel(median_s=2.5, p95_s=2.5, per_token_s=0.0, fixed=True)
    assert {model.draw(random.Random(s), 80) for s in range(5)} == {2.5}


@pytest.mark.parametrize(("median", "p95"), [(1.0, 0.5), (-1.0, 1.0)])
def test_latency_model_rejects_bad_config(median: float, p95: float) -> None:
    with pytest.raises(ValueError, match="median_s"):
        LatencyModel(median_s=median, p95_s=p95)


def test_capacity_plan_serves_queues_then_sheds(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(overload.time, "monotonic", lambda: now[0])
    plan = CapacityPlan(seed=1, capacity=2, service_s=0.25, max_wait_s=0.5)
    decided = [plan.decide("get_order") for _ in range(7)]
    kinds = [d.fault if d else None for d in decided]
    # two slots at once, then waits of 0.25 s (x2) and 0.5 s (x2), then 503
    assert kinds == [Fault.LATENCY] * 6 + [Fault.UNAVAILABLE]
    assert [d.latency_s for d in decided[:6] if d] == [0.25, 0.25, 0.5, 0.5, 0.75, 0.75]
    assert (len(plan.admitted), len(plan.shed), plan.requests) == (6, 1, 7)
    now[0] += 0.75  # every slot free again
    assert plan.decide("check_stock").fault is Fault.LATENCY
    assert plan.decide("model:primary") is None
    assert plan.requests == 8


def test_bench_config_names_unknown_systems() -> None:
    from helpdesk.app.bench.runner import BenchConfig

    assert BenchConfig(systems=("helpdesk",)).systems == ("helpdesk",)
    with pytest.raises(ValueError, match="unknown systems: \\['langchian'\\]"):
        BenchConfig(systems=("helpdesk", "langchian"))
    with pytest.raises(ValueError, match="unknown systems"):
        BenchConfig(systems=())


def test_an_overload_only_run_draws_no_turn_chart(tmp_path: Path) -> None:
    # `helpdesk bench --scenarios overload` has no turn scenario: the chart is skipped (it
    # crashed in matplotlib before), the markdown still carries the overload table
    from helpdesk.app.bench.report import _chart

    assert _chart({"results": []}, tmp_path / "report.png") is False
    assert not (tmp_path / "report.png").exists()
