"""A yes to the bot's question put off ("yes 50 but dont refund yet", "好的，先别退", "no wait,
don't. I'll give it two more days"): a no for now — nothing runs, nothing stays waiting."""

from __future__ import annotations

from helpdesk.graph.conversation import AFTER_ALL, rx

__all__ = ["called_off", "puts_off"]

_NOT_YET = rx(
    r"\b(?:don'?t|dont|do not|not|no)\s+(?:(?:refund|cancel|process|submit|file|send|do|run)"
    r"(?:\s+(?:it|that|this|them|anything))?|go ahead|yet)\s+(?:yet|for now|just yet|right now"
    r"|until|till|today)\b|(?<!don't )(?<!dont )(?<!not )\bhold off\b(?! on)"
    r"|^\W*(?:(?:yes|yeah|ok|okay|sure|fine)\W*)?(?:but\W*)?not (?:yet|just yet|now)\W*$"
    r"|先别(?=退|取消|处理|提交|办|操作|申请)|先不要?(?=退|取消|处理|提交|办|操作|申请|了\W*$)"
    r"|暂时(?:先)?(?:别|不要?)(?=退|取消|处理|提交|操作)"
    r"|(?:晚点|过几天|以后|回头|改天|明天)再(?:退|取消|处理|说|弄|提交|申请)"
    # "no wait, don't. I'll give it two more days", "我再等等", "再等两天看看": waiting instead
    r"|\bi'?ll (?:give it|wait)\b[^.?!]{0,20}\b(?:days?|week|while|bit)\b|\blet me wait\b"
    r"|(?:我|那我|那就)?再等(?:等|几天|两天|一下|一天|一周|一阵)"
)
"""A yes put off ("yes 50 but dont refund yet", "好的，先别退"): a no for now, nothing changed."""
_OTHERS_PUT_OFF = rx(r"其他|别的|其余|其它|剩下|\b(?:anything|everything) else\b|\bthe rest\b")
"""What is put off is something else ("好的，其他的先不要了", "好，退吧，其他的以后再说")."""
_ACTION_PUT_OFF = rx(r"refund|cancel|\bdo (?:it|that|this)\b|process|submit|退|取消|处理|提交|办")
_HOLD_OFF_NEGATED = rx(
    r"\b(?:no|not|don'?t|dont|never|without|no point|no need)\b[^.,;!?]{0,16}\bhold off"
)


def puts_off(plain: str) -> bool:
    """Whether an answer (bare, normalized words) puts the action asked about off; "hold on,
    don't do it yet, the rest can wait" / "好的，先不要退，剩下的再说" put the action itself off,
    whatever else is; "好的，其他的先不要了" only the rest (not this)."""
    found = _NOT_YET.search(plain)
    if found is None or AFTER_ALL.search(plain) or _HOLD_OFF_NEGATED.search(plain):
        return False
    return bool(
        _ACTION_PUT_OFF.search(plain[found.start() : found.end() + 3])
        or not _OTHERS_PUT_OFF.search(plain)
    )


_CALLED_OFF = rx(
    r"\b(?:no|nope|nah|not|don'?t|dont|stop|forget|never ?mind|wait|hold on|scrap|drop)\b"
    r"|不|别|算了|等等|等一下|先|停|撤"
)
_CANCEL_WORD = rx(r"\bcancel\w*\b|取消")
_ASKED = rx(r"[?？]|吗|么|呢")


def called_off(text: str) -> bool:
    """Whether a message that moved on from a question calls something off ("取消退款",
    "cancel that request", "no wait, don't", "算了"): "cancel"/"取消" only when not asked about
    ("if I cancel it can I still buy the air fryer later?" calls nothing off)."""
    norm = text.lower()
    return bool(_CALLED_OFF.search(norm) or (_CANCEL_WORD.search(norm) and not _ASKED.search(norm)))
