"""Failpoints: named places where a crash drill may kill the process (``kill -9``) on purpose.

``failpoint("write.after_execute")`` does nothing unless the environment variable
``HELPDESK_FAILPOINT`` names that point when the process first asks; then the process kills
itself with SIGKILL on that hit (``name``: the first hit; ``name@N``: the N-th hit in this
process). No handler, ``finally`` or buffered write runs — exactly what a machine losing power
or the OOM killer does between two lines. Before dying it writes one line
(``failpoint <name>@<N> hit``) straight to file descriptor 2, so a drill can tell a failpoint
kill from any other death.

The variable is read once; when it is unset each call is a dictionary-free comparison with
``None``. Points used by the product (see ``helpdesk drill --crash``):

- ``turn.start``: a turn is about to run (after the identity check).
- ``write.before_call``: a confirmed write/money call is journaled and about to be sent.
- ``write.after_execute``: the shop answered the write; its result is not yet recorded.
- ``reply.before_publish``: the reply is written; the turn has not been validated or stored.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["ENV_VAR", "POINTS", "FailpointSpec", "configure", "failpoint", "parse_failpoint"]

ENV_VAR = "HELPDESK_FAILPOINT"

POINTS: tuple[str, ...] = (
    "turn.start",
    "write.before_call",
    "write.after_execute",
    "reply.before_publish",
)
"""The failpoints the product defines."""


@dataclass(frozen=True, kw_only=True, slots=True)
class FailpointSpec:
    """Which point kills the process, on which hit."""

    name: str
    """A point in :data:`POINTS`."""
    hit: int = 1
    """Die on this hit of the point in this process (1 = the first)."""

    def __post_init__(self) -> None:
        if self.name not in POINTS:
            raise ValueError(f"unknown failpoint {self.name!r}: use one of {', '.join(POINTS)}")
        if self.hit < 1:
            raise ValueError(f"failpoint hit must be >= 1, got {self.hit}")

    def __str__(self) -> str:
        return f"{self.name}@{self.hit}"


def parse_failpoint(text: str) -> FailpointSpec:
    """``"write.after_execute"`` or ``"write.after_execute@2"`` as a :class:`FailpointSpec`."""
    name, _, hit = text.strip().partition("@")
    try:
        count = int(hit) if hit else 1
    except ValueError:
        raise ValueError(f"failpoint hit must be an integer: {text!r}") from None
    return FailpointSpec(name=name, hit=count)


def _sigkill() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


_UNREAD = object()
_spec: FailpointSpec | object | None = _UNREAD
_hits = 0
_kill: Callable[[], None] = _sigkill


def configure(spec: FailpointSpec | None, *, kill: Callable[[], None] | None = None) -> None:
    """Arm ``spec`` (None: disarm) in this process, resetting the hit count; tests pass ``kill``.

    Without a call, the first :func:`failpoint` reads :data:`ENV_VAR`.
    """
    global _spec, _hits, _kill
    _spec, _hits, _kill = spec, 0, kill or _sigkill


def failpoint(name: str, *, when: bool = True) -> None:
    """Kill this process here if :data:`ENV_VAR` names ``name`` (and this is the chosen hit).

    Args:
        name: the point (one of :data:`POINTS`).
        when: False skips this call (the point does not apply here, e.g. a read).
    """
    global _spec, _hits
    if _spec is _UNREAD:
        raw = os.environ.get(ENV_VAR, "").strip()
        _spec = parse_failpoint(raw) if raw else None
    spec = _spec
    if spec is None or not when or not isinstance(spec, FailpointSpec) or spec.name != name:
        return
    _hits += 1
    if _hits == spec.hit:
        os.write(2, f"failpoint {spec} hit\n".encode())
        _kill()
