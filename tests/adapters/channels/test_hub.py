"""FileChannelHub with opencode's and Kilo Code's server: wired at spawn (flags and the
password in the environment), one reader per agent reused across sweeps and bound to the agent's
process tree, closed and forgotten when the agent goes. The reader runs against the local
stand-in replaying the pinned opencode's events (tests/adapters/channels/test_opencode_wire.py);
the real one: tests/e2e/test_channel_opencode_paw_live.py."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from paw.adapters.channels.hub import FileChannelHub
from paw.adapters.channels.opencode import OpencodeChannel, load_opencode_server
from paw.core.ports import Wired
from tests.adapters.channels.test_opencode_wire import Replay
from tests.support.budget import budget

WAIT = budget(20.0)


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[FileChannelHub]:
    opened = FileChannelHub(tmp_path, sys.executable)
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
    assert wired.argv == (program, *flags, "--prompt=task")
    assert wired.env[password_var] == server.password
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
    wired = hub.wire("alice", "opencode", "tok1", ("opencode",))
    replay = Replay(wired.env["OPENCODE_SERVER_PASSWORD"])
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
