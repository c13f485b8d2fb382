"""The failure taxonomy: :class:`ErrorClass`, the :class:`ToolError` tree and :class:`Failure`.

What a failure *is* (its class, the exception raised for it, whether it may be retried), with
no knowledge of where failures come from; turning an httpx / openai / pydantic exception or an
HTTP status into a :class:`Failure` is :mod:`helpdesk.degrade.classify`. Both are published
together by :mod:`helpdesk.degrade.errors`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = [
    "BREAKER_IGNORED",
    "TRUNCATED_JSON",
    "AuthError",
    "BusinessError",
    "ErrorClass",
    "Failure",
    "FieldIssue",
    "RateLimitedError",
    "SchemaError",
    "ToolError",
    "ToolInputError",
    "TransientError",
    "UnavailableError",
    "UnknownOutcomeError",
    "is_retryable",
]


class ErrorClass(StrEnum):
    """Why a call failed, from the caller's point of view (see DESIGN.md, failure taxonomy)."""

    INPUT = "input"
    TRANSIENT = "transient"
    RATE_LIMITED = "rate_limited"
    UNAVAILABLE = "unavailable"
    SCHEMA = "schema"
    BUSINESS = "business"
    UNKNOWN_OUTCOME = "unknown_outcome"
    AUTH = "auth"


#: Classes a circuit breaker never counts: the dependency answered, the request was the problem.
BREAKER_IGNORED: frozenset[ErrorClass] = frozenset({ErrorClass.INPUT, ErrorClass.BUSINESS})


@dataclass(frozen=True, slots=True)
class FieldIssue:
    """One field-level problem with a call's arguments, shaped for a model to correct."""

    path: str
    message: str
    allowed: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "message": self.message}
        if self.allowed:
            out["allowed"] = list(self.allowed)
        return out


class ToolError(Exception):
    """Base of every failure helpdesk raises about a tool or model call."""

    error_class: ErrorClass = ErrorClass.UNAVAILABLE

    def __init__(
        self,
        reason: str,
        *,
        retry_after: float | None = None,
        code: str | None = None,
        status_code: int | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.code = code
        self.status_code = status_code


class ToolInputError(ToolError):
    """The arguments are wrong or the tool does not exist; the caller must change the request."""

    error_class = ErrorClass.INPUT

    def __init__(self, reason: str, *, issues: tuple[FieldIssue, ...] = (), **kw: Any) -> None:
        super().__init__(reason, **kw)
        self.issues = issues


class BusinessError(ToolError):
    """The tool refused on business grounds (not cancellable, out of stock). Raise it from tools."""

    error_class = ErrorClass.BUSINESS


class TransientError(ToolError):
    """A short-lived failure (connect error, read timeout on a read, 502/504)."""

    error_class = ErrorClass.TRANSIENT


class RateLimitedError(ToolError):
    """The dependency asked us to slow down (429, or 503 with Retry-After)."""

    error_class = ErrorClass.RATE_LIMITED


class UnavailableError(ToolError):
    """The dependency is failing (5xx) or its circuit is open."""

    error_class = ErrorClass.UNAVAILABLE


class SchemaError(ToolError):
    """The dependency answered, but the answer is malformed or misses core fields."""

    error_class = ErrorClass.SCHEMA


class UnknownOutcomeError(ToolError):
    """A write was sent but its response was lost: it may or may not have happened."""

    error_class = ErrorClass.UNKNOWN_OUTCOME


class AuthError(ToolError):
    """Credentials, permissions, quota or billing: retrying cannot help."""

    error_class = ErrorClass.AUTH


@dataclass(frozen=True, slots=True)
class Failure:
    """A classified failure: what class, why (for humans and drills), and the original cause."""

    error_class: ErrorClass
    reason: str
    retry_after: float | None = None
    status_code: int | None = None
    code: str | None = None
    issues: tuple[FieldIssue, ...] = ()
    cause: BaseException | None = field(default=None, compare=False, repr=False)

    def to_error(self) -> ToolError:
        """Re-raise-able exception of the matching class with the cause chained."""
        cls = _CLASS_TO_ERROR[self.error_class]
        err: ToolError
        if cls is ToolInputError:
            err = ToolInputError(self.reason, issues=self.issues, code=self.code)
        else:
            err = cls(
                self.reason,
                retry_after=self.retry_after,
                code=self.code,
                status_code=self.status_code,
            )
        err.__cause__ = self.cause
        return err


_CLASS_TO_ERROR: dict[ErrorClass, type[ToolError]] = {
    ErrorClass.INPUT: ToolInputError,
    ErrorClass.TRANSIENT: TransientError,
    ErrorClass.RATE_LIMITED: RateLimitedError,
    ErrorClass.UNAVAILABLE: UnavailableError,
    ErrorClass.SCHEMA: SchemaError,
    ErrorClass.BUSINESS: BusinessError,
    ErrorClass.UNKNOWN_OUTCOME: UnknownOutcomeError,
    ErrorClass.AUTH: AuthError,
}


_RETRYABLE: frozenset[ErrorClass] = frozenset({ErrorClass.TRANSIENT, ErrorClass.RATE_LIMITED})


#: ``Failure.code`` of a body that is not valid JSON (cut off in transit, usually).
TRUNCATED_JSON = "truncated_json"


def is_retryable(failure: Failure, *, is_write: bool = False) -> bool:
    """Whether the failure may be retried at all (the budget and Retry-After still decide).

    Transient and rate-limited failures may; so may a *read* whose body arrived truncated (once,
    the executor decides how often). A write's unreadable answer is reconciled, never retried.
    """
    if failure.error_class in _RETRYABLE:
        return True
    return not is_write and failure.code == TRUNCATED_JSON
