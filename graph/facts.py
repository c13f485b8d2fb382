"""Session facts read from customer text: order ids, SKUs, stated preferences and asks (zh + en).

Facts are what must survive context compaction and session resets, so reading them is pure and
deterministic: :func:`extract_facts` takes one customer message and the facts so far and returns
the merged dict (``order_ids``, ``skus``, ``preferences``, ``asks``; every other key is passed
through untouched). Lists are de-duplicated with the latest mention last and capped, so the
oldest mention is the first to go. Identifiers come from the loaded packs
(:meth:`helpdesk.tools.packs.PackSet.text_facts`); preferences are the customer's own sentence,
kept verbatim ("先发两件，剩下的以后再发", "please don't call me"), because a paraphrase is
exactly what a customer disputes later.
:func:`render_facts` turns the dict into the compact block that leads every conversation summary.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from helpdesk.graph.language import Lang, contains_cjk
from helpdesk.graph.prompting import load_templates
from helpdesk.tools.packs import PackSet

__all__ = [
    "ASKS_CAP",
    "FACT_KEYS",
    "LIST_CAP",
    "extract_facts",
    "merge_facts",
    "merge_ids",
    "render_facts",
    "split_sentences",
]

FACT_KEYS: Final = ("order_ids", "skus", "preferences", "asks")
"""The keys :func:`extract_facts` owns; any other key of the facts dict is left as it is."""
LIST_CAP: Final = 20
"""At most this many entries per fact list (the most recent are kept)."""
ASKS_CAP: Final = 10
"""At most this many asks (the most recent are kept)."""
_TEXT_CAP = 100
"""Characters kept of one preference; longer ones end in an ellipsis."""
_ASK_CHARS = 80
"""Characters kept of one ask."""
_TRAILING = "。.;；,，、 "

_SENTENCE = re.compile(r"(?:[^。！？!?；;\n.]|\.(?!\s|$))+[。！？!?；;\n.]*")

_PREFERENCE_PATTERNS: Final[tuple[re.Pattern[str], ...]] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        # split shipment
        r"先发|分批|分开(?:发|寄|送)|拆单|剩(?:下|余)的?.{0,8}(?:再发|后发|以后|晚点|之后|再寄)",
        r"\b(?:the )?(?:rest|remainder|remaining(?: ones| items)?|others)\b.{0,20}\blater\b",
        r"\bsplit (?:the |my )?(?:shipment|order|delivery|package)|\bpartial(?:ly)? ship",
        r"\bship (?:them |it |the items )?(?:separately|in (?:two|parts|batches))",
        # contact
        r"(?:不要|别|请勿|不用|勿)(?:给我)?(?:打电话|来电|致电|打我电话|电话|发短信|短信)",
        r"(?:只|请|最好)(?:用|通过|发)?(?:邮件|短信|微信)(?:联系|通知|沟通)?",
        r"(?:晚上|下午|上午|早上|中午|白天|\d+\s*点)(?:以后|之后|以前|之前|后|前)?.{0,4}"
        r"(?:联系|打电话|来电|致电)",
        r"\b(?:don'?t|do not|never|no|stop)\b.{0,12}\b(?:call|calls|calling|phone|ring|text|sms|"
        r"e-?mail|contact)",
        r"\b(?:call|phone|contact|reach|text)\b (?:me )?(?:only )?(?:after|before|between|"
        r"in the (?:morning|afternoon|evening)|on weekends?|by (?:e-?mail|sms|text|phone)|via)",
        r"\b(?:prefer|rather)\b.{0,30}\b(?:e-?mail|sms|text|phone|wechat|chat)\b",
        r"\b(?:e-?mail|sms|text|wechat) (?:only|me instead)\b",
        # delivery place and time
        r"(?:送|寄|派送|配送|发)到(?:我的?)?(?:公司|单位|家|家里|办公室|门卫|前台|快递柜|驿站|丰巢)",
        r"(?:放|寄存|交给)(?:在|到)?.{0,3}(?:门卫|前台|快递柜|驿站|门口|丰巢|邻居)",
        r"(?:周末|周六|周日|星期六|星期天|星期日|工作日|白天|晚上|上午|下午)(?:再)?"
        r"(?:送货|送|配送|派送|收货)",
        r"(?:送货|配送|派送|收货)(?:时间)?.{0,4}(?:周末|周六|周日|工作日|晚上|上午|下午)",
        r"\bdeliver(?:y|ed|ies)?\b.{0,25}\b(?:office|work|workplace|company|home|front desk|"
        r"reception|neighbou?r|locker|door|concierge|weekends?|saturdays?|sundays?|weekdays?|"
        r"mornings?|afternoons?|evenings?)\b",
        r"\b(?:weekends?|saturdays?|sundays?|weekdays?|mornings?|afternoons?|evenings?)\b.{0,15}"
        r"\bdeliver",
        r"\bleave (?:it|them|the (?:package|parcel|box))\b.{0,20}\b(?:at|with|by|outside|in)\b",
        # language
        r"(?:用|说|讲)(?:中文|英文|英语|汉语|普通话)|(?:中文|英文|英语)(?:回复|回答|交流|沟通)",
        r"\b(?:reply|answer|respond|speak|talk|write|communicate)\b.{0,15}\bin (?:english|"
        r"chinese|mandarin)\b|\b(?:english|chinese|mandarin) (?:please|only)\b",
    )
)
# A sentence opening with one of these asks about the delivery rather than stating a wish.
_QUESTION_OPENING = re.compile(
    r"^\s*(?:when|where|what|how|why|is|does|did|has|have|什么时候|何时|哪|多久|为什么|怎么)",
    re.IGNORECASE,
)
_ASK_SIGNAL = re.compile(
    r"[?？吗呢]|请|帮|查|想|要|能不能|能否|可以|可否|取消|退款|退货|换货|物流|快递|什么时候|哪|多少|"
    r"怎么|为什么|发票|催|改|\b(?:please|can you|could you|would you|i want|i'd like|i would like|"
    r"i need|help|check|where|when|what|how|why|cancel|refund|return|track|change|update|send|"
    r"ship|deliver|exchange|replace|invoice|status)\b",
    re.IGNORECASE,
)


def _labels(lang: Lang) -> dict[str, str]:
    """Labels of the facts block (model-facing text, from prompts/minimal/context)."""
    templates = load_templates("minimal", "context", lang)
    return {k.removeprefix("facts_"): v for k, v in templates.items() if k.startswith("facts_")}


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``, split at Chinese and English terminators (commas do not split).

    A full stop splits only when followed by whitespace or the end, so "12.5" stays whole.
    """
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def _clip(text: str, limit: int = _TEXT_CAP) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _as_list(value: Any) -> list[str]:
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return []


def _merge_list(old: Iterable[str], new: Iterable[str], cap: int) -> list[str]:
    """``old`` then ``new`` without duplicates, a repeated entry moving to the end; last ``cap``."""
    merged: list[str] = []
    for item in (*old, *new):
        if item in merged:
            merged.remove(item)
        merged.append(item)
    return merged[-cap:]


def merge_facts(
    facts: Mapping[str, Any],
    *,
    order_ids: Iterable[str] = (),
    skus: Iterable[str] = (),
    preferences: Iterable[str] = (),
    asks: Iterable[str] = (),
) -> dict[str, Any]:
    """A new facts dict with the given entries appended to their lists (de-duplicated, capped).

    Keys other than :data:`FACT_KEYS` are copied unchanged; ``facts`` itself is not modified.
    """
    merged = dict(facts)
    for key, new, cap in (
        ("order_ids", order_ids, LIST_CAP),
        ("skus", skus, LIST_CAP),
        ("preferences", preferences, LIST_CAP),
        ("asks", asks, ASKS_CAP),
    ):
        merged[key] = _merge_list(_as_list(facts.get(key)), new, cap)
    return merged


def merge_ids(facts: Mapping[str, Any], found: Mapping[str, Iterable[str]]) -> dict[str, Any]:
    """A new facts dict with identifiers appended to the fact lists named by ``found``'s keys
    (any key: packs name their own, :attr:`helpdesk.tools.packs.Pack.facts`), de-duplicated and
    capped like :func:`merge_facts`."""
    merged = dict(facts)
    for key, new in found.items():
        merged[key] = _merge_list(_as_list(facts.get(key)), new, LIST_CAP)
    return merged


def _is_preference(sentence: str) -> bool:
    return not _QUESTION_OPENING.match(sentence) and any(
        p.search(sentence) for p in _PREFERENCE_PATTERNS
    )


def _preferences_and_ask(text: str) -> tuple[list[str], str | None]:
    """Preference sentences, and the rest of the message when it asks for something.

    A message that only states preferences is not also an ask: it would say the same thing twice
    in a summary.
    """
    preferences: list[str] = []
    rest: list[str] = []
    for sentence in split_sentences(text):
        (preferences if _is_preference(sentence) else rest).append(sentence)
    remainder = ("" if contains_cjk(text) else " ").join(rest)
    ask = _clip(remainder, _ASK_CHARS) if _ASK_SIGNAL.search(remainder) else None
    return [_clip(p.rstrip(_TRAILING)) for p in preferences], ask


def extract_facts(text: str, facts: Mapping[str, Any], *, packs: PackSet) -> dict[str, Any]:
    """Facts in one customer message, merged into ``facts`` (which is not modified).

    Args:
        text: the customer's message, Chinese or English.
        facts: the session's facts so far; keys this function does not own are kept as they are.
        packs: the loaded packs: the identifiers they read in the message, by fact key.

    Returns:
        The merged dict with ``order_ids``, ``skus``, ``preferences`` (verbatim sentences) and
        ``asks`` (the message itself, clipped, when it asks for something) as lists.
    """
    preferences, ask = _preferences_and_ask(text)
    merged = merge_facts(facts, preferences=preferences, asks=[ask] if ask else [])
    return merge_ids(merged, packs.text_facts(text))


def _render_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def render_facts(facts: Mapping[str, Any], lang: Lang) -> str:
    """A compact text block of ``facts`` for a summary; empty when there is nothing to say.

    The owned lists come first in a fixed order; other keys (identity, a pending confirmation)
    follow sorted by name. Nothing is truncated: facts are the part of a summary that must survive.
    """
    labels = _labels(lang)
    lines: list[str] = []
    for key in FACT_KEYS:
        values = _as_list(facts.get(key))
        if values:
            sep = labels["id_sep"] if key in ("order_ids", "skus") else labels["sep"]
            lines.append(f"- {labels[key]}{labels['colon']}{sep.join(values)}")
    for key in sorted(k for k in facts if k not in FACT_KEYS and not k.startswith("_")):
        value = facts[key]
        if value is None or value == "" or value == [] or value == {}:
            continue
        lines.append(f"- {key}{labels['colon']}{_render_value(value)}")
    return "\n".join([labels["title"], *lines]) if lines else ""
