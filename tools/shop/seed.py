"""Deterministic seed data for the demo shop, independent of today's date.

:func:`seed` fills an empty database from ``random.Random(seed)`` relative to the fixed
:data:`BASE_TIME` (2026-11-01T00:00:00Z): 200 customers, 66 products with stock across four
warehouses, exactly 1,000 orders created over the previous 90 days (ids in creation order),
their shipments and bilingual tracking events, refunds, tickets and FAQ articles. Customer
``C0001`` always has exactly one order of each status plus a second delivered order with a
partial refund, so docs and tests can rely on it; the same seed always yields the same rows.

Over 400 lines on purpose: it is one deterministic generator (and its ticket templates); every
table is drawn from one ``random.Random`` in a fixed order, which the rows docs and tests rely on.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from helpdesk.tools.shop.catalog import (
    CARRIERS,
    CITIES,
    EN_FIRST_NAMES,
    EN_LAST_NAMES,
    FAQ,
    PRODUCTS,
    TIER1_CITIES,
    WAREHOUSES,
    ZH_GIVEN_NAMES,
    ZH_SURNAMES,
    Carrier,
    Warehouse,
    city_zh,
)
from helpdesk.tools.shop.db import SCHEMA, connect

__all__ = [
    "BASE_TIME",
    "CUSTOMER_COUNT",
    "DEFAULT_SEED",
    "ORDER_COUNT",
    "ORDER_STATUSES",
    "ensure_seeded",
    "iso",
    "seed",
]

BASE_TIME = datetime(2026, 11, 1, tzinfo=UTC)
DEFAULT_SEED = 42
CUSTOMER_COUNT = 200
ORDER_COUNT = 1000
FIRST_ORDER_ID = 100001
ORDER_STATUSES = ("pending", "paid", "shipped", "delivered", "cancelled")

# C0001's fixed order mix: every status, and a second delivered order (partially refunded).
_C0001_STATUSES = ("pending", "paid", "shipped", "delivered", "delivered", "cancelled")
_STATUS_WEIGHTS = (7, 10, 13, 58, 12)
# Age (days before BASE_TIME) an order of each status can have; pending orders auto-cancel at 24 h.
_AGE_DAYS: dict[str, tuple[float, float]] = {
    "pending": (0.02, 0.9),
    "paid": (0.05, 2.5),
    "shipped": (1.0, 6.0),
    "delivered": (8.0, 90.0),
    "cancelled": (0.5, 90.0),
}
_TIERS = ("standard", "silver", "gold", "platinum")
_TIER_WEIGHTS = (55, 25, 15, 5)


def iso(moment: datetime) -> str:
    """``2026-11-03T09:15:00Z``: UTC, whole seconds."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class _Order:
    customer_id: str
    status: str
    created_at: datetime
    city: str
    order_id: str = ""
    paid_at: datetime | None = None
    cancelled_at: datetime | None = None
    items: list[tuple[str, str, str, int, int]] = field(default_factory=list)
    """(sku, name, name_zh, quantity, unit_price_cents)"""

    @property
    def total_cents(self) -> int:
        return sum(quantity * price for _, _, _, quantity, price in self.items)


@dataclass
class _Rows:
    customers: list[tuple[Any, ...]] = field(default_factory=list)
    products: list[tuple[Any, ...]] = field(default_factory=list)
    inventory: list[tuple[Any, ...]] = field(default_factory=list)
    orders: list[tuple[Any, ...]] = field(default_factory=list)
    order_items: list[tuple[Any, ...]] = field(default_factory=list)
    shipments: list[tuple[Any, ...]] = field(default_factory=list)
    tracking_events: list[tuple[Any, ...]] = field(default_factory=list)
    tickets: list[tuple[Any, ...]] = field(default_factory=list)
    refunds: list[tuple[Any, ...]] = field(default_factory=list)
    faq_articles: list[tuple[Any, ...]] = field(default_factory=list)


def seed(conn: sqlite3.Connection, seed: int = DEFAULT_SEED) -> bool:
    """Fill an empty shop database; a no-op when it already has customers.

    Args:
        conn: An open connection (the schema is created if missing).
        seed: Seed of the ``random.Random`` every value is drawn from.

    Returns:
        True if rows were written, False if the database was already seeded.
    """
    return _seed_if_empty(conn, seed)


def ensure_seeded(path: str | Path, seed: int = DEFAULT_SEED) -> Path:
    """Create the database file at ``path`` if needed and seed it when empty.

    Returns:
        ``path`` as a :class:`~pathlib.Path`.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    conn = connect(target)
    try:
        _seed_if_empty(conn, seed)
    finally:
        conn.close()
    return target


def _seed_if_empty(conn: sqlite3.Connection, seed_value: int) -> bool:
    conn.executescript(SCHEMA)
    if conn.execute("SELECT 1 FROM customers LIMIT 1").fetchone() is not None:
        return False
    rows = _build(random.Random(seed_value))
    own_transaction = not conn.in_transaction
    if own_transaction:
        conn.execute("BEGIN")
    try:
        _insert(conn, rows)
    except BaseException:
        if own_transaction:
            conn.execute("ROLLBACK")
        raise
    if own_transaction:
        conn.execute("COMMIT")
    return True


_INSERTS = {
    "customers": 8,
    "products": 6,
    "inventory": 4,
    "orders": 11,
    "order_items": 7,
    "shipments": 11,
    "tracking_events": 7,
    "tickets": 10,
    "refunds": 7,
    "faq_articles": 6,
}


def _insert(conn: sqlite3.Connection, rows: _Rows) -> None:
    for table, width in _INSERTS.items():
        marks = ", ".join("?" * width)
        conn.executemany(f"INSERT INTO {table} VALUES ({marks})", getattr(rows, table))


def _build(rng: random.Random) -> _Rows:
    rows = _Rows()
    _customers(rng, rows)
    _products(rng, rows)
    orders = _orders(rng, rows)
    _logistics(rng, rows, orders)
    _refunds(rng, rows, orders)
    _tickets(rng, rows, orders)
    rows.faq_articles = [
        (f"FAQ-{n:03d}", entry.topic, entry.lang, entry.question, entry.answer, entry.keywords)
        for n, entry in enumerate(FAQ, start=1)
    ]
    return rows


def _customers(rng: random.Random, rows: _Rows) -> None:
    for n in range(1, CUSTOMER_COUNT + 1):
        if n == 1:  # fixed so the README's examples read the same for every seed
            language, name, slug = "zh", "李娜", "na.li"
        elif n == 2:
            language, name, slug = "en", "Emma Wilson", "emma.wilson"
        elif rng.random() < 0.65:
            (surname, s_py), (given, g_py) = rng.choice(ZH_SURNAMES), rng.choice(ZH_GIVEN_NAMES)
            language, name, slug = "zh", surname + given, f"{g_py}.{s_py}"
        else:
            first, last = rng.choice(EN_FIRST_NAMES), rng.choice(EN_LAST_NAMES)
            language, name, slug = "en", f"{first} {last}", f"{first}.{last}".lower()
        phone = f"+86 1{rng.choice('3589')}{rng.randrange(10)} {rng.randrange(10000):04d} "
        phone += f"{rng.randrange(10000):04d}"
        tier = rng.choices(_TIERS, _TIER_WEIGHTS)[0]
        city = rng.choice(CITIES)[0]
        joined = BASE_TIME - timedelta(days=rng.uniform(100, 1500))
        rows.customers.append(
            (f"C{n:04d}", name, f"{slug}{n}@example.com", phone, tier, language, city, iso(joined))
        )


def _products(rng: random.Random, rows: _Rows) -> None:
    skus = [f"SKU-{1001 + i}" for i in range(len(PRODUCTS))]
    out_of_stock = set(rng.sample(skus, 6))
    single = set(rng.sample([s for s in skus if s not in out_of_stock], 8))
    for sku, product in zip(skus, PRODUCTS, strict=True):
        restock = None
        if sku in out_of_stock:
            restock = (BASE_TIME + timedelta(days=rng.randint(5, 30))).date().isoformat()
            stocked = [(w, 0) for w in rng.sample(WAREHOUSES, 2)]
        elif sku in single:
            stocked = [(rng.choice(WAREHOUSES), rng.randint(1, 40))]
        else:
            chosen = rng.sample(WAREHOUSES, rng.randint(2, 4))
            stocked = [(w, _stock_level(rng)) for w in chosen]
        stocked.sort(key=lambda pair: WAREHOUSES.index(pair[0]))
        price_cents = product.price_yuan * 100
        rows.products.append(
            (sku, product.name, product.name_zh, product.category, price_cents, restock)
        )
        rows.inventory.extend((sku, w.code, w.city, available) for w, available in stocked)


def _stock_level(rng: random.Random) -> int:
    roll = rng.random()
    if roll < 0.1:
        return 0
    if roll < 0.25:
        return rng.randint(1, 5)
    return rng.randint(6, 300)


def _orders(rng: random.Random, rows: _Rows) -> list[_Order]:
    cities = {c[0]: c[6] for c in rows.customers}
    owners = ["C0001"] * len(_C0001_STATUSES)
    statuses = list(_C0001_STATUSES)
    others = [f"C{n:04d}" for n in range(2, CUSTOMER_COUNT + 1)]
    owners += others * 3  # every customer has several orders
    owners += [rng.choice(others) for _ in range(ORDER_COUNT - len(owners))]
    statuses += rng.choices(ORDER_STATUSES, _STATUS_WEIGHTS, k=ORDER_COUNT - len(statuses))
    orders: list[_Order] = []
    for owner, status in zip(owners, statuses, strict=True):
        low, high = _AGE_DAYS[status]
        created = BASE_TIME - timedelta(seconds=int(rng.uniform(low, high) * 86400))
        city = cities[owner] if rng.random() < 0.9 else rng.choice(CITIES)[0]
        orders.append(_Order(owner, status, created, city))
    orders.sort(key=lambda o: o.created_at)
    for n, order in enumerate(orders):
        order.order_id = str(FIRST_ORDER_ID + n)
        lines = rng.choices((1, 2, 3, 4), (55, 25, 13, 7))[0]
        for index in rng.sample(range(len(PRODUCTS)), lines):
            product = PRODUCTS[index]
            quantity = rng.choices((1, 2, 3), (80, 15, 5))[0]
            order.items.append(
                (f"SKU-{1001 + index}", product.name, product.name_zh, quantity,
                 product.price_yuan * 100)
            )  # fmt: skip
        if order.status != "pending" and (order.status != "cancelled" or rng.random() < 0.5):
            order.paid_at = order.created_at + timedelta(seconds=rng.randint(60, 3600))
        if order.status == "cancelled":
            start = order.paid_at or order.created_at
            order.cancelled_at = start + timedelta(seconds=rng.randint(300, 20 * 3600))
        rows.orders.append(
            (order.order_id, order.customer_id, order.status, iso(order.created_at),
             _iso_or_none(order.paid_at), _iso_or_none(order.cancelled_at),
             "Changed my mind" if order.cancelled_at else None, order.total_cents, "CNY",
             order.city, city_zh(order.city))
        )  # fmt: skip
        rows.order_items.extend(
            (order.order_id, line, *item) for line, item in enumerate(order.items, start=1)
        )
    return orders


def _iso_or_none(moment: datetime | None) -> str | None:
    return None if moment is None else iso(moment)


@dataclass
class _Shipping:
    shipments: int = 0
    tracking_numbers: set[str] = field(default_factory=set)


def _logistics(rng: random.Random, rows: _Rows, orders: list[_Order]) -> None:
    state = _Shipping()
    for order in orders:
        if order.status not in ("shipped", "delivered") or order.paid_at is None:
            continue
        parcels = 2 if len(order.items) >= 2 and rng.random() < 0.15 else 1
        warehouses = rng.sample(WAREHOUSES, parcels)
        for warehouse in warehouses:
            _shipment(rng, rows, state, order, order.paid_at, warehouse)


def _shipment(
    rng: random.Random,
    rows: _Rows,
    state: _Shipping,
    order: _Order,
    paid_at: datetime,
    warehouse: Warehouse,
) -> None:
    state.shipments += 1
    shipment_id = f"S-{state.shipments:06d}"
    carrier = rng.choices(CARRIERS, (60, 40))[0]
    number = f"{carrier.code}{rng.randrange(10**10):010d}"
    while number in state.tracking_numbers:
        number = f"{carrier.code}{rng.randrange(10**10):010d}"
    state.tracking_numbers.add(number)
    transit_days = rng.randint(1, 3) if order.city in TIER1_CITIES else rng.randint(3, 5)
    shipped_at = paid_at + timedelta(seconds=rng.randint(4 * 3600, 28 * 3600))
    shipped_at = min(shipped_at, BASE_TIME - timedelta(hours=1))
    eta = (shipped_at + timedelta(days=transit_days)).date().isoformat()
    delivered_at: datetime | None = None
    if order.status == "delivered":
        status = "delivered"
        delivered_at = shipped_at + timedelta(days=transit_days, hours=rng.uniform(-6, 6))
        steps = ["pickup", "depart", "hub", "station", "out", "delivered"]
        if rng.random() < 0.5:
            steps.remove("station")
        end = delivered_at
    else:
        status = "out_for_delivery" if rng.random() < 0.3 else "in_transit"
        steps = ["pickup", "depart", "hub", "out"] if status == "out_for_delivery" else (
            ["pickup", "depart", "hub"][: rng.randint(2, 3)]
        )  # fmt: skip
        end = BASE_TIME - timedelta(minutes=rng.randint(10, 50))
    rows.shipments.append(
        (shipment_id, order.order_id, carrier.code, carrier.name, carrier.name_zh, number, status,
         warehouse.code, iso(shipped_at), eta, _iso_or_none(delivered_at))
    )  # fmt: skip
    span = (end - shipped_at).total_seconds()
    offsets = sorted(rng.uniform(0.05, 0.95) * span for _ in steps[1:-1])
    moments = [shipped_at, *(shipped_at + timedelta(seconds=s) for s in offsets), end]
    for seq, (step, moment) in enumerate(zip(steps, moments, strict=False), start=1):
        rows.tracking_events.append(
            (shipment_id, seq, iso(moment), *_event(step, carrier, warehouse, order.city))
        )


def _event(step: str, carrier: Carrier, origin: Warehouse, city: str) -> tuple[str, ...]:
    """(location, location_zh, description, description_zh) of one tracking step."""
    dest_zh = city_zh(city)
    if step == "pickup":
        return (origin.city, origin.city_zh,
                f"Parcel picked up by {carrier.name} in {origin.city}",
                f"{carrier.name_zh}已在{origin.city_zh}揽收快件")  # fmt: skip
    if step == "depart":
        return (origin.city, origin.city_zh, f"Departed {origin.city} sorting center",
                f"快件已从{origin.city_zh}转运中心发出")  # fmt: skip
    if step == "hub":
        return (city, dest_zh, f"Arrived at {city} sorting center",
                f"快件已到达{dest_zh}转运中心")  # fmt: skip
    if step == "station":
        return (city, dest_zh, f"Arrived at {city} delivery station",
                f"快件已到达{dest_zh}派送站点")  # fmt: skip
    if step == "out":
        return (city, dest_zh, "Out for delivery; the courier will call before arriving",
                "快递员正在派送，请保持电话畅通")  # fmt: skip
    return (city, dest_zh, "Delivered and signed for",
            f"快件已签收，感谢使用{carrier.name_zh}")  # fmt: skip


def _refunds(rng: random.Random, rows: _Rows, orders: list[_Order]) -> None:
    shipments_by_order: dict[str, datetime] = {}
    for s in rows.shipments:
        if s[10]:
            moment = datetime.strptime(s[10], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
            shipments_by_order[s[1]] = max(moment, shipments_by_order.get(s[1], moment))
    c0001_delivered = [o for o in orders if o.customer_id == "C0001" and o.status == "delivered"]
    partial_for = c0001_delivered[-1].order_id
    pending: list[tuple[datetime, _Order, int, str, str]] = []
    for order in orders:
        if order.status == "cancelled" and order.paid_at and order.cancelled_at:
            refund = (order.cancelled_at, order, order.total_cents, "paid", "Order cancelled")
            pending.append(refund)
            continue
        if order.status != "delivered":
            continue
        if order.customer_id == "C0001" and order.order_id != partial_for:
            continue  # C0001's first delivered order stays fully refundable
        delivered = shipments_by_order[order.order_id]
        when = min(delivered + timedelta(hours=rng.uniform(6, 140)), BASE_TIME - timedelta(hours=2))
        if order.order_id == partial_for:
            pending.append((when, order, order.total_cents // 3 // 100 * 100, "paid",
                            "Item arrived damaged; partial compensation"))  # fmt: skip
        elif rng.random() < 0.07:
            status = rng.choices(("requested", "approved", "paid", "rejected"), (3, 2, 5, 1))[0]
            if rng.random() < 0.5 or len(order.items) == 1:
                amount, reason = order.total_cents, "7-day no-reason return"
            else:
                sku, _, _, quantity, price = rng.choice(order.items)
                amount, reason = quantity * price, f"Returned {sku}"
            pending.append((when, order, amount, status, reason))
    pending.sort(key=lambda p: (p[0], p[1].order_id))
    for n, (when, order, amount, status, reason) in enumerate(pending, start=1):
        rows.refunds.append(
            (f"R-{n:06d}", order.order_id, order.customer_id, amount, status, reason, iso(when))
        )


_TICKET_TEMPLATES: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("after_sales", "Item arrived damaged", "商品到货破损",
     "The box was crushed and the item inside is damaged.", "外箱被压坏，里面的商品有破损。",
     "high"),
    ("after_sales", "Wrong size, want an exchange", "尺码不合适，申请换货",
     "I would like a larger size of the same item.", "想换大一码的同款。", "normal"),
    ("complaint", "Delivery is late", "物流太慢",
     "The tracking has not updated for a long time.", "包裹物流信息很久没有更新了。", "normal"),
    ("other", "Request a VAT invoice", "申请开具增值税发票",
     "Please issue a company invoice for this order.", "请为这个订单开具单位发票。", "low"),
    ("handoff", "Customer asked for a human agent", "客户要求人工客服",
     "The customer wants to talk to a person about this order.", "客户希望人工处理该订单的问题。",
     "normal"),
)  # fmt: skip


def _tickets(rng: random.Random, rows: _Rows, orders: list[_Order]) -> None:
    languages = {c[0]: c[5] for c in rows.customers}
    by_customer: dict[str, list[_Order]] = {}
    for order in orders:
        by_customer.setdefault(order.customer_id, []).append(order)
    owners = ["C0001", *rng.sample(sorted(by_customer)[1:], 39)]
    drafts: list[tuple[datetime, tuple[Any, ...]]] = []
    for owner in owners:
        order = rng.choice(by_customer[owner])
        if owner == "C0001":
            order = next(o for o in by_customer[owner] if o.status == "shipped")
            template = _TICKET_TEMPLATES[2]
        else:
            template = rng.choice(_TICKET_TEMPLATES)
        category, subject, subject_zh, text, text_zh, priority = template
        zh = languages[owner] == "zh"
        age = (BASE_TIME - order.created_at).total_seconds()
        created = order.created_at + timedelta(seconds=rng.uniform(0.2, 0.9) * age)
        status = "open" if owner == "C0001" else rng.choice(("open", "pending", "resolved"))
        drafts.append(
            (created, (owner, category, subject_zh if zh else subject, text_zh if zh else text,
                       order.order_id, priority, status, iso(created), None))
        )  # fmt: skip
    drafts.sort(key=lambda d: (d[0], d[1][0]))
    for n, (_, draft) in enumerate(drafts, start=1):
        rows.tickets.append((f"T-{n:06d}", *draft))
