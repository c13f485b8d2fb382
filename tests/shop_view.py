"""The shop matcher's requests in shop terms, for tests that read what it understood.

:func:`helpdesk.packs.shop.intents.match_shop` hands requests to the engine as
``MatchedIntent(Intent.PACK, capability=..., args={"order_id": ...})``; a :class:`ShopView`
shows one as ``intent`` (a :class:`ShopIntent` or the engine's :class:`Intent`), ``order_id`` and
``sku``, with every other field read through.
"""

from __future__ import annotations

from typing import Any

from helpdesk.graph.intents import MatchedIntent
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import Kind, kind_of, match_shop, order_of, sku_of

SHOP = default_packs()


class ShopView:
    """One request as the shop reads it."""

    def __init__(self, match: MatchedIntent) -> None:
        self.match = match

    @property
    def intent(self) -> Kind:
        return kind_of(self.match)

    @property
    def order_id(self) -> str | None:
        return order_of(self.match)

    @property
    def sku(self) -> str | None:
        return sku_of(self.match)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.match, name)

    def __repr__(self) -> str:
        return f"ShopView({self.match!r})"


def read(text: str, **kw: Any) -> list[ShopView]:
    """The demo shop's reading of a message (its identifiers are never amounts)."""
    return [ShopView(m) for m in match_shop(text, packs=SHOP, **kw)]
