"""Reading a shop request's inputs (headers, query parameters, JSON body) into checked values.

Every refusal is a :class:`ShopError` 422 ``invalid_request`` whose ``fields`` name each bad input
(``path``, ``message`` and, for an enumeration, ``allowed``): the envelope ``API.md`` specifies.
The checks are pydantic's (a body is a model, a bounded number a ``TypeAdapter``), so messages
read as a model field's do. There is no web framework's dependency injection on purpose: the shop
runs on Starlette, which imports in a tenth of FastAPI's time, because ``helpdesk chat`` starts the
embedded shop in every process (issue 15, cold start).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from helpdesk.tools.shop.conventions import ShopError

__all__ = [
    "choice",
    "invalid",
    "parse_body",
    "query_int",
    "query_money",
    "query_text",
]

ModelT = TypeVar("ModelT", bound=BaseModel)


def invalid(path: str, message: str, allowed: tuple[str, ...] = ()) -> ShopError:
    """A 422 naming one bad input."""
    field: dict[str, Any] = {"path": path, "message": message}
    if allowed:
        field["allowed"] = list(allowed)
    return _refusal([field])


def _refusal(fields: list[dict[str, Any]]) -> ShopError:
    summary = "; ".join(f"{f['path']}: {f['message']}" for f in fields)
    return ShopError(422, "invalid_request", f"Invalid request: {summary}.", fields=fields)


def _field_issue(error: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    loc = [str(part) for part in error.get("loc", ())]
    path = ".".join([prefix, *loc] if prefix else loc) or "body"
    issue: dict[str, Any] = {"path": path, "message": str(error.get("msg"))}
    expected = (error.get("ctx") or {}).get("expected")
    if isinstance(expected, str) and "'" in expected:
        issue["allowed"] = expected.replace(" or ", ", ").replace("'", "").split(", ")
    return issue


def _refused(exc: ValidationError, prefix: str = "") -> ShopError:
    return _refusal([_field_issue(error, prefix) for error in exc.errors()])


def choice(name: str, value: str | None, allowed: tuple[str, ...]) -> str | None:
    """An optional enumeration; empty means absent."""
    if value is None or value == "":
        return None
    if value not in allowed:
        raise invalid(name, f"must be one of {', '.join(allowed)}", allowed)
    return value


@functools.cache
def _bounded_int(low: int, high: int) -> TypeAdapter[int]:
    return TypeAdapter(Annotated[int, Field(ge=low, le=high)])


@functools.cache
def _bounded_text(min_length: int, max_length: int) -> TypeAdapter[str]:
    return TypeAdapter(Annotated[str, Field(min_length=min_length, max_length=max_length)])


def query_int(params: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    """The integer query parameter ``name`` within [low, high] (``default`` when absent)."""
    raw = params.get(name)
    if raw is None:
        return default
    try:
        return _bounded_int(low, high).validate_python(raw, strict=False)
    except ValidationError as exc:
        raise _refused(exc, name) from None


_MONEY_QUERY = re.compile(r"\d{1,9}(?:\.\d{1,2})?")


def query_money(params: Mapping[str, str], name: str) -> int:
    """The money query parameter ``name`` (CNY, at most two decimals) in cents."""
    raw = (params.get(name) or "").strip()
    if not _MONEY_QUERY.fullmatch(raw):
        raise invalid(name, "an amount in CNY with at most two decimals, e.g. 797 or 29.90")
    return round(float(raw) * 100)


def query_text(params: Mapping[str, str], name: str, min_length: int, max_length: int) -> str:
    """The required text query parameter ``name`` of ``min_length`` to ``max_length`` characters."""
    raw = params.get(name)
    if raw is None:
        raise invalid(name, "Field required")
    try:
        return _bounded_text(min_length, max_length).validate_python(raw)
    except ValidationError as exc:
        raise _refused(exc, name) from None


def parse_body(raw: bytes, model: type[ModelT], *, optional: bool = False) -> ModelT | None:
    """The JSON body as ``model``; an empty body is None when ``optional``, else a 422.

    The body is decoded as JSON first and then validated, so a number such as ``Infinity``
    (which Python's decoder accepts) meets the model's own rules (``allow_inf_nan``).
    """
    if not raw.strip():
        if optional:
            return None
        raise invalid("body", "Field required")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise invalid("body", "JSON decode error") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise _refused(exc) from None
