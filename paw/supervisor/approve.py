"""The approval path: the only code that sends keys in answer to a prompt.

Order, for ``approve`` and ``deny`` alike: look up the prompt occurrence; refuse one already
decided; prove it is still live (the agent's own pane on the same tmux server, the process paw
launched still showing it, a fresh capture with the same fingerprint); apply the guard; mark
the occurrence decided and record the decision (fsync) BEFORE sending; send once; check the
prompt cleared or changed; record the outcome. Never retries. Every refusal is recorded too.
A paw process killed in between leaves the occurrence ``sending``; the next sweep reconciles it
(``not-sent`` while the prompt is still shown) and never counts it approved. Keys handed to a
host's link that dropped before the host answered are ``delivery-unknown``: neither sent nor
refused, the occurrence takes no other decision, and the sweep that reaches the host again
reconciles it from the screen (``not-delivered``, open again, or ``sent``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.approval import (
    Facts,
    Plan,
    Step,
    find_git_write,
    plan_approval,
    plan_denial,
    verify_live,
)
from paw.core.models import Action, DetectionState, Finding, PromptKind, Verdict
from paw.core.occurrence import (
    ANSWERED,
    DELIVERY_UNKNOWN,
    ENDED,
    SENDING,
    Decided,
    Delivery,
    KeysSent,
    Verified,
)
from paw.errors import DeliveryUnknown, PawError
from paw.supervisor.channels import channel_pending, route, source_fields
from paw.supervisor.model import Decision, Outcome
from paw.supervisor.observe import detect_text, is_same_process, pane_for
from paw.supervisor.occurrence_steps import apply_events, this_paw
from paw.supervisor.records import load_agents, load_prompts
from paw.supervisor.sweep import poll_once, verdict_for
from paw.supervisor.waiting import poll

if TYPE_CHECKING:
    from paw.core.models import Prompt, PromptSource
    from paw.core.occurrence import PromptRecord
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord

# Wall clock: how long an answered prompt may take to clear. While paw waits, the occurrence
# is SENDING and sweeps take the prompt still on screen for it; once ANSWERED, a prompt
# still shown reads as asked again (a new occurrence). On a loaded two-core machine an
# agent took more than 5 s to redraw after the key: a wave then parked the same question
# twice. Returns as soon as the prompt clears.
VERIFY_TIMEOUT_S = 15.0
VERIFY_INTERVAL_S = 0.05
# Agents that draw inline redraw their whole dialog on every tick of a timer (Continue's
# "( 8s • esc to interrupt )"); a capture can land mid-redraw and show half a box. The proof
# capture is retaken this many times before paw refuses; only a full, matching prompt is sent.
TORN_FRAME_RETRIES = 3
TORN_FRAME_INTERVAL_S = 0.1
# A prompt is answered only once it has been on screen this long (since the first sweep that
# saw it): Mistral Vibe dropped a key that came within about half a second of drawing its
# dialog (`paw approve` right after `paw prompts` listed it: the "1" or the Escape went
# nowhere, the dialog stayed, paw read sent-unconfirmed; 0.7 s later every key took). The
# wait comes before the proof capture, so the proof is still the last look before the keys.
PROMPT_SETTLE_S = 1.0

_STEP_OUTCOME = {
    Step.REFUSE: Outcome.REFUSED,
    Step.NEEDS_CONFIRMATION: Outcome.NEEDS_CONFIRMATION,
    Step.NEEDS_OVERRIDE: Outcome.NEEDS_OVERRIDE,
}


APPROVAL_LOCK = "approval"


def approve(
    ctx: Context,
    prompt_id: str,
    *,
    always: bool = False,
    confirmed: bool = False,
    override: str | None = None,
) -> Decision:
    """Re-verify, guard, record, then send the approve keys of prompt ``prompt_id``.

    Serialised across paw processes: a second decision on the same prompt waits, then finds it
    answered and is refused, so keys are never sent twice.
    """
    with ctx.state.lock(APPROVAL_LOCK):
        return _approve(ctx, prompt_id, always=always, confirmed=confirmed, override=override)


def _approve(
    ctx: Context, prompt_id: str, *, always: bool, confirmed: bool, override: str | None
) -> Decision:
    found = _lookup(ctx, prompt_id)
    if isinstance(found, str):
        return _refuse(ctx, "approve", prompt_id, found)
    record, agent = found
    facts = gather_facts(ctx, record, agent)
    routed = route(ctx, "approve", record, agent, facts, confirmed=confirmed, override=override,
                   always=always)  # fmt: skip
    if routed is not None:  # the agent's channel answered it, or neither path may
        return routed
    fresh = facts.fresh.prompt if facts.fresh is not None else None
    verdict = (
        verdict_for(ctx, agent, facts.fresh)
        if facts.fresh is not None and fresh is not None
        else _no_prompt_verdict()
    )
    worktree = agent.worktree

    def judge(command: str) -> Verdict:
        return ctx.shell(command, worktree, ctx.config.guard)

    plan = plan_approval(
        facts, verdict, always=always, confirmed=confirmed, override=override, judge=judge
    )
    return _carry_out(ctx, "approve", record, _if_answered(ctx, record, facts, plan), verdict,
                      override=override, source=_source(facts))  # fmt: skip


def deny(ctx: Context, prompt_id: str) -> Decision:
    """Re-verify, record, then send the deny keys of prompt ``prompt_id`` (serialised too)."""
    with ctx.state.lock(APPROVAL_LOCK):
        return _deny(ctx, prompt_id)


def _deny(ctx: Context, prompt_id: str) -> Decision:
    found = _lookup(ctx, prompt_id)
    if isinstance(found, str):
        return _refuse(ctx, "deny", prompt_id, found)
    record, agent = found
    facts = gather_facts(ctx, record, agent)
    routed = route(ctx, "deny", record, agent, facts)
    if routed is not None:
        return routed
    plan = _if_answered(ctx, record, facts, plan_denial(facts))
    return _carry_out(ctx, "deny", record, plan, None, override=None, source=_source(facts))


def _source(facts: Facts) -> PromptSource | None:
    """The fusion of the proof capture (None: no capture was taken)."""
    return facts.fresh.source if facts.fresh is not None else None


_ANSWERED = {"approve": "approved", "deny": "denied"}


def _if_answered(ctx: Context, record: PromptRecord, facts: Facts, plan: Plan) -> Plan:
    """A refusal because the prompt is no longer live says so plainly when an earlier decision
    sent keys to this very prompt: "already answered (denied by …)", not "the prompt changed".
    A prompt that is still live is never refused on this ground."""
    if verify_live(facts) is None:
        return plan
    for entry in reversed(ctx.audit.read()):
        if entry.get("prompt_id") == record.id and entry.get("decision") == "send":
            verb = _ANSWERED.get(str(entry.get("event")), "answered")
            who = f" by {entry['user']}" if entry.get("user") else ""
            return Plan(Step.REFUSE, f"already answered: {verb}{who}; nothing sent")
    return plan


def _no_prompt_verdict() -> Verdict:
    return Verdict.from_findings((Finding("approve.no-prompt", Action.BLOCK, "no live prompt"),))


def _lookup(ctx: Context, prompt_id: str) -> tuple[PromptRecord, AgentRecord] | str:
    prompts = load_prompts(ctx.state)
    known = prompts.get(prompt_id)
    if known is None or known.state in (SENDING, DELIVERY_UNKNOWN):
        # Sweep first: the id may be live but not yet listed by any paw process, or its last
        # decision was interrupted or its delivery is unknown (the sweep reconciles it).
        poll_once(ctx)
        prompts = load_prompts(ctx.state)
    record = prompts.get(prompt_id)
    if record is None:
        return f"unknown prompt id {prompt_id!r} (run `paw prompts` to list live prompts)"
    closed = _closed(record)
    if closed is not None:
        return closed
    agent = load_agents(ctx.state).get(record.agent)
    if agent is None:
        return f"agent {record.agent!r} is no longer supervised"
    return record, agent


def _closed(record: PromptRecord) -> str | None:
    """Why a decision on this occurrence is refused: each occurrence is decided once."""
    again = "if the agent asks again, that is a new prompt with a new id (`paw prompts`)"
    if record.state == ANSWERED:
        verb = _ANSWERED.get(record.action or "", "answered")
        who = f" by {record.decided_by}" if record.decided_by else ""
        return f"already answered: {verb}{who}; nothing sent ({again})"
    if record.state == ENDED:
        return (
            f"prompt {record.id} is no longer shown: the prompt changed or ended while paw "
            f"sent nothing (answered outside paw, or it timed out); {again}"
        )
    if record.state == SENDING:
        return f"a decision on prompt {record.id} is being sent; {again}"
    if record.state == DELIVERY_UNKNOWN:
        return unknown_reason(record)
    return None


def unknown_reason(record: PromptRecord) -> str:
    """Why a decision on an occurrence whose earlier keys may have arrived is refused."""
    verb = {"approve": "approval", "deny": "denial"}.get(record.action or "", "decision")
    return (
        f"outcome unknown, reconciling: the link to the agent's host dropped after the {verb} "
        f"of prompt {record.id} was handed to ssh; paw reads the host's screen once it answers "
        "and sends nothing to this prompt meanwhile; nothing sent"
    )


def gather_facts(ctx: Context, record: PromptRecord, agent: AgentRecord) -> Facts:
    """Everything the decision needs, captured now: pane, process identity, a fresh screen.

    The pane must be the agent's own (its tags and random token, on the tmux server the
    occurrence was seen on) and run the process paw launched (or its descendant), the very
    process that showed this occurrence."""
    pane = pane_for(ctx, agent, ctx.terminal.list_panes(None))
    if (
        pane is None
        or pane.pane_id != record.pane_id
        or pane.dead
        or (record.server and pane.server != record.server)
    ):
        return Facts(record.fingerprint, pane_exists=False, agent_alive=False, fresh=None)
    if not is_same_process(ctx, agent, pane, record.proc):
        return Facts(record.fingerprint, pane_exists=True, agent_alive=False, fresh=None)
    settle = min(PROMPT_SETTLE_S, record.first_seen + PROMPT_SETTLE_S - ctx.clock())
    if settle > 0 and not channel_pending(ctx, agent):  # (then no key is sent: see route)
        ctx.sleep(settle)  # (one wait: a clock that stands still must not spin here)
    for attempt in range(TORN_FRAME_RETRIES + 1):
        captures = ctx.terminal.sweep([pane.pane_id])
        text = captures[0].text if captures else None
        fresh = detect_text(ctx, agent, text)
        if text is None or fresh.state is DetectionState.PROMPT or attempt == TORN_FRAME_RETRIES:
            break
        ctx.sleep(TORN_FRAME_INTERVAL_S)
    return Facts(record.fingerprint, True, True, fresh)


def _carry_out(
    ctx: Context,
    action: str,
    record: PromptRecord,
    plan: Plan,
    verdict: Verdict | None,
    *,
    override: str | None,
    source: PromptSource | None,
) -> Decision:
    fields = _fields(record, plan, verdict, override, source)
    if plan.step is not Step.SEND:
        ctx.record(action, decision=plan.step.value, reason=plan.reason, **fields)
        return Decision(
            _STEP_OUTCOME[plan.step], record.id, plan.reason, verdict, (),
            _confirmation(ctx, record, plan, verdict)
            if plan.step is Step.NEEDS_CONFIRMATION
            else None,
        )  # fmt: skip
    # This occurrence is decided now, whatever happens next: a second decision (racing, or
    # after the agent asks again) never sends for it; a crash leaves SENDING for the sweep.
    apply_events(ctx, record.id, Decided(action, this_paw(ctx), ctx.actor.user))
    ctx.record(action, decision="send", reason=plan.reason, keys=list(plan.keys), **fields)
    ctx.fault(f"{action}:recorded")
    try:
        ctx.terminal.send_keys(record.pane_id, plan.keys)
    except DeliveryUnknown as err:
        # Neither sent nor refused: the keys may be on the agent's screen. Nothing is sent to
        # this occurrence until a sweep of the host reconciles it (see paw.core.occurrence).
        reason = (
            f"{err.message}; paw reconciles from the host's screen once it answers again and "
            "sends nothing to this prompt meanwhile"
        )
        ctx.record(
            "outcome", action=action, outcome=Outcome.DELIVERY_UNKNOWN.value, reason=reason,
            path="keys", **record.audit_ids(),
        )  # fmt: skip
        apply_events(ctx, record.id, KeysSent(action, ctx.actor.user, Delivery.UNKNOWN))
        return Decision(Outcome.DELIVERY_UNKNOWN, record.id, reason, verdict, plan.keys)
    except PawError as err:
        ctx.record(
            "outcome",
            action=action,
            outcome="send-failed",
            error=err.message,
            path="keys",
            **record.audit_ids(),
        )
        apply_events(ctx, record.id, KeysSent(action, ctx.actor.user, Delivery.FAILED))
        raise
    ctx.fault(f"{action}:sent")
    outcome = _verify(ctx, record)
    ctx.record("outcome", action=action, outcome=outcome.value, path="keys", **record.audit_ids())
    apply_events(ctx, record.id, Verified(action, ctx.actor.user))
    return Decision(outcome, record.id, plan.reason, verdict, plan.keys)


def _verify(ctx: Context, record: PromptRecord) -> Outcome:
    """Poll the pane briefly: did the prompt clear or change? Never sends anything."""
    agent = load_agents(ctx.state).get(record.agent)

    # Gone in two captures in a row: one capture of the agent mid-redraw read the prompt gone
    # while it stayed drawn half a second more, and the next sweep took it for asked again.
    gone = [0]

    def cleared() -> Outcome | None:
        try:
            captures = ctx.terminal.sweep([record.pane_id])
        except PawError:
            return Outcome.SENT  # the pane went away with the answer
        text = captures[0].text if captures else None
        if text is None or agent is None:
            return Outcome.SENT
        fresh = detect_text(ctx, agent, text)
        if fresh.state is not DetectionState.PROMPT or (
            fresh.prompt is not None and fresh.prompt.fingerprint != record.fingerprint
        ):
            gone[0] += 1
            return Outcome.SENT if gone[0] >= 2 else None
        gone[0] = 0
        return None

    return poll(ctx, VERIFY_TIMEOUT_S, VERIFY_INTERVAL_S, cleared) or Outcome.SENT_UNCONFIRMED


def _fields(
    record: PromptRecord,
    plan: Plan,
    verdict: Verdict | None,
    override: str | None,
    source: PromptSource | None,
) -> dict[str, object]:
    prompt: Prompt | None = plan.prompt
    return {
        **record.audit_ids(),
        "path": "keys",  # the key path decided it (a channel's decision says "channel")
        **source_fields(source),
        "prompt_kind": record.prompt_kind,
        "subject": prompt.subject if prompt is not None else record.subject,
        "question": prompt.question if prompt is not None else record.question,
        "verdict": verdict.to_dict() if verdict is not None else None,
        "override": override,
        "always": plan.always.to_dict() if plan.always is not None else None,
    }


def _refuse(ctx: Context, action: str, prompt_id: str, reason: str) -> Decision:
    """Refused before either path looked (unknown, closed or gone): path and source None."""
    ctx.record(action, decision=Step.REFUSE.value, reason=reason, prompt_id=prompt_id,
               path=None, **source_fields(None))  # fmt: skip
    return Decision(Outcome.REFUSED, prompt_id, reason)


def _confirmation(ctx: Context, record: PromptRecord, plan: Plan, verdict: Verdict | None) -> str:
    """What the human reads before confirming; git writes add the git details."""
    prompt = plan.prompt
    lines = [f"{record.agent} ({record.kind}) asks: {record.question}"]
    if prompt is not None and prompt.subject:
        lines.append(f"  {prompt.kind.value}: {prompt.subject}")
    if verdict is not None:
        lines += [f"  guard: {verdict.action.value}"] + [f"  - {r}" for r in verdict.reasons]
    if plan.always is not None:
        lines.append(plan.always.explain())
    details = _git_details(ctx, record, prompt)
    return "\n".join(lines + ([details] if details else []))


def _git_details(ctx: Context, record: PromptRecord, prompt: Prompt | None) -> str | None:
    if ctx.git_details is None or prompt is None or prompt.kind is not PromptKind.SHELL:
        return None
    if not prompt.subject or find_git_write(prompt.subject) is None:
        return None
    agent = load_agents(ctx.state).get(record.agent)
    if agent is None:
        return None
    try:
        return ctx.git_details(prompt.subject, agent.worktree)
    except PawError as err:
        return f"(git details unavailable: {err.message})"
