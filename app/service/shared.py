"""Replica-shared state in Redis: breakers, the fleet's retry ratio, session owners and locks.

``helpdesk serve`` replicas that share ``HELPDESK_REDIS_URL`` see one breaker per dependency
(a breaker opened through one replica refuses on the others), cap retries across the fleet, know
every session's owner, and run one turn per session at a time across replicas. Decisions never
wait on Redis: breakers and the retry ratio read a mirror that :meth:`RedisShared.run_forever`
refreshes every ``sync_s``; this replica's own transitions go out at once (fire and forget).
Without Redis every replica keeps the in-process defaults.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from redis.asyncio import Redis

from helpdesk.degrade.breaker import BreakerState, BreakerTransition
from helpdesk.degrade.budget import RatioLimiter

__all__ = [
    "RedisSessionCounters",
    "RedisSessionDirectory",
    "RedisSessionLock",
    "RedisShared",
    "replica_id",
]

log = logging.getLogger("helpdesk.service.shared")

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""


def replica_id() -> str:
    """This process's name among the replicas."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class RedisShared:
    """Breaker and retry-ratio state shared through Redis (a :class:`BreakerSync` and a
    :class:`RatioSync`).

    Args:
        client: the Redis client.
        prefix: key prefix (several deployments can share one Redis).
        replica: this replica's id.
        sync_s: how often the mirror is refreshed.
        wall: wall-clock seconds.
    """

    def __init__(
        self,
        client: Redis,
        *,
        prefix: str,
        replica: str | None = None,
        sync_s: float = 0.25,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.prefix = prefix
        self.replica = replica or replica_id()
        self.sync_s = sync_s
        self._wall = wall
        self._open: dict[str, float] = {}
        self._others: tuple[int, int] = (0, 0)
        self.limiter: RatioLimiter | None = None
        """This replica's retry limiter, whose counts are published for the others."""
        self._pending: set[asyncio.Task[None]] = set()

    # -------------------------------------------------------------------- BreakerSync

    def open_until(self, name: str) -> float | None:
        return self._open.get(name)

    def publish(self, transition: BreakerTransition, open_until: float | None) -> None:
        name = transition.name
        if transition.to_state is BreakerState.OPEN and open_until is not None:
            self._open[name] = open_until
            value = json.dumps({"until": open_until, "replica": self.replica})
            self._spawn(self.client.hset(self._key("breakers"), name, value))
        elif transition.to_state is BreakerState.CLOSED:
            self._open.pop(name, None)
            self._spawn(self.client.hdel(self._key("breakers"), name))

    # -------------------------------------------------------------------- RatioSync

    def others(self) -> tuple[int, int]:
        return self._others

    # -------------------------------------------------------------------- sync loop

    async def sync_once(self) -> None:
        """Publish this replica's counts; refresh the mirror of breakers and the others'
        counts."""
        now = self._wall()
        if self.limiter is not None:
            snap = self.limiter.snapshot()
            mine = {"primary": snap["primary"], "secondary": snap["secondary"], "at": now}
            await self.client.hset(self._key("ratio"), self.replica, json.dumps(mine))
        breakers = await self.client.hgetall(self._key("breakers"))
        fresh: dict[str, float] = {}
        for raw_name, raw in breakers.items():
            until = float(json.loads(raw)["until"])
            if until > now:
                fresh[_text(raw_name)] = until
        self._open = fresh
        window = self.limiter.window_s if self.limiter is not None else 10.0
        primary = secondary = 0
        for replica, raw in (await self.client.hgetall(self._key("ratio"))).items():
            counts = json.loads(raw)
            if _text(replica) == self.replica or now - float(counts["at"]) > window:
                continue
            primary += int(counts["primary"])
            secondary += int(counts["secondary"])
        self._others = (primary, secondary)

    async def run_forever(self) -> None:
        while True:
            try:
                await self.sync_once()
            except Exception as exc:  # Redis down: keep the last mirror, say so once per tick
                log.warning("replica state sync failed: %r", exc)
            await asyncio.sleep(self.sync_s)

    async def ping(self) -> None:
        await self.client.ping()

    async def aclose(self) -> None:
        for task in list(self._pending):
            task.cancel()
        await self.client.hdel(self._key("ratio"), self.replica)
        await self.client.aclose()

    def _key(self, name: str) -> str:
        return f"{self.prefix}:{name}"

    def _spawn(self, coro: Any) -> None:
        try:
            task = asyncio.get_running_loop().create_task(coro)
        except RuntimeError:  # no loop (a sync caller): the next sync tick carries it
            coro.close()
            return
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisSessionDirectory:
    """Session -> owner in a Redis hash (a :class:`SessionDirectory`)."""

    def __init__(self, client: Redis, *, prefix: str) -> None:
        self.client = client
        self.key = f"{prefix}:sessions"

    async def bind(self, session: str, customer: str) -> None:
        await self.client.hset(self.key, session, customer)

    async def owner(self, session: str) -> str | None:
        value = await self.client.hget(self.key, session)
        return None if value is None else _text(value)


class RedisSessionLock:
    """One turn per session across replicas: ``SET NX PX`` with a token, renewed while the
    turn runs, so a killed replica's lock frees itself after ``ttl_s``."""

    def __init__(self, client: Redis, *, prefix: str, ttl_s: float = 5.0) -> None:
        self.client = client
        self.prefix = prefix
        self.ttl_ms = int(ttl_s * 1000)

    def _key(self, session: str) -> str:
        return f"{self.prefix}:lock:{session}"

    async def acquire(self, session: str) -> str | None:
        """A token when the lock was taken, None when another turn holds it."""
        token = uuid.uuid4().hex
        taken = await self.client.set(self._key(session), token, nx=True, px=self.ttl_ms)
        return token if taken else None

    async def renew(self, session: str, token: str) -> bool:
        return bool(await self.client.eval(_RENEW, 1, self._key(session), token, self.ttl_ms))

    async def release(self, session: str, token: str) -> None:
        await self.client.eval(_RELEASE, 1, self._key(session), token)

    @property
    def renew_every_s(self) -> float:
        return self.ttl_ms / 3000


class RedisSessionCounters(MutableMapping[str, int]):
    """Per-session counters (rate-limited batches) shared by replicas.

    Reads are served from a mirror that :meth:`load` fills for a session before its turn runs
    (the turn's replica may not have served the session before); writes update the mirror and
    go to Redis at once (fire and forget), expiring after ``ttl_s`` idle.
    """

    def __init__(self, shared: RedisShared, *, ttl_s: int = 3600) -> None:
        self.shared = shared
        self.ttl_s = ttl_s
        self._mirror: dict[str, int] = {}

    def _key(self, session: str) -> str:
        return f"{self.shared.prefix}:serial:{session}"

    async def load(self, session: str) -> None:
        value = await self.shared.client.get(self._key(session))
        if value is None:
            self._mirror.pop(session, None)
        else:
            self._mirror[session] = int(value)

    def __getitem__(self, session: str) -> int:
        return self._mirror[session]

    def __setitem__(self, session: str, value: int) -> None:
        self._mirror[session] = value
        self.shared._spawn(self.shared.client.set(self._key(session), value, ex=self.ttl_s))

    def __delitem__(self, session: str) -> None:
        del self._mirror[session]
        self.shared._spawn(self.shared.client.delete(self._key(session)))

    def __iter__(self) -> Iterator[str]:
        return iter(self._mirror)

    def __len__(self) -> int:
        return len(self._mirror)
