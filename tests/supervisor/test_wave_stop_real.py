"""A wave runner between two ticks an hour apart ends at ``paw wave stop``, at once; and a runner
killed while it ends (``kill -9`` at each of :data:`~paw.supervisor.crash_steps.WAVE_END_STEPS`)
leaves the end recorded exactly once: on real tmux, git, a scripted agent, real runner
processes driven by the real CLI and real apprise to a local HTTP receiver."""

from __future__ import annotations

import contextlib
import signal
import subprocess
from socket import gethostname
from typing import TYPE_CHECKING

import psutil
import pytest

from paw.supervisor.crash_steps import WAVE_END_STEPS
from tests.supervisor.test_wave_real import (
    BUDGET_S,
    PAW,
    _agent,
    _audit,
    _env,
    _paw,
    _state,
    _task,
    _wait,
)
from tests.supervisor.test_wave_windows_real import _finish, _notify, _setup, _start
from tests.support.receiver import Receiver

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git, pytest.mark.timeout(300)]

QUIET = "[notify]\nbell = false\ntmux_badge = false\n"
STOPPED = ": stopped (1 running)"  # "paw wave night (<repo> on <host>): stopped (1 running)"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local notification receiver."""
    found = Receiver()
    yield found
    found.close()


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


@pytest.mark.parametrize("step", WAVE_END_STEPS)
def test_a_runner_killed_while_it_ends_records_the_end_once(
    git_repo: Path, server: Server, receiver: Receiver, step: str
) -> None:
    """``paw wave stop``, the runner killed at ``step`` of its end; ``paw wave resume``: a kill
    before the ``wave-end`` record leaves nothing said (the resumed runner runs on until the
    next stop), a kill after it is finished by the resumed runner without a second record.
    Either way: one ``wave-end``, one "stopped" message, the wave stopped."""
    socket, repo = server.socket_name or "", git_repo
    wave_file = _setup(
        repo, socket, _agent("demo-quiet", "busy 0.3"),
        f'name = "night"\nagent = "demo-quiet"\npoll_s = 3600\nidle_poll_s = 3600\n'
        f'{_notify(receiver.url)}[[tasks]]\nname = "quiet"\ntask = "do nothing"\n',
    )  # fmt: skip
    crashed = _start(repo, socket, "run", str(wave_file), crash=step)
    try:
        _wait("the task started", lambda: _task(_state(repo), "quiet").get("phase") == "running")
        stop = _paw(repo, socket, "wave", "stop")
        assert stop.returncode == 0, stop.stdout + stop.stderr
    finally:
        code, output = _finish(crashed)
    assert code == -signal.SIGKILL, output
    left = _state(repo)
    assert (left["status"], left["ending"]["status"]) == ("running", "stopped"), left
    ends = [r for r in _audit(repo) if r["event"] == "wave-end"]
    assert len(ends) == (1 if step == "wave:end-recorded" else 0), ends

    resumed = _start(repo, socket, "resume")
    try:
        # its first tick settles the end it found: finished (recorded), or dropped (not)
        _wait("the end settled", lambda: _state(repo).get("ending") is None)
        if _state(repo)["status"] == "running":
            stop = _paw(repo, socket, "wave", "stop")
            assert stop.returncode == 0, stop.stdout + stop.stderr
    finally:
        code, output = _finish(resumed)
    assert code == 0, output
    assert _state(repo)["status"] == "stopped"
    ends = [r for r in _audit(repo) if r["event"] == "wave-end"]
    assert [r["status"] for r in ends] == ["stopped"]
    assert receiver.wait(lambda ms: any(STOPPED in str(m["title"]) for m in ms), BUDGET_S), (
        receiver.titles()
    )
    assert [t for t in receiver.titles() if "stopped" in t] == [
        f"paw wave night ({repo.name} on {gethostname()}){STOPPED}"
    ]


def test_a_check_running_when_the_wave_stops_is_ended_with_the_runner(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    """The runner ends (``paw wave stop``) while its task's check runs (a loop that waits for
    a file): the check's whole process group ends with it; nothing paw started for the wave
    outlives the runner (its result would never be read)."""
    socket, repo = server.socket_name or "", git_repo
    started, go = tmp_path / "check-started", tmp_path / "check-go"
    check = f"touch {started}; while [ ! -f {go} ]; do sleep 0.1; done"
    wave_file = _setup(
        repo, socket, _agent("demo-quiet", "busy 0.3"),
        f'name = "night"\nagent = "demo-quiet"\npoll_s = 0.5\nsettle_s = 1\n{QUIET}'
        f'[[tasks]]\nname = "quiet"\ntask = "do nothing"\ncheck = "{check}"\n',
    )  # fmt: skip
    runner = _start(repo, socket, "run", str(wave_file))
    try:
        _wait("the check runs", started.exists)
        checks = _checks(go)
        assert checks, "the check's processes"
        stop = _paw(repo, socket, "wave", "stop")
        assert stop.returncode == 0, stop.stdout + stop.stderr
        code, output = _finish(runner)
        assert code == 0, output
        _wait("the check ended with the runner", lambda: not _alive(checks))
    finally:
        go.touch()  # (the loop ends by itself too, should the test fail)
        if runner.poll() is None:
            runner.kill()
            runner.wait(30)


def _checks(marker: Path) -> list[psutil.Process]:
    """The processes of the check that waits for ``marker`` (its shell and its sleeps)."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        with contextlib.suppress(psutil.Error):
            if str(marker) in " ".join(proc.info["cmdline"] or ()):
                found.append(proc)
    return found


def _alive(procs: list[psutil.Process]) -> bool:
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                return True
    return False
