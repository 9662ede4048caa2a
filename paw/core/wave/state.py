"""What the runner persists (``.paw/waves/<name>.json``): each task's phase, checks and prompts,
enough to resume after ``kill -9`` (pure)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from paw.core.wave.schema import WaveFile, agent_name


class Phase(StrEnum):
    """A task's life."""

    PENDING = "pending"
    STARTING = "starting"  # spawn recorded, not yet confirmed (resume checks what exists)
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


FINAL = frozenset({Phase.DONE, Phase.FAILED})


class _State(BaseModel):
    model_config = ConfigDict(extra="ignore")


class CheckRun(_State):
    """One run of a task's check."""

    at: float
    exit_code: int
    tail: str
    duration_s: float = 0.0


class PromptState(_State):
    """One occurrence of a prompt in a task's pane, as the wave saw it."""

    id: str
    kind: str
    subject: str | None
    question: str
    verdict: str
    reasons: list[str] = Field(default_factory=list)
    first_seen: float
    route: str  # "rule" (approved by a standing rule) or "human"
    why: str  # why it goes that way
    rule: int | None = None  # 1-based standing rule number
    live: bool = True
    notified_at: float | None = None
    reminders: int = 0
    last_reminded: float | None = None
    approving: bool = False  # a rule approval was recorded; never tried again
    answered_at: float | None = None
    answered: str | None = None  # "approved by rule N", "answered"…


class DueNote(_State):
    """A message the runner decided on and has not recorded in its outbox yet: saved in the
    same state write as the decision, removed in the write that records its message (a runner
    killed between the two writes composes it on resume: never lost, never twice)."""

    event: str
    task: str | None = None
    prompt_id: str | None = None


class WaveEnd(_State):
    """The end of a run, decided and saved before its ``wave-end`` audit record (whose ``end``
    field is this ``id``): a runner killed before the record leaves only this (the next run
    decides again); killed after it, the next run finishes this end without a second record."""

    id: str
    status: str  # done, failed, stopped
    event: str  # its message: wave-done, wave-failed, wave-stopped
    at: float


class TaskState(_State):
    """One task as the runner left it (``.paw/waves/<name>.json``)."""

    name: str
    agent: str
    phase: Phase = Phase.PENDING
    started_at: float | None = None
    ended_at: float | None = None
    outcome: str | None = None  # why it ended
    seen_working: bool = False  # seen busy or at a prompt since the start (or the follow-up)
    last_signature: str | None = None
    last_change: float | None = None
    stuck: bool = False
    stuck_count: int = 0  # times it was escalated as stuck
    stuck_notified: float | None = None
    dialog_notified: float | None = None  # a `waiting` screen (a dialog, no prompt) escalated
    followups: int = 0  # follow-ups sent (recorded before typing)
    followup_screen: str | None = None  # screen signature when the last follow-up was sent
    # A failed check's follow-up not typed yet: it waits until the agent is idle at an empty
    # input (never typed into a prompt, a dialog or a screen paw cannot read).
    followup_text: str | None = None
    followup_why: str | None = None  # why it waits, once the runner was refused or must wait
    followup_notified: float | None = None  # its "parked" message left (once per follow-up)
    # A follow-up counted and being typed (its text, and when it was counted): cleared once
    # it is typed or refused. A runner killed in between leaves it; the next runner lets the
    # agent's screen say whether the text arrived (steps.py: _step_cut_followup).
    followup_typing: str | None = None
    followup_typing_at: float | None = None
    # paw typed the follow-up but never saw it arrive in the agent's input (no Enter pressed;
    # it may still show up late): never typed again, no check run, until the agent is seen
    # working (a human pressed Enter, or it took the text); a human is told once
    followup_unconfirmed: bool = False
    # its agent's usage as last read (tokens; dollars where the agent states them), read only
    # for a task with a token or dollar budget
    used_tokens: int | None = None
    used_usd: float | None = None
    budget_warned: bool = False  # its 80 % message left
    # why it is parked over its token or dollar budget (paw types nothing more to its agent,
    # runs no check; the agent is left running); None while within it
    budget_parked: str | None = None
    checks: list[CheckRun] = Field(default_factory=list)
    prompts: list[PromptState] = Field(default_factory=list)
    commits: int = 0
    insertions: int = 0
    deletions: int = 0
    uncommitted: int = 0  # changed tracked files not committed (in the diff stat too)
    untracked: int = 0  # new files not added (no diff line counts them)
    checking_since: float | None = None  # a check runs since (the runner's own check thread)
    # From the wave file, so that readers of the state (the TUI) need not parse it:
    kind: str | None = None  # agent kind
    budget_s: float | None = None  # wall-clock budget (task's, else the wave's task_budget_s)
    check: str | None = None  # the check command
    retries: int | None = None  # follow-ups allowed after a failing check

    def prompt(self, prompt_id: str) -> PromptState | None:
        """The latest occurrence of ``prompt_id``."""
        found = [p for p in self.prompts if p.id == prompt_id]
        return found[-1] if found else None


class WaveState(_State):
    """The runner's whole state: enough to resume after ``kill -9``."""

    name: str
    file: str
    sha256: str
    started_at: float
    ended_at: float | None = None
    status: str = "running"  # running, done, failed, stopped
    over_budget: bool = False
    spend_warned: bool = False  # the wave's 80 % message (tokens or dollars) left
    budget_s: float | None = None  # the wave's wall-clock budget (from the wave file)
    tasks: list[TaskState]
    messages: list[dict[str, object]] = Field(default_factory=list)
    due: list[DueNote] = Field(default_factory=list)  # decided, not in the outbox yet
    ending: WaveEnd | None = None  # the end decided, its state not yet written (see WaveEnd)

    def task(self, name: str) -> TaskState:
        """The state of task ``name``."""
        return next(t for t in self.tasks if t.name == name)


def initial_state(wave: WaveFile, file: str, sha256: str, now: float) -> WaveState:
    """A fresh state: every task pending."""
    tasks = [TaskState(name=t.name, agent=agent_name(wave.name, t.name)) for t in wave.tasks]
    state = WaveState(name=wave.name, file=file, sha256=sha256, started_at=now, tasks=tasks)
    describe(wave, state)
    return state


def describe(wave: WaveFile, state: WaveState) -> None:
    """Copy what readers of the state need from the wave file into ``state`` (budgets, kinds,
    checks, retries), so that a state written before these fields existed gets them too."""
    state.budget_s = wave.budget_s
    for task in state.tasks:
        spec = wave.task(task.name)
        task.kind = spec.agent or wave.agent
        task.budget_s = spec.budget_s or wave.task_budget_s
        task.check = spec.check
        task.retries = spec.retries
