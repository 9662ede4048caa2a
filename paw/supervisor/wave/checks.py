"""A wave task's check, run beside the sweeps (a test suite may take minutes): started on a
thread of its own, its result taken by the tick that finds it ended, recorded, and decided on
(:func:`paw.core.wave.after_check`)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Protocol

from paw.core.output_tail import tail
from paw.core.wave import CheckResult, CheckRun, Notify, after_check
from paw.supervisor.followup_room import tail_room
from paw.supervisor.wave.runner_view import RunnerView

if TYPE_CHECKING:
    from paw.core.wave import CheckRunner, Effect, TaskState, TaskView

# task -> the thread's result box (empty until it ends), the view the check started from, and
# its start time
RunningChecks = dict[str, tuple[list[CheckResult], "TaskView", float]]


class CheckingRunner(RunnerView, Protocol):
    """What the checks need of the runner that calls them (:class:`paw.supervisor.wave.runner.
    WaveRunner`), passed in: this room never imports the runner."""

    @property
    def run_check(self) -> CheckRunner: ...

    @property
    def checks(self) -> RunningChecks:
        """The checks running now."""
        ...

    def put(self, task: TaskState) -> None:
        """Put ``task`` in the state in place of its namesake."""
        ...

    def apply(self, effect: Effect, view: TaskView, now: float) -> None:
        """Carry out an effect a decision asked for."""
        ...


def start_check(runner: CheckingRunner, name: str, view: TaskView, now: float) -> None:
    """Start the task's check in the background; :func:`collect_checks` takes its result."""
    spec = runner.wave.task(name)
    if spec.check is None or name in runner.checks:
        return
    runner.ctx.record("wave-check", wave=runner.wave.name, task=name, command=spec.check)
    box: list[CheckResult] = []
    command, timeout = spec.check, runner.wave.check_timeout_s

    def work() -> None:
        try:
            box.append(runner.run_check(command, view.worktree, timeout))
        except Exception as err:  # noqa: BLE001 - a check that cannot run fails, loudly
            box.append(CheckResult(127, f"paw could not run the check: {err}", 0.0))

    runner.checks[name] = (box, view, now)
    runner.state.task(name).checking_since = now
    runner.save()  # readers (the TUI) show the task as checking
    threading.Thread(target=work, name=f"paw-check-{name}", daemon=True).start()


def collect_checks(runner: CheckingRunner, now: float) -> None:
    """Take the result of every check that ended: recorded, decided on, its effects carried
    out (its messages owed in the same write)."""
    for name, (box, view, started) in list(runner.checks.items()):
        if not box:
            continue
        del runner.checks[name]
        result = box[0]
        run = CheckRun(
            at=started, exit_code=result.exit_code, tail=tail(result.output),
            duration_s=round(result.duration_s, 2),
        )  # fmt: skip
        runner.ctx.record(
            "wave-check-result", wave=runner.wave.name, task=name, exit_code=run.exit_code,
            tail=run.tail,
        )  # fmt: skip
        task = runner.state.task(name)
        room = None
        if run.exit_code != 0:  # its whole output saved, and the room its follow-up has
            room = tail_room(
                runner.ctx, task.agent, result.output, runner.wave.name, name, len(task.checks) + 1
            )
        updated, effects = after_check(runner.wave.task(name), task, run, now, room)
        updated.checking_since = None
        runner.put(updated)
        runner.owe([e for e in effects if isinstance(e, Notify)])
        runner.save()
        for effect in effects:
            runner.apply(effect, view, now)
