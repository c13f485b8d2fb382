"""The engine's own reading, with no pack that brings a template matcher (e.g. only the loyalty
pack): answers to the bot's question, the conversation intents, and UNKNOWN for the packs'
patterns to claim — the same confirmation reader the shop's matcher uses."""

from __future__ import annotations

import pytest

from helpdesk.examples.loyalty import loyalty_pack
from helpdesk.graph.capabilities import match_packs, merge_matches
from helpdesk.graph.intents import Intent, MatchedIntent, match_intents
from helpdesk.tools.packs import PackSet

LOYALTY = PackSet([loyalty_pack()])


def read(text: str, *, awaiting: bool = False) -> list[MatchedIntent]:
    return match_intents(text, packs=LOYALTY, awaiting_confirmation=awaiting)


def test_no_pack_brings_a_matcher_here() -> None:
    assert all(pack.matcher is None for pack in LOYALTY)


@pytest.mark.parametrize("text", ["yes", "是的", "确认", "ok", "好的👌"])
def test_an_unqualified_yes_confirms(text: str) -> None:
    assert [m.intent for m in read(text, awaiting=True)] == [Intent.CONFIRM_YES]


@pytest.mark.parametrize("text", ["no", "算了", "不用了", "nope, never mind"])
def test_a_no_declines(text: str) -> None:
    assert [m.intent for m in read(text, awaiting=True)] == [Intent.CONFIRM_NO]


def test_a_yes_that_changes_the_amount_is_asked_again() -> None:
    (answer,) = read("yes but only 100", awaiting=True)
    assert (answer.intent, answer.amount_kind, answer.amount) == (
        Intent.CONFIRM_CHANGE,
        "exact",
        100.0,
    )


@pytest.mark.parametrize("text", ["yes?", "是吗"])
def test_a_questioning_yes_runs_nothing(text: str) -> None:
    assert [m.intent for m in read(text, awaiting=True)] == [Intent.CONFIRM_UNCLEAR]


def test_without_a_question_open_a_yes_is_an_acknowledgement() -> None:
    (ack,) = read("ok")
    assert (ack.intent, ack.details) == (Intent.THANKS, "ack")


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("hi", Intent.GREETING),
        ("thanks!", Intent.THANKS),
        ("bye", Intent.GOODBYE),
        ("你是机器人吗", Intent.IDENTITY),
        ("客服电话多少", Intent.HOTLINE),
        ("reply in English please", Intent.LANGUAGE),
        ("what's the weather like", Intent.UNKNOWN),
    ],
)
def test_conversation_intents(text: str, intent: Intent) -> None:
    assert [m.intent for m in read(text)] == [intent]


def test_unsupported_language_is_said_to_be_unsupported() -> None:
    (only,) = read("ポイントはいくつありますか")
    assert (only.intent, only.details) == (Intent.LANGUAGE, "unsupported")


def test_the_packs_patterns_claim_what_the_engine_could_not_read() -> None:
    text = "how many points do I have?"
    merged = merge_matches(read(text), match_packs(text, "en", {}, LOYALTY), LOYALTY)
    assert [(m.intent, m.capability) for m in merged] == [(Intent.PACK, "points_balance")]


def test_a_stored_task_rebuilds_its_request_arguments_only() -> None:
    from helpdesk.graph.intents import plain_match
    from helpdesk.graph.planning import match_from_task
    from helpdesk.graph.state import Task

    asked = MatchedIntent(
        Intent.PACK, text="convert 500", lang="en", capability="convert_points", args={"points": 5}
    )
    stored = Task(id="t1-0", intent="convert_points", match={**plain_match(asked), "reasked": True})
    assert match_from_task(stored) == asked  # the turn's marker is not an argument
    # stored by an older version: the capability as the intent, its id beside the fields
    fields = {"intent": "refund", "text": "t", "lang": "en", "order_id": "100609", "reasked": True}
    old = Task(id="t1-0", intent="refund", match=fields)
    rebuilt = match_from_task(old)
    assert (rebuilt.intent, rebuilt.capability, rebuilt.args) == (
        Intent.PACK,
        "refund",
        {"order_id": "100609"},
    )


def test_a_changed_argument_in_the_stored_request_wins() -> None:
    # "no, I meant 100200": planning rewrites the flat copy the planner reads
    from helpdesk.graph.intents import plain_match
    from helpdesk.graph.planning import match_from_task
    from helpdesk.graph.state import Task

    asked = MatchedIntent(
        Intent.PACK, text="refund", lang="en", capability="refund", args={"order_id": "100609"}
    )
    changed = {**plain_match(asked), "order_id": "100200", "reasked": True}
    rebuilt = match_from_task(Task(id="t2-0", intent="refund", match=changed))
    assert rebuilt.args == {"order_id": "100200"}


@pytest.mark.parametrize("text", ["嗯……", "ok...", "yes…", "hmm", "emmm", "maybe", "我再想想"])
def test_a_hesitation_is_no_yes(text: str) -> None:
    (answer,) = read(text, awaiting=True)
    assert (answer.intent, answer.details) == (Intent.CONFIRM_UNCLEAR, "hesitant")


@pytest.mark.parametrize(
    "text", ["sure why not", "alright go ahead", "那就退吧", "行吧", "好嘞", "嗯嗯"]
)
def test_a_yes_as_people_say_it_confirms(text: str) -> None:
    assert [m.intent for m in read(text, awaiting=True)] == [Intent.CONFIRM_YES]


@pytest.mark.parametrize("text", ["wait, cancel that", "cancel that", "forget it"])
def test_calling_it_off_is_a_plain_no(text: str) -> None:
    (answer,) = read(text, awaiting=True)
    assert (answer.intent, answer.details) == (Intent.CONFIRM_NO, "")


@pytest.mark.parametrize(("text", "ack"), [("好的好的", True), ("ok ok", True), ("哦不对", False)])
def test_an_acknowledgement_said_twice_is_one(text: str, ack: bool) -> None:
    (first, *_) = read(text)
    assert (first.intent is Intent.THANKS) is ack


def test_both_is_no_yes_when_not_several_actions_wait() -> None:
    # "refund 300 on 100200" -> "both": nothing of two was asked (session 16 review)
    assert [m.intent for m in read("yes both", awaiting=True)] == [Intent.CONFIRM_UNCLEAR]
