"""Build the TUI for the snapshot tests (posting ``posting_snapshot_app.py``) over a real world,
and, for the pilot tests of pure screen logic, over fixture data.

Run one scenario of the real world by hand: ``python -m tests.tui.snapshot_app confirm`` (a
throwaway repository and tmux server, removed on exit).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from paw.tui.app import PawApp, make_app
from tests.tui.fake_supervisor import FakeSupervisor, scenario
from tests.tui.snapshot_world import (
    SCENARIOS,
    WAVE_ROLES,
    Pinned,
    build_wave_world,
    build_world,
    lose_tmux,
)

if TYPE_CHECKING:
    from libtmux.server import Server

HOUR = 3600.0  # snapshots sweep once at start; the timer never fires during a snapshot


def make_snapshot_app(name: str) -> tuple[PawApp, FakeSupervisor]:
    """The app over the named fake scenario, with a fixed clock: for the pilot tests of what
    the screens do with a picture (tests/tui/fake_supervisor.py says which); the snapshots are
    drawn over a real world."""
    fake = scenario(name)
    return make_app(fake, poll_interval=HOUR), fake


def make_real_snapshot_app(repo: Path, server: Server, name: str) -> PawApp:
    """The app over the real supervisor of ``repo`` (a real git repository) on the tmux
    ``server``, with the scenario's scripted agents settled (``tmux_gone``: then the server is
    killed; ``wave``: the real wave runner's), fed through
    :class:`~tests.tui.snapshot_world.Pinned`."""
    socket = server.socket_name or ""
    if name == "wave":  # the real runner's wave, the runner stopped (tests/tui/wave_real.py)
        pinned = Pinned(build_wave_world(repo, socket), WAVE_ROLES, repo.parent, socket)
        return make_app(pinned, poll_interval=HOUR, waves=pinned.waves(repo))
    supervisor = build_world(repo, socket, "agents" if name == "tmux_gone" else name)
    if name == "tmux_gone":
        lose_tmux(supervisor, server)
    pinned = Pinned(supervisor, SCENARIOS[name], repo.parent, socket)
    return make_app(pinned, poll_interval=HOUR)


def _by_hand(name: str) -> None:
    from libtmux.server import Server

    root = Path(tempfile.mkdtemp(prefix="paw-snapshot-"))
    repo = root / "repo"
    repo.mkdir()
    for argv in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "initial"]):
        subprocess.run(["git", *argv], cwd=repo, check=True)
    server = Server(socket_name=f"paw-snapshot-{root.name}")
    server.new_session("snapshot")
    try:
        make_real_snapshot_app(repo, server, name).run()
    finally:
        if server.is_alive():
            server.kill()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    _by_hand(sys.argv[1] if len(sys.argv) > 1 else "mixed")
