"""Prompt and reply templates: load ``prompts/<tier>/<stage>.<lang>.yaml`` and fill them safely.

Templates are data (flat YAML maps of key -> string) shipped in the ``helpdesk.prompts`` package
and read through :mod:`importlib.resources`, so they work from a source checkout, an editable
install and a wheel alike. Loading is cached per (tier, stage, lang). A missing file, a missing
key or a missing placeholder value raises :class:`TemplateError` naming the file, key or field,
so a broken template fails loudly in tests instead of reaching a customer as ``{order_id}``.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterator, Mapping
from importlib import resources
from typing import Any

from helpdesk.graph.language import Lang
from helpdesk.tools.yaml_data import YAMLError, load_yaml

__all__ = ["TemplateError", "Templates", "load_templates", "render", "template_fields"]

_PACKAGE = "helpdesk.prompts"


class TemplateError(KeyError):
    """A template file, key or placeholder value is missing (or a file is malformed)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class Templates(Mapping[str, str]):
    """Read-only key -> template map of one file; a missing key names the file."""

    def __init__(self, source: str, entries: Mapping[str, str]) -> None:
        self.source = source
        self._entries = dict(entries)

    def __getitem__(self, key: str) -> str:
        try:
            return self._entries[key]
        except KeyError:
            raise TemplateError(f"template file {self.source} has no key {key!r}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Templates({self.source!r}, {len(self)} keys)"


@functools.lru_cache(maxsize=64)
def load_templates(tier: str, stage: str, lang: Lang) -> Templates:
    """The templates of one tier, stage and language, e.g. ``("minimal", "generate", "zh")``.

    Raises:
        TemplateError: the file does not exist, is not a flat map of strings, or is not YAML.
    """
    source = f"prompts/{tier}/{stage}.{lang}.yaml"
    resource = resources.files(_PACKAGE).joinpath(tier, f"{stage}.{lang}.yaml")
    try:
        raw = resource.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise TemplateError(f"template file {source} not found") from None
    try:
        data: Any = load_yaml(raw)
    except YAMLError as exc:
        raise TemplateError(f"template file {source} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise TemplateError(f"template file {source} must be a map of key -> string")
    bad = sorted(
        str(k) for k, v in data.items() if not isinstance(k, str) or not isinstance(v, str)
    )
    if bad:
        raise TemplateError(f"template file {source}: keys {bad} are not key -> string entries")
    return Templates(source, data)


class _Values(dict[str, Any]):
    """format_map mapping that reports the missing field by name."""

    def __missing__(self, key: str) -> Any:
        raise TemplateError(f"template field {key!r} has no value (given: {sorted(self)})")


def render(template: str, **values: Any) -> str:
    """Fill ``template``'s ``{fields}`` from ``values``.

    Raises:
        TemplateError: a field of the template has no value.
    """
    return template.format_map(_Values(values))


def template_fields(template: str) -> frozenset[str]:
    """The field names a template uses (``"{a} {b:.2f}"`` -> ``{"a", "b"}``)."""
    return frozenset(
        name.split(".")[0].split("[")[0]
        for _, name, _, _ in string.Formatter().parse(template)
        if name
    )
