"""Each agent's row of a sweep's picture (:class:`~paw.supervisor.model.AgentView`), the very
object of the sweep before when nothing it shows changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.models import DetectionState
from paw.core.occurrence import DELIVERY_UNKNOWN
from paw.core.verified import version_drift
from paw.supervisor.model import AgentStatus, AgentView, only_in_the_pane
from paw.supervisor.observation import Observation, Problem
from paw.supervisor.records import REMOVING, SPAWNING
from paw.supervisor.sweep.counts import cached_stat, shown_count

if TYPE_CHECKING:
    from paw.core.ports import PaneInfo
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord


_PROBLEM_STATUS = {
    Problem.SERVER_GONE: AgentStatus.LOST,
    Problem.SERVER_RESTARTED: AgentStatus.SERVER_RESTARTED,
    Problem.REPLACED: AgentStatus.REPLACED,
}


def _status(obs: Observation) -> AgentStatus:
    if not obs.alive:
        if obs.problem is None:
            return AgentStatus.EXITED
        return _PROBLEM_STATUS.get(obs.problem, AgentStatus.EXITED)
    prompt = obs.detection.prompt
    if (
        obs.detection.state is DetectionState.PROMPT
        and prompt is not None
        and only_in_the_pane(prompt, obs.detection.source)
    ):
        return AgentStatus.WAITING  # (a tool request its channel carries is a prompt)
    return _STATE_STATUS.get(obs.detection.state, AgentStatus.UNKNOWN)


_STATE_STATUS = {
    DetectionState.PROMPT: AgentStatus.PROMPT,
    DetectionState.BUSY: AgentStatus.BUSY,
    DetectionState.IDLE: AgentStatus.IDLE,
}


_SENDING_OPS = {"approve": "approving", "deny": "denying", DELIVERY_UNKNOWN: "reconciling"}


def _operation(agent: AgentRecord, sending: str | None) -> str | None:
    """What another paw process is doing to the agent now. Interrupted operations were
    finished or undone before the sweep (see ``resume_interrupted``); what is still pending
    is held by a live paw process (or its resume failed: ``paw rm NAME`` decides)."""
    if agent.pending == SPAWNING:
        return "spawning"
    if agent.pending == REMOVING:
        return "removing"
    if sending is not None:
        return _SENDING_OPS.get(sending, "sending")
    return None


def agent_view(ctx: Context, obs: Observation, now: float, sending: str | None = None) -> AgentView:
    """The agent's row of the picture: the very object of the sweep before when it is the
    same (sent by number to the TUI), built again otherwise."""
    agent = obs.agent
    operation = _operation(agent, sending)
    last = ctx.memory.views.get(agent.name)
    if last is not None and last[0] is obs and last[1] == operation:
        # the very observation of the last sweep: status and since follow from it, as below
        was = last[2]
        if last[4] is shown_count(ctx, agent) and ctx.memory.status_since.get(agent.name) == (
            was.value,
            last[3],
        ):
            return last[5]
    status = _status(obs)
    if operation in ("spawning", "removing") and not obs.alive:
        status = AgentStatus.UNKNOWN  # half made or half removed: never read as exited
    prev = ctx.memory.status_since.get(agent.name)
    since = prev[1] if prev is not None and prev[0] == status.value else now
    ctx.memory.status_since[agent.name] = (status.value, since)
    cached = shown_count(ctx, agent)
    if (
        last is not None
        and last[0] is obs
        and last[1] is operation
        and last[2] is status
        and last[3] is since
        and last[4] is cached
    ):
        return last[5]
    pane: PaneInfo | None = obs.pane
    view = AgentView(
        name=agent.name,
        kind=agent.kind,
        pane_id=pane.pane_id if pane is not None else None,
        alive=None if obs.problem is Problem.SERVER_GONE else obs.alive,
        status=status,
        status_since=since,
        branch=agent.branch,
        worktree=agent.worktree,
        stat=cached_stat(cached),
        task=agent.task,
        note=_OPERATION_NOTES.get(operation or "") or _note(obs, status),
        operation=operation,
        version_note=_version_note(agent),
    )
    if last is not None and last[5] == view:
        view = last[5]  # the same view as the last sweep's: the very object (sent by number)
    ctx.memory.views[agent.name] = (obs, operation, status, since, cached, view)
    return view


_OPERATION_NOTES = {
    "spawning": "is being spawned by another paw process",
    "removing": "is being removed by another paw process",
    "approving": "is being sent an approval by another paw process",
    "denying": "is being sent a denial by another paw process",
    "reconciling": "got keys whose delivery is unknown (its host's link dropped); paw reads "
    "its screen once the host answers",
}


def _note(obs: Observation, status: AgentStatus) -> str | None:
    """Why the agent is not running, or the dialog it waits on, in words."""
    if obs.problem is not None and not obs.alive:
        return obs.problem.note
    prompt = obs.detection.prompt
    if status is AgentStatus.WAITING and prompt is not None:
        return f"waits on a {prompt.kind.value} dialog: {prompt.question}"
    return None


def _version_note(agent: AgentRecord) -> str | None:
    """What :func:`paw.core.verified.version_drift` says of the version read at spawn."""
    if not agent.version:
        return None
    from paw.core.detect.registry import spec_for  # cached: imported once per kind

    spec = spec_for(agent.kind)
    return version_drift(agent.kind, agent.version, spec.version if spec else None)
