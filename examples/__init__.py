"""Packs that are not the demo shop: proof that the turn engine is generic."""
