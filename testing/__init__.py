"""Test infrastructure that ships with helpdesk but is not part of the product's core.

:mod:`~helpdesk.testing.llm_server` is a scripted OpenAI-compatible chat server (replies and
faults on demand, every request recorded) that real ``ChatOpenAI`` clients reach in-process;
:mod:`~helpdesk.testing.drill_models` builds the scripted primary and backup model tiers that
``helpdesk drill --models scripted`` and the tests drill the model cells with. Installed with the
package because the tests, the notebooks and that drill option use them; nothing in
``helpdesk.graph``, ``helpdesk.tools`` or ``helpdesk.degrade`` imports this package.
"""

__all__: list[str] = []
