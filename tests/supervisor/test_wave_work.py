"""A one-task wave on real tmux and git, notifications through real apprise to a local receiver
(issue 30): the report counts work not committed (a new file adds no diff line), messages name
the repository, a failure is sent as apprise's `failure` type, and counts read as English."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.budget import budget
from tests.support.receiver import Receiver

if TYPE_CHECKING:
    from collections.abc import Iterator

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git, pytest.mark.timeout(300)]

PAW = [sys.executable, "-m", "paw"]

PAW_TOML = """
[agents.demo-touch]
command = ["{python}", "-m", "paw.demo.agent", "busy 0.3", "shell touch new.txt"]
detector = "scripted"
task_flag = "--task"
match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }
"""


def wave_toml(url: str) -> str:
    return f"""
name = "eve"
agent = "demo-touch"
poll_s = 0.5
settle_s = 1

[notify]
urls = ["{url}"]
bell = false
tmux_badge = false

[[rules]]
kind = "shell"
subject = "touch *"

[[tasks]]
name = "touch"
task = "make a file"
check = "false"
retries = 1
"""


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    yield found
    found.close()


def _paw(
    repo: Path, socket: str, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PAW, *args], cwd=repo, env={**os.environ, "PAW_TMUX_SOCKET": socket},
        capture_output=True, text=True, check=False, timeout=timeout,
    )  # fmt: skip


def test_a_wave_counts_untracked_work_names_the_repo_and_sends_failures_as_failures(
    git_repo: Path, server: Server, receiver: Receiver
) -> None:
    assert server.socket_name is not None
    socket = server.socket_name
    (git_repo / "paw.toml").write_text(PAW_TOML, encoding="utf-8")
    wave_file = git_repo.parent / "eve.toml"
    wave_file.write_text(wave_toml(receiver.url), encoding="utf-8")
    ran = _paw(git_repo, socket, "wave", "run", str(wave_file), "--quiet", timeout=budget(180))
    assert ran.returncode == 1, ran.stdout + ran.stderr  # the check never passes

    report = json.loads(_paw(git_repo, socket, "wave", "report", "--json").stdout)
    [task] = report["tasks"]
    assert (task["status"], task["commits"], task["diffstat"]) == ("failed", 0, "+0 -0")
    assert (task["uncommitted"], task["untracked"]) == (0, 1)
    assert task["outcome"] == "check failed (exit 1) after 1 follow-up"
    markdown = _paw(git_repo, socket, "wave", "report").stdout
    assert "| 1 | 0 | +0 -0 (1 untracked) | exit 1 (2 runs) |" in markdown

    def arrived(messages: list[dict[str, Any]]) -> bool:
        return any("wave-failed" in str(m) or ": failed (" in str(m.get("title")) for m in messages)

    assert receiver.wait(arrived, budget(30)), receiver.titles()
    by_title = {str(m["title"]): m for m in receiver.messages}
    name = git_repo.name
    task_failed = by_title[
        f"paw wave eve ({name}): touch failed: check failed (exit 1) after 1 follow-up"
    ]
    assert task_failed["type"] == "failure"
    assert f"repo: {git_repo}" in task_failed["message"]
    wave_failed = next(
        m for t, m in by_title.items() if t.startswith(f"paw wave eve ({name}): failed (")
    )
    assert wave_failed["type"] == "failure"
    assert all(str(t).startswith(f"paw wave eve ({name}): ") for t in by_title)
