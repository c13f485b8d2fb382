"""YAML data files (prompt templates, pack replies) read with one safe loader.

libyaml's ``CSafeLoader`` when PyYAML was built with it (the wheels are): about ten times faster
than the pure-Python ``SafeLoader``, and the templates are read at every process start, so it is
a visible share of ``helpdesk chat``'s cold start. Both loaders build only plain data.
"""

from __future__ import annotations

from typing import Any

import yaml

__all__ = ["YAMLError", "load_yaml"]

YAMLError = yaml.YAMLError

_Loader: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # PyYAML without libyaml
    _Loader = yaml.SafeLoader


def load_yaml(text: str) -> Any:
    """The data of one YAML document (plain types only)."""
    return yaml.load(text, Loader=_Loader)
