"""The systems under test, each answering one customer message at a time.

* :class:`NaiveAgent` — a minimal LangGraph loop ``model -> tools -> model`` with the prebuilt
  ``ToolNode`` (tool errors become error messages to the model; no retry, no fallback).
* :class:`LangChainAgent` — ``langchain.agents.create_agent`` with ``ToolRetryMiddleware()``,
  ``ModelFallbackMiddleware(backup)`` and ``SummarizationMiddleware(model)`` at their defaults
  (2 retries, 1 s initial delay doubling, jitter; real sleeps). Its models have no timeout of
  their own (the OpenAI client's default is 10 minutes), so a hung model holds the turn.
* :class:`CarefulLangChainAgent` — what a careful adopter ships: ``ToolRetryMiddleware`` on the
  read tools only, an ``Idempotency-Key`` on the write (session + action), summarization that
  triggers (12 messages, keep 6), and a 10 s client timeout on both models.
* :class:`HelpdeskSystem` — :func:`~helpdesk.app.wiring.build_bot` with a primary + backup
  :class:`~helpdesk.graph.tiers.TierRouter` over the same brains, turns via
  :func:`~helpdesk.app.session.run_turn`; a cancel is asked, then confirmed with "yes".
* :class:`BareHelpdesk` — the same helpdesk graph and nodes, but a :class:`PassThroughExecutor`
  (no breaker, retry, budget, cache, ladder or reconciliation): the happy-path baseline.

The agents' tools are thin httpx calls through the same :class:`ShopClient` (and so the same
chaos transport): 2xx bodies and 4xx business errors go back to the model as JSON; 5xx and
transport errors raise, which is what a retry middleware is for. All systems keep sessions in a
SQLite file through LangGraph's ``AsyncSqliteSaver``, as helpdesk ships (helpdesk's with its own
state serializer, as the app does). Build a system with :func:`open_system` (async: the saver
opens its connection).

Over 400 lines on purpose: the five systems under test sit side by side, so what each does
differently (middleware, timeouts, executor) is compared in one file.
"""

from __future__ import annotations

import asyncio
import json
from abc import ABC, abstractmethod
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Final

import aiosqlite
import httpx
from langchain.agents import create_agent
from langchain.agents.middleware import (
    ModelFallbackMiddleware,
    SummarizationMiddleware,
    ToolRetryMiddleware,
)
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langchain_core.tools import BaseTool, tool
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from helpdesk.app.bench.brain import ScriptedBrain
from helpdesk.app.bench.workload import Expectation, Turn
from helpdesk.app.session import run_turn
from helpdesk.app.settings import Settings
from helpdesk.app.wiring import Bot, build_bot, start_probing, turn_config
from helpdesk.degrade.budget import RatioLimiter
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import SystemClock
from helpdesk.degrade.errors import ErrorClass, classify_failure
from helpdesk.graph.builder import build_graph
from helpdesk.graph.checkpoint import state_serializer
from helpdesk.graph.tiers import ModelTier, TierHealth, TierRouter
from helpdesk.packs import default_packs
from helpdesk.tools.builtin import build_shop_registry
from helpdesk.tools.context import RequestContext
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.results import ToolCall, ToolResult, ToolStatus
from helpdesk.tools.shop_client import ShopClient

__all__ = [
    "CUSTOMER",
    "READ_TOOLS",
    "SESSION",
    "SYSTEM_NAMES",
    "BareHelpdesk",
    "BenchSystem",
    "CarefulLangChainAgent",
    "HelpdeskSystem",
    "LangChainAgent",
    "NaiveAgent",
    "PassThroughExecutor",
    "agent_tools",
    "open_system",
]

SYSTEM_NAMES: Final = ("naive", "langchain", "langchain_careful", "helpdesk")

CUSTOMER: ContextVar[str] = ContextVar("bench_customer", default="C0001")
"""The authenticated customer of the running turn (the agents' tools read it)."""
SESSION: ContextVar[str] = ContextVar("bench_session", default="")
"""The running turn's session (the careful agent's Idempotency-Key derives from it)."""

READ_TOOLS: Final = ("get_order", "track_shipment", "check_stock")
"""The agents' read tools: the only ones the careful agent retries."""

CAREFUL_MODEL_TIMEOUT_S: Final = 10.0
"""The careful agent's client timeout per model call."""

Message = tuple[str, tuple[Expectation, ...]]


class BenchSystem(ABC):
    """One system under test: answers customer messages, one at a time."""

    name: str = ""

    def messages_for(self, turn: Turn) -> list[Message]:
        """The customer messages a logical turn becomes (helpdesk: cancel, then "yes")."""
        return [(turn.text, turn.expects)]

    @abstractmethod
    async def reply(self, session: str, customer: str, text: str) -> str:
        """The reply to ``text`` in ``session``; raises when the system fails the turn."""

    @abstractmethod
    async def aclose(self) -> None:
        """Release clients."""


# --- the agents' tools --------------------------------------------------------------------------


async def _shop(
    client: ShopClient,
    method: str,
    path: str,
    *,
    tool_name: str,
    idempotency_key: str | None = None,
) -> str:
    try:
        data = await client.call(
            method,
            path,
            tool=tool_name,
            customer=CUSTOMER.get(),
            idempotency_key=idempotency_key,
        )
    except httpx.HTTPStatusError as exc:
        code = exc.response.status_code
        if 400 <= code < 500 and code != 429:
            return exc.response.text
        raise
    return json.dumps(data, ensure_ascii=False)


def agent_tools(client: ShopClient, *, idempotent_writes: bool = False) -> list[BaseTool]:
    """The shop tools the agents get (same endpoints and descriptions as helpdesk's).

    Args:
        client: the shop client.
        idempotent_writes: send an ``Idempotency-Key`` (session + action) with the cancel, so
            a re-sent cancel is not executed twice.
    """

    @tool
    async def get_order(order_id: str) -> str:
        """Look up one of the customer's orders: status, items, shipments, refunds."""
        return await _shop(client, "GET", f"/orders/{order_id}", tool_name="get_order")

    @tool
    async def track_shipment(order_id: str) -> str:
        """Shipments of an order with carrier, tracking number, ETA and tracking events."""
        return await _shop(
            client, "GET", f"/orders/{order_id}/tracking", tool_name="track_shipment"
        )

    @tool
    async def check_stock(sku: str) -> str:
        """Stock of a product (SKU) per warehouse, with a restock date when sold out."""
        return await _shop(client, "GET", f"/inventory/{sku}", tool_name="check_stock")

    @tool
    async def cancel_order(order_id: str) -> str:
        """Cancel an order that has not shipped yet."""
        key = f"{SESSION.get()}:cancel_order:{order_id}" if idempotent_writes else None
        return await _shop(
            client,
            "POST",
            f"/orders/{order_id}/cancel",
            tool_name="cancel_order",
            idempotency_key=key,
        )

    return [get_order, track_shipment, check_stock, cancel_order]


async def _saver(path: Path, *, serde: Any = None) -> tuple[AsyncSqliteSaver, aiosqlite.Connection]:
    """A SQLite checkpointer on its own file, as helpdesk ships (``open_sqlite_checkpointer``)."""
    conn = await aiosqlite.connect(str(path))
    saver = AsyncSqliteSaver(conn, serde=serde)
    await saver.setup()
    return saver, conn


def _last_ai_text(messages: list[AnyMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, AIMessage) and not message.tool_calls:
            return message.text
    raise RuntimeError("the agent ended without a reply")


class _AgentSystem(BenchSystem):
    def __init__(self, graph: Any, client: ShopClient, conn: aiosqlite.Connection) -> None:
        self.graph = graph
        self.client = client
        self.conn = conn

    async def reply(self, session: str, customer: str, text: str) -> str:
        token = CUSTOMER.set(customer)
        session_token = SESSION.set(session)
        try:
            state = await self.graph.ainvoke(
                {"messages": [HumanMessage(content=text)]},
                {"configurable": {"thread_id": session}},
            )
        finally:
            CUSTOMER.reset(token)
            SESSION.reset(session_token)
        return _last_ai_text(list(state["messages"]))

    async def aclose(self) -> None:
        await self.client.aclose()
        await self.conn.close()


class NaiveAgent(_AgentSystem):
    """model -> tools -> model, the prebuilt ToolNode, no resilience."""

    name = "naive"

    def __init__(self, brain: ScriptedBrain, client: ShopClient, saver: AsyncSqliteSaver) -> None:
        tools = agent_tools(client)
        model = brain.bind_tools(tools)

        async def call_model(state: MessagesState) -> dict[str, Any]:
            return {"messages": [await model.ainvoke(state["messages"])]}

        builder = StateGraph(MessagesState)
        builder.add_node("model", call_model)
        builder.add_node("tools", ToolNode(tools, handle_tool_errors=True))
        builder.add_edge(START, "model")
        builder.add_conditional_edges("model", tools_condition)
        builder.add_edge("tools", "model")
        super().__init__(builder.compile(checkpointer=saver), client, saver.conn)


class LangChainAgent(_AgentSystem):
    """create_agent + ToolRetryMiddleware + ModelFallbackMiddleware + SummarizationMiddleware."""

    name = "langchain"

    def __init__(
        self,
        primary: ScriptedBrain,
        backup: ScriptedBrain,
        client: ShopClient,
        saver: AsyncSqliteSaver,
    ) -> None:
        graph = create_agent(
            primary,
            agent_tools(client),
            middleware=[
                ToolRetryMiddleware(),
                ModelFallbackMiddleware(backup),
                SummarizationMiddleware(primary),
            ],
            checkpointer=saver,
        )
        super().__init__(graph, client, saver.conn)


class CarefulLangChainAgent(_AgentSystem):
    """The careful adopter: retries on reads only, Idempotency-Key on writes, summarization
    that triggers, and client timeouts on the models (see benchmarks/README.md)."""

    name = "langchain_careful"

    def __init__(
        self,
        primary: ScriptedBrain,
        backup: ScriptedBrain,
        client: ShopClient,
        saver: AsyncSqliteSaver,
    ) -> None:
        primary.timeout_s = CAREFUL_MODEL_TIMEOUT_S
        backup.timeout_s = CAREFUL_MODEL_TIMEOUT_S
        graph = create_agent(
            primary,
            agent_tools(client, idempotent_writes=True),
            middleware=[
                ToolRetryMiddleware(tools=list(READ_TOOLS)),
                ModelFallbackMiddleware(backup),
                SummarizationMiddleware(primary, trigger=("messages", 12), keep=("messages", 6)),
            ],
            checkpointer=saver,
        )
        super().__init__(graph, client, saver.conn)


# --- helpdesk -----------------------------------------------------------------------------------


def _router(primary: ScriptedBrain, backup: ScriptedBrain, settings: Settings) -> TierRouter:
    """The tiers as :func:`~helpdesk.app.wiring.build_router` would build them."""
    clock = SystemClock()
    tiers = [
        ModelTier("primary", primary, "bench:scripted-primary", timeout_s=settings.model_timeout_s),
        ModelTier("backup", backup, "bench:scripted-backup", timeout_s=settings.model_timeout_s),
    ]
    quota = RatioLimiter(ratio=settings.backup_quota, clock=clock)
    return TierRouter(tiers, TierHealth(clock), backup_quota=quota)


def _settings(db: Path) -> Settings:
    return Settings(data_dir=db.parent, shop_db_path=db)


class _HelpdeskBase(BenchSystem):
    bot: Bot
    conn: aiosqlite.Connection | None = None
    probing: asyncio.Task[None] | None = None

    def messages_for(self, turn: Turn) -> list[Message]:
        if turn.expects and turn.expects[0].kind == "cancel":
            order = turn.expects[0].key
            return [(turn.text, (Expectation("confirm", order),)), ("yes", turn.expects)]
        return [(turn.text, turn.expects)]

    async def reply(self, session: str, customer: str, text: str) -> str:
        payload = await self.turn(session, customer, text)
        return str(payload["reply"])

    async def turn(self, session: str, customer: str, text: str) -> dict[str, Any]:
        """The whole ``--json`` payload of one turn (tiers, degrade events)."""
        if self.probing is None:  # long-lived, as the service: its model tiers are probed
            self.probing = start_probing(self.bot, self.bot.settings)
        return await run_turn(self.bot, text, session=session, customer=customer)

    async def aclose(self) -> None:
        if self.probing is not None:
            self.probing.cancel()
        await self.bot.aclose()
        if self.conn is not None:
            await self.conn.close()


class HelpdeskSystem(_HelpdeskBase):
    """build_bot with a primary + backup router over the scripted brains."""

    name = "helpdesk"

    def __init__(
        self,
        primary: ScriptedBrain,
        backup: ScriptedBrain,
        *,
        db: Path,
        chaos: ChaosPlan,
        saver: AsyncSqliteSaver,
    ) -> None:
        settings = _settings(db)
        self.conn = saver.conn
        self.bot = build_bot(
            settings,
            checkpointer=saver,
            chaos=chaos,
            router=_router(primary, backup, settings),
        )


class PassThroughExecutor(ResilientExecutor):
    """Runs each call once, directly: no breaker, retry, budget, cache, ladder or verify."""

    async def run(self, call: ToolCall, ctx: RequestContext) -> ToolResult:
        spec = self.registry.get(call.name)
        if spec is None:
            return ToolResult(call_id=call.id, tool=call.name, status=ToolStatus.FAILED)
        if spec.policy.needs_confirmation and not call.confirmed:
            return ToolResult(
                call_id=call.id,
                tool=spec.name,
                status=ToolStatus.NEEDS_CONFIRMATION,
                data={"args": dict(call.args)},
            )
        kwargs = dict(call.args)
        if "customer" in spec.injected:
            kwargs["customer"] = ctx.customer
        try:
            data = await spec.invoke(kwargs)
        except Exception as exc:
            failure = classify_failure(exc, tool=spec.name, is_write=spec.policy.is_write)
            data = (
                {"code": failure.code, "message": failure.reason}
                if failure.error_class is ErrorClass.BUSINESS
                else None
            )
            return ToolResult(
                call_id=call.id,
                tool=spec.name,
                status=ToolStatus.FAILED,
                error_class=failure.error_class,
                reason=failure.reason,
                data=data,
            )
        return ToolResult(call_id=call.id, tool=spec.name, status=ToolStatus.OK, data=data)


class BareHelpdesk(_HelpdeskBase):
    """helpdesk's graph (same nodes, same tiers) over a :class:`PassThroughExecutor`."""

    name = "helpdesk_bare"

    def __init__(
        self,
        primary: ScriptedBrain,
        backup: ScriptedBrain,
        *,
        db: Path,
        chaos: ChaosPlan,
        saver: AsyncSqliteSaver,
    ) -> None:
        settings = _settings(db)
        client = ShopClient.in_process(db, chaos=chaos)
        executor = PassThroughExecutor(build_shop_registry(client, hotline=settings.hotline))
        router = _router(primary, backup, settings)
        self.conn = saver.conn
        graph = build_graph(
            executor=executor,
            packs=default_packs(),
            config=turn_config(settings),
            checkpointer=saver,
            router=router,
        )
        self.bot = Bot(
            settings=settings, client=client, executor=executor, graph=graph, router=router
        )


async def open_system(
    name: str, *, primary: ScriptedBrain, backup: ScriptedBrain, db: Path, chaos: ChaosPlan
) -> BenchSystem:
    """One of :data:`SYSTEM_NAMES` (or ``helpdesk_bare``) over the shop at ``db``, with its
    sessions in ``<db dir>/sessions-<name>.sqlite``."""
    sessions = db.parent / f"sessions-{name}.sqlite"
    if name in ("helpdesk", "helpdesk_bare"):
        saver, _conn = await _saver(sessions, serde=state_serializer())
        cls = HelpdeskSystem if name == "helpdesk" else BareHelpdesk
        return cls(primary, backup, db=db, chaos=chaos, saver=saver)
    if name not in SYSTEM_NAMES:
        raise ValueError(
            f"unknown system {name!r}; known: {', '.join(SYSTEM_NAMES)}, helpdesk_bare"
        )
    saver, _conn = await _saver(sessions)
    client = ShopClient.in_process(db, chaos=chaos)
    if name == "naive":
        return NaiveAgent(primary, client, saver)
    if name == "langchain":
        return LangChainAgent(primary, backup, client, saver)
    return CarefulLangChainAgent(primary, backup, client, saver)
