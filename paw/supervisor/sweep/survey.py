"""The survey of one sweep (every agent's pane and screen from one tmux call) and the
observations a long-running sweeper reuses while nothing changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.agents import profile_for, still_starting
from paw.core.occurrence import ProcIdentity
from paw.supervisor.observation import Observation, Problem
from paw.supervisor.observe import detect_text, locate_all, observe
from paw.supervisor.records import update_agents

if TYPE_CHECKING:
    from collections.abc import Hashable, Mapping

    from paw.core.ports import PaneInfo, ProcInfo
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord

TTL_REFRESH_PER_SWEEP = 8  # quiet agents past ``observe_ttl`` resolved again per sweep
PROOF_REUSE_S = 1.0  # a changed screen reuses its pane's proven process for this long


def survey_panes(
    ctx: Context, agents: dict[str, AgentRecord]
) -> tuple[dict[str, tuple[PaneInfo | None, Problem | None]], dict[str, str | None]]:
    """Each agent's pane (or why there is none) and the captured screens, from one tmux call.

    The survey is steady (``fresh=False``): the pane listing is current, and a pane that
    provably did not change since its last capture reuses it. Approval never relies on
    this: it re-captures the pane fresh before sending anything (see approve.py).

    The panes captured are the agents' recorded pane ids (known before the listing). An
    agent found under another id (its tags moved with a respawned pane) costs one more call.
    """
    recorded = [a.pane_id for a in agents.values() if a.pane_id]
    survey = ctx.terminal.survey(recorded, fresh=False)
    located = locate_all(ctx, agents.values(), survey.panes)
    texts = {c.pane_id: c.text for c in survey.captures}
    missed = [p.pane_id for p, _ in located.values() if p and not p.dead and p.pane_id not in texts]
    if missed:
        texts.update({c.pane_id: c.text for c in ctx.terminal.sweep(missed)})
    return located, texts


def _pane_key(pane: PaneInfo) -> tuple[object, ...]:
    return (pane.pane_id, pane.pane_pid, pane.dead, pane.server)


def kept_observations(
    ctx: Context,
    agents: dict[str, AgentRecord],
    located: dict[str, tuple[PaneInfo | None, Problem | None]],
    texts: dict[str, str | None],
    now: float,
    marks: Mapping[str, Hashable] | None = None,
) -> tuple[dict[str, Observation], dict[str, tuple[float, ProcInfo]]]:
    """Observations of the last sweeps still valid (``settings.observe_ttl``): same agent record,
    same pane (id, pid, liveness, server), same screen, the same channel mark (``marks``, taken
    before this sweep read any channel), and younger than the TTL, or older
    but not among the :data:`TTL_REFRESH_PER_SWEEP` oldest (those are resolved again now).
    Beside them, by agent, the proven process (and when it was proven) of those whose screen
    alone changed, proven less than :data:`PROOF_REUSE_S` ago: detected again, not resolved."""
    if ctx.settings.observe_ttl <= 0:
        return {}, {}
    kept: dict[str, Observation] = {}
    proven: dict[str, tuple[float, ProcInfo]] = {}
    expired: list[tuple[float, str]] = []
    for name, agent in agents.items():
        pane = located[name][0]
        entry = ctx.memory.observed.get(name)
        if pane is None or entry is None or now < entry[0]:
            continue  # (a clock that went back: resolve again)
        obs, text = entry[1], entry[2]
        if obs.pane is None:
            continue
        if not _same_inputs(ctx, obs, agent, marks):
            continue
        screen = texts.get(pane.pane_id)
        if screen is None or text is None or (screen is not text and screen != text):
            if (
                obs.proc is not None
                and now - entry[0] < min(PROOF_REUSE_S, ctx.settings.observe_ttl)
                and _pane_key(obs.pane) == _pane_key(pane)
            ):
                proven[name] = (entry[0], obs.proc)
            continue
        if obs.pane == pane:  # the very same picture: the same object (its view is reused)
            kept[name] = obs
        elif _pane_key(obs.pane) == _pane_key(pane):
            # (the constructor, not dataclasses.replace: a sweep keeps every quiet agent's)
            kept[name] = Observation(obs.agent, pane, obs.proc, obs.detection, obs.problem)
        else:
            continue
        if now - entry[0] >= ctx.settings.observe_ttl:
            expired.append((entry[0], name))
    expired.sort()
    for _, name in expired[:TTL_REFRESH_PER_SWEEP]:
        del kept[name]  # the oldest: resolved again by this sweep
    return kept, proven


def _same_inputs(
    ctx: Context, obs: Observation, agent: AgentRecord, marks: Mapping[str, Hashable] | None
) -> bool:
    """The observation was made of this very agent record (the same parse) and, where its
    channel has a mark, under the mark its channel has now (else its channel changed, or may
    have: detected again, with the channel read)."""
    if obs.agent is not agent and obs.agent != agent:
        return False
    name = agent.name
    return marks is None or marks.get(name) == ctx.memory.channel_marks.get(name)


def remember(
    ctx: Context,
    observations: list[Observation],
    texts: dict[str, str | None],
    kept: dict[str, Observation],
    now: float,
    *,
    forget: bool = True,
    proven: dict[str, tuple[float, ProcInfo]] | None = None,
    marks: Mapping[str, Hashable] | None = None,
) -> None:
    if ctx.settings.observe_ttl <= 0:
        return
    names = set()
    channel_marks = ctx.memory.channel_marks
    for obs in observations:
        names.add(obs.agent.name)
        mark = marks.get(obs.agent.name) if marks is not None else None
        if mark is None:
            channel_marks.pop(obs.agent.name, None)
        else:
            channel_marks[obs.agent.name] = mark
        if obs.agent.name in kept:
            continue  # keeps the time it was observed (the TTL counts from there)
        text = texts.get(obs.pane.pane_id) if obs.pane is not None else None
        reused = proven.get(obs.agent.name) if proven else None
        # (a process proven earlier keeps the time of its proof: both reuses count from there)
        ctx.memory.observed[obs.agent.name] = (reused[0] if reused else now, obs, text)
    for name in [name for name in ctx.memory.observed if forget and name not in names]:
        del ctx.memory.observed[name]
    for name in [name for name in channel_marks if forget and name not in names]:
        del channel_marks[name]


def observe_agent(
    ctx: Context,
    agent: AgentRecord,
    where: tuple[PaneInfo | None, Problem | None],
    texts: dict[str, str | None],
    trees: dict[int, list[ProcInfo]],
    proven: tuple[float, ProcInfo] | None = None,
) -> Observation:
    pane, problem = where
    if pane is None:
        return observe(ctx, agent, None, None, problem=problem)
    if proven is not None:  # the screen changed, the pane and its proven process did not
        text = texts.get(pane.pane_id)
        return Observation(agent, pane, proven[1], detect_text(ctx, agent, text), None)
    return observe(ctx, agent, pane, texts.get(pane.pane_id), trees.get(pane.pane_pid, []))


def unreachable(ctx: Context, agent: AgentRecord, problem: Problem) -> Observation:
    return observe(ctx, agent, None, None, problem=problem)


def bind(ctx: Context, observations: list[Observation], trees: dict[int, list[ProcInfo]]) -> None:
    """Complete identities bound at spawn with what only a running agent shows: the launched
    process's start time (when spawn could not read it) and the agent process itself (pid,
    start time, executable). Written once per agent; never changes a bound identity."""
    updates: dict[str, dict[str, object]] = {}
    for obs in observations:
        agent, proc = obs.agent, obs.proc
        if proc is None or obs.pane is None:
            continue
        update: dict[str, object] = {}
        launched = agent.launched
        if launched is not None and launched.create_time == 0.0:
            root = next(iter(trees.get(obs.pane.pane_pid, [])), None)
            if root is not None and root.pid == launched.pid:
                update["launched"] = ProcIdentity(
                    pid=root.pid, create_time=root.create_time, exe=root.exe
                )
        if (agent.proc is None or agent.proc.pid != proc.pid) and not _starting(ctx, agent, proc):
            update["proc"] = ProcIdentity(pid=proc.pid, create_time=proc.create_time, exe=proc.exe)
        if agent.server is None and obs.pane.server:
            update["server"] = obs.pane.server
        if update:
            updates[agent.name] = update
    if updates:
        update_agents(ctx.state, updates)


def _starting(ctx: Context, agent: AgentRecord, proc: ProcInfo) -> bool:
    """The agent's process is a ``#!`` script still being started (``env`` about to exec the
    interpreter; :func:`paw.core.agents.still_starting`): bound at a later sweep, once its
    executable is the agent's. Bound now, the exec that follows would read as the agent
    replaced by another program for the rest of its life: never proven, no prompt listed."""
    profile = profile_for(ctx.config, agent.kind)
    return profile is not None and still_starting(profile.match, proc)
