"""graph/identity.py: when a new session's customer is asked about, and when the turn's own tool
calls are the check (pure logic: a fake check and a fake record of the backend's answers)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage

from helpdesk.graph.identity import KnownCustomer, identity_gate, verify_after


class Backend:
    """A fake check (counts its requests) and what the backend's answers said so far."""

    def __init__(self, answer: bool | KnownCustomer | None = True) -> None:
        self.answer = answer
        self.asked: list[str] = []
        self.said: dict[str, bool] = {}

    async def check(self, customer: str) -> bool | KnownCustomer | None:
        self.asked.append(customer)
        return self.answer

    def seen(self, customer: str) -> bool | None:
        return self.said.get(customer)


async def guard(state: Any) -> dict[str, Any]:
    return {"turn": int(state.get("turn", 0)) + 1}


def state(text: str = "where is my order?", **extra: Any) -> dict[str, Any]:
    return {
        "messages": [HumanMessage(text, id="h")],
        "customer": "C1",
        "session": "s",
        **extra,
    }


def gate(backend: Backend, *, profile: bool = False) -> Any:
    return identity_gate(
        guard, backend.check, seen=backend.seen, profile_matters=lambda _state: profile
    )


async def test_without_a_record_of_answers_a_new_session_is_asked_up_front() -> None:
    backend = Backend(KnownCustomer(lang="zh"))
    update = await identity_gate(guard, backend.check)(state())
    assert backend.asked == ["C1"]
    assert update["owner"] == "C1" and update["profile_lang"] == "zh"
    assert not update["owner_unverified"]


async def test_a_first_turn_whose_reply_does_not_need_the_profile_is_not_asked_up_front() -> None:
    backend = Backend()
    update = await gate(backend)(state())
    assert backend.asked == []
    assert update["owner"] == "C1" and update["owner_unverified"] is True


async def test_a_first_turn_that_needs_the_profile_language_is_asked_up_front() -> None:
    backend = Backend(KnownCustomer(lang="zh"))
    update = await gate(backend, profile=True)(state("100683"))
    assert backend.asked == ["C1"]
    assert update["profile_lang"] == "zh" and update["owner_unverified"] is False


async def test_a_customer_the_backend_already_served_is_not_asked_again() -> None:
    backend = Backend()
    backend.said["C1"] = True
    update = await gate(backend)(state())
    assert backend.asked == [] and update["owner_unverified"] is False


async def test_the_profile_is_asked_for_even_for_a_customer_already_served() -> None:
    # the backend's other answers say who the customer is, not their profile language
    backend = Backend(KnownCustomer(lang="zh"))
    backend.said["C1"] = True
    update = await gate(backend, profile=True)(state("100683"))
    assert backend.asked == ["C1"] and update["profile_lang"] == "zh"


async def test_a_customer_the_backend_once_did_not_know_is_asked_up_front() -> None:
    backend = Backend(False)
    backend.said["C1"] = False
    update = await gate(backend)(state())
    assert backend.asked == ["C1"]
    assert update["refused"]["reason"] == "unknown_customer"


async def execute(state: Any) -> dict[str, Any]:
    return {"results": ["r"]}


async def test_calls_the_backend_served_are_the_check() -> None:
    backend = Backend()
    backend.said["C1"] = True  # this turn's tool calls were answered for C1
    update = await verify_after(execute, backend.check, backend.seen)(state(owner_unverified=True))
    assert backend.asked == []
    assert update == {"results": ["r"], "owner_unverified": False}


async def test_calls_answered_no_such_customer_refuse_the_turn() -> None:
    backend = Backend(False)
    backend.said["C1"] = False
    update = await verify_after(execute, backend.check, backend.seen)(state(owner_unverified=True))
    assert update["refused"] == {"reason": "unknown_customer", "session": "s", "customer": "C1"}


async def test_calls_that_did_not_reach_the_backend_leave_the_check_to_one_request() -> None:
    for answer, unverified in ((True, False), (None, True)):
        backend = Backend(answer)
        update = await verify_after(execute, backend.check, backend.seen)(
            state(owner_unverified=True)
        )
        assert backend.asked == ["C1"]
        assert update == {"results": ["r"], "owner_unverified": unverified}
    backend = Backend(False)
    update = await verify_after(execute, backend.check, backend.seen)(state(owner_unverified=True))
    assert update["refused"]["reason"] == "unknown_customer"


async def test_a_verified_session_is_never_asked_again() -> None:
    backend = Backend(False)
    update = await verify_after(execute, backend.check, backend.seen)(
        state(owner="C1", owner_unverified=False)
    )
    assert backend.asked == [] and update == {"results": ["r"]}
    update = await gate(backend)(state(owner="C1"))
    assert backend.asked == [] and "refused" in update and update["refused"] is None


async def test_an_unverified_session_is_verified_by_a_later_turn() -> None:
    backend = Backend()
    update = await gate(backend, profile=True)(state(owner="C1", owner_unverified=True))
    assert backend.asked == []  # an owned session's reply language is the session's, not asked
    assert update["owner_unverified"] is True
