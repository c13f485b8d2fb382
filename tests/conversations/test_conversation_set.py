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

from tests.conversations.evaluate import SEALED_DIR, Evaluation, run_evaluation, sealed_report
from tests.conversations.labels import held_out, load_set

# Measured 2026-12-01 on the embedded default (1033 judged turns, after 92 more multi-request
# messages and 4 conversations were added and the multi-request reading was reworked (issue 12):
# a write never takes the order of a look after it, an order to keep stays out of a write, a
# refund destination beside a cancel is deferred, parts beside a look are read or deferred;
# session 9: 22 messages and 10 conversations found trying the bot, e.g. a look after "再" read
# as a second cancel, "100609退50 100200的物流呢" as a second refund of 50, "why did you refund
# only 433" as a refund of 433);
# session 10: the fresh batch (220 messages written by a session that had not seen the matcher,
# messages.*-fresh.yaml) was added after fixing what it showed; the floors were LOWERED from
# 0.970 / 0.969 / 0.974 / 0.952 because the set grew by messages harder than the tuned part
# (the other 1033 turns alone: 97.5% understood, 1007), not because any item got worse;
# see README "Understanding: the labelled conversation set". Ratchet: raise, never lower
# without saying why.
# and lowered again when the second fresh batch (200 messages, messages.*-fresh2.yaml) joined
# (before: 0.941 / 0.940 / 0.958 / 0.940); the single messages now get a fresh shop after any
# write (an item's reply no longer depends on the items before it).
# Session 11: the third and fifth fresh batches (270 + 233 messages, messages.*-fresh3.yaml and
# -fresh5.yaml; first runs 47-53% and 52-63%) joined after their fixes; the floors were LOWERED
# from 0.935 / 0.933 / 0.955 / 0.931 because the set grew by 503 harder messages (those two
# batches: 77.1% understood), not because any item got worse (the older 1453 turns: 1374
# understood, was 1360).
# Session 12: raised (complaints beside late deliveries, "where is my parcel", corrections,
# ticket questions without a number, price caps, faults, ...); six labels changed, each said in
# the README (a review then turned an unpaid-conditional cancel into a look: 2 fewer).
# Session 13: the sixth and seventh fresh batches (220 + 160 messages, messages.*-fresh6.yaml
# and -fresh7.yaml, first runs 72.7% and 63.8%; their held-out fifth never looked at) joined;
# the floors were LOWERED from 0.930 / 0.925 / 0.952 / 0.934 because the set grew by 380 harder
# messages, not because any item got worse (the older 1956 turns: 1833 understood, was 1820;
# 1824 accepted, was 1811).
# Session 14: the eighth fresh batch (200 messages, messages.*-fresh8.yaml, first run 69.5%;
# its held-out fifth never looked at) joined: LOWERED from 0.915 / 0.906 / 0.947 / 0.922
# because the set grew by 200 harder messages (the older 2336 turns: see the README).
# Session 15: the ninth fresh batch (200 messages about money, messages.*-fresh9.yaml, first
# run 57.0%; its held-out fifth never looked at) joined: LOWERED from 0.909 / 0.899 / 0.947 /
# 0.920 because the set grew by 200 harder messages (the older 2536 turns: 2320 understood, was
# 2307; 2295 accepted, was 2281).
# Session 16: the tenth fresh batch (120 messages and 30 conversations, first run 83.1%) joined;
# raised from 0.899 / 0.887 / 0.939 / 0.910.
# Session 17: the eleventh fresh batch (120 messages and 24 conversations about the hardest
# kinds: late and damaged deliveries, long messages, complaints, references, tickets, item
# refunds; first run 58.3%) joined: LOWERED from 0.907 / 0.895 / 0.942 / 0.913 because the set
# grew by 216 harder turns (the older 2979 turns: see the README).
# Session 18: raised from 0.892 / 0.877 / 0.941 / 0.912 (no batch joined the tuned set).
# Session 20: the thirteenth fresh batch (200 messages and 12 conversations, "a bad week", first
# run 70.0%) joined: LOWERED from 0.910 / 0.894 / 0.947 because the set grew by 260 harder turns
# (the older 3444 turns: 3143 understood, was 3135; 3089 accepted, was 3082).
# Session 21: raised from 0.905 / 0.889 / 0.946 / 0.918 (no batch joined).
# Session 22: raised from 0.911 / 0.895 / 0.948 / 0.922 (no batch joined).
# Session 31: raised from 0.920 / 0.905 / 0.956 / 0.935 (no batch joined; measured 3449, 3396,
# 2886/2971, 1350/1403).
# Session 32: the fourteenth fresh batch (200 messages and 12 conversations, "several things at
# once", first run 74.9%, 80.4% of its multi-request turns served or deferred) joined: LOWERED
# from 0.930 / 0.915 / 0.970 / 0.960 because the set grew by 259 harder turns (measured with the
# batch: 3648/3963, 3585/3963, 3138/3263, 1461/1541).
# Then raised from 0.920 / 0.904 / 0.961 / 0.948 (tuned on the batch; measured 3671/3963,
# 3608/3963, 3154/3263, 1473/1541).
# Session 33: the fifteenth fresh batch (200 messages and 12 conversations, "long messages and
# problems told as stories", first run 65.4%, 71.5% of its multi-request turns served or
# deferred) joined: LOWERED from 0.925 / 0.909 / 0.966 / 0.955 because the set grew by 260
# harder turns (measured with the batch, partly tuned: 3857/4223, 3797/4223, 3398/3557,
# 1571/1671).
# Then raised from 0.912 / 0.898 / 0.954 / 0.939 (tuned on the batch; measured 3859/4223,
# 3799/4223, 3400/3557, 1573/1671).
# Session 34: raised from 0.913 / 0.899 / 0.955 / 0.940 (no batch joined; measured 3882/4223,
# 3817/4223, 3422/3557, 1587/1671).
# Session 35: raised from 0.919 / 0.903 (no batch joined; measured 3887/4223, 3822/4223,
# 3422/3557, 1587/1671).
# Session 37: raised from 0.920 / 0.904 / 0.961 / 0.949 (no batch joined; measured 3897/4223,
# 3831/4223, 3434/3557, 1596/1671).
FLOOR_UNDERSTOOD = 0.923  # 3900/4223 (session 40: raised from 0.922)
FLOOR_ACCEPTED = 0.907  # 3831/4223
FLOOR_MULTI_REQUESTS_SERVED = 0.965  # 3433/3557
FLOOR_ANSWERED_OR_DEFERRED = 0.955  # 1596/1671 multi-request turns
# The sealed batches (tests/conversations/sealed/, never tuned on), measured the same day: the
# first (160 messages, session 10), the second (221, session 11), the third and fourth (249 and
# 220, session 12) together. The third's first run was 69.1% understood, the fourth's 73.6%.
# Session 13: the fifth (200 messages; first run 68.0%, 75.6% of multi-request turns served or
# deferred) joined: LOWERED from 0.729 / 0.791 because the sealed part grew by a harder batch.
# Session 14: the sixth (200 messages; first run 61.0%, 64.2% of multi-request turns served or
# deferred) joined: LOWERED from 0.758 / 0.812 because the sealed part grew by a harder batch.
# Session 15: the seventh (200 messages; first run 73.5%, 85.9% of multi-request turns served
# or deferred) joined: raised from 0.736; LOWERED from 0.789 for the served-or-deferred figure
# (the seventh batch's multi-request turns are served less often than the six before).
# Session 16: the eighth (200 messages; first run 81.5%, 72.7% of its 11 multi-request turns
# served or deferred) joined: raised from 0.748.
# Session 17: the ninth (200 messages; first run 75.5%, 66.7% of its 18 multi-request turns
# served or deferred; 3 items looked at for a write task planned from a question) joined:
# LOWERED from 0.794 for the served-or-deferred figure (the ninth's multi-request turns).
# Session 18: the tenth (200 messages; first run 76.5%, 78.3% of its 23 multi-request turns
# served or deferred; 5 items looked at for a write or money task planned from a question or a
# transfer filed unasked) joined: raised from 0.763 / 0.790.
# Session 20: raised from 0.786 / 0.806 (no batch joined).
# Session 21: raised from 0.788 (no batch joined).
# Session 22: raised from 0.791 / 0.807 (no batch joined).
# Session 31: raised from 0.795 / 0.815 (no batch joined; measured 1640/2050, 528/630).
# Session 34: raised from 0.798 / 0.835 (no batch joined; measured 1643/2050, 531/630).
# Session 35: raised from 0.801 (no batch joined; measured 1646/2050, 532/630).
# Session 39: LOWERED from 0.802 (measured 1644/2050). A write said on a condition the words
# do not settle ("once 100998 ships, cancel it", "cancel 100998 if the phone is the 256GB
# version") is now shown, not offered: a yes ran it. One sealed English cancel on a condition
# (not looked at) was offered before and is shown now; self-settling conditions ("if it hasn't
# shipped", "if possible", "if it isn't too late") were kept as requests.
# Session 40: raised back to 0.802 (no batch joined; measured 1645/2050, 532/630).
FLOOR_SEALED_UNDERSTOOD = 0.802  # 1645/2050 (ten batches)
FLOOR_SEALED_ANSWERED_OR_DEFERRED = 0.842  # 531/630


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
    # the part never used while tuning: the held-out ids and the sealed batch (the fresh
    # batches up to the fifth, looked at in full, are all tuned; the sixth keeps its held-out
    # fifth apart)
    sealed = load_set(SEALED_DIR).messages
    apart = sum(map(held_out, ids)) + len(sealed)
    # about a fifth at least (issue 12); more since a second (session 11), a third and a fourth
    # (session 12), a fifth (session 13) ... an eighth (session 16) and a ninth (session 17)
    # sealed batch joined
    assert 0.15 < apart / (len(ids) + len(sealed)) < 0.5
    tags = Counter(tag for t in turns for tag in t.tags)
    for kind in ("question", "negation", "multi", "typo", "colloquial", "mixed", "emotion",
                 "emoji", "reference", "no_punct"):  # fmt: skip
        assert tags[kind] >= 5, kind


def test_no_question_or_negation_produces_a_write_or_money_task(evaluation: Evaluation) -> None:
    unsafe = {v.turn.id: (v.turn.text, v.unsafe) for v in evaluation.unsafe()}
    assert unsafe == {}


def test_understanding_does_not_fall_below_the_ratchet(evaluation: Evaluation) -> None:
    assert evaluation.understood().value >= FLOOR_UNDERSTOOD, evaluation.report(failures=True)
    assert evaluation.accepted().value >= FLOOR_ACCEPTED, evaluation.report()
    served, _ = evaluation.multi_coverage()
    assert served.value >= FLOOR_MULTI_REQUESTS_SERVED, evaluation.report()
    complete = evaluation.answered_or_deferred()
    assert complete.value >= FLOOR_ANSWERED_OR_DEFERRED, evaluation.report()


def test_the_sealed_batch_is_safe_and_above_its_floor() -> None:
    """Figures only: a failing assertion shows the sealed report, never an item."""
    sealed = run_evaluation(load_set(SEALED_DIR))
    report = "\n".join(sealed_report(sealed))
    assert not sealed.unsafe(), report
    assert not any(v.unexpected_writes for v in sealed.turns), report
    assert sealed.understood().value >= FLOOR_SEALED_UNDERSTOOD, report
    assert sealed.answered_or_deferred().value >= FLOOR_SEALED_ANSWERED_OR_DEFERRED, report


def test_the_report_gives_every_figure_the_issue_asks_for(evaluation: Evaluation) -> None:
    report = evaluation.report()
    for line in ("tuned", "held out", "per language:", "  en ", "  zh ", "per intent:",
                 "  tracking ", "  refund ", "multi-request turns", "writes executed"):  # fmt: skip
        assert line in report, line
    tuned, held = evaluation.split()
    assert tuned and held and len(held) < len(tuned)
