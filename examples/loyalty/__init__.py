"""A loyalty/membership programme as a capability pack (``--pack helpdesk.examples.loyalty:pack``).

Three capabilities over a small in-process backend: the points balance (read), redeeming a
voucher code (an idempotent write, verified by its key when a response is lost) and converting
points to store credit (money: prechecked, asked about with the exact amount, run once).
"""

from helpdesk.examples.loyalty.backend import LoyaltyBackend
from helpdesk.examples.loyalty.pack import loyalty_pack, pack

__all__ = ["LoyaltyBackend", "loyalty_pack", "pack"]
