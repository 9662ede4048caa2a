"""Agents' structured prompt channels in the supervisor: fuse them into detections, answer
through them (issue 32; docs/architecture.md, "Two sources").

Two entry points, each one call from the existing paths:

- :func:`overlay` (from ``observe.detect_text``, which sweeps and the approval's proof capture
  both use): the screen's detection, fused with the agent's channel. AGREE: the prompt carries
  the channel's exact input (the guard judges it; the wrap note goes) and keeps the screen's
  fingerprint (the dialog is drawn before the hook's record lands: one occurrence).
  CHANNEL_ONLY: a prompt made from the channel (no keys). DISAGREE: the screen's prompt, its
  subject withheld (the guard cannot allow it) and both claims in its question.
  ANSWERED: busy (the agent is taking paw's answer; nothing to answer again).
  OBSERVED / DISPUTED (an observe-only claim, Gemini's notification): the screen's prompt, bound
  to the claim's id, with the claim's whole input as its subject (OBSERVED) or the screen's and
  a note keeping the verdict at confirm or stricter (DISPUTED; OBSERVED where the screen does
  not show it whole); answered by keys with the screen's proof and its one-second settle.
- :func:`route` (from ``approve._approve`` / ``_deny``, after the proof capture): where the
  channel can answer, the decision goes through it bound to the request id, recorded first;
  a disagreeing or channel-only prompt is never answered by keys. ``None``: the key path applies
  as before (no channel, the channel said nothing, or it cannot answer).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from paw.core.approval import Facts, evaluate_subject, verify_live
from paw.core.channels.fuse import Fused, Fusion, fuse
from paw.core.channels.request import ChannelAnswer, ChannelState
from paw.core.models import Action, Detection, DetectionState
from paw.core.occurrence import (
    ChannelRequested,
    ChannelResolved,
    ChannelTimedOut,
    ChannelWithdrawn,
    Decided,
    Verified,
)
from paw.core.ports import ChannelWatch, Wired
from paw.errors import PawError
from paw.supervisor.model import Decision, Outcome
from paw.supervisor.occurrence_steps import apply_events, this_paw
from paw.supervisor.waiting import poll

if TYPE_CHECKING:
    from paw.core.models import Prompt, PromptSource, Verdict
    from paw.core.occurrence import Event, PromptRecord
    from paw.core.ports import ChannelPort
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord

CHANNEL_NOTE = "channel"  # the prefix of the notes overlay adds (``channel: agree <id>``)
# The notes of prompts the key path answers (with the screen's proof): the channel said nothing,
# or it only observes (an observe-only claim cannot be answered).
_KEYS_TAGS = tuple(
    f"{CHANNEL_NOTE}: {name}" for name in ("silent", Fusion.OBSERVED.value, Fusion.DISPUTED.value)
)
# Wall clock: how long paw waits for the hook to hand its answer to the agent.
TAKEN_TIMEOUT_S = 10.0
TAKEN_INTERVAL_S = 0.02
# A loop woken by a channel's poke ticks early at most once per this long (a flood of pokes).
WOKEN_TICK_GAP_S = 0.25


class WakeableSleep:
    """A loop's sleep (a wave runner's, between its ticks) that a hook channel's poke cuts short
    (give :meth:`wake` to ``Supervisor.listen_counts``): the tick that follows reads the
    channel's record, which landed before its poke. A poke only makes a tick earlier, never
    decides anything; a flood of them makes at most one early tick per ``min_gap_s``."""

    def __init__(
        self,
        min_gap_s: float = WOKEN_TICK_GAP_S,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.min_gap_s = min_gap_s
        self._clock, self._sleep = clock, sleep
        self._event = threading.Event()
        self._woken_at = float("-inf")  # clock() when the last early tick was let go
        self.woken = 0  # early ticks so far

    def wake(self) -> None:
        """Something changed: the sleep in progress (or the next one) ends now."""
        self._event.set()

    def __call__(self, seconds: float) -> None:
        """Sleep ``seconds``, or less when woken (at most one early end per gap)."""
        started = self._clock()
        if not self._event.wait(seconds):
            return
        self._event.clear()  # (a poke after this is read by the tick that follows, or wakes)
        rest = min(self._woken_at + self.min_gap_s, started + seconds) - self._clock()
        if rest > 0:
            self._sleep(rest)
        self._woken_at = self._clock()
        self.woken += 1


def wire_channel(ctx: Context, record: AgentRecord, argv: Sequence[str]) -> Wired:
    """The launch argv (and the environment it adds) with the agent's channel wired for this
    spawn (its token), or as it is when paw wires no channel for it; a channel that cannot be
    wired is recorded and left off (the agent then works exactly as without one)."""
    if ctx.channels is None or not record.token:
        return Wired(tuple(argv))
    try:
        return ctx.channels.wire(record.name, record.kind, record.token, argv)
    except (OSError, PawError) as err:
        ctx.record("channel", agent=record.name, state="off", reason=f"cannot wire it: {err}")
        return Wired(tuple(argv))


def release_channel(ctx: Context, name: str) -> None:
    """The agent ``name`` is gone: its channel is closed and its wiring forgotten (a failure
    to forget is recorded; the next spawn of that name wires anew)."""
    if ctx.channels is None:
        return
    try:
        ctx.channels.release(name)
    except (OSError, PawError) as err:
        ctx.record("channel", agent=name, state="off", reason=f"cannot release it: {err}")


@runtime_checkable
class _Unwired(Protocol):
    """A hub that can say why a kind's channel is not wired on this machine (optional)."""

    def unwired(self, kind: str) -> str | None: ...


def unwired_note(ctx: Context, record: AgentRecord) -> tuple[str, ...]:
    """A note for ``paw spawn`` when the agent's channel could not be wired here (Gemini's,
    below a directory others may write to): the agent runs on the screen path alone."""
    hub: object = ctx.channels
    if not isinstance(hub, _Unwired) or not record.token or port_for(ctx, record) is not None:
        return ()
    try:
        why = hub.unwired(record.kind)
    except OSError:
        return ()
    return (why,) if why else ()


def port_for(ctx: Context, agent: AgentRecord) -> ChannelPort | None:
    """The agent's channel, when it was wired at spawn and paw knows the process it launched
    (the hook's runner must be that process: without it, the channel is not read at all)."""
    if ctx.channels is None or not agent.token or agent.launched is None:
        return None
    return ctx.channels.port(agent.name, agent.kind, agent.token, agent.launched.pid)


def channel_marks(ctx: Context, agents: Iterable[AgentRecord]) -> dict[str, Hashable]:
    """Per agent whose channel has a mark (:class:`~paw.core.ports.ChannelWatch`), its mark,
    taken before the sweep reads any channel: a long-running sweeper keeps an agent's
    observation (its screen unchanged) only while its channel's mark is the one it was read
    under, so a request that lands without a redraw (Qwen draws no dialog while its hook waits)
    is read by the very next sweep."""
    hub: object = ctx.channels  # (a hub that may also watch: ChannelWatch)
    if not isinstance(hub, ChannelWatch):
        return {}
    marks: dict[str, Hashable] = {}
    for agent in agents:
        if agent.token and agent.launched is not None:
            mark = hub.mark(agent.name, agent.kind, agent.token)
            if mark is not None:
                marks[agent.name] = mark
    return marks


def fused_for(ctx: Context, agent: AgentRecord, detection: Detection) -> Fused | None:
    """The detection fused with the agent's channel (None: no channel)."""
    port = port_for(ctx, agent)
    if port is None:
        return None
    try:
        requests = port.pending()
    except (OSError, PawError):
        return None  # a broken channel: the screen path alone, as before
    return fuse(detection, requests)


def overlay(ctx: Context, agent: AgentRecord, detection: Detection) -> Detection:
    """``detection`` as the sweep and the approval should see it, given the agent's channel."""
    fused = fused_for(ctx, agent, detection)
    if fused is None or fused.fusion is Fusion.NONE:
        return detection
    return apply_fusion(fused)


def apply_fusion(fused: Fused) -> Detection:
    """The detection a fusion yields (pure; see the module's docstring), with its
    :attr:`~paw.core.models.Detection.source`."""
    return replace(_fused_detection(fused), source=fused.source)


def _fused_detection(fused: Fused) -> Detection:
    det, req = fused.detection, fused.request
    if fused.fusion is Fusion.SCREEN_ONLY:
        return replace(
            det, notes=(*det.notes, f"{CHANNEL_NOTE}: silent (the channel said nothing)")
        )
    if fused.fusion is Fusion.ANSWERED:
        note = f"{CHANNEL_NOTE}: answered {req.request_id if req else ''}".rstrip()
        return Detection(DetectionState.BUSY, det.agent, None, (*det.notes, note))
    if req is None:
        return det
    if fused.fusion in (Fusion.OBSERVED, Fusion.DISPUTED):
        observed = fused.judged
        if observed is None:
            return det
        why = f": {fused.reason}" if fused.fusion is Fusion.DISPUTED else ""
        note = f"{CHANNEL_NOTE}: {fused.fusion.value} {req.request_id}{why}"
        return Detection(DetectionState.PROMPT, det.agent, observed, (*fused.judged_notes, note))
    if fused.fusion is Fusion.DISAGREE:
        prompt = det.prompt
        shown = prompt.subject if prompt is not None else None
        both = f"[channel disagrees: {req.tool} {req.subject!r}; screen {shown!r}]"
        note = f"{CHANNEL_NOTE}: disagree {req.request_id}: {fused.reason}"
        if prompt is None:
            judged = fused_channel_prompt(fused)
            return Detection(DetectionState.PROMPT, det.agent, judged, (*det.notes, note))
        withheld = replace(
            prompt, subject=None, question=f"{prompt.question} {both}",
            fingerprint=f"{prompt.fingerprint}+channel-disagree:{req.request_id}",
        )  # fmt: skip
        return Detection(DetectionState.PROMPT, det.agent, withheld, (*det.notes, note))
    judged = fused.judged
    if judged is None:
        return det
    # AGREE keeps the screen's fingerprint: the dialog is drawn before the hook's record lands,
    # and the occurrence a sweep listed from the screen alone is the same prompt.
    note = f"{CHANNEL_NOTE}: {fused.fusion.value} {req.request_id}"
    return Detection(DetectionState.PROMPT, det.agent, judged, (*fused.judged_notes, note))


def fused_channel_prompt(fused: Fused) -> Prompt | None:
    """A channel-made prompt with its subject withheld (a DISAGREE with nothing on screen:
    two claims at once)."""
    judged = replace(fused, fusion=Fusion.CHANNEL_ONLY).judged
    if judged is None:
        return None
    return replace(judged, subject=None, fingerprint=f"{judged.fingerprint}+disagree")


def channel_pending(ctx: Context, agent: AgentRecord) -> bool:
    """Whether the agent's channel holds a request open: the prompt is then answered through
    the channel or refused (agree, channel-only, disagree), never by keys, so the one-second
    settle before keys does not apply. An observe-only claim is not such a request: its prompt
    is answered by keys, after the settle."""
    port = port_for(ctx, agent)
    if port is None:
        return False
    try:
        return any(r.state is ChannelState.PENDING and not r.observe_only for r in port.pending())
    except (OSError, PawError):
        return False


def route(
    ctx: Context,
    action: str,
    record: PromptRecord,
    agent: AgentRecord,
    facts: Facts,
    *,
    confirmed: bool = False,
    override: str | None = None,
    always: bool = False,
) -> Decision | None:
    """Answer ``record`` through the agent's channel where it can; refuse what neither path may
    answer; None: the key path decides (with today's proof)."""
    fresh = facts.fresh
    notes = fresh.notes if fresh is not None else ()
    source = fresh.source if fresh is not None else None
    tag = next((n for n in notes if n.startswith(f"{CHANNEL_NOTE}: ")), "")
    if not tag or tag.startswith(_KEYS_TAGS):
        return None  # no channel, it said nothing, or it only observes: keys, as before
    if verify_live(facts) is not None:
        same = bridged(facts, tag)
        if same is None or verify_live(same) is not None:
            return None  # the key path refuses it with its own words
        facts = same
    if tag.startswith(f"{CHANNEL_NOTE}: disagree"):
        why = (
            "the agent's channel and its screen disagree on what this prompt would do "
            f"({tag.split(': ', 2)[-1]}); paw answers it neither by keys nor by a rule: "
            "read both and answer in the pane (`paw attach`)"
        )
        return _refused(ctx, action, record, why, source, path=None)
    request_id = tag.split()[-1]
    port = port_for(ctx, agent)
    if port is None:  # (listed from the channel: never keys instead, nor without the settle)
        return _refused(ctx, action, record, "the agent's channel is gone; nothing sent", source)
    if always:
        return _refused(ctx, action, record, "the channel answers this request once; "
                        "'always' is not offered through it", source)  # fmt: skip
    verdict: Verdict | None = None
    answer = ChannelAnswer.DENY
    if action == "approve":
        prompt = fresh.prompt if fresh is not None else None
        if prompt is None:
            return None
        verdict = evaluate_subject(
            prompt, notes=notes, worktree=agent.worktree, config=ctx.config.guard,
            mcp_allowed=ctx.config.mcp_allowed, shell=ctx.shell,
        )  # fmt: skip
        # A confirmation given for what was listed (the screen's subject, before the channel's
        # record landed) is not one for another text: the human confirms the exact input.
        seen = record.subject == prompt.subject
        held = _held(verdict, confirmed=confirmed and seen, override=override if seen else None)
        if held is not None:
            outcome, why = held
            fields = _fields(record, request_id, verdict, source)
            ctx.record(action, decision=outcome.value, reason=why, path="channel", **fields)
            return Decision(outcome, record.id, why, verdict)
        answer = ChannelAnswer.ALLOW
    bound = ChannelRequested(
        request_id,
        source.name if source is not None else Fusion.AGREE.value,
        source.channel_subject if source is not None else None,
    )
    return _send(ctx, action, record, port, bound, answer, verdict, source)


def bridged(facts: Facts, tag: str) -> Facts | None:
    """``facts`` proven against the fresh capture when the prompt was listed from the channel
    alone and the screen now draws it, agreeing, for the very same request (opencode's and
    Kilo's server tell paw before their TUI draws the dialog): one request, bound by its id,
    not a changed prompt. None otherwise (the proof stands as it is)."""
    fresh = facts.fresh.prompt if facts.fresh is not None else None
    if fresh is None or not tag.startswith(f"{CHANNEL_NOTE}: {Fusion.AGREE.value} "):
        return None
    request_id = tag.split()[-1]
    listed = facts.fingerprint
    if not (listed.startswith("channel:") and listed.endswith(f":{request_id}")):
        return None
    return replace(facts, fingerprint=fresh.fingerprint)


def _held(verdict: Verdict, *, confirmed: bool, override: str | None) -> tuple[Outcome, str] | None:
    reasons = "; ".join(verdict.reasons)
    if verdict.action is Action.BLOCK and not (override and override.strip()):
        return Outcome.NEEDS_OVERRIDE, f"the guard blocks this: {reasons}"
    if verdict.action is Action.CONFIRM and not confirmed:
        return Outcome.NEEDS_CONFIRMATION, f"needs confirmation: {reasons}"
    return None


def _send(
    ctx: Context,
    action: str,
    record: PromptRecord,
    port: ChannelPort,
    bound: ChannelRequested,
    answer: ChannelAnswer,
    verdict: Verdict | None,
    source: PromptSource | None,
) -> Decision:
    request_id = bound.request_id
    fields = _fields(record, request_id, verdict, source)
    user = ctx.actor.user
    # The occurrence is bound to the request it answers and decided in one durable write.
    apply_events(ctx, record.id, bound, Decided(action, this_paw(ctx), user))
    # Record, then act: the decision is on disk before the answer file exists.
    ctx.record(action, decision="send", path="channel", answer=answer.value, **fields)
    ctx.fault(f"{action}:channel-recorded")
    try:
        port.answer(request_id, answer)
    except PawError as err:
        ctx.record("outcome", action=action, outcome="not-sent", path="channel",
                   error=err.message, **fields)  # fmt: skip
        apply_events(ctx, record.id, ChannelWithdrawn(request_id, action, user))
        return Decision(Outcome.REFUSED, record.id, f"{err.message}; nothing sent", verdict)
    ctx.fault(f"{action}:channel-sent")

    def taken() -> ChannelState | None:
        state = port.state(request_id)
        return None if state is ChannelState.PENDING else state

    state = poll(ctx, TAKEN_TIMEOUT_S, TAKEN_INTERVAL_S, taken)
    outcome = Outcome.SENT if state is ChannelState.RESOLVED else Outcome.SENT_UNCONFIRMED
    ctx.record("outcome", action=action, outcome=outcome.value, path="channel",
               channel_state=state.value if state else "pending", **fields)  # fmt: skip
    closing: Event
    if state is ChannelState.RESOLVED:
        closing = ChannelResolved(request_id, action, user)
    elif state is ChannelState.TIMED_OUT:
        closing = ChannelTimedOut(request_id, action, user)
    else:  # still pending when paw stopped waiting: decided once, as a key's unconfirmed send
        closing = Verified(action, user)
    apply_events(ctx, record.id, closing)
    verb = "approved" if answer is ChannelAnswer.ALLOW else "denied"
    return Decision(outcome, record.id, f"{verb} through the agent's channel", verdict)


def _refused(
    ctx: Context,
    action: str,
    record: PromptRecord,
    why: str,
    source: PromptSource | None,
    *,
    path: str | None = "channel",
) -> Decision:
    """Refused on the channel's path (``path``: None when neither path may answer it)."""
    ctx.record(action, decision="refuse", reason=why, path=path, **record.audit_ids(),
               **source_fields(source))  # fmt: skip
    return Decision(Outcome.REFUSED, record.id, why)


def source_fields(source: PromptSource | None) -> dict[str, object]:
    """What every decision's audit record says of the fusion at decision time (the proof
    capture's): ``source`` (``screen`` without a channel; ``agree``, ``channel-only``,
    ``screen-only``, ``disagree``), the channel's request id and exact input. All None when
    no capture was fused (the pane was gone, or the decision was refused before looking)."""
    if source is None:
        return {"source": None, "channel_request": None, "channel_subject": None}
    return {
        "source": source.name,
        "channel_request": source.request_id,
        "channel_subject": source.channel_subject,
    }


def _fields(
    record: PromptRecord, request_id: str, verdict: Verdict | None, source: PromptSource | None
) -> dict[str, object]:
    return {
        **record.audit_ids(),
        **source_fields(source),
        "channel_request": request_id,
        "subject": record.subject,
        "verdict": verdict.to_dict() if verdict is not None else None,
    }
