"""What a drill checks in a reply, and against the shop's truth.

Reply properties (:class:`~helpdesk.app.drill_matrix.ReplyCheck`) are recognised by the literal
text of the minimal tier's own templates (``prompts/minimal/generate.*.yaml``), in either
language, so the checks follow the wording instead of restating it. :func:`reply_violations`
returns what a reply got wrong for a set of checks; :func:`claimed_writes` lists the writes a
reply says went through; :class:`ShopTruth` reads the demo shop (audit log, orders, refunds,
tickets) past any fault injection, so a claim can be held against what really happened.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

import httpx

from helpdesk.app.drill_matrix import ReplyCheck
from helpdesk.graph.prompting import load_templates
from helpdesk.graph.validation import done_phrases
from helpdesk.packs import default_packs
from helpdesk.tools.shop_client import ShopClient

__all__ = [
    "SUCCESS_KEYS",
    "ReplyFacts",
    "ShopTruth",
    "claimed_writes",
    "mentions",
    "reply_violations",
    "template_fragment",
]

SUCCESS_KEYS: Final[Mapping[str, tuple[str, ...]]] = {
    "cancel_order": ("cancel_done",),
    "request_refund": ("refund_done",),
    "create_ticket": ("ticket_created", "ticket_created_order"),
    "handoff_to_human": ("handoff_created",),
}
"""Write tool -> template keys of the replies that say it went through."""

_STALE_KEYS = ("stale_notice", "stale_notice_general")
_SELF_SERVICE_KEYS = ("self_service", "self_service_url")
_UNKNOWN_KEYS = ("write_unknown_ticket",)
_NO_ORDERS_KEYS = ("orders_empty",)
_FIELD = re.compile(r"\{[^{}]*\}")
_SPACE = re.compile(r"\s+")
_IDENTIFIER = re.compile(
    r"(?<![0-9A-Za-z-])(?:\d{6}|SKU-\d{4}|(?:SF|YT)\d{10}|T-\d{6}|R-\d{6}|S-\d{6})(?![0-9A-Za-z])"
)
_TICKET = re.compile(r"(?<![0-9A-Za-z-])T-\d{6}(?!\d)")
_REFUND = re.compile(r"(?<![0-9A-Za-z-])R-\d{6}(?!\d)")
_AMOUNT = re.compile(r"¥\s?\d")


def _squash(text: str) -> str:
    return _SPACE.sub("", text)


def template_fragment(template: str) -> str:
    """The longest literal piece of a template (whitespace removed), e.g. 'hasbeencancelled.'."""
    pieces = [_squash(p) for p in _FIELD.split(template)]
    return max(pieces, key=len, default="")


@cache
def _fragment(key: str, lang: str) -> str:
    """:func:`template_fragment` of the minimal tier's template ``key``."""
    return template_fragment(load_templates("minimal", "generate", lang).get(key, ""))


def mentions(reply: str, keys: Iterable[str]) -> bool:
    """Whether ``reply`` contains the literal text of any of the template ``keys`` (zh or en)."""
    text = _squash(reply)
    for key in keys:
        for lang in ("zh", "en"):
            fragment = _fragment(key, lang)
            if len(fragment) >= 4 and fragment in text:
                return True
    return False


@dataclass(frozen=True, kw_only=True, slots=True)
class ReplyFacts:
    """What a reply is judged against."""

    reply: str
    validation_ok: bool
    tool: str
    """The tool the cell is about."""
    said_by_customer: str
    """Everything the customer wrote (identifiers there are not invented)."""
    ticket_id: str | None = None
    """Compensation / handoff ticket on the tool's result."""
    executions: int | None = None
    """Executions of the write in the shop's audit log (None = not a write / unknown)."""
    hotline: str = ""
    known_tickets: frozenset[str] = frozenset()
    """Tickets this turn really filed (pending items, automatic handoff)."""
    success: tuple[str, ...] | None = None
    """Literal text (:func:`template_fragment`) of the replies saying the write went through,
    for a pack's tool; None: the shop's :data:`SUCCESS_KEYS` of ``tool``."""

    unknown: tuple[str, ...] | None = None
    """Literal text of the replies saying a write's outcome is unknown, for a pack's tool; None:
    the shop's ``write_unknown_ticket``."""

    def claims_success(self) -> bool:
        if self.success is None:
            return mentions(self.reply, SUCCESS_KEYS.get(self.tool, ()))
        return _contains(self.reply, self.success)

    def says_unknown(self) -> bool:
        if self.unknown is None:
            return mentions(self.reply, _UNKNOWN_KEYS)
        return _contains(self.reply, self.unknown)


def _contains(reply: str, fragments: Iterable[str]) -> bool:
    text = _squash(reply)
    return any(fragment in text for fragment in fragments)


def reply_violations(checks: Iterable[ReplyCheck], facts: ReplyFacts) -> list[str]:
    """Every check the reply fails, as a sentence for the report ([] = all good)."""
    out: list[str] = []
    reply = facts.reply
    for check in sorted(checks):
        if check is ReplyCheck.ANSWERED and (not reply.strip() or not facts.validation_ok):
            out.append("reply: empty or failed validation")
        elif check is ReplyCheck.STALE_NOTICE and not mentions(reply, _STALE_KEYS):
            out.append("reply: no staleness notice")
        elif check is ReplyCheck.SELF_SERVICE and not (
            mentions(reply, _SELF_SERVICE_KEYS) and facts.hotline in reply
        ):
            out.append("reply: no self-service pointer with the hotline")
        elif check is ReplyCheck.NO_INVENTED_DATA:
            allowed = set(_IDENTIFIER.findall(facts.said_by_customer)) | facts.known_tickets
            invented = sorted(set(_IDENTIFIER.findall(reply)) - allowed)
            if invented or _AMOUNT.search(reply):
                shown = ", ".join(invented) or "an amount"
                out.append(f"reply: shows data no live source gave ({shown})")
        elif check is ReplyCheck.NO_SUCCESS_CLAIM and facts.claims_success():
            out.append(f"reply: claims {facts.tool} succeeded")
        elif check is ReplyCheck.SUCCESS_CLAIM_TRUE:
            if not facts.claims_success():
                out.append(f"reply: does not say {facts.tool} went through")
            elif not facts.executions:
                out.append(f"reply: claims {facts.tool} succeeded but the audit log shows no run")
        elif check is ReplyCheck.UNKNOWN_WITH_TICKET:
            if not facts.says_unknown():
                out.append("reply: does not say the outcome is unknown")
            if not facts.ticket_id:
                out.append("result: no compensation ticket for the unknown outcome")
            elif facts.ticket_id not in reply:
                out.append(f"reply: does not name the compensation ticket {facts.ticket_id}")
        elif check is ReplyCheck.NOT_NO_ORDERS and mentions(reply, _NO_ORDERS_KEYS):
            out.append('reply: a failed lookup was turned into "no orders"')
    return out


def claimed_writes(reply: str) -> list[str]:
    """Write tools the reply says went through: in the templates' words or in any wording the
    reply validator knows as a "done" claim (a model's "I've cancelled order 100904")."""
    done = _shop_done()
    return [
        tool
        for tool, keys in SUCCESS_KEYS.items()
        if mentions(reply, keys) or (tool in done and done[tool].search(reply) is not None)
    ]


@cache
def _shop_done() -> dict[str, re.Pattern[str]]:
    """The shop's "done" wording per write tool (its capabilities' ``done_patterns``)."""
    return done_phrases(default_packs())


class ShopTruth:
    """Reads the shop behind the bot, outside any fault rule (requests are tagged
    ``drill.truth``, a target no drill rule names)."""

    TAG: Final = "drill.truth"

    def __init__(self, client: ShopClient, customer: str) -> None:
        self.client = client
        self.customer = customer

    async def _get(self, path: str, params: dict[str, Any] | None = None) -> Any:
        return await self.client.call(
            "GET", path, tool=self.TAG, customer=self.customer, params=params
        )

    async def executions(self, key: str) -> int:
        """Audit entries (real executions) of the write with idempotency ``key``."""
        body = await self._get("/audit", {"key": key, "limit": 1000})
        return len(body["entries"])

    async def audit(self) -> list[dict[str, Any]]:
        body = await self._get("/audit", {"limit": 1000})
        return list(body["entries"])

    async def order_status(self, order_id: str) -> str | None:
        try:
            return str((await self._get(f"/orders/{order_id}"))["status"])
        except httpx.HTTPStatusError:
            return None

    async def exists(self, kind: str, ident: str) -> bool:
        """Whether ticket / refund ``ident`` exists and is the customer's."""
        path = {"ticket": "/tickets/", "refund": "/refunds/"}[kind] + ident
        try:
            await self._get(path)
        except httpx.HTTPStatusError:
            return False
        return True

    async def false_claims(self, reply: str, order_ids: Iterable[str] = ()) -> list[str]:
        """Claims in ``reply`` the shop contradicts: tickets / refunds it does not have, orders
        said to be cancelled that are not."""
        out: list[str] = []
        for ticket in sorted(set(_TICKET.findall(reply))):
            if not await self.exists("ticket", ticket):
                out.append(f"reply names ticket {ticket}, which the shop does not have")
        for refund in sorted(set(_REFUND.findall(reply))):
            if not await self.exists("refund", refund):
                out.append(f"reply names refund {refund}, which the shop does not have")
        if "cancel_order" in claimed_writes(reply):
            for order_id in order_ids:
                if order_id in reply and await self.order_status(order_id) != "cancelled":
                    out.append(f"reply says order {order_id} was cancelled; the shop disagrees")
        return out
