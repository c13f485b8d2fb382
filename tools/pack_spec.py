"""How a pack declares what it does: :class:`Pack`, :class:`Capability`, :class:`IntentSpec`
and the records and callables they carry.

A :class:`Capability` is one thing the bot does for a customer: the tool that serves it, the
intents a customer message expresses it with, how its arguments are read from the customer's
words (:func:`regex_args` builds the common extractor), its kind, its reply template keys and
which result fields are identifiers, amounts and kept through compaction. A :class:`Pack` is a
set of capabilities plus a builder of the tools they use. Every record checks itself on
construction and raises :class:`PackError`; how loaded packs are looked up together is
:mod:`helpdesk.tools.pack_set`, how they are found :mod:`helpdesk.tools.pack_loading`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from helpdesk.tools.local_time import zone
from helpdesk.tools.pack_lookups import PartReader, SubjectResolver
from helpdesk.tools.registry import ToolKind, ToolRegistry

if TYPE_CHECKING:
    from helpdesk.graph.intents import MatchContext, MatchedIntent
    from helpdesk.graph.replies import PackReplies

__all__ = [
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
    "PartReader",
    "PlanFn",
    "PlannedCall",
    "ReplyOutcome",
    "SubjectResolver",
    "UnderstandFn",
    "Understood",
    "regex_args",
]


Lang: TypeAlias = Literal["zh", "en"]

ReplyOutcome: TypeAlias = Literal[
    "ok", "stale", "fallback", "missing", "needs_confirmation", "refused", "failed", "unknown"
]
"""What a reply says about one request; the template key is ``<intent>.<outcome>``
(``refused`` may be refined by the business code: ``<intent>.refused.<code>``)."""

OUTCOMES: tuple[str, ...] = (
    "ok",
    "stale",
    "fallback",
    "missing",
    "needs_confirmation",
    "refused",
    "failed",
    "unknown",
)

ArgExtractor: TypeAlias = Callable[[str, Mapping[str, Any]], dict[str, Any]]
"""``extract(text, facts) -> args``: the tool arguments found in the customer's words (and the
session facts). Leave out what is not there; :attr:`Capability.required` says what must be."""

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


@dataclass(frozen=True, slots=True)
class PlannedCall:
    """The tool call a capability's planner chose for one request."""

    tool: str
    """A registered tool (usually the capability's own; a planner may pick a sibling, e.g. a
    list instead of one item when no id was given)."""
    args: dict[str, Any]
    """Its model-visible arguments."""
    ask_first: bool = False
    """The customer's words ask to consider this write, not to do it ("我要投诉": acknowledge,
    then offer to file): the executor asks for a yes first, as for a confirm-first tool."""


PlanFn: TypeAlias = Callable[[Mapping[str, Any], Mapping[str, Any]], PlannedCall | None]
"""``plan(request, facts) -> call``: for requests read by a pack's own understanding (the
request's fields as plain values: ``intent``, ``text``, ``lang`` and what was read), the call
that serves it, or None when information is missing (the reply asks instead of guessing)."""


HandoffArgsFn: TypeAlias = Callable[[str, Mapping[str, Any], Sequence[str]], dict[str, Any]]
"""``handoff_args(summary, facts, failed_call_ids) -> args`` of the pack's handoff tool."""


class PackError(ValueError):
    """A pack or capability is malformed, or two loaded packs disagree (names, tools)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class IntentSpec:
    """One way a customer asks for a capability."""

    name: str
    """Intent name, unique across the loaded packs (``points_balance``); lower_snake_case."""
    examples: Mapping[Lang, tuple[str, ...]] = field(default_factory=dict)
    """Sample messages per language: documentation, model prompts and the pack's own tests."""
    description: str = ""
    """What the intent means and which request fields it needs, for the model tiers' request
    planner ("state of one order; needs order_id"); "" = the name and examples only."""
    patterns: tuple[str, ...] = ()
    """Regular expressions (case-insensitive) that mark a clause as this intent."""
    negations: tuple[str, ...] = ()
    """Patterns that mean the customer does *not* want it ("don't redeem"): a clause matching one
    never becomes this intent (a negation never turns into a write)."""
    questions: tuple[str, ...] = ()
    """Patterns of a question *about* the action ("how do vouchers work?"): for a write or money
    capability, a clause matching one never becomes the action."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise PackError(f"intent name {self.name!r} must match {_NAME.pattern}")
        for lang in self.examples:
            if lang not in ("zh", "en"):
                raise PackError(f"intent {self.name!r}: examples language {lang!r} is not zh/en")
        for pattern in (*self.patterns, *self.negations, *self.questions):
            try:
                re.compile(pattern)
            except re.error as exc:
                raise PackError(f"intent {self.name!r}: bad pattern {pattern!r}: {exc}") from exc

    def compiled(self) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(p, re.IGNORECASE) for p in self.patterns)


@dataclass(frozen=True, kw_only=True, slots=True)
class Capability:
    """One thing the bot does for a customer, and everything the turn needs to know about it."""

    name: str
    """Capability name, unique across the loaded packs (``points_balance``)."""
    tool: str
    """The registered tool that serves it."""
    kind: ToolKind = "read"
    """``read``, ``write`` or ``money``; must equal the tool policy's kind (checked on load)."""
    intents: tuple[IntentSpec, ...] = ()
    """How customers ask for it (several intents may share one capability)."""
    extract: ArgExtractor | None = None
    """Reads the tool's arguments from the customer's words; None = no arguments."""
    plan: PlanFn | None = None
    """For requests the built-in or the pack's own matcher read with fields (ids, amounts):
    chooses the call from them, instead of :attr:`extract` on the words."""
    required: tuple[str, ...] = ()
    """Arguments that must be found; missing ones are asked for (``<intent>.missing``), never
    guessed."""
    amounts: tuple[str, ...] = ()
    """Argument and result fields that hold money amounts (validation checks the amounts a reply
    states); a *required* amount argument the extractor did not find is read with the generic
    money reader (digits, Chinese numerals, ¥/元), never guessed."""
    identifiers: Mapping[str, str] = field(default_factory=dict)
    """Result field -> regex of its shape (``{"voucher": r"V-[A-Z0-9]{6}"}``): an identifier of
    that shape in a reply must appear in the turn's data."""
    keep: tuple[str, ...] = ()
    """Result fields that survive compaction (the rest of a result is shrunk away)."""
    done_key: str = ""
    """For writes: the reply template key whose wording says the write is done; validation
    rejects it (or :attr:`done_patterns`) when the write did not succeed."""
    done_patterns: tuple[str, ...] = ()
    """For writes: paraphrases of "done" (any tier's wording) checked in the sentence naming
    the write's object when the write did not succeed."""
    empty_key: str = ""
    """For list reads: the template key saying "there are none"; never said after a failed
    lookup."""
    empty_patterns: tuple[str, ...] = ()
    """For list reads: paraphrases of "there are none" (any tier's wording), never said after a
    failed lookup."""
    subject: str = ""
    """The argument naming the object the request is about (an order number), when it is the
    pack's :attr:`Pack.subject`: a request that names none inherits the session's last one. For
    writes, a reply's claim that the write is done is looked for next to it (its shape is the
    pack's identifier of that name)."""
    done_words: Mapping[Lang, tuple[str, ...]] = field(default_factory=dict)
    """For writes: the verbs (regex pieces) a reply uses to say this action happened (``en``:
    past participles such as ``"redeemed"``; ``zh``: stems such as ``"兑换"``); with the generic
    ones ("processed", "已完成") they make the detector of done-claims, which must be backed by a
    successful write or by data."""
    claim_stem: str = ""
    """For writes: a regex naming this action in a sentence; a done-claim naming it is backed
    by read data only when that data carries :attr:`evidence`."""
    evidence: str = ""
    """For writes: text in a read result's JSON showing the action happened (``'"redeemed"'``)."""
    dropped_key: str = ""
    """For confirm-first actions: the notice key saying it was not done because the customer
    asked something else instead of confirming (filled with its arguments); "" = generic."""
    receipt_key: str = ""
    """For writes: the key of a short receipt of an executed write (" (refund {refund_id})"),
    filled with its result, used when an earlier write is reconciled; "" = none."""
    core: bool = True
    """Core requests end in a handoff when everything fails; others may be dropped."""
    about_actions: bool = False
    """For reads that answer questions about the pack's actions themselves (a policy: "how long
    do refunds take?"): asked while an action waits for a yes, they keep it waiting and the
    reply asks about it again. A read of the waiting action's own subject does too; any other
    message leaves the action undone (said so)."""
    summary: Mapping[Lang, str] = field(default_factory=dict)
    """One line per language: what it does (help menus, model prompts, ``helpdesk tools``)."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise PackError(f"capability name {self.name!r} must match {_NAME.pattern}")
        if self.kind not in ("read", "write", "money"):
            raise PackError(f"capability {self.name!r}: kind must be read, write or money")
        if self.required and self.extract is None:
            raise PackError(f"capability {self.name!r}: required arguments need an extractor")
        for pattern in (*self.done_patterns, *self.empty_patterns, self.claim_stem):
            try:
                re.compile(pattern)
            except re.error as exc:
                raise PackError(
                    f"capability {self.name!r}: bad pattern {pattern!r}: {exc}"
                ) from exc
        for name, shape in self.identifiers.items():
            try:
                re.compile(shape)
            except re.error as exc:
                raise PackError(
                    f"capability {self.name!r}: bad identifier shape for {name!r}: {exc}"
                ) from exc

    def describe(self) -> dict[str, Any]:
        """Plain summary for ``helpdesk tools`` and docs."""
        return {
            "capability": self.name,
            "tool": self.tool,
            "kind": self.kind,
            "intents": [i.name for i in self.intents],
            "required": list(self.required),
            "amounts": list(self.amounts),
            "identifiers": sorted(self.identifiers),
            "keep": list(self.keep),
            "summary": dict(self.summary),
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class PackEnv:
    """What a pack's tool builder may use from the deployment."""

    hotline: str = "400-820-8820"
    """The only phone number a reply may contain (for fallbacks that point to it)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Pack-specific options (a backend URL, a fake backend for tests, ...)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Understood:
    """One request a pack's own understanding found in a message."""

    intent: str
    """An intent of one of the pack's capabilities."""
    text: str
    """The words it was read from."""
    args: dict[str, Any] = field(default_factory=dict)
    """Arguments found (the capability's extractor still fills what is missing)."""


UnderstandFn: TypeAlias = Callable[[str, Lang, Mapping[str, Any]], list[Understood]]
"""``understand(text, lang, facts) -> requests``: a pack's own matcher (empty = nothing)."""

PartAsksFn: TypeAlias = Callable[[str, bool], "frozenset[str] | None"]
"""``part_asks(part, held) -> kinds``: see :attr:`Pack.part_asks`."""

MatcherFn: TypeAlias = "Callable[[str, MatchContext], Sequence[MatchedIntent]]"
"""``matcher(text, context) -> requests``: a pack's reading of a whole message, conversation
and answers to the bot's question included (see :attr:`Pack.matcher`)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Pack:
    """A set of capabilities plus the tools they use."""

    name: str
    """Pack name (``loyalty``), shown by ``helpdesk tools``."""
    capabilities: tuple[Capability, ...]
    """What the pack does for customers."""
    tools: Callable[[PackEnv], ToolRegistry]
    """Builds the registry of the pack's tools (called once per bot)."""
    templates: str | None = None
    """Package holding ``replies.zh.yaml`` / ``replies.en.yaml`` (keys ``<intent>.<outcome>``,
    see :data:`ReplyOutcome`); None = the generic wording only."""
    understand: UnderstandFn | None = None
    """The pack's own understanding, tried before the generic pattern matcher."""
    matcher: MatcherFn | None = None
    """The pack's template matcher for whole messages, used instead of the engine's
    conversation reader (:func:`helpdesk.graph.intents.match_intents`): the first loaded pack
    that has one reads every message (the demo shop's reads its requests, the conversation
    intents and answers to the bot's questions); other packs' requests are still found by
    their :attr:`understand` and patterns. It must read answers with
    :func:`helpdesk.graph.confirmation_reading.read_confirmation`, the only reader of a yes."""
    handoff_tool: str | None = None
    """The tool that hands a conversation to a human (the ladder's last rung), if the pack has
    one; at most one loaded pack may name it."""
    identifiers: Mapping[str, str] = field(default_factory=dict)
    """Pack-wide identifier shapes (name -> regex), like :attr:`Capability.identifiers`, for
    identifiers no single capability owns (order numbers, ticket ids)."""
    subject: str = ""
    """The request field naming what a scoped request is about (``"member_id"``): a scoped
    request that names none inherits the session's last one (the fact ``last_<subject>``), and
    a changed confirmation ("no, I meant 100904") replaces it. "" = the pack has none."""
    subject_intent: str = ""
    """The intent a message naming only a subject is read as (a bare order number is an
    order-status question); when the previous reply asked for the subject, such a message
    continues the waiting request instead."""
    subject_words: str = ""
    """A regex of the words that name the subject's kind (``"会员|member"``): a message that is
    only these, the identifier and punctuation gives just the subject."""
    unknown_codes: tuple[str, ...] = ()
    """Business refusal codes meaning the subject does not exist (it is not remembered)."""
    replies: PackReplies | None = None
    """The pack's own wording for its requests and tools' results, where per-outcome templates
    are not enough (see :class:`helpdesk.graph.replies.PackReplies`); None = the templates."""
    handoff_args: HandoffArgsFn | None = None
    """Builds the :attr:`handoff_tool`'s arguments for the ladder's automatic handoff from the
    summary, the session facts and the failed call ids; None = ``{"summary": summary}``."""
    request_fields: tuple[str, ...] = ()
    """Fields a model's decomposition may fill for the pack's requests (``("member_id",)``),
    each an optional string; they reach the capability's planner with the request."""
    text_facts: Callable[[str], Mapping[str, Sequence[str]]] | None = None
    """The pack's identifiers in a customer's message, by session fact key
    (``{"member_ids": ["M-1001"]}``): remembered, they survive compaction."""
    facts: Mapping[str, str] = field(default_factory=dict)
    """Result field -> session fact key (``{"member_id": "member_ids"}``): identifiers read from
    tool results that the session remembers (they survive compaction as facts)."""
    mentions: Mapping[str, str] = field(default_factory=dict)
    """How customers write the pack's identifiers (name -> regex, matched case-insensitively,
    usually looser than :attr:`identifiers`: ``"sku 1001"``). The generic money reader blanks
    them before reading an amount, so an identifier is never taken for an amount."""
    resolver: SubjectResolver | None = None
    """Finds the :attr:`subject` a request describes without naming it (its tool must be a
    registered read); None = such a request is asked for its subject."""
    part_reader: PartReader | None = None
    """Looks up a part of a message no matcher read before it is said to be unread (its tool
    must be a registered read); None = such parts are said to be unread."""
    part_asks: PartAsksFn | None = None
    """What a part of a message asks: the capabilities (or engine intents) that would answer
    it, empty when it asks nothing they do, None when the pack cannot tell. ``held``: the part
    is inside a longer reading (a sure answer only). A part no reading answers is said to be
    unread (:mod:`helpdesk.graph.unclaimed_parts`)."""
    time_zone: str | None = None
    """The IANA time zone the pack's replies show times in (``"Asia/Shanghai"``); validation
    accepts a UTC timestamp of the data quoted in it. None = times as the data gives them."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise PackError(f"pack name {self.name!r} must match {_NAME.pattern}")
        if self.time_zone is not None:
            try:
                zone(self.time_zone)
            except ValueError as exc:
                raise PackError(f"pack {self.name!r}: {exc}") from exc
        for name, shape in self.mentions.items():
            try:
                re.compile(shape)
            except re.error as exc:
                raise PackError(
                    f"pack {self.name!r}: bad mention shape for {name!r}: {exc}"
                ) from exc
        names = [c.name for c in self.capabilities]
        if len(set(names)) != len(names):
            raise PackError(f"pack {self.name!r}: duplicate capability names {names}")


def regex_args(**fields: str | tuple[str, Callable[[str], Any]]) -> ArgExtractor:
    """An extractor from one regex per argument (group 1 is the value, optionally converted).

    ``regex_args(code=r"\\b(V-[A-Z0-9]{6})\\b", points=(r"(\\d+)\\s*points", int))``
    """
    compiled: dict[str, tuple[re.Pattern[str], Callable[[str], Any]]] = {}
    for name, rule in fields.items():
        pattern, convert = (rule, str) if isinstance(rule, str) else rule
        compiled[name] = (re.compile(pattern, re.IGNORECASE), convert)

    def extract(text: str, facts: Mapping[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for name, (pattern, convert) in compiled.items():
            m = pattern.search(text)
            if m:
                found[name] = convert(m.group(1) if m.groups() else m.group(0))
        return found

    return extract
