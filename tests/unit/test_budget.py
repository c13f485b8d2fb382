import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpdesk.degrade.budget import RatioLimiter, RetryBudget
from helpdesk.degrade.clock import FakeClock

# -- RetryBudget -------------------------------------------------------------------------------


def test_budget_rejects_negative_retries():
    with pytest.raises(ValueError, match="max_retries"):
        RetryBudget(max_retries=-1, clock=FakeClock())


@pytest.mark.parametrize("seconds", [0.0, -1.0, float("inf"), float("nan")])
def test_budget_rejects_bad_max_seconds(seconds):
    with pytest.raises(ValueError, match="max_seconds"):
        RetryBudget(max_seconds=seconds, clock=FakeClock())


def test_budget_deadline_starts_at_construction():
    clock = FakeClock(start=10.0)
    budget = RetryBudget(max_seconds=8.0, clock=clock)
    assert budget.deadline == 18.0
    assert budget.remaining() == 8.0
    clock.advance(3.0)
    assert budget.remaining() == 5.0
    assert not budget.expired()


def test_budget_expired_at_deadline_and_remaining_never_negative():
    clock = FakeClock()
    budget = RetryBudget(max_seconds=2.0, clock=clock)
    clock.advance(2.0)
    assert budget.expired()
    assert budget.remaining() == 0.0
    clock.advance(5.0)
    assert budget.remaining() == 0.0


def test_budget_grants_max_retries_then_refuses():
    budget = RetryBudget(max_retries=3, clock=FakeClock())
    assert [budget.try_acquire_retry(0.1) for _ in range(5)] == [True, True, True, False, False]
    assert budget.retries_used == 3
    assert budget.retries_left() == 0


def test_budget_zero_retries_refuses():
    budget = RetryBudget(max_retries=0, clock=FakeClock())
    assert budget.try_acquire_retry(0.0) is False
    assert budget.retries_used == 0


def test_budget_refuses_wait_reaching_deadline_without_consuming():
    clock = FakeClock()
    budget = RetryBudget(max_retries=3, max_seconds=8.0, clock=clock)
    clock.advance(6.0)
    assert budget.try_acquire_retry(2.0) is False  # ends exactly at the deadline
    assert budget.retries_used == 0
    assert budget.try_acquire_retry(1.999) is True
    assert budget.retries_used == 1


def test_budget_refuses_after_expiry():
    clock = FakeClock()
    budget = RetryBudget(max_seconds=1.0, clock=clock)
    clock.advance(1.0)
    assert budget.try_acquire_retry(0.0) is False


def test_budget_rejects_negative_wait():
    with pytest.raises(ValueError, match="wait_s"):
        RetryBudget(clock=FakeClock()).try_acquire_retry(-1.0)


def test_budget_call_timeout_cascades():
    clock = FakeClock()
    budget = RetryBudget(max_seconds=8.0, clock=clock)
    assert budget.call_timeout(3.0) == 3.0
    clock.advance(6.5)
    assert budget.call_timeout(3.0) == 1.5
    clock.advance(5.0)
    assert budget.call_timeout(3.0) == 0.0


def test_budget_properties():
    budget = RetryBudget(max_retries=2, max_seconds=4.0, clock=FakeClock())
    assert (budget.max_retries, budget.max_seconds, budget.retries_used) == (2, 4.0, 0)
    assert repr(budget) == "RetryBudget(retries=0/2, remaining=4.000s)"


def test_budget_thread_safe_never_over_grants():
    budget = RetryBudget(max_retries=50, max_seconds=100.0, clock=FakeClock())
    granted: list[bool] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(100):
            ok = budget.try_acquire_retry(0.0)
            with lock:
                granted.append(ok)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert granted.count(True) == 50
    assert budget.retries_used == 50


_budget_ops = st.lists(
    st.one_of(
        st.tuples(st.just("advance"), st.floats(min_value=0, max_value=3)),
        st.tuples(st.just("acquire"), st.floats(min_value=0, max_value=10)),
    ),
    max_size=40,
)


@given(
    max_retries=st.integers(min_value=0, max_value=6),
    max_seconds=st.floats(min_value=0.01, max_value=20),
    ops=_budget_ops,
)
def test_budget_never_over_grants_property(max_retries, max_seconds, ops):
    clock = FakeClock()
    budget = RetryBudget(max_retries=max_retries, max_seconds=max_seconds, clock=clock)
    granted = 0
    for op, value in ops:
        if op == "advance":
            clock.advance(value)
            continue
        before = budget.retries_used
        ok = budget.try_acquire_retry(value)
        if ok:
            granted += 1
            assert clock.now() + value < budget.deadline
            assert budget.retries_used == before + 1
        else:
            assert budget.retries_used == before
            assert before == max_retries or clock.now() + value >= budget.deadline
        assert 0 <= budget.remaining() <= max_seconds
    assert granted == budget.retries_used <= max_retries


# -- RatioLimiter ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"ratio": 0.0}, "ratio"),
        ({"ratio": 1.5}, "ratio"),
        ({"ratio": 0.1, "window_s": 0.0}, "window_s"),
        ({"ratio": 0.1, "reserve_per_s": -1}, "reserve_per_s"),
        ({"ratio": 0.1, "buckets": 0}, "buckets"),
    ],
)
def test_ratio_limiter_rejects_bad_config(kwargs, match):
    with pytest.raises(ValueError, match=match):
        RatioLimiter(clock=FakeClock(), **kwargs)


def test_ratio_limiter_reserve_allows_without_primary():
    limiter = RatioLimiter(ratio=0.1, reserve_per_s=0.3, clock=FakeClock())
    assert [limiter.try_acquire() for _ in range(5)] == [True, True, True, False, False]


def test_ratio_limiter_zero_reserve_needs_primary():
    limiter = RatioLimiter(ratio=0.1, reserve_per_s=0.0, clock=FakeClock())
    assert limiter.try_acquire() is False
    limiter.record_primary(10)
    assert [limiter.try_acquire() for _ in range(3)] == [True, False, False]


def test_ratio_limiter_ratio_of_primary_plus_reserve():
    limiter = RatioLimiter(ratio=0.1, reserve_per_s=0.5, clock=FakeClock())
    limiter.record_primary(100)
    results = [limiter.try_acquire() for _ in range(20)]
    assert results.count(True) == 15
    assert results[:15] == [True] * 15


def test_ratio_limiter_window_expiry():
    clock = FakeClock()
    limiter = RatioLimiter(ratio=0.5, window_s=10.0, reserve_per_s=0.0, buckets=10, clock=clock)
    limiter.record_primary(4)
    assert [limiter.try_acquire() for _ in range(3)] == [True, True, False]
    clock.advance(9.99)  # same window still (bucket 9 of 0..9)
    assert limiter.try_acquire() is False
    clock.advance(0.01)  # t=10: bucket 0 leaves the window
    assert limiter.snapshot()["primary"] == 0
    assert limiter.try_acquire() is False
    limiter.record_primary(2)
    assert limiter.try_acquire() is True


def test_ratio_limiter_sliding_bucket_by_bucket():
    clock = FakeClock()
    limiter = RatioLimiter(ratio=1.0, window_s=4.0, reserve_per_s=0.0, buckets=4, clock=clock)
    for _ in range(4):
        limiter.record_primary()
        clock.advance(1.0)
    assert limiter.snapshot()["primary"] == 3  # t=4: the t=0 bucket aged out
    clock.advance(2.0)
    assert limiter.snapshot()["primary"] == 1


def test_ratio_limiter_snapshot():
    limiter = RatioLimiter(ratio=0.1, reserve_per_s=0.5, clock=FakeClock())
    limiter.record_primary(20)
    limiter.try_acquire()
    assert limiter.snapshot() == {
        "ratio": 0.1,
        "window_s": 10.0,
        "reserve_per_s": 0.5,
        "primary": 20,
        "secondary": 1,
        "allowed": 7.0,
    }


def test_ratio_limiter_record_primary_rejects_negative():
    with pytest.raises(ValueError, match="n must"):
        RatioLimiter(ratio=0.1, clock=FakeClock()).record_primary(-1)


def test_ratio_limiter_thread_safe():
    limiter = RatioLimiter(ratio=0.1, reserve_per_s=0.5, clock=FakeClock())
    limiter.record_primary(1000)
    granted: list[bool] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(100):
            ok = limiter.try_acquire()
            with lock:
                granted.append(ok)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert granted.count(True) == 105
    assert limiter.snapshot()["secondary"] == 105


@given(
    ratio=st.floats(min_value=0.01, max_value=1.0),
    floor=st.integers(min_value=0, max_value=5),
    ops=st.lists(
        st.one_of(
            st.tuples(st.just("primary"), st.integers(min_value=0, max_value=20)),
            st.tuples(st.just("acquire"), st.just(0)),
            st.tuples(st.just("advance"), st.integers(min_value=0, max_value=4)),
        ),
        max_size=80,
    ),
)
def test_ratio_limiter_bound_property(ratio, floor, ops):
    clock = FakeClock()
    limiter = RatioLimiter(
        ratio=ratio, window_s=10.0, reserve_per_s=floor / 10, buckets=10, clock=clock
    )
    events: list[tuple[int, str, int]] = []  # (bucket, kind, n) reference model
    for op, value in ops:
        if op == "advance":
            clock.advance(value)
        elif op == "primary":
            limiter.record_primary(value)
            events.append((int(clock.now()), "p", value))
        else:
            now_bucket = int(clock.now())
            live = [e for e in events if e[0] > now_bucket - 10]
            primary = sum(n for _, k, n in live if k == "p")
            secondary = sum(n for _, k, n in live if k == "s")
            ok = limiter.try_acquire()
            assert ok == (secondary < ratio * primary + limiter.reserve)
            if ok:
                events.append((now_bucket, "s", 1))
                assert secondary + 1 < ratio * primary + limiter.reserve + 1


def test_ratio_limiter_reserve_is_per_second_of_window():
    # a quiet process: 1 retry per second over a 10 s window, whatever the traffic
    limiter = RatioLimiter(ratio=0.5, window_s=10.0, reserve_per_s=1.0, clock=FakeClock())
    assert limiter.reserve == 10.0
    assert [limiter.try_acquire() for _ in range(11)] == [True] * 10 + [False]


def test_ratio_limiter_high_traffic_capped_at_ratio_plus_reserve():
    limiter = RatioLimiter(ratio=0.5, window_s=10.0, reserve_per_s=1.0, clock=FakeClock())
    limiter.record_primary(1000)
    granted = sum(limiter.try_acquire() for _ in range(2000))
    assert granted == 510


def test_ratio_limiter_refund_returns_a_slot():
    limiter = RatioLimiter(ratio=0.1, reserve_per_s=0.1, clock=FakeClock())
    assert limiter.try_acquire() is True
    assert limiter.try_acquire() is False
    limiter.refund()
    assert limiter.snapshot()["secondary"] == 0
    assert limiter.try_acquire() is True


def test_budget_can_retry_consumes_nothing():
    budget = RetryBudget(max_retries=1, max_seconds=8.0, clock=FakeClock())
    assert budget.can_retry(1.0) is True
    assert budget.can_retry(8.0) is False
    assert budget.retries_used == 0
