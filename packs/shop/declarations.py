"""The demo shop's capabilities: what each built-in tool does for a customer.

The shop's tools live in :mod:`helpdesk.tools.builtin` (httpx clients of the demo shop API);
this module declares their capabilities — intents, kinds, identifier shapes, the fields kept by
compaction, the wording that claims a write done — so the turn graph reads them from the pack
instead of naming the shop's tools, statuses and fields. The shop's intents are read by its own
template matcher (:mod:`helpdesk.packs.shop.intents`, the pack's ``matcher``), which is why they
carry no patterns here.

Over 400 lines on purpose: it is the pack's table of contents — every capability of the shop with
its intents, examples and patterns, and the small planners that choose each call — in one place.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from helpdesk.graph.intents import DECLINED_ACTIONS, LAST_WRITE
from helpdesk.graph.request import ASKED_WITH, RESOLVED
from helpdesk.packs.shop.clause_model import load_model
from helpdesk.packs.shop.identifiers import SHOP_IDENTIFIERS, SHOP_MENTIONS
from helpdesk.packs.shop.intents import shop_matcher, shop_text_facts
from helpdesk.packs.shop.order_descriptions import action_sentence
from helpdesk.packs.shop.order_reference import ORDER_RESOLVER, describes_an_order
from helpdesk.packs.shop.part_asks import part_asks
from helpdesk.packs.shop.product_parts import PRODUCT_PART_READER
from helpdesk.packs.shop.refund_share import SHARE, SHARE_OF, SHARE_OWN
from helpdesk.packs.shop.replies import ShopReplies
from helpdesk.packs.shop.reply_data import SHOP_TIME_ZONE
from helpdesk.packs.shop.words import (
    ADDRESS_CHANGE_NEGATED,
    ASK_FIRST,
    COMPLAINED,
    COMPLAINT_WORD,
    INSTEAD,
    REFUNDS_ASKED,
    TICKET_MESSAGE,
    VENTED,
    complained,
    complaint_filing_asked,
    product_query,
    ticket_asked_for,
    ticket_made_or_wondered,
    ticket_needs_asking,
    tracked_product,
)
from helpdesk.tools.builtin import (
    DESCRIBED_SAID,
    IF_UNPAID,
    ITEMS_SAID,
    KEPT_SAID,
    build_shop_registry,
)
from helpdesk.tools.packs import (
    Capability,
    IntentSpec,
    Pack,
    PackEnv,
    PackError,
    PlannedCall,
)
from helpdesk.tools.refund_all_but import ALL_BUT
from helpdesk.tools.registry import ToolRegistry

__all__ = [
    "SHOP_CAPABILITIES",
    "shop_declarations",
    "shop_pack",
]


_CANCEL_DONE = (
    r"(has been|have been|was|were|I've|I have|we've|we have|successfully)\s+cancell?ed"
    r"|cancell?ed (it|your order|the order)"
    r"|已(?:经)?为您取消|已成功取消|已经取消了|帮您取消了|取消成功"
)
_REFUND_DONE = (
    r"(has been|was|I've|I have|we've|we have|successfully)\s+"
    r"(refunded|submitted|issued|requested|processed)|refund (is|was) on its way"
    r"|已(为您|经)?(提交退款|退款)|退款(申请)?已(提交|受理)"
)

_NO_ORDERS = (
    r"(you )?(have|has|there are) no orders|don't have any orders|do not have any orders"
    r"|(?<!不代表)(?<!不代表您)没有(任何)?订单"
)


def _intent(name: str, en: str, zh: str, description: str) -> tuple[IntentSpec, ...]:
    spec = IntentSpec(name=name, examples={"en": (en,), "zh": (zh,)}, description=description)
    return (spec,)


# --- planning: which call serves a request the built-in matcher read ---------------------------

Request = Mapping[str, Any]


def _order_status(m: Request, facts: Request) -> PlannedCall | None:
    if m.get("order_id"):
        return PlannedCall("get_order", {"order_id": m["order_id"]})
    if m.get(REFUNDS_ASKED):
        return PlannedCall("list_refunds", {"limit": 5})  # "where's my refund?"
    return PlannedCall("list_orders", {"limit": 5})


def _list_orders(m: Request, facts: Request) -> PlannedCall | None:
    return PlannedCall("list_orders", {"limit": 5})


def _tracking(m: Request, facts: Request) -> PlannedCall | None:
    oid = m.get("order_id")
    product = tracked_product(str(m.get("text", ""))) or m.get("product")
    if oid and not (m.get("inferred_order") and product and not m.get(RESOLVED)):
        return PlannedCall("track_shipment", {"order_id": oid})
    number = m.get("tracking_number") or (m.get("args") or {}).get("tracking_number")
    if number:
        return PlannedCall("track_shipment", {"tracking_number": number})
    # "where are my headphones?": the latest order holding the product the customer named
    # (over the order the session talked about, which may be another one)
    return PlannedCall("track_shipment", {"product": product}) if product else None


def _stock(m: Request, facts: Request) -> PlannedCall | None:
    if m.get("sku"):
        return PlannedCall("check_stock", {"sku": m["sku"]})
    query = product_query(str(m.get("text", "")))
    return PlannedCall("search_products", {"q": query}) if query else None


def _faq(m: Request, facts: Request) -> PlannedCall | None:
    args: dict[str, Any] = {"lang": m.get("lang", "en")}
    if m.get("topic"):
        args["topic"] = m["topic"]
    else:
        args["q"] = str(m.get("text", ""))[:200]
    return PlannedCall("search_faq", args)


def _ticket_status(m: Request, facts: Request) -> PlannedCall | None:
    """One ticket by its number; "any update on my complaint?" (no number): the customer's."""
    found = _TICKET_NUMBER.search(str(m.get("text") or ""))
    ticket_id = m.get("ticket_id") or (f"T-{found.group(1)}" if found else None)
    if ticket_id:
        return PlannedCall("get_ticket", {"ticket_id": ticket_id})
    return PlannedCall("list_tickets", {"limit": 5})


_TICKET_NUMBER = re.compile(r"(?<![a-z0-9])t-?(\d{6})(?!\d)", re.IGNORECASE)


def _create_ticket(m: Request, facts: Request) -> PlannedCall | None:
    text = str(m.get("text", ""))
    subject = (m.get("details") or text)[:120]
    # filed after a yes: for the order the session talked about last ("it broke") or one a
    # description was taken to mean, even when asked for; for no order, unless asked for
    guessed = bool(m.get("inferred_order"))
    unnamed = not m.get("order_id") and not ticket_asked_for(text)
    description = str(m.get(TICKET_MESSAGE) or text)[:2000]
    args = {"subject": subject, "description": description, "order_id": m.get("order_id")}
    flagged = bool(m.get(COMPLAINED) or m.get(ASK_FIRST))
    made = ticket_made_or_wondered(description)  # ("我昨天已经提交过了": never a second at once)
    ask_first = ticket_needs_asking(text) or flagged or guessed or unnamed or made
    asked = complaint_filing_asked(description) or ticket_asked_for(description)
    if complained(m, text) or COMPLAINT_WORD.search(text):
        # a complaint: filed as one (asked first, the question naming the order's open
        # ticket); unhappiness told without the word "complaint" and no ticket asked for
        # ("still not here. not happy.") is not offered a second ticket beside the open one
        args["category"] = "complaint"
        if ask_first and not asked and m.get(VENTED) and not COMPLAINT_WORD.search(description):
            args["if_no_open_ticket"] = True
    return PlannedCall("create_ticket", args, ask_first=ask_first)


def _cancel(m: Request, facts: Request) -> PlannedCall | None:
    oid = m.get("order_id")
    if not oid:
        return None
    # "要是没付就取消吧": the precheck asks only if the order is unpaid
    args: dict[str, Any] = (
        {"order_id": oid, IF_UNPAID: True} if m.get(IF_UNPAID) else {"order_id": oid}
    )
    said = str(m.get("text") or "")
    if not _WHOLE_ORDER.search(said) and (not _ORDER_ID.search(said) or _PART_OF.search(said)):
        # "cancel the phone", "取消 100998 里的手机": the precheck never lets a yes cancel the
        # other items of the order with the one named ("cancel 100998 i ordered the wrong
        # phone" is the order)
        args[ITEMS_SAID] = said[:300]
    elif _ORDER_ID.search(said) and describes_an_order(said):
        # "cancel 100904 the phone order": nor an order the words describe as another's
        args[DESCRIBED_SAID] = said[:300]
    if m.get(KEPT_SAID):
        args[KEPT_SAID] = str(m[KEPT_SAID])[:300]
    return PlannedCall("cancel_order", args)


def _refund(m: Request, facts: Request) -> PlannedCall | None:
    oid = m.get("order_id")
    if not oid:
        return None
    said = f"{m.get('text') or ''} {m.get(SHARE_OF) or ''}"
    if m.get("amount_kind") == "invalid" and not ALL_BUT.search(said):
        # an amount that cannot be used as one is asked about, with what is refundable
        return PlannedCall("get_order", {"order_id": oid})
    if m.get("amount_kind") == SHARE:
        # "refund half": the precheck makes the share exact before the customer is asked
        share, share_of = m.get(SHARE), m.get(SHARE_OF)
        if not isinstance(share, int | float) or not 0 < share < 1:
            return PlannedCall("get_order", {"order_id": oid})
        args = {"order_id": oid, "amount": None, SHARE: float(share), SHARE_OF: share_of}
        own = m.get(SHARE_OWN)
        return PlannedCall("request_refund", {**args, SHARE_OWN: own[:300]} if own else args)
    if m.get("amount_kind") in ("none", "invalid"):
        # "refund the thermos from 100200": the words go along, so that an item of the order
        # they single out is what is refunded (its price), not everything on the order
        words = str(m.get(SHARE_OF) or m.get("text") or "")[:300]
        own = m.get(SHARE_OWN)
        # ("refund it", "退了吧": the thing just talked about; "refund 100200": the order)
        said = str(m.get("text") or "")
        unnamed = not _ORDER_ID.search(said) and not _WHOLE_ORDER.search(said)
        fault = _fault_on(oid, facts, switched=bool(INSTEAD.search(words)) or unnamed)
        if fault and not own:
            # "the thermos from 100200 is broken" -> (a ticket offered) -> "refund instead": the
            # thing of the fault is what is refunded, unless the refund's own words name one
            own, words = words, f"{words} · {fault}"[:300]
        # ("my screen protector and purifier – delivered? refund the purifier": the sentence
        # asking for the refund says which item, when it names one of the order's — the
        # precheck reads the whole words when it names none)
        own = own or _own_sentence(words)
        args = {"order_id": oid, "amount": None, SHARE_OF: words}
        return PlannedCall("request_refund", {**args, SHARE_OWN: own[:300]} if own else args)
    amount = m.get("amount") if m.get("amount_kind") == "exact" else None
    said = f"{m.get(ASKED_WITH) or ''} {m.get('text') or ''}".strip()
    if amount is not None and (words := str(m.get(SHARE_OF) or said)[:300]):
        # "refund 200 for the thermos in 100200": the precheck never lets one item's refund
        # be more than it cost
        return PlannedCall("request_refund", {"order_id": oid, "amount": amount, SHARE_OF: words})
    return PlannedCall("request_refund", {"order_id": oid, "amount": amount})


def _own_sentence(words: str) -> str | None:
    sentence = action_sentence("refund", words)
    return sentence if sentence != words else None


# "refund the order", "整单退": the whole order said, not the thing just talked about
_WHOLE_ORDER = re.compile(
    r"\b(?:the|my|whole|entire|full) order\b|\beverything\b|\ball of it\b|整单|全部|全额|订单",
    re.IGNORECASE,
)


def _fault_on(order_id: str, facts: Request, *, switched: bool = False) -> str:
    """The words of an after-sales ticket on ``order_id`` the customer was just asked about
    (waiting for a yes, or moved on from on the turn before) or, when the refund is asked
    instead or names no order (``switched``), the one just filed or said no to: what the fault
    is about."""
    recent = [*(facts.get("pending_actions") or ()), *(facts.get("dropped_actions") or ())]
    if switched:
        recent += [*(facts.get(DECLINED_ACTIONS) or ()), facts.get(LAST_WRITE) or {}]
    for action in recent:
        args = action.get("args") if isinstance(action, Mapping) else None
        if (
            action.get("tool") == "create_ticket"
            and isinstance(args, Mapping)
            and args.get("order_id") == order_id
        ):
            return str(args.get("description") or args.get("subject") or "")
    return ""


_PART_OF = re.compile(r"里的|里面的|中的|其中|只|\b(?:from|out of|only|just)\b", re.IGNORECASE)
_ORDER_ID = re.compile(r"(?<![\d.])(\d{6})(?![\d.])")


def _order_or_last(text: str, facts: Request) -> dict[str, Any]:
    """The order named in the words, else the one the session talked about last."""
    m = _ORDER_ID.search(text)
    order_id = m.group(1) if m else facts.get("last_order_id")
    return {"order_id": order_id} if order_id else {}


def _handoff(m: Request, facts: Request) -> PlannedCall | None:
    kept = {k: facts[k] for k in ("order_ids", "skus", "preferences") if facts.get(k)}
    return PlannedCall(
        "handoff_to_human",
        {
            "summary": str(m.get(TICKET_MESSAGE) or m.get("text", ""))[:2000],
            "order_id": m.get("order_id"),
            "facts": kept,
        },
        # "..., 不然我要转人工了": a transfer threatened on a condition is offered, not made
        ask_first=bool(m.get(ASK_FIRST)),
    )


SHOP_CAPABILITIES: tuple[Capability, ...] = (
    Capability(
        name="order_status",
        plan=_order_status,
        tool="get_order",
        subject="order_id",
        intents=_intent(
            "order_status",
            "has order 100683 shipped?",
            "订单100683发货了吗",
            "the state of one order, its refunds and what is still refundable; needs order_id",
        ),
        keep=("order_id", "status", "total"),
    ),
    Capability(
        name="list_orders",
        plan=_list_orders,
        tool="list_orders",
        intents=_intent(
            "list_orders",
            "show my orders",
            "我的订单",
            "the customer's recent orders",
        ),
        keep=("order_id", "status"),
        empty_key="orders_empty",
        empty_patterns=(_NO_ORDERS,),
    ),
    Capability(
        name="tracking",
        plan=_tracking,
        tool="track_shipment",
        subject="order_id",
        intents=_intent(
            "tracking",
            "where is order 100683?",
            "100683到哪了",
            "where a shipped parcel is; needs order_id (or tracking_number)",
        ),
        keep=("tracking_number", "eta", "status"),
    ),
    Capability(
        name="stock",
        plan=_stock,
        tool="check_stock",
        intents=_intent(
            "stock",
            "is SKU-1001 in stock?",
            "SKU-1001有货吗",
            "whether a product is in stock and its price; sku if given (else the product "
            "words), quantity if given",
        ),
        keep=("sku", "total_available", "restock_date"),
        core=False,
    ),
    Capability(name="product_search", tool="search_products", keep=("sku",), core=False),
    Capability(
        name="change_address",
        tool="get_order",
        intents=(
            IntentSpec(
                name="change_address",
                description="change the delivery address of an order; needs order_id",
                examples={
                    "en": ("can I change the address of order 100123?", "wrong address on 100123"),
                    "zh": ("订单100123能改地址吗", "100123的收货地址写错了"),
                },
                # a billing or e-mail address is the account's, not where an order goes
                patterns=(
                    r"\b(?:change|update|correct|edit|modify|fix)\b[^.?!]{0,40}"
                    r"(?<!billing )(?<!email )(?<!e-mail )(?<!ip )(?<!default )\baddress\b"
                    r"(?! on (?:the |my )?account)",
                    r"(?<!billing )(?<!email )(?<!e-mail )\baddress\b[^.?!]{0,30}"
                    r"\b(?:wrong|incorrect|changed?)\b",
                    # the parcel sent somewhere else: "can 100998 be sent to my office instead",
                    # "drop it at my work address instead of home", "go to my new place" (not
                    # "can you deliver to my office on weekends": a question of delivery times)
                    r"\b(?:send|sent|ship|shipped|deliver|delivered|go|drop|dropped|redirect"
                    r"|forward|bring)\b[^.?!]{0,30}\b(?:to|at) (?:my|our|the) (?:new "
                    r"(?:place|flat|apartment|home|house|address)\b|(?:office|work(?:place)?"
                    r"|work address|company|other address)\b[^.?!]{0,15}\binstead\b)",
                    r"\binstead of (?:my |the )?(?:home|house|old (?:place|address|flat))\b",
                    # "is it possible to change where 100904 gets delivered"
                    r"\b(?:change|update|correct|modify) where\b[^.?!]{0,30}"
                    r"\b(?:delivered|shipped|sent|goes|going|delivers|ships)\b",
                    # "改送到公司", "100998能不能寄到我单位" (not "开张发票寄到公司": the invoice)
                    r"改(?:送|寄|发)?到(?:我|我们)?(?:的)?(?:公司|单位|新家|新地址|办公室)"
                    r"|改(?:送|寄|发)到|(?:包裹|快递|订单|这单|那单|\d{6})[^。？！?!，,]{0,8}"
                    r"(?:送|寄|发|派送|配送)到(?:我|我们)?(?:的)?"
                    r"(?:公司|单位|新家|新地址|别的地址|另一个地址|办公室)",
                    # "put the wrong address on the air fryer order", "地址填错了"
                    r"\b(?:wrong|incorrect|old) (?:delivery |shipping )?address\b",
                    r"(?:改|换|修改|更改|更换)[^。？！?!]{0,6}(?:\d{6}[^。？！?!]{0,4})?(?<!邮箱)(?<!账单)(?<!邮件)(?<!默认)地址",
                    r"(?<!邮箱)(?<!账单)(?<!邮件)(?<!默认)地址[^。？！?!]{0,8}(?:填错|写错|错了|有误|改|换)",
                ),
                negations=(ADDRESS_CHANGE_NEGATED,),
            ),
        ),
        extract=_order_or_last,
        required=("order_id",),
        subject="order_id",
        core=False,
    ),
    Capability(
        name="ticket_status",
        tool="get_ticket",
        intents=(
            IntentSpec(
                name="ticket_status",
                description="the state of one support ticket; needs ticket_id (T-000123)",
                examples={
                    "en": ("what's the status of ticket T-000123?", "T-000123 any update?"),
                    "zh": ("工单T-000123进度怎么样", "帮我看看T-000123"),
                },
                patterns=(r"(?<![a-z0-9])t-?\d{6}(?!\d)",),
            ),
        ),
        plan=_ticket_status,
        keep=("ticket_id", "status"),
        core=False,
    ),
    Capability(
        name="faq",
        plan=_faq,
        tool="search_faq",
        intents=_intent(
            "faq",
            "what is your return policy?",
            "退货政策是什么",
            "a policy question; topic: returns, exchange, cancel_order, shipping_fee, "
            "delivery_times, refund_time, invoice, warranty, payment",
        ),
        core=False,
        about_actions=True,
    ),
    Capability(
        name="create_ticket",
        plan=_create_ticket,
        tool="create_ticket",
        kind="write",
        intents=_intent(
            "create_ticket",
            "my headphones arrived broken",
            "耳机坏了",
            "report a problem with an order (broken, wrong or missing item); order_id and details",
        ),
        keep=("ticket_id",),
        done_key="ticket_created",
        subject="order_id",
        receipt_key="reconciled_detail_ticket",
    ),
    Capability(
        name="cancel_order",
        plan=_cancel,
        tool="cancel_order",
        kind="write",
        intents=_intent(
            "cancel_order",
            "cancel order 100998",
            "取消订单100998",
            "cancel one order; needs order_id",
        ),
        keep=("order_id", "status"),
        done_key="cancel_done",
        done_patterns=(_CANCEL_DONE,),
        subject="order_id",
        done_words={"en": ("cancell?ed",), "zh": ("取消",)},
        claim_stem=r"cancel|取消",
        evidence='"cancelled"',
        dropped_key="dropped_cancel",
    ),
    Capability(
        name="refund",
        plan=_refund,
        tool="request_refund",
        kind="money",
        intents=_intent(
            "refund",
            "refund order 100609",
            "订单100609退款",
            "money back for an order; needs order_id, amount if given",
        ),
        keep=("refund_id", "amount"),
        amounts=("amount",),
        done_key="refund_done",
        done_patterns=(_REFUND_DONE,),
        subject="order_id",
        done_words={"en": ("refunded", "paid"), "zh": ("退款", "退回", "退")},
        claim_stem=r"refund|退款|退回|已退",
        evidence='"refund_id"',
        dropped_key="dropped_refund",
        receipt_key="reconciled_detail_refund",
    ),
    Capability(
        name="handoff",
        plan=_handoff,
        tool="handoff_to_human",
        kind="write",
        # "can I talk to a human about the dented purifier": the order the words describe goes
        # with the transfer (looked up); a transfer is never held back to ask which order
        subject="order_id",
        intents=_intent(
            "handoff",
            "talk to a human",
            "转人工",
            "the customer wants a human agent; details",
        ),
        keep=("ticket_id",),
        done_key="handoff_created",
        receipt_key="reconciled_detail_ticket",
    ),
)


def _handoff_args(summary: str, facts: Request, failed: Sequence[str]) -> dict[str, Any]:
    """The automatic handoff: the session's last order and its order numbers go with it."""
    return {
        "summary": summary,
        "order_id": facts.get("last_order_id"),
        "facts": {"order_ids": facts.get("order_ids", []), "tasks": list(failed)},
    }


def _no_tools(env: PackEnv) -> ToolRegistry:
    client: Any = env.options.get("shop_client")
    if client is None:
        raise PackError("the shop pack needs PackEnv.options['shop_client'] (a ShopClient)")
    return build_shop_registry(client, hotline=env.hotline)


def shop_declarations() -> Pack:
    """The shop pack's declarations; its tools are built from ``options["shop_client"]``."""
    load_model()  # the trained clause model is read now, never inside a node (event loop)
    return Pack(
        name="shop",
        time_zone=SHOP_TIME_ZONE,
        capabilities=SHOP_CAPABILITIES,
        tools=_no_tools,
        handoff_tool="handoff_to_human",
        identifiers=SHOP_IDENTIFIERS,
        mentions=SHOP_MENTIONS,
        subject="order_id",
        resolver=ORDER_RESOLVER,
        part_reader=PRODUCT_PART_READER,
        part_asks=part_asks,
        subject_intent="order_status",
        subject_words=r"订单|order",
        unknown_codes=("order_not_found",),
        handoff_args=_handoff_args,
        replies=ShopReplies(),
        matcher=shop_matcher,
        text_facts=shop_text_facts,
        request_fields=("order_id", "sku"),
        facts={"order_id": "order_ids", "sku": "skus"},
    )


def shop_pack() -> Pack:
    """The demo shop pack (same as :func:`shop_declarations`; tools need a ``shop_client``)."""
    return shop_declarations()
