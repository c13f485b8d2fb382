"""The classifier: every failure that enters helpdesk, translated once into a :class:`Failure`.

An httpx or openai SDK exception, an HTTP status, a JSON or schema error, a tool's own business
error, anything else becomes a :class:`~helpdesk.degrade.taxonomy.Failure` naming its
:class:`~helpdesk.degrade.taxonomy.ErrorClass` and a human-readable reason
(:func:`classify_failure`, :func:`classify_response`); the original exception is kept as
``Failure.cause`` so a drill can tell exactly what was recorded and why. ``Retry-After`` is read
by :func:`parse_retry_after`.
"""

from __future__ import annotations

import json
import math
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from helpdesk.degrade.taxonomy import TRUNCATED_JSON, ErrorClass, Failure, ToolError, ToolInputError

__all__ = ["classify_failure", "classify_response", "parse_retry_after"]


def parse_retry_after(value: str | None, *, now_epoch: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP date), else None."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        # float() also accepts "nan" and "inf", which are not delta-seconds.
        return max(0.0, seconds) if math.isfinite(seconds) else None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if now_epoch is None:
        import time

        now_epoch = time.time()
    return max(0.0, when.timestamp() - now_epoch)


def _http_reason(tool: str, response: httpx.Response, retry_after: float | None) -> str:
    request = response.request
    where = f"{request.method} {request.url.path}" if request is not None else "the request"
    reason = f"{tool}: {response.status_code} from {where}"
    detail = _error_message(response)
    if detail:
        reason += f" ({detail})"
    if retry_after is not None:
        reason += f", Retry-After {retry_after:g}s"
    return reason


def _error_message(response: httpx.Response) -> str | None:
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
        return None
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict):
            msg = err.get("message") or err.get("code")
            return str(msg) if msg else None
        detail = body.get("detail")
        if isinstance(detail, str):
            return detail
    return None


def _error_code(response: httpx.Response) -> str | None:
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
        return None
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        code = body["error"].get("code")
        return str(code) if code else None
    return None


_INPUT_CODES = frozenset({"invalid_request", "validation_error", "invalid_argument"})


def classify_response(
    tool: str, response: httpx.Response, *, is_write: bool = False
) -> Failure | None:
    """Classify a non-2xx HTTP response; None for a success status.

    For a write, a 500, 502 or 504 says nothing about whether the write ran (a gateway timed out
    after forwarding it, or the server failed after committing): ``unknown_outcome``, so it is
    reconciled by its idempotency key instead of being reported as not done.
    """
    status = response.status_code
    if status < 400:
        return None
    retry_after = parse_retry_after(response.headers.get("Retry-After"))
    reason = _http_reason(tool, response, retry_after)
    code = _error_code(response)
    # a 422 with a business code: the request was well-formed and the service said no on
    # business grounds (e.g. amount_too_large), a plain statement, not a model's typo
    refused = status == 422 and bool(code) and code not in _INPUT_CODES
    cls = _status_class(status, retry_after, is_write=is_write, refused=refused)
    return Failure(cls, reason, retry_after=retry_after, status_code=status, code=code)


def _status_class(
    status: int, retry_after: float | None, *, is_write: bool, refused: bool = False
) -> ErrorClass:
    """The class of an HTTP error status (from a response, or a client's exception)."""
    if status == 429 or (status == 503 and retry_after is not None):
        return ErrorClass.RATE_LIMITED
    if is_write and status in (500, 502, 504):
        return ErrorClass.UNKNOWN_OUTCOME
    if status in (502, 504):
        return ErrorClass.TRANSIENT
    if status >= 500:
        return ErrorClass.UNAVAILABLE
    if status in (401, 402, 403):
        return ErrorClass.AUTH
    if status in (400, 422) and not refused:
        return ErrorClass.INPUT
    return ErrorClass.BUSINESS


def classify_failure(exc: BaseException, *, tool: str, is_write: bool = False) -> Failure:
    """Translate any exception raised by a tool call into a :class:`Failure`.

    Args:
        exc: what the call raised.
        tool: the tool (or model) name, used in the reason.
        is_write: a timeout after the request was sent is ``unknown_outcome`` for a write
            (it may have executed) and ``transient`` for a read.
    """
    if isinstance(exc, ToolError):
        issues = exc.issues if isinstance(exc, ToolInputError) else ()
        return Failure(
            exc.error_class,
            exc.reason,
            retry_after=exc.retry_after,
            status_code=exc.status_code,
            code=exc.code,
            issues=issues,
            cause=exc.__cause__ or exc,
        )
    openai_failure = _classify_openai(exc, tool)
    if openai_failure is not None:
        return openai_failure
    if isinstance(exc, httpx.HTTPStatusError):
        failure = classify_response(tool, exc.response, is_write=is_write)
        if failure is not None:
            return _with_cause(failure, exc)
    where = _request_where(exc)
    if isinstance(exc, httpx.ConnectTimeout | httpx.ConnectError | httpx.PoolTimeout):
        # The request never reached the server: safe to retry even for a write.
        return Failure(ErrorClass.TRANSIENT, f"{tool}: cannot connect{where} ({exc!r})", cause=exc)
    if isinstance(exc, httpx.TimeoutException | TimeoutError):
        if is_write:
            return Failure(
                ErrorClass.UNKNOWN_OUTCOME,
                f"{tool}: no response{where} after the write was sent ({type(exc).__name__})",
                cause=exc,
            )
        return Failure(ErrorClass.TRANSIENT, f"{tool}: timed out{where}", cause=exc)
    if isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError):
        if is_write:
            return Failure(
                ErrorClass.UNKNOWN_OUTCOME,
                f"{tool}: connection broken{where} after the write was sent ({exc!r})",
                cause=exc,
            )
        return Failure(ErrorClass.TRANSIENT, f"{tool}: connection broken{where}", cause=exc)
    if isinstance(exc, httpx.TransportError):
        return Failure(ErrorClass.TRANSIENT, f"{tool}: transport error{where} ({exc!r})", cause=exc)
    if isinstance(exc, json.JSONDecodeError | UnicodeDecodeError):
        # A body cut off in transit: the same read may well arrive whole (see is_retryable).
        return Failure(
            ErrorClass.SCHEMA,
            f"{tool}: response is not valid JSON ({exc})",
            code=TRUNCATED_JSON,
            cause=exc,
        )
    if _is_validation_error(exc):
        return Failure(ErrorClass.SCHEMA, f"{tool}: response failed validation ({exc})", cause=exc)
    if isinstance(exc, ConnectionError):
        return Failure(ErrorClass.TRANSIENT, f"{tool}: connection error ({exc!r})", cause=exc)
    status_failure = _classify_status_attribute(exc, tool, is_write=is_write)
    if status_failure is not None:
        return status_failure
    return Failure(
        ErrorClass.UNAVAILABLE, f"{tool}: unexpected {type(exc).__name__}: {exc}", cause=exc
    )


def _openai_class_names(exc: BaseException) -> frozenset[str]:
    """Names of the ``openai`` SDK classes ``exc`` is an instance of (empty for anything else)."""
    return frozenset(
        cls.__name__ for cls in type(exc).__mro__ if cls.__module__.split(".")[0] == "openai"
    )


def _classify_openai(exc: BaseException, tool: str) -> Failure | None:
    """Classify an ``openai`` SDK exception; None for any other exception.

    Duck-typed by class name and attributes so this layer never imports ``openai``. Model calls
    are reads: a timeout is ``transient`` whatever was sent.
    """
    names = _openai_class_names(exc)
    if not names:
        return None
    where = _request_where(exc)
    if "APITimeoutError" in names:
        return Failure(ErrorClass.TRANSIENT, f"{tool}: timed out{where}", cause=exc)
    if "APIConnectionError" in names:
        return Failure(ErrorClass.TRANSIENT, f"{tool}: cannot connect{where} ({exc})", cause=exc)
    status = getattr(exc, "status_code", None)
    # An httpx.Response, or an httpx2.Response when the SDK uses its own client: same shape.
    response: Any = getattr(exc, "response", None)
    if not isinstance(status, int) or not hasattr(response, "headers"):
        return Failure(ErrorClass.UNAVAILABLE, f"{tool}: {type(exc).__name__}: {exc}", cause=exc)
    retry_after = parse_retry_after(response.headers.get("Retry-After"))
    try:
        reason = _http_reason(tool, response, retry_after)
    except RuntimeError:  # a response built without its request
        reason = f"{tool}: {status} ({exc})"
    cls: ErrorClass
    if status == 429 or (status == 503 and retry_after is not None):
        cls = ErrorClass.RATE_LIMITED
    elif status >= 500:
        cls = ErrorClass.UNAVAILABLE
    elif status in (401, 402, 403):
        cls = ErrorClass.AUTH
    elif status in (400, 422):
        cls = ErrorClass.INPUT
    else:
        # 404 (unknown model), 409, ...: this endpoint cannot serve the call.
        cls = ErrorClass.UNAVAILABLE
    code = getattr(exc, "code", None)
    return Failure(
        cls,
        reason,
        retry_after=retry_after,
        status_code=status,
        code=code if isinstance(code, str) else _error_code(response),
        cause=exc,
    )


def _retry_after_attribute(exc: BaseException) -> float | None:
    value: Any = getattr(exc, "retry_after", None)
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return max(0.0, float(value)) if math.isfinite(value) else None
    if isinstance(value, str):
        return parse_retry_after(value)
    headers: Any = getattr(getattr(exc, "response", None), "headers", None)
    if headers is not None and hasattr(headers, "get"):
        header = headers.get("Retry-After")
        return parse_retry_after(header) if isinstance(header, str) else None
    return None


def _classify_status_attribute(exc: BaseException, tool: str, *, is_write: bool) -> Failure | None:
    """Duck-typed HTTP status on an exception from a client helpdesk does not know.

    Many SDKs raise their own exception carrying ``status_code`` (and often ``retry_after`` or a
    ``response`` with headers). Classified like the same status from httpx, so a 429 with
    Retry-After from an unknown client is ``rate_limited``, not an outage.
    """
    status: Any = getattr(exc, "status_code", None)
    if not isinstance(status, int) or isinstance(status, bool) or not 400 <= status <= 599:
        return None
    retry_after = _retry_after_attribute(exc)
    reason = f"{tool}: {status} from {type(exc).__name__} ({exc})"
    if retry_after is not None:
        reason += f", Retry-After {retry_after:g}s"
    cls = _status_class(status, retry_after, is_write=is_write)
    code: Any = getattr(exc, "code", None)
    return Failure(
        cls,
        reason,
        retry_after=retry_after,
        status_code=status,
        code=code if isinstance(code, str) else None,
        cause=exc,
    )


def _with_cause(failure: Failure, exc: BaseException) -> Failure:
    return Failure(
        failure.error_class,
        failure.reason,
        retry_after=failure.retry_after,
        status_code=failure.status_code,
        code=failure.code,
        issues=failure.issues,
        cause=exc,
    )


def _request_where(exc: BaseException) -> str:
    try:
        request = exc.request  # type: ignore[attr-defined]
    except (AttributeError, RuntimeError):
        return ""
    if request is None:
        return ""
    return f" on {request.method} {request.url.path}"


def _is_validation_error(exc: BaseException) -> bool:
    # pydantic is optional at this layer's boundary; compare by name to keep degrade import-light.
    return type(exc).__name__ == "ValidationError" and type(exc).__module__.startswith("pydantic")
