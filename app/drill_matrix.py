"""The expected degrade path of every fault kind against every drilled tool and model tier.

One table, shared by ``helpdesk drill --matrix`` and ``tests/integration/test_fault_matrix.py``.
A cell is a :class:`DrillCell` (target, fault, variant); :func:`expected_path` says what must
happen in it: the :class:`~helpdesk.tools.results.ToolResult` status, the recorded error class,
the ladder steps, a fragment of the recorded reason, for writes how many times the shop's audit
log saw the write execute, and which :class:`ReplyCheck` s the customer's reply must pass.
:class:`ToolProbe` says how each tool is exercised: its arguments for a direct executor call and
the customer messages that make a whole bot turn call it. Variants beyond the plain (``cold``)
cell: ``warm`` (the read answered once before the fault, so the last-good cache serves it) and
``verify_lost`` (a write whose verification read fails too, so its outcome stays unknown).
Model cells (``model:primary``, ``model:backup``) are rows of the same matrix. The drilled tools
are the demo shop's and the loyalty pack's (``examples/loyalty``: a read, a write and a money
capability), under the same faults and the same table; where a fault is injected (the shop's
HTTP transport, or around an in-process pack's call) only changes the reason wording and, for a
500 on a write, whether anything was sent (:func:`expected_path`).

Over 400 lines on purpose: it is one table (probes, the path of every fault per tool kind, the
model rows) that the drill, the tests and a reader take in as a whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Final, Literal

from helpdesk.degrade.chaos import Fault
from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass
from helpdesk.tools.executor import DEFAULT_MAX_ATTEMPTS
from helpdesk.tools.results import ToolStatus

__all__ = [
    "CALL_REASONS",
    "MODEL_PATHS",
    "MODEL_PROBE",
    "MODEL_TARGETS",
    "MONEY_PATHS",
    "READ_PATHS",
    "TOOL_PROBES",
    "VARIANTS",
    "WRITE_PATHS",
    "DrillCell",
    "ExpectedModelPath",
    "ExpectedPath",
    "ReplyCheck",
    "ToolProbe",
    "Variant",
    "default_reply_checks",
    "expected_model_path",
    "expected_path",
    "matrix_cells",
]

R, P, D, F, C, H, X = (
    LadderStep.RETRY,
    LadderStep.PARAMETER,
    LadderStep.DATA,
    LadderStep.FUNCTION,
    LadderStep.CHAIN,
    LadderStep.HANDOFF,
    LadderStep.RECONCILE,
)
E = ErrorClass
S = ToolStatus

RETRIES: Final = (R,) * (DEFAULT_MAX_ATTEMPTS - 1)
"""The retries a retried call makes before its next ladder step (``tool_max_attempts`` - 1)."""

Variant = Literal["cold", "warm", "verify_lost"]
VARIANTS: Final[tuple[Variant, ...]] = ("cold", "warm", "verify_lost")


class ReplyCheck(StrEnum):
    """A property the customer's reply must have in a cell."""

    ANSWERED = "answered"
    """Non-empty, and the validator found no violation."""
    STALE_NOTICE = "stale_notice"
    """Says the data is cached and may not be up to date."""
    SELF_SERVICE = "self_service"
    """Points to self-service and the hotline."""
    NO_INVENTED_DATA = "no_invented_data"
    """No identifier or amount that the customer did not give and no tool returned live."""
    SUCCESS_CLAIM_TRUE = "success_claim_true"
    """Says the write went through, and the shop's audit log shows it executed."""
    NO_SUCCESS_CLAIM = "no_success_claim"
    """Never says the write went through."""
    UNKNOWN_WITH_TICKET = "unknown_with_ticket"
    """Says the outcome is unknown and names the compensation ticket."""
    NOT_NO_ORDERS = "not_no_orders"
    """A failed order lookup is never "you have no orders"."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ExpectedPath:
    """What must happen to a tool call in one cell."""

    status: ToolStatus
    """Final ``ToolResult.status``."""
    error_class: ErrorClass | None
    """Recorded error class (None when nothing failed for good)."""
    ladder: tuple[LadderStep, ...]
    """Ladder steps, in order."""
    reason: str
    """Fragment of the recorded reason ('' = nothing to find); also in a degrade event when the
    ladder is not empty."""
    executions: int | None = None
    """Writes: executions in the shop's audit log for the call's idempotency key."""
    reply: frozenset[ReplyCheck] | None = None
    """Checks on the reply; None = :func:`default_reply_checks` of the tool kind and status."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolProbe:
    """How one built-in tool is exercised in drills and tests."""

    tool: str
    kind: Literal["read", "write", "money"]
    args: Mapping[str, Any]
    """Arguments for a direct ``executor.run`` call (confirmed when the tool needs it)."""
    messages: tuple[str, ...]
    """Customer messages of a whole-bot cell; the last one makes the bot call ``tool``."""
    order_id: str | None = None
    """The order the call is about (checked against the shop's truth)."""
    pack: str = "shop"
    """The capability pack the tool comes from. The shop's faults are injected at its HTTP
    transport; another pack's around the tool call itself (its backend is in-process), so the
    recorded reasons name the injected fault instead of an HTTP status (:data:`CALL_REASONS`)."""
    fallback: bool = True
    """A read: the tool has a function fallback (a self-service pointer). Without one, the
    ladder's last rung for a failed read is the handoff (a ticket), not the fallback."""


TOOL_PROBES: Final[Mapping[str, ToolProbe]] = {
    p.tool: p
    for p in (
        ToolProbe(
            tool="get_order",
            kind="read",
            args={"order_id": "100683"},
            messages=("订单100683现在什么状态",),
            order_id="100683",
        ),
        ToolProbe(tool="list_orders", kind="read", args={"limit": 5}, messages=("我的订单",)),
        ToolProbe(
            tool="track_shipment",
            kind="read",
            args={"order_id": "100683"},
            messages=("订单100683物流到哪了",),
            order_id="100683",
        ),
        ToolProbe(
            tool="check_stock", kind="read", args={"sku": "SKU-1001"}, messages=("SKU-1001有货吗",)
        ),
        ToolProbe(
            tool="search_products", kind="read", args={"q": "耳机"}, messages=("耳机有货吗",)
        ),
        ToolProbe(
            tool="get_ticket",
            kind="read",
            args={"ticket_id": "T-000031"},
            messages=("T-000031处理得怎么样了",),
        ),
        ToolProbe(
            tool="list_tickets", kind="read", args={"limit": 5}, messages=("我的工单有进展吗",)
        ),
        ToolProbe(
            tool="list_refunds", kind="read", args={"limit": 5}, messages=("我的退款到哪了",)
        ),
        ToolProbe(
            tool="search_faq",
            kind="read",
            args={"topic": "returns", "lang": "en"},
            messages=("退货政策是什么",),
        ),
        ToolProbe(
            tool="create_ticket",
            kind="write",
            args={"subject": "Broken screen", "description": "Cracked", "order_id": "100683"},
            messages=("订单100683的耳机坏了，我要售后",),
            order_id="100683",
        ),
        ToolProbe(
            tool="cancel_order",
            kind="write",
            args={"order_id": "100998"},
            messages=("取消订单100998", "是"),
            order_id="100998",
        ),
        ToolProbe(
            tool="request_refund",
            kind="money",
            args={"order_id": "100609"},
            messages=("订单100609退款", "是"),
            order_id="100609",
        ),
        ToolProbe(
            tool="handoff_to_human",
            kind="write",
            args={"summary": "Customer wants a person"},
            messages=("转人工",),
        ),
        # the loyalty pack (examples/loyalty): a read, a write and a money capability
        ToolProbe(
            tool="points_balance",
            kind="read",
            args={},
            messages=("我有多少积分",),
            pack="loyalty",
            fallback=False,
        ),
        ToolProbe(
            tool="redeem_voucher",
            kind="write",
            args={"code": "V-SPRING"},
            messages=("please redeem voucher V-SPRING",),
            pack="loyalty",
        ),
        ToolProbe(
            tool="convert_points",
            kind="money",
            args={"points": 500},
            messages=("把500积分换成购物金", "是"),
            pack="loyalty",
        ),
    )
}
"""Every drilled tool — the demo shop's and the loyalty pack's — with its direct-call arguments
and its whole-bot messages."""

# fault -> path, for every read tool (cold cache)
READ_PATHS: Final[Mapping[Fault, ExpectedPath]] = {
    Fault.LATENCY: ExpectedPath(status=S.OK, error_class=None, ladder=(), reason=""),
    # a timed-out read is retried at once up to tool_max_attempts while the budget grants it
    Fault.TIMEOUT: ExpectedPath(
        status=S.DEGRADED, error_class=E.TRANSIENT, ladder=(*RETRIES, F), reason="timed out"
    ),
    Fault.RESPONSE_LOST: ExpectedPath(
        status=S.DEGRADED, error_class=E.TRANSIENT, ladder=(*RETRIES, F), reason="timed out"
    ),
    Fault.CONNECTION_RESET: ExpectedPath(
        status=S.DEGRADED, error_class=E.TRANSIENT, ladder=(*RETRIES, F), reason="cannot connect"
    ),
    Fault.RATE_LIMITED: ExpectedPath(
        status=S.DEGRADED, error_class=E.RATE_LIMITED, ladder=(*RETRIES, F), reason="429 from GET"
    ),
    # the cell's 503 comes from a tool that served nothing in the last 10 s: an outage, not a
    # blip, so no retry (a blip from a tool that is serving is retried once: test_throttle)
    Fault.UNAVAILABLE: ExpectedPath(
        status=S.DEGRADED, error_class=E.UNAVAILABLE, ladder=(F,), reason="503 from GET"
    ),
    Fault.SERVER_ERROR: ExpectedPath(
        status=S.DEGRADED, error_class=E.UNAVAILABLE, ladder=(F,), reason="500 from GET"
    ),
    # a body cut off in transit: the same read once more (the fault persists here)
    Fault.TRUNCATED_JSON: ExpectedPath(
        status=S.DEGRADED, error_class=E.SCHEMA, ladder=(R, F), reason="not valid JSON"
    ),
    Fault.EMPTY_DATA: ExpectedPath(
        status=S.DEGRADED, error_class=E.SCHEMA, ladder=(F,), reason="empty response"
    ),
    Fault.BUSINESS_ERROR: ExpectedPath(
        status=S.FAILED, error_class=E.BUSINESS, ladder=(), reason="409 from GET"
    ),
}

# fault -> path, for idempotent writes
WRITE_PATHS: Final[Mapping[Fault, ExpectedPath]] = {
    Fault.LATENCY: ExpectedPath(status=S.OK, error_class=None, ladder=(), reason="", executions=1),
    Fault.TIMEOUT: ExpectedPath(
        status=S.FAILED,
        error_class=E.UNKNOWN_OUTCOME,
        ladder=(X,),
        reason="no response",
        executions=0,
    ),
    Fault.RESPONSE_LOST: ExpectedPath(
        status=S.OK, error_class=None, ladder=(X,), reason="", executions=1
    ),
    Fault.CONNECTION_RESET: ExpectedPath(
        status=S.FAILED,
        error_class=E.TRANSIENT,
        ladder=(*RETRIES, H),
        reason="cannot connect",
        executions=0,
    ),
    Fault.RATE_LIMITED: ExpectedPath(
        status=S.FAILED,
        error_class=E.RATE_LIMITED,
        ladder=(*RETRIES, H),
        reason="429 from POST",
        executions=0,
    ),
    Fault.UNAVAILABLE: ExpectedPath(
        status=S.FAILED,
        error_class=E.UNAVAILABLE,
        ladder=(H,),
        reason="503 from POST",
        executions=0,
    ),
    # a 500 on a write may come after the write ran: reconciled by key, found not done
    Fault.SERVER_ERROR: ExpectedPath(
        status=S.FAILED,
        error_class=E.UNKNOWN_OUTCOME,
        ladder=(X,),
        reason="500 from POST",
        executions=0,
    ),
    Fault.TRUNCATED_JSON: ExpectedPath(
        status=S.OK, error_class=None, ladder=(X,), reason="", executions=1
    ),
    Fault.EMPTY_DATA: ExpectedPath(
        status=S.OK, error_class=None, ladder=(X,), reason="", executions=1
    ),
    Fault.BUSINESS_ERROR: ExpectedPath(
        status=S.FAILED, error_class=E.BUSINESS, ladder=(), reason="409 from POST", executions=0
    ),
}

# Money is never retried automatically: no retry, no replay after reconciliation.
MONEY_PATHS: Final[Mapping[Fault, ExpectedPath]] = {
    **WRITE_PATHS,
    Fault.CONNECTION_RESET: ExpectedPath(
        status=S.FAILED,
        error_class=E.TRANSIENT,
        ladder=(H,),
        reason="cannot connect",
        executions=0,
    ),
    Fault.RATE_LIMITED: ExpectedPath(
        status=S.FAILED,
        error_class=E.RATE_LIMITED,
        ladder=(H,),
        reason="429 from POST",
        executions=0,
    ),
}

# A write whose response AND verification are lost: nothing can establish what happened.
_VERIFY_LOST: Final[Mapping[Fault, ExpectedPath]] = {
    Fault.TIMEOUT: ExpectedPath(
        status=S.UNKNOWN,
        error_class=E.UNKNOWN_OUTCOME,
        ladder=(X, H),
        reason="no response",
        executions=0,
    ),
    Fault.RESPONSE_LOST: ExpectedPath(
        status=S.UNKNOWN,
        error_class=E.UNKNOWN_OUTCOME,
        ladder=(X, H),
        reason="no response",
        executions=1,
    ),
}


CALL_REASONS: Final[Mapping[Fault, str]] = {
    Fault.CONNECTION_RESET: "connection reset",
    Fault.RATE_LIMITED: "429 rate limited",
    Fault.UNAVAILABLE: "503 service unavailable",
    Fault.SERVER_ERROR: "500 internal server error",
    Fault.BUSINESS_ERROR: "rejected by fault injection",
}
"""Reason fragments of the faults injected around a tool call (a pack whose backend is
in-process) where they differ from the shop's HTTP wording; the other faults read the same."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ExpectedModelPath:
    """What must happen when a model tier fails in one cell."""

    switched: bool
    """A ``model`` ladder event names the tier (the next tier answered)."""
    error_class: ErrorClass | None
    """Error class recorded on that event."""
    reason: str = ""
    """Fragment of the event's reason."""
    reply: frozenset[ReplyCheck] = field(default_factory=lambda: frozenset({ReplyCheck.ANSWERED}))


MODEL_TARGETS: Final[tuple[str, ...]] = ("model:primary", "model:backup")
"""Model tiers as matrix rows (``minimal`` is offline and cannot fail this way)."""

MODEL_PROBE: Final[tuple[str, ...]] = ("What is the status of order 100683?",)
"""Messages of a model cell: any turn makes every configured tier take part."""

MODEL_PATHS: Final[Mapping[Fault, ExpectedModelPath]] = {
    Fault.LATENCY: ExpectedModelPath(switched=False, error_class=None),
    Fault.TIMEOUT: ExpectedModelPath(switched=True, error_class=E.TRANSIENT),
    Fault.RESPONSE_LOST: ExpectedModelPath(switched=True, error_class=E.TRANSIENT),
    Fault.CONNECTION_RESET: ExpectedModelPath(switched=True, error_class=E.TRANSIENT),
    Fault.RATE_LIMITED: ExpectedModelPath(switched=True, error_class=E.RATE_LIMITED),
    Fault.UNAVAILABLE: ExpectedModelPath(switched=True, error_class=E.UNAVAILABLE),
    Fault.SERVER_ERROR: ExpectedModelPath(switched=True, error_class=E.UNAVAILABLE),
    Fault.TRUNCATED_JSON: ExpectedModelPath(switched=True, error_class=E.SCHEMA),
    Fault.EMPTY_DATA: ExpectedModelPath(switched=True, error_class=E.SCHEMA),
    Fault.BUSINESS_ERROR: ExpectedModelPath(switched=True, error_class=E.BUSINESS),
}


@dataclass(frozen=True, kw_only=True, slots=True)
class DrillCell:
    """One row of the matrix: inject ``fault`` into every call to ``target``."""

    target: str
    """A built-in tool name or ``model:<tier>``."""
    fault: Fault
    variant: Variant = "cold"

    @property
    def is_model(self) -> bool:
        return self.target.startswith("model:")

    @property
    def id(self) -> str:
        suffix = "" if self.variant == "cold" else f"[{self.variant}]"
        return f"{self.target}:{self.fault}{suffix}"


def _warm(path: ExpectedPath) -> ExpectedPath:
    """With last-good data in the cache, the data rung answers where the fallback would."""
    if F not in path.ladder:
        return path
    ladder = tuple(D if step is F else step for step in path.ladder)
    return replace(path, status=S.STALE, ladder=ladder)


def _without_fallback(path: ExpectedPath) -> ExpectedPath:
    """With no function fallback, a failed read is handed off (a ticket) instead."""
    if F not in path.ladder:
        return path
    ladder = tuple(H if step is F else step for step in path.ladder)
    return replace(path, status=S.FAILED, ladder=ladder)


def _at_call(path: ExpectedPath, fault: Fault, probe: ToolProbe) -> ExpectedPath:
    """The path when ``fault`` is injected around the tool call instead of at HTTP."""
    if fault is Fault.SERVER_ERROR and path.error_class is E.UNKNOWN_OUTCOME:
        # Around a call, the 500 is raised before the call runs (nothing was sent), so there
        # is nothing to reconcile: the same path as a 503.
        path = (MONEY_PATHS if probe.kind == "money" else WRITE_PATHS)[Fault.UNAVAILABLE]
    reason = CALL_REASONS.get(fault)
    return replace(path, reason=reason) if reason and path.reason else path


def _declared(tool: str, fault: Fault, variant: Variant) -> ExpectedPath | None:
    probe = TOOL_PROBES[tool]
    if probe.kind == "read":
        if variant == "verify_lost":
            return None
        path = READ_PATHS[fault]
        path = _warm(path) if variant == "warm" else path
        return path if probe.fallback else _without_fallback(path)
    if variant == "warm":
        return None
    if variant == "verify_lost":
        return _VERIFY_LOST.get(fault)
    return (MONEY_PATHS if probe.kind == "money" else WRITE_PATHS)[fault]


def expected_path(tool: str, fault: Fault, variant: Variant = "cold") -> ExpectedPath | None:
    """The declared path of a tool cell; None when the variant does not apply to it."""
    path = _declared(tool, fault, variant)
    probe = TOOL_PROBES[tool]
    if path is None or probe.pack == "shop":
        return path
    return _at_call(path, fault, probe)


def expected_model_path(fault: Fault) -> ExpectedModelPath:
    return MODEL_PATHS[fault]


def default_reply_checks(kind: str, tool: str, path: ExpectedPath) -> frozenset[ReplyCheck]:
    """The reply checks a path implies (the rule behind every cell without its own)."""
    checks = {ReplyCheck.ANSWERED}
    is_read = kind == "read"
    if path.status is S.STALE:
        checks.add(ReplyCheck.STALE_NOTICE)
    elif path.status is S.DEGRADED and F in path.ladder:
        checks |= {ReplyCheck.SELF_SERVICE, ReplyCheck.NO_INVENTED_DATA}
    elif path.status is S.UNKNOWN:
        checks |= {ReplyCheck.UNKNOWN_WITH_TICKET, ReplyCheck.NO_SUCCESS_CLAIM}
    elif path.status is S.FAILED:
        checks.add(ReplyCheck.NO_INVENTED_DATA if is_read else ReplyCheck.NO_SUCCESS_CLAIM)
    elif path.status is S.OK and not is_read:
        checks.add(ReplyCheck.SUCCESS_CLAIM_TRUE)
    if tool == "list_orders" and path.status is not S.OK:
        checks.add(ReplyCheck.NOT_NO_ORDERS)
    return frozenset(checks)


def matrix_cells(
    *,
    tools: Iterable[str] | None = None,
    faults: Iterable[Fault] | None = None,
    variants: Iterable[Variant] = VARIANTS,
    models: Iterable[str] = MODEL_TARGETS,
) -> list[DrillCell]:
    """Every applicable cell: tools x faults x variants, then model tiers x faults."""
    chosen_faults = list(faults) if faults is not None else list(Fault)
    chosen_variants = list(variants)
    cells = [
        DrillCell(target=tool, fault=fault, variant=variant)
        for tool in (tools if tools is not None else TOOL_PROBES)
        for fault in chosen_faults
        for variant in chosen_variants
        if expected_path(tool, fault, variant) is not None
    ]
    cells += [DrillCell(target=m, fault=f) for m in models for f in chosen_faults]
    return cells
