"""Process trees through psutil: :class:`~paw.core.ports.ProcessInspector`."""

from __future__ import annotations

import psutil

from paw.core.ports import ProcInfo


class PsutilInspector:
    """Reads a pane's process tree; vanished processes are skipped, never raised."""

    def tree(self, pid: int) -> list[ProcInfo]:
        """``pid`` and all its descendants (parent first); empty when ``pid`` is gone."""
        try:
            root = psutil.Process(pid)
            members = [root, *root.children(recursive=True)]
        except (psutil.Error, ValueError):
            return []
        infos = [_info(member) for member in members]
        return [info for info in infos if info is not None]


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
