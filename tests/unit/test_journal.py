"""The write journal: the same behaviour in memory, in SQLite and in PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
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


async def test_journal_keeps_until_when_a_write_may_be_sent_and_renews_it_on_a_resend(
    journal: WriteJournal,
) -> None:
    session = f"s-{uuid.uuid4().hex}"
    key = f"k4-{session}"
    await journal.begin(entry(session, key, sending_until=1009.0))
    await journal.settle(key, "unknown", at=1005.0)
    await journal.begin(entry(session, key, started_at=1020.0, sending_until=1029.0))
    [again] = await journal.unsettled(session)
    assert (again.state, again.sending_until) == ("sent", 1029.0)
    await journal.delete_session(session)


async def test_journal_a_write_told_unknown_then_settled_is_to_be_told_again(
    journal: WriteJournal,
) -> None:
    # another process settles what this one told the customer it could not know yet
    session = f"s-{uuid.uuid4().hex}"
    told, quiet = f"k5-{session}", f"k6-{session}"
    for key in (told, quiet):
        await journal.begin(entry(session, key))
    await journal.settle(told, "unknown", at=1001.0)
    await journal.mark_reported(told)
    await journal.settle(told, "executed", at=1002.0, result={"refund_id": "R-000001"})
    await journal.settle(quiet, "executed", at=1002.0)
    await journal.mark_reported(quiet)
    assert [(e.key, e.state, e.reported) for e in await journal.to_report(session)] == [
        (told, "executed", False)
    ]
    await journal.settle(told, "executed", at=1003.0)  # settled again: nothing more to tell
    await journal.mark_reported(told)
    assert await journal.to_report(session) == []
    await journal.delete_session(session)


def test_sqlite_journal_made_before_the_sending_bound_gets_it(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as old:
        old.execute(
            "CREATE TABLE helpdesk_write_journal (key TEXT PRIMARY KEY, session TEXT NOT NULL,"
            " customer TEXT, tool TEXT NOT NULL, args TEXT NOT NULL, kind TEXT NOT NULL,"
            " confirmation_id TEXT, state TEXT NOT NULL, started_at DOUBLE PRECISION NOT NULL,"
            " settled_at DOUBLE PRECISION, result TEXT NOT NULL,"
            " reported INTEGER NOT NULL DEFAULT 0)"
        )
        old.execute(
            "INSERT INTO helpdesk_write_journal VALUES"
            " ('k0', 's0', 'C0001', 'cancel_order', '{}', 'write', NULL, 'sent', 1.0, NULL,"
            " '{}', 0)"
        )
    journal = SqliteWriteJournal(path)
    try:
        [kept] = asyncio.run(journal.unsettled("s0"))
        assert (kept.key, kept.sending_until) == ("k0", None)
        asyncio.run(journal.begin(entry("s1", "k1", sending_until=9.0)))
        assert [e.sending_until for e in asyncio.run(journal.entries("s1"))] == [9.0]
    finally:
        journal.close()


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
def test_a_postgres_journal_start_fails_when_another_transaction_holds_its_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A transaction left open on the journal table (a stuck replica, a console) made a new
    replica's start wait for ever; it now fails with PostgreSQL's lock timeout."""
    import psycopg

    from helpdesk.tools import journal_sql

    monkeypatch.setattr(journal_sql, "PG_SETUP_LOCK_TIMEOUT_MS", 200)
    with isolated_pg_url() as url:
        PostgresWriteJournal(url).close()
        with psycopg.connect(url) as holder:
            holder.execute("LOCK TABLE helpdesk_write_journal IN ACCESS EXCLUSIVE MODE")
            with pytest.raises(psycopg.errors.LockNotAvailable):
                PostgresWriteJournal(url)
            holder.rollback()
        PostgresWriteJournal(url).close()


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
