"""The executor's concerns as separate units: the retry decision is a pure function, and every
rung the ladder can plan has a function in the rung table."""

from __future__ import annotations

import itertools
import random

import pytest

from helpdesk.degrade.backoff import FullJitterBackoff
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import TRUNCATED_JSON, ErrorClass, Failure
from helpdesk.degrade.ladder import LadderOptions, plan_ladder
from helpdesk.tools.ladder_rungs import RUNGS
from helpdesk.tools.registry import ToolPolicy
from helpdesk.tools.retry_policy import retry_wait


def _wait(
    policy: ToolPolicy, failure: Failure, *, key: str | None = None, attempt: int = 1
) -> float | None:
    return retry_wait(
        policy,
        failure,
        key,
        attempt,
        max_attempts=3,
        fast_retry_wait=0.05,
        backoff=FullJitterBackoff(rng=random.Random(7)),
    )


def test_retry_wait_timed_out_read_is_retried_at_once() -> None:
    failure = Failure(ErrorClass.TRANSIENT, "get_order: timed out after 1.5s")
    assert _wait(ToolPolicy(), failure) == 0.05


def test_retry_wait_connect_error_backs_off_with_the_injected_jitter() -> None:
    failure = Failure(ErrorClass.TRANSIENT, "get_order: connection reset")
    expected = FullJitterBackoff(rng=random.Random(7)).delay(1)
    assert _wait(ToolPolicy(), failure) == expected


def test_retry_wait_rate_limited_waits_its_retry_after() -> None:
    failure = Failure(ErrorClass.RATE_LIMITED, "get_order: 429", retry_after=1.25)
    assert _wait(ToolPolicy(), failure) == 1.25


def test_retry_wait_truncated_json_read_is_retried_once() -> None:
    failure = Failure(ErrorClass.SCHEMA, "get_order: cut off", code=TRUNCATED_JSON)
    assert (_wait(ToolPolicy(), failure, attempt=1), _wait(ToolPolicy(), failure, attempt=2)) == (
        0.05,
        None,
    )


def test_retry_wait_never_for_money_nor_a_write_without_key() -> None:
    failure = Failure(ErrorClass.TRANSIENT, "refund: connection reset")
    assert _wait(ToolPolicy(kind="money", idempotent=True), failure, key="hd-1") is None
    assert _wait(ToolPolicy(kind="write", idempotent=True), failure, key=None) is None


@pytest.mark.parametrize("healthy", [True, False])
def test_retry_wait_a_503_is_retried_once_only_from_a_healthy_dependency(healthy: bool) -> None:
    """Noise vs overload: a 503 from a dependency that accepted nearly all else is a blip
    (retried once, after at least half the backoff's ceiling: its queue was full a moment
    ago); from one that refuses a share of its traffic it is overload, and a retry would add
    to it."""
    failure = Failure(ErrorClass.UNAVAILABLE, "get_order: HTTP 503", status_code=503)

    def wait(policy: ToolPolicy, attempt: int = 1, *, served: bool = False) -> float | None:
        return retry_wait(
            policy,
            failure,
            "hd-1",
            attempt,
            max_attempts=4,
            fast_retry_wait=0.05,
            backoff=FullJitterBackoff(rng=random.Random(7)),
            dependency_healthy=healthy,
            served_since_failure=served,
        )

    expected = FullJitterBackoff(rng=random.Random(7)).delay_from_half(1) if healthy else None
    assert wait(ToolPolicy()) == expected
    if healthy:
        assert expected is not None and 0.25 <= expected <= 0.5
    # once: a dependency that has just gone down still looks healthy for a few seconds
    assert wait(ToolPolicy(), attempt=2) is None
    # twice if its queue moved (it served others since this call's first refusal)
    second = wait(ToolPolicy(), attempt=2, served=True)
    assert (second is not None and 0.5 <= second <= 1.0) if healthy else second is None
    third = wait(ToolPolicy(), attempt=3, served=True)
    assert third is None  # never a third time
    assert wait(ToolPolicy(kind="write", idempotent=True)) is None  # never a write's
    circuit_open = Failure(ErrorClass.UNAVAILABLE, "get_order: circuit open")
    assert (
        retry_wait(
            ToolPolicy(),
            circuit_open,
            None,
            1,
            max_attempts=3,
            fast_retry_wait=0.05,
            backoff=FullJitterBackoff(rng=random.Random(7)),
            dependency_healthy=True,
        )
        is None
    )


def test_retry_wait_none_after_max_attempts() -> None:
    failure = Failure(ErrorClass.TRANSIENT, "get_order: timed out")
    assert _wait(ToolPolicy(), failure, attempt=3) is None


def test_rungs_cover_every_step_plan_ladder_returns() -> None:
    planned: set[LadderStep] = set()
    for error_class in ErrorClass:
        for flags in itertools.product((False, True), repeat=6):
            options = LadderOptions(
                can_simplify=flags[0],
                breaker_open=flags[1],
                has_cached=flags[2],
                has_fallback=flags[3],
                core=flags[4],
                is_write=flags[5],
            )
            planned.update(plan_ladder(error_class, options))
    assert planned == set(RUNGS)
