"""The shop's money endpoint takes an amount only as a finite JSON number > 0 with at most two
decimals; anything else is a 422 naming the field and creates nothing."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import httpx
import pytest

from helpdesk.tools.shop import create_app, ensure_seeded

ORDER = "100609"  # C0001, delivered, partly refunded (¥866 refundable)
HEADERS = {"X-Customer-Id": "C0001", "content-type": "application/json"}


@pytest.fixture
def shop_file(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Path:
    base = tmp_path_factory.getbasetemp() / "money-seed.sqlite"
    if not base.exists():
        ensure_seeded(base)
    target = tmp_path / "shop.sqlite"
    shutil.copy(base, target)
    return target


def _counts(path: Path) -> tuple[int, int, int]:
    with sqlite3.connect(path) as conn:
        return (
            conn.execute("SELECT count(*) FROM refunds").fetchone()[0],
            conn.execute("SELECT count(*) FROM audit_log").fetchone()[0],
            conn.execute("SELECT count(*) FROM idempotency").fetchone()[0],
        )


async def _post(path: Path, raw_amount: str, key: str | None = None) -> httpx.Response:
    transport = httpx.ASGITransport(app=create_app(path))
    headers = {**HEADERS, **({"Idempotency-Key": key} if key else {})}
    async with httpx.AsyncClient(transport=transport, base_url="http://shop") as client:
        return await client.post(
            "/refunds",
            content=f'{{"order_id": "{ORDER}", "amount": {raw_amount}}}',
            headers=headers,
        )


@pytest.mark.parametrize(
    "raw_amount",
    ["1e308", "Infinity", "-Infinity", "NaN", "true", "false", '"12.5"', "-5", "0", "12.345",
     "0.001", "[12]", '{"value": 12}'],
)  # fmt: skip
async def test_refund_amount_that_is_not_a_plain_money_number_is_a_422(
    shop_file: Path, raw_amount: str
) -> None:
    before = _counts(shop_file)
    response = await _post(shop_file, raw_amount, key=f"k-{raw_amount}")
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert [f["path"] for f in error["fields"]] == ["amount"]
    assert _counts(shop_file) == before


@pytest.mark.parametrize(("raw_amount", "cents"), [("12.5", 1250), ("100", 10000), ("0.1", 10)])
async def test_refund_amount_as_a_json_number_is_accepted(
    shop_file: Path, raw_amount: str, cents: int
) -> None:
    response = await _post(shop_file, raw_amount)
    assert response.status_code == 201, response.text
    with sqlite3.connect(shop_file) as conn:
        row = conn.execute(
            "SELECT amount_cents FROM refunds WHERE refund_id = ?", (response.json()["refund_id"],)
        ).fetchone()
    assert row == (cents,)
