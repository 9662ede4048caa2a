"""When the selected agent's side panels (pane preview, diff) are read again.

Sweeps follow pane events and may come ten times a second; the preview and the diff are read
after a sweep's picture only when they may have changed, on the wall clock: the diff at most
every DIFF_EVERY_S (git is slower than tmux); the preview at most every PREVIEW_EVERY_S while
the pane draws (at once when the agent or its status changes), and every DETAILS_EVERY_S when
the pane is quiet. What the agent used (tokens, from its own records; issue 36) is read at
most every USAGE_EVERY_S for the same agent, at once for another: one line for its card. Used
by the feed (:mod:`paw.supervisor.feed`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from paw.errors import PawError

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.supervisor.model import Snapshot, SupervisorApi

DIFF_EVERY_S = 2.0
PREVIEW_EVERY_S = 0.25
DETAILS_EVERY_S = 10.0
USAGE_EVERY_S = 5.0


@dataclass(frozen=True, slots=True)
class AgentDetails:
    """What the side panels show for the selected agent."""

    agent: str
    preview_ansi: str
    diff: str | None  # None: not refreshed this sweep (keep the previous diff)
    # what the agent used, one line for its card (tokens, or why unknown); None: not read
    # this time (keep the line shown)
    usage: str | None = None


class DetailsPacing:
    """What was read for which agent, and when (see the module's docstring)."""

    def __init__(
        self, clock: Callable[[], float], usage: Callable[[str], str | None] | None = None
    ) -> None:
        """Nothing read yet; ``clock`` is the wall clock (monotonic); ``usage`` reads an
        agent's usage line (None: no usage on the card)."""
        self._clock = clock
        self.usage = usage
        self._usage_agent: str | None = None
        self._usage_at = 0.0
        self._agent: str | None = None  # the agent the preview shown was read for
        self._status: object = None  # ... its status then
        self._at = 0.0  # ... and when
        self._diff_agent: str | None = None
        self._diff_at = 0.0

    def current(self, agent: str, snapshot: Snapshot, touched: set[str] | None) -> bool:
        """True when the selected agent's preview and diff shown may stay: it is the agent
        they were read for, in the same status, and either its pane drew nothing since (pane
        events tell, ``touched``; None: no events) or they were read less than
        PREVIEW_EVERY_S ago."""
        view = next((v for v in snapshot.agents if v.name == agent), None)
        if view is None or agent != self._agent or view.status != self._status:
            return False
        age = self._clock() - self._at
        if age < PREVIEW_EVERY_S:
            return True
        if touched is None or age >= DETAILS_EVERY_S:
            return False
        return view.event_key is not None and view.event_key not in touched

    def reading(self, agent: str, snapshot: Snapshot) -> None:
        """The preview and diff are (being) read for ``agent`` as ``snapshot`` shows it."""
        view = next((v for v in snapshot.agents if v.name == agent), None)
        self._agent = agent
        self._status = view.status if view is not None else None
        self._at = self._clock()

    def read(self, supervisor: SupervisorApi, agent: str) -> AgentDetails | None:
        """The agent's preview, and its diff when due (None: the agent went away)."""
        now = self._clock()
        try:
            preview = supervisor.capture_ansi(agent)
            diff = None
            if agent != self._diff_agent or now - self._diff_at >= DIFF_EVERY_S:
                diff = supervisor.diff(agent)
                self._diff_agent = agent
                self._diff_at = now
        except PawError:
            return None  # the agent went away between the sweep and its details
        return AgentDetails(
            agent=agent, preview_ansi=preview, diff=diff, usage=self._usage(agent, now)
        )

    def _usage(self, agent: str, now: float) -> str | None:
        """The agent's usage line when due (another agent, or USAGE_EVERY_S since)."""
        if self.usage is None:
            return None
        if agent == self._usage_agent and now - self._usage_at < USAGE_EVERY_S:
            return None
        self._usage_agent, self._usage_at = agent, now
        try:
            return self.usage(agent)
        except (PawError, OSError) as err:
            return f"tokens unknown: {err}"
