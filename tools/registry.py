"""ToolRegistry: the tools the bot may call, each with its resilience policy.

Register sync or async callables (``@registry.tool(...)`` or ``registry.register(fn, ...)``) and
LangChain tools. Arguments are validated from the function signature (or the LangChain tool's
args schema). Parameters named in :data:`INJECTED_PARAMS` — the customer's identity and the
write's idempotency key — are filled in by the executor from the request context and are never
part of the model-visible schema: a model cannot choose whose orders it reads.

Over 400 lines on purpose: the registry and the three ways a :class:`ToolSpec` is built (a
function's signature, a JSON schema, a LangChain tool) share the spec and policy types and one
rule, that injected parameters never reach the model-visible schema.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, cast, get_type_hints

from pydantic import BaseModel, ConfigDict, create_model

from helpdesk.degrade.errors import Failure

__all__ = [
    "INJECTED_PARAMS",
    "FallbackFn",
    "LookupFn",
    "PrecheckFn",
    "PrecheckOutcome",
    "SimplifyFn",
    "ToolKind",
    "ToolPolicy",
    "ToolRegistry",
    "ToolSpec",
    "VerifyFn",
    "VerifyOutcome",
    "model_visible_args",
]

ToolKind: TypeAlias = Literal["read", "write", "money"]

INJECTED_PARAMS: frozenset[str] = frozenset({"customer", "idempotency_key"})
"""Parameters the executor injects; never model-visible."""

SimplifyFn: TypeAlias = Callable[[dict[str, Any]], dict[str, Any] | None]
"""Returns simpler arguments for one more try (parameter degradation), or None if none exist."""

FallbackFn: TypeAlias = Callable[[dict[str, Any], Failure], Any]
"""Returns substitute data marked as a fallback (e.g. a self-service pointer)."""


@dataclass(frozen=True, slots=True)
class VerifyOutcome:
    """What a verify-read found out about a write whose response was lost."""

    executed: bool | None
    """True: it took effect; False: it did not; None: still cannot tell."""
    data: Any = None
    """The write's result when it took effect (the replayed response), or the refusal."""
    refused: bool = False
    """The write arrived and the backend refused it (a business "no"): never replay it."""


@dataclass(frozen=True, slots=True)
class PrecheckOutcome:
    """What a confirm-first tool's precheck decided before the customer is asked."""

    args: dict[str, Any] | None = None
    """The arguments to ask about, resolved (e.g. "everything refundable" -> the exact amount);
    None keeps the call's own."""
    refusal: dict[str, Any] | None = None
    """A business refusal (``code``, ``message`` and data such as the maximum): the action cannot
    happen, so nothing is asked. ``error_class`` in it (default ``business``) says why."""
    data: dict[str, Any] | None = None
    """Facts the confirmation question states (e.g. the refundable amount)."""


LookupFn: TypeAlias = Callable[[str, dict[str, Any]], Awaitable[Any]]
"""``lookup(tool, args) -> ToolResult``: a read through the resilient executor (for prechecks)."""

PrecheckFn: TypeAlias = Callable[[dict[str, Any], LookupFn], Awaitable[PrecheckOutcome]]
"""``precheck(args, lookup)``: before asking the customer to confirm, make sure the action can
happen and resolve its exact arguments (no "are you sure?" for what the backend would refuse)."""


VerifyFn: TypeAlias = Callable[
    [dict[str, Any], str, str | None], Awaitable[VerifyOutcome] | VerifyOutcome
]
"""``verify(args, idempotency_key, customer)``: a read that tells whether a write took effect."""

_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]{0,63}$")


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolPolicy:
    """How the executor treats one tool. Validated at construction."""

    kind: ToolKind = "read"
    """``read`` may be retried and cached; ``write`` changes state; ``money`` moves money."""
    idempotent: bool | None = None
    """Safe to repeat with the same idempotency key. Default: True for reads, False otherwise."""
    core: bool = True
    """Core tasks end in a handoff when everything fails; non-core ones may be dropped."""
    timeout: float = 5.0
    """Per-attempt timeout in seconds (never longer than what is left of the request)."""
    cache_ttl: float = 0.0
    """Seconds a last-good read may be served stale (0 = never cached; reads only)."""
    output: type[BaseModel] | None = None
    """Model validating the response: missing or null core fields are a schema failure."""
    simplify: SimplifyFn | None = None
    """Parameter degradation: simpler arguments for one more try."""
    fallback: FallbackFn | None = None
    """Function degradation: substitute data when the tool cannot answer."""
    verify: VerifyFn | None = None
    """For writes: a read that tells whether a write with a lost response took effect."""
    confirm: bool | None = None
    """Needs the customer's explicit yes before running. Always True for ``money``."""
    precheck: PrecheckFn | None = None
    """For confirm-first tools: checks and resolves the action before the customer is asked."""

    def __post_init__(self) -> None:
        if self.kind not in ("read", "write", "money"):
            raise ValueError(f"kind must be read, write or money, not {self.kind!r}")
        if self.timeout <= 0:
            raise ValueError(f"timeout must be > 0, got {self.timeout}")
        if self.cache_ttl < 0:
            raise ValueError(f"cache_ttl must be >= 0, got {self.cache_ttl}")
        if self.cache_ttl and self.kind != "read":
            raise ValueError("only reads may be cached (cache_ttl on a write)")
        if self.kind == "money" and self.confirm is False:
            raise ValueError("money tools always need the customer's confirmation")

    @property
    def is_write(self) -> bool:
        return self.kind != "read"

    @property
    def is_idempotent(self) -> bool:
        if self.idempotent is None:
            return self.kind == "read"
        return self.idempotent

    @property
    def needs_confirmation(self) -> bool:
        return self.kind == "money" or bool(self.confirm)

    def describe(self) -> dict[str, Any]:
        """Plain summary for ``helpdesk tools`` and docs."""
        return {
            "kind": self.kind,
            "idempotent": self.is_idempotent,
            "core": self.core,
            "timeout_s": self.timeout,
            "cache_ttl_s": self.cache_ttl,
            "confirm": self.needs_confirmation,
            "output": self.output.__name__ if self.output else None,
            "simplify": self.simplify is not None,
            "fallback": self.fallback is not None,
            "verify": self.verify is not None,
            "precheck": self.precheck is not None,
        }


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A registered tool: its callable, its argument model and its policy."""

    name: str
    description: str
    policy: ToolPolicy
    args_model: type[BaseModel]
    invoke: Callable[[dict[str, Any]], Awaitable[Any]]
    """Runs the tool with validated model-visible args plus injected ones."""
    injected: frozenset[str] = field(default_factory=frozenset)
    """Which of :data:`INJECTED_PARAMS` the tool accepts."""

    def model_schema(self) -> dict[str, Any]:
        """JSON schema of the model-visible arguments (identity and keys excluded)."""
        return self.args_model.model_json_schema()


class ToolRegistry:
    """Name -> :class:`ToolSpec`. Register with :meth:`tool` or :meth:`register`."""

    def __init__(self) -> None:
        self._tools: dict[str, ToolSpec] = {}

    def tool(
        self,
        name: str | None = None,
        *,
        description: str | None = None,
        **policy: Any,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator form of :meth:`register`; returns the function unchanged."""

        def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.register(fn, name=name, description=description, **policy)
            return fn

        return decorate

    def register(
        self,
        fn: Any,
        *,
        name: str | None = None,
        description: str | None = None,
        policy: ToolPolicy | None = None,
        schema: Mapping[str, Any] | None = None,
        **policy_fields: Any,
    ) -> ToolSpec:
        """Register a sync/async callable or a LangChain ``BaseTool``.

        Args:
            fn: the callable or LangChain tool.
            name: defaults to the function's / tool's name (or the schema's ``name``).
            description: defaults to the docstring's first paragraph / the tool's description
                (or the schema's ``description``).
            policy: a ready :class:`ToolPolicy`, or pass its fields as keywords.
            schema: the arguments as a JSON schema — a plain object schema, an OpenAI function
                spec (``{"type": "function", "function": {...}}`` or ``{"name", "parameters"}``)
                — for callables whose signature does not say (``def invoke(**kwargs)``). The
                callable then receives the validated arguments as keywords.
        """
        if policy is not None and policy_fields:
            raise ValueError("pass either policy= or policy fields, not both")
        pol = policy or ToolPolicy(**policy_fields)
        if schema is not None:
            if not callable(fn):
                raise TypeError(f"cannot register {fn!r}: not callable")
            spec = _spec_from_schema(fn, schema, name=name, description=description, policy=pol)
        elif _is_langchain_tool(fn):
            spec = _spec_from_langchain(fn, name=name, description=description, policy=pol)
        elif callable(fn):
            spec = _spec_from_callable(fn, name=name, description=description, policy=pol)
        else:
            raise TypeError(f"cannot register {fn!r}: not callable and not a LangChain tool")
        return self.add(spec)

    def add(self, spec: ToolSpec) -> ToolSpec:
        """Add an already-built :class:`ToolSpec` (e.g. from another registry)."""
        if spec.name in self._tools:
            raise ValueError(f"tool {spec.name!r} is already registered")
        self._tools[spec.name] = spec
        return spec

    def get(self, name: str) -> ToolSpec | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return sorted(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)


def _check_name(name: str) -> str:
    if not _NAME.match(name):
        raise ValueError(f"tool name {name!r} must match {_NAME.pattern}")
    return name


def _first_paragraph(doc: str | None) -> str:
    if not doc:
        return ""
    return inspect.cleandoc(doc).split("\n\n", 1)[0].replace("\n", " ").strip()


def _spec_from_callable(
    fn: Callable[..., Any], *, name: str | None, description: str | None, policy: ToolPolicy
) -> ToolSpec:
    tool_name = _check_name(name or fn.__name__)
    sig = inspect.signature(fn)
    try:
        hints = get_type_hints(fn)
    except (NameError, TypeError):
        hints = {}
    fields: dict[str, Any] = {}
    injected: set[str] = set()
    for pname, param in sig.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(
                f"tool {tool_name!r}: *args/**kwargs need the arguments as a JSON schema: "
                "registry.register(fn, schema={...})"
            )
        if pname in INJECTED_PARAMS:
            injected.add(pname)
            continue
        annotation = hints.get(pname, Any)
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[pname] = (annotation, default)
    args_model = create_model(
        f"{_camel(tool_name)}Args",
        __config__=ConfigDict(extra="forbid"),
        **fields,
    )
    is_async = inspect.iscoroutinefunction(fn)

    async def invoke(kwargs: dict[str, Any]) -> Any:
        if is_async:
            return await fn(**kwargs)
        result = fn(**kwargs)
        if inspect.isawaitable(result):
            return await result
        return result

    return ToolSpec(
        name=tool_name,
        description=description or _first_paragraph(fn.__doc__) or tool_name,
        policy=policy,
        args_model=cast(type[BaseModel], args_model),
        invoke=invoke,
        injected=frozenset(injected),
    )


_JSON_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "array": list[Any],
    "object": dict[str, Any],
    "null": type(None),
}


def _unwrap_schema(
    schema: Mapping[str, Any],
) -> tuple[Mapping[str, Any], str | None, str | None]:
    """(parameters schema, name, description) from a JSON schema or an OpenAI function spec."""
    if schema.get("type") == "function" and isinstance(schema.get("function"), Mapping):
        schema = schema["function"]
    if "parameters" in schema and isinstance(schema["parameters"], Mapping):
        return schema["parameters"], schema.get("name"), schema.get("description")
    return (
        schema,
        schema.get("title") if isinstance(schema.get("title"), str) else None,
        (schema.get("description") if isinstance(schema.get("description"), str) else None),
    )


def _annotation(prop: Mapping[str, Any]) -> Any:
    if isinstance(prop.get("enum"), list) and prop["enum"]:
        return Literal[tuple(prop["enum"])]
    kind = prop.get("type")
    if isinstance(kind, list):
        types = [_JSON_TYPES.get(k, Any) for k in kind]
        annotation: Any = types[0]
        for extra in types[1:]:
            annotation = annotation | extra
        return annotation
    if isinstance(kind, str) and kind in _JSON_TYPES:
        return _JSON_TYPES[kind]
    if "anyOf" in prop and isinstance(prop["anyOf"], list):
        types = [_annotation(p) for p in prop["anyOf"] if isinstance(p, Mapping)]
        if types:
            annotation = types[0]
            for extra in types[1:]:
                annotation = annotation | extra
            return annotation
    return Any


def _spec_from_schema(
    fn: Callable[..., Any],
    schema: Mapping[str, Any],
    *,
    name: str | None,
    description: str | None,
    policy: ToolPolicy,
) -> ToolSpec:
    params, schema_name, schema_doc = _unwrap_schema(schema)
    tool_name = _check_name(str(name or schema_name or getattr(fn, "__name__", "")))
    if params.get("type", "object") != "object":
        raise ValueError(f"tool {tool_name!r}: the argument schema must be an object schema")
    props = params.get("properties") or {}
    if not isinstance(props, Mapping):
        raise ValueError(f"tool {tool_name!r}: schema 'properties' must be a map")
    required = set(params.get("required") or ())
    unknown = required - set(props)
    if unknown:
        raise ValueError(f"tool {tool_name!r}: required {sorted(unknown)} are not in properties")
    try:
        accepted = set(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        accepted = set()
    injected = frozenset(p for p in INJECTED_PARAMS if p in accepted)
    fields: dict[str, Any] = {}
    for pname, prop in props.items():
        if pname in INJECTED_PARAMS:
            continue
        prop = prop if isinstance(prop, Mapping) else {}
        annotation = _annotation(prop)
        if pname in required:
            fields[pname] = (annotation, ...)
        else:
            fields[pname] = (annotation | None, prop.get("default"))
    args_model = create_model(
        f"{_camel(tool_name)}Args", __config__=ConfigDict(extra="forbid"), **fields
    )
    spec = _spec_from_callable_invoke(fn)
    return ToolSpec(
        name=tool_name,
        description=description or schema_doc or _first_paragraph(fn.__doc__) or tool_name,
        policy=policy,
        args_model=cast(type[BaseModel], args_model),
        invoke=spec,
        injected=injected,
    )


def _spec_from_callable_invoke(
    fn: Callable[..., Any],
) -> Callable[[dict[str, Any]], Awaitable[Any]]:
    async def invoke(kwargs: dict[str, Any]) -> Any:
        # optional arguments the caller left out are not passed (the callable's own defaults)
        result = fn(**{k: v for k, v in kwargs.items() if v is not None})
        if inspect.isawaitable(result):
            return await result
        return result

    return invoke


def _is_langchain_tool(obj: Any) -> bool:
    try:
        from langchain_core.tools import BaseTool
    except ImportError:  # pragma: no cover - langchain-core is a dependency
        return False
    return isinstance(obj, BaseTool)


def _spec_from_langchain(
    tool: Any, *, name: str | None, description: str | None, policy: ToolPolicy
) -> ToolSpec:
    tool_name = _check_name(name or tool.name)
    schema = tool.get_input_schema()
    full_fields = dict(schema.model_fields)
    injected = frozenset(n for n in full_fields if n in INJECTED_PARAMS)
    visible = {
        n: (f.annotation, ... if f.is_required() else f.default)
        for n, f in full_fields.items()
        if n not in injected
    }
    args_model = create_model(  # type: ignore[call-overload]
        f"{_camel(tool_name)}Args", __config__=ConfigDict(extra="forbid"), **visible
    )

    async def invoke(kwargs: dict[str, Any]) -> Any:
        return await tool.ainvoke(kwargs)

    return ToolSpec(
        name=tool_name,
        description=description or tool.description or tool_name,
        policy=policy,
        args_model=cast(type[BaseModel], args_model),
        invoke=invoke,
        injected=injected,
    )


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def model_visible_args(spec: ToolSpec, args: Mapping[str, Any]) -> dict[str, Any]:
    """Drop anything a caller tried to pass for an injected parameter."""
    return {k: v for k, v in args.items() if k not in INJECTED_PARAMS}
