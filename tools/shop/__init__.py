"""The demo shop: the embedded default backend the built-in customer-service tools call.

A small Starlette app over SQLite with deterministic seeded data (see ``API.md`` for the binding
HTTP contract and the seeded ids you can rely on). :func:`create_app` builds the app over a
database path (``":memory:"`` for tests); :func:`ensure_seeded` prepares a database file. The
data directory belongs to the app settings, so this package only ever accepts paths.
"""

from helpdesk.tools.shop.app import create_app
from helpdesk.tools.shop.seed import ensure_seeded, seed

__all__ = ["create_app", "ensure_seeded", "seed"]
