"""A niced paw's nice for the sessions it starts (Linux's autogroup scheduling).

With autogroup scheduling (``/proc/sys/kernel/sched_autogroup_enabled`` = 1) Linux shares the
CPU between *sessions* first, and a process's nice value weighs only within its own session's
group. Every process that starts a session (``setsid``) gets a new group whose nice is 0, so
``nice paw …`` did little: the tmux server, each agent's pane, a wave's checks and the sweeper
run in sessions of their own and took the CPU at full weight. Where paw starts such a session it
gives the new group paw's own nice (``os.nice(0)``) when that is above 0, by writing it to
``/proc/PID/autogroup``: the whole session (the pane's agent and everything it starts) shares
that one group. A group is never made less nice than it is (that needs privilege, and is not
paw's to do), and where there is nothing to write to (not Linux, no autogroups, the process
already gone, no permission) nothing happens.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

SESSION_BUDGET_S = 10.0  # a forked pane's process calls setsid first thing; generous under load
_NICE = re.compile(r"\bnice\s+(-?\d+)\s*$")


def parse_autogroup(text: str) -> int | None:
    """The nice of a ``/proc/PID/autogroup`` line (``/autogroup-42 nice 5``), or None."""
    found = _NICE.search(text.strip())
    return int(found.group(1)) if found else None


def own_nice() -> int:
    """paw's own nice value (0 where it cannot be read)."""
    try:
        return os.nice(0)
    except OSError:
        return 0


def group_nice(pid: int | str) -> int | None:
    """The nice of the autogroup ``pid`` belongs to (``"self"``: paw's); None where unknown."""
    try:
        return parse_autogroup(Path(f"/proc/{pid}/autogroup").read_text(encoding="ascii"))
    except (OSError, ValueError):
        return None


def _leads_its_session(pid: int, budget_s: float = SESSION_BUDGET_S) -> bool:
    """True once ``pid`` leads a session of its own (its ``setsid`` done), within ``budget_s``.

    A process writes to the group it is in *now*: a pane's process that tmux has forked but
    that has not yet called ``setsid`` is still in the tmux server's group, and a nice written
    for it then went to the server (seen under load: a niced paw niced a user's own server,
    every pane of it). Before its ``setsid`` nothing is written; a process that never leads a
    session (gone, or never meant to) gets nothing."""
    deadline = time.monotonic() + budget_s
    while True:
        try:
            if os.getsid(pid) == pid:
                return True
        except OSError:  # gone, or not ours to ask
            return False
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.005)


def share_nice(pid: int, nice: int | None = None) -> bool:
    """Give the autogroup of ``pid`` (the leader of a session paw just started) ``nice``
    (default: paw's own) when that is above 0 and above the group's; True when written."""
    value = own_nice() if nice is None else nice
    if value <= 0:
        return False
    if not _leads_its_session(pid):
        return False
    current = group_nice(pid)
    if current is None or current >= value:
        return False
    try:
        Path(f"/proc/{pid}/autogroup").write_text(str(value), encoding="ascii")
    except OSError:
        return False
    return True
