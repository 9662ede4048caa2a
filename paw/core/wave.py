"""Unattended waves: the wave-file schema and every decision the wave runner makes (pure).

A wave is a batch of tasks, each an agent in its own worktree. The runner observes each task's
agent, and this module decides what happens next: start a task, run its check, send the check's
failure back as a follow-up, approve a prompt by a standing rule, park a prompt for a human,
escalate a stuck agent, finish the task. Nothing here touches tmux, git or the clock: the
runner passes ``now`` and what it saw, and carries out the effects (recording each first).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from paw.core.detect.screen import strip_ansi
from paw.core.land_settings import LandSettings
from paw.core.models import Action, PromptKind
from paw.core.names import MAX_NAME_LENGTH, name_problem
from paw.core.notify_settings import NotifySettings as NotifySettings  # noqa: PLC0414 - re-export
from paw.core.printable import printable_line
from paw.core.problems import COLLECT, Loc, key_text

if TYPE_CHECKING:
    from collections.abc import Mapping

# -- the wave file -----------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


RULE_KINDS = ("shell", "edit", "write", "fetch", "mcp")
MIN_POLL_S = 0.1
MAX_POLL_S = 3600.0


def _ref(value: str | None) -> str | None:
    """A base ref git will read as a ref, never as an option (``--orphan=x``)."""
    if value is not None and (not value.strip() or value.startswith("-")):
        raise ValueError(f"{value!r} is not a ref (a branch, tag or commit; not an option)")
    return value


class WaveRule(_Strict):
    """A standing rule: approve prompts of ``kind`` whose subject matches ``subject``."""

    kind: Literal["shell", "edit", "write", "fetch", "mcp"]
    """The prompt kind it applies to."""

    subject: str = Field(min_length=1)
    """A glob over the prompt's subject. For ``edit``/``write``: a path relative to the task's
    worktree, ``*`` within one directory, ``**`` across directories. For ``shell``, ``fetch`` and
    ``mcp``: ``*`` matches anything; a shell command with control syntax (``;``, ``|``, ``&``,
    ``$(``, backticks, redirections, newlines) only matches a pattern that spells it out."""


class WaveTask(_Strict):
    """One task of the wave: one agent, one worktree, one branch."""

    name: str
    """The task's name; its agent is ``<wave>-<task>`` (letters, digits, ``-``, ``_``)."""

    agent: str | None = None
    """Agent kind (``claude-code``, ``codex``, a custom kind of paw.toml…); default: the wave's."""

    task: str | None = None
    """The task text given to the agent."""

    task_file: str | None = None
    """A file (relative to the wave file, inside its folder) holding the task text, instead of
    ``task``."""

    check: str | None = None
    """The definition of done: a shell command run by paw in the task's worktree once the agent
    is idle; exit 0 is done. Without it, idle after at least one commit is done."""

    retries: int = Field(default=1, ge=0)
    """How many times a failing check's output tail goes back to the agent as a follow-up."""

    depends_on: tuple[str, ...] = ()
    """Tasks that must be done before this one starts (a failed dependency fails it)."""

    budget_s: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    """Wall-clock budget of this task in seconds (default: the wave's ``task_budget_s``)."""

    base: str | None = None
    """Base ref of this task's branch (default: the wave's ``base``)."""

    @field_validator("base")
    @classmethod
    def _check_base(cls, value: str | None) -> str | None:
        return _ref(value)

    @field_validator("task_file")
    @classmethod
    def _check_task_file(cls, value: str | None) -> str | None:
        if value is not None:
            parts = value.replace("\\", "/").split("/")
            if not value.strip() or value.startswith(("/", "~")) or ".." in parts:
                raise ValueError(
                    f"{value!r} must be a path relative to the wave file, inside its folder"
                )
        return value

    @model_validator(mode="after")
    def _one_task_text(self) -> WaveTask:
        if self.task is not None and self.task_file is not None:
            raise ValueError("give either `task` or `task_file`, not both")
        return self


class WaveFile(_Strict):
    """The whole wave file (TOML)."""

    name: str
    """The wave's name (``.paw/waves/<name>.json`` holds its state)."""

    base: str = "HEAD"
    """Base ref for every task's branch."""

    agent: str = "claude-code"
    """Default agent kind for tasks that do not name one."""

    max_parallel: int = Field(default=4, ge=1)
    """How many tasks run at once."""

    budget_s: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    """Wall-clock budget of the whole wave in seconds; over it, no new task starts and a
    message says so (running agents are left alone)."""

    task_budget_s: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    """Default wall-clock budget of each task in seconds; over it the task fails (its agent is
    left running, its work kept)."""

    stuck_after_s: float = Field(default=900.0, gt=0, allow_inf_nan=False)
    """An agent that is not busy and whose screen, worktree and commits have not changed for
    this long is stuck: escalated, never killed or nudged."""

    check_timeout_s: float = Field(default=1800.0, gt=0, allow_inf_nan=False)
    """A check running longer than this fails."""

    done_without_check: Literal["commit", "idle"] = "commit"
    """For tasks without ``check``: done when idle after at least one commit (``commit``), or
    as soon as the agent is idle after it started working (``idle``)."""

    settle_s: float = Field(default=10.0, ge=0, allow_inf_nan=False)
    """An agent never seen working (busy or at a prompt) counts as having finished its turn
    only after showing the same idle screen this long (an agent starting up shows its idle
    input before it begins; a fast one may finish between two sweeps)."""

    poll_s: float = Field(default=1.0, ge=MIN_POLL_S, le=MAX_POLL_S, allow_inf_nan=False)
    """Seconds between the runner's sweeps while something happens (0.1 to 3600: a shorter
    pause would make the runner a busy loop)."""

    idle_poll_s: float = Field(default=5.0, ge=MIN_POLL_S, le=MAX_POLL_S, allow_inf_nan=False)
    """Seconds between sweeps after a sweep that changed nothing (every agent busy, parked or
    quiet): a new prompt is then seen within this long; its message leaves at once."""

    notify: NotifySettings | None = None
    """Escalation channels for this wave (replaces ``[notify]`` of paw.toml)."""

    rules: tuple[WaveRule, ...] = ()
    """Standing rules, numbered from 1 in audit records. Only prompts whose guard verdict is
    ``allow`` can match; ``confirm`` and ``block`` always go to a human."""

    tasks: tuple[WaveTask, ...] = Field(min_length=1)
    """The tasks."""

    land_check: str | None = None
    """A shell command ``paw wave land`` runs on each task's work once it is on top of the
    base (e.g. the whole test suite), besides the task's own ``check``."""

    land: LandSettings = LandSettings()
    """How ``paw wave land`` lands the done tasks (``[land]``)."""

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        problem = name_problem(value)
        if problem is not None:
            raise ValueError(problem.replace("agent name", "wave name"))
        return value

    @field_validator("base")
    @classmethod
    def _check_base(cls, value: str) -> str:
        return _ref(value) or value

    @model_validator(mode="after")
    def _check_tasks(self, info: ValidationInfo) -> WaveFile:
        if isinstance(info.context, dict) and info.context.get(COLLECT):
            return self  # the checker reports each of these at its own key
        issues = wave_issues(self.model_dump(exclude_none=True))
        if issues:
            loc, message = issues[0]
            raise ValueError(f"{key_text(loc)}: {message}")
        return self

    def task(self, name: str) -> WaveTask:
        """The task called ``name``."""
        return next(t for t in self.tasks if t.name == name)


def agent_name(wave: str, task: str) -> str:
    """The paw agent running ``task`` of ``wave``."""
    return f"{wave}-{task}"


def _cycle(deps: dict[str, tuple[str, ...]]) -> list[str]:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in deps.get(node, ()):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return []

    for node in deps:
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def wave_issues(raw: Mapping[str, object]) -> list[tuple[Loc, str]]:
    """Every problem spanning several keys of a wave file's data, each at its key (pure).

    Reads the TOML data as parsed, before or without the schema: values of the wrong type are
    skipped here (the schema reports them), so one run of ``paw wave check`` names task names
    too long for the wave's name, duplicate names, unknown or circular ``depends_on`` and tasks
    without text, together with the schema's own problems.
    """
    name = raw.get("name")
    wave = name if isinstance(name, str) and name_problem(name) is None else None
    listed = raw.get("tasks")
    entries = [
        (i, t) for i, t in enumerate(listed if isinstance(listed, list | tuple) else [])
        if isinstance(t, dict)
    ]  # fmt: skip
    names = {i: t["name"] for i, t in entries if isinstance(t.get("name"), str)}
    issues: list[tuple[Loc, str]] = []
    first: dict[str, int] = {}
    for i, task in names.items():
        problem = name_problem(agent_name(wave, task)) if wave is not None else None
        if problem is not None:
            room = MAX_NAME_LENGTH - len(wave or "") - 1
            issues.append((("tasks", i, "name"), f"{problem} (wave + task names: {room} left)"))
        if task in first:
            issues.append(
                (("tasks", i, "name"), f"{task!r} is already the name of task {first[task] + 1}")
            )
        first.setdefault(task, i)
    deps: dict[str, tuple[str, ...]] = {}
    for i, task_data in entries:
        depends = task_data.get("depends_on", ())
        wanted = (
            tuple(d for d in depends if isinstance(d, str))
            if isinstance(depends, list | tuple)
            else ()
        )
        unknown = [d for d in wanted if d not in first]
        if unknown:
            issues.append(
                (("tasks", i, "depends_on"), f"unknown task {', '.join(map(repr, unknown))}")
            )
        if i in names and first.get(names[i]) == i:
            deps[names[i]] = tuple(d for d in wanted if d in first)
        if "task" not in task_data and "task_file" not in task_data:
            issues.append((("tasks", i), "needs `task` or `task_file`"))
    cycle = _cycle(deps)
    if cycle:
        issues.append((("tasks", first[cycle[0]], "depends_on"), f"a cycle: {' -> '.join(cycle)}"))
    return sorted(issues, key=lambda issue: issue[0][1] if len(issue[0]) > 1 else -1)


def file_digest(data: bytes) -> str:
    """The sha256 of a wave file's bytes (standing-rule approvals name it)."""
    return hashlib.sha256(data).hexdigest()


# -- persisted state ---------------------------------------------------------------------------


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
    budget_s: float | None = None  # the wave's wall-clock budget (from the wave file)
    tasks: list[TaskState]
    messages: list[dict[str, object]] = Field(default_factory=list)

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


@dataclass(frozen=True, slots=True)
class CheckResult:
    """What running a check produced."""

    exit_code: int
    output: str
    duration_s: float


# -- what the runner sees ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeenPrompt:
    """A live prompt of a task's agent with the guard's verdict."""

    id: str
    kind: str
    subject: str | None
    question: str
    verdict: Action
    reasons: tuple[str, ...]
    approvable: bool  # a tool permission with approve keys (not a dialog: Prompt.needs_human)
    first_seen: float


@dataclass(frozen=True, slots=True)
class TaskView:
    """A running task's agent as one sweep saw it."""

    status: str  # busy, prompt, idle, unknown, exited
    screen: str  # a hash of the visible screen ("" when not captured)
    commits: int
    insertions: int
    deletions: int
    dirty: int  # uncommitted + untracked
    prompts: tuple[SeenPrompt, ...] = ()
    worktree: str = ""
    uncommitted: int = 0
    untracked: int = 0


# -- effects -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Spawn:
    """Start a task's agent."""

    task: str


@dataclass(frozen=True, slots=True)
class RunCheck:
    """Run a task's check in its worktree."""

    task: str


@dataclass(frozen=True, slots=True)
class FollowUp:
    """Type the check's failure back to the agent."""

    task: str
    text: str


@dataclass(frozen=True, slots=True)
class ApproveByRule:
    """Approve a prompt through the normal approval path, citing a standing rule."""

    task: str
    prompt_id: str
    rule: int


@dataclass(frozen=True, slots=True)
class Notify:
    """Tell a human: ``event`` is parked, reminder, answered, stuck, task-failed, wave-done…"""

    event: str
    task: str | None
    prompt_id: str | None = None


Effect = Spawn | RunCheck | FollowUp | ApproveByRule | Notify


# -- decisions ---------------------------------------------------------------------------------


HUMAN_ONLY_KINDS = frozenset({PromptKind.TRUST.value, PromptKind.QUESTION.value, "other"})


def needs_human_dialog(kind: str, approvable: bool) -> bool:
    """True for a dialog only a human can answer: not a plain tool permission.

    This is the seam for a distinct ``waiting`` detection state: such screens are parked and
    escalated like prompts, but never matched by standing rules nor approved by a generic key.
    """
    return kind in HUMAN_ONLY_KINDS or not approvable


def route(prompt: SeenPrompt, rules: tuple[WaveRule, ...], worktree: str) -> tuple[str, str, int]:
    """Where a prompt goes: ``("rule", why, N)`` or ``("human", why, 0)``."""
    if needs_human_dialog(prompt.kind, prompt.approvable):
        return "human", "a dialog only a human can answer", 0
    if prompt.verdict is not Action.ALLOW:
        return "human", f"guard verdict is {prompt.verdict.value}", 0
    for number, rule in enumerate(rules, 1):
        if rule_matches(rule, prompt.kind, prompt.subject, worktree):
            return "rule", f"matches rule {number} ({rule.kind} {rule.subject})", number
    if not rules:
        return "human", "no standing rules: every prompt waits for a human", 0
    return "human", "no standing rule matches", 0


_SHELL_CONTROL = re.compile(r"[;|&`<>\n\r]|\$\(")


def rule_matches(rule: WaveRule, kind: str, subject: str | None, worktree: str) -> bool:
    """True when ``rule`` covers a ``kind`` prompt about ``subject`` (pure, fails closed)."""
    if rule.kind != kind or not subject:
        return False
    if kind in ("edit", "write"):
        path = _relative(subject, worktree)
        if path is None:
            return False
        return _glob(rule.subject, path, path_mode=True)
    if (
        kind == "shell"
        and _SHELL_CONTROL.search(subject)
        and not _SHELL_CONTROL.search(rule.subject)
    ):
        return False
    return _glob(rule.subject, subject, path_mode=False)


def _relative(subject: str, worktree: str) -> str | None:
    path = subject.strip()
    root = worktree.rstrip("/")
    if root and path.startswith(root + "/"):
        path = path[len(root) + 1 :]
    elif path.startswith(("/", "~")):
        return None
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


def _glob(pattern: str, text: str, *, path_mode: bool) -> bool:
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i) and path_mode:
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*" if path_mode else ".*")
        elif c == "?":
            out.append("[^/]" if path_mode else ".")
        else:
            out.append(re.escape(c))
        i += 1
    return re.fullmatch("".join(out), text, flags=re.DOTALL) is not None


def ready_to_start(
    wave: WaveFile, state: WaveState, now: float
) -> tuple[list[str], list[tuple[str, str]]]:
    """Tasks to start now (up to ``max_parallel``), and tasks that can never start (with why)."""
    phases = {t.name: t.phase for t in state.tasks}
    active = sum(1 for p in phases.values() if p in (Phase.STARTING, Phase.RUNNING))
    start: list[str] = []
    never: list[tuple[str, str]] = []
    over = _wave_over_budget(wave, state, now)
    for spec in wave.tasks:
        if phases[spec.name] is not Phase.PENDING:
            continue
        failed = [d for d in spec.depends_on if phases[d] is Phase.FAILED]
        if failed:
            never.append((spec.name, f"dependency failed: {', '.join(failed)}"))
            continue
        if over:
            never.append((spec.name, "not started: the wave ran over its budget"))
            continue
        if any(phases[d] is not Phase.DONE for d in spec.depends_on):
            continue
        if active + len(start) < wave.max_parallel:
            start.append(spec.name)
    return start, never


def _wave_over_budget(wave: WaveFile, state: WaveState, now: float) -> bool:
    return wave.budget_s is not None and now - state.started_at > wave.budget_s


def wave_over_budget(wave: WaveFile, state: WaveState, now: float) -> bool:
    """True once the wave's wall-clock budget is spent."""
    return _wave_over_budget(wave, state, now)


def signature(view: TaskView) -> str:
    """What "unchanged" means for stuck: screen, worktree and commits."""
    parts = (view.screen, view.commits, view.insertions, view.deletions, view.dirty)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Step:
    """One decision for one running task."""

    task: TaskState
    effects: tuple[Effect, ...]


def step_task(wave: WaveFile, spec: WaveTask, task: TaskState, view: TaskView, now: float) -> Step:
    """Decide what a running task needs after one sweep (pure; ``task`` is not modified).

    Order: prompts first (each occurrence routed once, edge-triggered), then budget, then
    done/check/follow-up when idle, then stuck. Never kills or nudges an agent.
    """
    t = task.model_copy(deep=True)
    effects: list[Effect] = []
    t.commits, t.insertions, t.deletions = view.commits, view.insertions, view.deletions
    t.uncommitted, t.untracked = view.uncommitted, view.untracked
    sig = signature(view)
    if sig != t.last_signature:
        t.last_signature, t.last_change = sig, now
        if t.stuck:
            t.stuck = False
    if view.status in ("busy", "prompt"):
        t.seen_working = True
    effects += _step_prompts(wave, t, view, now)
    effects += _step_dialog(t, view, now)
    budget = spec.budget_s or wave.task_budget_s
    if budget is not None and t.started_at is not None and now - t.started_at > budget:
        _finish(t, Phase.FAILED, f"over its budget of {budget:g}s", now)
        return Step(t, (*effects, Notify("task-failed", t.name)))
    if view.status == "exited":
        _finish(t, Phase.FAILED, "the agent exited", now)
        return Step(t, (*effects, Notify("task-failed", t.name)))
    if t.followup_text is not None:
        effects += _step_followup(t, view, now)
        effects += _step_stuck(wave, t, view, now)
        return Step(t, tuple(effects))
    if view.status == "idle" and _turn_over(wave, t, view, now):
        if spec.check is not None:
            return Step(t, (*effects, RunCheck(t.name)))
        if wave.done_without_check == "idle" or view.commits > 0:
            _finish(t, Phase.DONE, "idle" if view.commits == 0 else "idle after a commit", now)
            return Step(t, (*effects, Notify("task-done", t.name)))
    effects += _step_stuck(wave, t, view, now)
    return Step(t, tuple(effects))


def step_checking(wave: WaveFile, task: TaskState, view: TaskView, now: float) -> Step:
    """A task whose check runs: its prompts and dialogs are parked and announced at once (a
    prompt shown while the check runs waits for a human like any other); nothing else is
    decided until the check's result is in (pure; ``task`` is not modified)."""
    t = task.model_copy(deep=True)
    effects = [*_step_prompts(wave, t, view, now), *_step_dialog(t, view, now)]
    return Step(t, tuple(effects))


def _step_followup(t: TaskState, view: TaskView, now: float) -> list[Effect]:
    """A follow-up waits for the agent to be idle with no prompt: then it is typed (the
    runner's send proves an empty input again right before typing). A prompt or a dialog is
    announced on its own; a screen paw cannot read is announced here, once."""
    if t.followup_text is None:
        return []
    if view.status == "idle" and not view.prompts:
        return [FollowUp(t.name, t.followup_text)]
    if view.prompts or view.status in ("busy", "prompt", WAITING):
        return []  # the prompt or dialog has its own message; a busy agent goes idle
    return _announce_followup(t, f"the agent's screen is {view.status}", now)


def _announce_followup(t: TaskState, why: str, now: float) -> list[Effect]:
    t.followup_why = why
    if t.followup_notified is not None:
        return []
    t.followup_notified = now
    return [Notify("parked", t.name)]


def followup_refused(task: TaskState, text: str, why: str, now: float) -> Step:
    """The runner's send of a follow-up was refused (the agent is not at an empty input, a
    prompt or dialog came up, paw could not prove the screen): not sent, not counted; it waits
    for a later sweep and a human hears of it once (pure)."""
    t = task.model_copy(deep=True)
    t.followups = max(0, t.followups - 1)
    t.followup_text = text
    t.followup_screen = None
    return Step(t, tuple(_announce_followup(t, f"paw did not type it: {why}", now)))


def _turn_over(wave: WaveFile, t: TaskState, view: TaskView, now: float) -> bool:
    """Idle means "finished its turn" once the agent was seen working, or its idle screen has
    stayed the same for ``settle_s``; after a follow-up the screen must have changed too."""
    if t.followup_screen is not None and view.screen == t.followup_screen:
        return False
    stable = t.last_change is not None and now - t.last_change >= wave.settle_s
    return t.seen_working or stable


def _step_prompts(wave: WaveFile, t: TaskState, view: TaskView, now: float) -> list[Effect]:
    effects: list[Effect] = []
    live_ids = {p.id for p in view.prompts}
    for old in t.prompts:
        if old.live and old.id not in live_ids:
            old.live = False
            if old.answered_at is None:
                old.answered_at = now
                old.answered = old.answered or "answered"
            if old.route == "human" and old.notified_at is not None:
                effects.append(Notify("answered", t.name, old.id))
    for seen in view.prompts:
        current = t.prompt(seen.id)
        if current is not None and current.live:
            effects += _remind(wave, t, current, now)
            continue
        where, why, rule = route(seen, wave.rules, view.worktree)
        state = PromptState(
            id=seen.id, kind=seen.kind, subject=seen.subject, question=seen.question,
            verdict=seen.verdict.value, reasons=list(seen.reasons), first_seen=seen.first_seen,
            route=where, why=why, rule=rule or None,
        )  # fmt: skip
        t.prompts.append(state)
        if where == "rule":
            effects.append(ApproveByRule(t.name, seen.id, rule))
        else:
            effects.append(Notify("parked", t.name, seen.id))
    return effects


def _remind(wave: WaveFile, t: TaskState, p: PromptState, now: float) -> list[Effect]:
    if p.route != "human" or p.notified_at is None:
        return []
    every = notify_settings(wave).remind_every_s
    last = p.last_reminded or p.notified_at
    if now - last >= every:
        return [Notify("reminder", t.name, p.id)]
    return []


WAITING = "waiting"  # a detector state for dialogs only a human can answer (no prompt id)


def _step_dialog(t: TaskState, view: TaskView, now: float) -> list[Effect]:
    """A screen reported as ``waiting`` (a dialog that is not a tool permission, and that the
    detector gives no prompt for) is escalated once per occurrence, like a parked prompt."""
    if view.status != WAITING or view.prompts:
        t.dialog_notified = None
        return []
    if t.dialog_notified is not None:
        return []
    t.dialog_notified = now
    return [Notify("dialog", t.name)]


def _step_stuck(wave: WaveFile, t: TaskState, view: TaskView, now: float) -> list[Effect]:
    if view.status in ("busy", "prompt", WAITING) or t.last_change is None:
        return []
    if now - t.last_change < wave.stuck_after_s:
        return []
    if not t.stuck or t.stuck_notified is None:
        # flagged, then the runner died before the message left (kill -9 between the state
        # write and the send): the resumed runner sends it, so the human still hears of it
        t.stuck = True
        return [Notify("stuck", t.name)]
    every = notify_settings(wave).remind_every_s
    if now - t.stuck_notified >= every:
        return [Notify("stuck-reminder", t.name)]
    return []


def notify_settings(wave: WaveFile, fallback: NotifySettings | None = None) -> NotifySettings:
    """The wave's ``[notify]``, else paw.toml's, else the defaults."""
    return wave.notify or fallback or NotifySettings()


def after_check(
    spec: WaveTask, task: TaskState, run: CheckRun, now: float
) -> tuple[TaskState, tuple[Effect, ...]]:
    """A check finished: done, a follow-up with the failure's tail, or failed (pure)."""
    t = task.model_copy(deep=True)
    t.checks.append(run)
    if run.exit_code == 0:
        _finish(t, Phase.DONE, "check passed", now)
        return t, (Notify("task-done", t.name),)
    if t.followups < spec.retries:
        # Not typed from here: the next sweep types it once the agent is idle at an empty
        # input (a prompt shown while the check ran is answered first).
        t.followup_text = followup_text(spec.check or "", run)
        t.followup_why, t.followup_notified = None, None
        return t, ()
    after = f"{t.followups} follow-up{'' if t.followups == 1 else 's'}"
    _finish(t, Phase.FAILED, f"check failed (exit {run.exit_code}) after {after}", now)
    return t, (Notify("task-failed", t.name),)


FOLLOWUP_TAIL_LINES = 20
FOLLOWUP_MAX_CHARS = 1500


def followup_text(check: str, run: CheckRun) -> str:
    """The follow-up message: the check, its exit code and the tail of its output, on ONE line
    (typing a newline would submit early in most agent UIs). A check's colours are dropped and
    any other control character is shown as an escape: typed text holds none (a control
    character is a key of its own, and paw refuses to type it)."""
    clean = strip_ansi(run.tail)
    lines = [printable_line(ln.strip()) for ln in clean.splitlines() if ln.strip()][
        -FOLLOWUP_TAIL_LINES:
    ]
    tail = " | ".join(lines)[-FOLLOWUP_MAX_CHARS:]
    return (
        f"The check `{check}` failed (exit {run.exit_code}). Output tail: {tail} "
        "-- please fix this and finish your turn when the check passes."
    )


def _finish(t: TaskState, phase: Phase, outcome: str, now: float) -> None:
    t.phase, t.outcome, t.ended_at = phase, outcome, now


def wave_finished(state: WaveState) -> bool:
    """Every task is done or failed."""
    return all(t.phase in FINAL for t in state.tasks)


def tail(text: str, lines: int = 30, chars: int = 4000) -> str:
    """The last ``lines`` lines (at most ``chars`` characters) of ``text``."""
    return "\n".join(text.rstrip().splitlines()[-lines:])[-chars:]
