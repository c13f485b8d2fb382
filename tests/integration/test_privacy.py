"""Privacy at rest: what a customer types that the bot must never keep, and what it encrypts.

Card, ID-card and bank numbers are masked when a message is received, so they are nowhere: not in
the SQLite or PostgreSQL checkpoint data, the logs, the events file, the write journal or the
tickets sent to the shop. Phone numbers and addresses a ticket needs are kept, but with
``HELPDESK_CHECKPOINT_KEY`` the checkpoints hold them encrypted, and without the key (or with
another one) the sessions cannot be read.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpdesk.app.observe import Observer
from helpdesk.app.privacy import (
    CheckpointKeyMissingError,
    checkpoint_key,
    require_checkpoint_key,
)
from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import build_bot
from helpdesk.graph.checkpoint import CheckpointKeyError, open_checkpointer
from tests.integration.shopworld import seeded_copy
from tests.pg import isolated_pg_url, needs_postgres

CARD = "4111 1111 1111 1111"
ID_CARD = "11010519491231002X"
ACCOUNT = "6222 0212 3456 7890 123"
SECRETS = ("4111111111111111", CARD, ID_CARD, "6222021234567890123", ACCOUNT)
PHONE = "13812345678"

CONVERSATION = (
    f"talk to a human please, my card {CARD} was charged twice, call me on {PHONE}",
    f"我的身份证号是{ID_CARD}，退款请打到银行卡 {ACCOUNT}",
    f"订单100609退款，卡号{CARD}",
)

BACKENDS = [
    pytest.param(False, id="sqlite"),
    pytest.param(True, id="postgres", marks=needs_postgres),
]


@pytest.fixture
def url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None (SQLite) or a PostgreSQL URL in a schema of the test's own."""
    if not request.param:
        yield None
        return
    with isolated_pg_url() as schema_url:
        yield schema_url


def _files_text(folder: Path, pattern: str) -> str:
    """Every byte of the matching files, as text (SQLite pages, WAL, JSONL)."""
    return "".join(
        p.read_bytes().decode("utf-8", "replace") for p in folder.glob(pattern) if p.is_file()
    )


async def _pg_rows(url: str, session: str, *, journal: bool = True) -> str:
    import psycopg

    async with await psycopg.AsyncConnection.connect(url) as conn:
        parts = []
        for sql in (
            "SELECT checkpoint::text, metadata::text FROM checkpoints WHERE thread_id = %s",
            "SELECT channel, type, blob FROM checkpoint_blobs WHERE thread_id = %s",
            "SELECT channel, type, blob FROM checkpoint_writes WHERE thread_id = %s",
        ):
            cur = await conn.execute(sql, (session,))
            for row in await cur.fetchall():
                parts += [
                    bytes(v).decode("utf-8", "replace")
                    if isinstance(v, bytes | memoryview)
                    else str(v)
                    for v in row
                ]
        if journal:
            cur = await conn.execute(
                "SELECT args, result FROM helpdesk_write_journal WHERE session = %s", (session,)
            )
            parts += [str(v) for row in await cur.fetchall() for v in row]
    return "\n".join(parts)


async def _converse(
    tmp: Path, url: str | None, key: str | None, caplog: pytest.LogCaptureFixture
) -> tuple[str, list[dict[str, Any]]]:
    settings = Settings(
        data_dir=tmp, shop_db_path=seeded_copy(tmp), checkpoint_url=url, checkpoint_key=key
    )
    session = f"pv-{uuid.uuid4().hex[:8]}"
    observer = Observer(events_path=tmp / "events.jsonl")
    payloads = []
    caplog.set_level(logging.DEBUG)
    async with open_checkpointer(
        url=url, path=settings.sessions_file, key=checkpoint_key(settings)
    ) as saver:
        bot = build_bot(settings, checkpointer=saver, observer=observer)
        try:
            for text in CONVERSATION:
                payloads.append(await run_turn(bot, text, session=session, customer="C0001"))
        finally:
            await bot.aclose()
            observer.close()
    return session, payloads


def _tickets(tmp: Path) -> str:
    with sqlite3.connect(tmp / "shop.sqlite") as conn:
        rows = conn.execute("SELECT * FROM tickets WHERE customer_id = 'C0001'").fetchall()
    return "\n".join(str(r) for r in rows)


@pytest.mark.parametrize("url", BACKENDS, indirect=True)
async def test_typed_card_and_id_numbers_are_stored_nowhere(
    tmp_path: Path, url: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    session, payloads = await _converse(tmp_path, url, None, caplog)
    stored = _files_text(tmp_path, "sessions.sqlite*") + _files_text(tmp_path, "journal.sqlite*")
    if url:
        stored += await _pg_rows(url, session)
    tickets = _tickets(tmp_path)
    places = {
        "checkpoints and journal": stored,
        "logs": caplog.text,
        "events": _files_text(tmp_path, "events.jsonl"),
        "tickets": tickets,
        "replies": "\n".join(p["reply"] for p in payloads),
    }
    assert "[card]" in tickets and PHONE in tickets  # the ticket got the message, masked
    assert "[card]" in stored and "[id]" in stored and "[account]" in stored
    for where, text in places.items():
        for secret in SECRETS:
            assert secret not in text, f"{secret!r} found in {where}"


@pytest.mark.parametrize("url", BACKENDS, indirect=True)
async def test_encrypted_checkpoints_hold_no_phone_in_clear(
    tmp_path: Path, url: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    key = secrets.token_hex(32)
    session, _ = await _converse(tmp_path, url, key, caplog)
    stored = _files_text(tmp_path, "sessions.sqlite*")
    if url:
        stored = await _pg_rows(url, session, journal=False)
    assert "msgpack+aes" in stored  # the scan sees the (encrypted) rows
    assert PHONE not in stored and "call me on" not in stored


@pytest.mark.parametrize("url", BACKENDS, indirect=True)
async def test_plain_checkpoints_would_show_the_phone(
    tmp_path: Path, url: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    """The scan above can see a phone number when the store is not encrypted."""
    session, _ = await _converse(tmp_path, url, None, caplog)
    stored = _files_text(tmp_path, "sessions.sqlite*")
    if url:
        stored += await _pg_rows(url, session)
    assert PHONE in stored


@pytest.mark.parametrize("url", BACKENDS, indirect=True)
async def test_encrypted_sessions_cannot_be_read_without_the_key(
    tmp_path: Path, url: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    key = secrets.token_hex(32)
    session, _ = await _converse(tmp_path, url, key, caplog)
    config = {"configurable": {"thread_id": session}}
    path = tmp_path / "sessions.sqlite"
    async with open_checkpointer(url=url, path=path) as saver:
        with pytest.raises(CheckpointKeyError, match="set HELPDESK_CHECKPOINT_KEY"):
            await saver.aget_tuple(config)
    other = bytes.fromhex(secrets.token_hex(32))
    async with open_checkpointer(url=url, path=path, key=other) as saver:
        with pytest.raises(CheckpointKeyError, match="another HELPDESK_CHECKPOINT_KEY"):
            await saver.aget_tuple(config)
    async with open_checkpointer(url=url, path=path, key=bytes.fromhex(key)) as saver:
        stored = await saver.aget_tuple(config)
    assert stored is not None
    messages = stored.checkpoint["channel_values"]["messages"]
    assert PHONE in messages[0].content and "[card]" in messages[0].content


def test_require_checkpoint_key_refuses_service_mode_without_one(tmp_path: Path) -> None:
    with pytest.raises(CheckpointKeyMissingError, match="set HELPDESK_CHECKPOINT_KEY"):
        require_checkpoint_key(Settings(data_dir=tmp_path))
    key = secrets.token_hex(32)
    assert require_checkpoint_key(Settings(data_dir=tmp_path, checkpoint_key=key)) == (
        bytes.fromhex(key)
    )


def test_settings_refuse_a_malformed_checkpoint_key(tmp_path: Path) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="HELPDESK_CHECKPOINT_KEY must be 32 random bytes"):
        Settings(data_dir=tmp_path, checkpoint_key="too-short")
