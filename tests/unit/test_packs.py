"""Capability packs: validation of capabilities and packs, PackSet look-ups, registering
existing tools (JSON schema, JSON text results, run_sync)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel

from helpdesk.degrade.clock import FakeClock
from helpdesk.degrade.errors import ErrorClass
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.packs import (
    Capability,
    IntentSpec,
    Pack,
    PackEnv,
    PackError,
    PackSet,
    regex_args,
)
from helpdesk.tools.registry import ToolRegistry
from helpdesk.tools.results import ToolCall, ToolStatus


def _registry(env: PackEnv) -> ToolRegistry:
    registry = ToolRegistry()

    @registry.tool(kind="read")
    def balance(customer: str | None = None) -> dict[str, Any]:
        return {"points": 10}

    return registry


def _pack(name: str = "p", cap: str = "balance", intent: str = "balance_q") -> Pack:
    return Pack(
        name=name,
        capabilities=(
            Capability(
                name=cap,
                tool="balance",
                intents=(IntentSpec(name=intent, patterns=(r"points",)),),
                identifiers={"voucher": r"V-[A-Z0-9]{6}"},
                keep=("points",),
            ),
        ),
        tools=_registry,
    )


def test_intent_spec_rejects_bad_pattern() -> None:
    with pytest.raises(PackError, match="bad pattern"):
        IntentSpec(name="x", patterns=("(",))


def test_intent_spec_rejects_bad_name() -> None:
    with pytest.raises(PackError, match="must match"):
        IntentSpec(name="Points Balance")


def test_capability_required_args_need_an_extractor() -> None:
    with pytest.raises(PackError, match="need an extractor"):
        Capability(name="redeem", tool="redeem", kind="write", required=("code",))


def test_packset_rejects_duplicate_intents_across_packs() -> None:
    with pytest.raises(PackError, match="intent 'balance_q' is defined twice"):
        PackSet([_pack("a", cap="one"), _pack("b", cap="two")])


def test_packset_looks_up_by_tool_and_intent() -> None:
    packs = PackSet([_pack()])
    cap = packs.for_tool("balance")
    assert cap is not None and cap.name == "balance"
    assert packs.for_intent("balance_q") is cap
    assert packs.intent_for_tool("balance") == "balance_q"
    assert packs.for_tool("nope") is None
    assert packs.identifier_shapes() == {"voucher": r"V-[A-Z0-9]{6}"}
    assert packs.keep_fields() == frozenset({"points"})


def test_packset_build_registry_checks_capability_kind() -> None:
    wrong = Pack(
        name="w",
        capabilities=(Capability(name="balance", tool="balance", kind="write"),),
        tools=_registry,
    )
    with pytest.raises(PackError, match="is 'write' but tool 'balance' is 'read'"):
        PackSet([wrong]).build_registry(PackEnv())


def test_packset_build_registry_names_a_missing_tool() -> None:
    missing = Pack(name="m", capabilities=(Capability(name="gone", tool="gone"),), tools=_registry)
    with pytest.raises(PackError, match="tool 'gone' is not registered"):
        PackSet([missing]).build_registry(PackEnv())


def test_regex_args_reads_each_field_and_converts() -> None:
    extract = regex_args(code=r"\b(V-[A-Z0-9]{6})\b", points=(r"(\d+)\s*points", int))
    assert extract("redeem V-AB12CD for 300 points", {}) == {"code": "V-AB12CD", "points": 300}
    assert extract("nothing here", {}) == {}


# --- registering what exists ---------------------------------------------------------------

_SPEC = {
    "type": "function",
    "function": {
        "name": "find_user",
        "description": "Find a user by email.",
        "parameters": {
            "type": "object",
            "properties": {
                "email": {"type": "string"},
                "tier": {"type": "string", "enum": ["gold", "silver"]},
            },
            "required": ["email"],
        },
    },
}


def _invoke(data: dict[str, Any], **kwargs: Any) -> str:
    return json.dumps({"user": data[kwargs["email"]], "tier": kwargs.get("tier")})


def test_registry_register_kwargs_callable_with_openai_function_spec() -> None:
    registry = ToolRegistry()
    spec = registry.register(lambda **kw: _invoke({"a@x": "u1"}, **kw), schema=_SPEC)
    assert (spec.name, spec.description) == ("find_user", "Find a user by email.")
    schema = spec.model_schema()
    assert schema["required"] == ["email"]
    assert set(schema["properties"]) == {"email", "tier"}


def test_registry_kwargs_callable_without_schema_says_how() -> None:
    registry = ToolRegistry()

    def invoke(**kwargs: Any) -> Any:
        return kwargs

    with pytest.raises(TypeError, match="schema="):
        registry.register(invoke)


async def test_executor_parses_json_text_before_output_validation() -> None:
    class Found(BaseModel):
        user: str

    registry = ToolRegistry()
    registry.register(lambda **kw: _invoke({"a@x": "u1"}, **kw), schema=_SPEC, output=Found)
    executor = ResilientExecutor(registry, clock=FakeClock())
    result = executor.run_sync(ToolCall(name="find_user", args={"email": "a@x", "tier": "gold"}))
    assert (result.status, result.data) == (ToolStatus.OK, {"user": "u1", "tier": "gold"})
    bad = executor.run_sync(ToolCall(name="find_user", args={"email": "a@x", "tier": "bronze"}))
    assert (bad.status, bad.error_class) == (ToolStatus.FAILED, ErrorClass.INPUT)


async def test_executor_malformed_json_text_is_a_schema_failure() -> None:
    registry = ToolRegistry()
    registry.register(lambda **kw: '{"user": ', schema=_SPEC, core=False, output=None)
    executor = ResilientExecutor(registry, clock=FakeClock())
    result = executor.run_sync(ToolCall(name="find_user", args={"email": "a@x"}))
    assert result.error_class is ErrorClass.SCHEMA


def test_executor_run_sync_without_a_loop() -> None:
    registry = ToolRegistry()
    registry.register(lambda **kw: _invoke({"a@x": "u1"}, **kw), schema=_SPEC)
    executor = ResilientExecutor(registry, clock=FakeClock())
    result = executor.run_sync(ToolCall(name="find_user", args={"email": "a@x"}))
    assert result.data == {"user": "u1", "tier": None}


# --- loading --------------------------------------------------------------------------------


def test_load_pack_from_module_attr() -> None:
    from helpdesk.tools.packs import load_pack

    pack = load_pack("helpdesk.examples.loyalty:pack")
    assert pack.name == "loyalty"
    called = load_pack("helpdesk.examples.loyalty:loyalty_pack")  # a factory is called
    assert called.name == "loyalty"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("helpdesk.examples.loyalty", "must look like 'module:attr'"),
        ("no_such_module_xyz:pack", "cannot import 'no_such_module_xyz'"),
        ("helpdesk.examples.loyalty:nope", "has no 'nope'"),
        ("helpdesk.examples.loyalty.pack:CAPABILITIES", "is a tuple, not a Pack"),
    ],
)
def test_load_pack_bad_spec_is_a_clear_error(spec: str, message: str) -> None:
    from helpdesk.tools.packs import load_pack

    with pytest.raises(PackError, match=message):
        load_pack(spec)


def test_load_packs_reads_the_entry_point_group(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    from helpdesk.tools import pack_loading, packs

    entry = metadata.EntryPoint(
        name="loyalty", value="helpdesk.examples.loyalty:pack", group="helpdesk.packs"
    )
    seen: list[str] = []

    def entry_points(*, group: str) -> list[metadata.EntryPoint]:
        seen.append(group)
        return [entry]

    monkeypatch.setattr(pack_loading.metadata, "entry_points", entry_points)
    loaded = packs.load_packs(["helpdesk.examples.loyalty:pack"])
    assert seen == ["helpdesk.packs"]
    assert [p.name for p in loaded] == ["loyalty"]  # named both ways: loaded once


# --- the graph's generic side --------------------------------------------------------------


def test_match_packs_never_turns_a_negation_or_question_into_a_write() -> None:
    from helpdesk.examples.loyalty.pack import CAPABILITIES
    from helpdesk.graph.capabilities import match_packs

    packs = PackSet([Pack(name="loyalty", capabilities=CAPABILITIES, tools=_registry)])
    found = match_packs("convert 500 points to store credit", "en", {}, packs)
    assert [(m.capability, m.text) for m in found] == [
        ("convert_points", "convert 500 points to store credit")
    ]
    assert match_packs("don't convert my points", "en", {}, packs) == []
    assert match_packs("how do I convert points to credit?", "en", {}, packs) == []
    assert match_packs("算了，积分不要换成购物金", "zh", {}, packs) == []


def test_pack_own_understanding_and_planner_are_used_first() -> None:
    from helpdesk.graph.capabilities import match_packs, pack_call
    from helpdesk.tools.packs import PlannedCall, Understood

    def understand(text: str, lang: str, facts: Any) -> list[Understood]:
        return (
            [Understood(intent="balance_q", text=text, args={"card": "7"})] if "卡" in text else []
        )

    def plan(request: Any, facts: Any) -> PlannedCall:
        return PlannedCall("balance", {"card": request["card"], "lang": request["lang"]})

    pack = Pack(
        name="own",
        capabilities=(
            Capability(
                name="balance", tool="balance", intents=(IntentSpec(name="balance_q"),), plan=plan
            ),
        ),
        tools=_registry,
        understand=understand,
    )
    packs = PackSet([pack])
    (found,) = match_packs("会员卡余额", "zh", {}, packs)
    assert (found.capability, found.args) == ("balance_q", {"card": "7"})
    call = pack_call(found, "t1-0", facts={}, packs=packs)
    assert call is not None and (call.name, call.args) == ("balance", {"card": "7", "lang": "zh"})
