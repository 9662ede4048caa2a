"""The e2e harness leaves no tmux server and no dead socket file behind (tmux itself does not
remove its socket on ``kill-server``)."""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

import pytest

from paw.cli.demo import kill_tmux_server, tmux_socket_path
from tests.e2e.pane import Pane

pytestmark = [pytest.mark.tmux]


def test_killing_a_pane_server_removes_its_socket_file(tmp_path: Path) -> None:
    socket = f"pawe2e-clean-{uuid.uuid4().hex[:8]}"
    path = tmux_socket_path(socket)
    pane = Pane.start(socket, ["sleep", "60"], tmp_path, 80, 24)
    try:
        assert path.is_socket()
    finally:
        pane.kill_server()
    assert not path.exists()
    gone = subprocess.run(["tmux", "-L", socket, "ls"], capture_output=True, check=False)
    assert gone.returncode != 0


def test_reaping_a_server_that_already_died_still_removes_the_socket(tmp_path: Path) -> None:
    socket = f"pawe2e-clean-{uuid.uuid4().hex[:8]}"
    Pane.start(socket, ["sleep", "60"], tmp_path, 80, 24)
    subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, check=False)
    assert tmux_socket_path(socket).is_socket()  # what tmux leaves behind
    kill_tmux_server(socket)
    assert not tmux_socket_path(socket).exists()
