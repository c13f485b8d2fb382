"""The first model round (graph/first_round.py): the first answer the rules corroborate ends it;
the other call finishes in the background and never falls through to another tier."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from helpdesk.graph.first_round import (
    _BACKGROUND,
    calls_signature,
    first_round,
    reading_signature,
)
from helpdesk.graph.stage_chain import Abandon, StageOutcome, abandon_scope, abandoned
from helpdesk.graph.state import Task
from helpdesk.tools.results import ToolCall


class Answer:
    """A stage's answer that arrives when the test says so."""

    def __init__(self) -> None:
        self.future: asyncio.Future[StageOutcome[Any] | None] = (
            asyncio.get_running_loop().create_future()
        )
        self.saw_abandoned: bool | None = None
        self.finished = False

    async def run(self) -> StageOutcome[Any] | None:
        try:
            return await self.future
        finally:
            self.saw_abandoned = abandoned()
            self.finished = True

    def give(self, value: Any, tier: str = "primary") -> None:
        self.future.set_result(None if value is None else StageOutcome(value=value, tier=tier))


async def spin() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def yes(_: StageOutcome[Any]) -> bool:
    return True


def no(_: StageOutcome[Any]) -> bool:
    return False


async def test_a_settling_selection_ends_the_round_without_the_decomposition() -> None:
    decompose, select = Answer(), Answer()
    round_task = asyncio.ensure_future(
        first_round(decompose.run(), select.run(), decompose_settles=no, select_settles=yes)
    )
    await spin()
    select.give(["call"])
    result = await round_task
    assert result.settled_by == "select_tool"
    assert result.selected is not None and result.selected.value == ["call"]
    assert result.decomposed is None
    assert not decompose.finished  # still running, not cancelled
    assert len(_BACKGROUND) == 1
    decompose.give(["task"])
    await spin()
    assert decompose.finished and decompose.saw_abandoned is True
    assert not _BACKGROUND
    assert select.saw_abandoned is False  # the answer that was used was never abandoned


async def test_a_settling_decomposition_ends_the_round_without_the_selection() -> None:
    decompose, select = Answer(), Answer()
    round_task = asyncio.ensure_future(
        first_round(decompose.run(), select.run(), decompose_settles=yes, select_settles=yes)
    )
    await spin()
    decompose.give(["task"], tier="backup")
    result = await round_task
    assert result.settled_by == "decompose" and result.selected is None
    assert result.decomposed is not None and result.decomposed.tier == "backup"
    select.give(None)
    await spin()
    assert select.saw_abandoned is True and not _BACKGROUND


@pytest.mark.parametrize("first", ["decompose", "select_tool"])
async def test_an_answer_the_rules_do_not_share_waits_for_the_other(first: str) -> None:
    decompose, select = Answer(), Answer()
    round_task = asyncio.ensure_future(
        first_round(decompose.run(), select.run(), decompose_settles=no, select_settles=no)
    )
    await spin()
    (decompose if first == "decompose" else select).give(["early"])
    await spin()
    assert not round_task.done()
    (select if first == "decompose" else decompose).give(["late"])
    result = await round_task
    assert result.settled_by == "both"
    assert result.decomposed is not None and result.selected is not None
    assert not decompose.saw_abandoned and not select.saw_abandoned


async def test_a_missing_first_answer_never_settles() -> None:
    """No tier answered the first stage (None): the predicate is not even asked; wait."""
    asked: list[object] = []

    def settles(outcome: StageOutcome[Any]) -> bool:
        asked.append(outcome)
        return True

    decompose, select = Answer(), Answer()
    round_task = asyncio.ensure_future(
        first_round(decompose.run(), select.run(), decompose_settles=settles, select_settles=yes)
    )
    await spin()
    decompose.give(None)
    await spin()
    assert not round_task.done() and asked == []
    select.give([])
    result = await round_task
    assert result.settled_by == "both" and result.decomposed is None


async def test_answers_arriving_together_are_both_used() -> None:
    decompose, select = Answer(), Answer()
    decompose.give(["task"])
    select.give(["call"])
    result = await first_round(
        decompose.run(), select.run(), decompose_settles=yes, select_settles=yes
    )
    assert result.settled_by == "both"


async def test_cancelling_the_round_cancels_both_calls() -> None:
    decompose, select = Answer(), Answer()
    round_task = asyncio.ensure_future(
        first_round(decompose.run(), select.run(), decompose_settles=yes, select_settles=yes)
    )
    await spin()
    round_task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await round_task
    await spin()
    assert decompose.finished and select.finished
    assert decompose.future.cancelled() and select.future.cancelled()


async def test_an_abandoned_call_that_fails_is_not_an_unretrieved_error() -> None:
    decompose, select = Answer(), Answer()
    loop = asyncio.get_running_loop()
    errors: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    try:
        round_task = asyncio.ensure_future(
            first_round(decompose.run(), select.run(), decompose_settles=no, select_settles=yes)
        )
        await spin()
        select.give([])
        await round_task
        decompose.future.set_exception(RuntimeError("tier failed"))
        await spin()
        import gc

        gc.collect()
        await spin()
    finally:
        loop.set_exception_handler(None)
    assert errors == []


async def test_the_abandon_flag_belongs_to_its_own_task() -> None:
    flag = Abandon()
    seen: list[bool] = []

    async def look() -> None:
        seen.append(abandoned())
        await asyncio.sleep(0)
        seen.append(abandoned())

    task = asyncio.ensure_future(abandon_scope(flag, look()))
    await asyncio.sleep(0)
    flag.set()
    await task
    assert seen == [False, True]
    assert abandoned() is False  # the caller's context never had the flag


def task(intent: str, call: ToolCall | None = None) -> Task:
    return Task(id="t1-0", intent=intent, match={}, call=call)


def test_reading_signature_compares_intents_and_planned_calls() -> None:
    track = ToolCall(name="track_shipment", args={"order_id": "100683"}, id="t1-0")
    same = ToolCall(name="track_shipment", args={"order_id": "100683"}, id="t9-3")
    other = ToolCall(name="track_shipment", args={"order_id": "100200"}, id="t1-0")
    assert reading_signature([task("tracking", track), task("greeting")]) == reading_signature(
        [task("greeting"), task("tracking", same)]
    )
    assert reading_signature([task("tracking", track)]) != reading_signature(
        [task("tracking", other)]
    )
    assert reading_signature([task("tracking", track)]) != reading_signature(
        [task("tracking", track), task("greeting")]
    )


@pytest.mark.parametrize(
    "unreadable",
    [task("unknown"), task("pack"), task("refund")],
    ids=["a part nobody read", "a pack request without its capability", "a request w/o call"],
)
def test_a_reading_with_a_gap_cannot_be_corroborated(unreadable: Task) -> None:
    track = ToolCall(name="track_shipment", args={"order_id": "100683"}, id="t1-0")
    assert reading_signature([task("tracking", track), unreadable]) is None


def test_calls_signature_compares_the_tool_and_its_object_only() -> None:
    targets = ("order_id", "sku")
    mine = ToolCall(name="track_shipment", args={"order_id": "100683"}, id="a")
    phrased = ToolCall(name="track_shipment", args={"order_id": "100683", "note": "x"}, id="b")
    elsewhere = ToolCall(name="track_shipment", args={"order_id": "100200"}, id="c")
    status = ToolCall(name="get_order", args={"order_id": "100683"}, id="d")
    assert calls_signature([mine], targets) == calls_signature([phrased], targets)
    assert calls_signature([mine], targets) != calls_signature([elsewhere], targets)
    assert calls_signature([mine], targets) != calls_signature([status], targets)
    assert calls_signature([mine], targets) != calls_signature([mine, mine], targets)
    assert calls_signature([], targets) == []
