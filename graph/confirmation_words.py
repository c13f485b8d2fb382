"""What a pack knows about its own requests, for reading an answer to the yes/no question it
asked (:func:`helpdesk.graph.confirmation_reading.read_confirmation`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["ConfirmationWords"]


def _no_ids(words: str) -> tuple[str, ...]:
    return ()


def _no_request(words: str) -> bool:
    return False


def _no_action(words: str) -> str:
    return ""


@dataclass(frozen=True, slots=True)
class ConfirmationWords:
    """What a matcher knows about its own requests, for reading an answer to its question."""

    subject: str = ""
    """The request field a corrected identifier replaces ("不对，我是说100904": ``order_id``)."""
    subjects: Callable[[str], tuple[str, ...]] = _no_ids
    """The subject identifiers named in (normalized) words."""
    identifiers: Callable[[str], tuple[str, ...]] = _no_ids
    """Every identifier named in the words (a no that names one is not a bare no)."""
    is_request: Callable[[str], bool] = _no_request
    """Whether words are a request of their own ("对，退款吧": a new request, not a yes)."""
    named_action: Callable[[str], str] = _no_action
    """The action a confirmation names ("确认取消": ``cancel``; "" when none)."""
    named_actions: Callable[[str], tuple[str, ...]] = _no_ids
    """Every action the words name ("不退款只取消": ``refund`` and ``cancel``)."""
    names_thing: Callable[[str], bool] = _no_request
    """Whether an answer naming the action names a thing beside it ("只退手机" to the monitor's
    refund question: the phone, a request of its own — never a yes to the monitor's refund)."""
    waiting: tuple[str, ...] = ()
    """One entry per action waiting for a yes, its tool and intent ("cancel_order cancel_order"):
    a yes naming one of them ("好，取消" to the cancel question) is a yes; naming another, a
    request of its own; "both" is a yes only when several wait."""
