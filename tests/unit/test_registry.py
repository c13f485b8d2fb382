"""ToolRegistry: registration forms, argument models, injected identity, policy validation."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.tools import tool as lc_tool

from helpdesk.degrade.clock import FakeClock
from helpdesk.tools.context import RequestContext
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.registry import ToolPolicy, ToolRegistry
from helpdesk.tools.results import ToolCall, ToolStatus


def test_registry_decorator_registers_async_function_with_policy() -> None:
    registry = ToolRegistry()

    @registry.tool(kind="read", cache_ttl=60.0, core=False)
    async def check_stock(sku: str, customer: str | None = None) -> dict[str, Any]:
        """Stock of a product.

        More text that is not part of the description.
        """
        return {"sku": sku}

    spec = registry.get("check_stock")
    assert spec is not None
    assert spec.description == "Stock of a product."
    assert spec.policy.cache_ttl == 60.0 and spec.policy.core is False
    assert spec.injected == frozenset({"customer"})
    assert set(spec.model_schema()["properties"]) == {"sku"}


def test_registry_register_sync_function() -> None:
    registry = ToolRegistry()

    def add(a: int, b: int = 2) -> int:
        return a + b

    spec = registry.register(add)
    assert spec.model_schema()["required"] == ["a"]


async def test_registry_sync_function_runs_through_executor() -> None:
    registry = ToolRegistry()

    def add(a: int, b: int = 2) -> int:
        return a + b

    registry.register(add)
    clock = FakeClock()
    executor = ResilientExecutor(registry, clock=clock)
    ctx = RequestContext.new(session="s", turn=1, customer=None, clock=clock)
    result = await executor.run(ToolCall(name="add", args={"a": "3"}), ctx)
    assert (result.status, result.data) == (ToolStatus.OK, 5)


async def test_registry_langchain_tool_hides_customer_and_runs() -> None:
    @lc_tool
    def greet(name: str, customer: str) -> str:
        """Greet someone on behalf of a customer."""
        return f"{customer} greets {name}"

    registry = ToolRegistry()
    spec = registry.register(greet, kind="read")
    assert set(spec.model_schema()["properties"]) == {"name"}
    clock = FakeClock()
    executor = ResilientExecutor(registry, clock=clock)
    ctx = RequestContext.new(session="s", turn=1, customer="C0007", clock=clock)
    result = await executor.run(ToolCall(name="greet", args={"name": "Ann"}), ctx)
    assert result.data == "C0007 greets Ann"


def test_registry_rejects_duplicate_names() -> None:
    registry = ToolRegistry()
    registry.register(lambda x: x, name="echo")
    with pytest.raises(ValueError, match="already registered"):
        registry.register(lambda x: x, name="echo")


def test_registry_rejects_bad_names_and_varargs() -> None:
    registry = ToolRegistry()
    with pytest.raises(ValueError, match="must match"):
        registry.register(lambda x: x, name="bad name")

    def varargs(*args: Any) -> None:
        return None

    with pytest.raises(TypeError, match=r"\*args"):
        registry.register(varargs)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": "delete"}, "kind must be"),
        ({"timeout": 0}, "timeout must be > 0"),
        ({"cache_ttl": -1}, "cache_ttl must be >= 0"),
        ({"kind": "write", "cache_ttl": 10}, "only reads may be cached"),
        ({"kind": "money", "confirm": False}, "always need"),
    ],
)
def test_tool_policy_rejects_bad_configuration(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ToolPolicy(**fields)


def test_tool_policy_defaults_follow_kind() -> None:
    assert ToolPolicy(kind="read").is_idempotent is True
    assert ToolPolicy(kind="write").is_idempotent is False
    assert ToolPolicy(kind="money").needs_confirmation is True
    assert ToolPolicy(kind="write", confirm=True).needs_confirmation is True
