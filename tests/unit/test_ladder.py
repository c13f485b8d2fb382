import itertools

import pytest

from helpdesk.degrade.context import LadderStep
from helpdesk.degrade.errors import ErrorClass
from helpdesk.degrade.ladder import LadderGuard, LadderOptions, plan_ladder

P, D, F, C, H = (
    LadderStep.PARAMETER,
    LadderStep.DATA,
    LadderStep.FUNCTION,
    LadderStep.CHAIN,
    LadderStep.HANDOFF,
)

_FLAGS = ("can_simplify", "breaker_open", "has_cached", "has_fallback", "core", "is_write")
_MATRIX = [
    (cls, LadderOptions(**dict(zip(_FLAGS, values, strict=True))))
    for cls in ErrorClass
    for values in itertools.product((False, True), repeat=len(_FLAGS))
]


def _expected(cls: ErrorClass, o: LadderOptions) -> tuple[LadderStep, ...]:
    """Reference statement of the ladder rules, written independently of the implementation."""
    if cls in (ErrorClass.INPUT, ErrorClass.BUSINESS):
        return ()
    steps = []
    simplifiable = cls in (ErrorClass.SCHEMA, ErrorClass.UNAVAILABLE, ErrorClass.TRANSIENT)
    if not o.is_write and o.can_simplify and not o.breaker_open and simplifiable:
        steps.append(P)
    if not o.is_write and o.has_cached:
        steps.append(D)
    if o.has_fallback:
        steps.append(F)
    steps.append(H if o.core else C)
    return tuple(steps)


def test_ladder_options_defaults():
    assert LadderOptions() == LadderOptions(
        can_simplify=False,
        breaker_open=False,
        has_cached=False,
        has_fallback=False,
        core=True,
        is_write=False,
    )


@pytest.mark.parametrize(("cls", "options"), _MATRIX)
def test_plan_ladder_matrix(cls, options):
    plan = plan_ladder(cls, options)
    assert plan == _expected(cls, options)
    levels = [step.level for step in plan]
    assert levels == sorted(levels)  # cheapest first
    if options.core and plan:
        assert plan[-1] is H
    if options.is_write:
        assert P not in plan
        assert D not in plan


@pytest.mark.parametrize("cls", [ErrorClass.INPUT, ErrorClass.BUSINESS])
def test_plan_ladder_input_and_business_get_nothing(cls):
    everything = LadderOptions(can_simplify=True, has_cached=True, has_fallback=True)
    assert plan_ladder(cls, everything) == ()


def test_plan_ladder_full_read_ladder():
    opts = LadderOptions(can_simplify=True, has_cached=True, has_fallback=True)
    assert plan_ladder(ErrorClass.UNAVAILABLE, opts) == (P, D, F, H)


def test_plan_ladder_breaker_open_skips_parameter():
    opts = LadderOptions(can_simplify=True, breaker_open=True, has_cached=True)
    assert plan_ladder(ErrorClass.UNAVAILABLE, opts) == (D, H)


@pytest.mark.parametrize(
    "cls", [ErrorClass.RATE_LIMITED, ErrorClass.AUTH, ErrorClass.UNKNOWN_OUTCOME]
)
def test_plan_ladder_parameter_only_for_simplifiable_classes(cls):
    opts = LadderOptions(can_simplify=True, has_cached=True)
    assert plan_ladder(cls, opts) == (D, H)


def test_plan_ladder_write_unknown_outcome():
    opts = LadderOptions(can_simplify=True, has_cached=True, has_fallback=True, is_write=True)
    assert plan_ladder(ErrorClass.UNKNOWN_OUTCOME, opts) == (F, H)


def test_plan_ladder_non_core_ends_with_chain():
    opts = LadderOptions(has_cached=True, core=False)
    assert plan_ladder(ErrorClass.TRANSIENT, opts) == (D, C)


def test_plan_ladder_minimal_core_is_handoff():
    assert plan_ladder(ErrorClass.SCHEMA, LadderOptions()) == (H,)


@pytest.mark.parametrize(("levels", "entries"), [(0, 1), (3, 0)])
def test_ladder_guard_rejects_bad_config(levels, entries):
    with pytest.raises(ValueError):
        LadderGuard(max_levels=levels, max_entries=entries)


def test_ladder_guard_single_entry():
    guard = LadderGuard()
    assert [guard.enter(), guard.enter(), guard.enter()] == [True, False, False]
    assert guard.entries == 3


def test_ladder_guard_two_entries_allowed():
    guard = LadderGuard(max_entries=2)
    assert [guard.enter(), guard.enter(), guard.enter()] == [True, True, False]


def test_ladder_guard_three_levels_then_only_handoff():
    guard = LadderGuard()
    assert [guard.try_descend(s) for s in (P, D, F, C)] == [True, True, True, False]
    assert guard.levels_used == 3
    assert guard.exhausted
    assert guard.try_descend(H) is True
    assert guard.try_descend(LadderStep.MODEL) is False
    assert guard.steps == [P, D, F, H]


def test_ladder_guard_handoff_never_counts():
    guard = LadderGuard(max_levels=1)
    assert [guard.try_descend(H), guard.try_descend(H)] == [True, True]
    assert guard.levels_used == 0
    assert not guard.exhausted
    assert guard.try_descend(F) is True
    assert guard.try_descend(D) is False


@pytest.mark.parametrize(
    "step",
    [LadderStep.RETRY, LadderStep.RECONCILE, LadderStep.SERIALIZE, LadderStep.SELF_CORRECT],
)
def test_ladder_guard_level_zero_actions_do_not_count(step):
    guard = LadderGuard(max_levels=1)
    assert guard.try_descend(step) is True
    assert guard.levels_used == 0


def test_degrade_package_reexports_public_names():
    import helpdesk.degrade as degrade

    assert degrade.plan_ladder is plan_ladder
    assert degrade.LadderGuard is LadderGuard
    for name in degrade.__all__:
        assert getattr(degrade, name) is not None
