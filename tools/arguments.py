"""A call's arguments before anything is sent: validated against the tool's signature, and the
idempotency key a write derives from them.

Arguments the session injects (the customer, the idempotency key) can never be passed by a
caller; a validation error becomes a :class:`~helpdesk.degrade.errors.ToolInputError` with
field-level issues a model can correct itself from.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from helpdesk.degrade.errors import FieldIssue, ToolInputError
from helpdesk.tools.context import RequestContext, derive_idempotency_key
from helpdesk.tools.registry import INJECTED_PARAMS, ToolSpec
from helpdesk.tools.results import ToolCall

__all__ = ["idempotency_key", "injected_args", "validate_args"]


def validate_args(spec: ToolSpec, raw: dict[str, Any]) -> dict[str, Any]:
    """The call's arguments as the tool's signature reads them; raises ToolInputError."""
    smuggled = sorted(k for k in raw if k in INJECTED_PARAMS)
    if smuggled:
        raise ToolInputError(
            f"{spec.name}: {', '.join(smuggled)} cannot be passed as arguments",
            issues=tuple(
                FieldIssue(path=k, message="set by the session, not by the caller")
                for k in smuggled
            ),
        )
    try:
        model = spec.args_model.model_validate(raw)
    except ValidationError as exc:
        issues = tuple(_issue_from_error(e) for e in exc.errors())
        summary = "; ".join(f"{i.path}: {i.message}" for i in issues)
        raise ToolInputError(f"{spec.name}: invalid arguments ({summary})", issues=issues) from exc
    return model.model_dump()


def idempotency_key(
    spec: ToolSpec, call: ToolCall, args: dict[str, Any], ctx: RequestContext
) -> str | None:
    """The write's key (None for a read): keyed by the confirmation that authorised it, else by
    the turn that asked for it."""
    if not spec.policy.is_write:
        return None
    if call.action_id:
        return derive_idempotency_key(ctx.session, call.action_id, spec.name, args)
    turn = call.action_turn if call.action_turn is not None else ctx.turn
    return derive_idempotency_key(ctx.session, turn, spec.name, args)


def injected_args(spec: ToolSpec, key: str | None, ctx: RequestContext) -> dict[str, Any]:
    """The parameters the session sets for the tool (never model-visible)."""
    out: dict[str, Any] = {}
    if "customer" in spec.injected:
        out["customer"] = ctx.customer
    if "idempotency_key" in spec.injected:
        out["idempotency_key"] = key
    return out


def _issue_from_error(error: Any) -> FieldIssue:
    path = ".".join(str(p) for p in error.get("loc", ())) or "(arguments)"
    message = str(error.get("msg", "invalid"))
    ctx = error.get("ctx") or {}
    allowed: tuple[str, ...] = ()
    expected = ctx.get("expected")
    if isinstance(expected, str) and "'" in expected:
        allowed = tuple(
            part.strip().strip("'") for part in expected.replace(" or ", ",").split(",")
        )
        allowed = tuple(a for a in allowed if a)
    return FieldIssue(path=path, message=message, allowed=allowed)
