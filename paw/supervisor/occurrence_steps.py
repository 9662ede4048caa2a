"""One prompt occurrence stepped through :func:`paw.core.occurrence.step` and the effects
carried out: the sweep, the approval path and the channel route all go through here (so none
of them imports another for it)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from paw.core.occurrence import NoteEnded, NoteSeen, ProcIdentity, step
from paw.supervisor.records import PROMPTS_LOCK, load_prompts, save_prompts

if TYPE_CHECKING:
    from paw.core.models import Verdict
    from paw.core.occurrence import Effects, Event, PromptRecord
    from paw.supervisor.context import Context


def apply_events(ctx: Context, prompt_id: str, *events: Event) -> None:
    """Step the occurrence as it is now (re-read under the prompts lock: sweeps write too)
    through :func:`paw.core.occurrence.step`, once per event in order, persist it in one
    durable write (a decision, which the keys wait for) and carry out the effects."""
    with ctx.state.lock(PROMPTS_LOCK):
        prompts = load_prompts(ctx.state)
        before = current = prompts.get(prompt_id)
        if current is None:
            return
        done: list[tuple[PromptRecord, Effects]] = []
        for event in events:
            after, effects = step(current, event, ctx.clock())
            done.append((current, effects))
            current = after
        if current is not before:
            prompts[prompt_id] = current
            save_prompts(ctx.state, prompts)
        for found, effects in done:
            carry_out(ctx, found, effects)


def this_paw(ctx: Context) -> ProcIdentity | None:
    """This paw process (pid and start time): a sweep tells a decision in flight from one
    whose process died."""
    me = ctx.local_procs.tree(os.getpid())[:1]
    return ProcIdentity(pid=me[0].pid, create_time=me[0].create_time) if me else None


def carry_out(
    ctx: Context, record: PromptRecord, effects: Effects, verdict: Verdict | None = None
) -> None:
    """Write the audit records the occurrence machine asks for (``record``: the occurrence as
    the event found it; ``verdict``: the guard's, for a new occurrence)."""
    for effect in effects:
        if isinstance(effect, NoteSeen):
            if verdict is not None:
                _record_seen(ctx, record, verdict)
        elif isinstance(effect, NoteEnded):
            ctx.note(
                "prompt-ended", outside=True, client_attached=effect.client_attached,
                reason=effect.reason, **record.audit_ids(),
            )  # fmt: skip
        else:
            extra = {"confirmed": effect.confirmed} if effect.confirmed is not None else {}
            ctx.record(
                "outcome", action=effect.action, outcome=effect.outcome, **extra,
                reason=effect.reason, **record.audit_ids(),
            )  # fmt: skip


def _record_seen(ctx: Context, record: PromptRecord, verdict: Verdict) -> None:
    ctx.note(
        "prompt-seen",
        **record.audit_ids(),
        prompt_kind=record.prompt_kind,
        subject=record.subject,
        question=record.question,
        pid=record.proc.pid,
        verdict=verdict.to_dict(),
    )
