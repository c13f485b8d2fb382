"""The demo shop's catalogue queries: stock per warehouse, product search and the FAQ.

Plain functions over a SQLite connection like :mod:`helpdesk.tools.shop.service`, but about the
catalogue rather than a customer's account: nothing here checks ownership. Product search ranks
with :mod:`~helpdesk.tools.shop.product_search`; the FAQ is matched per topic across languages.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import date
from typing import Any

from helpdesk.tools.shop.catalog import SEARCH_ALIASES, city_zh
from helpdesk.tools.shop.conventions import ShopError, money
from helpdesk.tools.shop.product_search import (
    ProductText,
    mention_scores,
    price_cap,
    product_text,
    rank_products,
)

__all__ = [
    "get_inventory",
    "matching_skus",
    "mentioned",
    "named_skus",
    "search_faq",
    "search_products",
]


def _restock_passed(restock: str | None, today: date | None) -> bool:
    """Whether a planned restock date has passed without the stock arriving."""
    return bool(restock and today is not None and restock < today.isoformat())


def get_inventory(conn: sqlite3.Connection, sku: str, today: date | None = None) -> dict[str, Any]:
    """Stock of one SKU per warehouse (404 ``sku_not_found``)."""
    sku = sku.strip().upper()
    product = conn.execute("SELECT * FROM products WHERE sku = ?", (sku,)).fetchone()
    if product is None:
        raise ShopError(404, "sku_not_found", f"Product {sku} was not found.")
    warehouses = [
        {
            "warehouse": row["warehouse"],
            "city": row["city"],
            "city_zh": city_zh(row["city"]),
            "available": row["available"],
        }
        for row in conn.execute("SELECT * FROM inventory WHERE sku = ? ORDER BY warehouse", (sku,))
    ]
    total = sum(w["available"] for w in warehouses)
    return {
        "sku": sku,
        "name": product["name"],
        "name_zh": product["name_zh"],
        "category": product["category"],
        "price": money(product["price_cents"]),
        "currency": "CNY",
        "total_available": total,
        "in_stock": total > 0,
        "warehouses": warehouses,
        "restock_date": product["restock_date"] if total == 0 else None,
        "restock_passed": total == 0 and _restock_passed(product["restock_date"], today),
    }


def matching_skus(conn: sqlite3.Connection, query: str) -> list[str]:
    """The SKUs a product query names, best first (the search box's ranking); empty when the
    query names no product."""
    if not query.strip():
        return []
    rows = conn.execute("SELECT sku, name, name_zh, category FROM products ORDER BY sku").fetchall()
    return rank_products(query, _search_texts(rows))


def named_skus(conn: sqlite3.Connection, text: str, among: list[str]) -> list[str]:
    """The SKUs of ``among`` that a customer's words name most strongly ("cancel my air fryer
    order": the air fryer among the products of the customer's orders); empty when they name
    none of them."""
    scores = mentioned(conn, text, among)
    best = max(scores.values(), default=0)
    return [sku for sku, score in scores.items() if score == best and best > 0]


def mentioned(conn: sqlite3.Connection, text: str, among: list[str]) -> dict[str, int]:
    """How strongly the words name each SKU of ``among`` (only those named at all)."""
    if not among or not text.strip():
        return {}
    marks = ",".join("?" * len(among))
    rows = conn.execute(
        f"SELECT sku, name, name_zh, category FROM products WHERE sku IN ({marks}) ORDER BY sku",
        among,
    ).fetchall()
    return mention_scores(text, _search_texts(rows))


def _search_texts(rows: list[sqlite3.Row]) -> list[ProductText]:
    """What the search box reads of each product: names, SKU, category and aliases."""
    return [
        product_text(
            row["sku"],
            (row["name"], row["name_zh"], row["sku"], row["category"]),
            SEARCH_ALIASES.get(row["name"], ()),
        )
        for row in rows
    ]  # fmt: skip


def search_products(
    conn: sqlite3.Connection, query: str | None, limit: int, today: date | None = None
) -> dict[str, Any]:
    """Products matching the query, best first (:mod:`~helpdesk.tools.shop.product_search`).

    Each carries its price, whether any warehouse has it and, when none has, the restock date.
    """
    rows = conn.execute(
        "SELECT p.sku, p.name, p.name_zh, p.category, p.price_cents, p.restock_date,"
        " (SELECT COALESCE(SUM(available), 0) FROM inventory i WHERE i.sku = p.sku) AS stock"
        " FROM products p ORDER BY p.sku"
    ).fetchall()
    by_sku = {row["sku"]: row for row in rows}
    cap, words = price_cap(query or "")
    texts = _search_texts(rows)
    ranked = rank_products(words, texts)
    if cap is not None:
        # "earphones under 500", "一百以内的无线鼠标": only what costs no more
        ranked = [sku for sku in ranked if by_sku[sku]["price_cents"] <= round(cap * 100)]
    # which hits the query names (a word of its names or aliases), not only matches ranked in
    named = mention_scores(words, texts) if words.strip() else {}
    hits = ranked[:limit]
    stocked = _stocked_in(conn, hits)
    found: dict[str, Any] = {
        "products": [
            {
                **_product_hit(by_sku[sku], today),
                "named": sku in named,
                "total_available": by_sku[sku]["stock"],
                "warehouses": stocked.get(sku, []),
            }
            for sku in hits
        ]
    }
    if cap is not None:
        found["max_price"] = cap
    return found


def _stocked_in(conn: sqlite3.Connection, skus: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The warehouses holding each product, with how many each has (one query for all)."""
    stocked: dict[str, list[dict[str, Any]]] = {}
    marks = ",".join("?" * len(skus)) or "NULL"
    for row in conn.execute(
        "SELECT sku, warehouse, city, available FROM inventory"
        f" WHERE sku IN ({marks}) AND available > 0 ORDER BY sku, warehouse",
        skus,
    ):
        stocked.setdefault(row["sku"], []).append(
            {"warehouse": row["warehouse"], "city": row["city"], "available": row["available"]}
        )
    return stocked


def _product_hit(row: sqlite3.Row, today: date | None = None) -> dict[str, Any]:
    in_stock = row["stock"] > 0
    return {
        "sku": row["sku"],
        "name": row["name"],
        "name_zh": row["name_zh"],
        "category": row["category"],
        "price": money(row["price_cents"]),
        "currency": "CNY",
        "in_stock": in_stock,
        "restock_date": None if in_stock else row["restock_date"],
        "restock_passed": not in_stock and _restock_passed(row["restock_date"], today),
    }


_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS = frozenset(
    {
        "the", "and", "for", "you", "your", "can", "how", "what", "when", "where", "which",
        "with", "does", "did", "are", "was", "get", "got", "our", "this", "that", "have", "has",
        "about", "from",
    }
)  # fmt: skip


def search_faq(
    conn: sqlite3.Connection, query: str | None, lang: str | None, topic: str | None
) -> dict[str, Any]:
    """FAQ articles, best match first, optionally of one language and topic.

    A query is matched per topic across both languages (a Chinese question still finds the
    English article when ``lang=en``); without a query, or when a ``topic`` is given, every
    article that passes the filters is returned, ranked by the query.
    """
    rows = conn.execute("SELECT * FROM faq_articles ORDER BY article_id").fetchall()
    text = (query or "").strip().lower()
    relevance: dict[str, int] = {}
    for row in rows:
        score = _faq_score(row, text) if text else 0
        relevance[row["topic"]] = max(score, relevance.get(row["topic"], 0))
    chosen = [
        row
        for row in rows
        if (lang is None or row["lang"] == lang)
        and (topic is None or row["topic"] == topic)
        and (not text or topic is not None or relevance[row["topic"]] > 0)
    ]
    chosen.sort(key=lambda row: -relevance[row["topic"]])  # stable: article order breaks ties
    return {
        "articles": [
            {
                "article_id": row["article_id"],
                "topic": row["topic"],
                "question": row["question"],
                "answer": row["answer"],
                "lang": row["lang"],
            }
            for row in chosen
        ]
    }


def _faq_score(row: sqlite3.Row, text: str) -> int:
    score = 5 if row["topic"].replace("_", " ") in text else 0
    score += sum(3 for keyword in row["keywords"].lower().split() if keyword in text)
    haystack = f"{row['question']} {row['answer']}".lower()
    words = {w for w in _WORD.findall(text) if len(w) > 2 and w not in _STOPWORDS}
    return score + sum(1 for w in words if w in haystack)
