"""The request's budget and ladder use live in graph state, not in a process (issue #11).

Every stage rebuilds its RequestContext from the ``request`` snapshot and the ``degrade`` context
in state, so two processes (two TurnNodes) on the same state, and a run resumed from a checkpoint,
see the same retries used and the same time left; within a turn, what one stage spends the next
cannot spend again.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from helpdesk.degrade.budget import RetryBudget
from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.context import DegradeContext, LadderStep, merge_degrade
from helpdesk.degrade.errors import TransientError
from helpdesk.degrade.ladder import LadderGuard
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.graph.nodes import TurnConfig, TurnNodes
from helpdesk.graph.state import HelpdeskState, Task
from helpdesk.tools.context import RequestContext, RequestState
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import PackSet
from helpdesk.tools.registry import ToolRegistry
from helpdesk.tools.results import ToolCall, ToolStatus
from tests.fakes import ScriptedTool

ORDER = {"order_id": "100123", "status": "shipped"}
WALL = 1_800_000_000.0
MATCH = {"order_id": "100123", "text": "where is order 100123?", "lang": "en"}


def make_nodes(
    clock: FakeClock, tool: ScriptedTool, *, max_retries: int = 3, budget_s: float = 8.0
) -> TurnNodes:
    """One 'process': its own registry, executor (breakers, caches) and nodes."""
    registry = ToolRegistry()

    async def get_order(order_id: str, customer: str | None = None) -> Any:
        return await tool(order_id=order_id, customer=customer)

    registry.register(get_order, name="get_order")
    executor = ResilientExecutor(registry, clock=clock, rng=random.Random(1))
    config = TurnConfig(request_max_retries=max_retries, request_budget_s=budget_s)
    return TurnNodes(executor=executor, config=config, clock=clock, packs=PackSet())


def other_process(wall: float, *, start: float = 5_000.0) -> FakeClock:
    """Another process's clock: the same wall time, an unrelated monotonic origin."""
    return FakeClock(start=start, wall_start=wall)


def apply(state: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """The state after a node's update, merged as LangGraph merges it."""
    out = dict(state)
    for key, value in update.items():
        if key == "degrade":
            out[key] = merge_degrade(out.get(key), value)
        elif key != "messages":
            out[key] = value
    return out


def with_call(state: dict[str, Any], call_id: str = "c1") -> dict[str, Any]:
    call = ToolCall(name="get_order", args={"order_id": "100123"}, id=call_id)
    task = Task(id=call_id, intent="order_status", match=MATCH, call=call)
    return {**state, "tasks": [task]}


async def start_turn(nodes: TurnNodes) -> dict[str, Any]:
    state: dict[str, Any] = {
        "messages": [HumanMessage(content="where is order 100123?", id="h1")],
        "session": "s1",
        "customer": "C0001",
        "facts": {},
    }
    return apply(state, await nodes.guard_context(as_state(state)))


def as_state(state: dict[str, Any]) -> HelpdeskState:
    return state  # type: ignore[return-value]


# ----------------------------------------------------------------- the pieces


def test_retry_budget_resumes_with_the_retries_used_and_the_wall_clock_deadline() -> None:
    clock = FakeClock()
    budget = RetryBudget(max_retries=3, max_seconds=8.0, clock=clock)
    assert budget.try_acquire_retry(0)
    clock.advance(3.0)
    deadline = budget.deadline_wall()
    assert deadline == pytest.approx(WALL + 8.0)
    later = other_process(WALL + 4.0)  # one second after the snapshot, elsewhere
    resumed = RetryBudget.resume(
        max_retries=3, max_seconds=8.0, retries_used=1, deadline_wall=deadline, clock=later
    )
    assert resumed.retries_used == 1
    assert resumed.retries_left() == 2
    assert resumed.remaining() == pytest.approx(4.0)
    assert resumed.deadline == pytest.approx(later.now() + 4.0)  # in that clock's scale


def test_retry_budget_resume_never_grants_more_than_the_whole_budget_nor_revives_it() -> None:
    clock = FakeClock()
    stepped_back = RetryBudget.resume(
        max_retries=3, max_seconds=8.0, retries_used=0, deadline_wall=WALL + 60.0, clock=clock
    )
    assert stepped_back.remaining() == pytest.approx(8.0)
    passed = RetryBudget.resume(
        max_retries=3, max_seconds=8.0, retries_used=0, deadline_wall=WALL - 1.0, clock=clock
    )
    assert passed.expired() and passed.remaining() == 0.0
    assert not passed.can_retry()
    with pytest.raises(ValueError):
        RetryBudget.resume(
            max_retries=1, max_seconds=8.0, retries_used=2, deadline_wall=WALL, clock=clock
        )


def test_ladder_guard_resumes_its_entries_levels_and_steps() -> None:
    guard = LadderGuard.resume(
        entries=1, levels_used=3, steps=(LadderStep.PARAMETER, LadderStep.DATA)
    )
    assert guard.exhausted
    assert not guard.enter()  # one entry per request, already used
    assert not guard.try_descend(LadderStep.FUNCTION)
    assert guard.steps == [LadderStep.PARAMETER, LadderStep.DATA]


def test_request_context_round_trips_through_its_snapshot() -> None:
    clock = FakeClock()
    ctx = RequestContext.new(session="s", turn=2, customer="C1", clock=clock, max_retries=4)
    assert ctx.budget.try_acquire_retry(0)
    ctx.guard.enter()
    ctx.guard.try_descend(LadderStep.DATA)
    ctx.rate_limited_seen = 2
    clock.advance(1.5)
    snapshot = ctx.to_state()
    assert snapshot.request_id == ctx.request_id == ctx.degrade.request_id
    assert snapshot.started_at == pytest.approx(WALL)
    again = RequestContext.from_state(
        RequestState.model_validate_json(snapshot.model_dump_json()),
        session="s",
        turn=2,
        customer="C1",
        degrade=ctx.degrade,
        clock=clock,
    )
    assert again.to_state() == snapshot
    assert again.budget.remaining() == pytest.approx(6.5)
    assert (again.guard.entries, again.guard.levels_used) == (1, 1)
    assert again.rate_limited_seen == 2


def test_the_snapshot_survives_the_checkpoint_serializer() -> None:
    """RequestState is one of the state types the strict checkpoint serializer allows."""
    ctx = RequestContext.new(session="s", turn=1, customer=None, clock=FakeClock())
    ctx.guard.try_descend(LadderStep.PARAMETER)
    serde = state_serializer()
    assert serde.loads_typed(serde.dumps_typed(ctx.to_state())) == ctx.to_state()


# ----------------------------------------------------------------- the turn


async def test_guard_context_starts_a_fresh_request_with_the_configured_budget() -> None:
    clock = FakeClock()
    nodes = make_nodes(clock, ScriptedTool([]), max_retries=2, budget_s=5.0)
    state = await start_turn(nodes)
    request = state["request"]
    assert isinstance(request, RequestState)
    assert request.request_id == state["degrade"].request_id != ""
    assert (request.retries_used, request.max_retries, request.max_seconds) == (0, 2, 5.0)
    assert request.deadline_at == pytest.approx(clock.wall() + 5.0)
    # the next turn starts over, whatever the last one spent
    spent = {**state, "request": request.model_copy(update={"retries_used": 2})}
    update = await nodes.guard_context(as_state(spent))
    assert update["request"].retries_used == 0
    assert update["request"].request_id == update["degrade"].request_id != request.request_id


async def test_two_processes_on_the_same_state_see_the_same_budget() -> None:
    clock_a = FakeClock()
    flaky = ScriptedTool([TransientError("get_order: 502"), TransientError("503"), ORDER])
    process_a = make_nodes(clock_a, flaky)
    state = with_call(await start_turn(process_a))
    state = apply(state, await process_a.execute(as_state(state)))
    assert state["results"][0].status is ToolStatus.OK
    seen_by_a = process_a._ctx(as_state(state)).budget
    assert seen_by_a.retries_used == 2
    assert 0 < seen_by_a.remaining() < 8.0  # the backoff waits were spent

    process_b = make_nodes(other_process(clock_a.wall()), ScriptedTool([]))
    seen_by_b = process_b._ctx(as_state(state)).budget
    assert seen_by_b.retries_used == seen_by_a.retries_used
    assert seen_by_b.remaining() == pytest.approx(seen_by_a.remaining())
    assert process_b._ctx(as_state(state)).request_id == state["degrade"].request_id


async def test_a_second_process_draws_from_what_the_first_left() -> None:
    clock_a = FakeClock()
    flaky = ScriptedTool([TransientError("502"), TransientError("502"), ORDER])
    process_a = make_nodes(clock_a, flaky, max_retries=3)
    state = with_call(await start_turn(process_a))
    state = apply(state, await process_a.execute(as_state(state)))  # 2 of 3 retries

    failing = ScriptedTool([TransientError("502"), TransientError("502"), ORDER])
    process_b = make_nodes(other_process(clock_a.wall()), failing, max_retries=3)
    state = apply(state, await process_b.execute(as_state(with_call(state, "c2"))))
    result = state["results"][0]
    assert result.status is not ToolStatus.OK  # a fresh budget would have retried twice
    assert len(failing.calls) == 2  # the first try and the one retry left
    assert state["request"].retries_used == 3


async def test_a_resumed_run_continues_with_the_budget_used_so_far() -> None:
    clock = FakeClock()
    flaky = ScriptedTool([TransientError("502"), TransientError("502"), ORDER])
    before = make_nodes(clock, flaky, max_retries=2)
    state = with_call(await start_turn(before))
    state = apply(state, await before.execute(as_state(state)))
    left_at_checkpoint = before._ctx(as_state(state)).budget.remaining()
    serde = state_serializer()
    stored = {key: serde.dumps_typed(value) for key, value in state.items()}

    # the process died; another one picks the run up from the checkpoint 2 seconds later
    loaded = {key: serde.loads_typed(value) for key, value in stored.items()}
    restarted = other_process(clock.wall() + 2.0)
    flaky_again = ScriptedTool([TransientError("502"), ORDER])
    after = make_nodes(restarted, flaky_again, max_retries=2)
    ctx = after._ctx(as_state(loaded))
    assert ctx.budget.retries_used == 2
    assert ctx.budget.remaining() == pytest.approx(left_at_checkpoint - 2.0)
    update = await after.execute(as_state(with_call(loaded, "c2")))
    assert update["results"][0].status is not ToolStatus.OK  # no retry left to spend
    assert len(flaky_again.calls) == 1
    assert update["request"].retries_used == 2


async def test_one_turn_shares_one_budget_across_its_stages() -> None:
    """Tool retries in execute reduce what the model stages after it may use."""
    clock = FakeClock()
    flaky = ScriptedTool([TransientError("502"), TransientError("502"), ORDER])
    nodes = make_nodes(clock, flaky, max_retries=2)
    state = with_call(await start_turn(nodes))
    fresh = nodes._ctx(as_state(state)).budget
    assert fresh.retries_left() == 2
    update = await nodes.execute(as_state(state))
    assert update["request"].retries_used == 2
    state = apply(state, update)
    # what generate / validate (a model stage's retry and timeouts) would draw from
    model_stage = nodes._ctx(as_state(state))
    assert model_stage.budget.retries_left() == 0
    assert not model_stage.budget.try_acquire_retry(0)
    assert model_stage.budget.remaining() == pytest.approx(8.0 - sum(clock.sleeps))
    # and a stage that returns the context hands the same budget on
    generated = apply(state, await nodes.generate(as_state(state)))
    assert generated["request"].retries_used == 2
    assert generated["request"].deadline_at == pytest.approx(state["request"].deadline_at)


async def test_a_state_without_a_snapshot_for_its_request_starts_a_fresh_budget() -> None:
    """A checkpoint written before snapshots existed (or with another request's) still runs."""
    clock = FakeClock()
    nodes = make_nodes(clock, ScriptedTool([]), max_retries=2)
    stale = RequestContext.new(session="s1", turn=1, customer=None, clock=clock).to_state()
    stale = stale.model_copy(update={"retries_used": 2})
    state = {"degrade": DegradeContext(request_id="r-new"), "request": stale, "turn": 3}
    ctx = nodes._ctx(as_state(state))
    assert (ctx.request_id, ctx.budget.retries_used, ctx.budget.max_retries) == ("r-new", 0, 2)
    assert nodes._ctx(as_state({"degrade": DegradeContext(request_id="r0")})).request_id == "r0"


def test_turn_nodes_keep_no_request_of_their_own() -> None:
    nodes = make_nodes(FakeClock(), ScriptedTool([]))
    assert not any(isinstance(v, dict) for v in vars(nodes).values())
