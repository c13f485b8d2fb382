import asyncio
import time

import pytest

from helpdesk.degrade.clock import Clock, FakeClock, SystemClock


def test_fake_clock_starts_at_given_times():
    clock = FakeClock(start=5.0, wall_start=100.0)
    assert clock.now() == 5.0
    assert clock.wall() == 100.0


def test_fake_clock_advance_moves_now_and_wall():
    clock = FakeClock()
    clock.advance(2.5)
    assert clock.now() == 2.5
    assert clock.wall() == 1_800_000_002.5
    assert clock.sleeps == []


def test_fake_clock_advance_rejects_negative():
    with pytest.raises(ValueError, match="backwards"):
        FakeClock().advance(-1)


def test_fake_clock_is_a_clock():
    assert isinstance(FakeClock(), Clock)
    assert isinstance(SystemClock(), Clock)


async def test_fake_clock_sleep_advances_and_records():
    clock = FakeClock()
    await clock.sleep(1.5)
    await clock.sleep(0.25)
    await clock.sleep(0)
    assert clock.now() == 1.75
    assert clock.sleeps == [1.5, 0.25, 0]


async def test_fake_clock_sleep_rejects_negative():
    clock = FakeClock()
    with pytest.raises(ValueError, match="negative"):
        await clock.sleep(-0.1)
    assert clock.sleeps == []


async def test_fake_clock_sleep_yields_to_the_loop():
    clock = FakeClock()
    order: list[str] = []

    async def other() -> None:
        order.append("other")

    task = asyncio.create_task(other())
    await clock.sleep(1)
    order.append("after sleep")
    await task
    assert order == ["other", "after sleep"]


async def test_fake_clock_timeout_cuts_sleep_at_the_deadline():
    clock = FakeClock()
    with pytest.raises(TimeoutError):
        async with clock.timeout(2.0):
            await clock.sleep(1.0)
            await clock.sleep(5.0)
    assert clock.now() == 2.0
    assert clock.sleeps == [1.0, 5.0]


async def test_fake_clock_timeout_sleep_exactly_to_deadline_does_not_raise():
    clock = FakeClock()
    async with clock.timeout(2.0):
        await clock.sleep(2.0)
    assert clock.now() == 2.0


async def test_fake_clock_timeout_body_within_deadline_passes():
    clock = FakeClock()
    async with clock.timeout(3.0):
        await clock.sleep(1.0)
    await clock.sleep(10.0)  # no deadline outside the block
    assert clock.now() == 11.0


async def test_fake_clock_timeout_none_sets_no_deadline():
    clock = FakeClock()
    async with clock.timeout(None):
        assert clock.deadline() is None
        await clock.sleep(100.0)
    assert clock.now() == 100.0


async def test_fake_clock_timeout_raises_on_exit_when_advanced_past_deadline():
    clock = FakeClock()
    with pytest.raises(TimeoutError):
        async with clock.timeout(1.0):
            clock.advance(1.5)


async def test_fake_clock_timeout_rejects_negative():
    with pytest.raises(ValueError, match="timeout"):
        FakeClock().timeout(-1)


async def test_fake_clock_nested_timeout_tightest_wins_inner():
    clock = FakeClock()
    with pytest.raises(TimeoutError):
        async with clock.timeout(10.0), clock.timeout(1.0):
            assert clock.deadline() == 1.0
            await clock.sleep(5.0)
    assert clock.now() == 1.0


async def test_fake_clock_nested_timeout_tightest_wins_outer():
    clock = FakeClock()
    with pytest.raises(TimeoutError):
        async with clock.timeout(2.0), clock.timeout(10.0):
            assert clock.deadline() == 2.0
            await clock.sleep(5.0)
    assert clock.now() == 2.0


async def test_fake_clock_nested_timeout_restores_outer_deadline():
    clock = FakeClock()
    async with clock.timeout(10.0):
        async with clock.timeout(1.0):
            await clock.sleep(0.5)
        assert clock.deadline() == 10.0
        await clock.sleep(5.0)
    assert clock.deadline() is None
    assert clock.now() == 5.5


async def test_fake_clock_concurrent_sleeps_overlap():
    clock = FakeClock()
    await asyncio.gather(clock.sleep(1.0), clock.sleep(3.0), clock.sleep(2.0))
    assert clock.now() == 3.0
    assert clock.sleeps == [1.0, 3.0, 2.0]


async def test_fake_clock_concurrent_tasks_sleeping_in_steps():
    clock = FakeClock()
    seen: dict[str, list[float]] = {"a": [], "b": []}

    async def ticker(name: str, step: float, n: int) -> None:
        for _ in range(n):
            await clock.sleep(step)
            seen[name].append(clock.now())

    await asyncio.gather(ticker("a", 1.0, 3), ticker("b", 1.0, 3))
    assert seen == {"a": [1.0, 2.0, 3.0], "b": [1.0, 2.0, 3.0]}
    assert clock.sleeps == [1.0] * 6
    assert clock.now() == 3.0


async def test_fake_clock_deadlines_are_per_task():
    clock = FakeClock()

    async def limited() -> str:
        try:
            async with clock.timeout(1.0):
                await clock.sleep(5.0)
        except TimeoutError:
            return "timed out"
        return "finished"

    async def free() -> str:
        await clock.sleep(0.5)
        return "finished"

    assert list(await asyncio.gather(limited(), free())) == ["timed out", "finished"]


async def test_system_clock_sleep_and_timeout():
    clock = SystemClock()
    before = clock.now()
    await clock.sleep(0)
    assert clock.now() >= before
    assert abs(clock.wall() - time.time()) < 5
    with pytest.raises(TimeoutError):
        async with clock.timeout(0.001):
            await asyncio.sleep(1)
    async with clock.timeout(None):
        await clock.sleep(0)
