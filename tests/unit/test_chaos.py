import json
from typing import Any

import httpx
import pytest

from helpdesk.degrade.chaos import ChaosPlan, ChaosTransport, Fault, FaultRule
from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.errors import (
    BusinessError,
    ErrorClass,
    RateLimitedError,
    UnavailableError,
    classify_failure,
)


def _plan(fault: Fault, *, target: str = "*", clock: FakeClock | None = None, **kw) -> ChaosPlan:
    return ChaosPlan([FaultRule(fault=fault, target=target, **kw)], clock=clock or FakeClock())


# -- rules and decisions -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"rate": -0.1}, "rate"),
        ({"rate": 1.1}, "rate"),
        ({"target": ""}, "target"),
        ({"start_s": 5.0, "end_s": 1.0}, "end_s"),
        ({"latency_s": -1.0}, "latency_s"),
        ({"retry_after_s": -1.0}, "retry_after_s"),
    ],
)
def test_fault_rule_rejects_bad_config(kwargs, match):
    with pytest.raises(ValueError, match=match):
        FaultRule(fault=Fault.LATENCY, **kwargs)


def test_fault_rule_accepts_fault_name():
    assert FaultRule(fault="timeout").fault is Fault.TIMEOUT  # type: ignore[arg-type]


def test_chaos_decide_none_without_rules():
    plan = ChaosPlan(clock=FakeClock())
    assert plan.decide("check_stock") is None
    assert plan.injected == []


def test_chaos_simple_builds_rules():
    plan = ChaosPlan.simple({"check_stock": {"unavailable": 1.0}}, seed=7, clock=FakeClock())
    assert plan.rules == (FaultRule(fault=Fault.UNAVAILABLE, rate=1.0, target="check_stock"),)
    assert plan.seed == 7
    rule = plan.decide("check_stock")
    assert rule is not None
    assert rule.fault is Fault.UNAVAILABLE
    assert plan.decide("faq") is None
    assert plan.injected == [("check_stock", Fault.UNAVAILABLE)]


def _schedule(plan: ChaosPlan, target: str, n: int) -> list[str | None]:
    out = []
    for _ in range(n):
        rule = plan.decide(target)
        out.append(None if rule is None else str(rule.fault))
    return out


def test_chaos_seeded_schedule_is_reproducible():
    spec = {"check_stock": {"timeout": 0.3, "unavailable": 0.3}}
    a = _schedule(ChaosPlan.simple(spec, seed=7, clock=FakeClock()), "check_stock", 50)
    b = _schedule(ChaosPlan.simple(spec, seed=7, clock=FakeClock()), "check_stock", 50)
    c = _schedule(ChaosPlan.simple(spec, seed=8, clock=FakeClock()), "check_stock", 50)
    assert a == b
    assert a != c
    assert {"timeout", "unavailable", None} == set(a)


def test_chaos_schedule_matches_documented_seeding():
    import random

    plan = ChaosPlan([FaultRule(fault=Fault.TIMEOUT, rate=0.5)], seed=3, clock=FakeClock())
    rng = random.Random("3:orders")
    expected = ["timeout" if rng.random() < 0.5 else None for _ in range(20)]
    assert _schedule(plan, "orders", 20) == expected


def test_chaos_targets_are_independent():
    rules = [FaultRule(fault=Fault.TIMEOUT, rate=0.5)]
    alone = ChaosPlan(rules, seed=1, clock=FakeClock())
    busy = ChaosPlan(rules, seed=1, clock=FakeClock())
    expected = _schedule(alone, "orders", 30)
    got = []
    for _ in range(30):
        _schedule(busy, "faq", 3)  # other traffic in between
        got.extend(_schedule(busy, "orders", 1))
    assert got == expected


def test_chaos_rate_zero_never_and_one_always():
    plan = ChaosPlan(
        [
            FaultRule(fault=Fault.TIMEOUT, rate=0.0),
            FaultRule(fault=Fault.LATENCY, rate=1.0),
        ],
        clock=FakeClock(),
    )
    assert _schedule(plan, "x", 10) == ["latency"] * 10


def test_chaos_first_matching_rule_wins_in_order():
    plan = ChaosPlan(
        [
            FaultRule(fault=Fault.UNAVAILABLE, target="check_stock"),
            FaultRule(fault=Fault.LATENCY),
        ],
        clock=FakeClock(),
    )
    assert _schedule(plan, "check_stock", 2) == ["unavailable", "unavailable"]
    assert _schedule(plan, "faq", 1) == ["latency"]


def test_chaos_target_glob():
    plan = _plan(Fault.UNAVAILABLE, target="model:*")
    assert _schedule(plan, "model:primary", 1) == ["unavailable"]
    assert _schedule(plan, "check_stock", 1) == [None]


def test_chaos_time_window_relative_to_plan_start():
    clock = FakeClock(start=100.0)
    plan = _plan(Fault.UNAVAILABLE, clock=clock, start_s=10.0, end_s=20.0)
    seen = []
    for t in (0.0, 9.999, 10.0, 19.999, 20.0, 50.0):
        clock.advance(t - (clock.now() - 100.0))
        seen.append(plan.decide("x") is not None)
    assert seen == [False, False, True, True, False, False]


def test_chaos_open_ended_windows():
    clock = FakeClock()
    plan = ChaosPlan(
        [FaultRule(fault=Fault.TIMEOUT, end_s=5.0), FaultRule(fault=Fault.LATENCY, start_s=5.0)],
        clock=clock,
    )
    assert _schedule(plan, "x", 1) == ["timeout"]
    clock.advance(5.0)
    assert _schedule(plan, "x", 1) == ["latency"]


# -- wrap() ------------------------------------------------------------------------------------


class _Recorder:
    def __init__(self, result=None):
        self.calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        self.result = {"sku": "A", "stock": 3} if result is None else result

    def __call__(self, *args, **kwargs):
        self.calls.append((args, kwargs))
        return self.result


async def test_chaos_wrap_passthrough_sync_and_async():
    plan = ChaosPlan(clock=FakeClock())
    sync = _Recorder()
    assert await plan.wrap("t", sync)("A", n=1) == {"sku": "A", "stock": 3}
    assert sync.calls == [(("A",), {"n": 1})]

    async def afn(x: int) -> int:
        return x * 2

    assert await plan.wrap("t", afn)(21) == 42


async def test_chaos_wrap_latency_sleeps_then_calls():
    clock = FakeClock()
    fn = _Recorder()
    plan = _plan(Fault.LATENCY, clock=clock, latency_s=2.5)
    assert await plan.wrap("t", fn)() == {"sku": "A", "stock": 3}
    assert clock.sleeps == [2.5]
    assert len(fn.calls) == 1


async def test_chaos_wrap_latency_honours_timeout():
    clock = FakeClock()
    fn = _Recorder()
    plan = _plan(Fault.LATENCY, clock=clock, latency_s=5.0)
    with pytest.raises(TimeoutError):
        async with clock.timeout(1.0):
            await plan.wrap("t", fn)()
    assert fn.calls == []
    assert clock.now() == 1.0


async def test_chaos_wrap_timeout_does_not_call():
    fn = _Recorder()
    with pytest.raises(TimeoutError):
        await _plan(Fault.TIMEOUT).wrap("t", fn)()
    assert fn.calls == []


async def test_chaos_wrap_response_lost_calls_then_raises():
    fn = _Recorder()
    wrapped = _plan(Fault.RESPONSE_LOST).wrap("cancel_order", fn, is_write=True)
    with pytest.raises(TimeoutError) as info:
        await wrapped("O-1")
    assert fn.calls == [(("O-1",), {})]
    failure = classify_failure(info.value, tool="cancel_order", is_write=True)
    assert failure.error_class is ErrorClass.UNKNOWN_OUTCOME


async def test_chaos_wrap_connection_reset_does_not_call():
    fn = _Recorder()
    with pytest.raises(ConnectionResetError) as info:
        await _plan(Fault.CONNECTION_RESET).wrap("t", fn)()
    assert fn.calls == []
    assert classify_failure(info.value, tool="t").error_class is ErrorClass.TRANSIENT


async def test_chaos_wrap_rate_limited():
    fn = _Recorder()
    with pytest.raises(RateLimitedError) as info:
        await _plan(Fault.RATE_LIMITED, retry_after_s=3.0).wrap("t", fn)()
    assert fn.calls == []
    assert (info.value.retry_after, info.value.status_code) == (3.0, 429)
    assert info.value.reason == "t: 429 rate limited (fault injection), Retry-After 3s"


@pytest.mark.parametrize(("fault", "status"), [(Fault.UNAVAILABLE, 503), (Fault.SERVER_ERROR, 500)])
async def test_chaos_wrap_unavailable_and_server_error(fault, status):
    fn = _Recorder()
    with pytest.raises(UnavailableError) as info:
        await _plan(fault).wrap("t", fn)()
    assert fn.calls == []
    assert info.value.status_code == status
    assert info.value.retry_after is None


async def test_chaos_wrap_truncated_json_calls_then_raises():
    fn = _Recorder()
    with pytest.raises(json.JSONDecodeError) as info:
        await _plan(Fault.TRUNCATED_JSON).wrap("t", fn)()
    assert len(fn.calls) == 1
    assert info.value.msg == "truncated"
    assert classify_failure(info.value, tool="t").error_class is ErrorClass.SCHEMA


async def test_chaos_wrap_empty_data_calls_then_returns_none():
    fn = _Recorder()
    assert await _plan(Fault.EMPTY_DATA).wrap("t", fn)() is None
    assert len(fn.calls) == 1


async def test_chaos_wrap_business_error():
    fn = _Recorder()
    with pytest.raises(BusinessError) as info:
        await _plan(Fault.BUSINESS_ERROR).wrap("t", fn)()
    assert fn.calls == []
    assert info.value.code == "chaos_business"


async def test_chaos_wrap_logs_injected_and_keeps_name():
    plan = _plan(Fault.EMPTY_DATA, target="check_stock")

    def check_stock() -> int:
        return 1

    wrapped = plan.wrap("check_stock", check_stock)
    assert wrapped.__name__ == "check_stock"
    await wrapped()
    await plan.wrap("faq", check_stock)()
    assert plan.injected == [("check_stock", Fault.EMPTY_DATA)]


# -- ChaosTransport ----------------------------------------------------------------------------


class _Backend:
    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(200, json={"sku": "SKU-1001", "stock": 12, "warehouse": "north"})


def _client(plan: ChaosPlan, backend: _Backend, **kw) -> httpx.AsyncClient:
    transport = ChaosTransport(httpx.MockTransport(backend), plan, **kw)
    return httpx.AsyncClient(transport=transport, base_url="http://shop")


async def test_chaos_transport_passthrough():
    backend = _Backend()
    async with _client(ChaosPlan(clock=FakeClock()), backend) as client:
        response = await client.get("/inventory/SKU-1001")
    assert response.status_code == 200
    assert response.json()["stock"] == 12
    assert len(backend.requests) == 1


async def test_chaos_transport_latency():
    clock = FakeClock()
    backend = _Backend()
    async with _client(_plan(Fault.LATENCY, clock=clock, latency_s=1.5), backend) as client:
        response = await client.get("/inventory/SKU-1001")
    assert response.status_code == 200
    assert clock.sleeps == [1.5]
    assert len(backend.requests) == 1


async def test_chaos_transport_timeout_does_not_forward():
    backend = _Backend()
    async with _client(_plan(Fault.TIMEOUT), backend) as client:
        with pytest.raises(httpx.ReadTimeout):
            await client.get("/inventory/SKU-1001")
    assert backend.requests == []


async def test_chaos_transport_response_lost_forwards_then_times_out():
    backend = _Backend()
    async with _client(_plan(Fault.RESPONSE_LOST), backend) as client:
        with pytest.raises(httpx.ReadTimeout) as info:
            await client.post("/orders/O-1/cancel")
    assert len(backend.requests) == 1
    failure = classify_failure(info.value, tool="cancel_order", is_write=True)
    assert failure.error_class is ErrorClass.UNKNOWN_OUTCOME


async def test_chaos_transport_connection_reset_does_not_forward():
    backend = _Backend()
    async with _client(_plan(Fault.CONNECTION_RESET), backend) as client:
        with pytest.raises(httpx.ConnectError, match="connection reset by peer"):
            await client.get("/inventory/SKU-1001")
    assert backend.requests == []


async def test_chaos_transport_rate_limited():
    backend = _Backend()
    async with _client(_plan(Fault.RATE_LIMITED, retry_after_s=2.0), backend) as client:
        response = await client.get("/inventory/SKU-1001")
    assert backend.requests == []
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "2"
    assert response.json()["error"]["code"] == "rate_limited"
    with pytest.raises(httpx.HTTPStatusError) as info:
        response.raise_for_status()
    failure = classify_failure(info.value, tool="inventory")
    assert (failure.error_class, failure.retry_after) == (ErrorClass.RATE_LIMITED, 2.0)


@pytest.mark.parametrize(
    ("fault", "status", "cls"),
    [
        (Fault.UNAVAILABLE, 503, ErrorClass.UNAVAILABLE),
        (Fault.SERVER_ERROR, 500, ErrorClass.UNAVAILABLE),
        (Fault.BUSINESS_ERROR, 409, ErrorClass.BUSINESS),
    ],
)
async def test_chaos_transport_error_statuses(fault, status, cls):
    backend = _Backend()
    async with _client(_plan(fault), backend) as client:
        response = await client.get("/inventory/SKU-1001")
    assert backend.requests == []
    assert response.status_code == status
    assert "Retry-After" not in response.headers
    with pytest.raises(httpx.HTTPStatusError) as info:
        response.raise_for_status()
    assert classify_failure(info.value, tool="inventory").error_class is cls


async def test_chaos_transport_business_error_body():
    async with _client(_plan(Fault.BUSINESS_ERROR), _Backend()) as client:
        response = await client.get("/x")
    assert response.json() == {
        "error": {"code": "chaos_business", "message": "rejected by fault injection"}
    }


async def test_chaos_transport_truncated_json():
    backend = _Backend()
    async with _client(_plan(Fault.TRUNCATED_JSON), backend) as client:
        response = await client.get("/inventory/SKU-1001")
    full = httpx.Response(200, json={"sku": "SKU-1001", "stock": 12, "warehouse": "north"})
    assert len(backend.requests) == 1
    assert response.status_code == 200
    assert response.content == full.content[: len(full.content) // 2]
    assert response.headers["content-length"] == str(len(full.content) // 2)
    with pytest.raises(json.JSONDecodeError) as info:
        response.json()
    assert classify_failure(info.value, tool="inventory").error_class is ErrorClass.SCHEMA


async def test_chaos_transport_empty_data():
    backend = _Backend()
    async with _client(_plan(Fault.EMPTY_DATA), backend) as client:
        response = await client.get("/inventory/SKU-1001")
    assert len(backend.requests) == 1
    assert response.status_code == 200
    assert response.json() == {}
    assert response.headers["content-type"] == "application/json"


async def test_chaos_transport_target_from_extension_then_path():
    backend = _Backend()
    plan = _plan(Fault.UNAVAILABLE, target="check_stock")
    async with _client(plan, backend) as client:
        tagged = await client.get("/inventory/A", extensions={"helpdesk_tool": "check_stock"})
        untagged = await client.get("/inventory/A")
    assert (tagged.status_code, untagged.status_code) == (503, 200)
    assert plan.injected == [("check_stock", Fault.UNAVAILABLE)]


async def test_chaos_transport_path_target_and_custom_target_of():
    backend = _Backend()
    plan = _plan(Fault.UNAVAILABLE, target="/inventory/*")
    async with _client(plan, backend) as client:
        assert (await client.get("/inventory/A")).status_code == 503
        assert (await client.get("/orders/1")).status_code == 200
    custom = _plan(Fault.UNAVAILABLE, target="GET")
    async with _client(custom, _Backend(), target_of=lambda r: r.method) as client:
        assert (await client.get("/anything")).status_code == 503
        assert (await client.post("/anything")).status_code == 200


async def test_chaos_timeout_fault_takes_its_hang_time() -> None:
    from helpdesk.degrade.chaos import ChaosPlan, Fault, FaultRule
    from helpdesk.degrade.clock import FakeClock

    clock = FakeClock()
    plan = ChaosPlan([FaultRule(fault=Fault.TIMEOUT, hang_s=2.0)], seed=1, clock=clock)

    async def call() -> str:
        return "never"

    wrapped = plan.wrap("get_order", call)
    with pytest.raises(TimeoutError, match="timed out before the call was sent"):
        await wrapped()
    assert clock.now() == 2.0
