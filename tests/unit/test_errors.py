import json
from datetime import UTC, datetime
from email.utils import format_datetime

import httpx
import pytest
from pydantic import BaseModel, ValidationError

from helpdesk.degrade.errors import (
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
    classify_failure,
    is_retryable,
    parse_retry_after,
)

GET = httpx.Request("GET", "http://shop/inventory/SKU-1001")
POST = httpx.Request("POST", "http://shop/orders/O-1/cancel")


def _status_error(status: int, headers=None, body=None, request=GET) -> httpx.HTTPStatusError:
    response = httpx.Response(status, headers=headers, json=body, request=request)
    return httpx.HTTPStatusError(f"{status}", request=request, response=response)


def test_classify_connect_error_is_transient_even_for_writes():
    exc = httpx.ConnectError("refused", request=POST)
    failure = classify_failure(exc, tool="orders", is_write=True)
    assert failure.error_class is ErrorClass.TRANSIENT
    assert failure.reason.startswith("orders: cannot connect on POST /orders/O-1/cancel")
    assert failure.cause is exc


def test_classify_connect_timeout_is_transient_for_writes():
    exc = httpx.ConnectTimeout("slow", request=POST)
    assert classify_failure(exc, tool="o", is_write=True).error_class is ErrorClass.TRANSIENT


def test_classify_read_timeout_on_read_is_transient():
    exc = httpx.ReadTimeout("slow", request=GET)
    failure = classify_failure(exc, tool="inventory")
    assert failure == Failure(
        ErrorClass.TRANSIENT, "inventory: timed out on GET /inventory/SKU-1001"
    )


def test_classify_read_timeout_on_write_is_unknown_outcome():
    exc = httpx.ReadTimeout("slow", request=POST)
    failure = classify_failure(exc, tool="cancel_order", is_write=True)
    assert failure.error_class is ErrorClass.UNKNOWN_OUTCOME
    assert failure.reason == (
        "cancel_order: no response on POST /orders/O-1/cancel"
        " after the write was sent (ReadTimeout)"
    )


def test_classify_builtin_timeout_on_write_is_unknown_outcome():
    failure = classify_failure(TimeoutError(), tool="refund", is_write=True)
    assert failure.error_class is ErrorClass.UNKNOWN_OUTCOME
    assert failure.reason == "refund: no response after the write was sent (TimeoutError)"


def test_classify_builtin_timeout_on_read_is_transient():
    assert classify_failure(TimeoutError(), tool="faq").reason == "faq: timed out"


@pytest.mark.parametrize("is_write", [False, True])
def test_classify_remote_protocol_error(is_write):
    exc = httpx.RemoteProtocolError("closed", request=GET)
    expected = ErrorClass.UNKNOWN_OUTCOME if is_write else ErrorClass.TRANSIENT
    assert classify_failure(exc, tool="t", is_write=is_write).error_class is expected


def test_classify_429_with_retry_after():
    exc = _status_error(429, headers={"Retry-After": "2"})
    failure = classify_failure(exc, tool="inventory")
    assert failure.error_class is ErrorClass.RATE_LIMITED
    assert failure.retry_after == 2.0
    assert failure.status_code == 429
    assert failure.reason == "inventory: 429 from GET /inventory/SKU-1001, Retry-After 2s"
    assert failure.cause is exc


def test_classify_429_without_retry_after():
    failure = classify_failure(_status_error(429), tool="inventory")
    assert (failure.error_class, failure.retry_after) == (ErrorClass.RATE_LIMITED, None)


def test_classify_503_with_retry_after_is_rate_limited():
    failure = classify_failure(_status_error(503, headers={"Retry-After": "2"}), tool="inventory")
    assert failure.error_class is ErrorClass.RATE_LIMITED
    assert failure.reason == "inventory: 503 from GET /inventory/SKU-1001, Retry-After 2s"


def test_classify_503_without_retry_after_is_unavailable():
    failure = classify_failure(_status_error(503), tool="inventory")
    assert failure.error_class is ErrorClass.UNAVAILABLE
    assert failure.reason == "inventory: 503 from GET /inventory/SKU-1001"


def test_classify_retry_after_http_date():
    when = datetime(2030, 1, 1, tzinfo=UTC)
    value = format_datetime(when, usegmt=True)
    assert parse_retry_after(value, now_epoch=when.timestamp() - 5) == 5.0


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ("", None),
        ("  ", None),
        ("3", 3.0),
        ("1.5", 1.5),
        ("-4", 0.0),
        ("soon", None),
        ("nan", None),
        ("inf", None),
    ],
)
def test_parse_retry_after_values(value, expected):
    assert parse_retry_after(value) == expected


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (500, ErrorClass.UNAVAILABLE),
        (501, ErrorClass.UNAVAILABLE),
        (502, ErrorClass.TRANSIENT),
        (504, ErrorClass.TRANSIENT),
        (401, ErrorClass.AUTH),
        (402, ErrorClass.AUTH),
        (403, ErrorClass.AUTH),
        (404, ErrorClass.BUSINESS),
        (409, ErrorClass.BUSINESS),
        (400, ErrorClass.INPUT),
        (422, ErrorClass.INPUT),
        (418, ErrorClass.BUSINESS),
    ],
)
def test_classify_http_status(status, cls):
    failure = classify_failure(_status_error(status), tool="t")
    assert failure.error_class is cls
    assert failure.status_code == status


def test_classify_error_body_message_and_code():
    body = {"error": {"code": "not_cancellable", "message": "order already shipped"}}
    failure = classify_failure(_status_error(409, body=body, request=POST), tool="cancel_order")
    assert failure.error_class is ErrorClass.BUSINESS
    assert failure.code == "not_cancellable"
    assert failure.reason == (
        "cancel_order: 409 from POST /orders/O-1/cancel (order already shipped)"
    )


def test_classify_fastapi_detail_message():
    failure = classify_failure(_status_error(404, body={"detail": "Not Found"}), tool="t")
    assert failure.reason == "t: 404 from GET /inventory/SKU-1001 (Not Found)"


def test_classify_json_decode_error_is_schema():
    try:
        json.loads('{"a": ')
    except json.JSONDecodeError as exc:
        failure = classify_failure(exc, tool="inventory")
    assert failure.error_class is ErrorClass.SCHEMA
    assert failure.reason.startswith("inventory: response is not valid JSON (")


def test_classify_pydantic_validation_error_is_schema():
    class Stock(BaseModel):
        sku: str
        stock: int

    with pytest.raises(ValidationError) as info:
        Stock.model_validate({"sku": "A"})
    failure = classify_failure(info.value, tool="inventory")
    assert failure.error_class is ErrorClass.SCHEMA
    assert failure.reason.startswith("inventory: response failed validation (")
    assert failure.cause is info.value


@pytest.mark.parametrize(
    ("error", "cls"),
    [
        (ToolInputError, ErrorClass.INPUT),
        (BusinessError, ErrorClass.BUSINESS),
        (TransientError, ErrorClass.TRANSIENT),
        (RateLimitedError, ErrorClass.RATE_LIMITED),
        (UnavailableError, ErrorClass.UNAVAILABLE),
        (SchemaError, ErrorClass.SCHEMA),
        (UnknownOutcomeError, ErrorClass.UNKNOWN_OUTCOME),
        (AuthError, ErrorClass.AUTH),
        (ToolError, ErrorClass.UNAVAILABLE),
    ],
)
def test_classify_tool_error_passthrough(error, cls):
    exc = error("why")
    failure = classify_failure(exc, tool="t")
    assert (failure.error_class, failure.reason) == (cls, "why")
    assert failure.cause is exc


def test_classify_tool_error_keeps_fields_and_original_cause():
    root = KeyError("x")
    try:
        try:
            raise root
        except KeyError as inner:
            raise RateLimitedError(
                "slow down", retry_after=3.0, code="rl", status_code=429
            ) from inner
    except RateLimitedError as exc:
        failure = classify_failure(exc, tool="t")
    assert (failure.retry_after, failure.code, failure.status_code) == (3.0, "rl", 429)
    assert failure.cause is root


def test_classify_input_error_keeps_issues():
    issue = FieldIssue("order_id", "required", allowed=("A", "B"))
    failure = classify_failure(ToolInputError("bad args", issues=(issue,)), tool="t")
    assert failure.issues == (issue,)
    assert issue.as_dict() == {"path": "order_id", "message": "required", "allowed": ["A", "B"]}
    assert FieldIssue("x", "y").as_dict() == {"path": "x", "message": "y"}


def test_classify_connection_reset_is_transient():
    failure = classify_failure(ConnectionResetError("reset"), tool="t")
    assert failure.error_class is ErrorClass.TRANSIENT


def test_classify_unexpected_exception_is_unavailable():
    failure = classify_failure(ZeroDivisionError("boom"), tool="t")
    assert failure.error_class is ErrorClass.UNAVAILABLE
    assert failure.reason == "t: unexpected ZeroDivisionError: boom"


def test_failure_to_error_round_trip():
    cause = httpx.ReadTimeout("x", request=GET)
    failure = Failure(ErrorClass.RATE_LIMITED, "r", retry_after=1.0, status_code=429, cause=cause)
    err = failure.to_error()
    assert isinstance(err, RateLimitedError)
    assert (err.reason, err.retry_after, err.status_code) == ("r", 1.0, 429)
    assert err.__cause__ is cause
    issue = FieldIssue("a", "b")
    err2 = Failure(ErrorClass.INPUT, "bad", issues=(issue,)).to_error()
    assert isinstance(err2, ToolInputError)
    assert err2.issues == (issue,)


@pytest.mark.parametrize("cls", list(ErrorClass))
def test_is_retryable(cls):
    expected = cls in (ErrorClass.TRANSIENT, ErrorClass.RATE_LIMITED)
    assert is_retryable(Failure(cls, "r")) is expected


@pytest.mark.parametrize("status", [500, 502, 504])
def test_classify_5xx_on_a_write_is_unknown_outcome(status):
    post = httpx.Request("POST", "http://shop/refunds")
    failure = classify_failure(_status_error(status, request=post), tool="refund", is_write=True)
    assert failure.error_class is ErrorClass.UNKNOWN_OUTCOME


def test_classify_503_on_a_write_is_unavailable_not_unknown():
    post = httpx.Request("POST", "http://shop/refunds")
    failure = classify_failure(_status_error(503, request=post), tool="refund", is_write=True)
    assert failure.error_class is ErrorClass.UNAVAILABLE


def test_classify_422_with_a_business_code_is_business():
    post = httpx.Request("POST", "http://shop/refunds")
    body = {"error": {"code": "amount_too_large", "message": "at most 866.00 can be refunded"}}
    failure = classify_failure(_status_error(422, body=body, request=post), tool="refund")
    assert (failure.error_class, failure.code) == (ErrorClass.BUSINESS, "amount_too_large")


def test_classify_422_validation_envelope_stays_input():
    body = {"error": {"code": "invalid_request", "message": "order_id: field required"}}
    failure = classify_failure(_status_error(422, body=body), tool="refund")
    assert failure.error_class is ErrorClass.INPUT


class _VendorError(Exception):
    """An exception from a client helpdesk does not know, carrying an HTTP status."""

    def __init__(self, status_code: int, retry_after: object = None) -> None:
        super().__init__(f"vendor error {status_code}")
        self.status_code = status_code
        self.retry_after = retry_after


def test_classify_duck_typed_429_with_retry_after_is_rate_limited():
    failure = classify_failure(_VendorError(429, retry_after=7), tool="crm")
    assert (failure.error_class, failure.retry_after, failure.status_code) == (
        ErrorClass.RATE_LIMITED,
        7.0,
        429,
    )
    assert failure.reason == "crm: 429 from _VendorError (vendor error 429), Retry-After 7s"
    assert is_retryable(failure)


def test_classify_duck_typed_retry_after_header_string():
    failure = classify_failure(_VendorError(503, retry_after="2"), tool="crm")
    assert (failure.error_class, failure.retry_after) == (ErrorClass.RATE_LIMITED, 2.0)


@pytest.mark.parametrize(
    ("status", "cls"),
    [(500, ErrorClass.UNAVAILABLE), (502, ErrorClass.TRANSIENT), (401, ErrorClass.AUTH)],
)
def test_classify_duck_typed_status(status, cls):
    assert classify_failure(_VendorError(status), tool="crm").error_class is cls


def test_classify_duck_typed_status_ignores_non_http_numbers():
    failure = classify_failure(_VendorError(7), tool="crm")
    assert failure.error_class is ErrorClass.UNAVAILABLE
    assert failure.status_code is None


def test_truncated_json_is_retryable_on_a_read_only():
    failure = classify_failure(json.JSONDecodeError("truncated", '{"a": ', 6), tool="get_order")
    assert (failure.error_class, failure.code) == (ErrorClass.SCHEMA, TRUNCATED_JSON)
    assert is_retryable(failure) is True
    assert is_retryable(failure, is_write=True) is False
