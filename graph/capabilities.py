"""The turn's generic side of capability packs: understand, plan and reply for any pack.

Nothing here names a pack's tools, statuses or fields: it reads them from the loaded
:class:`~helpdesk.tools.packs.PackSet`. :func:`match_packs` finds pack intents in a message
(a pack's own understanding first, then its intents' patterns, never a negated or questioned
write); :func:`pack_call` turns one into a tool call with the capability's extractor (money
amounts read by :func:`~helpdesk.graph.money.read_amount`, missing required arguments asked for,
never guessed); :func:`render_item` writes the reply paragraph from the pack's templates
(``<intent>.<outcome>``) or, for a tool registered without a capability, a generic and truthful
rendering of its result (ok data summarised; a failure never shown as done).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from helpdesk.degrade.errors import ErrorClass
from helpdesk.graph.intents import (
    DEFERRED_PART,
    Intent,
    MatchedIntent,
    plain_match,
    split_clauses,
)
from helpdesk.graph.language import Lang, detect_language
from helpdesk.graph.money import read_amount
from helpdesk.graph.prompting import TemplateError, load_templates, render
from helpdesk.graph.request import RESOLVED
from helpdesk.tools.packs import Capability, PackSet
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus

__all__ = [
    "describe_pack_action",
    "match_packs",
    "merge_matches",
    "missing_args",
    "pack_call",
    "render_item",
    "summarize_data",
]

_GENERIC_FALLBACK = frozenset({Intent.UNKNOWN, Intent.GREETING, Intent.THANKS})
_SUMMARY_FIELDS = 8
_SUMMARY_CHARS = 300


def match_packs(text: str, lang: Lang, facts: Mapping[str, Any], packs: PackSet) -> list[Any]:
    """Every pack intent asked for in ``text``, clause by clause, as ``MatchedIntent(PACK)``.

    A pack's own understanding is asked first; the generic matcher then tries each intent's
    patterns. A clause that negates an intent ("don't redeem") or only asks about a write or
    money action ("how does converting work?") never becomes that action.
    """
    found: list[MatchedIntent] = []
    for pack in packs:
        if pack.understand is None:
            continue
        for item in pack.understand(text, lang, facts):
            if packs.for_intent(item.intent) is None:
                continue
            found.append(
                MatchedIntent(
                    intent=Intent.PACK,
                    text=item.text,
                    lang=detect_language(item.text, default=lang),
                    capability=item.intent,
                    args=dict(item.args),
                )
            )
    if found:
        return found
    for clause in split_clauses(text) or [text]:
        for cap in packs.capabilities():
            for spec in cap.intents:
                if not spec.patterns or not _matches(spec.patterns, clause):
                    continue
                if _matches(spec.negations, clause):
                    continue
                if cap.kind != "read" and _matches(spec.questions, clause):
                    continue
                found.append(
                    MatchedIntent(
                        intent=Intent.PACK,
                        text=clause,
                        lang=detect_language(clause, default=lang),
                        capability=spec.name,
                    )
                )
                break
    return _unique(found)


def merge_matches(
    builtin: Sequence[MatchedIntent],
    from_packs: Sequence[MatchedIntent],
    packs: PackSet | None = None,
) -> list[MatchedIntent]:
    """The built-in matches plus the packs': a clause a pack claimed is the pack's; what the
    built-in matcher could not place (unknown, a bare greeting) gives way to pack requests,
    except a part of the message it deferred as unread that no pack claimed ("can you change
    the address of 100904 and gift wrap it": the gift wrap is still said to be unread).

    A built-in match whose text only *contains* a claimed clause (its own clause plus the
    claimed one folded in) is dropped when it is a read, but an action the customer asked for
    in the same message ("T-000031 还没处理，我要转人工") is kept, and so is a read whose own
    arguments are named outside the claimed clause ("where is 100683, my address changed").
    """
    if not from_packs:
        return list(builtin)
    claimed = [m.text.lower() for m in from_packs]

    def is_action(match: MatchedIntent) -> bool:
        cap = packs.for_intent(match.capability) if packs is not None else None
        return cap is not None and cap.kind != "read"

    kept = []
    for m in builtin:
        text = m.text.lower()
        if _deferred_part(m) and not any(c and (text in c or c in text) for c in claimed):
            kept.append(m)  # a part no one read is still said to be unread
            continue
        if m.intent in _GENERIC_FALLBACK or any(c and text in c for c in claimed):
            continue
        if any(c and c in text and not _named_outside(m, text, c) for c in claimed) and not (
            is_action(m)
        ):
            continue
        kept.append(m)
    # "我的投诉处理得怎么样了，单号T-000031": a pattern's clause naming what a built-in request of
    # the same capability already carries is that request, not a second one
    extra = [p for p in from_packs if not any(_same_request(b, p) for b in kept)]
    # what was read is answered first, then the parts no one read are named
    unread = [m for m in kept if _deferred_part(m)]
    return [*(m for m in kept if not _deferred_part(m)), *extra, *unread]


def _same_request(built: MatchedIntent, found: MatchedIntent) -> bool:
    if built.intent is not Intent.PACK or built.capability != found.capability:
        return False
    text = found.text.lower()
    values = [str(v).lower() for v in built.args.values() if isinstance(v, str) and v]
    return any(v in text for v in values)


def _named_outside(match: MatchedIntent, text: str, claimed: str) -> bool:
    """Whether the match reads a clause of its own beside the one a pack claimed: its own
    arguments (an identifier it read) appear outside that clause, or — a read naming none —
    the words outside it are a question of their own ("我最近一单是啥 还能改地址不")."""
    rest = text.replace(claimed, " ")
    values = [str(v).lower() for v in match.args.values() if isinstance(v, str) and v]
    if values:
        return all(v in rest for v in values)
    return len(_HAN.findall(rest)) >= _OWN_QUESTION_HAN and bool(_ASKED_ZH.search(rest))


_HAN = re.compile(r"[\u3400-\u9fff]")
_OWN_QUESTION_HAN = 4
"""Chinese characters outside a claimed clause that can ask a question of their own."""
_ASKED_ZH = re.compile(r"[吗么呢啥嘛?？]|什么|多少|几|哪")


def _deferred_part(match: MatchedIntent) -> bool:
    return match.intent is Intent.UNKNOWN and match.details == DEFERRED_PART


def missing_args(cap: Capability, args: Mapping[str, Any]) -> list[str]:
    return [name for name in cap.required if args.get(name) in (None, "")]


def pack_args(
    match: MatchedIntent, cap: Capability, facts: Mapping[str, Any], packs: PackSet
) -> dict[str, Any]:
    """The tool arguments for a pack request: the pack's own reading, then its extractor, then
    money amounts read generically (exact amounts only; anything else is left missing; the
    loaded ``packs``' identifiers are never read as amounts)."""
    args: dict[str, Any] = {}
    if cap.extract is not None:
        args.update(cap.extract(match.text, facts))
    # what the subject lookup found ("resolved") is the reply's, never a tool argument
    args.update({k: v for k, v in match.args.items() if v is not None and k != RESOLVED})
    for name in cap.amounts:
        if name in args or name not in cap.required:
            continue
        reading = read_amount(match.text, money_context=True, packs=packs)
        if reading.kind == "exact" and reading.value is not None:
            args[name] = reading.value
    return args


def pack_call(
    match: MatchedIntent, task_id: str, *, facts: Mapping[str, Any], packs: PackSet
) -> ToolCall | None:
    """The call serving a pack request; None when a required argument is missing."""
    cap = packs.for_intent(match.capability)
    if cap is None:
        return None
    if cap.plan is not None:
        planned = cap.plan({**plain_match(match), "intent": match.capability}, facts)
        if planned is None:
            return None
        return ToolCall(
            name=planned.tool, args=planned.args, id=task_id, ask_first=planned.ask_first
        )
    args = pack_args(match, cap, facts, packs)
    if missing_args(cap, args):
        return None
    return ToolCall(name=cap.tool, args=args, id=task_id)


# --- replies ----------------------------------------------------------------------------------


def _outcome_key(result: ToolResult) -> str:
    status = result.status
    if status in (ToolStatus.OK, ToolStatus.STALE):
        return "ok"
    if status is ToolStatus.DEGRADED:
        return "fallback"
    if status is ToolStatus.NEEDS_CONFIRMATION:
        return "needs_confirmation"
    if status is ToolStatus.UNKNOWN:
        return "unknown"
    if status is ToolStatus.FAILED and result.error_class is ErrorClass.BUSINESS:
        return "refused"
    return "failed"


def render_item(
    match: MatchedIntent,
    result: ToolResult | None,
    lang: Lang,
    *,
    hotline: str,
    packs: PackSet,
    age_text: str = "",
) -> tuple[str, bool]:
    """One request's paragraph from its capability's templates (or generically for a tool with
    no capability). Returns (text, trouble): trouble means the customer may need another way."""
    generic = load_templates("minimal", "generate", lang)
    cap = _capability(match, result, packs)
    own = packs.templates(lang)
    intent = match.capability or ((packs.intent_for_tool(result.tool) or "") if result else "")
    tool = result.tool if result is not None else (cap.tool if cap else "")
    what = _what(intent or "", tool, own, generic, hotline)
    if result is None:
        args = pack_args(match, cap, {}, packs) if cap is not None else {}
        missing = missing_args(cap, args) if cap is not None else []
        values = {**args, "missing": ", ".join(missing), "what": what}
        return _say(own, generic, f"{intent}.missing", "generic_missing", hotline, values), False
    values = _values(result, cap)
    values["what"] = what
    outcome = _outcome_key(result)
    keys: list[str] = []
    if outcome == "refused":
        code = _dict(result.data).get("code")
        if code:
            keys.append(f"{intent}.refused.{code}")
    keys.append(f"{intent}.{outcome}")
    generic_key = _generic_key(outcome, result, cap)
    text = _say_first(own, generic, keys, generic_key, hotline, values)
    if result.status is ToolStatus.STALE:
        text = render(generic["stale_notice"], hotline=hotline, age=age_text) + "\n" + text
    trouble = outcome in ("fallback", "failed", "unknown")
    return text, trouble


def describe_pack_action(
    tool: str, args: Mapping[str, Any], lang: Lang, *, hotline: str, packs: PackSet
) -> str:
    """How a pack action is named in notices ("the conversion of 500 points")."""
    generic = load_templates("minimal", "generate", lang)
    own = packs.templates(lang)
    intent = packs.intent_for_tool(tool)
    values = {**{k: _plain(v) for k, v in args.items()}, "tool": tool}
    return _say(own, generic, f"{intent}.describe", "generic_what", hotline, values)


def summarize_data(data: Any) -> str:
    """A short, faithful text of a tool's data: top-level fields as ``name: value``."""
    if isinstance(data, Mapping):
        parts = []
        for key, value in list(data.items())[:_SUMMARY_FIELDS]:
            parts.append(f"{key}: {_short(value)}")
        text = "; ".join(parts)
    elif isinstance(data, list):
        text = "; ".join(_short(v) for v in data[:_SUMMARY_FIELDS])
    else:
        text = _short(data)
    return text[:_SUMMARY_CHARS]


def _short(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, str | int | bool) or value is None:
        return str(value)
    return json.dumps(value, ensure_ascii=False, default=str)[:80]


def _generic_key(outcome: str, result: ToolResult, cap: Capability | None) -> str:
    if outcome == "ok":
        write = (cap.kind != "read") if cap is not None else result.idempotency_key is not None
        return "generic_write_ok" if write else "generic_ok"
    if outcome == "unknown" and result.ticket_id:
        return "generic_unknown_ticket"
    return f"generic_{outcome}"


def _capability(
    match: MatchedIntent, result: ToolResult | None, packs: PackSet
) -> Capability | None:
    if match.capability:
        return packs.for_intent(match.capability)
    return packs.for_tool(result.tool) if result is not None else None


def _values(result: ToolResult, cap: Capability | None) -> dict[str, Any]:
    data = _dict(result.data)
    args = _dict(data.get("args")) if result.status is ToolStatus.NEEDS_CONFIRMATION else {}
    values: dict[str, Any] = {k: _plain(v) for k, v in {**data, **args}.items()}
    for name in cap.amounts if cap is not None else ():
        if isinstance(values.get(name), int | float) and not isinstance(values.get(name), bool):
            values[name] = f"{float(values[name]):.2f}"
    values.update(
        tool=result.tool,
        summary=summarize_data(args or result.data),
        ticket_id=result.ticket_id or "",
        reason=result.reason or "",
    )
    return values


def _what(
    intent: str, tool: str, own: Mapping[str, str], generic: Mapping[str, str], hotline: str
) -> str:
    key = f"{intent}.what"
    if key in own:
        return render(own[key], hotline=hotline)
    return render(generic["generic_what"], hotline=hotline, tool=tool)


def _say(
    own: Mapping[str, str],
    generic: Mapping[str, str],
    key: str,
    generic_key: str,
    hotline: str,
    values: Mapping[str, Any],
) -> str:
    return _say_first(own, generic, [key], generic_key, hotline, values)


def _say_first(
    own: Mapping[str, str],
    generic: Mapping[str, str],
    keys: Sequence[str],
    generic_key: str,
    hotline: str,
    values: Mapping[str, Any],
) -> str:
    fields = {k: v for k, v in values.items() if k != "hotline"}
    for key in keys:
        if key in own:
            try:
                return render(own[key], hotline=hotline, **fields)
            except TemplateError:
                continue  # a field the data lacks: say it generically rather than guess
    return render(generic[generic_key], hotline=hotline, **fields)


def _matches(patterns: Sequence[str], text: str) -> bool:
    return any(re.search(p, text, re.IGNORECASE) for p in patterns)


def _unique(items: list[MatchedIntent]) -> list[MatchedIntent]:
    seen: set[tuple[str, str]] = set()
    out = []
    for item in items:
        key = (item.capability, item.text)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _plain(value: Any) -> Any:
    return value if isinstance(value, str | int | float | bool) or value is None else _short(value)
