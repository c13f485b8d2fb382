"""A small trained text classifier for the offline tier: naive Bayes over words and characters.

Domain-free: a pack trains one from its labelled customer messages (a reproducible script) and
ships the model as JSON beside its code; :meth:`TextClassifier.predict` names the most likely
label of a piece of text with a confidence. The features are Latin words and word pairs, and
Chinese characters and character pairs (Chinese has no spaces to split words on), so the same
model reads both languages; a pack replaces its identifiers with placeholder words first
(``placeholders``), so "100683" and "100904" are the same evidence.

Why naive Bayes: the labelled sets are small (hundreds to a few thousand clauses), the model
must be trained and read offline without a dependency, and it must be reproducible byte for
byte from the set (training is a count, there is no random start or iteration).
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Prediction", "TextClassifier", "text_features"]

_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[a-z][a-z']*|\d+")
_FORMAT = "helpdesk-naive-bayes/1"


def text_features(text: str, placeholders: Sequence[tuple[re.Pattern[str], str]] = ()) -> set[str]:
    """The features of ``text``: Latin words and adjacent word pairs, Chinese characters and
    adjacent character pairs, after each placeholder pattern is replaced by its word."""
    lowered = text.lower().replace("’", "'")
    for pattern, word in placeholders:
        lowered = pattern.sub(f" {word} ", lowered)
    found: set[str] = set()
    for run in _HAN_RUN.findall(lowered):
        found.update(run)
        found.update(run[i : i + 2] for i in range(len(run) - 1))
    latin = _HAN_RUN.sub(" | ", lowered)
    for chunk in latin.split("|"):
        words = [w.strip("'") for w in _WORD.findall(chunk)]
        words = [w for w in words if w]
        found.update(words)
        found.update(f"{a} {b}" for a, b in itertools.pairwise(words))
    return found


@dataclass(frozen=True, slots=True)
class Prediction:
    """The most likely label and how sure the model is of it."""

    label: str
    confidence: float
    """The label's share of the probability, on a tempered scale (see :meth:`predict`)."""
    evidence: int
    """How many of the text's features the model has seen in training."""


class TextClassifier:
    """Multinomial naive Bayes over :func:`text_features` (each feature counted once per text)."""

    def __init__(
        self,
        label_counts: Mapping[str, int],
        feature_counts: Mapping[str, Mapping[str, int]],
        *,
        alpha: float = 0.5,
    ) -> None:
        if not label_counts:
            raise ValueError("a classifier needs at least one label")
        self.alpha = alpha
        self.label_counts = dict(label_counts)
        self.feature_counts = {label: dict(c) for label, c in feature_counts.items()}
        self.vocabulary = {f for counts in self.feature_counts.values() for f in counts}
        total = sum(self.label_counts.values())
        self._log_prior = {
            label: math.log(count / total) for label, count in self.label_counts.items()
        }
        size = len(self.vocabulary) + 1
        self._denominator = {
            label: math.log(sum(self.feature_counts.get(label, {}).values()) + alpha * size)
            for label in self.label_counts
        }

    @classmethod
    def train(
        cls, examples: Iterable[tuple[set[str], str]], *, alpha: float = 0.5
    ) -> TextClassifier:
        """Count features per label from ``(features, label)`` pairs."""
        labels: Counter[str] = Counter()
        features: dict[str, Counter[str]] = {}
        for feats, label in examples:
            labels[label] += 1
            features.setdefault(label, Counter()).update(feats)
        return cls(labels, features, alpha=alpha)

    def scores(self, features: set[str]) -> dict[str, float]:
        """Log posterior (unnormalised) of every label; features never seen are ignored."""
        known = [f for f in features if f in self.vocabulary]
        out = {}
        for label, prior in self._log_prior.items():
            counts = self.feature_counts.get(label, {})
            denominator = self._denominator[label]
            out[label] = prior + sum(
                math.log(counts.get(f, 0) + self.alpha) - denominator for f in known
            )
        return out

    def predict(self, features: set[str]) -> Prediction:
        """The best label. Naive Bayes multiplies every feature's evidence as if independent,
        which makes its raw posteriors near 0 or 1; the confidence divides the log scores by
        the square root of the evidence first, so a long clause is not surer than it should be.
        """
        scores = self.scores(features)
        evidence = sum(1 for f in features if f in self.vocabulary)
        temper = math.sqrt(max(evidence, 1))
        top = max(scores.values())
        weights = {label: math.exp((s - top) / temper) for label, s in scores.items()}
        best = max(sorted(weights), key=lambda label: weights[label])
        return Prediction(best, weights[best] / sum(weights.values()), evidence)

    # --- storage ----------------------------------------------------------------------------

    def to_json(self) -> str:
        """The model as JSON with sorted keys: the same training gives the same bytes."""
        return json.dumps(
            {
                "format": _FORMAT,
                "alpha": self.alpha,
                "labels": self.label_counts,
                "features": self.feature_counts,
            },
            ensure_ascii=False,
            sort_keys=True,
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> TextClassifier:
        """Read a model written by :meth:`to_json`; a clear ``ValueError`` for anything else."""
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not a classifier model: {exc}") from exc
        if not isinstance(raw, dict) or raw.get("format") != _FORMAT:
            raise ValueError(f"not a classifier model (expected format {_FORMAT!r})")
        labels, features = raw.get("labels"), raw.get("features")
        if not isinstance(labels, dict) or not labels or not isinstance(features, dict):
            raise ValueError("classifier model without labels or features")
        counts_ok = all(isinstance(n, int) and n > 0 for n in labels.values()) and all(
            isinstance(per, dict) and all(isinstance(n, int) and n >= 0 for n in per.values())
            for per in features.values()
        )
        alpha = raw.get("alpha", 0.5)
        if not counts_ok or not isinstance(alpha, int | float) or not 0 < alpha < 100:
            raise ValueError("classifier model with counts or alpha that are not numbers")
        try:
            return cls(labels, features, alpha=float(alpha))
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise ValueError(f"classifier model that cannot be used: {exc}") from exc

    @classmethod
    def load(cls, path: Path) -> TextClassifier:
        return cls.from_json(path.read_text(encoding="utf-8"))
