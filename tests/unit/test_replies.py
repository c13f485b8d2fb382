"""Templated replies of the minimal tier: data shown, every status honest, both languages."""

from __future__ import annotations

from typing import Any

import pytest

from helpdesk.degrade.context import DegradeContext, PendingItem
from helpdesk.degrade.errors import ErrorClass
from helpdesk.graph.intents import Intent, MatchedIntent
from helpdesk.graph.language import Lang
from helpdesk.graph.prompting import (
    TemplateError,
    load_templates,
    render,
    template_fields,
)
from helpdesk.graph.replies import ReplyItem, humanize_age, render_reply
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import Kind, shop_request
from helpdesk.packs.shop.intents import ShopIntent as SI
from helpdesk.tools.results import ToolResult, ToolStatus

LANGS: tuple[Lang, ...] = ("zh", "en")
HOTLINE = "400-820-8820"
SHOP = default_packs()

SHIPMENT = {
    "shipment_id": "S-000001",
    "carrier": "SF Express",
    "tracking_number": "SF1234567890",
    "status": "in_transit",
    "shipped_at": "2026-11-02T10:00:00Z",
    "eta": "2026-11-05",
    "delivered_at": None,
}
ORDER = {
    "order_id": "100123",
    "customer_id": "C0001",
    "status": "shipped",
    "created_at": "2026-11-01T08:00:00Z",
    "paid_at": "2026-11-01T08:05:00Z",
    "cancelled_at": None,
    "items": [
        {
            "sku": "SKU-1001",
            "name": "Wireless Headphones",
            "name_zh": "无线耳机",
            "quantity": 1,
            "unit_price": 299.0,
        }
    ],
    "total": 299.0,
    "currency": "CNY",
    "shipping_city": "Shanghai",
    "shipments": [SHIPMENT],
    "refunds": [],
    "cancellable": False,
    "refundable": True,
}
TRACKING = {
    "order_id": "100123",
    "shipments": [
        {
            **SHIPMENT,
            "events": [
                {
                    "at": "2026-11-02T10:00:00Z",
                    "location": "Shenzhen",
                    "description": "Picked up",
                    "description_zh": "已揽收",
                },
                {
                    "at": "2026-11-03T09:15:00Z",
                    "location": "Shanghai",
                    "description": "Arrived at hub",
                    "description_zh": "到达转运中心",
                },
            ],
        }
    ],
}
STOCK = {
    "sku": "SKU-1001",
    "name": "Wireless Headphones",
    "name_zh": "无线耳机",
    "price": 299.0,
    "total_available": 15,
    "warehouses": [
        {"warehouse": "WH-SH", "city": "Shanghai", "available": 12},
        {"warehouse": "WH-BJ", "city": "Beijing", "available": 3},
        {"warehouse": "WH-GZ", "city": "Guangzhou", "available": 0},
    ],
    "restock_date": None,
}
OUT_OF_STOCK = {
    **STOCK,
    "total_available": 0,
    "restock_date": "2026-12-01",
    "warehouses": [{"warehouse": "WH-SH", "city": "Shanghai", "available": 0}],
}
ORDERS = {
    "orders": [
        {
            "order_id": "100123",
            "status": "shipped",
            "created_at": "2026-11-01T08:00:00Z",
            "total": 299.0,
            "currency": "CNY",
            "item_count": 1,
        },
        {
            "order_id": "100118",
            "status": "delivered",
            "created_at": "2026-10-20T08:00:00Z",
            "total": 58.5,
            "currency": "CNY",
            "item_count": 2,
        },
    ]
}
FAQ = {
    "articles": [
        {
            "article_id": "F1",
            "topic": "returns",
            "question": "退货政策",
            "lang": "zh",
            "answer": "签收后 7 天内可无理由退货。",
        },
        {
            "article_id": "F2",
            "topic": "returns",
            "question": "Return policy",
            "lang": "en",
            "answer": "You can return items within 7 days of delivery.",
        },
    ]
}
REFUND = {
    "refund_id": "R-000042",
    "order_id": "100123",
    "amount": 50.0,
    "currency": "CNY",
    "status": "requested",
    "created_at": "2026-11-04T10:00:00Z",
}
TICKET = {
    "ticket_id": "T-000321",
    "category": "after_sales",
    "subject": "broken",
    "description": "broken",
    "order_id": "100123",
    "priority": "normal",
    "status": "open",
    "created_at": "2026-11-04T10:00:00Z",
    "facts": None,
}
FALLBACK = {
    "message_key": "self_service",
    "what": "order",
    "hotline": HOTLINE,
    "order_id": "100123",
}

TOOLS = {
    SI.ORDER_STATUS: "get_order",
    SI.LIST_ORDERS: "list_orders",
    SI.TRACKING: "track_shipment",
    SI.STOCK: "check_stock",
    SI.FAQ: "search_faq",
    SI.CANCEL_ORDER: "cancel_order",
    SI.REFUND: "request_refund",
    SI.CREATE_TICKET: "create_ticket",
    SI.HANDOFF: "handoff_to_human",
}


def match(intent: Kind, lang: Lang = "en", **kw: Any) -> MatchedIntent:
    defaults: dict[str, Any] = {"text": "…", "lang": lang}
    if intent in (
        SI.ORDER_STATUS,
        SI.TRACKING,
        SI.CANCEL_ORDER,
        SI.REFUND,
    ):
        defaults["order_id"] = "100123"
    if intent is SI.STOCK:
        defaults["sku"] = "SKU-1001"
    return shop_request(intent, **{**defaults, **kw})


def result(intent: Kind, status: ToolStatus, data: Any = None, **kw: Any) -> ToolResult:
    return ToolResult(call_id="t1-0", tool=TOOLS[intent], status=status, data=data, **kw)


def reply(
    intent: Kind,
    res: ToolResult | None,
    lang: Lang,
    *,
    degrade: DegradeContext | None = None,
    **kw: Any,
) -> str:
    text = render_reply(
        [ReplyItem(match(intent, lang, **kw), res)],
        degrade or DegradeContext(),
        lang,
        hotline=HOTLINE,
        packs=SHOP,
    )
    assert_clean(text)
    return text


def assert_clean(text: str) -> None:
    assert text.strip()
    for bad in ("{", "}", "TODO", "None", "message_key", "self_service"):
        assert bad not in text, f"{bad!r} in reply: {text}"


# --- prompting ------------------------------------------------------------------------------------


def test_load_templates_same_keys_and_fields_in_both_languages():
    zh = load_templates("minimal", "generate", "zh")
    en = load_templates("minimal", "generate", "en")
    assert set(zh) == set(en)
    mismatched = [k for k in zh if template_fields(zh[k]) != template_fields(en[k])]
    assert mismatched == []


@pytest.mark.parametrize("lang", LANGS)
def test_load_templates_every_template_renders(lang: Lang):
    templates = load_templates("minimal", "generate", lang)
    for key, template in templates.items():
        text = render(template, **dict.fromkeys(template_fields(template), "X"))
        assert "{" not in text and "TODO" not in text, key


def test_load_templates_is_cached():
    first = load_templates("minimal", "generate", "zh")
    assert load_templates("minimal", "generate", "zh") is first


def test_load_templates_missing_key_names_file_and_key():
    templates = load_templates("minimal", "generate", "en")
    with pytest.raises(TemplateError) as info:
        templates["no_such_key"]
    assert str(info.value) == (
        "template file prompts/minimal/generate.en.yaml has no key 'no_such_key'"
    )


def test_load_templates_missing_file_names_file():
    with pytest.raises(TemplateError) as info:
        load_templates("nope", "generate", "en")
    assert str(info.value) == "template file prompts/nope/generate.en.yaml not found"


def test_render_fills_fields():
    assert render("订单 {order_id}：{status}", order_id="100123", status="已发货") == (
        "订单 100123：已发货"
    )


def test_render_missing_field_names_field():
    with pytest.raises(TemplateError) as info:
        render("order {order_id} is {status}", order_id="100123")
    assert "'status'" in str(info.value)
    assert isinstance(info.value, KeyError)


def test_template_fields():
    assert template_fields("{a} and {b:.2f} and {a}") == frozenset({"a", "b"})


@pytest.mark.parametrize(
    ("seconds", "zh", "en"),
    [
        (1, "1 秒", "1 second"),
        (45, "45 秒", "45 seconds"),
        (60, "1 分钟", "1 minute"),
        (300, "5 分钟", "5 minutes"),
        (7200, "2 小时", "2 hours"),
        (86400, "1 天", "1 day"),
        (None, "一段时间", "a while"),
    ],
)
def test_humanize_age(seconds: float | None, zh: str, en: str):
    assert humanize_age(seconds, load_templates("minimal", "generate", "zh")) == zh
    assert humanize_age(seconds, load_templates("minimal", "generate", "en")) == en


# --- ok: real data --------------------------------------------------------------------------------


def test_render_reply_order_status_ok_zh():
    text = reply(SI.ORDER_STATUS, result(SI.ORDER_STATUS, ToolStatus.OK, ORDER), "zh")
    assert text == (
        "订单 100123 已发货。\n"
        "商品：无线耳机 ×1，合计 ¥299.00。\n"
        "SF Express 运单号 SF1234567890，运输中，预计 2026-11-05 送达。"
    )


def test_render_reply_order_status_ok_en():
    text = reply(SI.ORDER_STATUS, result(SI.ORDER_STATUS, ToolStatus.OK, ORDER), "en")
    assert text == (
        "Order 100123 has shipped.\n"
        "Items: Wireless Headphones ×1; total ¥299.00.\n"
        "SF Express tracking number SF1234567890: in transit, expected to arrive on 2026-11-05."
    )


@pytest.mark.parametrize(
    ("status", "zh", "en"),
    [
        ("pending", "待付款", "awaiting payment"),
        ("paid", "已付款", "paid and waiting to ship"),
        ("delivered", "已签收", "has been delivered"),
        ("cancelled", "已取消", "has been cancelled"),
    ],
)
def test_render_reply_order_status_words(status: str, zh: str, en: str):
    data = {**ORDER, "status": status, "shipments": []}
    res = result(SI.ORDER_STATUS, ToolStatus.OK, data)
    assert zh in reply(SI.ORDER_STATUS, res, "zh")
    assert en in reply(SI.ORDER_STATUS, res, "en")


@pytest.mark.parametrize("lang", LANGS)
def test_render_reply_order_shows_refunds(lang: Lang):
    data = {
        **ORDER,
        "refunds": [
            {
                "refund_id": "R-000007",
                "amount": 20.0,
                "status": "requested",
                "created_at": "2026-11-03T00:00:00Z",
            }
        ],
    }
    text = reply(SI.ORDER_STATUS, result(SI.ORDER_STATUS, ToolStatus.OK, data), lang)
    assert "R-000007" in text and "20.00" in text


@pytest.mark.parametrize("lang", LANGS)
def test_render_reply_tracking_ok_shows_events_newest_first(lang: Lang):
    text = reply(SI.TRACKING, result(SI.TRACKING, ToolStatus.OK, TRACKING), lang)
    assert "SF1234567890" in text and "2026-11-05" in text
    newest, oldest = ("到达转运中心", "已揽收") if lang == "zh" else ("Arrived at hub", "Picked up")
    assert text.index(newest) < text.index(oldest)
    assert "2026-11-03 17:15" in text  # 09:15 UTC, shown in China time


def test_render_reply_tracking_names_the_orders_status_when_the_shop_gives_it():
    # one look answers "what's the status of 100123 and where is it?": the heading says both
    data = {**TRACKING, "order_status": "shipped"}
    res = result(SI.TRACKING, ToolStatus.OK, data)
    assert "Tracking for order 100123 (shipped):" in reply(SI.TRACKING, res, "en")
    assert "订单 100123（已发货）的物流信息：" in reply(SI.TRACKING, res, "zh")
    plain = reply(SI.TRACKING, result(SI.TRACKING, ToolStatus.OK, TRACKING), "en")
    assert "Tracking for order 100123:" in plain


def test_render_reply_tracking_not_shipped():
    res = result(SI.TRACKING, ToolStatus.OK, {"order_id": "100123", "shipments": []})
    assert reply(SI.TRACKING, res, "zh") == (
        "订单 100123 还没有发货，暂时没有物流信息，发货后即可查询。"
    )
    assert "hasn't shipped yet" in reply(SI.TRACKING, res, "en")


def test_render_reply_stock_in_stock_per_warehouse():
    res = result(SI.STOCK, ToolStatus.OK, STOCK)
    assert reply(SI.STOCK, res, "zh") == (
        "无线耳机（SKU-1001）有货，共 15 件，单价 ¥299.00。\n各仓库存：上海仓 12 件、北京仓 3 件。"
    )
    assert reply(SI.STOCK, res, "en") == (
        "Wireless Headphones (SKU-1001) is in stock: 15 available at ¥299.00 each.\n"
        "By warehouse: Shanghai 12, Beijing 3."
    )


@pytest.mark.parametrize("lang", LANGS)
def test_render_reply_stock_out_of_stock_with_restock_date(lang: Lang):
    text = reply(SI.STOCK, result(SI.STOCK, ToolStatus.OK, OUT_OF_STOCK), lang)
    assert "2026-12-01" in text
    assert ("缺货" if lang == "zh" else "out of stock") in text


@pytest.mark.parametrize("lang", LANGS)
def test_render_reply_stock_requested_quantity_not_available(lang: Lang):
    text = reply(SI.STOCK, result(SI.STOCK, ToolStatus.OK, STOCK), lang, quantity=20)
    assert "15" in text and "20" in text
    assert ("不足" if lang == "zh" else "fewer than") in text


def test_render_reply_stock_requested_quantity_available():
    text = reply(SI.STOCK, result(SI.STOCK, ToolStatus.OK, STOCK), "zh", quantity=3)
    assert text.endswith("足够您需要的 3 件。")


def test_render_reply_list_orders_ok():
    res = result(SI.LIST_ORDERS, ToolStatus.OK, ORDERS)
    assert reply(SI.LIST_ORDERS, res, "zh") == (
        "您最近的订单：\n"
        "· 100123：已发货，¥299.00，共 1 件商品，2026-11-01 下单\n"
        "· 100118：已签收，¥58.50，共 2 件商品，2026-10-20 下单"
    )
    assert "100118: delivered" in reply(SI.LIST_ORDERS, res, "en")


def test_render_reply_list_orders_empty_only_when_live():
    res = result(SI.LIST_ORDERS, ToolStatus.OK, {"orders": []})
    assert reply(SI.LIST_ORDERS, res, "zh") == "您的账户下目前没有订单。"


@pytest.mark.parametrize(
    ("lang", "answer"),
    [
        ("zh", "关于退货政策：签收后 7 天内可无理由退货。"),
        ("en", "About returns: You can return items within 7 days of delivery."),
    ],
)
def test_render_reply_faq_picks_article_in_language(lang: Lang, answer: str):
    res = result(SI.FAQ, ToolStatus.OK, FAQ)
    assert reply(SI.FAQ, res, lang, topic="returns") == answer


@pytest.mark.parametrize("lang", LANGS)
def test_render_reply_faq_no_article_points_to_hotline(lang: Lang):
    res = result(SI.FAQ, ToolStatus.OK, {"articles": []})
    assert HOTLINE in reply(SI.FAQ, res, lang, topic="invoice")


def test_render_reply_cancel_done():
    res = result(SI.CANCEL_ORDER, ToolStatus.OK, {**ORDER, "status": "cancelled"})
    assert reply(SI.CANCEL_ORDER, res, "zh") == "订单 100123 已为您取消。"
    assert reply(SI.CANCEL_ORDER, res, "en") == "Order 100123 has been cancelled."


def test_render_reply_refund_requested():
    res = result(SI.REFUND, ToolStatus.OK, REFUND)
    assert reply(SI.REFUND, res, "zh") == (
        "已为订单 100123 提交退款申请，退款单号 R-000042，金额 ¥50.00。"
        "款项预计 1–7 个工作日内原路退回。"
    )
    assert "1-7 business days" in reply(SI.REFUND, res, "en")


@pytest.mark.parametrize("lang", LANGS)
def test_render_reply_ticket_created(lang: Lang):
    res = result(SI.CREATE_TICKET, ToolStatus.OK, TICKET)
    text = reply(SI.CREATE_TICKET, res, lang, details="my headphones are broken")
    assert "T-000321" in text and "100123" in text


@pytest.mark.parametrize("lang", LANGS)
def test_render_reply_handoff_ticket_created(lang: Lang):
    res = result(SI.HANDOFF, ToolStatus.OK, {**TICKET, "category": "handoff"})
    text = reply(SI.HANDOFF, res, lang)
    assert "T-000321" in text and HOTLINE in text


# --- no tool ran ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("intent", "kw", "zh", "en"),
    [
        (Intent.GREETING, {}, "您好", "Hello"),
        (Intent.THANKS, {}, "不客气", "You're welcome"),
        (Intent.THANKS, {"details": "ack"}, "好的", "All right"),
        (Intent.UNKNOWN, {}, "SKU-1001 有货吗", "is SKU-1001 in stock?"),
        (Intent.CONFIRM_YES, {}, "没有需要您确认", "nothing waiting for your confirmation"),
        (Intent.CONFIRM_NO, {}, "没有做任何更改", "Nothing was changed"),
        (SI.TRACKING, {"order_id": None}, "请告诉我订单号", "order number"),
        (SI.CANCEL_ORDER, {"order_id": None}, "请告诉我订单号", "order number"),
        (SI.STOCK, {"sku": None}, "商品编号", "product code"),
        (SI.HANDOFF, {}, HOTLINE, HOTLINE),
    ],
)
def test_render_reply_without_result(intent: Intent, kw: dict[str, Any], zh: str, en: str):
    assert zh in reply(intent, None, "zh", **kw)
    assert en in reply(intent, None, "en", **kw)


# --- stale ----------------------------------------------------------------------------------------


def test_render_reply_stale_order_has_notice_with_age_and_data():
    res = result(SI.ORDER_STATUS, ToolStatus.STALE, ORDER, age_s=300)
    degrade = DegradeContext(stale={"get_order": 300.0})
    text = reply(SI.ORDER_STATUS, res, "zh", degrade=degrade)
    assert text.startswith("以下信息来自 5 分钟前的缓存，可能不是实时的。\n订单 100123 已发货。")
    assert text.count("缓存") == 1


@pytest.mark.parametrize("intent,data", [(SI.TRACKING, TRACKING), (SI.STOCK, STOCK)])
def test_render_reply_stale_en(intent: Intent, data: dict[str, Any]):
    text = reply(intent, result(intent, ToolStatus.STALE, data, age_s=7200), "en")
    assert "cached 2 hours ago and may not be up to date" in text
    assert "SKU-1001" in text or "SF1234567890" in text


def test_render_reply_stale_notice_from_context_only():
    res = result(SI.ORDER_STATUS, ToolStatus.OK, ORDER)
    text = reply(SI.ORDER_STATUS, res, "en", degrade=DegradeContext(stale={"x": 90.0}))
    assert text.endswith(
        "Some of this information comes from data cached 1 minute ago and may not be up to date."
    )


# --- degraded: fallback ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "intent",
    [
        SI.ORDER_STATUS,
        SI.TRACKING,
        SI.STOCK,
        SI.LIST_ORDERS,
        SI.FAQ,
    ],
)
def test_render_reply_fallback_is_self_service_not_data(intent: Intent, lang: Lang):
    res = result(intent, ToolStatus.DEGRADED, FALLBACK, fallback=True)
    text = reply(intent, res, lang)
    assert HOTLINE in text
    assert ("暂时无法为您查询" if lang == "zh" else "I can't look up") in text
    assert "已发货" not in text and "shipped" not in text


def test_render_reply_fallback_with_url():
    data = {**FALLBACK, "url": "https://shop.example/orders"}
    res = result(SI.ORDER_STATUS, ToolStatus.DEGRADED, data, fallback=True)
    assert reply(SI.ORDER_STATUS, res, "zh") == (
        "暂时无法为您查询订单 100123 的状态。您可以访问 https://shop.example/orders 自助查看，"
        "或拨打客服热线 400-820-8820。"
    )


def test_render_reply_degraded_real_data_is_shown_with_note():
    res = result(SI.ORDER_STATUS, ToolStatus.DEGRADED, ORDER)
    text = reply(SI.ORDER_STATUS, res, "en")
    assert "Order 100123 has shipped." in text and "simplified lookup" in text


# --- failed ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cls",
    [
        ErrorClass.TRANSIENT,
        ErrorClass.UNAVAILABLE,
        ErrorClass.RATE_LIMITED,
        ErrorClass.SCHEMA,
        ErrorClass.AUTH,
    ],
)
def test_render_reply_failed_order_lookup_is_honest(cls: ErrorClass):
    res = result(SI.ORDER_STATUS, ToolStatus.FAILED, error_class=cls, reason="503")
    assert reply(SI.ORDER_STATUS, res, "zh").startswith(
        "暂时无法查询订单 100123 的状态（系统繁忙），这不代表订单不存在。"
    )
    assert "doesn't mean the order doesn't exist" in reply(SI.ORDER_STATUS, res, "en")


@pytest.mark.parametrize("lang", LANGS)
def test_render_reply_failed_list_never_says_no_orders(lang: Lang):
    res = result(SI.LIST_ORDERS, ToolStatus.FAILED, error_class=ErrorClass.UNAVAILABLE)
    text = reply(SI.LIST_ORDERS, res, lang)
    assert "目前没有订单" not in text and "There are no orders" not in text
    assert ("这不代表您没有订单" if lang == "zh" else "doesn't mean you have no orders") in text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("intent", [SI.TRACKING, SI.STOCK, SI.FAQ])
def test_render_reply_failed_read_could_not_check(intent: Intent, lang: Lang):
    res = result(intent, ToolStatus.FAILED, error_class=ErrorClass.TRANSIENT)
    text = reply(intent, res, lang, topic="returns" if intent is SI.FAQ else None)
    assert ("暂时无法查询" if lang == "zh" else "I can't check") in text
    assert HOTLINE in text


@pytest.mark.parametrize(
    ("intent", "code", "zh", "en"),
    [
        (
            SI.ORDER_STATUS,
            "order_not_found",
            "没有找到订单 100123",
            "couldn't find order 100123",
        ),
        (
            SI.STOCK,
            "sku_not_found",
            "没有找到商品 SKU-1001",
            "couldn't find product SKU-1001",
        ),
        (SI.REFUND, "not_refundable", "订单 100123 目前无法退款", "can't be refunded"),
        (
            SI.REFUND,
            "amount_too_large",
            "超过了订单 100123 的可退金额",
            "more than what can",
        ),
        (SI.CANCEL_ORDER, "idempotency_key_reused", "没有办成", "didn't go through"),
    ],
)
def test_render_reply_failed_business(intent: Intent, code: str, zh: str, en: str):
    res = result(
        intent, ToolStatus.FAILED, {"code": code, "message": "No."}, error_class=ErrorClass.BUSINESS
    )
    assert zh in reply(intent, res, "zh")
    assert en in reply(intent, res, "en")


def test_render_reply_failed_not_cancellable_names_current_status():
    res = result(
        SI.CANCEL_ORDER,
        ToolStatus.FAILED,
        {"code": "not_cancellable", "message": "Order 100123 cannot be cancelled: it is shipped"},
        error_class=ErrorClass.BUSINESS,
    )
    assert reply(SI.CANCEL_ORDER, res, "zh") == (
        "订单 100123 当前已发货，无法取消。如果收到商品后不需要了，可以申请退货或退款。"
    )
    assert reply(SI.CANCEL_ORDER, res, "en").startswith(
        "Order 100123 is shipped, so it can no longer be cancelled. If you"
    )


def test_render_reply_failed_business_code_from_reason():
    res = result(
        SI.ORDER_STATUS,
        ToolStatus.FAILED,
        error_class=ErrorClass.BUSINESS,
        reason="get_order: 404 from GET /orders/100999 (order_not_found)",
    )
    text = reply(SI.ORDER_STATUS, res, "en", order_id="100999")
    assert text == (
        "I couldn't find order 100999. Please check the order number (6 digits, e.g. 100123)."
    )


@pytest.mark.parametrize(
    ("issues", "zh", "en"),
    [
        (
            ({"path": "order_id", "message": "missing"},),
            "还需要您提供订单号",
            "I still need the order number",
        ),
        (
            ({"path": "args.sku", "message": "invalid format"},),
            "商品编号（例如 SKU-1001）的格式",
            "doesn't look right",
        ),
        (({"path": "weird", "message": "required"},), "一些必要信息", "a few more details"),
    ],
)
def test_render_reply_failed_input_asks_for_field(
    issues: tuple[dict[str, Any], ...], zh: str, en: str
):
    res = result(SI.STOCK, ToolStatus.FAILED, error_class=ErrorClass.INPUT, issues=issues)
    assert zh in reply(SI.STOCK, res, "zh")
    assert en in reply(SI.STOCK, res, "en")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("intent", [SI.CANCEL_ORDER, SI.REFUND, SI.CREATE_TICKET])
def test_render_reply_failed_write_says_not_done(intent: Intent, lang: Lang):
    res = result(intent, ToolStatus.FAILED, error_class=ErrorClass.UNAVAILABLE)
    text = reply(intent, res, lang)
    assert ("没有完成" if lang == "zh" else "did not go through") in text
    assert "已为您取消" not in text and "has been cancelled" not in text


# --- unknown outcome ------------------------------------------------------------------------------


def test_render_reply_unknown_write_with_compensation_ticket():
    res = result(
        SI.CANCEL_ORDER,
        ToolStatus.UNKNOWN,
        error_class=ErrorClass.UNKNOWN_OUTCOME,
        ticket_id="T-000777",
    )
    zh = reply(SI.CANCEL_ORDER, res, "zh")
    assert zh.startswith(
        "我们暂时无法确认取消订单 100123 是否已经生效（系统响应超时）。已为此创建跟进工单 T-000777"
    )
    assert "已为您取消" not in zh
    en = reply(SI.CANCEL_ORDER, res, "en")
    assert "can't confirm yet whether cancelling order 100123 went through" in en
    assert "T-000777" in en


@pytest.mark.parametrize("lang", LANGS)
def test_render_reply_unknown_refund_without_ticket(lang: Lang):
    res = result(SI.REFUND, ToolStatus.UNKNOWN, error_class=ErrorClass.UNKNOWN_OUTCOME)
    text = reply(SI.REFUND, res, lang)
    assert ("无法确认" if lang == "zh" else "can't confirm") in text
    assert "R-" not in text


def test_render_reply_reconciled_not_done_write_says_it_did_not_go_through():
    # FAILED + unknown_outcome: the key lookup established the write did not take effect
    res = result(SI.REFUND, ToolStatus.FAILED, error_class=ErrorClass.UNKNOWN_OUTCOME)
    text = reply(SI.REFUND, res, "en")
    assert "did not go through" in text and "can't confirm yet" not in text


# --- skipped / needs confirmation -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("intent", "zh", "en"),
    [
        (SI.STOCK, "抱歉，SKU-1001 的库存暂时无法提供", "the stock level of SKU-1001"),
        (
            SI.TRACKING,
            "订单 100123 的物流信息暂时无法提供",
            "the tracking details for order 100123",
        ),
    ],
)
def test_render_reply_skipped_part_unavailable(intent: Intent, zh: str, en: str):
    res = result(intent, ToolStatus.SKIPPED, reason="dropped non-core task")
    assert zh in reply(intent, res, "zh")
    assert en in reply(intent, res, "en")


def test_render_reply_cancel_needs_confirmation():
    res = result(SI.CANCEL_ORDER, ToolStatus.NEEDS_CONFIRMATION, {"args": {"order_id": "100123"}})
    assert reply(SI.CANCEL_ORDER, res, "zh") == (
        "确认要取消订单 100123 吗？取消后无法恢复。请回复“确认”或“不用了”。"
    )
    assert '"yes"' in reply(SI.CANCEL_ORDER, res, "en")


def test_render_reply_refund_needs_confirmation_with_amount():
    res = result(
        SI.REFUND,
        ToolStatus.NEEDS_CONFIRMATION,
        {"args": {"order_id": "100123", "amount": 50}},
    )
    assert reply(SI.REFUND, res, "zh") == (
        "确认为订单 100123 申请退款 ¥50.00 吗？请回复“确认”或“不用了”。"
    )
    assert "refund of ¥50.00 for order 100123" in reply(SI.REFUND, res, "en")


def test_render_reply_refund_needs_confirmation_full_amount_states_the_amount():
    res = result(
        SI.REFUND,
        ToolStatus.NEEDS_CONFIRMATION,
        {"args": {"order_id": "100123", "amount": 866.0}, "full": True, "refundable_amount": 866.0},
    )
    zh = reply(SI.REFUND, res, "zh")
    assert "¥866.00" in zh and "全部可退金额" in zh
    assert "¥866.00" in reply(SI.REFUND, res, "en")


def test_render_reply_refund_confirmation_without_an_amount_never_asks():
    res = result(
        SI.REFUND,
        ToolStatus.NEEDS_CONFIRMATION,
        {"args": {"order_id": "100123", "amount": None}},
    )
    assert "确认" not in reply(SI.REFUND, res, "zh")
    assert "yes" not in reply(SI.REFUND, res, "en")


# --- request-level notices ------------------------------------------------------------------------


def test_render_reply_pending_items_with_ticket_ids():
    degrade = DegradeContext(
        pending=(
            PendingItem(
                task_id="t0-9", what="request_refund 100124", status="unknown", ticket_id="T-000001"
            ),
            PendingItem(task_id="t0-8", what="check_stock SKU-1002", status="dropped"),
        )
    )
    res = result(SI.ORDER_STATUS, ToolStatus.OK, ORDER)
    zh = reply(SI.ORDER_STATUS, res, "zh", degrade=degrade)
    assert "以下事项尚未完成：\n· 订单 100124 的退款申请：结果待确认（跟进工单 T-000001）\n" in zh
    assert "· SKU-1002 的库存：暂未处理" in zh
    en = reply(SI.ORDER_STATUS, res, "en", degrade=degrade)
    assert (
        "· the refund request for order 100124: outcome being verified (follow-up ticket T-000001)"
    ) in en


def test_render_reply_pending_item_already_told_is_not_repeated():
    res = ToolResult(
        call_id="t1-0",
        tool="cancel_order",
        status=ToolStatus.UNKNOWN,
        error_class=ErrorClass.UNKNOWN_OUTCOME,
        ticket_id="T-000777",
    )
    degrade = DegradeContext(
        pending=(
            PendingItem(
                task_id="t1-0", what="cancel_order 100123", status="unknown", ticket_id="T-000777"
            ),
        )
    )
    text = reply(SI.CANCEL_ORDER, res, "en", degrade=degrade)
    assert text.count("T-000777") == 1
    assert "Still open" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_render_reply_simplified_mode_notice(lang: Lang):
    res = result(SI.ORDER_STATUS, ToolStatus.OK, ORDER)
    text = reply(SI.ORDER_STATUS, res, lang, degrade=DegradeContext(simplified_mode=True))
    assert ("简化服务模式" if lang == "zh" else "simplified mode") in text


def test_render_reply_all_good_has_no_honesty_notices():
    res = result(SI.ORDER_STATUS, ToolStatus.OK, ORDER)
    text = reply(SI.ORDER_STATUS, res, "en")
    assert HOTLINE not in text and "cached" not in text


def test_render_reply_inferred_order_is_said():
    res = result(SI.TRACKING, ToolStatus.OK, TRACKING)
    text = reply(SI.TRACKING, res, "zh", inferred_order=True)
    assert text.startswith("（根据之前的对话，这里指的是订单 100123。）\n")


def test_render_reply_multiple_items_in_order_one_paragraph_each():
    items = [
        ReplyItem(match(SI.STOCK, "en"), result(SI.STOCK, ToolStatus.OK, STOCK)),
        ReplyItem(
            match(SI.TRACKING, "en"),
            result(SI.TRACKING, ToolStatus.FAILED, error_class=ErrorClass.TRANSIENT),
        ),
    ]
    text = render_reply(items, DegradeContext(), "en", packs=SHOP)
    paragraphs = text.split("\n\n")
    assert paragraphs[0].startswith("Wireless Headphones (SKU-1001) is in stock")
    assert paragraphs[1].startswith("I can't check the tracking details for order 100123")
    assert paragraphs[2] == (
        'If this doesn\'t solve it, reply "talk to a human" or call our hotline at 400-820-8820.'
    )


def test_render_reply_malformed_data_is_could_not_check():
    res = result(SI.ORDER_STATUS, ToolStatus.OK, {"unexpected": True})
    assert "doesn't mean the order doesn't exist" in reply(SI.ORDER_STATUS, res, "en")


def test_render_reply_note_key_and_text():
    item = ReplyItem(match(Intent.GREETING), None, note="handoff_last_resort")
    text = render_reply([item], DegradeContext(), "en", packs=SHOP)
    assert text.endswith("call our hotline at 400-820-8820.")
    item = ReplyItem(match(Intent.GREETING), None, note="Extra line.")
    assert render_reply([item], DegradeContext(), "en", packs=SHOP).endswith("\nExtra line.")


def test_render_reply_no_items_asks_to_clarify():
    reply = render_reply([], DegradeContext(), "zh", packs=SHOP)
    assert reply.startswith("抱歉，我没太明白您的意思。")


def test_render_fallback_reply_still_asks_the_pending_confirmation():
    from helpdesk.graph.replies import render_fallback_reply

    match = shop_request(SI.CANCEL_ORDER, "cancel order 100998", "en", order_id="100998")
    pending = ToolResult(
        call_id="c",
        tool="cancel_order",
        status=ToolStatus.NEEDS_CONFIRMATION,
        data={"args": {"order_id": "100998"}},
    )
    text = render_fallback_reply(
        [ReplyItem(intent=match, result=pending)], DegradeContext(), "en", packs=SHOP
    )
    assert text.startswith("Do you want me to cancel order 100998?")


def test_render_reply_tool_without_capability_ok_is_its_data_not_a_failed_write() -> None:
    item = ReplyItem(
        intent=MatchedIntent(intent=Intent.UNKNOWN, text="", lang="en"),
        result=ToolResult(
            call_id="t1-1", tool="loyalty_points", status=ToolStatus.OK, data={"balance": 420}
        ),
    )
    reply = render_reply([item], DegradeContext(), "en", packs=SHOP)
    assert reply == "Here is what that request (loyalty_points) returned: balance: 420"


def test_render_reply_tool_without_capability_failure_is_not_claimed_done() -> None:
    item = ReplyItem(
        intent=MatchedIntent(intent=Intent.UNKNOWN, text="", lang="zh"),
        result=ToolResult(
            call_id="t1-1",
            tool="loyalty_points",
            status=ToolStatus.FAILED,
            error_class=ErrorClass.UNAVAILABLE,
        ),
    )
    reply = render_reply([item], DegradeContext(), "zh", packs=SHOP)
    assert reply.startswith("抱歉，暂时无法提供该请求（loyalty_points），请稍后再试。")
