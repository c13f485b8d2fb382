"""The request record: what one part of a customer message asks for, domain-free.

:class:`MatchedIntent` is one request of a message: a conversation intent the engine answers
itself (greeting, thanks, goodbye, a question about the bot, the hotline, a language change), an
answer to the yes/no question the bot asked (:attr:`Intent.CONFIRM_YES` ...), or a request served
by a loaded pack's capability (:attr:`Intent.PACK`, with the capability's name and the request's
fields in :attr:`MatchedIntent.args`). The readers that produce it are
:mod:`helpdesk.graph.intents` and :mod:`helpdesk.graph.confirmation_reading`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum, StrEnum
from typing import Any

from helpdesk.graph.language import Lang

__all__ = [
    "AMOUNT_ASKED",
    "ASKED_WITH",
    "BRIEF",
    "CHANGE_UNCLEAR",
    "DEFERRED_PART",
    "REPLACED",
    "RESOLVED",
    "SPARED_SUBJECT",
    "Intent",
    "MatchedIntent",
    "plain_match",
    "stored_intent",
]


class Intent(StrEnum):
    """What the customer wants from one clause of a message."""

    GREETING = "greeting"
    THANKS = "thanks"
    GOODBYE = "goodbye"
    IDENTITY = "identity"
    """A question about the bot itself ("are you a bot?", "你是真人还是AI")."""
    HOTLINE = "hotline"
    """A question for the phone number ("客服电话多少"): answered with the configured hotline."""
    LANGUAGE = "language"
    """A request to change the reply language ("reply in English", "说中文"), or a message in a
    language the bot does not answer in (:attr:`MatchedIntent.details` ``"unsupported"``)."""
    CONFIRM_YES = "confirm_yes"
    """An unqualified yes to the question the bot asked (the only thing that runs an action)."""
    CONFIRM_NO = "confirm_no"
    """A no, or a negated request ("don't refund"): nothing pending runs, nothing is offered."""
    CONFIRM_CHANGE = "confirm_change"
    """A yes or no that changes what was asked ("yes but only 100", "不对，我是说100904"): the
    changed action is asked about again, never run."""
    CONFIRM_UNCLEAR = "confirm_unclear"
    """A questioning or hedged yes ("yes?", "yes, I asked a week ago"): the question is asked
    again."""
    UNKNOWN = "unknown"
    PACK = "pack"
    """A request served by a loaded pack's capability (:attr:`MatchedIntent.capability` names
    its intent); planned, run and rendered from the pack's declarations."""


@dataclass(frozen=True, slots=True)
class MatchedIntent:
    """One thing the customer asked for, with what the words said about it."""

    intent: Intent
    text: str
    """The clause (or merged clauses) of the message this intent was read from."""
    lang: Lang
    quantity: int | None = None
    topic: str | None = None
    """The policy topic a question is about (a pack's FAQ topic), when the matcher read one."""
    amount: float | None = None
    """A money amount when :attr:`amount_kind` is ``exact``."""
    amount_kind: str = "none"
    """What the words said about the amount: ``none``, ``exact``, ``full`` or ``invalid``
    (see :func:`helpdesk.graph.money.read_amount`); ``invalid`` is asked about, never used."""
    amount_raw: str = ""
    """The words the amount was read from."""
    details: str = ""
    """Free text: the problem description for tickets and handoffs; ``"ack"`` marks a
    :attr:`Intent.THANKS` that is a bare "ok"/"no" acknowledgement rather than a thank-you;
    the action a confirmation names (``"cancel"``); ``"part"`` an unread question."""
    inferred_order: bool = False
    """The request's subject came from session memory (``last_<subject>``), not the message."""
    capability: str = ""
    """For :attr:`Intent.PACK`: the pack intent asked for (``points_balance``)."""
    args: dict[str, Any] = field(default_factory=dict)
    """The request's fields a matcher found (a pack's identifiers, ``order_id`` for the shop):
    they reach the capability's planner with the request."""

    def request_value(self, name: str) -> Any:
        """A request field by name (a pack's :attr:`~helpdesk.tools.packs.Pack.request_fields`):
        the attribute of that name, else the argument, else None."""
        if name in _MATCH_FIELDS:
            return getattr(self, name)
        return self.args.get(name)

    def with_request(self, values: Mapping[str, Any]) -> MatchedIntent:
        """A copy carrying ``values`` (request fields by name; None values are left out): fields
        of this record are set, any other name goes into :attr:`args`."""
        own = {k: v for k, v in values.items() if k in _MATCH_FIELDS and v is not None}
        extra = {k: v for k, v in values.items() if k not in _MATCH_FIELDS and v is not None}
        updated = replace(self, **own)
        return replace(updated, args={**updated.args, **extra}) if extra else updated


_MATCH_FIELDS = frozenset(f.name for f in fields(MatchedIntent)) - {"intent", "args"}

BRIEF = "brief"
""":attr:`MatchedIntent.details` of a greeting or goodbye beside other requests ("hi! is SKU-1004
in stock?"): answered in a word ("Hi!") before (or after) the answers, not with the help menu."""

EVERY_DESCRIBED = "every_described"
"""The request argument marking words that ask for every subject they describe ("两个没发货的单都
取消", "cancel all my unpaid orders"): when the lookup finds several, one request per subject
(each asked on its own before a write), never "which one?"."""

AMOUNT_ASKED = "amount_asked"
"""The request argument of a look that answers whether an amount can be had ("100200能退100吗"):
a bare go-ahead on the next turn ("好的 退吧") is for that amount, never for all there is."""

ASKED_WITH = "asked_with"
"""The request argument carrying the words of the request that asked for the amount a message
gives ("refund 200 for the thermos" -> "at most ¥129 for it, how much?" -> "150"): what the
amount is for stays what it was (a pack's precheck still sees "the thermos")."""

RESOLVED = "resolved"
"""The request argument marking a subject found from the request's description ("my air fryer
order": :mod:`helpdesk.graph.subject_resolution`), not named by the customer."""

DEFERRED_PART = "part"
""":attr:`MatchedIntent.details` of an :attr:`Intent.UNKNOWN` request that is one question of a
message whose other requests were read: the reply says this part was not understood (quoting
it) instead of dropping it."""


SPARED_SUBJECT = "spared"
""":attr:`MatchedIntent.details` of an :attr:`Intent.CONFIRM_NO` that spares one subject a write
asked for beside it ("cancel 100904 but don't touch 100998"): the reply says that subject is
left as it is, never that nothing at all will be done."""


REPLACED = "replaced"
""":attr:`MatchedIntent.details` of an :attr:`Intent.CONFIRM_NO` that drops the action waiting
because the same message asks for another in its place ("refund 100200" → "100 for the thermos
and 200 for the air fryer"): the reply says the first was dropped, never that nothing at all
will be done (the new one is asked right after it)."""


ALTERNATIVE = "alternative"
""":attr:`MatchedIntent.details` of a question weighing something else in place of the action
waiting for a yes ("换货可以吗" while a refund waits, "can I get a replacement instead?"): it is
answered and the waiting action is not asked again — not done, and the reply says so (a hurried
"ok" to the answer must not run what the customer was moving away from)."""


CHANGE_UNCLEAR = "change_unclear"
""":attr:`MatchedIntent.details` of an :attr:`Intent.UNKNOWN` request that is a changed answer
("yes but only 50", "no, I meant 100998") while several actions wait for a yes, naming none of
them: which one it changes is unknown, so none stays waiting and the reply says so."""


def plain_match(match: MatchedIntent) -> dict[str, Any]:
    """The match as a dict of plain JSON values (checkpoints store no custom enums): its fields
    (``args`` among them), and the request's arguments repeated beside them (``order_id`` for
    the demo shop) — the flat request a capability's planner reads."""
    fields = dataclasses.asdict(match)
    plain = {k: (v.value if isinstance(v, Enum) else v) for k, v in fields.items()}
    return {**match.args, **plain}


def stored_intent(value: str, capability: str = "") -> tuple[Intent, str]:
    """An intent and capability as stored in session state: an engine intent's value, or a
    capability name (stored so before packs read their own requests: a pack request)."""
    if value in _INTENT_VALUES:
        return Intent(value), capability
    return Intent.PACK, capability or value


_INTENT_VALUES = frozenset(i.value for i in Intent)
