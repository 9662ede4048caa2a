"""A host's event client: its command line and a host that cannot be reached."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from paw.adapters.remote.events import HostEvents
from paw.adapters.remote.ssh import SshTransport, parse_target
from tests.support.sshd import free_port


@pytest.fixture
def control(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAW_SSH_CONTROL_DIR", str(tmp_path / "ctl"))


@pytest.mark.usefixtures("control")
def test_the_session_is_quoted_for_the_hosts_shell() -> None:
    transport = SshTransport(parse_target("ssh://me@127.0.0.1:2222"))
    base = (*transport.base_argv(), "tmux", "-u", "-L", "paw")
    events = HostEvents(transport, base, "paw-a b", socket_name="paw")
    argv = events._argv
    assert argv[: len(base)] == list(base)
    assert argv[len(base) :] == [
        "-C", "attach-session", "-t", shlex.quote("=paw-a b"), "-f", "ignore-size,pause-after=2",
    ]  # fmt: skip


@pytest.mark.usefixtures("control")
def test_an_unreachable_host_starts_no_client_and_is_not_live() -> None:
    transport = SshTransport(parse_target(f"ssh://me@127.0.0.1:{free_port()}"), connect_timeout=5)
    events = HostEvents(transport, (*transport.base_argv(), "tmux"), "paw", socket_name="paw")
    heard: list[str | None] = []
    events.subscribe(heard.append)
    assert not events._attach_once()
    assert events.pid is None
    assert not events.live()
    assert heard == []  # never attached: nothing to report (the sweeps find the host down)
