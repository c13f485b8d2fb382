"""Wiring for people: from Settings to a running bot (shop client, tools, executor, graph)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from helpdesk.app.settings import Settings
from helpdesk.degrade.chaos import ChaosPlan
from helpdesk.degrade.clock import Clock, SystemClock
from helpdesk.graph.builder import build_graph
from helpdesk.graph.nodes import TurnConfig
from helpdesk.tools.builtin import build_shop_registry, make_compensation
from helpdesk.tools.executor import ResilientExecutor
from helpdesk.tools.shop_client import ShopClient

__all__ = ["Bot", "build_bot", "turn_config"]


@dataclass
class Bot:
    """Everything one process needs to answer turns."""

    settings: Settings
    client: ShopClient
    executor: ResilientExecutor
    graph: Any

    async def aclose(self) -> None:
        await self.client.aclose()


def turn_config(settings: Settings) -> TurnConfig:
    return TurnConfig(
        hotline=settings.hotline,
        request_budget_s=settings.request_budget_s,
        request_max_retries=settings.request_max_retries,
        degraded_turns_for_simplified=settings.degraded_turns_for_simplified,
        context_window=settings.context_window,
        context_watermark=settings.context_watermark,
    )


def make_shop_client(settings: Settings, *, chaos: ChaosPlan | None = None) -> ShopClient:
    if settings.shop_url:
        return ShopClient(settings.shop_url, chaos=chaos)
    settings.shop_file.parent.mkdir(parents=True, exist_ok=True)
    return ShopClient.in_process(settings.shop_file, chaos=chaos)


def build_bot(
    settings: Settings,
    *,
    checkpointer: Any = None,
    chaos: ChaosPlan | None = None,
    clock: Clock | None = None,
) -> Bot:
    """Shop client -> tool registry -> executor -> graph, as the settings say."""
    clock = clock or SystemClock()
    client = make_shop_client(settings, chaos=chaos)
    registry = build_shop_registry(client, hotline=settings.hotline)
    executor = ResilientExecutor(registry, clock=clock, compensation=make_compensation(client))
    graph = build_graph(
        executor=executor, config=turn_config(settings), clock=clock, checkpointer=checkpointer
    )
    return Bot(settings=settings, client=client, executor=executor, graph=graph)
