"""The prompt occurrences of one sweep: each shown prompt matched to its occurrence (or a new
one), every watched occurrence stepped through :func:`paw.core.occurrence.step`, its effects
carried out, and the table persisted under the prompts lock."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from paw.core.channels.fuse import Fusion, claimed_sides
from paw.core.fingerprint import occurrence_id
from paw.core.models import DetectionState
from paw.core.occurrence import (
    WATCHED,
    ChannelRequested,
    ChannelResolved,
    ChannelWithdrawn,
    Effects,
    Event,
    Gone,
    ProcIdentity,
    PromptRecord,
    Seen,
    SeenAgain,
    in_flight,
    retained,
    step,
    takes_decision,
)
from paw.supervisor.model import LivePrompt
from paw.supervisor.observation import Observation, Problem
from paw.supervisor.occurrence_steps import carry_out
from paw.supervisor.records import PROMPTS_LOCK, load_prompts, save_prompts

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.core.models import Detection, Verdict
    from paw.supervisor.context import Context
    from paw.supervisor.model import Snapshot
    from paw.supervisor.records import AgentRecord

_SLACK = 0.01  # seconds: psutil start times are floats from /proc ticks


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
        also=claimed_sides(detection.source),  # (an observe-only claim: both sides judged)
        worktree=agent.worktree,
        config=ctx.config.guard,
        mcp_allowed=ctx.config.mcp_allowed,
        shell=ctx.shell,
        # Symlinks are followed on this machine only: a remote worktree is judged as written.
        resolve=ctx.resolve_path if ctx.host is None else None,
    )


def live_prompts(
    ctx: Context,
    observations: list[Observation],
    now: float,
    picture: Callable[[tuple[LivePrompt, ...], dict[str, str]], Snapshot],
    *,
    partial: bool = False,
    publish: Callable[[Snapshot], None] | None = None,
    close: bool = True,
) -> Snapshot:
    """The ``picture`` of the live prompt occurrences, persisted under the prompts lock (any
    paw process may sweep at the same time; they agree on one occurrence id), and, per agent,
    of the decision another paw process is sending right now ("approve" or "deny").
    ``partial``: the observations are some agents' only; the others' occurrences are kept
    untouched. ``publish``: see :func:`~paw.supervisor.sweep.poll_once`. ``close=False``: the
    observed agents' occurrences not shown are left as they are too (a channel-only look,
    :mod:`.channel_only`, saw no screen: it opens or finds occurrences, never ends one).

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
            record, effects = found
            if not effects and table.get(record.id) is not record:
                table[record.id] = record  # (one listed from its channel, now drawn: below)
            if not effects and not ctx.settings.show_prompts:
                shown.append((obs, record, None))
                continue
            verdict = verdict_for(ctx, obs.agent, obs.detection)
            if effects:  # a new occurrence
                table[record.id] = record
                carry_out(ctx, record, effects, verdict)
            shown.append((obs, record, verdict))
        if not close:
            _bind_requests(table, shown, now)
        live = {record.id for _, record, _ in shown}
        if close:
            _close_ended(ctx, table, observations, live, now)
        else:
            live |= set(table)
        if partial:  # occurrences of agents this sweep did not look at stay as they are
            observed = {obs.agent.name for obs in observations}
            live |= {k for k, r in table.items() if r.agent not in observed}
        kept = retained(table, live, now)
        snapshot = picture(_offered(ctx, table, shown), in_flight(table))
        if kept != seen:
            if publish is not None:
                publish(snapshot)
            save_prompts(ctx.state, kept, durable=False)  # a picture, not a decision
    return snapshot


def _bind_requests(
    table: dict[str, PromptRecord],
    shown: list[tuple[Observation, PromptRecord, Verdict | None]],
    now: float,
) -> None:
    """Bind each occurrence a channel-only look shows to the request it read, as a screen
    sweep binds the occurrences it steps (:func:`_close_ended`): the screen sweep that follows
    then finds the dialog drawn for that request (:func:`_drawn`) the same occurrence, instead of
    opening a second one and ending the one a human or a wave was already told about."""
    for obs, record, _ in shown:
        source = obs.detection.source
        if source.request_id is None or source.name not in _REQUESTED:
            continue
        event = ChannelRequested(source.request_id, source.name, source.channel_subject)
        table[record.id], _effects = step(table[record.id], event, now)


def _offered(
    ctx: Context,
    table: dict[str, PromptRecord],
    shown: list[tuple[Observation, PromptRecord, Verdict | None]],
) -> tuple[LivePrompt, ...]:
    """The occurrences shown that wait for a decision (none with a decision in flight). One
    offered by the sweep before and the same now is that sweep's very object."""
    out: list[LivePrompt] = []
    last, ctx.memory.offered = ctx.memory.offered, {}
    for obs, record, judged in shown if ctx.settings.show_prompts else ():
        prompt = obs.detection.prompt
        if not takes_decision(table[record.id]) or prompt is None or obs.pane is None:
            continue  # a decision in flight: not offered again
        if judged is None:
            continue  # (never: a context that shows prompts judges each)
        live = LivePrompt(
            record.id, obs.agent.name, obs.agent.kind, obs.pane.pane_id, prompt, judged,
            record.first_seen, obs.detection.source,
        )  # fmt: skip
        before = last.get(record.id)
        if isinstance(before, LivePrompt) and before == live:
            live = before
        ctx.memory.offered[record.id] = live
        out.append(live)
    return tuple(out)


def _occurrence(
    obs: Observation, table: dict[str, PromptRecord], now: float
) -> tuple[PromptRecord, Effects] | None:
    """The occurrence of the prompt ``obs`` shows: the watched one of the same prompt, pane,
    server and agent process (no effects); else a new one, seen now (its effects), with a new
    id. A prompt asked again after an answer, or by a restarted agent, is a new occurrence."""
    prompt = obs.detection.prompt
    if obs.detection.state is not DetectionState.PROMPT or prompt is None:
        return None
    if obs.pane is None or obs.proc is None:
        return None
    proc = ProcIdentity(pid=obs.proc.pid, create_time=obs.proc.create_time, exe=obs.proc.exe)
    for record in table.values():
        if _watched_here(record, obs, proc) and record.fingerprint == prompt.fingerprint:
            return record, ()
    drawn = _drawn(obs, table, proc)
    if drawn is not None:
        return drawn, ()
    while True:
        oid = occurrence_id(obs.pane.pane_id, prompt.fingerprint, secrets.token_hex(8))
        if oid not in table:
            break
    seen = Seen(
        id=oid, agent=obs.agent.name, kind=obs.agent.kind, pane_id=obs.pane.pane_id,
        fingerprint=prompt.fingerprint, prompt_kind=prompt.kind.value, subject=prompt.subject,
        question=prompt.question, proc=proc, server=obs.pane.server,
    )  # fmt: skip
    new, effects = step(None, seen, now)
    assert new is not None  # noqa: S101 - Seen always starts one
    return new, effects


def _watched_here(record: PromptRecord, obs: Observation, proc: ProcIdentity) -> bool:
    """``record`` is watched and of this agent, pane, tmux server and agent process."""
    return (
        record.state in WATCHED
        and record.agent == obs.agent.name
        and obs.pane is not None
        and record.pane_id == obs.pane.pane_id
        and record.server == obs.pane.server
        and record.proc.pid == proc.pid
        and abs(record.proc.create_time - proc.create_time) < _SLACK
    )


def _drawn(
    obs: Observation, table: dict[str, PromptRecord], proc: ProcIdentity
) -> PromptRecord | None:
    """The occurrence listed from the agent's channel alone (its fingerprint names the
    request) whose dialog the screen now draws, agreeing, for that very request: the same
    occurrence, now with the screen's fingerprint (what a decision's proof compares). A hook's
    record can land before a sweep sees its dialog (the poke's early look lists it first), and a
    new id here would end the one a human or a wave was already told about. Not for a
    disagreement: two claims at once are a new occurrence."""
    prompt, source = obs.detection.prompt, obs.detection.source
    if prompt is None or obs.pane is None:
        return None
    if source.name != Fusion.AGREE.value or source.request_id is None:
        return None
    for record in table.values():
        if (
            _watched_here(record, obs, proc)
            and record.fingerprint.startswith("channel:")
            and record.fingerprint.endswith(f":{source.request_id}")
            and record.channel_request == source.request_id
        ):
            return record.model_copy(update={"fingerprint": prompt.fingerprint})
    return None


def _close_ended(
    ctx: Context,
    table: dict[str, PromptRecord],
    observations: list[Observation],
    live: set[str],
    now: float,
) -> None:
    """Step the watched occurrences of observed agents with what this sweep saw (still shown,
    or gone) and carry out what the machine says: an open one gone ended outside paw; one
    whose sending paw process died is reconciled (its outcome recorded, never "approved"), and
    so is one whose keys went into a host's link that dropped (see :mod:`paw.core.occurrence`)."""
    seen_by = {o.agent.name: o for o in observations}
    for record in list(table.values()):
        obs = seen_by.get(record.agent)
        if obs is None or record.state not in WATCHED:
            continue
        sender = record.sender
        running = sender is not None and _running(ctx, sender)
        readable = obs.problem is not Problem.SERVER_GONE
        for event in _events(record, obs, live, running=running, readable=readable):
            current = table[record.id]
            after, effects = step(current, event, now)
            if after is not current:
                table[record.id] = after
            carry_out(ctx, current, effects)


def _events(
    record: PromptRecord, obs: Observation, live: set[str], *, running: bool, readable: bool
) -> list[Event]:
    """What this sweep saw of a watched occurrence: still shown (and the channel's request it
    shows, if any, or that the channel no longer holds the one it was bound to), the channel
    saying the agent took the answer to its request, or gone."""
    source = obs.detection.source
    if record.id in live:
        events: list[Event] = [SeenAgain(sender_running=running, host_readable=readable)]
        if source.request_id is not None and source.name in _REQUESTED:
            events.append(ChannelRequested(source.request_id, source.name, source.channel_subject))
        elif record.channel_request is not None and source.name == Fusion.SCREEN_ONLY.value:
            # the channel, read fine, no longer holds the request: the dialog is the screen's
            events.append(ChannelWithdrawn(record.channel_request))
        return events
    if (
        record.channel_request is not None
        and source.name == Fusion.ANSWERED.value
        and source.request_id == record.channel_request
    ):
        return [ChannelResolved(record.channel_request, sender_running=running)]
    attached = obs.pane.attached > 0 if obs.pane is not None else False
    return [Gone(running, readable, agent_alive=obs.alive, client_attached=attached)]


_REQUESTED = frozenset({Fusion.AGREE.value, Fusion.CHANNEL_ONLY.value, Fusion.DISAGREE.value})


def _running(ctx: Context, identity: ProcIdentity) -> bool:
    tree = ctx.local_procs.tree(identity.pid)[:1]  # the sender: a paw process, here
    return bool(tree) and abs(tree[0].create_time - identity.create_time) < _SLACK
