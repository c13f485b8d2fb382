"""Orders the customer describes instead of numbering ("my air fryer order", "净化器那单"): the
shop pack's :class:`~helpdesk.tools.packs.SubjectResolver`. A request naming no order (or only
the session's last) whose words describe one is looked up with ``list_orders(product=...,
status=...)``; a look takes the order still on its way first, else the latest; a write only the
one order that fits and can take it, so the confirmation answered names that order."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from helpdesk.graph.conversation import rx
from helpdesk.graph.request import EVERY_DESCRIBED
from helpdesk.packs.shop.identifiers import REFUND_MENTION, TICKET_MENTION
from helpdesk.packs.shop.order_amounts import (
    left_amount_named,
    refund_amount_named,
    total_named,
    without_totals,
)
from helpdesk.packs.shop.order_descriptions import (
    CANCELLED,
    NOT_SHIPPED,
    NOT_SHIPPED_STATES,
    PAID,
    PARCEL,
    PARCEL_LOOKS,
    UNPAID,
    action_sentence,
    describes_an_order,
    names_a_parcel,
)
from helpdesk.packs.shop.order_label import order_label
from helpdesk.packs.shop.refund_share import SHARE_OF
from helpdesk.packs.shop.words import (
    NOT_OWN,
    RECEIVED,
    TICKET_MESSAGE,
    TOLD_BESIDE,
    looked_product,
    tracked_product,
)
from helpdesk.tools.packs import SubjectResolver

__all__ = [
    "NOT_SHIPPED",
    "ONE_OF_THEM_CANCELLED",
    "ORDER_RESOLVER",
    "SAME_ORDER_AS_REFUND",
    "THE_OTHER",
    "UNPAID",
    "describes_an_order",
    "names_a_parcel",
    "order_query",
    "pick_order",
    "refund_amount_named",
    "total_named",
    "without_totals",
]

#: Requests about one order whose order a description may give.
_SCOPED = frozenset(
    {
        "order_status",
        "tracking",
        "cancel_order",
        "refund",
        "create_ticket",
        "change_address",
        "handoff",
    }
)
_LOOKS = frozenset({"order_status", "tracking", "change_address"})
#: The states in which an order can take each request (the others are refused by the shop).
_FITS: dict[str, frozenset[str]] = {
    "cancel_order": frozenset({"pending", "paid"}),
    "refund": frozenset({"shipped", "delivered"}),
    "create_ticket": frozenset({"shipped", "delivered"}),
    "change_address": frozenset({"pending", "paid"}),
    "tracking": frozenset({"paid", "shipped", "delivered"}),
}
_ON_ITS_WAY = ("shipped", "paid")

# "cancel the monitor order, not the air fryer one", "keep my air fryer order but ...",
# "空气炸锅那单保留", "除了净化器那单": an order described to be left out, never the one meant
_LEFT_OUT = rx(
    r"\b(?:not|except|but not|apart from|other than)\s+(?:the |my |that )?[a-z0-9 '-]{2,30}?"
    r"(?:\s+(?:one|order|purchase))\b"
    r"|\b(?:keep|leave|don'?t (?:touch|cancel|refund))\s+(?:the |my |that )?[a-z0-9 '-]{2,30}?"
    r"(?:\s+(?:one|order|purchase)|(?= alone))\b"
    r"|除了[^，。,.!?！？]{1,12}|[\u4e00-\u9fff]{2,8}(?:那单|那个|的订单)?(?:保留|别动|不要动|不取消|先别)"
)
# "显示已签收", "显示从成都发出了": the tracking page shows, no monitor (显示器) named; "which
# order is that?": the order spoken of, asked — no thing described
_SHOWS = rx(r"显示(?!器|屏)|\bwhich (?:order|one) (?:is|was) (?:that|it|this)\b")
_LIMIT = 100
_EXACT_KEYS = ("total", "refund", "tracking", "refunded", "left", "ticket")
"""Query keys that name the order exactly (a number of it), not describe it."""
SAME_ORDER_AS_REFUND = "same_order_as_refund"
"""A request's argument: "the same order" as the refund number named beside it."""


def order_query(request: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``list_orders`` arguments that find the order a request describes, or None (a
    look's words are read after those told beside it, :data:`TOLD_BESIDE`; a ticket's words,
    when they name none of the customer's products, by the story told before them)."""
    words = _words_of(request)
    query = _query_of_words(request, words)
    if query is not None and "product" in query and request.get(EVERY_DESCRIBED):
        query = {**query, "every": True}  # "… where are they?": the order of each thing named
    elif query is not None and "product" in query and _asked_apart(request, words):
        query = {**query, "every": True}  # the pick keeps the order of the thing asked for
    story = _story_before(request) or _said_before_the_refund(request)
    if not story:
        return query
    if query is None:
        return _query_of_words(request, f"{story} {words}")
    if "product" in query:
        return {**query, "context": story[-200:]}
    return query


def _words_of(request: Mapping[str, Any]) -> str:
    """The words an order is looked up by: the request's, after what was told beside it."""
    text = str(request.get("text") or "")
    told = request.get(TOLD_BESIDE)
    if not isinstance(told, str) or not told.strip():
        return text
    # (the lookup reads 200 characters: a long story told beside never crowds out the
    # request's own words — "my earbuds" after five sentences about the doorstep; the story's
    # start, where the thing is usually named, is kept)
    room = max(0, _LOOKUP_CHARS - 1 - len(text))
    return f"{told.strip()[:room]} {text}".strip()


_LOOKUP_CHARS = 200


def _asked_apart(request: Mapping[str, Any], words: str) -> bool:
    """Whether a write is asked for in a sentence of its own, after others naming things."""
    return action_sentence(str(request.get("intent")), words) != words


def _story_before(request: Mapping[str, Any]) -> str:
    """ "净化器…显示屏一闪一闪的…估计是坏了 帮我开个维修的工单吧": what a ticket's message tells
    before the words asking for it (not after: "…，另外那单的发票…"), when nothing was told
    beside it."""
    told = request.get(TOLD_BESIDE)
    if request.get("intent") != "create_ticket" or (isinstance(told, str) and told.strip()):
        return ""
    text = str(request.get("text") or "")
    message = str(request.get(TICKET_MESSAGE) or "")
    return message[: message.find(text)].strip() if text and text in message else ""


def _said_before_the_refund(request: Mapping[str, Any]) -> str:
    """ "the screen protector still hasn't arrived, can I just get my money back": what the
    message says before a refund's own words (the shop reads it only when those name none of
    the customer's products), so the thing told is what the refund is of — not the order the
    conversation was about before."""
    if request.get("intent") != "refund" or not request.get("inferred_order"):
        return ""  # (a refund no order was found for stays one: "where's that refund?")
    text = str(request.get("text") or "")
    if _POINTS_AT_THE_ORDER.search(text):
        return ""  # "the air fryer works great. now refund this order": the one talked about
    message = request.get(SHARE_OF)
    if not isinstance(message, str) or not text or text not in message:
        return ""
    return message[: message.find(text)].strip()


_POINTS_AT_THE_ORDER = rx(
    r"\b(?:it|this|that|this one|that one|the same|this order|that order)\b"
    r"|这单|这个订单|那单|该订单|它"
)


# a transfer about a thing not bought here, not the customer's, not yet wrong, or not this one:
# "talk to a human about buying a purifier", "我在别家买的净化器坏了", "my friend's purifier", "if
# the purifier breaks again", "不是净化器的事": no order of theirs goes with it
_NO_ORDER_OF_THEIRS = rx(
    r"\b(?:buy|buying|purchase|purchasing|elsewhere|friend'?s?|sale|ad|advert|if|when|would|should"
    r"|do i need|not about|not the)\b"
    r"|\bmy (?:wife|husband|mom|mum|dad|mother|father|sister|brother|son|daughter)'s\b"
    r"|买个|想买|要买|再买|别家|别的地方|其他(?:店|地方)|朋友|同事|家人的|我妈的|我爸的|老公的|老婆的"
    r"|要是|如果|万一|需要转|要不要转|能不能转|能转|可以转|广告|活动|不是[^，。,.!?！？]{0,10}的事"
)


THE_OTHER = rx(
    r"\bthe other(?: one| order|s)?\b|另一个|另外(?:那|一)个|另一单|另外那单|其他那(?:个|单)"
)
"""A write of "the other one" ("cancel the other one", "取消另一个"): not the order named or talked
about; which one, the words do not say."""


ONE_OF_THEM_CANCELLED = rx(
    r"取消(?:其中)?(?:的)?(?:一个|一单)|\bcancel (?:just )?(?:one of them|one of those|one)\b"
)
"""A write on "one of them" ("帮我取消一个", "cancel one of them"): which one, only the words after
it can say ("… cancel one of them, the phone order")."""


def _query_of_words(request: Mapping[str, Any], words: str) -> dict[str, Any] | None:
    if str(request.get("intent")) not in _SCOPED:
        return None
    if request.get("intent") == "handoff" and _NO_ORDER_OF_THEIRS.search(words):
        return None
    if THE_OTHER.search(words) and request.get("intent") not in _LOOKS:
        return None  # "keep 100998, cancel the other one": which one, the words do not say
    one = ONE_OF_THEM_CANCELLED.search(words)
    if one and request.get("intent") not in _LOOKS:
        words = words[one.end() :]  # the orders named before it are those it chooses among
        if not describes_an_order(words):
            return None
    number = request.get("tracking_number")
    if isinstance(number, str) and number:
        # "SF5969721286 签收了吗 … can it go to my office": the order that parcel is of, never
        # one the other words describe
        return {"limit": 1, "tracking": number.upper()}
    text = _SHOWS.sub(" ", _LEFT_OUT.sub(" ", words))
    refund = REFUND_MENTION.search(text)
    if refund and str(request.get("intent")) in _LOOKS:
        # "did R-000094 go through?": the order that refund is of
        return {"limit": 1, "refund": refund.group(0).upper()}
    ticket = TICKET_MENTION.search(text)
    if ticket and str(request.get("intent")) in _LOOKS:
        # "T-000031 有进展没 快递动了没", "the tracking number for that order" beside a ticket: the
        # order that ticket is about
        return {"limit": 1, "ticket": "T-" + re.sub(r"\D", "", ticket.group(0))}
    refunded = refund_amount_named(text)
    if refunded is not None and str(request.get("intent")) in _LOOKS:
        # "之前退的那433到账了没": the order with that refund
        return {"limit": _LIMIT, "refunded": refunded}
    left = left_amount_named(text)
    if left is not None and str(request.get("intent")) in (*_LOOKS, "refund"):
        # "剩下那866还能退吗", "refund the remaining 866": the order with that much to refund
        return {"limit": _LIMIT, "left": left}
    same = request.get(SAME_ORDER_AS_REFUND)
    if isinstance(same, str) and REFUND_MENTION.fullmatch(same):
        # "... R-000094 ... refund another 100 on the same order": that refund's order
        return {"limit": 1, "refund": same.upper()}
    args: dict[str, Any] = {"limit": _LIMIT}
    total = total_named(text)
    if total is not None:
        # "the 797 order": that order, whatever else the words say of it
        return {"limit": _LIMIT, "total": total}
    if UNPAID.search(text):
        args["status"] = "pending"
    elif PAID.search(text):
        args["status"] = "paid"
    elif CANCELLED.search(text) and str(request.get("intent")) in _LOOKS:
        args["status"] = "cancelled"  # "the order I cancelled: was I charged for it?"
    if _not_shipped(request, args, text):
        return args  # every order: the pick keeps those not on their way yet
    if looked_product(PAID.sub(" ", UNPAID.sub(" ", text))) or tracked_product(text):
        # (a thing of one character named alone: "还有膜到哪了")
        args["product"] = text[:_LOOKUP_CHARS]
    elif "status" not in args and PARCEL.search(text) and _about_the_parcel(request):
        args["status"] = "shipped"
    # "两个没发货的单都取消": every order not on its way yet (two states fit; the pick keeps them)
    return args if len(args) > 1 else None


def _not_shipped(request: Mapping[str, Any], query: Mapping[str, Any], text: str) -> bool:
    """An action on every order not shipped yet ("两个没发货的单都取消"; "如果钢化膜那单还没发货就
    取消" is the screen protector's order, whatever its state)."""
    return (
        bool(request.get(EVERY_DESCRIBED))
        and str(request.get("intent")) not in _LOOKS
        and "status" not in query
        and bool(NOT_SHIPPED.search(text))
    )


def _about_the_parcel(request: Mapping[str, Any]) -> bool:
    """A look, or a complaint told in unhappy words (asked about before anything is filed)."""
    return request.get("intent") in PARCEL_LOOKS or (
        request.get("intent") == "create_ticket" and bool(request.get("vented"))
    )


def _one_per_product(orders: list[Mapping[str, Any]], text: str) -> list[str]:
    """The first of ``orders`` holding each product the words matched, in that order — not a
    product named only by words of another one named more fully ("the air fryer and the screen
    protector": "air" is no Air Purifier)."""
    said = {
        str(m.get("en")): _pieces_said(m, text)
        for order in orders
        for m in order.get("matched") or ()
        if isinstance(m, Mapping)
    }
    lesser = {n for n, w in said.items() if any(w < v for k, v in said.items() if k != n)}
    out: list[str] = []
    seen: set[str] = set(lesser)
    for order in orders:
        names = {str(m.get("en")) for m in order.get("matched") or () if isinstance(m, Mapping)}
        if names - seen and str(order["order_id"]) not in out:
            out.append(str(order["order_id"]))
        seen |= names
    return out


def _pieces_said(product: Mapping[str, Any], text: str) -> frozenset[str]:
    """The words of a product's names (Chinese: character pairs) the text holds."""
    low = text.lower()
    latin = set(re.findall(r"[a-z]{3,}", str(product.get("en") or "").lower()))
    han = str(product.get("zh") or "")
    pairs = {han[i : i + 2] for i in range(len(han) - 1)}
    return frozenset(w for w in latin | pairs if w in low)


def pick_order(request: Mapping[str, Any], data: Any) -> list[str] | None:
    """The order ids of the lookup's result the request fits, the one to use first; None when
    the words named no product and no state (nothing was described).

    A look takes the order still on its way first, else the latest; an action takes the orders
    that can take it (a cancel: unpaid or paid), or the only order found (the shop then says why
    it cannot: "100683 has shipped")."""
    if (
        not isinstance(data, Mapping)
        or not isinstance(data.get("orders"), list)
        or NOT_OWN in request
    ):
        return []
    query = order_query(request) or {}
    text = _words_of(request)
    if (
        not data.get("matched_products")
        and not data.get("names_a_product")
        # ("797那单为什么分两个包裹发": the order named by its total, whatever its parcels)
        and not any(key in query for key in _EXACT_KEYS)
        and PARCEL.search(text)
        and _about_the_parcel(request)
    ):
        # "where is my parcel": only when a single order is on its way
        moving = [
            o for o in data["orders"] if isinstance(o, Mapping) and o.get("status") == "shipped"
        ]
        return [str(moving[0]["order_id"])] if len(moving) == 1 else []
    not_shipped = _not_shipped(request, query, text)
    described = (
        bool(data.get("matched_products"))
        or any(key in query for key in ("status", *_EXACT_KEYS))
        or not_shipped
    )
    if not described:
        # "cancel my kayak order": an order described, though by nothing the customer bought
        return [] if data.get("names_a_product") or describes_an_order(text) else None
    intent = str(request.get("intent"))
    found = [
        o
        for o in data["orders"]
        if isinstance(o, Mapping)
        and isinstance(o.get("order_id"), str)
        and (not not_shipped or o.get("status") in NOT_SHIPPED_STATES)
    ]
    fits = _FITS.get(intent)
    fitting = [o for o in found if fits is None or str(o.get("status")) in fits]
    if intent in _LOOKS:
        candidates = sorted(fitting or found, key=_matched_count, reverse=True)
        moving = [o for o in candidates if o.get("status") in _ON_ITS_WAY]
        if request.get(EVERY_DESCRIBED):
            # "the air fryer … the cameras … where are they?": the order of each thing named
            ordered = [*moving, *(o for o in candidates if o not in moving)]
            return _one_per_product(ordered, text)
        return [str((moving or candidates)[0]["order_id"])] if candidates else []
    # "my screen protector and air purifier – delivered? refund the purifier": an action is for
    # the order of the things named in the sentence asking for it, when it names any
    asking = action_sentence(intent, text)
    named = [o for o in found if any(_pieces_said(m, asking) for m in _matched(o))]
    found = named if asking != text and named else found
    # an action is for the order the words describe best ("手机那单退2999 只退手机 显示器我要": the
    # phone + monitor order, not the screen protector 手机膜); among them, the ones that can take it
    best = max((_matched_count(o) for o in found), default=0)
    strongest = [o for o in found if _matched_count(o) == best]
    fitting = [o for o in strongest if fits is None or str(o.get("status")) in fits]
    # (a fault's thing is one received: never the only order found when it cannot take it)
    chosen = fitting or (strongest if len(strongest) == 1 and not request.get(RECEIVED) else [])
    return [str(o["order_id"]) for o in chosen]


def _matched(order: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [m for m in order.get("matched") or () if isinstance(m, Mapping)]


def _matched_count(order: Mapping[str, Any]) -> int:
    """How many of the products the words named the order holds ("the air fryer + plates +
    thermos order" is the one with all three, not the one with only an air fryer)."""
    mentions = order.get("mentions")
    return mentions if isinstance(mentions, int) else len(order.get("matched") or ())


ORDER_RESOLVER = SubjectResolver(
    tool="list_orders", query=order_query, pick=pick_order, label=order_label
)
