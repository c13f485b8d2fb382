"""Parts of a message no reading answers, said to be unread instead of dropped silently.

"hey it's Daniel. my phone order 100770 is taking forever, and cancel the knife order",
"空气炸锅那单的保温杯退了，另外100998啥时候发货": the matchers read what they were written for, and
a request they do not read can vanish beside the ones they do — left between them, or folded into
a neighbour's reading — and the answer looks complete when it is not. After the template reading
(built-in and packs), each part of the message that asks something no reading answers becomes a
part said to be unread (:data:`~helpdesk.graph.request.DEFERRED_PART`): the reply quotes it and
asks for it on its own. Nothing is ever planned from it: an action it asks for (a refund, a
cancel) is only named as not handled.

What a part asks is the packs' to say (:attr:`~helpdesk.tools.packs.Pack.part_asks`: the demo
shop asks its trained clause classifier); without such a pack, a part whose words no reading used
asks something when language says so (a question mark, a question or request word, an identifier
a pack declares). Small talk ("not happy", "哈哈") and a part a reading answers — a follow-up
like "and is it available?" beside the product question — are never said to be unread.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from helpdesk.graph.intents import split_clauses
from helpdesk.graph.language import Lang, detect_language
from helpdesk.graph.request import DEFERRED_PART, Intent, MatchedIntent, plain_match
from helpdesk.tools.packs import PackSet

__all__ = ["ANSWERS", "UNCLAIMED", "asks_something", "defer_unclaimed_parts", "unclaimed_parts"]

ANSWERS = frozenset(
    {Intent.CONFIRM_YES, Intent.CONFIRM_NO, Intent.CONFIRM_CHANGE, Intent.CONFIRM_UNCLEAR}
)
"""Readings that answer a question the bot asked (a yes, a no, a change, an unclear answer)."""

UNCLAIMED = "unclaimed"
"""The :attr:`~helpdesk.graph.request.MatchedIntent.args` flag of a part found here: said to be
unread, never looked up by a part reader (the words a reading left over are often what that
reading answers — "do you ship to Urumqi and how long does it take" — and a lookup of them
would answer a question nobody asked)."""

_COVERED = 0.5
"""The share of a part's words a reading must have used for the part to be that reading's."""

_ASKS_EN = re.compile(
    r"\b(?:what|where|when|why|how|which|who|whose|can (?:you|u|i|we)|could|would you|will you"
    r"|is there|are there|do you|does|did|please|pls|plz|i want|i'd like|i would like|i need"
    r"|want to|need to|tell me|give me|send me|show me|let me know)\b"
    # a yes/no question (its question mark is left out of the part)
    r"|^\s*(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|any)\s+\w",
    re.IGNORECASE,
)
_ASKS_ZH = re.compile(
    r"吗|么|呢|啥|什么|多少|几[个天号点时]|哪|怎么|咋|能不能|能否|可不可以|可以|是不是|有没有"
    r"|帮我|帮忙|麻烦|请|给我|我要|我想|想要|想问"
)
_QUESTION_MARK = re.compile(r"[?？]")
_SPACE = re.compile(r"\s+")
_REFUSAL = re.compile(
    r"\s*(?:no need|not asking|don'?t|do not|never mind|nvm|no thanks"
    r"|不用|不要|别|不需要|没必要|算了)",
    re.IGNORECASE,
)
"""A part that opens by refusing or letting go ("no need to open a ticket", "不用退了")."""
_CONDITION = re.compile(
    r"\s*(?:if|unless|in case)\b|\s*(?:如果|要是|万一|假如|若是)"
    # "不发就取消吧", "再不到就退": if not …, then
    r"|\s*(?:再)?(?:不|没)[\u4e00-\u9fff]{1,3}(?:的话)?就",
    re.IGNORECASE,
)
"""A part that opens a condition: it and the part after it are what happens then."""
_LATIN_WORD = re.compile(r"[a-z0-9]+(?:['’-][a-z0-9]+)*")
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def _words(text: str) -> set[str]:
    """Latin words and digits, and Chinese as overlapping character pairs (a lone character
    as itself): the units a part and a reading are compared by."""
    low = text.lower()
    words = set(_LATIN_WORD.findall(low))
    for run in _HAN_RUN.findall(low):
        words |= {run} if len(run) == 1 else {run[i : i + 2] for i in range(len(run) - 1)}
    return words


def _named(part: str, packs: PackSet) -> bool:
    """Whether ``part`` names an identifier a pack declares."""
    pattern = packs.identifier_pattern()
    # (Chinese characters run into an identifier are word characters: spaced out first)
    return pattern is not None and pattern.search(_HAN_RUN.sub(" ", part.lower())) is not None


def asks_something(part: str, packs: PackSet) -> bool:
    """Whether ``part`` asks something of its own: a question mark, a question or request word,
    or an identifier a pack declares."""
    if _QUESTION_MARK.search(part) or _ASKS_EN.search(part) or _ASKS_ZH.search(part):
        return True
    return _named(part, packs)


def _kind(match: MatchedIntent) -> str:
    return match.capability or match.intent.value


def _asked(part: str, held: bool, packs: PackSet) -> frozenset[str] | None:
    """What the first pack that can tell says ``part`` asks (None: no pack can)."""
    for pack in packs.packs:
        if pack.part_asks is not None and (kinds := pack.part_asks(part, held)) is not None:
            return kinds
    return None


def _bare(text: str) -> str:
    return _SPACE.sub("", text.lower())


def _reads(match: MatchedIntent, packs: PackSet) -> bool:
    cap = packs.for_intent(match.capability) if match.capability else None
    return cap is None or cap.kind == "read"


def _judged_by_packs(packs: PackSet) -> bool:
    return any(pack.part_asks is not None for pack in packs.packs)


def unclaimed_parts(text: str, readings: Sequence[MatchedIntent], packs: PackSet) -> list[str]:
    """The parts of ``text`` (in order) no reading answers.

    A part whose words no reading used is unclaimed when it asks something no reading answers
    (a pack's :attr:`~helpdesk.tools.packs.Pack.part_asks`; without one, when it asks anything
    at all: :func:`asks_something`). A part folded into a longer reading is unclaimed only when
    a pack is sure it asks something no reading answers."""
    parts = split_clauses(text)
    if len(parts) < 2:
        return []
    kinds = {_kind(m) for m in readings}
    said = {m.text for m in readings if m.details == DEFERRED_PART}
    # a part inside a longer read is checked; one inside an action (a ticket, a transfer)
    # travels with it to the people who act on it
    longer = [_bare(m.text) for m in readings if m.details != DEFERRED_PART and _reads(m, packs)]
    used: set[str] = set()
    for reading in readings:
        # its words, and what it read elsewhere ("我的包裹晚了 100683": the order it is about)
        values = (v for v in plain_match(reading).values() if isinstance(v, str | int | float))
        used |= _words(reading.text) | _words(" ".join(map(str, values)))
    by_packs = _judged_by_packs(packs)
    out = []
    for n, part in enumerate(parts):
        words = _words(part)
        if not words or part in said or _REFUSAL.match(part):
            continue
        if _CONDITION.match(part) or (n and _CONDITION.match(parts[n - 1])):
            continue  # "if 100998 doesn't ship by monday cancel it and refund me": the pack's
        if len(words & used) >= _COVERED * len(words):
            folded = any(_bare(part) in t and _bare(part) != t for t in longer)
            asked = _asked(part, True, packs) if folded else None
        else:
            asked = _asked(part, False, packs) if by_packs else None
            if asked is None and not by_packs and asks_something(part, packs):
                asked = frozenset({"?"})
        if asked and not asked & kinds:
            out.append(part)
    return out


def defer_unclaimed_parts(
    text: str, readings: list[MatchedIntent], packs: PackSet, lang: Lang
) -> list[MatchedIntent]:
    """``readings`` plus each unclaimed part of ``text`` said to be unread.

    Left as they are: a message nothing read (the menu answers it), and a message read as an
    answer to a question the bot asked (a yes, a no, an amount)."""
    if not readings or any(
        m.intent is Intent.UNKNOWN and m.details != DEFERRED_PART for m in readings
    ):
        return readings
    if any(m.intent in ANSWERS for m in readings):
        return readings
    extra = [
        MatchedIntent(
            Intent.UNKNOWN,
            text=part,
            lang=detect_language(part, default=lang),
            details=DEFERRED_PART,
            args={UNCLAIMED: True},
        )
        for part in unclaimed_parts(text, readings, packs)
    ]
    return [*readings, *extra] if extra else readings
