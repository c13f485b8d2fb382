"""The demo shop over HTTP (in-process ASGI): seed data, the API.md contract, business rules,
ownership and idempotent writes."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from helpdesk.tools.shop import create_app, ensure_seeded, seed
from helpdesk.tools.shop.app import ShopContext
from helpdesk.tools.shop.db import ShopDB, connect

# Seeded ids documented in API.md ("Seeded data you can rely on"), default seed 42.
C0001_ORDERS = {
    "pending": "100904",
    "paid": "100998",
    "shipped": "100683",
    "delivered": "100200",
    "delivered_partly_refunded": "100609",
    "cancelled": "100181",
}
C0001_TICKET = "T-000031"
C0002_ORDER = "100452"
IN_STOCK_SKU = "SKU-1001"
SINGLE_WAREHOUSE_SKU = "SKU-1007"
OUT_OF_STOCK_SKU = "SKU-1004"
FIXED_NOW = datetime(2026, 11, 2, 8, 30, tzinfo=UTC)

TABLES = (
    "customers", "products", "inventory", "orders", "order_items", "shipments",
    "tracking_events", "tickets", "refunds", "faq_articles",
)  # fmt: skip


@pytest.fixture(scope="module")
def seeded_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One seeded database per module; tests that write get their own copy."""
    return ensure_seeded(tmp_path_factory.mktemp("shop") / "shop.db")


@pytest.fixture(scope="module")
def read_app(seeded_file: Path) -> Iterator[Starlette]:
    """Shared by the read-only tests."""
    app = create_app(seeded_file)
    yield app
    app.state.shop.db.close()


@pytest.fixture(scope="module")
def _write_app_shell(seeded_file: Path) -> Starlette:
    # Tests that write share one app (seeding and opening it costs more than a test) and each
    # swaps in a fresh copy of the seeded database.
    return create_app(seeded_file)


@pytest.fixture
def write_app(
    _write_app_shell: Starlette, seeded_file: Path, tmp_path: Path
) -> Iterator[Starlette]:
    copy = tmp_path / "shop.db"
    shutil.copyfile(seeded_file, copy)
    _write_app_shell.state.shop = ShopContext(ShopDB(copy), clock=lambda: FIXED_NOW)
    yield _write_app_shell
    _write_app_shell.state.shop.db.close()


def _client(app: Starlette, customer: str | None = "C0001") -> httpx.AsyncClient:
    headers = {"X-Customer-Id": customer} if customer else {}
    transport = httpx.ASGITransport(app=app)
    return httpx.AsyncClient(transport=transport, base_url="http://shop", headers=headers)


@pytest.fixture
async def client(read_app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(read_app) as c:
        yield c


@pytest.fixture
async def writer(write_app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(write_app) as c:
        yield c


def _dump(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    return {t: [tuple(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2")] for t in TABLES}


def _audit_count(app: Starlette) -> int:
    db = app.state.shop.db
    with db.lock:
        return int(db.conn.execute("SELECT COUNT(*) FROM audit_log").fetchone()[0])


# --- seed -------------------------------------------------------------------------------------


def test_seed_counts(seeded_file: Path) -> None:
    conn = connect(seeded_file)
    counts = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}
    ids = conn.execute("SELECT MIN(order_id), MAX(order_id) FROM orders").fetchone()
    per_customer = conn.execute(
        "SELECT MIN(n) FROM (SELECT COUNT(*) AS n FROM orders GROUP BY customer_id)"
    ).fetchone()[0]
    statuses = {r[0] for r in conn.execute("SELECT DISTINCT status FROM orders")}
    events = conn.execute(
        "SELECT MIN(n), MAX(n) FROM (SELECT COUNT(*) AS n FROM tracking_events"
        " GROUP BY shipment_id)"
    ).fetchone()
    conn.close()
    assert counts["customers"] == 200
    assert counts["products"] >= 60
    assert counts["orders"] == 1000
    assert tuple(ids) == ("100001", "101000")
    assert per_customer >= 3
    assert statuses == {"pending", "paid", "shipped", "delivered", "cancelled"}
    assert tuple(events) == (2, 6)
    assert counts["faq_articles"] >= 12
    assert counts["tickets"] > 0 and counts["refunds"] > 0


def test_seed_is_deterministic(seeded_file: Path) -> None:
    fresh, earlier = connect(), connect(seeded_file)
    assert seed(fresh, 42) is True
    assert _dump(fresh) == _dump(earlier)


def test_seed_is_noop_when_already_seeded(seeded_file: Path, tmp_path: Path) -> None:
    copy = tmp_path / "shop.db"
    shutil.copyfile(seeded_file, copy)
    conn = connect(copy)
    assert seed(conn, 7) is False
    assert conn.execute("SELECT COUNT(*) FROM orders").fetchone()[0] == 1000


def test_seed_c0001_has_every_status_with_documented_ids(seeded_file: Path) -> None:
    conn = connect(seeded_file)
    rows = conn.execute(
        "SELECT order_id, status FROM orders WHERE customer_id = 'C0001' ORDER BY order_id"
    ).fetchall()
    c0002 = conn.execute("SELECT customer_id FROM orders WHERE order_id = ?", (C0002_ORDER,))
    owner = c0002.fetchone()[0]
    conn.close()
    expected = {(order_id, status.split("_")[0]) for status, order_id in C0001_ORDERS.items()}
    assert {tuple(r) for r in rows} == expected
    assert owner == "C0002"


# --- reads ------------------------------------------------------------------------------------


async def test_healthz(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz")
    assert (response.status_code, response.json()) == (200, {"ok": True})


async def test_customers_me(client: httpx.AsyncClient) -> None:
    body = (await client.get("/customers/me")).json()
    assert {"customer_id", "name", "email", "phone", "tier", "language"} <= body.keys()
    assert (body["customer_id"], body["language"]) == ("C0001", "zh")


async def test_orders_list_newest_first(client: httpx.AsyncClient) -> None:
    orders = (await client.get("/orders")).json()["orders"]
    assert [o["created_at"] for o in orders] == sorted(
        (o["created_at"] for o in orders), reverse=True
    )
    assert set(orders[0]) == {
        "order_id",
        "status",
        "created_at",
        "total",
        "currency",
        "item_count",
        "refundable_amount",
    }
    assert {o["order_id"] for o in orders} == set(C0001_ORDERS.values())


async def test_orders_list_filters_status_and_limit(client: httpx.AsyncClient) -> None:
    delivered = (await client.get("/orders", params={"status": "delivered"})).json()["orders"]
    limited = (await client.get("/orders", params={"limit": 2})).json()["orders"]
    assert [o["order_id"] for o in delivered] == ["100609", "100200"]
    assert len(limited) == 2


async def test_orders_list_finds_the_order_of_a_refund(client: httpx.AsyncClient) -> None:
    found = (await client.get("/orders", params={"refund": "r-000094"})).json()["orders"]
    assert [o["order_id"] for o in found] == ["100609"]
    unknown = (await client.get("/orders", params={"refund": "R-999999"})).json()["orders"]
    assert unknown == []
    bad = await client.get("/orders", params={"refund": "R-12"})
    assert bad.status_code == 422


async def test_orders_list_finds_the_orders_of_a_total(client: httpx.AsyncClient) -> None:
    found = (await client.get("/orders", params={"total": "797"})).json()["orders"]
    assert [o["order_id"] for o in found] == ["100200"]
    assert (await client.get("/orders", params={"total": "797.01"})).json()["orders"] == []
    for bad in ("-5", "7.999", "abc", ""):
        assert (await client.get("/orders", params={"total": bad})).status_code == 422


async def test_order_shape(client: httpx.AsyncClient) -> None:
    order = (await client.get(f"/orders/{C0001_ORDERS['delivered_partly_refunded']}")).json()
    assert {
        "order_id", "customer_id", "status", "created_at", "paid_at", "cancelled_at", "items",
        "total", "currency", "shipping_city", "shipments", "refunds", "cancellable", "refundable",
    } <= order.keys()  # fmt: skip
    assert set(order["items"][0]) >= {"sku", "name", "name_zh", "quantity", "unit_price"}
    shipment = order["shipments"][0]
    assert shipment["status"] == "delivered" and shipment["carrier"] in ("SF", "YT")
    assert shipment["tracking_number"][:2] == shipment["carrier"]
    assert len(shipment["tracking_number"]) == 12
    assert [(r["status"], r["amount"]) for r in order["refunds"]] == [("paid", 433.0)]
    assert (order["cancellable"], order["refundable"], order["refundable_amount"]) == (
        False,
        True,
        866.0,
    )


async def test_order_split_into_two_shipments(client: httpx.AsyncClient) -> None:
    order = (await client.get(f"/orders/{C0001_ORDERS['delivered']}")).json()
    assert [s["tracking_number"] for s in order["shipments"]] == ["YT8741553924", "SF8168184950"]
    assert (order["refundable"], order["refundable_amount"], order["total"]) == (True, 797.0, 797.0)


async def test_tickets_and_refunds_of_the_customer(client: httpx.AsyncClient) -> None:
    tickets = (await client.get("/tickets")).json()["tickets"]
    refund = (await client.get("/refunds/R-000094")).json()
    listed = (await client.get("/refunds")).json()["refunds"]
    assert [t["ticket_id"] for t in tickets] == [C0001_TICKET]
    assert (refund["order_id"], refund["amount"], refund["status"]) == ("100609", 433.0, "paid")
    assert listed == [refund]
    assert (await client.get("/refunds", params={"limit": "0"})).status_code == 422


async def test_tracking_shape(client: httpx.AsyncClient) -> None:
    body = (await client.get(f"/orders/{C0001_ORDERS['shipped']}/tracking")).json()
    shipment = body["shipments"][0]
    assert body["order_id"] == C0001_ORDERS["shipped"]
    assert body["order_status"] == "shipped"
    assert shipment["status"] in ("in_transit", "out_for_delivery")
    assert 2 <= len(shipment["events"]) <= 6
    assert set(shipment["events"][0]) >= {"at", "location", "description", "description_zh"}


async def test_tracking_empty_before_shipping(client: httpx.AsyncClient) -> None:
    body = (await client.get(f"/orders/{C0001_ORDERS['paid']}/tracking")).json()
    assert body == {
        "order_id": C0001_ORDERS["paid"],
        "order_status": "paid",
        "shipments": [],
        "open_tickets": [],
    }


async def test_inventory_in_stock(client: httpx.AsyncClient) -> None:
    body = (await client.get(f"/inventory/{SINGLE_WAREHOUSE_SKU}")).json()
    assert body["total_available"] == sum(w["available"] for w in body["warehouses"]) > 0
    assert [set(w) >= {"warehouse", "city", "available"} for w in body["warehouses"]] == [True]
    assert body["restock_date"] is None


async def test_inventory_out_of_stock_has_restock_date(client: httpx.AsyncClient) -> None:
    body = (await client.get(f"/inventory/{OUT_OF_STOCK_SKU}")).json()
    assert (body["total_available"], body["restock_date"]) == (0, "2026-11-25")


async def test_inventory_unknown_sku(client: httpx.AsyncClient) -> None:
    response = await client.get("/inventory/SKU-9999")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "sku_not_found"


@pytest.mark.parametrize("query", ["headphones", "降噪耳机", "noise cancelling"])
async def test_products_search_en_and_zh(client: httpx.AsyncClient, query: str) -> None:
    body = (await client.get("/products", params={"q": query})).json()
    assert [p["sku"] for p in body["products"]] == [IN_STOCK_SKU]
    assert set(body["products"][0]) >= {"sku", "name", "name_zh", "price"}


@pytest.mark.parametrize(
    ("query", "lang", "topic"),
    [
        ("how long does delivery take", "en", "delivery_times"),
        ("我想退货", "zh", "returns"),
        ("退款多久到账", "zh", "refund_time"),
        ("I need an invoice", "en", "invoice"),
    ],
)
async def test_faq_search_ranks_topic_first(
    client: httpx.AsyncClient, query: str, lang: str, topic: str
) -> None:
    articles = (await client.get("/faq", params={"q": query, "lang": lang})).json()["articles"]
    assert (articles[0]["topic"], articles[0]["lang"]) == (topic, lang)
    assert set(articles[0]) == {"article_id", "topic", "question", "answer", "lang"}


async def test_faq_finds_topic_across_languages(client: httpx.AsyncClient) -> None:
    params = {"q": "发票怎么开", "lang": "en"}
    articles = (await client.get("/faq", params=params)).json()["articles"]
    assert [(a["topic"], a["lang"]) for a in articles] == [("invoice", "en")]


async def test_faq_topic_filter_keeps_articles_the_query_misses(
    client: httpx.AsyncClient,
) -> None:
    params = {"q": "zzz", "topic": "warranty", "lang": "zh"}
    articles = (await client.get("/faq", params=params)).json()["articles"]
    assert [(a["topic"], a["lang"]) for a in articles] == [("warranty", "zh")]


async def test_faq_unmatched_query_finds_nothing(client: httpx.AsyncClient) -> None:
    articles = (await client.get("/faq", params={"q": "zzz"})).json()["articles"]
    assert articles == []


async def test_faq_covers_required_topics_in_both_languages(client: httpx.AsyncClient) -> None:
    articles = (await client.get("/faq")).json()["articles"]
    pairs = {(a["topic"], a["lang"]) for a in articles}
    required = ("returns", "delivery_times", "refund_time", "invoice", "warranty", "payment")
    assert {(t, lang) for t in required for lang in ("zh", "en")} <= pairs


async def test_ticket_get(client: httpx.AsyncClient) -> None:
    body = (await client.get(f"/tickets/{C0001_TICKET}")).json()
    assert (body["ticket_id"], body["order_id"], body["status"]) == (
        C0001_TICKET,
        C0001_ORDERS["shipped"],
        "open",
    )


# --- authentication and ownership -------------------------------------------------------------


async def test_missing_customer_header_is_401(read_app: Starlette) -> None:
    async with _client(read_app, customer=None) as anonymous:
        response = await anonymous.get("/orders")
    assert response.status_code == 401
    assert response.json() == {
        "error": {"code": "missing_customer", "message": "The X-Customer-Id header is required."}
    }


async def test_unknown_customer_is_401(read_app: Starlette) -> None:
    async with _client(read_app, customer="C9999") as stranger:
        response = await stranger.get("/customers/me")
    assert (response.status_code, response.json()["error"]["code"]) == (401, "unknown_customer")


@pytest.mark.parametrize("suffix", ["", "/tracking"])
async def test_other_customers_order_is_404_without_its_data(
    read_app: Starlette, client: httpx.AsyncClient, suffix: str
) -> None:
    async with _client(read_app, customer="C0002") as owner:
        real = (await owner.get(f"/orders/{C0002_ORDER}")).json()
    response = await client.get(f"/orders/{C0002_ORDER}{suffix}")
    text = response.text
    assert response.status_code == 404
    assert response.json() == {
        "error": {"code": "order_not_found", "message": f"Order {C0002_ORDER} was not found."}
    }
    leaked = ["C0002", real["created_at"], *(i["sku"] for i in real["items"])]
    leaked += [s["tracking_number"] for s in real["shipments"]]
    assert [value for value in leaked if value in text] == []


async def test_other_customers_ticket_and_refund_are_404(read_app: Starlette) -> None:
    async with _client(read_app, customer="C0002") as other:
        ticket = await other.get(f"/tickets/{C0001_TICKET}")
        refund = await other.get("/refunds/R-000094")
        listed = await other.get("/refunds")
    assert "R-000094" not in listed.text and listed.status_code == 200
    assert (ticket.status_code, ticket.json()["error"]["code"]) == (404, "ticket_not_found")
    assert (refund.status_code, refund.json()["error"]["code"]) == (404, "refund_not_found")


async def test_cancel_other_customers_order_is_404(writer: httpx.AsyncClient) -> None:
    response = await writer.post(f"/orders/{C0002_ORDER}/cancel", json={})
    assert (response.status_code, response.json()["error"]["code"]) == (404, "order_not_found")


# --- cancel -----------------------------------------------------------------------------------


async def test_cancel_pending_order(writer: httpx.AsyncClient) -> None:
    response = await writer.post(
        f"/orders/{C0001_ORDERS['pending']}/cancel", json={"reason": "ordered by mistake"}
    )
    order = response.json()
    assert response.status_code == 200
    assert (order["status"], order["cancelled_at"], order["cancellable"]) == (
        "cancelled",
        "2026-11-02T08:30:00Z",
        False,
    )
    assert order["refunds"] == []


async def test_cancel_paid_order_refunds_in_full(writer: httpx.AsyncClient) -> None:
    order = (await writer.post(f"/orders/{C0001_ORDERS['paid']}/cancel")).json()
    assert order["status"] == "cancelled"
    assert [(r["amount"], r["status"]) for r in order["refunds"]] == [(order["total"], "approved")]


@pytest.mark.parametrize("status", ["shipped", "delivered", "cancelled"])
async def test_cancel_refused_names_current_status(writer: httpx.AsyncClient, status: str) -> None:
    response = await writer.post(f"/orders/{C0001_ORDERS[status]}/cancel", json={})
    error = response.json()["error"]
    assert (response.status_code, error["code"], error["status"]) == (
        409,
        "not_cancellable",
        status,
    )
    assert status in error["message"]


# --- refunds ----------------------------------------------------------------------------------


async def test_refund_full_remaining_by_default(writer: httpx.AsyncClient) -> None:
    order_id = C0001_ORDERS["delivered_partly_refunded"]
    response = await writer.post("/refunds", json={"order_id": order_id, "reason": "broken"})
    assert response.status_code == 201
    assert response.json() == {
        "refund_id": "R-000109",
        "order_id": order_id,
        "amount": 866.0,
        "currency": "CNY",
        "status": "requested",
        "reason": "broken",
        "created_at": "2026-11-02T08:30:00Z",
    }
    order = (await writer.get(f"/orders/{order_id}")).json()
    assert (order["refundable"], order["refundable_amount"]) == (False, 0.0)


async def test_refund_partial_amount(writer: httpx.AsyncClient) -> None:
    body = {"order_id": C0001_ORDERS["delivered"], "amount": 100.5}
    response = await writer.post("/refunds", json=body)
    assert (response.status_code, response.json()["amount"]) == (201, 100.5)


async def test_refund_amount_too_large(writer: httpx.AsyncClient) -> None:
    body = {"order_id": C0001_ORDERS["delivered_partly_refunded"], "amount": 866.01}
    response = await writer.post("/refunds", json=body)
    error = response.json()["error"]
    assert (response.status_code, error["code"], error["remaining"]) == (
        422,
        "amount_too_large",
        866.0,
    )


@pytest.mark.parametrize("status", ["pending", "cancelled"])
async def test_refund_refused_for_unpaid_or_cancelled(
    writer: httpx.AsyncClient, status: str
) -> None:
    response = await writer.post("/refunds", json={"order_id": C0001_ORDERS[status]})
    assert (response.status_code, response.json()["error"]["code"]) == (409, "not_refundable")


async def test_refund_refused_when_nothing_left(writer: httpx.AsyncClient) -> None:
    body = {"order_id": C0001_ORDERS["delivered"]}
    first = await writer.post("/refunds", json=body)
    second = await writer.post("/refunds", json=body)
    assert (first.status_code, second.status_code) == (201, 409)
    assert second.json()["error"]["code"] == "not_refundable"


# --- tickets ----------------------------------------------------------------------------------


async def test_ticket_ids_continue_after_seeded_ones(writer: httpx.AsyncClient) -> None:
    body = {"category": "handoff", "subject": "Talk to a person", "description": "Please call."}
    first = (await writer.post("/tickets", json=body)).json()
    second = (await writer.post("/tickets", json={**body, "facts": {"order_id": "100683"}})).json()
    assert (first["ticket_id"], second["ticket_id"]) == ("T-000041", "T-000042")
    assert (first["status"], first["priority"], second["facts"]) == (
        "open",
        "normal",
        {"order_id": "100683"},
    )
    fetched = (await writer.get(f"/tickets/{second['ticket_id']}")).json()
    assert fetched == second


# --- idempotency and audit --------------------------------------------------------------------


async def test_idempotent_write_replays_and_executes_once(
    write_app: Starlette, writer: httpx.AsyncClient
) -> None:
    headers = {"Idempotency-Key": "refund-1"}
    body = {"order_id": C0001_ORDERS["delivered"], "amount": 10}
    first = await writer.post("/refunds", json=body, headers=headers)
    second = await writer.post("/refunds", json=body, headers=headers)
    audit = (await writer.get("/audit", params={"key": "refund-1"})).json()["entries"]
    assert (first.status_code, second.status_code) == (201, 201)
    assert first.json() == second.json()
    assert second.headers["Idempotency-Replayed"] == "true"
    assert [(e["action"], e["target"], e["status_code"]) for e in audit] == [
        ("create_refund", first.json()["refund_id"], 201)
    ]
    assert _audit_count(write_app) == 1


async def test_idempotency_key_with_different_body_is_422(writer: httpx.AsyncClient) -> None:
    headers = {"Idempotency-Key": "refund-2"}
    order_id = C0001_ORDERS["delivered"]
    await writer.post("/refunds", json={"order_id": order_id, "amount": 10}, headers=headers)
    response = await writer.post(
        "/refunds", json={"order_id": order_id, "amount": 20}, headers=headers
    )
    assert (response.status_code, response.json()["error"]["code"]) == (
        422,
        "idempotency_key_reused",
    )


async def test_write_without_key_executes_every_time(
    write_app: Starlette, writer: httpx.AsyncClient
) -> None:
    body = {"order_id": C0001_ORDERS["delivered"], "amount": 10}
    first = (await writer.post("/refunds", json=body)).json()
    second = (await writer.post("/refunds", json=body)).json()
    assert first["refund_id"] != second["refund_id"]
    assert _audit_count(write_app) == 2


async def test_business_refusal_is_stored_and_replayed(
    write_app: Starlette, writer: httpx.AsyncClient
) -> None:
    headers = {"Idempotency-Key": "cancel-shipped"}
    path = f"/orders/{C0001_ORDERS['shipped']}/cancel"
    first = await writer.post(path, json={}, headers=headers)
    second = await writer.post(path, json={}, headers=headers)
    assert (first.status_code, second.status_code) == (409, 409)
    assert first.json() == second.json()
    assert _audit_count(write_app) == 1


async def test_concurrent_retries_with_one_key_execute_once(
    write_app: Starlette, writer: httpx.AsyncClient
) -> None:
    headers = {"Idempotency-Key": "ticket-race"}
    body = {"category": "complaint", "subject": "Late", "description": "Still waiting."}
    responses = await asyncio.gather(
        *(writer.post("/tickets", json=body, headers=headers) for _ in range(5))
    )
    assert {r.json()["ticket_id"] for r in responses} == {"T-000041"}
    assert _audit_count(write_app) == 1


async def test_idempotency_lookup(writer: httpx.AsyncClient, write_app: Starlette) -> None:
    path = f"/orders/{C0001_ORDERS['pending']}/cancel"
    done = await writer.post(path, json={"reason": None}, headers={"Idempotency-Key": "c-1"})
    found = await writer.get("/idempotency/c-1")
    assert found.json() == {
        "key": "c-1",
        "method": "POST",
        "path": path,
        "status_code": 200,
        "response": done.json(),
        "executed_at": "2026-11-02T08:30:00Z",
    }
    async with _client(write_app, customer="C0002") as other:
        foreign = await other.get("/idempotency/c-1")
    missing = await writer.get("/idempotency/never-used")
    assert (foreign.status_code, foreign.json()["error"]["code"]) == (404, "key_not_found")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "key_not_found")


async def test_audit_filters_by_action(writer: httpx.AsyncClient) -> None:
    await writer.post(f"/orders/{C0001_ORDERS['pending']}/cancel")
    await writer.post("/tickets", json={"category": "other", "subject": "s", "description": "d"})
    entries = (await writer.get("/audit", params={"action": "create_ticket"})).json()["entries"]
    assert [(e["action"], e["target"], e["customer_id"], e["key"]) for e in entries] == [
        ("create_ticket", "T-000041", "C0001", None)
    ]
    assert set(entries[0]) == {"id", "at", "customer_id", "action", "key", "target", "status_code"}


# --- validation -------------------------------------------------------------------------------


async def test_validation_error_envelope(writer: httpx.AsyncClient) -> None:
    response = await writer.post(
        "/tickets", json={"category": "praise", "subject": "", "description": "d"}
    )
    error = response.json()["error"]
    assert (response.status_code, error["code"]) == (422, "invalid_request")
    assert [(f["path"], f.get("allowed")) for f in error["fields"]] == [
        ("category", ["after_sales", "handoff", "compensation", "complaint", "other"]),
        ("subject", None),
    ]
    assert error["message"].startswith("Invalid request: category:")


async def test_validation_rejects_more_than_two_decimals(writer: httpx.AsyncClient) -> None:
    response = await writer.post("/refunds", json={"order_id": "100200", "amount": 1.005})
    assert response.status_code == 422
    assert [f["path"] for f in response.json()["error"]["fields"]] == ["amount"]


async def test_invalid_query_enum_lists_allowed_values(client: httpx.AsyncClient) -> None:
    response = await client.get("/orders", params={"status": "lost"})
    assert response.status_code == 422
    assert response.json()["error"]["fields"] == [
        {
            "path": "status",
            "message": "must be one of pending, paid, shipped, delivered, cancelled",
            "allowed": ["pending", "paid", "shipped", "delivered", "cancelled"],
        }
    ]


async def test_an_overdue_shipment_and_the_orders_open_ticket_are_shown(
    client: httpx.AsyncClient,
) -> None:
    # 100683 (C0001, shipped, eta 2026-10-31, never delivered) has ticket T-000031 open
    for path in ("/orders/100683", "/orders/100683/tracking"):
        body = (await client.get(path)).json()
        assert [s["overdue"] for s in body["shipments"]] == [True], path
        assert [t["ticket_id"] for t in body["open_tickets"]] == ["T-000031"], path
    delivered = (await client.get("/orders/100200")).json()
    assert not any(s["overdue"] for s in delivered["shipments"])


async def test_tracking_by_number_finds_only_the_customers_own_parcel(
    client: httpx.AsyncClient,
) -> None:
    mine = (await client.get("/tracking/yt9433239273")).json()
    assert mine["order_id"] == "100683"
    assert [s["tracking_number"] for s in mine["shipments"]] == ["YT9433239273"]
    # YT8418224117 is order 100452's, another customer's: reported exactly like a missing one
    for number in ("YT8418224117", "YT0000000000"):
        response = await client.get(f"/tracking/{number}")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "tracking_not_found"
        assert "100452" not in response.text


async def test_tracking_by_product_finds_the_customers_latest_order_holding_it(
    client: httpx.AsyncClient,
) -> None:
    # C0001 bought the Air Fryer 5L twice: 100904 (pending, newest) and 100200 (delivered)
    body = (await client.get("/tracking", params={"product": "air fryer"})).json()
    assert body["order_id"] == "100904"
    assert body["matched_product"]["sku"] == "SKU-1028"
    assert body["other_orders_with_product"] == ["100200"]
    zh = (await client.get("/tracking", params={"product": "钢化膜"})).json()
    assert (zh["order_id"], [s["tracking_number"] for s in zh["shipments"]]) == (
        "100683",
        ["YT9433239273"],
    )


async def test_tracking_by_product_never_finds_another_customers_order(
    client: httpx.AsyncClient,
) -> None:
    # headphones are in other customers' orders (100010, ...), none of C0001's
    for product in ("wireless headphones", "耳机", "no such thing at all"):
        response = await client.get("/tracking", params={"product": product})
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "no_order_with_product"
        assert "100010" not in response.text and "C0111" not in response.text
    assert (await client.get("/tracking", params={"product": ""})).status_code == 422


# --- request input: every bad input is a 422 envelope naming it -------------------------------


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"limit": "0"}, "Input should be greater than or equal to 1"),
        ({"limit": "101"}, "Input should be less than or equal to 100"),
        ({"limit": "ten"}, "Input should be a valid integer, unable to parse string as an integer"),
    ],
)
async def test_bad_limit_is_a_422_naming_it(
    client: httpx.AsyncClient, params: dict[str, str], message: str
) -> None:
    response = await client.get("/orders", params=params)
    assert response.status_code == 422
    assert response.json()["error"]["fields"] == [{"path": "limit", "message": message}]


async def test_missing_required_query_parameter_is_a_422(client: httpx.AsyncClient) -> None:
    response = await client.get("/tracking")
    assert response.status_code == 422
    assert response.json()["error"]["fields"] == [{"path": "product", "message": "Field required"}]


@pytest.mark.parametrize(
    ("content", "path"),
    [("", "body"), ("{not json", "body"), ("[1, 2]", "body"), ('{"amount": 5}', "order_id")],
)
async def test_bad_refund_body_is_a_422_and_writes_nothing(
    writer: httpx.AsyncClient, write_app: Starlette, content: str, path: str
) -> None:
    before = _audit_count(write_app)
    response = await writer.post(
        "/refunds", content=content, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422, response.text
    assert [f["path"] for f in response.json()["error"]["fields"]] == [path]
    assert _audit_count(write_app) == before


async def test_cancel_without_a_body_is_allowed(writer: httpx.AsyncClient) -> None:
    response = await writer.post("/orders/100998/cancel")
    assert response.status_code == 200, response.text


async def test_unknown_path_and_wrong_method_answer_in_the_envelope(
    client: httpx.AsyncClient,
) -> None:
    missing = await client.get("/no-such-thing")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")
    wrong = await client.delete("/orders/100200")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (405, "method_not_allowed")


async def test_orders_list_says_what_is_refundable_as_each_order_does(
    client: httpx.AsyncClient,
) -> None:
    """The list's ``refundable_amount`` is the order's own (refunds made taken off; nothing on
    an order that cannot be refunded)."""
    listed = (await client.get("/orders")).json()["orders"]
    for summary in listed:
        order = (await client.get(f"/orders/{summary['order_id']}")).json()
        assert summary["refundable_amount"] == order["refundable_amount"]
    amounts = {o["order_id"]: o["refundable_amount"] for o in listed}
    assert amounts[C0001_ORDERS["delivered_partly_refunded"]] == 866.0
    assert amounts[C0001_ORDERS["pending"]] == 0.0
