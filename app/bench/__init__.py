"""``helpdesk bench``: helpdesk vs a LangChain ``create_agent`` with resilience middleware vs a
naive LangGraph agent, on the same scripted model brain, demo shop and seeded fault schedule.

Modules: :mod:`~helpdesk.app.bench.brain` (the scripted model), :mod:`~.workload` (scenarios,
turns, fault plans), :mod:`~.systems` (the three systems), :mod:`~.oracle` (judging replies
against the shop's truth), :mod:`~.runner` (the whole run), :mod:`~.pair` (one system on one
scenario and its metrics), :mod:`~.overload` (the open-loop overload scenario), :mod:`~.micro`
(happy-path overhead, token-check cost), :mod:`~.report` (Markdown, JSON, chart) and
:mod:`~.cli` (the ``bench`` command).
"""

__all__: list[str] = []
