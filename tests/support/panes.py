"""Many cheap panes on a test's private tmux server, made with few tmux processes.

Each pane runs ``sh -c 'cat SCREEN; exec cat'``: it shows the text of ``SCREEN`` and then
idles as ``cat`` (one small process per pane, nothing redrawn). Panes are made in batches of
:data:`BATCH` chained ``new-window`` commands (well under tmux's 16 KiB command limit), then
tagged the same way, so 300 panes cost a couple of seconds.
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
from libtmux.test.retry import retry_until

from tests.support.budget import budget

if TYPE_CHECKING:
    from libtmux import Server

BATCH = 25  # commands per tmux process: a tagged pane's commands take about 400 bytes


def tmux(socket: str, argv: Sequence[str]) -> str:
    """Run ``tmux -L socket ARGV`` for test setup; its stdout (failure raises)."""
    done = subprocess.run(
        ["tmux", "-L", socket, *argv], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def open_panes(
    socket: str, session: str, screens: Sequence[Path], names: Sequence[str]
) -> list[str]:
    """One window per screen file in ``session`` (named after ``names``); their pane ids."""
    panes: list[str] = []
    jobs = list(zip(screens, names, strict=True))
    for at in range(0, len(jobs), BATCH):
        argv: list[str] = []
        for screen, name in jobs[at : at + BATCH]:
            command = f"cat {shlex.quote(str(screen))}; exec cat"
            argv += ["new-window", "-d", "-t", f"={session}:", "-n", name, "-P", "-F"]
            argv += ["#{pane_id}", command, ";"]
        panes += tmux(socket, argv[:-1]).split()
    assert len(panes) == len(jobs), panes
    return panes


def tag_panes(socket: str, tags: Mapping[str, Mapping[str, str]]) -> None:
    """Set ``@key value`` pane options: ``tags`` maps a pane id to its tags."""
    items = list(tags.items())
    for at in range(0, len(items), BATCH):
        argv: list[str] = []
        for pane, values in items[at : at + BATCH]:
            for key, value in values.items():
                argv += ["set-option", "-p", "-t", pane, f"@{key}", value, ";"]
        tmux(socket, argv[:-1])


def pane_argv(server: Server, pane: str) -> str:
    """The command line of the process a pane runs ("" while it cannot be read)."""
    pid = int(server.cmd("display-message", "-p", "-t", pane, "#{pane_pid}").stdout[0])
    try:
        return " ".join(psutil.Process(pid).cmdline())
    except psutil.Error:
        return ""


def wait_pane_runs(server: Server, pane: str, needle: str) -> None:
    """Wait until the pane's own process runs what ``needle`` names: right after
    ``new-session`` it may still be the shell that execs it (on a loaded machine, long enough
    for a test to adopt the shell)."""
    assert retry_until(lambda: needle in pane_argv(server, pane), budget(30), raises=False), (
        f"pane {pane} never ran {needle!r}: {pane_argv(server, pane)!r}"
    )
