"""The generate node: the reply's draft, by a model tier or the reply writer."""

from __future__ import annotations

from typing import Any

from helpdesk.graph.node_base import NodeBase, _lang, _reply_items, _with_questions
from helpdesk.graph.stages import generate_with_tiers
from helpdesk.graph.state import HelpdeskState

__all__ = ["GenerateNode"]


class GenerateNode(NodeBase):
    """generate: write the draft."""

    async def generate(self, state: HelpdeskState) -> dict[str, Any]:
        """Write the reply from the tools' data and the DegradeContext.

        On a regeneration the previous draft's violations are passed to the writer as feedback.
        """
        ctx = self._ctx(state)
        items = _reply_items(state)
        degrade = ctx.degrade
        lang = _lang(state)
        feedback = list(state.get("validation", {}).get("violations", []))
        tiers = dict(state.get("tiers", {}))
        draft: str | None = None
        tier = "minimal"
        if self.writer is None and self.router is not None and not self._simplified(state):
            outcome = await generate_with_tiers(
                self.router, self._reply_facts(items, degrade, feedback), lang, ctx, self.clock
            )
            if outcome is not None:
                draft, tier = outcome.value, outcome.tier
            else:
                self._fell_to_minimal(ctx, "generate")
        if draft is None:
            draft = await self._writer(items, degrade, lang, feedback)
        tiers["generate"] = tier
        draft = _with_questions(draft, state.get("asking", []))
        return {
            "draft": self._with_notices(state, draft, lang),
            "tiers": tiers,
            "tier": tier,
            "degrade": ctx.degrade,
            "request": ctx.to_state(),
        }
