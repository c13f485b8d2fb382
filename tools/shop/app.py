"""The demo shop's HTTP API (FastAPI), exactly as ``API.md`` specifies it.

:func:`create_app` opens (and seeds, when empty) a SQLite database and returns an app whose
endpoints authenticate by the ``X-Customer-Id`` header, enforce ownership, and answer errors in
one envelope ``{"error": {"code", "message", ...}}`` (FastAPI's validation errors included, as
``invalid_request`` with ``fields``). Writes honour ``Idempotency-Key``: the key's first
execution, its outcome and one audit row are stored in the same transaction, and a retry with
the same key, customer, method, path and body replays the stored status and body without
executing again. Endpoints are plain functions over the small, lock-guarded sync DB layer, so
FastAPI runs them in its thread pool: an event loop that serves the shop in-process (the bot,
``langgraph dev``) never blocks on SQLite.

Over 400 lines on purpose: it is one FastAPI app (its request models, error envelope,
idempotent-write replay and every route of ``API.md``), read against ``API.md`` in one place; the
queries behind the routes are :mod:`~helpdesk.tools.shop.service`.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

from helpdesk.tools.shop import service
from helpdesk.tools.shop.db import MEMORY, ShopDB
from helpdesk.tools.shop.seed import DEFAULT_SEED, ORDER_STATUSES, iso
from helpdesk.tools.shop.seed import seed as seed_database
from helpdesk.tools.shop.service import ShopError

__all__ = [
    "REPLAY_HEADER",
    "CancelRequest",
    "RefundRequest",
    "ShopContext",
    "TicketRequest",
    "create_app",
    "router",
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
) -> FastAPI:
    """Build the shop over ``db_path`` (seeded with ``seed`` when empty).

    Args:
        db_path: A SQLite file (created if missing) or ``":memory:"`` (a private database).
        seed: Seed for the deterministic demo data.
        clock: Returns the current UTC time for timestamps of writes (default: real time).
    """
    db = ShopDB(db_path)
    with db.lock:
        seed_database(db.conn, seed)
    ctx = ShopContext(db, clock or _utc_now)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        db.close()

    app = FastAPI(
        title="helpdesk demo shop",
        version="1.0",
        description="Orders, logistics, inventory, refunds, tickets and FAQ (see API.md).",
        lifespan=lifespan,
    )
    app.state.shop = ctx
    _install_error_handlers(app)
    app.include_router(router)
    return app


def _install_error_handlers(app: FastAPI) -> None:
    async def on_shop_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ShopError)
        return JSONResponse(exc.body(), status_code=exc.status_code)

    async def on_validation_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        fields = [_field_issue(error) for error in exc.errors()]
        summary = "; ".join(f"{f['path']}: {f['message']}" for f in fields)
        error = ShopError(422, "invalid_request", f"Invalid request: {summary}.", fields=fields)
        return JSONResponse(error.body(), status_code=422)

    async def on_http_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        error = ShopError(exc.status_code, code, str(exc.detail))
        return JSONResponse(error.body(), status_code=exc.status_code, headers=exc.headers)

    app.add_exception_handler(ShopError, on_shop_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
    app.add_exception_handler(StarletteHTTPException, on_http_error)


def _field_issue(error: Any) -> dict[str, Any]:
    loc = [str(part) for part in error.get("loc", ())]
    if len(loc) > 1 and loc[0] in ("body", "query", "path", "header"):
        loc = loc[1:]
    issue: dict[str, Any] = {"path": ".".join(loc) or "body", "message": str(error.get("msg"))}
    expected = (error.get("ctx") or {}).get("expected")
    if isinstance(expected, str) and "'" in expected:
        issue["allowed"] = expected.replace(" or ", ", ").replace("'", "").split(", ")
    return issue


def _invalid(path: str, message: str, allowed: tuple[str, ...] = ()) -> ShopError:
    field: dict[str, Any] = {"path": path, "message": message}
    if allowed:
        field["allowed"] = list(allowed)
    return ShopError(422, "invalid_request", f"Invalid request: {path}: {message}.", fields=[field])


def _choice(name: str, value: str | None, allowed: tuple[str, ...]) -> str | None:
    """An optional enum query parameter; empty means absent."""
    if value is None or value == "":
        return None
    if value not in allowed:
        raise _invalid(name, f"must be one of {', '.join(allowed)}", allowed)
    return value


def _shop(request: Request) -> ShopContext:
    shop: ShopContext = request.app.state.shop
    return shop


Shop = Annotated[ShopContext, Depends(_shop)]


def _current_customer(shop: Shop, x_customer_id: Annotated[str | None, Header()] = None) -> str:
    if not x_customer_id:
        raise ShopError(401, "missing_customer", "The X-Customer-Id header is required.")
    with shop.db.lock:
        known = service.get_customer(shop.db.conn, x_customer_id) is not None
    if not known:
        raise ShopError(401, "unknown_customer", f"Unknown customer {x_customer_id}.")
    return x_customer_id


Customer = Annotated[str, Depends(_current_customer)]
IdempotencyKey = Annotated[str | None, Header(alias="Idempotency-Key")]
Limit = Annotated[int, Query(ge=1, le=100)]

router = APIRouter()


def _today(shop: ShopContext) -> date:
    """The shop's date (China time), for "is this delivery overdue"."""
    return (shop.clock() + timedelta(hours=8)).date()


def _read(shop: ShopContext, fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    with shop.db.lock:
        return fn(shop.db.conn, *args)


@router.get("/healthz")
def healthz() -> dict[str, Any]:
    return {"ok": True}


@router.get("/customers/me")
def customer_me(shop: Shop, customer_id: Customer) -> dict[str, Any]:
    with shop.db.lock:
        profile = service.get_customer(shop.db.conn, customer_id)
    assert profile is not None  # _current_customer checked it
    return profile


@router.get("/orders")
def list_orders(
    shop: Shop, customer_id: Customer, status: str | None = None, limit: Limit = 10
) -> dict[str, Any]:
    wanted = _choice("status", status, ORDER_STATUSES)
    return _read(shop, service.list_orders, customer_id, wanted, limit)


@router.get("/orders/{order_id}")
def get_order(shop: Shop, customer_id: Customer, order_id: str) -> dict[str, Any]:
    return _read(shop, service.get_order, customer_id, order_id, _today(shop))


@router.get("/orders/{order_id}/tracking")
def get_tracking(shop: Shop, customer_id: Customer, order_id: str) -> dict[str, Any]:
    return _read(shop, service.get_tracking, customer_id, order_id, _today(shop))


@router.get("/tracking")
def get_tracking_by_product(
    shop: Shop,
    customer_id: Customer,
    product: Annotated[str, Query(min_length=1, max_length=200)],
) -> dict[str, Any]:
    return _read(shop, service.track_product, customer_id, product, _today(shop))


@router.get("/tracking/{tracking_number}")
def get_tracking_by_number(
    shop: Shop, customer_id: Customer, tracking_number: str
) -> dict[str, Any]:
    return _read(shop, service.get_tracking_by_number, customer_id, tracking_number, _today(shop))


@router.get("/inventory/{sku}")
def get_inventory(shop: Shop, _: Customer, sku: str) -> dict[str, Any]:
    return _read(shop, service.get_inventory, sku, _today(shop))


@router.get("/products")
def search_products(
    shop: Shop, _: Customer, q: str | None = None, limit: Limit = 20
) -> dict[str, Any]:
    return _read(shop, service.search_products, q, limit, _today(shop))


@router.get("/faq")
def search_faq(
    shop: Shop,
    _: Customer,
    q: str | None = None,
    lang: str | None = None,
    topic: str | None = None,
) -> dict[str, Any]:
    return _read(shop, service.search_faq, q, _choice("lang", lang, _LANGS), topic or None)


@router.get("/tickets")
def list_tickets(shop: Shop, customer_id: Customer, limit: Limit = 20) -> dict[str, Any]:
    return _read(shop, service.list_tickets, customer_id, limit)


@router.get("/tickets/{ticket_id}")
def get_ticket(shop: Shop, customer_id: Customer, ticket_id: str) -> dict[str, Any]:
    return _read(shop, service.get_ticket, customer_id, ticket_id)


@router.get("/refunds/{refund_id}")
def get_refund(shop: Shop, customer_id: Customer, refund_id: str) -> dict[str, Any]:
    return _read(shop, service.get_refund, customer_id, refund_id)


@router.get("/idempotency/{key}")
def get_idempotency(shop: Shop, customer_id: Customer, key: str) -> dict[str, Any]:
    with shop.db.lock:
        row = shop.db.conn.execute(
            "SELECT * FROM idempotency WHERE customer_id = ? AND key = ?", (customer_id, key)
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


@router.get("/audit")
def get_audit(
    shop: Shop,
    customer_id: Customer,
    key: str | None = None,
    action: str | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> dict[str, Any]:
    sql = "SELECT * FROM audit_log WHERE customer_id = ?"
    params: list[Any] = [customer_id]
    if key:
        sql += " AND key = ?"
        params.append(key)
    if action:
        sql += " AND action = ?"
        params.append(action)
    with shop.db.lock:
        rows = shop.db.conn.execute(sql + " ORDER BY id LIMIT ?", [*params, limit]).fetchall()
    return {"entries": [dict(row) for row in rows]}


@router.post("/orders/{order_id}/cancel")
def cancel_order(
    request: Request,
    shop: Shop,
    customer_id: Customer,
    order_id: str,
    idempotency_key: IdempotencyKey = None,
    body: CancelRequest | None = None,
) -> JSONResponse:
    payload = body or CancelRequest()

    def execute(conn: sqlite3.Connection, now: datetime) -> tuple[int, dict[str, Any]]:
        return 200, service.cancel_order(conn, customer_id, order_id, payload.reason, now)

    write = _Write(request, customer_id, idempotency_key, payload, "cancel_order", order_id)
    return _execute_once(shop, write, execute)


@router.post("/refunds", status_code=201)
def create_refund(
    request: Request,
    shop: Shop,
    customer_id: Customer,
    body: RefundRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    cents = None if body.amount is None else service.to_cents(body.amount)

    def execute(conn: sqlite3.Connection, now: datetime) -> tuple[int, dict[str, Any]]:
        refund = service.create_refund(conn, customer_id, body.order_id, cents, body.reason, now)
        return 201, refund

    write = _Write(request, customer_id, idempotency_key, body, "create_refund", body.order_id)
    return _execute_once(shop, write, execute)


@router.post("/tickets", status_code=201)
def create_ticket(
    request: Request,
    shop: Shop,
    customer_id: Customer,
    body: TicketRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    def execute(conn: sqlite3.Connection, now: datetime) -> tuple[int, dict[str, Any]]:
        return 201, service.create_ticket(conn, customer_id, body.model_dump(), now)

    target = body.order_id or ""
    write = _Write(request, customer_id, idempotency_key, body, "create_ticket", target)
    return _execute_once(shop, write, execute)


_TARGET_KEYS = ("refund_id", "ticket_id", "order_id")


@dataclass(frozen=True, slots=True)
class _Write:
    """One write request as the idempotency store sees it."""

    request: Request
    customer_id: str
    key: str | None
    body: BaseModel
    action: str
    target: str


def _execute_once(
    shop: ShopContext,
    write: _Write,
    execute: Callable[[sqlite3.Connection, datetime], tuple[int, dict[str, Any]]],
) -> JSONResponse:
    """Run one write at most once per idempotency key, audit it, and store its outcome.

    The lookup, the execution, the audit row and the stored response share one transaction
    under the shop's lock, so concurrent retries with one key cannot both execute. Business
    refusals (404 / 409 / 422 from the rules) are outcomes too: audited, stored and replayed
    alike; their partial writes, if any, are rolled back to a savepoint first.
    """
    key, customer_id = write.key, write.customer_id
    if key is not None and not 0 < len(key) <= _MAX_KEY_LENGTH:
        raise _invalid("Idempotency-Key", f"must be 1 to {_MAX_KEY_LENGTH} characters")
    method, path = write.request.method, write.request.url.path
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
