"""What a customer says beside a plain yes to the bot's yes/no question that is not a request of
its own: a closing threat ("do it otherwise I'll complain", "确认 不然我投诉你们": what they will
do if the bot does not act — never a reason to file a complaint in place of what was asked) and
what thanks are for ("yes, thanks for sorting the thermos": the thanks, not a look at the
thermos's order that leaves the action asked about behind).

Only a plain yes keeps its aside off: anything else beside it — a hold, a change, another order,
an amount, a second request, a question ("yes or wait, I'd rather report it first", "好 要不
算了 我去投诉", "yes thanks for the info but dont do it yet") — leaves the message whole, read as
it was."""

from __future__ import annotations

from helpdesk.graph.conversation import rx

__all__ = ["without_asides"]

_PLAIN_YES = (
    r"\W*(?:yes|yeah|yep|yup|ok|okay|sure|do it|go ahead|please do|confirm(?:ed)?|just do it"
    r"|确认|好的?|可以|行|是的?|嗯|对|快点|赶紧)\W*"
)
# "… otherwise I'll complain", "… 不然我投诉你们": the threat alone, nothing else said in it
_THREAT = rx(
    r"^(" + _PLAIN_YES + r")(?:\b|(?<=\W))\s*(?:otherwise|or else|否则|不然(?:的话)?|要不然)"
    r"\s*[,，]?\s*(?:i'?ll|i will|i'?m going to|i'?m gonna|i'?m|we'?ll|我就?|我要|我会|我)?\s*"
    r"(?:(?:file|filing|make|making|leave|leaving|write|writing|lodge|open|opening) (?:a |an )?)?"
    r"(?:complain(?:t|ing)?|report(?:ing)?"
    r"|(?:bad |negative |1[- ]star )?review|dispute|chargeback|sue you|escalate|投诉(?:你们)?"
    r"|给差评|差评|举报(?:你们)?|曝光(?:你们)?|打12315|找消协|起诉(?:你们)?)"
    r"(?: (?:you|it|this|to your manager))?\s*[.!。！~]*\s*$"
)
# "yes, thanks for sorting the thermos": what the thanks are for, in plain words and nothing
# else (no comma, no number, no hold or change)
_THANKS_FOR = rx(
    r"^(" + _PLAIN_YES + r"(?:and\s+|then\s+)?(?:thanks|thank you|thx|ty))(?:\s+(?:so much|a lot))?"
    r"\s+(?:for|about)\s+(?!(?:[a-z' ]*\s)?(?:but|not|don'?t|dont|instead|wait|keep|also|and|rather"
    r"|later|first|yet|nothing|asking|checking|warning)\b)[a-z' ]{1,40}[.!~]*\s*$"
)


def without_asides(text: str) -> str:
    """The plain yes of ``text`` when what follows it is only a threat or what thanks are for;
    ``text`` unchanged otherwise."""
    found = _THREAT.match(text) or _THANKS_FOR.match(text)
    return found.group(1) if found is not None else text
