"""FileChannelHub with opencode's and Kilo Code's server: wired at spawn (flags, and the
password through a launcher reading a 0600 file: in no process's argv), one reader per agent
reused across sweeps and bound to the agent's process tree (an event stream only in long-running
processes), closed and forgotten when the agent goes. The reader runs against the local
stand-in replaying the pinned opencode's events (tests/adapters/channels/test_opencode_wire.py);
the real one: tests/e2e/test_channel_opencode_paw_live.py."""

from __future__ import annotations

import dataclasses
import json
import os
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from paw.adapters.channels import hub as hub_module
from paw.adapters.channels.hub import MAX_STREAMS, FileChannelHub
from paw.adapters.channels.opencode import OpencodeChannel
from paw.adapters.channels.opencode_wiring import LAUNCHER, load_opencode_server
from paw.adapters.tmux.terminal import TmuxTerminal
from paw.cli import compose
from paw.core.channels.request import ChannelAnswer, ChannelState
from paw.core.config import SERVER_TIMEOUT_S, PawConfig
from paw.core.ports import Wired
from paw.errors import ChannelRefused
from tests.adapters.channels.test_opencode_wire import Replay
from tests.adapters.conftest import SESSION
from tests.support.budget import budget

WAIT = budget(20.0)


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[FileChannelHub]:
    """A long-running process's hub (the TUI's, the sweeper's): one event stream per agent."""
    opened = FileChannelHub(tmp_path, sys.executable, streams=True)
    yield opened
    opened.close()


@pytest.mark.parametrize(
    ("kind", "program", "password_var"),
    [
        ("opencode", "/opt/bin/opencode", "OPENCODE_SERVER_PASSWORD"),
        ("kilocode", "/opt/bin/kilo", "KILO_SERVER_PASSWORD"),
    ],
)
def test_the_server_is_wired_per_spawn_in_argv_and_env(
    hub: FileChannelHub, tmp_path: Path, kind: str, program: str, password_var: str
) -> None:
    wired = hub.wire("alice", kind, "tok1", (program, "--prompt=task"))
    server = load_opencode_server("alice", tmp_path)
    assert server is not None
    assert server.kind == kind
    flags = ("--port", str(server.port), "--hostname", "127.0.0.1", "--no-mdns")
    secret = tmp_path / "channels" / "alice.opencode.password"
    # started through the launcher, which reads the password from a 0600 file: it is neither
    # in the argv nor in the environment tmux is given on its command line
    assert wired.argv[:2] == ("/bin/sh", "-c")
    assert wired.argv[3:] == (LAUNCHER, str(secret), program, *flags, "--prompt=task")
    assert password_var not in wired.env
    assert not [a for a in (*wired.argv, *wired.env.values()) if server.password in a]
    assert secret.read_text(encoding="utf-8") == server.password + "\n"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    # the launcher gives the program the password, and execs it in place (same pid)
    show = ["/bin/sh", "-c", f'printf "%s %s" "${password_var}" "$$"']
    launcher = subprocess.Popen([*wired.argv[:5], *show], stdout=subprocess.PIPE, text=True)
    shown, _ = launcher.communicate(timeout=WAIT)
    assert shown == f"{server.password} {launcher.pid}"
    # a password file it cannot read starts nothing, and says so in one line
    secret.unlink()
    failed = subprocess.run(
        [*wired.argv[:5], "touch", str(tmp_path / "ran")],
        capture_output=True, text=True, check=False, timeout=WAIT,
    )  # fmt: skip
    assert failed.returncode == 1
    assert failed.stderr.startswith("paw: cannot read the channel password file")
    assert not (tmp_path / "ran").exists()
    # a custom command (a wrapper whose flags paw does not know) and other kinds: as they are
    assert hub.wire("bob", kind, "t", ("my-wrapper", "x")) == Wired(("my-wrapper", "x"))
    assert hub.wire("bob", "codex", "t", ("opencode",)) == Wired(("opencode",))
    assert load_opencode_server("bob", tmp_path) is None
    # never wired, or no process known: no channel
    assert hub.port("bob", kind, "t", os.getpid()) is None
    assert hub.port("alice", kind, "tok1", None) is None
    assert hub.port("alice", "codex", "tok1", os.getpid()) is None


def _point_at(tmp_path: Path, agent: str, replay: Replay) -> None:
    """The wired record, its port moved to the local stand-in (its password kept)."""
    server = load_opencode_server(agent, tmp_path)
    assert server is not None
    record = tmp_path / "channels" / f"{agent}.opencode.json"
    moved = dataclasses.replace(server, port=replay.port)
    record.write_text(json.dumps(dataclasses.asdict(moved)), encoding="utf-8")


def test_one_reader_per_agent_bound_to_its_process_and_closed_on_release(
    hub: FileChannelHub, tmp_path: Path
) -> None:
    hub.wire("alice", "opencode", "tok1", ("opencode",))
    server = load_opencode_server("alice", tmp_path)
    assert server is not None
    replay = Replay(server.password)
    stranger = subprocess.Popen(["sleep", "600"])  # a process whose tree does not hold us
    try:
        _point_at(tmp_path, "alice", replay)
        replay.pending.append(replay.asked["properties"])
        # This process listens on the port: the agent's tree (rooted here) holds the listener.
        port = hub.port("alice", "opencode", "tok1", os.getpid())
        assert isinstance(port, OpencodeChannel)
        assert port.connected  # opened and synced before the first look returns
        assert [r.request_id for r in port.pending()] == [replay.asked["properties"]["id"]]
        assert hub.port("alice", "opencode", "tok1", os.getpid()) is port  # reused
        # the agent restarted (another process): a new reader, the old one closed
        other = hub.port("alice", "opencode", "tok1", stranger.pid)
        assert other is not None
        assert other is not port
        assert not port.wait_connected(0.0)  # closed
        # bound to that process's tree: this process (the listener) is not in it
        assert isinstance(other, OpencodeChannel)
        assert not other.wait_connected(budget(2.0))
        assert other.pending() == []
        hub.release("alice")
        assert not other.connected
        assert load_opencode_server("alice", tmp_path) is None
        assert not (tmp_path / "channels" / "alice.opencode.password").exists()
        assert hub.port("alice", "opencode", "tok1", os.getpid()) is None
    finally:
        stranger.kill()
        stranger.wait()
        replay.close()


def test_a_server_nobody_listens_on_is_not_waited_for(hub: FileChannelHub, tmp_path: Path) -> None:
    hub.wire("alice", "kilocode", "tok1", ("kilo",))
    port = hub.port("alice", "kilocode", "tok1", os.getpid())
    assert isinstance(port, OpencodeChannel)
    assert not port.connected
    assert port.pending() == []


def test_a_one_shot_process_holds_no_stream_and_reads_the_list_when_it_looks(
    tmp_path: Path,
) -> None:
    """paw prompts, approve, ls…: no event stream (opencode warns over its TUI past ten at
    once); each look is one list request on a connection closed at once, bound to the agent's
    process tree as the stream is, and an answer still goes once, bound to the request."""
    hub = FileChannelHub(tmp_path, sys.executable)  # not long-running: the default
    hub.wire("alice", "opencode", "tok1", ("opencode",))
    server = load_opencode_server("alice", tmp_path)
    assert server is not None
    replay = Replay(server.password)
    stranger = subprocess.Popen(["sleep", "600"])
    try:
        _point_at(tmp_path, "alice", replay)
        props = replay.asked["properties"]
        replay.pending.append(props)
        port = hub.port("alice", "opencode", "tok1", os.getpid())
        assert isinstance(port, OpencodeChannel)
        assert [r.request_id for r in port.pending()] == [props["id"]]
        assert replay.event_requests == 0  # listed without subscribing to the stream
        assert hub.port("alice", "opencode", "tok1", os.getpid()) is port  # reused
        with pytest.raises(ChannelRefused):
            port.answer("per_forged", ChannelAnswer.ALLOW)
        port.answer(props["id"], ChannelAnswer.ALLOW)
        assert replay.replies == [(props["id"], {"reply": "once"})]
        assert port.state(props["id"]) is ChannelState.RESOLVED
        with pytest.raises(ChannelRefused):
            port.answer(props["id"], ChannelAnswer.ALLOW)
        assert len(replay.replies) == 1
        # a request arriving later is seen at the next look, with no stream
        replay.pending.append({**props, "id": "per_second"})
        assert port.wait_pending(WAIT)[0].request_id == "per_second"
        assert replay.event_requests == 0  # never subscribed
        mine = psutil.Process().net_connections(kind="tcp")
        assert not [c for c in mine if getattr(c.raddr, "port", None) == replay.port]  # all closed
        # bound to the agent's process tree: another process's agent reads nothing here
        other = hub.port("alice", "opencode", "tok1", stranger.pid)
        assert other is not None
        assert other.pending() == []
    finally:
        hub.close()
        stranger.kill()
        stranger.wait()
        replay.close()


# Longer than the fixed waits paw once had (3 s for a one-shot look's list, 5 s for a
# long-running process's first connection), well within the default budget.
SLOW_SERVER_S = 6.0


@pytest.mark.parametrize("streams", [False, True], ids=["one-shot", "long-running"])
def test_a_slow_server_is_still_read_through_the_channel(tmp_path: Path, streams: bool) -> None:
    """On a loaded machine the agent's server answers late: within ``[channels]
    server_timeout_s`` (default SERVER_TIMEOUT_S) its pending request is still listed through
    the channel, not dropped for the screen; a budget shorter than the server's delay (set in
    paw.toml) gives the look up, and the screen path applies."""
    assert SERVER_TIMEOUT_S > SLOW_SERVER_S
    hub = compose._channels(PawConfig(), tmp_path, streams=streams)
    assert isinstance(hub, FileChannelHub)
    assert hub.server_timeout == SERVER_TIMEOUT_S
    hub.wire("alice", "opencode", "tok1", ("opencode",))
    server = load_opencode_server("alice", tmp_path)
    assert server is not None
    replay = Replay(server.password)
    try:
        _point_at(tmp_path, "alice", replay)
        props = replay.asked["properties"]
        replay.pending.append(props)
        replay.list_delay = SLOW_SERVER_S
        port = hub.port("alice", "opencode", "tok1", os.getpid())
        assert isinstance(port, OpencodeChannel)
        assert [r.request_id for r in port.pending()] == [props["id"]]
    finally:
        hub.close()
        replay.close()


def test_a_budget_shorter_than_the_server_gives_the_look_up(tmp_path: Path) -> None:
    """``[channels] server_timeout_s`` in paw.toml is the budget the channel gets."""
    (tmp_path / "paw.toml").write_text("[channels]\nserver_timeout_s = 1.0\n", "utf-8")
    config = compose.load_config(tmp_path / "paw.toml")
    hub = compose._channels(config, tmp_path / "state", streams=False)
    assert isinstance(hub, FileChannelHub)
    assert hub.server_timeout == 1.0
    hub.wire("alice", "opencode", "tok1", ("opencode",))
    server = load_opencode_server("alice", tmp_path / "state")
    assert server is not None
    replay = Replay(server.password)
    try:
        _point_at(tmp_path / "state", "alice", replay)
        replay.pending.append(replay.asked["properties"])
        replay.list_delay = SLOW_SERVER_S
        port = hub.port("alice", "opencode", "tok1", os.getpid())
        assert isinstance(port, OpencodeChannel)
        started = time.monotonic()
        assert port.pending() == []
        assert not port.connected
        assert time.monotonic() - started < SLOW_SERVER_S
    finally:
        hub.close()
        replay.close()


@pytest.mark.tmux
@pytest.mark.parametrize(
    ("kind", "program", "password_var"),
    [
        ("opencode", "opencode", "OPENCODE_SERVER_PASSWORD"),
        ("kilocode", "kilo", "KILO_SERVER_PASSWORD"),
    ],
)
def test_the_password_is_in_no_process_argv_during_a_spawn(
    terminal: TmuxTerminal,
    proc_calls: list[tuple[str, ...]],
    tmp_path: Path,
    kind: str,
    program: str,
    password_var: str,
) -> None:
    """The spawn's tmux commands (every argv paw runs), every process on the machine while the
    pane starts, the pane's process tree and the start command tmux keeps: none carries the
    server's password; the agent has it in its environment. (The scan of every process's argv
    samples: with the password on tmux's command line it caught the short-lived client in about
    one run of six; the record of paw's own commands catches it every time.)"""
    seen = tmp_path / "seen"
    fake = tmp_path / "bin" / program
    fake.parent.mkdir()
    fake.write_text(
        f'#!/bin/sh\nprintf "%s" "${password_var}" > "{seen}.tmp" && mv "{seen}.tmp" "{seen}"\n'
        "exec sleep 600\n",
        encoding="utf-8",
    )
    fake.chmod(0o755)
    hub = FileChannelHub(tmp_path / "state", sys.executable)
    wired = hub.wire("alice", kind, "tok1", (str(fake), "--prompt=task"))
    server = load_opencode_server("alice", tmp_path / "state")
    assert server is not None
    needle = server.password.encode()
    carried: list[str] = []
    done = threading.Event()

    def watch() -> None:  # every process's argv, over and over while the pane starts
        while not done.is_set():
            for entry in Path("/proc").iterdir():
                try:
                    argv = (entry / "cmdline").read_bytes()
                except OSError:
                    continue
                if needle in argv:
                    carried.append(argv.decode("utf-8", "replace"))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        pane = terminal.new_pane(
            SESSION, str(tmp_path), wired.argv, wired.env, {"paw_agent": "alice"}
        )
        deadline = time.monotonic() + WAIT
        while not seen.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        done.set()
        watcher.join(WAIT)
    assert seen.read_text(encoding="utf-8") == server.password  # the agent has it
    assert any("respawn-pane" in call for call in proc_calls)  # the spawn's tmux commands...
    assert not [c for c in proc_calls if any(server.password in a for a in c)]  # ...not it
    assert carried == []
    tree = [psutil.Process(pane.pane_pid), *psutil.Process(pane.pane_pid).children(True)]
    assert not [p for p in tree if any(server.password in a for a in _argv(p))]
    shown = subprocess.run(
        ["tmux", "-L", str(terminal.socket_name), "display-message", "-p", "-t", pane.pane_id,
         "#{pane_start_command}"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert LAUNCHER in shown
    assert server.password not in shown


def test_long_running_processes_share_a_few_streams_per_agent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However many long-running paw processes look at one agent, at most MAX_STREAMS hold its
    event stream (a flock per slot: separate descriptors conflict as separate processes do);
    the others read the list, and take a slot once one is freed."""
    monkeypatch.setattr(hub_module, "SLOT_RETRY_S", 0.0)
    hubs = [FileChannelHub(tmp_path, sys.executable, streams=True) for _ in range(MAX_STREAMS + 2)]
    hubs[0].wire("alice", "opencode", "tok1", ("opencode",))
    server = load_opencode_server("alice", tmp_path)
    assert server is not None
    replay = Replay(server.password)
    try:
        _point_at(tmp_path, "alice", replay)
        props = replay.asked["properties"]
        replay.pending.append(props)
        ports = [h.port("alice", "opencode", "tok1", os.getpid()) for h in hubs]
        channels = [p for p in ports if isinstance(p, OpencodeChannel)]
        assert len(channels) == len(hubs)
        assert [c.stream for c in channels] == [True] * MAX_STREAMS + [False, False]
        for channel in channels:  # every process lists the request, streaming or not
            assert [r.request_id for r in channel.pending()] == [props["id"]]
        assert replay.event_requests == MAX_STREAMS
        hubs[0].close()  # a streaming process ends: its slot is free
        again = hubs[-1].port("alice", "opencode", "tok1", os.getpid())
        assert isinstance(again, OpencodeChannel)
        assert again.stream
        assert again.wait_connected(WAIT)
        assert replay.event_requests == MAX_STREAMS + 1
        # released: the slots' lock files go with the agent's record
        hubs[1].release("alice")
        assert not list((tmp_path / "channels").glob("alice.*"))
    finally:
        for hub in hubs:
            hub.close()
        replay.close()


def test_a_stream_slot_held_by_a_process_killed_9_is_free_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another paw process holds every slot of the agent and is killed -9: the kernel frees its
    locks, and a long-running process reading the list takes a stream at its next look."""
    monkeypatch.setattr(hub_module, "SLOT_RETRY_S", 0.0)
    hub = FileChannelHub(tmp_path, sys.executable, streams=True)
    hub.wire("alice", "opencode", "tok1", ("opencode",))
    server = load_opencode_server("alice", tmp_path)
    assert server is not None
    replay = Replay(server.password)
    holder_code = (
        "import fcntl, os, sys, time\n"
        "fds = [os.open(p, os.O_RDWR | os.O_CREAT, 0o600) for p in sys.argv[1:]]\n"
        "[fcntl.flock(fd, fcntl.LOCK_EX) for fd in fds]\n"
        "print('held', flush=True)\n"
        "time.sleep(600)\n"
    )
    slots = [str(tmp_path / "channels" / f"alice.stream-{k}.lock") for k in range(MAX_STREAMS)]
    holder = subprocess.Popen(
        [sys.executable, "-c", holder_code, *slots], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        _point_at(tmp_path, "alice", replay)
        first = hub.port("alice", "opencode", "tok1", os.getpid())
        assert isinstance(first, OpencodeChannel)
        assert not first.stream  # every slot taken
        holder.kill()  # kill -9
        holder.wait()
        again = hub.port("alice", "opencode", "tok1", os.getpid())
        assert isinstance(again, OpencodeChannel)
        assert again.stream
        assert again.wait_connected(WAIT)
        assert replay.event_requests == 1
    finally:
        holder.kill()
        holder.wait()
        hub.close()
        replay.close()


def _argv(process: psutil.Process) -> list[str]:
    """A process's argv; none for one that has ended (a zombie not yet reaped by its parent, as
    the fake agent's ``mv`` was once on a loaded machine): it carries nothing any more."""
    try:
        return process.cmdline()
    except (psutil.ZombieProcess, psutil.NoSuchProcess):
        return []
