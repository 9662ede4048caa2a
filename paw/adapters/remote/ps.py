"""Process trees on a host: :class:`PsInspector` reads its process table with one
``ps`` per sweep (identity by pid, start time and command line; no ``exe``).
"""

from __future__ import annotations

import calendar
import posixpath
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace

from paw.adapters.proc import last_line
from paw.adapters.pstree import zombie_status
from paw.adapters.remote.ssh import SshTransport
from paw.adapters.remote.terminal import call
from paw.core.ports import ProcInfo
from paw.errors import PawError, TmuxError

_PS_TIMEOUT = 20.0

# ps's columns: pid, parent pid, start time (lstart: five words, in UTC), then the command line.
_PS_ARGV = ("env", "LC_ALL=C", "TZ=UTC", "ps", "-e", "-ww", "-o", "pid=,ppid=,lstart=,args=")


class PsInspector:
    """Process trees on the host from ``ps`` (one call reads the whole table).

    A process is identified by pid and start time as ps gives it (whole seconds, the same in
    every read); ``exe`` is unknown (empty), so identity rests on the name, the command line
    and the start time."""

    def __init__(self, transport: SshTransport) -> None:
        """Read the process table of the host of ``transport``."""
        self.transport = transport

    def table(self) -> dict[int, ProcInfo]:
        """Every process of the host (RemoteError when the host cannot be reached)."""
        done = call(self.transport, _PS_ARGV, TmuxError, label="ps", timeout=_PS_TIMEOUT)
        if not done.ok:
            raise TmuxError(f"ps on {self.transport.target.host}: {last_line(done.stderr)}")
        return parse_ps(done.stdout)

    def tree(self, pid: int) -> list[ProcInfo]:
        """``pid`` and its descendants on the host; empty when ``pid`` is gone."""
        return self.trees([pid])[pid]

    def trees(self, pids: Sequence[int]) -> dict[int, list[ProcInfo]]:
        """The tree of every pid in ``pids`` from one ``ps`` over ssh."""
        roots = list(dict.fromkeys(pids))
        if not roots:
            return {}
        table = self.table()
        children: dict[int, list[int]] = {}
        for info in table.values():
            children.setdefault(info.ppid, []).append(info.pid)
        return {root: _tree(root, table, children) for root in roots}

    def exit_status(self, pid: int) -> int | None:
        """A zombie's wait status from the host's ``/proc/<pid>/stat`` (None when it runs,
        is gone, or the host has no /proc or cannot be reached)."""
        try:
            argv = ("cat", f"/proc/{int(pid)}/stat")
            done = call(self.transport, argv, TmuxError, label="stat", timeout=_PS_TIMEOUT)
        except PawError:
            return None
        return zombie_status(done.stdout.encode()) if done.ok else None

    def end(self, procs: Sequence[ProcInfo], grace_s: float) -> list[ProcInfo]:
        """SIGTERM, then SIGKILL, the members of ``procs`` that outlive ``grace_s`` (each
        still the same process: pid and start time)."""
        stayed = self._same(procs, self._wait(procs, grace_s))
        if stayed:
            self._kill("TERM", stayed)
            alive = self._same(stayed, self._wait(stayed, grace_s))
            if alive:
                self._kill("KILL", alive)
        return stayed

    def _wait(self, procs: Sequence[ProcInfo], grace_s: float) -> dict[int, ProcInfo]:
        end = time.monotonic() + grace_s
        while True:
            table = self.table()
            if not self._same(procs, table) or time.monotonic() >= end:
                return table
            time.sleep(0.2)

    @staticmethod
    def _same(procs: Sequence[ProcInfo], table: Mapping[int, ProcInfo]) -> list[ProcInfo]:
        out = []
        for p in procs:
            now = table.get(p.pid)
            if now is not None and abs(now.create_time - p.create_time) < 1.0:
                out.append(p)
        return out

    def _kill(self, signal: str, procs: Sequence[ProcInfo]) -> None:
        argv = ["kill", f"-{signal}", *(str(p.pid) for p in procs)]
        call(self.transport, argv, TmuxError, label="kill", timeout=_PS_TIMEOUT)


def parse_ps(text: str) -> dict[int, ProcInfo]:
    """``ps -o pid=,ppid=,lstart=,args=`` output (C locale, UTC) as processes by pid."""
    table: dict[int, ProcInfo] = {}
    for line in text.splitlines():
        words = line.split(None, 7)
        if len(words) < 7 or not words[0].isdigit() or not words[1].isdigit():
            continue
        try:
            started = calendar.timegm(time.strptime(" ".join(words[2:7]), "%a %b %d %H:%M:%S %Y"))
        except ValueError:
            continue
        cmdline = tuple(words[7].split()) if len(words) > 7 else ()
        name = posixpath.basename(cmdline[0])[:15] if cmdline else ""
        pid, ppid = int(words[0]), int(words[1])
        table[pid] = ProcInfo(pid, name, "", cmdline, float(started), ppid)
    return table


def _tree(root: int, table: dict[int, ProcInfo], children: dict[int, list[int]]) -> list[ProcInfo]:
    top = table.get(root)
    if top is None:
        return []
    out, seen, stack = [replace(top, ppid=0)], {root}, [root]
    while stack:
        parent = stack.pop()
        for child in children.get(parent, ()):
            info = table.get(child)
            if child in seen or info is None or info.create_time < top.create_time:
                continue
            seen.add(child)
            out.append(info)
            stack.append(child)
    return out
