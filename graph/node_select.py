"""The select_tool node: the tool and arguments for each task."""

from __future__ import annotations

from typing import Any

from helpdesk.graph.node_base import NodeBase, _lang, _last_human_text
from helpdesk.graph.part_reading import drop_unnamed_reads, read_unread_parts
from helpdesk.graph.planning import call_for, match_from_task
from helpdesk.graph.state import HelpdeskState, Task
from helpdesk.graph.subject_resolution import resolve_subjects
from helpdesk.graph.tiered import select_with_models

__all__ = ["SelectToolNode"]


class SelectToolNode(NodeBase):
    """select_tool: a model tier's calls (checked and bound) or the call each intent plans."""

    async def select_tool(self, state: HelpdeskState) -> dict[str, Any]:
        """Choose the tool and arguments for each task: by a model tier with bind_tools (bounded
        self-correction of invalid calls) when one decomposed the turn, else by intent."""
        ctx = self._ctx(state)
        facts = state.get("facts", {})
        tasks = list(state.get("tasks", []))
        tiers = dict(state.get("tiers", {}))
        tier = "minimal"
        if self.router is not None and tiers.get("decompose", "minimal") != "minimal":
            proposal = state.get("proposed_calls")
            chosen = await select_with_models(
                self.router,
                self.executor,
                tasks,
                text=_last_human_text(state.get("messages", [])),
                lang=_lang(state),
                facts=facts,
                ctx=ctx,
                clock=self.clock,
                proposed=(proposal["calls"], proposal["tier"]) if proposal else None,
                packs=self.packs,
            )
            if chosen is not None:
                tasks, tier = chosen
            else:
                self._fell_to_minimal(ctx, "select_tool")
        # "cancel my air fryer order": the order its words describe, found by one read
        tasks = await resolve_subjects(
            tasks, packs=self.packs, executor=self.executor, ctx=ctx, facts=facts
        )
        # "is the humidifier quiet enough for a baby's room": a part no template read, looked up
        tasks = await read_unread_parts(
            tasks, packs=self.packs, executor=self.executor, ctx=ctx, facts=facts
        )
        tasks = await drop_unnamed_reads(
            tasks, packs=self.packs, executor=self.executor, ctx=ctx, facts=facts
        )
        out: list[Task] = []
        for task in tasks:
            if task.call is None:
                call = call_for(match_from_task(task), task.id, facts=facts, packs=self.packs)
                task = task.model_copy(update={"call": call})
            if self._read_already_planned(task, out):
                # "我的钢化膜什么时候到，已经超时了吧": two parts resolved to the same read are
                # answered by one (the reply says it once)
                continue
            out.append(task)
        tiers["select_tool"] = tier
        return {"tasks": out, "tiers": tiers, "degrade": ctx.degrade, "request": ctx.to_state()}

    def _read_already_planned(self, task: Task, planned: list[Task]) -> bool:
        """Whether an earlier task of the same kind makes the same read (same tool, same
        arguments): its reply already answers this one. (A read shared by tasks of other kinds
        — an order's contents and what of it is refundable — is answered by each.)"""
        call = task.call
        if call is None:
            return False
        spec = self.executor.registry.get(call.name)
        if spec is None or spec.policy.is_write:
            return False
        return any(
            t.intent == task.intent
            and t.call is not None
            and t.call.name == call.name
            and t.call.args == call.args
            for t in planned
        )
