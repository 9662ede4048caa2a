"""What the wave runner does to a running task's agent, each step recorded before it acts: a
prompt approved by a standing rule through the normal approval path, and a failed check's
follow-up typed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from paw.core.wave import Notify, followup_refused, followup_unseen
from paw.errors import PawError, TypingRefused
from paw.supervisor.context import Actor
from paw.supervisor.model import Outcome
from paw.supervisor.wave.runner_view import RunnerView

if TYPE_CHECKING:
    from paw.core.wave import ApproveByRule, FollowUp, TaskState, TaskView
    from paw.supervisor.service import Supervisor


class ActingRunner(RunnerView, Protocol):
    """What the acts need of the runner that calls them (:class:`paw.supervisor.wave.runner.
    WaveRunner`), passed in: this room never imports the runner."""

    @property
    def sup(self) -> Supervisor: ...

    @property
    def file(self) -> str:
        """The wave file's path, as the rule approvals cite it."""
        ...

    @property
    def sha256(self) -> str:
        """The wave file's digest, as the rule approvals cite it."""
        ...

    def put(self, task: TaskState) -> None:
        """Put ``task`` in the state in place of its namesake."""
        ...


def approve_by_rule(runner: ActingRunner, effect: ApproveByRule, now: float) -> None:
    """Approve a prompt through the normal approval path, citing the standing rule (recorded
    first: never tried twice); refused, a human decides (its message owed in the same
    write)."""
    task = runner.state.task(effect.task)
    prompt = task.prompt(effect.prompt_id)
    if prompt is None or prompt.approving:
        return
    prompt.approving = True
    runner.save()
    rule = runner.wave.rules[effect.rule - 1]
    by = f"approved by rule {effect.rule} of {runner.file} ({runner.sha256})"
    runner.ctx.record(
        "wave-rule-approve", wave=runner.wave.name, task=task.name, agent=task.agent,
        prompt_id=effect.prompt_id, rule=effect.rule, rule_kind=rule.kind,
        rule_subject=rule.subject, file=runner.file, sha256=runner.sha256, reason=by,
    )  # fmt: skip
    actor = runner.ctx.actor
    try:
        by_rule = Actor(user=f"{actor.user} ({by})", tty=actor.tty)
        decision = runner.sup.approve(effect.prompt_id, actor=by_rule)
    except PawError as err:
        decision = None
        reason = err.message
    if decision is not None and decision.outcome in (Outcome.SENT, Outcome.SENT_UNCONFIRMED):
        prompt.answered = f"approved by rule {effect.rule}"
        prompt.answered_at = now
        runner.save()
        return
    # Refused (the prompt changed or went away, the guard said otherwise): a human decides.
    prompt.route = "human"
    prompt.why = f"rule {effect.rule} matched but paw did not approve: " + (
        decision.reason if decision is not None else reason
    )
    if prompt.live:
        runner.owe([Notify("parked", task.name, prompt.id)])
    runner.save()


def follow_up(runner: ActingRunner, effect: FollowUp, view: TaskView, now: float) -> None:
    """Type a failed check's follow-up (the agent was idle at the last sweep; the send
    proves it again right before typing). Refused before typing: not counted, it waits;
    typed but never seen arrive: counted, never typed again, a human is told."""
    task = runner.state.task(effect.task)
    if task.followup_text is None:
        return
    task.followups += 1
    task.followup_text = None
    task.followup_screen = view.screen
    task.followup_typing, task.followup_typing_at = effect.text, now
    task.seen_working = False
    runner.save()  # counted before typing: a crash never sends it twice
    runner.ctx.record(
        "wave-followup", wave=runner.wave.name, task=task.name, agent=task.agent,
        number=task.followups, text=effect.text,
    )  # fmt: skip
    runner.ctx.fault("wave:followup-counted")
    try:
        runner.sup.send(task.agent, effect.text)
    except PawError as err:
        runner.ctx.record(
            "wave-followup-refused", wave=runner.wave.name, task=task.name, agent=task.agent,
            number=task.followups, error=err.message,
        )  # fmt: skip
        task.followup_typing = task.followup_typing_at = None
        if isinstance(err, TypingRefused) and err.typed:  # the keys went: never again
            step = followup_unseen(task, err.message, now)
        else:
            step = followup_refused(task, effect.text, err.message, now)
        runner.put(step.task)
        runner.owe([e for e in step.effects if isinstance(e, Notify)])
        runner.save()
        return
    task.followup_why, task.followup_notified = None, None
    task.followup_typing = task.followup_typing_at = None
    runner.save()
