"""A one-task wave on real tmux and git, notifications through real apprise to a local receiver
(issue 30): the report counts work not committed (a new file adds no diff line), messages name
the repository and the machine (issue 35), a failure is sent as apprise's `failure` type and a
wave over its budget as `warning`, and counts read as English."""

from __future__ import annotations

import json
import os
import signal
import socket as sockets
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

[agents.demo-slow]
command = ["{python}", "-m", "paw.demo.agent", "busy 60"]
detector = "scripted"
task_flag = "--task"
match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }
"""

OVER_TOML = """
name = "late"
agent = "demo-slow"
poll_s = 0.5
settle_s = 1
budget_s = 1
max_parallel = 1

[notify]
urls = ["{url}"]
bell = false
tmux_badge = false

[[tasks]]
name = "first"
task = "take a while"

[[tasks]]
name = "second"
task = "never starts: the wave is over its budget by then"
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
    where = f"{git_repo.name} on {sockets.gethostname()}"  # which machine, read on a phone
    task_failed = by_title[
        f"paw wave eve ({where}): touch failed: check failed (exit 1) after 1 follow-up"
    ]
    assert task_failed["type"] == "failure"
    assert f"repo: {sockets.gethostname()}:{git_repo}\n" in task_failed["message"] + "\n"
    wave_failed = next(
        m for t, m in by_title.items() if t.startswith(f"paw wave eve ({where}): failed (")
    )
    assert wave_failed["type"] == "failure"
    assert all(str(t).startswith(f"paw wave eve ({where}): ") for t in by_title)


def test_a_wave_over_its_budget_is_sent_as_a_warning_naming_repo_and_machine(
    git_repo: Path, server: Server, receiver: Receiver
) -> None:
    """``budget_s`` passes while the first task runs (the second never starts): the message that
    says so goes out through apprise as its `warning` type (not `info`)."""
    assert server.socket_name is not None
    (git_repo / "paw.toml").write_text(PAW_TOML, encoding="utf-8")
    wave_file = git_repo.parent / "late.toml"
    wave_file.write_text(OVER_TOML.format(url=receiver.url), encoding="utf-8")
    runner = subprocess.Popen(
        [*PAW, "wave", "run", str(wave_file), "--quiet"], cwd=git_repo,
        env={**os.environ, "PAW_TMUX_SOCKET": server.socket_name}, text=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_over_budget(git_repo, receiver)
    finally:
        runner.send_signal(signal.SIGTERM)
        try:
            runner.wait(budget(30))
        except subprocess.TimeoutExpired:
            runner.kill()
            runner.wait()


def _wait_over_budget(git_repo: Path, receiver: Receiver) -> None:
    where = f"{git_repo.name} on {sockets.gethostname()}"

    def over(messages: list[dict[str, Any]]) -> bool:
        return any(str(m.get("title")).startswith(f"paw wave late ({where}): over-budget (")
                   for m in messages)  # fmt: skip

    assert receiver.wait(over, budget(120)), receiver.titles()
    [message] = [m for m in receiver.messages if ": over-budget (" in str(m["title"])]
    assert message["type"] == "warning"
    assert f"repo: {sockets.gethostname()}:{git_repo}" in message["message"]
    assert "report: paw wave report late" in message["message"]
