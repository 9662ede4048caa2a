"""The wave view's rows (pure): what needs a human first, then the rest in a fixed order."""

from __future__ import annotations

from paw.core.wave import CheckRun, Phase, PromptState, TaskState, WaveState
from paw.core.wave_view import status_counts, task_status, wave_elapsed, wave_rows

NOW = 10_000.0


def _prompt(pid: str, first_seen: float, route: str = "human", *, live: bool = True) -> PromptState:
    return PromptState(
        id=pid, kind="shell", subject="git push", question="Run?", verdict="confirm",
        first_seen=first_seen, route=route, why="guard verdict is confirm", live=live,
    )  # fmt: skip


def _task(name: str, phase: Phase = Phase.RUNNING, **extra: object) -> TaskState:
    return TaskState.model_validate(
        {"name": name, "agent": f"w-{name}", "phase": phase, "started_at": NOW - 100, **extra}
    )


def test_rows_need_a_human_first_the_longest_waiting_on_top() -> None:
    tasks = [
        _task("done", Phase.DONE, ended_at=NOW - 50, outcome="check passed"),
        _task("queued", Phase.PENDING, started_at=None),
        _task("young", prompts=[_prompt("a", NOW - 5)]),
        _task("stuck", stuck=True, last_change=NOW - 2000),
        _task("dialog", dialog_notified=NOW - 30),
        _task("old", prompts=[_prompt("b", NOW - 60), _prompt("c", NOW - 90, live=False)]),
        _task("ruled", prompts=[_prompt("d", NOW - 100, route="rule")]),
        _task("checking", checking_since=NOW - 1),
        _task("failed", Phase.FAILED, checks=[CheckRun(at=NOW - 9, exit_code=1, tail="x")]),
        _task("starting", Phase.STARTING),
    ]
    state = WaveState(name="w", file="w.toml", sha256="0", started_at=NOW - 200, tasks=tasks)
    rows = wave_rows(state, NOW)
    assert [(r.task, r.status) for r in rows] == [
        ("old", "waiting"),  # its live prompt waits 60 s (the older one was answered)
        ("young", "waiting"),
        ("dialog", "dialog"),
        ("stuck", "stuck"),
        ("checking", "checking"),
        ("ruled", "running"),  # a standing rule answers it: nothing for a human
        ("starting", "starting"),
        ("queued", "queued"),
        ("failed", "failed"),
        ("done", "done"),
    ]
    assert rows[0].prompt is not None
    assert rows[0].prompt.id == "b"
    assert rows[-1].elapsed_s == 50.0  # to its end, not to now
    assert rows[-3].elapsed_s is None  # never started
    assert rows[-2].last_check_failed
    assert status_counts(rows) == {
        "waiting": 2, "dialog": 1, "stuck": 1, "checking": 1, "running": 1, "starting": 1,
        "queued": 1, "failed": 1, "done": 1,
    }  # fmt: skip
    assert wave_elapsed(state, NOW) == 200.0
    assert task_status(_task("x", Phase.RUNNING, stuck=True, dialog_notified=NOW)) == "dialog"


def test_a_follow_up_announced_as_waiting_needs_a_human_until_it_is_typed() -> None:
    waits = _task("x", followup_text="fix it", followup_notified=NOW - 5)
    assert task_status(waits) == "dialog"
    assert task_status(_task("x", followup_text="fix it")) == "running"  # not announced yet
    assert task_status(_task("x", followup_notified=NOW - 5)) == "running"  # typed since


def test_a_task_parked_over_its_budget_is_parked_even_with_a_prompt_waiting() -> None:
    """As `paw wave report` says it: over its budget first; after the waiting prompts, before
    dialogs and stuck tasks; its row says what it spent of which budget."""
    why = "over its budget: 1,200 of 1,000 tokens"
    tasks = [
        _task("stuck", stuck=True, last_change=NOW - 2000),
        _task("spent", budget_parked=why, prompts=[_prompt("a", NOW - 5)]),
        _task("young", prompts=[_prompt("b", NOW - 5)]),
        _task("over", budget_parked="the wave is over its budget: $5.10 of $5.00"),
        _task("ended", Phase.DONE, budget_parked=why, ended_at=NOW - 1),
    ]
    state = WaveState(name="w", file="w.toml", sha256="0", started_at=NOW - 200, tasks=tasks)
    rows = wave_rows(state, NOW)
    assert [(r.task, r.status, r.budget_parked) for r in rows] == [
        ("young", "waiting", None),
        ("spent", "parked", why),
        ("over", "parked", "the wave is over its budget: $5.10 of $5.00"),
        ("stuck", "stuck", None),
        ("ended", "done", None),  # ended: what it came to
    ]
    assert rows[1].prompt is not None  # its prompt can still be decided from the view
    assert status_counts(rows) == {"waiting": 1, "parked": 2, "stuck": 1, "done": 1}
