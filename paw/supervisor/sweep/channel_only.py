"""The channel-only look a hook channel's poke makes before the screen sweep (issue 32).

A poke says a hook channel's record landed or ended. Before the whole sweep (every pane
captured), this look reads only the channels whose mark moved since the last sweep, of agents
that sweep saw alive, proven and showing no prompt, with nothing captured: each request is read
and proven by its port as the sweep reads it (the signature bound to the spawn, a live writer in
the agent's process tree), the agent's process proven at that sweep is checked to run still,
and what the fusion of that sweep's detection with the channel gives (a channel-only prompt, or
two claims at once, its subject withheld) goes through the same occurrence machine and prompts
table as a sweep's. A prompt listed so is one the screen did not show: it is answerable through
the channel only, and an approval proves everything again at decision time. The screen sweep
that follows reads the channel again with the screen (the cross-check) and replaces this
picture; nothing here closes, answers or forgets an occurrence.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from paw.core.models import DetectionState
from paw.supervisor.channels import channel_marks, overlay
from paw.supervisor.model import LivePrompt, Snapshot
from paw.supervisor.observation import Observation
from paw.supervisor.records import load_agents
from paw.supervisor.sweep.occurrences import live_prompts
from paw.supervisor.sweep.views import agent_view

if TYPE_CHECKING:
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord

_SLACK = 0.01  # seconds: psutil start times are floats from /proc ticks


def channel_sweep(ctx: Context) -> Snapshot | None:
    """The picture with the requests of the channels that moved since the last sweep listed,
    the other agents and prompts as that sweep showed them; None when there is nothing new to
    list this way, or no sweep before to build on (the screen sweep then does it all)."""
    now, cpu = ctx.clock(), time.thread_time()
    if not ctx.settings.show_prompts or ctx.settings.observe_ttl <= 0:
        return None
    agents = load_agents(ctx.state)
    if any(name not in ctx.memory.views for name in agents):
        return None  # an agent no sweep has shown yet: the screen sweep shows it
    marks = channel_marks(ctx, agents.values())
    observations: list[Observation] = []
    for name, mark in marks.items():
        if mark == ctx.memory.channel_marks.get(name):
            continue  # the channel did not change since the last sweep read it
        found = _observed(ctx, agents[name])
        if found is not None:
            observations.append(found)
    if not observations:
        return None
    observed = {o.agent.name for o in observations}
    before = ctx.memory.offered

    def picture(prompts: tuple[LivePrompt, ...], sending: dict[str, str]) -> Snapshot:
        ctx.fault("sweep:channel-look")  # (under the prompts lock, the table not yet written)
        fresh = {
            o.agent.name: agent_view(ctx, o, now, sending.get(o.agent.name)) for o in observations
        }
        views = tuple(fresh.get(name) or ctx.memory.views[name][5] for name in agents)
        others = {
            k: p for k, p in before.items() if p.agent not in observed and p.agent not in sending
        }
        ctx.memory.offered = {**others, **ctx.memory.offered}
        shown = (*others.values(), *prompts)
        return Snapshot(now, views, shown, cpu_s=time.thread_time() - cpu)

    return live_prompts(ctx, observations, now, picture, partial=True, close=False)


def _observed(ctx: Context, current: AgentRecord) -> Observation | None:
    """The agent as the last sweep saw it, its detection fused with its channel as it reads
    now, when that gives a prompt and the last sweep saw the agent alive, proven, with this very
    record and no prompt on its screen, and its proven process still runs."""
    entry = ctx.memory.observed.get(current.name)
    if entry is None:
        return None
    last = entry[1]
    agent, pane, proc = last.agent, last.pane, last.proc
    if pane is None or proc is None or last.problem is not None or not last.alive:
        return None
    if last.detection.state is DetectionState.PROMPT or last.detection.prompt is not None:
        return None  # the screen draws a prompt: the sweep fuses the two (one occurrence)
    if current is not agent and current != agent:  # (the record the marks were taken of)
        return None
    tree = ctx.procs.tree(proc.pid)[:1]
    if not tree or tree[0].pid != proc.pid or abs(tree[0].create_time - proc.create_time) > _SLACK:
        return None  # the agent's process ended or was replaced: the sweep sees why
    detection = overlay(ctx, agent, last.detection)
    if detection.state is not DetectionState.PROMPT or detection.prompt is None:
        return None
    return Observation(agent, pane, proc, detection, None)
