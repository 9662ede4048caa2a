"""Helpers of the identity, occurrence and task tests: a repository under paw on a private tmux
server, the paw CLI run as a separate process (as a user or a script would run it), the
scripted agent's record of the keys it received, paw's audit log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import pytest

from paw.cli.compose import build_supervisor
from paw.supervisor.model import LivePrompt

if TYPE_CHECKING:
    from libtmux.server import Server

PAW = Path(sys.executable).parent / "paw"
BUDGET_S = 30.0  # a loaded two-core box: generous, and only ever the upper bound of a wait


class Env(NamedTuple):
    """A repository whose paw talks to a private tmux server."""

    repo: Path
    record: Path  # what the scripted agent received (one JSON line per answer)
    socket: str
    tmp: Path


def make_env(
    git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Env:
    """The repository, with ``PAW_TMUX_SOCKET`` naming the test's private server (each test
    module wraps this in its ``env`` fixture)."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    monkeypatch.chdir(git_repo)
    return Env(git_repo, tmp_path / "record.jsonl", server.socket_name, tmp_path)


def configure(env: Env, *steps: str, command: list[str] | None = None) -> None:
    """Make the scripted agent run ``steps`` (or ``command``) and record what it receives."""
    script = env.tmp / "steps.txt"
    script.write_text("\n".join(steps) + "\n", encoding="utf-8")
    argv = command or ["{python}", "-m", "paw.demo.agent", "--script", str(script)]
    (env.repo / "paw.toml").write_text(
        f"[agents.scripted]\ncommand = {json.dumps(argv)}\n"
        f'env = {{ PAW_DEMO_RECORD = "{env.record}" }}\n',
        encoding="utf-8",
    )


def agent_argv(env: Env) -> list[str]:
    """The scripted agent's own command line for the steps of :func:`configure` (recording
    what it receives, as the configured agent does)."""
    script = str(env.tmp / "steps.txt")
    return ["env", f"PAW_DEMO_RECORD={env.record}", sys.executable, "-m", "paw.demo.agent",
            "--script", script]  # fmt: skip


def paw(*args: str, extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the paw CLI as its own process (in the current directory)."""
    return subprocess.run(
        [str(PAW), *args], capture_output=True, text=True, check=False,
        env={**os.environ, **(extra_env or {})}, timeout=BUDGET_S * 2,
    )  # fmt: skip


def wait_for(check: Callable[[], bool], timeout: float = BUDGET_S) -> bool:
    """Poll ``check`` until true or ``timeout`` passes (never a fixed sleep)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return check()


def live_prompts(env: Env) -> list[LivePrompt]:
    """One sweep by a fresh supervisor (as `paw prompts` would do)."""
    return list(build_supervisor(str(env.repo)).poll_once().prompts)


def wait_prompt(env: Env, subject: str, *, other_than: set[str] | None = None) -> LivePrompt:
    """Sweep until a live prompt about ``subject`` (with an id not in ``other_than``) shows."""
    found: list[LivePrompt] = []

    def shows() -> bool:
        found[:] = [
            p for p in live_prompts(env)
            if p.prompt.subject == subject and p.id not in (other_than or set())
        ]  # fmt: skip
        return bool(found)

    assert wait_for(shows), f"no prompt about {subject!r}"
    return found[0]


def answers(env: Env) -> list[dict[str, object]]:
    """What the scripted agent received (its record file)."""
    if not env.record.exists():
        return []
    return [json.loads(line) for line in env.record.read_text(encoding="utf-8").splitlines()]


def audit(env: Env) -> list[dict[str, object]]:
    """paw's audit records, oldest first."""
    path = env.repo / ".paw" / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def events(env: Env, event: str, **match: object) -> list[dict[str, object]]:
    """The audit records of ``event`` whose fields equal ``match``."""
    return [
        r for r in audit(env)
        if r.get("event") == event and all(r.get(k) == v for k, v in match.items())
    ]  # fmt: skip


def tmux(env: Env, *args: str) -> subprocess.CompletedProcess[str]:
    """A tmux command on the test's server, straight (not through paw)."""
    return subprocess.run(
        ["tmux", "-L", env.socket, *args], capture_output=True, text=True, check=False
    )


def screen(env: Env, pane_id: str) -> str:
    """The pane's visible text."""
    return tmux(env, "capture-pane", "-p", "-t", pane_id).stdout


def pane_exists(env: Env, pane_id: str) -> bool:
    """True when the server lists ``pane_id``."""
    return pane_id in tmux(env, "list-panes", "-a", "-F", "#{pane_id}").stdout.split()


def stats(env: Env) -> dict[str, dict[str, int]]:
    """`paw stats --json`: counts per agent and "all"."""
    del env  # the current directory is the repository
    done = paw("stats", "--json")
    assert done.returncode == 0, done.stderr
    data: dict[str, dict[str, int]] = json.loads(done.stdout)["stats"]
    return data


def listed(command: str) -> list[dict[str, Any]]:
    """The items of `paw prompts --json` or `paw ls --json` (one JSON object per command)."""
    done = paw(command, "--json")
    key = {"prompts": "prompts", "ls": "agents"}[command]
    items: list[dict[str, Any]] = json.loads(done.stdout)[key]
    return items
