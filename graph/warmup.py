"""Start-up loading: everything a node would otherwise read from disk on first use.

An async node must never block the event loop (``langgraph dev`` runs nodes under blockbuster,
which turns a file read inside a node into ``BlockingError``). The prompt templates are read once
here, when the graph is built, so later lookups hit the caches. The tokenizer's BPE file is not:
it is needed only once a history nears the compaction watermark, and
:func:`helpdesk.graph.compaction.count_messages_near` then reads it in a worker thread.
"""

from __future__ import annotations

from importlib import resources

from helpdesk.graph.language import Lang
from helpdesk.graph.prompting import load_templates

__all__ = ["warm_up"]

_LANGS: tuple[Lang, ...] = ("zh", "en")


def warm_up() -> int:
    """Load every prompt template file; returns how many files were loaded."""
    loaded = 0
    root = resources.files("helpdesk.prompts")
    for tier in sorted(p.name for p in root.iterdir() if p.is_dir() and p.name[0] != "_"):
        stages = {
            f.name.split(".")[0] for f in root.joinpath(tier).iterdir() if f.name.endswith(".yaml")
        }
        for stage in sorted(stages):
            for lang in _LANGS:
                if root.joinpath(tier, f"{stage}.{lang}.yaml").is_file():
                    load_templates(tier, stage, lang)
                    loaded += 1
    return loaded
