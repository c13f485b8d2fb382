"""Tool layer: registry, resilient executor, built-in customer-service tools, demo shop."""

from helpdesk.tools.context import RequestContext, derive_idempotency_key
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.registry import ToolPolicy, ToolRegistry, ToolSpec, VerifyOutcome
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus

__all__ = [
    "RequestContext",
    "ResilientExecutor",
    "ToolCall",
    "ToolPolicy",
    "ToolRegistry",
    "ToolResult",
    "ToolSpec",
    "ToolStatus",
    "VerifyOutcome",
    "derive_idempotency_key",
]
