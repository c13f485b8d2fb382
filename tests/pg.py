"""The PostgreSQL server the session tests use (127.0.0.1:5432, database test); skip when down."""

from __future__ import annotations

import socket

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
