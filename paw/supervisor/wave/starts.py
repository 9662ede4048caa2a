"""Starting a wave's tasks: the wave's spending warned of once, tasks that can never start
failed, and the ready ones started a few per sweep, each recorded before its agent exists."""

from __future__ import annotations

from typing import Protocol

from paw.core.wave import WARN_AT, Notify, Phase, ready_to_start, wave_over_budget, wave_spent
from paw.errors import PawError
from paw.supervisor.records import load_agents
from paw.supervisor.spawn import spawn as spawn_agent
from paw.supervisor.spawn import start_up
from paw.supervisor.wave.runner_view import RunnerView


class StartingRunner(RunnerView, Protocol):
    """What starting needs of the runner that calls it (:class:`paw.supervisor.wave.runner.
    WaveRunner`), passed in: this room never imports the runner."""

    @property
    def texts(self) -> dict[str, str]:
        """Each task's text (task files already read)."""
        ...


def start_ready(runner: StartingRunner, now: float, most: int) -> None:
    """Warn of the wave's spending (once each), fail the tasks that can never start, and start
    at most ``most`` of the ready ones (more start on the next sweeps)."""
    wave, state = runner.wave, runner.state
    spent = wave_spent(wave, state)
    if spent is not None and spent[0] >= WARN_AT and not state.spend_warned:
        state.spend_warned = True
        runner.owe([Notify("wave-budget-warning", None)])
        runner.save()
        runner.ctx.record("wave-budget-warning", wave=wave.name, used=spent[1])
    if wave_over_budget(wave, state, now) and not state.over_budget:
        state.over_budget = True
        runner.owe([Notify("wave-over-budget", None)])
        runner.save()
        runner.ctx.record("wave-over-budget", wave=wave.name)
    start, never = ready_to_start(wave, state, now)
    for name, why in never:
        task = state.task(name)
        task.phase, task.outcome, task.ended_at = Phase.FAILED, why, now
        runner.owe([Notify("task-failed", name)])
        runner.save()
    for name in start[:most]:
        start_task(runner, name, now)


def start_task(runner: StartingRunner, name: str, now: float) -> None:
    """Start one task's agent (recorded as starting first: a runner killed meanwhile never
    starts it twice, :func:`paw.supervisor.wave.resume.settle_starting`)."""
    task = runner.state.task(name)
    spec = runner.wave.task(name)
    task.phase, task.started_at = Phase.STARTING, now
    runner.save()  # recorded before anything is created
    kind = spec.agent or runner.wave.agent
    runner.ctx.record(
        "wave-task-start", wave=runner.wave.name, task=name, agent=task.agent, kind=kind
    )
    waiting = False
    try:
        record = spawn_agent(
            runner.ctx, task.agent, kind, runner.texts.get(name), spec.base or runner.wave.base
        )
        task.phase = Phase.RUNNING  # the agent exists: never started again
        runner.save()
        startup = start_up(runner.ctx, record)
        waiting = startup.task_typed is False
    except PawError as err:
        if task.agent in load_agents(runner.ctx.state):
            # It started, then died on start (the next sweep fails it: exited), or its
            # typed task could not be typed (a human types it: escalated as a dialog).
            task.phase = Phase.RUNNING
            task.outcome = err.message
            waiting = "not typed" in err.message
        else:
            task.phase, task.outcome, task.ended_at = (
                Phase.FAILED,
                f"could not start: {err.message}",
                now,
            )
            runner.owe([Notify("task-failed", name)])
        runner.save()
        if task.phase is Phase.FAILED:
            return
    task.phase = Phase.RUNNING
    task.last_change = now
    if waiting:
        runner.owe([Notify("dialog", name)])
    runner.save()
