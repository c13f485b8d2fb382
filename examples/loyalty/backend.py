"""The loyalty programme's fake backend: members, vouchers, store credit, and an audit log.

In-process and deterministic. Writes honour an idempotency key (the same key returns the
stored outcome and executes nothing), and every execution is appended to :attr:`audit`, so
tests count exactly how often a write or a money movement really happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["POINTS_PER_YUAN", "AuditEntry", "LoyaltyBackend", "LoyaltyError"]

POINTS_PER_YUAN = 100
"""100 points convert into ¥1.00 of store credit."""


class LoyaltyError(Exception):
    """A business "no" from the programme (unknown voucher, not enough points...)."""

    def __init__(self, code: str, message: str, **data: Any) -> None:
        super().__init__(message)
        self.code = code
        self.data = data


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One executed write: which operation, for whom, with what, under which key."""

    op: str
    customer: str
    args: dict[str, Any]
    key: str | None


@dataclass
class _Member:
    points: int
    credit: float = 0.0
    vouchers: list[str] = field(default_factory=list)


def _seed() -> dict[str, _Member]:
    return {"C0001": _Member(points=1250), "C0002": _Member(points=80)}


@dataclass
class LoyaltyBackend:
    """Members by customer id, voucher codes with their value, outcomes by idempotency key."""

    members: dict[str, _Member] = field(default_factory=_seed)
    vouchers: dict[str, int] = field(
        default_factory=lambda: {"V-SPRING": 300, "V-WELCOME": 100, "V-GOLD88": 888}
    )
    """Voucher code -> points it adds (each code once per member)."""
    audit: list[AuditEntry] = field(default_factory=list)
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Idempotency key -> {"ok": bool, "response": ...} of the write that used it."""

    def member(self, customer: str | None) -> _Member:
        if customer is None or customer not in self.members:
            raise LoyaltyError("not_a_member", f"{customer} is not a member")
        return self.members[customer]

    def balance(self, customer: str | None) -> dict[str, Any]:
        m = self.member(customer)
        return {"points": m.points, "credit": round(m.credit, 2), "vouchers": list(m.vouchers)}

    def executions(self, op: str) -> int:
        return sum(1 for e in self.audit if e.op == op)

    def _once(
        self, key: str | None, op: str, customer: str | None, args: dict[str, Any], run: Any
    ) -> dict[str, Any]:
        if key is not None and key in self.outcomes:
            stored = self.outcomes[key]
            if not stored["ok"]:
                raise LoyaltyError(stored["code"], stored["message"])
            return dict(stored["response"])
        try:
            response = run()
        except LoyaltyError as exc:
            if key is not None:
                self.outcomes[key] = {"ok": False, "code": exc.code, "message": str(exc)}
            raise
        self.audit.append(AuditEntry(op=op, customer=str(customer), args=dict(args), key=key))
        if key is not None:
            self.outcomes[key] = {"ok": True, "response": response}
        return dict(response)

    def redeem(self, customer: str | None, code: str, key: str | None) -> dict[str, Any]:
        code = code.upper()

        def run() -> dict[str, Any]:
            m = self.member(customer)
            if code not in self.vouchers:
                raise LoyaltyError("unknown_voucher", f"voucher {code} does not exist")
            if code in m.vouchers:
                raise LoyaltyError("already_redeemed", f"voucher {code} was already redeemed")
            m.vouchers.append(code)
            m.points += self.vouchers[code]
            return {"code": code, "added": self.vouchers[code], "points": m.points}

        return self._once(key, "redeem", customer, {"code": code}, run)

    def convert(self, customer: str | None, points: int, key: str | None) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            m = self.member(customer)
            if points <= 0 or points % POINTS_PER_YUAN:
                raise LoyaltyError("bad_points", f"points must be a multiple of {POINTS_PER_YUAN}")
            if points > m.points:
                raise LoyaltyError("not_enough_points", f"only {m.points} points available")
            m.points -= points
            credit = round(points / POINTS_PER_YUAN, 2)
            m.credit = round(m.credit + credit, 2)
            return {
                "points_used": points,
                "credit": credit,
                "points": m.points,
                "credit_balance": m.credit,
            }

        return self._once(key, "convert", customer, {"points": points}, run)

    def outcome(self, key: str) -> dict[str, Any] | None:
        """What the write with ``key`` did (None: it never arrived)."""
        return self.outcomes.get(key)
