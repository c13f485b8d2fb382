"""What the CLI tells a customer when a turn fails unexpectedly."""

from __future__ import annotations

from helpdesk.app.session import turn_failed_reply


def test_turn_failed_reply_is_in_the_customers_language_and_gives_the_hotline() -> None:
    zh = turn_failed_reply("订单100683到哪了", "400-820-8820")
    en = turn_failed_reply("where is order 100683", "400-820-8820")
    assert "没有做任何更改" in zh and "400-820-8820" in zh
    assert "Nothing was changed" in en and "400-820-8820" in en
