"""The offline tier's trained classifier (graph/text_classifier.py) and the shop's clause model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpdesk.graph.text_classifier import TextClassifier, text_features
from helpdesk.packs.shop.clause_model import (
    MIN_CONFIDENCE,
    MODEL_PATH,
    READ_LABELS,
    clause_features,
    load_model,
    read_clause,
)


def test_features_are_words_and_pairs_in_latin_and_characters_and_pairs_in_chinese() -> None:
    found = text_features("Where's my Parcel 退款多少")
    assert {"where's", "my", "parcel", "where's my", "my parcel"} <= found
    assert {"退", "款", "多", "少", "退款", "款多", "多少"} <= found
    # a Chinese run breaks the Latin word pairs
    assert "parcel 退款" not in found and "my 退" not in found


def test_placeholders_make_identifiers_the_same_evidence() -> None:
    order = (re.compile(r"\d{6}"), "zzorder")
    assert text_features("where is 100683", [order]) == text_features("where is 100904", [order])
    assert "zzorder" in clause_features("100683到哪了")
    assert "zzsku" in clause_features("is SKU-1001 in stock")
    assert "zztracking" in clause_features("YT9433239273")


def _toy() -> TextClassifier:
    return TextClassifier.train(
        [
            (text_features("where is my parcel"), "tracking"),
            (text_features("where is my order"), "tracking"),
            (text_features("how much is the kettle"), "product"),
            (text_features("do you have the kettle"), "product"),
        ]
    )


def test_the_label_with_the_most_evidence_wins_with_a_confidence_between_0_and_1() -> None:
    model = _toy()
    prediction = model.predict(text_features("where is my kettle parcel"))
    assert prediction.label == "tracking"
    assert 0.5 < prediction.confidence <= 1.0
    assert prediction.evidence == len(text_features("where is my kettle parcel") & model.vocabulary)
    assert model.predict(text_features("how much is it")).label == "product"


def test_unknown_words_are_no_evidence_and_leave_the_prior() -> None:
    prediction = _toy().predict(text_features("zebra xylophone"))
    assert prediction.evidence == 0
    assert prediction.confidence == pytest.approx(0.5)


def test_the_model_round_trips_through_json_byte_for_byte() -> None:
    model = _toy()
    again = TextClassifier.from_json(model.to_json())
    assert again.to_json() == model.to_json()
    features = text_features("where is my parcel")
    assert again.predict(features) == model.predict(features)


@pytest.mark.parametrize(
    "bad",
    [
        "not json",
        "[]",
        '{"format": "other"}',
        '{"format": "helpdesk-naive-bayes/1", "labels": {}}',
        '{"format": "helpdesk-naive-bayes/1", "labels": {"a": 0}, "features": {}}',
        '{"format": "helpdesk-naive-bayes/1", "labels": {"a": "x"}, "features": {}}',
        '{"format": "helpdesk-naive-bayes/1", "labels": {"a": 1}, "features": {"a": 3}}',
        '{"format": "helpdesk-naive-bayes/1", "labels": {"a": 1}, "features": {}, "alpha": -1}',
    ],
)
def test_a_broken_model_file_is_a_clear_error(bad: str) -> None:
    with pytest.raises(ValueError, match="model"):
        TextClassifier.from_json(bad)


def test_the_shipped_model_is_installed_and_reads_questions_confidently() -> None:
    assert MODEL_PATH.exists()
    assert load_model() is not None
    reading = read_clause("how many days to deliver to Kunming?")
    assert reading is not None and reading.label == "faq:delivery_times"
    assert reading.confidence >= MIN_CONFIDENCE


@pytest.mark.parametrize(
    "text",
    ["please cancel it", "refund me now", "I want to talk to a person", "取消订单", "帮我退款"],
)
def test_the_model_never_returns_an_action(text: str) -> None:
    reading = read_clause(text)
    assert reading is None or reading.label in READ_LABELS


def test_the_shipped_model_is_what_the_labelled_set_trains() -> None:
    """The model is reproducible from the tuned part of the set (retrain after changing it:
    ``python -m tests.conversations.train_clause_model``)."""
    from tests.conversations.labels import load_set
    from tests.conversations.train_clause_model import examples, train

    assert train(examples(load_set())).to_json() == MODEL_PATH.read_text(encoding="utf-8")


def test_a_broken_shipped_model_is_logged_and_the_templates_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from helpdesk.packs.shop import clause_model

    broken = tmp_path / "clause_model.json"
    broken.write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(clause_model, "MODEL_PATH", broken)
    clause_model.load_model.cache_clear()
    try:
        assert clause_model.load_model() is None
        assert "clause model not used" in caplog.text
        assert clause_model.read_clause("how many days to deliver to Kunming?") is None
    finally:
        clause_model.load_model.cache_clear()
