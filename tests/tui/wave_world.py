"""A wave for the TUI's fake-supervisor tests, its state made by the wave core (the wave view's
snapshots are of the real runner's wave: tests/tui/snapshot_world.py).

The state is not hand-written: :func:`wave_state` drives :mod:`paw.core.wave`'s own decisions
(``initial_state``, ``step_task``, ``after_check``) over what each task's agent showed, on the
fake supervisor's fixed clock, so what the TUI reads is what a runner would have written. The
fake supervisor shows the same agents with the same prompt ids.
"""

from __future__ import annotations

import json
from pathlib import Path

from paw.core.wave import (
    CheckRun,
    Phase,
    SeenPrompt,
    TaskView,
    WaveFile,
    WaveState,
    after_check,
    initial_state,
    step_task,
)
from paw.supervisor.model import AgentStatus
from tests.tui.fake_supervisor import BLOCK, CONFIRM, T0, FakeAgent, FakeSupervisor

WAVE = WaveFile.model_validate(
    {
        "name": "night",
        "agent": "claude-code",
        "budget_s": 28800,
        "task_budget_s": 7200,
        "stuck_after_s": 900,
        "settle_s": 10,
        "tasks": [
            {"name": "api", "task": "Add the health endpoint.", "check": "pytest -q"},
            {"name": "push", "task": "Publish the fix.", "check": "true", "retries": 2},
            {"name": "tests", "task": "Fix the flaky test.", "check": "pytest -q", "retries": 2},
            {"name": "docs", "task": "Document the API.", "agent": "codex"},
            {"name": "clean", "task": "Remove the build tree.", "agent": "codex"},
            {"name": "lint", "task": "Fix lint.", "check": "ruff check ."},
            {"name": "later", "task": "Runs after docs.", "depends_on": ["docs"]},
        ],
    }
)

# The fake agents of the wave's tasks: two show prompts a human must decide.
AGENTS = [
    FakeAgent("night-push", "claude-code", "git_push_120x40", AgentStatus.PROMPT, CONFIRM, age=95),
    FakeAgent("night-clean", "codex", "shell_rm_sudo_120x40", AgentStatus.PROMPT, BLOCK, age=40),
    FakeAgent("night-api", "claude-code", "busy_thinking_120x40", AgentStatus.BUSY, age=30),
    FakeAgent("night-tests", "claude-code", "idle_120x40", AgentStatus.IDLE, age=60),
    FakeAgent("night-docs", "codex", "idle_120x40", AgentStatus.IDLE, age=1200),
    FakeAgent("night-lint", "claude-code", "done_120x40", AgentStatus.IDLE, age=300),
]


def wave_supervisor() -> FakeSupervisor:
    """The fake supervisor showing the wave's agents (the two prompts live)."""
    return FakeSupervisor(list(AGENTS))


def _view(status: str, screen: str, prompts: tuple[SeenPrompt, ...] = ()) -> TaskView:
    return TaskView(status, screen, 0, 0, 0, 0, prompts, worktree="/repo/.paw/worktrees/x")


def wave_state(fake: FakeSupervisor, now: float = T0) -> WaveState:
    """The wave an hour in, as the core decided it: two prompts parked (a confirm and a block),
    one task checking, one stuck, one failed its check and got a follow-up, one done, one
    queued behind a dependency."""
    start = now - 3600
    state = initial_state(WAVE, "/repo/night.toml", "0" * 64, start)

    def step(name: str, view: TaskView, at: float) -> None:
        task = state.task(name)
        result = step_task(WAVE, WAVE.task(name), task, view, at)
        state.tasks = [result.task if t.name == name else t for t in state.tasks]

    def begin(name: str, at: float) -> None:
        task = state.task(name)
        task.phase, task.started_at = Phase.RUNNING, at

    for name in ("api", "push", "tests", "docs", "clean", "lint"):
        begin(name, start + 5)
    seen = {p.agent: p for p in fake.prompts.values()}
    for agent, task in (("night-push", "push"), ("night-clean", "clean")):
        live = seen[agent]
        prompt = SeenPrompt(
            live.id, live.prompt.kind.value, live.prompt.subject, live.prompt.question,
            live.verdict.action, live.verdict.reasons, approvable=True,
            first_seen=live.first_seen,
        )  # fmt: skip
        step(task, _view("prompt", "", (prompt,)), live.first_seen)
    step("api", _view("busy", "a"), now - 30)
    step("docs", _view("idle", "d"), now - 1200)  # idle since: stuck after 900 s
    step("docs", _view("idle", "d"), now - 10)
    # tests: its check failed once and went back to the agent; it works on it now.
    run = CheckRun(at=now - 900, exit_code=1, tail="FAILED test_login", duration_s=12.0)
    updated, _ = after_check(WAVE.task("tests"), state.task("tests"), run, now - 888)
    updated.followups = 1
    state.tasks = [updated if t.name == "tests" else t for t in state.tasks]
    step("tests", _view("busy", "t"), now - 60)
    state.task("tests").checking_since = now - 20  # its next check runs now
    ok = CheckRun(at=now - 400, exit_code=0, tail="All checks passed!", duration_s=3.0)
    updated, _ = after_check(WAVE.task("lint"), state.task("lint"), ok, now - 300)
    state.tasks = [updated if t.name == "lint" else t for t in state.tasks]
    return state


def write_wave(directory: Path, state: WaveState) -> Path:
    """Write ``state`` where the runner would: ``<directory>/<name>.json``."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{state.name}.json"
    path.write_text(json.dumps(state.model_dump(mode="json")))
    return path
