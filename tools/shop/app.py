"""The demo shop's HTTP API (Starlette), exactly as ``API.md`` specifies it.

:func:`create_app` opens (and seeds, when empty) a SQLite database and returns an app whose
endpoints authenticate by the ``X-Customer-Id`` header, enforce ownership, and answer errors in
one envelope ``{"error": {"code", "message", ...}}`` (invalid input included, as
``invalid_request`` with ``fields``; see :mod:`~helpdesk.tools.shop.request_input`). Writes honour
``Idempotency-Key``: the key's first execution, its outcome and one audit row are stored in the
same transaction, and a retry with the same key, customer, method, path and body replays the
stored status and body without executing again. The database work of every endpoint runs in
Starlette's thread pool over the small, lock-guarded sync DB layer: an event loop that serves the
shop in-process (the bot, ``langgraph dev``) never blocks on SQLite.

Starlette rather than FastAPI: ``helpdesk chat`` starts the embedded shop in every process, and
FastAPI's import and route analysis cost about 0.2 s of a 2 s cold start (issue 15); the shop needs
routing and JSON, and its few inputs are checked with pydantic directly.

Over 400 lines on purpose: it is one app (its request models, error envelope, idempotent-write
replay and every route of ``API.md``), read against ``API.md`` in one place; the queries behind
the routes are :mod:`~helpdesk.tools.shop.service`.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from helpdesk.tools.shop import service
from helpdesk.tools.shop.db import MEMORY, ShopDB
from helpdesk.tools.shop.request_input import (
    choice,
    invalid,
    parse_body,
    query_int,
    query_money,
    query_text,
)
from helpdesk.tools.shop.seed import DEFAULT_SEED, ORDER_STATUSES, iso
from helpdesk.tools.shop.seed import seed as seed_database
from helpdesk.tools.shop.service import ShopError

__all__ = [
    "REPLAY_HEADER",
    "ROUTES",
    "CancelRequest",
    "RefundRequest",
    "ShopContext",
    "TicketRequest",
    "create_app",
]

REPLAY_HEADER = "Idempotency-Replayed"
_MAX_KEY_LENGTH = 255
_LANGS = ("zh", "en")


class CancelRequest(BaseModel):
    """Body of ``POST /orders/{order_id}/cancel``."""

    reason: str | None = Field(default=None, max_length=500)


MAX_REFUND_AMOUNT = 10_000_000
"""The largest amount one refund request may name, in CNY (far above any order)."""


class RefundRequest(BaseModel):
    """Body of ``POST /refunds``."""

    order_id: str = Field(min_length=1, max_length=32)
    amount: float | None = Field(
        default=None, gt=0, le=MAX_REFUND_AMOUNT, strict=True, allow_inf_nan=False
    )
    """CNY with at most two decimals; None refunds everything not yet refunded. Only a JSON
    number: ``true``, ``"12.5"``, ``Infinity`` and ``NaN`` are refused, not coerced."""
    reason: str | None = Field(default=None, max_length=500)

    @field_validator("amount")
    @classmethod
    def _two_decimals(cls, value: float | None) -> float | None:
        exponent = None if value is None else Decimal(repr(value)).as_tuple().exponent
        if isinstance(exponent, int) and exponent < -2:
            raise ValueError("amount must have at most two decimals")
        return value


class TicketRequest(BaseModel):
    """Body of ``POST /tickets``."""

    category: Literal["after_sales", "handoff", "compensation", "complaint", "other"]
    subject: str = Field(min_length=1, max_length=200)
    description: str = Field(min_length=1, max_length=5000)
    order_id: str | None = Field(default=None, max_length=32)
    priority: Literal["low", "normal", "high"] = "normal"
    facts: dict[str, Any] | None = None


class ShopContext:
    """What the endpoints share: the database and the clock that stamps writes."""

    def __init__(self, db: ShopDB, clock: Callable[[], datetime]) -> None:
        self.db = db
        self.clock = clock


def _utc_now() -> datetime:
    return datetime.now(UTC)


def create_app(
    db_path: str | Path = MEMORY,
    *,
    seed: int = DEFAULT_SEED,
    clock: Callable[[], datetime] | None = None,
) -> Starlette:
    """Build the shop over ``db_path`` (seeded with ``seed`` when empty).

    Args:
        db_path: A SQLite file (created if missing) or ``":memory:"`` (a private database).
        seed: Seed for the deterministic demo data.
        clock: Returns the current UTC time for timestamps of writes (default: real time).
    """
    db = ShopDB(db_path)
    with db.lock:
        seed_database(db.conn, seed)

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        yield
        db.close()

    app = Starlette(
        routes=ROUTES,
        exception_handlers={ShopError: _on_shop_error, HTTPException: _on_http_error},
        lifespan=lifespan,
    )
    app.state.shop = ShopContext(db, clock or _utc_now)
    return app


async def _on_shop_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, ShopError)
    return JSONResponse(exc.body(), status_code=exc.status_code)


async def _on_http_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    error = ShopError(exc.status_code, code, str(exc.detail))
    return JSONResponse(error.body(), status_code=exc.status_code, headers=exc.headers)


@dataclass(frozen=True, slots=True)
class _Call:
    """One authenticated request, as an endpoint reads it."""

    request: Request
    shop: ShopContext
    customer_id: str
    body: bytes

    def path(self, name: str) -> str:
        return str(self.request.path_params[name])

    @property
    def query(self) -> Any:
        return self.request.query_params

    @property
    def today(self) -> date:
        """The shop's date (China time), for "is this delivery overdue"."""
        return (self.shop.clock() + timedelta(hours=8)).date()

    def read(self, fn: Callable[..., dict[str, Any]], *args: Any, **kwargs: Any) -> dict[str, Any]:
        with self.shop.db.lock:
            return fn(self.shop.db.conn, *args, **kwargs)


Endpoint = Callable[[_Call], "dict[str, Any] | Response"]


def _customer(shop: ShopContext, request: Request) -> str:
    customer_id = request.headers.get("x-customer-id")
    if not customer_id:
        raise ShopError(401, "missing_customer", "The X-Customer-Id header is required.")
    with shop.db.lock:
        known = service.get_customer(shop.db.conn, customer_id) is not None
    if not known:
        raise ShopError(401, "unknown_customer", f"Unknown customer {customer_id}.")
    return customer_id


def _route(
    path: str, endpoint: Endpoint, method: str = "GET", *, authenticated: bool = True
) -> Route:
    """``endpoint`` behind authentication, run in the thread pool (SQLite is synchronous)."""

    async def handle(request: Request) -> Response:
        body = await request.body() if method == "POST" else b""
        shop: ShopContext = request.app.state.shop

        def run() -> dict[str, Any] | Response:
            customer_id = _customer(shop, request) if authenticated else ""
            return endpoint(_Call(request, shop, customer_id, body))

        outcome = await run_in_threadpool(run)
        return outcome if isinstance(outcome, Response) else JSONResponse(outcome)

    return Route(path, handle, methods=[method], name=endpoint.__name__)


def healthz(_: _Call) -> dict[str, Any]:
    return {"ok": True}


def customer_me(call: _Call) -> dict[str, Any]:
    with call.shop.db.lock:
        profile = service.get_customer(call.shop.db.conn, call.customer_id)
    assert profile is not None  # _customer checked it
    return profile


_REFUND_ID = re.compile(r"R-\d{6}")
_TICKET_ID = re.compile(r"T-\d{6}")
_TRACKING_NUMBER = re.compile(r"(?:SF|YT)\d{10}")


def list_orders(call: _Call) -> dict[str, Any]:
    wanted = choice("status", call.query.get("status"), ORDER_STATUSES)
    limit = query_int(call.query, "limit", 10, 1, 100)
    if call.query.get("product") is not None:
        product = query_text(call.query, "product", 1, 200)
        context = (
            query_text(call.query, "context", 1, 200)
            if call.query.get("context") is not None
            else None
        )
        every = choice("every", call.query.get("every"), ("true", "false")) == "true"
        return call.read(
            service.orders_naming,
            call.customer_id,
            product,
            wanted,
            limit,
            context=context,
            every=every,
        )
    if call.query.get("refund") is not None:
        # "did R-000094 go through?": the order that refund is of (its refunds and what is
        # still refundable)
        refund_id = query_text(call.query, "refund", 8, 8).upper()
        if not _REFUND_ID.fullmatch(refund_id):
            raise invalid("refund", "a refund id looks like R-000123")
        return call.read(service.list_orders, call.customer_id, wanted, limit, refund_id=refund_id)
    if call.query.get("ticket") is not None:
        # "T-000031 有进展没 快递动了没": the order that ticket is about
        ticket_id = query_text(call.query, "ticket", 8, 8).upper()
        if not _TICKET_ID.fullmatch(ticket_id):
            raise invalid("ticket", "a ticket id looks like T-000123")
        found = call.read(service.list_orders, call.customer_id, wanted, limit, ticket_id=ticket_id)
        return {**found, "ticket_id": ticket_id}
    if call.query.get("tracking") is not None:
        # "SF5969721286 签收了吗 … 能改地址吗": the order that parcel is of
        number = query_text(call.query, "tracking", 12, 12).upper()
        if not _TRACKING_NUMBER.fullmatch(number):
            raise invalid("tracking", "a tracking number looks like SF1234567890")
        found = call.read(
            service.list_orders, call.customer_id, wanted, limit, tracking_number=number
        )
        return {**found, "tracking_number": number}
    if call.query.get("refunded") is not None:
        # "之前退的那433到账了没", "the 433 you refunded": the orders with a refund of that amount
        refunded = query_money(call.query, "refunded")
        return call.read(
            service.list_orders, call.customer_id, wanted, limit, refunded_cents=refunded
        )
    if call.query.get("left") is not None:
        # "剩下那866还能退吗", "the 866 that's left": the orders with that much not yet refunded
        left = query_money(call.query, "left")
        return call.read(service.list_orders, call.customer_id, wanted, limit, left_cents=left)
    if call.query.get("total") is not None:
        # "the 797 order", "5198那单": the orders of that total
        total = query_money(call.query, "total")
        return call.read(service.list_orders, call.customer_id, wanted, limit, total_cents=total)
    return call.read(service.list_orders, call.customer_id, wanted, limit)


def get_order(call: _Call) -> dict[str, Any]:
    return call.read(service.get_order, call.customer_id, call.path("order_id"), call.today)


def get_tracking(call: _Call) -> dict[str, Any]:
    return call.read(service.get_tracking, call.customer_id, call.path("order_id"), call.today)


def get_tracking_by_product(call: _Call) -> dict[str, Any]:
    product = query_text(call.query, "product", 1, 200)
    return call.read(service.track_product, call.customer_id, product, call.today)


def get_tracking_by_number(call: _Call) -> dict[str, Any]:
    number = call.path("tracking_number")
    return call.read(service.get_tracking_by_number, call.customer_id, number, call.today)


def get_inventory(call: _Call) -> dict[str, Any]:
    return call.read(service.get_inventory, call.path("sku"), call.today)


def search_products(call: _Call) -> dict[str, Any]:
    limit = query_int(call.query, "limit", 20, 1, 100)
    return call.read(service.search_products, call.query.get("q"), limit, call.today)


def search_faq(call: _Call) -> dict[str, Any]:
    lang = choice("lang", call.query.get("lang"), _LANGS)
    topic = call.query.get("topic") or None
    return call.read(service.search_faq, call.query.get("q"), lang, topic)


def list_tickets(call: _Call) -> dict[str, Any]:
    limit = query_int(call.query, "limit", 20, 1, 100)
    return call.read(service.list_tickets, call.customer_id, limit)


def get_ticket(call: _Call) -> dict[str, Any]:
    return call.read(service.get_ticket, call.customer_id, call.path("ticket_id"))


def list_refunds(call: _Call) -> dict[str, Any]:
    limit = query_int(call.query, "limit", 20, 1, 100)
    return call.read(service.list_refunds, call.customer_id, limit)


def get_refund(call: _Call) -> dict[str, Any]:
    return call.read(service.get_refund, call.customer_id, call.path("refund_id"))


def get_idempotency(call: _Call) -> dict[str, Any]:
    with call.shop.db.lock:
        row = call.shop.db.conn.execute(
            "SELECT * FROM idempotency WHERE customer_id = ? AND key = ?",
            (call.customer_id, call.path("key")),
        ).fetchone()
    if row is None:
        raise ShopError(404, "key_not_found", "No write was executed with this key.")
    return {
        "key": row["key"],
        "method": row["method"],
        "path": row["path"],
        "status_code": row["status_code"],
        "response": json.loads(row["response_json"]),
        "executed_at": row["executed_at"],
    }


def get_audit(call: _Call) -> dict[str, Any]:
    limit = query_int(call.query, "limit", 100, 1, 1000)
    sql = "SELECT * FROM audit_log WHERE customer_id = ?"
    params: list[Any] = [call.customer_id]
    for column in ("key", "action"):
        value = call.query.get(column)
        if value:
            sql += f" AND {column} = ?"
            params.append(value)
    with call.shop.db.lock:
        rows = call.shop.db.conn.execute(sql + " ORDER BY id LIMIT ?", [*params, limit]).fetchall()
    return {"entries": [dict(row) for row in rows]}


def cancel_order(call: _Call) -> Response:
    payload = parse_body(call.body, CancelRequest, optional=True) or CancelRequest()
    order_id = call.path("order_id")

    def execute(conn: sqlite3.Connection, now: datetime) -> tuple[int, dict[str, Any]]:
        return 200, service.cancel_order(conn, call.customer_id, order_id, payload.reason, now)

    return _execute_once(call, _Write(payload, "cancel_order", order_id), execute)


def create_refund(call: _Call) -> Response:
    body = parse_body(call.body, RefundRequest)
    assert body is not None  # required
    cents = None if body.amount is None else service.to_cents(body.amount)

    def execute(conn: sqlite3.Connection, now: datetime) -> tuple[int, dict[str, Any]]:
        refund = service.create_refund(
            conn, call.customer_id, body.order_id, cents, body.reason, now
        )
        return 201, refund

    return _execute_once(call, _Write(body, "create_refund", body.order_id), execute)


def create_ticket(call: _Call) -> Response:
    body = parse_body(call.body, TicketRequest)
    assert body is not None  # required

    def execute(conn: sqlite3.Connection, now: datetime) -> tuple[int, dict[str, Any]]:
        return 201, service.create_ticket(conn, call.customer_id, body.model_dump(), now)

    return _execute_once(call, _Write(body, "create_ticket", body.order_id or ""), execute)


ROUTES = [
    _route("/healthz", healthz, authenticated=False),
    _route("/customers/me", customer_me),
    _route("/orders", list_orders),
    _route("/orders/{order_id}", get_order),
    _route("/orders/{order_id}/tracking", get_tracking),
    _route("/orders/{order_id}/cancel", cancel_order, "POST"),
    _route("/tracking", get_tracking_by_product),
    _route("/tracking/{tracking_number}", get_tracking_by_number),
    _route("/inventory/{sku}", get_inventory),
    _route("/products", search_products),
    _route("/faq", search_faq),
    _route("/tickets", list_tickets),
    _route("/tickets", create_ticket, "POST"),
    _route("/tickets/{ticket_id}", get_ticket),
    _route("/refunds", create_refund, "POST"),
    _route("/refunds", list_refunds),
    _route("/refunds/{refund_id}", get_refund),
    _route("/idempotency/{key}", get_idempotency),
    _route("/audit", get_audit),
]
"""Every endpoint of ``API.md``."""

_TARGET_KEYS = ("refund_id", "ticket_id", "order_id")


@dataclass(frozen=True, slots=True)
class _Write:
    """One write request as the idempotency store sees it."""

    body: BaseModel
    action: str
    target: str


def _execute_once(
    call: _Call,
    write: _Write,
    execute: Callable[[sqlite3.Connection, datetime], tuple[int, dict[str, Any]]],
) -> Response:
    """Run one write at most once per idempotency key, audit it, and store its outcome.

    The lookup, the execution, the audit row and the stored response share one transaction
    under the shop's lock, so concurrent retries with one key cannot both execute. Business
    refusals (404 / 409 / 422 from the rules) are outcomes too: audited, stored and replayed
    alike; their partial writes, if any, are rolled back to a savepoint first.
    """
    key = call.request.headers.get("idempotency-key")
    customer_id, shop = call.customer_id, call.shop
    if key is not None and not 0 < len(key) <= _MAX_KEY_LENGTH:
        raise invalid("Idempotency-Key", f"must be 1 to {_MAX_KEY_LENGTH} characters")
    method, path = call.request.method, call.request.url.path
    canonical = json.dumps(write.body.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
    body_hash = hashlib.sha256(canonical.encode()).hexdigest()
    with shop.db.transaction() as conn:
        if key is not None:
            stored = conn.execute(
                "SELECT * FROM idempotency WHERE customer_id = ? AND key = ?", (customer_id, key)
            ).fetchone()
            if stored is not None:
                if (stored["method"], stored["path"], stored["body_hash"]) != (
                    method,
                    path,
                    body_hash,
                ):
                    raise ShopError(
                        422,
                        "idempotency_key_reused",
                        "This Idempotency-Key was already used for a different request.",
                    )
                return JSONResponse(
                    json.loads(stored["response_json"]),
                    status_code=stored["status_code"],
                    headers={REPLAY_HEADER: "true"},
                )
        now = shop.clock()
        target = write.target
        conn.execute("SAVEPOINT write")
        try:
            status_code, response = execute(conn, now)
        except ShopError as exc:
            conn.execute("ROLLBACK TO write")
            status_code, response = exc.status_code, exc.body()
        else:
            target = next((str(response[k]) for k in _TARGET_KEYS if response.get(k)), target)
        conn.execute("RELEASE write")
        at = iso(now)
        conn.execute(
            "INSERT INTO audit_log (at, customer_id, action, key, target, status_code)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (at, customer_id, write.action, key, target, status_code),
        )
        if key is not None:
            conn.execute(
                "INSERT INTO idempotency VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (key, customer_id, method, path, body_hash, status_code,
                 json.dumps(response, ensure_ascii=False), at),
            )  # fmt: skip
    return JSONResponse(response, status_code=status_code)
