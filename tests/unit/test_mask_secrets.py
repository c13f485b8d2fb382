"""mask_secrets: what is masked in an incoming message, and what is left for the bot to use."""

from __future__ import annotations

import pytest

from helpdesk.app.redaction import mask_secrets


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("my card is 4111 1111 1111 1111", "my card is [card]"),
        ("卡号4111-1111-1111-1111谢谢", "卡号[card]谢谢"),
        ("身份证11010519491231002X", "身份证[id]"),
        ("ID 110105194912310021 please", "ID [id] please"),
        ("refund to 6222 0212 3456 7890 123", "refund to [account]"),
        ("银行账号：6217000010012345678", "银行账号：[account]"),
        ("account number 12345678", "account number [account]"),
        ("IBAN DE89 3704 0044 0532 0130 00", "IBAN [account]"),
    ],
)
def test_mask_secrets_masks_cards_ids_and_accounts(text: str, masked: str) -> None:
    assert mask_secrets(text) == masked


@pytest.mark.parametrize(
    "text",
    [
        "where is order 100683?",
        "tracking YT9433239273",
        "parcel 731234567890123",  # 15-digit tracking numbers are not accounts
        "call me on 13812345678",
        "call +86 138 1234 5678",
        "+44 20 7946 0958",
        "010 6234 5678",
        "hotline 400-820-8820",
        "SKU-1001 x 2, ¥5198.00",
        "refund R-000109 and ticket T-000041 on 2026-10-31",
        "退款一百元",
    ],
)
def test_mask_secrets_leaves_what_the_bot_needs(text: str) -> None:
    assert mask_secrets(text) == text
