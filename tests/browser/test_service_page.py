"""The web chat page in real headless Chromium (Debian's package, driven by Playwright).

Each scenario runs the service on 127.0.0.1 (demo login on) and acts as a customer would:
log in, ask in Chinese, watch the status line, confirm with the button, abort, get shed.
Screenshots go to the test's tmp dir (and, with HELPDESK_DOCS_SCREENSHOT=1, to docs/ for the
README).
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpdesk.degrade.chaos import ChaosPlan, Fault, FaultRule
from tests.integration.service_harness import LiveService, live_service

CHROMIUM = os.environ.get("HELPDESK_CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

RECORD_STATUS = """
window.__statuses = [];
const target = document.getElementById("status-text");
new MutationObserver(() => window.__statuses.push(target.textContent))
  .observe(target, {childList: true, characterData: true, subtree: true});
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def _login(browser: Any, live: LiveService, customer: str = "C0001") -> Any:
    page = browser.new_page(viewport={"width": 900, "height": 860}, locale="zh-CN")
    page.set_default_timeout(15_000)
    page.goto(live.base + "/")
    page.click("#lang-zh")
    page.select_option("#login-customer", customer)
    page.click("#login-button")
    page.wait_for_selector("#chat:not([hidden])")
    page.evaluate(RECORD_STATUS)
    return page


def _send(page: Any, text: str) -> None:
    page.fill("#message", text)
    page.click("#send")


def _bot_messages(page: Any) -> list[str]:
    return [t.removeprefix("客服") for t in page.locator("#log li.bot").all_inner_texts()]


def test_page_login_ask_in_chinese_and_watch_progress(browser: Any, tmp_path: Path) -> None:
    with live_service(tmp_path, service_demo_login=True) as live:
        page = _login(browser, live)
        assert page.inner_text("#who") == "C0001"
        _send(page, "我的订单 100683 到哪了？")
        page.wait_for_selector("#log li.bot")
        page.wait_for_function("!document.getElementById('status').classList.contains('running')")
        statuses = page.evaluate("window.__statuses")
        page.screenshot(path=str(tmp_path / "ask-in-chinese.png"), full_page=True)
        if os.environ.get("HELPDESK_DOCS_SCREENSHOT") == "1":
            shutil.copy(tmp_path / "ask-in-chinese.png", ROOT / "docs" / "service-chat.png")
    assert "正在发送…" in statuses
    assert "正在查询订单 100683…" in statuses
    assert statuses.index("正在发送…") < statuses.index("正在查询订单 100683…")
    assert statuses[-1].startswith("已回复（用时")
    assert "100683" in _bot_messages(page)[-1]
    assert page.locator("#stale").is_hidden() and page.locator("#confirm").is_hidden()


def test_page_confirms_a_cancel_with_the_button(browser: Any, tmp_path: Path) -> None:
    with live_service(tmp_path, service_demo_login=True) as live:
        page = _login(browser, live)
        _send(page, "取消订单100998")
        button = page.locator("#confirm-actions button")
        button.wait_for()
        label = button.inner_text()
        page.screenshot(path=str(tmp_path / "confirm.png"), full_page=True)
        button.click()
        page.wait_for_selector("#log li.bot >> nth=1")
        page.wait_for_function("!document.getElementById('status').classList.contains('running')")
        customer_lines = page.locator("#log li.customer").all_inner_texts()
        audit = live.audit()
    assert label == "确认：取消订单 · order_id=100998"
    assert customer_lines[-1].endswith("确认")
    assert "100998" in _bot_messages(page)[-1]
    assert [(a["action"], a["target"]) for a in audit] == [("cancel_order", "100998")]
    assert page.locator("#confirm").is_hidden()


def test_page_shows_the_exact_refund_amount_on_the_button(browser: Any, tmp_path: Path) -> None:
    with live_service(tmp_path, service_demo_login=True) as live:
        page = _login(browser, live)
        _send(page, "订单100609退款一百元")
        button = page.locator("#confirm-actions button")
        button.wait_for()
        label = button.inner_text()
        page.click("#decline")
        page.wait_for_selector("#log li.bot >> nth=1")
        page.wait_for_function("!document.getElementById('status').classList.contains('running')")
        audit = live.audit()
    assert label == "确认：退款 · order_id=100609 · 金额 ¥100.00"
    assert audit == []


def test_page_aborts_a_slow_turn(browser: Any, tmp_path: Path) -> None:
    slow = ChaosPlan([FaultRule(fault=Fault.LATENCY, target="track_shipment", latency_s=4.0)])
    with live_service(tmp_path, chaos=slow, service_demo_login=True) as live:
        page = _login(browser, live)
        _send(page, "我的订单 100683 到哪了？")
        page.wait_for_function(
            "document.getElementById('status-text').textContent === '正在查询订单 100683…'"
        )
        assert page.locator("#abort").is_enabled()
        page.click("#abort")
        page.wait_for_function(
            "document.getElementById('status-text').textContent === '已中止'", timeout=2_500
        )
        page.screenshot(path=str(tmp_path / "aborted.png"), full_page=True)
    assert _bot_messages(page) == []
    assert page.locator("#abort").is_disabled() and page.locator("#send").is_enabled()


def test_page_shows_busy_notice_and_retries_when_shed(browser: Any, tmp_path: Path) -> None:
    slow = ChaosPlan([FaultRule(fault=Fault.LATENCY, target="track_shipment", latency_s=2.5)])
    with live_service(tmp_path, chaos=slow, service_demo_login=True, service_max_turns=1) as live:
        session = live.new_session("C0002")

        def occupy() -> None:  # another customer's slow turn holds the only slot
            with httpx.Client(base_url=live.base, timeout=30, trust_env=False) as client:
                client.post(
                    f"/v1/sessions/{session}/messages",
                    json={"text": "where is order 100452?"},
                    headers=live.headers("C0002"),
                )

        page = _login(browser, live)
        other = threading.Thread(target=occupy)
        other.start()
        page.wait_for_timeout(300)
        _send(page, "你好")
        busy = page.locator("#busy")
        busy.wait_for(state="visible")
        notice = busy.inner_text()
        page.screenshot(path=str(tmp_path / "busy.png"), full_page=True)
        page.wait_for_selector("#log li.bot", timeout=20_000)  # the jittered retry got through
        other.join()
    assert notice.startswith("客服繁忙，") and notice.endswith("秒后自动重试…")
    assert page.locator("#busy").is_hidden()
    assert len(page.locator("#log li.customer").all_inner_texts()) == 1


def test_page_shows_stale_data_plainly(browser: Any, tmp_path: Path) -> None:
    chaos = ChaosPlan([])
    with live_service(tmp_path, chaos=chaos, service_demo_login=True) as live:
        page = _login(browser, live)
        _send(page, "我的订单 100683 到哪了？")
        page.wait_for_selector("#log li.bot")
        page.wait_for_function("!document.getElementById('status').classList.contains('running')")
        assert page.locator("#stale").is_hidden()
        chaos.rules = (FaultRule(fault=Fault.UNAVAILABLE, target="track_shipment"),)
        _send(page, "我的订单 100683 到哪了？")
        page.wait_for_selector("#log li.bot >> nth=1")
        page.wait_for_function("!document.getElementById('status').classList.contains('running')")
        statuses = page.evaluate("window.__statuses")
        stale = page.inner_text("#stale")
        page.screenshot(path=str(tmp_path / "stale.png"), full_page=True)
    assert stale.startswith("部分数据不是实时的：物流（") and stale.endswith("秒前）")
    assert any(s.startswith("物流暂时无法实时查询，显示的是") for s in statuses)


def test_page_asks_again_when_another_tab_replaced_the_offer(browser: Any, tmp_path: Path) -> None:
    """The page shows ¥100; another tab of the same session asks for the whole ¥797 refund;
    the page's yes pays nothing and shows the ¥797 question, whose yes pays it once."""
    with live_service(tmp_path, service_demo_login=True) as live:
        page = _login(browser, live)
        _send(page, "订单100200退款100元")
        button = page.locator("#confirm-actions button")
        button.wait_for()
        assert "¥100.00" in button.inner_text()
        session = page.evaluate("sessionStorage.getItem('helpdesk.session')")
        with live.client() as client:
            other_tab = client.post(
                f"/v1/sessions/{session}/messages",
                json={"text": "订单100200全部退款"},
                headers=live.headers(),
            )
        assert other_tab.json()["result"]["pending_confirmation"][0]["amount"] == 797.0
        button.click()
        page.wait_for_function(
            "document.querySelector('#confirm-actions button')"
            " && document.querySelector('#confirm-actions button').innerText.includes('797')"
        )
        assert live.audit() == []
        page.locator("#confirm-actions button").click()
        page.wait_for_selector("#log li.bot >> nth=1")
        page.wait_for_function("!document.getElementById('status').classList.contains('running')")
        audit = live.audit()
    assert [a["action"] for a in audit] == ["create_refund"]
    assert "797" in _bot_messages(page)[-1]
