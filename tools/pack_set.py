"""The loaded packs as one :class:`PackSet`: the generic look-ups the turn graph consults.

``helpdesk.graph`` asks a :class:`PackSet` "which capability serves this tool?", "what shapes
do identifiers have?", "which result fields survive compaction?" and never names a pack's tools,
statuses or fields. It also builds the one tool registry of all loaded packs
(:meth:`PackSet.build_registry`, checked by :func:`check_capabilities`) and merges their reply
templates (:func:`load_pack_templates`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from helpdesk.tools.pack_spec import Capability, IntentSpec, Lang, Pack, PackEnv, PackError
from helpdesk.tools.registry import ToolRegistry
from helpdesk.tools.yaml_data import YAMLError, load_yaml

__all__ = ["PackSet", "check_capabilities", "load_pack_templates"]


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
    for pack in packs.packs:
        for role, reader in (("resolver", pack.resolver), ("part reader", pack.part_reader)):
            if reader is None:
                continue
            spec = registry.get(reader.tool)
            if spec is None or spec.policy.kind != "read":
                raise PackError(
                    f"pack {pack.name!r}: the {role}'s tool {reader.tool!r} must be a "
                    "registered read"
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
        data: Any = load_yaml(raw) or {}
    except YAMLError as exc:
        raise PackError(f"{package}/replies.{lang}.yaml is not valid YAML: {exc}") from exc
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise PackError(f"{package}/replies.{lang}.yaml must be a flat map of key -> string")
    return dict(data)
