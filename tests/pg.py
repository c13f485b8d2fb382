"""The PostgreSQL server the session tests use (127.0.0.1:5432, database test); skip when down.

Tests that purge or list sessions run in a schema of their own (:func:`isolated_pg_url`), so they
never see — or delete — the sessions of other tests sharing the server.
"""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def postgres_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=0.5):
            return True
    except OSError:
        return False


needs_postgres = pytest.mark.skipif(
    not postgres_up(), reason="PostgreSQL at 127.0.0.1:5432 is not reachable"
)


@contextmanager
def isolated_pg_url() -> Iterator[str]:
    """A URL of the test database whose tables live in a fresh schema (dropped afterwards)."""
    import psycopg

    schema = f"hd_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            # a connection the test left in a transaction would hold the drop for ever (after a
            # timeout the suite must go on): the schema is left behind instead, named in the error
            conn.execute("SET lock_timeout = '30s'")
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
