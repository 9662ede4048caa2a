"""The wave's decision on a channel-only look's picture (issue 32), pure: a new prompt for a
human is parked and announced at once; nothing else is decided on that picture. The runner
over real tmux and paw's real hook program: tests/supervisor/test_wave_early_real.py."""

from __future__ import annotations

from paw.core.models import Action
from paw.core.wave import (
    Notify,
    Phase,
    SeenPrompt,
    TaskState,
    TaskView,
    WaveFile,
    initial_state,
    park_early,
    step_task,
)

WAVE = WaveFile.model_validate(
    {
        "name": "night",
        "agent": "scripted",
        "rules": [{"kind": "shell", "subject": "ls *"}],
        "tasks": [{"name": "t0", "task": "x"}],
    }
)


def _seen(pid: str, subject: str, verdict: Action) -> SeenPrompt:
    return SeenPrompt(pid, "shell", subject, "Run it?", verdict, (), True, 10.0)


def _view(*prompts: SeenPrompt) -> TaskView:
    return TaskView("prompt", "", 0, 0, 0, 0, prompts=prompts, worktree="/w")


def _task() -> TaskState:
    task = initial_state(WAVE, "/w.toml", "ab" * 32, 0.0).task("t0")
    task.phase = Phase.RUNNING
    return task


def test_a_new_prompt_for_a_human_is_parked_and_announced_at_once() -> None:
    task = _task()
    step = park_early(WAVE, task, _view(_seen("p1", "git push", Action.CONFIRM)))
    assert step.effects == (Notify("parked", "t0", "p1"),)
    [parked] = step.task.prompts
    assert (parked.id, parked.route, parked.live) == ("p1", "human", True)
    assert not task.prompts  # (pure)
    # the runner's outbox sends that message and marks the prompt announced: the screen
    # sweep's step that follows announces nothing more for it
    parked.notified_at = 10.5
    after = step_task(
        WAVE, WAVE.task("t0"), step.task, _view(_seen("p1", "git push", Action.CONFIRM)), 11.0
    )
    assert not [e for e in after.effects if isinstance(e, Notify)]


def test_a_prompt_a_rule_covers_waits_for_the_screen_sweep() -> None:
    task = _task()
    step = park_early(WAVE, task, _view(_seen("p1", "ls -la", Action.ALLOW)))
    assert step.effects == ()
    assert step.task == task  # unrecorded: the screen sweep's step routes it to its rule


def test_the_look_closes_nothing_and_repeats_nothing() -> None:
    task = park_early(WAVE, _task(), _view(_seen("p1", "git push", Action.CONFIRM))).task
    # a look that shows another agent's request only (p1 not in it): p1 stays live
    step = park_early(WAVE, task, _view(_seen("p2", "rm -rf /", Action.BLOCK)))
    assert step.effects == (Notify("parked", "t0", "p2"),)
    assert [(p.id, p.live) for p in step.task.prompts] == [("p1", True), ("p2", True)]
    again = park_early(WAVE, step.task, _view(_seen("p2", "rm -rf /", Action.BLOCK)))
    assert again.effects == ()
    assert again.task == step.task
