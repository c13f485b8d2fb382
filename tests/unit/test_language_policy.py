"""The language policy: the reply follows the message; a message without a language follows the
session, then the profile; an explicit request switches the session; other languages get a
short answer in a supported one."""

from __future__ import annotations

from typing import Any

import pytest

from helpdesk.graph.intents import BRIEF, Intent
from helpdesk.graph.language import reply_language, requested_language, unsupported_language
from helpdesk.packs import default_packs
from helpdesk.packs.shop.intents import ShopIntent as SI
from tests.shop_view import ShopView, read

SHOP = default_packs()


def match_intents(text: str, **kw: Any) -> list[ShopView]:
    return read(text, **kw)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("can you reply in English please?", "en"),
        ("English please", "en"),
        ("可以用英文回复吗", "en"),
        ("说中文", "zh"),
        ("please answer in Chinese", "zh"),
        ("用中文回答", "zh"),
        ("where is my order", None),
        ("我的订单到哪了", None),
        ("is the english manual included?", None),
    ],
)
def test_requested_language(text: str, lang: str | None) -> None:
    assert requested_language(text) == lang


@pytest.mark.parametrize(
    ("text", "chosen", "session", "profile", "lang"),
    [
        ("where is 100683?", None, "zh", "zh", "en"),  # the message's own language first
        ("100683到哪了", None, "en", "en", "zh"),
        ("100683", None, "en", "zh", "en"),  # no language: the session
        ("100683", None, None, "zh", "zh"),  # no session yet: the profile
        ("😡😡😡", None, None, "zh", "zh"),
        ("100683", None, None, None, "en"),
        ("can you reply in English please?", None, "zh", "zh", "en"),  # a request wins
        ("100683到哪了", "en", "en", "zh", "en"),  # and stays for the session
        ("说中文", "en", "en", "en", "zh"),  # until the customer asks again
        ("注文はどこですか", None, "en", "zh", "en"),  # Japanese: the session's language
        ("Где мой заказ?", None, None, "zh", "zh"),  # Russian: the profile's
    ],
)
def test_reply_language(
    text: str, chosen: str | None, session: str | None, profile: str | None, lang: str
) -> None:
    assert reply_language(text, chosen=chosen, session=session, profile=profile) == lang


@pytest.mark.parametrize(
    "text",
    [
        "注文はどこですか",
        "주문 어디 있어요?",
        "Где мой заказ?",
        "hola, donde esta mi pedido 100683",
        "où est ma commande 100683 ?",
        "wo ist meine Bestellung 100683",
        "Konnichiwa, chuumon wa doko desu ka",
    ],
)
def test_another_language_is_told_which_languages_are_supported(text: str) -> None:
    assert unsupported_language(text)
    found = match_intents(text)
    assert [(m.intent, m.details) for m in found] == [(Intent.LANGUAGE, "unsupported")]


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("can you reply in English please?", Intent.LANGUAGE),
        ("说中文", Intent.LANGUAGE),
        ("你们客服电话多少", Intent.HOTLINE),
        ("有没有电话可以打", Intent.HOTLINE),
        ("what's your customer service phone number?", Intent.HOTLINE),
        ("can I call you guys", Intent.HOTLINE),
        ("bye", Intent.GOODBYE),
        ("拜拜", Intent.GOODBYE),
        ("am I talking to a robot", Intent.IDENTITY),
        ("你们是机器人吗", Intent.IDENTITY),
        ("who are you", Intent.IDENTITY),
    ],
)
def test_conversation_intents(text: str, intent: Intent) -> None:
    assert [m.intent for m in match_intents(text)] == [intent]


def test_a_phone_product_is_not_a_hotline_question() -> None:
    assert [m.intent for m in match_intents("do you have a phone case?")] == [SI.STOCK]


def test_a_goodbye_with_a_request_answers_the_request() -> None:
    found = match_intents("where is 100683? bye")
    assert [(m.intent, m.details) for m in found] == [(SI.TRACKING, ""), (Intent.GOODBYE, BRIEF)]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("你们有英文说明书吗", None),  # a question about a manual, not a request
        ("我英语说得不好，用中文吧", "zh"),
        ("不要用英文回复", None),
        ("别说英文", None),
        ("reply in English... actually no, 说中文", "zh"),  # the last request counts
    ],
)
def test_language_requests_are_read_carefully(text: str, lang: str | None) -> None:
    assert requested_language(text) == lang


@pytest.mark.parametrize(
    "text",
    [
        "100683到哪了 Σ(っ °Д °;)っ",
        "我の订单100683到哪了",
        "My name is Ольга, where is 100683?",
        "where is 100683? Спасибо",
        "gracias! where is 100683",
        "I want to cancel ma order 100904",
        "what's the ETA of order 100683, EST please",
    ],
)
def test_a_few_characters_of_another_script_do_not_make_a_message_unsupported(text: str) -> None:
    assert not unsupported_language(text)


def test_a_language_request_with_a_request_keeps_the_request() -> None:
    # the request is read, and the switch beside it is acknowledged (session 10: "please reply
    # in English ... where's my order 100998" answered the order and said nothing of the switch)
    assert [m.intent for m in match_intents("I want to speak to a human in English")] == [
        SI.HANDOFF,
        Intent.LANGUAGE,
    ]


def test_a_latin_ok_in_a_chinese_session_stays_chinese() -> None:
    assert reply_language("ok", chosen=None, session="zh", profile="zh") == "zh"
    assert reply_language("thx!", chosen=None, session="zh", profile="en") == "zh"
    assert reply_language("ok", chosen=None, session=None, profile="zh") == "en"
    assert (
        reply_language("Ｗｈｅｒｅ　ｉｓ　１００６８３", chosen=None, session="zh", profile="zh")
        == "en"
    )
