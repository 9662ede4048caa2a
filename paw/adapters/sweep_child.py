"""The TUI's sweeps in a process of their own (`python -m paw.cli.sweeper`).

A sweep is pure Python work (parse the listing, resolve 200 agents, judge, persist) and so is
drawing a frame; in one process they take turns on one interpreter lock, and at 200 agents the
sweep that carried a new prompt took twice as long beside the UI as alone. The child sweeps
with its own tmux control-mode clients and answers each request with the picture; the TUI
keeps everything else (approvals with their fresh proof, previews, diffs, the audit tail).

Frames on both pipes: 4 bytes of big-endian length, then a pickle. The child is paw itself,
started by this process with this interpreter, over pipes no other process holds: its frames
are trusted like this process's own memory (pane text in them is data, as it is in a sweep).
Parent to child: ``b"s"`` asks for a sweep; end of input ends the child (so does the death of
the parent, however it dies). Child to parent: ``("ready",)``, ``("snapshot", Snapshot)``,
``("raise", kind, message, hint)`` for a sweep that failed, ``("counted",)`` when a worktree
count that ended beside the sweeps changed what an agent shows.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
import time
from typing import IO, TYPE_CHECKING

from paw.errors import PawError, TmuxError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from paw.supervisor.model import Snapshot

_LENGTH = struct.Struct(">I")
MAX_FRAME = 256 * 2**20  # a frame longer than this is a broken pipe, not a picture
# The longest a sweep may take in the child before the TUI stops waiting and sweeps itself
# (a stuck child; its picture, if it comes, is dropped). Generous: a loaded machine with
# hundreds of agents sweeps in well under a second.
SWEEP_TIMEOUT_S = float(os.environ.get("PAW_SWEEPER_TIMEOUT", "30"))
START_TIMEOUT_S = float(os.environ.get("PAW_SWEEPER_START_TIMEOUT", "120"))
STOP_GRACE_S = 5.0


def write_frame(out: IO[bytes], message: tuple[object, ...]) -> None:
    """Write one frame and flush it."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_LENGTH.pack(len(data)) + data)
    out.flush()


def read_frame(source: IO[bytes]) -> tuple[object, ...] | None:
    """The next frame; None at the end of the input (or a frame cut short)."""
    head = _read_exactly(source, _LENGTH.size)
    if head is None:
        return None
    (length,) = _LENGTH.unpack(head)
    if length > MAX_FRAME:
        return None
    body = _read_exactly(source, length)
    if body is None:
        return None
    message = pickle.loads(body)  # noqa: S301 - our own child, over our own pipe (see above)
    return message if isinstance(message, tuple) else None


def _read_exactly(source: IO[bytes], size: int) -> bytes | None:
    chunks: list[bytes] = []
    left = size
    while left:
        chunk = source.read(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class SweepChild:
    """The child process and the TUI's side of its pipes.

    :meth:`sweep` returns the child's picture, or None whenever the child cannot give one (not
    ready yet, gone, stuck): the caller then sweeps in its own process, as it did before."""

    def __init__(self, argv: Sequence[str], *, cwd: str, log: str | None = None) -> None:
        """Start ``argv`` (the sweeper); its stderr goes to ``log`` (the TUI owns the
        terminal). The child runs in a session of its own: a ^C meant for the TUI is not its."""
        self.on_counted: Callable[[], None] | None = None
        self._replies: queue.Queue[tuple[object, ...] | None] = queue.Queue()
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._gone = threading.Event()
        self.why_gone: str | None = None
        self.started = time.monotonic()
        err = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115, PTH123 - kept by the child
        try:
            self._proc = subprocess.Popen(  # this interpreter running paw
                list(argv),
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                start_new_session=True,
                close_fds=True,
            )
        finally:
            if not isinstance(err, int):
                err.close()
        self.pid = self._proc.pid
        self._reader = threading.Thread(target=self._read, name="paw-sweeper-read", daemon=True)
        self._reader.start()

    @property
    def alive(self) -> bool:
        """The child runs and answers."""
        return not self._gone.is_set()

    def wait_ready(self, timeout: float = START_TIMEOUT_S) -> bool:
        """Wait until the child has its supervisor and clients up (False: it never came)."""
        end = time.monotonic() + timeout
        while not self._gone.is_set() and time.monotonic() < end:
            if self._ready.wait(0.05):
                return True
        return self._ready.is_set() and not self._gone.is_set()

    def sweep(self, timeout: float = SWEEP_TIMEOUT_S) -> Snapshot | None:
        """One sweep in the child: its picture; None when the child is not ready, is gone,
        or took longer than ``timeout`` (it is then ended: a stuck sweeper helps nobody).

        Raises:
            TmuxError, PawError: the sweep failed in the child as it would have here.
        """
        if not self._ready.is_set() or self._gone.is_set():
            return None
        with self._lock:
            stdin = self._proc.stdin
            if stdin is None:
                return None
            try:
                stdin.write(b"s")
                stdin.flush()
            except (OSError, ValueError):
                self._lost("its input pipe closed")
                return None
            try:
                reply = self._replies.get(timeout=timeout)
            except queue.Empty:
                self._lost(f"a sweep took longer than {timeout:g} s")
                self._end()
                return None
        return _answer(reply)

    def _read(self) -> None:
        out = self._proc.stdout
        try:
            while out is not None:
                message = read_frame(out)
                if message is None:
                    break
                if message[0] == "ready":
                    self._ready.set()
                elif message[0] == "counted":
                    callback = self.on_counted
                    if callback is not None:
                        with contextlib.suppress(Exception):
                            callback()
                else:
                    self._replies.put(message)
        except (OSError, ValueError, EOFError, pickle.UnpicklingError) as err:
            self._lost(f"its output could not be read: {err}")
        finally:
            self._lost("it exited")
            self._replies.put(None)  # a sweep waiting for a reply stops waiting

    def _lost(self, why: str) -> None:
        if not self._gone.is_set():
            self.why_gone = why
            self._gone.set()

    def close(self) -> None:
        """End the child: end of its input, then SIGTERM, then SIGKILL (idempotent)."""
        self._lost("paw closed it")
        self._end()

    def _end(self) -> None:
        proc = self._proc
        with contextlib.suppress(OSError, ValueError):
            if proc.stdin is not None:
                proc.stdin.close()
        try:
            proc.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=STOP_GRACE_S)
        with contextlib.suppress(OSError, ValueError):
            if proc.stdout is not None:
                proc.stdout.close()


def _answer(reply: tuple[object, ...] | None) -> Snapshot | None:
    if reply is None:
        return None
    if reply[0] == "snapshot" and len(reply) == 2:
        from paw.supervisor.model import Snapshot

        snapshot = reply[1]
        return snapshot if isinstance(snapshot, Snapshot) else None
    if reply[0] == "raise" and len(reply) == 4:
        _, kind, message, hint = reply
        error = TmuxError if kind == "tmux" else PawError
        raise error(str(message), hint=hint if isinstance(hint, str) else None)
    return None


def sweeper_argv(root: str, socket: str | None) -> list[str]:
    """The command line of the sweeper for repository ``root`` and tmux socket ``socket``."""
    argv = [sys.executable, "-m", "paw.cli.sweeper", "--root", root]
    return [*argv, "--socket", socket] if socket else argv
