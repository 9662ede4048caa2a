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
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from paw.adapters.remote.ssh import SshError, SshTransport
from paw.adapters.tmux.events import PaneEvents

#: waits before a host's event client is started again (a host that cannot be reached is tried
#: at most every 10 s; each try may take up to ssh's ConnectTimeout)
BACKOFF_S = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0)


class HostEvents(PaneEvents):
    """The event client of one host's tmux server and paw's session there, over ssh."""

    def __init__(
        self,
        transport: SshTransport,
        base_argv: Sequence[str],
        session: str,
        *,
        backoff: Sequence[float] = BACKOFF_S,
    ) -> None:
        """Listen to ``session`` of the host's server ``base_argv`` (``ssh … -- tmux -L NAME``,
        words quoted for the host's shell)."""
        super().__init__(base_argv, session, backoff=backoff)
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
        return super()._attach_once()
