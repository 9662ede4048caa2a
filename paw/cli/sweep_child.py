"""The TUI's sweeps in a process of their own (`python -m paw.cli.sweeper`).

A sweep is pure Python work (parse the listing, resolve 200 agents, judge, persist) and so is
drawing a frame; in one process they take turns on one interpreter lock, and at 200 agents the
sweep that carried a new prompt took twice as long beside the UI as alone. The child sweeps
with its own tmux control-mode clients and answers each request with the picture; the TUI
keeps everything else (approvals with their fresh proof, previews, diffs, the audit tail).

The child's frames (:class:`FrameWriter`) are big-endian lengths, then pickles. The child is paw
itself, started by this process with this interpreter, over pipes no other process holds: its
frames are trusted like this process's own memory (pane text in them is data, as it is in a
sweep). Parent to child: ``b"s"`` asks for a sweep; ``b"f"`` follow: the child sweeps on its own
pane events from then on and pushes each picture; ``b"a"``: the last picture is handled, the
next push may come. End of input ends the child (so does the death of the parent, however it
dies). Child to parent: ``("ready",)``; ``("snapshot", Snapshot, panes)`` the answer to a
request and ``("pushed", Snapshot, panes)`` a picture of the child's own (``panes``: those that
drew since the picture before); ``("early", Snapshot)`` the channel-only look a hook channel's
poke made before its sweep's screens were captured (no sweep's picture: see
:class:`paw.supervisor.feed.Picture`; sent whatever the acknowledgements, one per poked sweep,
and never acknowledged); ``("raise", kind, message, hint)`` for a requested sweep that
failed, ``("pushed-raise", kind, message, hint)`` for a pushed one; ``("live", bool)`` whenever
the child's pane events start or stop arriving; ``("counted",)`` when a worktree count that
ended beside the sweeps changed what an agent shows (before the TUI follows; after, the child
sweeps).

Following takes a hop and a thread out of a new prompt's way to the screen: the child's own
pane events start its sweep (no request from the TUI's pump through its UI thread), and the
TUI runs no event client of its own (whose reading of every pane's output competed with the
frame for the TUI's interpreter lock). The acknowledgement is the back-pressure the request
was: no picture is pushed while the TUI has not handled the one before.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
import time
from typing import IO, TYPE_CHECKING

from paw.adapters import proc
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
    """Write one frame that shares nothing with the frames before (see :class:`FrameWriter`)."""
    FrameWriter(out).write(message)


def read_frame(source: IO[bytes]) -> tuple[object, ...] | None:
    """The next frame of a :func:`write_frame` writer; None at the end of the input (or a frame
    cut short)."""
    return FrameReader(source).read()


class FrameWriter:
    """Frames to one :class:`FrameReader`, in which an object of the ``shared`` types (frozen:
    the sweeper's ``AgentView``) that went in the frame before goes again as its number.

    A sweep's picture holds every agent, and from one to the next most of them are the very
    same objects (the sweeper keeps an agent's view while nothing it shows changed). Pickling
    200 views 40 times a second, and unpickling them beside the TUI's frames, was a third of
    the TUI's CPU at 200 agents. Both ends keep what the last frame held, nothing older: the
    writer numbers each new object, and the reader learns it from the frame's head.

    A frame: 4 bytes of length, 4 bytes of the head's length, the head (a plain pickle of the
    new objects and their numbers), then the body (the message, pickled with the numbers of
    the objects it shares)."""

    def __init__(self, out: IO[bytes], shared: tuple[type, ...] = ()) -> None:
        """Write to ``out``; objects of ``shared`` types are sent once while frames keep them."""
        self._out = out
        self._shared = shared
        self._kept: dict[int, tuple[int, object]] = {}  # id(obj) -> (number, obj) of the last
        self._next = 0

    def write(self, message: tuple[object, ...]) -> None:
        """Write ``message`` as one frame and flush it."""
        used: dict[int, tuple[int, object]] = {}
        new: list[tuple[int, object]] = []
        shared, kept = self._shared, self._kept

        def persistent_id(obj: object) -> int | None:
            if not shared or not isinstance(obj, shared):
                return None
            entry = kept.get(id(obj)) or used.get(id(obj))
            if entry is None or entry[1] is not obj:
                entry = (self._next, obj)
                self._next += 1
                new.append(entry)
            used[id(obj)] = entry
            return entry[0]

        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.persistent_id = persistent_id  # type: ignore[method-assign]
        pickler.dump(message)
        body = buffer.getvalue()
        head = pickle.dumps(new, protocol=pickle.HIGHEST_PROTOCOL)
        self._out.write(
            _LENGTH.pack(len(head) + len(body) + _LENGTH.size) + _LENGTH.pack(len(head))
        )
        self._out.write(head + body)
        self._out.flush()
        self._kept = used  # (only once the frame went: the reader keeps what it read)


class FrameReader:
    """The reading end of a :class:`FrameWriter`."""

    def __init__(self, source: IO[bytes]) -> None:
        """Read from ``source``."""
        self._source = source
        self._kept: dict[int, object] = {}  # number -> object, of the last frame

    def read(self) -> tuple[object, ...] | None:
        """The next frame; None at the end of the input (or a frame cut short).

        Raises:
            pickle.UnpicklingError: the frame names an object no frame before it sent."""
        head = _read_exactly(self._source, _LENGTH.size)
        if head is None:
            return None
        (length,) = _LENGTH.unpack(head)
        if length > MAX_FRAME or length < _LENGTH.size:
            return None
        data = _read_exactly(self._source, length)
        if data is None:
            return None
        (cut,) = _LENGTH.unpack_from(data)
        if cut > length - _LENGTH.size:
            return None
        # our own child, over our own pipe (see above)
        new = pickle.loads(data[_LENGTH.size : _LENGTH.size + cut])  # noqa: S301
        known = {**self._kept, **dict(new)}
        used: dict[int, object] = {}

        def persistent_load(number: object) -> object:
            if not isinstance(number, int) or number not in known:
                raise pickle.UnpicklingError(f"frame names object {number!r}, never sent")
            used[number] = known[number]
            return known[number]

        unpickler = pickle.Unpickler(io.BytesIO(data[_LENGTH.size + cut :]))  # noqa: S301
        unpickler.persistent_load = persistent_load  # type: ignore[method-assign]
        message = unpickler.load()
        self._kept = used
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
        # followed: each pushed picture with the panes that drew since the one before, and
        # each pushed sweep's failure
        self._on_picture: Callable[[Snapshot, frozenset[str]], None] | None = None
        self._on_failure: Callable[[PawError], None] | None = None
        self._on_early: Callable[[Snapshot], None] | None = None  # followed: each early look
        self._live = False  # the child's pane events arrive (as it last said)
        self._wlock = threading.Lock()  # one write to its input at a time
        self._touched: set[str] = set()  # panes the answers to requests say drew (drained)
        self._touched_lock = threading.Lock()  # (added on the reader thread, drained on others)
        self._replies: queue.Queue[tuple[object, ...] | None] = queue.Queue()
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._gone = threading.Event()
        self.why_gone: str | None = None
        self.started = time.monotonic()
        err = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115, PTH123 - kept by the child
        try:
            self._proc = proc.spawn(argv, cwd=cwd, stderr=err, new_session=True, die_with_paw=True)
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
            if not self._write(b"s"):
                return None
            try:
                reply = self._replies.get(timeout=timeout)
            except queue.Empty:
                self._lost(f"a sweep took longer than {timeout:g} s")
                self._end()
                return None
        return _answer(reply)

    def _write(self, request: bytes) -> bool:
        stdin = self._proc.stdin
        if stdin is None:
            return False
        try:
            with self._wlock:
                stdin.write(request)
                stdin.flush()
        except (OSError, ValueError):
            self._lost("its input pipe closed")
            return False
        return True

    def follow(
        self,
        on_picture: Callable[[Snapshot, frozenset[str]], None],
        on_failure: Callable[[PawError], None],
        on_early: Callable[[Snapshot], None] | None = None,
    ) -> bool:
        """From now on the child sweeps on its own pane events and each picture it pushes is
        given to ``on_picture`` (on this object's reader thread), with the panes that drew
        since the picture before; a pushed sweep that failed goes to ``on_failure``; the
        channel-only look a poked sweep makes first goes to ``on_early`` (dropped without
        it). The next push waits for :meth:`handled` (an early look is not waited for). The
        request waits in the pipe for a child still starting (until it answers, the TUI sweeps
        itself, on its timer). False (nothing changed) when the child is gone."""
        if self._gone.is_set():
            return False
        self._on_picture, self._on_failure = on_picture, on_failure
        self._on_early = on_early
        return self._write(b"f")

    @property
    def following(self) -> bool:
        """The child pushes its pictures (and still runs)."""
        return self._on_picture is not None and not self._gone.is_set()

    def events_live(self) -> bool:
        """Followed, and the child's pane events arrive: the TUI need not poll."""
        return self.following and self._live

    def handled(self) -> None:
        """The TUI handled a picture: the child may push the next (idempotent)."""
        if self.following:
            self._write(b"a")

    def drain_touched(self) -> set[str]:
        """The panes the answers to requests said drew since the last call."""
        with self._touched_lock:
            touched, self._touched = self._touched, set()
        return touched

    def _read(self) -> None:
        out = self._proc.stdout
        try:
            reader = FrameReader(out) if out is not None else None
            while reader is not None:
                message = reader.read()
                if message is None:
                    break
                self._take(message)
        except (OSError, ValueError, EOFError, pickle.UnpicklingError) as err:
            self._lost(f"its output could not be read: {err}")
        finally:
            self._lost("it exited")
            self._replies.put(None)  # a sweep waiting for a reply stops waiting

    def _take(self, message: tuple[object, ...]) -> None:
        what = message[0]
        if what == "ready":
            self._ready.set()
        elif what == "live" and len(message) == 2:
            self._live = bool(message[1])
        elif what == "counted":
            self._call(self.on_counted)
        elif what == "pushed" and len(message) == 3:
            snapshot, panes = _picture(message[1]), _panes(message[2])
            on_picture = self._on_picture
            if snapshot is not None and on_picture is not None:
                self._call(lambda: on_picture(snapshot, panes))
        elif what == "early" and len(message) == 2:
            look, on_early = _picture(message[1]), self._on_early
            if look is not None and on_early is not None and self._on_picture is not None:
                self._call(lambda: on_early(look))
        elif what == "pushed-raise" and len(message) == 4:
            on_failure = self._on_failure
            if on_failure is not None:
                error = _error(message[1], message[2], message[3])
                self._call(lambda: on_failure(error))
        else:
            if what == "snapshot" and len(message) == 3:
                with self._touched_lock:
                    self._touched |= _panes(message[2])
            self._replies.put(message)

    @staticmethod
    def _call(callback: Callable[[], None] | None) -> None:
        if callback is not None:
            with contextlib.suppress(Exception):  # the TUI's to handle; this thread reads on
                callback()

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
    if reply[0] == "snapshot" and len(reply) in (2, 3):
        return _picture(reply[1])
    if reply[0] == "raise" and len(reply) == 4:
        raise _error(reply[1], reply[2], reply[3])
    return None


def _picture(value: object) -> Snapshot | None:
    from paw.supervisor.model import Snapshot

    return value if isinstance(value, Snapshot) else None


def _panes(value: object) -> frozenset[str]:
    if not isinstance(value, tuple):
        return frozenset()
    return frozenset(pane for pane in value if isinstance(pane, str))


def _error(kind: object, message: object, hint: object) -> PawError:
    error = TmuxError if kind == "tmux" else PawError
    return error(str(message), hint=hint if isinstance(hint, str) else None)


def sweeper_argv(root: str, socket: str | None) -> list[str]:
    """The command line of the sweeper for repository ``root`` and tmux socket ``socket``."""
    argv = [sys.executable, "-m", "paw.cli.sweeper", "--root", root]
    return [*argv, "--socket", socket] if socket else argv
