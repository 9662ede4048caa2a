"""One sweep: every supervised pane captured in one batched call, resolved, detected, guarded."""

from __future__ import annotations

import secrets
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from paw.core.agents import profile_for, still_starting
from paw.core.fingerprint import occurrence_id
from paw.core.models import DetectionState
from paw.core.verified import version_drift
from paw.errors import PawError
from paw.supervisor.context import StatMark
from paw.supervisor.model import (
    AgentStatus,
    AgentView,
    LivePrompt,
    Outcome,
    Snapshot,
    WorktreeStat,
)
from paw.supervisor.observe import Observation, Problem, detect_text, locate_all, observe
from paw.supervisor.records import (
    ANSWERED,
    DELIVERY_UNKNOWN,
    ENDED,
    OPEN,
    PROMPTS_LOCK,
    REMOVING,
    SENDING,
    SPAWNING,
    ProcIdentity,
    PromptRecord,
    load_agents,
    load_prompts,
    save_prompts,
    update_agents,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from paw.core.models import Detection, Verdict
    from paw.core.ports import PaneInfo, ProcInfo, StatusCounts
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord

KEEP_GONE_S = 3600.0  # how long a prompt no longer shown stays in .paw/prompts.json
KEEP_GONE_MAX = 200
# Worktree counts cost git processes (3 per worktree), so a sweep recounts a worktree only
# when something that can change them changed: its status mark (index, HEAD, branch and base
# refs, the directory's own mtime: ``Vcs.status_mark``, a few stat() calls, no process) or its
# pane's screen (an agent editing files prints). Editing a tracked file with no git command and
# no output moves none of these, so counts are also refreshed every STAT_TTL_S regardless:
# rarely, since with nothing happening a long-running sweeper is to start no git process (at
# 200 agents a one-minute net was a git process every 0.3 s, 2 % of a core in an idle TUI).
STAT_TTL_S = 600.0  # safety net: every worktree recounted at least this often
# A host's worktrees have no status mark (reading one would cost a round trip): the net is
# their only sign of a change made in silence, so it stays short there.
HOST_STAT_TTL_S = 60.0
STAT_OUTPUT_S = 5.0  # a pane that keeps printing recounts its worktree at most this often
STAT_REFRESH_PER_SWEEP = 8  # due counts refreshed per sweep, oldest first (3 git calls each)
STAT_WORKERS = 8  # git processes counting worktrees at once (they wait on the disk and exec)
# A long-running sweeper counts beside its sweeps (``count_in_background``): nobody waits for
# those counts, while the sweep that carries a new prompt waits for every core their git
# processes hold. At 200 agents a busy tenth's recounts (every STAT_OUTPUT_S, 3 git processes
# each, 8 at a time) held both cores of a small machine and such a sweep took 80-100 ms instead
# of 15. So there are fewer of them, and each runs ``ctx.count_setup`` first (paw's composition
# lowers their priority, and so of the git processes they start).
BESIDE_WORKERS = 2
# A status mark is a score of stat() calls per worktree: 200 agents' worth per sweep is most of
# a sweep. It is read again when the pane's screen changed, else at most every MARK_EVERY_S.
MARK_EVERY_S = 5.0
MARK_MIN_S = 1.0  # a pane that keeps printing re-reads its worktree's mark at most this often
# An agent whose screen did not change is resolved again (its process tree read, its screen
# detected) once its observation is ``observe_ttl`` old, but at most this many of them a sweep,
# the oldest first; the others wait for a later sweep. Agents observed together (a TUI's first
# sweep sees all 200) would otherwise come due together: a sweep every TTL resolved 183 quiet
# agents at once (150 ms at 200 agents), and the prompt drawn meanwhile waited for it. At ten
# sweeps a second this is 80 agents a second, more than 200 agents over a 5 s TTL need; with
# rare sweeps an unchanged agent's resolution may be older than the TTL. Nothing is sent on it:
# approval re-proves the agent and the prompt itself.
TTL_REFRESH_PER_SWEEP = 8
# An agent whose screen changed (a spinner, a prompt drawn) is detected again on the new screen,
# but its proven process (the pane's tree read and resolved) is reused for this long while its
# record and pane (id, pid, liveness, server) are unchanged: 20 agents that keep printing had
# their trees read every sweep, a quarter of a sweep at 200 agents. A pane whose program ends
# or is replaced shows as dead or with another pid at once; nothing is sent on this either.
PROOF_REUSE_S = 1.0
# Keys handed to a host's link that dropped may still be on their way to the screen: a prompt
# still shown is taken for "not delivered" only once it has been this long since the drop.
UNKNOWN_SETTLE_S = 3.0
_SLACK = 0.01  # seconds: psutil start times are floats from /proc ticks


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
    early = _EarlyCounts.start(ctx, agents.values(), now)
    try:
        try:
            located, texts = _survey(ctx, agents) if agents else ({}, {})
        except PawError as err:
            _refresh_stats(ctx, agents.values(), now, {}, early)
            views = tuple(
                _view(ctx, _gone(ctx, a, Problem.SERVER_GONE), now) for a in agents.values()
            )
            return Snapshot(now, views, (), tmux_ok=False, error=err.message)
        screens = {name: texts.get(p.pane_id) for name, (p, _) in located.items() if p is not None}
        _refresh_stats(ctx, agents.values(), now, screens, early)
    finally:
        if early is not None:
            early.abandon()  # only on an unexpected error: _refresh_stats took the results
    kept, proven = _kept_observations(ctx, agents, located, texts, now)
    live = [
        p.pane_pid
        for name, (p, _) in located.items()
        if p is not None and not p.dead and name not in kept and name not in proven
    ]
    trees = ctx.procs.trees(live) if live else {}
    observations = [
        kept.get(name) or _observe(ctx, a, located[name], texts, trees, proven.get(name))
        for name, a in agents.items()
    ]
    _remember(ctx, observations, texts, kept, now, forget=only is None, proven=proven)
    _bind(ctx, observations, trees)

    def picture(prompts: tuple[LivePrompt, ...], sending: dict[str, str]) -> Snapshot:
        views = tuple(_view(ctx, o, now, sending.get(o.agent.name)) for o in observations)
        if only is None:
            for gone in [name for name in ctx.views if name not in agents]:
                del ctx.views[gone]
        return Snapshot(now, views, prompts, cpu_s=time.thread_time() - cpu)

    return _live_prompts(ctx, observations, now, picture, partial=only is not None, publish=publish)


def _survey(
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


def _kept_observations(
    ctx: Context,
    agents: dict[str, AgentRecord],
    located: dict[str, tuple[PaneInfo | None, Problem | None]],
    texts: dict[str, str | None],
    now: float,
) -> tuple[dict[str, Observation], dict[str, tuple[float, ProcInfo]]]:
    """Observations of the last sweeps still valid (``ctx.observe_ttl``): same agent record,
    same pane (id, pid, liveness, server), same screen, and younger than the TTL, or older
    but not among the :data:`TTL_REFRESH_PER_SWEEP` oldest (those are resolved again now).
    Beside them, by agent, the proven process (and when it was proven) of those whose screen
    alone changed, proven less than :data:`PROOF_REUSE_S` ago: detected again, not resolved."""
    if ctx.observe_ttl <= 0:
        return {}, {}
    kept: dict[str, Observation] = {}
    proven: dict[str, tuple[float, ProcInfo]] = {}
    expired: list[tuple[float, str]] = []
    for name, agent in agents.items():
        pane = located[name][0]
        entry = ctx.observed.get(name)
        if pane is None or entry is None or now < entry[0]:
            continue  # (a clock that went back: resolve again)
        obs, text = entry[1], entry[2]
        if not isinstance(obs, Observation) or obs.pane is None:
            continue
        if obs.agent is not agent and obs.agent != agent:  # (the same record: the same parse)
            continue
        screen = texts.get(pane.pane_id)
        if screen is None or text is None or (screen is not text and screen != text):
            if (
                obs.proc is not None
                and now - entry[0] < min(PROOF_REUSE_S, ctx.observe_ttl)
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
        if now - entry[0] >= ctx.observe_ttl:
            expired.append((entry[0], name))
    expired.sort()
    for _, name in expired[:TTL_REFRESH_PER_SWEEP]:
        del kept[name]  # the oldest: resolved again by this sweep
    return kept, proven


def _remember(
    ctx: Context,
    observations: list[Observation],
    texts: dict[str, str | None],
    kept: dict[str, Observation],
    now: float,
    *,
    forget: bool = True,
    proven: dict[str, tuple[float, ProcInfo]] | None = None,
) -> None:
    if ctx.observe_ttl <= 0:
        return
    names = set()
    for obs in observations:
        names.add(obs.agent.name)
        if obs.agent.name in kept:
            continue  # keeps the time it was observed (the TTL counts from there)
        text = texts.get(obs.pane.pane_id) if obs.pane is not None else None
        reused = proven.get(obs.agent.name) if proven else None
        # (a process proven earlier keeps the time of its proof: both reuses count from there)
        ctx.observed[obs.agent.name] = (reused[0] if reused else now, obs, text)
    for name in [name for name in ctx.observed if forget and name not in names]:
        del ctx.observed[name]


def _observe(
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


def _gone(ctx: Context, agent: AgentRecord, problem: Problem) -> Observation:
    return observe(ctx, agent, None, None, problem=problem)


def _bind(ctx: Context, observations: list[Observation], trees: dict[int, list[ProcInfo]]) -> None:
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


def verdict_for(ctx: Context, agent: AgentRecord, detection: Detection) -> Verdict:
    """The guard's verdict on the detected prompt's subject in ``agent``'s worktree."""
    prompt = detection.prompt
    if prompt is None:
        msg = "verdict_for needs a detection with a prompt"
        raise ValueError(msg)
    from paw.core.approval import evaluate_subject  # the guard: imported when first needed

    return evaluate_subject(
        prompt,
        notes=detection.notes,
        worktree=agent.worktree,
        config=ctx.config.guard,
        mcp_allowed=ctx.config.mcp_allowed,
        shell=ctx.shell,
    )


def _live_prompts(
    ctx: Context,
    observations: list[Observation],
    now: float,
    picture: Callable[[tuple[LivePrompt, ...], dict[str, str]], Snapshot],
    *,
    partial: bool = False,
    publish: Callable[[Snapshot], None] | None = None,
) -> Snapshot:
    """The ``picture`` of the live prompt occurrences, persisted under the prompts lock (any
    paw process may sweep at the same time; they agree on one occurrence id), and, per agent,
    of the decision another paw process is sending right now ("approve" or "deny").
    ``partial``: the observations are some agents' only; the others' occurrences are kept
    untouched. ``publish``: see :func:`poll_once`.

    A context that shows no prompt (``show_prompts`` off: `paw ls`) still records and audits
    every occurrence, with its verdict when new, but returns none, so the guard judges only
    prompts never seen before."""
    with ctx.state.lock(PROMPTS_LOCK):
        seen = load_prompts(ctx.state)
        table = dict(seen)
        shown: list[tuple[Observation, PromptRecord, Verdict | None]] = []
        for obs in observations:
            found = _occurrence(obs, table, now)
            if found is None:
                continue
            record, new = found
            if not new and not ctx.show_prompts:
                shown.append((obs, record, None))
                continue
            verdict = verdict_for(ctx, obs.agent, obs.detection)
            if new:
                table[record.id] = record
                _record_seen(ctx, record, verdict)
            shown.append((obs, record, verdict))
        live = {record.id for _, record, _ in shown}
        _close_ended(ctx, table, observations, live, now)
        if partial:  # occurrences of agents this sweep did not look at stay as they are
            observed = {obs.agent.name for obs in observations}
            live |= {k for k, r in table.items() if r.agent not in observed}
        kept = _retained(table, live, now)
        sending = {r.agent: r.action or "decision" for r in table.values() if r.state == SENDING}
        sending |= {
            r.agent: DELIVERY_UNKNOWN for r in table.values() if r.state == DELIVERY_UNKNOWN
        }
        snapshot = picture(_offered(ctx, table, shown), sending)
        if kept != seen:
            if publish is not None:
                publish(snapshot)
            save_prompts(ctx.state, kept, durable=False)  # a picture, not a decision
    return snapshot


def _offered(
    ctx: Context,
    table: dict[str, PromptRecord],
    shown: list[tuple[Observation, PromptRecord, Verdict | None]],
) -> tuple[LivePrompt, ...]:
    """The occurrences shown that wait for a decision (none with a decision in flight). One
    offered by the sweep before and the same now is that sweep's very object."""
    out: list[LivePrompt] = []
    last, ctx.offered = ctx.offered, {}
    for obs, record, judged in shown if ctx.show_prompts else ():
        prompt = obs.detection.prompt
        if table[record.id].state != OPEN or prompt is None or obs.pane is None:
            continue  # a decision in flight: not offered again
        if judged is None:
            continue  # (never: a context that shows prompts judges each)
        live = LivePrompt(
            record.id, obs.agent.name, obs.agent.kind, obs.pane.pane_id, prompt, judged,
            record.first_seen,
        )  # fmt: skip
        before = last.get(record.id)
        if isinstance(before, LivePrompt) and before == live:
            live = before
        ctx.offered[record.id] = live
        out.append(live)
    return tuple(out)


def _retained(
    table: dict[str, PromptRecord], live: set[str], now: float
) -> dict[str, PromptRecord]:
    """Live occurrences plus recent closed ones, so deciding on a closed id says why not."""
    recent = {k: r for k, r in table.items() if k not in live and now - r.first_seen < KEEP_GONE_S}
    newest = sorted(recent.values(), key=lambda r: -r.first_seen)[:KEEP_GONE_MAX]
    keep = {r.id for r in newest} | live
    return {k: r for k, r in table.items() if k in keep}


def _occurrence(
    obs: Observation, table: dict[str, PromptRecord], now: float
) -> tuple[PromptRecord, bool] | None:
    """The occurrence of the prompt ``obs`` shows: the open (or in-flight) one of the same
    prompt, pane, server and agent process; else a new one (True) with a new id. A prompt
    asked again after an answer, or by a restarted agent, is a new occurrence."""
    prompt = obs.detection.prompt
    if obs.detection.state is not DetectionState.PROMPT or prompt is None:
        return None
    if obs.pane is None or obs.proc is None:
        return None
    proc = ProcIdentity(pid=obs.proc.pid, create_time=obs.proc.create_time, exe=obs.proc.exe)
    for record in table.values():
        if (
            record.state in (OPEN, SENDING, DELIVERY_UNKNOWN)
            and record.agent == obs.agent.name
            and record.pane_id == obs.pane.pane_id
            and record.server == obs.pane.server
            and record.fingerprint == prompt.fingerprint
            and record.proc.pid == proc.pid
            and abs(record.proc.create_time - proc.create_time) < _SLACK
        ):
            return record, False
    while True:
        oid = occurrence_id(obs.pane.pane_id, prompt.fingerprint, secrets.token_hex(8))
        if oid not in table:
            break
    record = PromptRecord(
        id=oid,
        agent=obs.agent.name,
        kind=obs.agent.kind,
        pane_id=obs.pane.pane_id,
        fingerprint=prompt.fingerprint,
        prompt_kind=prompt.kind.value,
        subject=prompt.subject,
        question=prompt.question,
        first_seen=now,
        proc=proc,
        server=obs.pane.server,
    )
    return record, True


def _close_ended(
    ctx: Context,
    table: dict[str, PromptRecord],
    observations: list[Observation],
    live: set[str],
    now: float,
) -> None:
    """Occurrences of observed agents that are no longer shown: an open one ended while paw
    sent nothing (audited as ended outside paw, with whether a client was attached); one
    whose sending paw process died is reconciled (its outcome recorded, never "approved"), and
    so is one whose keys went into a host's link that dropped (see :func:`_reconcile_unknown`)."""
    seen_by = {o.agent.name: o for o in observations}
    for record in list(table.values()):
        obs = seen_by.get(record.agent)
        if obs is None or record.state not in (OPEN, SENDING, DELIVERY_UNKNOWN):
            continue
        if record.state == DELIVERY_UNKNOWN:
            settled = _reconcile_unknown(ctx, record, obs, live=record.id in live, now=now)
            if settled is not None:
                table[record.id] = settled
            continue
        if record.state == SENDING:
            reconciled = _reconcile(ctx, record, live=record.id in live, now=now)
            if reconciled is not None:
                table[record.id] = reconciled
            continue
        if record.id in live:
            continue
        attached = obs.pane.attached > 0 if obs.pane is not None else False
        ctx.note(
            "prompt-ended", outside=True, client_attached=attached,
            reason="the prompt went away while paw sent nothing",
            **_ids(record),
        )  # fmt: skip
        table[record.id] = record.model_copy(update={"state": ENDED, "closed_at": now})


def _reconcile(
    ctx: Context, record: PromptRecord, *, live: bool, now: float
) -> PromptRecord | None:
    """A decision recorded by a paw process that died before recording its outcome.

    Still shown: nothing reached the agent (as far as the screen tells), the outcome is
    ``not-sent`` and the occurrence is open again for a new decision. Gone: the keys may have
    gone out, the outcome is ``interrupted``. Neither counts as approved."""
    sender = record.sender
    if sender is not None and _running(ctx, sender):
        return None  # still deciding
    if live:
        ctx.record(
            "outcome", action=record.action, outcome=Outcome.NOT_SENT.value,
            reason="paw stopped before sending; the prompt is still shown", **_ids(record),
        )  # fmt: skip
        return record.model_copy(update={"state": OPEN, "sender": None, "action": None})
    ctx.record(
        "outcome", action=record.action, outcome=Outcome.INTERRUPTED.value,
        reason="paw stopped while sending; the prompt is gone, keys may have reached it",
        **_ids(record),
    )  # fmt: skip
    return record.model_copy(update={"state": ANSWERED, "closed_at": now, "sender": None})


def _reconcile_unknown(
    ctx: Context, record: PromptRecord, obs: Observation, *, live: bool, now: float
) -> PromptRecord | None:
    """Keys handed to the link to the agent's host, which dropped before the host answered,
    read from the host's screen now that a sweep reaches it again.

    The same prompt still shown :data:`UNKNOWN_SETTLE_S` after the drop: the keys did not
    reach it (``not-delivered``); the occurrence is open again for a human's decision. The
    prompt gone while its agent runs: ``sent``, confirmed on reconnect (counted as the
    decision). The agent gone too: ``interrupted`` (counted as nothing). Its tmux server
    unreadable, or too soon: still unknown."""
    if obs.problem is Problem.SERVER_GONE:
        return None
    if live:
        if now - (record.closed_at or 0.0) < UNKNOWN_SETTLE_S:
            return None
        ctx.record(
            "outcome", action=record.action, outcome=Outcome.NOT_DELIVERED.value,
            reason="not delivered: on reconnect the host's screen still shows the prompt; "
            "it is open for a decision again",
            **_ids(record),
        )  # fmt: skip
        update = {"state": OPEN, "sender": None, "action": None, "closed_at": None}
        return record.model_copy(update={**update, "decided_by": None})
    if obs.alive:
        ctx.record(
            "outcome", action=record.action, outcome=Outcome.SENT.value, confirmed="reconnect",
            reason="sent (confirmed on reconnect): the prompt is gone from the host's screen",
            **_ids(record),
        )  # fmt: skip
    else:
        ctx.record(
            "outcome", action=record.action, outcome=Outcome.INTERRUPTED.value,
            reason="on reconnect the agent is gone; the keys may have reached it",
            **_ids(record),
        )  # fmt: skip
    return record.model_copy(update={"state": ANSWERED, "closed_at": now, "sender": None})


def _running(ctx: Context, identity: ProcIdentity) -> bool:
    tree = ctx.local_procs.tree(identity.pid)[:1]  # the sender: a paw process, here
    return bool(tree) and abs(tree[0].create_time - identity.create_time) < _SLACK


def _ids(record: PromptRecord) -> dict[str, object]:
    return {
        "agent": record.agent,
        "kind": record.kind,
        "pane": record.pane_id,
        "prompt_id": record.id,
        "fingerprint": record.fingerprint,
    }


def _record_seen(ctx: Context, record: PromptRecord, verdict: Verdict) -> None:
    ctx.note(
        "prompt-seen",
        agent=record.agent,
        kind=record.kind,
        pane=record.pane_id,
        prompt_id=record.id,
        fingerprint=record.fingerprint,
        prompt_kind=record.prompt_kind,
        subject=record.subject,
        question=record.question,
        pid=record.proc.pid,
        verdict=verdict.to_dict(),
    )


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
    if obs.detection.state is DetectionState.PROMPT and prompt is not None and prompt.needs_human:
        return AgentStatus.WAITING
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


def _view(ctx: Context, obs: Observation, now: float, sending: str | None = None) -> AgentView:
    agent = obs.agent
    operation = _operation(agent, sending)
    last = ctx.views.get(agent.name)
    if last is not None and len(last) == 6 and last[0] is obs and last[1] == operation:
        # the very observation of the last sweep: status and since follow from it, as below
        was = last[2]
        if (
            isinstance(was, AgentStatus)
            and last[4] is _shown_count(ctx, agent)
            and ctx.status_since.get(agent.name) == (was.value, last[3])
        ):
            view = last[-1]
            assert isinstance(view, AgentView)  # noqa: S101 - stored below
            return view
    status = _status(obs)
    if operation in ("spawning", "removing") and not obs.alive:
        status = AgentStatus.UNKNOWN  # half made or half removed: never read as exited
    prev = ctx.status_since.get(agent.name)
    since = prev[1] if prev is not None and prev[0] == status.value else now
    ctx.status_since[agent.name] = (status.value, since)
    cached = _shown_count(ctx, agent)
    basis = (obs, operation, status, since, cached)
    if (
        last is not None
        and len(last) == len(basis) + 1
        and all(a is b for a, b in zip(last, basis, strict=False))
    ):
        view = last[-1]
        assert isinstance(view, AgentView)  # noqa: S101 - stored below
        return view
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
        stat=_cached_stat(cached),
        task=agent.task,
        note=_OPERATION_NOTES.get(operation or "") or _note(obs, status),
        operation=operation,
        version_note=_version_note(agent),
    )
    if last is not None and last[-1] == view:
        view = last[-1]  # the same view as the last sweep's: the very object (sent by number)
    ctx.views[agent.name] = (*basis, view)
    return view


def _version_note(agent: AgentRecord) -> str | None:
    """What :func:`paw.core.verified.version_drift` says of the version read at spawn."""
    if not agent.version:
        return None
    from paw.core.detect.registry import spec_for  # cached: imported once per kind

    spec = spec_for(agent.kind)
    return version_drift(agent.kind, agent.version, spec.version if spec else None)


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


def _refresh_stats(
    ctx: Context,
    agents: Iterable[AgentRecord],
    now: float,
    screens: dict[str, str | None],
    early: _EarlyCounts | None = None,
) -> None:
    """Count worktrees never counted, and at most :data:`STAT_REFRESH_PER_SWEEP` of those
    whose counts are due (oldest first): counts fall due together, and 50 agents' worth of git
    processes in one sweep would stall it for half a second.

    Due: the worktree's status mark changed since it was counted, its pane's screen changed
    (and the count is :data:`STAT_OUTPUT_S` old), or the count is :data:`STAT_TTL_S` old.
    With nothing happening, a sweep starts no git process. A count that failed (a worktree
    deleted by hand) is retried on the same signals, not every sweep.

    Not while a spawn or removal is in progress (``pending``): `git status` takes the index
    lock of a worktree that `git worktree add` is still checking out.

    The counts ``early`` started (worktrees never counted, before the survey) are waited for
    and recorded with this sweep's screens. Nothing when the context does not count worktrees
    (``count_worktrees``)."""
    if not ctx.count_worktrees:
        return
    owned = [a for a in agents if not a.adopted and a.pending is None]
    signs = {name: hash(text) for name, text in screens.items() if text is not None}
    done = early.finish() if early is not None else {}
    for name, (mark, counts) in done.items():
        _record(ctx, name, now, mark, signs.get(name), counts)
    owned = [a for a in owned if a.name not in done and a.name not in ctx.counting]
    if ctx.count_in_background:
        _refresh_beside(ctx, owned, now, signs)
        return
    marks = {a.name: _recent_mark(ctx, a, now, signs.get(a.name)) for a in owned}
    missing = [a for a in owned if _missing(ctx, a.name)]
    due = [a for a in owned if not _missing(ctx, a.name) and _due(ctx, a.name, now, marks, signs)]
    due.sort(key=lambda a: ctx.stat_marks[a.name].time)
    todo = [*missing, *due[:STAT_REFRESH_PER_SWEEP]]

    def count(agent: AgentRecord) -> None:
        mark, sign = marks[agent.name], signs.get(agent.name)
        ok = _count(ctx, agent, now)
        ctx.stat_marks[agent.name] = StatMark(now, mark, sign, ok)

    if len(todo) <= 1:
        for agent in todo:
            count(agent)
        return
    # The first sweep counts every worktree: 50 agents are 150 git processes, about 0.4 s one
    # after another. Side by side they overlap their start-up and disk waits.
    with ThreadPoolExecutor(max_workers=min(STAT_WORKERS, len(todo))) as pool:
        list(pool.map(count, todo))


def _refresh_beside(
    ctx: Context, owned: list[AgentRecord], now: float, signs: dict[str, int]
) -> None:
    """:func:`_refresh_stats` of a long-running sweeper: nothing of it waits in the sweep.

    A status mark is a score of stat() calls (a host's worktrees have none); a burst of
    prompts changes the screens of many agents at once, and their marks, read in the sweep
    that carries the prompts, were a sixth of it at 200 agents. So the counts due by the
    marks last read (at most :data:`STAT_REFRESH_PER_SWEEP`, oldest first: the TTL falls due
    for every agent at once) and those never made are decided here and go to the count
    workers, and an agent whose mark is due to be read again (:func:`_recent_mark`'s rule)
    gets a job there that reads it and counts if it changed. Marks are still read before
    their counts, on the worker that counts."""
    stale: list[AgentRecord] = []
    marks: dict[str, tuple[object, ...] | None] = {}
    for agent in owned:
        last = ctx.mark_reads.get(agent.name)
        marks[agent.name] = last[1] if last is not None else None
        if last is None or _mark_stale(last, now, signs.get(agent.name)):
            stale.append(agent)
    missing = [a for a in owned if _missing(ctx, a.name)]
    due = [a for a in owned if not _missing(ctx, a.name) and _due(ctx, a.name, now, marks, signs)]
    due.sort(key=lambda a: ctx.stat_marks[a.name].time)
    forced = {a.name for a in [*missing, *due[:STAT_REFRESH_PER_SWEEP]]}

    def refresh(agent: AgentRecord) -> bool:
        sign = signs.get(agent.name)
        mark = _recent_mark(ctx, agent, now, sign)
        if agent.name not in forced and mark == ctx.stat_marks[agent.name].mark:
            return False  # the mark read again says the count stands
        before = _shown_count(ctx, agent)
        ok = _count(ctx, agent, now)
        ctx.stat_marks[agent.name] = StatMark(now, mark, sign, ok)
        after = _shown_count(ctx, agent)
        return (before and before[1]) != (after and after[1])  # a sweep shows a change

    again = {a.name for a in stale}  # (names: a record's == compares every field)
    todo = [a for a in owned if a.name in forced or a.name in again]
    _count_beside(ctx, todo, refresh)


def _mark_stale(last: tuple[float, object, int | None], now: float, sign: int | None) -> bool:
    """Whether a mark read at ``last`` is to be read again (see :func:`_recent_mark`)."""
    age = now - last[0]
    changed = sign is None or sign != last[2]
    return not (0 <= age < MARK_EVERY_S and not (changed and age >= MARK_MIN_S))


def _count_beside(
    ctx: Context, todo: list[AgentRecord], count: Callable[[AgentRecord], bool]
) -> None:
    """Start ``count`` of each agent of ``todo`` on the context's count workers and return at
    once; each agent counts once at a time (``ctx.counting``), and ``ctx.on_counted`` is told
    when ``count`` returns True: what the agent's view shows changed (the sweep after it shows
    it; a recount that found the same numbers asks for no sweep)."""
    if not todo:
        return
    if ctx.counter is None:
        ctx.counter = ThreadPoolExecutor(
            max_workers=BESIDE_WORKERS, thread_name_prefix="paw-count", initializer=ctx.count_setup
        )

    def run(agent: AgentRecord) -> None:
        try:
            counted = count(agent)
        finally:
            ctx.counting.discard(agent.name)
        if counted and ctx.on_counted is not None:
            ctx.on_counted()

    for agent in todo:
        ctx.counting.add(agent.name)
        try:
            ctx.counter.submit(run, agent)
        except RuntimeError:  # the workers were shut down (paw is closing)
            ctx.counting.discard(agent.name)


_Counted = tuple["tuple[object, ...] | None", "StatusCounts | None"]


@runtime_checkable
class _CountsMany(Protocol):
    """A vcs that counts many worktrees at once (:meth:`GitCli.status_counts_many`)."""

    def status_counts_many(self, items: Sequence[tuple[str, str]]) -> list[StatusCounts | None]: ...


class _EarlyCounts:
    """Worktrees never counted (a one-shot command's sweep: all of them), counted on a worker
    thread from the start of the sweep: their git processes run while the sweep reads tmux
    and the process table, instead of after. Each status mark is read before its count (the
    order :func:`_refresh_stats` keeps); the results are recorded by the sweep's thread.

    Only for this machine's worktrees (a host's git shares the ssh connection the survey
    uses), and only when there are several."""

    def __init__(self, pool: ThreadPoolExecutor, future: Future[dict[str, _Counted]]) -> None:
        self._pool = pool
        self._future: Future[dict[str, _Counted]] | None = future

    @classmethod
    def start(cls, ctx: Context, agents: Iterable[AgentRecord], now: float) -> _EarlyCounts | None:
        if not ctx.count_worktrees or ctx.host is not None:
            return None
        todo = [a for a in agents if not a.adopted and a.pending is None and _missing(ctx, a.name)]
        if len(todo) <= 1:
            return None
        del now  # recorded by _refresh_stats, with the screens
        pool = ThreadPoolExecutor(max_workers=1)
        return cls(pool, pool.submit(_count_all, ctx, todo))

    def finish(self) -> dict[str, _Counted]:
        """Every started count's (mark, counts or None when git could not), waited for."""
        done = self._future.result() if self._future is not None else {}
        self._future = None
        self._pool.shutdown(wait=True)
        return done

    def abandon(self) -> None:
        """Stop waiting (the sweep failed before taking the results)."""
        if self._future is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._future = None


def _count_all(ctx: Context, todo: list[AgentRecord]) -> dict[str, _Counted]:
    """Read the marks (none in a ``one_shot`` context), then count every worktree: through
    the vcs's batch when it has one (a few processes), else on :data:`STAT_WORKERS`
    threads."""
    marks = {a.name: None if ctx.one_shot else _mark(ctx, a) for a in todo}
    if isinstance(ctx.vcs, _CountsMany):
        counts = ctx.vcs.status_counts_many([(a.worktree, a.base) for a in todo])
    else:
        with ThreadPoolExecutor(max_workers=min(STAT_WORKERS, len(todo))) as pool:
            counts = list(pool.map(lambda a: _try_count(ctx, a), todo))
    return {a.name: (marks[a.name], c) for a, c in zip(todo, counts, strict=True)}


def _try_count(ctx: Context, agent: AgentRecord) -> StatusCounts | None:
    try:
        return ctx.vcs.status_counts(agent.worktree, agent.base)
    except PawError:
        return None


def _record(
    ctx: Context,
    name: str,
    now: float,
    mark: tuple[object, ...] | None,
    sign: int | None,
    counts: StatusCounts | None,
) -> None:
    """Record a count made at ``now`` (None: git could not count) as :func:`_count` does.
    Without a mark (``one_shot``), no mark read is recorded: a later sweep reads one, finds
    it changed and recounts."""
    if mark is not None or not ctx.one_shot:
        ctx.mark_reads[name] = (now, mark, sign)
    if counts is not None:
        ctx.stat_cache[name] = (now, counts)
    ctx.stat_marks[name] = StatMark(now, mark, sign, counts is not None)


def _missing(ctx: Context, name: str) -> bool:
    last = ctx.stat_marks.get(name)
    return last is None or (last.ok and name not in ctx.stat_cache)


def _recent_mark(
    ctx: Context, agent: AgentRecord, now: float, sign: int | None
) -> tuple[object, ...] | None:
    """The worktree's status mark: read again when the last read is :data:`MARK_EVERY_S` old,
    or when the pane's screen changed since the last read (``sign``) and that read is
    :data:`MARK_MIN_S` old; else the last one read."""
    last = ctx.mark_reads.get(agent.name)
    if last is not None and not _mark_stale(last, now, sign):
        return last[1]
    mark = _mark(ctx, agent)
    ctx.mark_reads[agent.name] = (now, mark, sign)
    return mark


def _mark(ctx: Context, agent: AgentRecord) -> tuple[object, ...] | None:
    """The worktree's status mark, taken before counting (a change during the count shows as
    a change next sweep); None when it cannot be read (then the other signals decide)."""
    try:
        return ctx.vcs.status_mark(agent.worktree, agent.base)
    except (OSError, PawError):
        return None


def _due(
    ctx: Context,
    name: str,
    now: float,
    marks: dict[str, tuple[object, ...] | None],
    signs: dict[str, int],
) -> bool:
    last = ctx.stat_marks[name]
    age = now - last.time
    ttl = STAT_TTL_S if ctx.host is None else HOST_STAT_TTL_S
    if age > ttl or marks[name] != last.mark:
        return True
    sign = signs.get(name)
    return sign is not None and sign != last.screen and age >= STAT_OUTPUT_S


def _count(ctx: Context, agent: AgentRecord, now: float) -> bool:
    """Count the agent's worktree now into the cache; False when git could not."""
    try:
        counts = ctx.vcs.status_counts(agent.worktree, agent.base)
    except PawError:
        return False
    ctx.stat_cache[agent.name] = (now, counts)
    return True


def _shown_count(ctx: Context, agent: AgentRecord) -> tuple[float, StatusCounts] | None:
    """The count to show for the agent's worktree: None when there is none, or when the last
    attempt failed (the worktree is gone or git cannot read it: an older count would show
    work that may no longer be there, zeros would show none)."""
    if agent.adopted:
        return None
    last = ctx.stat_marks.get(agent.name)
    if last is not None and not last.ok:
        return None
    return ctx.stat_cache.get(agent.name)


def _cached_stat(cached: tuple[float, StatusCounts] | None) -> WorktreeStat:
    if cached is None:
        return WorktreeStat(counted=False)
    c = cached[1]
    return WorktreeStat(c.uncommitted, c.untracked, c.ahead, c.behind, c.insertions, c.deletions)
