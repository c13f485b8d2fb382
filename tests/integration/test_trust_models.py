"""Trust in writes when model tiers take part: a model never adds a write the customer did not ask
for (and the drop is recorded), and a model-written reply always carries the exact confirmation
question a yes will be read against."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from helpdesk.app.session import run_turn
from helpdesk.testing.llm_server import LLMFault, Reply, ScriptedLLM
from tests.integration.test_graph_tiers import CHECKED, PRIMARY, Gate, llm, make_bot, script
from tests.integration.test_trust import executions

__all__ = ["llm", "script"]  # pytest fixtures used below


async def test_model_proposed_write_not_asked_for_is_dropped_and_recorded(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    gate = Gate()  # the decomposition answers after the selection has been judged
    script.sleep = gate.sleep
    decomposed = Reply.calls(
        ("DecomposeResult", {"tasks": [{"intent": "tracking", "order_id": "100683"}]})
    )
    script.add(
        PRIMARY,
        Reply.calls(
            ("track_shipment", {"order_id": "100683"}),
            ("request_refund", {"order_id": "100683", "amount": 500}),
        ),
        LLMFault.slow(1.0, then=decomposed),
        Reply.text("Order 100683 is on its way with YTO: YT9433239273."),
        CHECKED,
    )
    bot = make_bot(tmp_path, llm)
    turn = asyncio.ensure_future(
        run_turn(bot, "where is order 100683?", session="m", customer="C0001")
    )
    await asyncio.wait_for(gate.reached.wait(), timeout=60)
    for _ in range(500):  # the selection's answer (a write among its calls) is judged
        await asyncio.sleep(0)
    assert not turn.done()  # a selection with a write never settles the first round
    gate.opened.set()
    out = await asyncio.wait_for(turn, timeout=60)
    assert [r["tool"] for r in out["tool_results"]] == ["track_shipment"]
    dropped = [e for e in out["degrade"]["events"] if e["target"] == "request_refund"]
    assert len(dropped) == 1 and "did not ask for" in dropped[0]["reason"]
    assert await executions(bot, "create_refund") == []


async def test_model_reply_always_carries_the_exact_confirmation_question(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    script.add(
        PRIMARY,
        Reply.calls(
            ("DecomposeResult", {"tasks": [{"intent": "cancel_order", "order_id": "100998"}]})
        ),
        Reply.calls(("cancel_order", {"order_id": "100998"})),
        Reply.text("Sure, I can take care of order 100998 for you."),
        CHECKED,
    )
    bot = make_bot(tmp_path, llm)
    out = await run_turn(bot, "cancel order 100998", session="q", customer="C0001")
    assert out["reply"].startswith("Sure, I can take care of order 100998 for you.")
    assert "Do you want me to cancel order 100998?" in out["reply"]
    assert await executions(bot, "cancel_order") == []
    script.add(PRIMARY, Reply.text("Order 100998 has been cancelled."), CHECKED)
    done = await run_turn(bot, "yes", session="q", customer="C0001")
    assert [(r["tool"], r["status"]) for r in done["tool_results"]] == [("cancel_order", "ok")]
    assert len(await executions(bot, "cancel_order")) == 1


async def test_a_complaint_decomposed_by_a_model_still_asks_before_filing(
    tmp_path: Path, script: ScriptedLLM, llm: httpx.AsyncClient
) -> None:
    script.add(
        PRIMARY,
        Reply.calls(("DecomposeResult", {"tasks": [{"intent": "create_ticket"}]})),
        Reply.calls(
            ("create_ticket", {"subject": "Complaint", "description": "我要投诉，快递太慢了"})
        ),
        Reply.text("非常抱歉给您带来不便。"),
        CHECKED,
    )
    bot = make_bot(tmp_path, llm)
    out = await run_turn(bot, "我要投诉，快递太慢了", session="c", customer="C0001")
    assert [(r["tool"], r["status"]) for r in out["tool_results"]] == [
        ("create_ticket", "needs_confirmation")
    ]
    assert await executions(bot, "create_ticket") == []
