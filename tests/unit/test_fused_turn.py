"""graph/fused_turn.py: the stages in one graph step give the state separate nodes would."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, SystemMessage
from langgraph.graph import END, START, StateGraph

from helpdesk.degrade.context import DegradeContext, DegradeEvent, LadderStep
from helpdesk.degrade.errors import ErrorClass
from helpdesk.graph.fused_turn import STAGE_ORDER, StageFn, fused_turn, state_reducers
from helpdesk.graph.state import HelpdeskState


def _event(target: str) -> DegradeEvent:
    return DegradeEvent(
        stage="execute",
        target=target,
        error_class=ErrorClass.UNAVAILABLE,
        action=LadderStep.DATA,
        level=1,
        reason="x",
        at=1.0,
    )


def _stages(calls: list[str]) -> dict[str, StageFn]:
    """Stages that use every kind of update: messages (added and removed), degrade, plain keys."""

    async def guard_context(state: HelpdeskState) -> dict[str, Any]:
        calls.append("guard_context")
        old = [m for m in state["messages"] if m.type == "ai"]
        return {
            "messages": [RemoveMessage(id=m.id) for m in old if m.id]
            + [SystemMessage("summary", id="sum")],
            "degrade": DegradeContext(request_id="r2", events=(_event("a"),)),
            "refused": None,
        }

    async def hand_on(state: HelpdeskState) -> dict[str, Any]:
        calls.append("hand_on")
        return {"tasks": [], "degrade": DegradeContext(request_id="r2", events=(_event("b"),))}

    async def generate(state: HelpdeskState) -> dict[str, Any]:
        calls.append("generate")
        return {"draft": f"draft {state.get('validation', {}).get('regenerations', 0)}"}

    async def validate(state: HelpdeskState) -> dict[str, Any]:
        calls.append("validate")
        rounds = int(state.get("validation", {}).get("regenerations", 0))
        if rounds < 1:
            return {"validation": {"ok": False, "regenerations": rounds + 1}}
        return {"validation": {"ok": True}, "messages": [AIMessage(state["draft"])]}

    middle = dict.fromkeys(STAGE_ORDER[1:-2], hand_on)
    return {"guard_context": guard_context, **middle, "generate": generate, "validate": validate}


def _again(state: HelpdeskState) -> str:
    return "generate" if state.get("validation", {}).get("ok") is False else END


def _start() -> dict[str, Any]:
    return {
        "messages": [HumanMessage("hi", id="h1"), AIMessage("old", id="a1"), HumanMessage("now")],
        "degrade": DegradeContext(request_id="r2", events=(_event("z"),)),
        "customer": "C1",
    }


async def _separate(stages: dict[str, StageFn]) -> dict[str, Any]:
    builder = StateGraph(HelpdeskState)
    names = [f"{name}_{i}" for i, name in enumerate(STAGE_ORDER)]
    for name, stage in zip(names, STAGE_ORDER, strict=True):
        builder.add_node(name, stages[stage])  # type: ignore[call-overload]
    builder.add_edge(START, names[0])
    for left, right in itertools.pairwise(names):
        builder.add_edge(left, right)
    builder.add_conditional_edges(names[-1], _again, {"generate": names[-2], END: END})
    return dict(await builder.compile().ainvoke(_start()))


async def _fused(stages: dict[str, StageFn]) -> dict[str, Any]:
    builder = StateGraph(HelpdeskState)
    builder.add_node("turn", fused_turn(stages, regenerate=_again))  # type: ignore[call-overload]
    builder.add_edge(START, "turn")
    builder.add_edge("turn", END)
    return dict(await builder.compile().ainvoke(_start()))


async def test_one_step_gives_the_state_of_separate_nodes() -> None:
    separate_calls: list[str] = []
    fused_calls: list[str] = []
    separate = await _separate(_stages(separate_calls))
    fused = await _fused(_stages(fused_calls))
    assert fused_calls == separate_calls
    assert separate_calls.count("generate") == 2  # validate asked for one regeneration
    assert [(m.type, m.content) for m in fused["messages"]] == [
        (m.type, m.content) for m in separate["messages"]
    ]
    assert [m.content for m in fused["messages"]] == ["hi", "now", "summary", "draft 1"]
    assert fused["degrade"] == separate["degrade"]
    assert [e.target for e in fused["degrade"].events] == ["z", "a", "b"]
    assert {k: v for k, v in fused.items() if k not in ("messages", "degrade")} == {
        k: v for k, v in separate.items() if k not in ("messages", "degrade")
    }


async def test_a_refused_turn_stops_after_the_guard() -> None:
    calls: list[str] = []
    stages = _stages(calls)

    async def refuse(state: HelpdeskState) -> dict[str, Any]:
        calls.append("guard_context")
        return {"refused": {"reason": "session_owner"}}

    update = await fused_turn({**stages, "guard_context": refuse}, regenerate=_again)(
        _start()  # type: ignore[arg-type]
    )
    assert calls == ["guard_context"]
    assert update == {"refused": {"reason": "session_owner"}}


async def test_a_stage_after_the_guard_may_refuse_and_nothing_the_turn_did_is_kept() -> None:
    calls: list[str] = []
    stages = _stages(calls)

    async def execute_refuses(state: HelpdeskState) -> dict[str, Any]:
        calls.append("execute")
        refused = {"reason": "unknown_customer", "session": "s", "customer": "C1"}
        return {"results": ["would-be"], "refused": refused}

    update = await fused_turn({**stages, "execute": execute_refuses}, regenerate=_again)(
        _start()  # type: ignore[arg-type]
    )
    assert calls == ["guard_context", "hand_on", "hand_on", "execute"]  # no reply written
    # only the refusal's clean-up of the state the step started from: the customer's message
    # goes, the guard's summary, degrade events and the results are not kept
    assert set(update) == {"messages", "customer", "refused"}
    assert [type(m).__name__ for m in update["messages"]] == ["RemoveMessage"]
    assert update["refused"]["reason"] == "unknown_customer"


async def test_a_reply_that_never_validates_is_stopped() -> None:
    stages = _stages([])

    async def never(state: HelpdeskState) -> dict[str, Any]:
        return {"validation": {"ok": False}}

    turn = fused_turn({**stages, "validate": never}, regenerate=_again)
    with pytest.raises(RuntimeError, match="failed validation"):
        await turn(_start())  # type: ignore[arg-type]


def test_a_missing_stage_is_a_clear_error() -> None:
    stages = _stages([])
    del stages["execute"]
    with pytest.raises(ValueError, match="execute"):
        fused_turn(stages, regenerate=_again)


def test_the_state_reducers_are_known() -> None:
    assert set(state_reducers()) == {"messages", "degrade"}
