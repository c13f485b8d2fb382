"""Words every deployment reads the same: clauses, conversation, answers to a yes/no question.

Matching logic shared by the engine's own matcher (:func:`helpdesk.graph.intents.
match_conversation`) and packs' template matchers (the demo shop's reads its requests around
these): text normalization and clause splitting, the conversation intents (greeting, thanks,
goodbye, a question about the bot, the hotline), and the words of an answer for
:func:`helpdesk.graph.confirmation_reading.read_confirmation`, the only reader
of a customer's answer to the question the bot asked. A pack supplies what only it knows (its
identifiers, what counts as one of its requests, the action a "确认取消" names) as
:class:`helpdesk.graph.confirmation_reading.ConfirmationWords`.
"""

from __future__ import annotations

import re

from helpdesk.graph.han_spaces import split_at_han_spaces
from helpdesk.graph.language import FULLWIDTH_TO_ASCII

__all__ = [
    "ACK_WHOLE",
    "AFTER_ALL",
    "ARE_YOU_HUMAN",
    "BUT",
    "CONFIRM_WORD",
    "CORRECTION",
    "EMOJI",
    "FOLLOW_UP",
    "GOODBYE",
    "GREETING",
    "HOTLINE",
    "NOT_ALL",
    "NO_ANY",
    "NO_WHOLE",
    "QUESTION_MARK",
    "STRIP",
    "THANKS",
    "WAIT",
    "YES_ONLY",
    "YES_START",
    "bare",
    "blank",
    "clause_spans",
    "normalize",
    "rx",
]


TO_END = r"[^\w\u3400-\u9fff]*$"
"""Only spaces and punctuation up to the end of the message: with :func:`rx`'s ASCII classes a
Chinese character is ``\\W``, so ``\\W*$`` would let "不要了帮我取消" end at "不要了"."""


def rx(pattern: str) -> re.Pattern[str]:
    """A case-insensitive pattern whose ``\\b`` and ``\\w`` are ASCII (Chinese has no word gaps)."""
    return re.compile(pattern, re.IGNORECASE | re.ASCII)


def normalize(text: str, typos: tuple[tuple[str, str], ...] = ()) -> str:
    """Lower-case, full-width to ASCII, ``typos`` fixed (each replaced by a word of the same
    length); the result has the length of ``text``, so spans stay aligned."""
    norm = text.translate(FULLWIDTH_TO_ASCII).lower()
    for typo, word in typos:
        norm = norm.replace(typo, word)
    # a numbered list's markers end a request and are no part of the next one's words (the
    # "1." of "三件事：1.100683到哪了" is not a decimal point before an order number)
    return _LIST_MARKER.sub(lambda m: ";" + " " * (len(m.group(0)) - 1), norm)


# "1) where is 100683 2) refund 100609", "1.100683到哪了 2.退款", "三件事：1.…": a numbered list
_LIST_MARKER = re.compile(
    r"(?<![^\s:,])(?:[1-9][).\uff09\u3001:]|\([1-9]\))(?=\s*[a-z\u4e00-\u9fff]|\d{6}(?!\d))"
    # "①把100904取消 ②问下银行卡退款几天到": circled numbers
    r"|[\u2460-\u2468](?=\s*\S)"
)


def blank(text: str, pattern: re.Pattern[str]) -> str:
    """Replace every match with spaces of the same length (keeps other spans aligned)."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


# --- clauses -------------------------------------------------------------------------------------

# Separators between requests. "还有" is a separator except in "还有货/还有吗/还有没有/还有多少".
SPLIT = rx(
    # ("100904 and 100998": two identifiers of one request, "is there any way to combine 100904
    # and 100998 into one shipment")
    r"\s*(?:,\s*and\b|,\s*also\b|\band also\b|(?<!\d\s)(?<!hundred )(?<!thousand )\band\b"
    r"|(?<!hundred )(?<!thousand )\band\b(?!\s+#?\d)|\balso\b"
    r"|\bplus\b|,?\s*\bthen\b"
    # "cancel 100998 n refund 100609", "track A & cancel B": "and" as customers type it
    r"|(?<=\s)(?:n|&|\+|/|\|)(?=\s)|\bas well as\b"
    # "取消100904和查一下100683物流": "和" before a verb joins two requests, not two things
    r"|(?:和|跟|并)(?=\s*(?:帮我|帮忙|麻烦|请|查|看|问|告诉|顺便|再|也))"
    # "能不能换个快递公司 或者直接退款": "或者" before what the customer would do instead
    r"|\s*(?:或者|要不然|要不)(?=\s*(?:直接|干脆|帮我|给我|就|能不能|可以|我))"
    r"|,?\s*\bbut\b(?=\s+(?:don'?t|do not|not|never|no need to|keep|leave)\b)"
    # "don't cancel 100904, just tell me when 100998 ships": what the customer wants instead
    r"|,\s*(?=(?:just|instead|rather)\s+(?:tell|check|show|track|look|give|send|let|see|find"
    r"|change|update|move|fix)\b)"
    # "refund 100609 but is 100200 refundable too": a question of its own after "but"
    r"|,?\s*\bbut\b(?=\s+(?:is|are|can|could|what|whats|how|where|wheres|when|do|does|will)\b)"
    # "取消100998 但是100904留着", "退100609 不过100200别动": what follows is kept apart
    r"|,?\s*(?:但是|不过|可是)(?=\s*(?:\d{6}|别|不要|不用|先别|保留|留着))"
    r"|(?<=[\u4e00-\u9fff]),\s*(?=[\u4e00-\u9fff])"
    # "转人工，T-000031没人管", "I want a human, T-000031 has had no reply": the person asked
    # for, then what an identifier is about
    r"|(?:(?<=人工|真人|客服)|(?<=human)|(?<=person)|(?<=agent)),\s*"
    r"(?=[a-z]{1,3}-?\d{4,}|\d{6}(?!\d))"
    # "100200退款，100683查一下": an order looked at after a comma is a request of its own (a
    # look; a write after a comma is not split off: its negation or question may sit around it)
    r"|(?<=[款消吧]),\s*(?=#?\d{6}\s*(?:也|再)?\s*(?:查|看|催|到哪|物流))"
    # "帮我看下100998和100683，谢谢啦": thanks after a comma is said apart from the request
    r"|,\s*(?=(?:谢谢|多谢|谢了|感谢)(?:[\s!！~。.啦了哈呀]|$)(?![^,，。]*(?:不用|算了|不要)))"
    # "whats the eta for 100683 and 100998 thx": thanks after an order number, ending the message
    r"|(?<=\d)\s+(?=(?:thx|thanks|thank you|thank u|ty|tks)\W*$)"
    # ", where ..." asks anew, unless it asks about what came before: "my refund, where is it?"
    r"|,\s*(?=(?:where|what|when|how|can|could|is|are|do|does)\b)"
    r"(?!(?:where|what|when|how)(?:'s|\s+is|\s+are)\s+(?:it|that|this|they|them)\b)"
    # "it makes a weird noise, is that normal?": whether what was told is normal, asked of it
    r"(?!is\s+(?:that|this|it)\s+(?:normal|usual|expected)\b)"
    # "cancel 100998, if it hasn't shipped ...": a condition opens a request of its own, and so
    # does the customer speaking of themselves ("..., I have a coupon I want to use", "...,
    # my address changed so ...")
    r"|,\s*(?=if\b)"
    # "refund 100609 please, cancel 100998 too": an action verb after a comma opens its own
    r"|(?<![\d#])\s*,\s*(?=(?:(?:actually|also|and|now|pls|please|then|just|only)\s+)?"
    r"(?:cancel|refund)\b(?!\s+(?:it|that|this|them|one|those|these|both|all|each)\b))"
    r"|(?<=\d),\s*(?=(?:(?:actually|also|and|now|pls|please|then|just|only)\s+)?"
    r"(?:cancel|refund)\s+(?:order\s+)?#?\d)"
    r"|,\s*(?=(?:i|we)\s+(?:have|want|need|would|'d|also|think|just|moved|got|used|wanna)\b"
    r"|(?:my|our)\s+\w+\s+(?:changed|is|was|has|got)\b)"
    # "i moved so update my address": "so" before what the customer asks to be done
    r"|\s+\bso\s+(?=(?:(?:please|pls|plz|can you|could you)\s+)?(?:update|change|send|deliver"
    r"|ship|add|put|move|make|let|give)\b)"
    r"|[?;!。\n]|\.(?=\s|$)"
    r"|,?\s*(?:另外|并且|而且|以及|此外|顺便|顺带|顺手|顺道|然后|同时|对了|最后|其次)"
    # "btw can i ...", "oh and one more thing, ...", "first, ... second, ...", "第一 ... 第二 ..."
    r"|,?\s*\b(?:btw|by the way|one more thing|another thing|last thing|lastly|finally"
    r"|(?<!the )(?<!my )(?<!this )(?<!a )(?:first|second|third|fourth)(?:ly)?"
    r"(?=[,:]|\s+(?:where|what|how|when|which|please|pls|cancel|refund|check)\b))\b"
    r"|(?<!\S)第[一二三四五](?=[\s,:、])"
    r"|,?\s*还有(?![货库存吗么嘛没多少剩的卖现]|几(?!个问题|个事|件事|点))|,\s*再"
    # "帮我取消100904再查下100683物流": "再" after an identifier, before a verb, opens the next
    r"|(?<=\d)\s*再(?=\s*(?:帮我|帮忙|查|看|问|告诉|给我|把|取消|退|改|催|开))"
    # "再把餐具也退了", "再退餐具": "再" opening the message, before a verb, is "also, then"
    r"|^\s*再(?=\s*(?:帮我|帮忙|查|看|问|告诉|给我|把|取消|退|改|催|开))"
    r")\s*"
)
STRIP = " \t,.;:!?。、~…-—\"'()[]「」“”‘’"


def _enumeration_marks(norm: str) -> list[tuple[int, int]]:
    """ "ok: 1 where's the screen protector, 2 I want a human …, 3 is the dinnerware set back":
    the numbers that count the requests off (1, 2, … each opening the message or following
    punctuation; at least two) — "1 pillow and 2 towels" counts things, not requests."""
    marks: list[tuple[int, int]] = []
    at = 0
    for n in range(1, 10):
        found = re.compile(
            rf"(?:^|(?<=[:：,，;；.。!！?？]))\s*{n}\s*[.)、:：]?\s+(?=[^\d\s])"
        ).search(norm, at)
        if found is None:
            break
        marks.append(found.span())
        at = found.end()
    return marks if len(marks) >= 2 else []


def clause_spans(norm: str) -> list[tuple[int, int]]:
    """Spans of the requests in a normalized message."""
    spans: list[tuple[int, int]] = []
    start = 0
    marks = _enumeration_marks(norm)
    separators = sorted(
        [*((m.start(), m.end()) for m in SPLIT.finditer(norm)), *marks], key=lambda s: s[0]
    )
    for sep_start, sep_end in separators:
        if sep_start < start:
            continue  # (overlapping a separator taken already)
        if sep_start > start:
            spans.append((start, sep_start))
        start = sep_end
    if start < len(norm):
        spans.append((start, len(norm)))
    spans = [piece for s, e in spans for piece in split_at_han_spaces(norm, s, e)]
    return [(s, e) for s, e in spans if norm[s:e].strip(STRIP)]


# "羽绒服有货吗 数据线呢", "do you have cables? what about a charger": the request before, asked
# again of something else; the clause names only the new object
FOLLOW_UP = rx(
    # (the lead is punctuation only: \W, read in ASCII, would take in any Chinese words)
    r"^[^\w\u3400-\u9fff]*(?:那|那么|还有|另外)?\s*(?!那|这|你|我|他|她|它)[^\s?]{1,12}?\s*"
    r"(?:呢|怎么样|咋样)"
    + TO_END
    + r"|^\W*(?:and |also |so )?(?:what|how) about (?!(?:it|that|this|them|you|me)\b)\w.{0,40}$"
)

# --- conversation --------------------------------------------------------------------------------

# "你是真人还是AI" / "are you a bot?": a question about the bot, not a request for a person
ARE_YOU_HUMAN = rx(
    r"\b(?:are|r) (?:you|u) (?:a |an )?(?:real |actual )?(?:human|person|bot|robot|ai|machine)\b"
    r"|\bare (?:you|u) real\b"
    r"|\bam i (?:talking|chatting|speaking) (?:to|with) (?:a |an )?(?:real )?"
    r"(?:human|person|bot|robot|ai|machine)\b"
    r"|\bwho (?:are|r) (?:you|u)\b|\bwhat(?:'s| is) your name\b"
    r"|真人还是|是不是真人|是真人吗|是机器人|是不是机器人|机器人吗|是ai|是不是ai|人工智能吗"
    r"|人工还是(?:智能|机器|ai)|还是智能客服|是智能客服吗"
    r"|你是谁|你叫什么|你们是人|你是人吗|是人工(?:客服)?(?:吗|嘛|么)|是不是人工"
    # "你到底是不是人啊", "你是人是机器": the person asked about, not a person asked for
    r"|你(?:们)?(?:到底|究竟)?是不是(?:个|真)?人(?!工|家)|你(?:到底)?是人(?:还)?是(?:机器|ai)"
    r"|\bam i (?:talking|chatting|speaking) (?:to|with) (?:an? )?(?:agent|representative)\b"
    # "who am I talking to, a bot or a human", "is this a bot or a real person?"
    r"|\bwho am i (?:talking|chatting|speaking) (?:to|with)\b"
    r"|\b(?:an? )?(?:bot|robot|ai|machine) or (?:a |an )?(?:real )?(?:human|person)\b"
    r"|\b(?:an? )?(?:real )?(?:human|person) or (?:an? )?(?:bot|robot|ai|machine)\b"
    # "what can you do?", "你能干什么": what the bot is for (its reply says) — not "what can you
    # do about my parcel"
    r"|\bwhat (?:can|do) (?:you|u) (?:do|help(?: me)? with)(?: for me)?\s*(?:[?？.!]|$)"
    r"|你(?:都|到底)?(?:能|会|可以)(?:帮我)?(?:干|做|办)?(?:些)?(?:什么|啥)(?:呀|啊|呢)?"
    r"\s*(?:[?？。!！]|$)"
)
HOTLINE = rx(
    r"\b(?:hotline|(?:your|the|customer service|support|contact) (?:phone |telephone )?number"
    r"|call (?:you|u|your)\b(?! back)|customer (?:service|support) (?:line|phone))"
    r"|\b(?:a |any |some )?(?:phone )?number (?:i|we) (?:can|could) (?:call|ring|phone)\b"
    r"|\bcan i (?:call|phone|ring) (?:you|u|someone|somebody)\b|\bon the phone\b"
    r"|客服电话|热线|客服号码|联系方式|(?:你们|客服)(?:的)?(?:电话|号码)|有没有电话可以打"
    r"|(?<!我的)电话(?:是)?(?:多少|几号)|有没有\S{0,4}(?:电话|热线)"
    # "给个电话就行 我晚上自己打": a number to call, asked for
    r"|(?:给|留|发)(?:我)?(?:个|一个)(?:客服)?(?:电话|号码)(?!给)"
)
GOODBYE = rx(
    r"^\W*(?:bye|bye bye|byebye|goodbye|good bye|see (?:you|ya)|cya|good night|that'?s all)\b"
    r"|\bhave a (?:nice|good|great) (?:day|one|evening|night|weekend)\b"
    r"|\b(?:that'?s|thats) all i (?:needed|wanted|need)\b"
    r"|\b(?:ok |okay )?(?:bye|goodbye|good bye|cya|see ya)\W*$"
    r"|\bbye for now\b|\bzai ?jian\b"
    r"|再见|拜拜|^[^\w\u3400-\u9fff]*(?:88|886|8888)[^\w\u3400-\u9fff]*$|回头见|下次见|先这样"
)
GREETING = rx(
    r"^\W*(?:hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening)|greetings|yo)\b"
    # "happy halloween 🎃", "merry christmas!", "新年快乐": a season's greeting
    r"|^\W*(?:happy (?:halloween|new year|holidays|thanksgiving|christmas|easter|friday|weekend)"
    r"|merry christmas|season'?s greetings)\b"
    r"|^\W*(?:新年|节日|圣诞|中秋|国庆|元旦|春节)快乐"
    r"|你好|您好|嗨|哈喽|哈啰|在吗|在不在|早上好|下午好|晚上好|早安|有人吗|有没有人(?:在)?|有人在"
)
THANKS = rx(
    r"\b(?:thanks|thank you|thank u|thx|ty|cheers|appreciate it|much appreciated)\b"
    # "I really appreciate you sorting out the whole mess"
    r"|\bi (?:really |truly |do )?appreciate (?:you|your|all|it)\b"
    r"|谢谢|多谢|感谢|谢了|谢啦|谢咯|谢谢啦|辛苦了|3q"
)


# --- answers to a yes/no question ----------------------------------------------------------------

YES_START = rx(
    r"^(?:yes|yeah|yep|yup|y|sure|ok|okay|confirm(?:ed)?|go ahead|do it|please do|correct|right|"
    r"absolutely|of course|proceed|affirmative|just do it|just go ahead)\b"
    r"|^(?:是的|是|对的|对|好的|好吧|好|确认|确定|可以|行|没问题|嗯+|同意|继续|要的|ok)"
)
NO_ANY = rx(
    r"\b(?:no|nope|nah|don'?t|do not|never ?mind|nvm|not now|stop|forget it|wait)\b"
    r"|不用|不要|不需要|算了|别|先不|不了|不取消|不退|否|不是|不对|等等|等一下"
)
NO_WHOLE = rx(r"^(?:no|n|nope|nah|cancel|cancel it|cancel that|取消|取消吧|不|否|不对)$")
# "wait, which order is that?": a pause before answering, a no only with no question after it
WAIT = rx(r"\b(?:wait|hold on|hang on)\b|等等|等一下")
# The whole message is a yes and nothing else: the only answer that runs an action.
YES_ONLY = rx(
    r"^(?:(?:yes|yeah|yep|yup|y|sure|ok|okay|confirm(?:ed)?|go ahead|do it|please do|correct|"
    r"absolutely|of course|proceed|affirmative|yes please|please|i confirm|that'?s right"
    # "sure why not", "alright go ahead", "sounds good": a yes as people say it
    r"|alright|all right|why not|sounds good|go for it|let'?s do it|sure thing"
    r"|just do it|just go ahead|do it now|go ahead and do it"
    # "yeah go on then", "fine, go ahead": "fine" and "then" only beside another yes
    r"|go on|(?<=\s)then|fine(?=[\s,.!]+(?:go ahead|do it|proceed|yes|ok|okay|go on))"
    r"|是的|是|对的|对|好的|好吧|好|确认|确定|可以|行|没问题|嗯+|同意|继续|要的|ok的|确认取消|确认退款"
    r"|就这样|就这么办|办吧|取消吧|退吧|退款吧|退掉吧?|行吧|好嘞|好滴|没错|可以的"
    # "那就退吧", "那就这样吧": then, yes
    r"|那(?:就)?(?:退|退款|取消|办|这么办)吧?)[\s,.!，。！~]*)+$"
)
# "yes?", "是吗", "really?": a question, not an answer
QUESTION_MARK = re.compile(r"[?？\u2753\u2754\U0001F914]|吗|\breally\b|\bsure\?", re.IGNORECASE)
AFTER_ALL = rx(r"还是|after all|actually do\b|on second thought")
# "不对，我是说100904" / "no, I meant 100904": the customer corrects what was asked
CORRECTION = rx(
    r"\bi mean|\bi meant|\bi said|\bshould be\b|\binstead\b"
    # "actually make it 100609": another subject, by its identifier
    r"|\b(?:make|change) (?:it|that) (?:to |for |into )?(?:order\s*)?#?(?=\d{5,})"
    r"|我是说|我说的是|应该是|是指|我指的是|换成|改成"
    # "说错了，是100609", "my bad, 100609": the one said before was a slip
    r"|说错了|搞错了|弄错了|写错了|打错了|输错了|\bmy bad\b|\btypo\b|\bwrong (?:one|number|order)\b"
)
# "not all of it": the customer wants part of the amount, not nothing
NOT_ALL = rx(
    r"\bnot (?:all|the (?:whole|full|entire))\b|\bnot everything\b"
    r"|不要全部|不用全部|不全退|不用全退|不要全退|别全退|不要全额|不用全额|不全部"
)
BUT = rx(r"^(?:but|however|though|just|only|although|and|,|，|但是?|不过|只|就)\s*")
ACK_WHOLE = rx(
    # said once or repeated ("好的好的", "ok ok"), never two different words ("哦不对")
    r"^(?P<ack>(?:yes|yeah|yep|sure|ok|okay|k|fine|got it|i see|alright|all right|no|nope|nah|"
    r"no thanks|not now|好|好的|好吧|行|嗯+|哦+|噢|知道了|明白了|了解|收到|ok的|可以"
    r"|是|是的|对|对的"
    r"|确认|确定|没问题|不|否|不要|不要了|不用取消|不要取消|别取消"
    r"|不用了?|不需要了?|没有了?|(?:那|那就)?算了吧?|没事了?|不了"
    # "哈哈好的", "哦哦原来如此", "i see, makes sense": the answer taken in
    r"|(?:哈哈+|嘿嘿|哦+|噢+|嗯+)\s*(?:好的|好|行|知道了|明白了|原来如此|这样啊|了解)?|原来如此|原来是这样"
    r"|(?:ok |okay |ah |oh )?(?:makes sense|i see|got it|understood|fair enough|cool|great"
    r"|perfect|nice)))(?:[\s,.!，。！~]*(?P=ack)){0,2}[\s,.!，。！~]*$"
)
CONFIRM_WORD = rx(
    r"^(?:confirm(?:ed)?|i confirm|go ahead|do it|proceed"
    r"|确认|确定|确认取消|确认退款|办吧|就这么办)$"
)
PARTICLES = rx(r"(?:,|\s)*(?:please|thanks|thank you|谢谢|吧|啊|呀|哦|哈)$")

# Assent emoji may trail a yes ("好的👌"); any other emoji leaves the answer unclear.
EMOJI = re.compile(
    r"[\U0001F44D\U0001F44C\u2705\U0001F642\U0001F60A\U0001F64F\U0001F44F\u263A\uFE0F]"
)


def bare(norm_clause: str) -> str:
    """A clause without emoji, punctuation and trailing particles ("好的吧!" -> "好的")."""
    text = EMOJI.sub("", norm_clause).strip(STRIP)
    previous = None
    while previous != text:
        previous = text
        text = PARTICLES.sub("", text).strip(STRIP)
    return text
