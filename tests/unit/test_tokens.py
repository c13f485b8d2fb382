"""Offline token counting: the shipped BPE file, its checksum, Chinese text, memoisation."""

from __future__ import annotations

import hashlib
from importlib import resources

import pytest

from helpdesk.graph import tokens


def test_tokens_data_ships_with_the_install_and_matches_the_pinned_checksum() -> None:
    data = resources.files("tiktoken_ext").joinpath("data").joinpath("cl100k_base.tiktoken")
    assert hashlib.sha256(data.read_bytes()).hexdigest() == tokens.CL100K_SHA256


def test_tokens_count_english_and_chinese() -> None:
    assert tokens.count_tokens("hello world") == 2
    # cl100k splits CJK finely; this is the encoding's own count, not a length heuristic
    assert tokens.count_tokens("我的订单 100123 为什么还没发货？") == 15


def test_tokens_encoding_matches_tiktoken_cl100k_reference() -> None:
    enc = tokens.get_encoding()
    assert enc.encode("tiktoken is great!") == [83, 1609, 5963, 374, 2294, 0]


def test_tokens_checksum_mismatch_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    tokens.get_encoding.cache_clear()
    monkeypatch.setattr(tokens, "CL100K_SHA256", "0" * 64)
    try:
        with pytest.raises(tokens.TokenDataError, match="checksum mismatch"):
            tokens.get_encoding()
    finally:
        monkeypatch.undo()
        tokens.get_encoding.cache_clear()
    assert tokens.count_tokens("ok") >= 1


def test_tokens_counting_is_memoised() -> None:
    tokens.count_tokens.cache_clear()
    tokens.count_tokens("订单100683发货了吗")
    tokens.count_tokens("订单100683发货了吗")
    info = tokens.count_tokens.cache_info()
    assert (info.hits, info.misses) == (1, 1)
