"""The oracle: judges each reply against the demo shop's truth and its audit log.

For every :class:`~helpdesk.app.bench.workload.Expectation` of a turn, the sentences of the reply
that name the order or SKU must either state the truth (the order's real status, a real tracking
number of the order, in/out of stock as the shop says; for a cancel, a claim that matches the
audit log) or carry an explicit honesty notice ("can't check ... right now", "can't confirm
yet", "may not be up to date"). A *false claim* is a statement the truth contradicts: a status
other than the real one, a tracking number or ticket that does not exist, "couldn't find order"
for an existing order, "cancelled" when no cancel executed, or "can't be cancelled" when one
did. Data served stale with a staleness notice is judged honest whatever it says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import httpx

from helpdesk.app.bench.workload import Expectation
from helpdesk.tools.shop_client import ShopClient

__all__ = ["ItemVerdict", "TurnVerdict", "duplicate_writes", "judge_turn"]

_STATUS_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "pending": ("pending", "awaiting payment"),
    "paid": ("is paid", " paid ", "paid,", "paid.", "waiting to ship"),
    "shipped": ("shipped", "in transit"),
    "delivered": ("delivered",),
    "cancelled": ("cancelled", "canceled"),
}
_HONEST: Final = (
    "can't check",
    "couldn't check",
    "cannot check",
    "can't look up",
    "can't load",
    "can't provide",
    "not available",
    "unavailable",
    "not completed",
    "not handled yet",
    "may not be up to date",
    "may not be real-time",
    "try again",
    "returned an error",
    "is busy",
    "system is busy",
)
_UNKNOWN_WRITE: Final = (
    "can't confirm",
    "couldn't confirm",
    "could not confirm",
    "cannot confirm",
    "being verified",
    "outcome unknown",
)
_REFUSED_WRITE: Final = (
    "can't be cancelled",
    "cannot be cancelled",
    "can no longer be cancelled",
    "could not cancel",
    "couldn't cancel",
    "did not go through",
    "didn't go through",
    "nothing was changed",
)
_DONE_WRITE: Final = ("has been cancelled", "was cancelled", "is cancelled", "is now cancelled")
_ASKS_CONFIRMATION: Final = ('"yes"', "confirm")
_STALE: Final = "may not be up to date"
_TRACKING: Final = re.compile(r"\b(?:SF|YT)\d{10}\b")
_TICKET: Final = re.compile(r"\bT-\d{6}\b")
_SENTENCE: Final = re.compile(r"[^.!?\n]+(?:[.!?]+|$)")


@dataclass(frozen=True, slots=True)
class ItemVerdict:
    """The judgement of one expectation."""

    kind: str
    key: str
    answered: bool
    """The reply states the truth for it (live, or stale with a notice)."""
    honest: bool
    """Either answered, or an explicit notice that it could not be done / is unknown."""
    false_claims: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnVerdict:
    """The judgement of one reply."""

    items: tuple[ItemVerdict, ...]
    false_claims: tuple[str, ...] = ()
    error: str | None = None
    """The system raised instead of replying."""

    @property
    def correct_or_honest(self) -> bool:
        return self.error is None and not self.false_claims and all(i.honest for i in self.items)

    @property
    def answered(self) -> bool:
        return self.error is None and not self.false_claims and all(i.answered for i in self.items)


@dataclass
class _Truth:
    client: ShopClient
    customer: str
    cache: dict[str, Any] = field(default_factory=dict)

    async def get(self, path: str) -> Any:
        if path not in self.cache:
            response = await self.client.http.get(path, headers={"X-Customer-Id": self.customer})
            self.cache[path] = response.json() if response.status_code == 200 else None
        return self.cache[path]

    async def cancels(self, order_id: str) -> list[dict[str, Any]]:
        entries = await self.get("/audit?limit=1000")
        return [
            e
            for e in (entries or {}).get("entries", [])
            if "cancel" in str(e.get("action", "")) and str(e.get("target")) == order_id
        ]


def _sentences_about(reply: str, key: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(reply) if key in s]


def _has(text: str, phrases: Iterable[str]) -> bool:
    low = text.lower()
    return any(p in low for p in phrases)


def _status_claims(text: str) -> set[str]:
    padded = f" {text.lower()} "
    return {status for status, words in _STATUS_WORDS.items() if any(w in padded for w in words)}


async def _judge_status(truth: _Truth, key: str, reply: str) -> ItemVerdict:
    order = await truth.get(f"/orders/{key}")
    about = " ".join(_sentences_about(reply, key))
    honest_notice = _has(about, _HONEST)
    claims: list[str] = []
    real = str(order.get("status")) if order else None
    stated = _status_claims(about)
    answered = real is not None and real in stated
    if real is not None and stated and real not in stated and _STALE not in about.lower():
        claims.append(f"order {key}: says {sorted(stated)}, the shop says {real}")
    if real is not None and re.search(rf"(?:couldn't|could not|can't) find order {key}", about):
        claims.append(f"order {key}: says it does not exist")
    return ItemVerdict("status", key, answered, answered or honest_notice, tuple(claims))


async def _judge_tracking(truth: _Truth, key: str, reply: str) -> ItemVerdict:
    data = await truth.get(f"/orders/{key}/tracking")
    real = {str(s.get("tracking_number")) for s in (data or {}).get("shipments", [])}
    sentences = _sentences_about(reply, key)
    about = " ".join(sentences)
    # a tracking line may follow the sentence naming the order ("Tracking for order X: ...")
    mentioned = set(_TRACKING.findall(reply))
    answered = bool(real & mentioned) if real else "hasn't shipped" in about.lower()
    honest_notice = _has(about, _HONEST)
    claims: list[str] = []
    if real is not None and re.search(rf"(?:couldn't|could not|can't) find order {key}", about):
        claims.append(f"order {key}: says it does not exist")
    return ItemVerdict("tracking", key, answered, answered or honest_notice, tuple(claims))


async def _judge_stock(truth: _Truth, key: str, reply: str) -> ItemVerdict:
    data = await truth.get(f"/inventory/{key}")
    about = " ".join(_sentences_about(reply, key)).lower()
    claims: list[str] = []
    answered = False
    if data is not None:
        in_stock = int(data.get("total_available", 0)) > 0
        says_out = "out of stock" in about or "sold out" in about
        says_in = "in stock" in about.replace("out of stock", "") or bool(
            re.search(r"\d+ available", about)
        )
        answered = (says_in and not says_out) if in_stock else says_out
        wrong = (says_out and in_stock) or (says_in and not says_out and not in_stock)
        if wrong and _STALE not in about:
            claims.append(f"{key}: stock stated wrongly (available={in_stock})")
    honest_notice = _has(about, _HONEST)
    return ItemVerdict("stock", key, answered, answered or honest_notice, tuple(claims))


async def _judge_cancel(truth: _Truth, key: str, reply: str, *, confirm: bool) -> ItemVerdict:
    entries = await truth.cancels(key)
    executed = any(200 <= int(e.get("status_code", 0)) < 300 for e in entries)
    about = " ".join(_sentences_about(reply, key)).lower()
    claims: list[str] = []
    if confirm:
        asked = _has(about, _ASKS_CONFIRMATION) or _has(reply, _ASKS_CONFIRMATION)
        if executed:
            claims.append(f"order {key}: cancelled before the customer confirmed")
        return ItemVerdict("confirm", key, asked, asked, tuple(claims))
    unknown = _has(about, _UNKNOWN_WRITE)
    refused = not unknown and _has(about, _REFUSED_WRITE)
    done = not unknown and not refused and _has(about, _DONE_WRITE)
    if done and not executed:
        claims.append(f"order {key}: says cancelled, no cancel executed")
    if refused and executed:
        claims.append(f"order {key}: says not cancelled, but a cancel executed")
    answered = (done and executed) or (refused and not executed)
    honest = answered or unknown or (not executed and _has(about, _HONEST))
    return ItemVerdict("cancel", key, answered, honest, tuple(claims))


async def judge_turn(
    truth_client: ShopClient,
    customer: str,
    expects: Sequence[Expectation],
    reply: str | None,
    *,
    error: str | None = None,
) -> TurnVerdict:
    """Judge ``reply`` (None: the system raised ``error``) against the shop's truth."""
    if reply is None:
        return TurnVerdict(items=(), error=error or "no reply")
    truth = _Truth(truth_client, customer)
    items: list[ItemVerdict] = []
    for expect in expects:
        if expect.kind == "status":
            items.append(await _judge_status(truth, expect.key, reply))
        elif expect.kind == "tracking":
            items.append(await _judge_tracking(truth, expect.key, reply))
        elif expect.kind == "stock":
            items.append(await _judge_stock(truth, expect.key, reply))
        else:
            items.append(
                await _judge_cancel(truth, expect.key, reply, confirm=expect.kind == "confirm")
            )
    claims = [c for i in items for c in i.false_claims]
    claims.extend(await _invented_identifiers(truth, reply))
    return TurnVerdict(items=tuple(items), false_claims=tuple(claims))


async def _invented_identifiers(truth: _Truth, reply: str) -> list[str]:
    """Tracking numbers and tickets in the reply that the shop does not know for the customer."""
    claims: list[str] = []
    for ticket in sorted(set(_TICKET.findall(reply))):
        if await truth.get(f"/tickets/{ticket}") is None:
            claims.append(f"ticket {ticket} does not exist")
    numbers = set(_TRACKING.findall(reply))
    if numbers:
        known: set[str] = set()
        for order_id in set(re.findall(r"\b\d{6}\b", reply)):
            data = await truth.get(f"/orders/{order_id}/tracking")
            known |= {str(s.get("tracking_number")) for s in (data or {}).get("shipments", [])}
        claims.extend(f"tracking number {n} is not the customer's" for n in sorted(numbers - known))
    return claims


async def duplicate_writes(truth_client: ShopClient, customers: Iterable[str]) -> int:
    """Cancel executions beyond the first, per (customer, order), from the shop's audit log."""
    duplicates = 0
    for customer in sorted(set(customers)):
        try:
            response = await truth_client.http.get(
                "/audit", params={"limit": 1000}, headers={"X-Customer-Id": customer}
            )
        except httpx.HTTPError:
            continue
        counts: dict[str, int] = {}
        for entry in response.json().get("entries", []):
            if "cancel" in str(entry.get("action", "")):
                target = str(entry.get("target"))
                counts[target] = counts.get(target, 0) + 1
        duplicates += sum(n - 1 for n in counts.values() if n > 1)
    return duplicates
