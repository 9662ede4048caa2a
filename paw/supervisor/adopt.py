"""Adopt: supervise an agent pane paw did not start, or bind an agent's pane to it again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.agents import find_agent_process, known_kinds, profile_for
from paw.core.occurrence import ProcIdentity
from paw.errors import PawError
from paw.supervisor.observe import agent_process, pane_for
from paw.supervisor.records import AgentRecord, load_agents, store_agent
from paw.supervisor.spawn import check_new_name

if TYPE_CHECKING:
    from paw.core.agents import AgentProfile
    from paw.core.ports import PaneInfo
    from paw.supervisor.context import Context


def adopt(ctx: Context, pane_id: str, name: str | None, kind: str | None) -> AgentRecord:
    """Supervise an existing pane, only if its process tree runs a known agent.

    A pane that already belongs to an agent whose process was replaced (the agent restarted
    in it, or something else now runs there) is bound again to that agent: the process found
    now becomes its identity, and prompts seen from here on are new occurrences."""
    panes = {p.pane_id: p for p in ctx.terminal.list_panes(None)}
    pane = panes.get(pane_id)
    if pane is None or pane.dead:
        raise PawError(f"no live tmux pane {pane_id!r}")
    owner = _owner(ctx, pane, list(panes.values()))
    if owner is not None:
        return _rebind(ctx, owner, pane, name)
    procs = ctx.procs.tree(pane.pane_pid)
    for profile in _candidates(ctx, kind):
        proc = find_agent_process(profile, procs)
        if proc is None:
            continue
        agent_name = name or f"{profile.kind}-{pane_id.lstrip('%')}"
        check_new_name(ctx, agent_name)
        identity = ProcIdentity(pid=proc.pid, create_time=proc.create_time, exe=proc.exe)
        record = AgentRecord(
            name=agent_name, kind=profile.kind, branch="", worktree=ctx.repo_root, base="",
            pane_id=pane_id, created_at=ctx.clock(), adopted=True,
            proc=identity, launched=identity, server=pane.server or None,
        )  # fmt: skip
        ctx.record("adopt", agent=agent_name, kind=profile.kind, pane=pane_id, pid=proc.pid)
        store_agent(ctx.state, record)
        return record
    commands = ", ".join(" ".join(p.cmdline) or p.name for p in procs) or "no processes"
    raise PawError(f"pane {pane_id} does not run a known agent ({commands})")


def _owner(ctx: Context, pane: PaneInfo, panes: list[PaneInfo]) -> AgentRecord | None:
    """The agent whose proven pane ``pane`` is (None: nobody's); PawError when that agent's
    process is still the one paw launched (nothing to adopt)."""
    for agent in load_agents(ctx.state).values():
        if not _same_pane(ctx, agent, pane, panes):
            continue
        if agent_process(ctx, agent, pane) is not None:
            raise PawError(f"pane {pane.pane_id} is already supervised (agent {agent.name})")
        return agent
    return None


def _same_pane(ctx: Context, agent: AgentRecord, pane: PaneInfo, panes: list[PaneInfo]) -> bool:
    found = pane_for(ctx, agent, panes)
    return found is not None and found.pane_id == pane.pane_id


def _rebind(ctx: Context, agent: AgentRecord, pane: PaneInfo, name: str | None) -> AgentRecord:
    if name is not None and name != agent.name:
        raise PawError(
            f"pane {pane.pane_id} belongs to agent {agent.name!r}",
            hint=f"`paw adopt {pane.pane_id}` binds it to {agent.name} again",
        )
    proc = find_agent_process(ctx.profile(agent.kind), ctx.procs.tree(pane.pane_pid))
    if proc is None:
        raise PawError(
            f"pane {pane.pane_id} of agent {agent.name!r} does not run {agent.kind} now",
            hint="stop it (`paw stop`) or start the agent in it again, then adopt",
        )
    identity = ProcIdentity(pid=proc.pid, create_time=proc.create_time, exe=proc.exe)
    record = agent.model_copy(
        update={"proc": identity, "launched": identity, "server": pane.server or agent.server}
    )
    ctx.record("adopt", agent=agent.name, kind=agent.kind, pane=pane.pane_id, pid=proc.pid,
               rebind=True)  # fmt: skip
    store_agent(ctx.state, record)
    return record


def _candidates(ctx: Context, kind: str | None) -> list[AgentProfile]:
    kinds = [kind] if kind is not None else list(known_kinds(ctx.config))
    if kind is not None:
        ctx.profile(kind)  # raises for an unknown kind
    return [p for k in kinds if (p := profile_for(ctx.config, k)) is not None]
