"""A hook channel's poke lists the request before any screen is captured (issue 32): over real
tmux and git, paw's real hook program run as Qwen Code runs it (the stand-in agent of
:mod:`tests.support.hook_stand_in`, which draws nothing while its hook waits).

The screen sweep is held at its first tmux call until the test lets it go: the request must be
in the picture ``publish_early`` is given (and in the prompts table) while it is held. A forged
record and a flood of pokes list nothing; a second paw process sweeping meanwhile finds the
very same occurrence."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from libtmux.server import Server

from paw.cli.compose import build_supervisor
from paw.supervisor.model import Snapshot
from paw.supervisor.records import load_agents, load_prompts
from paw.supervisor.service import Supervisor
from tests.support.budget import budget
from tests.support.hook_stand_in import (
    COMMAND,
    EVENT,
    HeldSurvey,
    configure_stand_in,
    stop_hooks,
)

pytestmark = [pytest.mark.tmux, pytest.mark.git]


def _until(check: Callable[[], bool], seconds: float, step: Callable[[], object]) -> bool:
    end = time.monotonic() + budget(seconds)
    while time.monotonic() < end:
        step()
        if check():
            return True
        time.sleep(0.05)
    return False


def _listed(snapshot: Snapshot | None) -> list[str]:
    if snapshot is None:
        return []
    return [p.id for p in snapshot.prompts if p.prompt.subject == COMMAND]


def test_a_poke_lists_the_channel_request_before_any_screen_is_captured(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    socket = server.socket_name or ""
    go = configure_stand_in(git_repo, socket, tmp_path)
    supervisor = build_supervisor(str(git_repo), socket_name=socket, control=True)
    other = build_supervisor(str(git_repo), socket_name=socket, control=True)
    assert isinstance(supervisor, Supervisor)
    assert isinstance(other, Supervisor)
    supervisor.spawn("alice", "qwen-code", None)
    record = load_agents(supervisor.ctx.state)["alice"]
    assert record.launched is not None
    assert record.token
    pid = record.launched.pid
    poked = threading.Event()
    supervisor.listen_counts(poked.set)
    early: list[Snapshot] = []
    supervisor.publish_early = early.append
    last: list[Snapshot] = []

    def sweep() -> None:
        last[:] = [supervisor.poll_once()]

    def idle() -> bool:  # seen, proven, asking nothing, its channel's mark settled
        seen = supervisor.ctx.memory.observed.get("alice")
        marks = supervisor.ctx.memory.channel_marks
        [view] = [v for v in last[0].agents if v.name == "alice"]
        return (
            seen is not None
            and seen[1].proc is not None
            and view.status.value != "starting"
            and not last[0].prompts
            and isinstance(marks.get("alice"), tuple)
        )

    # The screen sweep, held at its first tmux call while ``hold`` is set.
    gate = HeldSurvey(supervisor.ctx.terminal)
    held, hold, entered = gate.held, gate.hold, gate.entered
    try:
        assert _until(idle, 60, sweep), last
        # A forged record in the agent's channel (written by this process, not the agent's
        # tree) and a flood of pokes: the look lists nothing, publishes nothing.
        channel = git_repo / ".paw" / "channels" / "alice" / record.token
        assert (channel / "req").is_dir(), sorted(p.name for p in channel.iterdir())
        forged = dict(EVENT, tool_input={"command": "rm -rf ~"})
        (channel / "req" / "forged.json").write_text(json.dumps(forged), encoding="utf-8")
        fifos = list((git_repo / ".paw" / "channels" / ".wake").glob("*.fifo"))
        assert len(fifos) == 1
        fd = os.open(fifos[0], os.O_WRONLY | os.O_NONBLOCK)
        try:
            for _ in range(500):
                with contextlib.suppress(BlockingIOError):
                    os.write(fd, b"x")
        finally:
            os.close(fd)
        assert poked.wait(budget(30))
        looks = supervisor.channel_looks
        sweep()
        assert supervisor.channel_looks == looks
        assert not early, early
        assert not last[0].prompts
        (channel / "req" / "forged.json").unlink()
        assert _until(idle, 60, sweep), last
        # The real hook program lands the request and pokes; the screen sweep is held.
        poked.clear()
        hold.set()
        go.write_text(json.dumps(EVENT), encoding="utf-8")
        # (a poke of the flood's may come late: the look must follow the record's landing)
        assert _until(lambda: any((channel / "req").glob("[!.]*.json")), 30, lambda: None)
        assert poked.wait(budget(30))
        sweeps = supervisor.sweeps
        worker = threading.Thread(target=sweep, daemon=True)
        worker.start()
        assert entered.wait(budget(60))  # the screen sweep started, and is held
        assert supervisor.sweeps == sweeps + 1
        [picture] = early
        [oid] = _listed(picture)
        [prompt] = [p for p in picture.prompts if p.id == oid]
        assert prompt.source.name == "channel-only"
        [view] = [v for v in picture.agents if v.name == "alice"]
        assert view.status.value == "prompt"  # a request paw answers through the channel
        # recorded before it was published: an approval from any paw process finds it
        assert oid in load_prompts(supervisor.ctx.state)
        # a second paw process sweeping meanwhile finds that very occurrence
        assert _listed(other.poll_once()) == [oid]
        held.set()
        worker.join(budget(120))
        assert not worker.is_alive()
        assert _listed(last[0]) == [oid]  # the screen sweep's cross-check keeps it
    finally:
        held.set()
        stop_hooks(pid)
        other.close()
        supervisor.close()


# A paw process that sweeps until the stand-in is idle, says so, and on the hook's poke makes
# the early look, killed -9 in it (under the prompts lock, before the table's write) or right
# after its picture went (the table written, the screen sweep not made).
_CHILD = """
import os, signal, sys, threading, time
from paw.cli.compose import build_supervisor
sup = build_supervisor(sys.argv[1], socket_name=sys.argv[2], control=True)
poked = threading.Event()
sup.listen_counts(poked.set)
sup.publish_early = lambda snapshot: os.kill(os.getpid(), signal.SIGKILL)
while True:
    snap = sup.poll_once()
    seen = sup.ctx.memory.observed.get("alice")
    if seen is not None and seen[1].proc is not None and not snap.prompts and isinstance(
        sup.ctx.memory.channel_marks.get("alice"), tuple
    ):
        break
    time.sleep(0.05)
print("ready", flush=True)
req = sys.argv[3]
while not any(n.endswith(".json") and not n.startswith(".") for n in os.listdir(req)):
    time.sleep(0.01)
end = time.monotonic() + 120
while not sup.poked and time.monotonic() < end:  # the hook's own poke (a count also wakes)
    poked.wait(0.05)
sup.poll_once()
print("survived", flush=True)
"""


@pytest.mark.parametrize("point", ["sweep:channel-look", "after-the-picture"])
def test_kill_9_in_the_early_look_lists_the_request_once_for_the_next_paw(
    git_repo: Path, server: Server, tmp_path: Path, point: str
) -> None:
    import subprocess

    from paw.adapters.crash_switch import CRASH_ENV

    socket = server.socket_name or ""
    go = configure_stand_in(git_repo, socket, tmp_path)
    supervisor = build_supervisor(str(git_repo), socket_name=socket, control=True)
    assert isinstance(supervisor, Supervisor)
    supervisor.spawn("alice", "qwen-code", None)
    record = load_agents(supervisor.ctx.state)["alice"]
    assert record.launched is not None
    assert record.token
    req = git_repo / ".paw" / "channels" / "alice" / record.token / "req"
    env = dict(os.environ)
    if point.startswith("sweep:"):
        env[CRASH_ENV] = point
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(git_repo), socket, str(req)],
        stdout=subprocess.PIPE, env=env, text=True,
    )  # fmt: skip
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        go.write_text(json.dumps(EVENT), encoding="utf-8")
        assert child.wait(budget(120)) == -signal.SIGKILL
        table = load_prompts(supervisor.ctx.state)  # whole, and the lock is free again
        written = [r.id for r in table.values() if r.subject == COMMAND]
        assert len(written) == (0 if point.startswith("sweep:") else 1)
        # the next paw process lists it once (the occurrence written, if any, is that one)
        listed: list[str] = []
        assert _until(
            lambda: bool(listed), 60, lambda: listed.extend(_listed(supervisor.poll_once()))
        )
        assert len(set(listed)) == 1
        assert not written or listed[0] == written[0]
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        stop_hooks(record.launched.pid)
        supervisor.close()
