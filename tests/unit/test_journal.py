"""The write journal: the same behaviour in memory, in SQLite and in PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from helpdesk.tools.journal import JournalEntry, MemoryWriteJournal, WriteJournal
from helpdesk.tools.journal_sql import PostgresWriteJournal, SqliteWriteJournal
from tests.pg import isolated_pg_url, needs_postgres

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def _postgres() -> PostgresWriteJournal:
    try:
        return PostgresWriteJournal(PG_URL)
    except Exception as exc:  # pragma: no cover - the server runs here and in CI
        pytest.skip(f"PostgreSQL at {PG_URL} is not reachable: {exc}")


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def journal(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[WriteJournal]:
    if request.param == "memory":
        yield MemoryWriteJournal()
    elif request.param == "sqlite":
        sqlite = SqliteWriteJournal(tmp_path / "journal.sqlite")
        yield sqlite
        sqlite.close()
    else:
        pg = _postgres()
        yield pg
        pg.close()


def entry(session: str, key: str, **kw: object) -> JournalEntry:
    fields: dict[str, object] = {
        "key": key,
        "session": session,
        "customer": "C0001",
        "tool": "request_refund",
        "args": {"order_id": "100609", "amount": 100.0},
        "kind": "money",
        "confirmation_id": "c-1",
        "started_at": 1000.0,
    }
    fields.update(kw)
    return JournalEntry(**fields)  # type: ignore[arg-type]


async def test_journal_write_sent_but_never_settled_is_unsettled(journal: WriteJournal) -> None:
    session = f"s-{uuid.uuid4().hex}"
    await journal.begin(entry(session, f"k1-{session}"))
    unsettled = await journal.unsettled(session)
    assert [(e.key, e.state, e.args, e.confirmation_id) for e in unsettled] == [
        (f"k1-{session}", "sent", {"amount": 100.0, "order_id": "100609"}, "c-1")
    ]
    await journal.delete_session(session)


async def test_journal_settled_write_is_not_reopened_by_a_second_begin(
    journal: WriteJournal,
) -> None:
    session = f"s-{uuid.uuid4().hex}"
    key = f"k2-{session}"
    await journal.begin(entry(session, key))
    await journal.settle(key, "executed", at=1005.0, result={"refund_id": "R-000200"})
    await journal.begin(entry(session, key, started_at=2000.0))
    assert await journal.unsettled(session) == []
    [done] = await journal.entries(session)
    assert (done.state, done.settled_at, done.result) == (
        "executed",
        1005.0,
        {"refund_id": "R-000200"},
    )
    await journal.delete_session(session)


async def test_journal_executed_since_finds_the_customers_recent_money(
    journal: WriteJournal,
) -> None:
    session = f"s-{uuid.uuid4().hex}"
    customer = f"C-{session}"
    await journal.begin(entry(session, f"old-{session}", customer=customer, started_at=10.0))
    await journal.settle(f"old-{session}", "executed", at=10.0)
    await journal.begin(entry(session, f"new-{session}", customer=customer, started_at=500.0))
    await journal.settle(f"new-{session}", "executed", at=500.0)
    await journal.begin(entry(session, f"refused-{session}", customer=customer))
    await journal.settle(f"refused-{session}", "refused", at=600.0)
    found = await journal.executed_since(customer, "request_refund", 100.0)
    assert [e.key for e in found] == [f"new-{session}"]
    assert await journal.delete_session(session) == 3
    assert await journal.entries(session) == []


async def test_journal_unknown_stays_unsettled_until_reported_and_known(
    journal: WriteJournal,
) -> None:
    session = f"s-{uuid.uuid4().hex}"
    key = f"k3-{session}"
    await journal.begin(entry(session, key))
    await journal.settle(key, "unknown", at=1001.0)
    await journal.mark_reported(key)
    [still] = await journal.unsettled(session)
    assert (still.state, still.reported, still.settled_at) == ("unknown", True, None)
    await journal.delete_session(session)


def test_journal_keeps_ids_and_amounts_never_customer_text() -> None:
    from helpdesk.tools.journal import journal_args, journal_result

    text = "Please call me on 13800138000, I live at 88 Nanjing Road, Shanghai, flat 1201."
    args = journal_args({"order_id": "100609", "amount": 100.0, "description": text})
    assert args["order_id"] == "100609" and args["amount"] == 100.0
    assert args["description"].startswith("sha256:")
    assert "13800138000" not in str(args)
    assert journal_args({"description": text}) == journal_args({"description": text})
    result = journal_result(
        {"ticket_id": "T-000001", "status": "open", "description": text, "phone": "13800138000"}
    )
    assert result == {"ticket_id": "T-000001", "status": "open"}


@needs_postgres
def test_postgres_journals_opened_together_on_a_new_database_all_start() -> None:
    """Replicas starting at once used to race on CREATE TABLE (a unique violation in pg_type)."""
    from concurrent.futures import ThreadPoolExecutor

    with isolated_pg_url() as url:
        with ThreadPoolExecutor(max_workers=8) as pool:
            journals = list(pool.map(lambda _: PostgresWriteJournal(url), range(8)))
        for opened in journals:
            opened.close()


@needs_postgres
async def test_postgres_journal_outlives_a_connection_the_server_dropped() -> None:
    """A Postgres restart or failover drops the journal's connection: the next call opens a new
    one (it used to fail every turn of the replica until the process was restarted)."""
    import psycopg

    journal = _postgres()
    try:
        session = f"s-{uuid.uuid4().hex}"
        await journal.begin(entry(session, f"k1-{session}"))
        pid = journal._conn.info.backend_pid
        with psycopg.connect(PG_URL, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        await journal.settle(f"k1-{session}", "executed", at=1001.0)
        assert [(e.key, e.state) for e in await journal.entries(session)] == [
            (f"k1-{session}", "executed")
        ]
        assert journal._conn.info.backend_pid != pid
    finally:
        journal.close()
