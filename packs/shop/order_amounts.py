"""Orders named by an amount instead of a number: their total ("the 797 order", "花了5198那单"),
a refund made on them ("之前退的那433", "the 433 you refunded") or what is left to refund on
them ("剩下那866还能退吗", "the 866 that's left") — the words the shop's order lookup
(:mod:`helpdesk.packs.shop.order_reference`) turns into ``list_orders(total= / refunded= /
left=)``."""

from __future__ import annotations

from helpdesk.graph.conversation import rx

__all__ = [
    "TOTAL_NAMED",
    "left_amount_named",
    "refund_amount_named",
    "total_named",
    "without_totals",
]

# "the 797 order", "the order I paid 5198 for", "花了5198那单", "5198的订单": an order by its total
TOTAL_NAMED = rx(
    r"\b(?:the|my|that) (?:¥|rmb ?|cny ?)?(?<![\d.])(\d{2,5}(?:\.\d{1,2})?)(?![\d.])"
    r"(?: ?(?:yuan|rmb|kuai|bucks))? (?:order|one|purchase|thing|item|stuff)\b"
    r"|\b(?:order|one) (?:i|we) paid (?:¥|rmb ?)?(?<![\d.])(\d{2,5}(?:\.\d{1,2})?)(?![\d.])"
    r"(?: ?(?:yuan|rmb|kuai))? for\b"
    # "the thing I ordered for 29 yuan"
    r"|\b(?:thing|one|order|stuff|item) (?:i|we) (?:ordered|bought|got|paid) (?:for )?(?:¥|rmb ?)?"
    r"(?<![\d.])(\d{2,5}(?:\.\d{1,2})?)(?![\d.])"
    r"|(?<![\d.])(\d{2,5}(?:\.\d{1,2})?)(?![\d.])(?:块钱|块|元)?(?:的)?(?:那单|那个订单|的订单|那笔订单|那一单)"
    r"|(?:花了|付了)(?<![\d.])(\d{2,5}(?:\.\d{1,2})?)(?![\d.])(?:块钱|块|元)?(?:的)?(?:那单|那个|订单|那笔)"
    r"|(?<![\d.])(\d{2,5}(?:\.\d{1,2})?)(?![\d.])(?:块钱|块|元)(?:的)?(?:那个|东西)"
    r"|(?<![\d.])(\d{2,5}(?:\.\d{1,2})?)(?![\d.])(?:块钱|块|元)?(?:都|已经|早就)付了"
)


_AMOUNT = r"(?:¥|rmb ?|cny ?)?(?<![\d.-])(\d{1,5}(?:\.\d{1,2})?)(?![\d.])"
# "之前退的那433", "上次那433是啥时候退的", "433那笔退款", "the 433 refund", "the 433 you refunded":
# a refund made, named by its amount
_REFUND_AMOUNT_NAMED = rx(
    r"(?:之前|上次|上回|以前|已经)?退(?:的|了的|过的|给我的)(?:那|那笔|这笔)?(?:钱)?\s*"
    + _AMOUNT
    + r"|(?:之前|上次|上回|以前)(?:那|的|那笔)\s*"
    + _AMOUNT
    + r"(?=[^，。,.!?！？]{0,10}退)"
    + r"|"
    + _AMOUNT
    + r"\s*(?:块钱|块|元)?(?:那笔|的)(?:退款|退的钱)"
    + r"|\b(?:the|my|that|your) "
    + _AMOUNT
    + r"(?: ?(?:yuan|rmb|kuai))? (?:refund|you refunded)\b"
    + r"|\bthe "
    + _AMOUNT
    + r"(?= (?:already |has |have |ever |actually )?(?:came|come|got|been paid|been refunded) back"
    # "whether the 433 already reached my account": a refund made, its arrival asked after
    + r"| (?:already |has |have |ever |actually )?(?:reached|reach|hit|landed (?:in|on)|arrived"
    + r" (?:in|on)|shown up (?:in|on)) (?:my )?(?:account|card|bank|alipay|wechat))"
    # "上次你们给净化器退了433对吧": a refund made, its amount said to be checked
    + r"|退了\s*"
    + _AMOUNT
    + r"\s*(?:块钱|块|元)?(?=\s*(?:对吧|是吧|对不对|是不是|没错吧|吧\s*[?？]))"
    + r"|\brefund of "
    + _AMOUNT
    + r"\b(?= (?:you|u) (?:made|did|gave|sent)|[^.?!]{0,30}"
    r"\b(?:paid out|arrived|come|came|go through|went through|(?:came|come|got|been paid) back)\b)"
)


def refund_amount_named(text: str) -> float | None:
    """The amount a refund made is named by ("之前退的那433"), if one amount is."""
    named = {float(next(g for g in m.groups() if g)) for m in _REFUND_AMOUNT_NAMED.finditer(text)}
    return named.pop() if len(named) == 1 else None


# "5198那单先不动，399那单取消", "not the 5198 one": a total named to be left alone
_TOTAL_SPARED_AFTER = rx(
    r"^\W{0,3}(?:先|就|还是|暂时)?(?:不动|别动|不要动|保留|留着|不取消|不退|先别|不要了吗|没事)"
    r"|^\W{0,3}(?:is fine|stays?|can stay|keep|leave it|alone)\b"
)
_TOTAL_SPARED_BEFORE = rx(
    r"(?:\bnot|\bexcept|\bbut not|\bkeep|\bleave|除了|不是|保留|别动)\W{0,3}(?:the |my )?$"
)


def without_totals(text: str) -> str:
    """``text`` with the totals that name orders blanked ("refund the 797 order, 100 only": the
    797 names the order, the amount is 100), spans kept aligned."""
    return TOTAL_NAMED.sub(lambda m: " " * len(m.group(0)), text)


def total_named(text: str) -> float | None:
    """The total an order is named by ("the 797 order", "花了5198那单"), if exactly one total
    names an order meant (one named to be left alone — "5198那单先不动", "not the 5198 one" —
    is not meant; two meant: none, the words do not say which)."""
    meant = [
        float(next(g for g in found.groups() if g))
        for found in TOTAL_NAMED.finditer(text)
        if not _TOTAL_SPARED_AFTER.search(text[found.end() :])
        and not _TOTAL_SPARED_BEFORE.search(text[: found.start()])
    ]
    return meant[0] if len(set(meant)) == 1 else None


_LEFT_AMOUNT_NAMED = rx(
    r"(?:剩下|剩余|剩)(?:的|那|那笔|的那|这)?(?:钱)?\s*"
    + _AMOUNT
    + r"|\b(?:the )?(?:remaining|remainder of|other|last) "
    + _AMOUNT
    + r"\b"
    + r"|\b(?:the )?"
    + _AMOUNT
    + r"(?: ?(?:yuan|rmb|kuai))? (?:that'?s |which is |still )?(?:left|remaining|outstanding)\b"
)
"""What is left to refund on an order, named by its amount: "剩下那866", "the remaining 866",
"the 866 that's left"."""


def left_amount_named(text: str) -> float | None:
    """The amount not yet refunded an order is named by ("剩下那866还能退吗"), if one is."""
    named = {float(next(g for g in m.groups() if g)) for m in _LEFT_AMOUNT_NAMED.finditer(text)}
    return named.pop() if len(named) == 1 else None
