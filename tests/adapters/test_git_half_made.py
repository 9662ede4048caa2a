"""A worktree another process is adding while paw lists them is not an error (real git).

``git worktree add`` makes ``.git/worktrees/<name>/`` and then fills its files; a listing in
between dies with ``failed to read …/commondir``. Found by 50 parallel ``paw spawn``
(tests/adversarial/test_state.py) on a loaded machine: one spawn failed so.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from paw.adapters import proc
from paw.adapters.git import half_made
from paw.adapters.git.land import LandGitCli
from paw.adapters.git.runner import GitCli
from paw.errors import GitError


def _half_made(repo: Path, name: str = "other") -> Path:
    """The admin directory of a worktree caught half made: ``gitdir`` written, ``commondir``
    created but still empty (what git itself leaves for an instant)."""
    admin = repo / ".git" / "worktrees" / name
    admin.mkdir(parents=True)
    (admin / "gitdir").write_text(f"{repo.parent / name}/.git\n", encoding="utf-8")
    (admin / "commondir").write_text("", encoding="utf-8")
    (admin / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    return admin


def _finish_later(admin: Path, after_s: float) -> threading.Timer:
    timer = threading.Timer(after_s, (admin / "commondir").write_text, ("../..\n",))
    timer.start()
    return timer


def test_git_itself_dies_on_the_half_made_worktree(git_repo: Path) -> None:
    """The stimulus is real: without a retry the listing fails, with git's own message."""
    _half_made(git_repo)
    with pytest.raises(GitError, match=r"failed to read .*worktrees/other/commondir"):
        half_made.run_git(
            ["git", "-C", str(git_repo), "worktree", "list"], GitError, label="git", budget_s=0
        )


def test_listing_waits_for_a_worktree_being_added(git_repo: Path) -> None:
    admin = _half_made(git_repo)
    timer = _finish_later(admin, 0.5)
    try:
        listed = GitCli().list_worktrees(str(git_repo))
    finally:
        timer.join()
    assert listed[0].path == str(git_repo)
    assert len(listed) == 2


def test_the_lander_s_listing_waits_too(git_repo: Path) -> None:
    admin = _half_made(git_repo)
    timer = _finish_later(admin, 0.5)
    try:
        assert LandGitCli().checked_out_in(str(git_repo), "main") == str(git_repo)
    finally:
        timer.join()


def test_a_worktree_that_stays_half_made_is_still_an_error(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only within the budget: a broken admin directory is reported, not waited on forever."""
    monkeypatch.setattr(half_made, "BUDGET_S", 0.3)
    _half_made(git_repo)
    with pytest.raises(GitError, match="git worktree list: fatal: failed to read"):
        GitCli().list_worktrees(str(git_repo))


def test_other_failures_are_not_tried_again(tmp_path: Path) -> None:
    calls: list[int] = []
    real = proc.run_or_raise

    def counted(*args: Any, **kwargs: Any) -> proc.Completed:
        calls.append(1)
        return real(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(proc, "run_or_raise", counted)
        with pytest.raises(GitError, match="not a git repository"):
            GitCli().list_worktrees(str(tmp_path))
    assert calls == [1]


@pytest.mark.parametrize(
    ("stderr", "met"),
    [
        ("fatal: failed to read .git/worktrees/a41/commondir: Success\n", True),
        ("fatal: failed to read /r/.git/worktrees/a 1/gitdir: No such file or directory", True),
        ("fatal: failed to read /r/.git/worktrees/a1/gitdir: No such file or directory", True),
        ("fatal: not a git repository (or any of the parent directories): .git", False),
        ("fatal: 'x' is already checked out at '/r/worktrees/x'", False),
        ("", False),
    ],
)
def test_which_failures_are_a_half_made_worktree(stderr: str, met: bool) -> None:
    assert half_made.met_half_made_worktree(stderr) is met
