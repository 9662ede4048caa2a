"""One sweep: every supervised pane captured in one batched call, resolved, detected, guarded."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from paw.core.approval import evaluate_subject
from paw.core.fingerprint import prompt_id
from paw.core.models import DetectionState
from paw.errors import PawError
from paw.supervisor.model import AgentStatus, AgentView, LivePrompt, Snapshot, WorktreeStat
from paw.supervisor.observe import Observation, observe, pane_for
from paw.supervisor.records import (
    ProcIdentity,
    PromptRecord,
    load_agents,
    load_prompts,
    save_prompts,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from paw.core.models import Detection, Verdict
    from paw.core.ports import PaneInfo, ProcInfo
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord

KEEP_GONE_S = 3600.0  # how long a prompt no longer shown stays in .paw/prompts.json
KEEP_GONE_MAX = 200
STAT_TTL_S = 5.0  # worktree counts cost git processes: refresh at most this often per agent
STAT_REFRESH_PER_SWEEP = 8  # stale counts refreshed per sweep, oldest first (3 git calls each)
STAT_WORKERS = 8  # git processes counting worktrees at once (they wait on the disk and exec)


def poll_once(ctx: Context) -> Snapshot:
    """Sweep every supervised pane once and return (and persist) the picture.

    One tmux process lists every pane and captures the agents' panes, and one pass over the
    process table reads every pane's process tree. A tmux server that is gone (or any other
    tmux failure) gives ``tmux_ok=False`` with the error and no prompts. Without agents,
    tmux is not asked at all (no server is then not an error).
    """
    now = ctx.clock()
    agents = load_agents(ctx.state)
    _refresh_stats(ctx, agents.values(), now)
    try:
        located, texts = _survey(ctx, agents) if agents else ({}, {})
    except PawError as err:
        views = tuple(_view(ctx, _gone(ctx, a), now) for a in agents.values())
        return Snapshot(now, views, (), tmux_ok=False, error=err.message)
    live = [p.pane_pid for p in located.values() if p is not None and not p.dead]
    trees = ctx.procs.trees(live) if live else {}
    observations = [_observe(ctx, a, located[name], texts, trees) for name, a in agents.items()]
    prompts = _live_prompts(ctx, observations, now)
    views = tuple(_view(ctx, o, now) for o in observations)
    return Snapshot(now, views, prompts)


def _survey(
    ctx: Context, agents: dict[str, AgentRecord]
) -> tuple[dict[str, PaneInfo | None], dict[str, str | None]]:
    """Each agent's pane and the captured screens, from one tmux call.

    The survey is steady (``fresh=False``): the pane listing is current, and a pane that
    provably did not change since its last capture reuses it. Approval never relies on
    this: it re-captures the pane fresh before sending anything (see approve.py).

    The panes captured are the agents' recorded pane ids (known before the listing). An
    agent found under another id (its tags moved with a respawned pane) costs one more call.
    """
    recorded = [a.pane_id for a in agents.values() if a.pane_id]
    survey = ctx.terminal.survey(recorded, fresh=False)
    located = {name: pane_for(ctx, a, survey.panes) for name, a in agents.items()}
    texts = {c.pane_id: c.text for c in survey.captures}
    missed = [p.pane_id for p in located.values() if p and not p.dead and p.pane_id not in texts]
    if missed:
        texts.update({c.pane_id: c.text for c in ctx.terminal.sweep(missed)})
    return located, texts


def _observe(
    ctx: Context,
    agent: AgentRecord,
    pane: PaneInfo | None,
    texts: dict[str, str | None],
    trees: dict[int, list[ProcInfo]],
) -> Observation:
    if pane is None:
        return observe(ctx, agent, None, None)
    return observe(ctx, agent, pane, texts.get(pane.pane_id), trees.get(pane.pane_pid, []))


def _gone(ctx: Context, agent: AgentRecord) -> Observation:
    return observe(ctx, agent, None, None)


def verdict_for(ctx: Context, agent: AgentRecord, detection: Detection) -> Verdict:
    """The guard's verdict on the detected prompt's subject in ``agent``'s worktree."""
    prompt = detection.prompt
    if prompt is None:
        msg = "verdict_for needs a detection with a prompt"
        raise ValueError(msg)
    return evaluate_subject(
        prompt,
        notes=detection.notes,
        worktree=agent.worktree,
        config=ctx.config.guard,
        mcp_allowed=ctx.config.mcp_allowed,
        shell=ctx.shell,
    )


def _live_prompts(
    ctx: Context, observations: list[Observation], now: float
) -> tuple[LivePrompt, ...]:
    seen = load_prompts(ctx.state)
    current: dict[str, PromptRecord] = {}
    out: list[LivePrompt] = []
    for obs in observations:
        record = _prompt_record(obs, seen, now)
        if record is None or obs.detection.prompt is None or obs.pane is None:
            continue
        current[record.id] = record
        verdict = verdict_for(ctx, obs.agent, obs.detection)
        if record.id not in seen:
            _record_seen(ctx, record, verdict)
        out.append(
            LivePrompt(
                record.id,
                obs.agent.name,
                obs.agent.kind,
                obs.pane.pane_id,
                obs.detection.prompt,
                verdict,
                record.first_seen,
            )
        )
    kept = _retained(seen, current, now)
    if kept.keys() != seen.keys():
        save_prompts(ctx.state, kept)
    return tuple(out)


def _retained(
    seen: dict[str, PromptRecord], current: dict[str, PromptRecord], now: float
) -> dict[str, PromptRecord]:
    """Live prompts plus recent gone ones, so approving a gone id says why it is refused."""
    recent = {
        k: r for k, r in seen.items() if k not in current and now - r.first_seen < KEEP_GONE_S
    }
    newest = sorted(recent.values(), key=lambda r: -r.first_seen)[:KEEP_GONE_MAX]
    return {**{r.id: r for r in newest}, **current}


def _prompt_record(
    obs: Observation, seen: dict[str, PromptRecord], now: float
) -> PromptRecord | None:
    prompt = obs.detection.prompt
    if obs.detection.state is not DetectionState.PROMPT or prompt is None:
        return None
    if obs.pane is None or obs.proc is None:
        return None
    pid = prompt_id(obs.pane.pane_id, prompt.fingerprint)
    if pid in seen and seen[pid].proc.pid == obs.proc.pid:
        return seen[pid]
    return PromptRecord(
        id=pid,
        agent=obs.agent.name,
        kind=obs.agent.kind,
        pane_id=obs.pane.pane_id,
        fingerprint=prompt.fingerprint,
        prompt_kind=prompt.kind.value,
        subject=prompt.subject,
        question=prompt.question,
        first_seen=now,
        proc=ProcIdentity(pid=obs.proc.pid, create_time=obs.proc.create_time),
    )


def _record_seen(ctx: Context, record: PromptRecord, verdict: Verdict) -> None:
    ctx.record(
        "prompt-seen",
        agent=record.agent,
        kind=record.kind,
        pane=record.pane_id,
        prompt_id=record.id,
        fingerprint=record.fingerprint,
        prompt_kind=record.prompt_kind,
        subject=record.subject,
        question=record.question,
        verdict=verdict.to_dict(),
    )


def _status(obs: Observation) -> AgentStatus:
    if not obs.alive:
        return AgentStatus.EXITED
    return {
        DetectionState.PROMPT: AgentStatus.PROMPT,
        DetectionState.BUSY: AgentStatus.BUSY,
        DetectionState.IDLE: AgentStatus.IDLE,
    }.get(obs.detection.state, AgentStatus.UNKNOWN)


def _view(ctx: Context, obs: Observation, now: float) -> AgentView:
    agent = obs.agent
    status = _status(obs)
    prev = ctx.status_since.get(agent.name)
    since = prev[1] if prev is not None and prev[0] == status.value else now
    ctx.status_since[agent.name] = (status.value, since)
    pane: PaneInfo | None = obs.pane
    return AgentView(
        name=agent.name,
        kind=agent.kind,
        pane_id=pane.pane_id if pane is not None else None,
        alive=obs.alive,
        status=status,
        status_since=since,
        branch=agent.branch,
        worktree=agent.worktree,
        stat=_cached_stat(ctx, agent),
        task=agent.task,
    )


def _refresh_stats(ctx: Context, agents: Iterable[AgentRecord], now: float) -> None:
    """Count worktrees never counted, and at most :data:`STAT_REFRESH_PER_SWEEP` stale ones
    (oldest first): counts fall due together, and 50 agents' worth of git processes in one
    sweep would stall it for half a second."""
    cache = ctx.stat_cache
    owned = [a for a in agents if not a.adopted]
    missing = [a for a in owned if a.name not in cache]
    stale = [a for a in owned if a.name in cache and now - cache[a.name][0] > STAT_TTL_S]
    stale.sort(key=lambda a: cache[a.name][0])
    due = [*missing, *stale[:STAT_REFRESH_PER_SWEEP]]
    if len(due) <= 1:
        for agent in due:
            worktree_stat(ctx, agent, now, fresh=True)
        return
    # The first sweep counts every worktree: 50 agents are 150 git processes, about 0.4 s one
    # after another. Side by side they overlap their start-up and disk waits.
    with ThreadPoolExecutor(max_workers=min(STAT_WORKERS, len(due))) as pool:
        list(pool.map(lambda agent: worktree_stat(ctx, agent, now, fresh=True), due))


def _cached_stat(ctx: Context, agent: AgentRecord) -> WorktreeStat:
    cached = None if agent.adopted else ctx.stat_cache.get(agent.name)
    if cached is None:
        return WorktreeStat()
    c = cached[1]
    return WorktreeStat(c.uncommitted, c.untracked, c.ahead, c.behind, c.insertions, c.deletions)


def worktree_stat(
    ctx: Context, agent: AgentRecord, now: float, *, fresh: bool = False
) -> WorktreeStat:
    """The agent worktree's counts (cached for :data:`STAT_TTL_S`); zeros when unavailable.

    Not while a spawn or removal is in progress (``pending``): `git status` takes the index
    lock of a worktree that `git worktree add` is still checking out."""
    if agent.adopted or agent.pending is not None:
        return WorktreeStat()
    cached = ctx.stat_cache.get(agent.name)
    if cached is None or fresh or now - cached[0] > STAT_TTL_S:
        try:
            counts = ctx.vcs.status_counts(agent.worktree, agent.base)
        except PawError:
            return WorktreeStat()
        cached = (now, counts)
        ctx.stat_cache[agent.name] = cached
    c = cached[1]
    return WorktreeStat(c.uncommitted, c.untracked, c.ahead, c.behind, c.insertions, c.deletions)
