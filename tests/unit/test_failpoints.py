"""Failpoints kill the process on the named point's chosen hit, and cost nothing otherwise."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest

from helpdesk.degrade import failpoints
from helpdesk.degrade.failpoints import FailpointSpec, configure, failpoint, parse_failpoint


@pytest.fixture(autouse=True)
def _disarmed() -> Iterator[None]:
    yield
    configure(None)


def test_failpoint_kills_on_the_named_point_only() -> None:
    kills: list[str] = []
    configure(FailpointSpec(name="write.after_execute"), kill=lambda: kills.append("killed"))
    failpoint("write.before_call")
    failpoint("turn.start")
    assert kills == []
    failpoint("write.after_execute")
    assert kills == ["killed"]


def test_failpoint_kills_on_the_nth_hit() -> None:
    kills: list[int] = []
    configure(parse_failpoint("reply.before_publish@3"), kill=lambda: kills.append(1))
    failpoint("reply.before_publish")
    failpoint("reply.before_publish")
    assert kills == []
    failpoint("reply.before_publish")
    assert kills == [1]
    failpoint("reply.before_publish")
    assert kills == [1]


def test_failpoint_when_false_is_not_a_hit() -> None:
    kills: list[int] = []
    configure(parse_failpoint("write.before_call@1"), kill=lambda: kills.append(1))
    failpoint("write.before_call", when=False)
    assert kills == []
    failpoint("write.before_call")
    assert kills == [1]


def test_failpoint_disarmed_does_nothing() -> None:
    configure(None, kill=lambda: pytest.fail("killed"))
    for name in failpoints.POINTS:
        failpoint(name)


@pytest.mark.parametrize(
    ("text", "message"),
    [("nope", "unknown failpoint 'nope'"), ("turn.start@0", "hit must be >= 1"),
     ("turn.start@x", "hit must be an integer")],
)  # fmt: skip
def test_parse_failpoint_rejects_bad_specs(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_failpoint(text)


def test_failpoint_from_the_environment_sends_sigkill() -> None:
    code = (
        "from helpdesk.degrade.failpoints import failpoint\nfailpoint('turn.start')\nprint('alive')"
    )
    env = {**os.environ, "HELPDESK_FAILPOINT": "turn.start"}
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == -signal.SIGKILL
    assert proc.stdout == "" and "failpoint turn.start@1 hit" in proc.stderr
    unarmed = {k: v for k, v in env.items() if k != "HELPDESK_FAILPOINT"}
    alive = subprocess.run(
        [sys.executable, "-c", code], env=unarmed, capture_output=True, text=True, timeout=60
    )
    assert (alive.returncode, alive.stdout) == (0, "alive\n")
