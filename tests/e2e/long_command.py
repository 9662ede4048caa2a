"""The long command the channel live tests give the model (``SCENARIO shell_long``), and what
they read around it. Harmless and long: it wraps at 80 columns, and the guard allows it (judged
on the exact input)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import channel_figure, paw_run, scenarios
from tests.e2e.scenarios import Action

LONG_FILE = "paw-long.txt"
LONG_COMMAND = (
    f"touch {LONG_FILE} && echo the quick brown fox jumps over the lazy dog and keeps on "
    "running across the long wide field until the evening comes"
)


def use_long_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``SCENARIO shell_long`` ask for :data:`LONG_COMMAND`."""
    monkeypatch.setitem(scenarios.SCENARIOS, "shell_long", Action("shell", command=LONG_COMMAND))


def started(agent: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[paw_run.PawRun]:
    """A fixture's body: paw and ``agent`` at 80x24, ``shell_long`` asking the long command;
    stopped after the test."""
    use_long_command(monkeypatch)
    run = paw_run.start(agent, 80, 24)
    try:
        yield run
    finally:
        paw_run.stop(run)


def sends(run: paw_run.PawRun) -> list[dict[str, Any]]:
    """The case's audit records of a decision paw sent."""
    return [r for r in channel_figure.audit(run) if r.get("decision") == "send"]


def channel_dir(run: paw_run.PawRun) -> Path:
    """The spawn's channel directory (the only one)."""
    dirs = list((run.ws.repo / ".paw" / "channels" / paw_run.AGENT_NAME).iterdir())
    assert len(dirs) == 1, dirs
    return dirs[0]
