"""The wave file (TOML): its schema, the checks that span several keys, its digest (pure)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from paw.core.land_settings import LandSettings
from paw.core.names import MAX_NAME_LENGTH, name_problem
from paw.core.notify_settings import NotifySettings
from paw.core.problems import COLLECT, Loc, key_text

if TYPE_CHECKING:
    from collections.abc import Mapping


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

    budget_tokens: int | None = Field(default=None, gt=0)
    """Tokens this task's agent may use, as its own records count them (default: the wave's
    ``task_budget_tokens``): at 80 % a message, at 100 % the task is parked (never killed)."""

    budget_usd: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    """Dollars this task's agent may spend, where the agent states a cost (default: the
    wave's ``task_budget_usd``); like ``budget_tokens``."""

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

    budget_tokens: int | None = Field(default=None, gt=0)
    """Tokens the whole wave's agents may use together (their own records' counts): at 80 %
    a message; at 100 % no new task starts and every running task is parked (never killed)."""

    budget_usd: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    """Dollars the whole wave may spend, where the agents state a cost; like
    ``budget_tokens``."""

    task_budget_tokens: int | None = Field(default=None, gt=0)
    """Default token budget of each task (see the task's ``budget_tokens``)."""

    task_budget_usd: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    """Default dollar budget of each task (see the task's ``budget_usd``)."""

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
