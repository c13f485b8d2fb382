"""Reply validation: rules every reply must pass before the customer sees it.

Each rule is a small function over a :class:`ReplyFacts` returning violation messages (empty
when the rule holds). The rules: identifiers (of the shapes the loaded packs declare) exist
in the turn's context; amounts and dates match tool data; stale data implies
a staleness notice; no phone number but the configured hotline; the reply is in the customer's
language; no unfilled template field; a failed or unknown write is never claimed as done; a
failed lookup is never turned into an empty result.

Longer than 400 lines because it is one table of rules (:data:`RULES`) with the few helpers
they share; each rule is a small function with its own tests in ``tests/unit/test_validation.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from helpdesk.degrade.context import DegradeContext
from helpdesk.degrade.errors import ErrorClass
from helpdesk.graph.intents import WRITES_DONE
from helpdesk.graph.language import Lang
from helpdesk.graph.money import read_amount
from helpdesk.graph.prompting import load_templates
from helpdesk.tools.local_time import local_renderings
from helpdesk.tools.packs import Capability, PackSet
from helpdesk.tools.results import ToolResult, ToolStatus

__all__ = ["RULES", "ReplyFacts", "Rule", "done_phrases", "find_violations"]

_PHONE = re.compile(r"(?<![\w.-])\+?\d[\d -]{6,}\d(?!\w|[.-]\d)")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?Z?)?|\b\d{1,2}:\d{2}\b")
_AMOUNT = re.compile(r"¥\s?(\d[\d,]*(?:\.\d+)?)")
_NUMBER_IN_TEXT = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")


def done_phrases(packs: PackSet) -> dict[str, re.Pattern[str]]:
    """Tool -> the "done" wording of its writes (its capability's ``done_patterns``), as said in
    the sentence naming the object."""
    return {
        cap.tool: re.compile("|".join(cap.done_patterns), re.IGNORECASE)
        for cap in packs.capabilities()
        if cap.done_patterns
    }


_SENTENCE_SPLIT = re.compile(r"(?<=[.!?。！？\n])")


@dataclass(frozen=True)
class ReplyFacts:
    """What a reply is checked against: the draft and everything the turn knew."""

    draft: str
    lang: Lang
    hotline: str
    customer_text: str = ""
    results: Sequence[ToolResult] = ()
    facts: dict[str, Any] = field(default_factory=dict)
    degrade: DegradeContext = field(default_factory=DegradeContext)
    actions: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Call id -> the arguments of the call (which order a write was about)."""
    packs: PackSet = field(kw_only=True)
    """The loaded packs: identifier shapes and the wording that claims a write done."""

    def known_text(self) -> str:
        """Everything the reply may quote from, as one searchable string."""
        parts = [
            json.dumps([r.model_dump(mode="json") for r in self.results], ensure_ascii=False),
            self.customer_text,
            json.dumps(self.facts, ensure_ascii=False, default=str),
            json.dumps(
                [p.model_dump(mode="json") for p in self.degrade.pending], ensure_ascii=False
            ),
            json.dumps(self.actions, ensure_ascii=False, default=str),
        ]
        # the data's UTC timestamps as the packs show them (local date and minute)
        parts.extend(local_renderings(parts[0], self.packs.time_zones()))
        return "\n".join(parts)

    def known_numbers(self) -> set[float]:
        numbers: set[float] = set()

        def walk(value: Any) -> None:
            if isinstance(value, bool):
                return
            if isinstance(value, int | float):
                numbers.add(round(float(value), 2))
            elif isinstance(value, str):
                # amounts quoted inside text ("满¥600可分期" in a FAQ answer) are data too
                for raw in _NUMBER_IN_TEXT.findall(value):
                    numbers.add(round(float(raw.replace(",", "")), 2))
            elif isinstance(value, dict):
                for v in value.values():
                    walk(v)
            elif isinstance(value, list | tuple):
                for v in value:
                    walk(v)

        for result in self.results:
            walk(result.data)
        for match in re.findall(r"\d+(?:\.\d+)?", self.customer_text):
            numbers.add(round(float(match), 2))
        # an amount the customer said in words ("退我一百块吧", "refund two hundred")
        said = read_amount(self.customer_text, packs=self.packs, money_context=True)
        if said.kind == "exact" and said.amount is not None:
            numbers.add(round(float(said.amount), 2))
        return numbers


Rule = Callable[[ReplyFacts], list[str]]


def rule_not_empty(r: ReplyFacts) -> list[str]:
    return [] if r.draft.strip() else ["empty reply"]


def rule_no_unfilled_fields(r: ReplyFacts) -> list[str]:
    if "{" in r.draft or "}" in r.draft or "TODO" in r.draft:
        return ["unfilled template field"]
    return []


def rule_identifiers_known(r: ReplyFacts) -> list[str]:
    pattern = r.packs.identifier_pattern()
    if pattern is None:
        return []
    known = r.known_text()
    examples = _template_identifiers(r.lang, pattern.pattern) | frozenset(
        i for text in r.packs.templates(r.lang).values() for i in pattern.findall(text)
    )
    return [
        f"identifier {ident} is not in this turn's data"
        for ident in sorted(set(pattern.findall(r.draft)))
        if ident not in known and ident not in examples
    ]


@lru_cache(maxsize=16)
def _template_identifiers(lang: Lang, pattern: str) -> frozenset[str]:
    """Identifiers the reply templates themselves use as examples ("e.g. order 100123")."""
    templates = load_templates("minimal", "generate", lang)
    shape = re.compile(pattern)
    return frozenset(i for text in templates.values() for i in shape.findall(text))


def rule_amounts_and_dates_match(r: ReplyFacts) -> list[str]:
    violations: list[str] = []
    known = r.known_text()
    numbers = r.known_numbers()
    for raw in _AMOUNT.findall(r.draft):
        value = round(float(raw.replace(",", "")), 2)
        if value not in numbers:
            violations.append(f"amount ¥{raw} does not match any tool data")
    for date in sorted(set(_DATE.findall(r.draft))):
        if date not in known:
            violations.append(f"date {date} does not match any tool data")
    return violations


def rule_stale_needs_notice(r: ReplyFacts) -> list[str]:
    if not r.degrade.stale:
        return []
    marker = _stale_marker(r.lang)
    if marker in r.draft:
        return []
    sources = ", ".join(sorted(r.degrade.stale))
    return [f"stale data from {sources} is presented without a staleness notice"]


def rule_only_the_hotline(r: ReplyFacts) -> list[str]:
    hotline_digits = re.sub(r"\D", "", r.hotline)
    violations = []
    # dates and times ("2026-10-31 23:14") are digits with separators too: not phone numbers
    text = _DATETIME.sub(" ", r.draft)
    identifier = r.packs.identifier_pattern()
    for candidate in _PHONE.findall(text):
        number = candidate.strip()
        digits = re.sub(r"\D", "", number)
        if len(digits) < 8 or _DATE.fullmatch(number):
            continue
        if identifier is not None and identifier.fullmatch(number):
            continue
        if digits != hotline_digits:
            violations.append(f"phone number {number} is not the configured hotline")
    return violations


def rule_language_matches(r: ReplyFacts) -> list[str]:
    has_cjk = bool(_CJK.search(r.draft))
    if r.lang == "zh" and not has_cjk:
        return ["the customer wrote Chinese but the reply is not in Chinese"]
    if r.lang == "en" and has_cjk:
        # Chinese quoted word for word from the data (a ticket's subject) is the data's, not
        # the reply's language; anything else is
        data = json.dumps([x.model_dump(mode="json") for x in r.results], ensure_ascii=False)
        if any(run not in data for run in _CJK_RUN.findall(r.draft)):
            return ["the customer wrote English but the reply contains Chinese"]
    return []


def rule_no_false_success(r: ReplyFacts) -> list[str]:
    """A write that did not succeed is never described as done: neither in the templates'
    words nor in a model's ("I've cancelled order 100998", "订单 100998 已经取消")."""
    templates = load_templates("minimal", "generate", r.lang)
    violations = []
    phrases = done_phrases(r.packs)
    for result in r.results:
        cap = r.packs.for_tool(result.tool)
        key = cap.done_key if cap is not None else ""
        if not key or key not in templates or result.status is ToolStatus.OK:
            continue
        subject = _subject_of(r, result, cap.subject if cap is not None else "")
        values = {cap.subject: subject} if cap is not None and cap.subject else {}
        claim = _claim_prefix(templates[key], values, r.lang)
        said = bool(claim and claim in r.draft)
        done = phrases.get(result.tool)
        # A business refusal quotes the object's real state (an order "已取消" before): only
        # its template wording counts as a claim there.
        paraphrase_check = result.error_class is not ErrorClass.BUSINESS
        if not said and done is not None and subject and paraphrase_check:
            said = any(
                subject in sentence and done.search(sentence)
                for sentence in _SENTENCE_SPLIT.split(r.draft)
            )
        if said:
            violations.append(
                f"{result.tool} is {result.status.value} but the reply says it is done"
            )
    return violations


def _subject_of(r: ReplyFacts, result: ToolResult, subject: str) -> str:
    """The object a write acted on (its capability's :attr:`~Capability.subject` argument)."""
    if not subject:
        return ""
    data = result.data if isinstance(result.data, dict) else {}
    args = r.actions.get(result.call_id) or data.get("args") or {}
    return str(args.get(subject) or data.get(subject) or "")


_DONE_EN = r"complete[d]?|processed|issued|done|submitted|approved|filed"
_DONE_EN_FIRST_PERSON = r"processed|issued|submitted|completed|filed"
_DONE_ZH = r"完成|处理|提交|办理"


def _done_any(packs: PackSet) -> re.Pattern[str]:
    """A sentence claiming something was done: the generic verbs plus every write
    capability's :attr:`~Capability.done_words`."""
    caps = packs.capabilities()
    en = "|".join(w for c in caps for w in c.done_words.get("en", ()))
    zh = "|".join(w for c in caps for w in c.done_words.get("zh", ()))
    en_all = f"{en}|{_DONE_EN}" if en else _DONE_EN
    en_mine = f"{en}|{_DONE_EN_FIRST_PERSON}" if en else _DONE_EN_FIRST_PERSON
    zh_all = f"{zh}|{_DONE_ZH}" if zh else _DONE_ZH
    zh_success = f"{zh}|办理" if zh else "办理"
    return re.compile(
        r"\b(?:is|are|has been|have been|was|were)\s+(?:now\s+|already\s+|successfully\s+)?"
        rf"(?:{en_all})\b"
        r"|\b(?:i'?ve|i have|we'?ve|we have)\s+(?:now\s+|already\s+|successfully\s+)?"
        rf"(?:{en_mine})\b"
        r"|\bsuccessfully\b|\bwent through\b"
        rf"|已(?:经)?(?:为您|帮您)?(?:成功)?(?:{zh_all})|(?:{zh_success})成功",
        re.IGNORECASE,
    )


def _state_read(sentence: str, ident: str, reads: list[str], packs: PackSet) -> bool:
    """The sentence states what live data shows: a done word of the sentence ("is paid") is the
    value a read of this object returned (``"status": "paid"``) — a state, not a claimed action."""
    words = {
        w.lower()
        for c in packs.capabilities()
        for w in c.done_words.get("en", ())
        if re.search(rf"\b{re.escape(w)}\b", sentence, re.IGNORECASE)
    }
    return any(ident in data and any(f'"{w}"' in data for w in words) for data in reads)


def _claim_stems(packs: PackSet) -> list[tuple[re.Pattern[str], str]]:
    return [
        (re.compile(c.claim_stem, re.IGNORECASE), c.evidence)
        for c in packs.capabilities()
        if c.claim_stem and c.evidence
    ]


def _subject_pattern(packs: PackSet) -> re.Pattern[str] | None:
    """The identifiers write capabilities act on (their :attr:`~Capability.subject` shapes)."""
    shapes = packs.identifier_shapes()
    subjects = sorted(
        {
            shapes[c.subject]
            for c in packs.capabilities()
            if c.kind != "read" and c.subject in shapes
        }
    )
    if not subjects:
        return None
    return re.compile(r"(?<!\d)(?:" + "|".join(f"(?:{s})" for s in subjects) + r")(?!\d)")


# "I can't confirm yet whether it went through", "没有办理成功": not a claim
_NOT_A_CLAIM = re.compile(
    r"\b(?:not|never|whether|no)\b|n't|没有|无法|未|不|是否|尚未|还没", re.IGNORECASE
)


def rule_no_unconfirmed_done_claim(r: ReplyFacts) -> list[str]:
    """No sentence may say an action on an object is done unless this turn's results (or the
    start-of-turn reconciliation) show it done — whatever the wording and whichever tier wrote
    it. A claim about an object passes when a write on it succeeded this turn, when an earlier
    write on it was reconciled as executed, or when live data about it shows that state (an
    order read as cancelled, a refund id on it)."""
    ok_writes = json.dumps(
        [
            [r.actions.get(x.call_id, {}), x.data]
            for x in r.results
            if x.status is ToolStatus.OK and x.idempotency_key
        ],
        ensure_ascii=False,
        default=str,
    )
    reconciled = json.dumps(
        [x for x in r.facts.get("reconciled", []) if x.get("state") == "executed"]
        # writes done on earlier turns of the session ("what I already did stands: …")
        + list(r.facts.get(WRITES_DONE) or []),
        ensure_ascii=False,
        default=str,
    )
    reads = [
        json.dumps(x.data, ensure_ascii=False, default=str)
        for x in r.results
        if x.usable and not x.idempotency_key
    ]
    violations: list[str] = []
    subjects = _subject_pattern(r.packs)
    if subjects is None:
        return violations
    done_any = _done_any(r.packs)
    claim_stems = _claim_stems(r.packs)
    for sentence in _SENTENCE_SPLIT.split(r.draft):
        if not done_any.search(sentence) or _NOT_A_CLAIM.search(sentence):
            continue
        for ident in sorted(set(subjects.findall(sentence))):
            if ident in ok_writes or ident in reconciled:
                continue
            stems = [marker for pattern, marker in claim_stems if pattern.search(sentence)]
            shown = any(ident in data and all(marker in data for marker in stems) for data in reads)
            if stems and shown:
                continue
            if not stems and _state_read(sentence, ident, reads, r.packs):
                continue
            violations.append(f"the reply says an action on {ident} is done; nothing shows that")
    return violations


def rule_failed_lookup_not_empty(r: ReplyFacts) -> list[str]:
    """A failed lookup is never turned into "there are none" (the capability's empty wording or
    one of its :attr:`~Capability.empty_patterns`)."""
    templates = {**r.packs.templates(r.lang), **load_templates("minimal", "generate", r.lang)}
    violations = []
    for result in r.results:
        cap = r.packs.for_tool(result.tool)
        if cap is None or result.usable or not (cap.empty_key or cap.empty_patterns):
            continue
        key = cap.empty_key
        claim = _claim_prefix(templates[key], {}, r.lang) if key in templates else ""
        if (claim and claim in r.draft) or _says_empty(cap, r.draft):
            violations.append(f"{result.tool} failed but the reply presents an empty result")
    return violations


def _says_empty(cap: Capability | None, draft: str) -> bool:
    """The draft says "there are none" in one of the capability's paraphrases."""
    if cap is None or not cap.empty_patterns:
        return False
    return re.search("|".join(cap.empty_patterns), draft, re.IGNORECASE) is not None


RULES: tuple[Rule, ...] = (
    rule_not_empty,
    rule_no_unfilled_fields,
    rule_identifiers_known,
    rule_amounts_and_dates_match,
    rule_stale_needs_notice,
    rule_only_the_hotline,
    rule_language_matches,
    rule_no_false_success,
    rule_no_unconfirmed_done_claim,
    rule_failed_lookup_not_empty,
)


def find_violations(facts: ReplyFacts, rules: Sequence[Rule] = RULES) -> list[str]:
    """Every violation of every rule, in rule order."""
    return [violation for rule in rules for violation in rule(facts)]


def _stale_marker(lang: Lang) -> str:
    """The fixed tail every staleness notice ends with (``may not be up to date``)."""
    template = load_templates("minimal", "generate", lang)["stale_notice"]
    return template.rsplit("}", 1)[-1].strip(" .。")


def _claim_prefix(template: str, values: dict[str, str], lang: Lang) -> str:
    """The template's text up to the first field we cannot fill: what a claim starts with."""
    out = []
    filled = 0
    for literal, name in _split_template(template):
        out.append(literal)
        if name is None:
            break
        if name not in values or not values[name]:
            break
        out.append(values[name])
        filled += 1
    if filled == 0 and any(n for _, n in _split_template(template)):
        return ""  # nothing specific to look for: "Order " alone is no claim
    prefix = "".join(out).strip()
    if lang == "zh":
        prefix = re.sub(r"([\u4e00-\u9fff])([A-Za-z0-9¥])", r"\1 \2", prefix)
        prefix = re.sub(r"([A-Za-z0-9])([\u4e00-\u9fff])", r"\1 \2", prefix)
    return prefix if len(prefix) >= 4 else ""


def _split_template(template: str) -> list[tuple[str, str | None]]:
    parts: list[tuple[str, str | None]] = []
    pos = 0
    for match in re.finditer(r"\{(\w+)\}", template):
        parts.append((template[pos : match.start()], match.group(1)))
        pos = match.end()
    parts.append((template[pos:], None))
    return parts
