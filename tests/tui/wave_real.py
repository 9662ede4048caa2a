"""A real wave for the TUI's tests: the real runner (`paw wave run`, its own process) over a
private tmux server and a real git repository, with scripted agents."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support.budget import budget
from tests.tui.real_world import wait_for

PAW = [sys.executable, "-m", "paw"]
WAVE_BUDGET_S = budget(90.0)


def _agent(kind: str, *steps: str) -> str:
    command = json.dumps(["{python}", "-m", "paw.demo.agent", *steps])
    return (
        f'[agents.{kind}]\ncommand = {command}\ndetector = "scripted"\ntask_flag = "--task"\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n'
    )


PAW_TOML = "".join(
    (
        _agent("demo-confirm", "busy 0.3", "shell git push origin feature"),
        _agent("demo-block", "busy 0.3", "shell rm -rf /"),
        # an allowed command that a human must still approve (no standing rule), then another
        _agent("demo-change", "busy 0.3", "shell ls -la", "shell ls -l docs"),
        _agent("demo-quick", "busy 0.3"),
    )
)

WAVE_TOML = """
name = "night"
agent = "demo-quick"
max_parallel = 4
task_budget_s = 3600
budget_s = 7200
poll_s = 0.5
idle_poll_s = 0.5
settle_s = 1

[notify]
bell = false
tmux_badge = false

[[tasks]]
name = "push"
agent = "demo-confirm"
task = "push the branch"
check = "true"

[[tasks]]
name = "wipe"
agent = "demo-block"
task = "clean up"
check = "true"

[[tasks]]
name = "list"
agent = "demo-change"
task = "list the files"
check = "true"

[[tasks]]
name = "quick"
task = "finish at once"
check = "true"
retries = 2
"""

PARKED = ("push", "wipe", "list")


def state(repo: Path) -> dict[str, Any]:
    """The wave's state file, as JSON ({} while it is missing or being replaced)."""
    path = repo / ".paw" / "waves" / "night.json"
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data


def task(repo: Path, name: str) -> dict[str, Any]:
    """One task of the state."""
    return next((t for t in state(repo).get("tasks", []) if t["name"] == name), {})


def parked(repo: Path, name: str) -> dict[str, Any] | None:
    """The live prompt of task ``name`` parked for a human (announced), if any."""
    prompts = task(repo, name).get("prompts", [])
    live = [p for p in prompts if p["live"] and p["route"] == "human" and p["notified_at"]]
    return live[-1] if live else None


def start_runner(repo: Path, socket: str) -> subprocess.Popen[str]:
    """Write paw.toml and the wave file, and start `paw wave run` (the real runner)."""
    (repo / "paw.toml").write_text(PAW_TOML, encoding="utf-8")
    wave = repo.parent / "night.toml"
    wave.write_text(WAVE_TOML, encoding="utf-8")
    return subprocess.Popen(
        [*PAW, "wave", "run", str(wave), "--quiet"], cwd=repo,
        env={**os.environ, "PAW_TMUX_SOCKET": socket}, text=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def wait_until_parked(repo: Path, runner: subprocess.Popen[str]) -> None:
    """Until three prompts are parked and the quick task is done (or the runner died)."""

    def ready() -> bool:
        if runner.poll() is not None:
            raise AssertionError(
                f"the runner ended: {runner.stderr.read() if runner.stderr else ''}"
            )
        done = task(repo, "quick").get("phase") == "done"
        return done and all(parked(repo, name) for name in PARKED)

    assert wait_for(ready, WAVE_BUDGET_S, 0.2), json.dumps(state(repo), indent=1)[:3000]


def kill_runner(runner: subprocess.Popen[str]) -> None:
    """kill -9 the runner (a crash), and reap it."""
    if runner.poll() is None:
        runner.send_signal(signal.SIGKILL)
    runner.wait(30)
