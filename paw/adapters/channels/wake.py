"""The wake of a long-running paw process: its FIFO in the state dir's wake directory, which
paw's hook program pokes when a channel's record lands or ends (:mod:`paw.core.channels.wake`).

One FIFO per process (``<pid>-<random>.fifo``, 0600 in a 0700 directory), read on a thread of
its own: every poke read, however many, becomes at most one call of ``on_wake`` per
:data:`MIN_GAP_S` (a flood of pokes costs one cheap call per gap; the sweep it asks for is
paced by the sweeps' own duty cycle). ``on_wake`` is called after the pokes are read, so a
record written before its poke is on disk when the look starts, even when the FIFO was full
and the poke itself was dropped. A poke decides nothing: the sweep reads and proves the records
as always. The process holds a write end of its own FIFO, so it never reads an end of file;
when it ends (even by kill -9) its FIFO has no reader, a hook's poke fails to open it at once,
and the next listener removes it after :data:`STALE_S`.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import select
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

from paw.core.channels.wake import SUFFIX, wake_dir

MIN_GAP_S = 0.005  # at most one wake-up per this long, however many pokes
READ_BYTES = 1 << 16
STALE_S = 60.0  # a FIFO nobody reads, older than this, is removed by the next listener


class WakeListener:
    """Reads this process's FIFO and calls ``on_wake`` when it was poked."""

    def __init__(self, state_root: Path, on_wake: Callable[[], None]) -> None:
        self.directory = wake_dir(state_root)
        self.on_wake = on_wake
        self.path: Path | None = None
        self.wakes = 0  # calls of on_wake so far
        self._fds: tuple[int, int] | None = None  # (read end, the write end held open)
        self._stop_r, self._stop_w = -1, -1
        self._thread: threading.Thread | None = None

    def start(self) -> bool:
        """Make the FIFO and start reading it (False: it cannot be made here; the sweeps' own
        schedule then reads the channels, as before)."""
        if self._thread is not None:
            return True
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            info = self.directory.lstat()
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
                return False
            _remove_stale(self.directory)
            path = self.directory / f"{os.getpid()}-{secrets.token_hex(4)}{SUFFIX}"
            os.mkfifo(path, 0o600)
            read = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            write = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, AttributeError):  # (AttributeError: no os.mkfifo on this system)
            return False
        self.path, self._fds = path, (read, write)
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name="paw-channel-wake", daemon=True)
        self._thread.start()
        return True

    def close(self) -> None:
        """Stop reading and remove the FIFO (idempotent)."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        with contextlib.suppress(OSError):
            os.write(self._stop_w, b"x")
        if thread is not threading.current_thread():
            thread.join(timeout=5)
        if self.path is not None:
            self.path.unlink(missing_ok=True)
        for fd in (*(self._fds or ()), self._stop_r, self._stop_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds = None

    def _run(self) -> None:
        if self._fds is None:
            return
        read = self._fds[0]
        while True:
            try:
                ready, _, _ = select.select([read, self._stop_r], [], [])
            except (OSError, ValueError):
                return
            if self._stop_r in ready:
                return
            if not _drain(read):
                continue
            self.wakes += 1
            with contextlib.suppress(Exception):  # (the caller's trouble is not the reader's)
                self.on_wake()
            # the pokes that come meanwhile wait in the FIFO: one more wake-up after the gap
            with contextlib.suppress(OSError, ValueError):
                if select.select([self._stop_r], [], [], MIN_GAP_S)[0]:
                    return


def _drain(fd: int) -> bool:
    """Read every poke waiting (a bounded number of reads); True if any was read."""
    got = False
    for _ in range(16):
        try:
            data = os.read(fd, READ_BYTES)
        except BlockingIOError:
            break
        except OSError:
            return got
        if not data:
            break
        got = True
        if len(data) < READ_BYTES:
            break
    return got


def _remove_stale(directory: Path) -> None:
    """Remove the FIFOs of paw processes that ended without removing theirs (kill -9): nobody
    reads them, and they are older than :data:`STALE_S` (a FIFO being made right now is young)."""
    now = time.time()
    try:
        names = [p.name for p in directory.iterdir() if p.name.endswith(SUFFIX)]
    except OSError:
        return
    for name in names:
        path = directory / name
        try:
            info = path.lstat()
            if not stat.S_ISFIFO(info.st_mode) or now - info.st_ctime < STALE_S:
                continue
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:  # ENXIO: nobody reads it
            with contextlib.suppress(OSError):
                if stat.S_ISFIFO(path.lstat().st_mode):
                    path.unlink()
            continue
        os.close(fd)  # read by a live process: left alone
