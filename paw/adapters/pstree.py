"""Process trees through psutil: :class:`~paw.core.ports.ProcessInspector`."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import psutil

from paw.core.ports import ProcInfo


class PsutilInspector:
    """Reads panes' process trees; vanished processes are skipped, never raised."""

    def end(self, procs: Sequence[ProcInfo], grace_s: float) -> list[ProcInfo]:
        """Wait up to ``grace_s`` seconds for the members of ``procs`` (same pid AND start
        time) to exit on their own, SIGTERM those left, wait again, then SIGKILL. Returns the
        processes that had to be signalled."""
        running: dict[psutil.Process, ProcInfo] = {}
        for info in procs:
            try:
                process = psutil.Process(info.pid)
                if abs(process.create_time() - info.create_time) < _SAME_START_S:
                    running[process] = info
            except psutil.Error:
                continue  # gone: nothing to end
        _gone, stayed = psutil.wait_procs(list(running), timeout=grace_s)
        for process in stayed:
            with contextlib.suppress(psutil.Error):
                process.terminate()
        _gone, alive = psutil.wait_procs(stayed, timeout=grace_s)
        for process in alive:
            with contextlib.suppress(psutil.Error):
                process.kill()
        psutil.wait_procs(alive, timeout=grace_s)
        return [running[process] for process in stayed]

    def tree(self, pid: int) -> list[ProcInfo]:
        """``pid`` and all its descendants (parent first); empty when ``pid`` is gone."""
        return self.trees([pid])[pid]

    def exit_status(self, pid: int) -> int | None:
        """A zombie's wait status from ``/proc/<pid>/stat`` (Linux; None elsewhere)."""
        try:
            return zombie_status(Path(f"/proc/{pid}/stat").read_bytes())
        except OSError:
            return None

    def trees(self, pids: Sequence[int]) -> dict[int, list[ProcInfo]]:
        """The tree of every pid in ``pids`` from ONE pass over the process table.

        The pass reads only pid and parent pid; name, exe, cmdline and start time are read
        for the members of the requested trees alone. A child older than its tree's root is
        a reused pid, not a descendant (psutil's ``children`` rule).
        """
        roots = list(dict.fromkeys(pids))
        if not roots:
            return {}
        children = _walk_children(roots) if len(roots) <= FEW_ROOTS else None
        if children is None:
            children = _children_map()
        cache: dict[int, ProcInfo | None] = {}
        return {root: _tree(root, children, cache) for root in roots}


# Up to this many trees are walked down from their roots instead. A walk costs a directory
# listing and a read per thread of each tree member, a table pass one read per process on the
# machine: at a few hundred processes, walking 32 trees of agents took 1.1 ms against 9.6 ms
# for the pass (a sweep of a TUI, where only the agents that drew are looked at again).
FEW_ROOTS = 32
_SAME_START_S = 0.01  # psutil's start times of one process agree to the clock tick


BACKGROUND_NICE = 10  # what lower_thread_priority adds to the calling thread's nice value


def lower_thread_priority() -> None:
    """Lower the calling thread's priority (nice +:data:`BACKGROUND_NICE`), and so of the
    processes it starts from now on (they inherit it). Linux only, where a thread's nice value
    is its own: elsewhere a thread id is no process id and nice is the whole process's, and
    nothing is changed. Best effort: a failure changes nothing."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError):
        tid = threading.get_native_id()
        nice = os.getpriority(os.PRIO_PROCESS, tid)
        os.setpriority(os.PRIO_PROCESS, tid, min(19, nice + BACKGROUND_NICE))


def zombie_status(stat: bytes) -> int | None:
    """The wait status in a ``/proc/<pid>/stat`` line when the process is a zombie (state
    ``Z``; the status is field 52, Linux 3.5+), else None.

    >>> zombie_status(b"81 (bash) Z 60 81 81 0 -1 4227084" + b" 0" * 42 + b" 32512\\n")
    32512
    >>> zombie_status(b"81 (my prog) S 60" + b" 0" * 48 + b" 0\\n") is None
    True
    """
    _, _, rest = stat.rpartition(b")")  # the name may hold spaces and parentheses
    fields = rest.split()
    if len(fields) < 50 or fields[0] != b"Z" or not fields[49].isdigit():
        return None
    return int(fields[49])


def _children_map() -> dict[int, list[int]]:
    """Every process's children, from one pass over the process table: on Linux straight
    from ``/proc/<pid>/stat`` (one read per process; psutil's iterator reads two and checks
    each for pid reuse, several times slower at a few hundred processes), else psutil."""
    try:
        return _proc_children()
    except OSError:
        pass
    children: dict[int, list[int]] = {}
    for process in psutil.process_iter(["pid", "ppid"]):
        info = process.info
        pid, ppid = info.get("pid"), info.get("ppid")
        if isinstance(pid, int) and isinstance(ppid, int) and pid != ppid:
            children.setdefault(ppid, []).append(pid)
    return children


def _walk_children(roots: Sequence[int]) -> dict[int, list[int]] | None:
    """The children of ``roots`` and their descendants, read down from each root through the
    kernel's ``/proc/<pid>/task/<tid>/children`` lists (a few reads per tree member instead of
    one per process on the machine). None where the kernel has no such lists (the caller then
    reads the whole table)."""
    children: dict[int, list[int]] = {}
    todo = list(roots)
    seen: set[int] = set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            tasks = os.listdir(f"/proc/{pid}/task")  # noqa: PTH208 - hot path, names only
        except FileNotFoundError:
            continue  # gone: no children
        except OSError:
            return None
        kids: list[int] = []
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/children", "rb") as fh:  # noqa: PTH123
                    kids += [int(k) for k in fh.read().split()]
            except FileNotFoundError:
                if task == str(pid) and os.path.exists(f"/proc/{pid}"):  # noqa: PTH110
                    return None  # the process runs, the list does not exist: no support
                continue
            except (OSError, ValueError):
                continue
        if kids:
            children[pid] = sorted(set(kids))  # pid order, as a table pass lists them
            todo.extend(kids)
    return children


def _proc_children() -> dict[int, list[int]]:
    """:func:`_children_map` from ``/proc`` (OSError where there is none)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):  # noqa: PTH208 - hot path, names only
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:  # noqa: PTH123 - hot path
                stat = fh.read()
        except OSError:
            continue  # exited meanwhile, or not readable
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after
        # the last ")"
        fields = stat[stat.rfind(b")") + 2 :].split(b" ", 2)
        if len(fields) < 2 or not fields[1].isdigit():
            continue
        pid, ppid = int(entry), int(fields[1])
        if pid != ppid:
            children.setdefault(ppid, []).append(pid)
    return children


def _tree(
    root: int, children: dict[int, list[int]], cache: dict[int, ProcInfo | None]
) -> list[ProcInfo]:
    """``root`` then its descendants in psutil's order (a depth-first walk of a stack)."""
    top = _cached(root, cache)
    if top is None:
        return []
    out, seen, stack = [top], {root}, [root]
    while stack:
        parent = stack.pop()
        for child in children.get(parent, ()):
            info = _cached(child, cache)
            if child in seen or info is None or info.create_time < top.create_time:
                continue
            seen.add(child)
            out.append(replace(info, ppid=parent))
            stack.append(child)
    return out


def _cached(pid: int, cache: dict[int, ProcInfo | None]) -> ProcInfo | None:
    if pid not in cache:
        try:
            cache[pid] = _info(psutil.Process(pid))
        except (psutil.Error, ValueError):
            cache[pid] = None
    return cache[pid]


def _info(process: psutil.Process) -> ProcInfo | None:
    try:
        with process.oneshot():
            return ProcInfo(
                pid=process.pid,
                name=process.name(),
                exe=_exe(process),
                cmdline=tuple(process.cmdline()),
                create_time=process.create_time(),
            )
    except psutil.Error:  # gone, zombie or not ours: not part of the live tree
        return None


def _exe(process: psutil.Process) -> str:
    try:
        return process.exe()
    except psutil.Error:  # access denied on some platforms; the name and cmdline still count
        return ""
