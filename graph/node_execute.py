"""The execute node: the turn's calls through the ResilientExecutor, and the automatic handoff
ticket for what nothing could serve."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from helpdesk.degrade.budget import RetryBudget
from helpdesk.degrade.context import LadderStep
from helpdesk.graph.node_base import HANDOFF_BUDGET_S, NodeBase, _last_human_text
from helpdesk.graph.state import HelpdeskState
from helpdesk.tools.context import RequestContext
from helpdesk.tools.local_time import zone
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus

__all__ = ["ExecuteNode"]


class ExecuteNode(NodeBase):
    """execute: run the calls; hand off what failed."""

    async def execute(self, state: HelpdeskState) -> dict[str, Any]:
        """Run the turn's calls through the ResilientExecutor; hand off what nothing could serve."""
        ctx = self._ctx(state)
        calls = [t.call for t in state.get("tasks", []) if t.call is not None]
        facts = state.get("facts", {})
        reused = {
            c.id: _reused_ticket(c, facts["handoff_ticket"])
            for c in calls
            if c.name == self.packs.handoff_tool and facts.get("handoff_ticket")
        }
        ran = await self.executor.run_many([c for c in calls if c.id not in reused], ctx)
        by_id = {r.call_id: r for r in [*ran, *reused.values()]}
        zones = self.packs.time_zones()
        shown_in = zones[0] if len(zones) == 1 else None
        results = [_with_when(by_id[c.id], shown_in) for c in calls if c.id in by_id]
        if not facts.get("handoff_ticket"):
            await self._handoff_failed(state, results, ctx)
        return {"results": results, "degrade": ctx.degrade, "request": ctx.to_state()}

    async def _handoff_failed(
        self, state: HelpdeskState, results: list[ToolResult], ctx: RequestContext
    ) -> None:
        """The ladder's last line: one handoff ticket for everything core that failed."""
        failed = [
            r for r in results if r.status is ToolStatus.FAILED and LadderStep.HANDOFF in r.ladder
        ]
        handoff = self.packs.handoff_tool
        if not failed or handoff is None or any(r.tool == handoff for r in results):
            return
        if handoff not in self.executor.registry:
            return
        facts = state.get("facts", {})
        summary = "; ".join(f"{r.tool} failed: {r.reason}" for r in failed)
        text = (
            f"Automatic handoff. Customer asked: "
            f"{_last_human_text(state.get('messages', []))[:500]}. {summary}"[:2000]
        )
        failed_ids = [str(r.call_id) for r in failed]
        call = ToolCall(
            name=handoff,
            args=self.packs.handoff_args(text, facts, failed_ids),
            id=f"handoff-{ctx.turn}",
        )
        # The last line gets its own small time slice: the turn's budget may be spent by the
        # very failures that made the handoff necessary.
        side = RequestContext(
            session=ctx.session,
            turn=ctx.turn,
            customer=ctx.customer,
            budget=RetryBudget(max_retries=0, max_seconds=HANDOFF_BUDGET_S, clock=self.clock),
            request_id=ctx.request_id,
        )
        ticket = await self.executor.run(call, side)
        ticket_id = ticket.data.get("ticket_id") if ticket.status is ToolStatus.OK else None
        for item in ctx.degrade.pending:
            if item.status == "failed" and item.ticket_id is None and ticket_id:
                ctx.add_pending(item.model_copy(update={"ticket_id": ticket_id}))
        ctx.record(
            stage="execute",
            target=handoff,
            action=LadderStep.HANDOFF,
            error_class=None,
            at=self.clock.wall(),
            reason=(
                f"handoff ticket {ticket_id} filed"
                if ticket_id
                else f"handoff ticket could not be filed: {ticket.reason}"
            ),
        )


def _reused_ticket(call: ToolCall, ticket_id: str) -> ToolResult:
    """A handoff when the session already has one open: the same ticket, no second one."""
    return ToolResult(
        call_id=call.id,
        tool=call.name,
        status=ToolStatus.OK,
        data={"ticket_id": ticket_id, "category": "handoff", "reused": True, "status": "open"},
    )


def _with_when(result: ToolResult, zone_name: str | None) -> ToolResult:
    """A repeated money action's earlier execution, with its time as the reply shows it: in
    the pack's time zone (the customer's: "2026-12-04 23:46" in Shanghai), else in UTC."""
    data = result.data if isinstance(result.data, dict) else {}
    previous = data.get("previous")
    if not isinstance(previous, dict) or "at" not in previous:
        return result
    at = datetime.fromtimestamp(float(previous["at"]), tz=UTC)
    when = (
        at.astimezone(zone(zone_name)).strftime("%Y-%m-%d %H:%M")
        if zone_name
        else at.strftime("%Y-%m-%d %H:%M UTC")
    )
    return result.model_copy(update={"data": {**data, "previous": {**previous, "when": when}}})
