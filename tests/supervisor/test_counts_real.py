"""Worktree counts over real tmux, git and a scripted agent: a sweep recounts a worktree only
when git stamped something (index, HEAD, refs, the directory) or the agent's pane printed, and
with nothing happening it starts no git process at all."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from paw.adapters import proc
from paw.supervisor.model import AgentView, Outcome
from paw.supervisor.sweep.counts import MARK_EVERY_S, STAT_OUTPUT_S, STAT_TTL_S
from tests.support.supervision import with_ports
from tests.tui.real_world import capture, make_supervisor, wait_for, wait_for_prompts

if TYPE_CHECKING:
    from libtmux.server import Server

    from paw.supervisor.service import Supervisor

pytestmark = [pytest.mark.tmux, pytest.mark.git]


@dataclass
class Rig:
    """One demo agent parked at its prompt, a clock the test moves, and every git process
    paw starts."""

    sup: Supervisor
    socket: str
    now: list[float]
    gits: list[tuple[str, ...]] = field(default_factory=list)

    def sweep(self, *, after: float = 0.0) -> AgentView:
        """Move the clock by ``after`` seconds, sweep once, return the agent's view."""
        self.now[0] += after
        [view] = self.sup.poll_once().agents
        return view

    def quiet_sweep(self, *, after: float = 0.0) -> AgentView:
        """A sweep that must start no git process."""
        self.gits.clear()
        view = self.sweep(after=after)
        assert self.gits == []
        return view

    def worktree(self) -> Path:
        return Path(self.sweep().worktree)


@pytest.fixture
def rig(git_repo: Path, server: Server, monkeypatch: pytest.MonkeyPatch) -> Rig:
    socket = server.socket_name or ""
    sup = make_supervisor(git_repo, socket)
    now = [time.time()]
    with_ports(sup, clock=lambda: now[0])
    found = Rig(sup, socket, now)
    real_run = proc.run

    def counting_run(argv: Any, **kwargs: Any) -> proc.Completed:
        if argv[0] == "git":
            found.gits.append(tuple(argv))
        return real_run(argv, **kwargs)

    monkeypatch.setattr(proc, "run", counting_run)
    sup.spawn("a0", "demo-safe", None)
    wait_for_prompts(sup, 1)
    found.sweep(after=STAT_OUTPUT_S + 1)  # counts the worktree beside the screen as it now is
    return found


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True)


def test_nothing_happening_starts_no_git_process(rig: Rig) -> None:
    for _ in range(3):
        rig.quiet_sweep(after=STAT_OUTPUT_S + 1)
    rig.gits.clear()
    rig.sweep(after=STAT_TTL_S)  # the safety net: recounted however quiet it was
    assert rig.gits


def test_commit_in_the_worktree_is_counted_next_sweep(rig: Rig) -> None:
    wt = rig.worktree()
    (wt / "feature.txt").write_text("new\n", encoding="utf-8")
    _git(wt, "add", "feature.txt")
    _git(wt, "commit", "-q", "-m", "feature")
    view = rig.sweep(after=MARK_EVERY_S)
    assert (view.stat.ahead, view.stat.untracked, view.stat.uncommitted) == (1, 0, 0)
    assert rig.quiet_sweep().stat.ahead == 1


def test_new_untracked_file_is_counted_next_sweep(rig: Rig) -> None:
    wt = rig.worktree()
    (wt / "notes.txt").write_text("draft\n", encoding="utf-8")
    assert rig.sweep(after=MARK_EVERY_S).stat.untracked == 1
    assert rig.quiet_sweep().stat.untracked == 1


def test_edit_then_git_add_is_counted_next_sweep(rig: Rig) -> None:
    wt = rig.worktree()
    with (wt / "README.md").open("a", encoding="utf-8") as handle:
        handle.write("more\n")
    _git(wt, "add", "README.md")
    view = rig.sweep(after=MARK_EVERY_S)
    assert (view.stat.uncommitted, view.stat.insertions) == (1, 1)


def test_base_moving_is_counted_next_sweep(rig: Rig, git_repo: Path) -> None:
    _git(git_repo, "commit", "-q", "--allow-empty", "-m", "main moves on")
    assert rig.sweep(after=MARK_EVERY_S).stat.behind == 1


def test_pane_output_recounts_the_worktree(rig: Rig) -> None:
    wt = rig.worktree()
    with (wt / "README.md").open("a", encoding="utf-8") as handle:
        handle.write("edited without git\n")  # neither the index nor a ref nor the directory
    assert rig.quiet_sweep(after=STAT_OUTPUT_S + 1).stat.uncommitted == 0  # nothing to go on
    [prompt] = rig.sup.poll_once().prompts
    before = capture(rig.socket, prompt.pane_id)
    decision = rig.sup.approve(prompt.id)  # the agent runs `ls -la` and prints
    assert decision.outcome is Outcome.SENT
    assert wait_for(lambda: capture(rig.socket, prompt.pane_id) != before)
    assert rig.sweep().stat.uncommitted == 1
