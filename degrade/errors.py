"""The failure taxonomy: one enum, one exception tree, one classifier.

Every failure that enters helpdesk — an httpx or openai SDK exception, an HTTP status, a JSON or
schema error, a tool's own business error, anything else — is translated here, once, into a
:class:`Failure` that names its :class:`ErrorClass` and a human-readable reason. The original
exception is kept as ``__cause__`` / ``Failure.cause`` so a drill can tell exactly what was
recorded and why.

Exception tree::

    ToolError
    ├── ToolInputError          bad or missing arguments, unknown tool (never retried)
    ├── BusinessError           the tool said no: not cancellable, out of stock (never retried)
    ├── TransientError          connect error, read timeout on a read, 502/504
    ├── RateLimitedError        429, 503 with Retry-After
    ├── UnavailableError        5xx, circuit open
    ├── SchemaError             200 with malformed / missing / null core fields
    ├── UnknownOutcomeError     a write whose response was lost
    └── AuthError               401/402/403, quota and billing limits

This module is that public surface; the taxonomy lives in :mod:`helpdesk.degrade.taxonomy`, the
classifier in :mod:`helpdesk.degrade.classify`.
"""

from __future__ import annotations

from helpdesk.degrade.classify import classify_failure, classify_response, parse_retry_after
from helpdesk.degrade.taxonomy import (
    BREAKER_IGNORED,
    TRUNCATED_JSON,
    AuthError,
    BusinessError,
    ErrorClass,
    Failure,
    FieldIssue,
    RateLimitedError,
    SchemaError,
    ToolError,
    ToolInputError,
    TransientError,
    UnavailableError,
    UnknownOutcomeError,
    is_retryable,
)

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
    "classify_failure",
    "classify_response",
    "is_retryable",
    "parse_retry_after",
]
