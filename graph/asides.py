"""What a customer says beside an answer to the bot's yes/no question that is not a request of
its own: a closing threat ("do it otherwise I'll complain", "确认 不然我投诉你们": what they will
do if the bot does not act — never a reason to file a complaint in place of what was asked) and
what thanks are for after a yes ("yes, thanks for sorting the thermos": the thanks, not a look at
the thermos's order that leaves the action asked about behind)."""

from __future__ import annotations

from helpdesk.graph.conversation import rx

__all__ = ["without_asides"]

_THREAT_IF_NOT = rx(
    r"[\s,，.。!！;；]*(?:\b(?:otherwise|or else|else|if not|or)\b|否则|不然|要不然|要不)"
    r"[^.!?。！？]{0,40}?(?:\bcomplain|\breport|\breview|\bdispute|\bchargeback|\bsue\b"
    r"|\blawyer|\bescalate|投诉|差评|举报|曝光|12315|消协|起诉|告你)[^.!?。！？]*[.!?。！？~]*\s*$"
)
_THANKS_FOR_AFTER_A_YES = rx(
    r"^(\W*(?:yes|yeah|yep|yup|ok|okay|sure|go ahead|please do|好的?|可以|行|确认|是的?)"
    r"[\s,，.。!！~]*(?:and\s+|then\s+)?(?:thanks|thank you|thx|ty|谢谢|多谢|感谢))"
    r"(?:\s+(?:so much|a lot))?\s+(?:for|about)\b[^.!?。！？]*[.!?。！？~]*\s*$"
)


def without_asides(text: str) -> str:
    """``text`` without a closing threat, and a yes's thanks without what they are for;
    unchanged when the aside is all it says."""
    found = _THREAT_IF_NOT.search(text)
    if found is not None and text[: found.start()].strip():
        text = text[: found.start()]
    thanks = _THANKS_FOR_AFTER_A_YES.match(text)
    return thanks.group(1) if thanks is not None else text
