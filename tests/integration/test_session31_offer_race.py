"""A yes checked against the offer it answers under the session's lock, not only when the
request is read: another turn (another tab, another replica) replacing the offer in between
must not have the yes pay the replacement."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpdesk.app.service import turn_http
from helpdesk.app.service.errors import ApiError
from helpdesk.app.service.turns import TurnRunner
from tests.integration.service_harness import live_service, sse_events


def _replace_offer_before_the_yes_runs(
    monkeypatch: pytest.MonkeyPatch, live: Any, text: str
) -> list[dict[str, Any]]:
    """Between the confirmation's offer check and its turn, another turn on the same session
    (``text``) replaces the offer — the window a second tab or replica can fall into."""
    real = turn_http.check_owner
    replaced: list[dict[str, Any]] = []

    async def check_owner(service: Any, session: str, customer: str) -> None:
        if not replaced:
            other = service.runner.start(text, session=session, customer=customer)
            outcome = await other.outcome()
            assert outcome.payload is not None
            replaced.append(outcome.payload)
        await real(service, session, customer)

    monkeypatch.setattr(turn_http, "check_owner", check_owner)
    return replaced


def _ask(client: Any, live: Any, session: str, text: str) -> dict[str, Any]:
    response = client.post(
        f"/v1/sessions/{session}/messages", json={"text": text}, headers=live.headers()
    )
    result: dict[str, Any] = response.json()["result"]
    return result


def test_a_yes_for_an_offer_replaced_after_it_was_read_pays_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with live_service(tmp_path) as live, live.client() as client:
        session = live.new_session()
        first = _ask(client, live, session, "refund 100 on 100200")
        assert first["pending_confirmation"][0]["amount"] == 100.0
        replaced = _replace_offer_before_the_yes_runs(monkeypatch, live, "refund all of 100200")
        stale = client.post(
            f"/v1/sessions/{session}/confirmation",
            json={"answer": "yes", "offer": first["offer"]},
            headers=live.headers(),
        )
        assert replaced and "797" in replaced[0]["reply"]
        assert stale.status_code == 409 and stale.json()["code"] == "offer_changed"
        assert stale.json()["pending_confirmation"][0]["amount"] == 797.0
        assert live.audit() == []
        monkeypatch.undo()
        current = client.get(f"/v1/sessions/{session}", headers=live.headers()).json()
        done = client.post(
            f"/v1/sessions/{session}/confirmation",
            json={"answer": "yes", "offer": current["offer"]},
            headers=live.headers(),
        ).json()
        assert "797.00" in done["reply"]
    assert [a["action"] for a in live.audit()] == ["create_refund"]


def test_a_streamed_yes_for_a_replaced_offer_ends_with_the_current_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with live_service(tmp_path) as live, live.client() as client:
        session = live.new_session()
        first = _ask(client, live, session, "refund 100 on 100200")
        replaced = _replace_offer_before_the_yes_runs(monkeypatch, live, "refund all of 100200")
        with client.stream(
            "POST",
            f"/v1/sessions/{session}/confirmation/stream",
            json={"answer": "yes", "offer": first["offer"]},
            headers=live.headers(),
        ) as response:
            events = list(sse_events(response))
        assert replaced
        errors = [data for event, data in events if event == "error"]
        assert [e["code"] for e in errors] == ["offer_changed"] and errors[0]["status"] == 409
        assert errors[0]["offer"] != first["offer"]
        assert not [event for event, _ in events if event == "reply"]
    assert live.audit() == []


class _RecordingLock:
    """A session lock that records when it is taken and given back."""

    renew_every_s = 3600.0

    def __init__(self, steps: list[str]) -> None:
        self.steps = steps

    async def acquire(self, session: str) -> str | None:
        self.steps.append("lock")
        return "token"

    async def renew(self, session: str, token: str) -> bool:
        return True

    async def release(self, session: str, token: str) -> None:
        self.steps.append("unlock")


async def test_the_check_runs_under_the_lock_after_the_shared_state_is_loaded() -> None:
    steps: list[str] = []

    async def turn(text: str, session: str, customer: str) -> dict[str, object]:
        steps.append("turn")
        return {"reply": "done"}

    async def prepare(session: str) -> None:
        steps.append("prepare")

    async def passes() -> None:
        steps.append("check")

    async def refuses() -> None:
        steps.append("check")
        raise ApiError(409, "offer_changed", "replaced")

    runner = TurnRunner(turn, deadline_s=60, lock=_RecordingLock(steps), prepare=prepare)
    ran = await runner.start("yes", session="s1", customer="C1", check=passes).outcome()
    assert ran.payload == {"reply": "done"}
    assert steps == ["lock", "prepare", "check", "turn", "unlock"]
    steps.clear()
    refused = await runner.start("yes", session="s1", customer="C1", check=refuses).outcome()
    assert refused.payload is None and isinstance(refused.error, ApiError)
    assert steps == ["lock", "prepare", "check", "unlock"]  # the turn never ran
