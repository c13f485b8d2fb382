"""The demo shop's template matcher: what shop customers write, read offline in Chinese and English.

The shop pack's :attr:`~helpdesk.tools.packs.Pack.matcher`. :func:`match_shop` splits a customer
message into clauses (", and", "also", "?", "另外", "还有", "。" ...), matches each clause against
hand-written templates for every :class:`ShopIntent` and the engine's conversation intents, folds
clauses that match nothing into their neighbours (so "SKU-1001 还有货吗？我想买3个" stays one stock
question with quantity 3), resolves order numbers from the clause, the rest of the message or the
session's last order, and returns one :class:`~helpdesk.graph.intents.MatchedIntent` per
(intent, entity) in message order: a shop request is ``Intent.PACK`` with the shop capability's
name and its identifiers (``order_id``, ``sku``, ``tracking_number``) in ``args``
(:func:`kind_of`, :func:`order_of`, :func:`sku_of` read them back). :func:`extract_entities` pulls
the identifiers out of any text (orders, SKUs, tickets, quantity, amount, FAQ topic). The keyword
tables are matching logic, not customer text; everything said to the customer lives in the
pack's templates and ``prompts/``.

Longer than 400 lines because the templates are one priority-ordered table: the regexes and the
:func:`_classify` order that reads them only make sense side by side.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from helpdesk.graph.asking import (
    ACTION_VERB,
    ASKS,
    EXASPERATION,
    IMPERATIVE,
    REQUESTS,
    asks_for_a_change,
    asks_for_something,
    word_count,
)
from helpdesk.graph.conversation import (
    ACK_WHOLE,
    AFTER_ALL,
    ARE_YOU_HUMAN,
    CONFIRM_WORD,
    EMOJI,
    FOLLOW_UP,
    GOODBYE,
    GREETING,
    HOTLINE,
    NO_ANY,
    NO_WHOLE,
    QUESTION_MARK,
    STRIP,
    THANKS,
    TO_END,
    YES_START,
    bare,
    blank,
    clause_spans,
    normalize,
    rx,
)
from helpdesk.graph.intents import (
    ALTERNATIVE,
    BRIEF,
    DEFERRED_PART,
    LAST_WRITE,
    SPARED_SUBJECT,
    ConfirmationWords,
    Intent,
    MatchContext,
    MatchedIntent,
    read_confirmation,
)
from helpdesk.graph.language import (
    Lang,
    detect_language,
    requested_language,
    unsupported_language,
    without_language_request,
)
from helpdesk.graph.money import AmountReading, chinese_number, read_amount
from helpdesk.graph.request import AMOUNT_ASKED, EVERY_DESCRIBED, REPLACED
from helpdesk.packs.shop.clause_model import read_clause
from helpdesk.packs.shop.identifiers import ORDER_MENTION, REFUND_MENTION, TICKET_MENTION
from helpdesk.packs.shop.not_asked_for import DEMANDED_OR_ELSE, not_asked_for
from helpdesk.packs.shop.order_amounts import left_amount_named
from helpdesk.packs.shop.order_parts import (
    KEEP,
    SPARED,
    amounts_by_order,
    kept_out,
    own_write,
    spared_before,
    writes_by_order,
)
from helpdesk.packs.shop.order_reference import (
    NOT_SHIPPED,
    ONE_OF_THEM_CANCELLED,
    SAME_ORDER_AS_REFUND,
    THE_OTHER,
    UNPAID,
    describes_an_order,
    names_a_parcel,
    order_query,
    refund_amount_named,
    without_totals,
)
from helpdesk.packs.shop.other_order_meant import other_order_meant
from helpdesk.packs.shop.refund_share import (
    SHARE,
    SHARE_OF,
    SHARE_OWN,
    read_share,
    without_share,
)
from helpdesk.packs.shop.replacement_first import replacement_first
from helpdesk.packs.shop.thing_meant_at_offer import thing_added_at_offer, thing_meant_at_offer
from helpdesk.packs.shop.words import (
    ADDRESS_CHANGE_NEGATED,
    ASK_FIRST,
    COMPLAINED,
    COMPLAINT_NEGATED,
    DISSATISFIED,
    IF_LATE_BY,
    INSTEAD,
    NOT_OWN,
    RECEIVED,
    REFUNDS_ASKED,
    TICKET_MESSAGE,
    TICKET_WONDERED,
    TOLD_BESIDE,
    VENTED,
    WRITE_HELD,
    is_complaint,
    looked_product,
    product_query,
    ticket_asked_for,
    tracked_product,
)
from helpdesk.tools.builtin import IF_UNPAID, KEPT_SAID
from helpdesk.tools.number_words import EN_UNITS
from helpdesk.tools.packs import PackSet
from helpdesk.tools.refund_all_but import ALL_BUT
from helpdesk.tools.refund_per_item import PER_ITEM
from helpdesk.tools.refund_shares import REMAINING
from helpdesk.tools.shop.product_search import price_cap
from helpdesk.tools.unusable_amounts import KEPT_AMOUNT

__all__ = [
    "FAQ_TOPICS",
    "ORDER_SCOPED_INTENTS",
    "Entities",
    "ShopIntent",
    "asks_cancellable",
    "cancel_on_a_condition",
    "extract_entities",
    "faq_topic_of",
    "kind_of",
    "match_shop",
    "mentions_refund",
    "normalize_sku",
    "order_of",
    "shop_matcher",
    "shop_request",
    "shop_text_facts",
    "sku_of",
]


class ShopIntent(StrEnum):
    """The shop's requests: each the name of one of its capabilities."""

    ORDER_STATUS = "order_status"
    LIST_ORDERS = "list_orders"
    TRACKING = "tracking"
    STOCK = "stock"
    CREATE_TICKET = "create_ticket"
    CANCEL_ORDER = "cancel_order"
    REFUND = "refund"
    HANDOFF = "handoff"
    FAQ = "faq"
    TICKET_STATUS = "ticket_status"


Kind = Intent | ShopIntent
"""What one clause asks: a shop request or one of the engine's intents."""


#: Intents that act on one order; they carry ``order_id`` (possibly inferred from the session).
ORDER_SCOPED_INTENTS: frozenset[Kind] = frozenset(
    {
        ShopIntent.ORDER_STATUS,
        ShopIntent.TRACKING,
        ShopIntent.CANCEL_ORDER,
        ShopIntent.REFUND,
        ShopIntent.CREATE_TICKET,
    }
)

#: FAQ topics of the demo shop (``GET /faq``), in matching priority order.
FAQ_TOPICS: tuple[str, ...] = (
    "refund_time",
    "returns",
    "exchange",
    "cancel_order",
    "shipping_fee",
    "delivery_times",
    "invoice",
    "warranty",
    "payment",
)


@dataclass(frozen=True, slots=True)
class Entities:
    """Identifiers and values found in a piece of customer text."""

    order_ids: tuple[str, ...] = ()
    """Six-digit order numbers, in order of appearance, without duplicates."""
    skus: tuple[str, ...] = ()
    """SKUs normalized to ``SKU-1001``."""
    quantity: int | None = None
    """Requested quantity ("2件", "两个", "3 pcs", "x2", "two")."""
    ticket_ids: tuple[str, ...] = ()
    """Tickets normalized to ``T-000123``."""
    tracking_numbers: tuple[str, ...] = ()
    """Parcel tracking numbers, upper-cased (``YT9433239273``)."""
    faq_topic: str | None = None
    """One of :data:`FAQ_TOPICS` when the text asks a policy question."""
    amount: float | None = None
    """A money amount ("50 元", "¥50", "refund of 50")."""


@dataclass(frozen=True, slots=True)
class _Request:
    """One request while the message is read (the shop's identifiers as fields); handed on as
    a :class:`~helpdesk.graph.intents.MatchedIntent` by :func:`_published`."""

    intent: Kind
    text: str
    lang: Lang
    order_id: str | None = None
    sku: str | None = None
    quantity: int | None = None
    topic: str | None = None
    amount: float | None = None
    amount_kind: str = "none"
    amount_raw: str = ""
    details: str = ""
    inferred_order: bool = False
    args: dict[str, Any] = field(default_factory=dict)


# --- text normalization -------------------------------------------------------------------------

# Full-width ASCII (U+FF01..U+FF5E) to ASCII, one character for one, so spans stay aligned.


# Common typos, each replaced by a word of the same length (spans stay aligned).
_TYPOS = (
    ("cancle", "cancel"),
    ("取小订单", "取消订单"),
    ("退宽", "退款"),
    ("定单", "订单"),
    ("到拿了", "到哪了"),
    ("木有", "没有"),
    ("到那了", "到哪了"),
    ("发火了", "发货了"),
    ("钢化摸", "钢化膜"),
    ("mutch", "much "),
    ("订但", "订单"),
    ("发获", "发货"),
    ("取效", "取消"),
    ("teh ", "the "),
    ("clame", "claim"),
    ("取笑了", "取消了"),
    ("吧100", "把100"),
    ("到拉没", "到了没"),
    ("时侯", "时候"),
    ("快第", "快递"),
    ("到帐", "到账"),
)


# --- entities -----------------------------------------------------------------------------------

_SKU = rx(r"(?<![a-z0-9])sku[\s_-]*(\d{3,6})(?!\d)")
_TICKET_ID = rx(r"(?<![a-z0-9])t-?(\d{6})(?!\d)")
_TRACKING_NO = rx(r"(?<![a-z0-9])(?:sf|yt)\d{10}(?!\d)")
# not a refund's or a shipment's number ("refund R-000094 did it go through")
_ORDER = rx(r"(?<![\d.])(?<![rs]-)(?<![rs])(\d{6})(?!\d|\.\d|\s*(?:元|块|yuan|rmb|cny))")
# A money amount: "1,299.00", "1299", "50.5" (thousands separators allowed, removed on parse).
_MONEY = r"(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)"
_AMOUNT_PATTERNS: tuple[re.Pattern[str], ...] = (
    rx(r"[¥$]\s*" + _MONEY + r"(?![\d,])"),
    rx(r"(?:cny|rmb)\s*" + _MONEY + r"(?![\d,])"),
    rx(_MONEY + r"\s*(?:元|块钱|块|yuan|rmb|cny)"),
    rx(
        r"(?:refund|退款|退钱|退)\s*(?:of|for)?\s*(?:金额)?\s*[:：]?\s*"
        r"(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,5}(?:\.\d{1,2})?)(?![\d,])"
    ),
)
_EN_NUMBERS = {
    **{word: value for word, value in EN_UNITS.items() if value <= 10},
    "a dozen": 12,
    "dozen": 12,
    "a couple of": 2,
    "a pair of": 2,
}
_CN_NUM = r"[零一二两三四五六七八九十]{1,3}"
_EN_NUM = r"one|two|three|four|five|six|seven|eight|nine|ten|a dozen|dozen"
_CN_UNITS = r"件|个|台|只|套|双|份|盒|瓶|条|支|部|本|张|把|副|箱|包"
_QUANTITY_PATTERNS: tuple[re.Pattern[str], ...] = (
    rx(rf"(\d{{1,4}}|{_CN_NUM})\s*(?:{_CN_UNITS})"),
    rx(rf"(?:买|要|订|拿|来|购买|需要)\s*(\d{{1,4}}|{_CN_NUM})(?!\d)"),
    rx(r"(?:数量|qty|quantity)\s*(?:of)?\s*[:=]?\s*(\d{1,4})(?!\d)"),
    rx(r"\b(\d{1,4})\s*(?:pcs|pc|pieces?|units?|items?|of (?:them|these|those|it))\b"),
    rx(r"(?:^|[\s(])[x×*]\s*(\d{1,4})\b"),
    rx(r"\b(\d{1,4})\s*[x×](?=\s|$|[,.;?!])"),
    rx(rf"\b({_EN_NUM})\s+(?:pcs|pieces?|units?|items?|of (?:them|these|those|it))\b"),
    rx(
        rf"\b(?:buy|need|want|order|get|purchase|take|like|have)\s+({_EN_NUM}|\d{{1,4}})\b(?!\s*(?:days?|weeks?|hours?))"
    ),
    rx(rf"^\W*({_EN_NUM})" + TO_END),
)

_FAQ_PATTERNS: dict[str, re.Pattern[str]] = {
    "returns": rx(
        r"退款(?:的)?(?:规则|政策|规定|条件|流程)|"
        r"\breturn(?:s|ing)? (?:polic(?:y|ies)|window|rules?|period)\b|\brefund polic(?:y|ies)\b"
        r"|\b(?:how|can|could|may) (?:do |can )?i return\b|\bhow (?:do|to) (?:i )?returns?\b"
        r"|\b(?:if|whether) (?:i|we) (?:can|could|may) (?:still )?return\b"
        r"|\bcan (?:i|it|this|items?|products?) be returned\b|\breturn (?:shipping|postage)\b"
        # "how many days do I have to send something back", "is it possible to get a refund
        # without sending the item back?", "退款是不是得先把东西寄回去": the return rules asked
        r"|\bhow (?:many days|long) do (?:i|we) have to (?:send|return|bring|ship)\b"
        r"|\brefund without (?:sending|returning|giving)\b"
        r"|退款[^，。,.!?！？]{0,6}(?:得|要|需要|必须)[^，。,.!?！？]{0,4}(?:寄回|退回|寄还)"
        r"|退货.{0,6}(?:运费|邮费)|(?:运费|邮费).{0,4}谁(?:出|付|承担)"
        r"|退货政策|退换货政策|退换政策|退货规则|退货条件|退款政策|无理由|怎么退货|如何退货|能退货吗"
        # "穿了一次发现不喜欢 吊牌还在 能退不": whether a thing can go back, asked
        r"|(?<!钱)(?<!款)(?<!部分)(?:能|可以)退(?:不|吗|么)(?![^，。,.!?！？]{0,3}(?:款|钱))"
        r"|可以退货吗|能不能退货|可不可以退货|退货流程|怎么退换|如何退换"
        # (not "净化器剩下的钱能退吗": what is left of the money)
        r"|(?<!钱)(?<!款)(?<!部分)(?:可以|能)退吗"
        # "how many days after delivery can i still send stuff back"
        r"|\b(?:how many days|how long)\b.{0,30}\bsend (?:it|them|stuff|things|items?) back\b"
        r"|\bcan i (?:still )?send (?:it|them|stuff|things|items?) back\b"
        # "被子拆了包装还能退吗", "who pays postage on returns"
        r"|拆(?:了|开)(?:包装|封)?[^，。,.!?！？]{0,6}(?:还)?(?:能|可以)退|\bpostage on returns?\b"
        r"|\bwho pays\b.{0,20}\breturns?\b|\bopened\b.{0,20}\breturn(?:ed)?\b"
        r"|\b(?:still )?returnable\b"
        # "箱子压扁了 是拒收还是先签收再退": refuse the parcel or sign and return, asked
        r"|拒收[^，。,.!?！？]{0,3}还是|还是[^，。,.!?！？]{0,3}拒收|(?:能|可以)拒收(?:吗|么|不)"
        # "我要是拒收会怎么样", "what happens if I refuse the parcel"
        r"|拒收[^，。,.!?！？]{0,4}(?:会怎么样|会怎样|怎么办|怎么处理|有什么后果|钱怎么|退款吗|能退吗)"
        r"|\bwhat happens if i (?:refuse|reject|don'?t accept)\b"
        r"|\b(?:refuse|reject) (?:the )?(?:delivery|parcel|package)\b[^.!]{0,30}\?"
    ),
    "exchange": rx(
        r"\b(?:exchange|swap|switch) (?:it |them |this |(?:the |my )[a-z0-9 ]{2,20} )?for "
        r"(?:a |an )?"
        r"(?:bigger|smaller|larger|different|other|another)\b"
        r"|\bhow (?:do|can|to) (?:i )?(?:exchange|swap)\b|\bexchange policy\b"
        r"|\b(?:can|could) (?:i|we) (?:still )?(?:exchange|swap) (?:it|them|this|that|the|my)\b"
        r"|\b(?:can|could) (?:it|they|this|i) (?:be )?swap(?:ped)? for\b"
        r"|\b(?:bigger|smaller|larger|different) size\b"
        r"|换(?:大|小)(?:一|1)?(?:码|号)|换(?:个|一个)?(?:尺码|码数|颜色)|换货(?:政策|流程|规则)|怎么换货|能换货吗"
        r"|可以换货吗|能(?:不能)?换(?!.{0,4}(?:快递|物流|地址|时间|日期|方式|号码|手机|账号|卡|支付|付款))"
        # "衣服大了一码想换货", "how does an exchange work": an exchange, whatever follows
        r"|(?<!退)换货(?=[^，。,.!?！？]{0,6}(?:怎么|如何|流程|吗|呢|几天|多久|期限|时限|申请))"
        r"|(?:大|小)了?一?码[^，。,.!?！？]{0,4}换"
        r"|\b(?:an |the )?exchange (?:work|process|policy)\b|\bhow (?:does|do) "
        r"(?:an |the )?exchanges? work\b"
    ),
    "cancel_order": rx(
        r"\bhow (?:do|can|to) (?:i )?cancel\b(?! (?:order )?\d)"
        r"|\bwhat happens if (?:i |you )?cancel"
        r"|\bcan (?:orders?|it|i|you) (?:still )?(?:be )?cancel+(?:ed)? .*\b(?:after|once)\b"
        r"|\bcancel+ation policy\b"
        r"|(?:发货|付款|支付)(?:了|后|之后)(?:还)?(?:能|可以)取消|怎么取消订单|如何取消订单|取消订单(?:的)?流程"
        r"|取消[^，。,.!?！？]{0,4}(?:手续费|要钱|收费|扣钱)|\bcancel+ation fee\b"
        # "怎么自己在app上取消订单", "how do i cancel an order myself in the app"
        r"|(?:怎么|如何|怎样|咋)(?:自己)?[^，。,.!?！？\d]{0,10}取消订单|咋取消"
        # "can I refuse it at the door?", "能拒收吗": refusing a delivery, asked about
        r"|\b(?:can|could|may|should) (?:i|we) (?:just )?(?:refuse|reject) (?:it|them|the "
        r"(?:delivery|parcel|package))\b|(?:能|可以|能不能|可不可以)(?:直接)?拒收"
        # "if I refuse the screen protector at the door, do I get my 29 back?"
        r"|\bif (?:i|we) (?:refuse|reject|don'?t accept) (?:it|them|the [a-z -]{2,30}?)"
        r" at the door\b"
    ),
    "shipping_fee": rx(
        r"\bhow much (?:is|does|for) (?:the )?(?:shipping|delivery|postage)\b"
        r"|\bfree (?:shipping|delivery)\b|\bshipping (?:fees?|costs?|charges?|price)\b"
        r"|\b(?:shipping|delivery) (?:is |be )?free\b"
        r"|\b(?:do|would|will) i (?:have to |need to )?pay (?:for )?(?:the )?"
        r"(?:shipping|delivery|postage)\b"
        r"|\bdelivery (?:fees?|costs?|charges?)\b"
        r"|\bwho(?:'s| is| will| would| should| has to)?\s+(?:pay|pays|cover|covers|bear|bears"
        r"|paying|covering)\s+(?:for\s+)?(?:the\s+)?(?:return\s+)?(?:shipping|postage|delivery)\b"
        r"|\bcharg(?:e|es|ed|ing) (?:me |us )?(?:for |on )(?:the )?(?:shipping|delivery|postage)\b"
        r"|运费|邮费|包邮|免运费|配送费|快递费|\bpostage\b"
    ),
    "delivery_times": rx(
        r"\b(?:delivery|shipping) (?:times?|speed|duration)\b"
        # "how quick is delivery there", "how fast is shipping"
        r"|\bhow (?:quick|fast|long) (?:is|does) (?:the )?(?:delivery|shipping)\b"
        # "what time do you ship?", "if I pay now will it go out today"
        r"|\bwhat time do (?:you|u) (?:ship|dispatch|send)\b|\b(?:go|goes|going) out today\b"
        r"|\bwhich (?:couriers?|carriers?|delivery compan(?:y|ies)|express)\b"
        r"|\bdo (?:you|u) (?:guys )?(?:ship|deliver) to\b"
        r"|\b(?:can|could) (?:it|you|u) (?:ship|deliver) to\b"
        r"|\b(?:if|whether) (?:you|u) (?:guys )?(?:ship|deliver) to\b"
        r"|\bsame[- ]day (?:shipping|dispatch|delivery)\b"
        # "新疆能发吗", "西藏发不发货", "能寄到拉萨吗": whether the shop ships there
        r"|(?:新疆|西藏|青海|内蒙古?|宁夏|甘肃|海南|香港|澳门|台湾|偏远地区|乡下|农村)"
        r"(?:那边|地区)?(?:能|可以)?(?:发|寄|送|配送)(?:货)?(?:吗|么|嘛|不)"
        r"|(?:能|可以)(?:发|寄|送)(?:到|往)[\u4e00-\u9fff]{2,4}(?:吗|么|嘛)"
        r"|发什么快递|用什么快递|哪家快递|哪个快递|什么快递公司|(?:寄|送|发货?)(?:到|往)(?!现在|今天|目前|底|手)"
        r".{1,6}(?:要|需要)?(?:几天|多久)"
        r"|寄.{1,6}(?:要|需要)(?:几天|多久)|几点(?:前|之前)下单|当天发|(?:的话)?(?:大概)?几天能到"
        r"|下单(?:的话)?[^，。,.!?！？]{0,6}(?:啥时候|什么时候|几天|多久)(?:能)?到"
        r"|\bhow long (?:would|will|does|do) (?:stuff|things|it|orders?|parcels?|delivery) take"
        r" to (?:get|arrive|reach)\b"
        r"|到货?(?:一般|大概|通常)(?:要)?(?:几天|多久)"
        r"|\bhow (?:long|many days) (?:does|will|do|is)?\s*(?:it )?(?:take )?(?:for )?(?:the )?"
        r"(?:delivery|shipping|deliver|ship|arrive)"
        r"|\bhow long .*\b(?:delivery|shipping|to arrive|to deliver)\b"
        r"|\bhow fast (?:do|is|can) (?:you )?(?:ship|deliver|delivery|shipping)\b"
        r"|配送时间|发货时间|送货时间|配送(?:要|需要)?(?:多久|几天)|快递(?:要|需要)?(?:多久|几天)"
        r"|几天(?:能|可以|才)?到|多久(?:能|可以|才)?到|多久发货|几天发货|时效|一般多久"
        # "发天津一般要几天啊", "how many days should it take": how long delivery takes
        r"|(?:寄|送|发)(?:到|往)?[\u4e00-\u9fff]{2,3}(?:一般|大概)?(?:要|需要)(?:几天|多久)"
        r"|\bhow (?:long|many days) (?:should|would|does|will) it (?:usually |normally )?take\b"
        r"|\bhow fast can (?:it|you|they) (?:get|arrive|ship|deliver|be)\b"
        r"|\b(?:delivery|shipping) to [a-z]+\W{0,3}how (?:many days|long)\b"
        r"|(?:今天|明天|后天)下单.{0,6}(?:能|可以)?(?:到|送到)"
    ),
    "invoice": rx(r"\b(?:invoices?|receipts?|vat|fapiao|tax receipt)\b|发票|开票|收据|专票|普票"),
    "warranty": rx(
        r"\b(?:warranty|warranties|guarantee)\b|保修|质保|三包|保固|管修|包修|保几年"
        # "这个是保一年的吧", "保多久": how long it is covered
        r"|保(?:[一两二三]|\d)年|保多久|保多长"
        r"|\bis (?:that|it|this) covered\b|\bcovered (?:by|under)\b"
        # "炸锅把手松了 能修吗", "can it be repaired?": whether it is repaired, asked
        r"|(?:能|可以|给)(?:修|维修)(?:吗|么|嘛|不)|能不能修|可不可以修"
        r"|\bcan (?:it|this|that|they) be (?:repaired|fixed)\b|\bcan (?:you|u) repair\b"
    ),
    "payment": rx(
        r"\bpayment (?:methods?|options?)\b|\bpay (?:with|by|using|via)\b"
        # "can i pay the pending one 100904 with wechat"
        r"|\bpay (?:for )?(?:the|my|it|order)\b[^.?!]{0,30}\b(?:with|by|using|via) (?:wechat|alipay"
        r"|huabei|(?:a |my )?(?:credit |debit |bank )?card)\b"
        r"|\bhow (?:can|do|should) i pay\b|\b(?:alipay|wechat pay|credit cards?|debit cards?|paypal"
        r"|huabei|split (?:it|the payment)"
        r"|instal+ments?)\b|支付方式|付款方式|怎么(?:付款|支付|付钱)|如何(?:付款|支付)|支付宝|微信支付"
        r"|信用卡|花呗|分期|用什么支付|能用.{0,6}支付"
        # "how long do i have to pay before it expires", "最晚什么时候要付款": the unpaid window
        r"|\bhow long (?:do i have|can i wait|have i got) to pay\b|\bbefore it expires\b"
        r"|\bpay(?:ment)? deadline\b|最晚什么时候(?:要)?付|多久(?:内|之内)?(?:要|必须)?付款"
        r"|付款期限"
        # "没付款的单子能留多久", "does 100904 get auto cancelled if I only pay tomorrow"
        r"|(?:没付款|未付款|待付款|没付)[^，。,.!?！？]{0,8}(?:留|保留)多久|多久(?:会)?自动取消"
        # "不想要了是不是放着不管就自动取消了": whether an unpaid order lapses by itself
        r"|(?:是不是|会不会|是否)[^，。,.!?！？]{0,8}(?:就|会)?自动取消|(?:就|会)自动取消(?:了)?(?:吗|么|嘛)"
        r"|\bauto(?:matically)?[ -]?cancel+(?:ed|s)?\b|\bhow long (?:will|do) you (?:hold|keep)\b"
        # "can I pay for 100904 with wechat", "do you accept UnionPay"
        r"|\baccept (?:unionpay|visa|mastercard|amex|credit cards?|paypal|apple pay|wechat)\b"
        r"|\bunionpay\b|银联"
        # "where's my unpaid order, and can I still pay for it": whether it can still be paid
        r"|\bcan (?:i|we) still pay(?: for)? (?:it|that|this|the order|my order)\b"
        r"|还能(?:付款|付钱|支付)(?:吗|么|不|嘛)"
        # "what happens if I place an order and don't pay straight away?", "还能保留多久",
        # "不付款会怎样": what becomes of an order left unpaid
        r"|\bwhat happens if (?:i|we) (?:[\w']+ ){0,6}(?:don'?t|do not|never|forget to) pay\b"
        r"|(?<![收货地址])还能保留多久|(?:不|没)(?:付款|付钱|支付)(?:的话)?会(?:怎样|怎么样|咋样|被取消|自动取消)"
    ),
}
_AMOUNT_BACK_TO_ME_PATTERN = r"(?<![\w.-])\d{1,5}(?:\.\d+)?\s*(?:块钱|块|元)?\s*退(?:给)?我(?!们)"
_AMOUNT_BACK_TO_ME = rx(_AMOUNT_BACK_TO_ME_PATTERN)
_REFUND = rx(
    r"\bre?fu?nd(?:s|ed|ing|able)?\b|\bmoney back\b|\bmy money\b|\breimburse"
    r"|\b(?:get|got) (?:it |anything |more )?back\b(?! to\b)"
    # "can i get 30% back on 100200 instead of returning stuff" (never asked whether: "will I
    # get 30% back?", "can I get 30% back if I return it?")
    r"|^(?![^\n]*(?:\?|\b(?:if|when|unless|did|will|would)\b))[^\n]*"
    r"\b(?:get|got) \d{1,3}(?:\.\d+)? ?% back\b"
    # "I want 100 yuan back on 100683", "give me 50 back"
    r"|\b(?:want|need|give me|like|refund me) (?:my )?\d+(?:\.\d+)?"
    r" ?(?:yuan|rmb|cny|kuai|bucks)? back\b"
    # "dinnerware 269 back please": the amount wanted back, said alone
    r"|(?<![\w.-])\d{1,5}(?:\.\d+)? ?(?:yuan|rmb|cny|kuai|bucks)? back"
    r"(?= ?(?:please|pls|thanks|$|[,.!]))"
    r"|退款|退钱|退费|返款|还能退|能退多少|退多少|退了多少|退吧|还是退|给我退|帮我退|退了吧"
    r"|整单(?:都)?退|全额退|退全(?:款|额)"
    r"|退(?:给)?我\s*[\d零一二两三四五六七八九十百千]|(?:都|全)退给我|退给我吧"
    r"|(?<![把只])(?:一半|剩下的?|剩余的?|余下的?)(?:钱|款)?(?:都|全)?退给我(?![吗么嘛没了])"
    r"|退到哪|退哪(?:了|去了)|钱到哪|(?:全|全部|都)退(?![货换])|(?:什么时候|啥时候|哪天|几号)退的"
    # "how much more can i still claim back", "i want the rest back", "还剩多少能退"
    r"|\bclaim(?:ed|ing)? (?:back|on)\b|\bwhat can i (?:still )?claim\b"
    r"|\b(?:want|need) (?:the rest|the remainder|it all|my money|the money) back\b|多少能退"
    # "don't refund 100609, just tell me how much is left on it": what is still refundable
    r"|\bhow much (?:is |do i have )?(?:left|remaining) (?:on|for|of)\b"
    # "钱多久能退回来": the money sent back, a refund (a parcel "退回来" is a return)
    r"|钱[^，。,.!?！？]{0,6}退回"
    # "把100609剩下的钱退了": a request, "钱退了吗" a question (_REFUND_WHEN)
    r"|把.{0,16}(?:钱|款)退(?:了|掉|给我|回来|我(?!们))|(?:钱|款)\s*退(?:给我|回给我|回来)"
    r"|(?:钱|款)(?:能|可以)退"
    r"|(?:我|也|还)(?:想|要)退(?![货换订])"
    r"|(?<!不)退\s*(?=[\d零一二两三四五六七八九十百千¥￥])"
    # "补偿我100块吧", "compensate me 50": an amount asked for as compensation is a refund of it
    # (only as the whole request: "补偿我100块不够", "补偿我100块？", "赔我29块或者补发" are none)
    # (never asked, on a condition, told of or reported: "did you compensate me 100?", "if it's
    # late compensate me 50", "你们说要补偿我100块", "如果迟到了就补偿我50块吧")
    r"|^(?![^\n]*(?:\?|？|\b(?:if|when|unless|did|will|would|promised|said|why|how)\b|如果|要是"
    r"|万一|的话|说|上次|之前|是不是|为什么|怎么|吗))(?:[^\n]*[\s，,。.!！;；])?"
    r"(?:那|就|那就|干脆|直接|再|要不)?(?:补偿|赔偿|赔)(?:给)?我\s*"
    r"(?:\d{1,5}(?:\.\d+)?|[一二两三四五六七八九十百千]{1,6})"
    r"\s*(?:块钱|块|元)?(?:吧|呗|就行了?|就算了|算了|好了|行不行|行吗|可以吗|好吗|好不好)?"
    r"(?=\s*(?:[，,。.!！~～]|$))"
    r"|^(?![^\n]*(?:\?|\b(?:if|when|unless|did|will|would|promised|said|why|how)\b))"
    r"(?:[^\n]*[\s,.;!])?(?:(?:so|then|just|please|pls|now)\s+)*compensate me (?:with )?"
    r"\d{1,5}(?:\.\d+)? ?(?:yuan|rmb|kuai|bucks)?(?: please| pls)?(?=\s*(?:[,.!]|$))"
    # "盘子那269退我": an amount, then "退我"
    r"|" + _AMOUNT_BACK_TO_ME_PATTERN
)
# "100200 退保温杯", "帮我把100200里的保温杯退了", "保温杯退掉吧", "只退手机": a thing of an order
# sent back for its money, asked for (the precheck singles the item out, or asks which part) —
# read only as a request in so many words: never beside a no, a question or a thing told
_ITEM_REFUND = rx(
    r"\d{6}\s*(?:的|里的|里面的)?\s*退\s*(?![货换了吗的回运费款钱我给一二两三四五六七八九十百千半全都部剩])[\u4e00-\u9fff]{2}"
    r"|(?:^|[\s，,\d])只退(?![货换了吗的回运费款钱我给一二两三四五六七八九十百千半全都部剩])[\u4e00-\u9fff]{2}"
    r"|[\u4e00-\u9fff]{2}退掉(?:吧)?(?=\s*(?:\d{6})?\s*$)"
    r"|(?:帮我|给我|请|麻烦)把[^，。,.!?！？]{1,16}退(?:了|掉)(?:吧)?\s*$"
    r"|把[^，。,.!?！？]{1,16}退(?:了|掉)吧\s*$"
    # "把100200里的保温杯退了" as the whole clause: told to ("我把保温杯退了" tells what was done)
    r"|^\s*(?:那|就|那就)?把[^，。,.!?！？]{1,16}退(?:了|掉)\s*$"
    # "退保温杯", "那就退空气炸锅吧": the thing alone after the verb, the whole clause
    r"|^\s*(?:那|就|那就|直接)?退(?:掉)?"
    # ("退空气炸锅那单": an order named by a thing — a return or a refund, asked)
    r"(?![^，。,.!?！？\s]*[单笔](?:吧|了|掉)?\s*(?:\d{6})?\s*$)"
    # ("退到原卡", "退现金吧", "退快点", "退好了", "退发票", "退保温杯还是换": where, how, a
    # choice or a question — no thing)
    r"(?!到|好了|快|现金|发票|原路|余额)(?![^，。,.!?！？\s]*(?:或者|还是|吗|么|呢|没))"
    r"(?!保险|差价|邮费|押金|定金|积分|优惠|会员|那|这|它|哪"
    r"|[货换了吗的回运费款钱我给一二两三四五六七八九十百千半全都部剩订单出税还])"
    r"[\u4e00-\u9fff]{2,10}?(?:吧|了|掉)?\s*(?:\d{6})?\s*$"
)


def _item_refund_refused(norm: str) -> bool:
    """Whether the words beside a thing's refund say no, ask, or tell ("别把保温杯退了",
    "手机退掉会怎样", "我朋友说他把手机退掉了") — "我不要了" is why, not a no."""
    return bool(_ITEM_REFUND_NOT.search(blank(norm, _NOT_WANTED_ANY_MORE)))


_ONE_THING_OF_IT = rx(
    r"里的|里面的|中的|当中的|\b(?:from|in|out of) (?:the|my|that|this) (?:\w+ )?(?:order|one)\b"
)
_NOT_WANTED_ANY_MORE = rx(r"不想要了|不要了|不需要了|用不上了|用不着了")
_ITEM_REFUND_NOT = rx(
    r"别|不|没|未|甭|勿|吗|呢|[?？]|怎么|怎样|为什么|为啥|是不是|会不会|要不要|能不能|如果|要是|假如"
    r"|已经|上次|之前|朋友|他|她|了没|行不行|可不可以|能否"
)
_REFUND_MADE = (
    r"\b(?:was|were|got|been) (?:paid|processed|issued|sent|credited|refunded|approved)\b"
)
_REFUND_WHERE = rx(
    _REFUND_MADE
    + r"|\bwhere(?:'?s| is| are)\b|\bstatus\b|\b(?:go|gone|went) through\b|\breceived?\b"
    r"|\bwhat happened\b|到哪|退了吗|退了没|退款了吗|退款呢|到账|进度|收到"
    r"|退回来(?:了)?(?:没|吗|么)|退款(?:成功|通过|批下来|办好|处理好)了(?:没|吗|么|嘛)"
)
# "don't refund", "不用退了", "算了不退了": a refusal of a refund, never a request for one
_REFUND_NEGATED = rx(
    r"\b(?:don'?t|do not|no need to|not|never) (?:to )?(?:want (?:a |the )?|need (?:a |the )?)?"
    r"refund"
    # "I don't want 100200 refunded, I want a replacement", "I don't need the remaining 866
    # refunded": the thing said not to be refunded
    r"|\b(?:don'?t|do not|dont|no need to|never) (?:really |actually )?(?:want|need) [^.?!]{0,30}"
    r"\brefunded\b|\b(?:rather not|not looking to) (?:have|get) [^.?!]{0,30}\brefunded\b"
    r"|\bno need for (?:a |any )?(?:ticket or )?refund"
    # "I don't want my money back, I want it repaired"
    r"|\b(?:don'?t|do not|not|never) (?:want|need|asking for) (?:my |the |any )?money back\b"
    # "本来想申请退款的，算了": a refund once meant, not asked for now
    r"|本来(?:想|要|打算)(?:申请)?退(?:款|钱)?"
    r"|\bno refund(?!\s*polic)|\bforget (?:about )?(?:the |my )?refund"
    # "hold off on the refund for now", "can you hold the refund … until I decide", "I don't
    # want you to refund the thermos": not now, or not at all
    r"|\bhold (?:off )?(?:on )?(?:the |my |any )?refund|\buntil i (?:decide|know|check|see)\b"
    r"|\b(?:don'?t|do not) want (?:you|u) to refund"
    # "I'm not after a refund", "I don't want another partial refund, I want it fixed"
    r"|\bnot after (?:a |any |my )?(?:refund|money back)"
    r"|\b(?:don'?t|do not|not) (?:want|need) (?:a |the |another |any )?(?:partial |full |second )?"
    r"refund"
    # "I want a replacement, not a refund"
    r"|\bnot (?:a |any |my |the )?(?:re?fu?nd(?!\s*polic)|money back)"
    # "refund half, the basket is scratched but i'll keep it": the thing is kept, the part
    # refunded — no refusal
    r"|(?<!\d yuan, )(?<!so )\bi'?ll (?:just )?keep it\b(?![^.!?]{0,20}\brefund)"
    r"|\b(?:nvm|never ?mind) (?:about )?(?:the |my )?refund"
    r"|\bnot asking for (?:a |the |any )?refund"
    r"|\bnot asking (?:you )?to refund\b"
    # "refund 100200 — ignore that, it's fine": the refund taken back in its own words
    r"|\bre?fu?nd\w*\b[^.!?;]{0,40}\b(?:(?:actually|wait|oh|no|hmm)[,\s]+(?:i'?ve |i )?changed my"
    r" mind|ignore (?:that|this|it)|scratch that|forget (?:it|that))\b"
    # "ignore my earlier message about refunding 100609", "scratch that refund", "I changed my
    # mind about the refund", "I wanted a refund for 100200 but actually it's fine now"
    r"|\b(?:ignore|disregard|forget|scratch|drop|cancel) (?:my |the |that )?"
    r"(?:earlier |last |previous )?(?:message |request )?(?:about |for )?(?:the |my )?"
    r"re?fu?nd(?:ing)?\b"
    r"|\bchanged my mind (?:about|on) (?:the |my )?(?:\d{6} )?refund"
    r"|\bno longer (?:want|need) (?:a |the )?refund"
    # "stop / undo / withdraw / scrap the 100200 refund", "停止100200退款", "100609退款撤回": a
    # refund said to be stopped — none is asked for (one submitted is not withdrawn here)
    r"|\b(?:stop|undo|halt|withdraw|scrap|revoke|reverse|call off|pull)\b (?:my |the |that |this )?"
    r"(?:\d{6} )?re?fu?nd\b"
    r"|(?:停止|停掉|撤回|撤销|暂停)[^，。,.!?！？]{0,10}退款"
    r"|退款[^，。,.!?！？]{0,4}(?:撤回|撤销|停掉|停一下|先停|暂停)|把[^，。,.!?！？]{0,12}退款(?:停|撤)"
    # "I never asked for a refund", "who said anything about refunding 100200?", "refunding
    # 100200 isn't what I want", "100200 should not be refunded", "… the last thing I want"
    r"|\b(?:never|didn'?t|did not|haven'?t|have not) (?:ask|asked|request|requested|want|wanted)"
    r" (?:for )?(?:a |any |the |my )?re?fu?nd"
    r"|\bwho (?:said|asked)\b[^.?!]{0,30}\bre?fu?nd"
    r"|\brather not (?:get|have|take) (?:a |the |any )?re?fu?nd"
    r"|\bre?fu?nd\w*\b[^.?!]{0,20}\b(?:isn'?t|is not) what i (?:want|need|asked)"
    r"|\b(?:should|must)(?:n'?t| not) be refunded\b"
    r"|\bre?fu?nd\w*\b[^.?!]{0,25}\bthe last thing i (?:want|need)"
    r"|谁(?:说|让|叫)(?:你|我)?(?:要)?退|退款(?:就)?不需要了|退款的事(?:就)?算了"
    r"|\b(?:wanted|was going to ask for|was gonna ask for|was going to get) (?:a |the )?refund\b"
    r"[^.!?]{0,50}\bbut\b(?![^.!?]{0,30}\b(?:please|pls|still want|do it|go ahead)\b)"
    r"|\b(?:was going to|was gonna|wanted to) refund\b[^.!?]{0,50}\bbut\b"
    r"(?![^.!?]{0,30}\b(?:please|pls|still want|do it|go ahead)\b)"
    r"|\b(?:was|were) (?:about|going|gonna|planning|thinking of) (?:to )?(?:ask for a )?refund\b"
    r"[^.!?;]{0,50}?\bbut\b[^.!?;]{0,12}?\b(?:don'?t|do not|no longer|won'?t"
    r"|changed my mind)\b(?![^.!?;]{0,20}\b(?:work|let|letting|allow))"
    r"|(?:不用|不要|别|(?<!要)不|不需要|先不|不想|不必|不是要|不是想|并不是要|没说要)\s*"
    r"(?:给我|帮我|给)?\s*(?:退|补偿|赔)"
    # "无需退款100609", "没必要退100609" (not "用不着退全款 退100609 100块就行", "无需退货
    # 直接退款")
    r"|(?:用不着|无需|没必要|不用你)\s*(?:给我|帮我|给|再)?\s*(?:申请)?\s*(?:退|补偿|赔)(?!全|货)"
    # "100609退款就不必了", "退款100609作废": the refund called off after it is named
    r"|退款[^，。,.!?！？\s]{0,10}(?:就|也)?(?:不必|不用|用不着|没必要)了?(?=\s*(?:$|[，。,.!?！？]))"
    r"|退款[^，。,.!?！？\s]{0,10}作废"
    # "you don't need to refund 100609", "refunding 100609 won't be necessary", "no refnd",
    # "I decided against the refund"
    r"|\b(?:don'?t|do not|donot) (?:need|have) to (?:\w+ )?re?fu?nd"
    r"|\bre?fu?nd\w*\b[^.?!,;]{0,20}\b(?:won'?t|will not|isn'?t|is not) (?:be )?"
    r"(?:necessary|needed)"
    r"|\bno re?fu?nd\b(?!\s*polic)|\bdecided against (?:a |the |any )?re?fu?nd"
    r"|\bdonot (?:want |need )?(?:a |the )?re?fu?nd"
    r"|\b(?:don'?t|do not|no need to|not|never) (?:to )?compensate\b"
    r"|退款不用了|退款不要了|退款算了|退款[^，。,.!?！？]{0,3}先?不(?:办|弄|申请|退)了?"
    # "退款就算了 给我补个优惠券", "退个锤子": the refund called off, or scorned
    r"|(?:退款|退钱)(?:就|也|还是)算了|退(?:款|钱)?个(?:锤子|屁|毛线?|头|鬼)"
    # "不是退款 我问的是发票": not a refund (what is asked follows)
    r"|(?<!是)不是(?:退款|退钱)(?![^，。,.!?！？]{0,3}[吗么嘛])"
)
# "can I get store credit instead of a refund": the refund is what the customer does not want;
# what they ask for is the rest of the clause
_INSTEAD_OF = rx(
    r"\b(?:instead of|rather than) (?:a |an |the |my )?(?:re?fu?nd|money back|replacement"
    r"|exchange)\b|而不是(?:退款|退钱|换货)|代替退款"
    # "I'd prefer a repair over a refund", "I'd rather get a new one than a refund"
    r"|\b(?:over|than) (?:a |an |the |my |getting (?:a |my )?)?(?:re?fu?nd|money back)\b"
)
_REFUND_NOT_WANTED = rx(
    r",?\s*\bnot (?:a |an |the |my )?(?:re?fu?nd|money back)\b"
    r"|[，,\s]*(?:不要|不是|不用|不需要)(?:给我)?(?:退款|退钱)"
)
# A question about refunds (how much is left, how it works), not a request to refund.
_CAN_MONEY_BACK_PATTERN = r"(?<![帮给])(?:能|可以)(?:退钱|退款)(?:吗|么|嘛|不)"
_CAN_MONEY_BACK = rx(_CAN_MONEY_BACK_PATTERN)
# "100200能退100吗": whether that much can come back, asked (its amount)
_AMOUNT_BACK_PATTERN = (
    r"(?<![帮给])(?:能|可以)退[¥￥]?(\d+(?:\.\d+)?|[一二两三四五六七八九十百千]+)(?:块|元)?钱?"
    r"(?:吗|么|嘛|不)"
)
_AMOUNT_BACK_ASKED = rx(_AMOUNT_BACK_PATTERN)
_REFUND_POLICY_ASKED = rx(
    # (a thing of the customer's, or please, is a polite request: "do you refund my thermos pls")
    r"\b(?:do|does) (?:you|u|ya|you guys|y'?all|the shop|your shop|this shop)"
    r" (?:guys )?(?:ever |usually |even )?(?:refund|do refunds|give refunds|offer refunds"
    r"|accept returns)\b(?![^.?!]*\b(?:my|me|please|pls|plz)\b)"
    r"|你们(?:一般|会)?(?:退款|退钱)(?:吗|么|嘛)|你们退不退(?:款|钱)?"
)
# "do I have to send it back to get a refund?", "where do I go to cancel 100998?", "我是不是得
# 投诉才能拿到退款": what a refund or a cancel takes, asked
_WHAT_IT_TAKES = (
    r"|\b(?:do|would|will|must) (?:i|we) (?:have|need|got) to\b[^.?!]{0,60}"
    r"\b(?:to|before|in order to|so (?:that )?(?:i|we) can)\s+(?:get|have|receive|claim|cancel"
    r"|refund)\b"
    # (only where to go for the refund or the cancel itself: "where do I go to print a return
    # label" asks something else)
    r"|\bwhere (?:do|can|should) (?:i|we) (?:go |click )?(?:to )?(?:cancel|(?:get|apply for"
    r"|ask for|request|claim) (?:a |my |the )?refund)\b"
    r"|\b(?:who|what number) (?:do|should) (?:i|we) (?:call|contact|ask|email) (?:to )?(?:cancel"
    r"|(?:get|ask for|request) (?:a |my |the )?refund)\b"
    # ("我需要退款才能买新的 100200退了吧": what the customer needs, told — only asked counts)
    r"|(?:需要|得|要|必须)[^，。,.!?！？]{0,12}才(?:能|可以)[^，。,.!?！？]{0,12}(?:吗|么|嘛|\?|？)"
    r"|是不是(?:得|要|需要|必须)[^，。,.!?！？]{0,20}(?:退|取消)"
)
_REFUND_QUESTION = rx(
    r"\bhow much\b|\bwhat(?:'?s| is| are)\b|\bhow do(?:es)?\b|\bhow to\b|\brefund (?:time|policy)\b"
    # "is 100 for the thermos and 200 for the air fryer a fair refund?", "退100合理吗": whether
    # an amount is fair, asked — never offered
    r"|^\W*(?:is|would|will|does|isn'?t|wouldn'?t)\b[^?]{0,100}\b(?:fair|reasonable|enough|right"
    r"|correct|normal|too much|too little)\b"
    r"|(?:合理|公平|够|正常|划算|太多|太少)(?:吗|么|嘛|不)"
    # "was 100 refunded for the thermos?": whether it was, asked
    r"|^\W*(?:was|were|has|had)\s+(?:[¥￥]?\d{1,5}(?:\.\d+)?\s*(?:yuan|rmb|kuai|bucks)?\s+"
    r"|it\s+|that\s+|this\s+|the\s+\w+\s+|my\s+\w+\s+)?(?:been\s+|already\s+|actually\s+)?"
    r"(?:refunded|paid back)\b"
    # "不是退款吗": whether it is (was) a refund, asked
    r"|不是(?:要|已经)?退(?:款|钱)(?:了)?(?:吗|么|嘛)"
    r"|\bis there (?:any|a)\b|\bany refunds?\b"
    # "who refunded 100609?", "someone refunded 100609 without asking me?": one made, asked about
    r"|\b(?:who|someone|somebody|anyone) (?:has |have |just |already )*refunded\b"
    r"|\brefunded\b[^.?!]{0,30}\bwithout (?:asking|telling|my)\b"
    r"|\bcan (?:it|this|that|they|order #?\d{6}|#?\d{6}|(?:the|my) (?:\w+ )?order) (?:still )?"
    r"be refunded\b(?!.*\bif (?:so|yes|possible|you can|it can)\b)"
    # "在哪里申请退款 100609", "怎么申请退款": where or how to ask, asked
    r"|在哪(?:里|儿)?(?:可以|能)?(?:申请|办理|操作|提交)?退款|(?:怎么|如何|怎样)(?:申请|办理|操作)退款"
    r"|\brefund (?:timing|time ?frame|times?)\b|(?:能不能|可不可以|能否)(?:全|都|全部)退(?![货换])"
    r"|是(?:不是)?(?:全额|全部|全)退(?:款|钱)?(?:回|还)?(?:给我)?(?:吗|么|嘛|\?|？)"
    r"|是?退全(?:款|额)(?:吗|么|嘛|\?|？)"
    # "is the refund automatic?", "will my refund be in yuan": a refund asked about
    r"|\b(?:is|was|will|does|did|would) (?:the|my|that|this) refunds?\b"
    # "… so can I get a refund?", "do I have to ask for a refund or is it automatic?", "does
    # that mean I get a refund?", "can I get a refund or a new one?": whether, asked
    r"|\b(?:can|could|may) (?:i|we) (?:still )?(?:get|have) (?:a |my )?refund\W*$"
    # "can I still get a refund if the box is opened?", "could I still get a refund after 7 days"
    r"|\b(?:can|could|would|will) (?:i|we) still (?:get|have|claim) (?:a |my |any )?refund\b"
    r"|\bdo (?:i|we) (?:have|need) to (?:ask|apply|request)\b|\bdoes (?:that|this|it) mean\b"
    # "do I need to file a complaint to get my refund on 100200?", "我需要先寄回才能退款吗",
    # "can my wife get a refund on 100609?": what it takes, or who may, asked — never offered
    + _WHAT_IT_TAKES
    + r"|\bcan my (?:wife|husband|partner|friend|mom|mum|mother|dad|father|son|daughter|sister"
    r"|brother|kid|boss|colleague)\b"
    r"|\bor (?:a |an )?(?:new one|replacement|exchange|repair)\b"
    # "炸锅要是退了 是退399吗": how much would come back, asked
    r"|是退[¥￥]?\d+(?:\.\d+)?(?:块|元)?钱?(?:吗|么|嘛|\?|？)"
    # "100200能部分退款吗还是只能全退": whether a part can be, asked
    r"|(?:能|可以)(?:部分|分开|分批|只)退(?:款|钱)?(?:吗|么|嘛|不)|只能全退"
    # "如果钢化膜一直不到 能退钱吗": whether money can come back, asked (what is refundable, and
    # how to ask, answers it); "帮我退钱" asks for it
    # "refund left on 100609": what is left to refund, asked in two words
    r"|\brefunds? (?:left|remaining|available|balance)\b|\b(?:left|remaining) to (?:be )?refund"
    r"|\brefunded to\b|\brefunds? (?:go|goes) (?:back )?to\b|退到|退回到|原路"
    # "why did you refund only 433", "100609的退款为什么只有433": a question about a refund made
    r"|\bwhy\b|为什么|为啥|怎么只|咋只"
    # "got a refund for the purifier a while back - was that the full amount?"
    r"|\b(?:got|received|had) (?:a |the |my |that )?refund\b"
    r"|\bwas (?:that|it|this) (?:the )?(?:full|whole|entire|complete|all)\b"
    r"|\bhow much more\b"
    # "if I take a partial refund now, can I still ask for the rest later?": what would follow
    r"|^\W*(?:and |but |so )?if (?:i|we) (?:take|get|accept|ask for|request|go for|choose"
    r"|agree to|refund|cancel|return|keep)\b"
    # "我能申请退款吗": whether one may be asked for, asked
    r"|(?:我)?(?:能|可以)(?:申请|要求)退款(?:吗|么|嘛|不)"
    # "do I get a refund for 100998", "am I eligible for a refund": whether, not a request
    r"|\b(?:do|would|will) (?:i|we) (?:still )?get (?:a |my |the |any |all (?:of )?(?:my |the )?)?"
    r"(?:re?fu?nd|money back)\b"
    r"|\b(?:am i|are we) (?:eligible|entitled)\b|\brefundable\b"
    # "how the refund … was calculated", "is it worth asking for a refund …", "would refunding
    # the thermos affect my other order?": a refund weighed or asked about
    r"|\bcalculated\b|\bis it worth\b|\bwould refunding\b|\baffect\b"
    # "will I be refunded for the missing plates?", "am I able to get a refund on the air
    # fryer?", "can the plates be refunded?", "any chance of a refund on the purifier?", "is it
    # too late to get a refund …", "… or do I need to send them back?": whether, asked
    r"|\bwill (?:i|we) (?:be|get) refunded\b|\b(?:am i|are we) able to (?:get|have|claim) "
    r"(?:a |my |any )?refund|\bcan (?:the|my|these|those) [a-z' -]{2,30}? be refunded\b"
    r"|\bany chance (?:of|for) (?:a |my |any )?refund|\bis it (?:too late|still possible|possible)"
    r" to (?:get|ask for|request|claim) (?:a |my )?refund|\bor do (?:i|we) (?:need|have) to\b"
    # "if I return the air fryer, do I get 399 back?": how much would come back, asked
    r"|\b(?:do|would|will|did) (?:i|we) (?:still )?get (?:all |the |my )?(?:¥|￥)?\d+(?:\.\d+)?"
    r" ?(?:yuan |rmb |kuai |bucks )?back\b"
    # "is a refund on 100200 even possible?", "do you do refunds on 100200?", "explain how
    # refunds work", "tell me about refunding 100200", "refund 100200??? how??", "refund of 100609
    # when", "100200退款运费谁出", "100609的钱退回来没"
    r"|\beven possible\b|\bdo you (?:do|offer|give|allow|accept) (?:re?fu?nds?|returns)\b"
    r"|\bexplain\b|\btell me (?:more )?about\b|\b(?:how|when)\W*$|\bwas promised\b"
    r"|运费谁(?:出|付|承担)|谁(?:出|付|承担)运费|退回来(?:了)?(?:没|吗|么)"
    r"|\bis (?:it|that) (?:even |still )?possible to (?:get|have|ask for|request) "
    r"(?:a |my )?re?fu?nd"
    r"|\bdid you (?:already |actually |really )?refund\b"
    r"|\b(?:it'?s|this is|that'?s) (?:about|regarding|re) (?:the |my )?re?fu?nd\b"
    # "can i get a refund on 100609?": whether (the amount is shown, and how to ask for it); a
    # refund of an amount ("can I get a refund of ¥50 on 100200") is asked for
    # "100200能全退吗": whether all of it can be refunded, asked
    r"|(?:能|可以)(?:全|都|全部)退(?:吗|么|不|没)"
    r"|\b(?:can|could|may) (?:i|we) (?:still )?(?:get|have|receive) (?:a |my |the )?re?fu?nd"
    r" (?:on|for) (?:order |my )?\d{6}\W*$"
    # "can I still get a refund on the purifier (if I already threw the box away)?": whether
    r"|\b(?:can|could|may) (?:i|we) still (?:get|have|receive) (?:a |my |the )?re?fu?nd"
    r" (?:on|for) (?:the|my) [a-z' -]{2,30}?(?:\W*$| if\b| even if\b)"
    # "i asked for a refund on 100609 last month": one asked for before, told about
    r"|\b(?:i|we) (?:already )?(?:asked|applied|requested|filed) for (?:a |the |my )?re?fu?nd\b"
    # "can I still get more back", "could I claim anything back": whether, asked
    r"|\b(?:can|could) (?:i|we) (?:still )?(?:get|claim|have) (?:\w+ ){0,2}(?:back|refunded)\b"
    r"|多少|怎么|如何|退款时间|退款政策|能退吗|可以退吗|可以退款吗|能退款吗|能不能退款|可不可以退款"
    # "her 100609 refund amount", "哪个还能退": what a refund is or could be, asked
    r"|\b(?:refund(?:able)?|refunded) (?:amount|total|sum|balance)\b"
    r"|\bamount (?:of|for) (?:the |my |"
    r"her |his |our |that )?refund\b|哪(?:个|些|一个|一单).{0,4}(?:能|可以)退|退款金额"
    # "钱会退回支付宝吗", "是退到银行卡吗": where a refund goes, asked
    r"|会退|会不会退|是不是退|(?<!还)是退[到回]"
    r"|(?:支付宝|微信|银行卡|信用卡|卡里?|余额|原路|原账户)[^，。,.!?！？]{0,4}[吗么嘛]"
    # "100200 能退100吗": whether that much can come back, asked ("能帮我退100吗" asks for it)
    r"|" + _AMOUNT_BACK_PATTERN +
    # (not "…能退100吗 帮我退了吧", "…能的话就退": the refund then asked for)
    r"(?![^。.!！]*?(?:帮我退|给我退|退了吧|退吧|就退|那就退|能的话|可以的话|可以就|能就))"
    r"|" + _CAN_MONEY_BACK_PATTERN
)
_HOW_MUCH = rx(r"\bhow much\b|多少")
# how long after delivery a refund may be asked for (the returns window), asked
_REFUND_WINDOW = rx(
    r"\b(?:delivered|received|arrived|bought) (?:\w+ ){0,3}ago\b"
    r"|\bafter (?:delivery|it (?:arrived|was delivered|came)|receiving)\b"
    r"|\bhow long do (?:i|we) have\b|\b(?:time limit|deadline)\b"
    r"|收到(?:货)?(?:以后|之后|后)?(?:多少天|几天|多久)|(?:多少天|几天|多久)(?:之内|以内|内)(?:能|可以)?(?:申请)?退"
)
# "can I still get more back": what is left to refund, of the order talked about
_MORE_BACK = rx(r"\b(?:get|claim|have) (?:\w+ ){0,2}back\b|还能退|还可以退|还能拿回")
# "got a refund for the purifier ... was that the full amount": a refund made, asked about
_REFUND_TOLD = rx(
    r"\b(?:got|received|had) (?:a |the |my |that )?refund\b"
    r"|\bwas (?:that|it|this) (?:the )?(?:full|whole|entire|complete|all)\b"
)
# "you refunded the fitness band already", "那个已经退过了": a refund made, told of — no request
_REFUND_PAST = rx(
    r"\b(?:you|you guys|u|they|y'all) (?:have |'ve )?(?:already |only |just |partly |partially )?"
    r"refunded\b"
    r"|\b(?:was|were|been|got) (?:already )?refunded\b|\balready (?:been )?refunded\b"
    r"|已经退(?:了|过)|退过(?:了)?|(?:之前|上次)(?:已经)?退了"
    # "我之前申请了100200退款", "I already asked you to refund 100200", "I refunded 100200, right?"
    r"|(?:之前|上次|上周|早就|昨天|前天)(?:已经)?(?:申请|提交)(?:了|过)?[^，。,.!?！？]{0,10}退款"
    r"|(?:之前|上次|上周|昨天|前天)[^，。,.!?！？]{0,10}退(?:款|钱)?了(?![吧吗么])"
    r"|\brefunded\b[^.?!]{0,30}\b(?:last (?:week|month|time)|yesterday|ago)\b"
    r"|\bi (?:already |had )?(?:asked (?:you )?(?:to refund|for a refund)|requested a refund"
    r"|applied for a refund)\b|\bi refunded\b"
    # "数据线那笔退款批了 但是钱还没到": a refund approved, told of
    r"|退款(?:已经)?(?:批了|批准了|通过了|审核通过了?|同意了)"
    r"|\brefund (?:was |got |has been )?approved\b"
    # "the earlier refund on the purifier", "the refund you did before": one made, named
    r"|\bthe (?:earlier|previous|last|first|old) (?:refund|partial refund)\b"
    r"|\b(?:the |that )?refunds? (?:you|u) (?:did|made|gave|sent)\b"
)
_COMPLAINT_WORD = rx(r"\bcomplain|投诉")
# "how slow your refunds are", "the refund took forever", "退款太慢了": refunds complained of
_REFUNDS_SLOW = rx(
    r"\bhow slow (?:your |the |my )?refunds? (?:are|is|was)\b"
    r"|\brefunds? (?:are|is|was|were|took|takes|taking) (?:so |too |really |very |way too )?"
    r"(?:slow|forever|ages|so long|too long)\b|退款(?:也)?(?:太|很|好|真|特别)慢"
)
# "requested a refund two weeks ago, R-000092, it still says requested": one asked for before
# (beside its number: that refund, looked up; without one it may be asked for again)
_REFUND_REQUESTED_BEFORE = rx(
    r"\b(?:i )?(?:already )?(?:requested|asked for|applied for) (?:a |the |my )?refund\b"
    r"|(?:已经|之前|上次|早就)?申请(?:了|过)退款|退款(?:已经)?申请(?:了|过)"
)
# "thx for the 433 refund", "谢谢 退款收到了": thanks for a refund made, nothing asked
# "谢谢你帮我查了物流", "多谢帮我催了": thanks for something done, nothing asked
_THANKS_FOR_DONE = rx(
    r"^\W*(?:(?:拜拜|好的|ok|嗯)\W*)?(?:谢谢|多谢|感谢)(?:你|您)?(?:帮我|给我|替我)?"
    r"(?:查|看|处理|办|弄|催|问)[^，。,.!?！？吗么呢]{0,10}了\W*$"
)
_THANKS_FOR_REFUND = rx(
    r"\b(?:thanks|thank you|thx|ty|cheers)\b[^.!?]{0,12}\bfor (?:the |my |your |sorting (?:out )?"
    r"(?:the |my )?|processing (?:the |my )?)?(?:[¥￥]?\d+(?:\.\d+)? )?"
    r"(?:re?fu?nd|money(?: back)?)\b"
    r"|(?:谢谢|感谢|多谢)(?:你们|您)?(?:的)?(?:退款|退的钱)|(?:退款|钱)(?:已经)?收到了"
    r"|\b(?:got|received) (?:the |my )?(?:re?fu?nd|money)(?: back)?\b,? (?:thanks|thank you|thx)"
)
# "thanks for refunding 100609", "thanks for the refund on 100609", "谢谢100609的退款"
_THANKS_FOR_REFUND_ON = rx(
    r"\b(?:thanks|thank you|thank u|thanx|thx|ty|cheers|appreciate)\b[^.!?]{0,30}"
    r"\b(?:re?fu?nd(?:ing|ed)?|money back)\b"
    r"(?![^.!?]{0,40}\b(?:re?fu?nd(?:ed)?|money back)\b)"
    r"|\b(?:re?fu?nd|money)\b[^.!?]{0,25}\b(?:came through|arrived|went through|received|landed)\b"
    r"[^.!?]{0,15}\b(?:thanks|thank you|thank u|thx|ty)\b"
    r"|(?:谢谢|感谢|多谢)(?:你们|您)?(?:给|帮我给)?(?:的|对)?(?:订单)?[\d\s（）()#]{0,10}(?:的)?(?:退款|退的钱)"
    r"(?![^。!?！？]{0,12}(?:也|再|还要|请|帮我退|退))"
)
# "thanks for nothing", "thanks for the slow refund": no thanks at all
_SARCASM = rx(r"\bnothing\b|\bslow(?:ly)?\b|\bstill\b|\bhaven'?t\b|\bwhere\b|慢|还没|没收到")
# "thanks for nothing", "thanks for the slow refund", "thank you for processing it so slowly":
# no thanks at all; "... also refund the air fryer": a request beside the thanks
_THANKS_BUT = rx(
    r"\bnothing\b|\bslow(?:ly)?\b|\bstill\b|\bhaven'?t\b|\bnot\b|\bwhere\b|\balso\b|\btoo\b"
    r"|\bas well\b|\bi'?d like\b|\bi want\b|\bwant\b|\bcan you\b|\bplease\b|\bpls\b"
    r"|\bgreat service\b|也|还没|没收到|请|帮我|慢|呢|还要|再"
)
# "you refunded 100609 already but I want another 50": more asked for beside what was refunded
_MORE_WANTED = rx(
    r"(?<!don't )(?<!do not )(?<!dont )\b(?:want|need|give me|refund me)\s+(?:\w+\s+)?"
    r"(?:another|more|the rest|the remaining|the remainder|\d+)\b|\banother \d+|\d+ more\b"
    r"|还要退|再退|再给我退|剩下的(?:也)?(?:退|都退)"
)
# what a refund amounts to, asked or doubted: "what's the most I could get refunded", "how come
# only 866 is refundable", "was that the whole refund", "退款金额不对吧", "才退了433",
# "一共退过我多少"
_REFUND_AMOUNT_ASKED = rx(
    r"\b(?:the )?most (?:i|we) (?:could|can) (?:get|have)\b|\bmaximum\b"
    r"|\bhow come\b[^.?!]{0,50}\b(?:refund\w*|back)\b|\bonly \d+(?:\.\d+)? (?:is )?refundable\b"
    r"|\b(?:the )?whole refund\b|\bmore coming\b|\bis there (?:any )?more\b"
    r"|金额不对|才退(?:了)?\d|退(?:过|了)(?:我)?多少|(?:一共|总共)(?:给我)?退|还能退多少|能退多少"
)
# "where's my refund?", "did my refund go through", "我的退款到哪了", "退款呢": the customer's own
# refund asked after (its state), not how long refunds take in general
_MY_REFUND_WHERE = rx(
    r"\bwhere(?:'?s| is| are)? (?:my|the) (?:re?fu?nds?|money)\b"
    r"|\b(?:my|the) (?:re?fu?nds?) (?:status|yet)\b"
    # "the status of all my refunds", "list my refunds", "退款 status", "我退的那笔钱到哪了"
    r"|\bstatus (?:of|on) (?:all )?(?:(?:of )?my|the) re?fu?nds?\b"
    r"|\b(?:list|show)(?: me)? (?:all )?(?:of )?my re?fu?nds\b|\ball (?:of )?my re?fu?nds\b"
    r"|退款\s*status|我退的(?:那笔|那个)?(?:钱|款)(?:到哪|呢|怎么)"
    r"|\b(?:did|has|have) (?:my|the) re?fu?nds? "
    r"(?:go(?:ne)? through|been (?:paid|processed|sent))\b"
    r"|\b(?:haven'?t|have not|didn'?t|did not|never|still (?:haven'?t|not)) "
    r"(?:got(?:ten)?|received|seen) (?:my|the|any) (?:re?fu?nd|money)\b"
    r"|我的退款|退款(?:呢|到哪|到哪了|进度|怎么样了|怎么还没|还没到|咋还没)|(?:钱|款)(?:怎么|咋)?还没(?:到账|退回来|到)"
)
# "how much can I still get back", "how much more refund could I get", "还能退多少": what is left
# to refund, asked
_HOW_MUCH_LEFT = rx(
    r"\bhow much (?:of (?:it|that|this|the money) )?(?:more )?(?:(?:money|refund) )?"
    r"(?:can|could) i (?:still )?(?:get|claim)\b(?! (?:a |an )?(?:discount|coupon))"
    # "how much of my money can you still refund", "what can I still get refunded"
    r"|\bhow much (?:of (?:my|the) money )?(?:can|could) (?:you|u) still (?:refund|give back)\b"
    r"|\bwhat (?:can|could) i still get (?:refunded|back)\b"
    r"|(?:还能|还可以|能|可以)退多少|还剩多少(?:钱)?(?:没退|可以退|能退|可退)"
    r"|还有多少钱?(?:可以|能)退"
)
_STILL_REFUNDABLE = rx(
    r"\brefundable\b|\bcan (?:still )?be refunded\b|还能退|还可以退|能退多少|可以退多少|只能退"
    # "净化器剩下的钱能退吗": what is left of the money, asked whether refundable
    r"|(?:剩下|剩余|余下)的?(?:钱|款|部分|那部分)[^，。,.!?！？]{0,4}(?:能|可以)(?:退|拿回)|"
    + _HOW_MUCH_LEFT.pattern
)
_HOW_LONG = rx(r"\bhow long\b|\bhow many days\b|多久|几天|多长时间")
# a refund asked for now, in so many words: "直接退了吧", "给我退了吧", "just refund it"
_REFUND_NOW = rx(
    r"(?:直接|干脆|赶紧|马上)(?:给我|帮我)?退(?:了吧|款吧|钱吧|掉吧|款(?![了过])|钱(?![了过]))"
    r"|(?:给我|帮我)退(?:了吧|款吧|钱吧)|\bjust (?:refund|give me a refund)\b"
)
# "我已经申请过退款了，100200，请尽快处理退款": told before, asked again now
_REFUND_ASKED_NOW = rx(
    r"(?:(?<!申)请|帮我|麻烦|赶紧|尽快)[^，。,.!?！？]{0,6}(?:处理|办理)?(?:一下)?(?:退款|退钱|退了)"
    r"|\b(?:please|pls|plz|kindly|go ahead and) (?:process|do|issue|handle|complete|pay)"
    r" (?:the|my|this|that|a) refund\b"
    # "the agent promised me a refund on 100200, please process it now": the refund told of,
    # asked for now
    r"|\b(?:please|pls|plz|kindly|go ahead and) (?:process|issue|handle|complete)"
    r" (?:it|that|this)\b"
    r"|\bprocess (?:it|that|the refund|my refund) (?:now|today|asap|right away|immediately)\b"
    # "process my refund for 100200", "…. process it": said as an order
    r"|(?:^|[.!;,]\s*)(?:just |now )?(?:process|issue) (?:it|that|the refund|my refund)\b"
    r"|\b(?:can|could|would) (?:you|u) (?:please |pls )?(?:process|issue|handle|complete)"
    r" (?:the|my|this|that|a) refund\b"
)
_PROCESSING_ASKED_POLITELY = rx(
    r"(?<!\bwhen )(?<!\bwhy )(?<!\bhow )(?<!\bwhen will )"
    r"\b(?:can|could|would) (?:you|u) (?:please |pls )?(?:process|issue|handle|complete)"
    r" (?:the|my|this|that|a) refund\b"
)
# a refund made before, told or complained of: "上次就退了这么点", "已经退了"
_REFUND_BEFORE = rx(r"上次|上周|之前|已经|早就|这么点|那么点|\balready\b|\blast (?:time|week)\b")
# a refund made before, asked after: "之前退的那笔", "上次退的钱", "the refund you did before"
_REFUND_MADE_BEFORE = rx(
    r"(?:之前|上次|上回|以前|已经)(?:给我)?退(?:的|了的|过的)|退的那(?:笔|些|部分)"
    r"|(?:之前|上次|上回|以前|已经)[^，。,.!?！？]{0,6}退过"
    r"|\b(?:did|have|has) (?:you|u|you guys|they|y'?all) (?:\w+ ){0,2}refund(?:ed)?\b"
    r"|\b(?:the |that )?refunds? (?:you|u) (?:did|made|gave|sent|already)\b"
    r"|\b(?:already|previously) refunded\b|\bthe (?:earlier|previous|last|first) refund\b"
    # "you already gave me some money back because of a dent"
    r"|\b(?:you|u|you guys|they) (?:already |previously |kindly )?(?:gave|paid|sent|refunded)"
    r" (?:me )?(?:some |part of (?:the |my )?)?(?:money|cash|\d+(?:\.\d+)?(?: yuan| rmb| kuai)?)"
    r" back\b"
)
# one refund made, pointed at: "上次那433", "之前那笔", "the refund you did before", "what refunds
# are on that order"
_A_REFUND_MADE = rx(
    _REFUND_MADE_BEFORE.pattern
    + r"|(?:上次|之前|上回|以前)(?:那|的)?(?:笔)?\s*[¥￥]?\d+(?:\.\d+)?"
    + r"|\b(?:what|which|any) refunds? (?:are|is|were|was) (?:there )?(?:on|for)"
    + r" (?:that|this|the|my)"
    + r" (?:order|one)\b|\bwhat happened (?:with|to) (?:the|my|that) (?:\w+ )?refund\b"
    # "how much the purifier refund was": one made, its amount asked
    + r"|\bhow much (?:the |my |that )?(?:[a-z]+ ){0,2}refund (?:was|came to)\b"
)
# the thing that refund was for, named right before it: "净化器之前退的", "refund on the purifier"
_THING_REFUNDED_BEFORE = rx(
    r"(?<![\u4e00-\u9fff])(?:(?![看查问说想知道请帮你我们他她这那])[\u4e00-\u9fff]){2,5}"
    r"(?=(?:那单|那个|那台|的)?(?:之前|上次|上回|以前|已经)[^，。,.!?！？]{0,6}退)"
    r"|\brefund\w*\b[^.?!]{0,20}\b(?:on|for|of) (?:the|my|that) "
    r"(?!order\b|one\b|refund\b|money\b)[a-z]{3,}"
    # "就想知道净化器之前退了多少", "之前那根数据线的退款": the thing after a lead word
    r"|(?<=知道|问问|想问|看看|查查|查下|看下|问下)(?:一下)?(?:我的|我)?[\u4e00-\u9fff]{2,5}"
    r"(?=(?:那单|那个|那台|的)?(?:之前|上次|上回|以前|已经)[^，。,.!?！？]{0,6}退)"
    r"|(?:之前|上次|上回)(?:那|的)?(?:根|个|台|件|条|双|只)?[\u4e00-\u9fff]{2,5}(?=的退款)"
    # "the purifier refund"
    r"|\b(?:the|my|that) (?!(?:full|partial|whole|first|last|earlier|previous|same|other|old|new"
    r"|total|entire)\b)[a-z]{3,} refund\b"
)
_MONEY_BACK_YET = rx(r"退回来(?:了)?(?:没|吗|么)")
_REFUND_WHEN = rx(
    r"\bwhere(?:'?s| is| are)\b|\bwhat happened\b|\bdid (?:it|my|the)\b|\bhas (?:it|my|the)\b"
    # "show me all my refunds": the ones made, asked to be listed
    r"|\b(?:list|show)(?: me)? (?:all )?(?:of )?my re?fu?nds\b"
    # "was 100609 refunded?", "is the thermos refunded", "refunded 100609?": whether it was —
    # not "is it possible to get 100200 refunded" (a refund asked for)
    r"|^\W*(?:(?:so|and|but|hi|hey|ok|okay)\W+)*(?:was|were|is|are)\s+(?:(?:order\s+)?#?\d{6}"
    r"|it|this|that|(?:the|my|that|this)\s+[a-z][a-z0-9 '-]{1,40}?)\s+(?:(?:already|ever|actually"
    r"|fully|all)\s+)*refunded\W*$|^\W*refunded\s+(?:order\s+)?(?:#?\d{6}|it|that)\W*$"
    # "did I get my money back for the cancelled order?": whether it came, asked
    r"|\b(?:did|have|has) (?:i|we|u|you|she|he) (?:ever |already |actually |even )?"
    r"(?:get|got|gotten|receive|received) (?:my |the |any |a |that |this )?(?:money|refund|cash)\b"
    # "did I get anything back on 100200?", "did I get 30% back": what came back, asked
    r"|\b(?:did|have|has) (?:i|we|u|you|she|he) (?:ever |already |actually |even )?"
    r"(?:get|got|gotten|receive|received) (?:it |anything |something |\d+(?:\.\d+)? ?%? )?back\b"
    r"|\b(?:go|gone|went) through\b|\breceived?\b"
    r"|\b(?:it|refund|money|payment)(?: has| have)? (?:arrived|come|landed)\b|\barrived? yet\b"
    r"|到哪|退了吗|退了没|退款了吗|退款呢|到账|进度|收到|已经|还没"
    r"|\bhow long\b|\bhow many days\b|\bwhen (?:will|do|can|would|should) (?:i|it|my)\b"
    r"|\bstatus\b|\bbeen (?:paid|processed|credited)\b|多久|几天|多长时间|什么时候|何时|到账"
    r"|状态|进度|到了吗|到了没|退回来(?:了)?(?:没|吗|么)"
    r"|\bupdate\b|\bnews\b|(?<!i'm )(?<!im )(?<!i am )\bdone\b(?! with)|\bprocess(?:ed)?\b"
    r"|\bhave you refunded\b|\bany word\b"
    # "I've been asking about my purifier refund for days": a refund chased, not asked for
    r"|\b(?:asking|chasing|waiting) (?:about|after|for|on) (?:my|the|that) (?:[a-z]+ )?refund\b"
    # "was my 433 refund actually paid out?": whether a refund made was paid
    r"|\bpa(?:id|y) out\b|\b(?:was|has) (?:my|the|that|this) (?:[\w¥]+ ){0,2}refund\b"
    r"|\bis my (?:[\w¥]+ ){0,2}refund\b"
    r"|有消息|处理了|了没|了吗|催"
    # "and my refund for 100609?": the refund there is, asked about
    r"|^\W*(?:and |also |so |what about |how about )?(?:my|the) (?:re?fu?nd|money)\b"
    # "帮我看下100609的退款", "can you check my refund": a look at the refund, not a new one
    r"|(?:看|查|问)(?:一?下|看|查|询|问)?.{0,12}退款"
    r"|\b(?:check|look (?:at|into)|see)\b.{0,20}\brefund"
    # "I only wanted to know when the 433 refund was paid": a refund made, asked about
    r"|"
    + _REFUND_MADE
    + r"|\b(?:want(?:ed)? to|like to|need to) know\b|\bwonder(?:ing)?\b|\bjust asking\b"
    r"|想知道|想问|啥时候|哪天退|几号退|退款(?:记录|明细|详情|情况|信息)"
    # "did you guys ever actually refund me anything", "是不是给我退过一笔", "退款申请好久了 钱呢"
    r"|\b(?:did|have|has) (?:you|u|you guys|they|y'?all) (?:\w+ ){0,2}refund(?:ed)?\b"
    r"|退过|钱呢|退款申请[^，。,.!?！？]{0,4}(?:好久|很久|这么久|半天|几天|一周|一个星期)"
)


# The demo shop's order numbers are 100001..101000; ``10xxxx`` leaves it room to grow while
# keeping other six-digit numbers (postal codes 2xxxxx-8xxxxx, quantities) out of the facts.
_ORDER_SHAPE = re.compile(r"10\d{4}")


def shop_text_facts(text: str) -> dict[str, list[str]]:
    """The orders and SKUs a customer typed, by session fact key (the pack's ``text_facts``)."""
    ents = extract_entities(text)
    return {
        "order_ids": [o for o in ents.order_ids if _ORDER_SHAPE.fullmatch(o)],
        "skus": list(ents.skus),
    }


def asks_cancellable(text: str) -> bool:
    """Whether the text asks if an order can (still) be cancelled ("能取消吗？100998")."""
    norm = normalize(text, _TYPOS)
    asked = _CANCEL_ASKED_OR_TOLD.search(norm) or _CAN_I_CANCEL.search(norm)
    return bool(asked) and not _CANCEL_TOLD.search(norm)


def cancel_on_a_condition(text: str, order_id: str) -> bool:
    """Whether the text asks to cancel ``order_id`` on a condition it was shown instead of
    ("if 100683 hasn't arrived cancel 100998", "如果100683还没到就取消100998"): the reply says
    whether it can still be cancelled and how to ask."""
    norm = normalize(text, _TYPOS)
    return bool(order_id) and bool(
        _ON_A_CONDITION.search(norm)
        and re.search(rf"(?:\bcancel|取消)\W{{0,3}}(?:(?:the |my )?order |订单)?{order_id}", norm)
    )


def mentions_refund(text: str) -> bool:
    """Whether the text is about refunds (asking or requesting) — or about sending something
    back ("if I send back only the thermos from 100200, …": what would come back is asked)."""
    norm = normalize(text, _TYPOS)
    return bool(_REFUND.search(norm) or _SENDING_BACK.search(norm))


_SENDING_BACK = rx(r"\b(?:send|sent|sending|ship|mail|post)\b[^.?!]{0,20}\bback\b|寄回|退回去|退货")


def normalize_sku(raw: str) -> str | None:
    """``"sku 1001"`` / ``"SKU1001"`` / ``"sku-1001"`` -> ``"SKU-1001"``; None if not a SKU."""
    m = _SKU.search(normalize(raw, _TYPOS))
    return f"SKU-{m.group(1)}" if m else None


def _cn_number(token: str) -> int | None:
    return int(token) if token.isdigit() else chinese_number(token)


def _quantity_value(token: str) -> int | None:
    token = token.strip().lower()
    if token in _EN_NUMBERS:
        return _EN_NUMBERS[token]
    return _cn_number(token)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


# "tell me when the money will actually arrive": money coming back, not a parcel
_MONEY_ARRIVES = rx(
    r"\b(?:when|how (?:long|soon|fast))\b[^.?!]{0,12}\b(?:the|my) money (?:will |would |should )?"
    r"(?:actually )?(?:arrive|come back|show up|land|be back)"
    # "how many days does it take to reach my bank card": the money's way back
    r"|\b(?:when|how (?:long|soon|fast|many days))\b[^.?!]{0,30}\b(?:reach|hit|land (?:on|in)"
    r"|get (?:back )?to|show up (?:on|in)) my (?:bank |credit |debit )?(?:card|account)\b"
)


# "钱是自动退吗还是要我自己申请", "is the refund automatic": how money comes back, asked
_REFUNDED_BY_ITSELF = rx(
    r"(?:钱|款)(?:是|会)?自动退(?:回|还)?(?:吗|么|嘛|还是|不)"
    r"|\b(?:is|will) (?:the |my )?(?:refund|money)(?: be)? (?:automatic|refunded automatically)"
)


def faq_topic_of(text: str) -> str | None:
    """The FAQ topic a (normalized or raw) text asks about, if any."""
    norm = normalize(text, _TYPOS)
    if (
        (_REFUND.search(norm) and _REFUND_WHEN.search(norm))
        or _MONEY_ARRIVES.search(norm)
        or _REFUNDED_BY_ITSELF.search(norm)
    ):
        return "refund_time"
    for topic, pattern in _FAQ_PATTERNS.items():
        if pattern.search(norm):
            return topic
    return None


def extract_entities(text: str) -> Entities:
    """Every identifier and value in ``text`` (order numbers, SKUs, tickets, quantity, amount).

    Identifiers are removed from the text before numbers are read, so "SKU-1001" is never a
    quantity and "T-100123" is never an order. Amounts ("50 元") are read before quantities.
    """
    norm = normalize(text, _TYPOS)
    skus = _unique(f"SKU-{m.group(1)}" for m in _SKU.finditer(norm))
    rest = blank(norm, _SKU)
    tickets = _unique(f"T-{m.group(1)}" for m in _TICKET_ID.finditer(rest))
    parcels = _unique(m.group(0).upper() for m in _TRACKING_NO.finditer(rest))
    rest = blank(blank(rest, _TICKET_ID), _TRACKING_NO)
    orders = _unique(m.group(1) for m in _ORDER.finditer(rest))
    rest = blank(rest, _ORDER)
    amount: float | None = None
    for pattern in _AMOUNT_PATTERNS:
        m = pattern.search(rest)
        if m:
            amount = float(m.group(1).replace(",", ""))
            rest = rest[: m.start()] + " " * (m.end() - m.start()) + rest[m.end() :]
            break
    quantity: int | None = None
    for pattern in _QUANTITY_PATTERNS:
        m = pattern.search(rest)
        if m:
            value = _quantity_value(m.group(1))
            if value is not None and value > 0:
                quantity = value
                break
    return Entities(
        order_ids=orders,
        skus=skus,
        quantity=quantity,
        ticket_ids=tickets,
        tracking_numbers=parcels,
        faq_topic=faq_topic_of(norm),
        amount=amount,
    )


# --- clause splitting ---------------------------------------------------------------------------

# --- templates ----------------------------------------------------------------------------------

# "人工多久联系我", "when will the agent call me back": when a transfer made is answered, asked
_WHEN_CONTACTED = rx(
    r"(?:多久|多长时间|什么时候|啥时候|几点|还要等多久|要等多久)[^，。,.!?！？]{0,4}(?:联系|回复|回电|打给|找)我"
    r"|\b(?:how long|when)\b[^.?!]{0,40}\b(?:contact|call|reach|get back to|email|message)"
    r"(?:s|es)? (?:me|us)\b"
    r"|\b(?:how long|when)\b[^.?!]{0,30}\b(?:someone|somebody|anyone|an? agent|they|you)\b"
    r"[^.?!]{0,12}\b(?:repl(?:y|ies)|respond|answer|get back|follow(?:s)? up)\b"
    r"|(?:多久|什么时候|啥时候)[^，。,.!?！？]{0,4}(?:有人)?(?:回复|处理|跟进|联系)"
    # "我上周就要求转人工了，到现在都没人联系我", "I asked for a human yesterday and nobody
    # called": the transfer asked for before, not come — where it is, shown
    r"|(?:没人|没有人|都没人|还没人|也没人)(?:跟我)?(?:联系|回复|回电|打电话|找)(?:过)?我?"
    r"|\b(?:no ?one|nobody|no one has|nobody has)\s+(?:has\s+)?(?:ever\s+)?(?:contacted|called|"
    r"replied|got back|gotten back|answered|reached out|emailed)\b"
)
_SOMEONE = rx(
    r"\b(?:someone|somebody|anyone|an? agent|the agent|a person|a human|support|customer service)\b"
    r"|有人|客服"
)
_HANDOFF = rx(
    r"\b(?:human|real person|live (?:agent|person|chat)"
    # (not "the last agent promised a refund", "your agent said …": one told about)
    r"|(?<!last )(?<!previous )(?<!earlier )(?<!\bother )(?<!first )"
    r"(?:agent|representative|operator)(?!s?\s+(?:promised|said|told|says|offered|agreed|confirmed"
    r"|claimed|mentioned|gave))|"
    r"someone real|speak (?:to|with) (?:someone|somebody|a person)|"
    r"talk (?:to|with) (?:someone|somebody|a person)|"
    r"(?:someone|somebody|an? agent|a person) (?:to )?call me|call me back"
    # "and a call back would be nice", "can I get a callback"
    r"|(?<!no )(?<!don't need )an? call ?back\b(?! (?:from (?:the )?(?:bank|courier)))"
    r"|(?:talk|speak|get|want|need|escalate)\b.{0,12}\b(?:manager|supervisor)"
    # "ok thanks, transfer me" (never "transfer me the money", "don't transfer me", "transfer
    # me?")
    r"|(?<!don't )(?<!dont )(?<!not )(?<!never )(?<!to )(?<!you )(?<!will )(?<!would )"
    r"\btransfer me(?![?？])(?!\s+(?:the|my|a|an|some|back|money|refund|cash|¥|\d{1,5}\b"
    r"|\d+\s*(?:yuan|元|块)|to (?:a |an |another |my |the )?(?:address|order|account|card|bank)\b))"
    r"|(?<!don't )(?<!dont )(?<!not )(?<!never )(?<!i )(?<!you )(?<!should )(?<!to )(?<!will )"
    r"\bescalate (?:this|it|me)\b(?![?？])(?!\s+to (?:my|the|our) bank))"
    r"|转人工|人工|真人|客服经理|接线员|找客服|联系客服|找(?:个|你们)?(?:的)?(?:领导|主管|经理|负责人)"
    # "100609的事我想找个人聊聊", "give me someone to talk to"
    r"|(?:找|跟|和)(?:个|一个)?(?:真)?人(?:聊|谈|说)"
    # "赶紧找人处理", "get someone to sort it out": a person asked to handle it
    r"|(?:赶紧|快点|马上|帮我|给我)?找(?:个)?人(?:来)?(?:处理|解决|跟进|看看|管管)"
    r"|\b(?:get|have|need|want) (?:someone|somebody|a person) (?:to )?(?:sort|fix|look|deal"
    r"|handle|check)\w*\b(?! (?:the |my )?(?:parcel|package|delivery)\b)"
    r"|(?:让|叫)(?:你们)?的?(?:主管|经理|领导|负责人)"
    # "put me through to someone who is", "connect me to a person"
    r"|(?:^|[,.;!?]\s*|\b(?:please|pls|plz|can you|could you|can u|just|now|so|then|not,?) )"
    r"(?:put|get) me through to (?:someone|somebody|a person"
    r"|an? (?:agent|human|person|manager|supervisor)|a real)\b"
    r"|(?:^|[,.;!?]\s*|\b(?:please|pls|plz|can you|could you|can u|just|now|so|then|not,?) )"
    r"connect me (?:to|with) (?:someone|somebody|a person"
    r"|an? (?:agent|human|person|manager|supervisor)|a real)\b"
    # "give me someone who can actually help"
    r"|\b(?:give me|get me|i need|i want) (?:someone|somebody) (?:who|that) can"
    r" (?:actually )?help\b"
    r"|\bsomeone (?:to|i can) (?:talk|speak) (?:to|with)\b"
    # "能不能让人打电话给我": a person to call back
    r"|(?:让|叫|找)(?:个)?(?:人|客服|你们的?人)(?:给我)?(?:打|回)(?:个)?电话|(?:打|回)(?:个)?电话给我"
    r"|给我(?:打|回)(?:个)?电话"
)
# "换货呢", "那维修呢", "what about exchanges?": the question before, asked of another policy
_POLICY_FOLLOW_UP = rx(
    r"^[^\w\u3400-\u9fff]*(?:那|那么)?(换货|退货|维修|保修|退款)(?:的话)?呢[^\w\u3400-\u9fff]*$"
    r"|^\W*(?:and )?(?:what|how) about (exchanges?|returns?|repairs?|warranty|refunds?)\W*$"
)
_POLICY_OF = {
    "换货": "exchange", "exchange": "exchange", "exchanges": "exchange",
    "退货": "returns", "return": "returns", "returns": "returns",
    "维修": "warranty", "保修": "warranty", "repair": "warranty", "repairs": "warranty",
    "warranty": "warranty", "退款": "refund_time", "refund": "refund_time",
    "refunds": "refund_time",
}  # fmt: skip
# when the shop's people answer, asked ("你们周末有人工吗", "人工几点上班", "do you have
# human agents on weekends")
_WHEN_PEOPLE_WORK = rx(
    r"(?:周末|周六|周日|晚上|夜里|半夜|节假日|假期|过年|24小时|二十四小时)[^，。,.!?！？]{0,4}"
    r"(?:有|有没有)?(?:人工|真人|客服)(?:客服)?(?:吗|么|嘛|没|在吗|上班)"
    r"|(?:人工|客服)[^，。,.!?！？]{0,3}(?:几点|什么时候|啥时候)(?:上班|下班|在线|有人)"
    r"|(?:人工|客服)(?:客服)?(?:工作|上班|服务)时间"
    r"|\b(?:human|live|real) (?:agents?|people|support|person)\b[^.?!]{0,30}"
    r"\b(?:weekends?|at night|hours|overnight|24/7|holidays?)\b"
    r"|\b(?:when|what hours) (?:are|is|do) (?:your )?(?:human |live )?(?:agents?|support|staff)\b"
)
_CANCEL = rx(
    r"(?<!noise )(?<!noise-)\bcancel(?:l?ing|lation)?\b"
    r"|取消|撤销|撤单|退订"
    r"|(?:把|将)\s*(?:订单|单子|这单|那单|这个订单|那个订单)?\s*\d{6}?\s*(?:的订单)?\s*撤(?:了|掉|回)(?![吗么])"
)
# "cancel the watch from it only", "只取消里面的手表": one item of an order, not the order
# a word that may be an item of an order ("the smartphone", "the monitor"), not the order, the
# customer's other orders or anything else kept ("keep my other orders", "keep the receipt")
_AN_ITEM = (
    r"(?!(?:order|orders|other|rest|one|ones|whole|account|receipt|coupon|coupons|points|voucher"
    r"|thing|things|stuff|purchase|everything|money|refund|card|address|it|that|this|them"
    r"|preferences|membership|wishlist|cart|subscription|payment|details|settings|history"
    r"|unpaid|paid|pending|latest|last|first|second|new|old|phone number)\b)"
    r"[a-z]{3,}\b(?!(?: [a-z]+){0,2} (?:order|one|purchase)\b)"
)
_PART_OF_ORDER = rx(
    # "只取消这单里的手机", "只取消一下手机", "只取消吧，就手机": an item of the order named after
    # "only cancel" ("只取消这单", "只取消就行" cancel the order)
    r"(?:只|仅)取消(?:一下|了|掉|吧[，,\s]*就)?(?:这单|本单|此单|那单|这个订单|那个订单|订单)?"
    r"(?:里面|里|中|当中)?(?:的)?"
    r"(?!订单|这单|本单|此单|那单|就行|就好|就可以|吧|了|一下|这个|那个|掉)[\u4e00-\u9fff]{2}"
    r"|取消(?:里面|其中)"
    r"|\bfrom (?:it|the order|that order)(?: only)?\b"
    r"|\bcancel (?:only |just )?(?:the |one )(?!order)\w+ (?:from|in|out of)\b"
    # "could I cancel just the smartphone and keep the monitor?": one item, the other kept
    r"|\bcancel (?:the |my )?"
    + _AN_ITEM
    + r"(?:(?: and| &) (?:the |my )?"
    + _AN_ITEM
    + r")?(?: (?:on|of|from|in) (?:order |my order )?\d{6})?[^.?!\d]{0,20}\b(?:and|but) keep "
    r"(?:the|my) "
    + _AN_ITEM
    # "cancel just the phone on 100998", "cancel the phone of 100998": an item of that order
    + r"|\bcancel (?:only |just )?(?:the |my )"
    + _AN_ITEM
    + r" (?:on|of|from|in) (?:order |my order )?\d{6}"
    # "100998: cancel the phone, keep the monitor"
    + r"|\bcancel (?:the |my )"
    + _AN_ITEM
    + r"[,;] keep (?:the|my) "
    + _AN_ITEM
    # "帮我把100998里的手机取消掉，其他的保留"
    + r"|把\s*\d{6}\s*(?:里面|里|中)的?[\u4e00-\u9fff]{2,6}取消"
    # "100998里的手机取消", "100998只要显示器，手机取消", "手机取消 显示器留着"
    + r"|\d{6}\s*(?:里面|里|中)的(?!订单)[\u4e00-\u9fff]{2,6}(?<!单)(?:取消|不要了)"
    + r"|只要(?!订单|这单|那单)[\u4e00-\u9fff]{2,6}[，,\s]*(?!订单|这单|那单|整单|全部)"
    r"[\u4e00-\u9fff]{2,6}(?<!单)(?:取消|不要了)"
    # ("显示器那单取消，手机留着": an order named by a thing, cancelled whole)
     + r"|(?<![\u4e00-\u9fff])(?!订单|这单|那单|整单|全部)[\u4e00-\u9fff]{2,6}(?<!单)"
    r"(?:取消|不要了)(?:掉|了)?[，,\s]*(?!订单|这单|那单)[\u4e00-\u9fff]{2,6}(?:我)?"
    r"(?:留着|保留|还要|要留)"
    + r"|\b(?:(?:only|just) cancel|cancel (?:only|just)) (?:the |my )"
    + _AN_ITEM
    + r"(?= (?:and|but) (?:keep|leave)\b| from\b| in (?:it|the order|that order)\b)"
)
# "any discount on SKU-1047", "SKU-1047有优惠吗": a price promotion, which the shop does not read
_PROMO = rx(
    r"\b(?:discount|coupon|promo(?:tion)?|voucher|on sale|deal|price match)\b"
    r"|优惠|打折|折扣|促销|满减|便宜点"
)
# "优惠券能退回来吗", "will my coupon be returned": a coupon or points given back, not a refund
_PROMO_BACK = rx(
    r"(?:优惠券|代金券|券|积分|红包|\bcoupons?|\bvouchers?|\bpoints)[^，。,.!?！？]{0,8}"
    r"(?:退|返还|还给|\breturn|\brefund|\bback\b)"
)
# "能给点补偿吗", "can i get compensation": compensation, which only a person can grant
_COMPENSATION = rx(r"补偿|赔偿|赔(?:点|些|我)?钱|赔付|\bcompensat\w*")
# "补偿我100块吧", "compensate me 100": compensation asked as an amount to the customer — a refund
_COMPENSATE_ME = r"(?<![不别没])(?:补偿|赔偿|赔)(?:给)?我|\bcompensate me\b"
# "能买延保吗", "do you sell insurance for it": a service, not a product in the catalogue
_SERVICE = rx(r"延保|保险|会员|上门安装|\bextended warranty\b|\binsurance\b|\bmembership\b")
# "need a quote for 50 units": a quantity asked with something other than buying it
# the customer's own old thing, not one bought here: "家里那个坏了", "my old one died"
_NOT_OURS = rx(
    r"家里(?:的|那个|那台|那只|用的|现在用的)|\bmy old (?:one|\w+)\b"
    r"|\bthe one (?:i have )?at home\b"
)
_BOUGHT_HERE = rx(
    r"(?:你们|这里|这儿|这边)(?:这)?买|在你们(?:家|店)|\b(?:bought|ordered|got) (?:it |one |them )?"
    r"(?:from you|here|from your)"
)
_NOT_A_PURCHASE = rx(r"\b(?:quotes?|quotation|samples?|bulk price|wholesale)\b|报价|样品|批发")
# "can u refund the shipping fee", "帮我把运费退了": a part of an order refunded, which the shop
# cannot tell the amount of (never the whole order)
_FEE = rx(
    r"\b(?:shipping|delivery|postage) (?:fee|cost|charge)s?\b|\bpostage\b|\bdifference\b"
    r"|运费|邮费|差价"
)
_CANCEL_WEAK = rx(
    r"不想要了|不要了|不买了|\b(?:don'?t|do not) want (?:order )?\d{6} any ?more\b"
    r"|\bkill (?:it|that|the order|that order)\b"
)
_ORDERS_OF_A_KIND_CANCELLED = rx(
    r"\bcan (?:a |an )?(?:shipped|paid|unpaid|delivered|pending|dispatched) orders? (?:still )?"
    r"be cancel+ed\b"
    r"|\b(?:shipped|paid|dispatched|delivered) orders? (?:still )?(?:be )?cancel+(?:ed|able)\b"
    r"|(?:已经|已)?(?:发货|发出|付款|付了款|签收)(?:了)?的(?:订单|单子|单)(?:还)?(?:能|可以)(?:不能)?取消"
)
# "100200里那个保温杯不想要了": a thing in the order not wanted (a return), not the order
_ITEM_OF_ORDER = rx(r"\d{6}\s*(?:里|里面|中|当中)(?:的)?(?:那个|这个|那|这)?[\u4e00-\u9fff]{2}")
_UNWANTED_ASKED = rx(r"不(?:想)?要了\s*(?:吗|么|嘛|[?？])")
# "…，帮我取消一个，手机那单不要了": the order a thing describes, said not to be wanted after a
# cancel of "one of them" (alone, "空气炸锅那单不要了" is no cancel: session 18's pin)
_DESCRIBED_ORDER_UNWANTED = rx(
    r"[^，。,.!?！？\s]{1,12}(?:那|这)(?:一)?单(?:我|就|也)*(?:不想要|不要)了"
)
_CANCEL_QUERY = rx(
    r"\b(?:was|been|is|got|get) (?:it |my order |the order |this order |order \d+ )?cancel+ed\b"
    r"|\bwhy\b.*\bcancel+ed\b|被取消|已取消|取消了吗|取消了没|为什么取消|怎么取消了|取消成功了吗"
    # "你们怎么把我的100998取消了", "为什么把100998取消了": why it was cancelled, asked
    r"|(?:怎么|为什么|为啥|凭什么|干嘛)(?:就|又)?(?:给我)?把[^，。,.!?！？]{1,14}取消了"
    # "你取消了100998吗", "100998你们取消了？", "谁取消了我的100998": a cancel made, asked about
    # ("你帮我把100998取消了吧" asks for one)
    r"|谁[^，。,.!?！？]{0,6}取消"
    r"|(?<![帮给请])(?:你们|你)(?:已经|都)?(?:把)?[^帮请，。,.!?！？]{0,10}取消了"
    r"[^吧呗，。,.!?！？]{0,10}(?:吗|么|嘛|没有?)\W*$"
    r"|^\W*\d{6}\s*(?:你们|你)(?:已经|都)?(?:给我)?取消了\W*$"
)
_IF_SO_CANCEL_IT = rx(
    r"\bif (?:so|yes|it can|you can|possible)\b[\s,]*(?:then\s+)?(?:please\s+|pls\s+|just\s+)?"
    r"(?:cancel|do it|go ahead)\b|(?:可以|能)的话(?:就)?(?:帮我)?取消"
)
_WANT_TO_KNOW = rx(
    r"(?:我)?想(?:知道|问问|问一下|问下|了解一下|了解)|\b(?:i )?(?:want|wanted|'?d like|would like)"
    r" to know\b|\bi wonder\b|\bwondering\b|\btell me (?:if|whether)\b"
)
# "100998现在还能取消吗", "can I still cancel 100998?": whether it can be, asked; "我记得取消了",
# "I already cancelled it": said to have been — neither asks for a cancel
_CANCEL_ASKED_OR_TOLD = rx(
    r"(?:在|去)哪(?:里|儿)?(?:可以|能)?取消"
    + _WHAT_IT_TAKES
    + r"|还(?:能|可以)(?:不能)?取消[吗么嘛]?|能不能取消|可不可以取消|能否取消"
    r"|是否(?:还)?(?:能|可以)取消"
    r"|\b(?:can|could) (?:i|we) still cancel\b|\bis it (?:still )?(?:possible|too late) to cancel\b"
    # "cancel 100998 if it has shipped", "100998发货了的话取消": a cancel on a condition that
    # would make it impossible — the order's state answers it, nothing is offered
    r"|(?<!even )\bif (?:it|(?:the |my )?order|#?\d{6})(?:'s| is| has| was| had)?"
    r" (?:already |been |now )*"
    r"(?:shipped|delivered|dispatched|sent out|arrived|out for delivery)\b"
    r"|(?<![没未不])(?:已经|已)?发(?:货|出)了的话|(?:已经|已)发(?:货|出)(?:了)?(?:的话)?就"
    # "I want to know whether I can cancel 100998", "tell me if I can cancel it"
    r"|\b(?:if|whether) (?:i|we) (?:can|could|am able to|are able to) (?:still )?cancel\b"
    # "could I cancel the monitor order if I wanted to?": whether it could be, asked
    r"|\bcancel\b[^.?!]{0,40}\bif (?:i|we) (?:wanted|want(?:ed)?|decided?|needed|need) to\b"
    r"|(?:记得|已经|早就|之前|不是)[^，。,.!?！？]{0,6}取消(?:过)?了"
    r"|哪(?:些|个|几个)(?:订单|单)?(?:还)?(?:能|可以)取消"
    # "手机那单取消不了吧": whether it can be, asked
    r"|取消不了"
    r"|(?:要是|如果|假如|万一)[^，。,.!?！？]{0,6}取消|\bif (?:i|we) (?:were to |did |do )?cancel"
    r"|取消(?:了)?的话"
    r"|\bthinking (?:of|about) cancel+ing\b|\bis (?:that|it|this) (?:even )?possible\b"
    r"|\bshould (?:i|we) (?:still )?cancel\b|\bwould cancel+ing\b|\bif cancel+ing\b"
    # "is cancelling 100998 free?", "I'm wondering if I should cancel 100998"
    r"|\bis cancel+ing\b[^.?!]{0,30}\b(?:free|possible|allowed|charged|a problem|ok|okay)\b"
    r"|\b(?:wondering|thinking|not sure|unsure|deciding) (?:if|whether) (?:i|we) should cancel"
    r"|我(?:已经)?取消了(?:的)?|被(?:自动|系统)?取消|自动取消|(?:之前|以前|上次|已经)取消(?:了)?的"
    r"|取消过|\bi (?:already |had )?asked (?:you )?to cancel\b"
    # "我昨天取消了100998", "上次100200退款，100998取消了": a day gone by, told of
    r"|(?:昨天|前天|上周|上次|上回|之前|以前|刚才|刚刚|前几天)(?:(?!帮|把|给我|请)[^。.!?！？]){0,16}"
    r"取消了(?![吧吗么没])"
    r"|\bwhich (?:orders? )?can (?:i|be) (?:still )?cancel"
    r"|\b(?:i|we) (?:already |had )?cancel+ed\b"
    # "能取消吗？100998", "can 100998 be cancelled?": whether it can be (its state answers, and
    # how to ask); "能帮我取消吗" asks for it
    r"|(?<![帮给])(?:能|可以)取消(?:吗|么|嘛|不)"
    r"|\bcan (?:it|this|that|this one|that one|(?:my |the |this )?order(?: #?\d+)?|#?\d{6})"
    r" (?:still )?be cancel+ed\b|(?<!if it's )(?<!if its )(?<!if it is )(?<!if it's still )"
    r"(?<!if its still )(?<!if it is still )\bcancel+able\b|\b(?:still )?possible to cancel\b"
)
_CANCEL_TOLD = rx(
    r"(?:记得|已经|早就|之前|以前|上次|不是)[^，。,.!?！？]{0,6}取消(?:过)?了?(?:的)?"
    r"|我(?:已经)?取消了(?:的)?|\b(?:i|we) (?:already |had )?cancel+ed (?:it|that|the \w+)?"
)
# "八月份那个围巾我后来取消了", "I cancelled a scarf back in August": a cancel made, told (not
# "帮我取消了吧": asked)
_CANCEL_MADE = rx(
    r"(?<![帮给替])我(?:后来|当时|那时候?|早就|已经|之前)(?:就)?取消(?:掉|过)?了(?![吧呗啊])"
    r"|\b(?:i|we) (?:already |had )?cancel+ed (?:it|that|the|a|my)\b"
)
_PAID_QUESTION = rx(
    r"\bdid (?:the|my|your|that) [a-z ]{2,40}?(?:actually |ever |really )?(?:get |been )?"
    r"(?:paid|processed|sent|credited|go through|went through)\b"
    r"|(?:补偿|赔偿|退款|退的钱)[^，。,.!?！？]{0,6}(?:到账|付了|打了|给了|退了)(?:吗|没)"
)
_PAID_HOW_MUCH = rx(
    r"(?:一共|总共|当时|我)?(?:付了|花了)多少|\bhow much did (?:i|we) (?:pay|spend)\b"
)
_CANCEL_WORRY = rx(
    r"(?:怕|担心|害怕|以免|生怕)[^，。,.!?！？]{0,6}(?:被|给我)?(?:自动|系统)?取消"
    r"|\b(?:worried|afraid|scared) (?:it(?:'ll| will)? |that it |my order )?"
    r"(?:gets? |be |will be )?"
    r"(?:auto[- ]?)?cancel+ed\b"
    # "不想要了是不是放着不管就自动取消了": whether an unpaid order lapses by itself, asked
    r"|(?:是不是|会不会|是否)[^，。,.!?！？]{0,8}(?:就|会)?自动取消|(?:就|会)自动取消(?:了)?(?:吗|么|嘛)"
)
_CAN_I_CANCEL = rx(
    r"(?:还|现在)?(?:能|可以)(?:不能)?取消[吗么嘛]|能不能取消|可不可以取消"
    r"|\bcan (?:i|we) (?:still )?cancel\b(?! (?:it|order|my|the|this|that|#?\d))"
)
_CANCELLING_ASKED = rx(
    r"\b(?:does|do|will|would|is|can) (?:cancel+ing|a cancel+ation|cancel+ation)\b"
    r"|取消(?:了|以后|之后|后)?(?:的话)?钱(?:会)?(?:自动)?退(?:吗|么|不)"
)
# "… and how cancelling works in general", "取消订单的规则是什么": the policy, whatever order
# the message named before
_CANCELLING_IN_GENERAL = rx(
    r"\bhow (?:cancel+ing|cancel+ations?|a cancel+ation) works?\b|\bcancel+\w* in general\b"
    r"|取消(?:订单)?的?(?:规则|流程|政策)"
)
# "100181是谁取消的？", "why was my scarf order cancelled?": a cancel made, asked about (the
# order's state answers it)
_WHY_CANCELLED = rx(
    r"是?谁(?:给我|帮我|把它)?取消的|为(?:什么|啥)[^，。,.!?！？]{0,8}(?:被)?取消(?:了|的)"
    r"|怎么(?:就)?(?:被)?取消了|\bwho cancel+ed\b"
    r"|\bwhy (?:was|is|did|has|have) [^.?!]{0,30}(?:been )?cancel+ed\b"
)
_WHICH_CANCELLABLE = rx(
    r"\bwhich (?:of (?:my|the|our) )?(?:orders?|ones?) (?:can|could) (?:i|we|still|be|you)\b"
    r"[^.?!]{0,12}\bcancel|哪(?:些|个|几个)(?:订单|单)?(?:还)?(?:能|可以)取消"
)
_CANCEL_NEGATED = rx(
    # "hold off on cancelling 100998", "I don't want you to cancel anything": not now, not at all
    r"\bhold (?:off )?(?:on )?(?:the )?cancel+(?:ing|ation)?\b"
    r"|\b(?:don'?t|do not) want (?:you|u) to cancel\b|"
    # "…, cancel neither", "neither of them should be cancelled"
    r"\bcancel neither\b|\bneither (?:of them|one)\b[^.?!]{0,30}\bcancel|"
    # "I didn't cancel it!" (why was it cancelled), "i never cancelled anything"
    r"\b(?:i |we )(?:didn'?t|did not|haven'?t|have not|never)\s+cancel+(?:ed)?\b"
    r"(?![^.?!]{0,30}\bcancel\b)|"
    r"\b(?:don'?t|do not|no need to|not|never)\s+(?:to\s+)?(?:want\s+(?:to\s+|it\s+|my order\s+)?"
    r"|need\s+(?:to\s+)?)?cancel"
    r"|(?:不要|别|不用|不|先不|不想|没说要|没说|没让你|没要|不是要|并不是要|不是想|没想|不是)\s*(?:给我|帮我|给|再)?\s*取消"
    # "取消个锤子 我要的是快点发货": a cancel scorned
    r"|取消个(?:锤子|屁|毛线?|头|鬼)"
    # "别把手机那单取消了", "千万不要把100998取消": the order said not to be cancelled
    r"|(?:不要|别|千万别|先别)\s*(?:给我|帮我)?把[^，。,.!?！？]{1,12}取消"
    r"|\b(?:never|didn'?t|did not) ask(?:ed)? (?:you |anyone )?to cancel"
    # "never mind about cancelling 100904", "I was about to cancel 100877 but don't": a cancel
    # thought of and let go
    r"|(?<!don't )(?<!dont )(?<!do not )(?<!not )\b(?:never ?mind|nvm|forget) (?:about )?"
    r"(?:the |my )?cancel"
    r"|\bno longer (?:want|need) to cancel\b|\bchanged my mind (?:about|on) (?:the )?cancel"
    # "cancel 100904, actually changed my mind": the cancel taken back in its own words
    # ("cancel both, changed my mind" is why they are cancelled: no "actually")
    r"|\bcancel\w*\b[^.!?;]{0,40}\b(?:(?:actually|wait|oh|no|hmm)[,\s]+(?:i'?ve |i )?changed my"
    r" mind|ignore (?:that|this|it)|scratch that|forget (?:it|that))\b"
    r"|\b(?:had )?(?:planned|meant|intended|considered|thought about) (?:to )?cancel\w*\b"
    r"[^.!?;]{0,40}\b(?:decided|keep|keeping|against|but)\b"
    r"|\bno cancel(?:lation)?\b|\bdon'?t worry about cancel"
    # "don't you dare cancel 100998", "100998取消？不不不"
    r"|\bdon'?t you (?:dare|even think about) cancel|取消\s*[？?]+\s*不(?:不|要|用|是)"
    r"|(?:不需要|不用|无需)(?:再)?取消了|(?:之前|本来|原来)想取消[^。!?！？]{0,16}(?:但|现在|还是)?[^。!?！？]{0,6}留着"
    r"|\b(?:ignore|disregard|scratch) (?:my |the |that )?(?:earlier |last )?(?:message |request )?"
    r"(?:about |for )?(?:the )?cancel"
    r"|\bwanted to cancel\b[^.!?;]{0,40}\bbut\b[^.!?;]{0,20}\b(?:keep|i'?ll keep|not any more"
    r"|no longer|changed)\b"
    r"|\b(?:was|were) (?:about|going|gonna|planning|thinking of) (?:to )?cancel\b[^.!?;]{0,50}?"
    r"\bbut\b[^.!?;]{0,12}?\b(?:don'?t|do not|no longer|won'?t|changed my mind)\b"
    r"(?![^.!?;]{0,20}\b(?:work|let|letting|allow))"
    # "我没取消啊" (I did not cancel it), but "还没取消吗" / "没取消了吗" ask about one
    r"|(?<!还)没有?\s*(?:点|按|申请|要求|让你|让)?(?:过)?\s*取消(?![了吗])"
    # "不必取消100998", "100998用不着取消", "100998 不用你取消", "取消100998这个先放一放"
    r"|(?:不必|用不着|不用你|无需|没必要)\s*(?:再|给我|帮我)?\s*取消"
    r"|取消[^，。,.!?！？]{0,12}(?:先放一放|先放放|先搁着|先缓缓|缓一缓)"
    # "donot cancel", "you don't need to cancel", "I decided against cancelling 100998", "keep
    # 100998, cancel nothing", "stop the cancellation of 100998", "without cancelling 100998",
    # "cancel 100998 (not really)", "cancel 100998 NOT"
    r"|\bdonot (?:want to |need to )?cancel|\b(?:don'?t|do not) (?:need|have) to cancel"
    # "I won't cancel 100998, refund 100609 instead"
    r"|\b(?:i|we)(?: won'?t| wont| will not| am not going to|'m not going to|'re not going to)"
    r" (?:be )?cancel"
    r"|\bdecided against cancel|\bcancel nothing\b|\bwithout cancel+ing\b"
    r"|\b(?:stop|halt|undo|call off|scrap) (?:the |my |that |this )?cancel+ation\b"
    r"|\bcancel\w*\b[^.!?;]{0,30}(?:\(\s*not really\s*\)|[,-]\s*not really\W*$|\bnot\s*$"
    r"|\bjk\b|\bjust kidding\b)"
)
# "不用把钱退我", "别把钱退给我": the money back, refused
_NOT_BEFORE_MONEY = rx(r"(?:不用|不要|别|不必|不需要|先不|没让你|没说要)\s*(?:给我|帮我)?\s*把?钱")
# "退到卡里还是原路": one or the other, asked
_EITHER_OR = rx(r"还是|\bor\b")
_MONEY_BACK_TO_ME = rx(r"(?:把)?钱\s*(?:原路|全部|都)?\s*(?:退|还)(?:给|回)?(?:我|回)|钱\s*原路")
# where the money goes: "go back to my card", "paid back to alipay", "退回支付宝", "退到微信"
_PAID_BACK_TO = rx(
    r"\b(?:go|goes|going|went|be paid|paid|sent|come|comes|get|refunded) back (?:to|on|onto|into)"
    r" (?:my |the )?(?:card|credit card|debit card|bank|alipay|wechat|account|original|payment)"
    r"|\b(?:to|on) (?:my |the )?(?:original payment|same card|same account)"
    r"|退(?:回|到|还)(?:到)?(?:我的?)?(?:支付宝|微信|银行卡|卡里|卡上|原账户|原支付|余额)"
)
# "取消后钱多久退回来" / "after I cancel, when do I get my money": a question about what follows
_AFTER_CANCEL = rx(
    r"取消(?:后|之后|以后|了的话)|取消.{0,4}的话|\bafter (?:i |you |it'?s? |it is )?cancel"
    r"|\bif (?:i |you )?cancel"
    # "取消了钱会自动退吗", "does a cancelled order refund automatically"
    r"|取消了(?=[^，。,.!?！？]{0,4}(?:钱|款|退))|\bcancel+ed orders?\b"
)
_IF_I_CANCEL_ASKED = rx(
    r"取消[^，。,.!?！？]{0,10}的话(?![^，。,.!?！？]{0,6}(?:就|帮我|给我)取消)[^，。,.!?！？]{0,20}"
    r"(?:吗|么|嘛|呢|[?？])"
    r"|\bif (?:i |we )cancel\b[^.!?]{0,30}\b(?:will|would|is|are|does|do|can|could)\b[^.!]{0,40}\?"
)
_MONEY_BACK_WHEN = rx(
    r"(?:钱|(?<![男女新同爆童付])款)[^，。,.!?！？]{0,6}(?:多久|几天|什么时候|多长时间|啥时候|几个工作日)"
    # "退回支付宝要几天": the money's way back, then the time
    r"|(?:退回|退到|到账)[^，。,.!?！？]{0,8}(?:多久|几天|多长时间|啥时候|什么时候)"
    r"|(?:多久|几天|什么时候|啥时候|多长时间)[^，。,.!?！？]{0,6}(?:到账|退回|回到|返还)"
    r"|\bhow (?:long|many (?:business |working )?days)\b.{0,40}\b(?:money|payment)\b"
    r"|\b(?:money|payment)\b.{0,30}\b(?:how long|how many days)\b"
    r"|\bwhen (?:do|will|would) i\b.{0,20}\b(?:money|payment)\b"
    r"|\bwhen (?:the |my )?money (?:comes?|gets?|will be|is|goes) back\b"
    r"|\bwhen i (?:get|receive|see)\b.{0,12}\b(?:money|refund)\b"
)
_MONEY_WORDS = rx(r"钱|退|\brefund|\bmoney\b")
# a question about after-sales (policy, cost, warranty), not a report of a problem to file
_AFTER_SALES_QUESTION = rx(
    # ("你们能不能靠谱点": a reproach, not a question)
    r"[?？]|吗|是啥|是什么|什么是|谁出|谁付|多少钱|怎么|如何"
    r"|(?:能不能|可不可以)(?!靠谱|靠点谱|上点心|用点心|长点心|认真|专业|负点责|快点|快一点)"
    r"|\bhow (?:do|does|can|to|much)\b|\bwhat(?:'?s| is| are)\b|\bwho pays\b|\bis there\b"
    r"|几天|多久|期限|时限"
    r"|\bshould i\b"
)
_DONE_FOR_ME = rx(
    r"帮我|给我|替我|帮忙|麻烦你?(?:帮|给)"
    r"|\b(?:can|could|would) (?:you|u) (?:please |pls )?(?:open|file|make|create|raise|log|start"
    r"|submit)\b"
)
# "could you open a ticket or should I do it myself?", "帮我开工单要多久": the customer weighs
# it, a question (the policy answers), not the ticket asked for
_WEIGHED = rx(
    r"\bor (?:should|shall|do|would|can|could|is it|better)\b|\bhow long does it take to\b"
    r"|(?:开|提|建)(?:个)?工单(?:要|需要)多久|怎么(?:开|弄|提交|申请|操作)|如何(?:开|提交|申请)"
    r"|还是(?:我)?自己"
)
# how a remedy goes, asked: the customer weighs the way, asks for nothing to be filed
_HOW_REMEDY_WORKS = rx(
    r"\bhow (?:do|does|would|will) (?:an? |the )?(?:exchanges?|returns?|warranty|repairs?)"
    r" (?:work|go)\b|\bhow (?:do|can|would) (?:i|we) (?:exchange|return|swap)\b"
    r"|\bwhat(?:'s| is) the (?:exchange|return|returns|warranty) process\b"
    r"|是[^，。,.!?！？]{0,8}还是[^，。,.!?！？]{0,8}(?:退|换|签收|拒收)|怎么(?:换货|退货|退换)"
    r"|如何(?:换货|退货|退换)|(?:换货|退货|退换货?)(?:流程|怎么(?:弄|办|操作))"
)
_REMEDY_TOPICS = frozenset({"returns", "exchange", "warranty"})
# "... exchange it for me", "I'd rather you just handle it": the remedy asked for after all
_FOR_ME = rx(
    r"\bfor me\b|\b(?:you|u) (?:just )?(?:handle|do|sort|take care of) (?:it|this|that)\b"
    r"|\b(?:exchange|return|replace|swap|fix|repair) (?:it|this|them|that)\b(?! work)"
)
_PROBLEM_REPORT = rx(r"\bmy\b|\bi (?:got|received|bought|ordered)\b|我的|我买的|收到的|刚买|到手")
# "你们发什么快递" / "which couriers do you use": the delivery policy, not a parcel to track
# "你们周末发货吗" / "do you deliver on sundays": when the shop ships, not where an order is
_SHIP_SCHEDULE = rx(
    r"(?:周末|周六|周日|星期[六天日]|礼拜[六天日]|节假日|假期|节日|春节|过年|晚上)(?:也|都)?(?:能|会|可以)?"
    r"(?:发货|发吗|发不发|送货|送吗|配送|派送)"
    r"|\b(?:ship|deliver)(?:ping|y|ies)? (?:on|over|during|at) (?:the )?(?:weekends?|saturdays?"
    r"|sundays?|holidays?|public holidays?)\b|\b(?:weekend|holiday|sunday|saturday) (?:delivery"
    r"|shipping|dispatch)\b"
)
_COURIER_QUESTION = rx(
    r"\bwhich (?:couriers?|carriers?|delivery compan(?:y|ies)|express)\b"
    r"(?!\s+(?:has|had|is (?:bringing|delivering|carrying)|took|picked up|brought|carried)"
    r" (?:my|the|our)\b)"
    r"|发什么快递|用什么快递|哪家快递|哪个快递|什么快递公司"
    # "do you ship with SF", "你们发顺丰吗"
    r"|\bdo (?:you|u) (?:ship|deliver|send)(?: it| orders)? (?:with|via|by|through|using) "
    r"(?:sf|yto|zto|sto|yunda|jd|ems|sf express|shunfeng)\b"
    r"|(?:你们|能|可以)?(?:发|走|用)(?:顺丰|圆通|中通|申通|韵达|京东|邮政|ems)(?:快递)?(?:吗|么|嘛)"
)
_ORDER_WORD = rx(r"\bor?de?r\b|订单|单子")
_RETURN_ACTION = rx(
    r"\breturn(?:s|ing)?\b|退货|退换|退回|(?:单独|分开)退(?!款|钱)"
    # "I'd like to send back the thermos from 100200": a return
    r"|\bsend(?:ing)? (?:back (?:the|my|this|that|it|them)\b|(?:the|my|this|that|it|them)\b"
    r"[^.,;!?]{0,30}\bback\b)"
)
# returns as a policy (a noun): "7 day no reason returns", "free returns", "七天无理由退货"
_SENT_BACK = (
    r"(?:return\b|(?:send|ship|post|mail)"
    r"(?: (?:it|them|this|that|(?:the|my) [a-z -]{1,24}?))? back\b)"
)
_RETURN_WEIGHED = rx(
    r"\b(?:don'?t|do not|dont|doesn'?t|not|never) (?:want|wanna|need|have|plan) to "
    + _SENT_BACK
    + r"|\b(?:do|will|would|did) (?:i|we) (?:need|have) to "
    + _SENT_BACK
    + r"|\b(?:must|should|shall) (?:i|we) "
    + _SENT_BACK
    + r"|不想(?:寄回|退回|寄还|退货)"
    r"|(?:需要|要不要|用不用|必须|得)(?:我)?(?:把[^，。,.!?！？]{0,10})?"
    r"(?:寄回|退回|寄还)(?:去|来)?(?:吗|么|嘛|呢)?"
    r"|要(?:我)?(?:把[^，。,.!?！？]{0,10})?(?:寄回|寄还)(?:去|来)?(?:吗|么|嘛)"
)
_RETURNS_TOLD_OF = rx(
    r"\b(?:\d+|seven)[- ]?days?(?: no[- ]reason| free| easy)? returns?\b"
    r"|\b(?:no[- ]reason|free|easy|hassle[- ]free) returns?\b|(?:七|7)天无理由(?:退货|退换)?"
)
_TICKET = rx(
    # ("it is not broken": no fault told)
    r"\b(?<!not )(?<!n't )(?<!never )(?<!not really )(?<!nothing is )(?<!nothing's )"
    r"(?:broken|broke|damaged|defective|faulty|not working"
    r"|doesn'?t work|does not work|"
    r"stopped (?:working|heating|charging|cooling|spinning)|won'?t (?:turn on|work|charge|heat)|"
    r"wrong (?:item|product|size|colou?r|order)|"
    r"missing (?:items?|parts?|pieces?)|cracked|scratched|dead on arrival|complain(?:t|ts)?|"
    r"(?:(?:came|arrived) with (?:a )?dent|smashed|shattered)(?![^.?!]*\?)|"
    # ("is it back in stock so I can replace them": the customer replaces them)
    r"exchange|(?<!so i can )(?<!so i could )replace(?:ment)?|repair(?:ed|s|ing)?|after[- ]sales?"
    # "send me a new one instead", "I'd rather get a new one than a refund": a replacement
    r"|(?:send|ship) (?:me )?a new one|a new one (?:instead|rather than|than a)"
    r"|(?:rather|prefer(?: to)?) (?:get|have|receive) a new one"
    r"|ticket (?:opened|filed|raised|created)|(?:open|file|create|raise|submit) a "
    r"(?:support )?ticket|support ticket|leaking|torn(?! between\b)"
    # what a thing stopped doing, told (not asked): "stopped keeping stuff hot" (a noise is
    # not: "is it normal that it's making a noise" asks)
    r"|(?:stopped|doesn'?t|does not) (?:keep(?:ing)?|stay(?:ing)?) [a-z ]{0,12}"
    r"(?:hot|warm|cold)(?![^.!?,]*\?)"
    # "it's making a weird rattling noise since last week": a noise told, not asked about
    r"|(?<!normal that )(?<!if )(?<!whether )(?:it's|it is|mine|my [a-z]+(?: [a-z]+)?) "
    r"(?:is |'s |keeps |has been |started )?making (?:a |an |this |such a )?"
    r"(?:weird|strange|rattling|grinding|clicking|buzzing)"
    r"[a-z ]{0,12}(?:noise|sound)s?(?![^.!?]*(?:\?|\bnormal\b))"
    # "came with an electric kettle instead of the thermos", "the wrong thing in my order":
    # the wrong thing delivered
    r"|not what i (?:ordered|paid for|bought)"
    r"|(?:came|arrived|received|delivered|sent me|there'?s|got) [^.?!]{0,30}\bwrong "
    r"(?:thing|one|model|items?)"
    r"|(?:came|arrived|sent|got) (?:with )?(?:an? |the )?[a-z -]{2,30} instead of)\b"
    r"|(?:寄来|收到|送来|到的|发来|到手)[^，。,.!?！？]{0,10}不是我(?:下单|买|订|要)的|寄错了|送错了"
    r"|坏了|坏的|损坏|破损|摔坏|碎了|裂了|凹坑|凹进去|凹陷|瘪了|压扁了|磕坏|磕破|质量问题|质量有问题|东西有问题|商品有问题|出问题|出故障|故障"
    # ("不能用了", "手机不能用"; not "能不能用微信付": whether a way may be used, asked)
    r"|(?<!能)不能用(?!微信|支付宝|花呗|信用卡|银行卡|卡|券|优惠|积分|余额)|用不了|无法使用|不工作|开不了机|开不机|充不了电|没反应|售后|换货|维修|修理"
    # "换个新的" is a replacement; "换个支付方式" / "更换收货地址" change something else
    r"|(?:换一个|换个|更换)(?!.{0,4}(?:方式|地址|快递|时间|日期|号码|手机|账号|卡|支付|付款|说法))"
    r"|(?<!以旧)(?:要|想)换新的?"
    r"|返修|发错|少发|漏发|缺件|(?:帮我|给我|麻烦|请)补发|投诉|工单|瑕疵|划痕|漏水|破了|压坏|压扁|一直漏|漏了|拧不紧"
    # "保温杯盖子盖不严": a lid or door that no longer shuts
    r"|(?:盖|关|合|拧|扣)不(?:严|紧|上|住)(?!吗|么|嘛)|漏气"
    # what a thing no longer does ("保温杯不保温了", "加热不了", "开机就响")
    r"|不保温|保温效果(?:太|很)?差|不加热|加热不了|不制冷|不亮了|不转了|异响|咔咔响|噪音(?:很|太)大"
    # "空气炸锅用了两周就不热了", "净化器开不了机": a thing that stopped (not "天气不热了")
    r"|[锅杯器机壶灯扇箱炉表脑板][^，。,.!?！？]{0,6}不(?:热|响|充电|出风|通电|启动)了"
    r"|[锅杯器机壶灯扇箱炉表脑板][^，。,.!?！？]{0,4}(?:开|启动|充)不了(?:了|机|电)?|花屏|黑屏"
)
# "帮我转人工", "transfer me": a person asked for in so many words
# "don't need anything else", "没别的了": nothing more wanted
_NOTHING_ELSE = rx(
    r"\b(?:don'?t|do not) need anything (?:else|more)\b|\bnothing else\b|\bi'?m (?:all )?good\b"
    r"|没(?:有)?别的(?:事|问题)?了|没其他(?:事|问题)?了|不需要(?:别的|其他)?了"
)
# "no need to change the address after all", "地址不用改了": an address change let go
_ADDRESS_CHANGE_NEGATED = rx(ADDRESS_CHANGE_NEGATED)
# "不用转人工了 我自己搞定了", "don't need a human anymore": a transfer declined
_HANDOFF_NEGATED = rx(
    r"(?:不用|不要|别|不需要|没必要|无需|先不|不想|不想要|不愿意|不打算)\s*(?:给我|帮我)?\s*(?:再)?\s*"
    r"(?:转|找|接)?(?:个)?(?:人工|真人|客服)"
    r"|人工(?:客服)?(?:就)?(?:不用|不要|算)了"
    # "不转人工的话，有电话可以打吗？先别帮我转": a transfer weighed and put off
    r"|不(?:转|找)(?:人工|真人)|先别(?:帮我|给我)?转(?!账|运|发|寄)"
    # "人工客服在吗？不用了我自己看看": asked for, then let go at once
    r"|(?:人工|真人|客服)[^。!！]{0,6}[吗嘛么]\s*[？?]?\s*(?:不用了|算了|不要了)"
    r"|\b(?:don'?t|do not|no longer|no need to)\s+(?:need|want)?\s*(?:to\s+)?"
    r"(?:talk to |speak to |a |an )?(?:human|agent|real person|transfer)"
    r"|\bno need (?:for|of) (?:a |an )?(?:human|agent|transfer)\b"
    # "I don't want to be transferred to a human", "no thanks, no agent"
    r"|\b(?:don'?t|do not|dont|no longer)\b[^.?!]{0,24}"
    r"\b(?:human|agent|real person|transferr?ed|transfer)\b"
    r"|\bnever ?mind (?:the |about the )?(?:human|agent|transfer)\b"
    # "no human please", "no humans, just answer", "I'd rather not talk to a human" ("no human
    # has answered" is no refusal)
    r"|\bno (?:humans?|agents?|real (?:person|people)|transfers?)\b(?!\s+(?:has|have|had|ever|is"
    r"|was|answered|replied|called|got|came|contacted|responded|picked|helped|cares?)\b)"
    r"|\brather not (?:talk|speak|chat|be transferred)\b"
)
# a person to talk to mentioned, not asked for now: asked whether there are any ("do you have
# human agents?"), how long a transfer takes, told of one before ("之前转过人工了", "last time I
# talked to a human"), said by someone else ("我朋友说找人工客服比较快"), for later ("I'll ask a
# human later"), on a condition ("if …, I'll want a human"), or judged ("human agents are
# useless") — how to ask is said (the identity answer), nothing is transferred
_HUMAN_NOT_ASKED = rx(
    # "I never asked to be connected to an agent", "who said I want a human?", "我没说要转人工",
    # "should I talk to a human?", "do I have to be connected to an agent to get a refund?"
    r"\b(?:never|didn'?t|did not|not)\s+(?:ask(?:ed)?|say|said|want(?:ed)?)\s+(?:for\s+|to\s+)?"
    r"(?:be\s+)?(?:an?\s+)?(?:connect|transfer|put|talk|speak|human|agent|person|someone)[^.?!,]*"
    r"|\bwho said i (?:want|wanted|need|asked)\b[^.?!,]*"
    r"|(?:我)?(?<![有是])(?:没|没有|不是|并没有|并不是)(?:说)?(?:要|想)?(?:转人工|找人工|转接人工|人工客服)"
    r"|\b(?:should|shall|must) i (?:\w+ ){0,3}(?:be connected|be transferred|talk|speak|ask for"
    r"|ask to)\b[^.?!]{0,30}\b(?:human|agent|person|someone|somebody)\b"
    r"|\bdo i (?:have|need) to (?:be connected|be transferred|talk|speak)\b|"
    # "I don't want you to connect me to an agent", "no need to transfer me"
    r"\b(?<!if )(?:don'?t|dont|do not|no need to|never|not)\b(?: \w+){0,4}? (?:connect|put"
    r"|transfer|pass|hand) (?:me|this|it)\b(?: (?:through|over|on))? (?:to|with) (?:a |an |the )?"
    r"(?:human|agent|person|someone|somebody|real person|manager|supervisor)\b|"
    r"\bdo (?:you|u|you guys) (?:even )?have (?:any )?(?:human|real|live) (?:agents?|people|person"
    r"|support)\b|\bis (?:this|there) (?:a )?real (?:person|human)\b|\bis this a (?:human|person)\b"
    r"|\b(?:humans?|agents?|your (?:agents|people|staff)|human agents)\b[^.?!]{0,20}"
    r"\b(?:are|were|is|was) (?:(?:so|just|all|always) )?"
    r"(?:useless|terrible|rude|slow|no help|pointless|worse)\b"
    r"|\blast time i (?:talked|spoke|chatted) (?:to|with)\b|\bi (?:already )?(?:talked|spoke)"
    r" (?:to|with) (?:a |an |your )?(?:human|agent)\b"
    r"|\b(?:i'?ll|i will|i may|i might) (?:ask|talk to|speak to|call|contact) (?:a |an )?(?:human"
    r"|agent|someone)\b[^.?!]{0,12}\b(?:later|tomorrow|another time|next time|if)\b"
    r"|\b(?:friend|wife|husband|mum|mom|sister|brother|colleague|boss)s? (?:said|says|told me)\b"
    r"[^.?!]{0,30}\b(?:human|agent|real person)\b"
    r"|\bif\b[^.?!]{0,40}\bi'?ll (?:want|need|ask for) (?:a |an )?(?:human|agent|person)\b"
    # "is a human going to call me?", "will a human review my refund?", "are humans reading
    # this?": what a person does, asked (a request says can/could: "can a human call me")
    r"|^\W*(?:(?:so|and|wait|ok|hey)\W+)*(?:is|will|would|are|does|do|has|have|did) "
    r"(?:a |an |any |the |your )?(?:humans?|agents?|real (?:person|people)|someone|somebody"
    r"|anyone|people)\b[^.?!]{0,16}\b(?:call|review|read|reading|look|looking|check|contact"
    r"|see|answer|reply|respond|get back|handle|handling)\b"
    r"(?![^.?!]*\b(?:complaint|ticket|case|exchange|request)s?\b)"
    # "maybe I should talk to a human", "I might need a human later": weighed, not asked
    r"|\b(?:maybe|perhaps) i (?:should|could|'?ll|will|need to|have to) (?:just )?(?:talk|speak"
    r"|ask|call|get|contact)\b|\bi (?:might|may) (?:need|want) (?:a |an |to talk to a )?"
    r"(?:human|agent|person)\b"
    # "a human agent already handled this", "your human colleague promised me …": told of
    r"|\b(?:humans?|agents?|colleagues?|staff|someone|somebody)\b[^.?!]{0,12}\b(?:already|has"
    r"|had) (?:handled|helped|sorted|dealt|answered|called|contacted|promised|said|told)\b"
    r"|\byour (?:human )?(?:colleague|agent|staff|coworker|rep|representative)s?\b[^.?!]{0,16}"
    r"\b(?:promised|said|told|agreed|offered)\b"
    # "人工客服会给我打电话吗", "要是还解决不了我就找人工": asked whether, or on a condition
    r"|(?:人工|客服|真人)[^，。,.!?！？]{0,8}会[^，。,.!?！？]{0,8}(?:打电话|联系|回电|回复|处理)"
    r"[^，。,.!?！？]{0,4}(?:吗|么|嘛)"
    r"|(?:要是|如果|万一)[^，。,.!?！？]{0,20}(?:就|我就|再)(?:去)?(?:找|转)(?:人工|真人|客服)"
    r"|转人工(?:要|需要)?(?:多久|多长时间|等多久)|人工(?:客服)?(?:也)?(?:太|好|真|很)(?:慢|差|烂|难找)"
    r"|(?:之前|上次|已经|以前|昨天)(?:已经)?(?:转过|找过|联系过|打过)(?:了)?(?:人工|客服)"
    r"|(?:朋友|老婆|老公|妈妈?|同事|家人|别人)(?:说|跟我说)[^，。,.!?！？]{0,10}(?:人工|客服)"
)
# "is there a way to talk to a person without opening a ticket? don't transfer me yet",
# "有没有办法联系到人工": how to reach a person, asked — the hotline, never a transfer filed
_WAY_TO_A_PERSON_ASKED = rx(
    r"\bis there (?:a|any|another) (?:way|number|phone number|line)\b[^.?!]{0,24}"
    r"\b(?:talk|speak|reach|call|contact|get through)\b[^.?!]{0,12}"
    r"\b(?:human|person|agent|someone|somebody|people)\b"
    r"|\bwithout (?:opening|filing|creating|raising|making) (?:a |another |any )?(?:ticket|case)\b"
    r"[^.?!]{0,40}\b(?:human|person|agent|someone|somebody)\b"
    r"|\b(?:human|person|agent|someone|somebody)\b[^.?!]{0,40}\bwithout (?:opening|filing"
    r"|creating|raising|making) (?:a |another |any )?(?:ticket|case)\b"
    r"|有没有(?:办法|别的办法|什么办法|途径)[^，。,.!?！？]{0,10}(?:联系|找)(?:到)?(?:人工|真人|客服)"
)
_TRANSFER_SAID = rx(r"\b(?:transfer|put|connect|pass) me\b|转人工|转接")
# a person asked for beside the talk of one (_HUMAN_NOT_ASKED)
_PERSON_ASKED_BESIDE = rx(
    r"\b(?:i|we) (?:want|need|'?d like|would like) (?:one|a human|a person|someone|somebody"
    r"|an agent|to talk to|to speak to)\b|\b(?:talk|speak) to (?:a |an )?(?:human|person|agent)"
    r"|转人工|找人工|要人工"
)
_TRANSFER = rx(
    r"转人工|转接|找(?:个)?人工|要人工|接人工"
    # ("你是不是人工客服", "是人工客服吗": the bot asked about, not a transfer)
    r"|(?<!是不是)(?<!是)人工客服(?!吗|嘛|么|电话|热线|号码|几点|什么时候|啥时候|工作|上班)"
    r"|\btransfer\b|\b(?:talk|speak) (?:to|with)\b"
    r"|\b(?:get|want|need) (?:a |an )?(?:human|real person|agent)\b"
    r"|(?:^|[,.;!?]\s*|\b(?:please|pls|plz|can you|could you|can u|just|now|so|then|not,?) )"
    r"(?:(?:put|get) me through|connect me (?:to|with))\b"
)
_OPENING_GREETING = rx(
    r"^\W*(?:hi+|hello+|hey+|hiya|howdy|good (?:morning|afternoon|evening)|bonjour|hola)\b"
    r"[^a-z0-9\u3400-\u9fff]*(?:there\b[^a-z0-9\u3400-\u9fff]*)?"
    r"|^\W*(?:morning|evening)\s*[!,.~]+\s*"
    r"|^[^\w\u3400-\u9fff]*(?:你好|您好|哈喽|哈啰|嗨|在吗|在不在|早上好|早安|下午好|晚上好)(?:呀|啊)?(?:小姐姐|小哥哥|客服)?"
    r"[^\u3400-\u9fffa-z0-9]*"
    r"|^[^\w\u3400-\u9fff]*亲[\s,，~～!！]+"
)
_SENTENCE_START = re.compile(r"[.?!。？！\n]")
# "what do i do if it arrives damaged", "万一坏了怎么办": a problem that may happen, asked about
_KEEP_PART = rx(r"^\W*(?:(?:but|and|i'?d|i want to|i wanna) )*keep\b|留着|保留|不取消")
_RETURN_STILL_ASKED = rx(
    r"\b(?:which (?:of (?:them|these|those|my orders) |one |ones |orders? )?|can |could )"
    r"(?:can |could )?(?:i|we) still (?:return|send back)\b"
)
_HYPOTHETICAL = rx(
    r"\bwhat (?:do|should|can|would) (?:i|we|you) do\b|\bwhat if\b|\bin case\b|\bif (?:it|the|a|an"
    r"|something|anything|my|they)\b|如果|要是|万一|假如|的话"
    # "if I return the air fryer, do I get 399 back", "I'm thinking of returning the jacket"
    r"|\bif (?:i|we) (?:return|send|sent|ship)\b"
    r"|\b(?:thinking (?:of|about)|considering|planning (?:on|to)|might|may) (?:return|send)"
)
_LAPSE_ASKED = rx(
    r"(?:不|没|未)(?:付款|付钱|支付|付)(?:的话)?[，,\s]*(?:你们)?[^，。,.!?！？]{0,4}(?:就|会)(?:被)?"
    r"(?:自动)?取消(?:掉|了)?(?:吗|么|嘛|不|没)"
    r"|(?:会|会不会)(?:被)?(?:自动)?取消(?:掉|了)?(?:吗|么|嘛)?"
    r"|\b(?:would|will|do|does) (?:you|it) (?:be )?(?:auto(?:matically)? )?cancel+(?:ed)?\b"
    r"[^.?!]{0,30}\bif\b[^.?!]{0,20}\b(?:unpaid|not paid|i don'?t pay)\b"
    r"|\bif (?:i|we) (?:don'?t|do not|never) pay\b[^.?!]{0,30}\b(?:will|would|does|is)\b"
    r"[^.?!]{0,20}\bcancel+(?:ed|led)?\b"
    # "how long do I have before it gets cancelled automatically?"
    r"|\bbefore (?:it|the order|my order) (?:gets|is|will be) (?:auto(?:matically)? )?cancel+ed\b"
    r"|\b(?:gets?|is|be) cancel+ed automatically\b"
)
_IF_SO_CANCEL = rx(
    r"(?:要是|如果|若是?)?[^，。,.!?！？]{0,10}(?:就|的话)\s*(?:帮我|给我)?\s*取消(?:了|掉)?(?:吧|了吧)\W*$"
    # "如果没发货就取消100998": the order after it, on the condition the shop checks
    r"|^[\s,，.。!！]*(?:要是|如果|若是?)?(?:还)?(?:没|未)发(?:货)?(?:的话)?\s*就\s*(?:帮我|给我)?\s*"
    r"取消(?:了|掉)?"
    r"\s*(?:订单)?\s*\d{6}\s*(?:吧)?[\s。！!~～.]*$"
)
# "100200 能退货吗", "can i return 100200?": whether an after-sales step is possible, asked
_WHETHER_POSSIBLE = rx(
    r"(?:能|可以|可不可以|能不能)[^，。,.!?！？]{0,6}(?:退货|退换|换货|换|退回|保修|维修)[^，。,.!?！？]{0,4}[吗么嘛]"
    # "充电器能单独退吗": whether a thing can be sent back
    r"|(?:能|可以)(?:单独|分开)退(?:吗|么|嘛|不)"
    r"|(?:能不能|可不可以)[^，。,.!?！？]{0,4}(?:退货|退换|换货|换|保修|维修)"
    r"|(?:退货|退换|换货|保修|维修)[^，。,.!?！？]{0,3}[吗么嘛]"
    r"|\b(?:can|could|may) i (?:still )?(?:return|exchange|send|swap)\b"
    r"|\bis it (?:still )?possible\b"
    # "and whether you do warranty repairs", "do you offer repairs": what the shop does, asked
    r"|\bwhether (?:you|i|we|it|they)\b|\bdo you (?:do|offer|provide)\b"
    r"|\b(?:still )?eligible for\b|\bqualif(?:y|ies) for\b"
    r"|\bhow (?:do|does|can) (?:i|that|it|this)\b|怎么(?:退|换|弄|办)"
)
# "open a ticket", "开个工单", "我要投诉": a ticket asked for in so many words
_EXPLICIT_TICKET = rx(
    r"\b(?:open|file|create|raise|submit|log) (?:a |an )?(?:support |after[- ]sales )?"
    r"(?:ticket|case|complaint)"
    r"|\bcomplain|投诉|(?:开|提|建|提交|创建)(?:个|一个)?(?:售后)?工单"
)
# "我名下有没有未处理的工单", "any open tickets on my account?": tickets there are, asked about
# "should I open a ticket", "do I need to file a complaint", "要不要开个工单": whether to, asked
_SHOULD_I_FILE = rx(
    r"\b(?:should|shall|must) (?:i|we) (?:\w+ ){0,2}(?:open|file|raise|submit|create|make|log"
    r"|lodge|put in)\b"
    r"|\b(?:do|would) (?:i|we) (?:need|have) to (?:open|file|raise|submit|create|make|log|lodge)\b"
    r"|要不要(?:开|提|建|提交|申请|投诉)|需不需要(?:开|提|建|提交|申请|投诉)"
    r"|(?:需要|用不用|得)(?:开|提交?|建)(?:个|一个)?(?:工单|投诉)(?:吗|么|嘛)"
)
# "… just open one", "yes open one", "算了直接开吧": the ticket asked for after all
_FILE_IT_ANYWAY = rx(
    r"\b(?:just|yes|so|please|pls|then) (?:open|file|raise|make|create|log|submit) (?:one|it|a "
    r"(?:ticket|complaint))\b|\bopen one\b|直接开|开吧|给我开|帮我开|开一个吧"
)
_TICKET_QUESTION = rx(
    r"(?:有没有|有哪些|有几个|还有|查(?:一?下|看)?|看(?:一?下)?)[^，。,.!?！？]{0,8}工单(?![^，。,.!?！？]{0,4}(?:开|提))"
    r"|工单[^，。,.!?！？]{0,6}(?:进度|进展|状态|处理了|怎么样|呢|有吗|吗|跟进|回复|结果|没)"
    # "工单号是多少来着", "what's my ticket number again?": the tickets, asked for
    r"|工单(?:号|编号|号码)(?:是)?(?:多少|啥|什么)"
    r"|\bwhat(?:'s| is| was) (?:the |my |that )?ticket (?:number|id|no)\b"
    # "whats the number of the ticket you just opened", "do I already have a ticket open?"
    r"|\b(?:number|id) of (?:the|my|that|this) ticket\b"
    r"|\b(?:do|did) (?:i|we) (?:already |still )?have (?:a|an|any) (?:open |pending )?ticket\b"
    r"|\b(?:any|my|existing|open|pending)\s+(?:open\s+|pending\s+|support\s+)?tickets\b"
    r"|\bany (?:open |pending )?tickets?\b"
    # "我投诉的那个工单也石沉大海", "why does nobody answer my ticket": a ticket there is
    r"|(?<![帮给替])(?:我|之前|上次|以前)(?!提交一|开一|开个|建一|建个)[^，。,.!?！？]{0,10}的(?:那个)?"
    r"(?:工单|售后单|售后申请)"
    # "I opened something with you about a delivery, what was the reference number?"
    r"|\b(?:i|we) (?:opened|filed|raised|submitted|made|logged) (?:something|a case|a request"
    r"|a ticket|a complaint)\b[^.?!]{0,60}\b(?:reference|ticket|case) (?:number|no|id)\b"
    r"|\bwhat(?:'s| was| is) (?:the|my) (?:reference|case) (?:number|no|id)\b"
    # "我之前还提过一个破损的售后单，有人跟进吗": one filed before, asked after
    r"|(?:提过|提交过|开过|报过|申请过)[^，。,.!?！？]{0,10}(?:工单|售后单|售后|投诉)"
    r"(?![^，。,.!?！？]*(?:我要投诉|要投诉|想投诉|开工单|开个工单|提交工单))"
    r"|\bmy (?:ticket|complaint) about\b|\b(?:has|did) any(?:one|body) (?:done|do) anything\b"
    r"|\b(?:any )?(?:update|news|progress) (?:on|about|with) (?:the |my )(?:complaint|ticket)\b"
    r"|\bthe (?:complaint|ticket) i (?:made|filed|opened|raised)\b"
    # "what's the status of that complaint", "status of the ticket?"
    r"|\bstatus (?:of|on) (?:that|this|the|my) (?:complaint|ticket|case)\b"
    r"|\bmy (?:last |previous |old |existing )?ticket\b"
    # "has anyone even looked at my complaint?", "did anybody read my complaint"
    r"|\b(?:looked at|looked into|read|answered|handled|dealt with|checked) (?:my|the) complaint\b"
    # "confirm whether my earlier complaint regarding the parcel has been resolved", "what
    # happened to my complaint", "is my previous case closed": a complaint made, asked after
    r"|(?<!file )(?<!lodge )(?<!submit )(?<!make )(?<!open )(?<!raise )"
    r"\bmy (?:earlier |previous |last |old |first |original )?(?:complaint|case)\b[^.?!]{0,60}"
    r"\b(?:resolved|solved|sorted|closed|dealt with|looked at|processed)"
    r"|\bwhat(?:'s| has| is)? happen(?:ed|ing) (?:to|with) (?:my|the) (?:complaint|case)\b"
    r"|(?:之前|上次|以前|我)[^，。,.!?！？要想]{0,8}的投诉[^，。,.!?！？]{0,8}"
    r"(?:处理了|处理得|处理好|解决了|怎么样|进度|进展|结果|有回复|回复了|有人管)"
    # "现在处理到哪一步了" beside a ticket: how far it has been handled
    r"|(?:处理|受理)到哪一步"
    # "之前投诉物流慢的那个 有进展没": the complaint made before, asked after
    r"|(?:之前|上次|以前|上回|我)投诉[^，。,.!?！？]{0,10}的那(?:个|条|件|次)[^。.!?！？]{0,6}"
    r"(?:有进展|进展|进度|处理了|处理得|解决了|怎么样|有结果|有回复|回复了|有人管|咋样)"
    # "物流慢的那个投诉有进展吗": a complaint made, asked after
    r"|(?:那个|那条|的)投诉[^，。,.!?！？]{0,6}(?:有进展|进展|进度|处理了|处理得|解决了|怎么样了|有结果|有回复|有人管)"
    r"|\b(?:did|has) (?:anyone|anybody) (?:followed|follow) up\b"
    # "is anyone even looking at my complaint?"
    r"|\b(?:looking at|looking into|working on|reading|handling|dealing with) (?:my|the) "
    r"(?:complaint|ticket|case)\b"
)
# "我记得我投诉过一次", "I filed a complaint days ago": a complaint made before, told (beside a
# question about it: no second one filed)
_COMPLAINED_BEFORE = rx(
    r"投诉过|已经投诉|之前投诉|上次投诉|(?:提|提交|开|报|申请)过[^，。,.!?！？]{0,10}(?:工单|售后|投诉)"
    r"|(?:上周|前几天|昨天|之前)[^，。,.!?！？]{0,6}(?:投诉|转人工|要求转)"
    r"|要求(?:过)?转人工了"
    r"|\b(?:i|we) (?:already |have |'ve )?complained\b"
    r"|\b(?:i|we) (?:already |have |'ve )?(?:filed|made|lodged|raised|opened|submitted)"
    r" (?:a |my |the )?(?:complaint|ticket)\b"
)
# "我之前转人工那个单子有人跟进吗", "I asked for a human yesterday, has anyone followed up?": a
# transfer made before, asked after — its ticket is shown, never a new transfer
_TRANSFER_ASKED_AFTER = rx(
    r"(?:之前|上次|以前|昨天|前几天|已经)[^，。,.!?！？]{0,4}(?:转(?:了)?人工|找(?:了)?(?:人工|客服))"
    r"[^。.!?！？]{0,12}(?:跟进|处理|进展|进度|回复|回音|怎么样|结果|联系我|有人管|没人|什么情况"
    r"|啥情况|情况|咋样|怎样|状态)"
    r"|\b(?:i )?(?:asked|requested) (?:for |to talk to |to speak to )(?:a |an )?(?:human|agent"
    r"|person|real person)\b[^.?!]{0,40}\b(?:follow(?:ed)?[- ]up|update|news|heard|anyone"
    r"|anybody|nobody|no one|still waiting)"
    # "still waiting for a human to get back to me": a transfer made before, its answer awaited
    r"|\b(?:still )?waiting (?:for|on) (?:a |the |an )?(?:human|agent|person|real person|someone"
    r"|somebody|your (?:team|colleague|agent|staff))\b[^.?!]{0,20}\b(?:get back|call|contact|reply"
    r"|respond|answer|reach)"
)
# "..., 不然我要转人工了", "otherwise I want a human": a transfer on a condition the answer
# beside it may settle — offered, never made at once
_IF_NOT_THEN = rx(
    r"^\W*(?:不然|否则|要不然|要不|再不[^，。,.!?！？]{0,8}就|如果[^，。,.!?！？]{0,10}(?:不|没)[^，。,.!?！？]{0,8}就)"
    r"|^\W*(?:otherwise|or else|or i'?ll|or i will|if not\b|if (?:you|this|it) (?:can'?t|cannot"
    r"|won'?t|doesn'?t|isn'?t|is not|does not)\b"
    r"|if (?:nobody|no one|noone|they haven'?t|it hasn'?t)\b)"
)
_DAY = (
    r"(?:today|tonight|tomorrow|this week|next week|the weekend|(?:mon|tues|wednes|thurs|fri|satur"
    r"|sun)day|end of (?:the )?(?:week|month))"
)
# "if the screen protector doesn't show up by friday refund me", "要是今天还不到就给我退了": a
# refund or cancel wanted only if something fails by a day still to come — what can be done now
# is to look at the order (the customer asks again once the day has passed). The write must be
# what the condition leads to ("if ... by friday, refund me" / "refund me if ... by friday"),
# not a write asked for now beside a day the customer names for their own reasons ("cancel it
# right away, if it isn't cancelled by tonight I'll dispute it")
_FUTURE = (
    r"(?:(?:by|before|until|till|on|within|in) (?:" + _DAY + r"|\d+ days?|two days|three days"
    r"|a (?:few )?days?|a week|the next \w+ days)|tomorrow|tonight|next week|this week|again"
    r"|in (?:\d+|two|three|a few) days)"
)
_LATE_BY = (
    r"\b(?:in case|should (?:it|they|the \w+))\b|\bunless\b"
    r"|\b(?:maybe|might|may|perhaps|possibly) (?:later )?(?:i'?ll |i will |i |want to |have to )?"
    r"(?:later )?(?:cancel|refund|want)"
    # ("cancel 100998, I'll reorder later": the reorder is later, the cancel now)
    r"|\b(?:refund|cancel)\w*\b(?:(?!\b(?:reorder|order|buy|purchase|get one)\b)[^.!?;]){0,30}"
    r"\blater\b|\bnot now\b|\bwait until\b"
    r"|\b(?:later|next week|tomorrow) if\b"
    # "ship 100998 today or i'll cancel it", "…否则我就取消": a threat, the write not asked for
    # (not "cancel 100998 or else I'll want my money back": the write asked before the threat)
    r"|^(?:(?!\bcancel|\brefund|取消|退款|退钱)[^.!?;])*\b(?:or|otherwise|or else)\b[^.!?;]{0,12}"
    r"\bi(?:'?ll| will|'?m going to|'?m gonna) (?:just |have to )?(?:cancel|refund|ask for a refund"
    r"|want a refund|want my money)"
    # ("hurry up with 100998 or I'm cancelling")
    r"|^(?:(?!\bcancel|\brefund|取消|退款|退钱)[^.!?;])*\b(?:or|otherwise|or else)\b[^.!?;]{0,12}"
    r"\bi(?:'?m| am)? (?:just )?(?:cancell?ing|cancel|asking for (?:a refund|my money)"
    r"|getting (?:a refund|my money))"
    r"(?! (?:my |the )?(?:account|card|membership|subscription|credit card)\b)"
    r"|^(?:(?!取消|退款|退钱)[^。!?！？])*(?:不然|否则|要不然)[^，。,.!?！？]{0,4}(?:我)?就?(?:要)?"
    r"(?:取消|退款|退钱)"
    # ("tell me if the monitor ships this week": whether, asked — no condition)
    r"|(?<!tell me )(?<!let me know )(?<!check )(?<!see )(?<!ask )(?<!know )(?<!wondering )"
    r"(?<!wonder )\bif\b[^.!?;]{0,80}?(?:\b" + _FUTURE + r"\b"
    r"|\b(?:breaks?|stops? working|is late|comes? late|gets? lost|lost|loses|damaged|broken"
    r"|price drops|goes on sale|gets? cheaper|by the \d+(?:st|nd|rd|th)?|within \d+ hours?"
    r"|it'?s been a week"
    # "refund 100 on 100609 if the price dropped", "refund 100609 if the item is defective",
    # "if the thermos is still leaking i'll want a refund"
    r"|price (?:dropped|fell|goes down|went down)|out of stock|(?:still |keeps? )leak(?:s|ing)?"
    r"|(?:is|are|was|were|turns? out(?: to be)?)(?: still)? (?:defective|faulty|leaking|broken))\b"
    r"|\b(?:doesn'?t|does not|isn'?t|is not|won'?t|will not|never) (?:comes?|arrives?|show up"
    r"|shows? up|show|get here|gets here|turn up|turns up|be here|here|ships?|get shipped)\b"
    r"(?![^.!?;]{0,12}\byet\b))"
)
_WRITE_WORD = r"(?:cancel+(?:ed|ing|ation)?|refund(?:ed|ing)?|money back)"
# a sentence whose write waits on a day to come: the condition, and a write in the same sentence
_IF_LATE_BY = rx(
    _LATE_BY
    + r"|(?:要是|如果|假如|万一)?[^，。,.!?！？]{0,12}(?:今天|明天|后天|这周|周末|本周|月底|下周"
    r"|(?:周|礼拜|星期)[一二三四五六日天]|[\d一二两三四五六七]天内|再)[^，。,.!?！？]{0,8}(?:还)?"
    r"(?:不到|没到|没送到|收不到|到不了|不发货?|没发货?|不来|坏)(?:的话)?"
    r"|(?:要是|如果|假如|万一)[^，。,.!?！？]{0,12}(?:又|再)(?:坏|出问题|晚|延误)"
    r"|万一|(?:丢件|丢了|降价|坏了|破了|没货|缺货|断货|漏水?)的话|今晚还没|(?:今天|今晚)(?:还)?没(?:有)?动静"
    r"|(?:要是|如果|假如)[^，。,.!?！？]{0,8}(?:丢件|丢了|坏了|破了|降价|找不到|找不回|送不到"
    r"|到不了|收不到|不到货|发不了|发不出)"
    r"|以后再说|晚点再说|先不急"
)
_CONDITIONED_WRITE = rx(
    r"\b" + _WRITE_WORD + r"\b|退款|退钱|退了|退掉|给我退|就退|也退|都退|再退|退吧|取消"
)
# a write waiting on something the words do not settle: "if it wasn't delivered", "once it
# ships", "when it becomes late", "as soon as you get it back", "如果是256G的就取消"
_ANY_CONDITION = rx(
    r"(?<!\beven )(?<!\bwhat )(?<!\bas )(?<!\bsee )(?<!\bcheck )(?<!\bknow )(?<!\bsure )"
    r"(?<!\bwonder )(?<!\bwondering )(?<!\bask )(?<!\basking )(?<!\btell me )"
    r"\b(?:if|unless|in case|provided that|providing that|as long as|only if)\b"
    r"(?! (?:anything|i'?m honest|i'?m being honest|you ask me|that makes sense|i may|i might))"
    r"|\b(?:once|as soon as) (?:it|they|you|i|we|\d{6}|the \w+|my \w+)(?: \w+)?"
    r" (?:ships?|arrives?|comes?|gets?|becomes?|is|are|turns?|goes|reaches|has|have|hasn'?t"
    r"|doesn'?t|isn'?t|will|won'?t|receive|return|send|ship|get)\b"
    # ("…leaks when it is hot", "…trips the breaker when I turn it on": a fault told, no
    # condition — "when" waits only on the order's own course)
    r"|\b(?:when|whenever) (?:it|they|\d{6}|the (?:order|parcel|package|delivery|monitor|phone)"
    r"|my (?:order|parcel|package))(?: \w+)? (?:ships|arrives|becomes|gets (?:here|late|lost)"
    r"|comes|reaches|is (?:late|delayed|shipped|delivered|lost)|goes out)\b"
    r"|\b(?:once|as soon as|when) (?:it|they|\d{6}|the \w+) (?:ships|arrives|is (?:back|here|late))"
    r"|\bafter (?:i|you|we) (?:return|send|ship|get|receive|mail|drop)\b"
    # (not "100200的话帮我退了吧", "保温杯的话退了吧": 的话 after a thing names what it is about)
    r"|如果|要是|假如|万一|(?<=[没不了坏到发是有会还能要来收丢破降涨])的话"
    r"|(?<!不)(?<!我)等(?!了|着|太|不及|很久|好久|半天|这么)[^，。,.!?！？]{1,12}(?:再|就|了以后|之后)"
    r"|[^，。,.!?！？]{1,10}(?:之后|以后)(?:再|就)(?:帮我|给我)?(?:取消|退)"
    # "不发就取消吧", "再不到就退": if not shipped / not here — a condition
    r"|(?:不|没|再不)(?:发货|发|寄|到|送到|送)(?:的话)?就(?:帮我|给我)?(?:取消|退)"
)
# conditions the write itself settles, or that another reading answers: "if it can be
# refunded", "能退的话", "if it can't be fixed I want a refund" (the repair, asked first)
_SELF_CHECKING = rx(
    r"\bif (?:it|that|this|they|\d{6}) (?:can|could) (?:still )?be (?:refunded|cancel+ed)\b"
    r"|\bif (?:it'?s|it is|that'?s|they'?re) (?:still )?(?:refundable|cancel+able|possible)\b"
    r"|\b(?:can'?t|cannot|can not|couldn'?t) be (?:fixed|repaired|replaced|exchanged)\b"
    r"|\b(?:if|when) (?:the )?(?:repair|fix|replacement|exchange) (?:fails|doesn'?t work)\b"
    r"|\bif (?:it'?s |it is |that'?s )?(?:still )?not too late\b|\bif there'?s still time\b"
    r"|\bif (?:it|that|this) (?:isn'?t|is not|'s not|wasn'?t) (?:already |yet )?too late\b"
    # what the write itself brings, said in its question: "if I get my money back", "if it's free"
    r"|\bif (?:i|we) (?:can |will |would )?(?:still )?(?:get|receive) (?:a |my |the |all my )?"
    r"(?:full |whole )?(?:refund|money back|money)\b"
    r"|\bif (?:it'?s|it is|that'?s) (?:free|no charge)\b"
    r"|\bif (?:there'?s|there is) no (?:fee|charge|penalty)\b"
    # another remedy first ("if you can't send a new one, refund it"), or no other way
    r"|\b(?:can'?t|cannot|won'?t|are unable to|aren'?t able to) (?:fix|repair|replace|exchange"
    r"|send (?:me )?(?:a |another )?(?:new|replacement)|swap)\b"
    r"|\bif\b[^.!?,]{0,30}\b(?:replacement|replace|repair|exchange|fix|new one|swap)\b"
    r"|换货|换新|换一个|维修|修好"
    r"|\bif (?:that'?s|it'?s|this is) the only (?:way|option|choice)\b"
    r"|\bif there'?s no other (?:way|option|choice)\b|\bif (?:you )?(?:must|have to|need to)\b"
    r"|\bif (?:you |u )?(?:still )?can\b|\bwhile (?:you|u|i) still can\b"
    r"|\bif (?:it'?s |it is |that'?s |that is )?still (?:possible|allowed|ok|okay)\b"
    r"|能退的话|可以退的话|能取消的话|可以取消的话|修不好|修不了|换不了|没法修|不能修"
    r"|来得及|(?:能|可以)(?:退|取消)就|还能(?:退|取消)"
    # "did I already cancel 100904? if not cancel it", "can I cancel it? if so do it": the order
    # is shown beside the offer, what it says settles it (sessions 35 and 36)
    r"|\bif (?:not|so|yes)\b(?! (?:delivered|shipped|arrived|here|received|refunded|cancel+ed))"
    r"|如果没有(?:的话)?(?:就)?|没有的话|如果是(?:的话)?(?:就)?|可以的话"
)
_IF_UNSHIPPED = rx(
    r"\b(?:if|unless|as long as) (?:it|they|you|we|that|this|\d{6}|order \d{6}|the \w+(?: \w+)?"
    r"|my \w+(?: \w+)?)?\s*(?:'s|'re|has|have|is|are|was)?"
    r"(?:n'?t| not)(?: yet| still| already)?"
    r" (?:been )?(?:shipped|sent|dispatched|left|out|gone out|on (?:its|the) way)\b"
    r"|\bif (?:it'?s|it is|they'?re|still) (?:still )?(?:un|not )(?:yet )?shipped"
    r"|\bif (?:nothing|none of (?:it|them)) (?:has|have) (?:been )?(?:shipped|sent)"
    r"|\bif (?:it'?s|it is|they'?re|they are) still"
    r" (?:pending|processing|in the warehouse|unpaid)\b"
    # "has it shipped yet? if it hasn't, cancel it": the state asked just before
    r"|\bif (?:it|they) (?:hasn'?t|hasnt|haven'?t|havent|has not|have not)(?: yet)?"
    r"(?=\s*(?:[,.;]|$|pls\b|please\b|then\b|cancel\b|just\b))"
    r"|\bif (?:not|so|yes)(?: yet)?(?=\s*(?:[,.;]|$|pls\b|please\b|then\b|cancel\b|just\b|go\b))"
    r"|\bif not (?:yet )?(?:shipped|sent)|\bunless (?:it|they)(?:'s| has| have)? (?:already )?"
    r"(?:shipped|been shipped|gone out)"
    # unpaid: the cancel of an unpaid order is what the condition asks
    r"|\bif (?:i|we) (?:haven'?t|didn'?t|have not|did not) (?:paid|pay)\b"
    r"|\bif (?:the )?payment (?:hasn'?t|didn'?t|did not|has not) (?:gone through|cleared)\b"
    r"|\bif (?:it|that|this|\d{6})(?:'s| is| was)? (?:still )?(?:unpaid|not paid)\b"
    r"|(?:如果|要是)?(?:还)?(?:没|未)(?:有)?(?:发货|发出|寄出|发|付款|付)(?:的话)?|还在仓库"
    r"|(?:如果|要是)?(?:还)?没(?:有)?的话"
)
# politeness, not a condition: "if possible", "if you can", "如果可以的话"
_POLITE_CONDITION = rx(
    r"\bif (?:at all )?(?:possible|you can|u can|you could|u could|you would|you don'?t mind"
    r"|that'?s (?:ok|okay|alright|all right|fine|possible)|it'?s (?:ok|okay|alright|fine|possible)"
    r"|needed|necessary|you have (?:the )?time|it'?s not too much trouble|you please)\b"
    r"|\b(?:when|whenever|as soon as) (?:you can|u can|possible|you get a chance|convenient"
    r"|you have (?:the )?time|you(?:'re| are) able)\b"
    r"|\bif (?:it'?s|it is|that'?s) (?:no trouble|not a problem|no problem|not too much)\b"
    r"|\bif (?:you'?re|you are|u r) able\b|\bif (?:that|it) works\b|\bif (?:ok|okay|allowed)\b"
    r"|\bif (?:you|u) (?:get|have) (?:a|the) (?:chance|moment|minute|second)\b"
    r"|\bif (?:you|u) guys can\b|\bif pos+i?ble\b|\bif possble\b"
    r"|\b(?:appreciate(?: it)?|great|grateful|nice|good|helpful|thankful|lovely|happy|glad"
    r"|pleased) if\b"
    r"|\b(?:when|whenever|once) (?:you|u) (?:have|get) (?:a|the) (?:moment|sec|second|minute"
    r"|chance|min)\b|\bas soon as (?:you|u) (?:get|see|read) (?:this|my message)\b"
    r"|\bif (?:it'?s|this is|that'?s|it is) (?:allowed|no bother|permitted)\b"
    r"|\bif (?:y'?all|you all|someone|anyone|somebody|anybody) can\b|\bif anyone can help\b"
    r"|\bif that'?s what it takes\b"
    r"|(?:如果|要是)?不麻烦(?:的话)?|(?:如果|要是)?(?:你们)?方便(?:的话)?"
    r"|(?:如果|要是)?(?:可以|方便|可能|能|行)的话|如果可以|如果方便|如果可能"
)
# "..., if it isn't cancelled by tonight I'll dispute it", "... it's useless if not here by
# tomorrow": the day is the customer's own deadline, the write is asked for now
# "not sure if it's out of stock but cancel 100998 anyway", "没货的话也没关系，取消吧": whatever
# the condition, the write is asked for
_ANYWAY = rx(r"\b(?:anyway|anyways|regardless|all the same|either way)\b|也没关系|无所谓|反正")
_OWN_DEADLINE = rx(
    r"\b(?:i'?ll|i will|i'?m going to) (?:dispute|complain|report|chargeback|leave|never)\b"
    r"|\buseless\b|\bi (?:don'?t|won'?t) need\b|投诉你们|差评"
)
_SENTENCE_END = re.compile(r"[.!?;。！？；\n]+|\balso\b|另外|还有")
# the write wanted now all the same: "refund 100683 now, and if ... by friday ..."
# "赶紧发货 否则我就取消", "ship it right away or I'll cancel": the hurry is about what the shop
# should do, not the write threatened
_HURRIED_ELSE = rx(
    r"(?:赶紧|马上|立刻|立即|现在就)(?:给我|帮我)?(?:发货|发出|发|寄出|寄|送|安排|处理|到)"
    r"|\b(?:ship|send|deliver|dispatch)\w*\b[^.!?;]{0,20}?\b(?:now|right away|right now"
    r"|immediately|asap|at once)\b|\bhurry(?: up)?\b"
)
_NOW_ALL_THE_SAME = rx(
    r"(?<!not )(?<!no )\b(?:now|right away|right now|immediately|asap|at once|anyway|regardless"
    r"|all the same)\b"
    r"|现在就|马上|立刻|立即|赶紧|也没关系|无所谓|反正"
)
# "... nobody called, transfer me again now", "上次转人工没人管 转人工", "再给我转一次": a new
# transfer asked for beside the one made before
_TRANSFER_AGAIN = rx(
    r"(?<!don't )(?<!not )\btransfer me (?:again|now)\b"
    r"|\b(?:get|put|connect) me (?:to|with|through)\b"
    r"|转人工(?![^，。,.!?！？]{0,6}(?:那个|的单|单子|有人|没人|什么|怎么))|再(?:给我|帮我)?转|重新转|马上转"
    r"|现在就?转"
)
# "stop bugging me about complaints", "stop asking me about a ticket", "别再问我要不要开工单了"
_STOP_OFFERING = rx(
    r"\b(?:stop|quit|enough) (?:asking|offering|bugging|pestering|nagging)(?: me)?"
    r"(?: (?:about|with|if i want))? (?:a |any |the |another )?(?:tickets?|complaints?)\b"
    r"|别(?:再)?(?:问|提|推)(?:我)?(?:要不要)?(?:开|建|提交)?(?:工单|投诉)(?:了)?"
)
# "100200炸锅坏了，不用帮我处理", "just letting you know, no need to do anything": told, nothing
# asked for (to a question the bot asked, a no)
_TOLD_ONLY = rx(
    r"(?:不用|不需要|不必|无需|没让你)(?:帮我|给我|你们?)?(?:处理|管|弄|做什么|做任何事|跟进)(?:了|啦|哈)?"
    r"|只是(?:跟你们?|和你们?|给你们?)?(?:说|讲|反馈)一下"
    r"|\b(?:just )?letting you know\b|\bjust (?:so you know|fyi)\b|\bfyi\b"
    r"|\b(?:no need|you don'?t need|there'?s no need) (?:for you )?to do anything\b"
    r"|\bnothing (?:for you )?to do\b(?! with)"
)
_REMEDY_ASKED = rx(
    r"\b(?:replace|replacement|repair(?:ed)?|fix(?:ed)?|exchange|refund|send (?:me )?(?:a )?new)\b"
    r"|换(?:个|一个|新|货)|修|补发|维修|退款|退钱|工单|售后"
)
# "don't open a ticket", "不用提交工单": never a ticket, whatever else the message asks
# a complaint not made: refused ("I won't file a complaint", "我不投诉，只想知道…"), somebody
# else's ("my sister filed a complaint"), or one that waits on what may happen ("if 100683 is
# broken I'll complain", "要是再不到我就投诉"): no complaint ticket is offered for it
_COMPLAINT_NOT_MADE = rx(
    r"\b(?:won'?t|will not|wo not|don'?t want to|do not want to|not going to|i'?m not)"
    r" (?:\w+ )?(?:file |make |lodge |raise )?(?:a )?complain(?:t|ing)?\b"
    r"|(?:我)?(?:不|不想|不是要|不是|不打算|没打算|没想)(?:去)?投诉(?:你们)?"
    # "not a complaint, just curious: …": what is asked is no complaint
    r"|\bnot (?:a |really a )?complaint\b"
    r"|\b(?:my )?(?:sister|brother|friend|wife|husband|mum|mom|dad|colleague|neighbou?r)s?"
    r" (?:already )?(?:filed|made|lodged|raised|opened|sent) (?:a |the )?complaint\b"
    # "I can see a complaint was already opened about it": one made, told of
    r"|\b(?:a|the|my) complaint (?:was|has been|had been|is) (?:already )?"
    r"(?:opened|filed|made|lodged|raised|logged|created|open)\b"
    r"|(?:已经|之前)(?:有|开了?|提了?|建了?)(?:一个|个)?投诉(?:了)?(?!吗|么|没)"
    r"|\bif\b[^.?!]{0,40}\b(?:i'?ll|i will|i'?m going to|i'?d) (?:\w+ )?complain\b"
    r"|(?:要是|如果|假如|再)[^，。,.!?！？]{0,16}(?:我)?就(?:要)?投诉"
)
# "the thermos was broken but it's fine now", "保温杯之前坏了，现在好了": a fault gone — no
# ticket is offered for it
_FAULT_RESOLVED = rx(
    r"\b(?:it'?s|its|it is|it'?s working|it works|works) (?:fine|ok|okay|working|good|all good"
    r"|again) now\b|\bi think it'?s (?:fine|ok|okay|working)\b|\b(?:fixed|sorted) it myself\b"
    r"|现在(?:又)?好了|现在(?:又)?(?:能用|正常)了|已经好了|(?:又|已经)能用了|自己修好了"
)
# "…, keep the rest", "but keep the air fryer out of it", "空气炸锅我留着": what a refund beside
# it leaves out (the refund's own words say so), no request of its own
_THING_KEPT = rx(
    r"^\W*(?:(?:but|and|so|i'?ll|i will|i'?m|i am|i)\s+)*(?:keep|keeping|hold on to|leave)\b"
    r"(?![^.?!]{0,30}\b(?:refund|cancel|return)\b)"
    r"|^[^，。,.!?！？]{1,12}?(?:我)?(?:留着|保留|不退)(?:吧|了)?\W*$"
)
# "refund 100200, I don't want a replacement", "不要换货": no after-sales ticket for it
_REPLACEMENT_REFUSED = rx(
    r"\b(?:i\s+)?(?:don'?t|do not|dont)\s+(?:want|need)\s+(?:a\s+|an\s+|any\s+|another\s+)?"
    r"(?:new\s+one|replacement|exchange|swap|repair)s?\b"
    r"|\bno\s+(?:replacement|exchange|swap|repair)s?(?:\s+(?:please|pls|needed|thanks))?\b"
    r"|\bnot\s+(?:a\s+)?(?:replacement|exchange)\b"
    r"|(?:不要|不用|不想|不需要|别)(?:给我)?(?:换货|换新的?|换一个|换个新的?|换(?=[，,。\s]|$)|补发|维修)"
    # "退款100200，换货现在不用了": the replacement said after, not wanted
    r"|(?:换货|换新|补发|维修)(?:就|现在|暂时|先|也|都)?(?:不用|不要|不需要)了?"
    # (not "我要换货不要退款": the replacement wanted, the refund not)
    r"(?![^，。,.!?！？\s]{0,2}(?:退|钱))"
)
_TICKET_NEGATED = rx(
    r"\b(?:don'?t|do not|no need to|not|never)\s+(?:want to\s+|need to\s+)?"
    r"(?:open|file|create|raise|submit|log)\s+(?:a\s+|an\s+|any\s+)?(?:new\s+|more\s+|other\s+"
    r"|another\s+)?(?:support\s+)?(?:ticket|complaint)"
    # "I was going to file a ticket for 100200 but it's fixed", "本来想开个工单…后来发现没碎"
    r"|\b(?:was|were) (?:going|about|gonna|planning) to (?:file|open|create|raise|submit|log) "
    r"(?:a |an )?(?:ticket|complaint)\b[^.!?]{0,60}\bbut\b"
    r"|本来(?:想|要|打算)[^，。!?！？]{0,12}(?:工单|投诉|报修)[^。!?！？]{0,30}(?:后来|结果|但是|不过|现在)"
    r"|\b(?:don'?t|do not|dont)\s+(?:want|need)\s+(?:a\s+|any\s+|another\s+)?(?:support\s+)?ticket"
    r"|\bno need for (?:a |any |another )?(?:support )?(?:ticket|complaint)(?: or (?:a )?refund)?"
    r"|\bno ticket(?: needed| please)?\b|\bno need to file\b"
    r"|(?:不用|不要|别|不想|不需要|没必要)\s*(?:再|又)?\s*(?:给我|帮我)?\s*(?:再|又)?\s*(?:新|重新|另|多)?"
    r"\s*(?:提交|开|建|创建|提)?\s*(?:个|一个)?(?:新的?|另一个)?"
    r"工单"
    # "我之前开过工单了，别再开了", "能不能别让我开工单"
    r"|(?:别|不要|不用)再开(?:了|新的|一个)|(?:别|不要)让我[^，。,.!?！？]{0,4}工单"
    r"|(?:不用|不要|别|不需要)给\d{6}[^，。,.!?！？]{0,3}(?:开|建|提交)[^，。,.!?！？]{0,3}工单"
    r"|(?:撤|撤回|撤销|取消)(?:了|掉)?\s*(?:我的|那个)?(?:投诉|工单)|(?:投诉|工单).{0,3}(?:撤|不用了|算了)"
    r"|\b(?:withdraw|cancel|drop)\s+(?:my\s+|the\s+)?complaint"
    # "算了 先不报修了": no repair asked for (yet)
    r"|(?:先|暂时)?不(?:用|要)?(?:报修|报售后|修)了|(?:不用|不要|不需要|没必要)(?:做|走|报)?售后"
)
_TRACKING = rx(
    r"\b(?:(?<!lost )(?<!lose )(?<!losing )(?<!keep )(?<!keeping )track(?:ing)?|traking|trakcing"
    r"|courier|carrier|is it (?:coming|arriving|getting here) today|"
    r"shipping status|delivery status|shipment status|"
    r"in transit|out for delivery|waybill|eta)\b"
    # "I want to know why it's stuck", "why is my parcel not moving"
    r"|\bwhy (?:is |'s )?(?:it|my (?:parcel|package|order|delivery)|the (?:parcel|package))"
    r"(?:'s| is)? (?:still )?(?:stuck|not moving|not updating|delayed)\b"
    r"|为(?:什么|啥)(?:还)?(?:卡住|卡着|不动|没动|一直不动)"
    r"|\bwhere(?:'?s| is| are| r)\s+(?:is |are )?(?:my |the |this |that |our )?"
    r"(?:order|package|parcel|shipment|delivery|stuff|items?|goods|box|purchase|headphones|it|they)\b"
    r"|\bwhere(?:'?s| is)\s+(?:order\s+|#)?\d{6}\b|\bparcels\b"
    # "could you check where my screen protector parcel is": the question inside a request
    r"|\bwhere (?:my|the|our) (?:[a-z0-9-]+ ){0,3}(?:order|package|parcel|shipment|delivery"
    r"|stuff|items?|box|purchase)s? (?:is|are|has got(?:ten)?|went)\b"
    r"|\bwhere(?:'?s| is| are)\s+the\s+[a-z]+(?:\s+[a-z]+)?\s+(?:i|we)\s+(?:ordered|bought)\b"
    r"|\bwhere (?:the hell|the heck|on earth|tf) (?:is|are)\b"
    # "where is my rice cooker": a product bought, looked up by name (not a refund or a form)
    r"|\bwhere(?:'?s| is| are| r)\s+my\s+(?!refund|money|ticket|complaint|invoice|receipt|account"
    r"|points|voucher|credit|coupon)[a-z\u3400-\u9fff]"
    # "two things: where's the screen protector, and …": a thing bought, named and nothing more
    r"|\bwhere(?:'?s| is| are| r)\s+the\s+(?!refund|money|ticket|complaint|invoice|receipt|store"
    r"|shop|office|warehouse|button|link|page|app|option|setting|form|policy|hotline|number"
    r"|problem|issue|nearest|closest|rest|second|first|third|other|remaining|last|one|ones"
    r"|others)[a-z]+(?: [a-z]+)?(?: now| at| right now)?\W*$"
    # "I ordered headphones last week and they still haven't arrived"
    r"|\b(?:has|have)n'?t (?:even |yet )?(?:arrived|come|been delivered|turned up|shown up)\b"
    # "my screen protector still isnt here", "not here yet", "still no sign of my parcel"
    r"|\bstill (?:is ?n'?t |isnt |is not |are ?n'?t |arent |not )(?:here|arrived|delivered)\b"
    r"|\b(?:is ?n'?t|isnt|is not|not|are ?n'?t|arent) (?:here|arrived|delivered) yet\b"
    r"|\b(?:still )?no sign of (?:my|the|it|them)\b"
    r"|\b(?:is|has) (?:it|my [a-z ]{2,20}|the (?:parcel|package)|(?:parcel|package) \d{6})"
    r" (?:been )?mov(?:ing|ed)\b|\bmoving at all\b|\bsigned for\b|签收了(?:吗|没)"
    # "did the pillow get delivered?", "has my order arrived yet?"
    r"|\b(?:did|has|have) (?:the|my|our|order|it|they|\d{6})\b[^.?!,]{0,30}"
    r"\b(?:get delivered|been delivered|arrived?|get here|come yet)\b"
    r"|物流|快递(?!费)|到哪(?!一步|个阶段|个环节|一环)|在哪|运单|(?<!订)单号|配送进度|派送|送到哪|发到哪|跟踪|查件"
    r"|包裹(?![^，。,.!?！？]{0,3}(?:费|单))"
)
_ARRIVE = rx(
    r"\bwhen (?:will|would|does|do|is|should|can|might)\s+(?:it|they|this|that|my \w+|the \w+|"
    r"order \d+|i)\s*(?:\w+\s+)?(?:arrive|get here|be delivered|be here|come|reach|receive|get it)"
    r"|\bhow (?:soon|quickly|fast)\b[^.?!,]{0,24}?\b(?:arrive|get here|be delivered|be here"
    r"|come|reach me)\b"
    r"|\barriv(?:e|al)\b|\bdeliver(?:ed|y) date\b"
    # "just tell me when the parcel comes"
    r"|\bwhen (?:my|the) (?:parcel|package|order|stuff|delivery) (?:comes|gets here|will (?:come"
    r"|get here))\b"
    r"|什么时候到|何时到|多久(?:能|可以|才)?到|几天(?:能|可以|才)?到|啥时候到|什么时候能到|什么时候送到"
    r"|多久送到|什么时候(?:能)?收到|多久(?:能)?收到|几号到|哪天到|什么时候能送到|多久能送到"
    r"|到齐|没送到|没送来"
    r"|\b(?:everything|all of it|both parcels?|all (?:the )?items?)"
    r" (?:arrived|came|delivered)\b"
)
_SHIP_WHEN = rx(
    r"\bwhen (?:will|do|does|would) (?:you|it|they|my order|the order) (?:be )?ship(?:ped)?\b"
    # "when does 100998 ship", "when does my first one ship"
    r"|\bwhen (?:will|do|does|would|is|are)\b[^.?!,]{0,24}?\b(?:be )?ship(?:ped|ping|s)?\b"
    r"|\bwhen (?:it|they|that|this one|\d{6}) ships?\b"
    # "how soon does 100904 ship once I pay", "how quickly will my order go out"
    r"|\bhow (?:soon|quickly|fast|long (?:until|till|before))\b[^.?!,]{0,24}?\b"
    r"(?:ship(?:ped|s)?|go(?:es)? out|(?:be |get |gets )?(?:sent|dispatched)|dispatch(?:es)?)\b"
    r"|多久发货|什么时候发货|几天发货|何时发货|啥时候发货|什么时候发"
)
# "which one is that?", "哪个订单？", "是哪个单来着": the order the bot spoke of, asked
_WHICH_ORDER_TEXT = (
    r"\bwhich (?:order|one) (?:is|was) (?:that|it|this)\b"
    r"|是哪(?:个|一个|一)(?:订单|单)|^\W*哪(?:个|一个)(?:订单|单)(?:啊|呀|来着)?\W*$"
)
_WHICH_ORDER = rx(_WHICH_ORDER_TEXT)
_ORDER_STATUS = rx(
    r"\b(?:status|shipped|ship(?:ping)? yet|dispatched|(?:been )?sent out|left the warehouse|"
    r"still (?:held|reserved|on hold|valid)|(?:peek|glance|have a look|take a look) at (?:my|the)"
    r" [a-z0-9 '-]{0,20}order|"
    r"not (?:yet )?(?:been )?(?:shipped|received|arrived|delivered)|"
    # "was my pillow and steamer order delivered?", "has order 100452 been shipped?"
    r"(?:was|were|has|have|is|are) (?:it|they|my [a-z0-9 '-]{1,30}?|the [a-z0-9 '-]{1,30}?|"
    r"that order|order #?\d{6}) (?:been |already |actually |both |all )*"
    r"(?:delivered|shipped|dispatched"
    # "was that order cancelled properly?": whether it was, asked
    r"|cancel+ed (?:properly|correctly|at all|successfully|really))|"
    r"hasn'?t (?:been )?(?:shipped|arrived|come|delivered|been delivered)|"
    r"haven'?t (?:received|got(?:ten)?)|didn'?t (?:receive|get|arrive|come)|still waiting|"
    r"what(?:'?s| is) (?:up|happening|going on) with|check (?:on )?(?:my |the |an? )?order|"
    r"order (?:details?|info(?:rmation)?)|look up (?:my |the )?order|delayed|"
    r"late(?! lol| haha| lmao)|"
    r"what(?: was| is|'s|s) (?:in|inside) "
    r"(?:it|there|the order|my order|that order|(?:order )?#?\d{6}"
    # "what's in the phone order exactly": an order named by a thing in it
    r"|(?:the|my|that) [a-z0-9 '-]{1,30}? order)|"
    r"what did (?:it|the order|that order) (?:have|contain)"
    # "is the camera in that order too?", "摄像头也在那单里吧": what the order holds, asked
    r"|(?:is|was|are|were) (?:the|my) [a-z0-9 '-]{2,30}? (?:also |too )?(?:in|part of) "
    r"(?:that|this|the same|the|my) (?:[a-z0-9'-]+ )?order)\b|"
    r"(?:也|都|是不是)?在(?:那|这|同一)(?:个)?(?:单|订单)里(?:面)?(?:吧|吗|么|嘛|是吧|对吧)|"
    + _WHICH_ORDER_TEXT
    + r"|状态|发货|没收到|未收到|没到|还没到|怎么样了|进度|情况|详情|到了吗|收到了吗|签收|延迟|慢"
    r"|还没发(?:出|走)?(?:吧|吗|呢|么)"
    r"|查一下订单"
    r"|(?<!处理)(?<!受理)到哪一步|(?<!处理)哪个阶段|哪个环节"
    r"|帮我催|催一下|催催|催单|催促"
    # "那单当时一共付了多少", "how much did I pay for it", "为啥一直显示待付款", "我是不是没付成功"
    r"|(?:一共|总共|当时)?(?:付了|花了)多少|\bhow much did (?:i|we) pay\b"
    r"|显示(?:待付款|已取消|未付款|已发货)"
    r"|(?:没|未)(?:付|支付)成功|付款成功了吗|\bdid (?:my|the) payment go through\b"
    # "能不能快点", "快点发货": hurrying an order along is asking where it is (the reply says
    # what state it is in and offers a person)
    r"|能不能快点|能快点吗|可以快点吗|快点发货|快点发|快点送|快一点发"
    # "100998发了没", "寄出去了吗": has it shipped
    r"|发(?:出去?)?了(?:没|吗|么)|发没发|寄出(?:去)?了(?:没|吗|么)"
    r"|查订单|查询订单"
    # "What happened to my scarf order?": the order's state, asked
    r"|\bwhat(?:'s| has)? happened (?:to|with) (?:my|the|that|our) [a-z0-9 '-]{0,30}?"
    r"(?:order|purchase)\b"
)
_STOCK = rx(
    r"\b(?:in stock|stock|available|availability|have any(?! idea)|restock(?:ed|ing)?|"
    r"back in stock|"
    r"sold out|out of stock|inventory|how many (?:are |do you have )?left|cost|"
    # "do you price match": a price policy, not a product's price
    r"prices?(?! match| protect| guarantee| adjust)|"
    # "do u have an email address i can write to": a way to reach the shop, not a product
    r"do (?:you|u|ya) (?:guys |still )?(?:have|sell|carry|stock|got)(?! (?:any )?idea| my"
    r"| (?:an? |any )?(?:e-?mail|phone number|phone line|number|address|website|app|office"
    r"|store|shop|wechat"
    r"|account|live chat)\b)|"
    r"got any|how much (?:is|are|does|do|for)(?! (?:order|my|the order|shipping|delivery))|"
    r"(?:you|u) sell|coming back|back yet|how much (?:r|are|is)|(?:you|u) (?:guys )?(?:even )?sell"
    r"|\bgo(?:es)? for\b|\blooking for (?:a|an|some)\b|cheapest|priciest"
    r"|which warehouses? (?:have|has|stocks?|carr(?:y|ies))|still (?:sold|for sale|being sold)"
    r"|when (?:will|is|are|does) (?:it|they|that|this)[^?.]{0,20} back)\b"
    r"|有货|有没有货|有库存|库存|现货|缺货|没货|还有吗|还有没有|有吗|补货|(?<!收)到货|卖完|售罄|能买|可以买"
    r"|还剩|多少钱|价格|价钱|什么价|啥价|有卖|卖.{0,12}吗|还卖|(?:什么时候|啥时候|何时)补"
    # "保温杯有几种颜色", "有哪些尺码": what the shop has of a thing
    r"|有(?:几种|几个|几款|哪些|哪几种|什么|啥)(?:颜色|款式|尺码|尺寸|型号|规格|颜色可选)"
    # "没有的话香薰蜡烛也行", "if not whats the priciest camera you've got": another thing
    r"|(?:没有的话|没的话|不然的话).{1,12}(?:也行|也可以|也好)|\byou'?ve got\b"
    r"|有没有(?!人|可能|良心|优惠|办法|邮箱|电话|微信|联系|地址|门店|实体店|网站|公众号|活动|满减|促销|折扣|券)"
)
# "有加湿器吗", "冲锋衣有XL吗", "手机壳有透明的吗": whether the shop has a thing (a product
# search), not a problem, an offer, a document or a person
_HAVE_THING = rx(
    r"有(?!问题|优惠|活动|发票|保修|质保|客服|人|电话|工单|运费|办法|可能|什么|时间|空|效|用|事|进展|更新"
    r"|消息|物流|记录|折扣|赠品|券|礼品|售后|门店|实体店|邮箱|微信|地址|网站|会员|积分)"
    r"[\u4e00-\u9fffa-z0-9 ]{1,12}?的?[吗嘛](?=\W|$)"
)
# "成都仓的降噪耳机还有多少": how many of a product are left (of an order: its refunds, above)
_HOW_MANY_LEFT = rx(r"还有多少|还剩多少|有多少(?:件|个|台|只)")
# "钢化膜什么时候到啊": the thing named first, then when it arrives (a thing bought, looked up)
# "when will my parcel come": the customer's own delivery, not the delivery-times policy
_MY_PARCEL = rx(r"\bmy (?:parcel|package|delivery|stuff|things)\b|\bthe (?:parcel|package)\b")
_IF_BOUGHT = rx(r"\bif (?:i|we) (?:order|buy|get|pay)\b|如果(?:现在|今天)?(?:下单|买)")
_THING_ARRIVES = rx(
    r"^[^\w\u3400-\u9fff]*(?:我的|我买的|买的)?[\u4e00-\u9fff]{2,8}?(?:什么时候|啥时候|何时)(?:能|才)?(?:到|送到)(?!货)"
    # "since the screen protector was supposed to arrive on Oct 31": a thing bought, late
    r"|\b(?:the|my) [a-z][a-z' -]{1,30}? (?:was|were|is|are) (?:supposed|meant|due|expected"
    r"|promised) to (?:arrive|come|get here|be (?:delivered|here))\b"
)
# "(i) want a ...", "need a decent ...", "looking for something warm": a thing to buy
_WANT_A_THING = rx(
    r"^\W*(?:(?:so|now|and|also|ok|okay)\W+)*(?:i |we |i'?m |im )?(?:really |also |just )?"
    r"(?:want|need|looking for|searching for|wanna get|want to (?:buy|get)|need to (?:buy|get)"
    r"|would like|'d like)\s+(?:a |an |some |something |new |a new |a decent |a good |a cheap )"
    r"(?!refund|human|person|agent|invoice|receipt|ticket|word|call|callback|update|answer)"
    # "我想买那个扫地机器人", "想找个能烧水的", "打算买件羽绒服"
    r"|(?:想买|要买|想要|想找|想入|打算买|准备买|需要)(?:个|一个|一台|一件|件|台|条|双|那个|这个|点)"
    r"(?!人|客服|退|发票|工单|说法)"
)
# what comes back that is not a product on sale ("if my parcel is back", "when is my money back")
_NOT_GOODS = rx(
    r"\b(?:parcel|package|order|delivery|refund|money|payment)s?\b|快递|包裹|订单|退款|钱"
)
_RESTOCK_WHEN = rx(
    r"(?:什么时候|啥时候|何时|几号|哪天)(?:能|会|才|可以)?(?:到货|有货|补货|上架)"
    r"|\bwhen (?:are|is|will) (?:the |your )?[a-z0-9 '-]{2,30}? (?:be )?back\b(?! to)"
    r"|\bwhen (?:the |your )?[a-z0-9 '-]{2,30}? (?:are|is|will be|come|comes) back\b(?! to)"
    r"|\b(?:if|whether) (?:the |your )?[a-z0-9 '-]{2,30}? (?:are|is|r) (?:back|restocked)\b(?! to)"
)
# "any silk pyjamas left", "what would you recommend", "想给我爸买个手环 有啥": a product, asked
_PRODUCT_ASKED = rx(
    r"\bany\b[a-z0-9 '-]{2,30}?\bleft\b|\b(?:what|which) (?:would|do|can) you recommend\b"
    # "anything that gets wrinkles out of shirts", "something to keep soup hot", "got anything?"
    r"|\b(?:got|have you got|do you (?:have|sell)) anything\b|\banything (?:that|to|for)\b"
    r"|\bsomething (?:to|for|that)\b|\bwhat do you have\b|\bgift (?:idea|for)\b"
    r"|有(?:啥|什么)(?:推荐|好的|合适的)?(?:吗)?$|有合适的|有没有能"
    r"|\brecommend (?:me )?(?:a|an|some)\b|推荐(?:一下|下|个)?"
    r"|(?:买|要)(?:个|一个|一台|一件)[\u4e00-\u9fff]{2,6}\s*有啥"
    # "any cheap gloves that work with phone screens", "any warm hats?": things asked for
    r"|^\W*(?:and |also |so )?any (?:cheap |cheaper |good |decent |nice |warm |small |big |other )*"
    r"(?!(?:update|news|word|progress|chance|luck|way|idea|help|ticket|order|refund|reply|answer"
    r"|problem|issue|info|discount|coupon|sale|one|body|thing)s?\b)[a-z][a-z-]{2,20}s"
    r"(?: that| for| with| under| in|\?|$)"
)
_WHICH_ORDERS = rx(
    r"\b(?:which|what|any) (?:of )?(?:my )?orders\b|哪些订单|哪几个订单|哪几单|哪些单"
    # "我有哪些订单是可以退款的": the list, each with its state, to pick from
    r"|哪些(?:订单|单)?(?:是)?(?:还)?(?:可以|能)(?:退款|退|取消)"
    r"|有没有(?:还)?(?:没|未)(?:付款|付钱|发货|收到)的(?:单子|订单)"
    r"|哪(?:个|一个|单|一单|笔)(?:订单|单子)?(?:还)?(?:没|未)(?:付款|付钱|付|发货)"
)
# "do I have anything that hasn't been delivered yet?", "where my stuff is, all of it": every
# order's state, asked
_ALL_OF_MINE = rx(
    r"\b(?:do i have|have i got|do i still have|is there) anything (?:of mine )?(?:that )?"
    r"(?:hasn'?t|has not|not yet|still|on its way)\b"
    r"|\b(?:where|wheres|where's) (?:all )?my (?:stuff|things|orders|parcels) (?:is|are)?,? all of"
    r" (?:it|them)\b"
    # "I bought an air fryer in August and another last week - which of them shipped?", "我买过
    # 两次空气炸锅，哪一单已经发货了": each order's state, to tell them apart
    r"|\bwhich (?:of them|of those|one)\b[^.?!]{0,30}"
    r"\b(?:shipped|arrived|delivered|came|been sent)\b"
    r"|(?:哪一单|哪个订单|哪单)[^，。,.!?！？]{0,6}(?:发货|到了|签收|发了|寄出)"
)
# "我最近一单是啥", "what was my last order": the list, newest first
_LATEST_ORDER_ASKED = rx(
    r"(?:最近|上)(?:的)?(?:一单|一个订单|那单|那个订单)(?:是|买的是|买了)(?:啥|什么)"
    r"|\bwhat (?:was|is|'s) (?:my|the) (?:latest|last|most recent) order\b"
)
_LIST_ORDERS = rx(
    r"\bmy (?:last|recent|past|previous) (?:few |couple of |two |three |\d+ )?orders\b|"
    r"\bmy orders\b|\b(?:which|what|any) (?:of )?(?:my )?orders\b|哪几个订单|哪几单|哪些单"
    r"|^\W*(?:my |all )?orders"
    + TO_END
    + r"|\b(?:all|recent|past|previous|list(?: of)?|show(?: me)?|see) "
    r"(?:my |all |of my )?orders\b|\border (?:history|list)\b|\bpurchase history\b"
    r"|\bwhat (?:did|have) i (?:order|ordered|buy|bought)\b|\bmy (?:recent |past )?purchases\b"
    # "I lost all my order numbers", "what are my order numbers", "忘了订单号"
    r"|\b(?:lost|forgot|forgotten|don'?t (?:know|have|remember)) (?:all )?(?:of )?my order"
    r" (?:numbers|ids)\b"
    r"|\bwhat are my order (?:numbers|ids)\b|(?:忘了|忘记|不记得|找不到)(?:我的)?订单号"
    # "what's my latest order", "which was my last order"
    r"|\b(?:what'?s|what is|what was|which is|which was|show me) my (?:latest|last|most recent"
    r"|newest|recent) order\b"
    r"|订单列表|所有订单|全部订单|哪些订单|订单有哪些|历史订单|最近的订单|最近订单|几个订单|订单记录"
    # "我有没有还没付款的单子", "any unpaid orders?"
    r"|有没有(?:还)?(?:没|未)(?:付款|付钱|发货|收到)的(?:单子|订单)"
    r"|哪(?:个|一个|单|一单|笔)(?:订单|单子)?(?:还)?(?:没|未)(?:付款|付钱|付|发货)"
    r"|\bany (?:unpaid|unshipped|open) orders\b"
    r"|\bdo i have anything (?:that )?(?:hasn'?t|has not|isn'?t) (?:been |yet )?"
    r"(?:delivered|arrived|shipped)\b"
    r"|所有的订单|全部的订单|订单都列|最近买了(?:啥|什么|哪些)|买过(?:啥|什么|哪些)|我买了(?:啥|什么|哪些)"
    r"|^[^\w\u3400-\u9fff]*(?:查看?|查询|看看|看一下|查一下)?\s*我的(?:所有)?订单" + TO_END
)
_HOW_TO = rx(r"怎么|怎样|如何|流程|\bhow (?:do|does|can|to)\b|\bprocess\b")
_QUESTIONISH = rx(r"吗|呢|\bcan\b|\bcould\b|\bis\b|\bwill\b|\bhow\b|\bwhat\b")


def _named_action(words: str) -> str:
    """The action a confirmation names ("确认取消": ``cancel``, "确认退款": ``refund``), or ""."""
    if _CANCEL.search(words):
        return "cancel"
    if _TICKET_NAMED.search(words):
        return "ticket"  # "ok then open a ticket for it", "好，开工单吧"
    # "那退吧", "退掉吧" to a question: the refund verb alone
    return "refund" if _REFUND.search(words) or _REFUND_VERB.search(words) else ""


_TICKET_NAMED = rx(r"\b(?:ticket|complaint)\b|工单|售后单|投诉")


_REFUND_VERB = rx(r"(?<![不别没])退(?![货换回出订])|\brefund|" + _COMPENSATE_ME)


@dataclass(frozen=True, slots=True)
class _Match:
    intent: Kind
    topic: str | None = None
    ack: bool = False
    verb: str = ""
    """For a confirmation with nothing pending: the action it names ("确认取消": ``cancel``)."""


_A_PLACE = rx(
    r"\b(?:place|restaurant|cafe|bar|hotel|hospital|gym|school)s? (?:nearby|near me|around here)\b"
    r"|附近(?:的|有)?(?:什么)?(?:好吃的|餐厅|饭店|馆子|酒店|医院)"
)


_PAYMENT_STATE_ASKED = rx(
    r"是不是(?:还)?没(?:付|付款|付钱|支付)|(?:付|付款|付钱|支付)了(?:没|吗|么|嘛)"
    r"|有没有(?:付|付款|付钱|支付)|\b(?:did|have|has) (?:i|we) (?:already |even )?(?:paid|pay)\b"
    r"|\b(?:is|was) (?:it|my|the|that)\b[^.?!]{0,30}\b(?:paid|unpaid|paid for)\b"
)


_WHAT_IF_AFTER_A_WRITE = rx(
    r"^\W*(?:那)?(?:要是|如果|万一|假如)[^，。,.!?！？]{0,6}(?:退|取消)[^，。,.!?！？]{0,16}"
    r"(?:咋办|怎么办|怎么处理|会怎么样|会怎样|怎么算)"
    r"|\bwhat (?:happens|if)\b[^.?!]{0,30}\b(?:refund|cancel)\w*\b[^.?!]{0,40}"
    r"\b(?:arrives?|comes?|shows? up|delivered|ships?)\b"
)


def _classify(norm: str, ents: Entities, *, has_order_ctx: bool, awaiting: bool) -> _Match | None:
    """The single best intent for one clause, by template priority; None if nothing matches.

    A write read from a clause that asks a wh-question and asks for nothing ("what can i still
    claim on each", "how cancelling works", "100181为什么是取消状态", "电子产品坏了能保几年") is a
    question about the write: the order is shown, or the policy answers it."""
    if_not = _IF_NOT_THEN_DO.match(norm)
    if if_not:
        # "did I already cancel 100904? if not cancel it": the write asked for if it was not
        # done (never "not cancel"); the order is the one asked after
        norm = norm[if_not.end() :]
        ents = extract_entities(norm)
    reason = _REASON_GIVEN.search(norm)
    if reason and norm[: reason.start()].strip(STRIP):
        # "金额866，原因：净化器噪音太大": the reason of the request, not a request of its own
        norm = norm[: reason.start()]
        ents = extract_entities(norm)
    found = _classify_clause(norm, ents, has_order_ctx=has_order_ctx, awaiting=awaiting)
    if found is None and price_cap(norm)[0] is not None and product_query(norm):
        # "earphones under 500?", "一百以内的鼠标有吗": products within a budget, asked
        return _Match(ShopIntent.STOCK)
    if (
        found is not None
        and found.topic == "delivery_times"
        and _STATES_DELIVERY.search(norm)
        and not _ASKS_WHERE.search(norm)
    ):
        # "the screen protector was meant to arrive on the 31st and it's still in chengdu": a
        # late delivery told, not how long deliveries take asked — its state is looked at
        return _Match(ShopIntent.TRACKING)
    if (
        found is not None
        and (found.topic == "refund_time" or found.intent is ShopIntent.ORDER_STATUS)
        and _MONEY_ON_CANCEL.search(norm)
    ):
        # "what happens to my money if I cancel 100998?", "取消100998的话是全额退吗": what a
        # cancel does with the money paid, the cancel policy (paid orders: all of it, back the
        # way it was paid)
        return _Match(ShopIntent.FAQ, topic="cancel_order")
    if (
        found is not None
        and found.intent in (ShopIntent.TRACKING, ShopIntent.ORDER_STATUS)
        and not ents.order_ids
        and _WHAT_IF_AFTER_A_WRITE.search(norm)
    ):
        # "要是退了之后快递又到了咋办": what happens then, asked — the policy, not the parcel
        cancel = re.search(r"取消|cancel", norm) is not None
        return _Match(ShopIntent.FAQ, topic="cancel_order" if cancel else "returns")
    if (found is None or found.topic == "delivery_times") and _MY_THING_SHIPS.search(norm):
        # "when does my phone ship", "之前那台什么时候发": the order of a thing bought (looked up
        # by what it is, or by the thing the message names beside it), not the shipping policy
        return _Match(ShopIntent.ORDER_STATUS)
    if _vents_about_delivery(norm, ents, found) and not _STATES_DELIVERY.search(norm):
        # "什么破快递", "你们这物流也太慢了吧": the delivery named to say how bad it is, not asked
        # about — a complaint (acknowledged, a ticket offered); a look beside it answers the state
        return _Match(ShopIntent.CREATE_TICKET, verb=_VENTED)
    if found is None and _PAYMENT_STATE_ASKED.search(norm) and describes_an_order(norm):
        # "炸锅那个订单是不是还没付", "is my air fryer order paid?": that order's state
        return _Match(ShopIntent.ORDER_STATUS)
    if found is None or found.intent not in _WRITES_ASKED_ABOUT:
        return found
    if (
        found.intent is not ShopIntent.CREATE_TICKET
        and _ASKED_IF_DONE.search(norm)
        and not REQUESTS.search(norm)
        and not _IF_NOT_DONE.search(norm)
    ):
        # "did I already cancel 100904?", "did you cancel 100998?", "did I refund 100200
        # already?": whether it was done, asked — the order shows it; nothing is offered
        if ents.order_ids or has_order_ctx:
            return _Match(ShopIntent.ORDER_STATUS)
        return _Match(ShopIntent.LIST_ORDERS)
    if not (_asks_not_requests(norm) or _CHECK_WHETHER.search(norm)):
        return found
    if found.intent is ShopIntent.CANCEL_ORDER and _MONEY_ON_CANCEL.search(norm):
        return _Match(ShopIntent.FAQ, topic="cancel_order")  # "if i cancel … how fast … back"
    if ents.order_ids or (has_order_ctx and found.intent is not ShopIntent.CREATE_TICKET):
        return _Match(ShopIntent.ORDER_STATUS)
    return _Match(ShopIntent.FAQ, topic=ents.faq_topic or _WRITE_POLICY[found.intent])


# when a thing of the customer's ships ("when does my first one ship", "我的手机啥时候发货")
_MY_THING_SHIPS = rx(
    r"\bmy (?:first |other |last )?(?!order\b|orders\b|stuff\b|package\b|parcel\b)[a-z]+"
    r"(?: [a-z]+)?\b[^.?!]{0,12}\bship"
    r"|(?:我的|我买的|之前(?:那|买的)|我那)[^，。,.!?！？]{1,8}(?:什么时候|啥时候|几时|何时|几号)(?:能)?发"
    # "tell me if the monitor ships this week"
    r"|\b(?:if|whether|when) (?:the|my) (?!order\b|orders\b|package\b|parcel\b)[a-z]+"
    r"(?: [a-z]+)? (?:ships|has shipped|will ship|is shipping|gets shipped)\b"
    r"|\bwhen (?:does|will|is) (?:the|my) (?!order\b|orders\b|package\b|parcel\b)[a-z]+"
    r"(?: [a-z]+)? (?:ship|be shipped|go out)\b"
    # "显示器啥时候发": a thing, then when it ships (not "你们什么时候发货": the policy)
    r"|^\W*(?!你们|我们|你|我|他|她|它|这|那|一般|平时|通常|每天|周末|今天|明天)"
    r"(?![\u4e00-\u9fff]{0,4}(?:大概|大约|预计|估计|最快|最晚|到底|究竟|改完|请问|一般|通常|平时))"
    r"[\u4e00-\u9fff]{2,6}"
    r"(?:什么时候|啥时候|几时|何时|几号)(?:能)?发(?:货)?(?:呀|啊|呢|吗)?\W*$"
)
# the money of an order cancelled, asked about ("is my money safe if I cancel?", "取消的话是全额
# 退吗")
_MONEY_ON_CANCEL = rx(
    r"\b(?:if|when|once) (?:i|we) cancel\b[^.?!]{0,40}\b(?:money|refund\w*|back|full|fee)\b"
    r"|\b(?:money|refund\w*)\b[^.?!]{0,30}\b(?:if|when|once) (?:i|we) cancel\b"
    r"|取消(?:的话|了|后|之后)?[^，。,.!?！？]{0,8}(?:是|会|能)?(?:全额退|退全款|全退)(?:款)?(?:吗|么|嘛|不)"
)
# what the delivery did, stated ("一张膜寄了一周还没到", "it's STILL in Chengdu")
_STATES_DELIVERY = rx(
    r"没到|还没|没动|没收到|在路上|还在|不动|"
    r"\b(?:still|stuck|hasn'?t (?:come|arrived|moved|shipped)|not (?:arrived|here)|late)\b"
)
_REASON_GIVEN = rx(r"(?:原因|理由)\s*[:：是]|\breason(?: is|:)")
# where or when a delivery is, asked ("到哪了", "when will it come"), or a look asked for
_ASKS_WHERE = rx(
    r"[?？]|\b(?:where|wheres|when|whens|status|track|eta|check|look|show|tell)\b"
    r"|哪|什么时候|啥时候|几时|何时|几号|几天|多久|进度|催|看|查|吗|呢|没有"
)


def _vents_about_delivery(norm: str, ents: Entities, found: _Match | None) -> bool:
    """A look read from unhappy words about the delivery that ask nothing and name nothing."""
    return (
        found is not None
        and found.intent in _LOOKS
        and bool(DISSATISFIED.search(norm))
        and not _ASKS_WHERE.search(norm)
        and not (ents.order_ids or ents.skus or ents.tracking_numbers)
    )


# "帮我看看100609还能不能退货", "check if 100998 can still be cancelled": whether, asked
_CHECK_WHETHER = rx(
    r"(?:看看|看下|看一下|查查|查下|查一下|确认下|确认一下)[^，。,.!?！？]{0,12}"
    r"(?:还能不能|能不能|可不可以|是否|能否|行不行)"
    r"|\bcheck (?:if|whether) (?:i|we|it|this|that|\d{6}|my order) (?:can|could|is|still)\b"
)
# "refund what's left on 100609", "取消那个还没付的": the write itself opens the clause
_WRITE_OPENING = rx(r"^\W*(?:please |pls |plz |just )?(?:refund|cancel)\b(?! (?:policy|fee))")
# "refund what's left on 100609", "please refund me what is left": the rest, asked for
_REFUND_WHATS_LEFT = rx(
    r"^\W*(?:please |pls |plz |just |ok |so )?refund (?:me )?(?:what'?s|what is|all that'?s)"
    r" (?:still )?(?:left|remaining|refundable)(?: (?:on|of|for) (?:order )?#?\d{6})?"
    r"(?: please| pls| too| as well)?[^\w\u3400-\u9fff]*$"
)
_IF_NOT_THEN_DO = rx(
    r"^\W*(?:(?:and|but|so)\s+)?(?:if not|if it (?:isn'?t|hasn'?t been|wasn'?t)|otherwise)\b"
    r"[\s,]*(?=(?:please\s+|pls\s+|just\s+|then\s+)?(?:cancel|refund)\b)"
    r"|^\W*(?:如果没有|没有的话|要是没有?|如果还没)[\s，,]*(?:的话)?[\s，,]*(?:就)?(?=(?:帮我)?(?:取消|退))"
)
# a cancel or refund asked after as done: "did I already cancel 100904?", "did the cancel of
# 100998 go through?"
_ASKED_IF_DONE = rx(
    r"^\W*(?:(?:and|so|hey|hi|um|uh|wait|ok|okay)\W+)*(?:did|have|has|had) "
    r"(?:i|we|you|u|y'?all|you guys|someone|anyone|they|it) (?:already |actually |ever |even "
    r"|really |just )?(?:cancel(?:l?ed)?|refund(?:ed)?|get cancel(?:l?ed)|been cancel(?:l?ed))\b"
    r"|\bdid (?:the|my|that|this) (?:cancel(?:lation)?|refund)\b[^.?!]{0,30}"
    r"\b(?:go through|work|happen|succeed|complete|get done)\b"
)
# "did I already cancel 100904? if not cancel it": the write asked for if it was not done
_IF_NOT_DONE = rx(
    r"\b(?:if not|if (?:it )?(?:hasn'?t|wasn'?t|isn'?t|didn'?t)|otherwise|and if not)\b"
    r"|如果没有|没有的话|要是没|不然"
)
_WRITES_ASKED_ABOUT = frozenset(
    {ShopIntent.CANCEL_ORDER, ShopIntent.REFUND, ShopIntent.CREATE_TICKET}
)
_WRITE_POLICY: dict[Kind, str] = {
    ShopIntent.CANCEL_ORDER: "cancel_order",
    ShopIntent.REFUND: "refund_time",
    ShopIntent.CREATE_TICKET: "returns",
}
# a question word asking what, why, how, when, which, how much or how long
_WH_QUESTION = rx(
    r"\b(?:how|hows|what|whats|why|whys|when|whens|which)\b|为什么|为啥|怎么|怎样|如何|什么|啥|哪"
    r"|多少|几[年天个次号点月周]|多久|多长时间|是不是|会不会"
)
# "can I cancel only the e-reader in 100803?", "能只取消里面的手表吗": a cancel of part of an
# order, asked about
_PART_CANCEL_ASKED = rx(
    r"\b(?:can|could|may) i (?:still )?cancel (?:only|just) (?:the|one|some|part)\b[^.!]{0,60}\?"
    r"|\b(?:can|could|may) i (?:still )?cancel (?:only|just) (?:the|one|some|part)\b[^.!?]{0,60}"
    r"\b(?:and|but) (?:still )?keep\b"
    r"|(?:能|可以|能不能|可不可以)只取消[^，。,.!?！？]{1,20}(?:吗|么|嘛)"
)
# "can I exchange an item for another colour?": whether the customer may, asked
_CAN_I = rx(r"\b(?:can|could|may) i\b")
# "what can i still claim", "how much can i get back": a question, whatever "can i" asks
_WH_CAN_I = rx(r"\b(?:what|how much|how|when|which)\s+(?:\w+\s+)?(?:can|could|may) i\b")
# "你们看怎么处理", "can someone sort this out": asking for it to be handled, not how it works
_HANDLE_IT = rx(
    r"怎么处理|怎么解决|给(?:个|我)?(?:说法|解决)|处理一下"
    r"|\bsort (?:this|it) out\b|\bfix (?:this|it)\b"
    r"|\bdeal with (?:this|it)\b|\bcan someone\b"
)


def _asks_not_requests(norm: str) -> bool:
    """A wh-question with no request words ("please", "can you", "帮我", an opening verb)."""
    return bool(
        _WH_QUESTION.search(norm)
        and not _WRITE_OPENING.search(norm)
        and not REQUESTS.search(blank(norm, _WH_CAN_I))
        and not IMPERATIVE.search(norm.strip())
        and not _EXPLICIT_TICKET.search(norm)
        and not _HANDOFF.search(norm)
        and not _HANDLE_IT.search(norm)
        # "the filter cover cracked, what now": help with the fault asked for (the ticket offer)
        and not _WHAT_NOW.search(norm)
    )


_WHAT_NOW = rx(r"\b(?:what now|now what)\W*$")


# "平底锅那单呢", "and the air fryer order?": an order named by what is in it, asked after alone
_ORDER_ASKED_AFTER = rx(
    r"^[\s,，.。]*(?:那|那么|还有|另外|and |what about |how about )?(?:the |my )?"
    r"(?![^那]*(?:换|退|取消|不要|要|买|cancel|refund|return|exchange|buy))"
    r"(?P<thing>[\u4e00-\u9fff]{1,8}|[a-z0-9' -]{2,24}?)(?:那单|那个订单|的订单|那笔订单|\s+order"
    r"|\s+(?P<parcel>parcel|package|delivery)|(?P<parcel_zh>的快递|那个快递|的包裹|那个包裹))"
    r"[\s?？!！.。,，~]*(?:呢)?[\s?？!！.。,，~]*"
    # "那浴巾那单呢 发了没": whether it shipped or came, asked of it
    r"(?:(?:发了没有?|发货了没有?|发了吗|发货了吗|到了没有?|到了吗|shipped yet|arrived yet)"
    r"[\s?？!！.。,，~]*)?$"
)


_GENERIC_ORDER = rx(
    r"我|我的|我们|我们的|你们|所有|全部|这个|那个|这|那|一个|上一个|最新|最近|my|our|the|this|that"
    r"|last|latest|recent|an?|other|another|previous|first|second|last|new|old"
)


def _asked_after_alone(norm: str) -> bool:
    """A whole message naming an order by what is in it, and asking nothing else of it."""
    found = _ORDER_ASKED_AFTER.match(norm)
    return bool(
        found
        # a thing named: "平底锅那单", "the monitor order" — not "my order", "我的订单"
        and not _GENERIC_ORDER.fullmatch(found.group("thing").strip())
        and not _WH_QUESTION.search(norm)
        and (describes_an_order(norm) or bool(found.group("parcel")))
        and not (_CANCEL.search(norm) or _REFUND.search(norm) or _TICKET.search(norm))
        and not (_HANDOFF.search(norm) or _RETURN_ACTION.search(norm) or _STOCK.search(norm))
    )


# "I talked to one of your agents last week and they said …", "之前人工客服说…": a person
# talked to before, told about — no transfer asked for
_CONTACTED_BEFORE = rx(
    r"\b(?:i |we )?(?:talked|spoke|chatted) (?:to|with) (?:one of )?(?:your |an? |the )?"
    r"(?:agents?|human|person|people|representatives?|staff|support|customer service)\b"
    r"(?= (?:last|yesterday|earlier|before|a few|on |the other|and (?:they|she|he) said|who))"
    r"|\b(?:one of )?your (?:agents?|representatives?|staff) (?:said|told me|promised)\b"
    r"|(?:之前|上次|昨天|前几天|上周)的?人工(?:客服)?(?:说|告诉我|答应)"
    r"|(?:之前|上次|昨天|前几天|上周)?有(?:个|位)客服(?:跟我)?(?:说|告诉我|答应)"
    r"|客服(?:之前|上次|昨天|刚才|前几天)(?:跟我)?(?:说|告诉我|答应)"
)


# "把餐具的钱退我": the money of a thing bought, the order holding it is the one meant
_MONEY_OF_A_THING = rx(
    r"把(?!我|你|他|她|这|那|剩|全|所有)(?![\u4e00-\u9fff]{0,8}(?:剩|余))[\u4e00-\u9fff]{2,8}的(?:钱|款)"
)


# "the screen protector cost 29", "it cost me 399": a price paid, told — not a price asked
_PRICE_TOLD = rx(r"\b(?:cost|costs|was)\s+(?:me\s+|us\s+|only\s+|just\s+)*(?:¥|rmb\s*)?\d")


_UNPAID_NOT_WANTED_SAID = rx(
    r"(?:那个|那|我)?(?:还)?(?:没付钱|没付款|没有付款|未付款|待付款|还没付)(?:的)?(?:那个|那单|的)?"
    r"(?:(?![不没别先暂])[\u4e00-\u9fff]){0,8}?(?:我)?(?:不要了|不想要了|不需要了)"
    r"|i (?:dont|don'?t|do not) (?:want|need) (?:the |my )?[a-z0-9 -]{2,30}? ?any ?more[,\s]*"
    r"(?:the one )?(?:i (?:havent|haven'?t|have not) paid(?: for)?(?: it)?(?: yet)?"
    r"|(?:the |my )?unpaid one)"
)
_NOT_SETTLED = rx(
    r"[?？]|吗|么|吧\s*[?？]|开玩笑|明天|再说|以后|改天|还是要|\b(?:actually|wait|kidding|joking"
    r"|tomorrow|later|maybe)\b"
)
_NO_LONGER_WANTED = rx(
    r"不要了|不想要了|不需要了|\b(?:don'?t|do not|dont) (?:want|need) (?:it|them|the [a-z ]{2,30}?)"
    r" any ?more\b|\bno longer (?:want|need)\b"
)


_ORDER_NUMBER_ASKED = rx(
    r"\b(?:tell me|what(?:'s| is| was)|give me|find|look up|remind me of|forgot|lost)"
    r" (?:\w+ ){0,2}(?:the |my |that |its )?order (?:number|no\.?|#|id)\b"
    r"|(?:告诉我|查一下|查下|给我|找一下)[^，。,.!?！？]{0,6}订单号|订单号(?:是)?(?:多少|啥|什么)"
    r"|订单号[^，。,.!?！？]{0,4}(?:找不到|忘了|丢了)"
)


_CANCEL_THREATENED = rx(
    r"^\W*(?:or|otherwise|or else)\b[^.!?;]{0,12}?\bi(?:'?ll| will|'?m| am|m)?\s+"
    r"(?:going to |gonna |just |have to )?(?:cancel|cancell?ing)\b"
    r"|^\W*(?:不然|否则|要不然)[^，。,.!?！？]{0,4}(?:我)?就?(?:要)?取消"
)


def _classify_clause(
    norm: str, ents: Entities, *, has_order_ctx: bool, awaiting: bool
) -> _Match | None:
    """:func:`_classify` before the wh-question rule."""
    contacted = _CONTACTED_BEFORE.search(norm) is not None
    norm = blank(blank(norm, _INSTEAD_OF), _CONTACTED_BEFORE)
    if _ALTERNATIVE.search(norm):
        # "I want a replacement, not a refund", "我要换货不要退款": what is wanted instead
        norm = blank(norm, _REFUND_NOT_WANTED)
    if _CANCEL_THREATENED.search(norm):
        # "hurry up and refund 100609 or im cancelling 100998": a cancel threatened, never
        # asked — the order is shown
        return _Match(ShopIntent.ORDER_STATUS)
    demanded = DEMANDED_OR_ELSE.search(norm)
    if demanded:
        # "if you don't refund 100609 I will sue you", "再不退款我就投诉": the write demanded,
        # the threat no request of its own (asked first, as every write is)
        cancel = demanded.group("cancel") or demanded.group("cancel_zh")
        return _Match(ShopIntent.CANCEL_ORDER if cancel else ShopIntent.REFUND)
    if _ORDER_NUMBER_ASKED.search(norm) and not ents.order_ids:
        # "can you tell me the order number, I lost it", "告诉我一下那个订单号": the order (its
        # number shown), looked up by what the message says of it
        return _Match(ShopIntent.ORDER_STATUS)
    if contacted and (_REFUND.search(norm) or _CANCEL.search(norm)):
        # "your agent said I could get a refund for 100683", "I spoke with a human earlier who
        # promised a refund on 100609": what was promised, looked at — never done on the claim
        return _Match(ShopIntent.ORDER_STATUS)
    plain = bare(norm)
    has_ids = bool(ents.order_ids or ents.skus)
    if (
        _ORDERS_OF_A_KIND_CANCELLED.search(norm) or _CANCELLING_IN_GENERAL.search(norm)
    ) and not ents.order_ids:
        # "can shipped orders be cancelled?", "已经发货的订单还能取消吗": the policy, asked of
        # orders of a kind — not the state of the one talked about
        return _Match(ShopIntent.FAQ, topic="cancel_order")
    if _NEW_TICKET.search(norm) and not _TICKET_NEGATED.search(norm):
        # "open a new ticket for 100683, T-000031 is useless": another ticket, asked for
        return _Match(ShopIntent.CREATE_TICKET)
    if ents.ticket_ids and not has_ids and not _HANDOFF.search(norm):
        return None  # ticket look-ups are not a minimal-tier request: ask what they need
    negative = NO_WHOLE.match(plain) or NO_ANY.search(plain) or _CANCEL_NEGATED.search(plain)
    if awaiting and not has_ids and len(plain) <= 40 and not AFTER_ALL.search(plain) and negative:
        return _Match(Intent.CONFIRM_NO)
    if not has_ids and not awaiting and CONFIRM_WORD.match(plain):
        # "确认" / "确认取消" with no question open: an action the customer moved on from is
        # asked about again (planning); otherwise the reply says nothing waits for a yes
        verb = _named_action(plain)
        return _Match(Intent.CONFIRM_YES, verb=verb)
    if not has_ids and _NO_THANKS.match(norm.strip(STRIP)):
        # "no thanks", "no thx", "not interested": an offer turned down, also when none waits
        return _Match(Intent.CONFIRM_NO)
    if not has_ids and (
        ACK_WHOLE.match(plain) or (not awaiting and not plain and EMOJI.search(norm))
    ):
        # a yes is read for the whole message (match_intents), never clause by clause; an
        # assent emoji alone ("👍", "🙏") is an acknowledgement too — except to a question
        # waiting for a yes, where it is no yes to act on (asked again)
        return _Match(Intent.THANKS, ack=True)
    if _WHICH_CANCELLABLE.search(norm) and not ents.order_ids:
        # "which of my orders can I still cancel?": the orders, each with its state
        return _Match(ShopIntent.LIST_ORDERS)
    if REFUND_MENTION.fullmatch(norm.strip(" .?!,，。？！")) or (
        REFUND_MENTION.search(norm) and not bare(blank(norm, REFUND_MENTION)).strip()
    ):
        # "R-000094" alone: the refund's order, looked up by the number
        return _Match(ShopIntent.ORDER_STATUS)
    if _WHY_CANCELLED.search(norm) and not _CANCEL_NEGATED.search(blank(norm, _WHY_CANCELLED)):
        return _Match(ShopIntent.ORDER_STATUS)
    if COMPLAINT_NEGATED.search(norm):
        if ents.ticket_ids:
            # "怎么就有个投诉工单T-000039了 我也没投诉啊": the ticket named, asked about
            return _Match(ShopIntent.TICKET_STATUS)
        rest = blank(norm, COMPLAINT_NEGATED)
        asked = ticket_asked_for(rest) or _TICKET_ASKED_FOR.search(rest)
        if not has_ids and not asked:
            # "我不想投诉" (and nothing asked beside it): no complaint, nothing to file
            return _Match(Intent.CONFIRM_NO)
        # "not a complaint, just asking about 100683", "没有投诉，100200很好": the rest is read
        # without the complaint word (never a ticket from it)
        norm = rest
        plain = bare(norm)
    if (
        _NO_LONGER_WANTED.search(norm)
        and UNPAID.search(norm)
        and not ASKS.search(norm)
        # "待付款那单里的电子书阅读器不想要了": one thing of the order, not the order
        and not _ONE_THING_OF_IT.search(norm)
        # said in so many words and nothing else ("我没说没付钱那个炸锅不要了", "…开玩笑的")
        and _UNPAID_NOT_WANTED_SAID.fullmatch(bare(norm))
    ):
        # "没付钱那个炸锅不要了", "I dont want the air fryer anymore, the one I havent paid for
        # yet": an order not paid for, not wanted — its cancel (asked first)
        return _Match(ShopIntent.CANCEL_ORDER)
    if _REFUND_NEGATED.search(norm) or _CANCEL_NEGATED.search(norm):
        rest = blank(blank(norm, _REFUND_NEGATED), _CANCEL_NEGATED)
        if _ASKED_INSTEAD.search(rest):
            # "I'm not asking for a refund, just wondering how long refunds take": the question
            # asked instead, read on its own (never a write)
            rest_ents = extract_entities(rest)
            found = _classify(rest, rest_ents, has_order_ctx=has_order_ctx, awaiting=awaiting)
            if found is not None and found.intent in _READS:
                return found
        return _Match(Intent.CONFIRM_NO)
    if (
        _REFUND_AMOUNT_ASKED.search(norm)
        and not _REFUND.search(norm)
        and not _HOW_LONG.search(norm)
    ):
        # "你们一共退过我多少钱", "才退了433？": the refunds, on the order named or described
        # (its product looked up), else the orders to pick from
        named = ents.order_ids or describes_an_order(norm) or looked_product(norm)
        return _Match(ShopIntent.ORDER_STATUS if named else ShopIntent.LIST_ORDERS)
    if _COMPLAINT_MADE.search(norm) and not ents.ticket_ids:
        # "I opened a complaint about 100683, has anyone even looked at it?": the tickets
        return _Match(ShopIntent.TICKET_STATUS)
    if _PAID_QUESTION.search(norm):
        # "did the compensation for my damaged purifier actually get paid", "赔偿到账了吗": the
        # order's refunds are shown (a damage named in passing is no report to file)
        return _Match(ShopIntent.ORDER_STATUS)
    if (_TICKET_NEGATED.search(norm) or _NOTHING_ELSE.search(norm)) and not has_ids:
        # "no, I don't want a ticket", "nah that's fine, don't need anything else"
        return _Match(Intent.CONFIRM_NO)
    if requested_language(norm) is not None:
        # "I want to speak to a human in English": the request is the handoff (the language
        # switch itself is the turn's, graph/language.py)
        rest = without_language_request(norm)
        found = _classify(
            rest, extract_entities(rest), has_order_ctx=has_order_ctx, awaiting=awaiting
        )
        return (
            found
            if found is not None and found.intent is not Intent.UNKNOWN
            else _Match(Intent.LANGUAGE)
        )
    if _HANDOFF_NEGATED.search(norm):
        rest = blank(norm, _HANDOFF_NEGATED)
        rest_ents = extract_entities(rest)
        if rest_ents.order_ids or rest_ents.skus or ASKS.search(rest) or HOTLINE.search(rest):
            # "不用转人工 我自己查 告诉我100683的快递单号就行", "不想找人工 你直接告诉我包裹
            # 啥时候到": no transfer; what is asked instead
            found = _classify(rest, rest_ents, has_order_ctx=has_order_ctx, awaiting=awaiting)
            if found is not None and found.intent not in (Intent.UNKNOWN, ShopIntent.HANDOFF):
                return found
        return _Match(Intent.CONFIRM_NO)  # "不用转人工了", "no need for a human": never a transfer
    if _ADDRESS_CHANGE_NEGATED.search(norm):
        rest = blank(norm, _ADDRESS_CHANGE_NEGATED)
        rest_ents = extract_entities(rest)
        if rest_ents.order_ids or ASKS.search(rest):
            # "地址不改了 帮我查下100998发货没": the address let go; what is asked instead
            found = _classify(rest, rest_ents, has_order_ctx=has_order_ctx, awaiting=awaiting)
            if found is not None and found.intent is not Intent.UNKNOWN:
                return found
        return _Match(Intent.CONFIRM_NO)  # "no need to change the address after all", "不改了"
    if (
        _WAY_TO_A_PERSON_ASKED.search(norm)
        and not ents.order_ids
        and not _TRANSFER_SAID.search(norm)
    ):
        return _Match(Intent.HOTLINE)
    if (
        _HUMAN_NOT_ASKED.search(norm)
        and not _WHEN_PEOPLE_WORK.search(norm)
        # "will a human call me? I want one now", "… but I want to talk to a human again"
        and not _PERSON_ASKED_BESIDE.search(rest_of_talk := blank(norm, _HUMAN_NOT_ASKED))
    ):
        rest = rest_of_talk
        rest_ents = extract_entities(rest)
        if rest_ents.order_ids or rest_ents.skus or _REFUND.search(rest) or _CANCEL.search(rest):
            # "if 100683 isn't here by friday I'll want a human": what is asked beside it
            found = _classify(rest, rest_ents, has_order_ctx=has_order_ctx, awaiting=awaiting)
            if found is not None and found.intent not in (Intent.UNKNOWN, ShopIntent.HANDOFF):
                return found
        return _Match(Intent.IDENTITY)
    if (
        (_HANDOFF.search(norm) or _SOMEONE.search(norm))
        and _WHEN_CONTACTED.search(norm)
        and (not _TRANSFER.search(norm) or _COMPLAINED_BEFORE.search(norm))
    ):
        # "人工大概多久联系我", "how long until someone contacts me?": the transfer asked about —
        # the customer's tickets show where it is, no second transfer
        return _Match(ShopIntent.TICKET_STATUS)
    if _WHEN_PEOPLE_WORK.search(norm) and not _TRANSFER.search(norm):
        # "你们周末有人工吗", "are your agents available at night": when people answer, asked —
        # the number to call, never a transfer
        return _Match(Intent.HOTLINE)
    if (
        HOTLINE.search(norm)
        and not has_ids
        and not _TRANSFER.search(norm)
        # "whats the number of the ticket you just opened": the ticket's, not ours
        and not _TICKET_QUESTION.search(norm)
    ):
        # "人工电话多少": the number to call, asked — not a transfer to a person
        return _Match(Intent.HOTLINE)
    if (
        _TRANSFER_ASKED_AFTER.search(norm)
        and not ents.ticket_ids
        and not _TRANSFER_AGAIN.search(blank(norm, _TRANSFER_ASKED_AFTER))
    ):
        return _Match(ShopIntent.TICKET_STATUS)
    if _HANDOFF.search(norm) and (not ARE_YOU_HUMAN.search(norm) or _TRANSFER.search(norm)):
        # "是AI的话帮我转人工": the transfer asked for, whatever the clause asks about the bot
        return _Match(ShopIntent.HANDOFF)
    if ARE_YOU_HUMAN.search(norm):
        return _Match(Intent.IDENTITY)
    if _PROMO_BACK.search(norm) and not ents.order_ids:
        return None
    if (
        _REFUND.search(norm)
        and _FEE.search(norm)
        and (REQUESTS.search(norm) or IMPERATIVE.search(norm))
        and not _REFUND_NEGATED.search(norm)
    ):
        return None
    if (
        refund_amount_named(norm) is not None
        and (ASKS.search(norm) or _JUST_ASKING.search(norm))
        and not (_REFUND.search(norm) and REQUESTS.search(norm))
    ):
        # "I just want to know whether the 433 already came back to my account": a refund
        # made, named by its amount, asked after — its order's refunds (looked up by amount)
        return _Match(ShopIntent.ORDER_STATUS)
    if _MONEY_BACK_TO_ME.search(norm) and not _CANCEL.search(norm):
        # "把钱退我", "钱原路退吗": the money back, asked for (a refund; beside a cancel of the
        # order, how a cancel refunds) or asked about (how refunds are paid); "不用把钱退我",
        # "别把钱退我" refuse it, "钱退我卡里还是原路" asks where it goes
        if _REFUND_NEGATED.search(norm) or _NOT_BEFORE_MONEY.search(norm):
            return _Match(Intent.CONFIRM_NO)
        if _AMOUNT_BACK_TO_ME.search(norm) and not ASKS.search(norm):
            # "把那129退给我": that sum asked back — a refund (its order asked if unknown)
            return _Match(ShopIntent.REFUND)
        if _MONEY_BACK_YET.search(norm):
            # "100609的钱退回来没": whether it came back, asked — the order's refunds show it
            if ents.order_ids:
                return _Match(ShopIntent.ORDER_STATUS)
            return _Match(ShopIntent.FAQ, topic="refund_time")
        if (
            ASKS.search(norm)
            or _EITHER_OR.search(norm)
            or not (has_order_ctx or _MONEY_OF_A_THING.search(norm))
        ):
            return _Match(ShopIntent.FAQ, topic="refund_time")
        return _Match(ShopIntent.REFUND)
    if _PAID_BACK_TO.search(norm) and (QUESTION_MARK.search(norm) or ASKS.search(norm)):
        # "would a refund on 100200 go back to my alipay?", "does that go back to my card?",
        # "退款是退回支付宝吗": where refunds are paid, asked — never a refund
        return _Match(ShopIntent.FAQ, topic="refund_time")
    if _AFTER_CANCEL.search(norm) and _MONEY_WORDS.search(norm):
        return _Match(ShopIntent.FAQ, topic="refund_time")
    if _IF_I_CANCEL_ASKED.search(norm):
        # "取消100998的话优惠券还在吗", "if I cancel 100998, will my coupon still work?": what a
        # cancel would do, asked — the order's state, never the cancel
        return _Match(
            ShopIntent.ORDER_STATUS if ents.order_ids else ShopIntent.FAQ,
            topic=None if ents.order_ids else "cancel_order",
        )
    if _MONEY_BACK_WHEN.search(norm) and not ents.order_ids and not _REFUND.search(norm):
        # "钱多久能回来", "how many days till the money is back on my card": how long refunds
        # take (a refund of an order, asked about, is read with the order's refunds below)
        return _Match(ShopIntent.FAQ, topic="refund_time")
    if _WHICH_ORDERS.search(norm) and _REFUND.search(norm) and not ents.order_ids:
        # "which of my orders can I still get a refund on", "我有哪些订单是可以退款的": the list
        # (each order's state) to pick from, never a refund
        return _Match(ShopIntent.LIST_ORDERS)
    thanked = (
        _THANKS_FOR_REFUND.search(norm) and not _THANKS_BUT.search(norm) and not ents.order_ids
    ) or (_THANKS_FOR_REFUND_ON.search(norm) and not _SARCASM.search(norm))
    if thanked and not DISSATISFIED.search(norm) and not _MORE_WANTED.search(norm):
        return _Match(Intent.THANKS)
    if _THANKS_FOR_DONE.match(norm) and not ents.order_ids:
        # "谢谢你帮我查了物流": thanks for a look done, nothing asked again
        return _Match(Intent.THANKS)
    if (
        REFUND_MENTION.search(norm)
        and (_REFUND_PAST.search(norm) or _REFUND_REQUESTED_BEFORE.search(norm))
        and not _MORE_WANTED.search(norm)
        and not _REFUND_ASKED_NOW.search(norm)
    ):
        # "requested a refund two weeks ago, R-000092, it still says requested??": that refund's
        # order (looked up by its number) shows where it is
        return _Match(ShopIntent.ORDER_STATUS)
    if (
        _REFUNDS_SLOW.search(norm)
        and not _REFUND.search(blank(norm, _REFUNDS_SLOW))
        and not _MORE_WANTED.search(norm)
    ):
        if ents.order_ids:
            return _Match(ShopIntent.ORDER_STATUS)
        if _COMPLAINT_WORD.search(norm):
            # "I'd like to file a complaint about how slow your refunds are": the complaint
            return _Match(ShopIntent.CREATE_TICKET)
        return _Match(ShopIntent.FAQ, topic="refund_time")
    if (
        _REFUND_PAST.search(norm)
        and not ASKS.search(norm)
        and not _REFUND.search(blank(norm, _REFUND_PAST))
        and not _MORE_WANTED.search(blank(norm, _REFUND_PAST))
    ):
        # "..., you refunded the fitness band already": what was refunded, told — the order's
        # refunds are shown, none offered
        return _Match(ShopIntent.ORDER_STATUS) if ents.order_ids else None
    if (
        _REFUND_NOW.search(norm)
        and not _REFUND_BEFORE.search(norm)
        and not ASKS.search(norm)
        and not _REFUND_NEGATED.search(norm)
        and not _REFUND_QUESTION.search(norm)
    ):
        # "膜寄了快一个礼拜还没到 直接退了吧", "just refund it": the refund asked for, the
        # delay (还没到) its reason, not a question about a refund's progress
        return _Match(ShopIntent.REFUND)
    if _REFUND_POLICY_ASKED.search(norm) and not ents.order_ids:
        # "do u refund thermoses? mine leaks", "你们退款吗": whether the shop refunds, asked —
        # the returns policy, never a refund offered
        return _Match(ShopIntent.FAQ, topic="returns")
    if _REFUND_WHATS_LEFT.search(norm) and not _REFUND_NEGATED.search(norm):
        # "refund what's left on 100609": everything still refundable, asked for
        return _Match(ShopIntent.REFUND)
    if (
        _REFUND_ASKED_NOW.search(norm)
        and _REFUND.search(norm)
        and (
            not (ASKS.search(norm) or QUESTION_MARK.search(norm))
            or _PROCESSING_ASKED_POLITELY.search(norm)
        )
        and not _REFUND_NEGATED.search(norm)
        and not re.search(r"\b(?:when|why|how|did|have|has)\b", norm)
    ):
        # "please process my refund for 100200", "…promised me a refund, please process it
        # now": the refund asked for now, not asked about
        return _Match(ShopIntent.REFUND)
    if _REFUND.search(norm) and (_REFUND_WHEN.search(norm) or _REFUND_QUESTION.search(norm)):
        # asking about refunds is not asking for one: show the order (its refunds and what is
        # still refundable) or the refund-time answer, never a refund offer
        if _WHICH_ORDERS.search(norm) and not ents.order_ids:
            return _Match(ShopIntent.LIST_ORDERS)  # "我有哪些订单是可以退款的"
        if (
            ents.order_ids
            or (
                has_order_ctx
                and (
                    _REFUND_WHERE.search(norm)
                    or _HOW_MUCH.search(norm)
                    or _REFUND_TOLD.search(norm)
                    or _MORE_BACK.search(norm)
                    # "查100609" -> "能退钱吗": that order's refundable amount
                    or _CAN_MONEY_BACK.search(norm)
                )
                and not _HOW_LONG.search(norm)
            )
            # "how much can I still get back on the air purifier": the order its words
            # describe, looked up before planning
            or (
                (
                    _HOW_MUCH.search(norm)
                    or _REFUND_AMOUNT_ASKED.search(norm)
                    or _STILL_REFUNDABLE.search(norm)
                    # "净化器那单的退款成功了没": the refund of the order described, asked after
                    or (_REFUND_WHERE.search(norm) and not _HOW_LONG.search(norm))
                )
                and describes_an_order(norm)
            )
            # "净化器还能退多少", "如果只退保温杯的话，能退多少": the thing's order
            or _thing_still_refundable(norm)
        ):
            # a refund question naming no order asks how long refunds take, not where one is
            return _Match(ShopIntent.ORDER_STATUS)
        if (
            has_order_ctx
            and (_A_REFUND_MADE.search(norm) or refund_amount_named(norm) is not None)
            and not _HOW_LONG.search(norm)
        ):
            # "我就想知道上次那433是啥时候退的 100609", "what happened with the refund you did
            # before" beside the purifier: a refund made on the order talked about — its refunds
            return _Match(ShopIntent.ORDER_STATUS)
        if _THING_REFUNDED_BEFORE.search(norm) and not _HOW_LONG.search(norm):
            # "净化器之前退的那笔是什么时候退的": a refund made on an order its words describe —
            # that order's refunds, not the refund-time policy
            return _Match(ShopIntent.ORDER_STATUS)
        if _HOW_MUCH_LEFT.search(norm) and not _HOW_LONG.search(norm):
            # "how much can I still get back", "那台净化器，还能退多少钱": the order the words
            # describe (looked up), or naming none the orders to pick from
            return _Match(ShopIntent.ORDER_STATUS)
        if _REFUND_AMOUNT_ASKED.search(norm) and not _HOW_LONG.search(norm):
            # "你们一共退过我多少钱", "was that the whole refund?": the orders, with their refunds
            return _Match(ShopIntent.LIST_ORDERS)
        if (
            _FAQ_PATTERNS["returns"].search(norm) and not _MONEY_BACK_WHEN.search(norm)
        ) or _REFUND_WINDOW.search(norm):
            # "拆了包装还能退吗": a return; "how long after delivery do I have to ask for a
            # refund", "a refund on something delivered two months ago": the returns window
            return _Match(ShopIntent.FAQ, topic="returns")
        if _MY_REFUND_WHERE.search(norm) and not ents.order_ids:
            # "where's my refund?", "我的退款到哪了": the customer's own refunds, not the policy
            return _Match(ShopIntent.ORDER_STATUS, verb=REFUNDS_ASKED)
        return _Match(ShopIntent.FAQ, topic="refund_time")
    if _FAQ_PATTERNS["returns"].search(norm) and not ents.order_ids and not _TICKET.search(norm):
        return _Match(ShopIntent.FAQ, topic="returns")
    # "预约周六送货" asks for a day, it does not ask when the shop ships
    schedule = _SHIP_SCHEDULE.search(norm) and not asks_for_a_change(norm)
    if (_COURIER_QUESTION.search(norm) or schedule) and not ents.order_ids:
        return _Match(ShopIntent.FAQ, topic="delivery_times")
    if ents.faq_topic in ("cancel_order", "exchange", "shipping_fee") and not ents.order_ids:
        # "how do I cancel an order?", "能换大一码吗", "运费怎么算": the policy, never an action;
        # "if I return something do I pay the postage": what a return costs, the returns policy
        if ents.faq_topic == "shipping_fee" and _RETURN_ACTION.search(norm):
            return _Match(ShopIntent.FAQ, topic="returns")
        return _Match(ShopIntent.FAQ, topic=ents.faq_topic)
    if _LAPSE_ASKED.search(norm):
        # "100904没付的话会取消吗？", "没付的话就取消吗": whether an unpaid order lapses, asked —
        # the unpaid window, never a cancel
        return _Match(ShopIntent.FAQ, topic="payment")
    if _IF_SO_CANCEL.search(norm) and (ents.order_ids or has_order_ctx):
        # "没发就取消吧": a cancel on a condition the shop checks (it refuses a shipped order);
        # "要是没付就取消吧": one the shop does not check (it cancels a paid order too) — the
        # cancel's precheck does: asked only if the order is unpaid, else said why not
        if _NOT_PAID.search(norm):
            return _Match(ShopIntent.CANCEL_ORDER, verb=IF_UNPAID)
        return _Match(ShopIntent.CANCEL_ORDER)
    if _CANCEL_WORRY.search(norm):
        # "怕给我自动取消了", "worried it gets cancelled": the unpaid window, not a cancel
        return _Match(ShopIntent.FAQ, topic="payment")
    if (
        _CANCEL_ASKED_OR_TOLD.search(norm)
        and not (ents.order_ids or has_order_ctx)
        # "is it even possible to get a refund on …": whether a refund can be, not a cancel
        and (_CANCEL.search(norm) or not _REFUND.search(norm))
    ):
        if not _CANCEL_TOLD.search(norm):
            return _Match(ShopIntent.FAQ, topic="cancel_order")  # "哪些能取消": the policy
        # "之前取消的那条美利奴的现在还有货不": a cancel told of; the rest is what is asked
        norm = blank(norm, _CANCEL_TOLD)
    if _PART_CANCEL_ASKED.search(norm):
        # "can I cancel only the e-reader in 100803 and keep the detergent?": whether an order
        # can be cancelled in part, asked — the policy (never a cancel)
        return _Match(ShopIntent.FAQ, topic="cancel_order")
    if _CANCEL_QUERY.search(norm) or (
        _CANCEL_ASKED_OR_TOLD.search(norm)
        # ("我想知道100998能不能取消": what the customer wants is to know — "…, if so cancel it"
        # asks for it)
        and not REQUESTS.search(blank(blank(norm, _CAN_I), _WANT_TO_KNOW))
        and not _IF_SO_CANCEL_IT.search(norm)
        and (ents.order_ids or has_order_ctx)
    ):
        return _Match(ShopIntent.ORDER_STATUS)
    if _WHICH_ORDERS.search(norm) and _CANCEL.search(norm) and not ents.order_ids:
        # "我账号下有几个订单 哪些能取消", "which of my orders can I still cancel": the orders, each
        # with its state, to pick from — never a cancel
        return _Match(ShopIntent.LIST_ORDERS)
    if _CANCELLING_ASKED.search(norm) and not ents.order_ids:
        # "does cancelling refund me automatically", "取消了钱会自动退吗": how a cancel works
        return _Match(ShopIntent.FAQ, topic="cancel_order")
    if _CAN_I_CANCEL.search(norm) and not ents.order_ids and not has_order_ctx:
        # "现在还能取消吗", "can i still cancel if i want": whether a cancel is possible, asked
        return _Match(ShopIntent.FAQ, topic="cancel_order")
    if _CANCEL.search(norm) and _PART_OF_ORDER.search(norm):
        # "只取消里面的手表", "cancel just the phone and keep the monitor": a part of an order,
        # which no cancel does (orders are cancelled whole) — the policy says so, nothing is
        # offered (a hurried yes would cancel the monitor too)
        return _Match(ShopIntent.FAQ, topic="cancel_order")
    if _CANCEL_MADE.search(norm) and not _CANCEL.search(blank(norm, _CANCEL_MADE)):
        # "八月份那个围巾我后来取消了": a cancel made, told — the order's state (was it charged),
        # never a cancel asked for
        return _Match(ShopIntent.ORDER_STATUS)
    if not _CANCEL_NEGATED.search(norm) and (
        _CANCEL.search(norm)
        or (
            _CANCEL_WEAK.search(norm)
            and (ents.order_ids or _ORDER_WORD.search(norm))
            and not _ITEM_OF_ORDER.search(norm)
            # "手机那单不要了吗？": whether it is, asked (never a write)
            and not _UNWANTED_ASKED.search(norm)
            # "100200整单退了吧 不想要了": the money back asked for, not wanting it the reason
            and not _REFUND.search(blank(norm, _CANCEL_WEAK))
        )
    ):
        return _Match(ShopIntent.CANCEL_ORDER)
    made = _REFUND_MADE_BEFORE.search(norm)
    unmade = blank(norm, _REFUND_MADE_BEFORE)
    if made is not None and not (REQUESTS.search(unmade) or _REFUND.search(unmade)):
        # "you already gave me some money back because of a dent": a refund made, told
        return None
    if _REFUND.search(norm) and UNPAID.search(norm) and not _REFUND_NOW.search(norm):
        # "can I get a refund for the air fryer that's still waiting for payment?": nothing was
        # paid on the order its words describe — its state says so (no refund is offered)
        return _Match(ShopIntent.ORDER_STATUS)
    if _REFUND.search(norm) or (
        _ITEM_REFUND.search(norm.strip(STRIP)) and not _item_refund_refused(norm)
    ):
        return _Match(ShopIntent.REFUND)
    if _RETURN_ACTION.search(norm) and _HOW_TO.search(norm) and not ents.order_ids:
        # "退货怎么弄" / "how does a return work": explain the policy, open nothing
        return _Match(ShopIntent.FAQ, topic="returns")
    policy = _POLICY_FOLLOW_UP.match(norm)
    if policy and not ents.order_ids:
        # "退货要几天内申请啊 换货呢": the same question of another policy, not a request
        return _Match(ShopIntent.FAQ, topic=_POLICY_OF[policy.group(1) or policy.group(2)])
    if _RETURN_WEIGHED.search(norm) and not _EXPLICIT_TICKET.search(norm):
        # "do I need to send it back?", "I don't want to send back the air fryer", "要寄回去吗":
        # whether a return is needed — the policy answers it; nothing is filed
        return _Match(ShopIntent.FAQ, topic="returns")
    if _RETURN_STILL_ASKED.search(norm):
        # "pls check both 100609 and 100200 - which of them can I still return?": each order
        # named is shown (what is refundable on it), or the returns policy; nothing is filed
        return _Match(
            ShopIntent.ORDER_STATUS if ents.order_ids else ShopIntent.FAQ,
            topic=None if ents.order_ids else "returns",
        )
    ticket_refused = bool(_TICKET_NEGATED.search(norm))
    if _TICKET_QUESTION.search(norm) and not ents.ticket_ids:
        # "我名下有没有未处理的工单", "any update on the complaint I made?": the customer's
        # tickets are shown, none filed
        return _Match(ShopIntent.TICKET_STATUS)
    if (
        not ticket_refused
        and (_TICKET.search(norm) or _RETURN_ACTION.search(norm))
        and not _EXPLICIT_TICKET.search(norm)
        and not REQUESTS.search(blank(norm, _CAN_I))
        and (
            _HYPOTHETICAL.search(norm)
            or (_WHETHER_POSSIBLE.search(norm) and not IMPERATIVE.search(norm))
        )
    ):
        # "what do i do if the parcel arrives damaged", "收到的空气炸锅有点瑕疵 100200 能退货吗":
        # what the customer could do, asked — the policy answers it; nothing is filed unasked
        return _Match(ShopIntent.FAQ, topic=_return_or_exchange(norm))
    if (
        not ticket_refused
        and (_TICKET.search(norm) or _RETURN_ACTION.search(norm))
        and not ents.order_ids
        and (
            # "能不能帮我开个工单": asked for, however politely
            (
                _AFTER_SALES_QUESTION.search(norm)
                and not (_DONE_FOR_ME.search(norm) and not _WEIGHED.search(norm))
            )
            # "do you do free returns", "退货地址是哪": a question about returns, no fault named
            # ("i want to return the thermos can you help" asks for the return)
            or (
                ASKS.search(norm)
                and _RETURN_ACTION.search(norm)
                and not (_TICKET.search(norm) or REQUESTS.search(norm))
            )
        )
        and not _PROBLEM_REPORT.search(norm)
    ):
        # "电器坏了保修吗", "how do I exchange for a bigger size": a policy question, never a ticket
        return _Match(ShopIntent.FAQ, topic=_return_or_exchange(norm))
    if (
        _SHOULD_I_FILE.search(norm)
        and _TICKET.search(norm)
        and not ents.ticket_ids
        and not _FILE_IT_ANYWAY.search(norm)
    ):
        # "should I open a ticket for 100683?", "要不要开个工单": whether, asked — the order
        # (its open tickets, how to escalate) or the tickets, nothing offered
        return _Match(ShopIntent.ORDER_STATUS if ents.order_ids else ShopIntent.TICKET_STATUS)
    if _RETURNS_TOLD_OF.search(norm) and not _TICKET.search(norm) and not ents.order_ids:
        # "I heard you do 7 day no reason returns": the policy spoken of, no return asked for
        return _Match(ShopIntent.FAQ, topic="returns")
    if not ticket_refused and (
        (_TICKET.search(norm) and not ents.ticket_ids) or _RETURN_ACTION.search(norm)
    ):
        return _Match(ShopIntent.CREATE_TICKET)
    if _COMPENSATION.search(norm) and not ents.skus:
        return None  # "补货了能给点补偿吗": compensation, not the stock the clause names
    warranty = ents.faq_topic == "warranty" and not _STOCK.search(norm)
    if ents.skus and _PROMO.search(norm) and not _STOCK.search(blank(norm, _PROMO)):
        return None
    if ents.skus and not ents.order_ids and warranty:
        # "what is the warranty on SKU-1007", "SKU-1007保修多久": the policy, not the stock
        return _Match(ShopIntent.FAQ, topic="warranty")
    if ents.skus and not ents.order_ids:
        return _Match(ShopIntent.STOCK)
    if ents.tracking_numbers and not ents.order_ids:
        # "YT9433239273到哪了", "where is YT9433239273": the parcel of that number
        return _Match(ShopIntent.TRACKING)
    if ents.faq_topic in ("invoice", "payment", "warranty") and not ents.order_ids:
        # "另外电子发票在哪下载": where to get an invoice, not where the message's order is
        return _Match(ShopIntent.FAQ, topic=ents.faq_topic)
    if not ents.order_ids and (
        (_LIST_ORDERS.search(norm) and _WHICH_ORDERS.search(norm))
        or _ALL_OF_MINE.search(norm)
        or _LATEST_ORDER_ASKED.search(norm)
    ):
        # "which of my orders havent shipped yet", "我哪些订单还没发货": the list to pick from
        return _Match(ShopIntent.LIST_ORDERS)
    if _TRACKING.search(norm):
        return _Match(ShopIntent.TRACKING)
    if (
        _RESTOCK_WHEN.search(norm)
        and not ents.order_ids
        and product_query(norm)
        and not _NOT_GOODS.search(norm)
    ):
        # "修身牛仔裤什么时候到货", "when are the jeans back": a product's restock, not a parcel
        return _Match(ShopIntent.STOCK)
    if _MONEY_ARRIVES.search(norm):
        # "tell me when the money will actually arrive": how long a refund takes
        return _Match(ShopIntent.FAQ, topic="refund_time")
    if _ARRIVE.search(norm):
        if (
            (has_order_ctx and not _GENERALLY.search(norm))
            or tracked_product(norm)
            or _THING_ARRIVES.search(norm)
            or (_MY_PARCEL.search(norm) and not _IF_BOUGHT.search(norm))
        ):
            # "钢化膜什么时候到": a thing bought, looked up by what it is (graph resolution)
            return _Match(ShopIntent.TRACKING)
        return _Match(ShopIntent.FAQ, topic="delivery_times")
    if _SHIP_WHEN.search(norm):
        if has_order_ctx:
            return _Match(ShopIntent.ORDER_STATUS)
        return _Match(ShopIntent.FAQ, topic="delivery_times")
    if ents.faq_topic == "invoice":
        # "100200的发票一直没收到是咋回事": an order's invoice — how invoices are issued (the
        # order's state says nothing of it)
        return _Match(ShopIntent.FAQ, topic="invoice")
    if _ORDER_STATUS.search(norm) and (has_order_ctx or _ORDER_WORD.search(norm)):
        return _Match(ShopIntent.ORDER_STATUS)
    if ents.faq_topic == "delivery_times" and asks_for_a_change(norm):
        return None  # "can i change the delivery time for 100683", "改个送货时间": not the policy
    if ents.faq_topic is not None:
        return _Match(ShopIntent.FAQ, topic=ents.faq_topic)
    if _PAID_HOW_MUCH.search(norm):
        # "我买的空气净化器当时花了多少钱", "how much did I pay for the air fryer order": the order
        return _Match(ShopIntent.ORDER_STATUS)
    if _STOCK.search(norm) and _SERVICE.search(norm):
        return None
    if (
        ents.order_ids
        and not ents.skus
        and _HOW_MUCH.search(norm)
        and product_query(_ORDER.sub(" ", norm)) is None
    ):
        # "100998多少钱来着", "how much was 100904 again": the order's total, not a price
        return _Match(ShopIntent.ORDER_STATUS)
    if _PRODUCT_ASKED.search(norm) and not ents.order_ids and product_query(norm):
        # ("a good ramen place nearby": a place, not a product — what the bot does is asked)
        return None if _A_PLACE.search(norm) else _Match(ShopIntent.STOCK)
    if _PRICE_TOLD.search(norm) and not ASKS.search(norm):
        return None  # "the screen protector cost 29": what was paid, told (the rest says why)
    if _HOW_MUCH_LEFT.search(norm) and ents.order_ids:
        # "100609还剩多少没退": what is left to refund on that order, not a stock count
        return _Match(ShopIntent.ORDER_STATUS)
    if _STOCK.search(norm) or (
        (_HAVE_THING.search(norm) or _HOW_MANY_LEFT.search(norm)) and not ents.order_ids
    ):
        return _Match(ShopIntent.STOCK)
    if (
        _WANT_A_THING.search(norm)
        and not has_ids
        and product_query(norm)
        and not _NOT_A_PURCHASE.search(norm)
    ):
        # "want a mechanical keyboard for coding", "need a decent kitchen knife", "now I need
        # something warm to sleep under": something to buy, looked for in the catalogue
        return _Match(ShopIntent.STOCK)
    if (
        _WAREHOUSE_ASKED.search(norm)
        and not has_ids
        and not _ORDERS_NAMED.search(norm)
        and not _BOUGHT_BY_ME.search(norm)
        # (a product named beyond the warehouse words: "有货吗 哪个仓发" asks of the one before)
        and product_query(blank(norm, _WAREHOUSE_ASKED))
        and not _REFERS_BACK.search(norm)
    ):
        # "手表是从哪个仓发货的", "which warehouse does the smart watch ship from": a product's
        # stock by warehouse (not a parcel of the customer's: "我的耳机从哪个仓发的")
        return _Match(ShopIntent.STOCK)
    if _LIST_ORDERS.search(norm):
        # "what did I order on 100609": that order's contents, not the list
        return _Match(ShopIntent.ORDER_STATUS if ents.order_ids else ShopIntent.LIST_ORDERS)
    if _ORDER_STATUS.search(norm):
        return _Match(ShopIntent.ORDER_STATUS)
    if (GREETING.search(norm) or THANKS.search(norm)) and ents.order_ids:
        # "hi, where's 100200?", "please check 100683 for me, thanks": an order id is a
        # request, whatever greeting or thanks comes with it
        return _Match(ShopIntent.ORDER_STATUS)
    if GOODBYE.search(norm):
        return _Match(Intent.GOODBYE)
    if GREETING.search(norm):
        return _Match(Intent.GREETING)
    if THANKS.search(norm):
        return _Match(Intent.THANKS)
    if DISSATISFIED.search(norm) and _STATES_DELIVERY.search(norm) and not has_ids:
        # "钢化膜一个礼拜了还在成都 差评": how late it is, told: the delivery is looked at (a
        # complaint beside it is offered by match_shop)
        return _Match(ShopIntent.TRACKING)
    if (
        DISSATISFIED.search(norm)
        and not ASKS.search(norm)
        and not (has_ids or ents.tracking_numbers)
    ):
        # "really poor packaging on your side", "什么破快递": a complaint, acknowledged and a
        # ticket offered (filed only after a yes: words.is_complaint); beside another request
        # it is how the customer feels about that one (match_shop drops it)
        return _Match(ShopIntent.CREATE_TICKET, verb=_VENTED)
    return None


# --- matching -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Group:
    start: int
    end: int


# Words that name what to look at rather than ask for something new ("check 100200 for me",
# "帮我查下100683"): a clause naming an order with only these is a look at that order.
_LOOK_WORDS = rx(
    r"\b(?:orders?|check|look|see|show|find|status|track|number|no|about|what|where|how|do"
    r"|help|when|is|are|the|a|an|my|me|for|to|it|of|on|and|also|too|pls|plz|please|can|could"
    r"|would|will|you|u|i|just|so|then|again|this|that|one|both|them|with|up|out|into|at"
    r"|tell|let|know|in|inside|what's|whats)\b"
    r"|订单|单号|单子|查|看|帮我|一下|下|的|了|吗|呢|吧|啊|也|还|再|和|跟|这个|那个|个|请|麻烦"
)


# "track 100683, cancel 100998": a comma right after an identifier, before more words
# ("取消100904，100998保留别动": a second order with words of its own, after a comma)
_AFTER_IDENTIFIER = rx(r"(?<=\d),\s*(?=[a-z\u4e00-\u9fff]|\d{6}(?!\d)\s*[\u4e00-\u9fff])")
# "我要投诉快递，100683到哪了": a Chinese comma before an identifier that starts a request
_BEFORE_IDENTIFIER = rx(r"(?<=[\u4e00-\u9fff]),\s*(?=\d{4,})")
# "where is 100683 i need it by friday can you speed it up": a request asked midway, unpunctuated
# ... or a second order opens a request of its own ("取消100904 100998的包裹帮我备注放门卫")
_ASKED_MIDWAY = rx(r"\s+(?=(?:can|could|would) (?:you|u)\b)|(?<=\d)\s+(?=\d{6}(?!\d))")
# "取消100998 钱退回微信", "没发的话帮我取消 钱原路退回就行": a space between a cancel or refund and
# Chinese words that read as another request
_AFTER_WRITE = rx(r"(?<=[\u4e00-\u9fff\d])\s+(?=[\u4e00-\u9fff])")
_IDENTIFIER = re.compile(r"\d{4,}")
# what a clause naming no order reads as when it only introduces the order that follows
_INTRODUCES_ORDER = frozenset({ShopIntent.LIST_ORDERS, ShopIntent.ORDER_STATUS})


# "I just want to know", "我就问问", "我该怎么办": a question follows, after a refusal
_JUST_ASKING = rx(
    r"\b(?:i |i'?m )?(?:just |only )?(?:want(?:ed)? to know|wanna know|asking|want to ask)\b"
    r"|就想知道|只想知道|我想知道|就问问|就是问问|只是问问|我想问|想问一下|该怎么办|怎么办"
)


def _split_after_refusal(norm: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """ "don't refund the purifier, I just want to know whether the 433 came back", "不退也不
    取消，100609净化器有异响我该怎么办": the refusal and the question after it are read apart
    (read as one clause, the refusal swallowed the question)."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        refused = _REFUND_NEGATED.search(norm, start, end) or _CANCEL_NEGATED.search(
            norm, start, end
        )
        asking = _JUST_ASKING.search(norm, refused.end(), end) if refused else None
        if refused and asking is None:
            # "don't cancel 100998 but refund 100609", "不要取消100998 但是退款100609": the other
            # action asked for after the refusal is a request of its own
            asking = _BUT_THE_OTHER.search(norm, refused.end(), end)
            if asking is not None and (
                not (
                    _REFUND.search(norm, asking.start(), end)
                    or _CANCEL.search(norm, asking.start(), end)
                )
                # (nothing after it takes it back, sets a condition or asks: "… but refund
                # 100609. no wait, don't refund it either", "… if it's late", "…？")
                or _NOT_PLAINLY_ASKED.search(norm, asking.end())
            ):
                asking = None
        if asking is None or not norm[asking.start() : end].strip(STRIP):
            out.append((start, end))
            continue
        cut = max(
            norm.rfind(p, refused.end() if refused else start, asking.start()) for p in ",，:："
        )
        at = cut + 1 if cut >= 0 else asking.start()
        out.extend([(start, at), (at, end)])
    return out


# the other action after a refusal: "… but refund 100609", "… 但是退款100609"
_BUT_THE_OTHER = rx(
    r"\b(?:but|instead|rather)\b(?= (?:(?:please|pls|just|only|can you|could you) )*(?:re?fu?nd"
    r"|cancel)\b)|(?:但是?|而是|不过)(?=\s*(?:请|帮我|麻烦|就)?\s*(?:把)?\s*(?:退|取消|\d{6}))"
)


_NOT_PLAINLY_ASKED = rx(
    r"\b(?:no|not|nope|don'?t|dont|never ?mind|nvm|wait|if|maybe|unless|keep|actually|either)\b"
    r"|[?？]|吗|么|不对|别|不要|不用|如果|要是|的话|算了|等等|也不"
)


# "钱多久能回来", "然后把钱退我", "钱原路退吗": the money of an order, after a cancel of it
_MONEY_AFTER = rx(r"(?:然后|再|并且?|顺便)?\s*(?:把)?钱(?=[^，。,.!?！？]{0,6}(?:退|回|到账))")


def _split_money_after_cancel(norm: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """ "100998不想要了帮我cancel 钱多久能回来": the cancel and what happens to the money are two
    requests (the money one is answered by how refunds of a cancel are paid)."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        cancel = _CANCEL.search(norm, start, end)
        if _AFTER_CANCEL.search(norm, start, end):
            cancel = None  # "100998取消后钱多久退回来": what follows a cancel, asked
        money = _MONEY_AFTER.search(norm, cancel.end(), end) if cancel else None
        if (
            money is None
            or money.start() <= start
            or ASKS.search(norm, start, money.start())
            or _JUST_ASKING.search(norm, start, money.start())
        ):
            out.append((start, end))
            continue
        out.extend([(start, money.start()), (money.start(), end)])
    return out


def _split_after_identifiers(
    norm: str, spans: list[tuple[int, int]], awaiting: bool
) -> list[tuple[int, int]]:
    """Split a clause where a request naming an identifier meets another request:

    - at a comma after the identifier when each side reads alone ("track 100683, cancel
      100998": read as one clause, the cancel would take both orders);
    - before an unpunctuated "can you" that no template reads ("where is 100683 ... can you
      speed it up");
    - at a Chinese comma before an identifier, when what precedes is a request of its own
      ("我要投诉快递，100683到哪了"; "我的订单，100683到哪了" is one request).

    "100998, cancel it", "order 100683, cancel it" and "SKU-1001 can you tell me the price"
    stay one request."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        begin = start
        cuts = sorted(
            [(m, "after") for m in _AFTER_IDENTIFIER.finditer(norm, start, end)]
            + [(m, "before") for m in _BEFORE_IDENTIFIER.finditer(norm, start, end)]
            + [(m, "midway") for m in _ASKED_MIDWAY.finditer(norm, start, end)]
            + [(m, "write") for m in _AFTER_WRITE.finditer(norm, start, end)],
            key=lambda cut: cut[0].start(),
        )
        for m, kind in cuts:
            if _cut_holds(kind, norm[begin : m.start()], norm[m.end() : end], awaiting):
                out.append((begin, m.start()))
                begin = m.end()
        out.append((begin, end))
    return out


def _cut_holds(kind: str, left: str, right: str, awaiting: bool) -> bool:
    if kind == "write":
        before = _classify(left, extract_entities(left), has_order_ctx=True, awaiting=awaiting)
        after = _classify(right, extract_entities(right), has_order_ctx=True, awaiting=awaiting)
        return (
            before is not None
            and before.intent in (ShopIntent.CANCEL_ORDER, ShopIntent.REFUND)
            and after is not None
            and after.intent is not before.intent
        )
    if kind == "before":
        found = _classify(left, extract_entities(left), has_order_ctx=True, awaiting=awaiting)
        return (
            found is not None
            and found.intent not in _INTRODUCES_ORDER
            and not _IDENTIFIER.search(left)
            and _reads_alone(right, awaiting)
        )
    if not (_IDENTIFIER.search(left) and _reads_alone(left, awaiting)):
        return False
    if kind == "after":
        return _reads_alone(right, awaiting)
    if (
        kind == "midway"
        and _IDENTIFIER.match(right)
        and (KEEP.search(right) or NO_ANY.search(right))
    ):
        return True  # "取消100998 100904保留": the second order is kept out of the cancel
    return _unread_request(right, extract_entities(right), awaiting)


def _reads_alone(clause: str, awaiting: bool) -> bool:
    return (
        _classify(clause, extract_entities(clause), has_order_ctx=True, awaiting=awaiting)
        is not None
    )


def _unread_request(clause: str, ents: Entities, awaiting: bool) -> bool:
    """Whether a clause no template reads asks for something of its own (to say it was not
    handled, rather than drop it or read its order as another request's).

    A clause naming an order ("add a gift message to 100904", "把100904的收货时间改到周末")
    counts only when it asks for something to be done (a question about the order, "100998
    里面都有什么", is read as a look at it) with words beyond the order and the words for
    looking at it, so "check 100200 for me" still continues the message's reading. A quantity
    or amount without a question ("我想买3个") belongs to the request beside it.
    """
    found = _classify(clause, ents, has_order_ctx=True, awaiting=awaiting)
    if found is not None:
        # a product question naming no product that asks for something done ("到货了能通知我
        # 吗", "我想申请价格保护") would search for the request's own words; a look at an order
        # that asks for a change and nothing about where it is ("订单100904帮我改成加急发货")
        # would answer a question nobody asked
        if found.intent is Intent.GREETING:
            # "hey is the air purifier on sale": the greeting is not what the clause asks
            return asks_for_something(blank(clause, GREETING))
        if found.intent in _LOOKS and refund_amount_named(clause) is not None:
            return False  # "上次你们给净化器退了433对吧": a refund made, asked after
        if found.intent in _LOOKS and (
            _HOW_MUCH_LEFT.search(clause)
            or (_REFUND.search(clause) and _REFUND_QUESTION.search(clause))
        ):
            return False  # "还有多少钱可以退给我", "100609我能申请退款吗": a refund, asked about
        if found.intent in _LOOKS and _CANCEL_QUERY.search(clause):
            return False  # "为什么把100998取消了": a cancel made, asked about
        if found.intent in _LOOKS:
            # ("let the courier know to ring the bell", "再让快递员送货前打个电话")
            asks = asks_for_a_change(clause) or bool(IMPERATIVE.search(clause.strip()))
            return asks and not _WHERE_OR_WHEN.search(clause)
        return found.intent is ShopIntent.STOCK and not ents.skus and asks_for_a_change(clause)
    named = ents.order_ids or ents.skus or ents.ticket_ids or ents.tracking_numbers
    if not named:
        if (
            (ents.quantity is not None or ents.amount is not None)
            and not ASKS.search(clause)
            and not _NOT_A_PURCHASE.search(clause)
        ):
            return False
        return asks_for_something(clause)
    rest = blank(blank(blank(blank(clause, _SKU), _TICKET_ID), _TRACKING_NO), _ORDER)
    if ents.order_ids and _ALSO_SAME.match(rest):
        return False  # "100609的也要", "100609的也给我", "and 100609 too": the request before
    # "is there any way to combine 100904 and 100998": a question about something done counts,
    # and one about a promotion ("SKU-1047有优惠吗")
    promo = bool(ents.skus and not ents.order_ids and _PROMO.search(rest))
    asks_done = bool(ASKS.search(rest) and ACTION_VERB.search(rest)) or promo
    if not (asks_done or asks_for_something(rest, min_words=1, questions=False)):
        return False
    # "can you combine it with 100998": a verb asking for something done is enough
    enough = 1 if ACTION_VERB.search(rest) else 2
    return word_count(blank(rest, _LOOK_WORDS)) >= enough


def _asks_again(clause: str, ents: Entities, previous: Kind | None) -> bool:
    """ "羽绒服有货吗 数据线呢": after a product question, a clause naming only another thing
    ("数据线呢", "what about a charger") asks the same of it (a product search of its own); after
    a look at a product bought ("我的耳机到哪了 还有保温杯", "where r my headphones and the
    thermos"), a bare thing is looked at the same way."""
    if ents.order_ids or ents.skus or ents.ticket_ids or ents.tracking_numbers:
        return False
    if previous is ShopIntent.STOCK:
        # "do u sell air fryers? rice cookers?": a bare thing after a product question
        return (
            FOLLOW_UP.search(clause.strip()) is not None
            or _another_product(clause)
            or _ALSO_THIS.match(clause.strip(STRIP)) is not None
            or _ONE_MORE_THING.match(clause.strip()) is not None
        )
    if previous is ShopIntent.TRACKING:
        return _bare_thing(clause)
    return False


def _another_product(clause: str) -> bool:
    """ "rice cookers?" after "do u sell air fryers?": another product, asked the same way
    (English, a question mark; "type-c的", "need both asap", "能一起发吗" are not products)."""
    stripped = clause.strip()
    return (
        stripped.endswith("?")
        and not re.search(r"[\u3400-\u9fff]", stripped)
        and not _NOT_A_PRODUCT.search(stripped)
        and _bare_thing(clause)
    )


_NOT_A_PRODUCT = rx(r"\b(?:both|need|like|ones?|asap|too|also|all|them|it|cheaper)\b")
# "… and a beanie to match", "and some socks too": one more thing, asked of the same way
_ONE_MORE_THING = rx(
    r"^\W*(?:and |also |plus )?(?:a|an|some|the) (?!(?:refund|human|person|ticket|call)\b)"
    r"[a-z][a-z -]{2,25}? (?:to match|to go with it|too|as well)\W*$"
)
# "触屏手套也看下", "充电宝也帮我查查": another thing, asked the same of
_ALSO_THIS = rx(
    r"^(?!那|这|你|我|他|她|它)[\u4e00-\u9fffa-z0-9]{2,10}?(?:也|都)(?:帮我|给我)?(?:看|查|瞧)"
    r"(?:下|一下|看|查|一眼)?$"
)


def _bare_thing(clause: str) -> bool:
    """Only a thing named ("还有保温杯", "rice cookers?"): nothing asked of it, no verb."""
    if _BARE_THING.fullmatch(clause.strip(STRIP)) is None or len(clause.split()) > 4:
        return False
    asks_something = bool(
        REQUESTS.search(clause)
        or IMPERATIVE.search(clause.strip())
        or ACTION_VERB.search(clause)
        or ASKS.search(QUESTION_MARK.sub(" ", clause))
    )
    return not asks_something and looked_product(clause) is not None


# "100609的也要", "100609的也给我", "100200 too": an order the request before is asked of again
_ALSO_SAME = rx(
    r"^[\s,.!?;:，。！？、~]*(?:(?:and|also|plus)\s+)?(?:的)?\s*(?:也|都|还有)?"
    r"(?:要|给我|发我|发一下|查(?:一?下)?|看(?:一?下)?|一样|是|呢)?"
    r"\s*(?:too|as well|also|吧|呢|谢谢)?"
    r"[\s,.!?;:，。！？、~]*$"
)
# "还有保温杯", "and the thermos", "那个保温杯呢": a thing named, nothing asked of it
_BARE_THING = rx(
    r"(?:还有|以及|和|那|那个|and|also|plus|what about|and the|the|my)?\s*"
    r"(?:(?:the|my|那个|我的)\s*)?[a-z\u4e00-\u9fff][a-z\u4e00-\u9fff -]{1,24}?"
    r"\s*(?:呢|too|as well)?"
)


# "are the wireless mouse (and) mechanical keyboard in stock": a product named, the question
# about it asked after the "and"
_PRODUCT_NAMED = rx(
    r"(?:(?:are|is|do (?:you|u) have|have (?:you|u) got|got|any)\s+)?(?:the|a|an|any|your|some)?\s*"
    r"[a-z0-9][a-z0-9 -]{1,30}"
)


def _names_the_next_question(
    clause: str, norm: str, rest: list[tuple[int, int]], awaiting: bool
) -> bool:
    """A clause that only names a product, before a product question ("are the wireless
    mouse and mechanical keyboard in stock"): the question is asked of it too."""
    if not rest or not _PRODUCT_NAMED.fullmatch(clause.strip(STRIP)) or len(clause.split()) > 6:
        return False
    nxt = norm[rest[0][0] : rest[0][1]]
    found = _classify(nxt, extract_entities(nxt), has_order_ctx=False, awaiting=awaiting)
    if found is None or found.intent is not ShopIntent.STOCK or not product_query(clause):
        return False
    # the next names a product of its own ("... and mechanical keyboard in stock"), not "it"
    # ("is the smart watch waterproof and do you have it in stock": a question of its own)
    return bool(product_query(nxt)) and not _REFERS_BACK.search(nxt)


def _unread_clauses(
    norm: str, spans: list[tuple[int, int]], awaiting: bool
) -> list[tuple[int, int]]:
    """The clauses that ask for something no template reads."""
    unread = []
    previous: Kind | None = None
    for index, (start, end) in enumerate(spans):
        clause = norm[start:end]
        ents = extract_entities(clause)
        if _asks_again(clause, ents, previous):
            continue
        if _names_the_next_question(clause, norm, spans[index + 1 :], awaiting):
            continue
        if _unread_request(clause, ents, awaiting):
            unread.append((start, end))
            continue
        found = _classify(clause, ents, has_order_ctx=True, awaiting=awaiting)
        previous = found.intent if found is not None else previous
    return unread


def _group_clauses(
    norm: str,
    spans: list[tuple[int, int]],
    awaiting: bool,
    unread: list[tuple[int, int]] | None = None,
) -> list[_Group]:
    """Fold clauses that match nothing and name nothing into the previous (or next) clause.

    An ``unread`` clause (deferred on its own) is left out and never folded over: a group
    spans only clauses next to each other, so its words and order reach no request."""
    groups: list[_Group] = []
    orphan_start: int | None = None
    after_unread = False
    previous: Kind | None = None
    for index, (start, end) in enumerate(spans):
        if (start, end) in (unread or ()):
            after_unread = True
            continue
        clause = norm[start:end]
        ents = extract_entities(clause)
        found = _classify(clause, ents, has_order_ctx=True, awaiting=awaiting)
        if found is None and _asks_again(clause, ents, previous):
            found = _Match(previous or ShopIntent.STOCK)
        previous = found.intent if found is not None else previous
        # a ticket named is a request of its own (the packs read it), never folded into the next
        substantive = bool(ents.order_ids or ents.skus or ents.ticket_ids) or found is not None
        # "空气炸锅那单改个地址，手机那单取消": an order described beside the next request's own
        # order described — its words are about that order, never the next request's
        substantive = substantive or (
            index + 1 < len(spans)
            and describes_an_order(clause)
            and describes_an_order(norm[spans[index + 1][0] : spans[index + 1][1]])
        )
        # "… 还是只能退剩下的866": the order with that much left, named by it
        substantive = substantive or left_amount_named(clause) is not None
        last = norm[groups[-1].start : groups[-1].end] if groups and not after_unread else ""
        if last and _gives_a_reason(last, clause, found):
            groups[-1] = _Group(groups[-1].start, end)
            continue
        if not substantive:
            if groups and not after_unread:
                groups[-1] = _Group(groups[-1].start, end)
            elif orphan_start is None:
                orphan_start = start
            continue
        groups.append(_Group(orphan_start if orphan_start is not None else start, end))
        orphan_start = None
        after_unread = False
    return groups


_COMPLAINT = rx(r"\bcomplain(?:t|ts|ing)?\b|投诉")
# a look that asks where or when (what a look answers), whatever else it asks
_WHERE_OR_WHEN = rx(
    r"\b(?:where|wheres|when|status|track|tracking|eta|shipped|arrived?|delivered)\b"
    r"|\b(?:check|look|see|show)\b|哪|什么时候|啥时候|几时|何时|状态|物流|进度|到了|发了|没到|还没|催"
    r"|签收|看|查|(?<!订)单号|运单"
)
_LOOKS = frozenset({ShopIntent.TRACKING, ShopIntent.ORDER_STATUS})


def _gives_a_reason(previous: str, clause: str, found: _Match | None) -> bool:
    """ "投诉！100683物流慢得离谱": a complaint naming no order, then a statement (not a
    question) about an order's delivery, is the complaint's reason and order, not a look."""
    return (
        found is not None
        and found.intent in _LOOKS
        and bool(_COMPLAINT.search(previous))
        # (not "我之前投诉的工单怎么样了？包裹还是没动": a ticket asked after, then the parcel)
        and not (_TICKET_WORD.search(previous) and ASKS.search(previous))
        and not extract_entities(previous).order_ids
        and not ASKS.search(clause)
    )


def shop_matcher(text: str, context: MatchContext) -> list[MatchedIntent]:
    """The shop pack's :attr:`~helpdesk.tools.packs.Pack.matcher`: :func:`match_shop` with the
    session's last order and product."""
    skus = context.facts.get("skus") or []
    orders = context.facts.get("order_ids") or []
    text = _one_order_kept(_ordinals_named(_order_yes_other_no(text, context), context), context)
    found = match_shop(
        text,
        packs=context.packs,
        last_order_id=context.facts.get("last_order_id"),
        last_sku=skus[-1] if isinstance(skus, list) and skus else None,
        awaiting_confirmation=context.awaiting_confirmation,
        known_orders=[str(o) for o in orders] if isinstance(orders, list) else (),
        waiting=_waiting(context.facts.get("pending_actions")),
        last_write=last if isinstance(last := context.facts.get(LAST_WRITE), Mapping) else None,
        waiting_whole=_waiting_whole(context.facts.get("pending_actions")),
    )
    found = _no_place_guessed(found, orders if isinstance(orders, list) else [])
    if not context.awaiting_confirmation:
        # "refund 100200 if you can't replace it": the after-sales ticket, never the refund
        found = replacement_first(text, found)
        found = _instead_of_the_ticket(text, found, context.facts.get(LAST_WRITE))
        found = _undo_of_the_last_write(text, found, context)
        found = _do_it_after_a_cancel_question(text, found, context)
    pending = context.facts.get("pending_actions") or []
    if context.awaiting_confirmation and isinstance(pending, list):
        # "refund the thermos" → "yes, and the plates": the refund of both, asked again
        more = thing_added_at_offer(
            text,
            [a for a in pending if isinstance(a, Mapping)],
            lambda said: shop_matcher(
                said, dataclasses.replace(context, awaiting_confirmation=False)
            ),
        )
        if more is not None:
            return more
    if context.awaiting_confirmation and _the_waiting_refund_said_again(text, found, pending):
        lang = detect_language(text)
        return [MatchedIntent(Intent.CONFIRM_UNCLEAR, text=text.strip(), lang=lang)]
    instead = (
        _part_of_the_per_thing_refund(text, pending, context)
        or _amounts_per_thing_at_offer(text, pending, context)
        or _no_and_instead(text, found, pending, context)
        or _another_thing_instead(text, pending, context)
        or _another_orders_thing_meant(text, pending, context)
        or _part_of_the_waiting_cancel(text, pending, context)
    )
    if instead is not None:
        return instead
    also = _yes_and_also(text, found, pending, context) or _yes_and_the_same(text, pending, context)
    if also is not None:
        return also
    money = any(isinstance(a, Mapping) and a.get("tool") in _MONEY_ACTIONS for a in pending)
    said = normalize(text, _TYPOS)
    if not money or not _ALTERNATIVE.search(said) or YES_START.match(bare(said)):
        return found  # (a replacement is what a ticket offered would arrange: asked again)
    if _ALTERNATIVE_REFUSED.search(said):
        return found  # "I'd rather not swap it, how many days for the refund?"
    # "换货可以吗" to the refund question: the policy asked weighs something else instead
    return [
        dataclasses.replace(m, details=ALTERNATIVE)
        if m.intent is Intent.PACK and m.capability == ShopIntent.FAQ.value and not m.details
        else m
        for m in found
    ]


_AROUND_A_REQUEST = frozenset({Intent.CONFIRM_YES, Intent.THANKS, Intent.GREETING})


def _the_waiting_refund_said_again(text: str, found: list[MatchedIntent], pending: Any) -> bool:
    """ "refund 100 on 100200" → "refund it" / "ok refund 100200" / "退吧": the refund waiting,
    asked for again in words that say no amount and no thing — asked again as it stands. It was
    read as a new request of the whole order: ¥797 offered, and the next yes paid it."""
    if _one_waiting_verb(pending) != "refund":
        return False
    refunds = [m for m in found if kind_of(m) is ShopIntent.REFUND]
    if len(refunds) != 1 or any(
        m.intent not in _AROUND_A_REQUEST for m in found if m is not refunds[0]
    ):
        return False
    refund = refunds[0]
    said = normalize(text, _TYPOS)
    return (
        bool(_REFUND.search(said))
        and not _ANOTHER_MEANT.search(said)
        and order_of(refund) in (None, *_waiting_orders(pending))
        and refund.amount_kind == "none"
        and not refund.args.get("share")
        and not _thing_refunded(_LEADING_YES.sub("", text))
        and not _WHOLE_OF_IT.search(normalize(text, _TYPOS))
    )


_LEADING_YES = rx(
    r"^[\s,.!，。！]*(?:(?:yes|yeah|yep|ok|okay|sure|please|pls)\b|好的|好|行|嗯|对)[\s,.!，。！~]*"
)


# "不对，是另一单", "no, the other one", "I meant …": another thing or order, not the one waiting
_ANOTHER_MEANT = rx(
    r"\b(?:other|another|instead|wrong|meant|mean|not that|not this|different)\b"
    r"|不对|不是|另一|另外|别的|错了|换成|改成"
)
# "refund all of it", "全退": the whole of the order asked for, a change of the amount waiting
_WHOLE_OF_IT = rx(
    r"\b(?:all|whole|full|entire|everything|rest|remaining|remainder|total)\b|全|都|所有|整|剩"
)


# "好的，100998也取消", "ok, and also cancel 100998": a plain yes to what waits, then another
# order's request said beside it with "also"
_YES_THEN_ALSO = rx(
    r"^\s*(?:(?:yes|yeah|yep|ok|okay|sure)\b|好的|好吧|可以|确认|是的|(?:好|行|嗯)(?=[\s,，.。!！]))"
    r"[\s,，.。!！;；:：~～、]*(?:and\s+)?(?=\S)"
)
_ALSO = rx(r"也|还要|再|另外|顺便|\balso\b|\btoo\b|\bas well\b")
_NOT_PLAIN = rx(r"\bbut\b|\bonly\b|\bjust\b|\bnot?\b|\bwait\b|但|不过|只|不|别|等")


_NO_THEN = rx(
    r"^\s*(?:(?:no|nope|nah)\b(?:\s+thanks)?|(?:不要|不用|不需要)(?:工单|售后|换货)"
    r"|不要了|不用了|不需要|不要|不用)[\s,，.。!！;；:：~～、]*(?=\S)"
)
_WANT_INSTEAD = rx(
    r"^(?:i|we)\s+(?:just\s+)?(?:want|need|'?d like|would like)\b|^(?:just\s+)?(?:refund|cancel)\b"
    r"|^(?:我)?(?:要|想要|只要|就要)?(?:直接)?(?:退款|退钱|取消)|^给我退"
)


def _no_and_instead(
    text: str, found: list[MatchedIntent], pending: Any, context: MatchContext
) -> list[MatchedIntent] | None:
    """ "the thermos is broken" → ticket? → "no, I want a refund", "不用了，我要退款": a no to
    what waits and another action asked in its place — read on its own (asked before anything
    runs); the no alone dropped the request."""
    if not context.awaiting_confirmation or [m.intent for m in found] != [Intent.CONFIRM_NO]:
        return None
    said = normalize(text, _TYPOS)
    no = _NO_THEN.match(said)
    rest = text[no.end() :].strip() if no else ""
    if not no or not _WANT_INSTEAD.search(normalize(rest, _TYPOS)) or QUESTION_MARK.search(rest):
        return None
    waiting = {str(a.get("tool")) for a in pending if isinstance(a, Mapping)}
    read = shop_matcher(rest, dataclasses.replace(context, awaiting_confirmation=False))
    asked = [m for m in read if kind_of(m) in _ACTIONS]
    tools = {"refund": "request_refund", "cancel_order": "cancel_order"}
    if not asked or any(tools.get(str(kind_of(m))) in waiting for m in asked):
        return None  # ("no, refund 100609" to a refund: the engine's correction, not this)
    return [
        MatchedIntent(Intent.CONFIRM_NO, text=text[: no.end()].strip(STRIP), lang=found[0].lang),
        *read,
    ]


# "yes but for the plates instead", "no, refund the plates instead", "不是保温杯 是碗",
# "改成退餐具": another thing in place of the one a waiting refund is of
_THING_INSTEAD = rx(
    r"^\W*(?:(?:yes|yeah|ok|okay|no|nope|not that|actually|wait)\b[\s,]*)*(?:but\s+)?"
    r"(?:(?:do|make|put) (?:it|that|the refund)\s+)?"
    r"(?P<en>(?:refund\s+)?(?:for\s+|on\s+)?(?:the|my)\s+[a-z][a-z -]{1,30}?)\s+instead\W*$"
    r"|^\s*(?:不是|不对)[^，,。\s]{0,8}[，,\s]*(?:是|要退|退)(?P<zh>[^，,。\s]{2,10}?)"
    r"(?:吧|的钱)?[\s。.!！~]*$"
    r"|^\s*(?:那就|那)?(?:改成|换成)(?:退)?(?P<zh2>[^，,。\s]{2,10}?)(?:吧|的钱)?[\s。.!！~]*$"
)


def _the_refund_waiting(pending: Any, context: MatchContext) -> list[Mapping[str, Any]]:
    """The waiting actions when they are one refund and the bot asked about it (else none)."""
    actions = [a for a in pending if isinstance(a, Mapping)] if isinstance(pending, list) else []
    if not context.awaiting_confirmation or [str(a.get("tool")) for a in actions] != [
        "request_refund"
    ]:
        return []
    return actions


_BARE_ANSWER = rx(
    r"^[\s,.!~，。！～、]*(?:yes|yeah|yep|yup|ok|okay|sure|confirm|confirmed|go ahead|do it"
    r"|please do|no|nope|no thanks|nah|never ?mind|forget it|确认|好的?|可以|行|是的?|嗯|对|不用了?"
    r"|不要了?|算了|不了|不退了|不用退了|先不退了?)"
    r"(?:\s*(?:please|pls|thanks|thank you|谢谢|吧|了))?[\s,.!~，。！～、]*$"
)
# "yes but only 250", "可以 但是只退250", "no, just 200": the amount changed, nothing else said —
# read as the answer to any refund's question (asked again at that amount, its parts dropped)
_ONLY_THE_AMOUNT_CHANGED = rx(
    # (punctuation spelled out: with ASCII classes a Han character is \W — "炸锅退150" names a
    # thing; a question, "退250吗？", changes nothing)
    r"^[\s,.!~，。！～、]*(?:(?:yes|yeah|ok|okay|sure|no|nope|but|only|just|make it"
    r"|refund(?: me)?|please|pls|可以|好的?|行|是的?|嗯|对|不|不用|算了|但是?|不过|只|就|只退"
    r"|就退|退|给我退)[\s,.!~，。！～、]*)*"
    r"[¥￥]?\d{1,6}(?:\.\d{1,2})?\s*(?:块钱|块|元|yuan|rmb|kuai)?"
    r"(?:[\s,.!~，。！～、]*(?:please|pls|instead|then|only|吧|就行了?|就好|就可以了?))*"
    r"[\s,.!~，。！～、]*$"
)
# what makes an answer more than a yes or a no: an amount, a part, a thing left out
_MORE_THAN_AN_ANSWER = rx(
    r"\d|\b(?:each|only|just|no|not|but|except|for the|instead|and)\b|n't\b"
    r"|各|每|只|不|别|但|除了|换成"
)


def _part_of_the_per_thing_refund(
    text: str, pending: Any, context: MatchContext
) -> list[MatchedIntent] | None:
    """A refund of amounts said per thing waits ("¥300 (¥100 for the thermos; ¥200 for the air
    fryer)") and the answer is more than a yes or a no ("yes for the thermos, no for the air
    fryer", "yes, 100 each"): the sum is dropped and the words are said to be unread — asked
    again on their own, never the sum run on the next yes."""
    actions = _the_refund_waiting(pending, context)
    if not actions:
        return None
    args = actions[0].get("args")
    reason = str(args.get("reason") or "") if isinstance(args, Mapping) else ""
    said = normalize(text, _TYPOS)
    if (
        not reason.startswith(PER_ITEM)
        or ";" not in reason  # (one thing's refund: its answers are read as any other's)
        or _BARE_ANSWER.match(said)
        or _ONLY_THE_AMOUNT_CHANGED.match(said)
        or not _MORE_THAN_AN_ANSWER.search(said)
    ):
        return None
    lang = detect_language(text)
    return [
        MatchedIntent(Intent.CONFIRM_NO, text=text, lang=lang, details=REPLACED),
        MatchedIntent(Intent.UNKNOWN, text=text.strip(), lang=lang, details=DEFERRED_PART),
    ]


_PER_THING_EN = rx(
    r"(?<![\w.])\d+(?:\.\d+)?\s*(?:yuan|rmb|kuai|bucks)?\s+(?:for|on|towards?)\s+(?:the\s+|my\s+)?"
    r"[a-z]"
)
_PER_THING_ZH = rx(r"[\u4e00-\u9fff]{2,8}?(?:的)?(?:退款|退)?\s*[:：]?\s*\d+(?:\.\d+)?")


def _amounts_per_thing_at_offer(
    text: str, pending: Any, context: MatchContext
) -> list[MatchedIntent] | None:
    """ "refund 100200" → "100 for the thermos and 200 for the air fryer" / "保温杯100，空气炸锅
    200": the refund waiting is asked again as the amounts said per thing (added up, or asked
    how much), never left at the whole order for the next yes to pay."""
    actions = _the_refund_waiting(pending, context)
    if not actions:
        return None
    said = normalize(text, _TYPOS)
    args = actions[0].get("args")
    order = str(args.get("order_id") or "") if isinstance(args, Mapping) else ""
    english = len(_PER_THING_EN.findall(said)) >= 2
    chinese = len(_PER_THING_ZH.findall(said)) >= 2 and not english
    if not order or not (english or chinese) or QUESTION_MARK.search(said):
        return None
    request = f"refund {order}: {text}" if english else f"退{order}：{text}"
    read = shop_matcher(request, dataclasses.replace(context, awaiting_confirmation=False))
    if not read or [str(kind_of(m)) for m in read] != ["refund"]:
        return None
    lang = detect_language(text)
    return [MatchedIntent(Intent.CONFIRM_NO, text=text, lang=lang, details=REPLACED), *read]


def _another_thing_instead(
    text: str, pending: Any, context: MatchContext
) -> list[MatchedIntent] | None:
    """ "refund the thermos" → "yes but for the plates instead" / "不是保温杯 是碗": the refund
    waiting is not wanted; the other thing's refund is read on its own (asked before anything
    runs). The thermos was offered again (and paid on a hurried yes), or both were dropped."""
    actions = _the_refund_waiting(pending, context)
    if not actions:
        return None
    said = normalize(text, _TYPOS)
    found = _THING_INSTEAD.match(said)
    # ("can I get a replacement instead?": another remedy weighed, asked — not a thing; "do it
    # for the thermos instead" asks nothing: its "do" is the request's own)
    if (
        found is None
        or QUESTION_MARK.search(said)
        or ASKS.search(said[found.start("en") :] if found.group("en") else said)
        or _ALTERNATIVE.search(said)
    ):
        return None
    thing = found.group("en") or found.group("zh") or found.group("zh2") or ""
    if not _another_thing(f"also {thing}", actions):
        return None
    english = found.group("en") is not None
    request = (
        thing if _REFUND.search(thing) else (f"refund {thing}" if english else f"把{thing}退了")
    )
    read = shop_matcher(request, dataclasses.replace(context, awaiting_confirmation=False))
    if not read or [str(kind_of(m)) for m in read] != ["refund"]:
        return None
    lang = detect_language(text)
    return [MatchedIntent(Intent.CONFIRM_NO, text=text, lang=lang, details=REPLACED), *read]


# "yes but only the monitor", "好的 只取消显示器": a part of the order waiting to be cancelled
_ONLY_A_PART = rx(
    r"^\W*(?:(?:yes|yeah|yep|ok|okay|sure|fine)\b[\s,–-]*)?(?:but\s+)?(?:only|just)\s+"
    r"(?:cancel\s+)?(?:the\s+|my\s+)(?P<en>[a-z][a-z0-9 -]{1,30}?)(?:\s+(?:one|only))?"
    r"(?:\s+(?:please|pls|plz|then))?\W*$"
    # "yes the monitor only"
    r"|^\W*(?:(?:yes|yeah|yep|ok|okay|sure|fine)\b[\s,–-]*)?(?:but\s+)?(?:cancel\s+)?"
    r"(?:the|my)\s+(?P<en2>[a-z][a-z0-9 -]{1,30}?)\s+only(?:\s+(?:please|pls|plz|then))?\W*$"
    r"|^\s*(?:(?:好的?|行|可以|对|嗯)[\s，,]*)?(?:但是?)?(?:只|仅)(?:要|想)?取消(?:里面的|其中的)?"
    r"(?!订单|这单|本单|此单|那单|整单|就行|就好|就可以|吧|了|一下|全部|这个订单)"
    r"(?P<zh>[\u4e00-\u9fff]{2,8}?)(?:吧|就行|就好|就可以)?[\s。.!！~]*$"
    # "好 只要显示器取消", "显示器取消就好"
    r"|^\s*(?:(?:好的?|行|可以|对|嗯)[\s，,]*)?(?:但是?)?(?:只|仅)?(?:要|想)?"
    r"(?!订单|这单|本单|此单|那单|整单|全部|都|全|就)(?P<zh2>[\u4e00-\u9fff]{2,8}?)(?:取消|取消掉)"
    r"(?:吧|就行|就好|就可以)[\s。.!！~]*$"
    r"|^\s*(?:(?:好的?|行|可以|对|嗯)[\s，,]*)?(?:但是?)?(?:只|仅)(?:要|想)?"
    r"(?!订单|这单|本单|此单|那单|整单|全部|都|全|就)(?P<zh3>[\u4e00-\u9fff]{2,8}?)(?:取消|取消掉)"
    r"(?:吧|就行|就好|就可以)?[\s。.!！~]*$"
)


def _part_of_the_waiting_cancel(
    text: str, pending: Any, context: MatchContext
) -> list[MatchedIntent] | None:
    """ "cancel 100998" → "yes but only the monitor": an order is cancelled whole; the cancel
    waiting is not what is wanted, and the policy says so. The whole cancel was asked again
    without a word about it, and the next yes cancelled the phone too."""
    if not context.awaiting_confirmation or _one_waiting_verb(pending) != "cancel":
        return None
    found = _ONLY_A_PART.match(normalize(text, _TYPOS))
    orders = _waiting_orders(pending)
    if found is None or not orders or not orders[0]:
        return None
    english = found.group("en") or found.group("en2")
    thing = english or found.group("zh") or found.group("zh2") or found.group("zh3") or ""
    if not _names_a_thing(looked_product(thing) or ""):
        return None
    asked = (
        f"cancel just the {thing} from {orders[0]}"
        if english
        else f"{orders[0]}只取消里面的{thing}"
    )
    read = shop_matcher(asked, dataclasses.replace(context, awaiting_confirmation=False))
    if [str(kind_of(m)) for m in read] != ["faq"]:
        return None
    return [MatchedIntent(Intent.CONFIRM_NO, text=text, lang=detect_language(text)), *read]


# "I meant the thermos from 100200", "make it 100200 but only the thermos", "change it to
# 100200, the air fryer only": another order's thing meant instead of the refund waiting
_ANOTHER_ORDERS_THING = rx(
    r"^\W*(?:(?:no|nope|sorry|oops|wait|actually|oh)\b\W*)*(?:i meant|i mean|make it"
    r"|change it to|change that to|it'?s|it should be|should be)\s+(?P<rest>.+)$"
)

# "我说错了，退100200的保温杯", "不对 是100200的保温杯", "搞错了 应该退100200的保温杯"
_ANOTHER_ORDERS_THING_ZH = rx(
    r"^\W*(?:不对|不是|错了|我说错了|说错了|搞错了|弄错了|打错了)[^\w\u4e00-\u9fff]*"
    r"(?:我是说|我的意思是|应该是|应该|是|改成|换成)?\s*(?P<rest>.+)$"
)


def _another_orders_thing_meant(
    text: str, pending: Any, context: MatchContext
) -> list[MatchedIntent] | None:
    """ "refund 100609" → "I meant the thermos from 100200": the refund waiting is not wanted;
    the thing of the order named is read as a refund of its own (asked before anything runs).
    It was read as the waiting refund moved to 100200 whole: ¥797 offered, and a yes paid it."""
    if not context.awaiting_confirmation or _one_waiting_verb(pending) != "refund":
        return None
    said = normalize(text, _TYPOS)
    found = _ANOTHER_ORDERS_THING.match(said) or _ANOTHER_ORDERS_THING_ZH.match(said)
    if found is None:
        return None
    rest = found.group("rest")
    named = set(_identifiers(rest))
    if not named or named & set(_waiting_orders(pending)) or not _thing_refunded(rest):
        return None
    if _SAID_OF_A_THING.search(rest):
        return None  # "I mean I liked the thermos from 100200": said of it, not meant instead
    unasked = dataclasses.replace(context, awaiting_confirmation=False)
    no = MatchedIntent(Intent.CONFIRM_NO, text=text, lang=detect_language(text))
    if QUESTION_MARK.search(said):
        # "我说错了，退100200的保温杯吗？": the thing's refund as its words ask it (the whole
        # waiting refund was moved to 100200: ¥797); "…100200的保温杯能退吗？" is answered
        read = shop_matcher(rest, unasked)
        kinds = [str(kind_of(m)) for m in read]
        if kinds == ["refund"] and order_of(read[0]) in named:
            return [no, *read]
        return [no, *read] if read and not _ACTIONS & set(kinds) else None
    read = shop_matcher(f"refund {_BUT_ONLY.sub(' ', rest)}", unasked)
    if [str(kind_of(m)) for m in read] != ["refund"] or order_of(read[0]) not in named:
        return None
    return [no, *read]


_BUT_ONLY = rx(r"\bbut\b")


def _instead_of_the_ticket(
    text: str, found: list[MatchedIntent], filed: Any
) -> list[MatchedIntent]:
    """ "…is broken" → ticket filed → "show 100609" → "refund instead": a refund instead of the
    ticket just filed is for that ticket's order, not the order looked at last."""
    if not (isinstance(filed, Mapping) and filed.get("tool") == "create_ticket"):
        return found
    order = (filed.get("args") or {}).get("order_id")
    if not order or not INSTEAD.search(text):
        return found
    return [
        dataclasses.replace(m, args={**m.args, "order_id": order})
        if m.capability == "refund" and m.inferred_order
        else m
        for m in found
    ]


# "cancel that refund", "undo it", "撤销刚才的退款": the action just done, taken back
_UNDO = rx(
    r"\b(?:cancel|undo|reverse|revoke|stop|withdraw|take back)\b[^.?!]{0,15}"
    r"\b(?:that|the|my|this)\s+(?:refund|cancel+ation)\b|\bundo (?:it|that|this)\b"
    r"|撤销|撤回|取消(?:那笔|这笔|刚才的|刚刚的)?退款|退款(?:取消|撤销|撤回)"
)
# "I said no!", "I didn't confirm that", "我没同意": the write denied after it ran (to a question
# waiting it is that question's no)
_DENIED = rx(
    r"^\W*i (?:said|meant) no\b|\bi (?:did ?n[o']?t|never) (?:say yes|agree|confirm|want that)\b"
    r"|我(?:说了?|是说)(?:的是)?不(?:要|用)|我(?:没|没有|并没有|从来没)(?:同意|确认|答应|说要)"
)


def _undo_of_the_last_write(
    text: str, found: list[MatchedIntent], context: MatchContext
) -> list[MatchedIntent]:
    """ "cancel that refund" after a refund ran: read as a no, the reply said no refund was made
    — it was. The order it was done on is shown (its refunds, what is left), nothing run."""
    done = context.facts.get(LAST_WRITE)
    if not isinstance(done, Mapping) or done.get("tool") not in ("request_refund", "cancel_order"):
        return found
    order = (
        (done.get("args") or {}).get("order_id") if isinstance(done.get("args"), Mapping) else None
    )
    said = normalize(text, _TYPOS)
    # (a denial read as a no is answered as one: the write stands, who can help)
    denied = [m.intent for m in found] == [Intent.UNKNOWN] and _DENIED.search(said)
    if not order or not (_UNDO.search(said) or denied):
        return found
    if [m.intent for m in found] not in ([Intent.CONFIRM_NO], [Intent.UNKNOWN]):
        return found
    shown = shop_matcher(f"show order {order}", context)
    return shown if all(kind_of(m) is ShopIntent.ORDER_STATUS for m in shown) and shown else found


# "… if I cancel 100998 now? and do it", "取消的话能退多少？那就取消吧": a go-ahead after asking
# about a cancel
_CANCEL_ASKED_ABOUT = rx(r"\bcancel+(?:ing|ed)?\b|取消")


def _do_it_after_a_cancel_question(
    text: str, found: list[MatchedIntent], context: MatchContext
) -> list[MatchedIntent]:
    """ "how much would I get back if I cancel 100998 now? and do it": with nothing waiting for
    a yes, the go-ahead after a question about cancelling one order is that cancel — asked
    first like any cancel (it was "nothing is waiting for your confirmation")."""
    yes = [m for m in found if m.intent is Intent.CONFIRM_YES]
    looks = [
        m
        for m in found
        if kind_of(m) is ShopIntent.ORDER_STATUS
        and order_of(m)
        and _CANCEL_ASKED_ABOUT.search(normalize(m.text, _TYPOS))
    ]
    if len(yes) != 1 or len(looks) != 1 or found.index(yes[0]) < found.index(looks[0]):
        return found
    asked = shop_matcher(f"cancel order {order_of(looks[0])}", context)
    if [kind_of(m) for m in asked] != [ShopIntent.CANCEL_ORDER]:
        return found
    return [asked[0] if m is yes[0] else m for m in found]


def _yes_and_also(
    text: str, found: list[MatchedIntent], pending: Any, context: MatchContext
) -> list[MatchedIntent] | None:
    """A plain yes followed by an action on another order said "also" ("好的，100998也取消"):
    the yes runs what waits, the action is read on its own (asked before anything runs) — it
    was read as a new request alone, dropping the yes. Never with "but", "only", a no or a
    wait beside it, nor when the action names an order that waits; a look beside an ok
    ("好的，另外100683到哪了") is no yes."""
    if not context.awaiting_confirmation:
        return None
    said = normalize(text, _TYPOS)
    yes = _YES_THEN_ALSO.match(said)
    rest = said[yes.end() :] if yes else ""
    named = set(_identifiers(rest))
    # "yes and the thermos from 100200" to ¥100 on 100609: a thing of another order named
    # ("yes, 100609 as well" names none: the same action on it, _yes_and_the_same)
    other_order = (
        bool(named - set(_waiting_orders(pending)))
        and not _SAID_OF_A_THING.search(rest)
        and bool(_NOT_A_THING_ADDED.sub(" ", _thing_refunded(ORDER_MENTION.sub(" ", rest))).strip())
    )
    also = _ALSO.search(rest) or (
        other_order
        and (_AND_THEN.match(rest) or _AND_THEN_END.search(said[: yes.end()] if yes else ""))
    )
    if not yes or not also or _NOT_PLAIN.search(rest) or QUESTION_MARK.search(rest):
        return None
    # (a thing of its own: "yes and also refund 50 on the purifier" read as the ¥50 changing
    # what waits — never so when the words name another thing)
    other_thing = not named and _another_thing(rest, pending)
    if any(m.intent in _ANSWER_INTENTS for m in found) and not (other_thing or other_order):
        return None
    if named & set(_waiting_orders(pending)) or not (named or other_thing):
        return None
    lang = found[0].lang if found else "en"
    request = text[yes.end() :].strip()
    read = shop_matcher(request, dataclasses.replace(context, awaiting_confirmation=False))
    verb = _one_waiting_verb(pending)
    if (
        verb
        and other_order
        and not any(kind_of(m) in _ACTIONS for m in read)
        and not _ASKS_OR_ACTS.search(rest)
    ):
        # "yes and the thermos from 100200", "好的，另外100200的保温杯也退" to one refund waiting:
        # the thing added is refunded too, on its own order (asked before anything runs)
        words = _AND_THEN.sub("", request, count=1)
        if detect_language(words) == "zh":
            request = _VERB_ZH[verb] + _ZH_ALSO_AND_VERB.sub("", words).strip()
        else:
            request = f"{verb} {words}"
        read = shop_matcher(request, dataclasses.replace(context, awaiting_confirmation=False))
    if not read or any(m.intent is Intent.UNKNOWN for m in read):
        return None
    if not any(kind_of(m) in _ACTIONS for m in read):
        return None  # "好的，另外100683到哪了": a look beside an ok — no yes said to what waits
    yes_said = text[: yes.end()].strip(STRIP)
    return [MatchedIntent(Intent.CONFIRM_YES, text=yes_said, lang=lang), *read]


# what is said of a thing beside it, not the thing added for a refund: "yes and thanks for the
# thermos from 100200", "I liked the thermos", "the thermos is great", "it's on its way back"
_SAID_OF_A_THING = rx(
    r"\b(?:thanks?|thank you|thx|love|loved|like|liked|great|good|fine|nice|perfect|works?|worked"
    r"|is|was|are|were|arrived|came|got|received|back|way|i|i'?m|we)\b"
    r"|谢谢|感谢|喜欢|不错|挺好|很好|好用|收到|到了|寄回|在路上"
)
# words beside an order added that name no thing: "yes, 100609 as well please"
_NOT_A_THING_ADDED = rx(
    r"\b(?:as|well|please|pls|plz|thanks|thx|same|for|with|on|of|the|my|one|order|it|that|this"
    r"|do|go|ahead|ok|okay|yes|yeah|sure|refund|refunded|cancel|too|also|again|then|now)\b"
)
_AND_THEN = rx(r"^\s*(?:and|plus|&)\b\s*")
_AND_THEN_END = rx(r"\band\s*$")
# words of a look or another action beside the thing added: "yes and where is 100683"
_ASKS_OR_ACTS = rx(
    r"\b(?:cancel|return|ticket|check|track|where|when|what|how|status|ship|shipped|deliver"
    r"|delivered|arrive|arrived|send|exchange|replace|change|address)\w*|到哪|物流|快递|发货|发了"
    r"|状态|进度|吗|呢|么|查|工单|取消|换|改|地址|签收"
)
_VERB_ZH = {"refund": "退", "cancel": "取消"}
_ZH_ALSO_AND_VERB = rx(
    r"^\s*(?:另外|还有|再|顺便)|(?:也|一起|也一起)?(?:退|退了|退掉|取消|取消了)(?:吧|了)?\s*$"
)


def _one_waiting_verb(pending: Any) -> str:
    """ "refund" or "cancel" when one refund or one cancel waits, else ""."""
    actions = [a for a in (pending if isinstance(pending, list) else ()) if isinstance(a, Mapping)]
    if len(actions) != 1:
        return ""
    return _SAME_VERB.get(str(actions[0].get("tool")), "")


def _another_thing(rest: str, pending: Any) -> bool:
    """ "yes and also refund 50 on the purifier", "好的 另外净化器也退50" after "refund the
    thermos": an action on a thing the waiting actions' words do not name (its own order looked
    up) — not a change of what waits (the ¥50 was put on the thermos's order)."""
    words = " ".join(
        str(a["match"].get("text") or "")
        for a in (pending if isinstance(pending, list) else ())
        if isinstance(a, Mapping) and isinstance(a.get("match"), Mapping)
    ).lower()
    thing = looked_product(_ACTION_FRAME.sub(" ", _AMOUNT_WORDS.sub(" ", rest)))
    said = [w for w in (thing or "").split() if _names_a_thing(w)]
    return bool(said) and not any(w in words for w in said)


_AMOUNT_WORDS = rx(
    r"\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千万]+(?:块|元)?|\b(?:on|of|for|too|also)\b|另外|也"
)


# "yes and same for 100609", "yes, and 100609 too", "好 100609也退": the same action, another order
_THE_SAME_FOR = rx(
    r"^(?:(?:do\s+)?(?:the\s+)?same\s+(?:for|with|on)\s+(?:order\s+)?(?P<a>\d{6})"
    r"|(?:also\s+)?(?:order\s+)?(?P<b>\d{6})\s*,?\s+(?:too|as well|also)|also\s+(?P<c>\d{6})"
    r"|(?P<d>\d{6})\s*(?:也退|也取消|也一样|也是|也要)(?:了|吧)?)"
    r"[\s.!。！~]*(?:please|pls|thanks|thx)?[\s.!。！~]*$"
)
_SAME_VERB = {"request_refund": "refund", "cancel_order": "cancel"}


def _yes_and_the_same(text: str, pending: Any, context: MatchContext) -> list[MatchedIntent] | None:
    """A yes to the one action waiting, and the same action on another order ("yes and same for
    100609"): the yes runs what waits, the other order's action is asked (it was read as a
    change of order — the first action dropped without a word)."""
    actions = [a for a in pending if isinstance(a, Mapping)] if isinstance(pending, list) else []
    if not context.awaiting_confirmation or len(actions) != 1:
        return None
    verb = _SAME_VERB.get(str(actions[0].get("tool")))  # (only these two are done again)
    said = normalize(text, _TYPOS)
    yes = _YES_THEN_ALSO.match(said)
    same = _THE_SAME_FOR.match(said[yes.end() :].strip()) if yes else None
    waiting = _waiting_orders(actions)[0]
    if verb is None or yes is None or same is None:
        return None
    other = next(g for g in same.groups() if g)
    if other == waiting:
        return None
    # the waiting request's own words on the other order ("refund the thermos on 100200" →
    # "… on 100609": that order holds no thermos, asked — never its whole amount)
    match = actions[0].get("match")
    words = str(match.get("text") or "") if isinstance(match, Mapping) else ""
    if not waiting or waiting not in words:
        return None
    said_again = words.replace(waiting, other)
    read = shop_matcher(said_again, dataclasses.replace(context, awaiting_confirmation=False))
    if not read or any(kind_of(m) not in _ACTIONS for m in read):
        return None
    lang = detect_language(text)
    return [
        MatchedIntent(Intent.CONFIRM_YES, text=text[: yes.end()].strip(STRIP), lang=lang),
        *read,
    ]


_ANSWER_INTENTS = frozenset(
    {Intent.CONFIRM_YES, Intent.CONFIRM_NO, Intent.CONFIRM_CHANGE, Intent.CONFIRM_UNCLEAR}
)


_REST_KEPT_ZH = rx(
    r"[，,；;\s]*(?:剩下的?|剩余的?|其他的?|其它的?|别的|其余的?)(?:东西|商品|几样|两样)?(?:我|就|都|先)*"
    r"(?:留着|保留|不退|不用退|不要退|没问题)"
    # "餐具和保温杯留着": the things named kept
    r"|[，,；;\s]*[\u4e00-\u9fff]{2,5}(?:(?:和|跟|、)[\u4e00-\u9fff]{2,5})?(?:我)?"
    r"(?:留着|保留|不退|不用退)(?=\W*$)"
)
_ALTERNATIVE = rx(
    r"换货|换一[个台件只双]|换个新|换新|调换|改成换|\bexchange|\bswap|\breplace(?:ment)?\b"
)
_MONEY_ACTIONS = frozenset({"request_refund", "cancel_order"})
_ALTERNATIVE_REFUSED = rx(
    r"\b(?:rather not|don'?t want (?:to|an?)|no need (?:to|for)|not) (?:\w+ )?"
    r"(?:swap|exchange|replace)|不(?:想|要|用|需要)换|不换"
)


# what a request for a whole order says beside its order: "refund 100200", "100200退款", "退100200"
_WHOLE_ORDER_WORDS = rx(
    r"\d{6}|\b(?:refund|cancel|order|my|the|please|pls|it|for|on|can|you|i|want|a|need)\b"
    r"|退款|退钱|退|取消|订单|帮我|给我|请|吧|了|一下|我要|我想|的|[\s,，.。!！#]"
)


def _waiting_whole(pending: Any) -> bool:
    """Whether every action waiting for a yes was asked for its whole order ("refund
    100200"), not an amount or a thing of it ("refund 100 on 100200", "退100200保温杯")."""
    for action in pending if isinstance(pending, list) else ():
        match = action.get("match") if isinstance(action, Mapping) else None
        if not isinstance(match, Mapping):
            continue
        if match.get("amount_kind") not in (None, "none", "full"):
            return False
        if _WHOLE_ORDER_WORDS.sub("", str(match.get("text") or "")).strip():
            return False
    return True


# "yes for the first one", "the first one yes, the second no", "第一个确认": a waiting action by
# its place in the question
_ORDINAL = rx(
    r"\b(?:the )?(?P<first>first|1st|former)(?: one| refund| cancel\w*)?\b"
    r"|\b(?:the )?(?P<second>second|2nd|latter|last)(?: one| refund| cancel\w*)?\b"
    r"|(?P<first_zh>第一个|第一笔|第一单|前一个|前面那个)|(?P<second_zh>第二个|第二笔|第二单|后一个|后面那个|最后一个)"
)


# a yes or a no said of one waiting action (after its place, "the first one yes", or beside its
# order, "100609的确认 另一个不要")
_ANSWER_YES = (
    r"(?:yes|yeah|yep|ok|okay|sure|go ahead|do it|please|pls|fine|确认|可以|好的?|行|是的?|要|退吧"
    r"|退|取消吧)"
)
_ANSWER_NO = (
    r"(?:no|nope|nah|not|don'?t|do not|never ?mind|skip|不要|不用|算了|别|不了|不退|不取消|先不|不)"
)
_SAID_YES = rx(_ANSWER_YES)
_SAID_TOO = rx(r"(?:(?:yes|ok|okay) )?(?:too|also|as well|也要|也确认|也可以|也是|也行|一样)")
_SAID_NO = rx(_ANSWER_NO)


def _one_yes_one_no(text: str, found: list[re.Match[str]], orders: list[str]) -> str | None:
    """``yes for <order> only`` when the words after one ordinal are only a yes and after the
    other only a no (each ordinal naming a different action), ``yes both`` when both are a yes
    ("the second one too"); None otherwise."""
    first, second = found
    if bool(first.group("first") or first.group("first_zh")) == bool(
        second.group("first") or second.group("first_zh")
    ):
        return None
    said = [text[first.end() : second.start()], text[second.end() :]]
    words = [re.sub(r"[\s,，.。!！~;；]+", " ", w).strip().lower() for w in said]
    if text[: first.start()].strip(" ,，.。!！~"):
        return None
    yes = [bool(_SAID_YES.fullmatch(w)) for w in words]
    no = [bool(_SAID_NO.fullmatch(w)) for w in words]
    if yes[0] and (yes[1] or _SAID_TOO.fullmatch(words[1])):
        # "the first one yes, the second one too", "第一个要 第二个也要": a yes to both
        return "yes both"
    if yes == [True, False] and no == [False, True]:
        picked = first
    elif yes == [False, True] and no == [True, False]:
        picked = second
    else:
        return None
    order = orders[0] if picked.group("first") or picked.group("first_zh") else orders[1]
    return f"yes for {order} only"


_YES_TO_ONE = rx(
    r"(?:(?:yes|yeah|yep|ok|okay|sure|please|pls|only|just|for|to|the|one|do|go|ahead|that|it"
    r"|确认|可以|好的?|行|是的?|要|只要|只|就|退|吧|的|那个|这个|对)\s*)*"
)


def _waiting_orders(pending: Any) -> list[str]:
    """The order each waiting action is on, in the order asked ("" for one on no order)."""
    if not isinstance(pending, list):
        return []
    return [
        str((a.get("args") or {}).get("order_id") or "")
        if isinstance(a.get("args"), Mapping)
        else ""
        for a in pending
        if isinstance(a, Mapping)
    ]


_ANSWER_THEN_ORDINAL = rx(
    r"^\W*(?P<a>yes|yeah|ok|okay|sure|no|nope|nah|not)\s+(?:to|for|on)\s+the\s+"
    r"(?P<o1>first|second)(?: one)?[\s,;.]+(?:and\s+|but\s+)?"
    r"(?P<b>yes|yeah|ok|okay|sure|no|nope|nah|not)\s+(?:to|for|on)"
    r"\s+the\s+(?P<o2>first|second)(?: one)?\W*$"
)


def _ordinals_named(text: str, context: MatchContext) -> str:
    """The answer naming one waiting action by its place ("yes for the first one") naming it
    by its order ("yes for 100200 only"), when two actions on two orders wait: it was read as a
    no; now that action is asked again and the other dropped."""
    pending = context.facts.get("pending_actions")
    if not context.awaiting_confirmation or not isinstance(pending, list) or len(pending) != 2:
        return text
    orders = _waiting_orders(pending)
    if len(orders) != 2 or not all(orders) or orders[0] == orders[1]:
        return text

    said = _ANSWER_THEN_ORDINAL.fullmatch(normalize(text, _TYPOS))
    if said is not None and said.group("o1") != said.group("o2"):
        # "no to the first, yes to the second": the answer before each ordinal
        yes_first = bool(_SAID_YES.fullmatch(said.group("a"))) and bool(
            _SAID_NO.fullmatch(said.group("b"))
        )
        no_first = bool(_SAID_NO.fullmatch(said.group("a"))) and bool(
            _SAID_YES.fullmatch(said.group("b"))
        )
        if yes_first or no_first:
            wanted = said.group("o1") if yes_first else said.group("o2")
            return f"yes for {orders[0] if wanted == 'first' else orders[1]} only"
    found = list(_ORDINAL.finditer(text))
    if len(found) == 2:
        # "the first one yes, the second no", "第一个要 第二个不要": the one said yes to is asked
        # again (the other dropped); anything else said of them is no such answer
        return _one_yes_one_no(text, found, orders) or text
    if len(found) != 1:
        return text
    (m,) = found
    order = orders[0] if m.group("first") or m.group("first_zh") else orders[1]
    rest = normalize(f"{text[: m.start()]} {text[m.end() :]}", _TYPOS)
    if not _YES_TO_ONE.fullmatch(re.sub(r"[\s,，.。!！~]+", " ", rest).strip()):
        return text
    # (that one asked again, the other dropped: never both run on the next yes)
    return f"yes for {order} only"


# an order named by its place among those talked about ("cancel the first one", "refund 100 on
# the second", "取消第一个")
_ORDER_BY_PLACE = rx(
    r"\b(?:the )?(?:first|1st|second|2nd|former|latter|last)(?: one| order| of them)?\s*$"
    r"|\b(?:the )?(?:first|1st|second|2nd|former|latter)(?: one| order| of them)?\b"
    r"|第[一二](?:个|单|笔)|前一个|后一个|前面那个|后面那个|最后一个"
    # "refund both", "两个都取消": both of them, where only the last one was taken
    r"|\bboth(?: of them| orders)?\b|两个都|两单都|俩都"
)


def _no_place_guessed(found: list[MatchedIntent], orders: Sequence[Any]) -> list[MatchedIntent]:
    """ "show order 100904" → "show order 100998" → "cancel the first one": which one is first
    (shown first, listed first, placed first) the words do not settle — a write on an order
    named only by its place among several talked about is asked which order, never given the
    last one talked about (the cancel of 100998, ¥5198)."""
    if len({str(o) for o in orders}) < 2:
        return found
    out = []
    for m in found:
        if (
            m.inferred_order
            and m.capability in _PLACE_ASKED_WRITES
            and _ORDER_BY_PLACE.search(normalize(m.text, _TYPOS))
        ):
            m = replace(
                m, inferred_order=False, args={k: v for k, v in m.args.items() if k != "order_id"}
            )
        out.append(m)
    return out


_PLACE_ASKED_WRITES = frozenset({"cancel_order", "refund", "change_address", "create_ticket"})


_THE_OTHER_ONE = (
    r"(?:the other(?: one| order| refund| cancel\w*)?|another one|the rest"
    r"|另一个|另外一个|另外那个|另一笔|另一单|另外那单|其他的?|其它的?|剩下的?)"
)
_FILLER = (
    r"(?:\s|[,，.。!！~;；:]|\bfor\b|\bto\b|\bthe\b|\bone\b|\bbut\b|\band\b"
    r"|的|那个|这个|那单|订单|order)*"
)
# "100609的确认 另一个不要", "yes for 100609, no for the other", "100609 ok, not the other one",
# "100609确认 100200不要": one waiting order said yes to, the other(s) said no to
_YES_THIS_NO_THAT = rx(
    # the yes said right beside the order (before or after it), never a no ("100609不要")
    rf"^{_FILLER}(?:{_ANSWER_YES}{_FILLER}(?P<yes_a>\d{{6}})"
    rf"|(?P<yes_b>\d{{6}}){_FILLER}(?<![不别没]){_ANSWER_YES}){_FILLER}"
    rf"(?:{_ANSWER_NO}{_FILLER}(?:{_THE_OTHER_ONE}|(?P<no_a>\d{{6}}))"
    rf"|(?:{_THE_OTHER_ONE}|(?P<no_b>\d{{6}})){_FILLER}{_ANSWER_NO})"
    rf"{_FILLER}$"
)


def _order_yes_other_no(text: str, context: MatchContext) -> str:
    """ "100609的确认 另一个不要", "yes for 100609, no for the other" while actions on two or more
    orders wait: ``yes for 100609 only`` (that one asked again, the others dropped). It was read
    the other way round: the order named taken as the one refused, and a yes then ran the one
    the customer had said no to."""
    pending = context.facts.get("pending_actions")
    orders = set(_waiting_orders(pending)) - {""}
    if not context.awaiting_confirmation or len(orders) < 2:
        return text
    norm = normalize(text, _TYPOS)
    said = _YES_THIS_NO_THAT.fullmatch(norm)
    if said is None:
        return text
    wanted = said.group("yes_a") or said.group("yes_b")
    refused = said.group("no_a") or said.group("no_b")
    if wanted not in orders or (refused and (refused not in orders or refused == wanted)):
        return text
    return f"yes for {wanted} only"


_KEPT_ALONE = rx(r"\b(?:only|just)\b|只要|只|就")


def _one_order_kept(text: str, context: MatchContext) -> str:
    """ "just 100803", "只要100803" while actions on several orders wait, 100803 among them: that
    order's actions are asked again, the others dropped (read as "yes for 100803 only", which
    runs nothing); it was a look at 100803, and every waiting action dropped."""
    pending = context.facts.get("pending_actions")
    orders = set(_waiting_orders(pending)) - {""}
    if not context.awaiting_confirmation or len(orders) < 2:
        return text
    norm = normalize(text, _TYPOS)
    named = set(extract_entities(norm).order_ids)
    if len(named) != 1 or not named <= orders or not _KEPT_ALONE.search(norm):
        return text
    (order,) = named
    rest = re.sub(r"[\s,，.。!！~]+", " ", norm.replace(order, " ")).strip()
    return f"yes for {order} only" if _YES_TO_ONE.fullmatch(rest) else text


def _waiting(pending: Any) -> tuple[str, ...]:
    """Each action waiting for a yes: its tool and intent, one entry per action."""
    if not isinstance(pending, list):
        return ()
    return tuple(
        f"{action.get('tool', '')} {(action.get('match') or {}).get('intent', '')}"
        for action in pending
        if isinstance(action, Mapping)
    )


def match_shop(
    text: str,
    *,
    packs: PackSet,
    last_order_id: str | None = None,
    last_sku: str | None = None,
    awaiting_confirmation: bool = False,
    known_orders: Sequence[str] = (),
    waiting: Sequence[str] = (),
    last_write: Mapping[str, Any] | None = None,
    waiting_whole: bool = True,
) -> list[MatchedIntent]:
    """Read every request in a customer message, in order.

    Args:
        text: the customer's message.
        packs: the loaded packs (their identifiers are never read as amounts).
        last_order_id: the order the session talked about last; used (and flagged with
            ``inferred_order``) for order questions that name no order.
        last_sku: the product (SKU) the session talked about last; a stock question that
            refers to it ("when will it be back?", "那什么时候补货") asks about it.
        awaiting_confirmation: the bot asked a yes/no question; bare "yes"/"确认" and
            "no"/"算了" are then :attr:`Intent.CONFIRM_YES` / :attr:`Intent.CONFIRM_NO`.
            Otherwise they are acknowledgements (:attr:`Intent.THANKS` with ``details="ack"``).
        known_orders: the orders the session has named, oldest first; "and the other one?"
            / "那另一个呢" is the latest of them that is not ``last_order_id`` (none: the
            customer's orders are listed to pick from).
        waiting: the tools and intents of the actions waiting for a yes ("好，取消" to the
            cancel question is a yes; beside a waiting cancel, "对，退款吧" is a new request).
        last_write: the last action the bot asked a yes for (``{"tool", "args"}``): "do the
            same for 100452" is that action on 100452 (asked again, with its amount).

    Returns:
        At least one item; ``[MatchedIntent(Intent.UNKNOWN, ...)]`` when nothing matched.
        An order status question without any order number becomes :attr:`ShopIntent.LIST_ORDERS`.
    """
    message_lang = detect_language(text)
    norm = normalize(text, _TYPOS)
    said_whole = norm  # (before any words are blanked for the reading)
    # "i meant refund not cancel for 100609", "100609不是取消是退款": the action named as not
    # meant is no request (its words are blanked in what is read, the spans stay aligned; a
    # ticket still quotes the customer's own words)
    for negated in _NOT_THIS_ACTION.finditer(norm):
        start, end = negated.span(next(g for g in ("not", "not2", "not3") if negated.group(g)))
        norm = norm[:start] + " " * (end - start) + norm[end:]
    # "帮我把保温杯的钱退了，别的不用退", "只退手机，显示器留着": the rest kept is no "no" to the
    # refund asked beside it (blanked here; the refund's own words still say it, for the item)
    if _REFUND_VERB.search(blank(norm, _REST_KEPT_ZH)):
        norm = blank(norm, _REST_KEPT_ZH)
    # "stop bugging me about complaints, cancel 100904": no ticket is wanted; the words are not
    # read as one (blanked, the spans stay aligned), the rest is
    # "I won't file a complaint", "my sister filed a complaint": no complaint ticket (its words
    # blanked; a ticket asked for in so many words beside them still is one)
    not_made = list(_COMPLAINT_NOT_MADE.finditer(norm))
    for said in not_made:
        norm = norm[: said.start()] + " " * (said.end() - said.start()) + norm[said.end() :]
    no_tickets = [
        *_STOP_OFFERING.finditer(norm),
        *TICKET_WONDERED.finditer(norm),
        *_FAULT_RESOLVED.finditer(norm),
        # "别再给我开工单了，…就告诉我快递到哪了": no ticket from any part of the message (a
        # refusal said alone is read as one: "no, I don't want a ticket")
        *(
            m
            for m in _TICKET_NEGATED.finditer(norm)
            if ("工单" in m.group(0) or "ticket" in m.group(0) or "售后" in m.group(0))
            and (
                len(bare(norm[: m.start()] + norm[m.end() :])) > 8
                # "保温杯坏了 不用建工单": a fault told beside it, however short
                or _TICKET.search(norm[: m.start()] + " " + norm[m.end() :])
            )
        ),
    ]
    if not (
        awaiting_confirmation
        or ticket_asked_for(norm)
        or _COMPLAINT_WORD.search(norm)
        or _REMEDY_ASKED.search(norm)
    ):
        no_tickets += list(_TOLD_ONLY.finditer(norm))
    # "refund 100200, I don't want a replacement": no ticket from those words (a fault told
    # beside them is still offered one: a repair or refund is the after-sales team's too)
    for said in [*no_tickets, *_REPLACEMENT_REFUSED.finditer(norm)]:
        norm = norm[: said.start()] + " " * (said.end() - said.start()) + norm[said.end() :]
    opening = _OPENING_GREETING.match(norm)
    greeted = ""
    if opening and norm[opening.end() :].strip(STRIP) and not awaiting_confirmation:
        # "morning! how much is the electric kettle", "哈喽小姐姐～...羊毛袜还有吗": "Hi!", and the
        # greeting is no part of what the request names
        greeted = text[: opening.end()].strip(STRIP) or text[: opening.end()]
        text = " " * opening.end() + text[opening.end() :]  # read as before, named without it
    if unsupported_language(text):
        return [
            MatchedIntent(
                Intent.LANGUAGE, text=text.strip(), lang=message_lang, details="unsupported"
            )
        ]
    if awaiting_confirmation:
        other = other_order_meant(
            text,
            norm,
            message_lang,
            waiting,
            lambda said: match_shop(said, packs=packs),
            whole=waiting_whole,
        )
        if other is not None:
            return other  # "不对，是另一单，净化器那个": the waiting action, for that order
        thing = thing_meant_at_offer(
            text,
            waiting,
            lambda said: match_shop(
                said,
                packs=packs,
                last_order_id=last_order_id or (known_orders[-1] if known_orders else None),
            ),
        )
        if thing is not None:
            return thing  # "yes, only the thermos": the refund of that thing, asked again
        words = dataclasses.replace(SHOP_WORDS, waiting=tuple(waiting))
        answer = read_confirmation(text, norm, message_lang, packs, words)
        if answer is not None and answer.intent is Intent.CONFIRM_NO:
            # "等等 先查下物流", "wait, check the tracking first": not now, and a look asked
            looks = _looks_after_a_hold(
                text,
                packs,
                lambda said: match_shop(
                    said,
                    packs=packs,
                    last_order_id=last_order_id or (known_orders[-1] if known_orders else None),
                ),
            )
            return [answer, *looks]
        if answer is not None:
            return [answer]
        changed = _change_then_reads(
            text,
            message_lang,
            packs,
            words,
            lambda said: match_shop(
                said,
                packs=packs,
                last_order_id=last_order_id or (known_orders[-1] if known_orders else None),
            ),
        )
        if changed:
            return changed
    if _OTHER_ONE.match(norm):
        return [_published(_other_order(text.strip(), message_lang, known_orders, last_order_id))]
    again = _same_again(text, norm, message_lang, last_write, packs)
    if again is not None:
        said_first = text[: again.start].strip(STRIP)
        first = (
            match_shop(
                said_first, packs=packs, last_order_id=last_order_id, known_orders=known_orders
            )
            if bare(normalize(said_first, _TYPOS))
            else []
        )
        return [*first, _published(again.request)]
    if _asked_after_alone(norm):
        # "平底锅那单呢", "and the air fryer order?" said alone: the state of that order (a look,
        # which shows where its parcel is); "and the camera parcel?": where that parcel is
        asked = _ORDER_ASKED_AFTER.match(norm)
        parcel = asked is not None and (asked.group("parcel") or asked.group("parcel_zh"))
        kind = ShopIntent.TRACKING if parcel else ShopIntent.ORDER_STATUS
        return [_published(_Request(kind, text=text.strip(), lang=message_lang))]
    spans = _split_after_identifiers(norm, clause_spans(norm), awaiting_confirmation)
    spans = _split_money_after_cancel(norm, _split_after_refusal(norm, spans))
    # a part asking for something no template reads is deferred on its own: its words and
    # its order never become (or change) another request
    unread = _unread_clauses(norm, spans, awaiting_confirmation)
    groups = _group_clauses(norm, spans, awaiting_confirmation, unread)
    if not groups and _policy_read_whole(norm, last_order_id, awaiting_confirmation):
        # "what happens if I place an order and don't pay straight away?": a policy question
        # no part reads alone, read whole
        groups, unread, spans = [_Group(0, len(norm))], [], [(0, len(norm))]
    if not groups:
        model_read = _model_reading(
            text.strip(), norm, message_lang, norm, last_order_id, last_sku, whole=True
        )
        if len(model_read) == 1 and len(spans) > 1:
            model_read = (
                _products_apart(text, norm, spans, message_lang, last_order_id, last_sku)
                or model_read
            )
        if not model_read and len(unread) > 1:
            # "can i change my address for 100998 and add a phone case to it": each part is
            # said to be unread on its own (a pack may read one of them), none dropped
            model_read = [
                _Request(
                    Intent.UNKNOWN,
                    text=(part := text[s:e].strip(STRIP)),
                    lang=detect_language(part, default=message_lang),
                    details=DEFERRED_PART,
                )
                for s, e in unread
            ]
        alone = model_read or [_unknown(text, message_lang)]
        alone = _no_second_complaint(alone)
        return [_published(m) for m in _greeted_first(alone, greeted, message_lang)]

    group_ents = [extract_entities(norm[g.start : g.end]) for g in groups]
    matched: list[_Request] = []
    previous: Kind | None = None
    product_before: str | None = None  # the product words of the message's last product question
    sku_before: str | None = None  # or its SKU, when it named one
    looked_at: str | None = None  # the product a look at an order named ("我的耳机到哪了")
    mentioned: str | None = None  # the product words of an earlier clause of another kind
    for index, (group, ents) in enumerate(zip(groups, group_ents, strict=True)):
        clause_norm = norm[group.start : group.end]
        clause_text = text[group.start : group.end].strip(STRIP) or text.strip()
        lang = detect_language(clause_text, default=message_lang)
        earlier = _message_order(group_ents[:index][::-1])
        later = group_ents[index + 1].order_ids[:1] if index + 1 < len(group_ents) else ()
        # "can i change the delivery address for 100998 (unread) and when is it shipping": the
        # order a deferred part names is the context of a look after it
        unread_order = any(
            extract_entities(norm[s:e]).order_ids for s, e in unread if e <= group.start
        )
        has_ctx = bool(ents.order_ids or earlier or later or last_order_id or unread_order)
        # "got a refund for the purifier ... how much more could I still get back": an order
        # described earlier in the message is what a later money question is about
        has_ctx = has_ctx or describes_an_order(clause_norm)
        if _REFUND.search(clause_norm):
            has_ctx = has_ctx or describes_an_order(norm[: group.end])
        if _A_REFUND_MADE.search(clause_norm) or refund_amount_named(clause_norm) is not None:
            # "… on the purifier. what happened with the refund you did before": the thing
            # named before is what that refund was on; "之前退的那433": the order with that
            # refund (looked up by its amount)
            has_ctx = (
                has_ctx
                or refund_amount_named(clause_norm) is not None
                or bool(
                    describes_an_order(norm[: group.end])
                    or _THING_REFUNDED_BEFORE.search(norm[: group.end])
                    or (_LOOK_BACK.search(clause_norm) and looked_product(norm[: group.start]))
                )
            )
        found = _classify(clause_norm, ents, has_order_ctx=has_ctx, awaiting=awaiting_confirmation)
        if (
            found is not None
            and found.intent is ShopIntent.REFUND
            and not _REFUND.search(clause_norm)
            and (
                QUESTION_MARK.search(clause_text)
                # (the words beside it, not another request's: "帮我看看净化器那单 签收了吗
                # 顺便把剩下的866退了" asks about the parcel and asks for the refund)
                or _item_refund_refused(norm[group.start : group.end + 3])
            )
        ):
            # "手机退掉？", "如果把保温杯退了，钱退到哪": a thing's refund asked about, or beside a
            # no elsewhere in the message — what the order holds and what is refundable, no offer
            found = _Match(ShopIntent.ORDER_STATUS)
        if (
            found is not None
            and found.intent is ShopIntent.REFUND
            and _REFUND_WHATS_LEFT.search(clause_norm)
            and QUESTION_MARK.search(norm[group.end : group.end + 3])
        ):
            # "refund what's left on 100609?": what is left, asked — the order is shown
            found = _Match(ShopIntent.ORDER_STATUS)
        if (
            found is not None
            and found.intent is ShopIntent.CREATE_TICKET
            and _HYPOTHETICAL.search(_SENTENCE_START.split(norm[: group.start])[-1])
        ):
            # "what if the parcel arrives and it's the wrong colour": a problem that may happen,
            # asked about in the sentence before the clause — the policy answers it
            found = _Match(ShopIntent.FAQ, topic=_return_or_exchange(norm[group.start :]))
        if found is None and _continues_decline(ents, previous, clause_norm):
            continue
        followed_up = found is None and _asks_again(clause_norm, ents, previous)
        if followed_up:
            found = _Match(previous or ShopIntent.STOCK)
        if found is not None and _only_polite_around(clause_norm, ents, found, previous):
            # "cancel order #100904 and order #100998, thank you": the order continues the cancel
            found = _from_entities(ents, previous, clause_norm)
        if found is None and _reason_for_next(ents, clause_norm, groups, norm, index):
            continue  # "100904尺码买错了 帮我取消": why the next request is asked, not a look
        if found is None:
            found = _from_entities(ents, previous, clause_norm)
        if found is None and left_amount_named(clause_norm) is not None:
            # "… 还是只能退剩下的866": what is left on the order with that much left, asked
            found = _Match(ShopIntent.ORDER_STATUS)
        if found is None:
            continue
        if found.intent in _ACTIONS and later and _spares(norm, groups[index + 1]):
            # "取消我的订单，不是100998": the order named after the write is the one it spares
            later = ()
        told_after = norm[groups[index + 1].start : groups[index + 1].end] if later else ""
        if (
            found.intent in _ACTIONS
            and later
            and _asks_of_its_own(norm, groups[index + 1])
            # "帮我开个工单 100683 物流一直不动": the problem told after a ticket is its order's
            and not (found.intent is ShopIntent.CREATE_TICKET and not ASKS.search(told_after))
        ):
            # "没发就取消吧 顺便看下100683到哪了": the order of a look after it is the look's,
            # never the object of a write (the session's order, or a question, is)
            later = ()
        previous = found.intent
        if found.intent in _LOOKS:
            looked_at = looked_product(clause_text) or looked_at
        elif found.intent is Intent.GREETING and not ents.order_ids:
            # "hey hey so the smart watch s3, how much is it": the thing named with the greeting
            mentioned = product_query(clause_text) or mentioned
        elif found.intent is ShopIntent.FAQ and not ents.order_ids:
            # "how long is the warranty on the smart watch and is it in stock": the product a
            # clause of another kind named is what a later "is it in stock" asks about
            mentioned = product_query(clause_text) or mentioned
        elif found.intent is ShopIntent.FAQ:
            # "100200的保温杯想换个颜色 怎么换？你们有几种颜色": the thing of the order named
            thing_words = _CHANGE_WORDS.sub(" ", looked_product(clause_text) or "").split()
            mentioned = " ".join(thing_words) or mentioned
        base = _Request(
            intent=found.intent,
            text=clause_text,
            lang=lang,
            quantity=ents.quantity,
            topic=found.topic,
            details=_details(found, clause_text),
        )
        if found.verb == _VENTED:
            base = replace(base, args={_VENTED: True})
        if found.verb == REFUNDS_ASKED:
            # "where's my refund?" naming no order: the customer's refunds
            base = replace(base, args={REFUNDS_ASKED: True})
        if found.intent is ShopIntent.CANCEL_ORDER and (
            found.verb == IF_UNPAID or _CANCEL_IF_UNPAID.search(clause_norm)
        ):
            # "要是没付就取消吧", "if I haven't paid for 100904 yet, cancel it"
            base = replace(base, details="", args={IF_UNPAID: True})
        if followed_up and found.intent is ShopIntent.TRACKING:
            # "还有保温杯": the product bought, looked up by name like the look before it
            base = replace(base, args={"product": looked_product(clause_text)})
        if found.intent is ShopIntent.REFUND:
            # an order named by its total ("the 797 order") is no amount to refund
            reading = read_amount(without_totals(clause_text), money_context=True, packs=packs)
            kept_amount = KEPT_AMOUNT.search(text)
            if reading.kind == "none" and kept_amount is not None:
                # "退我100609的钱 不过留100给我下次用": an amount kept said apart from the refund —
                # the refund is asked how much, never all of it
                reading = AmountReading("invalid", raw=kept_amount.group(0).strip())
            if (
                reading.kind == "none"
                and _PROCESS_IT.match(normalize(clause_text, _TYPOS))
                and (_WRITE_REPORTED.search(norm) or _CONTACTED_BEFORE.search(norm))
            ):
                # "I was promised a refund of 100 on 100200, please process it": the amount told
                # with the refund the words point back to (never the whole order in its place)
                said_before = read_amount(without_totals(text), money_context=True, packs=packs)
                reading = said_before if said_before.kind in ("exact", "invalid") else reading
            base = replace(
                base,
                amount=reading.value,
                amount_kind=reading.kind,
                amount_raw=reading.raw,
            )
            base = _with_share(base, clause_text, packs, text)
        if found.intent is ShopIntent.STOCK and ents.skus:
            sku_before, product_before = ents.skus[-1], None
        elif found.intent is ShopIntent.STOCK:
            unread_skus = [
                sku
                for s, e in unread
                if e <= group.start
                for sku in extract_entities(norm[s:e]).skus
            ]
            sku_before = sku_before or (unread_skus[-1] if unread_skus else None)
            if sku_before is not None and product_query(base.text) is None:
                # "看了一下SKU-1001评价还不错，想问问现在有没有货", "SKU-1047有优惠吗 有货吗"
                ents = replace(ents, skus=(sku_before,))
            elif sku_before is None:
                # "is the smart watch waterproof (unread) and do you have it in stock", "100200的
                # 耳机到哪了 有没有黑色的同款"
                named = [product_query(text[s:e]) for s, e in unread if e <= group.start]
                before = product_before or next((w for w in named[::-1] if w), looked_at)
                before = before or mentioned
                if product_before is not None and product_query(base.text) is None:
                    # "有平板电脑吗 电子书阅读器呢 都多少钱", "what are the prices": the searches
                    # before already show each product's price and stock
                    continue
                base = replace(base, text=_asked_of_before(base.text, before))
                product_before = product_query(base.text) or product_before
        if (
            later
            and not earlier
            and found.intent in _ACTIONS
            and not ents.order_ids
            and _names_its_own_thing(clause_text, clause_norm)
        ):
            # "the thermos from my august order leaks, refund me the 129 … cancel 100904 too":
            # the thing named is the write's, never the order of the request after it
            later = ()
        message_order = earlier or (later[0] if later else None)
        if (
            earlier
            and message_order == earlier
            and not ents.order_ids
            and found.intent in _LOOKS
            and _names_its_own_thing(clause_text, clause_norm)
        ):
            # "refund 200 on 100609 ... and where's my screen protector": a look naming what it
            # is about is about the order those words describe (looked up), not the one before
            message_order = None
        if (
            earlier
            and message_order == earlier
            and not ents.order_ids
            and found.intent in _ACTIONS
            and _ORDER_OF_A_THING.search(clause_norm)
        ):
            # "100200整单退了吧，手机那单也取消": a write naming its own order by what is in it is
            # about that order (looked up), not the one before
            message_order = None
        if message_order is None and found.intent in _LOOKS and not ents.order_ids:
            # "can i change the delivery time for 100683 and whats the tracking number": a look
            # (a read, never a write) at the order only a deferred part names
            message_order = _message_order(
                [extract_entities(norm[s:e]) for s, e in unread if e <= group.start][::-1]
            )
        found_requests = _with_entities(base, ents, message_order, last_order_id, last_sku)
        if (
            found.intent is ShopIntent.CREATE_TICKET
            and later
            and _ORDER_ALONE.match(norm[groups[index + 1].start : groups[index + 1].end])
        ):
            # "给我建个投诉单，订单100609。谢谢": the order said right after the ticket, alone, is
            # the ticket's — named, not guessed
            found_requests = [replace(r, inferred_order=False) for r in found_requests]
        if (
            found.intent is ShopIntent.CREATE_TICKET
            and ents.faq_topic in ("warranty", "returns", "exchange")
            and ASKS.search(norm[group.start : group.end + 2])  # (the "?" after the clause)
        ):
            # "the thermos stopped keeping stuff hot, warranty covers that right?": the fault
            # (a ticket, asked first) and the policy asked about in the same breath
            found_requests.append(
                _Request(ShopIntent.FAQ, text=clause_text, lang=lang, topic=ents.faq_topic)
            )
        if found.verb == SPARED_SUBJECT:
            # "... but dont touch 100998": the reply names the order left alone
            found_requests = [replace(base, order_id=ents.order_ids[0], details=SPARED_SUBJECT)]
        if found.intent is Intent.GOODBYE and THANKS.search(clause_norm):
            # "thanks so much, bye!", "谢谢 拜拜": the thanks is answered too, then goodbye
            found_requests.insert(0, _Request(Intent.THANKS, text=clause_text, lang=lang))
        if found.intent is not Intent.LANGUAGE and requested_language(clause_norm) is not None:
            # "please reply in English ... where's my order 100998": the switch and the question
            found_requests.append(_Request(Intent.LANGUAGE, text=clause_text, lang=lang))
        if found.intent in _ACTIONS and ents.order_ids:
            found_requests = _per_order(found_requests, clause_norm, ents.order_ids, packs)
            found_requests = _own_write_per_order(found_requests, clause_norm, text, packs)
        matched.extend(found_requests)

    matched = _one_of_them_named(matched, norm)
    matched = _corrected(_taken_back([_unless_retracted(m) for m in matched]), norm)
    matched = _not_asked_for(_taken_back_after(matched, norm), norm)
    matched = _one_amount_for_several(
        _one_amount_for_two_things(_a_thing_and_the_rest(matched), norm), norm
    )
    if not awaiting_confirmation and (
        (
            not any(m.intent in _ACTIONS for m in matched)
            and (THANKS.search(norm) or GOODBYE.search(norm))
        )
        # "取消100904吧，谢谢，没别的事了": nothing else wanted, the cancel still is
        or any(m.intent is Intent.CONFIRM_NO and _NOTHING_MORE.search(m.text) for m in matched)
    ):
        # "谢谢啦 没别的事了 拜拜", "nothing else, thanks": a closing, not a "no" to anything
        matched = [
            replace(m, intent=Intent.THANKS if THANKS.search(m.text) else Intent.GOODBYE)
            if m.intent is Intent.CONFIRM_NO and _A_CLOSING.search(m.text)
            else m
            for m in matched
        ]
    matched, unread = _write_corrected_midway(matched, unread, norm)
    matched, unread = _otherwise_put_aside(matched, unread, norm)
    matched = _instead_of_declined(matched)
    if _CANCEL.search(norm) and _PART_OF_ORDER.search(norm):
        # "cancel the phone but keep the monitor": read clause by clause, the cancel would be
        # of the whole order — the policy answers it (orders are cancelled whole)
        matched = [
            replace(m, intent=ShopIntent.FAQ, topic="cancel_order")
            if m.intent is ShopIntent.CANCEL_ORDER
            and (
                not extract_entities(normalize(m.text, _TYPOS)).order_ids
                or _PART_OF_ORDER.search(normalize(m.text, _TYPOS))
            )
            else m
            for m in matched
        ]
        # "... and keep the monitor": what the policy answers, not a part left unread
        unread = [(a, b) for a, b in unread if not _KEEP_PART.search(norm[a:b])]
    if no_tickets:
        kept = [m for m in matched if m.intent not in (ShopIntent.CREATE_TICKET, Intent.UNKNOWN)]
        matched = kept or [_Request(Intent.CONFIRM_NO, text=text.strip(), lang=message_lang)]
    elif not_made and not ticket_asked_for(norm):
        matched = [m for m in matched if m.intent is not ShopIntent.CREATE_TICKET] or [
            _unknown(text, message_lang)
        ]
    if any(m.intent is ShopIntent.STOCK for m in matched):
        # "电饭煲有货吗 家里那个坏了": why a new one is wanted, not a fault of what we sold
        matched = [
            m
            for m in matched
            if not (
                m.intent is ShopIntent.CREATE_TICKET
                and not m.order_id
                and _NOT_OURS.search(normalize(m.text, _TYPOS))
                and not _BOUGHT_HERE.search(norm)
            )
        ]
    if _RETURN_ACTION.search(norm):
        # "return 100609 and who pays the shipping": what a return's postage costs, the returns
        # policy
        matched = [
            replace(m, topic="returns")
            if m.intent is ShopIntent.FAQ and m.topic == "shipping_fee"
            else m
            for m in matched
        ]
    others = [m for m in matched if not m.args.get(_VENTED) and m.intent not in _SMALL_TALK]
    if unread or any(m.intent not in _LOOKS for m in others):
        # "can I get a refund? honestly the worst": the unhappiness is about the request beside
        # it, not a complaint to file; beside looks only ("where is my parcel ... worst
        # delivery ever", "物流太慢了 服了 膜还没到") it is acknowledged and a ticket offered, and
        # the look shows the delivery's state
        matched = [m for m in matched if not m.args.get(_VENTED)]
    elif others:
        matched = _complaint_beside_looks(matched, others, text, norm)
    if (
        _HOW_REMEDY_WORKS.search(norm)
        and any(m.intent is ShopIntent.FAQ and m.topic in _REMEDY_TOPICS for m in matched)
        and not ticket_asked_for(norm)
        and not is_complaint(text)
        and not REQUESTS.search(blank(norm, _CAN_I))
        and not _DONE_FOR_ME.search(norm)
        and not _HANDLE_IT.search(norm)
        and not _FOR_ME.search(norm)
    ):
        # "one of them is the wrong size, how do exchanges work?", "箱子压扁了 是拒收还是先签收
        # 再退": the customer asks how the remedy goes; the policy answers it, nothing is offered
        matched = [m for m in matched if m.intent is not ShopIntent.CREATE_TICKET]
    flag = (
        COMPLAINED
        if is_complaint(text)
        # a fault told ("my air fryer stopped heating", "100200的保温杯不保温了？") is offered a
        # ticket, filed after a yes — the customer may want the warranty, a refund, or nothing;
        # a ticket asked for in so many words ("open a ticket", "帮我登记") or help asked for
        # ("..., please help", "I want a replacement") is filed at once
        else ASK_FIRST
        if not ticket_asked_for(norm)
        and (
            any(m.intent is ShopIntent.FAQ for m in matched)
            or ASKS.search(norm)
            or not REQUESTS.search(blank(norm, _CAN_I))
        )
        else None
    )
    # (a refund naming what it is of itself: "so just refund the steamer please" — one naming
    # nothing, "the phone is broken, refund me 2999", is of the fault's thing, which the ticket's
    # reading checks: never the order of a thing that cannot have broken yet)
    refunds_of_things = [
        m
        for m in matched
        if m.intent is ShopIntent.REFUND
        and m.details != WRITE_HELD
        and _REFUND_OF_A_THING.search(normalize(m.text, _TYPOS))
    ]
    refund_asked = bool(refunds_of_things)
    # "… 不想再跟机器人说了 给我转人工": the person reached reads the whole story
    transfer_asked = any(
        m.intent is ShopIntent.HANDOFF and not m.args.get(ASK_FIRST) for m in matched
    )
    if transfer_asked:
        # "It came damaged, you refunded part of it, fine, but now … Get me a real person": what
        # is told beside the transfer asks no policy (the person reads it)
        matched = [
            m
            for m in matched
            if not (
                m.intent is ShopIntent.FAQ
                and not _QUESTION_OPENING.search(told := normalize(m.text, _TYPOS))
                and not QUESTION_MARK.search(m.text)
                and not _ASKED_ZH_END.search(told)
            )
        ]
    if (
        not _REMEDY_ON_A_CONDITION.search(norm)
        and refund_asked
        and flag != COMPLAINED
        and not ticket_asked_for(norm)
    ):
        # "the steamer box had a hair straightener in it … so just refund the steamer please":
        # the fault told is why the refund asked for is wanted — no ticket offered beside it (a
        # replacement, a repair or a return asked for is one: "want a replacement and a refund
        # for the shipping"; so is a refund only if the repair fails)
        matched = [
            m
            for m in matched
            if m.intent is not ShopIntent.CREATE_TICKET
            or _TICKET_ASKED_FOR.search(told := normalize(m.text, _TYPOS))
            or _RETURN_ACTION.search(told)
            # ("refund 100609 pls, also my headphones from 100200 are broken": another order's)
            or (m.order_id and all(r.order_id != m.order_id for r in refunds_of_things))
        ]
    if flag:
        # "我要投诉！！… 100200送货直接扔门口": a ticket read from any clause of a complaint is
        # filed only after a yes, whichever clause said it was a complaint; so is a fault told
        # beside a policy question ("100200的保温杯不保温了 这个有保修吗"): the customer weighs
        # what to do, so it is asked first
        matched = [
            replace(m, args={**m.args, flag: True}) if m.intent is ShopIntent.CREATE_TICKET else m
            for m in matched
        ]
    if any(m.intent is not ShopIntent.HANDOFF and m.intent not in _SMALL_TALK for m in matched):
        # "100683为啥还没到，给个说法，不然我要转人工了": the answer may settle it; offered
        matched = [
            replace(m, args={**m.args, ASK_FIRST: True})
            if m.intent is ShopIntent.HANDOFF
            and (
                _IF_NOT_THEN.search(normalize(m.text, _TYPOS))
                or _IF_NOT_BEFORE.search(_words_before(norm, normalize(m.text, _TYPOS)))
            )
            else m
            for m in matched
        ]
    if any(m.intent in (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER) for m in matched):
        # "退款100609 不然我就投诉", "refund 100609 or I'll complain": a complaint threatened if
        # the write is not done asks for no ticket (a yes to the refund filed one too); so is
        # a person ("退款100609 不然我就转人工": a yes to the refund transferred too)
        matched = [
            m
            for m in matched
            if not (
                m.intent in (ShopIntent.CREATE_TICKET, ShopIntent.HANDOFF)
                and _IF_NOT_THEN.search(told := normalize(m.text, _TYPOS))
                and (m.intent is ShopIntent.HANDOFF or _COMPLAINT.search(told))
            )
        ]
    waited = _writes_waiting_on_a_day(matched, norm, said_whole)
    matched = _spared_later(_one_share_for_several_orders(waited), norm, message_lang)
    if any(m.intent is ShopIntent.REFUND and m.amount_kind in (SHARE, "exact") for m in matched):
        # "refund half, the basket is scratched but i'll keep it": the thing is kept, part of
        # the money back — no refusal of the refund asked beside it
        matched = [
            m
            for m in matched
            if not (m.intent is Intent.CONFIRM_NO and _KEEP_THE_THING.search(m.text.lower()))
        ] or matched
    if any(m.intent is ShopIntent.HANDOFF for m in matched):
        # "hand me over to a human, I want to negotiate a refund": what the person is wanted
        # for, not a refund to offer now
        matched = [
            m
            for m in matched
            if not (
                m.intent is ShopIntent.REFUND
                and m.amount_kind in ("none", "full")
                and _TO_DISCUSS.search(normalize(m.text, _TYPOS))
            )
        ]
    asked_and_refused = [
        # "transfer me? no thanks", "transfer me? no, cancel 100904": a transfer asked about and
        # refused in the same breath is none (never one a "yes" to something else makes)
        m
        for m in matched
        if m.intent is ShopIntent.HANDOFF and _asked_with_a_mark(m.text, norm)
    ]
    if asked_and_refused:
        matched = [m for m in matched if m not in asked_and_refused] or [
            _Request(Intent.CONFIRM_NO, text=asked_and_refused[0].text, lang=lang)
        ]
    whole = text.strip(STRIP)
    matched = [
        # "保温杯不保温了 才用两个月 咋整": after-sales reads the whole message, not the clause
        # (and so does the person a transfer reaches: "找个真人来 快递一个礼拜了还没到")
        replace(m, args={**m.args, TICKET_MESSAGE: whole[:2000]})
        if m.intent in (ShopIntent.CREATE_TICKET, ShopIntent.HANDOFF)
        and m.text.strip(STRIP) != whole
        else m
        for m in matched
    ]
    matched = _second_policy_question(
        _budget_joins_search(_another_thing_apart(_late_delivery_looked_at(matched, norm)))
    )
    matched = _every_order_described(
        _the_other_cut(_which_can_be_cancelled(_part_cancel_asked(_own_order_apart(matched), norm)))
    )
    read = _refunds_beside_cancel(
        _one_parcel(_dedupe(_no_product_named(_when_of_the_one_before(matched))))
    )
    read = _refund_named(_ticket_named_apart(_one_ticket_per_message(read), norm))
    matched = [*read, *_changes_not_read(matched, read)]
    # a part of the message that asks for something nothing read is said to be unread, not
    # dropped, also beside a greeting or a bare "ok" ("hi, can you gift wrap my order")
    parts = []
    for start, end in unread:
        part = text[start:end].strip(STRIP)
        if len(_WORDS_ONLY.sub("", norm[start:end])) < 0.6 * len(_WORDS_ONLY.sub("", part)):
            continue  # "I can see a complaint was already opened about it": mostly words
            # blanked as told of (a complaint made, a ticket refused), no request of its own
        if _WHAT_TO_DO.search(norm[start:end]) and any(
            m.intent is ShopIntent.CREATE_TICKET for m in matched
        ):
            continue  # "the kettle stopped heating ... what do I do": the ticket offer answers it
        lang = detect_language(part, default=message_lang)
        if _WHAT_TO_DO.search(norm[start:end]) and _TICKET.search(norm[:start]):
            # "保温杯盖子也盖不严。… 保温杯你告诉我咋弄": what to do about the fault told before,
            # with no ticket offered for it: the after-sales policy (as "… 怎么办" alone)
            matched.append(_Request(ShopIntent.FAQ, text=part, lang=lang, topic="returns"))
            continue
        other_branch = _ELSE_BRANCH.search(norm)
        if (
            other_branch is not None
            and other_branch.start() <= start < other_branch.end()
            and not re.search(r"[?？吗]", norm[start : end + 1])
            and any(m.intent is ShopIntent.CANCEL_ORDER for m in matched)
        ):
            continue  # "…, cancel it. If it's already on the way, leave it and I'll deal with it
            # when it arrives": the other branch of the cancel's condition, nothing to answer
        kept_all_but = ALL_BUT.search(text)
        if (
            (kept_all_but and kept_all_but.start() <= start < kept_all_but.end())
            or (_THING_KEPT.match(norm[start:end]) and not re.search(r"\d{6}", norm[start:end]))
        ) and any(m.intent is ShopIntent.REFUND for m in matched):
            continue  # "keep the air fryer, refund the rest of 100200": what the refund leaves
        if (
            _THING_KEPT_BESIDE.search(norm[start:end])
            and not ASKS.search(norm[start:end])
            and any(
                m.intent is ShopIntent.CANCEL_ORDER
                or (m.intent is ShopIntent.FAQ and m.topic == "cancel_order")
                for m in matched
            )
        ):
            continue  # "… but keep the phone one": what the cancel's precheck checks (or the
            # policy says, asked whether it may)
        if _WHICH_ONE.search(norm[start:end]) and any(
            m.intent is ShopIntent.STOCK for m in matched
        ):
            continue  # "need a kitchen knife ..., what do you recommend": the search answers it
        if _HOW_IT_WORKS.search(norm[start:end]) and any(
            m.intent is ShopIntent.FAQ for m in matched
        ):
            continue  # "衣服大了一码想换货，怎么操作": the policy says how
        returns_wanted = [
            m
            for m in matched
            if m.intent is ShopIntent.CREATE_TICKET
            and _RETURN_ACTION.search(normalize(m.text, _TYPOS))
            and not _TICKET.search(norm)  # a fault or a ticket asked for: filed as asked
        ]
        if _HOW_IT_WORKS.search(norm[start:end]) and returns_wanted:
            # "I wanna return the air fryer from August, how does that even work?": how a
            # return works, asked — the policy answers it, nothing is filed
            # ("i want to exchange the thermos …, how does that work": how an exchange works)
            matched = [
                replace(m, intent=ShopIntent.FAQ, topic=_return_or_exchange(m.text), args={})
                if m in returns_wanted
                else m
                for m in matched
            ]
            continue
        if _LET_GO_LATER.search(norm[start:end]) and any(
            m.details == SPARED_SUBJECT and m.order_id and m.order_id in part for m in matched
        ):
            continue  # "…. keep 100998": the order said to be left alone answers it
        if requested_language(norm[start:end]) is not None:
            # "你好 我是英语用户 please answer in English, where is 100998": the switch
            matched.append(_Request(Intent.LANGUAGE, text=part, lang=lang))
            continue
        model_read = _model_reading(part, norm[start:end], lang, norm, last_order_id, last_sku)
        if model_read:
            # a part the model reads as a request already read ("what's in 100998? I forgot
            # what I bought") is answered by that one
            seen = {_request_key(m) for m in matched}
            matched.extend(m for m in model_read if _request_key(m) not in seen)
        else:
            parts.append(_Request(Intent.UNKNOWN, text=part, lang=lang, details=DEFERRED_PART))
    # "我昨天问过的那个100683 … 离开成都了没有": the model's look at the parcel answers the
    # status question about the same order
    matched = _ticket_named_apart(
        _reason_of_the_ticket(
            _reason_of_the_refund(_one_refund_look(_one_look_per_order(matched))), norm
        ),
        norm,
    )
    matched = _warehouse_of_the_products(_no_return_weighed(_payment_of_the_refund(matched)))
    matched = _where_the_customer_is(_bought_now_arrives(matched), norm)
    matched = _said_not_asked(_time_of_the_refund(_broken_so_buying(matched)), norm)
    matched = _refund_not_come_asked_again(matched, norm)
    matched = _thing_told_before_the_action(_thing_of_the_fault(matched), text)
    matched = _amount_asked_then_refunded(matched)
    matched = _when_of_the_order_named_after(_not_that_one(matched))
    matched = _status_of_the_tickets(matched)
    matched = _each_order_looked_at(_look_told_beside(matched, text))
    matched = _conditions_of_the_cancels(_cancel_of_the_order_looked_at(matched), norm)
    matched = _fault_told_beside_its_remedy(_ticket_of_the_order_told(matched, norm))
    matched = _ticket_of_the_only_order(_told_beside_a_ticket_or_transfer(matched), norm)
    matched = _amount_left_with_thanks(matched)
    substantive = [m for m in matched if m.intent not in _SMALL_TALK and m.details != "ack"]
    matched, parts = _asked_how_first(matched, parts)
    if substantive or parts:
        # "ok cool thx bye": thanks beside a goodbye keep the goodbye (a greeting goes); a
        # greeting or goodbye beside a request is answered in a word ("hi! is SKU-1004 in
        # stock?": "Hi!" and the stock)
        only_thanks = not parts and all(m.intent is Intent.THANKS for m in substantive)
        if only_thanks:
            matched = [m for m in matched if m.intent is not Intent.GREETING]
        else:
            matched = [replace(m, details=BRIEF) if m.intent in _SMALL_TALK else m for m in matched]
        if any(m.intent is not Intent.THANKS for m in [*substantive, *parts]):
            matched = [m for m in matched if m.details != "ack"]
        matched.extend(parts)
    matched = _held_back(_done_if_possible(matched, norm))
    if not matched:
        # nothing read at all: the trained model's reading of the whole message, if confident
        matched = _model_reading(
            text.strip(), norm, message_lang, norm, last_order_id, last_sku, whole=True
        )
    matched = _greeted_first(matched or [_unknown(text, message_lang)], greeted, message_lang)
    if _PROBLEM_ANNOUNCED.search(norm) and all(m.intent is Intent.GREETING for m in matched):
        # "hi, I have a problem": what it is, asked (the menu of what can be done), not a hello
        matched = [*matched, _unknown(text, message_lang)]
    matched = _orders_apart(_only_asked(_no_second_complaint(_things_kept(matched)), norm), norm)
    matched = _looks_apart(matched)
    if _NOT_SETTLED.search(norm):
        # "没付钱那个炸锅不要了？", "…，明天再说": the unpaid order not wanted, asked or put off —
        # its state, no cancel offered
        matched = [
            replace(m, intent=ShopIntent.ORDER_STATUS)
            if m.intent is ShopIntent.CANCEL_ORDER
            and _UNPAID_NOT_WANTED_SAID.fullmatch(bare(normalize(m.text, _TYPOS)))
            else m
            for m in matched
        ]
    # "没发的话就直接帮我取消 已经发了就算了 等到了我自己看看再说": what follows the other branch of
    # a condition ("if it has shipped, leave it") is about that branch, not the cancel asked
    weighed = _ELSE_BRANCH.sub(" ", norm)
    reported = (_WRITE_REPORTED.search(norm) or _WONDERED.search(norm)) and not _OWN_ASK.search(
        blank(norm, _WRITE_REPORTED)
    )
    matched = _cancel_threatened_after_or(matched, norm)
    own_writes = _writes_of_their_own(matched, norm) if reported else []
    held_all = _WRITES_HELD.search(weighed) or (reported and not own_writes)
    answered_no = ([None, *_ASKED_THEN_NO.finditer(norm)])[-1]  # the last one said
    if own_writes:
        # "客服答应给我100200退款 另外取消100904": the refund told of is shown, the cancel asked
        # beside it is the customer's own
        matched = [
            replace(m, intent=ShopIntent.ORDER_STATUS, args={}, amount=None, amount_kind="none")
            if m.intent in (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER) and m not in own_writes
            else m
            for m in matched
        ]
    if held_all or answered_no:
        # "100200要不要整单退了", "…, 开玩笑的", "…, 算了都别动了", "cancel it too lol jk",
        # "…但是我再想想": the refund or cancel weighed, joked about, put off or called off — the
        # order is shown, nothing is offered (a hurried yes would run it)
        matched = [
            replace(
                m,
                intent=ShopIntent.ORDER_STATUS,
                args={},
                amount=None,
                amount_kind="none",
                details=WRITE_HELD,
            )
            if m.intent in (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER)
            and (held_all or _said_before(m, norm, answered_no.end() if answered_no else 0))
            else m
            for m in matched
        ]
    if _REFUND_AGAIN.search(norm):
        # "没收到，再退一次", "refund it again, nothing came": the refund made is looked at (its
        # order's refunds) and when money arrives said — never everything left offered again
        repeated = [
            m
            for m in matched
            if m.intent is ShopIntent.REFUND and m.amount_kind in ("none", "full")
        ]
        matched = [
            replace(m, intent=ShopIntent.ORDER_STATUS, args={}, amount=None, amount_kind="none")
            if m in repeated
            else m
            for m in matched
        ]
        if repeated and not any(m.topic == "refund_time" for m in matched):
            made = repeated[0]
            matched.append(
                _Request(ShopIntent.FAQ, text=made.text, lang=made.lang, topic="refund_time")
            )
    if (
        last_order_id is None
        and _FAULT_OF_NOTHING_NAMED.match(norm)
        and [m.intent for m in matched] == [ShopIntent.CREATE_TICKET]
        and not matched[0].order_id
    ):
        # "it broke" with nothing talked about before: what broke is asked (the clarifying
        # question names what the bot can do), no ticket offered for nothing
        matched = [_unknown(text, message_lang)]
    matched = _kept_beside_cancels(matched, norm)
    return [_published(m) for m in _own_words_of_refunds(_not_the_customers_own(matched))]


# "cancel the monitor order but keep the phone one", "显示器那单取消 手机那单留着": a thing kept
# beside a cancel (an order or its things named by identifier are no thing)
_THING_KEPT_BESIDE = rx(
    r"\b(?:keep|keeping|hold on to|leave)\s+(?P<en>(?:the|my)\s+(?!order\b|rest\b|others?\b)"
    r"[a-z0-9][a-z0-9 -]{1,40}?)(?:\s+(?:one|order|alone))?\s*(?=$|[.,;!?]|\band\b|\bbut\b)"
    r"|(?P<zh>(?!订单|这单|那单|其他|别的|剩下)[\u4e00-\u9fff]{2,6}?)(?:那单|那个|那个订单)?"
    r"(?:留着|保留|不取消|不要取消|别取消)"
)


def _kept_beside_cancels(matched: list[_Request], norm: str) -> list[_Request]:
    """The words keeping a thing, given to each cancel of the message: the cancel's precheck
    asks nothing when the thing kept is in the order to cancel (a yes would cancel it too)."""
    kept = _THING_KEPT_BESIDE.search(norm)
    if kept is None or not any(m.intent is ShopIntent.CANCEL_ORDER for m in matched):
        return matched
    if ASKS.search(norm[max(0, kept.start() - 12) : kept.start()]):
        return matched  # "can i keep the free gift": asked, nothing kept
    said = (kept.group("en") or kept.group("zh") or "").strip()
    return [
        replace(m, args={**m.args, KEPT_SAID: said}) if m.intent is ShopIntent.CANCEL_ORDER else m
        for m in matched
    ]


_WRITES_HELD = rx(
    r"要不要|该不该|你觉得呢|你觉得(?:怎么样|如何|呢)|(?<!不是)开玩笑|先别(?:操作|动|弄|处理|办)|先不要(?:操作|动)"
    r"|再想想|(?:我)?再考虑|考虑一下|都别动|都不用了|算了都|再说|等[^，。,.!?！？]{1,10}再说"
    r"|(?<!not )(?<!no )\b(?:jk|just kidding|j/k|kidding|joking)\b|\blet me think\b"
    r"|\bi'?ll think about it\b"
    # "actually hold off for now, I need to check with my wife first": put off
    r"|\bhold off\b(?: for now| for a bit)?\W*$|\bhold off for now\b"
    r"|\b(?:need to|have to|gotta|let me|i'?ll|i want to) (?:check|ask|talk|confirm)"
    r" (?:with |to )?(?:my |the )?(?:wife|husband|partner|boss|family|mom|mum|dad|parents)\b"
    r"|\bshould i\b|\bwhat do you think\b|\bleave (?:it|them|everything) (?:all )?(?:alone|be)\b"
    r"|\bnever ?mind (?:all|both|everything)\b"
    # "退款100200？不是，我是问退款流程", "cancel 100998? no, I'm just asking": asked about
    r"|[?？]\s*(?:不是|不|没有)[,，\s]*(?:我)?(?:只)?(?:是)?(?:问|想问|问问)"
    r"|[?]\s*(?:no|nah)\b[^.?!]{0,6}\b(?:i'?m |just )*asking\b"
    # unsure: "cancel 100998? hmm not sure", "I'm not sure whether to refund 100200"
    r"|\bnot sure (?:if |whether |about )?(?:i |we )?(?:should |want to |wanna |to )?"
    r"(?:cancel|refund)"
    r"|[?]\s*(?:h+m+[.,\s]*)?(?:i'?m )?not sure\b|\bunsure\b[^.?!]{0,20}\b(?:cancel|refund)"
    r"|\bbut i'?m not sure\W*$|^\W*i'?m not sure\W*,"
    r"|\bdon'?t know (?:if|whether) (?:i |to )?(?:should )?(?:cancel|refund)"
    r"|不确定(?:要不要|该不该|是否要)(?:取消|退)|拿不准要不要|犹豫要不要"
    # someone else wants it, the customer not: "my wife wants to cancel 100998, I don't", "我老婆
    # 要取消100998，我不同意", "a friend told me to cancel 100998 but I like it"
    r"|我不同意|[,，]\s*(?:but )?i don'?t\s*[.!]*$|\bbut i (?:like|love|want|need) (?:it|them)\b"
    # put off: "cancel 100998 next week", "明天帮我取消100998", "等我想好了再取消100998"
    r"|\b(?:cancel|refund)\s+(?:it|this|that|them|(?:order\s*)?#?\d{6}|my order)\s+on\s+"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
    r"|\b(?:cancel|refund)\b[^.?!,]{0,25}\b(?:next (?:week|month)|tomorrow|later|in a few days"
    r"|(?:this|next) weekend"
    r"|in (?:an?|one|two|a few|\d+) (?:hours?|days?|minutes?|weeks?)|once|after (?:the|my|it|i)\b)"
    r"|不过再等等|还是再等等|先等等再"
    r"|(?:明天|后天|下周|下个月|过几天|过两天|稍后|过一会儿?|等会儿?|回头|晚点|等我[^，。,.!?！？]{1,8}"
    r"|(?:下?周|星期|礼拜)[一二三四五六日天]|周末)"
    r"(?:再|就)?(?:帮我|给我)?"
    r"(?:取消|退)"
    # "what if I cancel 100998 and refund 100200?", "suppose I refund 100200, when …": supposed
    r"|(?:^|[.!?。！？]\s*)(?:what if|suppose|supposing|hypothetically|假设)"
    r"[^.!?。！？]{0,40}"
    r"(?:\bcancel|\brefund|取消|退)"
    # against it, in so many words: "I'd rather die than cancel 100998", "the last thing I want
    # is to cancel", "cancelling it would be a disaster", "I regret asking to cancel", "ignore
    # my request to refund", "stop trying to refund", "if you cancel 100998 I'll never …",
    # "100998千万不能取消", "取消100998是最坏的选择"
    r"|\b(?:i'?d|i would) rather\b(?:(?!refund|cancel)[^.!?]){0,30}\bthan (?:to )?(?:cancel|refund)"
    r"|\bthe last thing i (?:want|need)\b[^.!?]{0,12}\b(?:cancel|refund)"
    # (the write itself the subject: not "cancel 100998, keeping it would be a mistake", "a
    # refund for 100200, a replacement won't help")
    r"|\b(?:cancel+ing|cancellation|refunding|a refund|the refund)(?: (?:it|this|that|them"
    r"|\d{6}|order \d{6}|my order|the order))? (?:would|will|is going to) be"
    r" (?:a |the )?(?:disaster|mistake|terrible|nightmare|bad idea|worst|catastrophe)\b"
    r"|\b(?:cancel+ing|refunding|a refund|the refund)(?: (?:it|this|that|them|\d{6}|order \d{6}"
    r"|my order|the order))? (?:won'?t|will not|doesn'?t|does not|wouldn'?t) (?:fix|help|solve"
    r"|change)\b"
    r"|\bregret (?:asking|saying|requesting|my request|the request)\b[^.!?]{0,20}"
    r"\b(?:cancel|refund)"
    r"|\b(?:ignore|disregard|forget)\b (?:my|the) (?:request|message|question) (?:to|about|for)"
    r" (?:the )?(?:cancel|refund)"
    r"|\b(?:message|request) (?:about|to) (?:cancel|refund)\w*\b[^.!?]{0,30}\bwas a mistake"
    r"|\bstop (?:trying to|attempting to) (?:cancel|refund)"
    r"|(?:^|[,.;!?]\s*)if (?:you|u) (?:dare )?(?:cancel|refund)\b"
    r"|\bcan i (?:cancel|refund)\b[^?]{0,40}\band still\b[^?]*\?"
    r"|(?:千万|绝对|一定|可)(?:不能|不要|别)(?:给我)?(?:取消|退)(?!错|多|少|漏|成)"
    r"|(?:取消|退款)(?:\s*\d{6})?(?:也|都)?(?:是最坏的|是个错误|是错误的|不是好主意|没用|没有用|解决不了)"
)
_REFUND_AGAIN = rx(
    r"再退一次|再退一遍|重新退(?:一次|一遍)|\brefund (?:it |that |me )?(?:again|once more)\b"
    r"|\bdo the refund again\b|\bsend (?:the|my) refund again\b"
)
# the other branch of a cancel's condition, to the end of its sentence: "已经发了就算了 等到了
# 我自己看看再说", "if it's already shipped, leave it and I'll deal with it when it arrives"
_ELSE_BRANCH = rx(
    r"(?:已经|要是|如果|万一)?(?:发了|发货了|寄出了|寄了|在路上了?)(?:的话)?(?:那)?就(?:算了|不用了|不取消了"
    r"|别取消了?|留着)[^.!?;。！？；]*"
    r"|\bif (?:it'?s|it has|it is|they'?ve|they have) already"
    r" (?:shipped|been shipped|on (?:the|its) way|left)\b,? (?:just )?(?:leave|keep|forget|skip)"
    r"\b[^.!?;。！？；]*"
)
# "cancel 100998? no", "退100200？算了": the write asked, then answered no by the customer — that
# write, not one asked after it ("100998 cancel? no, refund 100200 instead")
_ASKED_THEN_NO = rx(
    r"\b(?:cancel|refund)[^?？.!]{0,40}[?？]\s*(?:(?:also |still )?(?:no|nah|nope)\b"
    r"(?!\s+(?:doubt|question|problem|worries))|(?:also|still) not\b)"
    r"|(?:取消|退)[^?？。！]{0,20}[?？]\s*(?:也|还是)?(?:不用|不要|算了|不了)"
)
# "my wife said cancel 100998", "the courier told me to ask for a refund on 100683": a write
# someone else asked for, told (the customer's own ask — "帮我", "please" — is a request)
_WRITE_REPORTED = rx(
    r"\b(?:wife|husband|friend|mum|mom|dad|sister|brother|courier|delivery guy|driver|colleague"
    r"|boss|someone|they|he|she)s? (?:said|says|told me|wants? (?:me )?to|asked me to)\b"
    r"|(?:老婆|老公|朋友|妈妈?|爸爸?|同事|快递员?|店员|客服|别人|他|她)(?:说|让我|要|想|叫我|跟我说)"
    r"(?:会|要)?(?:给我|帮我)?"
    r"|还没决定|没想好"
    # "客服答应给我100200退款", "你们说好给我退款的": promised before, not asked now
    r"|(?:客服|你们|店家|商家|卖家|他们)(?:之前|上次|昨天|刚才)?(?:跟我)?"
    r"(?:答应|承诺|说好|同意|说会|说要)(?:了|过)?(?:会|要)?(?:给我|帮我)?"
    r"|\b(?:shop assistant|assistant|staff|seller|store|agent) (?:said|says|told me|promised)\b"
    # "my husband already asked you to refund 100200, did you?", quoting the bot: reported
    r"|\b(?:already )?asked (?:you|u) to (?:cancel|refund)\b[^.!?]*[,.]\s*(?:did|have|has)"
    r" (?:you|u|it)\b"
    r"|^\W*you (?:said|wrote|asked)\b\W*[\"“'](?:shall|should|do you want|would you like)\b"
)
# wondered, not asked: "thinking of a refund for 100200", "would a refund on 100200 be
# possible?", "I haven't decided" — held unless asked beside it ("…? I'd like one please", "…
# refund 100200 now")
_WONDERED = rx(
    r"\bthinking (?:of|about) (?:a |getting a )?refund|\bwould (?:a|the) refund\b[^.?!]{0,30}"
    r"\bpossible|\bi (?:haven'?t|have not) decided\b"
)
_OWN_ASK = rx(
    r"帮我|给我|麻烦|(?<!申)请|(?:取消|退款|退掉|退了)吧|\bnow\b|\bi'?m sure\b|现在"
    r"|\b(?:please|pls|can you|could you|go ahead|i want|i'?d like)\b"
)
_FAULT_OF_NOTHING_NAMED = rx(
    r"^[^\w\u3400-\u9fff]*(?:it|that|this|they|mine)(?:'s|s| is| are)? (?:broke|broken|dead"
    r"|died|not working|stopped working)[^\w\u3400-\u9fff]*$"
    r"|^[^\w\u3400-\u9fff]*(?:又)?(?:坏了|坏掉了|不能用了|用不了了)[^\w\u3400-\u9fff]*$"
)


# "cancel the ebook reader order and the screen protector one too", "显示器那单和卫衣那单都取消",
# "cancel both my unpaid and my paid orders": one write of two orders described, one each
_TWO_ORDERS_EN = rx(
    r"(?P<a>\b(?:the|my) (?!other\b)[a-z0-9' -]{2,30}? (?:order|one))\s*(?:,|\band\b|&|\bplus\b)"
    r"\s*(?:also\s+)?(?P<b>(?:the|my) (?!other\b)[a-z0-9' -]{2,30}? (?:order|one)s?)\b"
    r"|\b(?:both )?(?:my|the) (?P<x>unpaid|paid|pending)\s*(?:order )?(?:and|&) (?:my |the )?"
    r"(?P<y>unpaid|paid|pending) (?:orders?|ones?)\b"
)
_TWO_ORDERS_ZH = rx(
    r"(?P<a>[\u4e00-\u9fff]{1,8}?(?:那单|那个订单|的订单|那笔订单|那一单))"
    r"(?:和|跟|还有|以及|、|加上)(?P<b>[\u4e00-\u9fff]{1,8}?(?:那单|那个订单|的订单|那笔订单|那一单))"
)


_NOT_BOTH = rx(
    r"\b(?:not|no|neither|nor|don'?t|never|stays?|keep|fine|but|friend|wife|husband|says?|said"
    r"|wants?|should|would|could|if|what|kidding|joking|joke|wait|actually)\b|[?？]"
    r"|不|别|没|保留|留着|朋友|老公|老婆|吗|么|呢|开玩笑|等等"
)
# what may stand beside the two orders in a cancel of both
_BOTH_FILLER = rx(
    r"\b(?:please|pls|plz|cancel|both|all|too|as well|also|and|now|thanks|thank you|i want to"
    r"|i'?d like to|can you|could you)\b|请|帮我|麻烦|取消|都|一起|掉|了|吧|谢谢|全部"
)


def _said_before(request: _Request, norm: str, end: int) -> bool:
    """Whether the request's own words start before ``end`` in the message."""
    own = normalize(request.text, _TYPOS).strip()[:30]
    at = norm.find(own) if own else -1
    return 0 <= at < end


def _looks_apart(matched: list[_Request]) -> list[_Request]:
    """ "我的手机那单和贴膜那单 分别到哪了", "where are the phone order and the screen protector
    one": a look at two orders described by what is in them, one look each (looked up by its own
    words)."""
    out: list[_Request] = []
    for m in matched:
        found = (
            _TWO_ORDERS_ZH.search(m.text) or _TWO_ORDERS_EN.search(normalize(m.text, _TYPOS))
            if m.intent in (ShopIntent.TRACKING, ShopIntent.ORDER_STATUS) and m.order_id is None
            else None
        )
        if found is None or not found.group("a"):
            out.append(m)
            continue
        said = m.text if found.re is _TWO_ORDERS_ZH else normalize(m.text, _TYPOS)
        asked = said[found.end() :]
        for described in (found.group("a"), re.sub(r"\bones?$", "order", found.group("b"))):
            out.append(replace(m, text=f"{described}{asked}", inferred_order=False))
    return out


def _orders_apart(matched: list[_Request], whole_norm: str) -> list[_Request]:
    """A cancel or refund of two orders described by what is in them (or their state), and
    naming no order: one request for each, looked up by its own words (each asked first)."""
    out: list[_Request] = []
    for m in matched:
        said = normalize(m.text, _TYPOS)
        if _NOT_BOTH.search(whole_norm):
            out.append(m)  # a no, a question, someone else's words anywhere: left as read
            continue
        found = (
            _TWO_ORDERS_EN.search(said) or _TWO_ORDERS_ZH.search(m.text)
            # cancels only (an order is cancelled whole; "refund the thermos order" may mean the
            # thermos), and only when nothing else is said of them: "…and the paid one stays",
            # "cancel neither", "my friend wants to…", "…? how long would it take"
            if m.intent is ShopIntent.CANCEL_ORDER
            and (m.order_id is None or m.inferred_order)
            and not _NOT_BOTH.search(said)
            else None
        )
        if found is not None:
            # nothing else said of them in their sentence ("…. I'm done with this shop" is not)
            start = max(said.rfind(mark, 0, found.start()) for mark in ".!;。！；") + 1
            ends = [i for mark in ".!;。！；" if (i := said.find(mark, found.end())) >= 0]
            end = min(ends) if ends else len(said)
            rest = said[start : found.start()] + " " + said[found.end() : end]
            if bare(_BOTH_FILLER.sub(" ", rest)):
                found = None
        if found is None:
            out.append(m)
            continue
        if found.groupdict().get("x"):
            described = [f"my {found.group('x')} order", f"my {found.group('y')} order"]
        else:
            described = [
                re.sub(r"\bones?$", "order", found.group("a")),
                re.sub(r"\bones?$", "order", found.group("b")),
            ]
        verb = "cancel" if m.intent is ShopIntent.CANCEL_ORDER else "refund"
        if found.re is _TWO_ORDERS_ZH:
            verb = "取消" if m.intent is ShopIntent.CANCEL_ORDER else "退款"
        args = {k: v for k, v in m.args.items() if k not in (SHARE, SHARE_OF, SHARE_OWN)}
        out.extend(
            replace(m, text=f"{verb} {words}", order_id=None, inferred_order=False, args=args)
            for words in described
        )
    return out


_KEEP_A_THING = rx(
    r"\bkeep(?:ing)? (?:the|my) (?!order\b)[a-z]|[\u4e00-\u9fff]{2,8}(?:我)?(?:留着|保留)"
)


def _things_kept(matched: list[_Request]) -> list[_Request]:
    """ "refund the thermos and the dinnerware set from 100200, keep the air fryer": a thing of
    the order kept beside a refund of it spares the thing, never the order the refund is of."""
    refunded = {m.order_id for m in matched if m.intent is ShopIntent.REFUND and m.order_id}
    return [
        m
        for m in matched
        if not (
            m.intent is Intent.CONFIRM_NO
            and m.details == SPARED_SUBJECT
            and m.order_id in refunded
            and _KEEP_A_THING.search(m.text)
        )
    ]


# "not now, just asking", "could I cancel the phone order in theory?", "不是现在就要退 先问问":
# the customer says nothing is to be done — a refund or cancel asked of is shown, never offered
_ONLY_ASKING = rx(
    r"\bnot asking (?:you )?to (?:do|cancel|refund|file|change|open)"
    r" (?:it|that|this|anything|them)\b"
    r"|\bnot (?:right )?now,? (?:i'?m )?(?:just|only) (?:asking|checking|curious)\b"
    r"|\b(?:in theory|theoretically|hypothetically)\b|\b(?:i'?m|i am) (?:just|only) asking\b"
    r"|(?:只是|就是|先)问问|不是(?:说)?现在(?:就)?要|理论上|假设一下"
    # "is 100 for the thermos and 200 for the air fryer a fair refund?", "…合理吗": whether an
    # amount is fair, asked — the order and what it allows are shown
    r"|^\W*(?:is|would|will|isn'?t|wouldn'?t)\b[^?]{0,120}\b(?:fair|reasonable|enough|too much"
    r"|too little|ok|okay|alright)\b[^?]{0,30}\?\W*$"
    r"|(?:合理|公平|够不够|划算|太多了?|太少了?)(?:吗|么|嘛|不)?\s*[？?]?\s*$"
)


def _only_asked(matched: list[_Request], norm: str) -> list[_Request]:
    """Refunds and cancels in a message that says they are only asked about: what the order
    holds and allows (its state, its refunds), or the policy when no order is named."""
    if not _ONLY_ASKING.search(norm):
        return matched
    out = []
    for m in matched:
        if m.intent in (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER):
            args = {k: v for k, v in m.args.items() if k not in (SHARE, SHARE_OF, SHARE_OWN)}
            m = replace(
                m,
                intent=ShopIntent.ORDER_STATUS,
                amount=None,
                amount_kind="none",
                amount_raw="",
                args=args,
            )
        out.append(m)
    return out


_JUST_THIS = rx(
    r"\b(?:just|only)\b (?:(?:refund|return) )?(?:me )?(?:for )?(?:the|my)\b|只退|单独退|仅退"
)


# requests whose words are their own (a refund beside them is not about what they name); a no,
# an order spared or an unread part may be about the refund's things
_OWN_WORDS_OF_OTHERS = frozenset(
    {
        ShopIntent.ORDER_STATUS,
        ShopIntent.TRACKING,
        ShopIntent.STOCK,
        ShopIntent.FAQ,
        ShopIntent.CREATE_TICKET,
        ShopIntent.HANDOFF,
        ShopIntent.CANCEL_ORDER,
        ShopIntent.TICKET_STATUS,
        ShopIntent.LIST_ORDERS,
    }
)


_EXCHANGE_WORD = rx(
    r"\bexchange\b|\bswap\b|\bswitch(?:ed)?\b|\breplacements?\b"
    r"|换货|换(?:个|一个|一台|一件)?(?:颜色|尺码|码|新的?)"
)


def _return_or_exchange(text: str) -> str:
    """The policy a return or exchange wanted is asked about by: the topic its words name, else
    exchange when they say so, else returns."""
    norm = normalize(text, _TYPOS)
    topic = extract_entities(norm).faq_topic
    return topic or ("exchange" if _EXCHANGE_WORD.search(norm) else "returns")


# "手机那单也取消", "cancel the phone order too": an order named by a thing in it, its subject
_ORDER_OF_A_THING = rx(
    r"^\W*(?:把)?(?![也再就那这还])[\u4e00-\u9fff]{2,8}?(?:那单|那个订单|的订单|那笔订单|那一单)"
    r"|\b(?:the|my) (?!other\b|same\b|whole\b|entire\b|first\b|last\b)[a-z0-9' -]{2,30}? order\b"
)


def _own_words_of_refunds(matched: list[_Request]) -> list[_Request]:
    """A refund's words without those of the message's other requests (:data:`SHARE_OWN`):
    "保温杯那129退了吧 另外餐具碎了帮我开个工单" refunds the thermos, the dinnerware is the
    ticket's. The precheck uses them only when they name items of the order themselves."""
    others = [
        m.text.strip(STRIP)
        for m in matched
        # (a part said to be unread is no refund's words either: "那单保温杯退了吧 另外100609剩下
        # 的钱也退给我" — its "剩下的" made the thermos's refund all of 100200)
        if (m.intent in _OWN_WORDS_OF_OTHERS or m.details == DEFERRED_PART)
        and m.details != SPARED_SUBJECT
        and m.text.strip(STRIP)
    ]
    out = []
    for m in matched:
        words = m.args.get(SHARE_OF)
        if m.intent is ShopIntent.REFUND and isinstance(words, str) and words != REMAINING:
            for write in matched:
                if (
                    write.intent in (*_ACTIONS, Intent.CONFIRM_NO)
                    and write.order_id != m.order_id
                    and write.text.strip(STRIP) not in m.text
                    and _ORDER_OF_A_THING.search(normalize(write.text, _TYPOS))
                ):
                    # "100200整单退了吧，手机那单也取消": the phone is the other write's order,
                    # never an item this refund is of
                    words = words.replace(write.text.strip(STRIP), " ")
                    m = replace(m, args={**m.args, SHARE_OF: words})
            for other in _other_refunds_words(m, matched):
                if other not in m.text:
                    # "refund the thermos and refund 100609": the thermos is no item of 100609,
                    # nor 100609 any part of the thermos's refund — the words are not its at all
                    words = words.replace(other, " " * len(other))
                    m = replace(m, args={**m.args, SHARE_OF: words})
            own = words
            for other in others:
                if other not in m.text:
                    own = own.replace(other, " " * len(other))
            just = _JUST_THIS.search(own)
            if just is not None:
                # "…(the whole story of the order)… please refund me for just the air fryer":
                # from the sentence saying it on (what follows may add to it: "… and the
                # thermos")
                start = max(own.rfind(mark, 0, just.start()) for mark in ".!?。！？\n") + 1
                own = " " * start + own[start:]
            if own != words:
                m = replace(m, args={**m.args, SHARE_OWN: own})
        out.append(m)
    return out


_WORDS_ONLY = re.compile(r"\W+")


def _other_refunds_words(refund: _Request, matched: list[_Request]) -> list[str]:
    """The words of the message's other refunds of another order, one of the two naming its
    order by number: "refund the thermos and refund 100609" — the thermos is no item of
    100609, and 100609 no part of the thermos's refund."""
    return [
        other.text.strip(STRIP)
        for other in matched
        if other is not refund
        and other.intent is ShopIntent.REFUND
        and other.order_id != refund.order_id
        and (_ORDER.search(other.text) or _ORDER.search(refund.text))
        and other.text.strip(STRIP)
    ]


# "now do the same for 100452", "same for the plates order, 150 too", "盘子那单也照这个数退":
# the action asked before (or named before in the message), on another order
_SAME_AGAIN = rx(
    r"\b(?:do |please do )?(?:the )?same (?:thing )?(?:again )?(?:for|with|on) (?=\S)"
    r"|(?:也|同样)(?:照|按)(?:这个|那个|一样的?)?(?:数|金额|数额)?(?:退|来|办|处理)"
    r"|也(?:一样|同样|这样)(?:退|取消)"
    # "cancel my unpaid order. and the paid one too.", "…，手机那单也取消"
    r"|\b(?:and|also|plus) (?:the|my) [a-z0-9' -]{1,30}? (?:one|order)s? (?:too|as well)\b"
    r"|(?:那单|那个订单|的订单)也(?:一起|给我)?(?:取消|退)"
)
_SAID_SAME = rx(r"\bsame\b|照|按|一样|同样|这样")
_REFUNDED_BEFORE = rx(r"退(?:了|过|的)?\s*[¥￥]?(\d+(?:\.\d+)?)")
_THIS_AMOUNT = rx(r"这个数|这个金额|同样的?(?:金额|数)|\bsame amount\b|\bthe same\b")
_WRITE_OF_TOOL = {"request_refund": ShopIntent.REFUND, "cancel_order": ShopIntent.CANCEL_ORDER}
# what may stand around "the same" in a request: a lead word before it (or, in Chinese, the
# order described), the order and an amount after it
_SAME_WORDS_BEFORE = rx(
    r"[\s,，]*(?:(?:ok(?:ay)?|now|and|then|also|please|pls|alright|great|thanks|good)[,\s!.]*)*"
    r"(?:(?:那|还有|另外)?(?:[\u4e00-\u9fff]{1,8}(?:那单|那个订单|的订单|那笔)|\d{6})\s*)?"
)
_SAME_WORDS_AFTER = rx(
    r"\s*(?:(?:the |my |order )?(?:#?\d{6}|[a-z0-9' -]{1,30}? (?:order|one)))?"
    r"(?:[,\s]*(?:¥|rmb\s*)?\d{1,6}(?:\.\d{1,2})?(?:\s*(?:yuan|rmb|kuai|元|块))?)?"
    r"(?:[,\s]*(?:too|as well|please|pls|thanks|again|吧|了吧|掉|掉吧|了))*[\s.!。！~]*"
)
# words that make "the same for X" no request: refused, asked, put off, someone else's words
_NOT_THE_SAME_ASKED = rx(
    r"\b(?:don'?t|do not|dont|no need|never|not|no)\b|不|别|没|算了|先别|暂时"
    r"|\b(?:would|could|can|is|are|was|will|should)\b[^.!?]{0,30}\bsame\b|\bif\b|\bwhat\b|\?"
    r"|\bsaid\b|\bsays\b|\btold\b|\blater\b|\btomorrow\b|说|吗|么|呢|[?？]|以后|明天|再说"
)


@dataclass(frozen=True, slots=True)
class _Again:
    request: _Request
    start: int


def _same_again(
    text: str,
    norm: str,
    lang: Lang,
    last_write: Mapping[str, Any] | None,
    packs: PackSet,
) -> _Again | None:
    """The action named before in the message (or the last one done in the session), asked
    again on the order the words name or describe; None when no such action, no other order is
    named, or the words refuse, ask about, put off or report it ("don't do the same for
    100200", "100904也一样吗", "my sister said the same with 100200")."""
    found = _SAME_AGAIN.search(norm)
    if found is None:
        return None
    before = norm[: found.start()]
    # the words of the order named ("盘子那单也照这个数退": before the "also")
    start = max(norm.rfind(mark, 0, found.start()) for mark in ",.;!?，。；！？") + 1
    if re.match(r"(?:and|also|plus)\b", found.group(0)):
        start = found.start()  # "cancel the ebook reader order and the screen protector one too"
    own = norm[start:]
    if _NOT_THE_SAME_ASKED.search(own) or _ONLY_ASKING.search(norm):
        return None
    if not (
        _SAME_WORDS_BEFORE.fullmatch(norm[start : found.start()])
        and _SAME_WORDS_AFTER.fullmatch(norm[found.end() :])
    ):
        # only the request itself, in a few words: "now do the same for 100452", "same for the
        # plates order, 150 too", "盘子那单也照这个数退" — never "do the same for 100998 soon",
        # "the shop did the same for 100998", "I think I'll do the same…"
        return None
    clause = text[start:].strip(STRIP)
    tool = str((last_write or {}).get("tool") or "")
    repeated = _WRITE_OF_TOOL.get(tool) if _SAID_SAME.search(found.group(0)) else None
    kind = (
        ShopIntent.CANCEL_ORDER
        if _CANCEL.search(own)
        else ShopIntent.REFUND
        if _REFUND.search(own) or "退" in found.group(0)
        else ShopIntent.REFUND
        if _REFUND.search(before) or _REFUNDED_BEFORE.search(before)
        else ShopIntent.CANCEL_ORDER
        if _CANCEL.search(before)
        # only "the same" in so many words repeats the action done before ("and the paid one
        # too" after a look is a look)
        else repeated
    )
    ents = extract_entities(own)
    if kind is None or not (ents.order_ids or describes_an_order(own)):
        return None
    last_args = (last_write or {}).get("args")
    last_order = last_args.get("order_id") if isinstance(last_args, Mapping) else None
    if kind is repeated and ents.order_ids and ents.order_ids[0] == last_order:
        return None  # the same order again: nothing new is asked
    request = _Request(kind, text=clause, lang=lang, order_id=(ents.order_ids or (None,))[0])
    if kind is not ShopIntent.REFUND:
        return _Again(request, start)
    reading = read_amount(without_totals(text[found.start() :]), money_context=True, packs=packs)
    amount: Any = reading.value if reading.kind == "exact" else None
    if reading.kind == "none" and _THIS_AMOUNT.search(norm[found.start() :]) and before.strip():
        # "退了433对吧？…也照这个数退": the amount said before in the message
        said = [*_REFUNDED_BEFORE.finditer(before)]
        earlier = read_amount(
            without_totals(text[: found.start()]), money_context=True, packs=packs
        )
        amount = (
            float(said[-1].group(1)) if said else earlier.value if earlier.kind == "exact" else None
        )
    elif reading.kind == "none" and kind is repeated and isinstance(last_args, Mapping):
        # the refund done before: its amount when the customer said one, all that is
        # refundable when they asked for all of it; anything else is asked
        how = (last_write or {}).get("amount_kind")
        if how == "full":
            return _Again(replace(request, amount=None, amount_kind="full", amount_raw=""), start)
        amount = last_args.get("amount") if how == "exact" else None
    try:
        value = float(amount) if amount is not None else 0.0
    except (TypeError, ValueError):
        value = 0.0
    if value <= 0:
        # "the same" with no amount to repeat: how much is asked, never everything
        return _Again(replace(request, amount=None, amount_kind="invalid", amount_raw=""), start)
    return _Again(replace(request, amount=value, amount_kind="exact"), start)


def _no_second_complaint(matched: list[_Request]) -> list[_Request]:
    """Beside a question about the customer's tickets, a complaint or transfer told of as made
    before ("我记得我投诉过一次，那个投诉怎么样了") is the one asked after: none filed again."""
    if not any(m.intent is ShopIntent.TICKET_STATUS for m in matched):
        return matched
    return [
        m
        for m in matched
        if not (
            m.intent in (ShopIntent.CREATE_TICKET, ShopIntent.HANDOFF)
            and _COMPLAINED_BEFORE.search(normalize(m.text, _TYPOS))
            and not _ANOTHER_FILED.search(normalize(m.text, _TYPOS))
        )
    ]


# "之前投诉过没人理，再给我开一个": another one asked for in so many words
_ANOTHER_FILED = rx(
    r"再(?:给我)?(?:开|提|建|投诉)|重新|新(?:开|建)|开(?:个|一个)?(?:新的)?工单"
    r"|\banother\b|\bnew (?:one|ticket|complaint)\b"
    r"|\b(?:file|open|raise|submit|log) (?:a|an|one|it)\b"
)


# the delivery talked about: a complaint beside a look at it is about it
_DELIVERY_TALK = rx(
    r"快递|物流|包裹|送货|配送|没到|\b(?:parcel|package|delivery|courier|shipping|late|stuck)\b"
)


# "what do I do", "咋整", "才用两个月 怎么办": what to do about a fault told beside it
_WHAT_TO_DO = rx(
    r"^\W*(?:so |now )?what (?:do|should|can) i do(?: now| about it)?\W*$"
    r"|^\W*(?:so |now )?what (?:are|r) my options(?: here| now)?\W*$|^[^，。,.!?！？]{0,8}"
    r"(?:咋整|怎么办|咋办|怎么弄|咋弄|怎么处理|如何是好)\W*$"
)


# "get one for my mum", "are those in stock": the product asked about just before
_SAME_THING = rx(
    r"\b(?:get|buy|order|want|need|grab) (?:one|it|them|those|these)\b"
    r"|\b(?:are|is) (?:those|they|these|it) (?:in stock|available)\b"
)
# "what do you recommend", "any suggestions?", "推荐一下": a choice asked of a search beside it
_WHICH_ONE = rx(
    r"^\W*(?:so |and )?(?:what|which)(?: one)? (?:do|would|can|could) (?:you|u) "
    r"(?:recommend|suggest)\W*$|^\W*any (?:recommendations?|suggestions?|ideas?)\W*$"
    r"|^[^\w\u3400-\u9fff]*(?:有什么|有啥|帮我|给我)?推荐(?:一下|下)?[^\w\u3400-\u9fff]*$"
)


def _complaint_beside_looks(
    matched: list[_Request], looks: list[_Request], text: str, norm: str
) -> list[_Request]:
    """The complaint of a message that looks at a delivery and says how bad it is: about the
    look's order, its words the whole message (what the ticket, if the customer says yes,
    tells after-sales); also when the unhappiness was said inside the look's own clause
    ("钢化膜一个礼拜了还在成都 差评")."""
    vented = [m for m in matched if m.args.get(_VENTED)]
    if not _DELIVERY_TALK.search(norm) and all(m.intent is not ShopIntent.TRACKING for m in looks):
        # "not happy with it ... how much more could I get back": about the look's question
        return [m for m in matched if not m.args.get(_VENTED)]
    if not vented and not DISSATISFIED.search(norm):
        return matched
    whole = text.strip(STRIP)
    order_id = next((m.order_id for m in looks if m.order_id), None)
    complaint = replace(
        vented[0] if vented else looks[0],
        intent=ShopIntent.CREATE_TICKET,
        text=whole,
        details=whole,
        args={_VENTED: True},
    )
    if complaint.order_id is None:
        complaint = replace(complaint, order_id=order_id)
    return [*(m for m in matched if not m.args.get(_VENTED)), complaint]


def _greeted_first(matched: list[_Request], greeted: str, lang: Lang) -> list[_Request]:
    """The requests, after a word of greeting back when the message opened with one."""
    if not greeted or any(m.intent is Intent.GREETING for m in matched):
        return matched
    return [_Request(Intent.GREETING, text=greeted, lang=lang, details=BRIEF), *matched]


def _request_key(request: _Request) -> tuple[Any, ...]:
    return (request.intent, request.order_id, request.sku, request.topic)


_MODEL_KINDS: dict[str, Kind] = {
    "product": ShopIntent.STOCK,
    "tracking": ShopIntent.TRACKING,
    "order_status": ShopIntent.ORDER_STATUS,
    "refund_info": ShopIntent.ORDER_STATUS,
    "list_orders": ShopIntent.LIST_ORDERS,
    "faq": ShopIntent.FAQ,
    "hotline": Intent.HOTLINE,
}


def _model_reading(
    part: str,
    part_norm: str,
    lang: Lang,
    message_norm: str,
    last_order_id: str | None,
    last_sku: str | None,
    *,
    whole: bool = False,
) -> list[_Request]:
    """What the trained classifier (:mod:`helpdesk.packs.shop.clause_model`) reads a part no
    template read as: only a question answered by reading, never a part that asks for
    something to be changed or done ("add a gift message to 100904" stays unread: a look at
    the order would answer what nobody asked), and a product question only with product words
    to search for. Empty when the model is not confident."""
    if asks_for_a_change(part_norm) or IMPERATIVE.search(part_norm.strip()):
        return []
    reading = read_clause(part)
    kind = _MODEL_KINDS.get(reading.intent) if reading is not None else None
    if reading is None or kind is None:
        return []
    ents = extract_entities(part_norm)
    if (
        kind is ShopIntent.STOCK
        and not ents.skus
        and (whole is False or product_query(part) is None or FOLLOW_UP.search(part_norm))
    ):
        # a part the templates left unread that names a product asks something of it they
        # do not answer ("is the smart watch waterproof", "数据线呢" after a look at an
        # order): a search would answer another question; it stays unread
        return []
    if (
        kind is ShopIntent.STOCK
        and not ents.skus
        and _PROPERTY_ASKED.search(part_norm)
        and not (_STOCK.search(part_norm) or _HAVE_THING.search(part_norm))
    ):
        # "保温杯能放洗碗机吗": a question about a product that is not its stock or price — the
        # catalogue lookup answers what it knows and says so; a search would pretend
        return []
    base = _Request(intent=kind, text=part, lang=lang, topic=reading.topic, quantity=ents.quantity)
    message_order = next(iter(extract_entities(message_norm).order_ids), None)
    if kind in _LOOKS and _THING_ORDER_ZH.search(part):
        # "取消100904 另外显示器那单啥时候发": the order its own words describe, not the message's
        message_order = None
    return _with_entities(base, ents, message_order, last_order_id, last_sku)


def _policy_read_whole(norm: str, last_order_id: str | None, awaiting: bool) -> bool:
    """Whether a message none of whose parts reads as anything asks, read whole, a policy."""
    whole = _classify(
        norm, extract_entities(norm), has_order_ctx=bool(last_order_id), awaiting=awaiting
    )
    return whole is not None and whole.intent is ShopIntent.FAQ


def _products_apart(
    text: str,
    norm: str,
    spans: list[tuple[int, int]],
    lang: Lang,
    last_order_id: str | None,
    last_sku: str | None,
) -> list[_Request]:
    """ "羊毛袜我要三份 库存够吗 触屏手套也看下", "电饭煲是几升的 五口人够用吗 空气炸锅多大": a
    message no template read, that the model reads whole as one product question, whose parts
    ask of different products. A part read as a product question on its own is searched on
    its own; a part with product words the model does not read is left to the catalogue
    lookup (unread, then looked up). Empty (the whole reading stands) unless two parts have
    product words of their own, no part shares words with another and one reads alone."""
    parts = [(s, e) for s, e in spans if text[s:e].strip(STRIP)]
    words = [product_query(text[s:e].strip(STRIP)) for s, e in parts]
    named = [w for w in words if w]
    if len(named) < 2 or len(parts) > 4:
        return []
    seen: set[str] = set()
    for words_named in named:
        own = set(words_named.split())
        if own & seen:
            return []  # "羽绒服有黑色吗 羽绒服多少钱": one product asked twice
        seen |= own
    read: list[_Request] = []
    for (start, end), query in zip(parts, words, strict=True):
        part = text[start:end].strip(STRIP)
        part_lang = detect_language(part, default=lang)
        alone = _model_reading(
            part, norm[start:end], part_lang, norm, last_order_id, last_sku, whole=True
        )
        if len(alone) == 1 and alone[0].intent is ShopIntent.STOCK:
            read.extend(alone)
        elif query and not alone:
            read.append(_Request(Intent.UNKNOWN, text=part, lang=part_lang, details=DEFERRED_PART))
        else:
            return []
    return read if any(m.intent is ShopIntent.STOCK for m in read) else []


# "保温杯能放洗碗机吗", "is it dishwasher safe": what a product is like, asked
_PROPERTY_ASKED = rx(
    r"洗碗机|微波炉|机洗|水洗|防水吗|能放|能装|适合|兼容|适用|噪音大|重不重|\bdishwasher\b|\bmicrowave"
    r"|\bwaterproof\b"
    r"|\b(?:is|are) (?:it|they|the [a-z ]{2,20}) (?:safe|quiet|loud|heavy|compatible)\b"
)
# "and the other one?", "what about the other order", "那另一个呢", "另外那个订单怎么样了": the
# order the session named besides the one it talked about last
_OTHER_ONE = rx(
    r"^\W*(?:ok\W*|so\W*)?(?:and |what about |how about |and what about )?(?:the |my )?other"
    r" (?:one|order|package|parcel)(?: of mine)?"
    + TO_END
    + r"|^\W*(?:那|还有|那么)?(?:另(?:外)?(?:一|那)个|另一单|另外的)(?:订单|包裹)?"
    r"(?:呢|怎么样了?|到哪了?|发货了吗|什么情况|(?:什么时候|啥时候|几号|哪天)(?:能)?(?:到|发货|送到))?"
    + TO_END
    # "and the other order, when will the rest of it get here?": where it is, asked
    + r"|^\W*(?:and |what about |how about )?(?:the |my )?other (?:one|order|package|parcel)\W+"
    r"(?:when|where|has|did|is|will)\b[^.!?]{0,60}"
    r"\b(?:arrive|get here|come|ship|deliver|be here|land)"
)


def _other_order(
    text: str, lang: Lang, known: Sequence[str], last_order_id: str | None
) -> _Request:
    """The look at "the other" order: the latest one named that is not the last one talked
    about (flagged as inferred: the reply says which order it took), else the list of the
    customer's orders to pick from."""
    others = [o for o in known if o != last_order_id]
    if others:
        return _Request(
            ShopIntent.ORDER_STATUS, text=text, lang=lang, order_id=others[-1], inferred_order=True
        )
    return _Request(ShopIntent.LIST_ORDERS, text=text, lang=lang)


def _is_request(words: str) -> bool:
    return _classify(words, extract_entities(words), has_order_ctx=True, awaiting=False) is not None


def _identifiers(words: str) -> tuple[str, ...]:
    ents = extract_entities(words)
    return ents.order_ids + ents.skus


# "只退手机", "just the phone", "only refund the monitor": a thing picked out beside the
# action's verb — its name right after "only"/"just" and the verb (never a word about the
# refund itself or how soon: "just refund it already", "只退款 赶紧的", "only refund the shipping")
_NO_THING_WORD = (
    r"(?:order|orders|money|amount|rest|remainder|difference|shipping|postage|delivery|fee|fees"
    r"|whole|full|total|balance|part|half|same|one|ones|it|that|this|them|now|please|already"
    r"|quickly|asap|then|instead|again|first|today|item|items|product|products|thing|things"
    r"|stuff|goods|purchase|lot|cash|payment|price|refund|refunds|cancel|cancellation|return"
    r"|broken|faulty|damaged|defective|bad|other|last|new|original|remaining|card|visa"
    r"|mastercard|account|wechat|alipay|paypal|bank|credit|debit|wallet|deposit|tax|taxes"
    r"|postage|price|cost|extra|overcharge)\b"
)
_THING_PICKED = rx(
    r"\b(?:only|just)\s+(?:(?:refund|cancel|return)\s+)?(?:the|my)\s+(?!" + _NO_THING_WORD + r")"
    r"[a-z]{3,}"
    r"|(?:只|仅|就)(?:要)?(?:退|取消)(?:掉)?(?:那个|这个)?"
    r"(?!就|订单|这|那|东西|商品|物品|货品|产品|到|原|本|此|我|给|实付|卡|支付|微信|银行|邮费|差价|押金|多付"
    r"|[款钱货了吧掉呗啊呀的一二两三四五六七八九十百千半全都部剩运费赶快马现先麻])[\u4e00-\u9fff]{2}"
    # "I only want the thermos money back", "我只要保温杯的钱"
    r"|\b(?:only|just)\s+(?:want|need)\s+(?:the|my)\s+(?!" + _NO_THING_WORD + r")[a-z]{3,}"
    r"|只(?:要|想要)(?!订单|东西|商品|钱|款)[\u4e00-\u9fff]{2,8}的钱"
)


def _names_thing(words: str) -> bool:
    """Whether words naming an action pick a thing out beside it ("只退手机", "just the phone")."""
    return bool(_THING_PICKED.search(words))


SHOP_WORDS = ConfirmationWords(
    subject="order_id",
    subjects=lambda words: extract_entities(words).order_ids,
    identifiers=_identifiers,
    is_request=_is_request,
    names_thing=_names_thing,
    named_action=_named_action,
    named_actions=lambda words: tuple(
        verb
        for verb, words_of in (("cancel", _CANCEL), ("refund", _REFUND), ("ticket", _TICKET_NAMED))
        if words_of.search(words)
    ),
)
"""What the shop knows for reading an answer: orders are its subject, SKUs identifiers too."""


def _published(request: _Request) -> MatchedIntent:
    """The request as the engine reads it: a shop request is ``Intent.PACK`` plus the
    capability and its identifiers in ``args``."""
    ids = {"order_id": request.order_id, "sku": request.sku}
    args = {**{k: v for k, v in ids.items() if v is not None}, **request.args}
    intent = request.intent
    shop = isinstance(intent, ShopIntent)
    return MatchedIntent(
        intent=Intent.PACK if shop else Intent(intent),
        text=request.text,
        lang=request.lang,
        quantity=request.quantity,
        topic=request.topic,
        amount=request.amount,
        amount_kind=request.amount_kind,
        amount_raw=request.amount_raw,
        details=request.details,
        inferred_order=request.inferred_order,
        capability=intent.value if shop else "",
        args=args,
    )


def shop_request(intent: Kind, text: str = "", lang: Lang = "en", **fields: Any) -> MatchedIntent:
    """A request as :func:`match_shop` returns it (for planners, tests and tools that build one):
    ``order_id``, ``sku`` and other shop fields go into ``args``."""
    record = _Request(intent=intent, text=text, lang=lang)
    own = {k: v for k, v in fields.items() if k in _REQUEST_FIELDS}
    extra = {k: v for k, v in fields.items() if k not in _REQUEST_FIELDS}
    record = replace(record, **own, args={**record.args, **extra})
    return _published(record)


_REQUEST_FIELDS = frozenset(_Request.__dataclass_fields__) - {"intent", "text", "lang", "args"}


def kind_of(match: MatchedIntent) -> Kind:
    """The shop intent of a request (its capability), else the engine's intent."""
    if match.intent is Intent.PACK and match.capability in _SHOP_INTENTS:
        return ShopIntent(match.capability)
    return match.intent


_SHOP_INTENTS = frozenset(i.value for i in ShopIntent)


def order_of(match: MatchedIntent) -> str | None:
    """The order a request is about (None: it names none)."""
    value = match.args.get("order_id")
    return str(value) if value else None


def sku_of(match: MatchedIntent) -> str | None:
    """The product (SKU) a request is about (None: it names none)."""
    value = match.args.get("sku")
    return str(value) if value else None


#: Said around a request, not one: dropped when the message asks for something else.
_SMALL_TALK = frozenset({Intent.GREETING, Intent.GOODBYE})


def _unknown(text: str, lang: Lang) -> _Request:
    return _Request(intent=Intent.UNKNOWN, text=text.strip(), lang=lang)


def _message_order(ents_newest_first: list[Entities]) -> str | None:
    for ents in ents_newest_first:
        if ents.order_ids:
            return ents.order_ids[-1]
    return None


# A write (or money) request an order named on its own continues ("取消100904 100998也取消")
_ACTIONS = frozenset({ShopIntent.CANCEL_ORDER, ShopIntent.REFUND, ShopIntent.CREATE_TICKET})
# looking at something, not asking for it done: "另一个订单100200也看下", "check 100200 too"
_LOOK_VERB = rx(r"\b(?:check|look|see|show|track)\b|看|查")


_SPARING = rx(
    r"^\W*(?:but\s+)?(?:not|except|rather than)\b"
    r"|^\W*(?:不是|而不是|除了)"
    r"|(?:保留|别动|不要动|(?<!物流)(?<!物流一直)(?<!快递一直)(?<!包裹一直)不动)\W*$"
)


_NOT_A_THING = re.compile(r"[它那这哪就]|退款|订单|快递|包裹|物流|东西|\s")


_THING_STILL_REFUNDABLE = rx(
    r"(?:^|[，,\s]|只退|退)(?P<thing>[\u4e00-\u9fff]{2,6}?)(?:的话)?[，,\s]*(?:还|能|可以)+退(?:多少|几)"
    # "净化器剩下的钱能退吗": what is left on the thing's order
    r"|(?:^|[，,\s])(?P<thing2>[\u4e00-\u9fff]{2,6}?)(?:那单|的)?(?:剩下|剩余|余下)的?(?:钱|款|部分)"
    r"[^，。,.!?！？]{0,4}(?:能|可以)(?:退|拿回)"
)
_NO_THING = re.compile(r"[它那这哪就我你单个共总多]|退款|订单|快递|包裹|物流|东西|最")


def _thing_still_refundable(norm: str) -> bool:
    """ "净化器还能退多少": how much is refundable on the order a thing named is of (not "我还能退
    多少", "第二单还能退多少", "一共还能退多少")."""
    found = _THING_STILL_REFUNDABLE.search(norm)
    thing = found.group("thing") or found.group("thing2") if found is not None else ""
    return found is not None and not _NO_THING.search(thing or "")


def _names_its_own_thing(clause_text: str, clause_norm: str) -> bool:
    """Whether a look names the thing it is about ("and where's my screen protector", "另外钢化膜
    到哪了", "how much can I still get back on the air purifier"), not only an order before
    it ("它到哪一步了", "那个定单的物流", "第二单还能退多少")."""
    thing = tracked_product(clause_text)
    if left_amount_named(clause_norm) is not None:
        return True  # "refund the remaining 866", "剩下那866退了": the order with that much left
    if _thing_still_refundable(clause_norm):
        return True  # "… 还有净化器剩下的钱能退吗": the purifier's order
    if detect_language(clause_text) == "en":
        return bool(thing) or describes_an_order(clause_norm)
    # "另外显示器那单啥时候发": an order named by a thing in it
    named = _THING_ORDER_ZH.search(clause_text)
    if named is not None and not _NOT_A_THING.search(named.group("thing")):
        return True
    return bool(thing) and not _NOT_A_THING.search(thing or "")


_THING_ORDER_ZH = rx(
    r"(?:^|[^\u4e00-\u9fff]|另外|还有|然后|那|再问下|问下)"
    r"(?P<thing>(?![那这上下前后第刚另哪每一两])[\u4e00-\u9fff]{2,6}?)(?:那单|那个订单|的订单|那笔订单)"
)


def _spares(norm: str, group: _Group) -> bool:
    """A short clause sparing the order it names a write before it ("..., not 100998",
    "不是100998", "100998保留")."""
    clause = norm[group.start : group.end]
    without_ids = _ORDER.sub(" ", clause)
    sparing = _SPARING.search(clause) or NO_ANY.search(clause) or SPARED.search(clause)
    # "哦不对，是100998" corrects the order instead (:func:`_write_corrected_midway`)
    return bool(sparing) and not _CORRECTION.search(clause) and len(bare(without_ids)) <= 16


_NOT_KIDDING = rx(r"\bnot (?:kidding|joking|a joke)\b|\bno joke\b|不是开玩笑")


def _from_entities(ents: Entities, previous: Kind | None, clause: str = "") -> _Match | None:
    """A clause that names an order or SKU but no request: continue the previous request. A
    question or a look ("and where the hell is 100683", "100200也看下") never continues a write:
    it looks at the order."""
    if ents.order_ids:
        said = _NOT_KIDDING.sub(" ", clause)  # "cancel 100998 & 100904, not kidding": both
        if previous in _ACTIONS and (NO_ANY.search(said) or SPARED.search(said)):
            # "... but dont touch 100998", "100904保留", "but not 100998": never the write's
            return _Match(Intent.CONFIRM_NO, verb=SPARED_SUBJECT)
        if previous in _ACTIONS and (ASKS.search(clause) or _LOOK_VERB.search(clause)):
            return _Match(ShopIntent.ORDER_STATUS)
        if previous in ORDER_SCOPED_INTENTS and previous is not None:
            return _Match(previous)
        return _Match(ShopIntent.ORDER_STATUS)
    if ents.skus:
        return _Match(ShopIntent.STOCK)
    return None


_DELIVERY_STATE = rx(
    r"\b(?:came|come|arrive|arrived|received|got|late|lost|taking (?:forever|ages|so long))\b"
    r"|收到|丢了|丢件"
)


def _reason_for_next(
    ents: Entities, clause: str, groups: list[_Group], norm: str, index: int
) -> bool:
    """A clause naming an order with neither a request nor a question, before an action that
    names no order of its own: the action's reason (its order goes to the action)."""
    if not ents.order_ids or ASKS.search(clause) or index + 1 >= len(groups):
        return False
    unpaid = bool(_NOT_PAID.search(clause))
    if not unpaid and (_WHERE_OR_WHEN.search(clause) or _DELIVERY_STATE.search(clause)):
        return False  # "my order 100683 never came": its state is worth showing beside the refund
    after = norm[groups[index + 1].start : groups[index + 1].end]
    found = _classify(after, extract_entities(after), has_order_ctx=True, awaiting=False)
    if found is None or extract_entities(after).order_ids:
        return False
    # "100904还没付款 帮我取消吧": why the cancel is asked; "100200的保温杯不保温了 这个有保修吗":
    # what the policy question is about (a fault told, not a look asked for)
    told_fault = found.intent is ShopIntent.FAQ and bool(_FAULT_TOLD.search(clause))
    return found.intent in _ACTIONS or told_fault


# "if I haven't paid for 100904 yet, cancel it", "cancel it if it's still unpaid": a cancel only
# if the order is unpaid (its precheck checks it)
_CANCEL_IF_UNPAID = rx(
    r"\b(?:if|in case)\b[^.?!;]{0,30}(?:\bunpaid\b|\b(?:have ?n[o']?t|not|never|didn'?t"
    r"|is ?n'?t|is not) (?:yet |been |even )?(?:paid|pay)\b)"
    r"|(?:没|未|不)(?:付|付款|付钱|支付)(?:的话)?(?:就|那就)"
)
# "还没付款", "haven't paid yet": the order's payment, told
_NOT_PAID = rx(r"没付|未付|未支付|没支付|\b(?:have ?n[o']?t|not|never) (?:yet )?paid\b|\bunpaid\b")
# a fault or dislike told of something bought ("不保温了", "颜色不喜欢", "stopped working")
_FAULT_TOLD = rx(
    r"坏了|不保温|不工作|不能用|没法用|不喜欢|不合适|有问题|异响|裂|碎|漏|"
    r"\b(?:broken|broke|stopped working|leaks?|leaking|cracked|don'?t like|doesn'?t fit)\b"
)


def _only_polite_around(clause: str, ents: Entities, found: _Match, previous: Kind | None) -> bool:
    """An order named with only a greeting or thanks around it, after a write: read as a look
    on its own ("please check 100683 for me, thanks"), it continues the write here."""
    if found.intent is not ShopIntent.ORDER_STATUS or previous not in _ACTIONS:
        return False
    rest = blank(blank(clause, THANKS), GREETING)
    return _classify(rest, ents, has_order_ctx=True, awaiting=False) is None


def _asks_of_its_own(norm: str, group: _Group) -> bool:
    """Whether a clause is a look, a question or another request of its own that is not a write
    ("100200也帮我看看", "100683到哪了"), not only the order of the request before it (a write
    beside it, "my headphones broke and I'd like a refund, order 100200", shares its order)."""
    clause = norm[group.start : group.end]
    found = _classify(clause, extract_entities(clause), has_order_ctx=True, awaiting=False)
    if found is not None:
        return found.intent not in _ACTIONS
    return bool(_LOOK_VERB.search(clause) or ASKS.search(clause))


# "can you refund 100609? actually no, forget it": the customer took the request back in the
# same breath (the words end the request's own part of the message)
_RETRACTED = rx(
    r"(?:^|[,.!?;\s])(?:(?:actually|wait|hmm|oh)[,.!\s]+)?(?:no[,.!\s]+|nope[,.!\s]+)?"
    # ("if it doesn't come by friday refund me, otherwise nvm": a condition, not a take-back)
    r"(?<!otherwise )(?<!else )"
    r"(?:forget (?:it|about it|that)|never ?mind|nvm|scratch that|don'?t bother|don'?t do it"
    r"|(?:no|wait)[,.!\s]+keep it|leave it"
    # "refund 100200 300 haha no", "... jk": laughed off in the same breath
    r"|(?:haha\w*|hehe\w*|lol|lmao)[,.!\s]+(?:no|nope|nah)|just kidding|jk|i'?m kidding"
    r"|(?<!not )(?<!no )kidding)"
    + TO_END
    + r"|[,，.。!！?？\s…~～](?:算了(?:[,，\s]*不用了?)?|还是算了|不用了|先不了|不了)(?:吧|吧。)?"
    + TO_END
)


# a refusal on its own after a write in the same message: "取消100904，算了", "退100609 算了不退了"
_TAKE_BACK = rx(
    r"^\W*(?:(?:那|那就|还是|哎)\s*)?(?:算了|不用了|不要了|不退了|不取消了|先不了|不了)"
    r"|^\W*(?:(?:actually|wait|hmm|oh)[,.!\s]+)?(?:no[,.!\s]+)?(?:wait[,.!\s]+)?"
    r"(?:forget it|never ?mind"
    r"|scratch that|keep it|leave it|(?:nah|nope)[,.!\s]+(?:i'?ll (?:just )?)?keep it"
    r"|ignore (?:that|this|it)|(?:i )?changed my mind|i'?ve changed my mind)"
    + TO_END
    # "不用帮我退 我先问问", "don't do anything yet, just asking": nothing is to be done yet
    + r"|^\W*(?:先)?不用(?:帮我|给我)?(?:退|取消|办|弄|申请|提交|处理)"
    r"[^，。,.!?！？]{0,6}"
    r"(?:[，,\s]*(?:我)?(?:先|就|只是|就是)?问问)?\W*$"
    r"|^\W*(?:我)?(?:先|就|只是|就是)问问(?:而已)?\W*$"
    # "先问问 不是现在就要退": not now
    r"|^\W*(?:我)?(?:先|就|只是|就是)?(?:问问)?\W*不是(?:说)?现在(?:就)?要(?:退|取消|办|弄)"
    r"|^\W*(?:not (?:right )?now|not yet)?[,.\s]*(?:i'?m |i am )?(?:just|only) (?:asking|checking)"
    r"\W*$"
    # "not asking you to do it (now), just checking": nothing is to be done
    r"|^\W*(?:but )?(?:i'?m |i am )?not asking (?:you )?to (?:do|cancel|refund|file|change) "
    r"(?:it|that|this|anything|them)\b(?: (?:right )?now| yet)?"
    r"(?:[,.\s]+(?:i'?m |i am )?(?:just|only) (?:asking|checking))?\W*$"
    r"|^\W*(?:don'?t|do not) do anything(?: yet)?(?:[,.\s]+(?:i'?m )?(?:just|only) asking)?\W*$"
)


# "100904取消掉 不要了": why it is cancelled (the customer does not want it), not a take-back —
# unless the customer changed their mind on the way ("100904取消。等等 不要了", "哦不，不要了")
_DONT_WANT_IT = rx(r"^\W*(?:都|我)?不要了\W*$")


def _one_of_them_named(matched: list[_Request], norm: str) -> list[_Request]:
    """ "手机那单和空气炸锅那单，帮我取消一个，手机那单不要了": the cancel of "one of them" is of
    the order the words after it say is not wanted (those words are no part left unread)."""
    for n, m in enumerate(matched):
        one = ONE_OF_THEM_CANCELLED.search(normalize(m.text, _TYPOS))
        if m.intent is not ShopIntent.CANCEL_ORDER or m.order_id or one is None:
            continue
        start = norm.find(normalize(m.text, _TYPOS))
        named = _DESCRIBED_ORDER_UNWANTED.search(norm, max(start, 0) + one.end())
        if start < 0 or named is None:
            continue
        said = named.group(0)
        return [
            replace(m, text=said) if k == n else o
            for k, o in enumerate(matched)
            if k == n or not (o.intent is Intent.UNKNOWN and said in normalize(o.text, _TYPOS))
        ]
    return matched


def _taken_back(matched: list[_Request]) -> list[_Request]:
    """Writes a later bare refusal takes back ("退100609 算了不退了", "取消100904，算了", "cancel
    100998. never mind"): the refusal stays (the reply says nothing was done), the writes go. A
    refusal naming an order or a thing ("but keep 100904", "dont refund the shipping") leaves
    the writes as they are."""
    matched = [
        m
        for n, m in enumerate(matched)
        if not (
            _DONT_WANT_IT.match(m.text)
            and any(o.intent is ShopIntent.CANCEL_ORDER for o in matched[:n])
            and not _CHANGED_MIND.search(
                normalize(" ".join(o.text for o in matched[: n + 1]), _TYPOS)
            )
        )
    ]
    refusal_at = [
        n
        for n, m in enumerate(matched)
        if not extract_entities(normalize(m.text, _TYPOS)).order_ids
        and (m.intent is Intent.CONFIRM_NO or (m.intent is Intent.THANKS and m.details == "ack"))
        and _TAKE_BACK.search(m.text.lower())
    ]
    if not refusal_at:
        return matched
    last = refusal_at[-1]
    kept = [m for n, m in enumerate(matched) if not (n < last and m.intent in _ACTIONS)]
    if len(kept) == len(matched):
        return matched
    return [
        _Request(Intent.CONFIRM_NO, text=m.text, lang=m.lang) if m is matched[last] else m
        for m in kept
    ]


# "cancel 100998 - actually no, keep that one. it's 100904 i meant", "帮我取消100998 啊不 点错了
# 我要取消的是100904": the customer corrects the order of the write they just asked for
_CORRECTION = rx(
    r"\b(?:actually|no wait|oops|sorry|my bad|i meant|i mean|meant"
    r"|keep (?:that|this|it)(?: one)?)\b"
    r"|点错了|说错了|写错了|打错了|搞错了|弄错了|不对|啊不|哦不|不是这个|我是说|应该是|我要\S{0,4}的是"
)


# "I need to return the dinnerware set, how does that work?": how it is done, asked
_HOW_IT_WORKS = rx(
    r"^\W*(?:so |and |but )?how (?:does|do|would|will) (?:that|it|this|the process|returning|"
    r"exchanging) (?:even |actually |exactly )?work\b"
    r"|^\W*how do i (?:do|go about) (?:that|it|this)\b"
    # "… a warranty on the purifier and how do I claim it": how the policy asked about is used
    r"|^\W*(?:and )?how (?:do|can|would) (?:i|we) (?:claim|use|make a claim on|apply for)"
    r" (?:that|it|this|one)\b"
    r"|\bwhat(?:'s| is) the process\b"
    r"|怎么(?:弄|操作|办理|申请)|流程是(?:什么|怎样|啥)|要怎么做"
)


def _asked_how_first(
    matched: list[_Request], parts: list[_Request]
) -> tuple[list[_Request], list[_Request]]:
    """An after-sales ticket read from words that do not ask for one in so many words, beside
    "how does that work?": the customer asks how it is done before anything is filed — the
    policy answers both, nothing is filed."""
    how = [p for p in parts if _HOW_IT_WORKS.search(p.text.lower())]
    tickets = [
        m
        for m in matched
        if m.intent is ShopIntent.CREATE_TICKET and not _EXPLICIT_TICKET.search(m.text.lower())
    ]
    if not how or not tickets:
        return matched, parts
    topic = _return_or_exchange(" ".join(m.text for m in tickets))
    policy = _Request(ShopIntent.FAQ, text=tickets[0].text, lang=tickets[0].lang, topic=topic)
    kept = [
        policy if m is tickets[0] else m for m in matched if m is tickets[0] or m not in tickets
    ]
    return kept, [p for p in parts if p not in how]


# "... can you refund the 433? wait no, that one was already refunded, forget it. just the
# phone": the write taken back in words no clause of its own kept
_FORGET_IT = rx(
    r"\b(?:forget (?:it|that|about it)|never ?mind|scratch that)\b"
    # ("never mind the address", "forget it, about calling me": something else let go)
    r"(?!\s*,?\s*(?:the|about|my|with|calling|to|that one)\b)"
    # "100998取消？不不不", "人工客服在吗？不用了我自己看看": asked, then refused at once
    r"|[？?]\s*(?:不不+|不用了|算了|\bno,? no\b|\bnah\b)"
)


def _a_thing_and_the_rest(matched: list[_Request]) -> list[_Request]:
    """ "refund 129 for the thermos and the rest of 100200": a thing and the rest of its order
    is the whole order, one refund of everything refundable (¥129 and the whole ¥797 were
    offered apart; a yes ran both, and the shop refused the second)."""
    refunds = [m for m in matched if m.intent is ShopIntent.REFUND and m.order_id]
    if len(refunds) != 2:
        return matched
    thing, whole = refunds
    # (the rest after the thing, of the order it names: "净化器剩下那部分钱也退给我吧 … 100200里的
    # 保温杯也退了" is the rest of another order, told first)
    if (
        whole.amount_kind != "full"
        or thing.amount_kind == "full"
        or thing.order_id != whole.order_id
        or not _REST_OF.search(normalize(whole.text, _TYPOS))
        or str(whole.order_id) not in whole.text
    ):
        return matched
    return [m for m in matched if m is not thing]


def _one_amount_for_two_things(matched: list[_Request], norm: str) -> list[_Request]:
    """ "refund 300 for the air fryer and thermos in 100200": one amount for two things of one
    order is one refund of it (the thermos was offered apart at its price, and a yes paid both:
    ¥429). The thing after "and" asks for no refund of its own; one amount is said."""
    refunds = [m for m in matched if m.intent is ShopIntent.REFUND and m.order_id]
    if len(refunds) != 2 or len(_AMOUNT_SAID.findall(norm)) != 1:
        return matched
    first, second = refunds
    if (
        first.order_id != second.order_id
        or first.amount_kind != "exact"
        or second.amount_kind != "none"
        or _REFUND.search(normalize(second.text, _TYPOS))
    ):
        return matched
    both = replace(
        first,
        text=norm[norm.find(normalize(first.text, _TYPOS)) :].strip() or first.text,
        args={**first.args, SHARE_OF: second.args.get(SHARE_OF) or norm},
    )
    return [both if m is first else m for m in matched if m is not second]


def _one_amount_for_several(matched: list[_Request], norm: str) -> list[_Request]:
    """ "refund 100 total across 100200 and 100609", "split 100 between …": one amount said for
    several orders' refunds — how it is split is asked, never the amount paid on each."""
    refunds = [m for m in matched if m.intent is ShopIntent.REFUND and m.order_id]
    amounts = {m.amount for m in refunds if m.amount_kind == "exact"}
    once = len(amounts) == 1 and len(_AMOUNT_SAID.findall(norm)) == 1
    if len({m.order_id for m in refunds}) < 2 or not once or not _TOTAL_ACROSS.search(norm):
        return matched  # ("refund 50 on 100200 and 50 on 100609, 100 in total": each its own)
    return [
        replace(m, amount=None, amount_kind="invalid") if any(m is r for r in refunds) else m
        for m in matched
    ]


def _not_asked_for(matched: list[_Request], norm: str) -> list[_Request]:
    """Refunds and cancels named but not asked for (:func:`not_asked_for`: meant once and let
    go, said by mistake, taken back, refused with a typo): a no; thought or asked about: a look
    at the order. The words after one are read up to the next write."""
    out: list[_Request] = []
    for n, m in enumerate(matched):
        if m.intent not in (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER):
            out.append(m)
            continue
        own = normalize(m.text, _TYPOS)
        at = norm.find(own)
        if at < 0:
            out.append(m)
            continue
        later = [norm.find(normalize(o.text, _TYPOS), at + len(own)) for o in matched[n + 1 :]]
        stops = [
            i
            for i, o in zip(later, matched[n + 1 :], strict=True)
            if i >= 0 and o.intent in _ACTIONS
        ]
        after = norm[at + len(own) : min(stops, default=len(norm))]
        meant = not_asked_for(norm[:at], own, after)
        if meant == "no":
            out.append(_Request(Intent.CONFIRM_NO, text=m.text, lang=m.lang))
        elif meant == "asked_about" and any(o.intent in _ACTIONS for o in matched[:n]):
            # "could I cancel 100998 and refund 100609?": the first half read as asked for, so
            # is the second
            out.append(m)
        elif meant == "asked_about":
            # "can I refuse it at the door and get my money back?": whether it can be done
            before = norm[:at]
            topic = "cancel_order" if re.search(r"cancel|refus|reject", before) else "returns"
            out.append(_Request(ShopIntent.FAQ, text=m.text, lang=m.lang, topic=topic))
        elif meant == "look" and m.order_id:
            look = _Request(ShopIntent.ORDER_STATUS, text=m.text, lang=m.lang)
            out.append(replace(look, order_id=m.order_id))
        else:
            out.append(m)
    return out


def _taken_back_after(matched: list[_Request], norm: str) -> list[_Request]:
    """Writes (and money) asked for before a later "forget it" / "never mind" that no write
    follows are taken back, wherever the words ended up (a clause read with another request)."""
    found = list(_FORGET_IT.finditer(norm))
    if not found:
        return matched
    at = found[-1].end()

    def taken_back(m: _Request) -> bool:
        """Asked for before the words, or in the clause that says them ("that one was
        already refunded, forget it")."""
        words = normalize(m.text, _TYPOS).strip()
        start = norm.find(words)
        return start >= 0 and (start + len(words) <= at or start < found[-1].start())

    before = [m for m in matched if m.intent in _ACTIONS and taken_back(m)]
    if not before:
        return matched
    kept = [m for m in matched if m not in before]
    if any(m.intent in _ACTIONS for m in kept):
        return kept  # "cancel 100904. never mind, cancel 100998 instead": the later one stands
    words = norm[found[-1].start() : found[-1].end()]
    return [*kept, _Request(Intent.CONFIRM_NO, text=words, lang=before[0].lang)]


def _corrected(matched: list[_Request], norm: str) -> list[_Request]:
    """A write of one order followed, after a correction, by the same write of another order:
    the first is the one the customer took back (only the corrected one is asked about). The
    amount said of the first goes with the correction when it says none of its own ("refund 50
    yuan, order 100200, no wait 100609" is ¥50 on 100609, not all that is left of it)."""
    out = []
    amounts: dict[int, _Request] = {}
    for n, m in enumerate(matched):
        later = [
            o
            for o in matched[n + 1 :]
            if (o.intent is m.intent or {o.intent, m.intent} <= _LOOKS)
            and o.order_id
            and o.order_id != m.order_id
        ]
        swapped = [o for o in matched[n + 1 :] if o.intent in _ACTIONS and o.intent is not m.intent]
        if m.intent in _ACTIONS and swapped:
            # "我想退空气炸锅那单 不对 是取消 还没付钱的那个": another action, corrected to
            start = norm.find(normalize(m.text, _TYPOS).strip())
            swap = _ACTION_SWAP.search(norm, start) if start >= 0 else None
            if swap and not _AS_WELL.search(norm, swap.end()):
                continue  # ("..., actually cancel 100998 too" asks for both)
        if m.order_id and later and (m.intent in _ACTIONS or m.intent in _LOOKS):
            start = norm.find(m.order_id)
            end = norm.rfind(later[-1].order_id or "")
            # a look is corrected only by a mistyped number said so ("where's order 100698 -
            # sorry, typo, 100683"): "where's 100683, actually 100609 too" asks about both
            fix = _CORRECTION if m.intent in _ACTIONS else _MISTYPED
            fixed = fix.search(norm, start, end) if 0 <= start < end else None
            if fixed:
                if (
                    m.amount_kind != "none"
                    and later[-1].amount_kind == "none"
                    # ("退100200的保温杯129，不对，是100609": an amount of a thing stays its own)
                    and SHARE_OF not in m.args
                    and not _thing_refunded(norm[: fixed.start()])
                ):
                    amounts[id(later[-1])] = m
                continue
        out.append(m)
    return [
        replace(
            m,
            amount=said.amount,
            amount_kind=said.amount_kind,
            amount_raw=said.amount_raw,
            args={k: v for k, v in m.args.items() if k != SHARE_OF},
        )
        if (said := amounts.get(id(m))) is not None
        else m
        for m in out
    ]


_ACTION_WORD = r"(?:refund(?:ed|ing)?|cancel+(?:ed|ing|ation)?|return(?:ed|ing)?|exchange)"
_NOT_THIS_ACTION = rx(
    r"\b(?:i )?meant (?:a |to )?"
    + _ACTION_WORD
    + r"(?P<not>,? (?:and )?not (?:a |to )?"
    + _ACTION_WORD
    + r")\b"
    r"|\b" + _ACTION_WORD + r"(?P<not2>,? not (?:a |to )?" + _ACTION_WORD + r")\b(?=.{0,20}\d{6})"
    r"|(?P<not3>不是(?:要)?(?:取消|退款|退货|换货))[，,\s]*(?:而)?是(?:要)?(?:取消|退款|退货|换货)"
    r"(?![^，。,.!?！？]{0,8}[吗么?？])"
)


# "不对 是取消", "actually, cancel it": the action itself corrected to another
_ACTION_SWAP = rx(
    r"(?:不对|说错了|搞错了|错了)[，,。\s]*(?:是|应该是|我是说|我要|我想)?(?:#?\d{6}\s*)?(?:取消|退款|退货)"
    r"|\b(?:actually|i mean|i meant|no wait|oops)[,\s]+(?:i want to |i'?d like to |please |pls )?"
    r"(?:cancel|refund|return)\b"
)


_NO_THANKS = rx(
    r"^(?:(?:no|nope|nah)[\s,.!]*(?:thanks|thank you|thank u|thx|ty)|not interested"
    r"|(?:i'?m )?not interested[\s,.!]*(?:thanks|thank you|thx)?)[\s,.!]*$"
    r"|^not interested[\s,.!]*(?:stop|quit) (?:asking|offering)\b"
)
_NOTHING_MORE = rx(
    r"没(?:有)?(?:别的|其他|其它)(?:事|问题)?了?|\bthat'?s (?:all|everything)\b|\bnothing else\b"
)
_A_CLOSING = rx(
    r"没(?:有)?(?:别的|其他|其它)(?:事|问题)?了?|没事了|\bthat'?s (?:all|it|everything)\b"
    r"|\bnothing else\b|\bno(?:thing)? more (?:questions|for now)\b"
)
_AS_WELL = rx(r"\b(?:too|also|as well)\b|也|还要|一起")


_MISTYPED = rx(
    r"\btypo\b|\bwrong (?:number|id|order(?: number)?)\b|\bi meant?\b|\bmeant\b"
    r"|打错|写错|输错|输入错|应该是|我是说"
)


# "cancel 100904 - actually wait no, keep it, I'll pay tonight", "退100609 哦不 先留着": the write
# taken back midway, whatever reason follows (an order named after it is _corrected's)
_KEPT_AFTER_ALL = rx(
    r"\b(?:actually|wait|no|nah|hmm|oh)[,.!\s-]+(?:(?:wait|no|actually|hold on)[,.!\s-]+)*"
    r"(?:keep|leave) (?:it|that|this)(?: one)?\b"
    r"|(?:算了|不对|等等|哦不|啊不)[,，.。!！\s]*(?:还是)?(?:先)?(?:留着|保留|别取消|不取消|不退)"
    # "取消100904 呃 不要了 我再想想", "cancel 100904. wait, 不要了": the write itself not wanted
    r"|(?:等等|等一下|哦不|啊不|呃|\bwait\b|\bhmm\b)[,，.。!！\s]*(?:还是)?(?:不要了|算了|先不)"
)


# "then just tell me where it is", "那就帮我查下物流": what the customer wants instead of the write
_JUST_INSTEAD = rx(
    r"\b(?:then |so )?just (?:tell|show|check|let me know|look)\b|那就(?:帮我)?(?:查|看|告诉)"
)
_CHANGED_MIND = rx(
    r"\b(?:oh wait|wait|actually|hmm|oops|hold on)\b|哦不|啊不|不对|等等|等一下|算了|呃|再想想"
    r"|考虑一下"
)


def _only_order(text: str) -> str | None:
    """The one order a request's words name, if exactly one."""
    ids = extract_entities(normalize(text, _TYPOS)).order_ids
    return ids[0] if len(ids) == 1 else None


# "cancel 100998, otherwise refund 100 on 100609", "取消100998，不然就退100609 100块": what to do
# if the first cannot be done
_OTHERWISE = rx(
    r"^\W*(?:(?:and|but|or)\s+)?(?:otherwise|or else|else|if (?:not|that'?s not possible|that"
    r" (?:doesn'?t|does not) work|you can'?t))\b"
    r"|^\W*(?:否则|不然|要不然|不行的话|不行就|实在不行)"
)


def _otherwise_put_aside(
    matched: list[_Request], unread: list[tuple[int, int]], norm: str
) -> tuple[list[_Request], list[tuple[int, int]]]:
    """A refund or cancel asked only if the one before it cannot be done ("cancel 100998,
    otherwise refund 100 on 100609") is never offered beside it (a yes to both would run both):
    its order is shown with how to ask for it, or (no order named) it is said to be unread."""
    money = (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER)
    out: list[_Request] = []
    for m in matched:
        said = normalize(m.text, _TYPOS)
        if (
            m.intent in money
            and any(o.intent in money for o in out)
            and _OTHERWISE.search(said)
            and (start := norm.find(said)) >= 0
        ):
            if m.order_id:
                held = replace(m, intent=ShopIntent.ORDER_STATUS, args={}, amount=None)
                out.append(replace(held, amount_kind="none", details=WRITE_HELD))
            else:
                unread = [*unread, (start, start + len(said))]
            continue
        out.append(m)
    return out, unread


def _write_corrected_midway(
    matched: list[_Request], unread: list[tuple[int, int]], norm: str
) -> tuple[list[_Request], list[tuple[int, int]]]:
    """A write corrected after it: "cancel 100998... actually no keep that one, it's 100904 I
    want gone", "cancel 100998... actually no, 100904", "取消100904，哦不对，是100998" ask about the
    order named after the correction instead (that part is read as the correction, not deferred
    or refused); "cancel 100683 ... oh wait it's shipped right? then just tell me where it is",
    "cancel 100904 - hmm, actually just tell me where 100998 is" and "取消100904 哦不对 帮我查下
    100998到哪了" drop the write (the look after it stays, or is added). A polite "sorry" is no
    change of mind ("cancel 100904, sorry, and where is 100998?" cancels 100904)."""
    out: list[_Request] = []
    dropped: set[int] = set()
    for index, m in enumerate(matched):
        if index in dropped:
            continue
        if m.intent not in _ACTIONS or not m.order_id:
            out.append(m)
            continue
        own = normalize(m.text, _TYPOS)
        first = _ORDER.search(own)
        changed = _CHANGED_MIND.search(own, first.end()) if first else None
        just = _JUST_INSTEAD.search(own, changed.end()) if changed else None
        if just:
            # the write and what is wanted instead were read as one clause
            out.append(_Request(Intent.CONFIRM_NO, text=m.text, lang=m.lang))
            for order_id in extract_entities(own[just.end() :]).order_ids[:1]:
                look = _Request(ShopIntent.TRACKING, text=m.text, lang=m.lang, order_id=order_id)
                out.append(look)
            continue
        at = norm.find(m.order_id)
        fix = _CORRECTION.search(norm, at + 1) if at >= 0 else None
        changed = _CHANGED_MIND.search(norm, at + 1) if at >= 0 else None
        if changed and _JUST_INSTEAD.search(norm, changed.end()):
            out.append(_Request(Intent.CONFIRM_NO, text=m.text, lang=m.lang))
            continue
        later = [
            (n, o, named)
            for n, o in enumerate(matched[index + 1 :], start=index + 1)
            for named in [o.order_id or _only_order(o.text)]
            if named and named != m.order_id and norm.find(named) > at
        ]
        again = any(o.intent is m.intent for _, o, _ in later)
        head = later[0] if later and not again else None
        between = norm[at : norm.find(head[2])] if head else ""
        if head and head[1].intent is Intent.CONFIRM_NO and _CORRECTION.search(between):
            # "cancel 100998... actually no, 100904": the refusal names the order meant
            dropped.add(head[0])
            out.append(replace(m, order_id=head[2], inferred_order=False))
            continue
        if head and head[1].intent in _LOOKS and _CHANGED_MIND.search(between):
            # "取消100904 哦不对 帮我查下100998到哪了": the look is what is wanted instead
            out.append(_Request(Intent.CONFIRM_NO, text=m.text, lang=m.lang))
            continue
        if fix is None:
            out.append(m)
            continue
        span = next(((a, b) for a, b in unread if a <= fix.start() < b or a >= fix.start()), None)
        ids = extract_entities(norm[span[0] : span[1]]).order_ids if span else ()
        others = [o for o in ids if o != m.order_id]
        if span is None or len(others) != 1:
            out.append(m)
            continue
        out.append(replace(m, order_id=others[0], inferred_order=False))
        unread = [u for u in unread if u != span]
    return out, unread


def _instead_of_declined(matched: list[_Request]) -> list[_Request]:
    """ "don't refund, cancel 100904": the "no" says what is not wanted before what is; with
    the write after it standing, it is no refusal of everything (the reply would say "nothing
    will be done" beside a question about the cancel). "取消100998 但是100904别取消": a "no"
    naming one order no standing write is for spares that order (said to be left alone)."""
    written = {m.order_id for m in matched if m.intent in _ACTIONS}
    if written:
        matched = [_spared_by(m, written) for m in matched]
    return [
        m
        for n, m in enumerate(matched)
        if not (
            m.intent is Intent.CONFIRM_NO
            and not m.order_id
            and m.details != SPARED_SUBJECT
            and any(o.intent in _ACTIONS for o in matched[n + 1 :])
        )
    ]


def _asked_with_a_mark(clause_text: str, norm: str) -> bool:
    """Whether a clause of the message is asked with a question mark and then refused
    ("transfer me? no thanks")."""
    words = normalize(clause_text, _TYPOS).strip(STRIP)
    at = norm.find(words) if words else -1
    if at < 0:
        return False
    after = norm[at + len(words) :]
    # ... and answered no in the same message ("can I talk to a human?" alone asks for one)
    return after.strip()[:1] in ("?", "？") and bool(NO_ANY.search(after))


def _spared_by(m: _Request, written: set[str | None]) -> _Request:
    if m.intent is not Intent.CONFIRM_NO or m.order_id or m.details:
        return m
    named = extract_entities(normalize(m.text, _TYPOS)).order_ids
    if len(named) != 1 or named[0] in written:
        return m
    return replace(m, order_id=named[0], details=SPARED_SUBJECT)


def _unless_retracted(request: _Request) -> _Request:
    """A write (or a transfer) whose own part of the message takes it back is a refusal, not a
    write ("转人工？算了不用")."""
    if request.intent not in _ACTIONS and request.intent is not ShopIntent.HANDOFF:
        return request
    kept = _KEPT_AFTER_ALL.search(request.text.lower())
    retracted = _RETRACTED.search(request.text)
    if retracted and _OTHERWISE_IF.search(request.text[: retracted.start() + 1]):
        # "If it hasn't, cancel it. If it's already on the way, leave it": the other branch of
        # a condition, not the request taken back
        retracted = None
    if retracted or (kept and not _IDENTIFIER.search(request.text, kept.end())):
        return _Request(Intent.CONFIRM_NO, text=request.text, lang=request.lang)
    return request


_OTHERWISE_IF = rx(r"(?:^|[.!?;]\s*)if\b[^.!?;]*$")


def _continues_decline(ents: Entities, previous: Kind | None, clause: str = "") -> bool:
    """ "算了不退了 100609": the order of a refusal belongs to the refusal, not a new request —
    unless the clause looks at it or asks about it ("don't cancel 100904, just check 100998")."""
    if _LOOK_VERB.search(clause) or ASKS.search(clause) or _TELL_ME.search(clause):
        return False
    return previous is Intent.CONFIRM_NO and bool(ents.order_ids) and not ents.skus


_TELL_ME = rx(
    r"\b(?:tell|show|let) me\b|告诉我|看下|看看|\b(?:want|like) to know\b|\bjust asking\b"
    r"|想知道|就问问|问一下|\bis (?:it|my parcel|the parcel) (?:moving|moved)\b"
)


_VENTED = VENTED
"""The :attr:`_Match.verb` of a complaint read from unhappy words alone ("not impressed")."""


def _details(found: _Match, clause_text: str) -> str:
    if found.ack:
        return "ack"
    if found.verb and found.verb not in (_VENTED, IF_UNPAID):
        return found.verb
    if found.intent in (ShopIntent.CREATE_TICKET, ShopIntent.HANDOFF):
        return clause_text
    return ""


# "when will it be back?", "那什么时候补货": the product talked about, not a new one
_REFERS_BACK = rx(
    r"^\W*(?:and |so )?(?:when|what about|how about)\b[^a-z]*\b(?:it|that|this|they|them)\b"
    r"|^\W*(?:when|will) (?:will |is |are )?(?:it|that|this one|they)\b"
    r"|^[^\w\u3400-\u9fff]*(?:那|这|它)(?:个|款)?(?:什么时候|啥时候|何时|多少钱|有货|还有)"
)


_CORRECTED_TO = rx(
    r"[\s,，.。!！;；]*(?:no|nope|sorry|oops|wait|i mean|i meant|actually"
    r"|不对|哦不|啊不|说错了|打错了"
    # ("取消的是100904，不是100998": not that one — "不是，100904" corrects)
    r"|不是(?=[\s,，.。!！]))(?:[\s,，.。!！]+(?:i mean|i meant|make it|it'?s|是|应该是))?"
    r"[\s,，.。!！:：]*(?:order\s*)?#?"
)
_ONE_OF_THEM = rx(
    r"\d{6}\s*(?:,\s*)?(?:or|或者|或是|或|还是)\s*(?:order\s*)?#?\d{6}|\beither\b|\bwhichever\b"
    r"|\bnot both\b|\bone of (?:them|the two|those|these)\b|\b(?:just )?one of\s+\d{6}"
    r"|(?:取消|退|退款)(?:其中)?(?:一个|一单)就(?:行|好|可以)|其中(?:一个|一单)|任(?:意|选)一(?:个|单)"
    r"|随便(?:取消|退)?(?:一个|一单)"
    r"|不(?:用|要)两个都"
)


def _per_order(
    requests: list[_Request], clause_norm: str, order_ids: Sequence[str], packs: PackSet
) -> list[_Request]:
    """A write clause naming several orders: the orders "keep" / "don't" keeps out of it are
    left out, and a refund's amount is each order's own (:mod:`.order_parts`)."""
    if len(order_ids) == 1:
        # one order: only words right before it spare it ("..., not 100998"); a "no" after it
        # is a correction or a refusal, read elsewhere ("取消100904，哦不对，是100998")
        at = clause_norm.find(order_ids[0])
        out = {order_ids[0]} if at > 0 and spared_before(clause_norm[:at]) else set()
    else:
        out = kept_out(clause_norm, order_ids)
    ids = [m for m in re.finditer(r"(?<!\d)\d{6}(?!\d)", clause_norm)]
    if (
        len(ids) == 2
        and ids[0].group(0) != ids[1].group(0)
        and _CORRECTED_TO.fullmatch(clause_norm[ids[0].end() : ids[1].start()])
    ):
        # "cancel 100998, no, 100904", "取消100998，不对，100904": the order said after the
        # correction is the one meant
        meant = ids[1].group(0)
        return [r for r in requests if r.order_id == meant] or requests
    if len(set(order_ids)) > 1 and _ONE_OF_THEM.search(clause_norm):
        # "cancel 100998 or 100904, not both", "100998和100904取消一个就行": one of them, which
        # the words do not say — both shown, one write, its order asked (never both run on a
        # "yes")
        looks = [
            _Request(ShopIntent.ORDER_STATUS, text=r.text, lang=r.lang, order_id=r.order_id)
            for r in requests
        ]
        return [*looks, replace(requests[0], order_id=None, inferred_order=False, args={})]
    if out and out.issuperset(order_ids):
        # "cancel my order, not 100998": every order named is spared; the write is for an
        # order the words only describe (looked up and asked about, never the one named)
        return [replace(r, order_id=None, inferred_order=False) for r in requests]
    kept = [r for r in requests if r.order_id not in out]
    if len(order_ids) > 1:
        # "退一半 100200 和 100609": a share of several orders is asked about, order by order
        kept = [
            replace(
                r,
                amount_kind="invalid",
                args={k: v for k, v in r.args.items() if k not in (SHARE, SHARE_OF, SHARE_OWN)},
            )
            if r.amount_kind == SHARE
            else r
            for r in kept
        ]
    amounts = (
        amounts_by_order(clause_norm, order_ids, packs)
        if kept and kept[0].intent is ShopIntent.REFUND
        else {}
    )
    if not amounts and kept and kept[0].intent is ShopIntent.REFUND:
        kept = _each_refund_its_own_words(kept, clause_norm, order_ids, packs)
    once = len(_AMOUNT_SAID.findall(clause_norm)) == 1
    if not amounts and len(order_ids) > 1 and once and _TOTAL_ACROSS.search(clause_norm):
        # "refund 100 total across 100200 and 100609", "100200和100609一共退100": one amount for
        # them all — how it is split is asked, never the amount paid on each
        kept = [
            replace(r, amount=None, amount_kind="invalid") if r.amount_kind == "exact" else r
            for r in kept
        ]
    return [
        replace(r, amount=a.value, amount_kind=a.kind, amount_raw=a.raw)
        if (a := amounts.get(r.order_id or "")) is not None
        else r
        for r in kept
    ]


def _each_refund_its_own_words(
    refunds: list[_Request], clause_norm: str, order_ids: Sequence[str], packs: PackSet
) -> list[_Request]:
    """ "100200退保温杯，100609剩下的钱也退了": one clause, two refunds, each said in its own
    words (from its order to the next) — when they say different things of money, each refund
    takes its own ("剩下的" is 100609's all, the thermos 100200's item). Both took the clause's
    "all that is left": ¥797 was offered for the thermos."""
    found = list(re.finditer(r"(?<!\d)\d{6}(?!\d)", clause_norm))
    if len({m.group(0) for m in found}) != len(found) or len(found) < 2:
        return refunds
    own = {
        m.group(0): m.group(0)
        + clause_norm[m.end() : found[n + 1].start() if n + 1 < len(found) else None]
        for n, m in enumerate(found)
    }
    if set(own) != set(order_ids) or not all(
        _OWN_WRITE_WORDS["refund"].search(words) for words in own.values()
    ):
        # ("refund 50 on 100200 and 50 on 100609": the words are not each's own from the order
        # on) — "退100200的保温杯，100609全退", "refund the thermos from 100200 and 100 on
        # 100609": each's own are the parts the clause is joined of
        own = _parts_joined(clause_norm, found, packs) or {}
        if set(own) != set(order_ids):
            return refunds
    readings = {
        o: read_amount(
            without_totals(ORDER_MENTION.sub(" ", words)), money_context=True, packs=packs
        )
        for o, words in own.items()
    }
    if len({r.kind for r in readings.values()}) < 2:
        return refunds
    out = []
    for r in refunds:
        reading = readings.get(r.order_id or "")
        if reading is None:
            out.append(r)
            continue
        args = {k: v for k, v in r.args.items() if k not in (SHARE, SHARE_OF, SHARE_OWN)}
        if reading.kind == "none":
            # the things its own words name (the precheck singles one out, or asks)
            args[SHARE_OF] = own[r.order_id or ""]
        out.append(
            replace(
                r, amount=reading.value, amount_kind=reading.kind, amount_raw=reading.raw, args=args
            )
        )
    return out


# where a clause naming several orders joins their parts: "退100200的保温杯，100609全退"
_PARTS_JOIN = rx(r"[，,;；、]|\b(?:and|plus)\b|和|跟|另外|还有|然后|以及")
# one word said of every order ("refund 100200 and 100609, 100 each"): no part is its own
_SAID_OF_EVERY = rx(r"\b(?:each|both|all of them|apiece)\b|各|分别|两单|两个(?:订单|单)")


def _parts_joined(
    clause_norm: str, found: list[re.Match[str]], packs: PackSet
) -> dict[str, str] | None:
    """Each order's own part of a refund clause joined of parts, one per order ("退100200的保温
    杯，100609全退", "refund the thermos from 100200 and 100 on 100609"), or None: no join between
    two orders, a word said of every order, a cancel among them, the refund said in none of
    the first part — or a part naming neither an amount nor a thing of its own ("refund 100200
    and 100609 for 100": the amount may be said of both; never the whole order guessed)."""
    if (
        _SAID_OF_EVERY.search(clause_norm)
        or _TOTAL_ACROSS.search(clause_norm)
        or _OWN_WRITE_WORDS["cancel"].search(clause_norm)
    ):
        return None
    cuts = []
    for first, second in itertools.pairwise(found):
        joins = list(_PARTS_JOIN.finditer(clause_norm, first.end(), second.start()))
        if not joins:
            return None
        cuts.append(joins[-1])
    starts = [0, *(c.end() for c in cuts)]
    ends = [*(c.start() for c in cuts), len(clause_norm)]
    parts = {m.group(0): clause_norm[a:b] for m, a, b in zip(found, starts, ends, strict=True)}
    if not _OWN_WRITE_WORDS["refund"].search(parts[found[0].group(0)]):
        return None
    for words in parts.values():
        rest = ORDER_MENTION.sub(" ", words)
        said = read_amount(without_totals(rest), money_context=True, packs=packs)
        if said.kind == "none" and not _thing_refunded(rest):
            return None
    return parts


_AMOUNT_SAID = re.compile(r"(?<![\d.])\d{1,5}(?:\.\d+)?(?![\d.])")
"""A number said as an amount (never a six-digit order id)."""
_TOTAL_ACROSS = rx(
    r"\b(?:total|in total|in all|altogether|all together|combined|across|split|between)\b"
    r"|一共|总共|加起来|合计|共计|平分|分摊|总计|一起退"
)


# a write word beside an order (not negated): "100200退款，100998取消"
_OWN_WRITE_WORDS = {
    "refund": rx(
        r"(?<![不别没])退(?![货换回出订])|(?<!n't )(?<!not )\brefund|\bmoney back\b|"
        + _COMPENSATE_ME
    ),
    "cancel": rx(r"(?<![不别])取消|(?<!n't )(?<!not )\bcancel"),
}


def _own_write_per_order(
    requests: list[_Request], clause_norm: str, whole: str, packs: PackSet
) -> list[_Request]:
    """ "100200退款，100998取消", "退款100200，取消100998": a write clause naming several orders,
    each with a write of its own beside it, is each order's own write — one clause read as one
    kind would cancel the order asked to be refunded (or refund the one asked cancelled). A
    refund gets the amount its own words name (none: asked about, like "100200退款" alone)."""
    if not requests or any(
        r.intent not in (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER) for r in requests
    ):
        return requests
    if len(requests) == 1:
        # "refund 100 on 100200, 100998 doesn't need cancelling": the other order kept out,
        # the write said before this one is its own
        alone = requests[0].order_id
        named = len(set(re.findall(r"(?<!\d)\d{6}(?!\d)", clause_norm)))
        said = own_write(clause_norm, alone, _OWN_WRITE_WORDS) if alone and named > 1 else None
        own = {alone: said} if alone and said else {}
    else:
        own = writes_by_order(
            clause_norm, [r.order_id for r in requests if r.order_id], _OWN_WRITE_WORDS
        )
    out: list[_Request] = []
    for r in requests:
        kind, words = own.get(r.order_id or "", ("", ""))
        if kind == "cancel" and r.intent is ShopIntent.REFUND:
            r = replace(
                r,
                intent=ShopIntent.CANCEL_ORDER,
                amount=None,
                amount_kind="none",
                amount_raw="",
                args={k: v for k, v in r.args.items() if k not in (SHARE, SHARE_OF, SHARE_OWN)},
            )
        elif kind == "refund" and r.intent is ShopIntent.CANCEL_ORDER:
            reading = read_amount(without_totals(words), money_context=True, packs=packs)
            r = replace(
                r,
                intent=ShopIntent.REFUND,
                details="",
                amount=reading.value,
                amount_kind=reading.kind,
                amount_raw=reading.raw,
                args={k: v for k, v in r.args.items() if k != IF_UNPAID},
            )
            r = _with_share(r, f"{r.order_id}{words}", packs, whole)
        out.append(r)
    return out


def _write_zones(matched: list[_Request], norm: str) -> dict[int, tuple[str, str]]:
    """For each write of the message (by index): its own clause, and its zone — the words from
    the write before it (or the sentence start) to the write after it (or the sentence end),
    where a condition it waits on is said ("if 100683 isn't here by friday, refund it")."""
    spans: dict[int, tuple[int, int]] = {}
    cursor = 0
    for n, m in enumerate(matched):
        if m.intent not in (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER):
            continue
        clause = normalize(m.text, _TYPOS).strip()
        at = norm.find(clause[:40], cursor) if clause else -1
        if at < 0:
            at = norm.find(clause[:40]) if clause else -1
        if at < 0:
            spans[n] = (0, len(norm))
            continue
        spans[n] = (at, at + len(clause))
        cursor = at + len(clause)
    ends = sorted({m.end() for m in _SENTENCE_END.finditer(norm)})
    order = sorted(spans, key=lambda n: spans[n][0])
    zones: dict[int, tuple[str, str]] = {}
    for n in order:
        start, end = spans[n]
        sentence_start = max([0, *(e for e in ends if e <= start)])
        sentence_end = min([len(norm), *(e for e in ends if e > end)])
        # writes read from one clause ("取消100904，100683要是…就退") share it: the clause
        # before or after is the nearest other one
        before = max([0, *(spans[o][1] for o in order if spans[o][1] <= start)])
        after = min([len(norm), *(spans[o][0] for o in order if spans[o][0] >= end)])
        # a condition is said before its write ("100683要是周五还不到就退", "if ..., refund it")
        # or right after it, opened by "if"/"unless" ("refund it if it isn't here by friday")
        zone = norm[max(sentence_start, before) : end]
        following = norm[end : max(end, min(sentence_end, after))]
        if _CONDITION_OPENS.match(following):
            zone += following
        zones[n] = (norm[start:end], zone)
    return zones


def _the_write_waits_on_a_condition(words: str) -> bool:
    """Whether the write in ``words`` (a sentence up to its end) waits on a condition: one said
    in the write's own clause ("cancel 100998 if the phone is the 256GB version"), or in a
    clause right before it or right after it that opens with it ("once 100998 ships, cancel
    it", "refund 100609, if it wasn't delivered") — not a condition of something else told
    beside it ("refund 100200, the thermos leaks when it is hot", "…, call me if there are any
    issues", "cancel 100998 since I won't be home when it arrives")."""
    parts = _CLAUSE_BREAK.split(words)
    at = min((i for i, part in enumerate(parts) if _CONDITIONED_WRITE.search(part)), default=-1)
    if at < 0:
        return False
    near = [parts[at]]
    if at > 0 and _OPENS_WITH_A_CONDITION.match(parts[at - 1]):
        near.append(parts[at - 1])
    if (
        at + 1 < len(parts)
        and _OPENS_WITH_A_CONDITION.match(parts[at + 1])
        and not _ITS_OWN_REQUEST.search(parts[at + 1])
    ):
        near.append(parts[at + 1])
    for part in near:
        part = _POLITE_CONDITION.sub(" ", part)
        found = _ANY_CONDITION.search(part)
        write = _CONDITIONED_WRITE.search(part)
        between = part[write.end() : found.start()] if found and write else ""
        if found and not _ANOTHER_CLAUSE_OPENS.search(between):
            return True
    return False


_CLAUSE_BREAK = rx(
    r"[,，;；:：]|\s+-\s+|\b(?:and|but|then)\b|然后|但是|(?<=[\u4e00-\u9fff\d])\s+(?=[\u4e00-\u9fff])"
)
_OPENS_WITH_A_CONDITION = rx(
    r"^[\s\"'(]*(?:and |but |only |just )?(?:if|unless|once|as soon as|when|whenever|in case"
    r"|after|provided that|as long as)\b|^\s*(?:如果|要是|假如|万一|等(?![了着]))"
)
# "…, call me if there are any issues", "…，如果有问题请联系我": its own request, not a condition
_ITS_OWN_REQUEST = rx(
    r"\b(?:call|contact|email|text|tell|let me know|send|message|ring|reach|reorder|buy"
    r"|i'?ll|i will|i'?m going to)\b"
    r"|请|联系|告诉|打电话|通知|我就|我会|我自己|再买|再下单|重新买|重新下单"
)
# a reason or another subject between the write and the condition: "cancel 100998 since I won't
# be home when it arrives", "cancel 100998 I'll order again when it is cheaper"
_ANOTHER_CLAUSE_OPENS = rx(
    r"\b(?:since|because|cause|coz|cuz|as|so|i|i'?ll|i'?m|i'?ve|i'?d|we|my|it'?s|they)\b"
    r"|因为|由于|所以|我"
)


def _to_the_writes_sentence_end(zone: str) -> str:
    """``zone`` up to the end of the sentence its last write word is in ("can you just refund
    the 29? I'll refuse the parcel if it ever shows up": the "if" is another sentence's)."""
    words = list(_CONDITIONED_WRITE.finditer(zone))
    stop = _SENTENCE_END.search(zone, words[-1].end()) if words else None
    return zone[: stop.start()] if stop else zone


def _sentence_index(norm: str, clause: str) -> int:
    """Which sentence of ``norm`` holds ``clause`` (0 if it cannot be told)."""
    at = norm.find(clause.strip()[:40]) if clause.strip() else -1
    if at < 0:
        return 0
    return sum(1 for m in _SENTENCE_END.finditer(norm) if m.end() <= at)


def _order_segment(zone: str, order_id: str | None) -> str:
    """In words naming several orders ("取消100904，100683要是周五还不到就退"), the stretch about
    ``order_id``: from its number to the next order's (a condition there is that order's)."""
    ids = [m for m in re.finditer(r"(?<!\d)\d{6}(?!\d)", zone)]
    if order_id is None or len({m.group(0) for m in ids}) < 2:
        return zone
    starts = [m.start() for m in ids]
    mine = [m for m in ids if m.group(0) == order_id]
    if not mine:
        return zone
    at = mine[0].start()
    following = [s for s in starts if s > at]
    # the words before the first order are its own ("如果100998到不了就取消，100200退款")
    return zone[0 if at == starts[0] else at : following[0] if following else len(zone)]


_CONDITION_OPENS = rx(r"^\W*(?:if|unless|in case|provided|as long as)\b")


def _writes_waiting_on_a_day(
    matched: list[_Request], norm: str, said_whole: str = ""
) -> list[_Request]:
    """ "if 100683 isn't here by friday, cancel it and refund", "要是明天还不到就退": a write that
    waits on a day to come is a look now (one per order, said so, and no other write on that
    order); a write asked for now ("cancel 100904 now, and refund 100683 if ..."), or beside
    the customer's own deadline ("..., if it isn't cancelled by tonight I'll dispute it"),
    stays as asked."""
    waiting: set[tuple[str | None, Any]] = set()
    waiting_sentences: set[tuple[str | None, int]] = set()
    held: set[str | None] = set()  # orders whose write waits on a condition, not a day
    zones = _write_zones(matched, norm)
    for n, (clause, zone) in zones.items():
        zone = _order_segment(zone, matched[n].order_id)
        if not (
            _CONDITIONED_WRITE.search(zone)
            and not _NOW_ALL_THE_SAME.search(_HURRIED_ELSE.sub(" ", clause))
            and not _ANYWAY.search(zone)
            and not _OWN_DEADLINE.search(zone)
            and not DEMANDED_OR_ELSE.search(zone)
        ):
            continue
        if _IF_LATE_BY.search(zone):
            waiting.add((matched[n].order_id, matched[n].intent))
            waiting_sentences.add((matched[n].order_id, _sentence_index(norm, clause)))
        elif (
            not matched[n].args.get(IF_UNPAID)
            and not _SELF_CHECKING.search(own := _to_the_writes_sentence_end(zone))
            # (its words as said: "if you have no replacement" had "no replacement" blanked)
            and not _SELF_CHECKING.search(said_whole)
            # ("cancel 100998 if it hasn't shipped yet": the shop cancels no shipped order)
            and not (matched[n].intent is ShopIntent.CANCEL_ORDER and _IF_UNSHIPPED.search(own))
            and _the_write_waits_on_a_condition(own)
        ):
            # "refund 100609 if it wasn't delivered", "once 100998 ships, cancel it", "cancel
            # 100998 if the phone is the 256GB version": a condition the words do not settle —
            # the order is shown as it stands, nothing offered (a hurried yes ran the write)
            waiting.add((matched[n].order_id, matched[n].intent))
            held.add(matched[n].order_id)
    if not waiting:
        return matched
    for n, (clause, _) in zones.items():
        # "if 100998 doesn't ship by monday cancel it and refund me": a write on the same order in
        # the same sentence as one that waits waits too — unless asked for now
        m = matched[n]
        if m.order_id is None:
            continue  # orders only described ("the air fryer order"): not known to be one
        if (m.order_id, _sentence_index(norm, clause)) in waiting_sentences and not (
            _NOW_ALL_THE_SAME.search(clause)
        ):
            waiting.add((m.order_id, m.intent))
    looked: set[str | None] = set()
    out: list[_Request] = []
    for m in matched:
        # the write that waits, and the same write on the same order said again ("If it doesn't
        # arrive by friday I'll want a refund. 100683"); another write on it stays as asked
        if (m.order_id, m.intent) in waiting:
            if m.order_id in looked:
                continue
            looked.add(m.order_id)
            m = replace(
                m,
                intent=ShopIntent.ORDER_STATUS,
                details=WRITE_HELD if m.order_id in held else IF_LATE_BY,
                amount=None,
                amount_kind="none",
                args={k: v for k, v in m.args.items() if k not in (SHARE, SHARE_OF, SHARE_OWN)},
            )
        out.append(m)
    return out


# "..., just wondering how long refunds take", "就想问下…", "只是问问…到账": what is asked instead
_ASKED_INSTEAD = rx(
    r"\b(?:just|only) (?:wondering|asking|want(?:ed)? to know|checking)\b|\bwondering\b"
    r"|\b(?:how long|how much|when|where|what)\b|就想问|只是问|想问|想知道|多久|多少|什么时候|到哪"
)
_READS = frozenset(
    {
        ShopIntent.FAQ,
        ShopIntent.ORDER_STATUS,
        ShopIntent.TRACKING,
        ShopIntent.LIST_ORDERS,
        ShopIntent.STOCK,
        ShopIntent.TICKET_STATUS,
    }
)
# "I opened a complaint about 100683", "我上次投诉的那个", "我之前提交过工单": one made before
_COMPLAINT_MADE = rx(
    r"\bi (?:already |have |'ve )?(?:opened|filed|made|lodged|raised|submitted|sent|put in) "
    r"(?:a |my |the |an )?(?:complaint|ticket)\b"
    r"|我(?:之前|上次|已经|前几天|昨天)(?:已经)?(?:投诉|提交|开|报)(?:过|了)(?:的)?(?:工单|投诉)?"
    r"(?![^，。,.!?！？]{0,6}(?:升级|转人工|找))"
    # "我之前投诉物流慢那个工单，有人管吗": the ticket made before, described
    r"|我(?:之前|上次|前几天|昨天|上周)(?:投诉|提交|开|报)[^，。,.!?！？]{0,12}(?:那个|那张|的)(?:工单|投诉)"
    r"(?![^，。,.!?！？]{0,6}(?:升级|转人工|找))"
    # "any news on my exchange request for order 100847?"
    r"|\b(?:any (?:news|update|word)|an update|status|what'?s happening|what'?s going on)"
    r" (?:on|with|about|of) (?:my|the) (?:[a-z]+ ){0,2}(?:request|complaint|ticket|claim|case)\b"
)
# "..., if nobody has then | escalate it to a person": the condition in the words right before
_IF_NOT_BEFORE = rx(
    r"\bif (?:nobody|no one|noone|not|they haven'?t|it hasn'?t|you can'?t|that doesn'?t)\b"
    r"[^.!?;]{0,40}$|(?:不然|否则|要不然|要是没有?|如果没有?)[^，。!?！？；]{0,12}$"
)


def _words_before(norm: str, clause: str) -> str:
    """The words of ``norm`` right before ``clause`` (up to 60 characters of its sentence)."""
    at = norm.find(clause.strip()[:40]) if clause.strip() else -1
    return norm[max(0, at - 60) : at] if at > 0 else ""


_NEW_TICKET = rx(
    r"\b(?:a |an )?(?:new|another|second|fresh|separate) (?:support |complaint |after-sales )?"
    r"(?:ticket|complaint)\b|\bfile another\b"
    r"|(?:再|新|重新|另)(?:开|提交|建|提)(?:一)?(?:个)?(?:新的)?(?:工单|投诉)"
)
_KEEP_THE_THING = rx(r"\bkeep (?:it|them)\b|\bi'?ll keep\b|留着|不退货|东西我(?:先)?留着")
# "refund everything in 100200 except the dinnerware": the whole, less a part — how much is asked
_EXCEPT_PART = rx(
    r"\bexcept\b|\bbut not\b|\bapart from\b|\bother than\b|\bminus\b|\bwithout\b|\bexcluding\b"
    r"|\b(?:all|everything|anything|every \w+) but\b|\bsave (?:the|my|for)\b|\bbesides\b"
    r"|除了|除去|不包括|不算|[\u4e00-\u9fff]{1,6}不退"
)
# "refund 269 and 129 on 100200", "269+129": two amounts, a sum to work out — asked
_TWO_AMOUNTS = rx(
    r"(?<![\d.])\d{1,5}(?:\.\d{1,2})?(?![\d.])\s*(?:\+|\band\b|\bor\b|和|加|plus|或者?|还是)\s*[¥￥]?"
    r"(?<![\d.])\d{1,5}(?:\.\d{1,2})?(?![\d.])"
)
_TO_DISCUSS = rx(
    r"\b(?:negotiate|discuss|talk (?:about|through)|speak (?:about|to someone about)|sort out)\b"
    r"|\babout (?:a|the|my) refund\b|商量|协商|谈谈|谈一下|沟通"
)


# "cancel 100904 and 100998. scratch the 100998 part", "…. keep 100998", "…，100998算了": an order
# a write named, let go of in a later sentence
_LET_GO_LATER = rx(
    r"\b(?:keep|leave|scratch|drop|skip|forget(?: about)?|not)\s+(?:the\s+|order\s+)?#?(\d{6})\b"
    r"|\b(\d{6})\s+(?:can stay|stays|is fine|not any more|after all)\b"
    r"|(\d{6})\s*(?:那单)?\s*(?:保留|留着|不动了?|别动|算了|不取消了?|不退了|就不\w{1,2}了)"
    r"|(?:保留|留着|别动|不要动|不取消|不退)\s*(\d{6})"
)


def _spared_later(matched: list[_Request], norm: str, lang: Lang) -> list[_Request]:
    """Writes on an order that a later sentence of the message lets go of ("cancel 100904 and
    100998. scratch the 100998 part"): dropped, and the reply says that order is left alone."""
    writes = [m for m in matched if m.intent in _ACTIONS and m.order_id]
    if not writes:
        return matched
    ends = [m.end() for m in _SENTENCE_END.finditer(norm)]
    spared: dict[str, str] = {}
    for found in _LET_GO_LATER.finditer(norm):
        order_id = next(g for g in found.groups() if g)
        first = norm.find(order_id)
        # said again after the sentence that named it for the write
        if first < found.start() and any(first < e <= found.start() for e in ends):
            spared[order_id] = found.group(0)
    if not spared:
        return matched
    kept = [m for m in matched if not (m.intent in _ACTIONS and m.order_id in spared)]
    told = [
        _Request(Intent.CONFIRM_NO, text=said, lang=lang, order_id=o, details=SPARED_SUBJECT)
        for o, said in sorted(spared.items())
    ]
    return [
        m for m in kept if not (m.intent is Intent.UNKNOWN and any(o in m.text for o in spared))
    ] + told


def _one_share_for_several_orders(matched: list[_Request]) -> list[_Request]:
    """ "退一半 100200 和 100609": a share said once for refunds of several orders is not known to
    be each order's (nor the others' whole): every one of them is asked how much."""
    refunds = [m for m in matched if m.intent is ShopIntent.REFUND]
    shared = any(m.amount_kind == SHARE for m in refunds)
    unsaid = [m for m in refunds if m.amount_kind in ("none", "full")]
    if not shared or not unsaid or len({m.order_id for m in refunds}) < 2:
        return matched
    return [
        replace(
            m,
            amount_kind="invalid",
            amount=None,
            args={k: v for k, v in m.args.items() if k not in (SHARE, SHARE_OF, SHARE_OWN)},
        )
        if m in refunds and m.amount_kind in (SHARE, "none")
        else m
        for m in matched
    ]


_ALL_OF_THESE = rx(r"(?:都|一起)(?:给我)?退")
_ALL_OF_IT = rx(
    r"全|所有|整单|整个|剩下|剩余|\b(?:everything|all|whole|full|entire|rest|remaining)\b"
)


_WHOLE_ORDER_SAID = rx(
    r"整单|整个订单|全部订单|订单全|这单|那单|这个订单|剩下|剩余|所有(?:的)?(?:钱|东西|商品)|全部(?:的)?(?:钱|商品)"
    r"|\b(?:order|orders|purchase|everything|all of it|all of them|the rest|remaining|whole thing"
    r"|entire thing|all items|every item|all the items)\b"
)


_FULL_BESIDE = "full_beside"
"""A refund's ``details``: all of one thing asked beside an amount said for another (asked)."""
_AMOUNT_BESIDE = rx(r"(?<![a-z0-9_.])\d{1,5}(?:\.\d+)?(?![a-z0-9_.])(?!\s*(?:ml|l|pcs|件|个|寸))")
_ORDER_ID_SAID = rx(r"#?\d{6,}")


def _with_share(request: _Request, clause_text: str, packs: PackSet, whole: str) -> _Request:
    """ "refund half of what I paid for the air fryer", "100200 退我三分之一": a share, made exact
    by the refund's precheck — only when the share is all the words say of money (a share
    beside a number, or "more than half", stays an amount to ask about)."""
    if (
        request.amount_kind == "full"
        and _ALL_OF_THESE.search(clause_text)
        and not _ALL_OF_IT.search(clause_text.lower())
    ):
        # "100200的保温杯和餐具都退了吧": all of the things named, not all of the order — the
        # precheck adds up what they cost (or asks which part)
        request = replace(request, amount_kind="none", amount=None, amount_raw="")
    if (
        request.amount_kind == "full"
        # (its own words: "refund the thermos in full and cancel 100998" is the thermos)
        and not _WHOLE_ORDER_SAID.search(clause_text)
        and not _ORDER_ID_SAID.search(clause_text)
        and _thing_refunded(clause_text)
    ):
        # "refund the thermos in full", "保温杯全额退款": all of the thing named, not all of the
        # order — the precheck refunds what that item cost (or asks which part); with no thing
        # named it is everything refundable, as before
        amount_beside = _AMOUNT_BESIDE.search(blank(whole.lower(), _ORDER_ID_SAID))
        # ("refund the full air fryer and 100 for the thermos": how much in all is asked)
        kind = "invalid" if amount_beside else "none"
        request = replace(request, amount_kind=kind, amount=None, amount_raw="")
        if amount_beside:
            request = replace(request, details=_FULL_BESIDE)
    two_amounts = _TWO_AMOUNTS.search(without_totals(whole.lower()))
    if request.amount_kind in ("none", "full") and not two_amounts and ALL_BUT.search(whole):
        # "keep the air fryer, refund the rest of 100200", "退100200，除了空气炸锅都退": all but
        # the thing kept, which the precheck works out from the whole message (or asks how
        # much), never the whole order
        request = replace(request, amount=None, amount_kind="invalid", amount_raw="")
        return replace(request, args={**request.args, SHARE_OF: whole[:300]})
    if request.amount_kind in ("none", "full", "exact") and (
        two_amounts or (request.amount_kind != "exact" and _EXCEPT_PART.search(whole.lower()))
    ):
        # "refund 269 and 129 on 100200", "everything in 100200 except the dinnerware": how
        # much is asked, never one of the numbers, never the whole
        return replace(request, amount=None, amount_kind="invalid", amount_raw="")
    if (
        request.amount_kind == "exact"
        and request.amount is not None
        and _REST_OF.search(whole.lower())
        and re.search(
            r"(?:was|only|gave(?: me)?|got|refunded|退了|给了|已经退)\s*(?:only\s*|me\s*)?[¥￥]?\s*"
            + re.escape(f"{request.amount:g}"),
            whole.lower(),
        )
    ):
        # "refund 100609 the rest, R-000094 was only 433": the 433 is the refund made, what
        # is asked for is what is left
        return replace(request, amount=None, amount_kind="full", amount_raw="")
    if request.amount_kind == "none":
        # "refund the thermos and the dinnerware from 100200": the items are named across the
        # message; the precheck refunds one item singled out, or asks which part
        return replace(request, args={**request.args, SHARE_OF: whole[:300]})
    if request.amount_kind != "invalid" or QUESTION_MARK.search(clause_text):
        # "is a half refund possible?": asked about, so the amount is asked too
        return request
    share = read_share(clause_text, whole=whole)
    if share is None:
        return request
    rest = read_amount(without_share(clause_text, share), money_context=True, packs=packs)
    if rest.kind not in ("none", "full"):
        return request
    return replace(
        request,
        amount=None,
        amount_kind=SHARE,
        amount_raw="",
        args={**request.args, SHARE: share.fraction, SHARE_OF: share.of},
    )


def _with_entities(
    base: _Request,
    ents: Entities,
    message_order: str | None,
    last_order_id: str | None,
    last_sku: str | None = None,
) -> list[_Request]:
    intent = base.intent
    if intent is ShopIntent.STOCK:
        if (
            not ents.skus
            and last_sku
            and (
                _REFERS_BACK.search(normalize(base.text, _TYPOS))
                or product_query(base.text) is None
            )
        ):
            # "that one, when is it back?", and a stock question naming no product of its own
            # ("how much are they?", "多少钱") after the session's last product
            return [replace(base, sku=last_sku)]
        if not ents.skus:
            # "do you have USB-C cables and a 65W charger?": one search per product named
            return [replace(base, text=part) for part in _product_parts(base.text)]
        return [replace(base, sku=sku) for sku in ents.skus]
    if intent is ShopIntent.TRACKING and ents.tracking_numbers and not ents.order_ids:
        return [replace(base, args={"tracking_number": n}) for n in ents.tracking_numbers]
    if intent in ORDER_SCOPED_INTENTS:
        sku = ents.skus[0] if intent is ShopIntent.CREATE_TICKET and ents.skus else None
        if ents.order_ids:
            return [replace(base, order_id=o, sku=sku) for o in ents.order_ids]
        if message_order is not None:
            # a fault told in a clause of its own ("8月买的保温杯漏水了 … 把100904取消了") may be
            # about another order than the one the message names: its words are looked up, and
            # it is filed only after a yes
            # (also one asked for in so many words: "can you file a ticket about my broken
            # thermos? also cancel 100904" is not about 100904)
            # ("100998发了没 还有钢化膜到哪了": a parcel named by its thing is looked up so too)
            thing = tracked_product(base.text) if intent is ShopIntent.TRACKING else None
            guessed = intent is ShopIntent.CREATE_TICKET or bool(
                thing and _PARCEL_COUNTED.sub("", thing).strip()
            )
            if intent is ShopIntent.REFUND and not guessed:
                # "净化器剩下那部分钱也退给我吧 … 另外100200里的保温杯也退了": a refund of a thing
                # of its own is of that thing's order (looked up), not the one named elsewhere
                guessed = bool(_thing_refunded(base.text))
            return [replace(base, order_id=message_order, sku=sku, inferred_order=guessed)]
        if intent is ShopIntent.ORDER_STATUS and (
            base.args.get(REFUNDS_ASKED) or _MY_REFUND_WHERE.search(normalize(base.text, _TYPOS))
        ):
            # "where's my refund?", "did my refund go through?" naming no order: the customer's
            # refunds, each with its order (not the order the conversation was about)
            return [replace(base, args={**base.args, REFUNDS_ASKED: True})]
        if last_order_id is not None:
            return [replace(base, order_id=last_order_id, sku=sku, inferred_order=True)]
        if (
            intent is ShopIntent.ORDER_STATUS
            and not base.args.get(REFUNDS_ASKED)
            and order_query(_published(base).args | {"intent": "order_status", "text": base.text})
            is None
        ):
            # nothing said of the order ("what did I order?"): the list to pick from; a
            # description ("has my monitor shipped") is looked up before planning
            return [replace(base, intent=ShopIntent.LIST_ORDERS)]
        return [replace(base, sku=sku)]
    if intent is ShopIntent.HANDOFF:
        if ents.order_ids or message_order:
            return [replace(base, order_id=ents.order_ids[0] if ents.order_ids else message_order)]
        if last_order_id is not None:
            # "can someone call me about it": the order the conversation is about goes along
            return [replace(base, order_id=last_order_id, inferred_order=True)]
        return [base]
    return [base]


# "where's the second parcel", "where is the rest": parcels counted, no thing named
_PARCEL_COUNTED = rx(
    r"\b(?:first|second|third|other|rest|remaining|last|another|one|ones|both|all|two|half"
    r"|of|it|them|stuff|thing|things)\b|另一个|第二个|剩下的?|其他的?"
)


# Where the money of a refund should go ("refund to alipay", "钱退回微信", "原路退回就行")
_REFUND_DESTINATION = rx(
    r"\bto (?:my |the |our )?(?:alipay|wechat(?: pay)?|paypal|(?:bank |credit |debit )?card"
    r"|balance|wallet|account|original payment(?: method)?|store credit)\b"
    r"|(?:退|返|回|到)(?:回|到|至|给)?(?:我的?)?(?:支付宝|微信|银行卡|信用卡|卡里?|余额|钱包|账户|原账户)"
    r"|原路"
)


def _refunds_beside_cancel(items: list[_Request]) -> list[_Request]:
    """A refund of an order the same message cancels: cancelling a paid order refunds it in
    full, so it is not a second refund (asked about, then refused by the shop once the cancel
    had refunded everything).

    - one that asks where the money goes ("cancel 100998 and refund to alipay", "取消100998
      钱退回微信") asks for a destination the shop cannot choose: deferred as unread;
    - one that only asks for the money ("cancel 100998 and refund me", "100998取消并退款") is
      answered by the refund-timing answer, which says a cancel refunds automatically;
    - a question about it ("会退回支付宝吗") is answered as asked.
    """
    cancelled = {i.order_id for i in items if i.intent is ShopIntent.CANCEL_ORDER and i.order_id}
    out: list[_Request] = []
    for item in items:
        about_refund = item.intent is ShopIntent.REFUND or (
            item.intent is ShopIntent.FAQ and item.topic == "refund_time"
        )
        text = normalize(item.text, _TYPOS)
        own_sum = item.intent is ShopIntent.REFUND and (
            left_amount_named(text) is not None or bool(_AMOUNT_BACK_TO_ME.search(text))
        )
        if own_sum and item.order_id and item.order_id not in text:
            # "cancel 100998, refund the remaining 866": the refund's own order is the one with
            # 866 left (looked up), not the order cancelled before it; "把那129退给我 顺便把
            # 100904取消了": a sum of its own, its order asked — never the cancelled one's
            item = replace(item, order_id=None)
        # "cancel 100904 and refund the thermos": a refund of a thing of its own (its order
        # looked up by it) is no refund of the order cancelled
        own_thing = item.intent is ShopIntent.REFUND and bool(_thing_refunded(item.text))
        of_cancelled = (
            item.order_id in cancelled and not (item.inferred_order and own_thing)
            if item.order_id
            # "the thermos from my august order leaks, refund me the 129 … cancel 100904 too":
            # a refund of a thing of its own is no refund of the order cancelled
            else bool(cancelled)
            and not own_sum
            and not _names_its_own_thing(item.text, text)
            and not own_thing
        )
        if about_refund and of_cancelled and not ASKS.search(text):
            if _REFUND_DESTINATION.search(text):
                item = _Request(
                    Intent.UNKNOWN, text=item.text, lang=item.lang, details=DEFERRED_PART
                )
            elif item.intent is ShopIntent.REFUND:
                item = _Request(ShopIntent.FAQ, text=item.text, lang=item.lang, topic="refund_time")
        if (
            item.intent is ShopIntent.FAQ
            and item.topic == "refund_time"
            and any(o.intent is ShopIntent.FAQ and o.topic == "refund_time" for o in out)
        ):
            continue  # one refund-timing answer, however many parts asked for it
        out.append(item)
    return out


# "A and B", "A和B", "A、B": two things asked about in one product question
_SEVERAL = rx(
    r"这(?:两|三|四|五|几)(?:个|样|款|件)|都有(?:货|吗)|\b(?:all|both) (?:of them|in stock)\b"
)
_HAN_LIST_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")
_PRODUCT_AND = rx(
    r"\s*[?？]?\s+(?:and|&|or|also|plus|n|vs\.?|versus)\s+(?:an?\s+|the\s+|some\s+)?|和|跟|以及|、|或者"
    # "围巾还有货不" asks whether there is stock left; "耳机还有数据线" lists two
    r"|还有(?![货没吗么嘛多少几库存现])"
)


def _product_parts(text: str) -> list[str]:
    split = _PRODUCT_AND.split(text)
    if _SEVERAL.search(text):
        # "主厨刀 收纳箱 洗衣液 这三个有货吗": things listed with spaces, then asked of together
        split = [piece for part in split for piece in _HAN_LIST_SPACE.split(part)]
    parts = [p for p in (p.strip(STRIP) for p in split) if len(p) >= 2]
    # "is the smart watch waterproof and do you have it in stock": one product, asked twice
    named = [p for p in parts if product_query(p)]
    return named if len(named) > 1 or (named and len(named) < len(parts)) else [text]


# "有没有女款", "有黑色的吗", "in XL?": a variant of a product, not a product of its own
_VARIANT = rx(
    r"^(?:(?:女|男|童|儿童|大|小|加大|加厚|新|同)款|[黑白红蓝灰粉绿紫黄棕]色(?:的)?|(?:大|小|加大)码"
    r"|xs|s|m|l|xl|xxl|xxxl|black|white|red|blue|grey|gray|pink|green|size|colou?rs?|womens?"
    r"|mens?|kids|women's|men's|bigger|smaller|one|ones|same|similar|同款|一样|一样的)$"
)


def _asked_of_before(text: str, before: str | None) -> str:
    """A product question whose words name no product ("do you have it in stock", "有没有女款":
    a pronoun or a variant) asks about the product asked about before in the message: its
    words go first."""
    if before is None:
        return text
    words = product_query(text)
    if words is None or all(_VARIANT.match(w) for w in words.split()):
        return f"{before} {text}"
    return text


def _changes_not_read(items: list[_Request], kept: list[_Request]) -> list[_Request]:
    """Clauses whose reading another clause already asked for, that ask for a change ("where
    is 100683 and pls change the delivery date": the date reads as the same tracking): the
    look answers the first, the change is deferred as unread, not dropped."""
    answered = {m.text for m in kept}
    tracked = {m.text for m in items if m.intent is ShopIntent.TRACKING}
    # a ticket dropped beside a refund of its order that asks for something sent ("refund
    # 100200 in full and send me a return label", "再给我寄个退货单") is deferred too
    sent = {m.text for m in items if m.intent is ShopIntent.CREATE_TICKET}
    # ("空气炸锅坏了 我要换货不要退款": one ticket for both clauses, the whole message its words)
    ticket_kept = any(m.intent is ShopIntent.CREATE_TICKET for m in kept)
    dropped = dict.fromkeys(
        (m.text, m.lang)
        for m in items
        if m.text not in answered and not (ticket_kept and m.intent is ShopIntent.CREATE_TICKET)
    )
    return [
        _Request(Intent.UNKNOWN, text=text, lang=lang, details=DEFERRED_PART)
        for text, lang in dropped
        if asks_for_a_change(text)
        or (text in sent and IMPERATIVE.search(text.strip()))
        or (text in tracked and _asks_beyond_the_look(text))
    ]


# what a look at a late parcel answers: why it is slow, where it is, when it comes
_LOOK_ANSWERS = rx(
    r"\b(?:why|late|slow|delay(?:ed)?|stuck|long|taking)\b|为什么|怎么还|慢|久|不更新|没动|延迟"
)


def _asks_beyond_the_look(text: str) -> bool:
    """ "100683到哪了 快递员电话怎么打不通": a question beside a look at the same order that asks
    neither where nor when (nor why it is late), deferred as unread, not answered by the look."""
    lowered = text.strip(STRIP).lower()
    return (
        bool(ASKS.search(lowered))
        and not _WHERE_OR_WHEN.search(lowered)
        and not _LOOK_ANSWERS.search(lowered)
        and not EXASPERATION.search(lowered)
        and word_count(lowered) >= 4
    )


_TICKET_WORD = rx(r"\btickets?\b|工单")


# words of these topics come up inside other questions ("退款几天到", "back to my wechat pay")
_INCIDENTAL_TOPICS = frozenset({"payment", "delivery_times"})


def _second_policy_question(matched: list[_Request]) -> list[_Request]:
    """ "怎么自己在app上取消订单 取消了钱会自动退吗": two policy questions read as one clause (no
    punctuation between them) are both answered, each by its topic's article. Only a topic
    whose words stand apart from the first's (after them, not inside them) is added."""
    asked = {m.topic for m in matched if m.intent is ShopIntent.FAQ}
    out: list[_Request] = []
    for m in matched:
        out.append(m)
        if m.intent is not ShopIntent.FAQ or m.topic is None:
            continue
        norm = normalize(m.text, _TYPOS)
        own = _FAQ_PATTERNS.get(m.topic)
        first = (own.search(norm) if own else None) or (
            (
                _REFUND_WHEN.search(norm)
                or _MONEY_BACK_WHEN.search(norm)
                or _AFTER_CANCEL.search(norm)
            )
            if m.topic == "refund_time"
            else None
        )
        for topic, pattern in _FAQ_PATTERNS.items():
            found = pattern.search(norm)
            if topic in asked or topic in _INCIDENTAL_TOPICS or found is None:
                continue
            if first is not None and (found.end() <= first.start() or found.start() >= first.end()):
                out.append(replace(m, topic=topic))
                asked.add(topic)
    return out


# "连帽卫衣有货吗？再来一顶毛线帽", "有卖机械键盘吗 … 再配个无线鼠标", "男士羽绒服多少钱 … 女款呢":
# another thing asked of in the same breath — a search of its own
_ANOTHER_THING = rx(
    r"(?:^|[\s？?。，,！!；;]+)(?:另外|然后|顺便)?(?:再|还)(?:来|配|要|买|拿|看看?)(?:一)?"
    r"(?:个|顶|件|双|张|条|台|把|只|套|盒|瓶|副|款)?(?=[\u4e00-\u9fffa-z0-9]{2})"
    r"|(?:^|[\s？?。，,！!；;]+)(?=[\u4e00-\u9fff]{2,6}呢(?:[\s？?。，,！!]|$))"
)


# "女款呢", "and the women's?", "男款有货吗": the same thing in the other cut, asked of alone
_OTHER_CUT_ONLY = rx(
    r"^[^\w\u3400-\u9fff]*(?:and |what about |how about |also |那|那个|还有)?(?:the )?"
    r"(?P<cut>女款|男款|女士款?|男士款?|女式|男式|女生款?|男生款?|女的|男的"
    r"|women'?s|men'?s|womens|mens|ladies'?|for (?:women|men|ladies))"
    r"(?: ones?| version| size| model)?(?:的)?"
    r"\W*(?:呢|有货吗|有吗|有没有货?|多少钱|还有吗|有货没|怎么样"
    r"|(?:is it |are they )?in stock)?\W*$"
)
_CUTS = (
    ("男士", "女士"),
    ("男款", "女款"),
    ("男式", "女式"),
    ("男生", "女生"),
    ("women's", "men's"),
    ("womens", "mens"),
    ("for women", "for men"),
)


def _swap_cut(text: str) -> str | None:
    """``text`` with its cut of clothing swapped ("男士羽绒服" -> "女士羽绒服"), or None."""
    lowered = text.lower()
    for a, b in _CUTS:
        pattern = re.compile(rf"(?<![a-z]){re.escape(a)}|(?<![a-z]){re.escape(b)}")
        found = pattern.search(lowered)
        if found:
            other = b if found.group(0) == a else a
            return text[: found.start()] + other + text[found.end() :]
    return None


def _the_other_cut(matched: list[_Request]) -> list[_Request]:
    """ "男士羽绒服多少钱 … 女款呢", "is the men's down jacket in stock? and the women's?": the
    other cut of the thing searched for just before, searched for in its turn."""
    out: list[_Request] = []
    for m in matched:
        before = next(
            (o for o in reversed(out) if o.intent is ShopIntent.STOCK and not o.sku), None
        )
        if (
            m.intent in (ShopIntent.STOCK, Intent.UNKNOWN)
            and before is not None
            and _OTHER_CUT_ONLY.match(normalize(m.text, _TYPOS))
            and (swapped := _swap_cut(product_query(before.text) or before.text)) is not None
        ):
            m = _Request(ShopIntent.STOCK, text=swapped, lang=m.lang)
        out.append(m)
    return out


def _another_thing_apart(matched: list[_Request]) -> list[_Request]:
    """A product search whose words go on to ask about another product is two searches."""
    out: list[_Request] = []
    for m in matched:
        found = (
            _ANOTHER_THING.search(m.text) if m.intent is ShopIntent.STOCK and not m.sku else None
        )
        first = m.text[: found.start()].strip(STRIP) if found and found.start() > 0 else ""
        second = m.text[found.end() :].strip(STRIP) if found else ""
        if found and product_query(first) and product_query(second):
            out += [replace(m, text=first, quantity=None), replace(m, text=second, quantity=None)]
            continue
        out.append(m)
    return out


def _budget_joins_search(matched: list[_Request]) -> list[_Request]:
    """ "gift idea for a friend who runs marathons? budget around 500 kuai": a budget said on
    its own is the search before it, within that budget; "what do you recommend" beside a
    search is answered by it."""
    searches = [m for m in matched if m.intent is ShopIntent.STOCK and product_query(m.text)]
    out: list[_Request] = []
    for m in matched:
        if m.intent is ShopIntent.STOCK and not m.sku and searches and not product_query(m.text):
            continue  # "need a kitchen knife ..., what do you recommend": that search's answer
        earlier = [o for o in out if o.intent is ShopIntent.STOCK]
        if m.intent is ShopIntent.STOCK and not m.sku and earlier and _SAME_THING.search(m.text):
            continue  # "any air fryers left? ... I want to get one for my mum": the same search
        cap, rest = price_cap(m.text)
        searched = [o for o in out if o.intent is ShopIntent.STOCK and o.sku is None]
        alone = m.sku is None and not product_query(rest)
        if m.intent is ShopIntent.STOCK and cap is not None and searched and alone:
            last = searched[-1]
            out[out.index(last)] = replace(last, text=f"{last.text} {m.text}")
            continue
        out.append(m)
    return out


def _late_delivery_looked_at(matched: list[_Request], norm: str) -> list[_Request]:
    """ "我要投诉😡100683这么多天了还没到": a complaint about an order's delivery being late is
    answered with the delivery's state too (an apology, where it is, any open ticket)."""
    if (
        not _STATES_DELIVERY.search(norm)
        or not _DELIVERY_TALK.search(norm)
        or _TICKET_WORD.search(norm)
        or any(m.intent is ShopIntent.HANDOFF for m in matched)
    ):
        # a ticket asked for in so many words, or a person: what the customer asked is done
        return matched
    looked = {m.order_id for m in matched if m.intent in _LOOKS}
    added = [
        _Request(ShopIntent.TRACKING, text=m.text, lang=m.lang, order_id=m.order_id)
        for m in matched
        if m.intent is ShopIntent.CREATE_TICKET
        and m.order_id
        and m.order_id not in looked
        and _STATES_DELIVERY.search(normalize(m.text, _TYPOS))
        and (m.args.get(_VENTED) or m.args.get(COMPLAINED) or is_complaint(m.text))
    ]
    return [*matched, *added]


def _one_parcel(items: list[_Request]) -> list[_Request]:
    """ "Where's my package?? tracking SF5969721286", "where is my screen protector, ordered it a
    week ago and nothing": a look naming nothing beside a look at a parcel the message names
    (its tracking number, the product in it) is that look."""

    def _names_parcel(item: _Request) -> bool:
        return bool(
            item.args.get("tracking_number")
            or (item.intent is ShopIntent.TRACKING and tracked_product(item.text))
        )

    if not any(m.intent in _LOOKS and _names_parcel(m) for m in items):
        return items
    return [
        m
        for m in items
        if not (
            m.intent in _LOOKS
            and m.order_id is None
            and not _names_parcel(m)
            and not m.args.get("product")
            and not looked_product(m.text)
        )
    ]


# "平底锅多少钱 啥时候到货", "发票能开电子的吗 多久能收到": a bare "when / how long" after a
# question asks about that question's subject (the stock answer has the restock date, the
# invoice policy says when invoices come), not about delivery times
# what may stand around the words: punctuation and spaces (``\W`` is ASCII: it would take Han)
_EDGE = r"[^\w\u4e00-\u9fff]*"
_BARE_WHEN = rx(
    "^" + _EDGE + r"(?:那|那么|大概|一般)?(?:啥时候|什么时候|何时|多久|几天)(?:能|会|可以|才)?"
    r"(?:到货|有货|补货|收到|到|有)?(?:呢|啊|吗)?" + _EDGE + "$"
    "|^" + _EDGE + r"(?:and |so )?(?:when|how long)(?: (?:will|would|does|do|is) (?:it|they|that))?"
    r"(?: (?:be back|take|come|arrive|be restocked))?" + _EDGE + "$"
)
_BARE_RESTOCK = rx(
    "^"
    + _EDGE
    + r"(?:那|那么)?(?:啥时候|什么时候|何时)(?:能|会|才|可以)?(?:到货|有货|补货)(?:呢|啊)?"
    + _EDGE
    + "$"
    "|^"
    + _EDGE
    + r"(?:and |so )?when (?:will|would|is|are) (?:it|they) (?:be )?(?:back|restocked)"
    + _EDGE
    + "$"
)
#: Policies whose answer says when (an invoice is sent, a refund arrives, a warranty lasts).
_TIMED_TOPICS = frozenset({"invoice", "refund_time", "warranty"})


def _when_of_the_one_before(items: list[_Request]) -> list[_Request]:
    out: list[_Request] = []
    for item in items:
        before = out[-1] if out else None
        if (
            before is not None
            and before.intent in (ShopIntent.STOCK, ShopIntent.FAQ)
            and item.intent in (ShopIntent.STOCK, ShopIntent.FAQ, ShopIntent.TRACKING)
            and not item.sku
            # (the order talked about before is no order this part names: "取消了钱是原路退回
            # 吗？多久能到？" asks when the money comes, not the parcel)
            and (not item.order_id or item.inferred_order)
            # (after "运费怎么算" or "有货吗", "多久能到" asks about delivery times)
            and (
                (before.intent is ShopIntent.STOCK and _BARE_RESTOCK.search(item.text))
                or (before.topic in _TIMED_TOPICS and _BARE_WHEN.search(item.text))
            )
        ):
            continue
        out.append(item)
    return out


def _no_product_named(items: list[_Request]) -> list[_Request]:
    """A price or stock question naming no product beside a request about an order ("i asked
    for a refund on 100609 ..., how much was it and how much is left?"): its "how much" asks
    about the order, which that request shows; it is no product search."""
    if not any(m.order_id for m in items if m.intent is not ShopIntent.STOCK):
        return items
    return [
        m
        for m in items
        if not (
            m.intent is ShopIntent.STOCK
            and not m.sku
            and not m.args
            and product_query(m.text) is None
        )
    ]


# "list my orders, and which ones can I still cancel?", "我账号下有几个订单 哪些能取消": which of
# the orders listed can be cancelled, asked beside the list
_LIST_ASKED = rx(
    r"\blist (?:all )?(?:of )?my orders\b|\b(?:show|tell) me (?:all )?(?:of )?my orders\b"
    r"|几个订单|几单"
)


def _which_can_be_cancelled(items: list[_Request]) -> list[_Request]:
    """The orders listed, and which of them can be cancelled asked beside the list: the list
    (each order with its state) and the cancel policy (which states can be cancelled)."""
    lists = [i for i in items if i.intent is ShopIntent.LIST_ORDERS]
    which = [i for i in lists if _WHICH_CANCELLABLE.search(normalize(i.text, _TYPOS))]
    if not which or any(i.intent is ShopIntent.FAQ and i.topic == "cancel_order" for i in items):
        return items
    if len(lists) == 1 and not _LIST_ASKED.search(normalize(which[0].text, _TYPOS)):
        return items
    policy = _Request(ShopIntent.FAQ, text=which[0].text, lang=which[0].lang, topic="cancel_order")
    return [*items, policy]


# the words of a write that name no thing: the verbs, pronouns and fillers
_NO_THING_WORDS = rx(
    r"\b(?:cancel\w*|refund\w*|return|please|pls|the|my|it|that|this|them|those|these|one|order"
    r"|orders|too|also|and|then|just|only|as well|of|from|in|for|me|whole|all|everything)\b"
    r"|取消|退款|退钱|退掉|退了|退|帮我|给我|麻烦|请|那单|这单|订单|那个|这个|也|都|一下|吧|了|的"
)
# the order of the second write is one more order ("and cancel 100998", "and the e-reader
# order 100803 too"), not the order the things listed are of ("… and the plates from 100200")
_ANOTHER_ORDER_TOO = rx(r"\b(?:cancel\w*|refund\w*)\b|\b(?:too|as well|also)\b|取消|退款|退|也")
_THINGS_OF_THE_ORDER = rx(r"\b(?:from|of|in|on|out of)\s+(?:order\s+)?#?\d{6}|\d{6}\s*(?:里|中|的)")
_NAMES_A_THING = rx(r"[a-z]{3,}|[\u4e00-\u9fff]{2,}")


def _own_order_apart(items: list[_Request]) -> list[_Request]:
    """ "cancel the air fryer and cancel 100998": a write naming no order of its own beside the
    same write naming one more order is not that order's (it was one cancel of 100998, the air
    fryer's asked for nowhere); "cancel 100904 and when does the monitor ship": when a thing
    ships, asked beside another request's order, is not about that order. Their order is the
    one their words describe, looked up before planning."""
    words = [normalize(i.text, _TYPOS) for i in items]
    own = [
        i.order_id if i.order_id in extract_entities(w).order_ids else None
        for i, w in zip(items, words, strict=True)
    ]
    named_by_any = {o for o in own if o}
    # (not "refund the thermos and the dinnerware from 100200": things of that order, listed)
    named = {
        (i.intent, o)
        for i, w, o in zip(items, words, own, strict=True)
        if o and _ANOTHER_ORDER_TOO.search(w) and not _THINGS_OF_THE_ORDER.search(w)
    }
    out = []
    for i, w, o in zip(items, words, own, strict=True):
        names_none = o is None and not extract_entities(w).order_ids
        apart = names_none and (
            (i.intent in _LOOKS and i.order_id in named_by_any and _MY_THING_SHIPS.search(w))
            or (
                i.intent in (ShopIntent.CANCEL_ORDER, ShopIntent.REFUND)
                and (i.intent, i.order_id) in named
                and i.amount_kind == "none"
                and not re.search(r"\d", i.text)
                and _NAMES_A_THING.search(_NO_THING_WORDS.sub(" ", w))
            )
        )
        out.append(replace(i, order_id=None, inferred_order=False) if apart else i)
    return out


def _part_cancel_asked(items: list[_Request], norm: str) -> list[_Request]:
    """ "can I cancel only the e-reader in 100803 and keep the detergent?": whether part of an
    order can be cancelled, asked across the message's parts — the cancel policy, no cancel."""
    if not _PART_CANCEL_ASKED.search(norm):
        return items
    out: list[_Request] = []
    for i in items:
        if i.intent is ShopIntent.CANCEL_ORDER:
            i = _Request(ShopIntent.FAQ, text=i.text, lang=i.lang, topic="cancel_order")
        if i not in out:
            out.append(i)
    return out


# "where are they", "both of them", "两个都到哪了": several things told of, looked at together
_THEY_LOOKED_AT = rx(
    r"\b(?:are|were) (?:they|both|the two)\b|\b(?:both|each) of them\b|\bboth (?:of )?(?:my |the )?"
    r"(?:orders|parcels|packages|deliveries)\b|\b(?:check|track|find) (?:them|both)\b"
    r"|\bthey (?:actually |now |at )|它们|他们(?:俩)?(?:都)?到哪"
    r"|两个(?:包裹|快递|订单|单子)?都|俩都"
)


def _each_order_looked_at(items: list[_Request]) -> list[_Request]:
    """A look naming no order that asks after several things told beside it ("the air fryer …
    and the cameras … where are they actually?") is a look at the order of each (the lookup
    finds them), never the first alone."""
    out = []
    for i in items:
        if (
            i.intent in (ShopIntent.TRACKING, ShopIntent.ORDER_STATUS)
            and i.order_id is None
            and _THEY_LOOKED_AT.search(normalize(i.text, _TYPOS))
        ):
            i = replace(i, args={**i.args, EVERY_DESCRIBED: True})
        out.append(i)
    return out


# "两个没发货的单都取消", "cancel all my unpaid orders", "cancel both orders that haven't shipped"
_EVERY_ONE = rx(r"都|全部|全都|所有|\ball\b|\bboth\b|\bevery\b|\beach\b")


def _every_order_described(items: list[_Request]) -> list[_Request]:
    """A cancel naming no order that describes orders by their state and asks for all of them
    is a cancel of each order the lookup finds (each asked on its own), never "which one?"."""
    out = []
    for i in items:
        norm = normalize(i.text, _TYPOS)
        if (
            i.intent is ShopIntent.CANCEL_ORDER
            and i.order_id is None
            and _EVERY_ONE.search(norm)
            and (UNPAID.search(norm) or NOT_SHIPPED.search(norm))
        ):
            i = replace(i, args={**i.args, EVERY_DESCRIBED: True})
        out.append(i)
    return out


# "等等 先查下物流", "wait, check the tracking first": the hold, then what to do first
_HOLD_THEN = rx(
    r"^\W*(?:wait|hold on|hang on|not yet|等等|等一下|等下|先等等?|先别|先不要?)"
    r"[\s,，.。!！]*(?:(?:please|pls|just|can you|could you)\s+)*(?:先)?"
)


def _looks_after_a_hold(
    text: str, packs: PackSet, read: Callable[[str], list[MatchedIntent]]
) -> list[MatchedIntent]:
    """The reads asked after a hold said to an offer ("wait, check the tracking first"): the
    offer is not taken (the no), the look is answered — never a write from these words ("wait,
    cancel that" calls the offer off: it is no cancel of the order)."""
    hold = _HOLD_THEN.match(normalize(text, _TYPOS))
    rest = text[hold.end() :].strip(STRIP) if hold else ""
    if not hold or len(bare(normalize(rest, _TYPOS))) < 2:
        return []
    reads = []
    for m in read(rest):
        cap = packs.for_intent(m.capability) if m.intent is Intent.PACK else None
        if cap is not None and cap.kind == "read":
            reads.append(m)
    return reads


# the first sentence of a message, and the rest ("actually make it 400. and how long …")
_FIRST_SENTENCE = re.compile(
    r"^(?P<first>[^.!?;。！？；]{2,60}[.!?;。！？；]+)\s*(?P<rest>\S.*)$", re.S
)


def _change_then_reads(
    text: str,
    lang: Lang,
    packs: PackSet,
    words: ConfirmationWords,
    read: Callable[[str], list[MatchedIntent]],
) -> list[MatchedIntent]:
    """ "actually make it 400. and how long does that take to come back?" to the refund of 300
    waiting: the first sentence changes the offer (asked again with 400, never the old amount
    kept), the rest is read and answered beside it ("make it 400. and cancel 100904": the cancel
    asked too); a rest that is no pack request (a no, a yes, thanks) leaves the whole message
    to the usual reading."""
    split = _FIRST_SENTENCE.match(text.strip())
    if split is None:
        return []
    first = split.group("first")
    change = read_confirmation(first, normalize(first, _TYPOS), lang, packs, words)
    if change is None or change.intent is not Intent.CONFIRM_CHANGE:
        return []
    rest = read(split.group("rest"))
    if any(m.intent is not Intent.PACK or packs.for_intent(m.capability) is None for m in rest):
        return []
    return [change, *rest]


_AMOUNT_CORRECTED = rx(r"不是|\b(?:no|wait|actually|rather)\b")


_PROCESS_IT = rx(
    r"^\W*(?:and |so |then )?(?:please |pls |plz |kindly |go ahead and )?(?:just )?"
    r"(?:process|issue|handle|complete|do) (?:it|that|this)\b"
    r"|^\W*(?:go ahead and |just )?(?:process|issue) (?:it|that|this)\b"
    r"|^\W*(?:那)?(?:现在|马上|赶紧|快)?(?:就)?(?:请)?(?:帮我|给我)(?:退|处理|办)(?:了|一下)?(?:吧|呗)?\W*$"
)


def _dedupe(items: list[_Request]) -> list[_Request]:
    """One request per intent and object. Of two ("我想退100609的钱，退一百就行"), the one that
    states an amount wins: an amount said is never replaced by the whole, and an exact amount
    wins over words that are not one ("退款100609 不要全退 退300就行")."""
    seen: dict[tuple[Kind, str | None, str | None, str | None, str], int] = {}
    out: list[_Request] = []
    for item in items:
        searched = (
            product_query(item.text) or item.text
            if item.intent is ShopIntent.STOCK and item.sku is None
            else ""
        )
        searched = searched or str(item.args.get("tracking_number") or "")
        if item.intent is ShopIntent.ORDER_STATUS and item.order_id is None and not searched:
            # "我的冲锋衣咋还没到 … 还有浴巾那单发了没": two orders described, two looks
            described = describes_an_order(normalize(item.text, _TYPOS))
            searched = tracked_product(item.text) or (item.text if described else "")
        if item.intent is ShopIntent.TRACKING and item.order_id is None and not searched:
            # "我的耳机到哪了 还有保温杯": two things looked up; "the screen protector i ordered,
            # where is it, is there a tracking number": one
            searched = tracked_product(item.text) or str(item.args.get("product") or "")
            if not searched and any(
                o.intent is ShopIntent.TRACKING and o.order_id is None for o in out
            ):
                continue
        if item.inferred_order and item.intent in _LOOKS and not searched:
            # "did my down jacket get delivered? and the pillow order too, 100452": the thing's
            # parcel is looked up by its words, not the order named beside it
            searched = tracked_product(normalize(item.text, _TYPOS)) or ""
        elif item.inferred_order and item.intent is ShopIntent.REFUND:
            # "净化器剩下那部分钱也退给我吧 … 100200里的保温杯也退了": so is a thing's refund
            searched = _thing_refunded(item.text)
        if (
            item.intent is ShopIntent.REFUND
            and _PROCESS_IT.match(normalize(item.text, _TYPOS))
            and any(
                o.intent is ShopIntent.REFUND
                and item.order_id in (None, o.order_id)
                and (
                    item.amount_kind == "none"
                    or (o.amount_kind, o.amount) == (item.amount_kind, item.amount)
                )
                for o in out
            )
        ):
            continue  # "…promised me a refund on 100200, please process it now": that refund
        key = (item.intent, item.order_id, item.sku, item.topic, searched)
        if key in seen:
            index = seen[key]
            if item.details in (WRITE_HELD, IF_LATE_BY) and not out[index].details:
                # "100998赶紧发货，不发就取消吧": one look at the order, saying the cancel waits
                joined = f"{out[index].text}，{item.text}"
                out[index] = replace(out[index], details=item.details, text=joined)
                continue
            if (
                item.intent is ShopIntent.ORDER_STATUS
                and asks_cancellable(item.text)
                and not asks_cancellable(out[index].text)
            ):
                # "the status of order 100998, and whether I can still cancel it": one look at
                # the order, its reply saying whether it can still be cancelled
                out[index] = replace(out[index], text=f"{out[index].text}, {item.text}")
            if out[index].inferred_order and not item.inferred_order:
                # "我买的耳机坏了 订单100200 要换新的": the order the customer named for the same
                # request is named, not worked out from the words beside it
                out[index] = replace(out[index], inferred_order=False)
            if out[index].details == "ack" and item.details != "ack":
                # "算了 不改了 谢谢": the thanks said is one, not the "算了" taken as an okay
                out[index] = item
                continue
            if (
                item.intent is ShopIntent.CANCEL_ORDER
                and ONE_OF_THEM_CANCELLED.search(out[index].text)
                and describes_an_order(normalize(item.text, _TYPOS))
            ):
                # "手机那单和空气炸锅那单，帮我取消一个，手机那单不要了": the one said, not
                # whichever of the two the first words fit
                out[index] = item
                continue
            kept = out[index].amount_kind
            first = out[index]
            if (
                item.intent is ShopIntent.REFUND
                and kept == item.amount_kind == "exact"
                and _thing_refunded(first.text)
                and _thing_refunded(item.text)
                and _thing_refunded(first.text) != _thing_refunded(item.text)
            ):
                # "保温杯退100；空气炸锅退200；餐具退50": an amount for each thing — one refund
                # whose words say them all (the precheck adds them up, or asks how much), never
                # the last amount alone
                words = str(first.args.get(SHARE_OF) or first.text)
                out[index] = replace(first, args={**first.args, SHARE_OF: f"{words}；{item.text}"})
                continue
            if (first.details == _FULL_BESIDE) != (item.details == _FULL_BESIDE):
                # "空气炸锅全额退，保温杯退100": all of one thing beside an amount for another —
                # how much in all is asked, never the amount alone
                out[index] = first if first.details == _FULL_BESIDE else item
                continue
            if (kept == "none" and item.amount_kind != "none") or (
                kept == "invalid" and item.amount_kind == "exact"
            ):
                out[index] = item
            elif kept == item.amount_kind == "exact" and out[index].amount != item.amount:
                # "100200退100，不是，退50": the amount said after a correction is the one
                # asked; two amounts with none ("退100 退50") are asked about, never the first
                said = normalize(out[index].text + " " + item.text, _TYPOS)
                corrected = _CORRECTION.search(said) or _AMOUNT_CORRECTED.search(said)
                out[index] = (
                    item
                    if corrected
                    else replace(item, amount=None, amount_kind="invalid", amount_raw="")
                )
            continue
        seen[key] = len(out)
        out.append(item)
    return _one_remedy_per_order(_one_look_per_order(out), asked=items)


def _one_ticket_per_message(items: list[_Request]) -> list[_Request]:
    """ "我想投诉快递员态度差，给我建个投诉单，订单100609": a problem and the ticket asked for it
    are one ticket, for the order the message names (a ticket that describes an order of its
    own, or names one, stays apart)."""
    tickets = [i for i in items if i.intent is ShopIntent.CREATE_TICKET]
    named = {i.order_id for i in tickets if i.order_id}
    loose = [
        i for i in tickets if not i.order_id and not describes_an_order(normalize(i.text, _TYPOS))
    ]
    if len(tickets) < 2 or len(named) > 1 or not loose:
        return items
    keeper = next((i for i in tickets if i.order_id), tickets[0])
    flags = {k: v for i in tickets for k, v in i.args.items()}
    merged = replace(keeper, args={**flags, **keeper.args})
    return [merged if i is keeper else i for i in items if i is keeper or i not in loose]


def _refund_named(items: list[_Request]) -> list[_Request]:
    """ "退款R-000094到账了没", "what's my refund amount on R-000094?": a question about a refund
    named by its number is about the order it is of (looked up by the number), never the
    refund-time policy or the list of orders."""
    out = []
    for i in items:
        # "refund R-000107 for the down jacket — is that money back yet?": a refund named by
        # its number is one made, never a new one
        about_refund = (
            (i.intent is ShopIntent.FAQ and i.topic == "refund_time")
            or (i.intent in (ShopIntent.LIST_ORDERS, ShopIntent.ORDER_STATUS) and not i.order_id)
            or (
                # "R-000094 refund the rest of 100609": a refund asked for on a typed order
                i.intent is ShopIntent.REFUND
                and not _MORE_WANTED.search(i.text.lower())
                and not extract_entities(normalize(i.text, _TYPOS)).order_ids
                and not _REST_OF.search(normalize(i.text, _TYPOS))
            )
        )
        if about_refund and REFUND_MENTION.search(normalize(i.text, _TYPOS)):
            if i.intent is ShopIntent.FAQ and _HOW_LONG.search(normalize(i.text, _TYPOS)):
                # "退的钱多久能到 R-000094那笔": how long refunds take, asked of that one — its
                # order's refunds (where it is) and how long the way back takes
                out.append(replace(i, intent=ShopIntent.ORDER_STATUS, topic=None))
                out.append(i)
                continue
            i = replace(i, intent=ShopIntent.ORDER_STATUS, topic=None, inferred_order=False)
        out.append(i)
    named = {m.group(0).upper() for i in items for m in REFUND_MENTION.finditer(i.text)}
    if len(named) != 1:
        return out
    (refund_id,) = named
    return [
        # "退款R-000094到账了没 同一单再给我退100": the order of the refund named beside it
        replace(i, args={**i.args, SAME_ORDER_AS_REFUND: refund_id})
        if i.intent in (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER, ShopIntent.CREATE_TICKET)
        and not i.order_id
        and _SAME_ORDER.search(normalize(i.text, _TYPOS))
        else i
        for i in out
    ]


# "保温杯 换个颜色 换": what the customer wants changed, not the thing's name
_CHANGE_WORDS = rx(r"(?:想|要)?(?:换|改)(?:个|一个|成)?(?:颜色|尺码|尺寸|款式|型号)?")
_REST_OF = rx(r"\bthe rest\b|\bremaining\b|\bwhat'?s left\b|剩下|剩余|余下|其余")
_SAME_ORDER = rx(
    r"\b(?:the )?same order\b|\bthat (?:same )?order\b|\bon it\b"
    r"|同一(?:个)?(?:单|订单)|这(?:一)?单|那(?:一)?单"
)


def _ticket_named_apart(items: list[_Request], norm: str) -> list[_Request]:
    """ "我的投诉处理得怎么样了，单号T-000031": the ticket number said in a clause of its own is
    the one asked after."""
    named = extract_entities(norm).ticket_ids
    if len(named) != 1:
        return items
    out: list[_Request] = []
    for i in items:
        if i.intent is ShopIntent.TICKET_STATUS:
            if any(o.intent is ShopIntent.TICKET_STATUS for o in out):
                continue  # the one ticket, asked after once
            i = replace(i, args={**i.args, "ticket_id": named[0]})
        out.append(i)
    return out


# a delivery told of as gone wrong: late, lost, stuck
_DELIVERY_WENT_WRONG = rx(
    r"延误|延迟|丢了|丢失|弄丢|没到|没送到|不动|没动|没更新|停在|超时"
    r"|\b(?:late|lost|delayed|overdue|stuck|missing|hasn'?t (?:moved|arrived|come|updated)"
    r"|(?:still )?(?:isn'?t|not) here)\b"
)


def _reason_of_the_ticket(items: list[_Request], norm: str) -> list[_Request]:
    """ "快递又延误了，帮我开个工单", "帮我开个工单，100683的包裹丢了": a delivery told of as late
    or lost beside a ticket asked for by name is the ticket's reason, not a question of its own
    ("... open a ticket. where is it now?" still asks)."""
    tickets = [i for i in items if i.intent is ShopIntent.CREATE_TICKET]
    if len(tickets) != 1 or not _TICKET_WORD.search(norm):
        return items
    (ticket,) = tickets
    reasons = [
        i
        for i in items
        if i.intent in _LOOKS
        and i.order_id in (None, ticket.order_id)
        and _DELIVERY_WENT_WRONG.search(normalize(i.text, _TYPOS))
        # "物流停在成都好几天了": several days, no question of how many
        and not _ASKS_WHERE.search(normalize(i.text, _TYPOS).replace("好几天", ""))
    ]
    if not reasons:
        return items
    order_id = ticket.order_id or next((i.order_id for i in reasons if i.order_id), None)
    if order_id and not ticket.order_id:
        ticket = replace(ticket, order_id=order_id)
    elif not order_id:
        # "my parcel is late AGAIN. please file a ticket": the parcel the words describe is the
        # ticket's order, found as the look would have found it (and asked first, naming it)
        told = " ".join(i.text for i in reasons)
        ticket = replace(ticket, text=f"{told} {ticket.text}", args={**ticket.args, VENTED: True})
    kept = [i for i in items if i not in reasons]
    return [ticket if i.intent is ShopIntent.CREATE_TICKET else i for i in kept]


# what went wrong with a thing delivered, told: "arrived with a dent", "盘子碎了", "smashed"
_THING_WENT_WRONG = rx(
    r"坏了|不保温|不工作|不能用|没法用|异响|裂|碎|漏|瘪|凹|磕|划痕|变形"
    r"|\b(?:broken|broke|stopped working|leaks?|leaking|cracked|smashed|shattered|dent(?:ed)?"
    r"|damaged|scratched|crushed|chipped|faulty|defective)\b"
)


def _reason_of_the_refund(items: list[_Request]) -> list[_Request]:
    """ "I want 100 yuan back on 100683. it's late", "我想退100683 膜还没到 不想等了", "the thermos
    from my 100200 order arrived with a dent. just give me 50 back": what went wrong, told beside
    the one refund or cancel asked for, is why it is asked — no look of its own (a where or when
    asked still is)."""
    writes = [i for i in items if i.intent in (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER)]
    if len(writes) != 1:
        return items
    (write,) = writes
    if QUESTION_MARK.search(write.text) or _asks_not_requests(normalize(write.text, _TYPOS)):
        return items
    reasons = [
        i
        for i in items
        if i.intent in _LOOKS
        and i.order_id == write.order_id
        # ("my package YT9433239273 is stuck, … also can I get a refund on shipping": a parcel
        # named by its tracking number is looked at)
        and not i.args.get("tracking_number")
        and (
            _DELIVERY_WENT_WRONG.search(norm := normalize(i.text, _TYPOS))
            or _THING_WENT_WRONG.search(norm)
        )
        and not _ASKS_WHERE.search(norm.replace("好几天", ""))
        and not QUESTION_MARK.search(i.text)
    ]
    return [i for i in items if i not in reasons]


# how to pay asked: the methods, instalments, what is accepted
_HOW_TO_PAY = rx(
    r"怎么付|如何付|怎么支付|支付方式|付款方式|能用|可以用|能不能用|支持|分期|花呗|货到付款"
    r"|\binstal?lments?\b|\bmethods?\b|\bhow (?:do|can|could) i pay\b|\bpay (?:with|by|in)\b"
    r"|\baccept(?:ed)?\b|\btake\b|\bcash on delivery\b"
    # "wechat pay ok?", "支付宝可以吗": whether a way of paying will do
    r"|\b(?:ok|okay|fine|possible|allowed)\b|行吗|行不行|可以吗|可以不|可不可以"
)


def _payment_of_the_refund(items: list[_Request]) -> list[_Request]:
    """ "退款一般几天到账 微信支付的", "净化器那个退款到账没有啊，我支付宝没看到": how the customer
    paid, told beside a question about a refund, is where the refund goes — no question about
    paying (one asking how to pay, "能用花呗吗", stays)."""
    about_refunds = any(
        (i.intent is ShopIntent.FAQ and i.topic == "refund_time")
        or (
            i.intent in (ShopIntent.ORDER_STATUS, ShopIntent.LIST_ORDERS, ShopIntent.REFUND)
            and (_REFUND.search(norm := normalize(i.text, _TYPOS)) or REFUND_MENTION.search(norm))
        )
        for i in items
    )
    if not about_refunds:
        return items
    return [
        i
        for i in items
        if not (
            i.intent is ShopIntent.FAQ
            and i.topic == "payment"
            and not _HOW_TO_PAY.search(normalize(i.text, _TYPOS))
        )
    ]


# "哪个仓发货", "which warehouse ships it": where a product ships from
_WAREHOUSE_ASKED = rx(
    r"哪个仓|哪个仓库|什么仓|哪里发货|从哪(?:里|儿)?发|\bwhich warehouses?\b|\bships? from\b"
)


# "分别是什么状态", "and their status?": the state of each of the things just asked about
_EACH_STATUS = rx(
    r"^[\s,，.。?？!！~]*(?:那|还有|and )?(?:它们|他们)?(?:分别|各自|都|每个)?(?:是)?(?:什么|啥)"
    r"(?:状态|情况)[\s,，.。?？!！~呢]*$"
    r"|^[\s,.?!~]*(?:and )?(?:what(?:'s| is| are) )?(?:their|the) (?:status(?:es)?|state)"
    r"[\s,.?!~]*$"
)


def _status_of_the_tickets(items: list[_Request]) -> list[_Request]:
    """ "我开过几个工单？分别是什么状态": the state of each, asked after the tickets, is theirs."""
    if not any(i.intent is ShopIntent.TICKET_STATUS for i in items):
        return items
    return [
        i
        for i in items
        if not (
            i.intent is ShopIntent.ORDER_STATUS
            and not i.order_id
            and _EACH_STATUS.match(normalize(i.text, _TYPOS))
        )
    ]


# a time asked with no delivery named: "how long would it take", "when does it come", "多久到"
_WHEN_NAMING_NO_DELIVERY = rx(
    r"^\W*(?:and |so |but )?(?:how long|how many days|when)\b(?!.*\b(?:deliver\w*|ship\w*|parcel"
    r"|package|courier|order)\b)[^.?!]{0,30}$"
    r"|^[^\w\u3400-\u9fff]*(?:那|要)?(?:多久|几天|什么时候|啥时候)(?:能|可以|才)?(?:到|到账|回来|退回来)?(?:呢|啊|吗)?[^\w\u3400-\u9fff]*$"
)
_A_REFUND_WORD = rx(r"\brefund|退款|退的钱|退钱|r-\d{6}")


# "my refund for 100609 never arrived, please refund the 433 again", "退款没到账 再退一次": a
# refund made before said not to have come, asked again — its state is shown (paid back, when),
# never a second refund of the same money
_REFUND_NOT_COME_AGAIN = rx(
    r"(?:\bnever (?:arrived|came|got here|showed up|received)\b"
    r"|\b(?:didn'?t|did not|haven'?t|have not) (?:\w+ )?"
    r"(?:get|got|receive|received|arrive|arrived|come|see|seen)\b"
    r"|没到账|没收到|还没到|没到|没退回)"
    r"[^?]{0,60}(?:\bagain\b|\bonce more\b|\banother time\b"
    r"|再退一次|重新退|再退一遍|重退|再给我退一次)"
)


def _refund_not_come_asked_again(items: list[_Request], whole: str) -> list[_Request]:
    """A refund asked again because the one made is said not to have arrived: the order's
    refunds shown instead (their state says whether it was paid back)."""
    if not _REFUND_NOT_COME_AGAIN.search(whole):
        return items
    return [
        _Request(ShopIntent.ORDER_STATUS, text=i.text, lang=i.lang, order_id=i.order_id)
        if i.intent is ShopIntent.REFUND and i.order_id
        else i
        for i in items
    ]


def _time_of_the_refund(items: list[_Request]) -> list[_Request]:
    """ "how much can I still get refunded for the purifier, and how long would it take", "I
    havent seen refund R-000094 on my alipay yet, when does it come": a bare "how long / when"
    after a request about a refund asks when the refund arrives, not how long delivery takes."""
    out: list[_Request] = []
    for index, item in enumerate(items):
        if (
            item.intent is ShopIntent.FAQ
            and item.topic == "delivery_times"
            and _WHEN_NAMING_NO_DELIVERY.search(normalize(item.text, _TYPOS))
            and any(_A_REFUND_WORD.search(normalize(i.text, _TYPOS)) for i in items[:index])
        ):
            item = replace(item, topic="refund_time")
        elif (
            item.intent is ShopIntent.ORDER_STATUS
            and _MONEY_BACK_WHEN.search(normalize(item.text, _TYPOS))
            and not extract_entities(item.text).order_ids
            and any(
                i.intent in (ShopIntent.CANCEL_ORDER, ShopIntent.REFUND)
                and i.order_id == item.order_id
                for i in items[:index]
            )
        ):
            # "please cancel 100998 … and tell me when i get my money back": how long the money
            # of the write asked beside it takes, not the order's state again
            item = _Request(ShopIntent.FAQ, text=item.text, lang=item.lang, topic="refund_time")
        elif (
            item.intent is ShopIntent.FAQ
            and item.topic == "refund_time"
            and _REFUNDED_BY_ITSELF.search(normalize(item.text, _TYPOS))
            and any(_CANCEL.search(normalize(i.text, _TYPOS)) for i in items[:index])
            and not any(i.intent is ShopIntent.FAQ and i.topic == "cancel_order" for i in items)
        ):
            # "… if I cancel, is the refund automatic": how a cancel pays back, the cancel policy
            item = replace(item, topic="cancel_order")
        out.append(item)
    return out


# "the purifier refund", "净化器的退款", "100609的退款": a refund named, nothing asked of it
_REFUND_NAMED_ONLY = rx(
    r"^[^\w\u3400-\u9fff]*(?:the|my|that|this) (?:[a-z0-9'-]+ ){1,3}refund[^\w\u3400-\u9fff]*$"
    r"|^[^\w\u3400-\u9fff]*(?:[\u4e00-\u9fff]{2,8}|\d{6})的退款[^\w\u3400-\u9fff]*$"
)
# "要是显示器还没发 我可能会取消", "如果退100200 多久到账", "取消100998的话 钱多久回来",
# "取消不了吧":
# a cancel or refund weighed, asked about or doubted — not asked for
_WRITE_WEIGHED = rx(
    r"可能(?:会)?(?:要)?(?:取消|退)|\b(?:might|may) (?:\w+ )?(?:cancel|refund)\b"
    r"|(?:取消|退)不了|(?:取消|退款?)[^，。,.!?！？]{0,10}的话"
    + TO_END
    + r"|^[^\w\u3400-\u9fff]{0,3}(?:如果|要是|假如|万一)[^，。,.!?！？就]{0,12}(?:取消|退)"
    r"(?![^，。,.!?！？]{0,8}吧)"
)


# "订单100609。谢谢", "order #100609": an order said alone
_ORDER_ALONE = rx(
    r"^[^\w\u3400-\u9fff]*(?:订单号?|单号|order(?: number| no\.?)?|#)?\s*#?\d{6}"
    r"[^\w\u3400-\u9fff]*(?:谢谢|多谢|thanks|thx|thank you)?[^\w\u3400-\u9fff]*$"
)
# "keep 100998", "don't cancel 100998", "100998别动": an order named to be left alone
_KEPT = rx(
    r"\b(?:keep|leave|not|don'?t (?:cancel|touch|refund))\s+(?:order\s+)?#?\d{6}"
    r"|\d{6}\s*(?:别动|不动|保留|留着|不要动|先不动|不取消|不用取消)"
)
# "refund the purifier, actually no, cancel the monitor order": the first taken back
_TAKEN_BACK = rx(
    r"(?:\bactually,? no|\bno,? wait|\bwait,? no|\bscratch that|\bforget (?:it|that)|算了|不对|"
    r"不不|哦不)[^\w\u3400-\u9fff]*$"
)


def _not_that_one(items: list[_Request]) -> list[_Request]:
    """A cancel or refund of "the other one" is never for the order the message names or the
    session talked about (asked which, as a write naming none is); a cancel or refund taken back
    in its own words before another action ("refund the purifier, actually no, cancel the monitor
    order") is dropped."""
    actions = (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER)
    out: list[_Request] = []
    for index, item in enumerate(items):
        if item.intent in actions:
            own = normalize(item.text, _TYPOS)
            later = any(i.intent in actions for i in items[index + 1 :])
            if later and _TAKEN_BACK.search(own):
                continue
            named_apart = item.order_id is not None and item.order_id in own
            if named_apart and _KEPT.search(own):
                named_apart = False  # "keep 100998, cancel the other one": 100998 is kept
            if THE_OTHER.search(own) and item.order_id and not named_apart:
                item = replace(item, order_id=None, inferred_order=False)
        out.append(item)
    return out


# "Is it possible to cancel 100904? If yes please do it": the action just asked about, wanted
_IF_SO_DO_IT = rx(
    r"^\W*(?:and )?if (?:yes|so|possible|it is|it's possible|you can|it can be done),? "
    r"(?:then )?(?:please |pls |plz )?(?:do it|do that|go ahead|proceed|just do it)\W*$"
)
_ASKED_ACTION = (
    (rx(r"\bcancel"), ShopIntent.CANCEL_ORDER),
    (rx(r"\brefund"), ShopIntent.REFUND),
)


def _done_if_possible(items: list[_Request], norm: str) -> list[_Request]:
    """ "Is it possible to cancel 100904? If yes please do it": the part after a question about
    whether an action can be done, wanting it done if so, is that action (asked first, as every
    cancel and refund is; the shop refuses one it cannot do)."""
    out: list[_Request] = []
    for item in items:
        at = norm.find(normalize(item.text, _TYPOS))
        asked = [
            i
            for i in items
            if i.intent is ShopIntent.ORDER_STATUS
            and i.order_id
            and 0 <= norm.find(normalize(i.text, _TYPOS)) < at
        ]
        if item.intent is Intent.UNKNOWN and asked and _IF_SO_DO_IT.match(normalize(item.text)):
            before = asked[-1]
            wanted = next(
                (k for p, k in _ASKED_ACTION if p.search(normalize(before.text, _TYPOS))), None
            )
            if wanted is not None:
                # the question is answered by the action's own confirmation question
                out = [o for o in out if o is not before]
                item = _Request(
                    wanted,
                    text=f"{before.text} {item.text}",
                    lang=item.lang,
                    order_id=before.order_id,
                )
        out.append(item)
    return out


def _said_not_asked(items: list[_Request], norm: str) -> list[_Request]:
    """A refund named and nothing asked of it, or a cancel or refund weighed beside a question
    ("如果退100200 多久到账"): the order is shown (its refunds, what can still be refunded or
    cancelled, and how to ask) — never an action offered that a hurried yes would run."""
    asks = bool(ASKS.search(norm)) or bool(QUESTION_MARK.search(norm))
    out: list[_Request] = []
    for item in items:
        if item.intent in (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER):
            own = normalize(item.text, _TYPOS)
            named_only = item.intent is ShopIntent.REFUND and (
                _REFUND_NAMED_ONLY.search(own) or refund_amount_named(own) is not None
            )
            weighed = _WRITE_WEIGHED.search(own) and (asks or "可能" in own or "might" in own)
            if (named_only or weighed) and not _IF_SO_CANCEL.search(own):
                args = {k: v for k, v in item.args.items() if k not in (SHARE, SHARE_OF, SHARE_OWN)}
                item = replace(
                    item, intent=ShopIntent.ORDER_STATUS, amount=None, amount_kind="none", args=args
                )
        out.append(item)
    return out


# "那个有货没", "想再买一个", "do you have the same one": the thing told of, wanted again
_BUY_AGAIN = rx(
    r"那个|这个|那款|这款|同款|一样的|再买|再来一|新的|换个新|\bsame one\b|\banother one\b"
    r"|\ba new one\b|\bthe same\b|\bbuy (?:another|a new|one again)\b"
)


# the words of a fault and whose the thing is: "家里烧水壶坏了", "my kettle broke"
_NOT_THE_THING = rx(
    r"坏了|坏掉了|坏掉|坏|不能用了|不能用|用不了|家里的|家里|我家的|我家|我的|我们的"
    r"|\b(?:broke|broken|died|stopped working|is dead|my|our|at home|just|has|have|it)\b"
)


def _broken_so_buying(items: list[_Request]) -> list[_Request]:
    """ "家里烧水壶坏了 1.7升那个有货没", "my kettle broke, do you have the same one in stock?": a
    thing told broken, naming no order and asking for no ticket, beside a stock question about
    buying it again — why the customer shops, not a fault to file: no ticket offered, and the
    stock question searches for the thing told of."""
    said = " ".join(
        [*(i.text for i in items), *(str(i.args.get(TICKET_MESSAGE, "")) for i in items)]
    )
    if ticket_asked_for(said) or _COMPLAINT_WORD.search(said):
        return items  # "保温杯坏了 同款有货没 另外帮我投诉一下": the complaint asked for stands
    tickets = [i for i in items if i.intent is ShopIntent.CREATE_TICKET and not i.order_id]
    stocks = [i for i in items if i.intent is ShopIntent.STOCK and not i.sku]
    if len(tickets) != 1 or len(stocks) != 1:
        return items
    (ticket,), (stock,) = tickets, stocks
    if not _BUY_AGAIN.search(normalize(f"{ticket.text} {stock.text}", _TYPOS)):
        return items
    thing = product_query(_NOT_THE_THING.sub(" ", normalize(ticket.text, _TYPOS)))
    if thing is None:
        return items
    wanted = replace(stock, text=f"{thing} {stock.text}")
    return [wanted if i is stock else i for i in items if i is not ticket]


# "现在买降噪耳机，几天能到天津？", "if I buy the air fryer today, when would it arrive": a thing
# bought now, and when it would come
_BOUGHT_NOW = rx(
    r"(?:现在|今天|马上|这会儿?)(?:下单)?买(?:个|台|件|一个|一台|一件|副|一副)?"
    r"(?P<zh>[\u4e00-\u9fffa-z0-9]{2,10}?)\s*[,，]"
    r"|\bif (?:i|we) (?:buy|order|get) (?P<en>(?:the|a|an|your) [a-z0-9 '-]{2,30}?)"
    r"(?: (?:today|now|tonight))?\s*[,，]?\s*(?=when|how)"
)


def _bought_now_arrives(items: list[_Request]) -> list[_Request]:
    """When a thing bought now would come, asked: the delivery times and the thing's stock (and
    the warehouses it ships from), searched by its name."""
    if any(i.intent is ShopIntent.STOCK for i in items):
        return items
    out: list[_Request] = []
    for item in items:
        out.append(item)
        if item.intent is not ShopIntent.FAQ or item.topic != "delivery_times":
            continue
        bought = _BOUGHT_NOW.search(normalize(item.text, _TYPOS))
        thing = bought and product_query(bought.group("zh") or bought.group("en"))
        if thing:
            out.insert(-1, _Request(ShopIntent.STOCK, text=thing, lang=item.lang))
    return out


# "… when do they actually ship out? I'm in Tianjin btw": where the customer is, told beside when
# their order ships — how long delivery there takes is asked too
_WHERE_I_AM = rx(
    r"\b(?:i'?m|i am|we'?re|we are) (?:based |located |living )?in "
    r"(?!(?:a|the|no|trouble|shock|hurry|rush|pain|love|need|bed|tears|luck|charge)\b)[a-z]{3,}\b"
    r"|\bi live in [a-z]{3,}"
    r"|我(?:人)?(?:在|住在)(?:北京|上海|天津|重庆|成都|广州|深圳|杭州|武汉|南京|西安|[\u4e00-\u9fff]{2}市)"
)
_SHIPS_OR_COMES = rx(r"\bship|\barriv|\bget here\b|\bdeliver|发货|发出|到货|送到|能到|收到")


def _where_the_customer_is(items: list[_Request], norm: str) -> list[_Request]:
    """A look at when an order ships or comes, and where the customer is said beside it: the
    delivery times too (how long from the warehouse to there)."""
    if (
        not _WHERE_I_AM.search(norm)
        or not _SHIPS_OR_COMES.search(norm)
        or any(i.intent is ShopIntent.FAQ or i.intent is ShopIntent.STOCK for i in items)
    ):
        return items
    looks = [i for i in items if i.intent in (ShopIntent.ORDER_STATUS, ShopIntent.TRACKING)]
    if not looks:
        return items
    times = _Request(
        ShopIntent.FAQ, text=looks[-1].text, lang=looks[-1].lang, topic="delivery_times"
    )
    return [*items, times]


def _warehouse_of_the_products(items: list[_Request]) -> list[_Request]:
    """ "加湿器和电热水壶各多少钱，哪个仓发货": which warehouse, asked beside a product search, is
    about those products (their stock by warehouse), not a list of the customer's orders."""
    if not any(i.intent is ShopIntent.STOCK for i in items):
        return items
    return [
        i
        for i in items
        if not (
            i.intent is ShopIntent.LIST_ORDERS
            and _WAREHOUSE_ASKED.search(norm := normalize(i.text, _TYPOS))
            and not _ORDERS_NAMED.search(norm)
        )
    ]


_ORDERS_NAMED = rx(r"订单|那单|这单|\borders?\b")
_BOUGHT_BY_ME = rx(
    r"我的|我买的|我那|我这|\bmy\b|\bi (?:bought|ordered)\b"
    # a parcel ("圆通那个是从哪里发出来的"), or its arrival ("钢化膜到底从哪个仓发的 啥时候能到")
    r"|圆通|顺丰|中通|韵达|申通|快递|包裹|单号|到底|能到|\bparcel\b|\bpackage\b|\barrive"
)


def _no_return_weighed(items: list[_Request]) -> list[_Request]:
    """ "懒得寄回去了，退我100块算了": not sending a thing back, told beside a part of its price
    asked for, is why only that part is wanted — not a question about returns."""
    if not any(i.intent is ShopIntent.REFUND and i.amount_kind == "exact" for i in items):
        return items
    return [
        i
        for i in items
        if not (
            i.intent is ShopIntent.FAQ
            and i.topic == "returns"
            and not ASKS.search(normalize(i.text, _TYPOS))
            and not QUESTION_MARK.search(i.text)
        )
    ]


# a look at "it", "this order", "那台": an order spoken of before in the message
_LOOK_BACK = rx(
    r"\b(?:it|they|them|that order|this order|that one|my first one|the one i (?:bought|ordered))\b"
    r"|这单|那单|这个订单|那个订单|那台|这台|我那台|我那单|之前那|现在啥状态|现在什么状态"
)


# "它还能退多少", "how much can I still get back on it": what is left to refund on "it"
_REFUND_OF_IT = rx(
    r"(?:它|这个|\bit\b)[^.?!。？！]{0,6}(?:还能退|还可以退|能退多少)"
    r"|(?:how much|还能退多少|能退多少)[^.?!。？！]{0,40}(?:\bon it\b|\bfor it\b|它)"
    r"|\bhow much of it\b"
)
_MY_FIRST_ONE = rx(
    r"\bmy (?:first|other|old) one\b|\bthe one i (?:bought|have|ordered)\b|之前那(?:台|个|件)"
)


def _look_told_beside(items: list[_Request], whole: str) -> list[_Request]:
    """ "my company needs a fapiao for the monitor … also has it shipped yet", "显示器那单我还要的
    … 帮我看下现在啥状态": a look at "it" naming and describing no order is about the order the
    rest of the message describes (looked up before planning; product searches left out)."""
    items = _look_of_the_ticket(items, whole)
    # "…只有充电宝 菜刀没有 … 帮我查下物流 然后给我开个工单": the order the story is about, the
    # one the ticket beside it is filed on (the parcel too: not the one on its way)
    ticket_beside = any(i.intent is ShopIntent.CREATE_TICKET and not i.order_id for i in items)
    looks = [
        i
        for i in items
        if (i.intent in _LOOKS or i.intent is ShopIntent.LIST_ORDERS)
        and not i.order_id
        and tracked_product(norm := normalize(i.text, _TYPOS)) is None
        and not describes_an_order(norm)
        and (ticket_beside or not names_a_parcel(norm))
    ]
    if len(looks) != 1:
        return items
    (look,) = looks
    told = whole
    for i in items:
        # other requests' words describe their own orders ("cancel my unpaid order, and tell
        # me when the monitor ships")
        if i.intent in (ShopIntent.STOCK, *_LOOKS, *_ACTIONS) or i is look:
            told = told.replace(i.text, " ")
    if extract_entities(normalize(told, _TYPOS)).order_ids:
        return items  # an order named elsewhere: the planner's to carry
    stock = [i for i in items if i.intent is ShopIntent.STOCK]
    if not looked_product(told) and len(stock) == 1 and _MY_FIRST_ONE.search(look.text):
        # "price of the 27 inch monitor? i might buy a second one. and when does my first one
        # ship", "27寸显示器多少钱 想再买一台 之前那台什么时候发": the thing asked about, bought
        # before — its order
        told = stock[0].text
    refund_of_it = _REFUND_OF_IT.search(normalize(look.text, _TYPOS)) is not None
    if refund_of_it and not looked_product(told):
        # "净化器坏了 它还能退多少": "it" is the thing whose fault was told
        told = next((i.text for i in items if i.intent is ShopIntent.CREATE_TICKET), told)
    if not (
        _LOOK_BACK.search(normalize(look.text, _TYPOS))
        or refund_of_it
        # "… the purifier. what happened with the refund you did before": a refund made there
        or _A_REFUND_MADE.search(normalize(look.text, _TYPOS))
        # "顺丰显示已签收，可我根本没收到！！空气净化器那单": the order, named by what is in it
        or describes_an_order(normalize(told, _TYPOS))
        or ticket_beside
    ):
        return items
    if not looked_product(told) or order_query({"intent": "order_status", "text": told}) is None:
        return items
    intent = ShopIntent.ORDER_STATUS if look.intent is ShopIntent.LIST_ORDERS else look.intent
    return [
        replace(i, intent=intent, args={**i.args, TOLD_BESIDE: told.strip()[:300]})
        if i is look
        else i
        for i in items
    ]


def _look_of_the_ticket(items: list[_Request], whole: str) -> list[_Request]:
    """ "T-000031有进展没 快递动了没", "T-000031 status? and the tracking number for that order":
    a look naming no order and no thing, beside one ticket named, is at the order that ticket
    is about (its words carry the ticket's number to the order lookup)."""
    looks = [
        i
        for i in items
        if i.intent in _LOOKS
        and not i.order_id
        and TOLD_BESIDE not in i.args
        and tracked_product(norm := normalize(i.text, _TYPOS)) is None
        and not describes_an_order(norm)
        # ("the status of everything i have open and is T-000031 closed": no order of it)
        and (names_a_parcel(norm) or _LOOK_BACK.search(norm) is not None)
    ]
    told = whole
    for i in looks:
        told = told.replace(i.text, " ")
    if len(looks) != 1 or extract_entities(normalize(told, _TYPOS)).order_ids:
        return items
    if len({t.upper().replace("-", "") for t in TICKET_MENTION.findall(told)}) != 1:
        return items
    return [
        replace(i, args={**i.args, TOLD_BESIDE: told.strip()[:300]}) if i is looks[0] else i
        for i in items
    ]


# "没发就取消掉", "没付的话就取消吧", "if not, cancel it": a cancel on a condition, naming nothing
_CANCEL_IF_SO = rx(
    r"^\W*(?:要是|如果|若是?)?(?:还)?(?:没|没有|未)(?:发|发货|付|付款|付钱|支付)?(?:的话)?(?:就|那就)"
    r"\s*(?:直接)?\s*(?:帮我|给我)?\s*(?:直接)?\s*取消(?:了|掉)?(?:吧|了吧)?\W*$"
    r"|^\W*(?:and )?(?:if (?:not|it (?:hasn'?t|has not|isn'?t|is not)[^.?!]{0,20})|if so)"
    r",? (?:please )?(?:just )?cancel (?:it|the order)\W*$"
)


def _cancel_of_the_order_looked_at(items: list[_Request]) -> list[_Request]:
    """ "三件冲锋衣那单还没发货吧？没发就取消掉": a cancel on a condition naming no order, right
    after one look at an order the message names or describes, is of that order (looked up
    like the look; asked about first — the shop refuses a shipped order, the precheck an
    unpaid-only cancel of a paid one)."""
    out = list(items)
    for n, item in enumerate(items):
        if n == 0 or item.intent is not ShopIntent.CANCEL_ORDER:
            continue
        if item.order_id and not item.inferred_order:
            continue
        norm = normalize(item.text, _TYPOS)
        # (its own sentence: "If it hasn't, cancel it. If it's already on the way, leave it")
        own = _ELSE_BRANCH.sub(" ", _OWN_SENTENCE_END.split(norm, maxsplit=1)[0])
        if (
            not (_CANCEL_IF_SO.search(norm) or _CANCEL_IF_SO.search(own))
            or TOLD_BESIDE in item.args
        ):
            continue
        before = out[n - 1]
        looks = [i for i in items if i.intent in _LOOKS]
        if before.intent not in _LOOKS or len(looks) != 1:
            continue
        # (a condition of payment is carried by _conditions_of_the_cancels, run next)
        if before.order_id and not before.inferred_order:
            out[n] = replace(item, order_id=before.order_id, inferred_order=False)
        elif (not before.order_id or before.inferred_order) and describes_an_order(
            normalize(before.text, _TYPOS)
        ):
            told = str(before.args.get(TOLD_BESIDE) or before.text)[:300]
            out[n] = replace(
                item,
                order_id=None,
                inferred_order=False,
                args={**item.args, TOLD_BESIDE: told},
            )
    return out


# a cancel said on a condition ("if so cancel it", "没有就取消吧", "没发的话取消100998")
_ON_A_CONDITION = rx(r"\b(?:if|unless|then)\b|如果|要是|的话|没(?:有|付|发)?就|不然就|否则")
# a condition of payment asked or told ("is 100998 paid? if not, cancel", "100998付了吗？没付就取消
# 掉") — not a payment told ("已经付款了，帮我取消")
_PAYMENT_WORDS = rx(
    r"\bunpaid\b|\b(?:not|isn'?t|wasn'?t|haven'?t|hasn'?t|never) (?:yet |been |even )?paid\b"
    r"|\bpaid (?:yet|already)?\s*\?"
    r"|\bpaid yet\b|\b(?:is|was|has) [^.?!]{0,15}\bpaid\b|没付|未付|不付|没支付|未支付"
    r"|付(?:款|钱)?了(?:吗|没|么|不)|\bpayment\b|\bowe\b|\b(?:pending|awaiting) payment\b"
    r"|待付款|待支付|付清|付过|有没有付|没有付"
)


def _conditions_of_the_cancels(items: list[_Request], whole: str) -> list[_Request]:
    """A cancel on a condition the words before it state: about payment ("is 100998 unpaid?
    if so cancel it", "100998付了吗？没付就取消掉") it is only if the order is unpaid
    (:data:`IF_UNPAID`, checked before anyone is asked); about another order ("100683发货了吗？
    没发的话取消100998", "if 100998 is unpaid cancel 100904") it is no cancel — the order is
    shown, nothing is asked."""
    out = list(items)
    for n, item in enumerate(items):
        if item.intent is ShopIntent.REFUND and _one_order_the_others_condition(
            normalize(item.text, _TYPOS)
        ):
            # "if 100683 hasn't arrived refund 100200": no refund of either — both are shown
            out[n] = replace(item, intent=ShopIntent.ORDER_STATUS, args={}, details="")
            continue
        if item.intent is not ShopIntent.CANCEL_ORDER:
            continue
        norm = normalize(item.text, _TYPOS)
        own = _ON_A_CONDITION.search(norm) is not None
        if not (own or _ON_A_CONDITION.search(whole)):
            continue
        at = whole.find(norm)
        if own and at >= 0 and re.match(r"\s*[?？]", whole[at + len(norm) :]):
            # "如果没发货就取消100998？": whether that is how it works, asked — no cancel
            out[n] = replace(item, intent=ShopIntent.ORDER_STATUS, args={}, details="")
            continue
        named = set(extract_entities(norm).order_ids)
        paid_asked = item.args.get(IF_UNPAID) or _PAYMENT_WORDS.search(norm)
        after = items[n + 1] if n + 1 < len(items) else None
        if (
            (own and len(named) > 1 and paid_asked)
            # "取消100998 如果100683还没到的话": the condition, of another order, said after it
            or (
                after is not None
                and after.intent in _LOOKS
                and after.order_id not in (None, item.order_id)
                and re.match(r"\W*(?:if|unless|如果|要是|假如|万一)", after.text, re.IGNORECASE)
                and not _CONDITIONED_WRITE.search(normalize(after.text, _TYPOS))
            )
            or _on_another_orders_condition(items[:n], item, whole)
            or _one_order_the_others_condition(norm)
        ):
            out[n] = replace(item, intent=ShopIntent.ORDER_STATUS, args={}, details="")
            continue
        if _PAYMENT_WORDS.search(whole) and not item.args.get(IF_UNPAID):
            out[n] = replace(item, args={**item.args, IF_UNPAID: True})
    return out


def _on_another_orders_condition(before: list[_Request], item: _Request, whole: str) -> bool:
    """ "is 100998 paid? if not, cancel 100904", "100683发货了吗？没发的话取消100998": the words
    between a look at one order and a cancel of another hold the condition — of the first."""
    looks = [b for b in before if b.intent in _LOOKS and b.order_id and not b.inferred_order]
    if not looks or not item.order_id or looks[-1].order_id == item.order_id:
        return False
    look, own = normalize(looks[-1].text, _TYPOS), normalize(item.text, _TYPOS)
    end, start = whole.find(look), whole.find(own)
    if end < 0 or start < 0:
        return False
    # the look's words after its order ("is 100998 paid? if not"), the words between, and the
    # cancel's own words before its order ("没发的话取消100998"; in "100904要是还没付就取消吧" the
    # condition follows the cancel's order: its own)
    at = own.find(item.order_id)
    seen = look.find(str(looks[-1].order_id)) + 6
    said = (
        # one clause read for both ("要是100683周五还不到就退款，100904取消"): the words between
        # the two orders (the condition before the first is the first one's)
        own[seen:at]
        if look == own and 0 < seen <= at
        else look[seen:] + whole[end + len(look) : start] + (own[:at] if at >= 0 else "")
    )
    return bool(_ON_A_CONDITION.search(said)) and not _POLITE_IF.search(said)


def _one_order_the_others_condition(clause: str) -> bool:
    """ "100683没发的话取消100998": one clause where the words between two orders say a
    condition (of the first) and then the cancel (of the second) — both orders are shown,
    nothing is asked ("100683退款，如果100998…" is no such clause: a write comes first)."""
    ids = [m for m in re.finditer(r"(?<!\d)\d{6}(?!\d)", clause)]
    for first, second in itertools.pairwise(ids):
        between = clause[first.end() : second.start()]
        before = clause[: first.start()]
        if (
            # "cancel 100998 if 100683 hasn't arrived", "取消100998 如果100683还没到的话": the
            # write first, the condition of the other order after it
            first.group(0) != second.group(0)
            and _CONDITIONED_WRITE.search(before)
            and re.match(r"\W*(?:if|unless|in case|如果|要是|假如|万一)", between, re.IGNORECASE)
            and not _CONDITIONED_WRITE.search(between)
            and not _POLITE_IF.search(clause)
        ):
            return True
        write = _CONDITIONED_WRITE.search(between)
        if (
            # "如果100683还没到就取消100998", "if 100683 hasn't arrived cancel 100998": the
            # condition opens before the first order, the write names the second (not "要是
            # 100683周五还不到就退款，100904取消": a write of the first, then the second's own)
            first.group(0) != second.group(0)
            and write is not None
            and _ON_A_CONDITION.search(before)
            and not _POLITE_IF.search(clause)
            and not _CONDITIONED_WRITE.search(before)
            and not re.search(r"[，,。;；.!?！？]", between)
            and not re.sub(r"(?i)\b(?:the|my|order|no)\b|订单|[#.\s]", "", between[write.end() :])
        ):
            return True
        condition = _ON_A_CONDITION.search(between)
        if (
            condition
            and first.group(0) != second.group(0)
            and not _POLITE_IF.search(between)
            and not _CONDITIONED_WRITE.search(between[: condition.start()])
            and _CONDITIONED_WRITE.search(between[condition.end() :])
        ):
            return True
    return False


_POLITE_IF = rx(r"\bif (?:possible|you can|you could|you don'?t mind)\b|如果可以|可以的话|方便的话")


# "是不是坏了": whether the thing is broken, asked of the fault itself (not of a policy)
_IS_IT_BROKEN = rx(r"是不是坏了|\bis it (?:broken|faulty|defective)\b")
# "保修吧": repair it under the warranty (what the ticket beside it asks for)
_WARRANTY_ASKED_FOR = rx(r"^[\s,.!，。！~]*(?:给我|帮我)?(?:走)?保修(?:吧|呗|啊)?[\s,.!，。！~]*$")
# a policy asked about ("能退吗", "how do returns work"), not only a fault told
_POLICY_ASKED = rx(
    r"[?？]|能|可以|怎么|如何|多久|吗|么|\b(?:how|can|could|do you|does|policy|window|what if)\b"
)


def _fault_told_beside_its_remedy(items: list[_Request]) -> list[_Request]:
    """ "空气炸锅那单里的餐具碎了好几个，把餐具的钱退给我", "My order 100200 came with a kettle
    instead of the thermos. Not what I ordered!", "100200的空气炸锅坏了 加热不了 保修吧": the
    fault told (or "是不是坏了", "保修吧") beside the ticket or refund that deals with it is that
    request's reason, not a question of the returns or warranty policy."""
    if not any(i.intent in (ShopIntent.CREATE_TICKET, ShopIntent.REFUND) for i in items):
        return items
    refund_asked = any(
        i.intent is ShopIntent.REFUND and i.amount_kind != "invalid" and i.details != WRITE_HELD
        for i in items
    )

    def told(item: _Request) -> bool:
        norm = normalize(item.text, _TYPOS)
        if item.intent is not ShopIntent.FAQ:
            return False
        if item.topic == "warranty":
            return bool(_WARRANTY_ASKED_FOR.search(norm))
        fault = _TICKET.search(norm) or _NOT_WHAT_ORDERED.search(norm)
        asked = _POLICY_ASKED.search(norm) and not _IS_IT_BROKEN.search(norm)
        if (
            item.topic == "returns"
            and _CAN_IT_GO_BACK.search(norm)
            and refund_asked
            and not extract_entities(norm).order_ids
        ):
            return True  # "这个能退吗 我是真不想要了 直接给我退款吧": the refund asked answers it
        return item.topic == "returns" and bool(fault) and not asked

    return [i for i in items if not told(i)]


_NOT_WHAT_ORDERED = rx(r"\bnot what i (?:ordered|paid for|bought|wanted)\b")
_CAN_IT_GO_BACK = rx(
    r"(?:这个|这|它)?(?:能|可以)退(?:吗|么|嘛|不)|能不能退(?!款)"
    r"|\bcan (?:i|it) (?:be )?return(?:ed)?\b"
)
# "it's about the refund on 100609": what the transfer beside it is about
_WHAT_IT_IS_ABOUT = rx(
    r"^\W*(?:it'?s|this is|that'?s|its) (?:about|regarding|re|for)\b|^关于|是关于"
)
_BROKEN_TOLD = rx(r"碎|坏的|坏了|破了|裂|漏|瘪")


_AMOUNT_THEN_THANKS = rx(
    r"^\W*(?:and\s+|plus\s+)?(?P<part>[¥￥]?\d+(?:\.\d+)?\s*(?:yuan|rmb|kuai|bucks)?\s+"
    r"(?:for|on|towards?)\s+[^,.!?;]*?)\s*[,.!]?\s*(?:thanks|thank you|thx|ty|cheers|please|pls)\b"
    r"|^\W*(?P<part_zh>[\u4e00-\u9fff]{2,8}?(?:退款|退)?\s*\d+(?:\.\d+)?\s*(?:元|块钱|块)?)"
    r"\s*[，,。!！]?\s*(?:谢谢|多谢|麻烦了)"
)


def _amount_left_with_thanks(items: list[_Request]) -> list[_Request]:
    """ "refund 100 for the thermos and 200 for the air fryer thanks": the second amount was read
    with the thanks and dropped — it is the refund's (the precheck adds them up, or asks)."""
    out: list[_Request] = []
    for m in items:
        said = (
            _AMOUNT_THEN_THANKS.match(normalize(m.text, _TYPOS))
            if m.intent is Intent.THANKS
            else None
        )
        before = out[-1] if out else None
        if (
            said is not None
            and before is not None
            and before.intent is ShopIntent.REFUND
            and before.amount_kind == "exact"
        ):
            part = said.group("part") or said.group("part_zh") or ""
            words = str(before.args.get(SHARE_OF) or before.text)
            out[-1] = replace(before, args={**before.args, SHARE_OF: f"{words} and {part}"})
            out.append(
                replace(
                    m,
                    text=m.text[said.end("part" if said.group("part") else "part_zh") :].strip(
                        " ,，"
                    ),
                )
            )
            continue
        out.append(m)
    return out


_CANCEL_THREAT_IN = rx(
    r"\b(?:or|otherwise|or else)\b[^.!?;]{0,12}?\bi(?:'?ll| will|'?m| am|m)?\s+"
    r"(?:going to |gonna |just |have to )?(?:cancel|cancell?ing)\b"
    r"(?! (?:my |the |your )?(?:account|card|membership|subscription|credit card)\b)"
    r"(?:\s+(?:it|order|my order|the order)?\s*#?(?P<order>\d{6}))?"
)


def _cancel_threatened_after_or(matched: list[_Request], norm: str) -> list[_Request]:
    """ "hurry up and refund 100609 or im cancelling 100998": the cancel is threatened, never
    asked — its order is shown (the refund asked before it stays)."""
    threats = list(_CANCEL_THREAT_IN.finditer(norm))
    if not threats:
        return matched
    named = {t.group("order") for t in threats if t.group("order")}
    said = [t.group(0) for t in threats if not t.group("order")]
    out = []
    for m in matched:
        own = normalize(m.text, _TYPOS)
        if m.intent is ShopIntent.CANCEL_ORDER and (
            m.order_id in named or any(own.lstrip(" ,").startswith(t) for t in said)
        ):
            m = replace(m, intent=ShopIntent.ORDER_STATUS, details=WRITE_HELD)
        out.append(m)
    return out


def _writes_of_their_own(matched: list[_Request], norm: str) -> list[_Request]:
    """The writes of the message said in a clause of their own, apart from the one told of or
    wondered about ("…退款 另外取消100904"); none when every write is the one told of."""
    told = [m.span() for m in (*_WRITE_REPORTED.finditer(norm), *_WONDERED.finditer(norm))]
    writes = [m for m in matched if m.intent in (ShopIntent.REFUND, ShopIntent.CANCEL_ORDER)]
    own = []
    for m in writes:
        at = norm.find(normalize(m.text, _TYPOS))
        if at >= 0 and not any(start < at + len(m.text) and at <= end for start, end in told):
            own.append(m)
    return own if len(own) < len(writes) else []


def _ticket_of_the_only_order(items: list[_Request], norm: str) -> list[_Request]:
    """ "can u pls look at 100200, one parcel never came, also send a replacement": a ticket
    that names no order and describes no thing is about the only order the message names (it
    was filed with none)."""
    orders = extract_entities(norm).order_ids
    if len(set(orders)) != 1 or any(
        m.intent is Intent.CONFIRM_NO or m.details == SPARED_SUBJECT for m in items
    ):
        return items
    if re.search(rf"(?:\bnot|\bexcept|\bbut not|不是|不要|除了)\s*#?{orders[0]}", norm):
        return items  # ("file a ticket about my broken purifier, not 100998": spared)
    out = []
    for m in items:
        if (
            m.intent is ShopIntent.CREATE_TICKET
            and m.order_id is None
            and not m.inferred_order
            and not describes_an_order(normalize(m.text, _TYPOS))
            and not tracked_product(m.text)
        ):
            m = replace(m, order_id=orders[0], inferred_order=True)
        out.append(m)
    return out


def _told_beside_a_ticket_or_transfer(items: list[_Request]) -> list[_Request]:
    """Beside a transfer or a ticket, words that only say what it is about are no request of
    their own: "…, not a machine. it's about the refund on 100609" (the transfer's order, no
    look), "100200收到盘子是碎的 … 马上给我开工单" (the fault the ticket is filed for, its order
    named). (A transfer threatened, "不然我要转人工了", stays offered: session 14.)"""
    handoffs = [i for i in items if i.intent is ShopIntent.HANDOFF]
    tickets = [i for i in items if i.intent is ShopIntent.CREATE_TICKET]
    out: list[_Request] = []
    for item in items:
        norm = normalize(item.text, _TYPOS)
        if item.intent in _LOOKS and item.order_id and not item.inferred_order:
            if handoffs and _WHAT_IT_IS_ABOUT.search(norm):
                handoffs = []  # (one look given to one transfer)
                continue
            same = [t for t in tickets if t.order_id in (None, item.order_id)]
            fault = _TICKET.search(norm) or _BROKEN_TOLD.search(norm)
            if same and fault and not _POLICY_ASKED.search(norm):
                continue
        out.append(item)
    kept_ids = {id(i) for i in out}
    looks = {i.order_id for i in items if id(i) not in kept_ids and i.order_id}
    if len(looks) != 1:
        return out
    (order_id,) = looks
    return [
        replace(i, order_id=order_id, inferred_order=False)
        if i.intent in (ShopIntent.HANDOFF, ShopIntent.CREATE_TICKET)
        and (i.order_id is None or i.inferred_order or i.order_id == order_id)
        else i
        for i in out
    ]


def _ticket_of_the_order_told(items: list[_Request], norm: str) -> list[_Request]:
    """ "帮我开个工单，100683的包裹丢了": a ticket asked for, the only request of a message that
    names one order, is for that order — named, not guessed (beside another request, "file a
    ticket about my broken thermos? also cancel 100904", the order may be the other's)."""
    requests = [i for i in items if i.intent not in _SMALL_TALK]
    if len(requests) != 1 or requests[0].intent is not ShopIntent.CREATE_TICKET:
        return items
    (ticket,) = requests
    named = extract_entities(norm).order_ids
    if not (ticket.inferred_order and list(named) == [ticket.order_id]):
        return items
    if not _TICKET_ASKED_NOW.fullmatch(normalize(ticket.text, _TYPOS)) or _NOT_NOW.search(norm):
        # "要不要给你开个工单", "开工单有啥用", "上次你们说帮我开个工单", "如果…就帮我开个工单":
        # asked about, reported or on a condition — asked first
        return items
    return [replace(i, inferred_order=False) if i is ticket else i for i in items]


# a ticket asked for, now and in so many words ("帮我开个工单", "please open a ticket")
_TICKET_ASKED_NOW = rx(
    r"\W*(?:请|麻烦)?(?:你)?(?:帮我|给我)(?:开|提交|建|登记|提|报)(?:一)?(?:个|一下)?"
    r"[^，。,.!?！？]{0,6}工单(?:吧|呗)?\W*"
    r"|\W*(?:please |pls |plz )?(?:open|file|raise|create|submit|log) (?:me )?(?:a|an) "
    r"(?:[a-z-]+ )?ticket(?: for me)?(?: please| pls)?\W*"
)
# what makes a request no request now: a question, a condition, a report of the past, a no
_NOT_NOW = rx(
    r"[?？]|吗|么|呢|\b(?:if|unless|when|whether|last time|before|even)\b"
    r"|如果|要是|万一|的话|上次|之前|有什么用|有啥用|为什么|是不是|要不要|别|不要|不用"
    r"|\b(?:don'?t|do not|never|no need)\b"
)


def _one_refund_look(items: list[_Request]) -> list[_Request]:
    """ "净化器之前退的那笔是什么时候退的？退到哪了": a question after a refund naming nothing,
    beside a look at the refunds of an order, is about that refund (one look, not the list)."""
    if not any(
        i.intent is ShopIntent.ORDER_STATUS
        and (
            _REFUND.search(norm := normalize(i.text, _TYPOS))
            # "净化器1299 才退了433": what was refunded, told
            or _REFUND_AMOUNT_ASKED.search(norm)
        )
        for i in items
    ):
        return items
    return [
        i
        for i in items
        if not (
            i.intent is ShopIntent.LIST_ORDERS
            and _REFUND.search(norm := normalize(i.text, _TYPOS))
            and not extract_entities(norm).order_ids
            and not describes_an_order(norm)
            and not _WHICH_ORDERS.search(norm)
        )
    ]


# "it's making a weird noise", "it leaks", "它一直响": a fault told of a thing named before
_IT_FIRST = rx(
    r"^\W*(?:(?:it'?s|it is|it was|it|its|this|this one|they|they'?re|the unit|the thing"
    r"|the lid)\b(?!\s+(?:the|my|your|that|a|an|not)\b)"  # not "it's the thermos that's broken"
    r"|它|这个|这玩意|这东西)"
)


def _thing_of_the_fault(items: list[_Request]) -> list[_Request]:
    """ "what's the warranty on the air purifier? it's making a weird rattling noise": a ticket
    whose words name no order and start from "it" is about the thing the request before
    it named: those words look its order up (asked first, naming it)."""
    out: list[_Request] = []
    before: str | None = None
    for i in items:
        if (
            i.intent is ShopIntent.CREATE_TICKET
            and not i.order_id
            and TOLD_BESIDE not in i.args
            and before is not None
            and _IT_FIRST.search(i.text)
        ):
            i = replace(i, args={**i.args, TOLD_BESIDE: before[:300]})
        if looked_product(i.text):
            before = i.text
        out.append(i)
    return out


# the words of a refund, cancel or ticket asked for that name no thing ("i want a refund of 300")
_ACTION_FRAME = rx(
    r"\b(?:refund(?:ed)?|money|back|cancel|ticket|tickets|opened|open|file|filed|someone"
    r"|somebody|checks?|look|would|i'd|like|yuan|rmb|need|get|give|return)\b"
    r"|退钱|退款|退|取消|工单|开个?|直接|给我|能不能|可以|钱|块|元|售后|报个?"
)


# words that make a thing told before a refund no thing of the customer's to refund (session
# 18): someone else's, another shop's, one to buy, a fault that may come, one of two remedies
_NOT_ITS_THING = rx(
    r"\b(?:friend|friends|mom|mum|dad|wife|husband|sister|brother|neighbou?r)'?s?\b|\bjd\b"
    r"|\btaobao\b|\b(?:buy|buying|another|if|would|should|suppose|let'?s say|or|either)\b"
    r"|朋友|别家|京东|淘宝|想买|再买|要是|如果|万一|假如|假设|要么|或者|妈|爸|老婆|老公"
)


# "monitor hasn't shipped. i want a refund": an order not shipped is cancelled, not refunded
_NOT_SHIPPED_YET = rx(
    r"\b(?:has ?n'?t|have ?n'?t|not|never|didn'?t|did not)\s+(?:been\s+|even\s+|yet\s+)*"
    r"(?:shipped|sent|dispatched|left)\b|\bnot yet shipped\b|\bunshipped\b"
    r"|没发货|还没发|未发货|没有发货|没寄出|还没寄"
)


# "先别 等我想想", "wait, let me think": the customer holds back what they just asked for
# (no \W: with rx's ASCII flag it matches Chinese characters too)
_PUNCT = r"[\s,，.。!！~～、…]*"
_HOLD_BACK = rx(
    rf"^{_PUNCT}(?:不过|但是|但)?{_PUNCT}(?:先别|先不要|先不|等我想想|我再想想|再想想|先等等|等一下|等等"
    rf"|算了先不){_PUNCT}(?:等我想想|我再想想|再想想|想想|考虑一下)?{_PUNCT}$"
    rf"|^{_PUNCT}(?:but\s+)?(?:wait|hold on|hang on){_PUNCT}(?:let me think|i'?ll think|not yet"
    rf"|actually)?{_PUNCT}$"
    rf"|^{_PUNCT}(?:but\s+)?(?:let me think(?: about it)?|i'?ll think about it|not yet)"
    rf"(?: though)?{_PUNCT}$"
)
# (a hold said inside the write's own clause: "cancel 100998, but not yet")
_HOLD_AT_END = rx(
    r"(?:[,，]\s*|\s+)(?:(?:but|不过|但是)\s*)?(?:not yet|wait|hold on|let me think|先别|等我想想"
    r"|再想想)(?: though)?[\s.!。！~]*$"
)


# "但是先别取消", "don't cancel yet": a no naming nothing but the action (not "dont refund the
# shipping": a part of it)
_BARE_HOLD = rx(
    rf"^{_PUNCT}(?:但是|不过|but\s+)?(?:先别|先不要|先不|别|不要|don'?t|do not|dont)\s*"
    rf"(?:取消|退款?|cancel(?: it)?|refund(?: it)?)?(?:\s+yet)?{_PUNCT}$"
)


def _same_action_or_none(text: str, kind: Kind) -> bool:
    """Whether ``text`` names the action ``kind`` is, or none ("先别", "但是先别取消" to a cancel;
    not "nvm the refund thing" to a cancel)."""
    norm = normalize(text, _TYPOS)
    named: dict[Kind, bool] = {
        ShopIntent.REFUND: bool(_REFUND.search(norm)),
        ShopIntent.CANCEL_ORDER: bool(_CANCEL.search(norm)),
        ShopIntent.CREATE_TICKET: bool(_TICKET.search(norm)),
    }
    return not any(named.values()) or named.get(kind, False)


def _held_back(items: list[_Request]) -> list[_Request]:
    """ "取消100998 先别 等我想想", "refund 100609, wait, let me think": a write held back by what
    the customer says after it is no offer — its order is shown, nothing is asked."""
    held = [
        n
        for n, i in enumerate(items)
        if i.intent is Intent.UNKNOWN and _HOLD_BACK.match(normalize(i.text, _TYPOS))
    ]
    # "如果没发货就取消100998 但是先别取消": a no said after the write (its reply says nothing
    # was done) holds it back too
    # ("100200 退款 100609 不退": a no to another order holds nothing back)
    out = []
    for n, i in enumerate(items):
        if n in held:
            continue
        said_no = any(
            later.intent is Intent.CONFIRM_NO
            and later.order_id in (None, i.order_id)
            and _BARE_HOLD.match(normalize(later.text, _TYPOS)) is not None
            and _same_action_or_none(later.text, i.intent)
            for later in items[n + 1 :]
        )
        at_end = _HOLD_AT_END.search(normalize(i.text, _TYPOS)) is not None
        if i.intent in _ACTIONS and (any(h > n for h in held) or said_no or at_end):
            i = replace(i, intent=ShopIntent.ORDER_STATUS, args={}, details="")
        out.append(i)
    return out


def _amount_of(said: str) -> float:
    """ "100", "一百": the amount a number says."""
    return float(said) if said[0].isdigit() else float(chinese_number(said) or 0)


def _amount_asked_then_refunded(items: list[_Request]) -> list[_Request]:
    """ "100200能退100吗 帮我退了吧", "…能退100吗？能的话就退": whether an amount can come back,
    asked, then the refund asked for with no amount of its own — that amount's refund (never
    all that is refundable); the question is answered by the offer."""
    out = list(items)
    for n, item in enumerate(items):
        asked = _AMOUNT_BACK_ASKED.search(normalize(item.text, _TYPOS))
        if item.intent is not ShopIntent.ORDER_STATUS or asked is None:
            continue
        later = [
            k
            for k in range(n + 1, len(items))
            if items[k].intent is ShopIntent.REFUND
            and items[k].amount_kind == "none"
            and items[k].order_id in (None, item.order_id)
        ]
        if not later:
            # (a go-ahead on the next turn is for this amount: "好的 退吧")
            out[n] = replace(item, args={**item.args, AMOUNT_ASKED: _amount_of(asked.group(1))})
            continue
        if later:
            k = later[0]
            out[k] = replace(
                items[k],
                order_id=items[k].order_id or item.order_id,
                amount=_amount_of(asked.group(1)),
                amount_kind="exact",
                amount_raw=asked.group(1),
                args={a: v for a, v in items[k].args.items() if a not in (SHARE_OF, SHARE_OWN)},
            )
            out[n] = replace(item, details="dropped")
    return [i for i in out if i.details != "dropped"]


def _thing_told_before_the_action(items: list[_Request], whole: str) -> list[_Request]:
    """ "not happy. air purifier clicking again. i want a refund of 300", "膜到现在没到 能不能直接
    退钱": a refund, cancel or ticket naming and describing no order is about the thing the
    words before it name (those words look its order up; the confirmation names it)."""
    out: list[_Request] = []
    for i in items:
        # (its own sentence: "can you just refund the 29? I'll refuse the parcel if it ever
        # shows up" is no refund "if")
        norm = normalize(_OWN_SENTENCE_END.split(i.text, maxsplit=1)[0], _TYPOS)
        at = whole.find(i.text)
        if (
            i.intent in (ShopIntent.REFUND, ShopIntent.CREATE_TICKET, ShopIntent.HANDOFF)
            and not i.order_id
            and TOLD_BESIDE not in i.args
            and at > 0
            and not _NOT_ITS_THING.search(norm)
            and not _names_a_thing(looked_product(_ACTION_FRAME.sub(" ", norm)))
            and not describes_an_order(norm)
        ):
            told = whole[:at]
            for other in items:
                if other is not i and other.order_id:
                    told = told.replace(other.text, " ")
            said = normalize(told, _TYPOS)
            if (
                _NOT_ITS_THING.search(said)
                # ("… so I don't need yours anymore … can you just refund the 29?", "你们那个我不要
                # 了 29块钱退给我吧": the thing not wanted is why its money is asked back)
                or NO_ANY.search(blank(said, _THING_NOT_WANTED))
                or _TRACKING_NO.search(said)
                or _NOT_SHIPPED_YET.search(said)
            ):
                out.append(i)
                continue
            if not extract_entities(said).order_ids and (
                looked_product(said) or describes_an_order(said)
            ):
                i = replace(i, args={**i.args, TOLD_BESIDE: told.strip()[:300]})
        out.append(i)
    return out


_OWN_SENTENCE_END = re.compile(r"[?？!！。]|\.(?=\s|$)")
_THING_NOT_WANTED = rx(
    r"\b(?:don'?t|do not|dont|no longer) (?:really )?(?:need|want) (?:it|yours|them|this one"
    r"|that one)(?: any ?more)?\b"
    r"|\b(?:don'?t|do not|dont) want to (?:send|return) (?:it|them)(?: all)? back\b"
    # "你们那个我不要了", "用不上了": as a thing's refund reads them (why, not a no)
    r"|" + _NOT_WANTED_ANY_MORE.pattern
)


def _thing_refunded(text: str) -> str:
    """The words of a thing a refund names ("净化器剩下那部分钱也退给我吧" -> "净化器 机器"), or "":
    not how much ("不用全退"), not a charge ("a refund for the shipping")."""
    said = normalize(text, _TYPOS)
    if _NOT_ALL_OF_IT.search(said):
        # "100200 退我120就行 餐具有两个碗磕了口子 不用全退": how much, said of the refund
        return ""
    words = looked_product(_ACTION_FRAME.sub(" ", said)) or ""
    words = _NOT_A_REFUNDED_THING.sub(" ", words)
    # (a lone character left over names nothing: "钱退回微信" leaves "回")
    return " ".join(_LONE_HAN.sub(" ", words).split())


_NOT_ALL_OF_IT = rx(
    r"(?:不要|不用|别|不想|不是|不)(?:全部|全额|全退|都退)"
    r"|\bnot (?:the )?(?:full|whole|entire|all)\b|\bnot everything\b"
)


_NOT_A_REFUNDED_THING = rx(
    r"\b(?:shipping|delivery|postage|fees?|difference|rest|remaining|remainder|balance|amount"
    r"|total|full|whole|part|partial|half|all|some|asap|also|and|too|instead|now|just|only"
    # where the money goes, not what is refunded: "refund to alipay", "退到微信"
    r"|alipay|wechat|weixin|pay|card|bank|account|wallet|balance|compensate|compensation)\b"
    r"|支付宝|微信|银行卡|信用卡|账户|余额|原路|卡里|补偿|赔偿|赔"
    r"|不用|不要|不想|别|全|都|部分|剩下|剩余|那|这|也|还|钱|款|就|行|吧|了|用|要|不|个|些|我|你"
    # how much, not what: "退一百就行", "refund 50 yuan"
    r"|[零〇一二两三四五六七八九十百千万\d.]+(?:块|元)?|\b(?:yuan|rmb|kuai|bucks?)\b"
    r"|[\u4e00-\u9fff](?![\u4e00-\u9fff])(?<![\u4e00-\u9fff].)"
)
_LONE_HAN = re.compile(r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff](?![\u4e00-\u9fff])")


def _names_a_thing(words: str | None) -> bool:
    """Whether product words name something ("29块也是钱" leaves "也是": particles, no thing)."""
    return bool(words) and bool(_PARTICLES_ONLY.sub("", words or "").strip())


_PARTICLES_ONLY = re.compile(r"[也是都就还的了吧啊呀呢嘛哦\s]")
_NUMBERS_ASKED = rx(r"单号|\btracking (?:numbers?|nos?|codes?)\b")
_ASKS_CONTENTS = rx(
    r"里面(?:都)?(?:有|是)(?:啥|什么|哪些)|(?:买|订|下单)(?:了|的)(?:啥|什么|哪些)(?!时候)"
    r"|\bwhat(?:'s| is| was| were) in\b|\bwhat did i (?:order|buy|get)\b"
    r"|\bwhat(?:'s| is| are| were) the items\b"
)


# "the wool scarf I almost bought in August", "上个月买的围巾": a thing of the customer's, bought
_I_BOUGHT = rx(
    r"\b(?:i|we) (?:\w+ )?(?:bought|ordered|purchased|paid for)\b"
    r"|(?:我)?(?:之前|上个月|上次)?买的|下单的"
)


def _one_look_per_order(items: list[_Request]) -> list[_Request]:
    """ "100683 still not here. where is it???": a status and a tracking question about one
    order are one question; its tracking answers both (a refund question keeps the order's
    status, which carries the refunds)."""
    tracked = {i.order_id for i in items if i.intent is ShopIntent.TRACKING and i.order_id}
    tracking = any(i.intent is ShopIntent.TRACKING for i in items)
    numbered = {
        i.order_id
        for i in items
        if i.intent is ShopIntent.TRACKING and _NUMBERS_ASKED.search(normalize(i.text, _TYPOS))
    }
    parcels = [i for i in items if i.intent is ShopIntent.TRACKING and not i.order_id]
    own_things = bool(parcels) and all(tracked_product(i.text) for i in parcels)
    dropped = [
        i
        for i in items
        if (
            i.intent is ShopIntent.ORDER_STATUS
            # "SF… says delivered but I can't find the box. which order was that?": the look
            # at the parcel names its order
            or (i.intent is ShopIntent.LIST_ORDERS and tracking and _WHICH_ORDER.search(i.text))
        )
        and (
            i.order_id in tracked
            # "…物流还停在成都 … 能不能帮我催一下": a status question naming and describing
            # no order, beside a look at the parcel, is about that parcel
            or (
                tracking
                and not i.order_id
                and not describes_an_order(i.text)
                # ("100683到哪了 显示器啥时候发": a thing of its own, asked when it ships)
                and not _MY_THING_SHIPS.search(normalize(i.text, _TYPOS))
                # ("the wool scarf … was that order cancelled? … where's my screen protector":
                # a thing of its own beside a parcel that names its own)
                and not (
                    own_things
                    and _I_BOUGHT.search(normalize(i.text, _TYPOS))
                    and _names_a_thing(looked_product(i.text))
                )
            )
        )
        and not _REFUND.search(normalize(i.text, _TYPOS))
        # "订单100123到哪了？另外能取消吗": whether it can be cancelled, which its status says
        and not asks_cancellable(i.text)
        # "100200里面都有啥来着 ... 两个快递单号都发我下": what it holds, which only its look shows,
        # beside its parcels' numbers asked for
        and not (_ASKS_CONTENTS.search(normalize(i.text, _TYPOS)) and i.order_id in numbered)
    ]
    named = [i.text for i in dropped if not i.order_id and tracked_product(i.text)]
    out = []
    for i in items:
        if any(i is d for d in dropped):
            continue
        if (
            named
            and i.intent is ShopIntent.TRACKING
            and not i.order_id
            and not tracked_product(i.text)
            and TOLD_BESIDE not in i.args
        ):
            # "我的钢化膜咋还没到？？说好31号到的，这都几号了": the thing the status named is the
            # parcel's (its words look the order up)
            i = replace(i, args={**i.args, TOLD_BESIDE: named.pop(0)[:300]})
        out.append(i)
    return out


def _when_of_the_order_named_after(items: list[_Request]) -> list[_Request]:
    """ "明天能到吗 100683": when a parcel arrives, asked before the order's number said alone —
    that order's parcel (the number is no look of its own, the question no policy)."""
    bare_ids = [
        i
        for i in items
        if i.intent is ShopIntent.ORDER_STATUS
        and i.order_id
        and _WORDS_ONLY.sub("", i.text) == i.order_id
    ]
    asked = [
        i
        for i in items
        if i.intent is ShopIntent.FAQ
        and i.topic == "delivery_times"
        and not i.order_id
        # (not "tell me if you ship to Macau": where the shop delivers)
        and not _SHIP_TO.search(told := normalize(i.text, _TYPOS))
        and not _THE_SHOP.search(told)
    ]
    if len(bare_ids) != 1 or len(asked) != 1:
        return items
    (order,) = bare_ids
    parcel = replace(asked[0], intent=ShopIntent.TRACKING, topic=None, order_id=order.order_id)
    return [parcel if i is asked[0] else i for i in items if i is not order]


# "just refund the steamer", "把餐具的钱退了": a refund naming the thing it is of
_REFUND_OF_A_THING = rx(
    r"\brefund (?:me )?(?:for )?(?:the|my) (?!order\b|whole\b|full\b|rest\b|money\b|that\b|it\b"
    r"|remaining\b|difference\b|shipping\b)[a-z]{3,}"
    r"|把[\u4e00-\u9fff]{2,6}(?:的钱|的款)退|退[\u4e00-\u9fff]{2,6}的钱"
)
# "寄到杭州一般几天能到", "how long does it usually take": the shop's delivery times, not a parcel
_GENERALLY = rx(r"一般|通常|平时|平常|\b(?:usually|normally|generally|typically)\b")
_SHIP_TO = rx(r"\bship (?:to|out to)\b|发(?:到|往)|寄(?:到|往)|送(?:到|往)")
_THE_SHOP = rx(r"\b(?:you|your|u)\b|你们|一般|通常|平时")
_QUESTION_OPENING = rx(
    r"(?:^|[.!?;,]\s*|\b(?:and|also|plus|but)\s+)(?:what|where|when|why|how|which|who|can|could"
    r"|is|are|do|does|did|will|would|should|may|tell me|i (?:want|need) to know)\b"
)
_ASKED_ZH_END = rx(r"[吗么呢嘛不没]\W*$|多少|多久|多长时间|几|怎么|咋|啥|什么|哪|为啥|为什么")
_PROBLEM_ANNOUNCED = rx(
    r"\b(?:i|we) (?:have|'ve got|got|need help with) (?:a|an|one|another|some)"
    r" (?:small |little |big )?(?:problem|issue|question|complaint)s?\b"
    r"|我有(?:个|一个|点)?(?:问题|事|事情)(?:想问|要问)?"
)
_REMEDY_ON_A_CONDITION = rx(r"\bif\b|\bunless\b|\botherwise\b|如果|要是|的话|万一|不然|否则")
# what a ticket is asked for, beyond reporting a problem
_TICKET_ASKED_FOR = rx(
    r"\b(?:replace(?:ment)?|exchange|repair|complain\w*|ticket|after[- ]sales?)\b"
    r"|换货|换一个|换个|更换|维修|修理|返修|投诉|工单|售后"
)


def _one_remedy_per_order(items: list[_Request], asked: list[_Request]) -> list[_Request]:
    """ "my headphones broke and I'd like a refund, order 100200": the problem is the refund's
    reason, not a ticket of its own (a ticket asked for by name, a replacement or a repair is
    kept beside the refund, also when another clause of the message, ``asked`` before one
    request per order was kept, asked for it: "... stopped working!!! want a replacement")."""
    refunded: set[str | None] = {
        i.order_id for i in items if i.intent is ShopIntent.REFUND and i.order_id
    }
    refunds = [i for i in items if i.intent is ShopIntent.REFUND]
    faults = [i for i in items if i.intent is ShopIntent.CREATE_TICKET and not i.order_id]
    if any(
        not i.order_id and not describes_an_order(i.text) and not looked_product(i.text)
        for i in refunds
    ):
        # "餐具套装到的时候碎了两个碗 … 退269", "2 plates … in my big order came cracked. I'd like
        # 60 back for those": a refund naming nothing is of the fault's thing
        # (_fault_names_the_refund), and the fault its reason
        refunded |= {None} if faults else set()
    elif any(not i.order_id for i in refunds):
        # "refund half of what I paid for the air fryer? basket is all scratched": a fault
        # naming neither an order nor a thing of its own is the reason of the refund beside it
        refunded |= {None for i in faults if not describes_an_order(normalize(i.text, _TYPOS))}
    elif refunds and not any(
        describes_an_order(told := normalize(i.text, _TYPOS)) or looked_product(told)
        for i in faults
    ):
        # "the pan i got was scratched, refund 30 rmb on order 100200 ok?": a fault naming no
        # order and no thing is the reason of the refund of the order named
        refunded |= {None} if faults else set()
    asked_for = {
        i.order_id
        for i in asked
        if i.intent is ShopIntent.CREATE_TICKET
        and _TICKET_ASKED_FOR.search(normalize(i.text, _TYPOS))
    }
    dropped = [
        i
        for i in items
        if i.intent is ShopIntent.CREATE_TICKET
        and i.order_id in refunded
        and i.order_id not in asked_for
    ]
    return _fault_names_the_refund([i for i in items if i not in dropped], dropped)


# a thing told of that is someone else's, bought elsewhere or one that might break
_NOT_THE_CUSTOMERS_OWN = rx(
    r"\b(?:friend|mom|mum|dad|wife|husband|sister|brother|neighbou?r|colleague)'?s?\b"
    r"|\b(?:jd|taobao|tmall|amazon|pinduoduo|another shop)\b|\blet'?s say\b|\bwhat if\b"
    r"|\bin case\b|朋友|别人|家人|妈|爸|老公|老婆|同事|邻居|京东|淘宝|天猫|拼多多|别家|万一|假如"
)


def _not_the_customers_own(items: list[_Request]) -> list[_Request]:
    """ "my friend's air purifier is making noises, refund me 100": a refund or ticket whose own
    words describe someone else's thing (or one bought in another shop, or one that might break)
    names no order of the customer's — its order is asked for (:data:`NOT_OWN`), never looked up
    by them."""
    return [
        replace(i, args={**i.args, NOT_OWN: True})
        if i.intent in (ShopIntent.REFUND, ShopIntent.CREATE_TICKET)
        and not i.order_id
        and _NOT_THE_CUSTOMERS_OWN.search(normalize(i.text, _TYPOS))
        else i
        for i in items
    ]


def _fault_names_the_refund(items: list[_Request], faults: list[_Request]) -> list[_Request]:
    """ "空气净化器有点异响，懒得寄回去了，退我100块算了": the one refund naming no order and
    nothing of its own is of the thing the customer's own fault (taken as its reason) names —
    looked up among the orders received (:data:`RECEIVED`: "the phone is broken, refund me 2999"
    never names the paid phone order not yet shipped)."""
    refunds = [i for i in items if i.intent is ShopIntent.REFUND]
    reason = next((i.text.strip(STRIP) for i in faults if not i.order_id), "")
    if (
        not reason
        or len(refunds) != 1
        or refunds[0].order_id
        or describes_an_order(normalize(refunds[0].text, _TYPOS))
        or _NOT_THE_CUSTOMERS_OWN.search(normalize(reason, _TYPOS))
    ):
        return items
    refund = refunds[0]
    named = replace(refund, text=f"{reason} {refund.text}", args={**refund.args, RECEIVED: True})
    return [named if i is refund else i for i in items]
