"""The labelled conversation set through the real bot (minimal tier, embedded demo shop).

Issue 12 sets the targets: intent + arguments right for >= 92% of messages, and no write or
money task ever produced from a question or a negation. The floors below are a RATCHET at the
figures measured when the set was added, not the target: raise them whenever the understanding
improves (``python -m tests.conversations.evaluate`` prints the figures), never lower them
without saying why. The >= 92% target stays open in the issue.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.conversations.evaluate import Evaluation, run_evaluation
from tests.conversations.labels import held_out, load_set

# Measured 2026-12-01 on the embedded default (550 judged turns); see README "Understanding:
# the labelled conversation set". Ratchet: raise, never lower.
FLOOR_UNDERSTOOD = 0.709  # 390/550
FLOOR_ACCEPTED = 0.672  # 370/550
FLOOR_MULTI_REQUESTS_SERVED = 0.681  # 60/88

# Questions and negations that produce a write or a write/money task today (issue 12's
# "0 on the whole set" is not met). This list may only shrink; the strict xfail below flips
# when it is empty.
KNOWN_UNSAFE = frozenset(
    {
        "en-rq-18",  # "is there any refund on 100200?" -> a refund offer
        "zh-rq-13",  # "100200可以退款吗" -> a refund offer
        "en-neg-09",  # "I don't want to cancel 100998 anymore" -> a cancel offer
        "zh-neg-12",  # "我没说要取消100998啊" -> a cancel offer
        "zh-can-14",  # "100998取消后钱多久退回来" -> a cancel offer
        "en-faq-07",  # "how do i exchange for a bigger size" -> a ticket filed
        "zh-rq-18",  # "退货的话运费谁出" -> a ticket filed
        "zh-faq-16",  # "电器坏了保修吗" -> a ticket filed
        "zh-mix-06",  # "return policy是啥" -> a ticket filed
        "zh-hum-08",  # "你是真人还是AI" -> a handoff ticket filed
        # "yes, and where is 100683?" while a cancel of 100998 waits -> a cancel of 100683 offered
        "en-conv-17#2",
    }
)


@pytest.fixture(scope="module")
def evaluation() -> Evaluation:
    return run_evaluation()


def test_the_set_has_the_size_and_mix_the_issue_asks_for() -> None:
    labelled = load_set()
    assert len(labelled.messages) >= 400
    assert len(labelled.conversations) >= 40
    turns = [*labelled.messages, *(t for c in labelled.conversations for t in c.turns)]
    languages = Counter(t.lang for t in turns)
    assert 0.4 < languages["zh"] / len(turns) < 0.6
    ids = [m.id for m in labelled.messages] + [c.id for c in labelled.conversations]
    assert 0.15 < sum(map(held_out, ids)) / len(ids) < 0.25
    tags = Counter(tag for t in turns for tag in t.tags)
    for kind in ("question", "negation", "multi", "typo", "colloquial", "mixed", "emotion",
                 "emoji", "reference", "no_punct"):  # fmt: skip
        assert tags[kind] >= 5, kind


def test_questions_and_negations_produce_no_write_beyond_the_known_failures(
    evaluation: Evaluation,
) -> None:
    unsafe = {v.turn.id: (v.turn.text, v.unsafe) for v in evaluation.unsafe()}
    assert set(unsafe) <= KNOWN_UNSAFE, {k: unsafe[k] for k in set(unsafe) - KNOWN_UNSAFE}


@pytest.mark.xfail(
    strict=True,
    reason="issue 12: questions/negations still produce writes or write/money tasks "
    "(KNOWN_UNSAFE lists them)",
)
def test_no_question_or_negation_produces_a_write_or_money_task(evaluation: Evaluation) -> None:
    assert evaluation.unsafe() == []


def test_understanding_does_not_fall_below_the_ratchet(evaluation: Evaluation) -> None:
    assert evaluation.understood().value >= FLOOR_UNDERSTOOD, evaluation.report(failures=True)
    assert evaluation.accepted().value >= FLOOR_ACCEPTED, evaluation.report()
    served, _ = evaluation.multi_coverage()
    assert served.value >= FLOOR_MULTI_REQUESTS_SERVED, evaluation.report()


def test_the_report_gives_every_figure_the_issue_asks_for(evaluation: Evaluation) -> None:
    report = evaluation.report()
    for line in ("tuned", "held out", "per language:", "  en ", "  zh ", "per intent:",
                 "  tracking ", "  refund ", "multi-request turns", "writes executed"):  # fmt: skip
        assert line in report, line
    tuned, held = evaluation.split()
    assert tuned and held and len(held) < len(tuned)
