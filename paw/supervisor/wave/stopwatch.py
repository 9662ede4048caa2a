"""The runner's ear for ``paw wave stop`` while it sleeps between ticks.

A wave may tick rarely (``poll_s`` up to an hour). ``paw wave stop`` writes the stop marker
(``<wave>.stop.json``); a thread of the runner looks at that marker every
:data:`STOP_LOOK_S` and, when it turns to "stop", wakes the sleep: the tick that follows reads
the marker and ends the run. The marker on disk stays the only truth (a look decides nothing;
the tick reads it again), so a kill at any line loses nothing: the thread holds no state, and
a runner that is gone is stopped by ``paw wave stop`` itself. Two ``paw wave stop`` at once
write the same marker; each look reads a whole document (written atomically), never a half one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from paw.errors import PawError

STOP_LOOK_S = 0.5  # how often a sleeping runner looks at its stop marker (one small read)


class StopWatch:
    """Calls ``wake`` once each time ``stopped()`` turns True (looked at every ``every_s``)."""

    def __init__(
        self, stopped: Callable[[], bool], wake: Callable[[], None], every_s: float = STOP_LOOK_S
    ) -> None:
        self.stopped = stopped
        self.wake = wake
        self.every_s = every_s
        self.wakes = 0  # wake-ups so far
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start looking (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="paw-wave-stop", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop looking (idempotent; waits for the thread, which never blocks for long)."""
        self._done.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    def _run(self) -> None:
        seen = False  # the marker said "stop" at the last look
        while not self._done.wait(self.every_s):
            try:
                stop = self.stopped()
            except (PawError, OSError, ValueError):
                continue  # unreadable right now: the tick reads it and says why
            if stop and not seen:
                self.wakes += 1
                self.wake()
            seen = stop
