"""Client-side adaptive throttling on a fake clock: noise and a 2x overload are not shed, the
excess beyond k x accepted is, an outage is told from overload, and overload is forgotten one
window after it ends."""

from __future__ import annotations

import random

import pytest

from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.throttle import AdaptiveThrottle, ThrottleBoard, ThrottlePolicy


def _throttle(**policy: float) -> tuple[AdaptiveThrottle, FakeClock]:
    clock = FakeClock()
    throttle = AdaptiveThrottle(
        "get_order",
        ThrottlePolicy(**policy),
        clock=clock,
        rng=random.Random(7),  # type: ignore[arg-type]
    )
    return throttle, clock


def _ask(throttle: AdaptiveThrottle, *, accepted: bool) -> bool:
    admitted = throttle.admit()
    if admitted:
        throttle.record(accepted=accepted)
    return admitted


def test_nothing_is_shed_while_the_dependency_accepts_half() -> None:
    throttle, clock = _throttle()
    for i in range(200):
        assert _ask(throttle, accepted=i % 2 == 0)  # a 2x overload: every other one served
        clock.advance(0.05)
    assert throttle.reject_probability() == 0.0
    assert throttle.serving()


def test_transient_noise_is_never_shed() -> None:
    throttle, clock = _throttle()
    for _ in range(100):
        assert _ask(throttle, accepted=True)  # timeouts and resets are accepted: not load
        clock.advance(0.1)
    assert throttle.reject_probability() == 0.0


def test_the_excess_beyond_k_times_accepted_is_shed_locally() -> None:
    throttle, clock = _throttle()
    sent, served, last_served = 0, 0, -1.0
    for _ in range(800):  # 20 s
        # offered 40/s, the dependency serves 10/s (a 4x overload) and refuses the rest
        if throttle.admit():
            sent += 1
            free = clock.now() - last_served >= 0.1
            if free:
                served, last_served = served + 1, clock.now()
            throttle.record(accepted=free)
        clock.advance(0.025)
    # p = 1 - k * (its acceptance rate): a share of the 4x overload is shed here, while it
    # still gets more than k times what it serves (its goodput is not cut)
    assert sent < 0.75 * 800
    assert sent > 2 * served
    assert throttle.reject_probability() > 0.2


def test_a_dependency_refusing_everything_is_asked_ever_more_rarely_but_never_never() -> None:
    throttle, _clock = _throttle()
    admitted = [_ask(throttle, accepted=False) for _ in range(1000)]
    assert all(admitted[:10])  # the first ten: too few answers to judge
    # p = n/(n+1) after n refusals: the n-th still goes out with chance 1/(n+1), so about
    # sqrt(2 x 1000) of 1000 reach it (its recovery is seen) against 1000 without throttling
    assert 10 < sum(admitted[10:]) < 80
    assert 0.95 < throttle.reject_probability() < 1.0
    assert not throttle.serving()


def test_outage_is_told_from_overload_by_what_is_served() -> None:
    down, _ = _throttle()
    _ask(down, accepted=False)
    assert not down.serving()  # nothing served in the window: an outage, the breaker's call
    overloaded, clock = _throttle()
    for i in range(30):
        _ask(overloaded, accepted=i % 5 == 0)  # serves a fifth of what is asked: overload
    assert overloaded.serving()
    for _ in range(110):  # then it goes down: once its last success leaves the window...
        _ask(overloaded, accepted=False)
        clock.advance(0.1)
    assert not overloaded.serving()  # ...its refusals are an outage


def test_overload_is_forgotten_one_window_after_it_ends() -> None:
    throttle, clock = _throttle(window_s=10.0, buckets=10)
    for _ in range(50):
        _ask(throttle, accepted=False)
        clock.advance(0.1)
    assert throttle.reject_probability() > 0.9
    clock.advance(10.0)
    assert throttle.reject_probability() == 0.0
    assert all(_ask(throttle, accepted=True) for _ in range(20))


@pytest.mark.parametrize(
    "kwargs",
    [{"window_s": 0}, {"buckets": 0}, {"k": 0.5}, {"serving_ratio": 1.5}, {"min_requests": -1}],
)
def test_policy_rejects_bad_values(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        ThrottlePolicy(**kwargs)  # type: ignore[arg-type]


def test_board_gives_one_throttle_per_name() -> None:
    board = ThrottleBoard(clock=FakeClock(), rng=random.Random(1))
    assert board.get("a") is board.get("a") and board.get("a") is not board.get("b")
    board.get("a").admit()
    board.get("a").record(accepted=True)
    assert board.snapshot()["a"]["sent"] == 1


def test_a_parallel_burst_does_not_throttle_itself() -> None:
    throttle, _ = _throttle()
    assert all(throttle.admit() for _ in range(20))  # 20 in flight, nothing answered yet
    for _ in range(20):
        throttle.record(accepted=True)
    assert throttle.reject_probability() == 0.0


def test_recovery_is_seen_at_once_whatever_was_shed() -> None:
    # The SRE formula counts the client's own rejections as requests: above 1 - 1/k they keep
    # the probability up for several windows after the dependency recovered. Here only its
    # answers count, so accepted attempts bring the probability down at once.
    throttle, clock = _throttle()
    for _ in range(300):  # 10 s of a dependency refusing 90% of what it gets
        _ask(throttle, accepted=throttle.window.total(clock.now(), "sent") % 10 == 0)
        clock.advance(1 / 30)
    high = throttle.reject_probability()
    assert high > 0.6
    for _ in range(60):  # 2 s after it recovered
        _ask(throttle, accepted=True)
        clock.advance(1 / 30)
    assert throttle.reject_probability() < high - 0.15


def test_a_quiet_dependency_is_never_shed() -> None:
    throttle, _ = _throttle()
    assert all(_ask(throttle, accepted=False) for _ in range(10))  # the breaker's business
    assert throttle.reject_probability() > 0.85  # ten refusals in the window: now it is load


def test_healthy_means_nearly_all_accepted_lately_or_too_quiet_to_tell() -> None:
    throttle, clock = _throttle()
    assert throttle.healthy()  # nothing seen: a refusal is the retry policy's business
    throttle.record(accepted=True)
    for _ in range(3):
        throttle.record(accepted=False)
    assert throttle.healthy()  # 4 answered attempts in 3 s: too few to call it load
    throttle.record(accepted=False)
    assert not throttle.healthy()  # 4 of 5 refused: load
    clock.advance(3.5)  # health looks back 3 s (shedding remembers 10 s)
    assert throttle.snapshot()["sent"] == 5
    for _ in range(10):
        throttle.record(accepted=True)
    assert throttle.healthy()
    throttle.record(accepted=False)  # one refusal in 11: a blip
    assert throttle.healthy()
    for _ in range(3):
        throttle.record(accepted=False)  # 4 of 14 refused: load, not noise
    assert not throttle.healthy()


def test_a_quiet_dependency_that_served_nothing_lately_is_not_healthy() -> None:
    """A down tool called every few seconds: each 503 is not a blip to retry (that only
    doubles its traffic); the breaker judges the outage."""
    throttle, clock = _throttle()
    for _ in range(4):
        throttle.record(accepted=False)
        assert not throttle.healthy()
        clock.advance(2.5)  # never 5 in 3 s: quiet, but nothing accepted in 10 s
    clock.advance(10.0)  # forgotten
    assert throttle.healthy()


def test_a_two_x_overload_is_never_healthy() -> None:
    throttle, clock = _throttle()
    for i in range(200):
        throttle.record(accepted=i % 2 == 0)
        clock.advance(0.05)
        assert not throttle.healthy() or i < 5  # healthy only while too quiet to tell


def test_overloaded_means_refusing_a_share_while_still_serving() -> None:
    throttle, clock = _throttle()
    assert not throttle.overloaded()  # nothing seen
    for i in range(20):  # a 2x overload: half refused
        throttle.record(accepted=i % 2 == 0)
        clock.advance(0.05)
    assert throttle.overloaded()
    clock.advance(11.0)  # forgotten
    for _ in range(20):  # healthy
        throttle.record(accepted=True)
    throttle.record(accepted=False)  # a blip
    assert not throttle.overloaded()
    clock.advance(11.0)
    for _ in range(20):  # down: serves nothing (the breaker's business)
        throttle.record(accepted=False)
    assert not throttle.overloaded()


def test_served_since_tells_a_moving_queue_from_a_dependency_that_went_down() -> None:
    throttle, clock = _throttle()
    assert not throttle.served_since(0.0)  # never served
    throttle.record(accepted=True)
    clock.advance(1.0)
    refused_at = clock.now()
    throttle.record(accepted=False)
    assert not throttle.served_since(refused_at)  # nobody served since the refusal
    clock.advance(0.2)
    throttle.record(accepted=True)  # someone else's attempt got through
    assert throttle.served_since(refused_at)


def test_health_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="healthy_ratio"):
        ThrottlePolicy(healthy_ratio=1.5)
    with pytest.raises(ValueError, match="healthy_window_s"):
        ThrottlePolicy(healthy_window_s=20.0)
    with pytest.raises(ValueError, match="healthy_min_requests"):
        ThrottlePolicy(healthy_min_requests=-1)
