"""When to sweep after pane events (pure: the caller passes the time).

A prompt box is drawn in a burst of writes; one sweep should see it whole, and as soon as the
burst is over. So a pane's events are due ``quiet`` seconds after its latest event (each new
event of the burst pushes that out), but never later than ``first`` seconds after the first
event a sweep has not taken yet (a pane that never pauses is still swept). A pane that keeps
drawing is due at most every ``repeat`` seconds after the sweep that last took it. A structure
change (key None: a window or pane came or went, the event client reconnected) is due like a
quiet pane's first event.
"""

from __future__ import annotations

# A burst is over once its pane has been silent this long. Terminal UIs write a frame in one
# go (the kernel may hand it to tmux in a few reads, microseconds apart); a few milliseconds
# of silence is the end of the frame, not a pause inside it.
QUIET_S = 0.008
# ... and a pane is swept at the latest this long after its first event, silent or not.
FIRST_S = 0.03
# A pane that keeps drawing (a spinner, a timer) is swept at most this often. Shorter than a
# spinner's frame, so the frame that draws a prompt is swept right after it, not up to a whole
# gap later; the TUI bounds the total (sweeps take at most about half the time).
REPEAT_S = 0.08


class Debounce:
    """Pending pane events and the time the next sweep is due."""

    def __init__(
        self, first: float = FIRST_S, repeat: float = REPEAT_S, quiet: float = QUIET_S
    ) -> None:
        """``quiet``: silence that ends a burst; ``first``: the longest wait after a pane's
        first pending event; ``repeat``: per-pane minimum gap between the sweeps that take it."""
        self.first = first
        self.repeat = repeat
        self.quiet = min(quiet, first)
        self._pending: dict[str | None, tuple[float, float]] = {}  # key -> (first, last event)
        self._taken: dict[str | None, float] = {}  # key -> when a sweep last took it

    def _due(self, key: str | None, first: float, last: float) -> float:
        due = min(last + self.quiet, first + self.first)
        taken = self._taken.get(key) if key is not None else None
        return due if taken is None else max(due, taken + self.repeat)

    def event(self, key: str | None, now: float) -> float:
        """Note an event of pane ``key`` (None: structure); return when a sweep is due."""
        first, _ = self._pending.get(key, (now, now))
        self._pending[key] = (first, now)
        return self.due() or self._due(key, first, now)

    def due(self) -> float | None:
        """The earliest due time of the pending events (None when nothing is pending)."""
        if not self._pending:
            return None
        return min(self._due(key, first, last) for key, (first, last) in self._pending.items())

    def take(self, now: float) -> bool:
        """A sweep starts now: the events due by now are taken (True if any); events not due
        yet stay pending for a later sweep."""
        ready = [
            key
            for key, (first, last) in self._pending.items()
            if self._due(key, first, last) <= now
        ]
        for key in ready:
            del self._pending[key]
            self._taken[key] = now
        if len(self._taken) > 4096:  # panes come and go: forget the oldest
            for key in sorted(self._taken, key=self._taken.__getitem__)[:2048]:
                del self._taken[key]
        return bool(ready)
