"""Last-good cache: the most recent successful read of a tool, served stale when the tool fails.

Built on :class:`cachetools.TLRUCache` so each entry carries its own time-to-live (per-tool
``cache_ttl``) and the cache stays bounded (LRU eviction at ``maxsize``); time comes from the
injected clock. Keys normalise the call — argument order, surrounding whitespace in strings and
``None`` arguments do not matter — and always include the customer, so one customer's data is
never served to another. This cache stores whatever it is given: deciding that only successful
*reads* are stored (never writes, never errors) is the executor's job. :meth:`LastGoodCache.get`
reports the entry's age so the reply can say the data may not be real-time.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cachetools import TLRUCache

from helpdesk.degrade.clock import Clock

__all__ = ["CachedValue", "LastGoodCache"]


@dataclass(frozen=True, slots=True)
class CachedValue:
    """A cached response and how old it is."""

    value: Any
    """The stored response."""
    stored_at: float
    """Wall-clock time it was stored (epoch seconds)."""
    age_s: float
    """Seconds since it was stored (monotonic)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    value: Any
    stored_mono: float
    stored_wall: float
    expires: float


def _ttu(_key: str, entry: _Entry, _now: float) -> float:
    return entry.expires


def _normalize(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, Mapping):
        return {str(k): _normalize(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_normalize(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((_normalize(v) for v in value), key=repr)
    return value


class LastGoodCache:
    """Per-tool TTL cache of last good responses, keyed by tool, normalised args and customer.

    Args:
        clock: time source (its ``now`` is the TTL timer).
        maxsize: entries kept before the least recently used is evicted.
    """

    def __init__(self, *, clock: Clock, maxsize: int = 10_000) -> None:
        if maxsize < 1:
            raise ValueError(f"maxsize must be >= 1, got {maxsize}")
        self._clock = clock
        self._cache: TLRUCache[str, _Entry] = TLRUCache(maxsize=maxsize, ttu=_ttu, timer=clock.now)
        self._lock = threading.Lock()

    @staticmethod
    def key(tool: str, args: Mapping[str, Any], customer: str | None) -> str:
        """Stable key: sorted JSON of tool, customer and args (strings stripped, None dropped)."""
        payload = {"tool": tool.strip(), "customer": customer, "args": _normalize(args)}
        return json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)

    def put(
        self,
        tool: str,
        args: Mapping[str, Any],
        customer: str | None,
        value: Any,
        ttl_s: float,
    ) -> None:
        """Store ``value`` for ``ttl_s`` seconds; ``ttl_s <= 0`` means the tool is not cached."""
        if not ttl_s > 0:
            return
        now = self._clock.now()
        entry = _Entry(value, now, self._clock.wall(), now + ttl_s)
        key = self.key(tool, args, customer)
        with self._lock:
            self._cache[key] = entry

    def get(self, tool: str, args: Mapping[str, Any], customer: str | None) -> CachedValue | None:
        """The last good value if it has not expired, with its age; None otherwise."""
        key = self.key(tool, args, customer)
        with self._lock:
            entry = self._cache.get(key)
        if entry is None:
            return None
        return CachedValue(entry.value, entry.stored_wall, self._clock.now() - entry.stored_mono)

    def invalidate(self, tool: str, args: Mapping[str, Any], customer: str | None) -> None:
        """Forget one entry (e.g. after a write changed what it describes)."""
        key = self.key(tool, args, customer)
        with self._lock:
            self._cache.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()

    def __len__(self) -> int:
        with self._lock:
            self._cache.expire()
            return len(self._cache)
