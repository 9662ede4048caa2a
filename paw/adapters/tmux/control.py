"""A persistent tmux control-mode client (``tmux -C``) for sweeps without a process per sweep.

The client attaches to paw's session with ``-f no-output,ignore-size`` (no ``%output`` flood,
no effect on window sizes). A sweep writes one command line per pane::

    display-message -p -t %3 "<tok>P 7 #{pane_pid}" ; capture-pane -p -t %3 ;
    display-message -p "<tok>E 7"          (all on one line)

Each command answers in its own ``%begin``/``%end`` block, and a failing command (a gone
pane) ends its line only, so panes fail independently. Pane text is untrusted and may
contain lines such as ``%end …``: the capture is therefore cut out by position between the
random per-sweep markers, never by scanning for ``%end``, and any framing surprise is a
:class:`ControlError` (the caller falls back to a one-process sweep).
"""

from __future__ import annotations

import os
import selectors
import threading
import time
import uuid
from collections.abc import Sequence

from paw.adapters import proc
from paw.adapters.tmux.clients import (
    ORPHAN_FORMAT,
    SWEEP_FLAGS,
    end_orphans,
    paw_client_pids,
)
from paw.adapters.tmux.delta import STATE_FIELDS
from paw.adapters.tmux.format import is_pane_id
from paw.core.ports import PaneCapture

_READ_CHUNK = 1 << 16


class ControlError(Exception):
    """The control client is gone, timed out, or its output did not have the expected shape."""


class ControlClient:
    """One ``tmux -C attach-session`` process; use from one thread at a time (it locks)."""

    def __init__(self, base_argv: Sequence[str], session: str, *, timeout: float = 5.0) -> None:
        """Start the client on ``session`` (``base_argv`` is ``tmux -L name`` or similar)."""
        argv = [*base_argv, "-C", "attach-session", "-t", f"={session}", "-f", _FLAGS]
        self.session = session
        self.timeout = timeout
        self._lock = threading.Lock()
        self._buffer = b""
        try:
            self._process = proc.spawn(argv, die_with_paw=True)
        except OSError as err:
            raise ControlError(f"cannot start a tmux control client: {err}") from err
        self._selector = selectors.DefaultSelector()
        assert self._process.stdout is not None  # noqa: S101 - spawn pipes stdout
        os.set_blocking(self._process.stdout.fileno(), False)
        self._selector.register(self._process.stdout, selectors.EVENT_READ)
        self.orphans_ended: list[int] = []
        if list(base_argv[:1]) == ["tmux"]:  # a host's clients are not this machine's processes
            try:
                self.orphans_ended = self._end_orphans()
            except ControlError:
                self.close()
                raise

    def _end_orphans(self) -> list[int]:
        """End the clients a killed paw left on this server (:func:`end_orphans`)."""
        token = uuid.uuid4().hex
        script = f'list-clients -F "{token}C {ORPHAN_FORMAT}"\ndisplay-message -p "{token}Z"\n'
        with self._lock:
            lines = self._exchange(script.encode(), f"{token}Z")
        mine = self._process.pid
        return end_orphans(pid for pid in paw_client_pids(lines, f"{token}C ") if pid != mine)

    def alive(self) -> bool:
        """True while the client process runs."""
        return self._process.poll() is None

    def close(self) -> None:
        """Detach: close stdin (tmux ends a control client at EOF) and reap the process."""
        with self._lock:
            self._selector.close()
            proc.finish(self._process)

    def sweep(self, pane_ids: Sequence[str], *, ansi: bool = False) -> list[PaneCapture] | None:
        """Capture ``pane_ids``; a pane that could not be captured gets ``text=None``.

        Returns None when no pane could be captured and the list of live panes is unknown.
        """
        token = uuid.uuid4().hex
        return parse_control_sweep(self.script_lines(pane_ids, token, ansi=ansi), pane_ids, token)

    def script_lines(
        self, pane_ids: Sequence[str], token: str, *, ansi: bool = False, listing: str | None = None
    ) -> list[str]:
        """The raw lines of one :func:`control_script` exchange (see there for ``listing``)."""
        script = control_script(pane_ids, token, ansi=ansi, listing=listing)
        with self._lock:
            return self._exchange(script.encode(), f"{token}Z")

    def states(self, token: str) -> list[str]:
        """The lines of ``list-panes -a -F "<token> STATE_FIELDS"`` (see tmux_delta)."""
        script = f'list-panes -a -F "{token} {STATE_FIELDS}"\ndisplay-message -p "{token}Z"\n'
        with self._lock:
            return self._exchange(script.encode(), f"{token}Z")

    def _exchange(self, payload: bytes, last: str) -> list[str]:
        if not self.alive() or self._process.stdin is None:
            raise ControlError("the tmux control client has exited")
        try:
            self._process.stdin.write(payload)
            self._process.stdin.flush()
        except OSError as err:
            raise ControlError(f"cannot write to the tmux control client: {err}") from err
        return self._read_until(last.encode())

    def _read_until(self, last: bytes) -> list[str]:
        """Read lines until ``last`` and the ``%end`` that closes its block."""
        deadline = time.monotonic() + self.timeout
        marker = b"\n" + last + b"\n"
        while True:
            at = self._buffer.find(marker)
            if at >= 0:
                close = self._buffer.find(b"\n", at + len(marker))
                if close >= 0:
                    data, self._buffer = self._buffer[: close + 1], self._buffer[close + 1 :]
                    return data.decode("utf-8", "replace").split("\n")[:-1]
            self._fill(deadline)

    def _fill(self, deadline: float) -> None:
        left = deadline - time.monotonic()
        if left <= 0 or not self._selector.select(left):
            raise ControlError("the tmux control client did not answer in time")
        assert self._process.stdout is not None  # noqa: S101 - spawn pipes stdout
        chunk = os.read(self._process.stdout.fileno(), _READ_CHUNK)
        if not chunk:
            raise ControlError("the tmux control client has exited")
        self._buffer += chunk


_FLAGS = SWEEP_FLAGS


def control_script(
    pane_ids: Sequence[str], token: str, *, ansi: bool = False, listing: str | None = None
) -> str:
    """The control-mode lines of one sweep: list panes, one line per pane, a final marker.

    Markers carry the pane's position in ``pane_ids`` (a literal ``%`` would be taken by
    display-message's strftime expansion). With ``listing`` (a ``-F`` format without ``"``,
    ``\\`` or ``$``) the panes are listed as ``<tok>I`` + that format instead of by id.

    >>> print(control_script(["%1"], "T"), end="")
    list-panes -a -F "TL #{pane_id}"
    display-message -p -t %1 "TP 0 #{pane_pid}" ; capture-pane -p -t %1 ; display-message -p "TE 0"
    display-message -p "TZ"
    """
    capture = "capture-pane -p -e" if ansi else "capture-pane -p"
    head = f"{token}L #{{pane_id}}" if listing is None else f"{token}I{listing}"
    lines = [f'list-panes -a -F "{head}"']
    for index, pane in enumerate(pane_ids):
        if not is_pane_id(pane):
            continue  # never let a caller's string reach the command line unquoted
        lines.append(
            f'display-message -p -t {pane} "{token}P {index} #{{pane_pid}}" ; '
            f'{capture} -t {pane} ; display-message -p "{token}E {index}"'
        )
    lines.append(f'display-message -p "{token}Z"')
    return "\n".join(lines) + "\n"


def parse_control_sweep(
    lines: Sequence[str], pane_ids: Sequence[str], token: str, existing: set[str] | None = None
) -> list[PaneCapture] | None:
    """Cut each pane's capture out of the control-mode lines of one sweep (see module doc).

    A captured pane's lines sit between ``<tok>P i`` and ``<tok>E i`` as: marker, ``%end``,
    ``%begin``, capture lines…, ``%end``, ``%begin``, end marker. Panes not listed by
    ``list-panes`` (or not in ``existing``, when the caller parsed the listing) are gone
    (``text=None``). Returns None if a listed pane was not captured.

    Raises:
        ControlError: a marker block does not have that shape.
    """
    if existing is None:
        existing = {line[len(token) + 2 :] for line in lines if line.startswith(f"{token}L ")}
    starts: dict[int, tuple[int, int]] = {}
    ends: dict[int, int] = {}
    for at, line in enumerate(lines):
        if line.startswith(f"{token}P "):
            position, _, pid_text = line[len(token) + 2 :].partition(" ")
            starts[int(position)] = (at, _to_int(pid_text))
        elif line.startswith(f"{token}E "):
            ends[int(line[len(token) + 2 :])] = at
    captures = []
    for index, pane in enumerate(pane_ids):
        if index in starts and index in ends:
            begin, pid = starts[index]
            text = _framed(lines, begin, ends[index])
            captures.append(PaneCapture(pane_id=pane, text=text, pane_pid=pid))
        elif pane in existing and is_pane_id(pane):
            return None  # listed but not captured: let the caller retry another way
        else:
            captures.append(PaneCapture(pane_id=pane, text=None))
    return captures


def _framed(lines: Sequence[str], begin: int, end: int) -> str:
    frame = (lines[begin + 1], lines[begin + 2], lines[end - 2], lines[end - 1])
    expected = ("%end ", "%begin ", "%end ", "%begin ")
    if end - begin < 5 or not all(f.startswith(e) for f, e in zip(frame, expected, strict=True)):
        raise ControlError("unexpected control-mode framing around a capture")
    return "\n".join(lines[begin + 3 : end - 2])


def _to_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0
