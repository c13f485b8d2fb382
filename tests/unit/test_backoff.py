import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt
from tenacity.wait import wait_fixed

from helpdesk.degrade.backoff import FullJitterBackoff


def _state(attempt: int) -> RetryCallState:
    state = RetryCallState(retry_object=None, fn=None, args=(), kwargs={})  # type: ignore[arg-type]
    state.attempt_number = attempt
    return state


def test_backoff_rejects_non_positive_base():
    with pytest.raises(ValueError, match="base"):
        FullJitterBackoff(base=0)


def test_backoff_rejects_cap_below_base():
    with pytest.raises(ValueError, match="cap"):
        FullJitterBackoff(base=1.0, cap=0.5)


def test_backoff_ceiling_doubles_until_cap():
    backoff = FullJitterBackoff(base=0.5, cap=4.0)
    assert [backoff.ceiling(n) for n in range(1, 7)] == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]


def test_backoff_ceiling_huge_attempt_is_cap():
    assert FullJitterBackoff(base=0.5, cap=4.0).ceiling(10_000) == 4.0


def test_backoff_ceiling_rejects_attempt_zero():
    with pytest.raises(ValueError, match="attempt"):
        FullJitterBackoff().ceiling(0)


def test_backoff_delay_uses_injected_rng():
    expected_rng = random.Random(42)
    expected = [expected_rng.uniform(0, c) for c in (0.5, 1.0, 2.0, 4.0)]
    backoff = FullJitterBackoff(rng=random.Random(42))
    assert [backoff.delay(n) for n in (1, 2, 3, 4)] == expected


def test_backoff_call_reads_attempt_number():
    a = FullJitterBackoff(rng=random.Random(1))
    b = FullJitterBackoff(rng=random.Random(1))
    assert a(_state(3)) == b.delay(3)


def test_backoff_composes_with_tenacity_waits():
    combined = FullJitterBackoff(base=1.0, cap=1.0, rng=random.Random(0)) + wait_fixed(10)
    value = combined(_state(1))
    assert 10.0 <= value <= 11.0


async def test_backoff_drives_tenacity_sleeps():
    waits: list[float] = []

    async def record(seconds: float) -> None:
        waits.append(seconds)

    backoff = FullJitterBackoff(base=0.5, cap=4.0, rng=random.Random(3))
    expected_rng = random.Random(3)
    expected = [expected_rng.uniform(0, 0.5), expected_rng.uniform(0, 1.0)]
    calls = 0

    async def flaky() -> str:
        nonlocal calls
        calls += 1
        if calls < 3:
            raise ConnectionError("boom")
        return "ok"

    retrying = AsyncRetrying(
        wait=backoff,
        stop=stop_after_attempt(5),
        retry=retry_if_exception_type(ConnectionError),
        sleep=record,
    )
    assert await retrying(flaky) == "ok"
    assert waits == expected


@given(
    base=st.floats(min_value=0.001, max_value=10),
    factor=st.floats(min_value=1, max_value=100),
    attempt=st.integers(min_value=1, max_value=200),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_backoff_delay_within_bounds_property(base, factor, attempt, seed):
    cap = base * factor
    backoff = FullJitterBackoff(base=base, cap=cap, rng=random.Random(seed))
    delay = backoff.delay(attempt)
    assert 0 <= delay <= min(cap, base * 2.0 ** min(attempt - 1, 1000))


@given(
    seed=st.integers(min_value=0, max_value=2**32),
    attempts=st.lists(st.integers(min_value=1, max_value=30), max_size=20),
)
def test_backoff_deterministic_for_seed_property(seed, attempts):
    a = FullJitterBackoff(rng=random.Random(seed))
    b = FullJitterBackoff(rng=random.Random(seed))
    assert [a.delay(n) for n in attempts] == [b.delay(n) for n in attempts]


@pytest.mark.parametrize("attempt", [1, 2, 3, 5])
def test_delay_from_half_stays_in_the_upper_half_of_the_ceiling(attempt: int) -> None:
    backoff = FullJitterBackoff(base=0.5, cap=4.0, rng=random.Random(3))
    ceiling = backoff.ceiling(attempt)
    waits = [backoff.delay_from_half(attempt) for _ in range(500)]
    assert all(ceiling / 2 <= w <= ceiling for w in waits)
    assert min(waits) < ceiling * 0.55 and max(waits) > ceiling * 0.95  # spread over it
