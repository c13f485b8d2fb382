"""Times shown in a pack's time zone, and accepted by validation as quoting the data."""

from __future__ import annotations

import pytest

from helpdesk.tools.local_time import local_datetime, local_renderings, zone
from helpdesk.tools.packs import Pack, PackError
from helpdesk.tools.registry import ToolRegistry


def test_a_utc_stamp_in_china_time() -> None:
    local = local_datetime("2026-10-27T20:10:38Z", "Asia/Shanghai")
    assert local is not None and local.strftime("%Y-%m-%d %H:%M") == "2026-10-28 04:10"


def test_not_a_timestamp_is_none() -> None:
    assert local_datetime("soon", "Asia/Shanghai") is None
    assert local_datetime("", "Asia/Shanghai") is None


def test_local_renderings_give_the_local_date_and_minute() -> None:
    text = '{"at": "2026-10-27T20:10:38Z", "eta": "2026-10-31"}'
    assert local_renderings(text, ["Asia/Shanghai"]) == ["2026-10-28 04:10"]
    assert local_renderings(text, []) == []


def test_an_unknown_zone_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown time zone"):
        zone("Mars/Olympus")
    with pytest.raises(PackError, match="unknown time zone"):
        Pack(name="p", capabilities=(), tools=lambda env: ToolRegistry(), time_zone="Mars/Olympus")
