"""Train the shop's clause classifier from the labelled set, reproducibly, and report it.

``python -m tests.conversations.train_clause_model`` (from the repository root) writes
``packs/shop/clause_model.json`` from the *tuned* part of the set only: held-out items, the
sealed batch and anything else never tuned on stay out, so their figures still say how the bot
does on unseen messages. Training is a count (naive Bayes): the same set gives the same bytes,
which ``test_clause_model.py`` checks.

Examples: a message with one labelled request is one example (its whole text); a message whose
clauses (the matcher's own splitting) are as many as its requests gives one example per clause,
in order; other messages are left out. The label is the first intent the request names (``stock``
counts as ``product``; an FAQ request is ``faq:<topic>``).

``--report`` prints 5-fold cross-validated accuracy on the tuned part for each confidence
threshold (how many read-labelled predictions are kept, and how many of those are right) and the
accuracy on the held-out part (a figure only: it never chooses anything).
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from helpdesk.graph.conversation import clause_spans, normalize
from helpdesk.graph.text_classifier import TextClassifier
from helpdesk.packs.shop.clause_model import (
    MIN_CONFIDENCE,
    MIN_EVIDENCE,
    MODEL_PATH,
    READ_LABELS,
    clause_features,
)
from tests.conversations.labels import Expected, LabelledSet, Turn, held_out, load_set

__all__ = ["Example", "examples", "main", "train"]


@dataclass(frozen=True)
class Example:
    item_id: str
    text: str
    label: str


def _label(request: Sequence[Expected]) -> str | None:
    first = request[0]
    intent = first.intents[0]
    if intent == "stock":
        return "product"
    if intent == "faq":
        return f"faq:{first.topic}" if first.topic else None
    return intent


def _turn_examples(turn: Turn) -> Iterable[Example]:
    labels = [_label(request) for request in turn.tasks]
    if len(labels) == 1:
        if labels[0] is not None:
            yield Example(turn.id, turn.text, labels[0])
        return
    spans = clause_spans(normalize(turn.text))
    if len(spans) != len(labels):
        return
    for (start, end), label in zip(spans, labels, strict=True):
        if label is not None:
            yield Example(turn.id, turn.text[start:end], label)


def _turns(labelled: LabelledSet) -> Iterable[Turn]:
    yield from labelled.messages
    for conversation in labelled.conversations:
        yield from conversation.turns


def examples(labelled: LabelledSet, *, held: bool = False) -> list[Example]:
    """The tuned part's examples (``held=True``: the held-out part's, for the report)."""
    return [
        example
        for turn in _turns(labelled)
        if held_out(turn.id) == held
        for example in _turn_examples(turn)
    ]


def train(items: Iterable[Example]) -> TextClassifier:
    return TextClassifier.train((clause_features(e.text), e.label) for e in items)


def _fold(item_id: str, folds: int) -> int:
    return int(hashlib.sha256(f"fold:{item_id}".encode()).hexdigest(), 16) % folds


def _kept(model: TextClassifier, test: Sequence[Example], threshold: float) -> tuple[int, int]:
    """(kept, right): read-labelled predictions at or above ``threshold``, and the right ones."""
    kept = right = 0
    for example in test:
        prediction = model.predict(clause_features(example.text))
        if (
            prediction.label in READ_LABELS
            and prediction.confidence >= threshold
            and prediction.evidence >= MIN_EVIDENCE
        ):
            kept += 1
            right += prediction.label == example.label
    return kept, right


def report(labelled: LabelledSet, folds: int = 5) -> list[str]:
    tuned = examples(labelled)
    lines = [f"tuned examples: {len(tuned)}; labels: {len({e.label for e in tuned})}"]
    thresholds = (0.0, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
    totals = {t: [0, 0] for t in thresholds}
    plain = 0
    for fold in range(folds):
        train_part = [e for e in tuned if _fold(e.item_id, folds) != fold]
        test_part = [e for e in tuned if _fold(e.item_id, folds) == fold]
        model = train(train_part)
        plain += sum(model.predict(clause_features(e.text)).label == e.label for e in test_part)
        for t in thresholds:
            kept, right = _kept(model, test_part, t)
            totals[t][0] += kept
            totals[t][1] += right
    read = sum(e.label in READ_LABELS for e in tuned)
    lines.append(f"{folds}-fold accuracy, every label: {100 * plain / len(tuned):.1f}%")
    lines.append(f"read-labelled examples: {read}")
    for t, (kept, right) in totals.items():
        mark = "  <- MIN_CONFIDENCE" if t == MIN_CONFIDENCE else ""
        lines.append(
            f"  confidence >= {t:.1f}: kept {kept}, right {100 * right / max(kept, 1):.1f}%{mark}"
        )
    model = train(tuned)
    held = examples(labelled, held=True)
    right = sum(model.predict(clause_features(e.text)).label == e.label for e in held)
    kept, kept_right = _kept(model, held, MIN_CONFIDENCE)
    lines.append(
        f"held out ({len(held)} examples): every label {100 * right / max(len(held), 1):.1f}%; "
        f"kept at MIN_CONFIDENCE {kept}, right {100 * kept_right / max(kept, 1):.1f}%"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="cross-validated figures")
    parser.add_argument("--check", action="store_true", help="fail if the shipped model differs")
    args = parser.parse_args(argv)
    labelled = load_set()
    model = train(examples(labelled))
    if args.report:
        print("\n".join(report(labelled)))
    if args.check:
        same = MODEL_PATH.exists() and MODEL_PATH.read_text(encoding="utf-8") == model.to_json()
        print("shipped model is up to date" if same else "shipped model differs: retrain")
        return 0 if same else 1
    if not args.report:
        MODEL_PATH.write_text(model.to_json(), encoding="utf-8")
        print(f"wrote {MODEL_PATH} ({len(model.vocabulary)} features)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
