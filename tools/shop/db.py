"""SQLite storage of the demo shop: the schema and one lock-guarded connection per app.

The shop is small and its requests are short, so a single ``sqlite3`` connection
(``check_same_thread=False``) serialised by a :class:`threading.Lock` is both simple and fast;
every request runs its reads, or its whole check-execute-record write, inside one
:meth:`ShopDB.transaction`, which is what makes idempotent writes atomic. File databases use WAL
mode so an operator can read them while the shop runs; ``":memory:"`` is supported for tests.
Money is stored as integer cents (``*_cents`` columns) and converted at the HTTP edge.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["MEMORY", "SCHEMA", "ShopDB", "connect"]

MEMORY = ":memory:"

SCHEMA = """
CREATE TABLE IF NOT EXISTS customers (
    customer_id TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    email       TEXT NOT NULL,
    phone       TEXT NOT NULL,
    tier        TEXT NOT NULL,
    language    TEXT NOT NULL CHECK (language IN ('zh', 'en')),
    city        TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS products (
    sku          TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    name_zh      TEXT NOT NULL,
    category     TEXT NOT NULL,
    price_cents  INTEGER NOT NULL,
    restock_date TEXT
);
CREATE TABLE IF NOT EXISTS inventory (
    sku       TEXT NOT NULL REFERENCES products (sku),
    warehouse TEXT NOT NULL,
    city      TEXT NOT NULL,
    available INTEGER NOT NULL,
    PRIMARY KEY (sku, warehouse)
);
CREATE TABLE IF NOT EXISTS orders (
    order_id         TEXT PRIMARY KEY,
    customer_id      TEXT NOT NULL REFERENCES customers (customer_id),
    status           TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    paid_at          TEXT,
    cancelled_at     TEXT,
    cancel_reason    TEXT,
    total_cents      INTEGER NOT NULL,
    currency         TEXT NOT NULL,
    shipping_city    TEXT NOT NULL,
    shipping_city_zh TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_by_customer ON orders (customer_id, created_at);
CREATE TABLE IF NOT EXISTS order_items (
    order_id         TEXT NOT NULL REFERENCES orders (order_id),
    line_no          INTEGER NOT NULL,
    sku              TEXT NOT NULL,
    name             TEXT NOT NULL,
    name_zh          TEXT NOT NULL,
    quantity         INTEGER NOT NULL,
    unit_price_cents INTEGER NOT NULL,
    PRIMARY KEY (order_id, line_no)
);
CREATE TABLE IF NOT EXISTS shipments (
    shipment_id     TEXT PRIMARY KEY,
    order_id        TEXT NOT NULL REFERENCES orders (order_id),
    carrier         TEXT NOT NULL,
    carrier_name    TEXT NOT NULL,
    carrier_name_zh TEXT NOT NULL,
    tracking_number TEXT NOT NULL UNIQUE,
    status          TEXT NOT NULL,
    warehouse       TEXT NOT NULL,
    shipped_at      TEXT NOT NULL,
    eta             TEXT,
    delivered_at    TEXT
);
CREATE INDEX IF NOT EXISTS shipments_by_order ON shipments (order_id);
CREATE TABLE IF NOT EXISTS tracking_events (
    shipment_id    TEXT NOT NULL REFERENCES shipments (shipment_id),
    seq            INTEGER NOT NULL,
    at             TEXT NOT NULL,
    location       TEXT NOT NULL,
    location_zh    TEXT NOT NULL,
    description    TEXT NOT NULL,
    description_zh TEXT NOT NULL,
    PRIMARY KEY (shipment_id, seq)
);
CREATE TABLE IF NOT EXISTS tickets (
    ticket_id   TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers (customer_id),
    category    TEXT NOT NULL,
    subject     TEXT NOT NULL,
    description TEXT NOT NULL,
    order_id    TEXT,
    priority    TEXT NOT NULL,
    status      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    facts_json  TEXT
);
CREATE INDEX IF NOT EXISTS tickets_by_customer ON tickets (customer_id, created_at);
CREATE TABLE IF NOT EXISTS refunds (
    refund_id    TEXT PRIMARY KEY,
    order_id     TEXT NOT NULL REFERENCES orders (order_id),
    customer_id  TEXT NOT NULL REFERENCES customers (customer_id),
    amount_cents INTEGER NOT NULL,
    status       TEXT NOT NULL,
    reason       TEXT,
    created_at   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS refunds_by_order ON refunds (order_id);
CREATE TABLE IF NOT EXISTS faq_articles (
    article_id TEXT PRIMARY KEY,
    topic      TEXT NOT NULL,
    lang       TEXT NOT NULL,
    question   TEXT NOT NULL,
    answer     TEXT NOT NULL,
    keywords   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS idempotency (
    key           TEXT NOT NULL,
    customer_id   TEXT NOT NULL,
    method        TEXT NOT NULL,
    path          TEXT NOT NULL,
    body_hash     TEXT NOT NULL,
    status_code   INTEGER NOT NULL,
    response_json TEXT NOT NULL,
    executed_at   TEXT NOT NULL,
    PRIMARY KEY (customer_id, key)
);
CREATE TABLE IF NOT EXISTS audit_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at          TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    action      TEXT NOT NULL,
    key         TEXT,
    target      TEXT NOT NULL,
    status_code INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_by_customer ON audit_log (customer_id, id);
"""


def connect(path: str | Path = MEMORY) -> sqlite3.Connection:
    """Open a connection usable from any thread, with the schema in place.

    Args:
        path: A database file (created, with its folder, if missing) or ``":memory:"``.
    """
    target = str(path)
    if target != MEMORY:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    if target != MEMORY:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA busy_timeout = 5000")
    conn.executescript(SCHEMA)
    return conn


class ShopDB:
    """The shop's one connection and the lock that serialises its use.

    Args:
        path: A database file or ``":memory:"``.
    """

    def __init__(self, path: str | Path = MEMORY) -> None:
        self.path = str(path)
        self.conn = connect(path)
        self.lock = threading.Lock()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Hold the lock and one ``BEGIN IMMEDIATE`` transaction; commit, or roll back on error."""
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self.lock:
            self.conn.close()
