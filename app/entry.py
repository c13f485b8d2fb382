"""The ``helpdesk`` command's entry point: start-up without the cyclic garbage collector.

Loading LangGraph, pydantic and helpdesk creates hundreds of thousands of objects (modules,
classes, functions, compiled patterns) that live as long as the process. The cyclic collector,
triggered every few hundred allocations, walks them again and again while they are being created
(measured: 0.13-0.18 s of a 1.3 s ``helpdesk chat -m``, two full collections among them), and none
of it is garbage. So the collector is off while the command's modules load, and on again before
any command runs, with everything start-up made moved out of its reach (:func:`gc.freeze`): later
full collections, in a long-running ``helpdesk serve`` too, do not walk it either.
"""

from __future__ import annotations

import gc

__all__ = ["main"]


def main() -> None:
    """Console-script entry point (``helpdesk ...``)."""
    gc.disable()
    try:
        from helpdesk.app.cli import main as run_cli
    finally:
        gc.freeze()
        gc.enable()
    run_cli()


if __name__ == "__main__":  # `python -m helpdesk.app.entry`, as the drills start it
    main()
