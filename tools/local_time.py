"""Timestamps as a customer reads them: in a pack's time zone, not UTC.

Backends return UTC (``2026-10-27T14:10:38Z``); a reply shows ``2026-10-27 22:10`` to a customer
in China. Validation must accept the local rendering as quoting the data, so both the reply
writers and the validator use :func:`local_renderings`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = ["local_datetime", "local_renderings", "zone"]

_UTC_STAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|\+00:00)")
#: Fixed offsets for zones without daylight saving, used when the tz database is missing.
_FIXED = {"Asia/Shanghai": 8, "Asia/Hong_Kong": 8, "Asia/Taipei": 8, "Asia/Singapore": 8, "UTC": 0}


@lru_cache(maxsize=32)
def zone(name: str) -> tzinfo:
    """The time zone ``name`` (IANA); a fixed offset for well-known zones without tz data.

    Raises:
        ValueError: the zone is unknown.
    """
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        if name in _FIXED:
            return timezone(timedelta(hours=_FIXED[name]), name)
        raise ValueError(f"unknown time zone {name!r}") from exc


def local_datetime(stamp: str, zone_name: str | None) -> datetime | None:
    """A UTC ISO timestamp in ``zone_name`` (unchanged UTC when None); None if not a timestamp."""
    text = stamp.strip()
    if not text:
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(zone(zone_name)) if zone_name else parsed


def local_renderings(text: str, zone_names: Iterable[str]) -> list[str]:
    """Every UTC timestamp in ``text`` as it reads in each zone: its date and its minute."""
    found: list[str] = []
    names = [n for n in zone_names if n]
    if not names:
        return found
    for stamp in set(_UTC_STAMP.findall(text)):
        for name in names:
            local = local_datetime(stamp, name)
            if local is not None:
                found.append(local.strftime("%Y-%m-%d %H:%M"))
    return found
