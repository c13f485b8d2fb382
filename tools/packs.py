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

Over 400 lines on purpose: the records, their set and how packs are loaded (``module:attr``,
the ``helpdesk.packs`` entry points) are one public surface, documented in one place.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata, resources
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import yaml

from helpdesk.tools.local_time import zone
from helpdesk.tools.registry import ToolKind, ToolRegistry

if TYPE_CHECKING:
    from helpdesk.graph.intents import MatchContext, MatchedIntent
    from helpdesk.graph.replies import PackReplies

__all__ = [
    "ENTRY_POINT_GROUP",
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
    "PlanFn",
    "PlannedCall",
    "ReplyOutcome",
    "UnderstandFn",
    "Understood",
    "check_capabilities",
    "installed_packs",
    "load_pack",
    "load_packs",
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
    :func:`helpdesk.graph.intents.read_confirmation`, the only reader of a yes."""
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


@dataclass(frozen=True, slots=True)
class _IntentEntry:
    capability: Capability
    spec: IntentSpec
    pack: Pack


class PackSet:
    """The loaded packs, with the generic look-ups the turn graph needs.

    Raises:
        PackError: two packs share a capability, intent or tool name, or name two handoff tools.
    """

    def __init__(self, packs: Sequence[Pack] = ()) -> None:
        self.packs: tuple[Pack, ...] = tuple(packs)
        self._by_tool: dict[str, Capability] = {}
        self._by_intent: dict[str, _IntentEntry] = {}
        self._pack_of: dict[str, Pack] = {}
        self._identifier_pattern: tuple[re.Pattern[str] | None] | None = None
        self._mention_pattern: tuple[re.Pattern[str] | None] | None = None
        names: set[str] = set()
        handoff = [p.handoff_tool for p in self.packs if p.handoff_tool]
        if len(handoff) > 1:
            raise PackError(f"more than one pack names a handoff tool: {handoff}")
        self.handoff_tool: str | None = handoff[0] if handoff else None
        """The tool the ladder's last rung calls (None: no pack offers a handoff)."""
        for pack in self.packs:
            if pack.name in names:
                raise PackError(f"pack {pack.name!r} is loaded twice")
            names.add(pack.name)
            for cap in pack.capabilities:
                if cap.name in self._pack_of:
                    raise PackError(f"capability {cap.name!r} is defined by two packs")
                self._pack_of[cap.name] = pack
                self._by_tool.setdefault(cap.tool, cap)
                for spec in cap.intents:
                    if spec.name in self._by_intent:
                        raise PackError(f"intent {spec.name!r} is defined twice")
                    self._by_intent[spec.name] = _IntentEntry(cap, spec, pack)

    def __iter__(self) -> Iterator[Pack]:
        return iter(self.packs)

    def __len__(self) -> int:
        return len(self.packs)

    def capabilities(self) -> list[Capability]:
        return [c for p in self.packs for c in p.capabilities]

    def for_tool(self, tool: str) -> Capability | None:
        """The capability a tool serves (the first registered), or None."""
        return self._by_tool.get(tool)

    def for_intent(self, intent: str) -> Capability | None:
        entry = self._by_intent.get(intent)
        return entry.capability if entry else None

    def intent_spec(self, intent: str) -> IntentSpec | None:
        entry = self._by_intent.get(intent)
        return entry.spec if entry else None

    def intent_for_tool(self, tool: str) -> str | None:
        """The first intent of the capability a tool serves (for model-chosen calls)."""
        cap = self._by_tool.get(tool)
        return cap.intents[0].name if cap and cap.intents else None

    def intent_names(self) -> list[str]:
        return list(self._by_intent)

    def intent_catalog(self, lang: Lang) -> str:
        """One line per loaded intent for a model's request planner: name, meaning, an example
        in ``lang`` (``- points_balance: the member's points; e.g. "how many points do I
        have?"``)."""
        lines = []
        for name in self._by_intent:
            spec = self.intent_spec(name)
            if spec is None:
                continue
            examples = spec.examples.get(lang) or next(iter(spec.examples.values()), ())
            parts = [f"- {name}"]
            if spec.description:
                parts.append(f": {spec.description}")
            if examples:
                parts.append(f' (e.g. "{examples[0]}")')
            lines.append("".join(parts))
        return "\n".join(lines)

    def pack_of(self, capability: str) -> Pack | None:
        return self._pack_of.get(capability)

    def identifier_shapes(self) -> dict[str, str]:
        """Field -> shape of every identifier the packs declare."""
        shapes: dict[str, str] = {}
        for pack in self.packs:
            shapes.update(pack.identifiers)
        for cap in self.capabilities():
            shapes.update(cap.identifiers)
        return shapes

    def time_zones(self) -> list[str]:
        """The time zones the loaded packs show times in."""
        return sorted({p.time_zone for p in self.packs if p.time_zone})

    def identifier_pattern(self) -> re.Pattern[str] | None:
        """One regex finding any declared identifier in text (None: no pack declares one)."""
        if self._identifier_pattern is None:
            self._identifier_pattern = (self._compile_identifiers(),)
        return self._identifier_pattern[0]

    def _compile_identifiers(self) -> re.Pattern[str] | None:
        shapes = sorted(set(self.identifier_shapes().values()), key=len, reverse=True)
        if not shapes:
            return None
        return re.compile(r"\b(?:" + "|".join(f"(?:{s})" for s in shapes) + r")\b")

    def mention_pattern(self) -> re.Pattern[str] | None:
        """One case-insensitive regex finding any identifier as customers write it (the packs'
        :attr:`Pack.mentions`); None when no pack declares one."""
        if self._mention_pattern is None:
            shapes = [s for p in self.packs for s in p.mentions.values()]
            joined = "|".join(f"(?:{s})" for s in shapes)
            self._mention_pattern = (re.compile(joined, re.IGNORECASE) if shapes else None,)
        return self._mention_pattern[0]

    def keep_fields(self) -> frozenset[str]:
        """Result fields that survive compaction, across packs."""
        return frozenset(f for c in self.capabilities() for f in c.keep)

    def request_fields(self) -> tuple[str, ...]:
        """Every pack's :attr:`Pack.request_fields`, in load order, without repeats."""
        return tuple(dict.fromkeys(f for p in self.packs for f in p.request_fields))

    def subject(self) -> str:
        """The first loaded pack's :attr:`Pack.subject` ("" when none declares one)."""
        return next((p.subject for p in self.packs if p.subject), "")

    def subject_pack(self) -> Pack | None:
        """The first loaded pack that declares a :attr:`Pack.subject`."""
        return next((p for p in self.packs if p.subject), None)

    def handoff_args(
        self, summary: str, facts: Mapping[str, Any], failed: Sequence[str]
    ) -> dict[str, Any]:
        """The automatic handoff's arguments (the handoff pack's :attr:`Pack.handoff_args`)."""
        pack = next((p for p in self.packs if p.handoff_tool == self.handoff_tool), None)
        if pack is None or pack.handoff_args is None:
            return {"summary": summary}
        return pack.handoff_args(summary, facts, failed)

    def text_facts(self, text: str) -> dict[str, list[str]]:
        """Every pack's identifiers in ``text`` by fact key (:attr:`Pack.text_facts`)."""
        found: dict[str, list[str]] = {}
        for pack in self.packs:
            if pack.text_facts is not None:
                for key, values in pack.text_facts(text).items():
                    found.setdefault(key, []).extend(values)
        return found

    def fact_fields(self) -> dict[str, str]:
        """Result field -> session fact key, across packs (:attr:`Pack.facts`)."""
        merged: dict[str, str] = {}
        for pack in self.packs:
            merged.update(pack.facts)
        return merged

    def amount_fields(self) -> frozenset[str]:
        return frozenset(f for c in self.capabilities() for f in c.amounts)

    def templates(self, lang: Lang) -> dict[str, str]:
        """Every pack's reply templates for ``lang`` (later packs cannot shadow earlier keys)."""
        merged: dict[str, str] = {}
        for pack in self.packs:
            if pack.templates is None:
                continue
            for key, value in load_pack_templates(pack.templates, lang).items():
                merged.setdefault(key, value)
        return merged

    def build_registry(self, env: PackEnv, base: ToolRegistry | None = None) -> ToolRegistry:
        """One registry with every pack's tools (added to ``base`` when given), checked against
        the capabilities: each capability's tool exists and has the capability's kind."""
        registry = base if base is not None else ToolRegistry()
        for pack in self.packs:
            built = pack.tools(env)
            for spec in built:
                if spec.name in registry:
                    raise PackError(f"pack {pack.name!r}: tool {spec.name!r} is already registered")
                registry.add(spec)
        check_capabilities(self, registry)
        return registry


def check_capabilities(packs: PackSet, registry: ToolRegistry) -> None:
    """Every capability's tool is registered with the capability's kind.

    Raises:
        PackError: naming the capability and what is wrong.
    """
    for cap in packs.capabilities():
        spec = registry.get(cap.tool)
        if spec is None:
            raise PackError(f"capability {cap.name!r}: tool {cap.tool!r} is not registered")
        if spec.policy.kind != cap.kind:
            raise PackError(
                f"capability {cap.name!r} is {cap.kind!r} but tool {cap.tool!r} is "
                f"{spec.policy.kind!r}"
            )


@functools.lru_cache(maxsize=64)
def load_pack_templates(package: str, lang: Lang) -> dict[str, str]:
    """``<package>/replies.<lang>.yaml`` as a flat key -> template map (empty when absent).

    Raises:
        PackError: the file is not a flat YAML map of strings.
    """
    try:
        resource = resources.files(package).joinpath(f"replies.{lang}.yaml")
        raw = resource.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError, IsADirectoryError):
        return {}
    try:
        data: Any = yaml.safe_load(raw) or {}
    except yaml.YAMLError as exc:
        raise PackError(f"{package}/replies.{lang}.yaml is not valid YAML: {exc}") from exc
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise PackError(f"{package}/replies.{lang}.yaml must be a flat map of key -> string")
    return dict(data)


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


ENTRY_POINT_GROUP = "helpdesk.packs"
"""Installed distributions offer packs here: ``[project.entry-points."helpdesk.packs"]``
``loyalty = "my_pkg.loyalty:pack"`` (a :class:`Pack`, or a callable returning one)."""


def load_pack(spec: str) -> Pack:
    """A pack from ``"module:attr"`` (a :class:`Pack`, or a callable with no arguments that
    returns one).

    Raises:
        PackError: naming the spec and what is wrong (no colon, no module, no attribute, not a
            pack) — never a traceback for a typo.
    """
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise PackError(f"pack {spec!r} must look like 'module:attr'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PackError(f"pack {spec!r}: cannot import {module_name!r}: {exc}") from exc
    try:
        value: Any = getattr(module, attr)
    except AttributeError:
        raise PackError(f"pack {spec!r}: module {module_name!r} has no {attr!r}") from None
    return _as_pack(value, spec)


def _as_pack(value: Any, origin: str) -> Pack:
    if not isinstance(value, Pack) and callable(value):
        value = value()
    if not isinstance(value, Pack):
        raise PackError(f"pack {origin!r} is a {type(value).__name__}, not a Pack")
    return value


def installed_packs() -> list[Pack]:
    """Every pack offered by installed distributions in :data:`ENTRY_POINT_GROUP`.

    Raises:
        PackError: an entry point cannot be loaded or is not a pack (named in the message).
    """
    packs = []
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            value = entry.load()
        except Exception as exc:  # any import-time failure of a third-party pack
            raise PackError(f"pack entry point {entry.name!r} ({entry.value}): {exc}") from exc
        packs.append(_as_pack(value, f"{entry.name} ({entry.value})"))
    return packs


def load_packs(specs: Sequence[str] = (), *, installed: bool = True) -> list[Pack]:
    """The packs named by ``specs`` (``module:attr``) plus, by default, the installed ones;
    a pack named both ways is loaded once."""
    packs = installed_packs() if installed else []
    for spec in specs:
        pack = load_pack(spec)
        if all(p.name != pack.name for p in packs):
            packs.append(pack)
    return packs
