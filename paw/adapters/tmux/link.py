"""The tmux adapter's control-mode link: one :class:`ControlClient`, started on demand,
dropped on any failure, and retried only after a pause (meanwhile sweeps use processes)."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from paw.adapters.tmux import sweep as tmux_sweep
from paw.adapters.tmux.control import ControlClient, ControlError
from paw.adapters.tmux.delta import PaneState
from paw.core.ports import PaneCapture, Survey

RETRY_S = 5.0  # after a control client failure, sweep with processes for a while


class ControlLink:
    """The control-mode client of one tmux server, attached to one session."""

    def __init__(self, base_argv: Sequence[str]) -> None:
        """Link to the server of ``base_argv`` (``tmux -L name``); nothing starts yet."""
        self._base = tuple(base_argv)
        self.session: str | None = None
        self.current: ControlClient | None = None
        self._retry_at = 0.0
        self._lock = threading.RLock()

    def watch(self, name: str) -> None:
        """Attach to the session ``name`` from the next call on (restarting the client)."""
        with self._lock:
            if name != self.session:
                self.drop()
                self._retry_at = 0.0
            self.session = name

    def client(self) -> ControlClient | None:
        """The running client, started when needed; None while unavailable."""
        with self._lock:
            if self.current is not None and self.current.alive():
                return self.current
            self.drop()
            if self.session is None or time.monotonic() < self._retry_at:
                return None
            try:
                self.current = ControlClient(self._base, self.session)
            except ControlError:
                self._retry_at = time.monotonic() + RETRY_S
            return self.current

    def drop(self) -> None:
        """Stop the client after a failure (or for good); retry after :data:`RETRY_S`."""
        with self._lock:
            if self.current is not None:
                self._retry_at = time.monotonic() + RETRY_S
                self.current.close()
                self.current = None

    def survey(
        self, pane_ids: Sequence[str], *, ansi: bool, states: bool
    ) -> tuple[Survey, dict[str, PaneState]] | None:
        """:func:`paw.adapters.tmux.sweep.survey_control`; None when the client cannot answer."""
        client = self.client()
        if client is None:
            return None
        try:
            return tmux_sweep.survey_control(client, pane_ids, ansi=ansi, states=states)
        except ControlError:
            self.drop()
            return None

    def sweep(self, pane_ids: list[str], *, ansi: bool) -> list[PaneCapture] | None:
        """:meth:`ControlClient.sweep`; None when the client cannot answer."""
        client = self.client()
        if client is None:
            return None
        try:
            return client.sweep(pane_ids, ansi=ansi)
        except ControlError:
            self.drop()
            return None

    def states(self, token: str) -> list[str] | None:
        """:meth:`ControlClient.states`; None when the client cannot answer."""
        client = self.client()
        if client is None:
            return None
        try:
            return client.states(token)
        except ControlError:
            self.drop()
            return None
