"""Units of the service without a server: tokens, admission, rate limit, progress text."""

from __future__ import annotations

import random

import pytest

from helpdesk.app.service.admission import AdmissionGate, RateLimited, RateLimiter, Shed
from helpdesk.app.service.auth import TokenError, TokenIssuer
from helpdesk.app.service.progress import Progress, render_progress
from helpdesk.degrade.clock import FakeClock

SECRET = "k" * 32


def test_token_issuer_round_trips_the_customer() -> None:
    issuer = TokenIssuer(secret=SECRET)
    assert issuer.verify(issuer.mint("C0001")) == "C0001"


def test_token_issuer_refuses_a_short_secret_and_bad_customer_ids() -> None:
    with pytest.raises(ValueError, match="HELPDESK_TOKEN_SECRET"):
        TokenIssuer(secret="short")
    with pytest.raises(ValueError, match="not a customer id"):
        TokenIssuer(secret=SECRET).mint("C0001; drop table")


def test_token_issuer_expires_tokens_on_its_clock() -> None:
    now = [1_000_000_000.0]
    issuer = TokenIssuer(secret=SECRET, ttl_s=60, clock=lambda: now[0])
    token = issuer.mint("C0001")
    with pytest.raises(TokenError) as exc:
        issuer.verify(token)  # PyJWT checks exp against real time: long expired
    assert exc.value.code == "token_expired"


def test_admission_gate_sheds_past_the_limit_with_jittered_retry_after() -> None:
    gate = AdmissionGate(max_turns=2, max_lag_s=0.5, retry_after_s=2, rng=random.Random(1))
    gate.acquire()
    gate.acquire()
    waits = []
    for _ in range(5):
        with pytest.raises(Shed) as exc:
            gate.acquire()
        assert exc.value.reason == "busy"
        waits.append(exc.value.retry_after_s)
    assert all(2 <= w <= 4 for w in waits) and len(set(waits)) > 1
    gate.release()
    gate.acquire()
    assert (gate.active, gate.peak, gate.shed_total) == (2, 2, 5)


def test_admission_gate_sheds_while_the_loop_lags() -> None:
    lag = [0.9]
    gate = AdmissionGate(max_turns=5, max_lag_s=0.5, lag=lambda: lag[0])
    with pytest.raises(Shed) as exc:
        gate.acquire()
    assert exc.value.reason == "lagging"
    lag[0] = 0.1
    with gate.admit():
        assert gate.active == 1
    assert gate.active == 0


def test_rate_limiter_refills_per_minute() -> None:
    clock = FakeClock()
    limiter = RateLimiter(per_minute=6, burst=2, clock=clock.now)
    limiter.take("C0001")
    limiter.take("C0001")
    with pytest.raises(RateLimited) as exc:
        limiter.take("C0001")
    assert exc.value.retry_after_s == 10
    limiter.take("C0002")
    clock.advance(10)
    limiter.take("C0001")


@pytest.mark.parametrize(
    ("item", "lang", "text"),
    [
        (
            Progress("checking_order", "execute", {"order_id": "100683"}),
            "zh",
            "正在查询订单 100683…",
        ),
        (
            Progress("retrying", "execute", {"tool": "track_shipment"}),
            "en",
            "The logistics service is slow, trying again…",
        ),
        (
            Progress("stale", "execute", {"tool": "check_stock", "age_s": 130.0}),
            "en",
            "The inventory service can't be reached live; showing data from 2 minutes ago",
        ),
        (
            Progress("stale", "execute", {"tool": "get_order", "age_s": 30.0}),
            "zh",
            "订单暂时无法实时查询，显示的是 30 秒前的数据",
        ),
        (
            Progress("unavailable", "execute", {"tool": "mystery"}),
            "en",
            "The backend service is unavailable, trying another way…",
        ),
    ],
)
def test_render_progress_speaks_the_customers_language(
    item: Progress, lang: str, text: str
) -> None:
    assert render_progress(item, lang) == text  # type: ignore[arg-type]


async def test_turn_runner_abort_cancels_a_read_at_once() -> None:
    import asyncio

    from helpdesk.app.service.turns import TurnRunner

    started = asyncio.Event()

    async def slow_read(text: str, session: str, customer: str) -> dict[str, object]:
        started.set()
        await asyncio.sleep(3600)
        return {}

    runner = TurnRunner(slow_read, deadline_s=60)
    running = runner.start("hi", session="s1", customer="C0001")
    await started.wait()
    running.abort("abort")
    outcome = await running.outcome()
    assert (outcome.payload, outcome.aborted, outcome.shielded) == (None, "abort", False)
    assert runner.running == {}


async def test_turn_runner_lets_a_write_on_the_wire_finish_and_reports_it() -> None:
    import asyncio

    from helpdesk.app.service.progress import current_watch
    from helpdesk.app.service.turns import TurnRunner

    on_wire = asyncio.Event()
    release = asyncio.Event()

    async def write(text: str, session: str, customer: str) -> dict[str, object]:
        watch = current_watch.get()
        assert watch is not None
        watch.enter_write_stage()
        on_wire.set()
        await release.wait()
        watch.leave_write_stage()
        return {"reply": "done"}

    runner = TurnRunner(write, deadline_s=60)
    running = runner.start("yes", session="s1", customer="C0001")
    await on_wire.wait()
    running.abort("disconnect")
    assert not running.task.done()
    release.set()
    outcome = await running.outcome()
    assert (outcome.payload, outcome.aborted, outcome.shielded) == (
        {"reply": "done"},
        "disconnect",
        True,
    )


async def test_turn_runner_refuses_a_second_turn_on_the_session_and_aborts_at_deadline() -> None:
    import asyncio

    from helpdesk.app.service.turns import TurnInProgressError, TurnRunner

    async def hang(text: str, session: str, customer: str) -> dict[str, object]:
        await asyncio.sleep(3600)
        return {}

    runner = TurnRunner(hang, deadline_s=0.05)
    running = runner.start("a", session="s1", customer="C0001")
    with pytest.raises(TurnInProgressError):
        runner.start("b", session="s1", customer="C0001")
    outcome = await running.outcome()
    assert outcome.aborted == "deadline"


class _FlakyLock:
    """A session lock whose store drops out: renewals fail twice, the release fails."""

    renew_every_s = 0.001

    def __init__(self) -> None:
        import asyncio

        self.renewals = 0
        self.renewed_after_the_blip = asyncio.Event()

    async def acquire(self, session: str) -> str | None:
        return "token"

    async def renew(self, session: str, token: str) -> bool:
        self.renewals += 1
        if self.renewals <= 2:
            raise ConnectionError("lock store unreachable")
        self.renewed_after_the_blip.set()
        return True

    async def release(self, session: str, token: str) -> None:
        raise ConnectionError("lock store unreachable")


async def test_turn_runner_keeps_a_finished_turn_and_its_lock_renewals_through_a_store_blip() -> (
    None
):
    """A lock store down when the turn ends used to turn its answer (its write done) into an
    error; a renewal that failed once stopped renewing for the rest of the turn."""
    from helpdesk.app.service.turns import TurnRunner

    lock = _FlakyLock()

    async def write(text: str, session: str, customer: str) -> dict[str, object]:
        await lock.renewed_after_the_blip.wait()
        return {"reply": "Order 100998 has been cancelled."}

    runner = TurnRunner(write, deadline_s=60, lock=lock)
    outcome = await runner.start("yes", session="s1", customer="C0001").outcome()
    assert outcome.payload == {"reply": "Order 100998 has been cancelled."}
    assert lock.renewals >= 3
