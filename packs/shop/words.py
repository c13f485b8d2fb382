"""The demo shop's words: what is left of a stock question once the question words are gone."""

from __future__ import annotations

import re

__all__ = ["product_query"]

_STOCK_WORDS = re.compile(
    r"还有货吗|有没有货|有货吗|有货没|还有吗|库存|有货|现货|缺货|还有|有吗|吗|呢|么|请问|我想买|想要|想买|要买|买|我想|"
    r"\b(?:is|are|the|a|an|in|stock|available|availability|do|you|have|any|still|of|there|"
    r"please|check|can|i|buy|get|left|how|many|much)\b|[?？!！.,，。、]",
    re.IGNORECASE,
)


def product_query(text: str) -> str | None:
    """The product words of a stock question without a SKU ("耳机有货吗" -> "耳机"), or None."""
    rest = _STOCK_WORDS.sub(" ", text.lower())
    rest = re.sub(r"\d+\s*(?:个|件|台|pcs?|units?)?", " ", rest)
    rest = " ".join(rest.split())
    if not rest:
        return None
    if re.search(r"[\u4e00-\u9fff]", rest):
        return rest.replace(" ", "") if len(rest.replace(" ", "")) >= 2 else None
    return rest if len(rest) >= 3 else None
