"""Capability packs: what the bot can do for a customer, registered next to the tools that do it.

A :class:`Capability` is one thing the bot does for a customer ("show my points balance",
"redeem a voucher", "convert points to store credit"): the tool that serves it, the intents a
customer message expresses it with (zh/en examples and patterns), how its arguments are read
from the customer's words, its kind (read / write / money — the confirm-first precheck stays on
the tool's :class:`~helpdesk.tools.registry.ToolPolicy`), the reply template keys per result
status, which result fields are identifiers and amounts (checked by validation) and which
survive compaction. A :class:`Pack` is a set of capabilities plus a builder of the tools they
use. :class:`PackSet` is what the turn graph consults: it knows every loaded pack and answers
generic questions ("which capability serves this tool?", "what shapes do identifiers have?")
so that ``helpdesk.graph`` never names a pack's tools, statuses or fields.

A pack may bring its own understanding (:attr:`Pack.understand`): a function from the customer's
message to :class:`Understood` requests, used before the generic pattern matcher. That is where a
better matcher or a small trained classifier for one domain lands, without touching the graph.

This module is the public surface, documented in one place; the code lives in three modules
with one job each: the declarations (:mod:`helpdesk.tools.pack_spec`), the set of loaded packs
(:mod:`helpdesk.tools.pack_set`) and finding packs by ``module:attr`` or the ``helpdesk.packs``
entry points (:mod:`helpdesk.tools.pack_loading`).
"""

from __future__ import annotations

from helpdesk.tools.pack_loading import ENTRY_POINT_GROUP, installed_packs, load_pack, load_packs
from helpdesk.tools.pack_set import PackSet, check_capabilities, load_pack_templates
from helpdesk.tools.pack_spec import (
    OUTCOMES,
    ArgExtractor,
    Capability,
    HandoffArgsFn,
    IntentSpec,
    Lang,
    MatcherFn,
    Pack,
    PackEnv,
    PackError,
    PartAsksFn,
    PartReader,
    PlanFn,
    PlannedCall,
    ReplyOutcome,
    SubjectResolver,
    UnderstandFn,
    Understood,
    regex_args,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "OUTCOMES",
    "ArgExtractor",
    "Capability",
    "HandoffArgsFn",
    "IntentSpec",
    "Lang",
    "MatcherFn",
    "Pack",
    "PackEnv",
    "PackError",
    "PackSet",
    "PartAsksFn",
    "PartReader",
    "PlanFn",
    "PlannedCall",
    "ReplyOutcome",
    "SubjectResolver",
    "UnderstandFn",
    "Understood",
    "check_capabilities",
    "installed_packs",
    "load_pack",
    "load_pack_templates",
    "load_packs",
    "regex_args",
]
