"""The demo shop's words: what is left of a product question once the question words are gone."""

from __future__ import annotations

import re

__all__ = ["is_complaint", "product_query"]

# "我要投诉" / "I want to complain": acknowledge and offer a ticket; an explicit ticket request
# ("open a ticket", "提交工单") or a concrete fault ("broken") is filed as asked.
_COMPLAINT = re.compile(r"\bcomplain(?:t|ts|ing|ed)?\b|投诉", re.IGNORECASE)
_TICKET_ASKED = re.compile(
    r"\b(?:open|file|create|raise|submit|log) (?:a |an )?(?:support |complaint )?ticket\b"
    r"|工单|提交|登记",
    re.IGNORECASE,
)


def is_complaint(text: str) -> bool:
    """Whether a ticket request is a complaint to acknowledge and ask about before filing."""
    return bool(_COMPLAINT.search(text)) and not _TICKET_ASKED.search(text)


# Question scaffolding around a product: "do you have ... in stock?", "...多少钱", "有没有...的".
_ZH_FRAME = re.compile(
    r"还有货吗|有没有货|有货吗|有货没|有货|还有吗|还有没有|有没有|有吗|没货|现货|缺货|库存|补货|到货|"
    r"卖完了吗|卖完了|卖完|售罄|还卖吗|卖吗|有卖|你们家|你们|请问|我想买|想要|想买|要买|我想|"
    r"多少钱一个|多少钱|什么价|啥价|价格|价钱|什么时候|啥时候|何时|几时|那种|那个|这个|那款|这款|"
    r"想问问|问问|问一下|看一下|看看|现在|目前|"
    r"一个|一下|吗|呢|么|呀|啊|吧|的|了|还|卖|买|有"
)
_EN_FRAME = re.compile(
    r"\b(?:is|are|the|a|an|in|stock|available|availability|do|does|you|u|ya|have|has|any|anything|"
    r"still|of|there|please|check|can|could|i|buy|get|got|left|how|many|much|sell|selling|sold|"
    r"carry|out|price|prices|priced|cost|costs|when|will|be|coming|back|restock|restocked|again|"
    r"need|want|looking|for|like|one|ones|some|what|which|it|they|them|your|my|me|we|to|guys|"
    r"hey|hi|hello|thanks|pls|plz|right|now|today|enough|stock|instock)\b|[?？!！.,，。、~]",
    re.IGNORECASE,
)
# A quantity ("3个", "2 pcs"), not a product attribute ("65W", "27寸", "28cm", "S3")
_QUANTITY = re.compile(
    r"(?<![a-z0-9])\d+\s*(?:个|件|台|只|pcs?|units?)(?![a-z0-9])"
    r"|(?<![a-z0-9-])\d+(?![a-z0-9\u3400-\u9fff])"
)
_LOCATION = re.compile(r"\b(?:in|at|to)\s+[a-z]+$|(?:在|到)[\u3400-\u9fff]{2,3}$", re.IGNORECASE)


def product_query(text: str) -> str | None:
    """The product words of a product question without a SKU, or None.

    "耳机多少钱" -> "耳机", "do u have the mens down jacket in stock" -> "mens down jacket",
    "有没有65W的充电器" -> "65w 充电器". Chinese and English words are kept apart by spaces.
    """
    rest = text.lower().replace("’", "'")
    rest = _LOCATION.sub(" ", rest.strip(" ?？!！.。"))
    rest = _ZH_FRAME.sub(" ", rest)
    rest = _EN_FRAME.sub(" ", rest)
    rest = _QUANTITY.sub(" ", rest)
    rest = re.sub(r"(?<=[\u3400-\u9fff])(?=[a-z0-9])|(?<=[a-z0-9])(?=[\u3400-\u9fff])", " ", rest)
    words = rest.split()
    if not words:
        return None
    joined = " ".join(words)
    if re.search(r"[\u3400-\u9fff]", joined):
        return joined if len(joined.replace(" ", "")) >= 2 else None
    return joined if len(joined) >= 3 else None
