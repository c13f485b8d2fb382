"""What replicas share, set up from the settings: Redis-backed breakers, retry ratio, session
owners, session locks and per-session counters when ``HELPDESK_REDIS_URL`` is set; nothing (the
in-process defaults) otherwise."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from helpdesk.app.service.directory import SessionDirectory
from helpdesk.app.service.turns import SessionLock
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import breaker_policy
from helpdesk.degrade.breaker import BreakerBoard
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.degrade.shared import SharedBreakerBoard, SharedRatioLimiter

__all__ = ["ReplicaState", "open_replica_state"]


@dataclass
class ReplicaState:
    """What replicas share (all None in one process: the in-memory defaults)."""

    clock: Clock
    shared: Any = None
    breakers: BreakerBoard | None = None
    retry_cap: RatioLimiter | None = None
    directory: SessionDirectory | None = None
    lock: SessionLock | None = None
    counters: Any = None


@contextlib.asynccontextmanager
async def open_replica_state(settings: Settings) -> AsyncIterator[ReplicaState]:
    """Redis-backed breakers, retry ratio, session owners and locks when ``redis_url`` is set."""
    clock = SystemClock()
    if not settings.redis_url:
        yield ReplicaState(clock=clock)
        return
    from redis.asyncio import Redis

    from helpdesk.app.service.shared import (
        RedisSessionCounters,
        RedisSessionDirectory,
        RedisSessionLock,
        RedisShared,
    )

    client = Redis.from_url(settings.redis_url)
    prefix = settings.redis_prefix
    shared = RedisShared(client, prefix=prefix, wall=clock.wall)
    retry_cap = SharedRatioLimiter(
        sync=shared,
        ratio=settings.retry_ratio,
        reserve_per_s=settings.retry_reserve_per_s,
        clock=clock,
    )
    shared.limiter = retry_cap
    await shared.sync_once()  # fails start-up loudly when Redis is unreachable
    try:
        yield ReplicaState(
            clock=clock,
            shared=shared,
            breakers=SharedBreakerBoard(breaker_policy(settings), clock, sync=shared),
            retry_cap=retry_cap,
            directory=RedisSessionDirectory(client, prefix=prefix),
            lock=RedisSessionLock(client, prefix=prefix),
            counters=RedisSessionCounters(shared),
        )
    finally:
        await shared.aclose()
