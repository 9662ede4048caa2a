"""A wave runner between two ticks an hour apart ends at ``paw wave stop``, at once: on real
tmux, git, a scripted agent and a real runner process driven by the real CLI."""

from __future__ import annotations

import subprocess
from typing import TYPE_CHECKING

import pytest

from tests.supervisor.test_wave_real import (
    BUDGET_S,
    PAW,
    _agent,
    _audit,
    _env,
    _state,
    _task,
    _wait,
)
from tests.supervisor.test_wave_windows_real import _finish, _setup, _start

if TYPE_CHECKING:
    from pathlib import Path

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git, pytest.mark.timeout(300)]

QUIET = "[notify]\nbell = false\ntmux_badge = false\n"


def test_a_runner_sleeping_an_hour_ends_at_wave_stop(git_repo: Path, server: Server) -> None:
    """``poll_s = 3600``: the runner started its task and sleeps an hour; two ``paw wave stop``
    at once end it within the budget (not at its next tick), stopped, with one ``wave-end``."""
    socket, repo = server.socket_name or "", git_repo
    wave_file = _setup(
        repo, socket, _agent("demo-quiet", "busy 0.3"),
        f'name = "night"\nagent = "demo-quiet"\npoll_s = 3600\nidle_poll_s = 3600\n{QUIET}'
        '[[tasks]]\nname = "quiet"\ntask = "do nothing"\n',
    )  # fmt: skip
    runner = _start(repo, socket, "run", str(wave_file))
    try:
        _wait("the task started", lambda: _task(_state(repo), "quiet").get("phase") == "running")
        argv = [*PAW, "wave", "stop", "night"]
        pipe = subprocess.PIPE
        stops = [
            subprocess.Popen(argv, cwd=repo, env=_env(socket), text=True, stdout=pipe, stderr=pipe)
            for _ in range(2)
        ]
        for stop in stops:
            out, err = stop.communicate(timeout=BUDGET_S)
            assert stop.returncode == 0, out + err
    finally:
        code, output = _finish(runner)  # BUDGET_S: far less than the hour it sleeps
    assert code == 0, output
    assert _state(repo)["status"] == "stopped"
    ends = [r for r in _audit(repo) if r["event"] == "wave-end"]
    assert [r["status"] for r in ends] == ["stopped"]
