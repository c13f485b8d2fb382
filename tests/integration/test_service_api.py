"""The HTTP service against a live uvicorn on 127.0.0.1: tokens, ownership, limits, SSE, abort."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import jwt
import pytest

from helpdesk.app.service.auth import AUDIENCE, TokenIssuer
from helpdesk.degrade.chaos import ChaosPlan, Fault, FaultRule
from tests.integration.servers import serve_in_thread
from tests.integration.service_harness import (
    SECRET,
    SlowShop,
    live_service,
    serve_process,
    sse_events,
)


def _stream(live, session: str, text: str, customer: str = "C0001"):
    client = live.client()
    return client, client.stream(
        "POST",
        f"/v1/sessions/{session}/messages/stream",
        json={"text": text},
        headers=live.headers(customer),
    )


def test_service_stream_emits_progress_then_reply_then_result(tmp_path: Path) -> None:
    with live_service(tmp_path) as live:
        session = live.new_session()
        client, stream = _stream(live, session, "我的订单 100683 到哪了？")
        with client, stream as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            events = list(sse_events(response))
    names = [name for name, _ in events]
    assert names[0] == "accepted" and names[-3:] == ["reply", "result", "done"]
    progress = [data["text"] for name, data in events if name == "progress"]
    assert progress[:5] == [
        "正在读取对话…",
        "正在理解您的问题…",
        "正在确定要查询的内容…",
        "正在查询订单 100683…",
        "正在整理查询结果…",
    ]
    reply = dict(events)["reply"]["text"]
    assert "100683" in reply
    result = dict(events)["result"]
    assert result["tools"] == [
        {
            "tool": "track_shipment",
            "status": "ok",
            "error_class": None,
            "age_s": None,
            "ticket_id": None,
        }
    ]
    assert result["pending_confirmation"] == []


def test_service_stream_reports_retries_in_english(tmp_path: Path) -> None:
    chaos = ChaosPlan([FaultRule(fault=Fault.UNAVAILABLE, target="track_shipment")])
    with live_service(tmp_path, chaos=chaos) as live:
        session = live.new_session()
        client, stream = _stream(live, session, "where is my parcel for order 100683?")
        with client, stream as response:
            events = list(sse_events(response))
    texts = [data["text"] for name, data in events if name == "progress"]
    assert "The logistics service is unavailable, trying another way…" in texts
    result = dict(events)["result"]
    assert result["tools"][0]["status"] in ("degraded", "failed")
    assert result["degrade"]["level"] > 0


def test_service_refuses_forged_expired_and_missing_tokens(tmp_path: Path) -> None:
    forged = TokenIssuer(secret="another-secret-" + "x" * 40).mint("C0001")
    expired = TokenIssuer(secret=SECRET, clock=lambda: time.time() - 7200).mint("C0001")
    unsigned = jwt.encode(
        {"sub": "C0001", "aud": AUDIENCE, "exp": time.time() + 60}, None, algorithm="none"
    )
    wrong_audience = jwt.encode(
        {"sub": "C0001", "aud": "other", "exp": time.time() + 60}, SECRET, algorithm="HS256"
    )
    with live_service(tmp_path) as live, live.client() as client:
        cases = {
            None: "token_missing",
            "Bearer not-a-token": "token_invalid",
            f"Basic {live.token()}": "token_invalid",
            f"Bearer {forged}": "token_invalid",
            f"Bearer {expired}": "token_expired",
            f"Bearer {unsigned}": "token_invalid",
            f"Bearer {wrong_audience}": "token_invalid",
        }
        for header, code in cases.items():
            headers = {"Authorization": header} if header else {}
            response = client.post("/v1/sessions", headers=headers)
            assert (response.status_code, response.json()["code"]) == (401, code), header
        assert client.post("/v1/sessions", headers=live.headers()).status_code == 201


def test_service_hides_another_customers_session(tmp_path: Path) -> None:
    with live_service(tmp_path) as live, live.client() as client:
        session = live.new_session("C0001")
        ok = client.post(
            f"/v1/sessions/{session}/messages",
            json={"text": "where is order 100683?"},
            headers=live.headers("C0001"),
        )
        assert ok.status_code == 200
        other = live.headers("C0002")
        for method, path, body in [
            ("GET", f"/v1/sessions/{session}", None),
            ("POST", f"/v1/sessions/{session}/messages", {"text": "where is order 100683?"}),
            ("POST", f"/v1/sessions/{session}/messages/stream", {"text": "hi"}),
            ("POST", f"/v1/sessions/{session}/confirmation", {"answer": "yes"}),
            ("POST", f"/v1/sessions/{session}/abort", None),
        ]:
            response = client.request(method, path, json=body, headers=other)
            assert response.status_code == 404, (path, response.text)
            assert response.json() == {"code": "session_not_found", "message": "No such session."}
        mine = client.get(f"/v1/sessions/{session}", headers=live.headers("C0001")).json()
    assert [m["role"] for m in mine["messages"]] == ["customer", "bot"]


def test_service_refuses_big_and_malformed_bodies(tmp_path: Path) -> None:
    with live_service(tmp_path) as live, live.client() as client:
        session = live.new_session()
        path = f"/v1/sessions/{session}/messages"
        headers = {**live.headers(), "content-type": "application/json"}
        big = client.post(path, content=b'{"text": "' + b"a" * 100_000 + b'"}', headers=headers)
        assert big.status_code == 413 and big.json()["code"] == "body_too_large"
        bad = client.post(path, content=b'{"text": ', headers=headers)
        assert bad.status_code == 400 and bad.json()["code"] == "invalid_json"
        wrong = client.post(path, json={"text": "hi", "customer": "C0002"}, headers=headers)
        assert wrong.status_code == 422 and wrong.json()["code"] == "invalid_request"
        empty = client.post(path, json={"text": ""}, headers=headers)
        assert empty.status_code == 422 and empty.json()["fields"][0]["field"] == "text"
        history = client.get(f"/v1/sessions/{session}", headers=live.headers()).json()
    assert history["messages"] == []


def test_service_confirmation_of_a_replaced_offer_runs_nothing(tmp_path: Path) -> None:
    """Two tabs: one asked about ¥100, the other replaced the offer with ¥797; the first tab's
    yes (naming the ¥100 offer) used to pay the ¥797."""
    with live_service(tmp_path) as live, live.client() as client:
        session = live.new_session()
        first = client.post(
            f"/v1/sessions/{session}/messages",
            json={"text": "refund 100 on 100200"},
            headers=live.headers(),
        ).json()["result"]
        assert first["pending_confirmation"][0]["amount"] == 100.0
        second = client.post(
            f"/v1/sessions/{session}/messages",
            json={"text": "refund all of 100200"},
            headers=live.headers(),
        ).json()["result"]
        assert second["pending_confirmation"][0]["amount"] == 797.0
        assert second["offer"] != first["offer"]
        stale = client.post(
            f"/v1/sessions/{session}/confirmation",
            json={"answer": "yes", "offer": first["offer"]},
            headers=live.headers(),
        )
        assert stale.status_code == 409 and stale.json()["code"] == "offer_changed"
        assert stale.json()["offer"] == second["offer"]
        assert live.audit() == []
        current = client.get(f"/v1/sessions/{session}", headers=live.headers()).json()
        assert current["offer"] == second["offer"]
        done = client.post(
            f"/v1/sessions/{session}/confirmation",
            json={"answer": "yes", "offer": current["offer"]},
            headers=live.headers(),
        ).json()
        assert "797.00" in done["reply"]
    assert [a["action"] for a in live.audit()] == ["create_refund"]


def test_service_confirmation_is_the_customers_yes_turn(tmp_path: Path) -> None:
    with live_service(tmp_path) as live, live.client() as client:
        session = live.new_session()
        asked = client.post(
            f"/v1/sessions/{session}/messages",
            json={"text": "退款订单100609"},
            headers=live.headers(),
        ).json()
        pending = asked["result"]["pending_confirmation"]
        assert pending == [
            {
                "tool": "request_refund",
                "kind": "money",
                "args": {"order_id": "100609", "amount": 866.0},
                "amount": 866.0,
                "currency": "CNY",
            }
        ]
        assert live.audit() == []
        done = client.post(
            f"/v1/sessions/{session}/confirmation", json={"answer": "yes"}, headers=live.headers()
        ).json()
        assert done["result"]["tools"][0]["status"] == "ok"
        assert "866.00" in done["reply"]
        again = client.post(
            f"/v1/sessions/{session}/confirmation", json={"answer": "yes"}, headers=live.headers()
        ).json()
        history = client.get(f"/v1/sessions/{session}", headers=live.headers()).json()
    assert [a["action"] for a in live.audit()] == ["create_refund"]
    assert again["result"]["pending_confirmation"] == []
    assert [m["text"] for m in history["messages"] if m["role"] == "customer"] == [
        "退款订单100609",
        "确认",
        "确认",
    ]


def test_service_rate_limits_each_customer(tmp_path: Path) -> None:
    settings = {"service_rate_burst": 2, "service_rate_per_minute": 1}
    with live_service(tmp_path, **settings) as live, live.client() as client:
        mine, theirs = live.new_session("C0001"), live.new_session("C0002")
        codes = []
        for _ in range(3):
            r = client.post(
                f"/v1/sessions/{mine}/messages",
                json={"text": "hi"},
                headers=live.headers("C0001"),
            )
            codes.append(r.status_code)
        other = client.post(
            f"/v1/sessions/{theirs}/messages",
            json={"text": "hi"},
            headers=live.headers("C0002"),
        )
    assert codes == [200, 200, 429]
    assert r.json()["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
    assert other.status_code == 200


def test_service_sheds_200_concurrent_clients_at_limit_20(tmp_path: Path) -> None:
    """Excess turns get 503 at once; admitted ones finish within the deadline; none is lost.

    `helpdesk serve` runs as its own process (so the 200 clients do not share its CPU) against
    the demo shop on a real port whose order lookups take 1 s."""
    deadline = 10.0
    shop = SlowShop(tmp_path / "shop.sqlite", delay_s=1.0)
    env = {
        "HELPDESK_DATA_DIR": str(tmp_path / "svc"),
        "HELPDESK_SERVICE_MAX_TURNS": "20",
        "HELPDESK_SERVICE_TURN_DEADLINE_S": str(deadline),
        "HELPDESK_SERVICE_RATE_BURST": "5",
    }
    issuer = TokenIssuer(secret=SECRET)
    customers = [f"C{n:04d}" for n in range(1, 201)]
    headers = {c: {"Authorization": f"Bearer {issuer.mint(c)}"} for c in customers}
    with (
        serve_in_thread(shop.app) as shop_url,
        serve_process(tmp_path, "serve", {**env, "HELPDESK_SHOP_URL": shop_url}) as (base, _),
    ):
        with httpx.Client(base_url=base, trust_env=False, timeout=30) as client:
            sessions = {
                c: client.post("/v1/sessions", headers=headers[c]).json()["session"]
                for c in customers
            }

        async def one(client: httpx.AsyncClient, customer: str) -> tuple[int, float, str]:
            started = time.monotonic()
            response = await client.post(
                f"/v1/sessions/{sessions[customer]}/messages",
                json={"text": "what is the status of order 100683?"},
                headers=headers[customer],
            )
            retry_after = response.headers.get("Retry-After", "")
            return response.status_code, time.monotonic() - started, retry_after

        async def all_at_once() -> list[tuple[int, float, str]]:
            # one client (one connection) per customer, connected before the burst
            clients = [
                httpx.AsyncClient(base_url=base, timeout=30.0, trust_env=False) for _ in customers
            ]
            try:
                await asyncio.gather(*(client.get("/healthz") for client in clients))
                return await asyncio.gather(
                    *(one(client, c) for client, c in zip(clients, customers, strict=True))
                )
            finally:
                await asyncio.gather(*(client.aclose() for client in clients))

        outcomes = asyncio.run(all_at_once())
        with httpx.Client(base_url=base, trust_env=False, timeout=30) as client:
            histories = {
                c: client.get(f"/v1/sessions/{sessions[c]}", headers=headers[c]).json()
                for c in customers
            }
            metrics = client.get("/metrics").text
    statuses = [s for s, _, _ in outcomes]
    assert set(statuses) <= {200, 503}
    admitted = [c for c, (s, _, _) in zip(customers, outcomes, strict=True) if s == 200]
    shed = [(t, ra) for s, t, ra in outcomes if s == 503]
    assert len(admitted) >= 20 and len(shed) >= 100
    assert "helpdesk_turns_active 0.0" in metrics
    assert all(ra.isdigit() and int(ra) >= 1 for _, ra in shed)
    fastest_turn = min(t for s, t, _ in outcomes if s == 200)
    assert fastest_turn >= 1.0
    assert max(t for t, _ in shed) < fastest_turn  # at once: never queued behind a turn
    assert max(t for _, t, _ in outcomes) < deadline
    for customer in customers:  # nothing lost: every admitted turn is in its session, once
        roles = [m["role"] for m in histories[customer]["messages"]]
        assert roles == (["customer", "bot"] if customer in admitted else [])


def test_service_abort_cancels_a_slow_read(tmp_path: Path) -> None:
    slow = ChaosPlan([FaultRule(fault=Fault.LATENCY, target="track_shipment", latency_s=3.0)])
    with live_service(tmp_path, chaos=slow) as live:
        session = live.new_session()
        client, stream = _stream(live, session, "where is order 100683?")
        with client, stream as response, live.client() as control:
            events = []
            for name, data in sse_events(response):
                events.append((name, data))
                if name == "progress" and data["key"] == "checking_order":
                    started = time.monotonic()
                    aborted = control.post(f"/v1/sessions/{session}/abort", headers=live.headers())
                    assert aborted.json() == {"aborted": True, "shielded": False}
            elapsed = time.monotonic() - started
            history = control.get(f"/v1/sessions/{session}", headers=live.headers()).json()
    names = [n for n, _ in events]
    assert names[-3:] == ["aborted", "error", "done"]
    assert dict(events)["error"]["code"] == "turn_aborted"
    assert elapsed < 2.0  # the 3 s read was abandoned
    assert history["running"] is False


def test_service_abort_during_a_write_finishes_and_reports_it(tmp_path: Path) -> None:
    slow_write = ChaosPlan([FaultRule(fault=Fault.LATENCY, target="cancel_order", latency_s=2.0)])
    with live_service(tmp_path, chaos=slow_write) as live, live.client() as client:
        session = live.new_session()
        asked = client.post(
            f"/v1/sessions/{session}/messages",
            json={"text": "cancel order 100998"},
            headers=live.headers(),
        )
        assert asked.json()["result"]["pending_confirmation"][0]["tool"] == "cancel_order"
        stream = client.stream(
            "POST",
            f"/v1/sessions/{session}/confirmation/stream",
            json={"answer": "yes"},
            headers=live.headers(),
        )
        with stream as response:
            events = []
            for name, data in sse_events(response):
                events.append((name, data))
                if name == "progress" and data["key"] == "sending_write":
                    aborted = client.post(f"/v1/sessions/{session}/abort", headers=live.headers())
                    assert aborted.json() == {"aborted": True, "shielded": True}
        history = client.get(f"/v1/sessions/{session}", headers=live.headers()).json()
    found = dict(events)
    assert found["aborted"] == {"reason": "abort", "shielded": True}
    assert found["result"]["tools"][0] == {
        "tool": "cancel_order",
        "status": "ok",
        "error_class": None,
        "age_s": None,
        "ticket_id": None,
    }
    assert [(a["action"], a["target"]) for a in live.audit()] == [("cancel_order", "100998")]
    assert history["messages"][-1] == {"role": "bot", "text": found["reply"]["text"]}


def test_service_disconnect_cancels_the_turn(tmp_path: Path) -> None:
    slow = ChaosPlan([FaultRule(fault=Fault.LATENCY, target="track_shipment", latency_s=3.0)])
    with live_service(tmp_path, chaos=slow) as live:
        session = live.new_session()
        client, stream = _stream(live, session, "where is order 100683?")
        with client, stream as response:
            for name, data in sse_events(response):
                if name == "progress" and data["key"] == "checking_order":
                    break  # leave: closes the connection mid-turn
        deadline = time.monotonic() + 2.0
        while session in live.service.runner.running and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session not in live.service.runner.running
        with live.client() as c:
            metrics = c.get("/metrics").text
    assert 'helpdesk_turns_aborted_total{reason="disconnect"} 1.0' in metrics


def test_service_turn_past_deadline_is_504(tmp_path: Path) -> None:
    slow = ChaosPlan([FaultRule(fault=Fault.LATENCY, target="track_shipment", latency_s=2.0)])
    with live_service(tmp_path, chaos=slow, service_turn_deadline_s=0.5) as live:
        session = live.new_session()
        with live.client() as client:
            started = time.monotonic()
            r = client.post(
                f"/v1/sessions/{session}/messages",
                json={"text": "where is order 100683?"},
                headers=live.headers(),
            )
    assert (r.status_code, r.json()["code"]) == (504, "turn_timeout")
    assert time.monotonic() - started < 1.5


def test_service_health_ready_metrics_and_openapi(tmp_path: Path) -> None:
    with live_service(tmp_path) as live, live.client() as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json() == {
            "ready": True,
            "checks": {"checkpointer": "ok", "shop": "ok", "journal": "ok"},
        }
        assert "helpdesk_turns_active" in client.get("/metrics").text
        paths = client.get("/openapi.json").json()["paths"]
        assert "/v1/sessions/{session}/messages/stream" in paths
        assert client.get("/nope").json()["code"] == "not_found"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_service_page_text_comes_from_prompts(tmp_path: Path, lang: str) -> None:
    with live_service(tmp_path) as live, live.client() as client:
        text = client.get("/v1/ui-text", params={"lang": lang}).json()["text"]
        page = client.get("/")
    assert text["busy_retry"].count("{seconds}") == 1
    assert page.status_code == 200 and "<html" in page.text.lower()


def test_service_traces_each_request_with_its_route(tmp_path: Path) -> None:
    sdk = pytest.importorskip("opentelemetry.sdk.trace")
    export = pytest.importorskip("opentelemetry.sdk.trace.export")
    memory = pytest.importorskip("opentelemetry.sdk.trace.export.in_memory_span_exporter")
    exporter = memory.InMemorySpanExporter()
    provider = sdk.TracerProvider()
    provider.add_span_processor(export.SimpleSpanProcessor(exporter))
    with live_service(tmp_path, tracer_provider=provider) as live, live.client() as client:
        session = live.new_session()
        client.post(
            f"/v1/sessions/{session}/messages",
            json={"text": "where is order 100683?"},
            headers=live.headers(),
        )
    spans = {s.name: s for s in exporter.get_finished_spans()}
    request = spans["HTTP POST /v1/sessions/{session}/messages"]
    assert request.attributes["http.status_code"] == 200
    assert spans["HTTP POST /v1/sessions"].attributes["http.status_code"] == 201
    turn_spans = [
        s for s in spans.values() if s.parent and s.parent.span_id == request.context.span_id
    ]
    assert turn_spans, sorted(spans)


def test_service_hang_up_on_a_json_turn_cancels_it(tmp_path: Path) -> None:
    slow = ChaosPlan([FaultRule(fault=Fault.LATENCY, target="track_shipment", latency_s=4.0)])
    with live_service(tmp_path, chaos=slow) as live:
        session = live.new_session()
        with live.client() as client, pytest.raises(httpx.ReadTimeout):
            client.post(
                f"/v1/sessions/{session}/messages",
                json={"text": "where is order 100683?"},
                headers=live.headers(),
                timeout=1.0,
            )
        deadline = time.monotonic() + 2.0
        while session in live.service.runner.running and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session not in live.service.runner.running  # stopped well before the 4 s read
        with live.client() as c:
            metrics = c.get("/metrics").text
    assert 'helpdesk_turns_aborted_total{reason="disconnect"} 1.0' in metrics
