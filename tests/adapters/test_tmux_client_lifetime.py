"""paw's tmux control-mode clients die with the paw process that started them, even by kill -9.

A real server on a private socket; a child Python process opens the sweep client
(:class:`ControlClient`, from its main thread or from a worker thread that has ended since) and
the event client (:class:`PaneEvents`) on a session whose pane floods output, prints the two
clients' pids, is stopped (it reads nothing more, so tmux queues output for the event client)
and killed with SIGKILL. Every client it started must then be gone, and ``kill-server`` must
end the server: before the fix the event client stayed attached for ever (tmux waits to
write its queued output to a reader that no longer exists) and the server outlived
``kill-server``. Where the kernel cannot end them (a paw on another system, played here by a
child with the parent-death signal off), the next paw's sweep client ends them.
"""

from __future__ import annotations

import json
import os
import select
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from paw.adapters.tmux.terminal import TmuxTerminal
from tests.support.budget import budget

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.skipif(sys.platform != "linux", reason="Linux")]

SESSION = "pawlife"

FLOOD = """\
import pathlib, sys, time
progress, line, count = pathlib.Path(sys.argv[1]), "x" * 400, 0
while True:
    for _ in range(20):
        print(count, line, flush=True)
        count += 1
    progress.write_text(str(count))
    time.sleep(0.01)
"""

CHILD = """\
import json, sys, threading, time
from paw.adapters import parent_death
from paw.adapters.tmux.control import ControlClient
from paw.adapters.tmux.events import PaneEvents

socket, session, where = sys.argv[1], sys.argv[2], sys.argv[3]
base = ["tmux", "-L", socket]
if sys.argv[5] == "unbound":  # a paw where the kernel cannot end helpers (not Linux)
    parent_death.available = lambda: False
made = []
if where == "worker":
    worker = threading.Thread(target=lambda: made.append(ControlClient(base, session)))
    worker.start()
    worker.join()  # the thread that started the client has ended
else:
    made.append(ControlClient(base, session))
client = made[0]
answers = client.states("tok")  # the client still answers
events = PaneEvents(base, session)
events.start()
deadline = time.monotonic() + float(sys.argv[4])
while not (events.live() and events.events) and time.monotonic() < deadline:
    time.sleep(0.05)
print(json.dumps({
    "pids": [client._process.pid, events._process.pid],
    "answers": any(line.startswith("tok ") for line in answers),
    "live": events.live(),
}), flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its reaper has ended)."""
    done = subprocess.run(
        ["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True, check=False
    )
    state = done.stdout.strip()
    return bool(state) and not state.startswith("Z")


def _wait(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + budget(seconds)
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"not within {budget(seconds):g}s: {what}")
        time.sleep(0.05)


def _report(child: subprocess.Popen[str], errors: Path, seconds: float) -> dict[str, Any]:
    """The child's one-line JSON report (its stderr in the failure when there is none)."""
    assert child.stdout is not None
    ready, _, _ = select.select([child.stdout], [], [], budget(seconds))
    line = child.stdout.readline() if ready else ""
    try:
        report: dict[str, Any] = json.loads(line)
    except ValueError:
        child.kill()
        child.wait()
        tail = errors.read_text(encoding="utf-8").strip().splitlines()[-3:]
        pytest.fail(f"no report from the child within {budget(seconds):g}s: {tail}")
    return report


def _kill_tmux(pid: int) -> None:
    """Clean up after a failure: SIGKILL ``pid`` if it is still one of our tmux processes."""
    done = subprocess.run(
        ["ps", "-o", "comm=", "-p", str(pid)], capture_output=True, text=True, check=False
    )
    if "tmux" in done.stdout and _alive(pid):
        os.kill(pid, signal.SIGKILL)


@pytest.fixture
def flooding(server: Server, tmp_path: Path) -> Iterator[tuple[str, int, Path]]:
    """The private server's socket name and pid, with a session whose pane floods output."""
    flood, progress = tmp_path / "flood.py", tmp_path / "progress"
    flood.write_text(FLOOD, encoding="utf-8")
    server.new_session(
        session_name=SESSION,
        x=80,
        y=24,
        window_command=shlex.join([sys.executable, str(flood), str(progress)]),
    )
    pid = int(server.cmd("display-message", "-p", "#{pid}").stdout[0])
    yield str(server.socket_name), pid, progress
    _kill_tmux(pid)  # a server that outlived kill-server must not outlive the test


def _count(progress: Path) -> int:
    try:
        return int(progress.read_text(encoding="utf-8") or 0)
    except (OSError, ValueError):
        return 0


class KilledPaw:
    """A child paw process holding both clients, killed with SIGKILL while output was queued
    for its event client; ``pids`` are the clients it started (SIGKILLed at the end if any
    survived, so a failing test leaves nothing behind)."""

    def __init__(self, socket: str, progress: Path, tmp_path: Path) -> None:
        self.socket, self.progress, self.tmp_path = socket, progress, tmp_path
        self.pids: list[int] = []
        self.child: subprocess.Popen[str] | None = None

    def run(self, where: str, binding: str) -> None:
        script = self.tmp_path / "child.py"
        script.write_text(CHILD, encoding="utf-8")
        argv = [sys.executable, str(script), self.socket, SESSION, where, str(budget(60)), binding]
        errors = self.tmp_path / "child.err"
        with errors.open("w", encoding="utf-8") as stderr:
            child = self.child = subprocess.Popen(
                argv, stdout=subprocess.PIPE, stderr=stderr, text=True
            )
        report = _report(child, errors, 90)
        self.pids = report["pids"]
        assert report["answers"], "the sweep client no longer answered after its thread ended"
        assert report["live"], "the event client never attached"
        assert all(_alive(pid) for pid in self.pids)
        # paw stops reading; the pane keeps printing, so tmux queues output for the event client
        os.kill(child.pid, signal.SIGSTOP)
        start = _count(self.progress)
        _wait(lambda: _count(self.progress) >= start + 1000, 60, "the pane printed 400 kB more")
        child.kill()
        child.wait(timeout=budget(30))

    def gone(self) -> bool:
        return not any(_alive(pid) for pid in self.pids)

    def clean(self) -> None:
        if self.child is not None and self.child.poll() is None:
            self.child.kill()
            self.child.wait()
        for pid in self.pids:
            _kill_tmux(pid)


@pytest.fixture
def killed(flooding: tuple[str, int, Path], tmp_path: Path) -> Iterator[KilledPaw]:
    socket, _pid, progress = flooding
    paw = KilledPaw(socket, progress, tmp_path)
    yield paw
    paw.clean()


def _kill_server(socket: str, server_pid: int) -> None:
    subprocess.run(["tmux", "-L", socket, "kill-server"], timeout=budget(30), check=False)
    _wait(lambda: not _alive(server_pid), 30, "the server ended after kill-server")


@pytest.mark.parametrize("where", ["main", "worker"])
def test_tmux_clients_die_with_a_killed_paw_and_kill_server_ends_the_server(
    flooding: tuple[str, int, Path], killed: KilledPaw, where: str
) -> None:
    socket, server_pid, _progress = flooding
    killed.run(where, "bound")
    _wait(killed.gone, 30, f"clients {killed.pids} ended")
    _kill_server(socket, server_pid)


def test_tmux_clients_a_killed_paw_left_are_ended_by_the_next_and_not_counted_as_watching(
    flooding: tuple[str, int, Path], killed: KilledPaw, tmp_path: Path
) -> None:
    """Where the kernel cannot end them (not Linux), the clients a killed paw left are ended by
    the next paw's sweep client, and never counted as someone attached to the pane."""
    socket, server_pid, _progress = flooding
    killed.run("main", "unbound")
    orphans = [pid for pid in killed.pids if _alive(pid)]
    if not orphans or any(_parent(pid) not in (0, 1) for pid in orphans):  # 0: just ended
        pytest.skip("no client outlived the paw, or a subreaper adopted them")
    terminal = TmuxTerminal(socket_name=socket, control=True)
    try:
        terminal.ensure_session(SESSION, str(tmp_path))
        pane = terminal.list_panes(SESSION)[0].pane_id

        def nobody_watching() -> bool:
            panes = terminal.survey([pane]).panes
            return [p.attached for p in panes if p.pane_id == pane] == [0]

        _wait(nobody_watching, 30, "the pane counted no attached client")
        _wait(killed.gone, 30, f"clients {killed.pids} ended")
    finally:
        terminal.close()
    _kill_server(socket, server_pid)


def _parent(pid: int) -> int:
    done = subprocess.run(
        ["ps", "-o", "ppid=", "-p", str(pid)], capture_output=True, text=True, check=False
    )
    return int(done.stdout.strip() or 0)
