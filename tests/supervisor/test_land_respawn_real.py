"""`paw wave land` on real tmux and git: a task sent back whose agent is gone gets a new agent
on its branch, in its worktree (`spawn --resume`); the follow-up is typed into the new agent
through the proven path; it resolves and the task lands. kill -9 at each respawn step, then
`paw wave land` again: one respawn, the task lands."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paw.supervisor.land_respawn import RESPAWN_STEPS
from tests.supervisor.test_land_agent_real import FIX, WAVE, _kind, _spawn
from tests.supervisor.test_land_real import commit_on, git, journal, land, subjects, write_wave

if TYPE_CHECKING:
    from libtmux.server import Server

pytestmark = [pytest.mark.git, pytest.mark.tmux, pytest.mark.timeout(500)]

TWO = WAVE.split('[[tasks]]\nname = "c"')[0]


def _setup(repo: Path, socket: str, tmp_path: Path, server: Server) -> Path:
    fix = tmp_path / "fix.sh"
    fix.write_text(FIX, encoding="utf-8")
    (repo / "shared.txt").write_text("base\n", encoding="utf-8")
    (repo / "paw.toml").write_text(_kind("fixer", f"sh {fix}"), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "setup")
    commit_on(repo, "paw/night-a", {"shared.txt": "A\n"}, "task a")
    tree_b = _spawn(repo, socket, "night-b", "fixer")
    (tree_b / "shared.txt").write_text("B\n", encoding="utf-8")
    git(tree_b, "commit", "-qam", "task b")
    # the agent of task b is gone before the landing: its pane is killed behind paw's back
    panes = [p for p in server.panes if Path(p.pane_current_path or "") == tree_b]
    assert len(panes) == 1, [p.pane_current_path for p in server.panes]
    panes[0].kill()
    write_wave(repo, TWO, {"a": 1.0, "b": 2.0})
    return tree_b


def _audit(repo: Path) -> list[dict[str, object]]:
    lines = (repo / ".paw" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _assert_landed_by_a_new_agent(repo: Path, done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {row["task"]: row for row in json.loads(done.stdout)["tasks"]}
    assert rows["b"]["status"] == "landed", rows["b"]
    assert rows["b"]["followups"] == 1
    assert subjects(repo)[-2:] == ["task a", "task b"]
    assert (repo / "shared.txt").read_text(encoding="utf-8") == "A\nB\n"
    b = next(t for t in journal(repo)["tasks"] if t["name"] == "b")
    assert (b["respawns"], b["respawn_pending"]) == (1, False)
    audit = _audit(repo)
    # one new agent, started in the same worktree on the same branch (resumed, no new one)
    spawns = [r for r in audit if r.get("event") == "spawn" and r.get("agent") == "night-b"]
    assert [s.get("resumed") for s in spawns] == [False, True], spawns
    assert spawns[0]["branch"] == spawns[1]["branch"] == "paw/night-b"
    # the follow-up went to the new agent through the typed-text path, recorded, then sent
    sends = [r for r in audit if r.get("event") == "send" and r.get("via") == "land-followup"]
    assert [r["agent"] for r in sends] == ["night-b"], sends
    assert "rebase main" in str(sends[0]["text"])
    assert sum(r.get("event") == "land-respawn" for r in audit) >= 1


def test_a_gone_agent_is_respawned_on_its_branch_and_its_task_lands(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    assert server.socket_name is not None
    _setup(git_repo, server.socket_name, tmp_path, server)

    done = land(git_repo, server.socket_name, "--json")

    _assert_landed_by_a_new_agent(git_repo, done)
    events = [e["text"] for e in journal(git_repo)["events"] if e["task"] == "b"]
    assert "its agent is gone: a new one starts on its branch" in events
    assert "a new agent runs on its branch" in events


@pytest.mark.parametrize("step", RESPAWN_STEPS)
def test_kill_9_at_each_respawn_step_then_land_again(
    git_repo: Path, server: Server, tmp_path: Path, step: str
) -> None:
    assert server.socket_name is not None
    _setup(git_repo, server.socket_name, tmp_path, server)

    killed = land(git_repo, server.socket_name, "--json", crash=step)

    assert killed.returncode == -9, killed.stdout + killed.stderr
    assert subjects(git_repo)[-1] == "task a"
    again = land(git_repo, server.socket_name, "--json")

    _assert_landed_by_a_new_agent(git_repo, again)


def test_a_worktree_on_another_branch_is_never_respawned_the_task_is_parked(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    assert server.socket_name is not None
    tree_b = _setup(git_repo, server.socket_name, tmp_path, server)
    git(tree_b, "switch", "-q", "-c", "elsewhere")

    done = land(git_repo, server.socket_name, "--json")

    assert done.returncode == 1, done.stdout + done.stderr
    rows = {row["task"]: row for row in json.loads(done.stdout)["tasks"]}
    assert rows["b"]["status"] == "parked"
    assert "none could start" in rows["b"]["why"]
    assert "has elsewhere, not paw/night-b" in rows["b"]["why"]
    spawns = [r for r in _audit(git_repo) if r.get("event") == "spawn"]
    assert [s.get("resumed") for s in spawns] == [False]  # no agent started on it
