"""What a wave runner killed mid-step left, settled by the next runner before it decides
anything: tasks caught starting, and standing-rule approvals caught between record and keys."""

from __future__ import annotations

from typing import Protocol

from paw.core.wave import ApproveByRule, Notify, Phase
from paw.core.wave_recovery import Fate, decision_fate
from paw.supervisor.records import load_agents
from paw.supervisor.wave.runner_view import RunnerView


class ResumingRunner(RunnerView, Protocol):
    """What settling needs of the runner that calls it (:class:`paw.supervisor.wave.runner.
    WaveRunner`), passed in: this room never imports the runner."""

    def approve_by_rule(self, effect: ApproveByRule, now: float) -> None:
        """Carry out a standing rule's approval (recorded first, proven before its key)."""
        ...


def settle_starting(runner: ResumingRunner) -> None:
    """After a crash: a task recorded as starting either got its agent (running), left a
    half-made branch (failed, for a human to look at), or created nothing (start again)."""
    agents = load_agents(runner.ctx.state)
    for task in runner.state.tasks:
        if task.phase is not Phase.STARTING:
            continue
        if task.agent in agents:
            task.phase = Phase.RUNNING
        elif runner.ctx.vcs.branch_exists(runner.ctx.repo_root, runner.ctx.branch_for(task.agent)):
            task.phase, task.outcome = (
                Phase.FAILED,
                "its start was interrupted: look at its branch",
            )
            task.ended_at = runner.ctx.clock()
        else:
            task.phase = Phase.PENDING
        runner.ctx.record(
            "wave-resume-task", wave=runner.wave.name, task=task.name, phase=task.phase.value
        )
        runner.save()


def settle_rule_approvals(runner: ResumingRunner, now: float) -> None:
    """After a crash: a rule approval routed but never recorded is carried out now (nothing
    was sent); one recorded but never finished is never retried: if the audit shows no
    keys were sent, a human decides (its message owed with that decision)."""
    for task in runner.state.tasks:
        if task.phase is not Phase.RUNNING:
            continue
        for prompt in task.prompts:
            if prompt.route != "rule" or not prompt.live or prompt.answered is not None:
                continue
            if not prompt.approving:
                runner.approve_by_rule(ApproveByRule(task.name, prompt.id, prompt.rule or 0), now)
                continue
            fate, _decision = decision_fate(runner.ctx.audit.read(), prompt.id)
            if fate is Fate.PENDING:
                continue  # its sweep has not reconciled it yet: the next tick decides
            if fate is Fate.SENT:
                prompt.answered, prompt.answered_at = f"approved by rule {prompt.rule}", now
            elif fate is Fate.UNCERTAIN:
                prompt.answered = (
                    f"rule {prompt.rule} approval interrupted: the key may have reached it"
                )
                prompt.answered_at = now
            else:  # recorded, never sent (the sweep reconciled it `not-sent`): a human
                prompt.route = "human"
                prompt.why = "a rule approval was cut off before its key was sent"
                runner.owe([Notify("parked", task.name, prompt.id)])
            runner.save()
