"""Observe agents: find each agent's pane, prove its process, detect what its screen shows.

An agent's identity is bound when paw starts it (or adopts it): the pane's random tag, the tmux
server the pane lives on (its pid and start time: a restarted server is another server), and
the process paw launched (pid and start time; the agent is that process or its descendant,
and keeps the executable it was first seen with). Nothing is ever matched by a pane id alone,
a program's name alone, or a process that appeared later outside that tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.agents import find_agent_process, matches_process, profile_for
from paw.core.models import Detection, DetectionState
from paw.supervisor.channels import overlay
from paw.supervisor.context import TAG_AGENT, TAG_REPO, TAG_TOKEN
from paw.supervisor.observation import Observation, Problem

_START_TIME_SLACK = 0.01  # seconds: psutil start times are floats from /proc ticks

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from paw.core.agents import AgentProfile
    from paw.core.occurrence import ProcIdentity
    from paw.core.ports import PaneInfo, ProcInfo
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord


def current_server(panes: Sequence[PaneInfo]) -> str | None:
    """The identity of the server that listed ``panes`` (None when unknown)."""
    return next((p.server for p in panes if p.server), None)


def pane_for(ctx: Context, agent: AgentRecord, panes: Sequence[PaneInfo]) -> PaneInfo | None:
    """The agent's own pane, proven: on the server it was bound to, and for a spawned agent
    carrying its name, repository and random tag; for an adopted (untagged) pane, its recorded
    id on that same server. A pane id that a restarted server reused never matches."""
    for pane in panes:
        if agent.server and pane.server and pane.server != agent.server:
            continue
        if agent.adopted:
            if pane.pane_id == agent.pane_id and TAG_AGENT not in pane.tags:
                return pane
            continue
        if pane.tags.get(TAG_AGENT) != agent.name or pane.tags.get(TAG_REPO) != ctx.repo_id:
            continue
        if agent.token is None or pane.tags.get(TAG_TOKEN) == agent.token:
            return pane
    return None


def locate(
    ctx: Context, agent: AgentRecord, panes: Sequence[PaneInfo]
) -> tuple[PaneInfo | None, Problem | None]:
    """:func:`pane_for`, and when there is no pane, why (server restarted or pane gone)."""
    pane = pane_for(ctx, agent, panes)
    if pane is not None:
        return pane, None
    if not panes:  # a server with no pane at all is shutting down (kill-server): unproven
        return None, Problem.SERVER_GONE
    server = current_server(panes)
    if agent.server and server and server != agent.server:
        return None, Problem.SERVER_RESTARTED
    return None, Problem.PANE_GONE


def locate_all(
    ctx: Context, agents: Iterable[AgentRecord], panes: Sequence[PaneInfo]
) -> dict[str, tuple[PaneInfo | None, Problem | None]]:
    """:func:`locate` for every agent over one listing, in time linear in agents + panes:
    each agent is matched against the panes that can be its own (tagged with its name, or
    for an adopted agent, listed under its recorded id), in listing order, so the result is
    the one :func:`locate` gives."""
    by_name: dict[str, list[PaneInfo]] = {}
    by_id: dict[str, list[PaneInfo]] = {}
    for listed in panes:
        name = listed.tags.get(TAG_AGENT)
        if name is not None:
            by_name.setdefault(name, []).append(listed)
        by_id.setdefault(listed.pane_id, []).append(listed)
    server = current_server(panes)
    out: dict[str, tuple[PaneInfo | None, Problem | None]] = {}
    for agent in agents:
        own = by_id.get(agent.pane_id or "", []) if agent.adopted else by_name.get(agent.name, [])
        pane = pane_for(ctx, agent, own)
        if pane is not None:
            out[agent.name] = (pane, None)
        elif not panes:
            out[agent.name] = (None, Problem.SERVER_GONE)
        elif agent.server and server and server != agent.server:
            out[agent.name] = (None, Problem.SERVER_RESTARTED)
        else:
            out[agent.name] = (None, Problem.PANE_GONE)
    return out


def _same(proc: ProcInfo, identity: ProcIdentity) -> bool:
    return proc.pid == identity.pid and abs(proc.create_time - identity.create_time) < (
        _START_TIME_SLACK
    )


def subtree(procs: Sequence[ProcInfo], root: ProcInfo) -> list[ProcInfo]:
    """``root`` and its descendants among ``procs`` (root first), by parent pid."""
    out, members = [root], {root.pid}
    for proc in procs:  # a tree is listed parents before children
        if proc.pid not in members and proc.ppid in members:
            members.add(proc.pid)
            out.append(proc)
    return out


def resolve(
    ctx: Context, agent: AgentRecord, pane: PaneInfo, tree: Sequence[ProcInfo] | None = None
) -> tuple[ProcInfo | None, Problem | None]:
    """The agent process in ``pane``: the launched process or a descendant that runs the
    agent's kind; else None and why (the pane's program ended, or was replaced)."""
    if pane.dead:
        return None, Problem.PANE_DEAD
    procs = list(ctx.procs.tree(pane.pane_pid) if tree is None else tree)
    # records from before launch identities: an adopted agent's own process stands for it
    launched = agent.launched or (agent.proc if agent.adopted else None)
    if launched is not None:
        root = next(
            (p for p in procs if p.pid == launched.pid and _created(p, launched.create_time)),
            None,
        )
        if root is None:
            return None, (Problem.REPLACED if procs else Problem.NO_AGENT)
        procs = subtree(procs, root)
    profile = profile_for(ctx.config, agent.kind)
    if profile is None:  # its kind left paw.toml: paw cannot tell its process (fail closed)
        return None, Problem.NO_AGENT
    proc = find_agent_process(profile, procs)
    if proc is None:
        return None, Problem.NO_AGENT
    bound = agent.proc
    if bound is not None and _same(proc, bound) and bound.exe and proc.exe != bound.exe:
        return None, Problem.REPLACED  # the agent's process exec'd another program
    return proc, None


def _created(proc: ProcInfo, create_time: float) -> bool:
    """``create_time`` 0 is "not read yet" (bound at the first observation)."""
    return create_time == 0.0 or abs(proc.create_time - create_time) < _START_TIME_SLACK


def agent_process(
    ctx: Context,
    agent: AgentRecord,
    pane: PaneInfo | None,
    tree: Sequence[ProcInfo] | None = None,
) -> ProcInfo | None:
    """The proven agent process in ``pane`` (see :func:`resolve`), or None.

    ``tree`` is the pane's process tree when the caller already read it (a sweep reads every
    pane's tree in one pass); otherwise it is read here.
    """
    if pane is None:
        return None
    return resolve(ctx, agent, pane, tree)[0]


def is_same_process(
    ctx: Context, agent: AgentRecord, pane: PaneInfo, identity: ProcIdentity
) -> bool:
    """True when the proven agent process of ``pane`` is ``identity`` (pid + start time)."""
    proc = agent_process(ctx, agent, pane)
    return proc is not None and _same(proc, identity)


def detect_text(ctx: Context, agent: AgentRecord, text: str | None) -> Detection:
    """Detect ``text`` with the agent's detector; a missing screen is ``unknown``."""
    profile = profile_for(ctx.config, agent.kind)
    if profile is None:
        note = f"agent kind {agent.kind!r} is not in paw.toml any more"
        return Detection(DetectionState.UNKNOWN, agent.kind, notes=(note,))
    detector_id = profile.detector_id
    if text is None:
        return Detection(DetectionState.UNKNOWN, detector_id, notes=("no screen",))
    return overlay(ctx, agent, ctx.detector(text, detector_id))


def observe(
    ctx: Context,
    agent: AgentRecord,
    pane: PaneInfo | None,
    text: str | None,
    tree: Sequence[ProcInfo] | None = None,
    problem: Problem | None = None,
) -> Observation:
    """Resolve and detect one agent from its pane, captured screen and (prefetched) tree."""
    proc: ProcInfo | None = None
    if pane is not None:
        proc, problem = resolve(ctx, agent, pane, tree)
    detection = detect_text(ctx, agent, text if proc is not None else None)
    return Observation(agent, pane, proc, detection, problem if proc is None else None)


def explain(
    ctx: Context, agent: AgentRecord, pane: PaneInfo | None, problem: Problem | None = None
) -> dict[str, object]:
    """What the proof of ``agent``'s process saw now, in plain data, for a human asking why it
    is (or is not) proven: the pane, the identities bound at spawn, the profile's match, and
    every process of the pane's tree with whether it descends from the launched process and
    whether it matches the agent's kind. Reporting only: it decides nothing (the proof is
    :func:`resolve`, which this calls and reports)."""
    out: dict[str, object] = {
        "agent": agent.name,
        "kind": agent.kind,
        "launched": None if agent.launched is None else agent.launched.model_dump(),
        "bound": None if agent.proc is None else agent.proc.model_dump(),
        "server": agent.server,
    }
    profile = profile_for(ctx.config, agent.kind)
    out["match"] = None if profile is None else profile.match.model_dump()
    if pane is None:
        out |= {"pane": None, "tree": [], "agent_pid": None,
                "problem": None if problem is None else problem.value,
                "why": problem.note if problem is not None else "no pane"}  # fmt: skip
        return out
    tree = [] if pane.dead else list(ctx.procs.tree(pane.pane_pid))
    proc, found = resolve(ctx, agent, pane, tree)
    launched = agent.launched or (agent.proc if agent.adopted else None)
    root = (
        None
        if launched is None
        else next(
            (p for p in tree if p.pid == launched.pid and _created(p, launched.create_time)), None
        )
    )
    members = {p.pid for p in subtree(tree, root)} if root is not None else set()
    out["pane"] = {"id": pane.pane_id, "pid": pane.pane_pid, "dead": pane.dead,
                   "server": pane.server}  # fmt: skip
    out["tree"] = [_row(p, None if launched is None else p.pid in members, profile) for p in tree]
    out["agent_pid"] = None if proc is None else proc.pid
    out["problem"] = None if found is None else found.value
    out["why"] = _why(agent, pane, tree, launched, root, proc, found)
    return out


def _row(proc: ProcInfo, under: bool | None, profile: AgentProfile | None) -> dict[str, object]:
    return {
        "pid": proc.pid,
        "ppid": proc.ppid,
        "name": proc.name,
        "exe": proc.exe,
        "cmdline": list(proc.cmdline),
        "create_time": proc.create_time,
        "under_launched": under,
        "matches": profile is not None and matches_process(profile.match, proc),
    }


def _why(
    agent: AgentRecord,
    pane: PaneInfo,
    tree: Sequence[ProcInfo],
    launched: ProcIdentity | None,
    root: ProcInfo | None,
    proc: ProcInfo | None,
    found: Problem | None,
) -> str:
    """One sentence: why :func:`resolve` proved the agent's process, or did not."""
    if proc is not None:
        return f"proven: pid {proc.pid} ({proc.name}) runs {agent.kind} in the pane's tree"
    if pane.dead:
        return "the pane's program ended (the pane is kept dead)"
    if not tree:
        return f"the pane's process {pane.pane_pid} could not be read (gone, or a zombie)"
    if launched is not None and root is None:
        return (
            f"the launched process (pid {launched.pid}, started {launched.create_time}) is not "
            f"in the pane's tree: {', '.join(f'{p.pid}:{p.name}' for p in tree)}"
        )
    if found is Problem.REPLACED:
        return "the agent's bound process now runs another executable"
    return f"no process of the launched tree matches {agent.kind}'s process match"
