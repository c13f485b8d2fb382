"""Resilience core: failure taxonomy, retry budget, breakers, throttling, last-good cache,
ladder, chaos.

Pure and fast: no LangGraph or LangChain import. Time and randomness are injected.
"""

from helpdesk.degrade.backoff import FullJitterBackoff
from helpdesk.degrade.breaker import (
    BreakerBoard,
    BreakerPolicy,
    BreakerState,
    BreakerTransition,
    CircuitBreaker,
)
from helpdesk.degrade.budget import RatioLimiter, RetryBudget
from helpdesk.degrade.cache import CachedValue, LastGoodCache
from helpdesk.degrade.chaos import ChaosPlan, ChaosTransport, Fault, FaultRule
from helpdesk.degrade.clock import Clock, FakeClock, SystemClock
from helpdesk.degrade.context import (
    DegradeContext,
    DegradeEvent,
    LadderStep,
    PendingItem,
    merge_degrade,
)
from helpdesk.degrade.errors import (
    AuthError,
    BusinessError,
    ErrorClass,
    Failure,
    FieldIssue,
    RateLimitedError,
    SchemaError,
    ToolError,
    ToolInputError,
    TransientError,
    UnavailableError,
    UnknownOutcomeError,
    classify_failure,
    is_retryable,
    parse_retry_after,
)
from helpdesk.degrade.ladder import LadderGuard, LadderOptions, plan_ladder
from helpdesk.degrade.throttle import AdaptiveThrottle, ThrottleBoard, ThrottlePolicy

__all__ = [
    "AdaptiveThrottle",
    "AuthError",
    "BreakerBoard",
    "BreakerPolicy",
    "BreakerState",
    "BreakerTransition",
    "BusinessError",
    "CachedValue",
    "ChaosPlan",
    "ChaosTransport",
    "CircuitBreaker",
    "Clock",
    "DegradeContext",
    "DegradeEvent",
    "ErrorClass",
    "Failure",
    "FakeClock",
    "Fault",
    "FaultRule",
    "FieldIssue",
    "FullJitterBackoff",
    "LadderGuard",
    "LadderOptions",
    "LadderStep",
    "LastGoodCache",
    "PendingItem",
    "RateLimitedError",
    "RatioLimiter",
    "RetryBudget",
    "SchemaError",
    "SystemClock",
    "ThrottleBoard",
    "ThrottlePolicy",
    "ToolError",
    "ToolInputError",
    "TransientError",
    "UnavailableError",
    "UnknownOutcomeError",
    "classify_failure",
    "is_retryable",
    "merge_degrade",
    "parse_retry_after",
    "plan_ladder",
]
