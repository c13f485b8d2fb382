"""Lines a reply would say twice: two answers about one subject (an order's look and its
parcels' tracking, two requests noting the same open ticket) say each line once."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["without_repeated_lines"]


def without_repeated_lines(paragraphs: Iterable[tuple[Any, str]]) -> list[str]:
    """The paragraphs without a line said word for word in an earlier paragraph about the same
    subject (two requests about one order both noting its open ticket, or the offer of a human,
    say it once); paragraphs about different subjects keep every line ("Tracking history:" of
    each order)."""
    seen: dict[Any, set[str]] = {}
    kept: list[str] = []
    for subject, paragraph in paragraphs:
        said = seen.setdefault(subject, set()) if subject else set()
        whole = paragraph.split("\n")
        lines = [
            line
            for line, after in zip(whole, [*whole[1:], ""], strict=True)
            # a line said before that heads a block of its own stays ("YT874…: delivered",
            # then that parcel's "Tracking history:")
            if line.strip() not in said or _heads_new_block(after, said)
        ]
        said.update(line.strip() for line in lines if line.strip())
        if any(line.strip() for line in lines):
            kept.append("\n".join(lines))
    return kept


def _heads_new_block(after: str, said: set[str]) -> bool:
    return after.rstrip().endswith((":", "：")) and after.strip() not in said
