"""Fault injection for drills and tests: deterministic, per-target, time-windowed.

A :class:`ChaosPlan` holds :class:`FaultRule` s (fault kind, rate, target pattern, optional time
window) and decides, per call, whether to inject a fault. Each target draws from its own
:class:`random.Random` seeded from ``(seed, target)``, so a target's schedule is reproducible no
matter how much traffic other targets see. Faults are applied either around any Python callable
(:meth:`ChaosPlan.wrap`, raising the exceptions a real client would) or at the HTTP transport
(:class:`ChaosTransport`, producing real statuses, headers, bodies and httpx timeouts) so the
classifier, retries, breakers and ladder see exactly what production would. "Response lost"
faults *do* execute the call and then lose the answer; "timeout" faults never reach it.
"""

from __future__ import annotations

import fnmatch
import inspect
import json
import random
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import httpx

from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.degrade.errors import BusinessError, RateLimitedError, UnavailableError

__all__ = ["ChaosPlan", "ChaosTransport", "Fault", "FaultRule"]


class Fault(StrEnum):
    """Kinds of injected failure."""

    LATENCY = "latency"
    TIMEOUT = "timeout"
    RESPONSE_LOST = "response_lost"
    CONNECTION_RESET = "connection_reset"
    RATE_LIMITED = "rate_limited"
    UNAVAILABLE = "unavailable"
    SERVER_ERROR = "server_error"
    TRUNCATED_JSON = "truncated_json"
    EMPTY_DATA = "empty_data"
    BUSINESS_ERROR = "business_error"


@dataclass(frozen=True, kw_only=True, slots=True)
class FaultRule:
    """Inject ``fault`` into a fraction ``rate`` of the calls to ``target``."""

    fault: Fault
    """What to inject."""
    rate: float = 1.0
    """Probability per call, in [0, 1]."""
    target: str = "*"
    """Tool name, ``model:<tier>``, or a glob (``*`` = everything)."""
    start_s: float | None = None
    """Active from this many seconds after the plan was created (None = from the start)."""
    end_s: float | None = None
    """Active until this many seconds after the plan was created, exclusive (None = forever)."""
    latency_s: float = 2.0
    """Delay added by ``latency`` faults, seconds."""
    retry_after_s: float = 1.0
    """``Retry-After`` sent with ``rate_limited`` faults, seconds."""
    hang_s: float = 0.0
    """Seconds ``timeout`` and ``response_lost`` faults wait before raising: a real timeout
    takes its time (0: fail at once; the caller's own timeout may end it sooner)."""

    def __post_init__(self) -> None:
        if not isinstance(self.fault, Fault):
            object.__setattr__(self, "fault", Fault(self.fault))
        if not 0 <= self.rate <= 1:
            raise ValueError(f"rate must be in [0, 1], got {self.rate}")
        if not self.target:
            raise ValueError("target must not be empty")
        if self.start_s is not None and self.end_s is not None and self.end_s < self.start_s:
            raise ValueError(f"end_s ({self.end_s}) must be >= start_s ({self.start_s})")
        if self.latency_s < 0:
            raise ValueError(f"latency_s must be >= 0, got {self.latency_s}")
        if self.retry_after_s < 0:
            raise ValueError(f"retry_after_s must be >= 0, got {self.retry_after_s}")
        if self.hang_s < 0:
            raise ValueError(f"hang_s must be >= 0, got {self.hang_s}")

    def matches(self, target: str) -> bool:
        return self.target == target or fnmatch.fnmatchcase(target, self.target)

    def active(self, elapsed_s: float) -> bool:
        if self.start_s is not None and elapsed_s < self.start_s:
            return False
        return not (self.end_s is not None and elapsed_s >= self.end_s)


class ChaosPlan:
    """A reproducible schedule of faults.

    Args:
        rules: checked in order; the first matching, active rule whose draw hits wins.
        seed: base seed; each target gets ``random.Random(f"{seed}:{target}")``.
        clock: time source for rule windows and latency; the system clock when None.
    """

    def __init__(
        self, rules: Sequence[FaultRule] = (), *, seed: int = 0, clock: Clock | None = None
    ) -> None:
        self.rules = tuple(rules)
        self.seed = seed
        self.clock: Clock = clock if clock is not None else SystemClock()
        self._start = self.clock.now()
        self._rngs: dict[str, random.Random] = {}
        self._lock = threading.Lock()
        self.injected: list[tuple[str, Fault]] = []
        """Every fault injected, as ``(target, fault)``, in order."""

    @classmethod
    def simple(
        cls,
        faults: Mapping[str, Mapping[str, float]],
        *,
        seed: int = 0,
        clock: Clock | None = None,
    ) -> ChaosPlan:
        """``ChaosPlan.simple({"check_stock": {"unavailable": 1.0}})``: target -> fault -> rate."""
        rules = [
            FaultRule(fault=Fault(fault), rate=rate, target=target)
            for target, by_fault in faults.items()
            for fault, rate in by_fault.items()
        ]
        return cls(rules, seed=seed, clock=clock)

    def decide(self, target: str) -> FaultRule | None:
        """The fault to inject into this call to ``target``, or None; logged in ``injected``."""
        elapsed = self.clock.now() - self._start
        with self._lock:
            rng = self._rngs.get(target)
            if rng is None:
                rng = self._rngs[target] = random.Random(f"{self.seed}:{target}")
            for rule in self.rules:
                if rule.matches(target) and rule.active(elapsed) and rng.random() < rule.rate:
                    self.injected.append((target, rule.fault))
                    return rule
        return None

    def wrap(
        self, target: str, fn: Callable[..., Any], *, is_write: bool = False
    ) -> Callable[..., Awaitable[Any]]:
        """An async version of ``fn`` (sync or async) with this plan's faults applied.

        ``is_write`` only changes messages: the classifier, told the same, turns a lost response
        on a write into ``unknown_outcome``.
        """

        async def call(*args: Any, **kwargs: Any) -> Any:
            result = fn(*args, **kwargs)
            if inspect.isawaitable(result):
                result = await result
            return result

        async def wrapped(*args: Any, **kwargs: Any) -> Any:
            rule = self.decide(target)
            if rule is None:
                return await call(*args, **kwargs)
            return await self._apply(rule, target, is_write, call, args, kwargs)

        wrapped.__name__ = getattr(fn, "__name__", target)
        wrapped.__doc__ = getattr(fn, "__doc__", None)
        return wrapped

    async def _apply(
        self,
        rule: FaultRule,
        target: str,
        is_write: bool,
        call: Callable[..., Awaitable[Any]],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> Any:
        fault = rule.fault
        what = "write" if is_write else "call"
        if fault is Fault.LATENCY:
            await self.clock.sleep(rule.latency_s)
            return await call(*args, **kwargs)
        if fault is Fault.TIMEOUT:
            if rule.hang_s:
                await self.clock.sleep(rule.hang_s)
            raise TimeoutError(f"{target}: timed out before the {what} was sent (fault injection)")
        if fault is Fault.CONNECTION_RESET:
            raise ConnectionResetError(f"{target}: connection reset by peer (fault injection)")
        if fault is Fault.RATE_LIMITED:
            raise RateLimitedError(
                f"{target}: 429 rate limited (fault injection), "
                f"Retry-After {rule.retry_after_s:g}s",
                retry_after=rule.retry_after_s,
                status_code=429,
                code="rate_limited",
            )
        if fault is Fault.UNAVAILABLE:
            raise UnavailableError(
                f"{target}: 503 service unavailable (fault injection)", status_code=503
            )
        if fault is Fault.SERVER_ERROR:
            raise UnavailableError(
                f"{target}: 500 internal server error (fault injection)", status_code=500
            )
        if fault is Fault.BUSINESS_ERROR:
            raise BusinessError(
                f"{target}: rejected by fault injection", code="chaos_business", status_code=409
            )
        result = await call(*args, **kwargs)
        if fault is Fault.RESPONSE_LOST:
            if rule.hang_s:
                await self.clock.sleep(rule.hang_s)
            raise TimeoutError(
                f"{target}: response lost after the {what} executed (fault injection)"
            )
        if fault is Fault.TRUNCATED_JSON:
            doc = json.dumps(result, default=str)
            raise json.JSONDecodeError("truncated", doc[: len(doc) // 2], len(doc) // 2)
        # Fault.EMPTY_DATA
        return None


_DROPPED_HEADERS = frozenset({"content-length", "content-encoding", "transfer-encoding"})


def _error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


class ChaosTransport(httpx.AsyncBaseTransport):
    """An httpx transport that injects a plan's faults with real HTTP semantics.

    Args:
        inner: the transport that really handles requests (network, ASGI, MockTransport).
        plan: the fault schedule.
        target_of: names a request's target; default ``request.extensions["helpdesk_tool"]``,
            else the URL path.
    """

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport,
        plan: ChaosPlan,
        *,
        target_of: Callable[[httpx.Request], str] | None = None,
    ) -> None:
        self.inner = inner
        self.plan = plan
        self._target_of = target_of or _default_target

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        rule = self.plan.decide(self._target_of(request))
        if rule is None:
            return await self.inner.handle_async_request(request)
        fault = rule.fault
        if fault is Fault.LATENCY:
            await self.plan.clock.sleep(rule.latency_s)
            return await self.inner.handle_async_request(request)
        if fault is Fault.TIMEOUT:
            if rule.hang_s:
                await self.plan.clock.sleep(rule.hang_s)
            raise httpx.ReadTimeout("timed out (fault injection)", request=request)
        if fault is Fault.CONNECTION_RESET:
            raise httpx.ConnectError("connection reset by peer", request=request)
        if fault is Fault.RATE_LIMITED:
            return httpx.Response(
                429,
                headers={"Retry-After": f"{rule.retry_after_s:g}"},
                json=_error_body("rate_limited", "too many requests (fault injection)"),
                request=request,
            )
        if fault is Fault.UNAVAILABLE:
            return httpx.Response(
                503,
                json=_error_body("unavailable", "service unavailable (fault injection)"),
                request=request,
            )
        if fault is Fault.SERVER_ERROR:
            return httpx.Response(
                500,
                json=_error_body("server_error", "internal server error (fault injection)"),
                request=request,
            )
        if fault is Fault.BUSINESS_ERROR:
            return httpx.Response(
                409,
                json=_error_body("chaos_business", "rejected by fault injection"),
                request=request,
            )
        response = await self.inner.handle_async_request(request)
        body = await response.aread()
        await response.aclose()
        if fault is Fault.RESPONSE_LOST:
            if rule.hang_s:
                await self.plan.clock.sleep(rule.hang_s)
            raise httpx.ReadTimeout("response lost (fault injection)", request=request)
        headers = [(k, v) for k, v in response.headers.multi_items() if k not in _DROPPED_HEADERS]
        if fault is Fault.TRUNCATED_JSON:
            return httpx.Response(
                200, headers=headers, content=body[: len(body) // 2], request=request
            )
        # Fault.EMPTY_DATA
        headers = [(k, v) for k, v in headers if k != "content-type"]
        headers.append(("content-type", "application/json"))
        return httpx.Response(200, headers=headers, content=b"{}", request=request)

    async def aclose(self) -> None:
        await self.inner.aclose()


def _default_target(request: httpx.Request) -> str:
    tool = request.extensions.get("helpdesk_tool")
    return str(tool) if tool else request.url.path
