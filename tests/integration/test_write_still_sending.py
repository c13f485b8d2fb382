"""Two replicas on one session while one of them is still sending a write.

A replica that lost its session lock mid-write (the PostgreSQL connection holding it dropped, with
no Redis), or a turn cut off while its write goes on: the customer's next message is run by another
turn while the first still sends the cancel. Before, that turn verified the write, did not find it
at the shop yet, and told the customer it "did not go through" — the cancel then landed. Now it
waits until the sender could no longer send it, and tells what really happened. Counted in the
shop's audit log.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import build_bot
from helpdesk.degrade.clock import FakeClock
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.graph.session_lock import FileSessionLock
from helpdesk.tools.journal import MemoryWriteJournal
from tests.integration.shopworld import seeded_copy
from tests.integration.test_trust import CUSTOMER, executions


class _WhileWaiting(FakeClock):
    """A shared clock: a long sleep (the other turn waiting for the write) lets ``during`` run
    first — the write the other replica is still sending lands in that time."""

    def __init__(self) -> None:
        super().__init__()
        self.during: Any = None

    async def sleep(self, seconds: float) -> None:
        if seconds >= 1.0 and self.during is not None:
            during, self.during = self.during, None
            await during()
        await super().sleep(seconds)


async def test_a_write_another_replica_is_still_sending_is_never_told_failed(
    tmp_path: Path,
) -> None:
    clock = _WhileWaiting()
    settings = Settings(data_dir=tmp_path, shop_db_path=seeded_copy(tmp_path))
    saver, journal = InMemorySaver(serde=state_serializer()), MemoryWriteJournal()
    a, b = (build_bot(settings, checkpointer=saver, clock=clock, journal=journal) for _ in range(2))
    # B holds a session lock of its own: A's was lost while A goes on sending
    b.session_lock = FileSessionLock(tmp_path / "b-locks", wait_s=1.0, clock=clock)
    try:
        await run_turn(a, "cancel order 100998", session="s", customer=CUSTOMER)
        at_shop, go_on = asyncio.Event(), asyncio.Event()
        real_call = a.client.call

        async def slow_cancel(method: str, path: str, **kwargs: Any) -> Any:
            if method == "POST" and path.endswith("/cancel"):
                at_shop.set()
                await go_on.wait()
            return await real_call(method, path, **kwargs)

        a.client.call = slow_cancel  # type: ignore[method-assign]
        sending = asyncio.create_task(run_turn(a, "yes", session="s", customer=CUSTOMER))
        await at_shop.wait()

        async def the_write_lands() -> None:
            go_on.set()
            await sending

        clock.during = the_write_lands
        told = await run_turn(b, "did my cancel go through?", session="s", customer=CUSTOMER)
        go_on.set()
        await sending
        assert len(await executions(b, "cancel_order")) == 1
        assert "did not go through" not in told["reply"]
        assert "100998" in told["reply"] and "cancel" in told["reply"].lower()
    finally:
        await a.aclose()
        await b.aclose()
