"""Wiring for people: from Settings to a running bot (shop client, tools, executor, graph)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.degrade.breaker import BreakerBoard, BreakerPolicy
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.graph.builder import build_graph
from helpdesk.graph.first_round import cancel_background
from helpdesk.graph.identity import CustomerCheck, KnownCustomer
from helpdesk.graph.llm import build_chat_model
from helpdesk.graph.nodes import TurnConfig
from helpdesk.graph.prober import Prober
from helpdesk.graph.session_lock import FileSessionLock, SessionLock, session_lock_for
from helpdesk.graph.session_store import DAY_S, SessionStore
from helpdesk.graph.tiers import ModelTier, TierHealth, TierName, TierRouter
from helpdesk.packs.shop import shop_declarations
from helpdesk.tools.builtin import make_compensation
from helpdesk.tools.executor import ResilientExecutor, run_blocking
from helpdesk.tools.journal import MemoryWriteJournal, WriteJournal
from helpdesk.tools.journal_sql import open_journal
from helpdesk.tools.packs import Pack, PackEnv, PackSet
from helpdesk.tools.shop_client import ShopClient, error_code

if TYPE_CHECKING:
    # metrics and tracing load only when a caller passes an Observer (``--events``)
    from helpdesk.app.observe import Observer

__all__ = [
    "Bot",
    "breaker_policy",
    "build_bot",
    "build_router",
    "default_journal",
    "session_store_for",
    "settings_session_lock",
    "shop_customer_check",
    "start_probing",
    "turn_config",
]


@dataclass
class Bot:
    """Everything one process needs to answer turns."""

    settings: Settings
    client: ShopClient
    executor: ResilientExecutor
    graph: Any
    router: TierRouter | None = None
    """The model tiers (None: the minimal tier only)."""
    observer: Observer | None = None
    """Metrics, traces, call logs and the events file (None: not instrumented)."""
    session_lock: SessionLock | None = None
    """One turn at a time per session, across processes (None: no sessions kept)."""
    session_store: SessionStore | None = None
    """Index, pruning and retention of the sessions (None: a checkpointer without one)."""
    packs: PackSet | None = None
    """The capability packs the bot serves (the demo shop's first)."""

    async def turn(self, text: str, *, session: str, customer: str) -> dict[str, Any]:
        """One customer message through the graph: :func:`helpdesk.app.session.run_turn`.

        Raises:
            TurnError: the turn was refused before it ran; the message says why.
        """
        return await run_turn(self, text, session=session, customer=customer)

    def turn_sync(self, text: str, *, session: str, customer: str) -> dict[str, Any]:
        """:meth:`turn` for scripts and notebooks (works inside a running event loop too)."""
        return run_blocking(self.turn(text, session=session, customer=customer))

    async def aclose(self) -> None:
        cancel_background()  # first-round model calls nobody waits for (graph/first_round.py)
        await self.client.aclose()
        if self.session_lock is not None:
            await self.session_lock.aclose()


def breaker_policy(settings: Settings) -> BreakerPolicy:
    """The tools' circuit-breaker policy from the settings (defaults: DESIGN.md's)."""
    return BreakerPolicy(
        failure_rate=settings.breaker_failure_rate,
        min_calls=settings.breaker_min_calls,
        failure_count=settings.breaker_failure_count,
        open_s=settings.breaker_open_s,
    )


def turn_config(settings: Settings) -> TurnConfig:
    return TurnConfig(
        hotline=settings.hotline,
        request_budget_s=settings.request_budget_s,
        request_max_retries=settings.request_max_retries,
        degraded_turns_for_simplified=settings.degraded_turns_for_simplified,
        context_window=settings.context_window,
        context_watermark=settings.context_watermark,
        confirmation_ttl_s=settings.confirmation_ttl_s,
        first_round_early=settings.first_round_early,
    )


def default_journal(settings: Settings, *, persistent: bool) -> WriteJournal:
    """Where writes are journaled: beside the sessions (PostgreSQL when sessions are there, a
    SQLite file in the data dir otherwise); in memory for a bot without persistent sessions."""
    if not persistent:
        return MemoryWriteJournal()
    url = settings.checkpoint_url
    if url and url.startswith(("postgresql://", "postgres://")):
        return open_journal(url=url)
    return open_journal(sqlite_path=settings.data_dir / "journal.sqlite")


def shop_customer_check(client: ShopClient) -> CustomerCheck:
    """Whether the shop knows a customer: its ``401 unknown_customer`` is a no, an outage None."""

    async def known(customer: str) -> KnownCustomer | bool | None:
        try:
            profile = await client.call("GET", "/customers/me", tool="identify", customer=customer)
        except httpx.HTTPStatusError as exc:
            return False if error_code(exc.response) == "unknown_customer" else None
        except (httpx.HTTPError, ValueError):
            return None
        lang = profile.get("language") if isinstance(profile, dict) else None
        return KnownCustomer(lang=lang if lang in ("en", "zh") else None)

    return known


def make_shop_client(settings: Settings, *, chaos: ChaosPlan | None = None) -> ShopClient:
    if settings.shop_url:
        return ShopClient(settings.shop_url, chaos=chaos)
    settings.shop_file.parent.mkdir(parents=True, exist_ok=True)
    return ShopClient.in_process(settings.shop_file, chaos=chaos)


def build_router(
    settings: Settings,
    *,
    clock: Clock,
    http_async_client: httpx.AsyncClient | None = None,
) -> TierRouter | None:
    """The model tiers the settings configure; None when none is (the minimal tier only)."""
    tiers: list[ModelTier] = []
    configured: list[tuple[TierName, str | None, str | None, str | None]] = [
        ("primary", settings.primary_model, settings.primary_base_url, settings.primary_api_key),
        ("backup", settings.backup_model, settings.backup_base_url, settings.backup_api_key),
    ]
    for name, spec, base_url, api_key in configured:
        if not spec:
            continue
        model = build_chat_model(
            spec,
            base_url=base_url,
            api_key=api_key,
            timeout_s=settings.model_timeout_s,
            http_async_client=http_async_client,
        )
        tiers.append(ModelTier(name, model, spec, timeout_s=settings.model_timeout_s))
    if not tiers:
        return None
    quota = RatioLimiter(ratio=settings.backup_quota, clock=clock)
    return TierRouter(tiers, TierHealth(clock), backup_quota=quota)


def build_bot(
    settings: Settings,
    *,
    checkpointer: Any = None,
    chaos: ChaosPlan | None = None,
    clock: Clock | None = None,
    router: TierRouter | None = None,
    http_async_client: httpx.AsyncClient | None = None,
    observer: Observer | None = None,
    session_lock: SessionLock | None = None,
    journal: WriteJournal | None = None,
    packs: Sequence[Pack] = (),
    pack_options: Mapping[str, Any] | None = None,
    breakers: BreakerBoard | None = None,
    retry_cap: RatioLimiter | None = None,
    session_counters: MutableMapping[str, int] | None = None,
) -> Bot:
    """Shop client -> tool registry -> executor -> model tiers -> graph, as the settings say.

    Args:
        settings: what to build.
        checkpointer: where sessions live (None = no memory between turns).
        chaos: fault injection at the shop's HTTP transport (drills, tests).
        clock: time source (a FakeClock in drills and tests).
        router: ready-made model tiers; default: built from the settings.
        http_async_client: the HTTP client the model tiers use (tests: an in-process server).
        observer: metrics, traces and structured call logs (None = not instrumented).
        session_lock: the per-session lock; default: the one matching the checkpointer's store
            (a lock file per session next to SQLite, an advisory lock on PostgreSQL).
        journal: where writes are recorded before they are sent (default: beside the sessions
            when there is a checkpointer, in memory otherwise).
        packs: capability packs served beside the demo shop (their tools are added to the
            registry; see :mod:`helpdesk.tools.packs`).
        pack_options: passed to every pack's tool builder as ``PackEnv.options``.
        breakers: the tools' breakers (default: in-process, from the settings; replicas pass a
            board shared through Redis).
        retry_cap: the process-wide retry ratio (default: in-process; replicas share it).
        session_counters: per-session rate-limited batch counts, which switch a session to
            serial calls (default: in-process; replicas share them).
    """
    clock = clock or SystemClock()
    client = make_shop_client(settings, chaos=chaos)
    loaded = PackSet([shop_declarations(), *packs])
    options = {**(pack_options or {}), "shop_client": client}
    registry = loaded.build_registry(PackEnv(hotline=settings.hotline, options=options))
    executor = ResilientExecutor(
        registry,
        clock=clock,
        compensation=make_compensation(client),
        observer=observer,
        breakers=breakers or BreakerBoard(breaker_policy(settings), clock),
        retry_cap=retry_cap
        or RatioLimiter(
            ratio=settings.retry_ratio, reserve_per_s=settings.retry_reserve_per_s, clock=clock
        ),
        journal=journal or default_journal(settings, persistent=checkpointer is not None),
        session_counters=session_counters,
        max_attempts=settings.tool_max_attempts,
    )
    if router is None:
        router = build_router(settings, clock=clock, http_async_client=http_async_client)
    if router is not None and chaos is not None:
        router.chaos = chaos
    if router is not None and observer is not None:
        router.observer = observer
    graph = build_graph(
        executor=executor,
        config=turn_config(settings),
        clock=clock,
        checkpointer=checkpointer,
        router=router,
        observer=observer,
        check_customer=shop_customer_check(client),
        customer_seen=client.customer_seen,
        packs=loaded,
    )
    if session_lock is None and checkpointer is not None:
        session_lock = settings_session_lock(settings)
    return Bot(
        settings=settings,
        client=client,
        executor=executor,
        graph=graph,
        router=router,
        observer=observer,
        session_lock=session_lock,
        session_store=session_store_for(
            checkpointer, settings, clock, session_lock, journal=executor.journal
        ),
        packs=loaded,
    )


def start_probing(bot: Bot, settings: Settings) -> asyncio.Task[None] | None:
    """Probe ``bot``'s model tiers in the background (long-lived processes), or None without
    model tiers. Cancel the task to stop."""
    if bot.router is None:
        return None
    prober = Prober(
        bot.router,
        clock=bot.executor.clock,
        interval_s=settings.probe_interval_s,
        unhealthy_interval_s=settings.probe_unhealthy_interval_s,
    )
    return asyncio.create_task(prober.run_forever(), name="model-probes")


def settings_session_lock(settings: Settings) -> SessionLock:
    """The per-session lock for where the settings keep sessions (PostgreSQL or SQLite)."""
    return session_lock_for(
        url=settings.checkpoint_url,
        sessions_file=settings.sessions_file,
        wait_s=settings.session_lock_wait_s,
    )


def session_store_for(
    checkpointer: Any,
    settings: Settings,
    clock: Clock,
    lock: SessionLock | None,
    *,
    journal: WriteJournal | None = None,
) -> SessionStore | None:
    """The session index/pruning/retention for a SQLite or PostgreSQL checkpointer, else None.

    Deleting a session also deletes its write-journal entries and its lock file.
    """
    try:
        store = SessionStore(
            checkpointer,
            clock=clock,
            retention_s=settings.session_retention_days * DAY_S,
            lock=lock,
            # retention from turns only on the real clock: a fake clock ahead of the real one
            # (tests, drills) would expire every session sharing the database
            auto_purge=isinstance(clock, SystemClock),
        )
    except TypeError:  # no checkpointer, or one without a store (the in-memory saver)
        return None
    if isinstance(lock, FileSessionLock):
        file_lock = lock

        async def forget_lock_file(session: str) -> None:
            file_lock.forget(session)

        store.delete_hooks.append(forget_lock_file)
    if journal is not None:
        writes = journal

        async def forget_journal(session: str) -> None:
            await writes.delete_session(session)

        store.delete_hooks.append(forget_journal)
    return store
