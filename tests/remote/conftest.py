"""Fixtures of the remote-host tests: a real sshd on 127.0.0.1 and a clone "on the host"."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from paw.cli import main
from paw.cli.demo import kill_tmux_server, render_demo_config, tmux_socket_path
from tests.support.sshd import SSHD, Sshd


@dataclass
class Site:
    """A local repository with a host added: the host is this machine reached over ssh."""

    repo: Path
    clone: Path
    sshd: Sshd
    local_socket: str
    remote_socket: str
    host: str = "box"


@pytest.fixture
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sshd]:
    """A running sshd on 127.0.0.1 with keys made for this test."""
    if not Path(SSHD).exists() or shutil.which("ssh") is None:
        pytest.fail("sshd/ssh are not installed (.ci/run installs openssh-server)")
    server = Sshd(tmp_path_factory.mktemp("sshd"))
    server.prepare()
    server.start()
    yield server
    server.stop_listener()


@pytest.fixture
def site(
    git_repo: Path,
    sshd: Sshd,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Site]:
    """``git_repo`` with the demo agent kinds, a clone of it, and that clone added as host
    ``box`` (over the test sshd, its own tmux socket, this interpreter as its Python)."""
    control = Path("/tmp") / f"paw-ssh-test-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("PAW_SSH_CONTROL_DIR", str(control))
    suffix = uuid.uuid4().hex[:8]
    local_socket, remote_socket = f"paw-l-{suffix}", f"paw-r-{suffix}"
    (git_repo / "paw.toml").write_text(render_demo_config(local_socket), encoding="utf-8")
    clone = tmp_path / "host-clone"
    subprocess.run(["git", "clone", "-q", str(git_repo), str(clone)], check=True)
    found = Site(git_repo, clone, sshd, local_socket, remote_socket)
    code = main([
        "host", "add", "box", sshd.url, "-C", str(git_repo), "--repo", str(clone),
        "--socket", remote_socket, "--python", sys.executable,
        "--ssh-config", str(sshd.client_config),
    ])  # fmt: skip
    assert code == 0
    yield found
    try:
        ended = sshd.ssh("tmux", "-L", remote_socket, "kill-server").returncode == 0
    except subprocess.TimeoutExpired:
        ended = False
    if not ended:  # (a test that cut the connection): the host is this machine, same user
        host_socket = Path(f"/tmp/tmux-{os.getuid()}") / remote_socket
        kill = ["tmux", "-S", str(host_socket), "kill-server"]
        subprocess.run(kill, capture_output=True, check=False)
    kill_tmux_server(local_socket)  # (and its socket file, which tmux leaves behind)
    # the host is this machine and the same user: its server's socket file stays behind too
    tmux_socket_path(remote_socket).unlink(missing_ok=True)
    for sock in control.glob("*") if control.exists() else ():
        # the test's masters end, and with them every session over them (kept shells, tmux
        # control clients) that the test's supervisors still hold
        check = ["ssh", "-o", f"ControlPath={sock}", "-O", "check", "x"]
        said = subprocess.run(check, capture_output=True, text=True, check=False).stderr
        pid = re.search(r"pid=(\d+)", said)
        if pid:
            os.kill(int(pid.group(1)), signal.SIGTERM)
    shutil.rmtree(control, ignore_errors=True)
