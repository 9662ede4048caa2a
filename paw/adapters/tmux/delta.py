"""Reuse of quiet panes' captures between sweeps (pure: the caller passes states and times).

tmux stamps a window with the time of its last output (``#{window_activity}``, in whole
seconds); paw gives every agent its own window. A capture can be reused when, since it was
taken, the pane printed nothing, and kept the same process, size and liveness:

* the capture started at ``started`` (paw's clock, read before the capture was requested);
* the window's last output is at least one whole second before ``started``
  (``activity < floor(started) - 1``: whole-second stamps and a margin for clock steps);
* so the last output was processed before the capture ran, and nothing came after it.

Screen changes that are not output (a resize, a respawn, the "Pane is dead" line) change
the state key, which forces a new capture.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from paw.core.ports import PaneCapture

#: ``list-panes -F`` fields after the token, in :class:`PaneState` order (plus the pane id).
STATE_FIELDS = "#{pane_id} #{pane_pid} #{pane_width} #{pane_height} #{pane_dead} #{window_activity}"


@dataclass(frozen=True, slots=True)
class PaneState:
    """What must not change for a capture to stay valid, and the last output's time."""

    pid: int
    width: int
    height: int
    dead: bool
    activity: int  # epoch seconds of the window's last output


def parse_pane_states(stdout: str, token: str) -> dict[str, PaneState]:
    """Parse ``list-panes -a -F "<token> " + STATE_FIELDS`` output.

    >>> parse_pane_states("T %1 42 80 24 0 1700000000\\nnoise\\n", "T")
    {'%1': PaneState(pid=42, width=80, height=24, dead=False, activity=1700000000)}
    """
    states: dict[str, PaneState] = {}
    for line in stdout.splitlines():
        parts = line.split(" ")
        if len(parts) != 7 or parts[0] != token or not all(p.isdigit() for p in parts[2:]):
            continue
        pid, width, height, dead, activity = (int(p) for p in parts[2:])
        states[parts[1]] = PaneState(pid, width, height, dead == 1, activity)
    return states


@dataclass(frozen=True, slots=True)
class _Entry:
    capture: PaneCapture
    state: PaneState
    started: float


class CaptureCache:
    """Last capture per (pane, ansi), with the state it was taken in."""

    def __init__(self) -> None:
        self._entries: dict[tuple[str, bool], _Entry] = {}

    def reusable(self, pane_id: str, state: PaneState, *, ansi: bool) -> PaneCapture | None:
        """The cached capture when the pane is provably unchanged since it was taken."""
        entry = self._entries.get((pane_id, ansi))
        if entry is None:
            return None
        same = (entry.state.pid, entry.state.width, entry.state.height, entry.state.dead) == (
            state.pid,
            state.width,
            state.height,
            state.dead,
        )
        quiet = state.activity < math.floor(entry.started) - 1
        return entry.capture if same and quiet else None

    def unchanged(self, pane_id: str, state: PaneState, *, ansi: bool) -> PaneCapture | None:
        """The cached capture when the pane kept its process, size and liveness (the caller
        knows by other means, pane events, that it printed nothing since)."""
        entry = self._entries.get((pane_id, ansi))
        if entry is None:
            return None
        old = entry.state
        same = (old.pid, old.width, old.height, old.dead) == (
            state.pid,
            state.width,
            state.height,
            state.dead,
        )
        return entry.capture if same else None

    def has(self, pane_id: str, *, ansi: bool) -> bool:
        """True when a capture of ``pane_id`` is remembered (reusable or not)."""
        return (pane_id, ansi) in self._entries

    def store(self, capture: PaneCapture, state: PaneState, *, ansi: bool, started: float) -> None:
        """Remember ``capture`` (requested at ``started``) taken while the pane was ``state``."""
        if capture.text is not None:
            self._entries[(capture.pane_id, ansi)] = _Entry(capture, state, started)

    def prune(self, live: set[str]) -> None:
        """Forget panes that no longer exist."""
        for key in [key for key in self._entries if key[0] not in live]:
            del self._entries[key]


class SteadyMemory:
    """What steady sweeps (``fresh=False``) remember: the last capture of every pane, and the
    panes that were busy last time (worth capturing in the same call that lists the states)."""

    def __init__(self) -> None:
        self.cache = CaptureCache()
        self.recent: set[str] = set()

    def guess(self, wanted: Sequence[str], *, ansi: bool, unknown: bool) -> list[str]:
        """The panes of ``wanted`` busy last time (with ``unknown``, also those never captured)."""
        return [
            pane
            for pane in wanted
            if pane in self.recent or (unknown and not self.cache.has(pane, ansi=ansi))
        ]

    def absorb(
        self,
        guessed: dict[str, PaneCapture],
        states: dict[str, PaneState],
        *,
        ansi: bool,
        started: float,
    ) -> set[str]:
        """Forget gone panes and remember ``guessed``; return the guessed panes that were
        busy last time and changed since (likely busy next time too)."""
        self.cache.prune(set(states))
        reused, _todo = self.reuse(guessed, states, ansi=ansi)
        busy = {pane for pane in guessed if pane in self.recent and pane not in reused}
        self.store(guessed, states, ansi=ansi, started=started)
        return busy

    def reuse(
        self, panes: Iterable[str], states: dict[str, PaneState], *, ansi: bool
    ) -> tuple[dict[str, PaneCapture], list[str]]:
        """The reusable captures of ``panes`` and, in order, the listed panes that need a new
        capture (panes missing from ``states`` are gone: neither)."""
        found: dict[str, PaneCapture] = {}
        todo: list[str] = []
        for pane in panes:
            state = states.get(pane)
            if state is None:
                continue
            cached = self.cache.reusable(pane, state, ansi=ansi)
            if cached is None:
                todo.append(pane)
            else:
                found[pane] = cached
        return found, todo

    def store(
        self,
        captures: dict[str, PaneCapture],
        states: dict[str, PaneState],
        *,
        ansi: bool,
        started: float,
    ) -> None:
        """Remember ``captures`` (requested at ``started``) with the states listed for them."""
        for pane, capture in captures.items():
            if pane in states:
                self.cache.store(capture, states[pane], ansi=ansi, started=started)
