"""Observe agents: find each agent's pane, resolve its process, detect what its screen shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from paw.core.agents import find_agent_process, matches_process, profile_for
from paw.core.models import Detection, DetectionState
from paw.supervisor.context import TAG_AGENT, TAG_REPO

_START_TIME_SLACK = 0.01  # seconds: psutil start times are floats from /proc ticks

if TYPE_CHECKING:
    from collections.abc import Sequence

    from paw.core.ports import PaneInfo, ProcInfo
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord, ProcIdentity


@dataclass(frozen=True, slots=True)
class Observation:
    """One agent as seen now: its pane (None when gone), agent process, and detection."""

    agent: AgentRecord
    pane: PaneInfo | None
    proc: ProcInfo | None
    detection: Detection

    @property
    def alive(self) -> bool:
        """The pane exists and currently runs an agent of the agent's kind."""
        return self.pane is not None and self.proc is not None


def pane_for(ctx: Context, agent: AgentRecord, panes: Sequence[PaneInfo]) -> PaneInfo | None:
    """The agent's pane: the one tagged with its name and repository, else its recorded id.

    A recorded id only counts when that pane carries no other paw agent's tags (adopted panes
    are untagged; tmux restarts pane numbering when its server restarts).
    """
    for pane in panes:
        if pane.tags.get(TAG_AGENT) == agent.name and pane.tags.get(TAG_REPO) == ctx.repo_id:
            return pane
    for pane in panes:
        if pane.pane_id == agent.pane_id and TAG_AGENT not in pane.tags:
            return pane
    return None


def agent_process(
    ctx: Context,
    agent: AgentRecord,
    pane: PaneInfo | None,
    tree: Sequence[ProcInfo] | None = None,
) -> ProcInfo | None:
    """The process in ``pane``'s tree that runs ``agent``'s kind, or None.

    ``tree`` is the pane's process tree when the caller already read it (a sweep reads every
    pane's tree in one pass); otherwise it is read here.
    """
    if pane is None or pane.dead:
        return None
    profile = profile_for(ctx.config, agent.kind)
    if profile is None:  # its kind left paw.toml: paw cannot tell its process (fail closed)
        return None
    procs = ctx.procs.tree(pane.pane_pid) if tree is None else tree
    return find_agent_process(profile, procs)


def is_same_process(
    ctx: Context, agent: AgentRecord, pane: PaneInfo, identity: ProcIdentity
) -> bool:
    """True when ``identity`` (pid + start time) still runs in ``pane`` as ``agent``'s kind."""
    profile = profile_for(ctx.config, agent.kind)
    if pane.dead or profile is None:
        return False
    return any(
        p.pid == identity.pid
        and abs(p.create_time - identity.create_time) < _START_TIME_SLACK
        and matches_process(profile.match, p)
        for p in ctx.procs.tree(pane.pane_pid)
    )


def detect_text(ctx: Context, agent: AgentRecord, text: str | None) -> Detection:
    """Detect ``text`` with the agent's detector; a missing screen is ``unknown``."""
    profile = profile_for(ctx.config, agent.kind)
    if profile is None:
        note = f"agent kind {agent.kind!r} is not in paw.toml any more"
        return Detection(DetectionState.UNKNOWN, agent.kind, notes=(note,))
    detector_id = profile.detector_id
    if text is None:
        return Detection(DetectionState.UNKNOWN, detector_id, notes=("no screen",))
    return ctx.detector(text, detector_id)


def observe(
    ctx: Context,
    agent: AgentRecord,
    pane: PaneInfo | None,
    text: str | None,
    tree: Sequence[ProcInfo] | None = None,
) -> Observation:
    """Resolve and detect one agent from its pane, captured screen and (prefetched) tree."""
    proc = agent_process(ctx, agent, pane, tree)
    detection = detect_text(ctx, agent, text if proc is not None else None)
    return Observation(agent, pane, proc, detection)
