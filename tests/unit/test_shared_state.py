"""Replica-shared breakers and retry ratio (degrade/shared.py) with a fake clock and a fake
sync."""

from __future__ import annotations

from helpdesk.degrade.breaker import BreakerPolicy, BreakerState, BreakerTransition
from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.errors import ErrorClass
from helpdesk.degrade.shared import SharedBreakerBoard, SharedRatioLimiter


class FakeSync:
    def __init__(self) -> None:
        self.open: dict[str, float] = {}
        self.published: list[tuple[str, str, float | None]] = []
        self.counts = (0, 0)

    def open_until(self, name: str) -> float | None:
        return self.open.get(name)

    def publish(self, transition: BreakerTransition, open_until: float | None) -> None:
        self.published.append((transition.name, str(transition.to_state), open_until))

    def others(self) -> tuple[int, int]:
        return self.counts


POLICY = BreakerPolicy(failure_count=2, min_calls=2, open_s=30.0)


def test_shared_breaker_refuses_while_another_replica_holds_it_open() -> None:
    clock, sync = FakeClock(), FakeSync()
    breaker = SharedBreakerBoard(POLICY, clock, sync=sync).get("track_shipment")
    assert breaker.try_acquire() and breaker.state is BreakerState.CLOSED
    sync.open["track_shipment"] = clock.wall() + 10
    assert not breaker.try_acquire()
    assert breaker.state is BreakerState.OPEN
    assert breaker.retry_after() == 10.0
    clock.advance(10)
    assert breaker.try_acquire() and breaker.state is BreakerState.CLOSED


def test_shared_breaker_publishes_its_own_transitions_with_the_open_deadline() -> None:
    clock, sync = FakeClock(), FakeSync()
    breaker = SharedBreakerBoard(POLICY, clock, sync=sync).get("get_order")
    for _ in range(2):
        assert breaker.try_acquire()
        breaker.record_failure(ErrorClass.UNAVAILABLE)
    assert sync.published == [("get_order", "open", clock.wall() + 30.0)]


def test_shared_ratio_limiter_caps_retries_across_the_fleet() -> None:
    clock, sync = FakeClock(), FakeSync()
    limiter = SharedRatioLimiter(sync=sync, ratio=0.1, reserve_per_s=0, clock=clock)
    limiter.record_primary(20)  # alone: 2 retries allowed
    assert limiter.try_acquire()
    sync.counts = (0, 2)  # another replica already retried twice: the fleet's cap is spent
    assert not limiter.try_acquire()
    sync.counts = (0, 0)
    assert limiter.try_acquire()
    assert limiter.snapshot()["fleet_secondary"] == 2
