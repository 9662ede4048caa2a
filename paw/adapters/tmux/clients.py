"""How many clients are attached to a pane's session, paw's own control-mode clients left out
(a client paw runs is nobody watching the pane), and the end of paw's clients a killed paw left.

Where the kernel cannot end a helper with paw (:mod:`paw.adapters.parent_death`: Linux only),
a paw killed with SIGKILL can leave its control clients attached (tmux waits for ever to write
their queued output): they would count as someone watching, and keep the server alive past
``kill-server``. A new sweep client therefore lists the session's clients
(:data:`ORPHAN_FORMAT`) and ends paw's own (``ignore-size`` plus ``no-output`` or
``pause-after``) whose parent is gone (reparented to pid 1): :func:`end_orphans`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Sequence

from paw.core.ports import PaneInfo, Survey

ORPHAN_FORMAT = "#{client_pid} #{client_flags}"  # one line per client of the server
SWEEP_FLAGS = "no-output,ignore-size"  # ``-f`` of paw's sweep client (control.py)
EVENT_FLAGS = "ignore-size,pause-after="  # ``-f`` of paw's event client, then N (events.py)


def without_own_clients(
    survey: Survey, own: str | None, mine: int, memo: dict[str, tuple[PaneInfo, int, PaneInfo]]
) -> Survey:
    """``survey`` with the ``attached`` count of every pane of paw's session ``own`` less the
    ``mine`` clients paw runs there; ``memo`` keeps each pane's last answer, so a pane whose
    line did not change is the very object of the sweep before."""
    if own is None or not mine:
        return survey
    if len(memo) > 4 * len(survey.panes) + 64:
        memo.clear()
    panes = []
    for pane in survey.panes:
        if pane.session != own:
            panes.append(pane)
            continue
        known = memo.get(pane.pane_id)
        if known is None or known[0] is not pane or known[1] != mine:
            known = (pane, mine, with_attached(pane, max(0, pane.attached - mine)))
            memo[pane.pane_id] = known
        panes.append(known[2])  # (the same pane as last sweep's when its line was)
    return Survey(panes=tuple(panes), captures=survey.captures)


def with_attached(pane: PaneInfo, attached: int) -> PaneInfo:
    """``pane`` with another ``attached`` count (the constructor: dataclasses.replace costs
    several times more, and a sweep does this for every pane of paw's session)."""
    if pane.attached == attached:
        return pane
    return PaneInfo(
        pane_id=pane.pane_id, pane_pid=pane.pane_pid, session=pane.session, width=pane.width,
        height=pane.height, dead=pane.dead, current_command=pane.current_command,
        tags=pane.tags, server=pane.server, attached=attached,
    )  # fmt: skip


def paw_client_pids(lines: Sequence[str], prefix: str) -> list[int]:
    """The pids of paw's control clients in ``list-clients`` lines ``<prefix><ORPHAN_FORMAT>``:
    control mode with ``ignore-size`` and ``no-output`` (sweeps) or ``pause-after=N`` (events).

    >>> paw_client_pids(["T7 attached,control-mode,ignore-size,no-output,UTF-8",
    ...                  "T8 attached,focused,control-mode,UTF-8", "T9 attached,UTF-8"], "T")
    [7]
    """
    pids = []
    for line in lines:
        if not line.startswith(prefix):
            continue
        pid_text, _, flags_text = line[len(prefix) :].partition(" ")
        flags = set(flags_text.split(","))
        ours = "no-output" in flags or any(flag.startswith("pause-after=") for flag in flags)
        if {"control-mode", "ignore-size"} <= flags and ours and pid_text.isdigit():
            pids.append(int(pid_text))
    return pids


def end_orphans(pids: Iterable[int]) -> list[int]:
    """SIGTERM those of ``pids`` (paw's clients, :func:`paw_client_pids`) that run paw's own
    client command line on this machine and whose parent is gone (pid 1 adopted them: the paw
    that read them died); a tmux client ends on SIGTERM and its server lets it go. Nothing when
    paw is pid 1 itself (its own children have parent 1). Returns the pids signalled."""
    wanted = list(pids)
    if not wanted or os.getpid() == 1:
        return []
    import psutil  # deferred: only a new sweep client that sees paw's clients asks

    ended = []
    for pid in wanted:
        with contextlib.suppress(psutil.Error):
            process = psutil.Process(pid)
            if process.ppid() == 1 and is_paw_client(process.cmdline()):
                process.terminate()  # psutil refuses a pid reused since Process() was made
                ended.append(pid)
    return ended


def is_paw_client(argv: Sequence[str]) -> bool:
    """True for the command line of a paw control client (``tmux … -C attach-session … -f
    FLAGS`` with paw's flags), not a tmux server or a user's own client.

    >>> is_paw_client(["tmux", "-L", "x", "-C", "attach-session", "-t", "=s", "-f",
    ...                "ignore-size,pause-after=2"])
    True
    >>> is_paw_client(["tmux", "-L", "x", "new-session", "-d"])
    False
    """
    words = list(argv)
    flags = words[words.index("-f") + 1] if "-f" in words[:-1] else ""
    paw_flags = flags == SWEEP_FLAGS or flags.startswith(EVENT_FLAGS)
    return bool(words) and "tmux" in words[0] and "-C" in words and paw_flags
