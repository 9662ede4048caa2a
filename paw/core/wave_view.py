"""What the TUI shows of a wave: one row per task, those that need a human first (pure).

It reads a :class:`~paw.core.wave.WaveState` (the runner's ``.paw/waves/<name>.json``) and
never imports the schema at run time: the TUI loads this module before its first frame, and the
state is parsed later, off the UI thread, only when the file changed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paw.core.wave import PromptState, TaskState, WaveState

# A task's status, as the wave view names it (the runner's phases, and for running tasks what
# they wait on). The order is the order of the rows: what needs a human first.
WAITING = "waiting"  # a prompt is parked for a human
PARKED = "parked"  # over its token or dollar budget: its agent left running, nothing typed to it
DIALOG = "dialog"  # a dialog only a human can answer (no prompt to approve), or a follow-up
# that waits on a screen paw may not type into (announced)
STUCK = "stuck"  # nothing changed for stuck_after_s while not busy
CHECKING = "checking"  # paw runs the task's check
RUNNING = "running"
STARTING = "starting"  # its start is recorded; the agent is being created
QUEUED = "queued"  # not started yet (max_parallel, depends_on)
FAILED = "failed"
DONE = "done"

STATUS_ORDER = (WAITING, PARKED, DIALOG, STUCK, CHECKING, RUNNING, STARTING, QUEUED, FAILED, DONE)
NEEDS_HUMAN = frozenset({WAITING, PARKED, DIALOG, STUCK})
_PHASE_STATUS = {"pending": QUEUED, "starting": STARTING, "done": DONE, "failed": FAILED}


@dataclass(frozen=True, slots=True)
class WaveReading:
    """One look at a repository's latest wave: its state, or why it could not be read."""

    name: str
    state: WaveState | None  # None when the file could not be read or parsed
    runner_alive: bool  # a runner process holds the wave (only asked while it is running)
    error: str | None = None  # one line: what is wrong with the state file

    @property
    def runner_missing(self) -> bool:
        """The wave is still running but no runner runs it (stopped, crashed, kill -9)."""
        return self.state is not None and self.state.status == "running" and not self.runner_alive


@dataclass(frozen=True, slots=True)
class WaveRow:
    """One task of the wave, as one row of the wave view."""

    task: str
    agent: str
    kind: str | None
    status: str
    elapsed_s: float | None  # since the task started (to its end when it ended)
    budget_s: float | None
    checks: int  # check runs so far
    last_check_failed: bool
    followups: int  # failing checks sent back to the agent
    retries: int | None  # follow-ups allowed
    has_check: bool | None  # None: not known (a state written before paw recorded it)
    prompt: PromptState | None  # the parked prompt (the oldest live one for a human)
    since: float | None  # since when it needs a human (prompt, dialog, stuck), for ordering
    outcome: str | None
    # why it is parked over its token or dollar budget (what it spent of which budget)
    budget_parked: str | None = None


def parked_prompt(task: TaskState) -> PromptState | None:
    """The oldest live prompt of ``task`` that waits for a human."""
    parked = [p for p in task.prompts if p.live and p.route == "human"]
    return min(parked, key=lambda p: p.first_seen) if parked else None


def task_status(task: TaskState) -> str:
    """One word for where ``task`` is (see :data:`STATUS_ORDER`)."""
    phase = str(task.phase.value)
    if phase != "running":
        return _PHASE_STATUS.get(phase, phase)
    if task.budget_parked is not None:
        return PARKED  # (as `paw wave report` says it: first, even with a prompt waiting)
    if parked_prompt(task) is not None:
        return WAITING
    if task.dialog_notified is not None or (
        task.followup_text is not None and task.followup_notified is not None
    ):
        return DIALOG  # (or its follow-up waits on a screen only a human can clear)
    if task.stuck:
        return STUCK
    if task.checking_since is not None:
        return CHECKING
    return RUNNING


def task_row(task: TaskState, now: float) -> WaveRow:
    """The row of ``task`` at time ``now``."""
    status = task_status(task)
    prompt = parked_prompt(task)
    since = {
        WAITING: prompt.first_seen if prompt else None,
        DIALOG: task.dialog_notified or task.followup_notified,
        STUCK: task.last_change,
    }.get(status)
    elapsed = None
    if task.started_at is not None:
        elapsed = max(0.0, (task.ended_at or now) - task.started_at)
    return WaveRow(
        task=task.name,
        agent=task.agent,
        kind=task.kind,
        status=status,
        elapsed_s=elapsed,
        budget_s=task.budget_s,
        checks=len(task.checks),
        last_check_failed=bool(task.checks) and task.checks[-1].exit_code != 0,
        followups=task.followups,
        retries=task.retries,
        has_check=None if task.retries is None else task.check is not None,
        prompt=prompt,
        since=since,
        outcome=task.outcome,
        budget_parked=task.budget_parked if status == PARKED else None,
    )


def wave_rows(state: WaveState, now: float) -> list[WaveRow]:
    """Every task's row: parked prompts first, then tasks parked over their token or dollar
    budget, then dialogs, then stuck tasks (within each the
    longest waiting at the top), then checking, running, starting, queued, failed and done;
    ties in file order."""
    order = {status: i for i, status in enumerate(STATUS_ORDER)}
    rows = [task_row(t, now) for t in state.tasks]
    position = {row.task: i for i, row in enumerate(rows)}
    return sorted(
        rows,
        key=lambda r: (
            order.get(r.status, len(order)),
            r.since if r.since is not None else now,
            position[r.task],
        ),
    )


def status_counts(rows: list[WaveRow]) -> dict[str, int]:
    """How many tasks are in each status, in :data:`STATUS_ORDER` (zero counts left out)."""
    counts = Counter(r.status for r in rows)
    known = [(s, counts[s]) for s in STATUS_ORDER if counts[s]]
    other = [(s, n) for s, n in sorted(counts.items()) if s not in STATUS_ORDER]
    return dict(known + other)


def wave_elapsed(state: WaveState, now: float) -> float:
    """Seconds since the wave started (to its end when it ended)."""
    return max(0.0, (state.ended_at or now) - state.started_at)


@dataclass(frozen=True, slots=True)
class WaveTask:
    """The wave and task an agent runs (what a prompt's card names beside its agent)."""

    wave: str
    task: str


def agent_tasks(reading: WaveReading | None) -> dict[str, WaveTask]:
    """Each agent of the wave ``reading`` shows, by its name: the wave's name and its task's
    (tasks not started yet have no agent running). Empty without a readable wave."""
    state = reading.state if reading is not None else None
    if state is None:
        return {}
    return {
        t.agent: WaveTask(state.name, t.name)
        for t in state.tasks
        if t.started_at is not None or str(t.phase.value) != "pending"
    }
