"""When to sweep after pane events (pure: the caller passes the time).

The first event of a quiet pane asks for a sweep ``first`` seconds later (a few tens of
milliseconds: a prompt is drawn in several writes, one sweep should see it whole); a pane that
keeps drawing asks again at most every ``repeat`` seconds after the sweep that last took it.
A structure change (key None: a window or pane came or went, the event client reconnected)
always asks ``first`` seconds later.
"""

from __future__ import annotations

FIRST_S = 0.03
# A pane that keeps drawing (a spinner, a timer) is swept at most this often. Shorter than a
# spinner's frame, so the frame that draws a prompt is swept ``first`` seconds after it, not
# up to a whole gap later; the TUI bounds the total (sweeps take at most about half the time).
REPEAT_S = 0.08


class Debounce:
    """Pending pane events and the time the next sweep is due."""

    def __init__(self, first: float = FIRST_S, repeat: float = REPEAT_S) -> None:
        """``first``: delay after a quiet pane's first event; ``repeat``: per-pane minimum gap."""
        self.first = first
        self.repeat = repeat
        self._pending: dict[str | None, float] = {}  # key -> when it is due
        self._taken: dict[str | None, float] = {}  # key -> when a sweep last took it

    def event(self, key: str | None, now: float) -> float:
        """Note an event of pane ``key`` (None: structure); return when a sweep is due."""
        due = now + self.first
        if key is not None and key in self._taken:
            due = max(due, self._taken[key] + self.repeat)
        self._pending[key] = min(due, self._pending.get(key, due))
        return self.due() or due

    def due(self) -> float | None:
        """The earliest due time of the pending events (None when nothing is pending)."""
        return min(self._pending.values()) if self._pending else None

    def take(self, now: float) -> bool:
        """A sweep starts now: the events due by now are taken (True if any); events not due
        yet stay pending for a later sweep."""
        ready = [key for key, due in self._pending.items() if due <= now]
        for key in ready:
            del self._pending[key]
            self._taken[key] = now
        if len(self._taken) > 4096:  # panes come and go: forget the oldest
            for key in sorted(self._taken, key=self._taken.__getitem__)[:2048]:
                del self._taken[key]
        return bool(ready)
