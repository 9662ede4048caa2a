"""Which tmux clients are paw's own, and which of those a killed paw left (the portable
fallback of :mod:`paw.adapters.parent_death`; the real-server case is in
test_tmux_client_lifetime.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from paw.adapters.tmux.clients import end_orphans, is_paw_client, paw_client_pids


def test_paw_client_pids_are_control_clients_with_paws_flags_only() -> None:
    lines = [
        "T11 attached,focused,control-mode,ignore-size,no-output,UTF-8",  # paw's sweeps
        "T12 attached,control-mode,ignore-size,pause-after=2,UTF-8",  # paw's events
        "T13 attached,focused,control-mode,UTF-8",  # a user's tmux -CC (iTerm2)
        "T14 attached,focused,UTF-8",  # a user's terminal
        "T15 attached,control-mode,no-output,UTF-8",  # not paw's: no ignore-size
        "X16 attached,control-mode,ignore-size,no-output,UTF-8",  # another prefix
        "Tx attached,control-mode,ignore-size,no-output",  # no pid
    ]
    assert paw_client_pids(lines, "T") == [11, 12]


def test_is_paw_client_knows_paws_command_lines_only() -> None:
    base = ["tmux", "-L", "x", "-C", "attach-session", "-t", "=paw"]
    assert is_paw_client([*base, "-f", "no-output,ignore-size"])
    assert is_paw_client(["/usr/bin/tmux", "-u", *base[1:], "-f", "ignore-size,pause-after=2"])
    assert not is_paw_client(base)  # a user's control client
    assert not is_paw_client([*base, "-f", "ignore-size"])
    assert not is_paw_client(
        ["tmux", "-L", "x", "new-session", "-d", "-f", "no-output,ignore-size"]
    )
    assert not is_paw_client(["sh", "-C", "-f", "no-output,ignore-size"])
    assert not is_paw_client(["tmux", "-C", "-f"])  # no flags after -f
    assert not is_paw_client([])


def test_end_orphans_leaves_processes_with_a_live_parent_and_foreign_programs() -> None:
    """A process whose parent lives (paw's own clients, another paw's) is never signalled,
    nor one that is not a paw client, nor a pid that does not exist."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        assert end_orphans([child.pid, os.getpid(), 1, 2**22 + 12345]) == []
        assert child.poll() is None
    finally:
        child.kill()
        child.wait()
