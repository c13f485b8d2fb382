from helpdesk.degrade.context import (
    DegradeContext,
    DegradeEvent,
    LadderStep,
    PendingItem,
    merge_degrade,
)
from helpdesk.degrade.errors import ErrorClass


def _event(target: str = "inventory", action=LadderStep.DATA, at: float = 1.0) -> DegradeEvent:
    return DegradeEvent(
        stage="execute",
        target=target,
        error_class=ErrorClass.UNAVAILABLE,
        action=action,
        level=action.level,
        reason=f"{target}: 503",
        at=at,
    )


def test_ladder_step_levels():
    assert [s.level for s in LadderStep] == [0, 1, 2, 3, 4, 5, 6, 0, 0, 0]


def test_context_empty_is_not_degraded():
    ctx = DegradeContext()
    assert (ctx.level, ctx.degraded) == (0, False)


def test_context_level_is_deepest_event():
    ctx = DegradeContext(
        events=(_event(action=LadderStep.FUNCTION), _event(action=LadderStep.DATA))
    )
    assert ctx.level == 3
    assert ctx.degraded


def test_context_level_zero_events_are_not_degraded():
    ctx = DegradeContext(events=(_event(action=LadderStep.RETRY),))
    assert (ctx.level, ctx.degraded) == (0, False)


def test_context_flags_make_it_degraded():
    assert DegradeContext(partial=True).degraded
    assert DegradeContext(stale={"inventory": 3.0}).degraded
    item = PendingItem(task_id="t1", what="cancel_order 1", status="unknown")
    assert DegradeContext(pending=(item,)).degraded
    assert not DegradeContext(simplified_mode=True).degraded


def test_context_with_helpers():
    ctx = DegradeContext(request_id="r")
    ctx = ctx.with_event(_event()).with_stale("inventory", 5.0).with_stale("inventory", 2.0)
    item = PendingItem(task_id="t1", what="cancel_order 1", status="failed")
    ctx = ctx.with_pending(item).with_pending(item.model_copy(update={"status": "unknown"}))
    assert ctx.events == (_event(),)
    assert ctx.stale == {"inventory": 5.0}
    assert [p.status for p in ctx.pending] == ["unknown"]
    assert ctx.partial


def test_merge_degrade_none_sides():
    ctx = DegradeContext(request_id="r")
    assert merge_degrade(None, None) == DegradeContext()
    assert merge_degrade(None, ctx) is ctx
    assert merge_degrade(ctx, None) is ctx


def test_merge_degrade_same_request_unions_and_dedupes_events():
    a, b, c = _event("a"), _event("b"), _event("c")
    left = DegradeContext(request_id="r", events=(a, b))
    right = DegradeContext(request_id="r", events=(b, c))
    assert merge_degrade(left, right).events == (a, b, c)


def test_merge_degrade_new_request_replaces():
    left = DegradeContext(request_id="r1", events=(_event(),), partial=True, stale={"x": 9.0})
    right = DegradeContext(request_id="r2")
    assert merge_degrade(left, right) is right


def test_merge_degrade_stale_keeps_max_age():
    left = DegradeContext(request_id="r", stale={"inventory": 5.0, "faq": 1.0})
    right = DegradeContext(request_id="r", stale={"inventory": 2.0, "orders": 7.0})
    assert merge_degrade(left, right).stale == {"inventory": 5.0, "faq": 1.0, "orders": 7.0}


def test_merge_degrade_pending_dedupe_by_task_id_right_wins():
    p1 = PendingItem(task_id="t1", what="cancel 1", status="failed")
    p1b = PendingItem(task_id="t1", what="cancel 1", status="unknown", ticket_id="TK-1")
    p2 = PendingItem(task_id="t2", what="refund 2", status="dropped")
    merged = merge_degrade(
        DegradeContext(request_id="r", pending=(p1,)),
        DegradeContext(request_id="r", pending=(p2, p1b)),
    )
    assert merged.pending == (p1b, p2)


def test_merge_degrade_flags_are_ored():
    merged = merge_degrade(
        DegradeContext(request_id="r", partial=True),
        DegradeContext(request_id="r", simplified_mode=True),
    )
    assert (merged.partial, merged.simplified_mode, merged.request_id) == (True, True, "r")


def test_merge_degrade_level_and_degraded_after_merge():
    merged = merge_degrade(
        DegradeContext(request_id="r", events=(_event(action=LadderStep.PARAMETER),)),
        DegradeContext(request_id="r", events=(_event("o", action=LadderStep.HANDOFF),)),
    )
    assert merged.level == 6
    assert merged.degraded


def test_merge_degrade_is_idempotent():
    ctx = DegradeContext(
        request_id="r",
        events=(_event(),),
        stale={"a": 1.0},
        pending=(PendingItem(task_id="t", what="w", status="failed"),),
        partial=True,
    )
    assert merge_degrade(ctx, ctx) == ctx
