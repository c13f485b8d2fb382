"""The demo shop as a capability pack: everything the turn needs to know about the shop.

The shop's tools live in :mod:`helpdesk.tools.builtin` (httpx clients of the demo shop API);
this package declares what they do for a customer, so that ``helpdesk.graph`` never names the
shop's tools, statuses or fields:

- :mod:`.declarations` — the capabilities (intents, kinds, planning, compaction fields, the
  wording that claims a write done) and :func:`shop_pack`;
- :mod:`.identifiers` — identifier shapes (validation) and how customers write them (the money
  reader blanks them);
- :mod:`.replies` — the shop's reply wording (:class:`ShopReplies`), with :mod:`.reply_kinds`
  (how a request is named), :mod:`.reply_data` (orders, shipments, stock as text) and
  :mod:`.reply_failures` (refusals, bad input, failed or unknown outcomes);
- :mod:`.words` — the product words of a stock question.
"""

from __future__ import annotations

from helpdesk.packs.shop.declarations import SHOP_CAPABILITIES, shop_declarations, shop_pack
from helpdesk.packs.shop.identifiers import SHOP_IDENTIFIERS, SHOP_MENTIONS
from helpdesk.packs.shop.replies import ShopReplies
from helpdesk.packs.shop.words import product_query

__all__ = [
    "SHOP_CAPABILITIES",
    "SHOP_IDENTIFIERS",
    "SHOP_MENTIONS",
    "ShopReplies",
    "product_query",
    "shop_declarations",
    "shop_pack",
]
