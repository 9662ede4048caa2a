"""The event clients paw starts on a host end when paw lets go of them, over a real sshd.

A tmux control client whose ssh session ended can stay attached on the host (its server waits
for ever to write the output queued for it): it would count as someone watching the session.
paw learns each client's pid on the host when it attaches and ends the ones a dropped
connection left before it attaches again, and its own when it stops."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from paw.adapters.remote.events import HostEvents
from paw.adapters.remote.ssh import SshTransport, parse_target
from paw.adapters.remote.terminal import RemoteTerminal
from paw.cli.demo import tmux_socket_path
from tests.support.budget import budget
from tests.support.sshd import Sshd
from tests.tui.real_world import wait_for

pytestmark = [pytest.mark.tmux]

SESSION = "paw-events"
# a window that draws all the time: output is queued for every client when its connection drops
FLOOD = "while :; do seq 1 400; done"


@pytest.fixture
def host(
    sshd: Sshd, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[SshTransport, str]]:
    """A transport to the test sshd and a tmux socket name of the test's own on the host."""
    control = Path("/tmp") / f"paw-ev-{uuid.uuid4().hex[:8]}"  # short: a socket path's limit
    monkeypatch.setenv("PAW_SSH_CONTROL_DIR", str(control))
    transport = SshTransport(parse_target(sshd.url), config_file=str(sshd.client_config))
    socket_name = f"paw-ev-{uuid.uuid4().hex[:8]}"
    yield transport, socket_name
    try:
        ended = sshd.ssh("tmux", "-L", socket_name, "kill-server").returncode == 0
    except subprocess.TimeoutExpired:
        ended = False
    if not ended:  # the host is this machine, the same user
        kill = ["tmux", "-L", socket_name, "kill-server"]
        subprocess.run(kill, capture_output=True, check=False)
    transport.disconnect()
    tmux_socket_path(socket_name).unlink(missing_ok=True)  # tmux leaves it behind
    shutil.rmtree(control, ignore_errors=True)


def _clients(sshd: Sshd, socket_name: str) -> list[int] | None:
    """The pids of the host server's clients (None when the host did not answer)."""
    listed = sshd.ssh("tmux", "-L", socket_name, "list-clients", "-F", shlex.quote("#{client_pid}"))
    if listed.returncode != 0:
        return None
    return sorted(int(word) for word in listed.stdout.split())


def _stalled(remote_pid: int) -> int:
    """Stop the sshd process that serves the client ``remote_pid`` (the host is this machine):
    the client's output then queues on the host, as on a link that stalls. Returns its pid."""
    server = psutil.Process(remote_pid).ppid()
    os.kill(server, signal.SIGSTOP)
    # (a stimulus, not a wait for a result: the flooding window fills the stalled pipe in far
    # less; were it not full, the client would end on its own and the test pass without cause)
    time.sleep(3.0)
    return server


def test_clients_a_stalled_link_left_on_the_host_are_ended_and_a_stop_leaves_none(
    sshd: Sshd, host: tuple[SshTransport, str]
) -> None:
    transport, socket_name = host
    transport.connect()  # the master every session goes over, as a fleet's host link starts it
    terminal = RemoteTerminal(transport, socket_name, control=True)
    terminal.ensure_session(SESSION, "/")
    drawn = sshd.ssh(
        "tmux", "-L", socket_name, "new-window", "-d", "-t", f"={SESSION}", shlex.quote(FLOOD)
    )
    assert drawn.returncode == 0, drawn.stderr
    assert terminal.watch(lambda pane: None)
    events = terminal._events
    assert isinstance(events, HostEvents)
    started: set[int] = set()
    try:
        assert wait_for(lambda: events.live() and len(events.remote_pids) == 1, budget(30.0))
        for _ in range(3):
            before, local = events.remote_pids[0], events.pid
            assert local is not None
            started.add(before)
            # the link stalls with output in flight, then the client's ssh dies: the host's
            # server keeps that client for ever, waiting to write what it queued
            server = _stalled(before)
            os.kill(local, signal.SIGKILL)
            os.kill(server, signal.SIGCONT)
            assert wait_for(
                lambda b=before: events.live() and events.remote_pids not in ([], [b]),  # type: ignore[misc]
                budget(60.0),
            )  # fmt: skip
            # the host lists exactly the client that runs now: the one left behind was ended
            assert wait_for(
                lambda: _clients(sshd, socket_name) == events.remote_pids, budget(30.0)
            ), (_clients(sshd, socket_name), events.remote_pids)
            assert len(events.remote_pids) == 1
        started.update(events.remote_pids)
        assert len(started) == 4  # each attach told paw its client's pid on the host
        # a stop while the link stalls: the local client ends at once, the host's when it answers
        server = _stalled(events.remote_pids[0])
        threading.Timer(1.0, os.kill, (server, signal.SIGCONT)).start()
    finally:
        terminal.close()
    # nothing of paw's stays attached to the host once paw let go
    assert wait_for(lambda: _clients(sshd, socket_name) == [], budget(30.0)), _clients(
        sshd, socket_name
    )
    assert events.remote_pids == []
