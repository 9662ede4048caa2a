"""New prompts announced: one bell and one toast for a burst of them, however many sweeps
bring it."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from paw.tui.format import shorten, sort_prompts

if TYPE_CHECKING:
    from textual.screen import Screen

    from paw.supervisor.model import LivePrompt

# New prompts: one toast (and one bell) for those a burst brings over a few sweeps, shown this
# long after the first of them (after the frames that put them in the queue), and toasts at
# most this often.
TOAST_GATHER_S = 0.25
TOAST_EVERY_S = 1.0


class PromptToasts:
    """The main screen's announcer of new prompts (its bell, timers and toasts)."""

    def __init__(self, screen: Screen[None]) -> None:
        self._screen = screen
        self._seen_prompts: set[str] = set()
        self._unannounced: dict[str, LivePrompt] = {}  # new prompts gathered for one toast
        self._toast_due = False
        self._last_toast = -TOAST_EVERY_S

    def announce(self, prompts: tuple[LivePrompt, ...], *, quiet: bool) -> None:
        """Ring and toast new prompts: one bell and one toast for a burst.

        A burst of prompts reaches the queue over a few sweeps, and a toast per sweep stacked
        five toasts on the screen for one burst, each mounted with a layout pass of the whole
        screen (~30 ms at 200 agents) in the way of the next sweep's new rows. So the prompts
        of a burst are gathered for :data:`TOAST_GATHER_S` after its first one, and toasts
        come at most every :data:`TOAST_EVERY_S`; the bell rings when a toast is due."""
        new = [p for p in prompts if p.id not in self._seen_prompts]
        self._seen_prompts = {p.id for p in prompts}
        if quiet or not new:
            return
        self._unannounced.update((p.id, p) for p in new)
        if self._toast_due:
            return
        self._toast_due = True
        self._screen.app.bell()
        now = time.monotonic()
        wait = max(TOAST_GATHER_S, self._last_toast + TOAST_EVERY_S - now)
        self._screen.set_timer(wait, self._toast, name="toast")

    def _toast(self) -> None:
        """The gathered new prompts still waiting, in one toast."""
        gathered, self._unannounced = self._unannounced, {}
        self._toast_due = False
        new = [p for key, p in gathered.items() if key in self._seen_prompts]
        if not new:
            return  # all answered or gone meanwhile
        self._last_toast = time.monotonic()
        if len(new) == 1:
            p = new[0]
            subject = shorten(p.prompt.subject or p.prompt.question, 32)
            message, title = f"{p.agent}: {subject} ({p.verdict.action.value})", "New prompt"
        else:  # one line for a burst (the queue has the details)
            message = ", ".join(p.agent for p in sort_prompts(new))
            title = f"{len(new)} new prompts"
        self._screen.notify(message, title=title)
