"""Finding packs: by ``module:attr`` (:func:`load_pack`) and through the installed
distributions' ``helpdesk.packs`` entry points (:func:`installed_packs`).

A spec that does not name a pack is a :class:`~helpdesk.tools.pack_spec.PackError` naming the
spec and what is wrong, never a traceback for a typo.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from importlib import metadata
from typing import Any

from helpdesk.tools.pack_spec import Pack, PackError

__all__ = ["ENTRY_POINT_GROUP", "installed_packs", "load_pack", "load_packs"]


ENTRY_POINT_GROUP = "helpdesk.packs"
"""Installed distributions offer packs here: ``[project.entry-points."helpdesk.packs"]``
``loyalty = "my_pkg.loyalty:pack"`` (a :class:`Pack`, or a callable returning one)."""


def load_pack(spec: str) -> Pack:
    """A pack from ``"module:attr"`` (a :class:`Pack`, or a callable with no arguments that
    returns one).

    Raises:
        PackError: naming the spec and what is wrong (no colon, no module, no attribute, not a
            pack) — never a traceback for a typo.
    """
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise PackError(f"pack {spec!r} must look like 'module:attr'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PackError(f"pack {spec!r}: cannot import {module_name!r}: {exc}") from exc
    try:
        value: Any = getattr(module, attr)
    except AttributeError:
        raise PackError(f"pack {spec!r}: module {module_name!r} has no {attr!r}") from None
    return _as_pack(value, spec)


def _as_pack(value: Any, origin: str) -> Pack:
    if not isinstance(value, Pack) and callable(value):
        value = value()
    if not isinstance(value, Pack):
        raise PackError(f"pack {origin!r} is a {type(value).__name__}, not a Pack")
    return value


def installed_packs() -> list[Pack]:
    """Every pack offered by installed distributions in :data:`ENTRY_POINT_GROUP`.

    Raises:
        PackError: an entry point cannot be loaded or is not a pack (named in the message).
    """
    packs = []
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            value = entry.load()
        except Exception as exc:  # any import-time failure of a third-party pack
            raise PackError(f"pack entry point {entry.name!r} ({entry.value}): {exc}") from exc
        packs.append(_as_pack(value, f"{entry.name} ({entry.value})"))
    return packs


def load_packs(specs: Sequence[str] = (), *, installed: bool = True) -> list[Pack]:
    """The packs named by ``specs`` (``module:attr``) plus, by default, the installed ones;
    a pack named both ways is loaded once."""
    packs = installed_packs() if installed else []
    for spec in specs:
        pack = load_pack(spec)
        if all(p.name != pack.name for p in packs):
            packs.append(pack)
    return packs
