// helpdesk web chat: no build step. Every word shown comes from /v1/ui-text (prompts/service).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const state = {
    lang: localStorage.getItem("helpdesk.lang") || "zh",
    text: {}, demo: false,
    token: sessionStorage.getItem("helpdesk.token"),
    customer: sessionStorage.getItem("helpdesk.customer"),
    session: sessionStorage.getItem("helpdesk.session"),
    running: false, startedAt: 0, ticker: null, retryTimer: null,
  };

  const fill = (template, values) =>
    template.replace(/\{(\w+)\}/g, (_, k) => (values[k] !== undefined ? String(values[k]) : ""));
  const t = (key, values = {}) => fill(state.text[key] || key, values);

  async function loadText() {
    const r = await fetch(`/v1/ui-text?lang=${state.lang}`);
    const body = await r.json();
    state.text = body.text; state.demo = body.demo_login;
    document.documentElement.lang = state.lang;
    $("title").textContent = t("title");
    $("login-title").textContent = t("login_title");
    $("login-customer-label").textContent = t("login_customer");
    $("login-token-label").textContent = t("login_token");
    $("login-button").textContent = t("login_button");
    $("logout").textContent = t("logout");
    $("message").placeholder = t("placeholder");
    $("send").textContent = t("send");
    $("abort").textContent = t("abort");
    $("pending-title").textContent = t("pending_title");
    $("confirm-title").textContent = t("confirm_title");
    $("decline").textContent = t("decline_button");
    $("login-customer").disabled = !state.demo;
    for (const b of document.querySelectorAll(".lang button"))
      b.setAttribute("aria-pressed", String(b.dataset.lang === state.lang));
    if (!state.running) setStatus(t("status_idle"), false);
  }

  function api(path, options = {}) {
    const headers = { "Content-Type": "application/json", ...(options.headers || {}) };
    if (state.token) headers.Authorization = `Bearer ${state.token}`;
    return fetch(path, { ...options, headers });
  }

  function setStatus(text, running) {
    $("status-text").textContent = text;
    $("status").classList.toggle("running", running);
  }

  function tick() {
    const s = Math.round((Date.now() - state.startedAt) / 1000);
    $("status-time").textContent = state.running ? `(${s} s)` : "";
  }

  function addMessage(role, text) {
    const li = document.createElement("li");
    li.className = role;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = role === "customer" ? t("you") : t("bot");
    li.append(who, document.createTextNode(text));
    $("log").append(li);
    li.scrollIntoView({ block: "end" });
  }

  function actionLabel(item) {
    const names = state.text.actions || {};
    const parts = [names[item.tool] || item.tool];
    for (const [k, v] of Object.entries(item.args || {})) if (k !== "amount") parts.push(`${k}=${v}`);
    if (item.amount !== undefined && item.amount !== null)
      parts.push(t("amount", { amount: Number(item.amount).toFixed(2) }));
    return parts.join(" · ");
  }

  function showResult(result) {
    const stale = Object.entries(result.degrade.stale || {});
    $("stale").hidden = stale.length === 0;
    $("stale").textContent = t("stale_notice", {
      sources: stale
        .map(([src, age]) => t("stale_source", {
          service: (state.text.actions || {})[src] || src, age: Math.max(1, Math.round(age)),
        }))
        .join(", "),
    });
    const pending = result.degrade.pending || [];
    $("pending").hidden = pending.length === 0;
    $("pending-list").replaceChildren(...pending.map((p) => {
      const li = document.createElement("li");
      li.textContent = `${p.what} — ${p.status}${p.ticket_id ? ` (${p.ticket_id})` : ""}`;
      return li;
    }));
    showConfirm(result.pending_confirmation || [], result.offer);
  }

  function showConfirm(items, offer = null) {
    // the yes names the offer it answers: one replaced since (another tab) is never confirmed
    state.offer = offer;
    $("confirm").hidden = items.length === 0;
    $("confirm-actions").replaceChildren(...items.map((item) => {
      const b = document.createElement("button");
      b.type = "button"; b.className = "yes";
      b.textContent = t("confirm_button", { action: actionLabel(item) });
      b.addEventListener("click", () => turn("confirmation", { answer: "yes", lang: state.lang, ...(state.offer ? { offer: state.offer } : {}) }, t("confirm_yes_text")));
      return b;
    }));
  }

  function setRunning(running) {
    state.running = running;
    $("send").disabled = running; $("message").disabled = running;
    $("abort").disabled = !running;
    for (const b of document.querySelectorAll("#confirm button")) b.disabled = running;
    if (running) {
      state.startedAt = Date.now();
      state.ticker = setInterval(tick, 250);
    } else {
      clearInterval(state.ticker);
    }
    tick();
  }

  async function* readEvents(response) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut); buffer = buffer.slice(cut + 2);
        let event = "message"; const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).trim());
        }
        if (data.length) yield [event, JSON.parse(data.join("\n"))];
      }
    }
  }

  function scheduleRetry(seconds, retry) {
    // jitter: up to one extra second, so clients shed together do not return together
    let left = seconds + Math.random();
    $("busy").hidden = false;
    const show = () => { $("busy").textContent = t("busy_retry", { seconds: Math.max(1, Math.ceil(left)) }); };
    show();
    clearInterval(state.retryTimer);
    state.retryTimer = setInterval(() => {
      left -= 0.25; show();
      if (left <= 0) { clearInterval(state.retryTimer); $("busy").hidden = true; retry(); }
    }, 250);
  }

  async function turn(kind, body, shownText, retrying = false) {
    if (!state.session) await newSession();
    if (!retrying) addMessage("customer", shownText);
    setRunning(true);
    setStatus(t("status_sending"), true);
    let response;
    try {
      response = await api(`/v1/sessions/${state.session}/${kind}/stream`, {
        method: "POST", body: JSON.stringify(body),
      });
    } catch (err) {
      setRunning(false); setStatus(t("status_error", { message: String(err) }), false); return;
    }
    if (response.status === 503 || response.status === 429) {
      const wait = Number(response.headers.get("Retry-After") || "2");
      setRunning(false); setStatus(t("status_idle"), false);
      scheduleRetry(wait, () => turn(kind, body, shownText, true));
      return;
    }
    if (!response.ok) {
      const err = await response.json().catch(() => ({ message: response.statusText }));
      setRunning(false); setStatus(t("status_error", { message: err.message }), false);
      if (err.code === "offer_changed") showConfirm(err.pending_confirmation || [], err.offer);
      if (response.status === 401) logout();
      return;
    }
    let finalStatus = null;
    for await (const [event, data] of readEvents(response)) {
      if (event === "progress") setStatus(data.text, true);
      else if (event === "reply") addMessage("bot", data.text);
      else if (event === "result") showResult(data);
      else if (event === "aborted") finalStatus = data.shielded ? t("status_aborted_shielded") : t("status_aborted");
      else if (event === "error") {
        finalStatus = finalStatus || t("status_error", { message: data.message });
        // replaced while this yes waited for the session (another tab's turn): ask again
        if (data.code === "offer_changed") showConfirm(data.pending_confirmation || [], data.offer);
      }
      else if (event === "done") finalStatus = finalStatus || t("status_done", { seconds: Number(data.seconds).toFixed(1) });
    }
    setRunning(false);
    setStatus(finalStatus || t("status_idle"), false);
  }

  async function newSession() {
    const r = await api("/v1/sessions", { method: "POST" });
    const body = await r.json();
    state.session = body.session;
    sessionStorage.setItem("helpdesk.session", state.session);
  }

  async function login(event) {
    event.preventDefault();
    $("login-error").textContent = "";
    let token = $("login-token").value.trim();
    if (!token && state.demo) {
      const r = await fetch("/v1/demo/token", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ customer: $("login-customer").value }),
      });
      const body = await r.json();
      if (!r.ok) { $("login-error").textContent = t("login_failed", { message: body.message }); return; }
      token = body.token;
    }
    state.token = token;
    const r = await api("/v1/sessions", { method: "POST" });
    const body = await r.json();
    if (!r.ok) { state.token = null; $("login-error").textContent = t("login_failed", { message: body.message }); return; }
    state.customer = body.customer; state.session = body.session;
    sessionStorage.setItem("helpdesk.token", token);
    sessionStorage.setItem("helpdesk.customer", state.customer);
    sessionStorage.setItem("helpdesk.session", state.session);
    showChat();
  }

  function logout() {
    sessionStorage.clear();
    state.token = state.customer = state.session = null;
    $("chat").hidden = true; $("login").hidden = false; $("logout").hidden = true; $("who").textContent = "";
    $("log").replaceChildren();
  }

  function showChat() {
    $("login").hidden = true; $("chat").hidden = false; $("logout").hidden = false;
    $("who").textContent = state.customer;
    $("message").focus();
  }

  $("login-form").addEventListener("submit", login);
  $("logout").addEventListener("click", logout);
  $("send-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("message").value.trim();
    if (!text || state.running) return;
    $("message").value = "";
    showConfirm([]);
    turn("messages", { text }, text);
  });
  $("decline").addEventListener("click", () => {
    showConfirm([]);
    turn("confirmation", { answer: "no", lang: state.lang }, t("confirm_no_text"));
  });
  $("abort").addEventListener("click", () => {
    if (state.session) api(`/v1/sessions/${state.session}/abort`, { method: "POST" });
  });
  for (const b of document.querySelectorAll(".lang button"))
    b.addEventListener("click", () => {
      state.lang = b.dataset.lang; localStorage.setItem("helpdesk.lang", state.lang); loadText();
    });

  loadText().then(() => { if (state.token && state.session) showChat(); });
})();
