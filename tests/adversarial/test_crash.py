"""Fault injection (scenario 7): paw killed with SIGKILL at every named step of spawn and
rm --force; the next paw command finishes or undoes the operation, and no commit or file is
lost. The switch is ``PAW_TEST_CRASH_AT=<step>`` (paw.adapters.crash_switch)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from paw.supervisor.crash_steps import RM_STEPS, SPAWN_STEPS
from tests.adversarial.conftest import KILLED

if TYPE_CHECKING:
    from pathlib import Path

    from tests.adversarial.conftest import Rig

pytestmark = [pytest.mark.tmux, pytest.mark.git]

FINISHED = ("spawn:pane", "spawn:recorded")  # the agent runs: the next command keeps it


def _listed(rig: Rig) -> dict[str, dict[str, object]]:
    return {a["name"]: a for a in json.loads(rig.ok("ls", "--json"))["agents"]}


@pytest.mark.parametrize("step", SPAWN_STEPS)
def test_spawn_killed_at_each_step_is_finished_or_undone(rig: Rig, step: str) -> None:
    done = rig.paw("spawn", "alice", "--agent", "scripted", crash=step)
    assert done.returncode == KILLED, done.stderr
    intent = None if step == "spawn:recorded" else "spawning"  # the intent was written first
    assert rig.records()["alice"]["pending"] == intent

    agents = _listed(rig)  # the next command: finishes or undoes the spawn
    wt = rig.worktree("alice")
    if step in FINISHED:
        assert agents["alice"]["alive"] is True
        assert rig.records()["alice"]["pending"] is None
        assert [r["event"] for r in rig.audit()].count("spawn-resumed") == (
            1 if step == "spawn:pane" else 0
        )
        rig.ok("rm", "alice")
    else:
        assert "alice" not in agents
        assert [r["event"] for r in rig.audit()][-1] == "spawn-undone"
        rig.ok("spawn", "alice", "--agent", "scripted")  # the name is free again
        rig.ok("rm", "alice")
    assert not wt.exists()
    assert "paw/alice" not in rig.branches()
    assert rig.worktrees() == [str(rig.repo)]
    assert rig.records() == {}
    assert rig.archives() == []


def test_spawn_leftover_is_removable_by_name_with_rm(rig: Rig) -> None:
    """The next command may be `paw rm NAME` itself."""
    done = rig.paw("spawn", "alice", "--agent", "scripted", crash="spawn:worktree")
    assert done.returncode == KILLED
    rig.ok("rm", "alice")
    assert "paw/alice" not in rig.branches()
    assert not rig.worktree("alice").exists()


def _unsaved_agent(rig: Rig) -> tuple[Path, str]:
    (rig.repo / ".gitignore").write_text(".env\n", encoding="utf-8")
    rig.git("add", ".gitignore")
    rig.git("commit", "-q", "-m", "ignores")
    rig.ok("spawn", "alice", "--agent", "scripted")
    wt = rig.worktree("alice")
    (wt / "feature.txt").write_text("committed\n", encoding="utf-8")
    rig.git("add", "feature.txt", cwd=wt)
    rig.git("commit", "-q", "-m", "feature", cwd=wt)
    commit = rig.git("rev-parse", "HEAD", cwd=wt).strip()
    (wt / "README.md").write_text("# changed, not committed\n", encoding="utf-8")
    (wt / "notes.txt").write_text("untracked\n", encoding="utf-8")
    (wt / ".env").write_text("SECRET=1\n", encoding="utf-8")
    return wt, commit


@pytest.mark.parametrize("next_command", ["rm", "ls"])
@pytest.mark.parametrize("step", RM_STEPS)
def test_rm_force_killed_at_each_step_is_finished_and_loses_nothing(
    rig: Rig, step: str, next_command: str
) -> None:
    wt, commit = _unsaved_agent(rig)
    done = rig.paw("rm", "--force", "alice", crash=step)
    assert done.returncode == KILLED, done.stderr
    assert rig.records()["alice"]["pending"] == "removing"

    if next_command == "rm":
        rig.ok("rm", "alice")  # plain rm: finishes the forced removal it finds
    else:
        assert "alice" not in _listed(rig)
    assert not wt.exists()
    assert "paw/alice" not in rig.branches()
    assert rig.records() == {}
    refs = rig.archives()
    assert refs, "nothing archived"
    assert all(rig.reaches(ref, commit) for ref in refs)
    newest = refs[-1]
    assert {"feature.txt", "notes.txt", ".env", "README.md"} <= rig.files_in(newest)
    readme = rig.git("show", f"{newest}:README.md")
    assert readme == "# changed, not committed\n"
    events = [r["event"] for r in rig.audit()]
    assert events[-1] == "remove"
    assert "remove-resumed" in events


@pytest.mark.parametrize(
    ("command", "step", "operation"),
    [(("spawn", "alice", "--agent", "scripted"), "spawn:worktree", "spawning"),
     (("rm", "alice", "--force"), "rm:intent", "removing")],
)  # fmt: skip
def test_ls_shows_an_operation_another_paw_process_is_carrying_out(
    rig: Rig, command: tuple[str, ...], step: str, operation: str
) -> None:
    """While a live paw process holds an agent's operation lock, `paw ls` says what it is
    doing (never `exited`, never finishing it underneath); once the lock is free, the next
    command finishes or undoes it."""
    from paw.adapters.state import StateStore
    from paw.supervisor.records import op_lock

    if command[0] == "rm":
        rig.ok("spawn", "alice", "--agent", "scripted")
    assert rig.paw(*command, crash=step).returncode == KILLED
    with StateStore(rig.repo / ".paw").try_lock(op_lock("alice")) as held:
        assert held  # this test plays the paw process still at work
        listed = _listed(rig)["alice"]
        assert listed["operation"] == operation
        assert listed["status"] == ("unknown" if operation == "spawning" else listed["status"])
        assert listed["status"] != "exited"
        assert rig.records()["alice"]["pending"] == operation
        table = rig.ok("ls")
        assert f"alice is being {'spawned' if operation == 'spawning' else 'removed'}" in table
    after = _listed(rig)  # the lock is free: the interrupted operation is finished or undone
    assert "alice" not in after or after["alice"]["operation"] is None
    if "alice" in after:
        rig.ok("rm", "alice", "--force")
