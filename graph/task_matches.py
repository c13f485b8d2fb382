"""The request a planned task was made from, rebuilt from what a checkpoint stores."""

from __future__ import annotations

import dataclasses

from helpdesk.graph.intents import MatchedIntent, stored_intent
from helpdesk.graph.state import Task

__all__ = ["match_from_task"]


def match_from_task(task: Task) -> MatchedIntent:
    """Rebuild the MatchedIntent a task was planned from (checkpoints store plain fields).

    The request's arguments are the stored ``args``. A task stored before packs read their own
    requests names the capability as its intent (``"refund"``, its order id beside the fields):
    it becomes a pack request of that capability with those ids as arguments.
    """
    fields = dict(task.match)
    stored_args = fields.pop("args", None)
    value = str(fields.get("intent", task.intent))
    fields["intent"], fields["capability"] = stored_intent(value, fields.get("capability") or "")
    known = {f.name for f in dataclasses.fields(MatchedIntent)} - {"args"}
    if isinstance(stored_args, dict):
        # an argument changed in the flat copy ("no, I meant 100200") wins; turn markers and
        # keys that were never arguments are not arguments
        args = {k: fields.get(k, v) for k, v in stored_args.items()}
    else:
        # stored before the arguments had their own field: the shop's ids sat beside the fields
        args = {k: v for k, v in fields.items() if k not in known and k not in _TURN_MARKERS}
    return MatchedIntent(**{k: v for k, v in fields.items() if k in known}, args=args)


_TURN_MARKERS = frozenset({"reasked"})
"""Keys the turn adds to a stored match (not request arguments)."""
