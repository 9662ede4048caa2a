"""Pane events from tmux: a control-mode client (``tmux -C``) with output on, read on a thread.

The sweep client (:mod:`paw.adapters.tmux.control`) attaches with ``no-output``; this one
attaches to the same session with ``ignore-size,pause-after=N`` and only listens:

* ``%output %N …`` / ``%extended-output %N …``: pane ``%N`` drew something. The bytes are
  untrusted pane text and are never parsed (tmux escapes newlines in them, so a pane cannot
  forge a notification line): the line only marks ``%N`` dirty. Detection always runs on a
  fresh ``capture-pane``.
* ``%pause %N``: tmux stopped sending ``%N``'s output because this client fell more than N
  seconds behind (a flooding pane cannot wedge paw). A paused pane stays dirty until it is
  captured; :meth:`PaneEvents.resume` then continues it (``refresh-client -A``).
* window/pane/session structure changes (``%window-add``, ``%unlinked-window-close``,
  ``%layout-change``, ``%sessions-changed`` …): a structure change (pane id None).
* the client exits (server killed or restarted, session gone, ``%exit``): every pane is dirty,
  the listener is told (pane id None), and the client is started again after a back-off.

Every event bumps a per-pane sequence number; a capture remembers the :meth:`mark` taken just
before it was requested, so "no event since" (:meth:`quiet`) is race-free: output that lands
while a capture is in flight bumps the sequence and the next sweep captures again.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Sequence

from paw.adapters import proc
from paw.adapters.tmux.clients import EVENT_FLAGS
from paw.adapters.tmux.format import is_pane_id

PAUSE_AFTER_S = 2  # tmux pauses a pane's output to this client when it is this far behind
BACKOFF_S = (0.2, 0.5, 1.0, 2.0, 5.0)  # waits before restarting a client that exited
STEADY_S = 10.0  # a client that ran this long resets the back-off
_READ_CHUNK = 1 << 16
_STRUCTURE = frozenset(
    {
        b"%window-add",
        b"%window-close",
        b"%unlinked-window-add",
        b"%unlinked-window-close",
        b"%layout-change",
        b"%sessions-changed",
        b"%session-changed",
        b"%window-pane-changed",
        b"%pane-mode-changed",
    }
)

_ATTACHED = (b"%end ", b"%session-changed ")  # the attach command succeeded
Mark = tuple[int, int]  # (connection epoch, the pane's event sequence number)
Listener = Callable[[str | None], None]  # a pane id, or None for "structure / everything"


class PaneEvents:
    """The event client of one tmux server and session; :meth:`start` runs it on a thread."""

    def __init__(
        self,
        base_argv: Sequence[str],
        session: str,
        *,
        pause_after: int = PAUSE_AFTER_S,
        backoff: Sequence[float] = BACKOFF_S,
    ) -> None:
        """Listen to ``session`` on the server of ``base_argv`` (``tmux -L name``)."""
        flags = f"{EVENT_FLAGS}{pause_after}"
        self._argv = [*base_argv, "-C", "attach-session", "-t", f"={session}", "-f", flags]
        self.session = session
        self._backoff = tuple(backoff)
        self._lock = threading.Lock()
        self._seq: dict[str, int] = {}
        self._epoch = 0  # bumped whenever the client (re)connects or exits
        self._connected = False
        self._paused: set[str] = set()
        self._listeners: list[Listener] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self.events = 0  # notifications that marked a pane dirty (for tests and benchmarks)
        self.connects = 0  # clients started that attached

    # -- life -----------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the reader thread (idempotent)."""
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name="paw-tmux-events", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the client and the thread."""
        self._stop.set()
        with self._lock:
            process, thread = self._process, self._thread
        if process is not None:
            with contextlib.suppress(OSError):
                process.kill()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` (on the reader thread) for every dirty pane or structure change."""
        with self._lock:
            self._listeners.append(listener)

    def live(self) -> bool:
        """True while a client is attached (events are arriving)."""
        with self._lock:
            return self._connected

    # -- marks ----------------------------------------------------------------------------------

    def mark(self, pane_id: str) -> Mark | None:
        """The pane's mark now (take it before requesting a capture); None when not live."""
        with self._lock:
            if not self._connected or pane_id in self._paused:
                return None
            return (self._epoch, self._seq.get(pane_id, 0))

    def quiet(self, pane_id: str, since: Mark | None) -> bool:
        """True when no event reached ``pane_id`` since ``since`` was taken (and the client
        stayed attached all along): a capture taken after ``since`` is still the screen."""
        return since is not None and self.mark(pane_id) == since

    def resume(self, pane_ids: Iterable[str]) -> None:
        """Continue the output of paused panes among ``pane_ids`` (just captured). Each gets one
        more event: output between that capture and the continue was not reported."""
        with self._lock:
            todo = [p for p in pane_ids if p in self._paused and is_pane_id(p)]
            process = self._process
            for pane in todo:
                self._paused.discard(pane)
                self._seq[pane] = self._seq.get(pane, 0) + 1
        if not todo or process is None or process.stdin is None:
            return
        line = " ; ".join(f"refresh-client -A '{pane}:continue'" for pane in todo) + "\n"
        with contextlib.suppress(OSError, ValueError):
            process.stdin.write(line.encode())
            process.stdin.flush()

    # -- the reader -----------------------------------------------------------------------------

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            started = time.monotonic()
            attached = self._attach_once()
            if time.monotonic() - started >= STEADY_S:
                failures = 0
            if self._stop.is_set():
                return
            wait = self._backoff[min(failures, len(self._backoff) - 1)] if self._backoff else 1.0
            failures += 0 if attached and time.monotonic() - started >= STEADY_S else 1
            self._stop.wait(wait)

    def _attach_once(self) -> bool:
        """Run one client until it exits; True when it attached."""
        try:
            process = proc.spawn(self._argv, die_with_paw=True)
        except OSError:
            return False
        with self._lock:
            self._process = process
        attached = False
        try:
            assert process.stdout is not None  # noqa: S101 - spawn pipes stdout
            fd = process.stdout.fileno()
            os.set_blocking(fd, False)
            with selectors.DefaultSelector() as selector:
                selector.register(fd, selectors.EVENT_READ)
                buffer = b""
                while not self._stop.is_set():
                    if not selector.select(0.5):
                        if process.poll() is not None:
                            break
                        continue
                    try:
                        chunk = os.read(fd, _READ_CHUNK)
                    except BlockingIOError:
                        continue
                    if not chunk:
                        break
                    buffer += chunk
                    lines = buffer.split(b"\n")
                    buffer = lines.pop()
                    if not attached and any(line.startswith(_ATTACHED) for line in lines):
                        attached = True
                        self._connect()
                    if self._lines(lines):
                        break
        finally:
            self._disconnect(process, notify=attached)
        return attached

    def _lines(self, lines: list[bytes]) -> bool:
        """Handle notification lines; True at ``%exit``."""
        dirty: list[str | None] = []
        for line in lines:
            if line.startswith((b"%output ", b"%extended-output ", b"%pause ")):
                pane = line.split(b" ", 2)[1].decode("ascii", "replace")
                if is_pane_id(pane):
                    dirty.append(pane)
                    if line.startswith(b"%pause "):
                        with self._lock:
                            self._paused.add(pane)
            elif line.startswith(b"%exit"):
                return True
            elif line.split(b" ", 1)[0] in _STRUCTURE:
                dirty.append(None)
        if dirty:
            self._bump(dirty)
        return False

    def _bump(self, dirty: list[str | None]) -> None:
        with self._lock:
            for pane in dirty:
                if pane is None:
                    continue
                self._seq[pane] = self._seq.get(pane, 0) + 1
            self.events += len(dirty)
            listeners = list(self._listeners)
        for pane in dict.fromkeys(dirty):
            for listener in listeners:
                listener(pane)

    def _connect(self) -> None:
        with self._lock:
            self._epoch += 1
            self._connected = True
            self.connects += 1
            listeners = list(self._listeners)
        for listener in listeners:
            listener(None)

    def _disconnect(self, process: subprocess.Popen[bytes], *, notify: bool) -> None:
        with contextlib.suppress(OSError):
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        with self._lock:
            self._process = None
            self._epoch += 1
            self._connected = False
            self._paused.clear()
            listeners = list(self._listeners) if notify else []
        for listener in listeners:
            listener(None)
