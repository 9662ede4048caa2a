"""What observing one agent finds (:mod:`paw.supervisor.observe` does the observing): its pane,
its process and its screen's detection, or why it cannot be proven to run now.

A value below the context: the sweep's memory keeps observations
(:class:`~paw.supervisor.memory.SweepMemory`), so this room imports nothing of the context's.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paw.core.models import Detection
    from paw.core.ports import PaneInfo, ProcInfo
    from paw.supervisor.records import AgentRecord


class Problem(StrEnum):
    """Why an agent cannot be proven to run now."""

    SERVER_GONE = "server-gone"  # no tmux server answers (or it failed): nothing is known
    SERVER_RESTARTED = "server-restarted"  # the agent's pane was on a server that is gone
    PANE_GONE = "pane-gone"  # the server is the same, the pane is not there
    PANE_DEAD = "pane-dead"  # the pane is kept (remain-on-exit) but its program ended
    REPLACED = "replaced"  # the pane runs a process paw did not launch
    NO_AGENT = "no-agent"  # the launched process runs, without the agent in it

    @property
    def note(self) -> str:
        """What a human reads."""
        return _NOTES[self]


_NOTES = {
    Problem.SERVER_GONE: "tmux server gone or unreachable",
    Problem.SERVER_RESTARTED: "tmux server restarted: the agent's pane is gone",
    Problem.PANE_GONE: "pane gone",
    Problem.PANE_DEAD: "agent exited",
    Problem.REPLACED: "agent replaced — run `paw adopt`",
    Problem.NO_AGENT: "agent exited",
}


@dataclass(frozen=True, slots=True)
class Observation:
    """One agent as seen now: its pane (None when gone), agent process, and detection."""

    agent: AgentRecord
    pane: PaneInfo | None
    proc: ProcInfo | None
    detection: Detection
    problem: Problem | None = None

    @property
    def alive(self) -> bool:
        """The pane exists and runs the agent paw launched (or its descendant)."""
        return self.pane is not None and self.proc is not None
