"""The event pump: pane events (from a reader thread) become sweeps, debounced.

Events are noted under a lock on the thread that reports them; one pump thread sleeps until
the earliest due time (:class:`paw.core.debounce.Debounce`) and then asks for a sweep (the
TUI's, or the sweeper's that pushes its pictures to the TUI). With nothing happening the pump
sleeps and nothing runs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from paw.core.debounce import Debounce

if TYPE_CHECKING:
    from paw.supervisor.model import Snapshot

# Sweeps may use at most about half of a core: after a sweep that cost c seconds of CPU the
# next one waits until c * SWEEP_DUTY more seconds have passed (agents that keep printing would
# otherwise keep a core busy; approvals run beside sweeps and never wait for this). CPU, not
# the wall clock: a sweep in the sweeper process spent half its 30 ms waiting for tmux and for
# a core, and a rest as long as that was a wait for every prompt drawn meanwhile.
SWEEP_DUTY = 1.0


def duty_rest(cpu_s: float, wall_s: float) -> float:
    """The rest after a sweep that cost ``cpu_s`` CPU seconds in ``wall_s`` (SWEEP_DUTY)."""
    return min(cpu_s, wall_s) * SWEEP_DUTY


def agent_panes(snapshot: Snapshot) -> frozenset[str]:
    """The panes whose events count after ``snapshot`` (its agents'; see EventPump.only)."""
    return frozenset(view.event_key for view in snapshot.agents if view.event_key)


class EventPump:
    """Turn ``note(pane)`` calls into ``fire()`` calls, debounced per pane."""

    def __init__(self, fire: Callable[[], None], debounce: Debounce | None = None) -> None:
        """``fire`` is called on the pump thread whenever a sweep is due."""
        self._fire = fire
        self._debounce = debounce or Debounce()
        self._cond = threading.Condition()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="paw-event-pump", daemon=True)
        self.fired = 0
        self._panes: frozenset[str] | None = None  # the agents' panes (None: every pane)
        self._touched: set[str] = set()  # panes noted since the last drain()

    def start(self) -> None:
        """Start the pump thread."""
        self._thread.start()

    def stop(self) -> None:
        """Stop the pump thread (idempotent)."""
        with self._cond:
            self._stopped = True
            self._cond.notify()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def only(self, panes: frozenset[str]) -> None:
        """From now on, ignore the output of panes other than ``panes`` (the agents' panes of
        the last sweep; a new agent's window is a structure change, which always counts)."""
        with self._cond:
            self._panes = panes

    def note(self, pane: str | None) -> None:
        """An event of ``pane`` (None: structure); callable from any thread."""
        with self._cond:
            if pane is not None and self._panes is not None and pane not in self._panes:
                return
            if pane is not None:
                self._touched.add(pane)
            before = self._debounce.due()
            due = self._debounce.event(pane, time.monotonic())
            if before is None or due < before:
                self._cond.notify()

    def drain(self) -> set[str]:
        """The panes noted since the last call (a sweep starting now captures them all)."""
        with self._cond:
            touched, self._touched = self._touched, set()
            return touched

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stopped:
                    due = self._debounce.due()
                    now = time.monotonic()
                    if due is not None and due <= now:
                        break
                    self._cond.wait(None if due is None else due - now)
                if self._stopped:
                    return
                self._debounce.take(time.monotonic())
            self.fired += 1
            self._fire()
