"""One sweep: every supervised pane captured in one batched call, resolved, detected, guarded.

The rooms: :mod:`.survey` (the panes and screens of one tmux call, and the observations a
long-running sweeper reuses), :mod:`.occurrences` (each shown prompt's occurrence stepped
through :mod:`paw.core.occurrence`), :mod:`.views` (each agent's row of the picture) and
:mod:`.counts` (the worktree counts and the threads that make them). What a Supervisor's sweeps
remember between sweeps is its :class:`paw.supervisor.memory.SweepMemory`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from paw.errors import PawError
from paw.supervisor.channels import channel_marks
from paw.supervisor.model import LivePrompt, Snapshot
from paw.supervisor.observation import Problem
from paw.supervisor.records import load_agents
from paw.supervisor.sweep.channel_only import channel_sweep
from paw.supervisor.sweep.counts import EarlyCounts, refresh_stats
from paw.supervisor.sweep.occurrences import live_prompts, verdict_for
from paw.supervisor.sweep.survey import (
    bind,
    kept_observations,
    observe_agent,
    remember,
    survey_panes,
    unreachable,
)
from paw.supervisor.sweep.views import agent_view

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.supervisor.context import Context

__all__ = ["channel_sweep", "poll_once", "verdict_for"]


def poll_once(
    ctx: Context, only: str | None = None, *, publish: Callable[[Snapshot], None] | None = None
) -> Snapshot:
    """Sweep every supervised pane once and return (and persist) the picture.

    One tmux process lists every pane and captures the agents' panes, and one pass over the
    process table reads every pane's process tree. A tmux server that is gone (or any other
    tmux failure) gives ``tmux_ok=False`` with the error, no prompts, and every agent
    ``lost`` (not ``exited``: paw cannot see). Without agents, tmux is not asked at all (no
    server is then not an error).

    ``only``: sweep that one agent (the picture holds it alone; an unknown name, nobody):
    what one agent's command needs (a spawn's result, ``paw send``) costs the same with 200
    agents as with one. The other agents' prompt occurrences are left as they are.

    ``publish``: given the picture as soon as it is whole when the sweep still has its record
    of prompts seen to write (a rename that a busy disk can hold up for most of a second), so
    the picture can be on its way first; the prompts lock is held until the write is done,
    so no paw process decides on a prompt from the record before it. The picture returned is
    the same.
    """
    now, cpu = ctx.clock(), time.thread_time()
    agents = load_agents(ctx.state)
    if only is not None:
        agents = {only: agents[only]} if only in agents else {}
    marks = channel_marks(ctx, agents.values())  # (before any channel is read)
    early = EarlyCounts.start(ctx, agents.values(), now)
    try:
        try:
            located, texts = survey_panes(ctx, agents) if agents else ({}, {})
        except PawError as err:
            refresh_stats(ctx, agents.values(), now, {}, early)
            views = tuple(
                agent_view(ctx, unreachable(ctx, a, Problem.SERVER_GONE), now)
                for a in agents.values()
            )
            return Snapshot(now, views, (), tmux_ok=False, error=err.message)
        screens = {name: texts.get(p.pane_id) for name, (p, _) in located.items() if p is not None}
        refresh_stats(ctx, agents.values(), now, screens, early)
    finally:
        if early is not None:
            early.abandon()  # only on an unexpected error: refresh_stats took the results
    kept, proven = kept_observations(ctx, agents, located, texts, now, marks)
    live = [
        p.pane_pid
        for name, (p, _) in located.items()
        if p is not None and not p.dead and name not in kept and name not in proven
    ]
    trees = ctx.procs.trees(live) if live else {}
    observations = [
        kept.get(name) or observe_agent(ctx, a, located[name], texts, trees, proven.get(name))
        for name, a in agents.items()
    ]
    remember(ctx, observations, texts, kept, now, forget=only is None, proven=proven, marks=marks)
    bind(ctx, observations, trees)

    def picture(prompts: tuple[LivePrompt, ...], sending: dict[str, str]) -> Snapshot:
        views = tuple(agent_view(ctx, o, now, sending.get(o.agent.name)) for o in observations)
        if only is None:
            for gone in [name for name in ctx.memory.views if name not in agents]:
                del ctx.memory.views[gone]
        return Snapshot(now, views, prompts, cpu_s=time.thread_time() - cpu)

    return live_prompts(ctx, observations, now, picture, partial=only is not None, publish=publish)
