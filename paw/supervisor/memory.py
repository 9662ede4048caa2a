"""What one Supervisor's sweeps remember between sweeps, typed, owned by the sweep.

Nothing here is the truth of anything: agents, prompts and decisions live in ``.paw/``, tmux
and git (see docs/architecture.md, "State model"); a fresh process starts with an empty memory
and the same picture. Its parts are the sweep's rooms' (:mod:`paw.supervisor.sweep`):
observations (survey), views (views), offered prompts (occurrences), counts (counts).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable

    from paw.core.ports import StatusCounts
    from paw.supervisor.model import AgentStatus, AgentView, LivePrompt
    from paw.supervisor.observation import Observation

Mark = tuple[object, ...] | None  # a worktree's status mark (None: unreadable)
Count = tuple[float, "StatusCounts"]  # (when counted, the counts)
# (when observed, the observation, the screen it was made on)
Observed = tuple[float, "Observation", "str | None"]
# a view and what it was built from: observation, operation, status, since, the count shown
Built = tuple["Observation", "str | None", "AgentStatus", float, "Count | None", "AgentView"]


@dataclass(frozen=True, slots=True)
class StatMark:
    """A worktree count's circumstances: when it was tried, the worktree's status mark and its
    pane's screen (a hash) taken just before, and whether it succeeded."""

    time: float
    mark: Mark
    screen: int | None
    ok: bool


@dataclass(frozen=True, slots=True)
class MarkRead:
    """When a worktree's status mark was last read, that mark, and its pane's screen (a hash)."""

    time: float
    mark: Mark
    sign: int | None


@dataclass(slots=True)
class SweepMemory:
    """Per agent (by name) unless said otherwise."""

    stat_cache: dict[str, Count] = field(default_factory=dict)  # the last good count
    stat_marks: dict[str, StatMark] = field(default_factory=dict)  # the last count tried
    mark_reads: dict[str, MarkRead] = field(default_factory=dict)
    status_since: dict[str, tuple[str, float]] = field(default_factory=dict)  # status, since
    observed: dict[str, Observed] = field(default_factory=dict)  # reused within observe_ttl
    # the channel's mark each observation was read under (see supervisor.channels.channel_marks)
    channel_marks: dict[str, Hashable] = field(default_factory=dict)
    views: dict[str, Built] = field(default_factory=dict)  # the last view built
    # per occurrence id: the last live prompt offered (an equal one offered again is that very
    # object, which the sweeper sends by number: see paw.adapters.sweep_child)
    offered: dict[str, LivePrompt] = field(default_factory=dict)
    counting: set[str] = field(default_factory=set)  # agents whose count runs right now
    counter: ThreadPoolExecutor | None = None  # the workers of background counts
    on_counted: Callable[[], None] | None = None  # told when a count beside the sweeps shows
    resume_failed: set[str] = field(default_factory=set)  # agents whose resumption failed once
