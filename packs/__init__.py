"""The packs that ship with helpdesk, and the default set: the demo shop.

This package sits above :mod:`helpdesk.graph`: a pack's wording builds on the graph's generic
reply writer (:class:`helpdesk.graph.replies.Writer`), so nothing in ``graph/`` or ``tools/``
imports it — the graph gets its packs from whoever builds it (``build_graph(packs=...)``;
``helpdesk.app.wiring.build_bot`` passes the shop plus any loaded pack). The layers:
``app -> packs, examples -> graph -> tools -> degrade``.

- :mod:`helpdesk.packs.shop` — the demo shop as a capability pack (its tools are in
  :mod:`helpdesk.tools.builtin`);
- :func:`default_packs` — the packs a front end serves when it names none (the shop).

Not to be confused with :mod:`helpdesk.tools.packs` (the ``Pack``/``PackSet`` records and how
packs are loaded) or the ``helpdesk.packs`` entry-point group (third-party packs).
"""

from __future__ import annotations

import functools

from helpdesk.packs.shop import shop_declarations, shop_pack
from helpdesk.tools.packs import PackSet

__all__ = ["default_packs", "shop_declarations", "shop_pack"]


@functools.lru_cache(maxsize=1)
def default_packs() -> PackSet:
    """The packs used when a front end names none: the demo shop's declarations (its tools are
    built by the caller, e.g. :func:`helpdesk.tools.builtin.build_shop_registry`)."""
    return PackSet([shop_declarations()])
