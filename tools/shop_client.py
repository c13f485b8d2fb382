"""ShopClient: the one httpx client the built-in tools use to reach the demo shop.

In-process through an ASGI transport by default (no port, no service), or any base URL
(``HELPDESK_SHOP_URL``). A :class:`~helpdesk.degrade.chaos.ChaosTransport` can be slotted in
front of either, so faults exercise real HTTP semantics: statuses, headers, bodies, timeouts.
Non-2xx responses are raised as ``httpx.HTTPStatusError`` and classified in one place
(:func:`helpdesk.degrade.errors.classify_failure`).
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any, Final

import httpx

from helpdesk.degrade.chaos import ChaosPlan, ChaosTransport

__all__ = ["ShopClient", "error_code"]

_IN_PROCESS_URL = "http://shop.internal"

SEEN_CUSTOMERS: Final = 10_000
"""Customers whose last answer the client remembers (least recently answered forgotten first)."""


def error_code(response: httpx.Response) -> str | None:
    """The shop's error code in a response body (``{"error": {"code": ...}}``), if any."""
    try:
        body = response.json()
    except ValueError:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) else None


class ShopClient:
    """Thin async client: adds identity and idempotency headers, tags requests with the tool."""

    def __init__(
        self,
        base_url: str = _IN_PROCESS_URL,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        chaos: ChaosPlan | None = None,
    ) -> None:
        if chaos is not None:
            transport = ChaosTransport(transport or httpx.AsyncHTTPTransport(), chaos)
        # Timeouts are the executor's (per attempt, within the request budget); httpx's own
        # default stays as a backstop for a hung socket.
        self.http = httpx.AsyncClient(
            base_url=base_url, transport=transport, timeout=httpx.Timeout(30.0)
        )
        self.base_url = base_url
        self._seen: OrderedDict[str, bool] = OrderedDict()

    @classmethod
    def in_process(cls, db_path: str | Path, *, chaos: ChaosPlan | None = None) -> ShopClient:
        """A client whose requests go straight into an embedded shop app (ASGI, no port)."""
        from helpdesk.tools.shop import create_app

        app = create_app(db_path)
        return cls(_IN_PROCESS_URL, transport=httpx.ASGITransport(app=app), chaos=chaos)

    async def call(
        self,
        method: str,
        path: str,
        *,
        tool: str,
        customer: str | None,
        json: Any = None,
        params: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """One request; returns the decoded JSON body or raises (httpx / JSON errors)."""
        headers: dict[str, str] = {}
        if customer:
            headers["X-Customer-Id"] = customer
        if idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        clean_params = {k: v for k, v in (params or {}).items() if v is not None}
        response = await self.http.request(
            method,
            path,
            json=json,
            params=clean_params or None,
            headers=headers,
            extensions={"helpdesk_tool": tool},
        )
        if customer:
            self._observe(customer, response)
        response.raise_for_status()
        return response.json()

    def customer_seen(self, customer: str) -> bool | None:
        """What the shop's answers on ``customer``'s behalf said: True it served them, False
        ``401 unknown_customer``, None no answer yet (no request is made)."""
        return self._seen.get(customer)

    def _observe(self, customer: str, response: httpx.Response) -> None:
        if response.is_success:
            known = True
        elif response.status_code == 401 and error_code(response) == "unknown_customer":
            known = False
        else:
            return  # an error says nothing about who the customer is
        self._seen[customer] = known
        self._seen.move_to_end(customer)
        while len(self._seen) > SEEN_CUSTOMERS:
            self._seen.popitem(last=False)

    async def aclose(self) -> None:
        await self.http.aclose()
