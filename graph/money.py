"""Reading a money amount out of what a customer wrote, without ever guessing.

:func:`read_amount` returns what the words say — an exact amount (digits, ``¥``/``元``/``块``,
thousands separators, Chinese numerals such as 一百, 三百五, 1千2, 两百块), "everything that is
left" (``the rest``, ``全部``, ``全额``), nothing at all, or an amount that must not be used as one
(negative, more than two decimals, an exponent, a percentage, "half", 0). An invalid amount is
never rounded or reinterpreted: the caller asks the customer instead. Identifiers are blanked
before numbers are read, so an identifier is never an amount: the loaded packs declare how
customers write theirs (:attr:`helpdesk.tools.packs.Pack.mentions`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal

from helpdesk.graph.language import FULLWIDTH_TO_ASCII
from helpdesk.tools.number_words import (
    THOUSANDS_K,
    chinese_number,
    english_number,
    scaled_number,
)
from helpdesk.tools.packs import PackSet
from helpdesk.tools.refund_shares import KEEP_NEGATED
from helpdesk.tools.unusable_amounts import (
    ACCOUNT_DIGITS,
    AMOUNT_REFUSED,
    COUNT_OUT_OF,
    NOT_AN_AMOUNT,
    UNUSABLE_AMOUNTS,
    VAGUE_AMOUNT,
    without_match,
)

__all__ = ["AmountKind", "AmountReading", "chinese_number", "given_amount", "read_amount"]

AmountKind = Literal["none", "exact", "full", "invalid"]


@dataclass(frozen=True, slots=True)
class AmountReading:
    """What the text says about an amount."""

    kind: AmountKind
    """``none`` (no amount), ``exact``, ``full`` (all that is refundable) or ``invalid``."""
    amount: Decimal | None = None
    """The amount for ``exact``, with at most two decimals."""
    raw: str = ""
    """The words the reading came from (for an ``invalid`` amount: what to ask about)."""

    @property
    def value(self) -> float | None:
        """The exact amount as a float rounded to cents (what tool arguments carry)."""
        return float(self.amount) if self.amount is not None else None


_CURRENCY_BEFORE = r"(?:¥|￥|\$|rmb|cny)\s*"
_CURRENCY_AFTER = r"\s*(?:元|块钱|块|yuan|rmb|cny|dollars?)"
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_CN_NUMBER = r"\d*[零〇一二两三四五六七八九十百千万][\d零〇一二两三四五六七八九十百千万]*"

# what follows "剩下的 / 剩下那部分" when the rest is kept, not refunded ("剩下的我自己留着",
# "剩下那部分钱先不退", "剩下那些东西我留着")
_KEPT_AFTER = (
    r"(?:东西|商品)?(?:我|就|都|先|自己|也|还是)*(?:留着|保留|不退|不用退|不要退|先不退|没问题|不要|不用"
    r"|要留|留下)"
)
_FULL = re.compile(
    # "refund the thermos, keep the rest" / "保温杯退了，剩下的留着": the rest is kept, not refunded
    r"(?<!\bkeep )(?<!\bkeeping )(?<!\bleave )(?<!\bhold on to )(?<!\bkeep all )"
    r"(?<!\bkeeping all )(?<!\bleave all )"
    r"\b(?:the rest|what'?s left|whatever is left|all of it|full(?:y)?|whole|entire"
    # "refund the air fryer and everything else" is all of it; "…, keep the thermos" is not
    r"|everything(?! else\b[^.?!]*\bkeep\b)"
    r"|all the (?:money|amount))\b(?! (?:else )?(?:is|are) (?:fine|ok|okay|good))"
    # "when will the rest of it get here?": the goods, not the money
    r"(?! of (?:it|them|the order|my order|the (?:items|stuff|things|parcel|package))\b"
    r"[^.?!]{0,12}\b(?:get|come|arrive|ship|deliver|show))"
    r"|全部|全额|全款|\bthe max(?:imum)?\b(?! (?:is|was)\b)|能退的都退|最多能退的"
    r"|(?:剩下的|剩余的)(?!" + _KEPT_AFTER + r")"
    # "净化器剩下那部分钱也退给我吧": what is left of it, all of it ("剩下那些我自己留着": kept)
    r"|(?:剩下|剩余)(?:的)?(?:那|那些|这)?(?:部分|些)(?:钱|款)?+(?!" + _KEPT_AFTER + r")"
    r"|都退|全退|退全",
    re.IGNORECASE,
)
# "not the full amount", "不要全退": part of it, amount unknown — asked, never the whole
_NOT_FULL = re.compile(
    r"\bnot (?:the )?(?:full|whole|entire|all)\b|\bnot everything\b"
    # "i need a partial refund on 100200": part of it, how much not said
    r"|\bpartial(?:ly)?\b|\bpart of (?:it|the (?:money|amount|price))\b"
    r"|(?:不要|不用|别|不想|不是|不)(?:全部|全额|全退|都退)",
    re.IGNORECASE,
)
# "除了空气炸锅都退", "everything on 100200 but the air fryer", "keep the air fryer, refund the
# rest": all but a part — never the whole, and a number beside it is what is kept, not the amount
# ("everything but ¥100"); a pack that knows the parts may work it out, else how much is asked
_ALL_BUT = re.compile(
    r"除了?[^，。,.!?！？]{1,12}?(?:以外|之外|外)?[\s，,]*(?:其他的?|其余的?|其它的?|别的|剩下的)?"
    r"(?:东西|商品)?(?:都|全|全部)退"
    r"|(?:留着|保留|不退|不要退|不用退)[\s，,]*(?:其他的?|其余的?|其它的?|别的|剩下的)"
    r"(?:东西|商品)?(?:都|全|全部)?退"
    r"|\b(?:everything|evrything|everyting|all of (?:it|them|\d{6}|the order|my order)"
    r"|refund all|all the items|the whole (?:order|thing)|the entire order)\b[^.;!?]{0,30}?"
    r"\b(?:but|except|exept|excpet|apart from|other than|besides|excluding|minus)\b(?! not\b)"
    r"|\b(?:keep|keeping|kept|hold on to|holding on to)\b[^?]{1,60}?\b(?:refund|return)\b"
    r"[^.;!?]{0,12}?\b(?:the rest|everything else|all the others|the others|the remaining)\b"
    r"|\b(?:refund|return)\b[^.;!?]{0,12}?\b(?:the rest|everything else|all the others"
    r"|the others|the remaining)\b[^?]{0,30}?\b(?:keep|keeping|kept)\b"
    # "refund 100200 except 100", "退100609 除了100": an amount kept back, not the one refunded
    r"|\b(?:except|exept|excpet|apart from|other than|besides|excluding|minus)\s*(?:for\s*)?"
    r"(?:[¥￥]|rmb|cny)?\s*\d+(?:\.\d+)?|除了?\s*[¥￥]?\s*\d+(?:\.\d+)?(?:块钱|块|元)?",
    re.IGNORECASE,
)
# "退100，不是，退50", "refund 100, no wait 50", "refund 50... actually 100": the amount said
# after the correction is the one asked
_AMOUNT_CORRECTED = re.compile(
    r"(?:\b(?:no wait|wait|actually|sorry|i mean|i meant|make it|rather|no)\b|不是|不对|我是说|改成"
    r"|换成|哦不|啊不|算了(?:[\s,，]*还是)?)[\s,，.。!！:：]*(?:退款?|refund|just|only|只退)?\s*[¥￥]?\s*"
    r"(?=\d|[零〇一二两三四五六七八九十百千]|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
    r"|hundred|a hundred|one hundred|two|three|four|five|ten)\b)",
    re.IGNORECASE,
)
_PERCENT_AFTER = re.compile(r"^\s*(?:%|percent\b|per cent\b)", re.IGNORECASE)
_CURRENCY_WORD_AFTER = re.compile(r"^\s*(?:yuan|rmb|kuai|bucks?|dollars?|元|块)", re.IGNORECASE)
# In a refund's words (money context), things counted, not money: "再退一台", "退两件", "refund one
# more item", "another one", "two curtains", "2 thermoses", "one candle"; and part of it unsaid:
# "退一部分", "refund some of 100200", "a tenth of the monitor" — how much is asked, never ¥1,
# never everything.
_COUNTED_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"[一二两三四五六七八九十\d]+\s*(?:台|个|件|张|套|条|双|瓶|盒|顶|把|支|副|根|桶|袋|包|本|颗"
        r"|粒|片|罐|箱|样|份|对|副)"
        # "两只杯子", "退2只" counted; "2999 只退手机" is ¥2999 and "only"
        r"|(?:[一二两三四五六七八九十]+|(?<!\d)\d{1,2})\s*只|\d{3,}\s*只(?![退要是想留需])"
        # "退 3 天了", "退款 2 次了", "退 5 折": days, times, a date or a discount, not yuan
        r"|(?<![\d.])\d{1,3}\s*(?:天|次|回|遍|号|日|个?工作日|个?小时|周|个?月|年|折)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:one|two|three|four|five|six|a couple of) (?:more )?(?:items?|things?|pieces?|units?"
        r"|of (?:them|those|these|the \w+))\b|\banother (?:one|item|piece|unit)\b|\bone more\b"
        r"|\b(?:two|three|four|five|six) [a-z]{3,}s\b"
        # ("50 for the thermos": an amount for a thing, never "50 thermoses")
        r"|(?<![\d.])\d{1,2} (?!(?:bucks|dollars|euros|pounds|yuan|kuai|rmb|cents|for|on|towards?"
        r"|to|off)\b)"
        r"(?:[a-z]+ ){0,2}[a-z]{3,}s\b"
        # "refund 1 curtain", "one candle from 100603": one thing, not ¥1
        r"|\b(?:1|one|a single) (?!(?:yuan|kuai|rmb|dollar|buck|hundred|thousand|more|of)\b)"
        r"(?:[a-z]+ )?(?:curtain|candle|belt|item|thing|piece|unit|plate|bowl|cup|pair|set|pack|box"
        r"|bottle|jacket|shirt|sock|towel|pillow|lamp|cable|charger|case|thermos|purifier|keyboard"
        r"|mouse|tablet|phone|watch|band|fryer|kettle|monitor|headphone|earbud|speaker|beanie|hat"
        r"|toothbrush|drive|ssd|blanket|duvet|protector|filter|dinnerware|mug|glass|pan|pot|knife"
        r"|bag|shoe|boot|dress|coat|sweater|hoodie|scarf|glove|mat|pad|camera|router|cooker)s?\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"一部分|(?<!剩下那)(?<!剩下的)(?<!剩下)(?<!剩余)(?<!剩余的)(?<!剩余那)(?:部分款|部分钱)"
        r"|\b(?:some|part) of\b"
        r"|\ba (?:tenth|fifth|sixth|seventh|eighth|ninth)\b"
        r"|\b(?:one|two|three) (?:tenths?|fifths?|sixths?|eighths?)\b",
        re.IGNORECASE,
    ),
)
# a count, not money ("refund the 1 item from 100200", "refund 2 plates", "2 of them")
_COUNT = re.compile(
    r"(?<![\d.])\d{1,2}(?=\s+(?:items?|pieces?|pcs|units?|pairs?|sets?|box(?:es)?|bottles?"
    r"|plates?|cups?|bowls?|of (?:them|those|these)(?!\s+\d)"
    # "2 of the plates" is a count; "50 of the 797", "25 of the money" are amounts
    r"|of the (?:\d+ (?!(?:yuan|rmb|cny|kuai|bucks?|dollars?|on|for|from|in|at|to|of|and|or"
    r"|please|pls|back|refund|total|order)\b)(?=[a-z]))?"
    r"(?!\d)(?!(?:money|total|amount|remaining|remainder|refund|sum|price|cost|rest"
    r"|balance|refundable)\b)[a-z]+)\b)"
    r"|(?:(?<=\bthe\s)|(?<=\bmy\s))\d{1,2}(?=\s+(?!yuan|rmb|cny|dollars?|bucks?|kuai)[a-z]{3,}s\b)",
    re.IGNORECASE,
)
# what follows a Chinese numeral that is a word, a count or a time, not an amount ("一下", "两个")
_CN_NOT_AMOUNT = (
    r"(?![下点直起样些定般次会个件单份遍声切分天周月年号小共日岁台张套条双瓶盒顶把只支])"
)
_EXACT_PATTERNS: tuple[re.Pattern[str], ...] = (
    # "refund 50 of the 797 (yuan)", "10 of those 797": the part asked of the whole
    re.compile(
        r"(?<![\d.])(\d+(?:\.\d+)?)\s+of\s+(?:the\s+|those\s+|these\s+|my\s+)?"
        r"(?:total\s+|remaining\s+|whole\s+|full\s+)?(?:¥|rmb\s*|cny\s*)?\d+(?:\.\d+)?(?![\d.])"
        r"(?!\s+(?!(?:yuan|rmb|cny|kuai|bucks?|dollars?|on|for|from|in|at|to|and|or|please|pls"
        r"|back|refund|total|order)\b)[a-z])",
        re.IGNORECASE,
    ),
    re.compile(_CURRENCY_BEFORE + f"({_NUMBER})", re.IGNORECASE),
    re.compile(f"({_CN_NUMBER})" + r"\s*(?:元|块钱|块)"),
    re.compile(f"({_NUMBER})" + _CURRENCY_AFTER, re.IGNORECASE),
    re.compile(
        r"(?:refund|退款|退钱|退|only|just|make it|instead|amount|金额|只要|只退|就退"
        r"|compensate|补偿|赔偿|赔)"
        r"\s*(?:of|for|me|给我|我)?\s*[:：]?\s*" + f"({_NUMBER})(?![\\d,a-zA-Z]|\\s*[百千万])",
        re.IGNORECASE,
    ),
    # "盘子那269退我", "269块退给我": the number said before "退我"
    re.compile(f"({_NUMBER})" + r"\s*(?:块钱|块|元)?\s*退(?:给)?我(?!们)"),
    re.compile(
        r"(?:退款|退钱|退|只要|只退|就退|金额|补偿我|赔偿我|赔我)\s*[:：]?\s*(\d*[零〇一二两三四五六七八九十百千万]"
        r"[\d零〇一二两三四五六七八九十百千万]*+)" + _CN_NOT_AMOUNT
    ),
)
# after a Chinese word too ("改成200"), never inside a Latin word or a number
_BARE_NUMBER = re.compile(f"(?<![A-Za-z0-9_.-])({_NUMBER})(?![\\w.])")
# a Chinese numeral that is an amount: not "一下"/"一点"/"两个"/"三天"/"万一" (words, counts, times)
_BARE_CN = re.compile(
    # "周五" / "星期三" / "礼拜天" are days, not amounts
    # ("保温杯一装热水就漏": a lone 一 before a verb is "as soon as", never ¥1)
    r"(?<!万)(?<![周期拜])(?!万一)(?!一(?![零〇一二两三四五六七八九十百千万\d块元]))"
    r"([零〇一二两三四五六七八九十百千万][零〇一二两三四五六七八九十百千万\d]*+)" + _CN_NOT_AMOUNT
)


def read_amount(text: str, *, packs: PackSet, money_context: bool = False) -> AmountReading:
    """The amount ``text`` asks for.

    Args:
        text: the customer's words (a clause or a whole message).
        money_context: the words are known to be about money (a refund request, or an answer to a
            refund question), so a bare number ("only 100", "100") is an amount too.
        packs: the loaded packs, whose identifier mentions are blanked first (an empty set
            blanks nothing).
    """
    norm = text.translate(FULLWIDTH_TO_ASCII)
    identifiers = packs.mention_pattern()
    if identifiers is not None:
        norm = identifiers.sub(lambda m: " " * len(m.group(0)), norm)
    # "my card ends in 88", "退到支付宝，尾号66", "I paid 500 for it": never the amount asked
    norm = ACCOUNT_DIGITS.sub(lambda m: " " * len(m.group(0)), norm)
    out_of = COUNT_OUT_OF.search(norm)
    if out_of:
        # "refund 1 item out of 3": a count of things, asked (read before counts are blanked);
        # "refund 33.6 for 2 out of 16 plates": the amount said beside it
        norm = without_match(norm, out_of)
        if not re.search(r"\d", norm):
            return AmountReading("invalid", raw=out_of.group(0).strip())
    norm = NOT_AN_AMOUNT.sub(lambda m: " " * len(m.group(0)), norm)
    # "and don't keep the rest", "I won't keep the rest either": the rest is refunded too
    norm = KEEP_NEGATED.sub(lambda m: "refund" + " " * (len(m.group(0)) - 6), norm)
    refused = AMOUNT_REFUSED.search(norm)
    if refused:
        norm = AMOUNT_REFUSED.sub(lambda m: " " * len(m.group(0)), norm)
        if not re.search(r"\d|[一二两三四五六七八九十百千]", norm):
            # "not 100" and no other amount: how much is asked, never the one refused
            return AmountReading("invalid", raw=refused.group(0).strip())
    corrected = _AMOUNT_CORRECTED.search(norm)
    if corrected and corrected.start() and re.search(r"\d", norm[: corrected.start()]):
        # ("算了还是200吧": the particle after the number is no part of it)
        said = re.sub(r"(?<=\d)(?=吧|啦|呀|就行|就好|就可以)", " ", norm[corrected.start() :])
        after = read_amount(said, packs=PackSet(), money_context=True)
        if after.kind == "exact":
            return after
    if money_context:
        # "100就行", "50就够了": the particle after the number is no part of it
        norm = re.sub(r"(?<=\d)(?=就行|就好|就够|就可以)", " ", norm)
    counted = norm
    norm = _COUNT.sub(lambda m: " " * len(m.group(0)), norm)
    for pattern in UNUSABLE_AMOUNTS:
        m = pattern.search(norm)
        if m:
            return AmountReading("invalid", raw=m.group(0).strip())
    vague = VAGUE_AMOUNT.search(norm)
    if vague is not None and not re.search(r"\d", norm):
        return AmountReading("invalid", raw=vague.group(0).strip())
    if money_context:
        for pattern in _COUNTED_PATTERNS:
            m = pattern.search(norm)
            if m:
                marked = _marked_amount(norm[: m.start()] + " " + norm[m.end() :])
                if marked is not None:
                    # "退200块钱，滤网少了一个": the things counted are why; the yuan said are
                    # the amount
                    return marked
                if not _BARE_NUMBER.search(without_match(norm, m)):
                    return AmountReading("invalid", raw=m.group(0).strip())
                norm = without_match(norm, m)  # "refund 50 for 1 broken mug": the 50
    all_but = _ALL_BUT.search(norm)
    if all_but:
        return AmountReading("invalid", raw=all_but.group(0))
    thousands = THOUSANDS_K.search(norm) if money_context else None
    if thousands is not None:
        return AmountReading("invalid", raw=thousands.group(0).strip())  # "1.5k": asked
    scaled = scaled_number(norm)
    if scaled is not None:
        return _exact(format(scaled[0], "f"), raw=scaled[1])  # "退1百", "1.5千", "2 hundred"
    for pattern in _EXACT_PATTERNS:
        m = pattern.search(norm)
        if m:
            return _exact(m.group(1))
    worded = english_number(norm)
    if worded is not None and (
        money_context or _CURRENCY_WORD_AFTER.match(norm[norm.find(worded[1]) + len(worded[1]) :])
    ):
        # "refund fifty for 100200", "a hundred yuan": never the whole, never ¥1
        rest = norm[norm.find(worded[1]) + len(worded[1]) :]
        if _PERCENT_AFTER.match(rest):
            return AmountReading("invalid", raw=worded[1])
        return _exact(format(worded[0], "f"), raw=worded[1])
    not_full = _NOT_FULL.search(norm)
    if not_full:
        # "不要全退 退300就行", "not the full amount, 200": the number is the amount
        number = _BARE_NUMBER.search(norm) if money_context else None
        if number:
            return _exact(number.group(1))
        return AmountReading("invalid", raw=not_full.group(0))
    if _FULL.search(norm):
        return AmountReading("full", raw=_FULL.search(norm).group(0))  # type: ignore[union-attr]
    if money_context:
        m = _BARE_NUMBER.search(norm)
        if m:
            return _exact(m.group(1))
        m = _BARE_CN.search(norm)
        if m and chinese_number(m.group(1)) is not None:
            return _exact(m.group(1))
        count = _COUNT.search(counted)
        if count:
            # "refund the 1 item": part of an order, its amount unsaid — asked, never guessed
            part = re.match(r"\d+\s+(?:of\s+(?:the\s+)?(?:\d+\s+)?)?\w+", counted[count.start() :])
            return AmountReading("invalid", raw=part.group(0) if part else count.group(0))
    return AmountReading("none")


_MARKED = re.compile(
    r"[¥￥]\s*(\d+(?:\.\d{1,2})?)(?![\d.])"
    r"|(?<![\d.])(\d+(?:\.\d{1,2})?)\s*(?:元|块钱|块|yuan\b|rmb\b|kuai\b|bucks\b)",
    re.IGNORECASE,
)


# a price of one of the things counted ("退2个窗帘 每个239元", "2 candles at 69 yuan each"):
# no amount to refund — asked, never taken as the refund
_EACH_BEFORE = re.compile(
    r"(?:每|单价|一)\s*[个件台只条双套张把副瓶盒支部本份]?\s*(?:是|为|要)?\s*[:：]?\s*[¥￥]?\s*$"
    r"|\b(?:each|per (?:item|piece|one|unit)|a piece|apiece)"
    r"\s*(?:is|was|at|for|costs?)?\s*[¥￥]?\s*$"
    r"|\bat\s*[¥￥]?\s*$",
    re.IGNORECASE,
)
_EACH_AFTER = re.compile(
    r"^\s*(?:each|apiece|a piece|per (?:item|piece|one|unit)"
    r"|一个|一件|一台|一只|一条|/\s*[个件台只条])",
    re.IGNORECASE,
)


def _marked_amount(norm: str) -> AmountReading | None:
    """The one amount said with its currency ("200块钱", "¥50", "30 yuan"); None when there is
    none, more than one, or it is the price of one thing ("每个239元")."""
    found = list(_MARKED.finditer(norm))
    if any(
        _EACH_BEFORE.search(norm[: m.start()]) or _EACH_AFTER.match(norm[m.end() :]) for m in found
    ):
        return None
    values = {m.group(1) or m.group(2) for m in found}
    if len(values) != 1:
        return None
    return _exact(values.pop())


def given_amount(value: float | None) -> AmountReading:
    """An amount a model tier's decomposition names, held to the rules of the customer's own
    words: none when absent; exact when positive with at most two decimals; invalid (asked
    about, never used) otherwise — a negative, zero, NaN or an infinity included."""
    if value is None:
        return AmountReading("none")
    if isinstance(value, bool) or not math.isfinite(value):
        return AmountReading("invalid", raw=str(value))
    return _exact(format(Decimal(str(value)), "f"))


def _exact(number: str, raw: str = "") -> AmountReading:
    """The amount ``number`` says (``raw``: the words it was read from, if not the number)."""
    raw = raw or number
    value = _number_value(number)
    if value is None or value <= 0:
        return AmountReading("invalid", raw=raw)
    try:
        cents = value.quantize(Decimal("0.01"))
    except InvalidOperation:  # more digits than a Decimal holds (1e308): no real amount
        return AmountReading("invalid", raw=raw)
    if value != cents:
        return AmountReading("invalid", raw=raw)
    return AmountReading("exact", amount=cents, raw=raw)


def _number_value(raw: str) -> Decimal | None:
    raw = raw.strip()
    if re.fullmatch(_NUMBER, raw):
        try:
            return Decimal(raw.replace(",", ""))
        except InvalidOperation:
            return None
    value = chinese_number(raw)
    return Decimal(value) if value is not None else None
