"""Build the TUI for snapshot tests (posting ``posting_snapshot_app.py``): from fixture data,
or over the real supervisor where the screen it draws is the same on every run.

Run one scenario by hand: ``python -m tests.tui.snapshot_app confirm``.
"""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
from pathlib import Path

from paw.adapters.wave_watch import WaveWatcher
from paw.tui.app import PawApp, make_app
from tests.tui.fake_supervisor import FakeSupervisor, scenario
from tests.tui.real_world import make_supervisor
from tests.tui.wave_world import wave_state, wave_supervisor, write_wave

HOUR = 3600.0  # snapshots sweep once at start; the timer never fires during a snapshot


def make_snapshot_app(name: str) -> tuple[PawApp, FakeSupervisor]:
    """The app over the named fake scenario, with a fixed clock. ``wave``: the wave's agents,
    and its state (made by the wave core) in a temporary ``.paw/waves``."""
    if name == "wave":
        fake = wave_supervisor()
        root = Path(tempfile.mkdtemp(prefix="paw-snapshot-"))
        atexit.register(shutil.rmtree, root, ignore_errors=True)
        waves = root / ".paw" / "waves"
        write_wave(waves, wave_state(fake))
        return make_app(fake, poll_interval=HOUR, waves=WaveWatcher(waves).read), fake
    fake = scenario(name)
    return make_app(fake, poll_interval=HOUR), fake


def make_real_snapshot_app(repo: Path, socket: str) -> PawApp:
    """The app over the real supervisor of ``repo`` (a real git repository) on the tmux server
    ``socket``, with no agent: the screens a newcomer sees first. A world with agents shows
    their ages on the wall clock and the socket's path in tmux's errors, so those snapshots
    stay on fixture data (tests/tui/fake_supervisor.py)."""
    return make_app(make_supervisor(repo, socket), poll_interval=HOUR)


if __name__ == "__main__":
    make_snapshot_app(sys.argv[1] if len(sys.argv) > 1 else "mixed")[0].run()
