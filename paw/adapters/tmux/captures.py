"""The captures of :class:`~paw.adapters.tmux.terminal.TmuxTerminal`: fresh (every pane asked
now), steady (a pane that printed nothing since its last capture reuses it: see
:mod:`paw.adapters.tmux.delta`) and event-driven (only panes with a pane event since their
last capture are asked), through the control-mode client when it is up, else one tmux process
per chunk (:mod:`paw.adapters.tmux.sweep`).

A mixin of the terminal (and so of :class:`~paw.adapters.remote.terminal.RemoteTerminal`,
whose ``_tmux`` runs over ssh)."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from paw.adapters.tmux import sweep as tmux_sweep
from paw.adapters.tmux.format import is_pane_id
from paw.core.ports import PaneCapture, Survey

if TYPE_CHECKING:
    from collections.abc import Sequence

    from paw.adapters import proc
    from paw.adapters.tmux.delta import PaneState, SteadyMemory
    from paw.adapters.tmux.events import Mark, PaneEvents
    from paw.adapters.tmux.link import ControlLink


class Captures:
    """Fresh, steady and event-driven captures over the terminal's tmux and control link."""

    control: bool  # through the control-mode client when it is up
    last_captured: int  # panes actually captured by the last sweep (the rest reused)
    panes_captured: int  # capture-pane requests made, over the adapter's life
    _link: ControlLink
    _steady: SteadyMemory  # captures reused by fresh=False sweeps and surveys
    _steady_lock: threading.Lock  # one steady survey at a time (it owns the cache)
    _event_marks: dict[tuple[str, bool], Mark | None]  # mark before each capture

    def _tmux(self, *args: str, check: bool = True) -> proc.Completed:
        raise NotImplementedError  # the terminal's gateway (TmuxTerminal._tmux)

    def pane_states(self) -> dict[str, PaneState]:
        """Every pane's process, size, liveness and last output time (the terminal's)."""
        raise NotImplementedError

    def _survey_call(
        self, pane_ids: Sequence[str], *, ansi: bool, states: bool
    ) -> tuple[Survey, dict[str, PaneState]]:
        self.panes_captured += len(pane_ids)
        found = self._link.survey(pane_ids, ansi=ansi, states=states) if self.control else None
        if found is None:
            found = tmux_sweep.survey(self._tmux, pane_ids, ansi=ansi, states=states)
        return found

    def _survey_steady(self, pane_ids: Sequence[str], *, ansi: bool) -> Survey:
        """One call lists every pane with its state and captures the panes that were busy
        last time (or were never captured); of the others, a quiet one reuses its capture
        and one that printed is captured by one more call. A guessed pane that came back
        gone stays gone (it is never served from the cache)."""
        wanted = [pane for pane in dict.fromkeys(pane_ids) if is_pane_id(pane)]
        guess = self._steady.guess(wanted, ansi=ansi, unknown=True)
        started = time.time()
        survey, states = self._survey_call(guess, ansi=ansi, states=True)
        guessed = {c.pane_id: c for c in survey.captures if c.text is not None}
        busy = self._steady.absorb(guessed, states, ansi=ansi, started=started)
        asked = set(guess)
        reused, todo = self._steady.reuse([p for p in wanted if p not in asked], states, ansi=ansi)
        found = {**guessed, **reused, **self._capture_steady(todo, states, ansi=ansi)}
        self._steady.recent = busy | set(todo)
        self.last_captured = len(guess) + len(todo)
        captures = tuple(found.get(p) or PaneCapture(pane_id=p, text=None) for p in pane_ids)
        return Survey(panes=survey.panes, captures=captures)

    def _survey_events(self, events: PaneEvents, pane_ids: Sequence[str], ansi: bool) -> Survey:
        """The steady survey while pane events arrive: one call lists every pane with its
        state and captures the panes that had an event since their last capture (or were
        never captured); every other pane that kept its process, size and liveness reuses its
        capture. A pane whose state changed anyway is captured by one more call."""
        wanted = [pane for pane in dict.fromkeys(pane_ids) if is_pane_id(pane)]
        marks = {pane: events.mark(pane) for pane in wanted}  # before anything is requested
        cache = self._steady.cache
        dirty = [
            p
            for p in wanted
            if marks[p] is None
            or self._event_marks.get((p, ansi)) != marks[p]
            or not cache.has(p, ansi=ansi)
        ]
        started = time.time()
        survey, states = self._survey_call(dirty, ansi=ansi, states=True)
        cache.prune(set(states))
        for key in [key for key in self._event_marks if key[0] not in states]:
            del self._event_marks[key]
        found = {c.pane_id: c for c in survey.captures if c.text is not None}
        reused: dict[str, PaneCapture] = {}
        todo: list[str] = []
        for pane in wanted:
            if pane in found or pane in dirty or pane not in states:
                continue
            kept = cache.unchanged(pane, states[pane], ansi=ansi)
            if kept is None:
                todo.append(pane)
            else:
                reused[pane] = kept
        if todo:
            marks.update({pane: events.mark(pane) for pane in todo})
            found.update(self._sweep_fresh(todo, ansi=ansi))
        self._steady.store(found, states, ansi=ansi, started=started)
        for pane in found:
            self._event_marks[(pane, ansi)] = marks.get(pane)
        events.resume(found)
        self.last_captured = len(dirty) + len(todo)
        everything = {**reused, **found}
        captures = tuple(everything.get(p) or PaneCapture(pane_id=p, text=None) for p in pane_ids)
        return Survey(panes=survey.panes, captures=captures)

    def _capture_steady(
        self, todo: list[str], states: dict[str, PaneState], *, ansi: bool
    ) -> dict[str, PaneCapture]:
        if not todo:
            return {}
        started = time.time()
        fresh = self._sweep_fresh(todo, ansi=ansi)
        self._steady.store(fresh, states, ansi=ansi, started=started)
        return fresh

    def _sweep_fresh(self, wanted: list[str], *, ansi: bool) -> dict[str, PaneCapture]:
        if not wanted:
            return {}
        self.panes_captured += len(wanted)
        if self.control:
            controlled = self._link.sweep(wanted, ansi=ansi)
            if controlled is not None:
                return {capture.pane_id: capture for capture in controlled}
        return tmux_sweep.sweep(self._tmux, wanted, ansi=ansi)[0]

    def _sweep_delta(self, wanted: list[str], ansi: bool) -> dict[str, PaneCapture]:
        """Panes captured last time are captured again in the same process that lists every
        pane's state (they are likely still busy); of the others, only those that printed
        since their last capture are captured, by one more process."""
        started = time.time()
        if self.control and self._link.client() is not None:
            guess: list[str] = []
            guessed: dict[str, PaneCapture] = {}
            states = self.pane_states()
        else:
            guess = self._steady.guess(wanted, ansi=ansi, unknown=False)
            guessed, states = tmux_sweep.sweep(self._tmux, guess, ansi=ansi)
        busy = self._steady.absorb(guessed, states, ansi=ansi, started=started)
        asked = set(guess)
        reused, todo = self._steady.reuse([p for p in wanted if p not in asked], states, ansi=ansi)
        found = {**guessed, **reused, **self._capture_steady(todo, states, ansi=ansi)}
        self._steady.recent = busy | set(todo)
        self.last_captured = len(busy) + len(todo)
        return found
