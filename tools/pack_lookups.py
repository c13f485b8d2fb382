"""The lookups a pack may lend the engine: reads it makes on the customer's behalf before
planning, to find what the customer's words describe (:class:`SubjectResolver`) or what a part
no matcher read is about (:class:`PartReader`). Re-exported by :mod:`helpdesk.tools.packs`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["PartReader", "SubjectResolver"]


@dataclass(frozen=True)
class SubjectResolver:
    """How a scoped request that describes its subject instead of naming it ("cancel my air
    fryer order", "净化器那单") finds it: one read of the customer's objects, made before the
    request is planned (:mod:`helpdesk.graph.subject_resolution`). Only a single fitting subject
    is used; when the words describe one the read cannot settle on, the request is asked about
    — never sent to the session's last subject instead."""

    tool: str
    """A read tool listing the customer's objects (the shop's ``list_orders``)."""
    query: Callable[[Mapping[str, Any]], Mapping[str, Any] | None]
    """``query(request) -> args`` of :attr:`tool` for a request (plain fields) that names no
    subject or only the session's last one; None when its words cannot describe one."""
    pick: Callable[[Mapping[str, Any], Any], Sequence[str] | None]
    """``pick(request, data) -> subjects``: the subjects of the read's data the request fits,
    the one to use first (the engine uses one only when exactly one is returned); None when the
    data shows the words described no subject at all (the request stays as it was)."""
    label: Callable[[Any, str], Any] | None = None
    """``label(data, subject)``: what the read matched for that subject, as plain JSON (the
    shop: ``{"en": "Air Fryer 5L", "zh": "空气炸锅 5L"}``), kept with the request for the reply."""


@dataclass(frozen=True)
class PartReader:
    """How a part of a message no matcher read ("is the humidifier quiet enough for a baby's
    room", "保温杯能放洗碗机吗") is looked up before the reply says it was not understood: one
    read (:mod:`helpdesk.graph.part_reading`); when its data shows what the part is about (a
    product the part names), the part becomes that request. Nothing else is guessed: a read
    that fails or shows nothing the part names leaves it unread."""

    tool: str
    """A read tool (the shop's ``search_products``)."""
    query: Callable[[str], Mapping[str, Any] | None]
    """``query(part) -> args`` of :attr:`tool`; None when the part cannot be about anything the
    tool finds (no lookup is made)."""
    pick: Callable[[str, Any], tuple[str, dict[str, Any]] | None]
    """``pick(part, data) -> (capability, args)``: the request the part is, judged from the
    read's data; None when the data shows nothing the part names."""
