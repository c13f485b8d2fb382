"""Full-jitter exponential backoff as a tenacity wait strategy.

``delay(n) = uniform(0, min(cap, base * 2 ** (n - 1)))`` for attempt ``n`` (1-based): the AWS
"full jitter" scheme, which spreads retries of many clients evenly instead of letting them
re-synchronise. The random source is injected so schedules are reproducible in tests, and the
class is a :class:`tenacity.wait.wait_base`, so it composes with tenacity's other strategies
(``+``) and plugs into ``tenacity.AsyncRetrying(wait=...)``. Whether a retry happens at all is
the :class:`~helpdesk.degrade.budget.RetryBudget`'s call, not this module's.
"""

from __future__ import annotations

import random

from tenacity import RetryCallState
from tenacity.wait import wait_base

__all__ = ["FullJitterBackoff"]


class FullJitterBackoff(wait_base):
    """Wait ``uniform(0, min(cap, base * 2 ** (attempt - 1)))`` seconds before a retry.

    Args:
        base: ceiling of the first wait, seconds (> 0).
        cap: largest ceiling ever used, seconds (>= base).
        rng: random source; a fresh unseeded :class:`random.Random` when None.
    """

    def __init__(
        self, *, base: float = 0.5, cap: float = 4.0, rng: random.Random | None = None
    ) -> None:
        if not base > 0:
            raise ValueError(f"base must be > 0, got {base}")
        if not cap >= base:
            raise ValueError(f"cap must be >= base ({base}), got {cap}")
        self.base = base
        self.cap = cap
        self.rng = rng if rng is not None else random.Random()

    def ceiling(self, attempt: int) -> float:
        """Upper bound of the wait after ``attempt`` (1-based)."""
        if attempt < 1:
            raise ValueError(f"attempt must be >= 1, got {attempt}")
        # Compare exponents first: base * 2 ** 10_000 would overflow a float.
        if attempt - 1 >= 64:
            return self.cap
        return min(self.cap, self.base * 2.0 ** (attempt - 1))

    def delay(self, attempt: int) -> float:
        """A random wait in ``[0, ceiling(attempt)]``."""
        return self.rng.uniform(0, self.ceiling(attempt))

    def delay_from_half(self, attempt: int) -> float:
        """A random wait in ``[ceiling(attempt) / 2, ceiling(attempt)]`` (AWS's "equal
        jitter"): for a refusal that says the server is full *now* (a 503), where a retry in
        the first few milliseconds would find it as full."""
        ceiling = self.ceiling(attempt)
        return self.rng.uniform(ceiling / 2, ceiling)

    def __call__(self, retry_state: RetryCallState) -> float:
        return self.delay(retry_state.attempt_number)

    def __repr__(self) -> str:
        return f"FullJitterBackoff(base={self.base!r}, cap={self.cap!r})"
