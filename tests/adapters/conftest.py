"""Fixtures of the adapter tests: a TmuxTerminal on the libtmux plugin's private server, and a
counter of the processes paw starts."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from paw.adapters import proc
from paw.adapters.tmux.terminal import TmuxTerminal

if TYPE_CHECKING:
    from libtmux.server import Server

SESSION = "pawtest"


def run_git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd`` for test setup; return stdout."""
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return out.stdout


@pytest.fixture
def terminal(server: Server, tmp_path: Path) -> TmuxTerminal:
    """A TmuxTerminal on the plugin's private socket, with the session ``pawtest`` created."""
    term = TmuxTerminal(socket_name=server.socket_name)
    term.ensure_session(SESSION, str(tmp_path))
    return term


@pytest.fixture
def proc_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Every argv paw runs through ``proc.run`` or starts with ``proc.start`` from now on."""
    calls: list[tuple[str, ...]] = []
    real, real_start = proc.run, proc.start

    def counting(argv: Any, **kwargs: Any) -> proc.Completed:
        calls.append(tuple(argv))
        return real(argv, **kwargs)

    def counting_start(argv: Any, **kwargs: Any) -> proc.Started:
        calls.append(tuple(argv))
        return real_start(argv, **kwargs)

    monkeypatch.setattr(proc, "run", counting)
    monkeypatch.setattr(proc, "start", counting_start)
    return calls
