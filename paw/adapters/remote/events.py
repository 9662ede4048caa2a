"""Pane events from a host: tmux's own control mode, over the host's multiplexed ssh connection.

The same event client as on this machine (:mod:`paw.adapters.tmux.events`), started as
``ssh <mux options> -- tmux -u -L SOCKET -C attach-session -t =SESSION -f
ignore-size,pause-after=2``: ssh runs the tmux client on the host and paw reads its
notifications here (``%output``/``%extended-output`` mark a pane dirty, ``%window-add``,
``%sessions-changed`` … are structure changes, ``%exit`` or a dropped connection ends it).
Nothing of paw's runs on the host: the tmux client ends with the ssh session that runs it, and
nothing listens on the network (the ssh session is one more channel of the master connection).

Before each attach the master connection is made sure of (:meth:`SshTransport.connect`), so
the client never opens a connection of its own beside the master; a host that cannot be
reached is retried with a back-off (:data:`BACKOFF_S`), and every reconnect reports a
structure change (pane id None): the listener then sweeps the host in full.

A tmux client whose ssh session ended does not always end with it: tmux passes the client's
stdin and stdout to its server, and a server with output queued for a control client whose
reader is gone waits for that output forever (tmux 3.3; see :mod:`paw.adapters.parent_death`),
so the client stays attached on the host and counts as someone watching. Each client therefore
tells paw its pid on the host when it attaches (``display-message -p``), and paw ends the
clients it started there, by pid and only while that server lists them as its clients: the
ones a dropped connection left before the next attach, and its own on :meth:`HostEvents.stop`.
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Sequence

from paw.adapters.remote.ssh import SshError, SshTransport
from paw.adapters.tmux.events import PaneEvents

#: waits before a host's event client is started again (a host that cannot be reached is tried
#: at most every 10 s; each try may take up to ssh's ConnectTimeout)
BACKOFF_S = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
_PID_TAG = b"paw-events-client "  # the line that says a client's pid on the host
# asked once a client attached: its answer is a line of the command's output block, which a
# pane cannot forge (pane output reaches a control client only as escaped ``%output`` lines)
_ASK_PID = b'display-message -p "paw-events-client #{client_pid}"\n'


class HostEvents(PaneEvents):
    """The event client of one host's tmux server and paw's session there, over ssh."""

    def __init__(
        self,
        transport: SshTransport,
        base_argv: Sequence[str],
        session: str,
        *,
        socket_name: str,
        backoff: Sequence[float] = BACKOFF_S,
    ) -> None:
        """Listen to ``session`` of the host's server ``base_argv`` (``ssh … -- tmux -L NAME``,
        words quoted for the host's shell; ``socket_name`` is NAME)."""
        super().__init__(base_argv, session, backoff=backoff)
        self.socket_name = socket_name
        self._remote: set[int] = set()  # pids on the host of the clients paw started there
        # ssh hands the words after the destination to the host's shell as one line
        target = f"={session}"
        self._argv = [shlex.quote(word) if word == target else word for word in self._argv]
        self.transport = transport

    @property
    def pid(self) -> int | None:
        """The pid of the running client's ``ssh`` process (None while none runs)."""
        with self._lock:
            return self._process.pid if self._process is not None else None

    def _attach_once(self) -> bool:
        """Make sure of the master connection, then run one client until it exits."""
        try:
            self.transport.connect()
        except SshError:
            return False
        with self._lock:
            left = sorted(self._remote)
        if left:  # a client of an earlier attach (its connection dropped) may still be there
            self._end_remote(left)
        return super()._attach_once()

    def stop(self) -> None:
        """Stop the client and the thread, then end the clients paw started on the host that
        are still attached there (only while the master connection answers: stopping never
        opens a connection)."""
        super().stop()
        with self._lock:
            left = sorted(self._remote)
        if left and self.transport.connected():
            self._end_remote(left)

    @property
    def remote_pids(self) -> list[int]:
        """The pids on the host of the clients paw started there and has not ended yet."""
        with self._lock:
            return sorted(self._remote)

    def _connect(self) -> None:
        with self._lock:
            process = self._process
        if process is not None and process.stdin is not None:
            try:
                process.stdin.write(_ASK_PID)
                process.stdin.flush()
            except (OSError, ValueError):
                pass  # the client is gone already: its end is reported as usual
        super()._connect()

    def _lines(self, lines: list[bytes]) -> bool:
        for line in lines:
            if line.startswith(_PID_TAG):
                pid = line[len(_PID_TAG) :].strip()
                if pid.isdigit():
                    with self._lock:
                        self._remote.add(int(pid))
        return super()._lines(lines)

    def _end_remote(self, pids: Sequence[int]) -> None:
        """SIGTERM those of ``pids`` that the host's server still lists as its clients (a tmux
        client ends on SIGTERM and its server lets it go); they are forgotten once the host
        answered. A host that does not answer keeps them for the next try."""
        listed = f"tmux -u -L {shlex.quote(self.socket_name)} list-clients -F '#{{client_pid}}'"
        wanted = " ".join(str(pid) for pid in pids)
        script = (
            f'for p in $({listed} 2>/dev/null); do case " {wanted} " in *" $p "*) '
            'kill "$p" 2>/dev/null;; esac; done; exit 0'
        )
        try:
            done = self.transport.run(
                ["sh", "-c", script], timeout=float(self.transport.connect_timeout)
            )
        except (OSError, subprocess.TimeoutExpired):
            return
        if done.ok:
            with self._lock:
                self._remote.difference_update(pids)
