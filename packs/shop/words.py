"""The demo shop's words: what is left of a product question once the question words are gone."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from helpdesk.graph.asking import ASKS
from helpdesk.tools.shop.product_search import price_cap

__all__ = [
    "ADDRESS_CHANGE_NEGATED",
    "ASK_FIRST",
    "COMPLAINED",
    "COMPLAINT_NEGATED",
    "COMPLAINT_WORD",
    "DISSATISFIED",
    "IF_LATE_BY",
    "INSTEAD",
    "REFUNDS_ASKED",
    "TICKET_MESSAGE",
    "TICKET_WONDERED",
    "VENTED",
    "WRITE_HELD",
    "complained",
    "complaint_filing_asked",
    "is_complaint",
    "product_query",
    "ticket_asked_for",
    "ticket_made_or_wondered",
    "ticket_needs_asking",
    "tracked_product",
    "waiting_tools",
]

# "我要投诉" / "I want to complain": acknowledge and offer a ticket; an explicit ticket request
# ("open a ticket", "提交工单") or a concrete fault ("broken") is filed as asked.
_COMPLAINT = re.compile(r"\bcomplain(?:t|ts|ing|ed)?\b|投诉", re.IGNORECASE)
# Unhappiness with the service, said without the word "complaint": "not impressed", "really poor
# packaging", "the courier was super rude", "什么破快递", "服了", "态度太差"
DISSATISFIED = re.compile(
    r"\b(?:not impressed|not happy|unacceptable|ridiculous|pathetic|terrible|awful|horrible"
    r"|disgusting|disappointed|disappointing|fed up|worst|a joke"
    r"|(?:super|so|very|really|extremely) (?:rude|slow|poor|bad)|poor (?:packaging|service|quality)"
    r"|(?:was|were|is|are) rude|rude to|wtf|sick of|so done|seriously(?=\s*[?!]))\b"
    r"|😡|🤬|😤|💢"
    r"|服了|无语|破快递|什么破|差评|垃圾|态度(?:太|很|极|特别)?差|太差了|坑人|气死|不满意|太失望"
    r"|也太慢|太慢了|慢死了|费劲",
    re.IGNORECASE,
)
_TICKET_ASKED = re.compile(
    r"\b(?:open|file|create|raise|submit|log) (?:a |an )?(?:support |complaint )?ticket\b"
    r"|工单|提交|登记",
    re.IGNORECASE,
)

# "do I need to open a ticket to get an invoice?", "需要开工单吗": whether a ticket is needed,
# asked — no ticket asked for
TICKET_WONDERED = re.compile(
    r"\b(?:do|would|will|must) (?:i|we) (?:really )?(?:need to|have to|got to) "
    r"(?:open|file|create|raise|submit|log) (?:a |an )?(?:support |complaint )?ticket\b"
    r"|\b(?:do|would) (?:i|we) (?:need|have to have) (?:a |an )?(?:support )?ticket\b"
    r"|\b(?:is|would) (?:a |an )?ticket (?:be )?(?:needed|necessary|required)\b"
    r"|(?:需要|要|得|必须|一定要)(?:先|我)?(?:开|提交|提|建|登记)(?:个|一个)?工单(?:吗|么|嘛)"
    r"|要不要(?:先)?(?:开|提交|提|建)(?:个|一个)?工单|(?:开|提交|提)(?:个|一个)?工单有用吗",
    re.IGNORECASE,
)

ASK_FIRST = "ask_first"
"""A ticket request's argument: told beside questions, it is filed only after a yes."""
TICKET_MESSAGE = "ticket_message"
"""A ticket request's argument: the whole message it was read from (its description)."""
COMPLAINED = "complained"
"""A ticket request's argument: the message it came from is a complaint (asked before filing)."""
IF_LATE_BY = "if_late_by"
"""A look's ``details``: a refund or cancel wanted only if the parcel is late by a day to come."""
WRITE_HELD = "write_held"
"""A look's ``details``: a refund or cancel named but not asked for now (weighed, told as done,
put off, said by someone else): the order is shown and how to ask for it said."""
REFUNDS_ASKED = "refunds_asked"
"""A look's argument: the customer's own refunds asked after, naming no order ("where's my
refund?"): their refunds are listed, each with its order (not the session's order alone)."""
VENTED = "vented"
"""A ticket request's argument: read from unhappiness alone ("not happy.", "气死了"), no request."""
NOT_OWN = "not_own"
"""A write's argument: its words describe someone else's thing: never looked up by them."""
RECEIVED = "received"
"""A refund's argument: its order named only by a fault told beside it — one already received."""
TOLD_BESIDE = "told_beside"
"""A look's argument: the rest of the message, which describes the order the look's own words do
not ("my company needs a fapiao for the monitor … has it shipped yet"). Never given to a write:
words told beside a refund or cancel may be negated, hypothetical or someone else's."""


# "no need to change the address after all", "don't change the address", "算了 不改了",
# "地址不用改了": an address change let go (a pattern string: the change_address intent's
# negation and the built-in matcher's refusal are one)
ADDRESS_CHANGE_NEGATED = (
    r"\b(?:no need to|don'?t|dont|do not|not going to|won'?t need to|no longer need to)"
    r" (?:\w+ )?(?:change|update|switch|redirect|correct)\b[^.?!]{0,25}\baddress\b"
    r"|\bkeep (?:the |my )?(?:same |original |old |current )?(?:delivery |shipping )?address\b"
    r"|\b(?:the )?(?:old |current |original )?address is fine\b"
    r"|地址(?:就)?(?:不用|不要|别|不需要|不)(?:再)?(?:改|修改|更改|换)了"
    r"|(?<!能)(?<!可)(?<!还)(?:不用|不要|别|不需要|不)(?:再)?(?:改|修改|更改|换)地址了"
    # "算了 不改了" said alone (a clause of its own): the address change talked about
    r"|(?:^|(?<=[\s,，。.!！]))(?:算了\s*)?不(?:用)?(?:再)?改了(?=$|[\s,，。.!！])"
)

# "我不想投诉 就想问下T-000031…", "我也没投诉啊", "I'm not complaining, but ... open a ticket": no
# complaint made (a ticket asked for beside it is filed as asked)
COMPLAINT_NEGATED = re.compile(
    r"(?:不想|不要|不是要|不是想|没(?:有)?(?:要)?|没说要|并没有?|也没有?|不用|不打算)\s*投诉"
    r"|\b(?:don'?t|do not|not) (?:want|trying|looking|going) to (?:complain|file a complaint"
    r"|make a complaint)\b|\b(?:i'?m |i am )?not complaining\b|\bi (?:didn'?t|did not|never) "
    r"(?:complain|file a complaint|ask for a ticket)\b"
    # "not a complaint, just asking", "no complaints here", "I'll complain if ...", "撤回投诉"
    r"|\b(?:not|isn'?t|is not|no) (?:a )?complaints?\b|\bi'?ll (?:complain|file a complaint)(?= if)"
    r"|(?:没有|不是|没)投诉|撤回[^，。,.!?！？]{0,8}投诉|投诉[^，。,.!?！？]{0,3}撤"
    # a complaint only threatened for later: "I'm going to complain if this keeps happening",
    # "next time I'll complain", "file a complaint if 100683 doesn't arrive tomorrow", "再不到我就
    # 投诉了"
    r"|\b(?:i'?m going to|i'?ll|i will|i may|i might|gonna|going to)\b[^.!?]{0,25}\bcomplain\w*"
    r"(?=[^.!?]{0,50}\b(?:if|unless|later|next time|again|keeps)\b)"
    r"|\bnext time\b[^.!?]{0,25}\bcomplain|\bif\b[^.!?]{0,60}\b(?:again|keeps? happening)\b"
    r"[^.!?]{0,30}\bcomplain|\bcomplaint\b[^.!?]{0,10}\bif\b[^.!?]{0,60}\b(?:tomorrow|again|by|not)\b"
    r"|\b(?:i may|i might|maybe i'?ll) (?:file a )?complain\w*"
    r"|(?:再|要是|如果|假如)[^，。,.!?！？]{0,16}(?:就|我就)(?:要)?投诉"
    r"|(?:要是|如果|假如)[^。!?！？]{0,20}(?:我)?(?:就|会|要)(?:要)?投诉"
    r"|(?:今天|明天|后天|周[一二三四五六日天])[^，。,.!?！？]{0,8}(?:还)?不到[^，。,.!?！？]{0,4}(?:我)?"
    r"(?:就)?(?:要|会)?投诉",
    re.IGNORECASE,
)


def is_complaint(text: str) -> bool:
    """Whether a ticket request is a complaint to acknowledge and ask about before filing."""
    text = COMPLAINT_NEGATED.sub(" ", text)
    complained = _COMPLAINT.search(text) or DISSATISFIED.search(text)
    return bool(complained) and not _TICKET_ASKED.search(text)


def complained(flags: Mapping[str, Any], text: str) -> bool:
    """Whether a ticket read from ``text`` (with the reading's ``flags``) is a complaint — the
    customer complained or vented — rather than a fault told or a ticket asked for."""
    return bool(flags.get(COMPLAINED) or flags.get(VENTED)) or is_complaint(text)


COMPLAINT_WORD = re.compile(r"\bcomplain|投诉", re.IGNORECASE)
"""The word complaint (or 投诉) said: a complaint made, not only unhappiness told."""

# "I want to file a complaint about 100683", "file another complaint", "给我提交投诉": a complaint
# ticket asked for in so many words (asked before filing, but never refused for an open one)
_COMPLAINT_FILING_ASKED = re.compile(
    r"\b(?:file|open|make|lodge|submit|raise|log|register|put in|write up)\b[^.!?]{0,20}"
    r"\bcomplaint\b|(?:提交|开|建|登记|提|写|立)[^，。,.!?！？]{0,4}投诉|投诉单|再(?:给我)?投诉",
    re.IGNORECASE,
)


def complaint_filing_asked(text: str) -> bool:
    """Whether the customer asks in so many words for a complaint to be filed."""
    return bool(_COMPLAINT_FILING_ASKED.search(COMPLAINT_NEGATED.sub(" ", text)))


def ticket_asked_for(text: str) -> bool:
    """Whether the customer asked for a ticket in so many words ("open a ticket", "提交工单")."""
    return bool(_TICKET_ASKED.search(TICKET_WONDERED.sub(" ", text)))


def ticket_needs_asking(text: str) -> bool:
    """Whether a ticket read from ``text`` is filed only after a yes: a complaint, or a
    question ("钱多久能退回来" was filed as an after-sales ticket at once) — unless the
    customer asked for the ticket in so many words ("can you open a ticket ...")."""
    if ticket_asked_for(text):
        # (asked about, on a condition or reported, it is asked first all the same)
        return bool(_TICKET_NOT_NOW.search(text))
    return is_complaint(text) or bool(ASKS.search(text.lower()))


_TICKET_NOT_NOW = re.compile(
    r"要不要|是不是要|用不用|需不需要|有什么用|有啥用|为什么要|上次|之前让|客服说|让我开|别让我"
    r"|\bshould (?:i|you|we)\b|\bdo (?:i|you) need to\b|\byou said\b|\blast time\b|\btold me\b"
    r"|\b(?:can|could) i (?:even )?open\b|\bcan you even\b"
    r"|(?:如果|要是|万一)[^，。,.!?！？]{0,20}(?:开|建|提交)[^，。,.!?！？]{0,4}工单"
    r"|\bif\b[^.?!]{0,40}\b(?:open|file|raise)\b[^.?!]{0,10}\bticket\b"
    r"|\b(?:open|file|raise) a ticket\b[^.?!]{0,30}\bif\b",
    re.IGNORECASE,
)
_TICKET_MADE_OR_WONDERED = re.compile(
    r"已经|提交过|提过|报过|过了|昨天|前天|有用吗|有用么|有没有用|工单号|单号多少|多少号"
    r"|\balready (?:filed|opened|submitted|reported|raised)\b|\bticket (?:number|no\.?|id)\b"
    r"|\b(?:is|does) (?:it|a ticket|filing) (?:even )?(?:help|work|useful)\b",
    re.IGNORECASE,
)


def ticket_made_or_wondered(text: str) -> bool:
    """Whether ``text`` tells of a ticket made before or asks about one ("我昨天已经提交过了",
    "工单号多少", "提交了有用吗"): whatever ticket is read from it is asked before it is filed."""
    return bool(_TICKET_MADE_OR_WONDERED.search(text))


# Question scaffolding around a product: "do you have ... in stock?", "...多少钱", "有没有...的".
_ZH_FRAME = re.compile(
    # "羊毛袜我要三份 库存够吗", "触屏手套也看下", "电饭煲是几升的 五口人够用吗": how many are
    # wanted, whether they suffice, "also look" — asked of the product, not its name
    r"来着|我?要[一二两三四五六七八九十几\d]+[份个件双套只台]|够不够用?|够用吗|够用|够吗|"
    r"也(?:帮我)?(?:看|查)(?:一下|下|看|查)?|是几升|几升|多大|多重|"
    r"还有货吗|有没有货|有货吗|有货没|有货|还有吗|还有没有|有没有|有吗|没货|现货|缺货|库存|补货|到货|"
    r"卖完了吗|卖完了|卖完|售罄|还卖吗|卖吗|有卖|你们家|你们|请问|我想买|也想要|也想买|也要|想要|想买|要买|我想|"
    r"这(?:两|三|四|五|几)(?:个|样|款|件)|多少钱一个|多少钱|还有多少|还有几(?:个|件|台|只|套|条)|多少|没有的话|没的话|不然的话|也行|也可以|也好|什么价|啥价|价格|价钱|什么时候|啥时候|何时|几时|那种|那个|这个|那款|这款|"
    r"想问问|问问|问一下|问下|顺便|另外|帮我|帮忙|麻烦|查一下|查查|看一下|看看|现在|目前|有的话|"
    r"推荐一下|推荐下|推荐推荐|推荐|再配个|再来个|再加个|配个|什么东西|东西|"
    # "X12能用的手机壳", "透明手机壳能装X12吗": what it fits, not its name
    r"能用的?|能装|适配的?|兼容的?|适用的?|"
    # "你们有几种颜色": which variants, asked of the product
    r"有?(?:几种|几个|几款|哪些|哪几种|什么|啥)(?:颜色可选|颜色|款式|尺码|尺寸|型号|规格)|"
    r"的话|如果|要是|"
    # "成都仓有货吗", "上海有货吗": where the stock is asked about, not the product
    r"(?:成都|上海|广州|北京|深圳|杭州|天津|武汉|重庆|南京)(?:仓库|仓)?|[\u4e00-\u9fff]{2}仓库?(?=有|还|现|库)|"
    # "一共多少钱", "哪个便宜", "…谢谢": the sum, a comparison or thanks, asked beside a product
    r"一共|总共|合计|哪个(?:更)?(?:便宜|贵|好)|哪款|谢谢啦|谢谢|谢了|多谢|里面|里头|里|配什么|什么样的|"
    r"一个|一下|吗|呢|么|呀|啊|吧|的|了|还|卖|买|有"
)
_EN_FRAME = re.compile(
    r"\b(?:what's|it's|that's|there's)(?!\w)|"
    r"\b(?:is|are|the|a|an|in|stock|available|availability|do|does|you|u|ya|have|has|any|anything|"
    r"still|of|there|please|check|can|could|i|buy|get|got|left|how|many|much|sell|selling|sold|"
    r"carry|out|price|prices|priced|cost|costs|when|will|be|coming|back|restock|restocked|again|"
    r"need|want|looking|for|like|one|ones|some|what|which|it|they|them|your|my|me|we|to|guys|"
    r"hey|hi|hello|thanks|pls|plz|right|now|today|enough|stock|instock|"
    # "can you tell me the price of the air fryer and whether it's in stock", "whats the
    # difference between ...", "is the speaker on sale": asking about a product, not its name
    r"tell|know|whether|if|its|whats|difference|between|about|also|and|show|"
    r"sale|discount|discounted|cheaper|info|warehouse|ve|if|not|priciest|cheapest|whats|oh|lol"
    r"|even|go|goes|looking|something|under|over|vs|versus|r|was|were|did|that|this"
    # "asked for a refund ... how much is left": money asked about, no product named
    r"|refund|refunds|refunded|asked|money|paid"
    # "what do you recommend", "any suggestions": asking for a choice, not naming a product
    r"|recommend|recommendation|recommendations|suggest|suggestion|suggestions|would|decent"
    r"|cheap|affordable|match|matching)\b"
    r"|[?？!！,，。、~]|\.(?!\d)",
    re.IGNORECASE,
)
# A quantity ("3个", "2 pcs"), not a product attribute ("65W", "27寸", "28cm", "S3")
_QUANTITY = re.compile(
    r"(?<![a-z0-9])\d+\s*(?:个|件|台|只|pcs?|units?)(?![a-z0-9])"
    r"|(?<![a-z0-9.-])\d+(?![a-z0-9.\u3400-\u9fff])"
    # (not a size read apart from its unit: "15 寸", "1.8 米", "65 w")
    r"(?!\s*(?:寸|英寸|升|米|厘米|毫米|毫安|瓦|斤|公斤|克|inch|cm|mm|ml|mah|kg|w\b|l\b|g\b))"
)
_LOCATION = re.compile(r"\b(?:in|at|to)\s+[a-z]+$|(?:在|到)[\u3400-\u9fff]{2,3}$", re.IGNORECASE)


_RELATIVE = re.compile(
    r"\s(?:that|which) (?:work|works|fit|fits|go|goes|match|matches) (?:with|on|in|for)\b"
    # "is the set back in stock so I can replace them": the thing, not what it is wanted for
    r"|\s(?:so (?:that )?(?:i|we) (?:can|could)|in order to)\s",
    re.IGNORECASE,
)


def product_query(text: str) -> str | None:
    """The product words of a product question without a SKU, or None.

    "耳机多少钱" -> "耳机", "do u have the mens down jacket in stock" -> "mens down jacket",
    "有没有65W的充电器" -> "65w 充电器". Chinese and English words are kept apart by spaces.
    """
    cap, text = price_cap(text)
    rest = text.lower().replace("’", "'")
    # "gloves that work with phone screens": the thing, not what it works with
    head = _RELATIVE.split(rest, maxsplit=1)[0]
    if head != rest and product_query(head) is not None:
        rest = head
    rest = _LOCATION.sub(" ", rest.strip(" ?？!！.。"))
    rest = _ZH_FRAME.sub(" ", rest)
    rest = _EN_FRAME.sub(" ", rest)
    rest = _QUANTITY.sub(" ", rest)
    rest = re.sub(r"(?<=[\u3400-\u9fff])(?=[a-z0-9])|(?<=[a-z0-9])(?=[\u3400-\u9fff])", " ", rest)
    found = _enough(rest.split())
    # "earphones under 500", "一百以内的无线鼠标": the shop's search reads the price cap
    if cap is None:
        return found
    if re.search(r"[\u3400-\u9fff]", found or text):
        return f"{found or ''} {cap:g}元以内".strip()
    return f"{found or ''} under {cap:g}".strip()


def _enough(words: list[str]) -> str | None:
    """The words joined, when they are enough to name a product (2 Chinese characters or 3
    Latin letters), else None."""
    if not words:
        return None
    joined = " ".join(words)
    han = len(re.findall(r"[\u3400-\u9fff]", joined))
    latin = len(re.findall(r"[a-z0-9]", joined))
    # "m 码" (a size), "x 款": a letter and a character name nothing
    return joined if han >= 2 or latin >= 3 or (han and latin >= 2) else None


# The words of a delivery question that are not a product ("where is my package", "物流到哪了").
_TRACKING_FRAME = re.compile(
    r"\b(?:where|wheres|where's|is|are|order|orders|ordered|package|packages|parcel|parcels|"
    r"shipment|shipments|delivery|deliveries|tracking|track|stuff|things|items?|goods|box|"
    r"purchase|purchases|arrive|arrived|arriving|hasnt|hasn't|havent|haven't|not|yet|come|came|"
    r"coming|still|last|week|month|days?|ago|shipped|delivered|late|status|update|it|they|my|"
    r"the|a|an|and|i|bought|got|received|from|you|please|pls|thanks|thank|can|could|help|me|"
    r"check|tell|when|will|what|about|any|news|hi|hello|hey|just|know|want|to|see|on|of|for|"
    r"with|there|eta|does|do|did|has|have|was|were|be|been|so|why|long|taking|take|takes)\b"
    r"|物流|快递|包裹|订单|单子|东西|货|到哪了|到哪|在哪|哪里|哪儿|怎么|还没到|没到|还没|没有|"
    r"收到|发货|送到|寄到|上周|上个月|前天|昨天|我买的|买的|我的|我|帮我|查一下|查查|看看|一下|"
    r"请问|什么时候|能|到|了|的|呢|吗|啊|呀|吧|还|第一个|第二个|这个|那个|另一个|哪个|"
    # how the customer feels about it is not a product either
    r"投诉|太慢|很慢|慢|太|很|急|着急|离谱|真的|为什么|要|想|一直|每天|都|"
    r"\b(?:complain|complaint|slow|angry|ugh|ridiculous|seriously|really|very|yet|week|again"
    r"|this|that|these|those|here|now|nothing|anything|something|everything|tf|yo|like)\b",
    re.IGNORECASE,
)


# Where a delivery question names what was bought: "where are my headphones", "I ordered a kettle
# last week", "my rice cooker hasn't come", "我买的钢化膜到哪了", "我的耳机还没到", "耳机到哪了".
_POSSESSED = re.compile(
    r"\bwhere(?:'s| is| are| r|s)\s+(?:my|the|our)\s+(?P<a>[^?.!,;]{2,40})"
    r"|\b(?:i|we) (?:ordered|bought|purchased|got)\s+(?:an?\s+|some\s+|the\s+)?"
    r"(?P<b>[^?.!,;]{2,40})"
    r"|\bmy\s+(?P<c>[^?.!,;]{2,30}?)\s+(?:has|have|is|are|still|hasn'?t|haven'?t|isn'?t)\b"
    # "did my down jacket get delivered?", "has the kettle arrived yet", "is my scarf here yet"
    r"|\b(?:did|has|have|was|were|is|are)\s+(?:my|the|our)\s+(?P<j>[^?.!,;]{2,30}?)\s+"
    r"(?:(?:get|gotten|got|been|already|actually|finally|even)\s+)*"
    r"(?:delivered|arrived?|shipped|sent out|here|come|came|turned up|shown up|showed up)\b"
    # "what's the tracking number of the purifier parcel"
    r"|\btracking (?:number|no|code) (?:of|for) (?:the|my)\s+(?P<i>[^?.!,;]{2,30}?)"
    r"(?:\s+(?:parcel|package|order|delivery|box))?(?=[?.!,;]|$)"
    r"|\b(?:the|my|those|that)\s+(?P<f>[^?.!,;]{2,30}?)\s+(?:i|we) (?:ordered|bought|purchased)\b"
    r"|^[^\w\u3400-\u9fff]*(?P<g>[\u3400-\u9fff]{2,6}?)买了(?=.{0,12}(?:没到|还没|到哪|物流|在哪))"
    r"|(?:我买的|我的|买的)(?P<d>[^？?！!，,。、\s]{2,12}?)(?=到哪|在哪|怎么还|还没|什么时候|啥时候|何时|呢)"
    # (first) "还有膜到哪了": a thing of one character ("膜", "表"), not "它" / "那" / "货"
    r"|^[^\w\u3400-\u9fff]*(?:还有|另外|那|我的)?(?P<k>(?![它他她那这哪我你货单吗呢吧啊了的])[\u3400-\u9fff])"
    r"(?=到哪了|到哪|在哪|到了没|到了吗)"
    r"|^[^\w\u3400-\u9fff]*(?:还有|另外)?(?P<e>[\u3400-\u9fff]{2,8}?)"
    r"(?=到哪了|到哪|在哪|到了没|到了吗)"
    # "还有净化器的快递单号发我下": the parcel of a thing bought
    r"|^[^\w\u3400-\u9fff]*(?:还有|另外|再|那)?"
    r"(?!还有|另外|你们|我们|他们|咱们|这个|那个|上次|之前|以前|上回|今天|昨天)"
    r"(?![^的，。]*(?:订单|定单|那单|这单|单子))"
    r"(?P<h>[\u3400-\u9fff]{2,8}?)的(?:快递|物流|包裹|运单|单号)",
    re.IGNORECASE,
)


def looked_product(text: str) -> str | None:
    """The product a look at an order names ("where r my headphones from 100200" ->
    "headphones", "100200的耳机到哪了" -> "耳机"), or None: its words without the delivery and
    order words and the numbers."""
    rest = _TRACKING_FRAME.sub(" ", text.lower().replace("’", "'"))
    rest = re.sub(r"[?？!！.,，。、~]|\b(?:r|from|in|at)\b", " ", rest)
    # "都六天了", "两个礼拜了": how long it has been, not a product
    rest = _HOW_LONG_IT_HAS_BEEN.sub(" ", rest)
    rest = re.sub(r"(?<=[\u3400-\u9fff])(?=[a-z0-9])|(?<=[a-z0-9])(?=[\u3400-\u9fff])", " ", rest)
    return _enough([w for w in rest.split() if not w.isdigit()])


_HOW_LONG_IT_HAS_BEEN = re.compile(
    r"(?:都|已经|快|差不多)?[一二两三四五六七八九十\d]+(?:个)?(?:天|周|星期|礼拜|月|小时)(?:了|多)?"
    r"|\b(?:\d+|a|one|two|three|four|five|six|seven|ten) (?:days?|weeks?|months?)\b"
)


def tracked_product(text: str) -> str | None:
    """The product a delivery question names without an order ("where are my headphones?" ->
    "headphones", "我买的钢化膜到哪了" -> "钢化膜"), or None when it names none: only words in the
    place a purchase is named, without the delivery words ("where is my package" names none)."""
    lowered = text.lower().replace("’", "'")
    for found in _POSSESSED.finditer(lowered):
        if found.group("k"):
            return found.group("k")  # one character is enough where the thing is named alone
        named = next(g for g in found.groups() if g)
        rest = _TRACKING_FRAME.sub(" ", named)
        rest = re.sub(r"[?？!！.,，。、~]", " ", rest)
        product = _enough([w for w in rest.split() if not w.isdigit()])
        if product is not None:
            return product
    return None


INSTEAD = re.compile(r"\binstead\b|\brather\b|改成|换成|改为|还是退", re.IGNORECASE)
"""A remedy asked in place of the one just arranged ("actually refund instead", "改成退款吧")."""


def waiting_tools(waiting: Sequence[str]) -> list[str]:
    """The tool of each action waiting for a yes, from the matcher's ``waiting`` entries (each
    "tool intent": "request_refund refund")."""
    return [w.split()[0] for w in waiting if w.split()]
