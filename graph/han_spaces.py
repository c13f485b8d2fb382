"""Where a space ends a Chinese request: "SKU-1001有货吗 100683到哪了" is two requests,
"我的订单 100123 为什么还没发货" one. Customers who type no punctuation separate their requests
with spaces; :func:`split_at_han_spaces` reads which spaces do (used by
:func:`helpdesk.graph.conversation.clause_spans`)."""

from __future__ import annotations

import re

__all__ = ["split_at_han_spaces"]


# "SKU-1001有货吗 100683到哪了", "100683什么时候到 我要投诉快递": Chinese requests separated by a
# space. A space ends a request only when what precedes it is one: it names an identifier, or
# ends with a question particle ("我的订单 100123 为什么..." is one request), or when what
# follows opens a request of its own ("可以...", "帮我...").
HAN_SPACE = re.compile(
    # (after an emoji too: "你到底是不是人啊😤 100998能不能改地址")
    r"(?<=[\u4e00-\u9fff\d\u2600-\u27bf\U0001f300-\U0001faff])\s+"
    # ... before Han, a digit, "sku 1001", or a Latin word run into Han ("usb-c数据线多少钱")
    r"(?=[\u4e00-\u9fff\d]|[a-z]{2,5}[\s_-]*\d|[a-z][a-z0-9-]{0,10}[\u4e00-\u9fff])"
)
# a question particle ends a request, and so does an exclamation one ("咋还没到啊 ..."), and
# "X不 / X没" after a verb or its object ("还有货不 ...", "发了没 ...", "有进展没 ...", "处理没
# ...": "有没有货", asked)
_ASKED_NOT = r"(?<=[了货到发退收完行好对展息复理])[不没]"
COMPLETE = re.compile(
    r"\d{4,}|(?:[吗呢了么吧啊呀嘛哈哦噢]|多少钱?|什么|啥|哪儿?|几[点天号个时件次年月周]|多久|多长时间|多[大长重高]|"
    # "发票怎么开 ...", "不粘锅啥时候补货 ...": a question asked, its verb last
    r"(?:怎么|如何|咋)[\u4e00-\u9fff]{1,2}|(?:啥时候|什么时候|何时)[\u4e00-\u9fff]{1,3}|"
    r"(?:多久|几天)[\u4e00-\u9fff]{1,4}|"
    # "哈哈谢谢你 上次...": thanks said apart; "膜还没到 净化器…": a delivery's state told
    r"谢谢[你您]|(?<=[还都])(?<![钱款账][还都])(?:没|没有)(?:到|收到|发货|发)|" + _ASKED_NOT + r")$"
)
# "不用 100683...": a negation waiting for its object; "发货没 ..." / "有货不 ..." ask a question
OPEN_NEGATION = re.compile(
    r"(?:不用|不要|别|(?<![了货到发退收完行好对])不|先不|不想|(?<![了货到发退收完展息复理])没|不必"
    r"|不需要)$"
)
# "羽绒服有没有货 可以用优惠券吗": what follows the space opens a request of its own
# ("有的话帮我留一个": a condition on what was asked, then a request); after an identifier
# ("帮我查查100200 再查查100609"; "订单 100683 到哪了" is one request) only these and "再/也/又"
AGAIN = re.compile(r"(?:再|也|又|还要|接着)")
# "取消100904 退100200 查100683": after an identifier, a verb of its own opens the next request
VERB_NEXT = re.compile(r"(?:查|看看|看下|看一下|取消|退款|催|改|开)")
OPENS_REQUEST = re.compile(
    r"(?:可以|能不能|能否|可不可以|能帮|能给|帮我|帮忙|麻烦|请问|我想|我要|还要|还想|如果|要是|再(?!见)"
    # "不用取消哈 就问问100998啥时候发": the question the customer does ask
    r"|(?:就|只是|只|我就)?(?:想)?问(?:问|一?下)"
    # "我下周出差 先放快递站": "first (do this)" opens what the customer asks
    r"|先(?=放|帮|给|别|不要|寄|送|存)"
    r"|[\u4e00-\u9fff]{1,3}的话"
    # "看看哪个还没付钱 没付的那个直接取消": the one described, then what to do with it
    r"|[\u4e00-\u9fff]{1,3}的那(?:个|单|笔)(?=[\u4e00-\u9fff]{2})"
    # "X12配什么手机壳 有没有钢化膜 谢谢": another thing asked after, and thanks said apart
    r"|有没有(?=[\u4e00-\u9fffa-z])(?!货|库存|现货)|先?(?:谢谢|多谢|谢了|感谢)(?=[\s!！~。啦了哈呀]|$)"
    # "有没有三十块以下的东西 包邮吗", "… 想凑个包邮": whether shipping is free, asked apart
    r"|想?凑(?:个|一下)?包邮|包邮(?:吗|么|嘛|不|没|呢|$)"
    # "退个锤子 我问的是物流": what the customer is really asking
    r"|我(?:问|说|要|想问)的是"
    # "有没有便宜点的音箱 … 鼠标也想要一个": another thing wanted too
    r"|[\u4e00-\u9fff]{1,6}也(?:想要|要|想买|想找|来)(?:一个|一只|一台|个|只|台)"
    # "帮我报个售后 这个是保一年的吧": whether something is so, asked apart
    r"|这个?是(?=[\u4e00-\u9fff\w]{2,10}[吗吧嘛么][\s?？!！。~]*$))"
)


# "你们几点下班 100683今天能到吗": a question naming no identifier, then an order of its own
_QUESTION_WORD = re.compile(r"几[点天号个时]|什么|怎么|多少|哪|吗|呢|能不能|可不可以|是不是|有没有")
_ORDER_NEXT = re.compile(r"\d{6}(?!\d)")


# "100609退50 100200的物流呢", "取消100904 100998能取消吗": an identifier after an identifier, with
# words of its own, is a request of its own ("100683 100998 都取消", "取消100904 100998": one)
_ORDER_OF_ITS_OWN = re.compile(r"\d{6}(?!\d)\s*(?![都也一全两俩和跟])[\u4e00-\u9fff]")


# "两个单号都发我 100609的也要": an order the request before is asked of too
_ORDER_ALSO = re.compile(r"\d{6}(?!\d)\s*的?\s*(?:也|都|还)")

# "转人工 100998为什么还不发货": a request for a person, then a question about an order
_ASKS_FOR_A_PERSON = re.compile(
    r"(?:转|找|要|接|叫)(?:个|一个)?(?:人工|真人|活人)(?:客服)?(?:来|过来)?$|人工客服$"
)
# "找个真人来 快递一个礼拜了还没到": what the person is wanted for, told apart
_PARCEL_NEXT = re.compile(r"(?:我的)?(?:快递|包裹|物流)")
# "我要转人工 T-000031一直没人处理": the person asked for, then what a ticket (an identifier:
# letters and a number) is about
_IDENTIFIER_NEXT = re.compile(r"[a-z]{1,3}-?\d{4,}")
_ORDER_QUESTION_NEXT = re.compile(
    r"\d{6}(?!\d)[^\d]*(?:为什么|怎么|什么时候|吗|呢|哪|多久|几[点天号])"
)


# "几点前付款能当天发货 智能手表有现货吗": a question, then a question about a thing of its own
# (not "…快递 还没到吗": a word like 还/也/都 continues the question before)
_QUESTION_OF_ITS_OWN = re.compile(
    r"(?![还也都就才又是的了吧在])[\u4e00-\u9fff][\u4e00-\u9fffa-z0-9]{3,14}"
    r"(?:吗|呢|么|多少钱|有货没|有没有货)(?=\s|$|[?？!！。，,])"
)


def _question_before_an_order(left: str, norm: str, at: int) -> bool:
    words = left.strip()
    if _ASKS_FOR_A_PERSON.search(words) and (
        _ORDER_QUESTION_NEXT.match(norm, at)
        or _PARCEL_NEXT.match(norm, at)
        or _IDENTIFIER_NEXT.match(norm, at)
    ):
        return True
    if (
        len(words) >= 4
        and _QUESTION_WORD.search(words) is not None
        and _QUESTION_OF_ITS_OWN.match(norm, at) is not None
    ):
        return True
    return (
        len(words) >= 4
        and not any(c.isdigit() for c in words)
        and _QUESTION_WORD.search(words) is not None
        and _ORDER_NEXT.match(norm, at) is not None
    )


# "把我的订单都列一下 看看哪个还没付钱": a verb done once ends a request when words follow
_DONE_ONCE = re.compile(r"(?:列|查|看|催|问|说)(?:一下|下)$")


_AMOUNT_OF_THE_VERB = re.compile(r"(?:退|退款|退钱|退我|退给我|赔|补偿|赔偿)$")
# ("100200 退 50 100609 退 30": a number too short to be an order's, the verb's amount)
_AMOUNT_NEXT = re.compile(
    r"\d+(?:\.\d+)?\s*(?:块|元|yuan|rmb|¥)|[¥￥]\s*\d|\d{1,5}(?:\.\d{1,2})?(?![\d.])"
    # (not "退 30 天内", "退 2 次了", "退 5 折", "退 10 号买的": days, times, a discount, a date)
    r"(?!\s*(?:天|号|次|折|件|个|日|月|年|周|星期|礼拜|小时|分|倍|%|岁|点|遍|样|箱|单))"
)


# "100200 50元 帮我退": an order and an amount, then the refund they are for
_ORDER_AND_AMOUNT = re.compile(r"\s*\d{6}\s+\d{1,5}(?:\.\d+)?\s*(?:元|块钱|块|rmb|yuan)\s*")
_REFUND_NEXT = re.compile(r"(?:帮我|给我|麻烦)?(?:退款|退钱|退)")
# "100609 100200": identifiers alone, one after another
_ONLY_ORDERS = re.compile(r"\s*\d+(?:\s*(?:和|跟|、|,|，|\s)\s*\d+)*\s*")

_TRAILING_EMOJI = re.compile(r"[\u2600-\u27bf\U0001f300-\U0001faff\ufe0f]+$")


def split_at_han_spaces(norm: str, start: int, end: int) -> list[tuple[int, int]]:
    """The pieces of ``norm[start:end]`` split at the spaces that end a request."""
    pieces: list[tuple[int, int]] = []
    begin = start
    for m in HAN_SPACE.finditer(norm, start, end):
        left = _TRAILING_EMOJI.sub("", norm[begin : m.start()])
        if not left.strip():
            continue
        opens = (
            OPENS_REQUEST.match(norm, m.end(), end) is not None
            or _question_before_an_order(left, norm, m.end())
            or (not left[-1:].isdigit() and _ORDER_ALSO.match(norm, m.end(), end) is not None)
        )
        if _AMOUNT_OF_THE_VERB.search(left) and _AMOUNT_NEXT.match(norm, m.end(), end):
            continue  # "100200 退 100 块 …": the amount is the verb's before it
        if _ORDER_AND_AMOUNT.fullmatch(left) and _REFUND_NEXT.match(norm, m.end(), end):
            continue  # "100200 50元 帮我退": the order and the amount of the refund after them
        if _ONLY_ORDERS.fullmatch(left) and not (opens and _ORDER_NEXT.search(norm, m.end(), end)):
            # "100200 退款 100609 不退": an order alone, its verb after it; "100609 可以退一百块吗",
            # "100998 帮我催一下", "100609 100200 帮我退款": the orders of the request that follows
            continue
        if left[-1:].isdigit() and not (
            opens
            or AGAIN.match(norm, m.end(), end)
            or VERB_NEXT.match(norm, m.end(), end)
            or _ORDER_OF_ITS_OWN.match(norm, m.end(), end)
        ):
            continue  # "我的订单 100123 为什么还没发货": the order of the words around it
        done = COMPLETE.search(left) or (
            _DONE_ONCE.search(left) and "\u4e00" <= norm[m.end() : m.end() + 1] <= "\u9fff"
        )
        if (done or opens) and not OPEN_NEGATION.search(left):
            pieces.append((begin, m.start()))
            begin = m.end()
    pieces.append((begin, end))
    return pieces
