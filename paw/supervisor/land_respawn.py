"""The lander's respawn: a new agent on a sent-back task's branch when its agent is gone.

Counted and marked pending in the journal first (:func:`paw.core.land_respawn.respawn_counted`),
then: the gone agent's pane is stopped if paw can prove it is its own (nothing else is
killed), its record forgotten (the worktree and the branch stay), and a new agent of the
same kind started in the same worktree (``spawn --resume``: no worktree or branch is made)
— only when that worktree still has the task's branch checked out. Its follow-up is then
typed by the lander's usual path, with the usual proof. A failure parks the task, saying why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from paw.core.land import GONE, park
from paw.core.land_respawn import respawn_counted, respawn_event, respawned
from paw.errors import PawError
from paw.supervisor.followup_room import respawn_fit
from paw.supervisor.records import forget_agent, load_agents, op_lock

if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw.core.land import AgentSeen, LandState, TaskLanding
    from paw.core.wave import WaveFile
    from paw.supervisor.context import Context
    from paw.supervisor.service import Supervisor

RESPAWN_STEPS = (
    "land:respawn",  # the respawn is counted and pending; nothing done
    "land:respawn-forgotten",  # the gone agent's record is forgotten; no new agent yet
    "land:respawned",  # the new agent is up; the journal does not say so yet
)  # proven by tests/supervisor/test_land_respawn_real.py (kill -9 at each)


class RespawningLander(Protocol):
    """What a respawn needs of the lander that calls it (:class:`paw.supervisor.land.Lander`),
    passed in: this room never imports the lander."""

    @property
    def sup(self) -> Supervisor: ...

    @property
    def ctx(self) -> Context: ...

    @property
    def wave(self) -> WaveFile: ...

    @property
    def state(self) -> LandState: ...

    def save(self) -> None:
        """Write the journal (durable) before the next step."""
        ...


def respawn(lander: RespawningLander, task: str) -> bool:
    """Start a new agent on ``task``'s branch; False when it could not (the task is parked)."""
    state = lander.state
    t = state.task(task)
    assert t is not None  # noqa: S101 - decide() only names tasks in the queue
    now = lander.ctx.clock()
    record = load_agents(lander.ctx.state).get(t.agent)
    if record is not None and not t.respawn_pending:
        t.respawn_kind = record.kind  # kept before its record is forgotten
    if respawn_counted(t, now):
        respawn_event(state.events, task, "its agent is gone: a new one starts on its branch", now)
    lander.save()
    lander.ctx.record(
        "land-respawn", wave=lander.wave.name, task=task, agent=t.agent, number=t.respawns
    )
    lander.ctx.fault("land:respawn")
    try:
        _start_again(lander, t)
    except PawError as err:
        lander.ctx.record(
            "land-respawn-failed", wave=lander.wave.name, task=task, agent=t.agent,
            error=err.message,
        )  # fmt: skip
        t.respawn_pending = False
        why = f"sent back ({t.problem}), but its agent is gone and none could start: {err.message}"
        park(state, task, why, lander.ctx.clock())
        lander.save()
        return False
    kind = t.respawn_kind or lander.wave.task(task).agent or lander.wave.agent
    respawned(t, state.into, state.strategy, respawn_fit(lander.ctx, t.agent, kind))
    respawn_event(state.events, task, "a new agent runs on its branch", lander.ctx.clock())
    lander.save()
    return True


def _start_again(lander: RespawningLander, t: TaskLanding) -> None:
    ctx = lander.ctx
    name = t.agent
    record = load_agents(ctx.state).get(name)
    spec = lander.wave.task(t.name)
    branch = record.branch if record is not None else ctx.branch_for(name)
    worktree = record.worktree if record is not None else ctx.worktree_path(name)
    kind = record.kind if record is not None else t.respawn_kind
    kind = kind or spec.agent or lander.wave.agent
    if worktree not in ctx.vcs.worktree_paths(ctx.repo_root):
        raise PawError(f"its worktree {worktree} is gone")
    on = ctx.vcs.current_branch(worktree)
    if on != branch:
        raise PawError(f"its worktree {worktree} has {on or 'a detached HEAD'}, not {branch}")
    if record is not None:
        lander.sup.stop(name)  # only a pane proven to be its own is killed
        with ctx.state.lock(op_lock(name)):
            forget_agent(ctx.state, name)
    ctx.fault("land:respawn-forgotten")
    lander.sup.spawn_agent(name, kind, None, resume=True)
    ctx.fault("land:respawned")


def finish_cut_respawns(
    lander: RespawningLander, seen: Mapping[str, AgentSeen], now: float
) -> bool:
    """A lander killed after a new agent started and before it wrote so: once that agent is
    seen up, the respawn is over (its follow-up waits to be typed). True when any was."""
    done = False
    for t in lander.state.tasks:
        agent = seen.get(t.name)
        if t.respawn_pending and agent is not None and agent.status not in GONE | {"unknown"}:
            kind = t.respawn_kind or lander.wave.task(t.name).agent or lander.wave.agent
            fit = respawn_fit(lander.ctx, t.agent, kind)
            respawned(t, lander.state.into, lander.state.strategy, fit)
            respawn_event(lander.state.events, t.name, "a new agent runs on its branch", now)
            done = True
    return done
