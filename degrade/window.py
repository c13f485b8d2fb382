"""One sliding time window of named counters: the metrics primitive every breaker and limiter uses.

A :class:`SlidingWindow` splits ``window_s`` seconds into ``buckets`` equal time buckets and keeps
integer counters per label (``"calls"``, ``"transient"``, ``"primary"`` ...) in each. A bucket
leaves the window as a whole, so totals are accurate to one bucket. The window is plain data —
:meth:`to_dict` / :meth:`from_dict` round-trip it through JSON — so a shared store (Redis, a
database row) can hold it for several processes; the circuit breaker, the ratio limiter and
model-tier health all count through it (resilience4j's one ``SlidingTimeWindowMetrics``).

The window is not thread-safe on its own: its owner holds a lock around each read-modify-write.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["SlidingWindow"]


@dataclass(slots=True)
class SlidingWindow:
    """Named counters over the last ``window_s`` seconds, in ``buckets`` time buckets.

    Args:
        window_s: length of the window, seconds (finite, > 0).
        buckets: time buckets in the window (>= 1).
    """

    window_s: float
    buckets: int
    slots: dict[int, dict[str, int]] = field(default_factory=dict)
    """Bucket index (``floor(now / bucket_s)``) -> label -> count; plain data."""

    def __post_init__(self) -> None:
        if not 0 < self.window_s < math.inf:
            raise ValueError(f"window_s must be a finite number > 0, got {self.window_s}")
        if self.buckets < 1:
            raise ValueError(f"buckets must be >= 1, got {self.buckets}")

    @property
    def bucket_s(self) -> float:
        """Seconds per bucket."""
        return self.window_s / self.buckets

    def _index(self, now: float) -> int:
        return math.floor(now / self.bucket_s)

    def _expire(self, now: float) -> None:
        oldest = self._index(now) - self.buckets + 1
        for index in [i for i in self.slots if i < oldest]:
            del self.slots[index]

    def add(self, now: float, label: str, n: int = 1) -> None:
        """Count ``n`` (>= 0) events of ``label`` at time ``now``."""
        if n < 0:
            raise ValueError(f"n must be >= 0, got {n}")
        self._expire(now)
        bucket = self.slots.setdefault(self._index(now), {})
        bucket[label] = bucket.get(label, 0) + n

    def totals(self, now: float) -> Counter[str]:
        """Every label's count over the window ending at ``now``."""
        self._expire(now)
        out: Counter[str] = Counter()
        for bucket in self.slots.values():
            out.update(bucket)
        return out

    def total(self, now: float, label: str) -> int:
        """One label's count over the window ending at ``now``."""
        return self.totals(now)[label]

    def clear(self) -> None:
        """Forget everything."""
        self.slots.clear()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state (bucket indexes as strings)."""
        return {
            "window_s": self.window_s,
            "buckets": self.buckets,
            "slots": {str(i): dict(c) for i, c in self.slots.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SlidingWindow:
        """The window :meth:`to_dict` produced."""
        slots = {int(i): {str(k): int(v) for k, v in c.items()} for i, c in data["slots"].items()}
        return cls(float(data["window_s"]), int(data["buckets"]), slots)
