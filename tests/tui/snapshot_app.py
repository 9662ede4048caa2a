"""Build the TUI from fixture data for snapshot tests (posting ``posting_snapshot_app.py``).

Run one scenario by hand: ``python -m tests.tui.snapshot_app confirm``.
"""

from __future__ import annotations

import sys

from paw.tui.app import PawApp, make_app
from tests.tui.fake_supervisor import FakeSupervisor, scenario

HOUR = 3600.0  # snapshots sweep once at start; the timer never fires during a snapshot


def make_snapshot_app(name: str) -> tuple[PawApp, FakeSupervisor]:
    """The app over the named fake scenario, with a fixed clock."""
    fake = scenario(name)
    return make_app(fake, poll_interval=HOUR), fake


if __name__ == "__main__":
    make_snapshot_app(sys.argv[1] if len(sys.argv) > 1 else "mixed")[0].run()
