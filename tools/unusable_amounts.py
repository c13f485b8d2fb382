"""Amounts a customer says that cannot be used as one: a share ("half", "30%"), a sum or a
difference to work out, a price per item, a number mistyped or in another currency, a
fraction written the local way ("7,97", "五毛"), two amounts at once. Each is asked about with
what is refundable, never read as a number of yuan (:func:`helpdesk.graph.money.read_amount`
reads them first)."""

from __future__ import annotations

import re

__all__ = [
    "ACCOUNT_DIGITS",
    "AMOUNT_REFUSED",
    "COUNT_OUT_OF",
    "KEPT_AMOUNT",
    "NOT_AN_AMOUNT",
    "UNUSABLE_AMOUNTS",
    "VAGUE_AMOUNT",
    "without_match",
]

KEPT_AMOUNT = re.compile(
    r"\b(?:keep|keeping|hold back|leave)\s+(?:me\s+)?[¥￥]?\d+(?:\.\d+)?\b"
    r"(?!\s*(?:days?|hours?|weeks?|items?|pieces?|units?|of them|more))"
    r"|(?:留|留下|保留|留着|扣|扣下)\s*[¥￥]?\d+(?:\.\d+)?(?!\s*[天个件台套])",
    re.IGNORECASE,
)
"""An amount said as kept ("refund 100609, keep 200 of it", "退100609 留200"): not the one
refunded (what is left of the refund is worked out by nobody) — asked, also when it is said in
another part of the message than the refund."""

ACCOUNT_DIGITS = re.compile(
    r"(?:\b(?:ends? in|ending(?: in| with)?|last (?:four|4|two|2) digits?(?: are| is)?)"
    r"|尾号|尾数|卡号)\s*(?:是|为)?\s*\d+"
    # "I paid 500 for it", "我当时付了300": the price paid, not the amount asked back
    r"|\bpaid (?:¥|rmb )?\d+(?:\.\d+)? ?(?:yuan|rmb|kuai)? for\b|付了\d+",
    re.IGNORECASE,
)
"""Digits of an account or card ("my card ends in 88", "尾号66") and a price paid ("I paid 500
for it"): never the amount asked back."""

# "not 100", "退200，不是100", "不要退100 退50", "don't refund 100": an amount refused — never the
# one asked ("不是，退50" with a pause is a correction, read by graph.money)
AMOUNT_REFUSED = re.compile(
    r"\b(?:not|never|don'?t refund|do not refund|dont refund)\s+(?:me\s+)?(?:[¥￥]|rmb|cny)?\s*"
    r"\d+(?:\.\d+)?(?:\s*(?:yuan|rmb|kuai|bucks?)\b)?"
    # ("不不不 200": a no, then the amount meant)
    r"|(?<!不)(?:不是|不要|别)(?:退|给我退)?[¥￥]?\d+(?:\.\d+)?(?:块钱|块|元)?"
    r"|(?<!不)不(?:退|给我退)\s*[¥￥]?\s*\d+(?:\.\d+)?(?:块钱|块|元)?",
    re.IGNORECASE,
)

_THINGS = (
    r"(?:items?|things?|pieces?|products?|pcs|boxes|parcels?|packages?|units?"
    # "4 out of 16 plates": any things counted (not a rating: "1 out of 5 stars")
    r"|(?!stars\b|yuan\b|bucks\b|dollars\b)[a-z]{3,}s)\b"
)
COUNT_OUT_OF = re.compile(
    r"(?<![\d.])\d+\s+(?:out\s+)?of\s+(?:the\s+|my\s+|these\s+|those\s+)?\d+\s+"
    + _THINGS
    # "1 item out of 3", "1/3 items"
    + r"|(?<![\d.])\d+\s+"
    + _THINGS
    + r"\s*(?:out\s+)?of\s+(?:the\s+)?\d+"
    + r"|(?<![\d.])\d+\s*/\s*\d+\s+"
    + _THINGS,
    re.IGNORECASE,
)
"""A count of things out of the order's ("refund 1 out of 3 items", "2 of the 3 things"):
which of them and what they cost unsaid — asked, never that many yuan (nor the whole order);
read before the things counted are blanked."""

UNUSABLE_AMOUNTS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\d+(?:\.\d+)?\s*(?:%|percent\b)|百分之", re.IGNORECASE),
    re.compile(
        r"\bhalf\b|一半|半价|\bquarter\b|\bthirds?\b"
        r"|[一二两三四五六七八九十百]分之[一二两三四五六七八九十]?"
        r"|[一二两三四五六七八九]成(?![本功交人绩员就新])"
        # "refund 1/2 of 100200": a share, never 1 yuan
        r"|(?<![\d/.])[1-9]\s*/\s*(?:[2-9]|10)(?![\d/])",
        re.IGNORECASE,
    ),
    re.compile(r"(?<![a-z])\d+(?:\.\d+)?e[+-]?\d+\b", re.IGNORECASE),
    # the whole number is quoted back ("-50", not "-5"); a dash with a space after it is a
    # separator ("100609 - 100 yuan please"), not a minus sign
    re.compile(
        r"(?<![a-z0-9])-\d+(?:\.\d+)?|负\s*\d+(?:\.\d+)?|负[一二两三四五六七八九十百千]+"
        # two numbers around a dash ("866 - 66", "100 - 200 yuan"): a sum or a range, unclear
        r"|(?<![\d.])\d+(?:\.\d+)?\s+-\s+\d+(?:\.\d+)?",
        re.IGNORECASE,
    ),
    re.compile(r"\d+\.\d{3,}"),
    # "2 plates at 40 each": a price per item, not the amount asked — asked, never multiplied
    # ("refund 100609 and 100200 50 each": one amount for each order, read per order)
    re.compile(
        r"\b(?:at|@)\s*\d+(?:\.\d+)?\s*(?:yuan|rmb|元|块)?\s*(?:each|apiece)\b"
        r"|\d+(?:\.\d+)?\s*(?:yuan|rmb|元|块)?\s*per (?:item|piece|plate|unit)\b",
        re.IGNORECASE,
    ),
    re.compile(r"\b(?:infinity|inf|nan)\b", re.IGNORECASE),
    # another currency ("$100", "100 USD", "100美元"): never read as that many yuan — asked
    re.compile(
        r"[$€£]\s*\d+(?:[.,]\d+)*"
        r"|(?<![\w.])\d+(?:\.\d+)?\s*(?:usd|us\$|dollars?|euros?|eur|gbp|pounds?|hkd|jpy|yen)\b"
        r"|\d+(?:\.\d+)?\s*(?:港币|港元|美元|美金|欧元|英镑|日元)",
        re.IGNORECASE,
    ),
    # "7,97" (a decimal comma), "两百五十块五毛" (jiao): a fraction never dropped — asked
    re.compile(
        r"(?<![\d,.])\d{1,4},\d{1,2}(?![\d,])|[一二两三四五六七八九\d]\s*[毛角](?!钱包)"
        # "5块5", "五块五": yuan and jiao
        r"|(?:\d+|[一二两三四五六七八九十百千]+)[块元][一二三四五六七八九\d](?![\d毛角钱])"
    ),
    # "¥100 ¥200": two amounts, each marked as one — which is meant, asked
    re.compile(r"[¥￥]\s*\d+(?:\.\d+)?[^¥￥\d]{0,20}[¥￥]\s*\d+"),
    # "3OO" (letter O), "0x300": a number mistyped or coded — asked, never read as another
    re.compile(r"(?<![\w.])(?:\d+o+\d*|o+\d+[\do]*|0x[0-9a-f]+)(?!\w)", re.IGNORECASE),
    KEPT_AMOUNT,
    # "269 + 129": a sum to work out, asked
    re.compile(r"(?<![\d.])\d+(?:\.\d+)?\s*\+\s*\d+(?:\.\d+)?"),
    # "797-100", "refund 100200 minus 100", "少退100": a difference to work out, asked
    re.compile(
        r"(?<![\d.-])\d{3,5}(?:\.\d+)?-\d{1,5}(?:\.\d+)?(?![\d-])"
        r"|\b(?:minus|less)\s+(?:the\s+)?[¥￥]?\d+(?:\.\d+)?|(?:少退|减去|减掉|扣掉|扣除|减)\s*[¥￥]?\d+(?:\.\d+)?",
        re.IGNORECASE,
    ),
    # "refund the difference, it went down to 299", "退差价 现在299": the number is the new
    # price, the difference is to work out — asked, never the price paid back
    re.compile(
        # (not "the price dropped by 100, refund the difference": the number is the difference)
        r"^(?=.*\d)(?!.*\d+(?:\.\d+)?\s*(?:yuan|rmb|元|块))(?!.*\bby\s*[¥￥]?\d)(?!.*差了?\s*[¥￥]?\d)"
        r"(?:.*\brefund (?:me |us )?(?:the |a )?(?:price )?difference\b(?!\s+of\s+[¥￥]?\d)"
        r"|.*退(?:我)?差价(?!\s*(?:是|为)?\s*[¥￥]?\d))",
        re.IGNORECASE,
    ),
)

VAGUE_AMOUNT = re.compile(
    r"\b(?:a couple(?: of)?|couple(?: of)?|a few|few|several|some|many|hundreds of"
    r"|a bunch of)\s+(?:hundred|thousand|bucks|dollars|yuan|kuai|rmb)\b"
    r"|\b(?:one|two|three|four|five|six|seven|eight|nine)[- ](?:twenty|thirty|forty|fifty"
    r"|sixty|seventy|eighty|ninety)\b(?![- ](?:one|two|three|four|five|six|seven|eight|nine)\b)"
    r"|几(?:十|百|千)|(?:十|百|千)几|(?<![一二两三四五六七八九])(?:百八十|千八百)"
    r"|(?:十|百|千)来(?:块|元)|好几(?:十|百|千)",
    re.IGNORECASE,
)
"""A vague amount ("a couple hundred", "a few bucks", "退个几百", "几十块", "百八十") or a
colloquial one that may be 150 or 1.50 ("one fifty"): asked, never a number picked — when no
amount in digits is said beside it ("我买了好几百的东西，100609退100" is ¥100)."""

_NO_MONEY_AFTER = r"(?!\s*(?:块|元|yuan|rmb|kuai|bucks|back\b))"
_MONTH_NOT_MAY = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b"
)
_MONTH = r"(?:may|" + _MONTH_NOT_MAY + r")\b"

# "rated 1 out of 5", "a 1 star review", "ordered on 8/30", "3 broke out of 16", "qty 1",
# "lasted 1 week", "用了3天", "打1星": a rating, a date, a count, a time — never an amount
NOT_AN_AMOUNT = re.compile(
    r"\b(?:rated|rating|rate|gave it|give it|score|qty|quantity)\s*(?:of|:|=)?\s*\d+(?:\.\d+)?"
    r"(?:\s*(?:out of|/)\s*\d+)?(?:\s*stars?)?"
    # ("3 broke out of 16", "4/5 stars"; never "100 out of 797": a part of the money)
    r"|(?<![\d.])\d+(?:\s+[a-z]+){1,2}\s+out of\s+\d+(?![\d.])(?!\s*(?:yuan|rmb|kuai|元|块))"
    r"|(?<![\d.])\d+(?:\.\d+)?\s*(?:out of|/)\s*\d+(?:\.\d+)?\s*stars?\b"
    # (not "for the 5 days it was late", "3 days of delay": what the money is for — asked)
    r"|(?<![\d.])(?<!for )(?<!for the )(?<!for those )\d+(?:\.\d+)?\s*-?\s*(?:stars?|star review"
    r"|weeks?|wks?|days?|months?|years?|yrs?|hours?|hrs?|minutes?|mins?|times?|nights?|am|pm"
    r"|o'?clock)\b(?!\s*(?:of|worth|late|delay|delayed|overdue))"
    r"|\b(?:on|since|from|dated?)\s+\d{1,2}[/.-]\d{1,2}\b(?:[/.-]\d{2,4})?"
    # "再不退款我就去12315", "I'll call 12315": the consumer hotline, never an amount
    r"|(?:打|找|去|到|报|拨打?|投诉到|\bcall|\bto|\bcontact)\s*(?:the\s+)?(?:12315|12345)(?!\d)"
    # ("100200 退 3 天了": right after the verb it is how long the refund has taken — asked)
    r"|(?<![\d.])(?<!退)(?<!退 )(?<!款)(?<!款 )\d+\s*"
    r"(?:颗星|星|天|周|个?星期|个?礼拜|个月|年|小时|次|点钟?)"
    # "refund order 200", "refund #609", "退款 订单号 609": (part of) an order number, never
    # yuan — which order is asked (right after the word: "order 100200 100 yuan", the order
    # number blanked, leaves the amount)
    r"|\b(?:order|ord)\s?(?:no\.?|number|num|#|id)?\s?[:#]?\s?\d+(?![\d.])"
    + _NO_MONEY_AFTER
    + r"|#\s?\d+(?![\d.])"
    + _NO_MONEY_AFTER
    + r"|订单(?:号|编号)?\s?[:：]?\s?\d+(?![\d.])"
    + _NO_MONEY_AFTER
    # "delivered on Sept 3", "it came on Oct 2", "the 3rd", "2026-08-30": a date
    + r"|\b"
    + _MONTH
    + r"\.?\s+\d{1,2}(?:st|nd|rd|th)?(?![\d.])"
    r"|(?<![\d.])\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?"
    + _MONTH_NOT_MAY
    + r"|(?<![\d.])\d{1,2}(?:st|nd|rd|th)\b"
    r"|(?<![\d.])\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?![\d.])"
    # "call me at 13912345678": a phone number
    r"|(?<![\d.])\+?(?:86)?1[3-9]\d{9}(?![\d.])",
    re.IGNORECASE,
)


def without_match(text: str, found: re.Match[str]) -> str:
    """``text`` with what ``found`` matched blanked (spaces of the same length: spans stay)."""
    return text[: found.start()] + " " * (found.end() - found.start()) + text[found.end() :]
