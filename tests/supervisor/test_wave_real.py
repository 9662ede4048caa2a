"""A wave of scripted agents on real tmux and git, its runner killed with -9 and resumed.

Six tasks: a confirm and a block that need a human, a check that fails and passes after the
follow-up, an agent that goes stuck, a question only a human can answer, and a prompt approved
by a standing rule. Notifications go through real apprise to a local HTTP receiver.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.budget import budget
from tests.support.receiver import Receiver

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from libtmux.server import Server

pytestmark = [pytest.mark.tmux, pytest.mark.git, pytest.mark.timeout(300)]

PAW = [sys.executable, "-m", "paw"]
BUDGET_S = budget(90.0)  # generous: a loaded two-core machine (PAW_TEST_SLOW scales it)
WHERE = f"repo on {socket.gethostname()}"  # a message names the repository and the machine


def _agent(kind: str, *steps: str) -> str:
    command = json.dumps(["{python}", "-m", "paw.demo.agent", *steps])
    return (
        f'[agents.{kind}]\ncommand = {command}\ndetector = "scripted"\ntask_flag = "--task"\n'
        f'match = {{ interpreters = ["python"], scripts = ["paw.demo.agent"] }}\n'
    )


PAW_TOML = "".join(
    (
        _agent("demo-confirm", "busy 0.3", "shell git push origin feature"),
        _agent("demo-block", "busy 0.3", "shell rm -rf /"),
        _agent("demo-fix", "busy 0.3"),
        _agent("demo-quiet", "busy 0.3"),
        _agent("demo-rule", "busy 0.3", "shell ls -la"),
        _agent("demo-ask", "busy 0.3", "question Which database?"),
    )
)

FIX_CHECK = (
    "test -f ../fix-attempted || { touch ../fix-attempted; "
    "echo 'FAILED test_add: expected 2, got 1'; exit 1; }"
)


def wave_toml(url: str) -> str:
    """The wave file of this test."""
    return f"""
name = "night"
agent = "demo-rule"
max_parallel = 6
stuck_after_s = 6
poll_s = 0.5
settle_s = 1

[notify]
urls = ["{url}"]
bell = false
tmux_badge = true
remind_every_s = 3600
digest_over = 10

[[rules]]
kind = "shell"
subject = "ls *"

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
name = "fix"
agent = "demo-fix"
task = "fix test_add"
check = "{FIX_CHECK}"
retries = 1

[[tasks]]
name = "quiet"
agent = "demo-quiet"
task = "do nothing"

[[tasks]]
name = "list"
task = "list the files"
check = "true"

[[tasks]]
name = "ask"
agent = "demo-ask"
task = "pick a database"
check = "true"
"""


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local notification receiver."""
    found = Receiver()
    yield found
    found.close()


def _env(socket: str) -> dict[str, str]:
    return {**os.environ, "PAW_TMUX_SOCKET": socket}


def _paw(repo: Path, socket: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PAW, *args], cwd=repo, env=_env(socket), capture_output=True, text=True, check=False,
        timeout=120,
    )  # fmt: skip


def _state(repo: Path) -> dict[str, Any]:
    path = repo / ".paw" / "waves" / "night.json"
    if not path.exists():
        return {}
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return {}
    return data


def _task(state: dict[str, Any], name: str) -> dict[str, Any]:
    return next((t for t in state.get("tasks", []) if t["name"] == name), {})


def _wait(what: str, predicate: Callable[[], bool], timeout: float = BUDGET_S) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for: {what}")


def _parked(repo: Path, task: str) -> dict[str, Any] | None:
    prompts = _task(_state(repo), task).get("prompts", [])
    live = [p for p in prompts if p["live"] and p["route"] == "human" and p["notified_at"]]
    return live[-1] if live else None


def _parked_check(repo: Path, task: str) -> Callable[[], bool]:
    return lambda: _parked(repo, task) is not None


def _done_check(repo: Path, task: str) -> Callable[[], bool]:
    return lambda: _task(_state(repo), task).get("phase") == "done"


def _audit(repo: Path) -> list[dict[str, Any]]:
    lines = (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _runner(repo: Path, socket: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*PAW, "wave", *args, "--quiet"], cwd=repo, env=_env(socket), text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def test_wave_escalates_resumes_after_kill_and_reports(
    git_repo: Path, server: Server, receiver: Receiver
) -> None:
    assert server.socket_name is not None
    socket = server.socket_name
    repo = git_repo
    (repo / "paw.toml").write_text(PAW_TOML, encoding="utf-8")
    wave_file = repo.parent / "night.toml"
    wave_file.write_text(wave_toml(receiver.url), encoding="utf-8")
    checked = _paw(repo, socket, "wave", "check", str(wave_file))
    assert checked.returncode == 0, checked.stdout + checked.stderr

    runner = _runner(repo, socket, "run", str(wave_file))
    try:
        # The rule approves `ls -la`; three prompts are parked; the follow-up goes out.
        _wait("rule task done", lambda: _task(_state(repo), "list").get("phase") == "done")
        for task in ("push", "wipe", "ask"):
            _wait(f"{task} parked", _parked_check(repo, task))
        # typed, not only counted (a kill between the two is its own window:
        # test_wave_windows_real.py::test_a_follow_up_killed_before_its_keys_…)
        _wait(
            "fix follow-up typed",
            lambda: (
                _task(_state(repo), "fix").get("followups") == 1
                and not _task(_state(repo), "fix").get("followup_typing")
            ),
        )
    finally:
        runner.send_signal(signal.SIGKILL)
        runner.wait(30)

    status = _paw(repo, socket, "wave", "status", "--json")
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["runner_alive"] is False

    resumed = _runner(repo, socket, "resume")
    try:
        push, wipe, ask = (_parked(repo, t) for t in ("push", "wipe", "ask"))
        assert push is not None
        assert wipe is not None
        assert ask is not None
        assert push["verdict"] == "confirm"
        assert wipe["verdict"] == "block"
        assert ask["kind"] == "question"
        # The humans answer, from other processes.
        approved = _paw(repo, socket, "approve", push["id"], "--yes")
        assert approved.returncode == 0, approved.stdout + approved.stderr
        denied = _paw(repo, socket, "deny", wipe["id"])
        assert denied.returncode == 0, denied.stdout + denied.stderr
        ask_pane = next(
            p for p in server.panes if p.pane_id and "night-ask" in _agent_of(server, p.pane_id)
        )
        server.cmd("send-keys", "-t", str(ask_pane.pane_id), "1")
        _wait("stuck escalated", lambda: _task(_state(repo), "quiet").get("stuck") is True)
        for task in ("push", "wipe", "ask", "fix"):
            _wait(f"{task} done", _done_check(repo, task))
        # Stuck is never killed by paw: a human ends it.
        stopped = _paw(repo, socket, "stop", "night-quiet")
        assert stopped.returncode == 0, stopped.stderr
        out, err = resumed.communicate(timeout=BUDGET_S)
    finally:
        if resumed.poll() is None:
            resumed.kill()
            resumed.wait(30)
    assert resumed.returncode == 1, out + err  # one task failed: the stuck one, ended by hand

    report = json.loads(_paw(repo, socket, "wave", "report", "--json").stdout)
    rows = {t["task"]: t for t in report["tasks"]}
    summary = {
        name: (
            t["status"],
            t["approved_by_human"],
            t["approved_by_rule"],
            t["denied"],
            t["followups"],
        )
        for name, t in rows.items()
    }
    assert summary == {
        "push": ("done", 1, 0, 0, 0),
        "wipe": ("done", 0, 0, 1, 0),
        "fix": ("done", 0, 0, 0, 1),
        "quiet": ("failed", 0, 0, 0, 0),
        "list": ("done", 0, 1, 0, 0),
        "ask": ("done", 0, 0, 0, 0),
    }
    assert rows["fix"]["check"]["runs"] == 2
    assert rows["fix"]["check"]["exit_code"] == 0
    assert rows["quiet"]["outcome"] == "the agent exited"
    assert report["status"] == "failed"
    markdown = _paw(repo, socket, "wave", "report").stdout
    assert "| fix | done |" in markdown
    assert "| list | done |" in markdown

    # Nothing happened twice across the kill: one start per task, one rule approval, one
    # follow-up; the follow-up carried the failure's tail.
    audit = _audit(repo)
    starts = [r["task"] for r in audit if r["event"] == "wave-task-start"]
    assert sorted(starts) == sorted(rows)
    sends = [r for r in audit if r["event"] == "approve" and r.get("decision") == "send"]
    assert len(sends) == 2  # the rule's and the human's
    ruled = [r for r in sends if "approved by rule 1 of" in str(r["user"])]
    assert len(ruled) == 1
    assert ruled[0]["subject"] == "ls -la"
    followups = [r for r in audit if r["event"] == "wave-followup"]
    assert len(followups) == 1
    assert "expected 2, got 1" in followups[0]["text"]
    # the failed check's whole output is saved in paw's state directory, and the follow-up
    # names the file (the scripted agent's input: paw's readers' limit, a short tail fits)
    saved = repo / ".paw" / "checks" / "night.fix.1.log"
    assert saved.read_text(encoding="utf-8") == "FAILED test_add: expected 2, got 1\n"
    assert f"the whole output is in {saved.resolve()} -- " in followups[0]["text"]
    assert "(trimmed)" not in followups[0]["text"]

    # One message per prompt occurrence, across the kill, each with its exact commands.
    assert receiver.wait(
        lambda ms: any(f"night ({WHERE}): failed" in str(m.get("title")) for m in ms), 10
    )
    titles = receiver.titles()
    parked = [t for t in titles if "needs a human" in t]
    assert sorted(parked) == sorted(
        [
            f"paw wave night ({WHERE}): push needs a human: shell git push origin feature",
            f"paw wave night ({WHERE}): wipe needs a human: shell rm -rf /",
            f"paw wave night ({WHERE}): ask needs a human: question Which database?",
        ]
    )
    bodies = {str(m["title"]): str(m["message"]) for m in receiver.messages}
    push_body = bodies[
        f"paw wave night ({WHERE}): push needs a human: shell git push origin feature"
    ]
    assert f"paw approve {push['id']}" in push_body
    assert f"paw deny {push['id']}" in push_body
    assert "guard: confirm" in push_body
    assert "agent: night-push" in push_body
    assert sum("quiet is stuck" in t for t in titles) == 1
    assert sum("answered" in t for t in titles) == 3


def _agent_of(server: Server, pane_id: str) -> str:
    out = server.cmd("show-options", "-p", "-t", pane_id, "-v", "@paw_agent").stdout
    return "".join(out)
