"""A write another sender may still be sending is never told as "did not go through".

Two replicas on one session (the session lock lost mid-write), or a turn cut off while its write
goes on: the next turn's reconciliation finds the write ``sent`` and the backend not knowing its
key yet. Said to have failed, the write could land right after the customer was told so (and said
"no" to trying again). The journal keeps until when its sender may still send it; before then the
start of a turn waits for it (a bounded wait) or tells it as not known yet.
"""

from __future__ import annotations

from typing import Any

import pytest

from helpdesk.degrade.clock import FakeClock
from helpdesk.tools.context import RequestContext
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.journal import JournalEntry, MemoryWriteJournal
from helpdesk.tools.reconcile import IN_FLIGHT_WAIT_S, reconcile_session
from helpdesk.tools.registry import ToolRegistry, VerifyOutcome
from helpdesk.tools.results import ToolCall


class _Shop:
    """A backend where a write lands at ``lands_at`` (wall clock), or never."""

    def __init__(self, clock: FakeClock, lands_at: float | None) -> None:
        self.clock = clock
        self.lands_at = lands_at
        self.verified_at: list[float] = []

    async def refund(self, order_id: str, amount: float) -> Any:
        return {"refund_id": "R-1"}

    async def verify(self, args: dict[str, Any], key: str, customer: str | None) -> VerifyOutcome:
        self.verified_at.append(self.clock.wall())
        landed = self.lands_at is not None and self.clock.wall() >= self.lands_at
        return VerifyOutcome(executed=landed, data={"refund_id": "R-1"} if landed else None)


def _setup(lands_in: float | None) -> tuple[FakeClock, _Shop, ToolRegistry, MemoryWriteJournal]:
    clock = FakeClock()
    shop = _Shop(clock, None if lands_in is None else clock.wall() + lands_in)
    registry = ToolRegistry()
    registry.register(shop.refund, name="request_refund", kind="money", verify=shop.verify)
    return clock, shop, registry, MemoryWriteJournal()


def _sent(clock: FakeClock, *, sending_for: float | None) -> JournalEntry:
    return JournalEntry(
        key="k-1",
        session="s",
        customer="C0001",
        tool="request_refund",
        args={"order_id": "100609", "amount": 100.0},
        kind="money",
        started_at=clock.wall(),
        sending_until=None if sending_for is None else clock.wall() + sending_for,
    )


async def _reconcile(
    clock: FakeClock, registry: ToolRegistry, journal: MemoryWriteJournal
) -> list[tuple[str, str]]:
    found = await reconcile_session("s", "C0001", journal=journal, registry=registry, clock=clock)
    return [(r.entry.key, r.state) for r in found]


async def test_a_write_still_being_sent_that_lands_is_told_done_not_failed() -> None:
    clock, shop, registry, journal = _setup(lands_in=2.0)
    await journal.begin(_sent(clock, sending_for=5.0))
    start = clock.wall()
    assert await _reconcile(clock, registry, journal) == [("k-1", "executed")]
    # verified once (not there yet), then once its sender could no longer send it
    assert shop.verified_at == [start, start + 5.0]


async def test_a_write_still_being_sent_that_never_lands_is_told_failed_after_its_sender() -> None:
    clock, shop, registry, journal = _setup(lands_in=None)
    await journal.begin(_sent(clock, sending_for=5.0))
    start = clock.wall()
    assert await _reconcile(clock, registry, journal) == [("k-1", "not_executed")]
    assert shop.verified_at[-1] >= start + 5.0


async def test_a_write_its_sender_may_send_for_long_is_not_known_yet_and_told_when_settled() -> (
    None
):
    clock, _shop, registry, journal = _setup(lands_in=None)
    await journal.begin(_sent(clock, sending_for=IN_FLIGHT_WAIT_S + 30))
    start = clock.wall()
    assert await _reconcile(clock, registry, journal) == [("k-1", "unknown")]
    assert clock.wall() == start  # no wait beyond the bound
    assert [e.state for e in await journal.unsettled("s")] == ["unknown"]
    # told once: the next turn says nothing more while it is still not known ...
    assert await _reconcile(clock, registry, journal) == []
    # ... and its sender settles it: the outcome is told, whoever settled it
    await journal.settle("k-1", "executed", at=clock.wall(), result={"refund_id": "R-1"})
    assert await _reconcile(clock, registry, journal) == [("k-1", "executed")]
    assert await _reconcile(clock, registry, journal) == []


async def test_a_write_whose_sender_crashed_long_ago_is_told_failed_at_once() -> None:
    clock, shop, registry, journal = _setup(lands_in=None)
    await journal.begin(_sent(clock, sending_for=5.0))
    clock.advance(60.0)
    start = clock.wall()
    assert await _reconcile(clock, registry, journal) == [("k-1", "not_executed")]
    assert shop.verified_at == [start]


@pytest.mark.parametrize("sending_for", [None, 5.0])
async def test_a_write_found_done_is_told_done_at_once(sending_for: float | None) -> None:
    clock, shop, registry, journal = _setup(lands_in=0.0)
    await journal.begin(_sent(clock, sending_for=sending_for))
    start = clock.wall()
    assert await _reconcile(clock, registry, journal) == [("k-1", "executed")]
    assert shop.verified_at == [start]


async def test_an_entry_from_before_the_sending_bound_was_kept_is_judged_as_before() -> None:
    clock, shop, registry, journal = _setup(lands_in=None)
    await journal.begin(_sent(clock, sending_for=None))
    assert await _reconcile(clock, registry, journal) == [("k-1", "not_executed")]
    assert len(shop.verified_at) == 1


async def test_the_executor_keeps_until_when_it_may_send_a_write() -> None:
    clock, _shop, registry, journal = _setup(lands_in=None)
    executor = ResilientExecutor(registry, clock=clock, journal=journal)
    ctx = RequestContext.new(session="s", turn=1, customer="C0001", clock=clock)
    call = ToolCall(
        name="request_refund",
        args={"order_id": "100609", "amount": 100.0},
        id="w1",
        confirmed=True,
        action_id="c-1",
    )
    await executor.run(call, ctx)
    [entry] = await journal.entries("s")
    assert entry.sending_until is not None
    deadline = ctx.budget.deadline_wall()
    assert deadline < entry.sending_until <= deadline + 5.0
