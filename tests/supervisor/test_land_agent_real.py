"""`paw wave land` sends a conflict back to a live scripted agent on real tmux and git: the
follow-up is typed through the proven path, the agent rebases and resolves, and the task lands;
a second agent that cannot fix its check is parked with the check's tail after its retries."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.supervisor.test_land_real import PAW, commit_on, git, journal, land, subjects, write_wave

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.git, pytest.mark.tmux, pytest.mark.timeout(400)]

FIX = """\
git -c user.name=fixer -c user.email=fixer@example.invalid rebase main >/dev/null 2>&1 || {
  printf 'A\\nB\\n' > shared.txt && git add shared.txt &&
  GIT_EDITOR=true git -c user.name=fixer -c user.email=fixer@example.invalid rebase --continue
}
"""

EMPTY = "commit --allow-empty -qm 'try again'"
WAVE = """
name = "night"
poll_s = 0.5

[land]
wait_s = 120

[[tasks]]
name = "a"
task = "a"

[[tasks]]
name = "b"
task = "b"
retries = 1

[[tasks]]
name = "c"
task = "c"
check = "test -f c-fixed.txt"
retries = 1
"""


def _kind(name: str, on_line: str) -> str:
    command = json.dumps(["{python}", "-m", "paw.demo.agent", "--on-line", on_line, "busy 0.3"])
    return (
        f'[agents.{name}]\ncommand = {command}\ndetector = "scripted"\n'
        'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n'
    )


def _spawn(repo: Path, socket: str, name: str, kind: str) -> Path:
    env = {**os.environ, "PAW_TMUX_SOCKET": socket}
    done = subprocess.run(
        [*PAW, "spawn", name, "--agent", kind, "--json"], cwd=repo, env=env,
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return Path(json.loads(done.stdout)["agent"]["worktree"])


def test_conflict_goes_back_to_the_agent_then_lands_and_a_hopeless_check_is_parked(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    repo = git_repo
    assert server.socket_name is not None
    socket = server.socket_name
    fix = tmp_path / "fix.sh"
    fix.write_text(FIX, encoding="utf-8")
    retry = tmp_path / "retry.sh"  # a new commit that does not fix the check
    retry.write_text(f"git -c user.name=r -c user.email=r@example.invalid {EMPTY}\n", "utf-8")
    (repo / "shared.txt").write_text("base\n", encoding="utf-8")
    git(repo, "add", "shared.txt")
    git(repo, "commit", "-q", "-m", "shared")
    (repo / "paw.toml").write_text(
        _kind("fixer", f"sh {fix}") + _kind("idler", f"sh {retry}"), encoding="utf-8"
    )
    git(repo, "add", "paw.toml")
    git(repo, "commit", "-q", "-m", "paw.toml")
    commit_on(repo, "paw/night-a", {"shared.txt": "A\n"}, "task a")
    tree_b = _spawn(repo, socket, "night-b", "fixer")
    (tree_b / "shared.txt").write_text("B\n", encoding="utf-8")
    git(tree_b, "commit", "-qam", "task b")
    tree_c = _spawn(repo, socket, "night-c", "idler")
    (tree_c / "c.txt").write_text("c\n", encoding="utf-8")
    git(tree_c, "add", "c.txt")
    git(tree_c, "commit", "-qm", "task c")
    write_wave(repo, WAVE, {"a": 1.0, "b": 2.0, "c": 3.0})

    done = land(repo, socket, "--json")

    assert done.returncode == 1, done.stdout + done.stderr
    rows = {row["task"]: row for row in json.loads(done.stdout)["tasks"]}
    assert rows["a"]["status"] == "landed"
    assert rows["b"]["status"] == "landed", rows["b"]
    assert rows["b"]["followups"] == 1
    assert rows["b"]["attempts"] == 2
    assert rows["c"]["status"] == "parked"
    assert rows["c"]["followups"] == 1
    assert rows["c"]["check"] == "test -f c-fixed.txt"
    assert "after 1 follow-up" in rows["c"]["why"]
    # the base: exactly the landed work, fast-forward only, b's resolution on top of a
    assert subjects(repo)[-2:] == ["task a", "task b"]
    assert (repo / "shared.txt").read_text(encoding="utf-8") == "A\nB\n"
    assert git(repo, "status", "--porcelain") == ""
    # each follow-up went through the typed-text path: recorded, then sent with its proof
    audit = [
        json.loads(line)
        for line in (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    sends = [r for r in audit if r.get("event") == "send" and r.get("via") == "land-followup"]
    assert {r["agent"] for r in sends} == {"night-b", "night-c"}
    assert all("rebase main" in str(r["text"]) for r in sends)
    outcomes = [
        r.get("outcome") for r in audit
        if r.get("event") == "outcome" and r.get("via") == "land-followup"
    ]  # fmt: skip
    assert outcomes == ["sent", "sent"], outcomes
    events = [e["text"] for e in journal(repo)["events"] if e["task"] == "b"]
    assert "its agent committed again: back in the queue" in events


def test_kill_9_after_a_follow_up_is_counted_never_types_it_twice(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    repo = git_repo
    assert server.socket_name is not None
    socket = server.socket_name
    (repo / "shared.txt").write_text("base\n", encoding="utf-8")
    (repo / "paw.toml").write_text(_kind("fixer", f"sh {tmp_path / 'none.sh'}"), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "setup")
    commit_on(repo, "paw/night-a", {"shared.txt": "A\n"}, "task a")
    tree_b = _spawn(repo, socket, "night-b", "fixer")
    (tree_b / "shared.txt").write_text("B\n", encoding="utf-8")
    git(tree_b, "commit", "-qam", "task b")
    write_wave(repo, WAVE.replace('check = "test -f c-fixed.txt"\n', ""), {"a": 1.0, "b": 2.0})

    killed = land(repo, socket, "--no-wait", crash="land:followup")

    assert killed.returncode == -9, killed.stdout + killed.stderr
    again = land(repo, socket, "--no-wait", "--json")

    assert again.returncode == 1, again.stdout + again.stderr
    rows = {row["task"]: row for row in json.loads(again.stdout)["tasks"]}
    assert rows["a"]["status"] == "landed"
    assert rows["b"]["status"] == "sent-back"
    assert rows["b"]["followups"] == 1
    audit = (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in audit]
    assert sum(r.get("event") == "land-followup" for r in records) == 1
    assert not [r for r in records if r.get("via") == "land-followup"]  # never typed
    assert subjects(repo)[-1] == "task a"


def test_a_sent_back_agent_at_a_prompt_is_said_once_not_left_to_wait_s(
    git_repo: Path, server: Server
) -> None:
    """No runner: a task sent back whose agent shows a permission prompt cannot take its
    follow-up. The lander does not wait silently until ``wait_s`` parks it: it says at once,
    once (journal, terminal, message), that it waits on a prompt, with how to answer it."""
    from tests.support.receiver import Receiver

    repo = git_repo
    assert server.socket_name is not None
    socket = server.socket_name
    receiver = Receiver()
    try:
        (repo / "shared.txt").write_text("base\n", encoding="utf-8")
        git(repo, "add", "shared.txt")
        git(repo, "commit", "-q", "-m", "shared")
        command = json.dumps(["{python}", "-m", "paw.demo.agent", "busy 0.3", "shell rm -rf build"])
        (repo / "paw.toml").write_text(
            f'[agents.asker]\ncommand = {command}\ndetector = "scripted"\n'
            'match = { interpreters = ["python"], scripts = ["paw.demo.agent"] }\n',
            encoding="utf-8",
        )
        git(repo, "add", "paw.toml")
        git(repo, "commit", "-q", "-m", "paw.toml")
        commit_on(repo, "paw/night-a", {"shared.txt": "A\n"}, "task a")
        tree_b = _spawn(repo, socket, "night-b", "asker")  # it shows its prompt and waits
        (tree_b / "shared.txt").write_text("B\n", encoding="utf-8")
        git(tree_b, "commit", "-qam", "task b")
        toml = (
            f'name = "night"\npoll_s = 0.5\n[land]\nwait_s = 20\n'
            f'[notify]\nurls = ["{receiver.url}"]\nbell = false\n'
            '[[tasks]]\nname = "a"\ntask = "a"\n[[tasks]]\nname = "b"\ntask = "b"\nretries = 1\n'
        )
        write_wave(repo, toml, {"a": 1.0, "b": 2.0})

        done = land(repo, socket)

        assert done.returncode == 1, done.stdout + done.stderr
        events = [e for e in journal(repo)["events"] if e["task"] == "b"]
        texts = [str(e["text"]) for e in events]
        waiting = [e for e in events if str(e["text"]).startswith("waiting on a prompt")]
        assert len(waiting) == 1, texts  # once, not once per look
        assert waiting[0]["kind"] == "prompt"
        said = str(waiting[0]["text"])
        assert said.startswith("waiting on a prompt: its agent shows shell rm -rf build"), said
        assert "paw approve " in said
        assert "paw deny " in said
        assert texts.index(said) < len(texts) - 1  # said before wait_s parked it
        assert (
            texts[-1] == "sent back (conflict on rebase); its follow-up was never typed within 20s"
        )
        assert events[-1]["at"] - waiting[0]["at"] > 5  # at once, not when wait_s ran out
        assert f"land night: b: {said}" in done.stdout
        assert receiver.wait(lambda ms: any("waiting on a prompt" in str(m) for m in ms))
        titles = [t for t in receiver.titles() if "waiting on a prompt" in t]
        assert len(titles) == 1, titles
        assert subjects(repo)[-1] == "task a"
    finally:
        receiver.close()
