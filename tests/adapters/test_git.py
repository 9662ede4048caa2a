"""GitCli against real repositories under tmp_path (isolated git config from tests/conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paw.adapters.git.runner import GitCli
from paw.errors import GitError
from tests.adapters.conftest import run_git

pytestmark = pytest.mark.git


def _worktree(git_repo: Path, name: str = "wt", branch: str = "agent/a") -> Path:
    path = git_repo.parent / name
    GitCli().add_worktree(str(git_repo), str(path), branch, "main")
    return path


def _commit(cwd: Path, name: str, text: str) -> None:
    (cwd / name).write_text(text, encoding="utf-8")
    run_git(cwd, "add", name)
    run_git(cwd, "commit", "-q", "-m", f"add {name}")


def test_git_repo_root_from_subdirectory_and_worktree(git_repo: Path) -> None:
    sub = git_repo / "a" / "b"
    sub.mkdir(parents=True)
    wt = _worktree(git_repo)
    (wt / "deep").mkdir()
    git = GitCli()
    assert git.repo_root(str(sub)) == str(git_repo)
    assert git.repo_root(str(wt / "deep")) == str(git_repo)


def test_git_repo_root_outside_a_repository_raises(tmp_path: Path) -> None:
    with pytest.raises(GitError, match="git worktree"):
        GitCli().repo_root(str(tmp_path))


def test_git_worktree_add_list_remove(git_repo: Path) -> None:
    git = GitCli()
    wt = _worktree(git_repo)
    listed = git.list_worktrees(str(git_repo))
    assert [(w.path, w.branch) for w in listed] == [(str(git_repo), "main"), (str(wt), "agent/a")]
    git.remove_worktree(str(git_repo), str(wt))
    assert not wt.exists()
    assert [w.path for w in git.list_worktrees(str(git_repo))] == [str(git_repo)]
    assert git.branch_exists(str(git_repo), "agent/a")
    git.delete_branch(str(git_repo), "agent/a")
    assert not git.branch_exists(str(git_repo), "agent/a")


def test_git_remove_dirty_worktree_needs_force(git_repo: Path) -> None:
    git = GitCli()
    wt = _worktree(git_repo)
    (wt / "wip.txt").write_text("unsaved\n", encoding="utf-8")
    with pytest.raises(GitError, match="worktree remove"):
        git.remove_worktree(str(git_repo), str(wt))
    assert (wt / "wip.txt").exists()
    git.remove_worktree(str(git_repo), str(wt), force=True)
    assert not wt.exists()


def test_git_unmerged_branch_delete_needs_force(git_repo: Path) -> None:
    git = GitCli()
    wt = _worktree(git_repo)
    _commit(wt, "feature.txt", "f\n")
    git.remove_worktree(str(git_repo), str(wt))
    assert not git.is_merged(str(git_repo), "agent/a", "main")
    with pytest.raises(GitError, match="branch"):
        git.delete_branch(str(git_repo), "agent/a")
    run_git(git_repo, "merge", "-q", "--ff-only", "agent/a")
    assert git.is_merged(str(git_repo), "agent/a", "main")
    git.delete_branch(str(git_repo), "agent/a")


def test_git_status_counts_dirty_untracked_ahead_behind(git_repo: Path) -> None:
    wt = _worktree(git_repo)
    _commit(wt, "one.txt", "1\n")
    _commit(wt, "two.txt", "2\n")
    _commit(git_repo, "main-only.txt", "m\n")
    (wt / "README.md").write_text("# changed\nline\n", encoding="utf-8")
    (wt / "one.txt").write_text("1 staged\n", encoding="utf-8")
    run_git(wt, "add", "one.txt")
    (wt / "new").mkdir()
    (wt / "new" / "a.txt").write_text("a\n", encoding="utf-8")
    (wt / "new" / "b.txt").write_text("b\n", encoding="utf-8")
    counts = GitCli().status_counts(str(wt), "main")
    assert (counts.uncommitted, counts.untracked, counts.unmerged) == (2, 2, 0)
    assert (counts.ahead, counts.behind) == (2, 1)
    # since the merge base: one.txt and two.txt (2 lines), README (+2 -1), one.txt rewritten
    assert (counts.insertions, counts.deletions) == (4, 1)


def test_git_status_mark_moves_with_git_and_not_with_counting(git_repo: Path) -> None:
    wt = _worktree(git_repo)
    git = GitCli()
    first = git.status_mark(str(wt), "main")
    assert git.status_mark(str(wt), "main") == first
    readme = wt / "README.md"
    stamp = readme.stat().st_mtime_ns + 5_000_000_000
    os.utime(readme, ns=(stamp, stamp))  # same content, stale stat data in the index
    git.status_counts(str(wt), "main")  # takes no optional lock: the index stays as it was
    assert git.status_mark(str(wt), "main") == first
    _commit(wt, "one.txt", "1\n")  # index, branch ref and directory move
    second = git.status_mark(str(wt), "main")
    assert second != first
    _commit(git_repo, "main-only.txt", "m\n")  # the base moves
    assert git.status_mark(str(wt), "main") != second


def test_git_status_mark_of_a_missing_worktree_is_stable(tmp_path: Path) -> None:
    gone = str(tmp_path / "gone")
    assert GitCli().status_mark(gone, "main") == GitCli().status_mark(gone, "main")


def test_git_status_counts_unmerged(git_repo: Path) -> None:
    wt = _worktree(git_repo)
    _commit(wt, "README.md", "# agent\n")
    _commit(git_repo, "README.md", "# main\n")
    merged = run_git_allow_failure(wt, "merge", "-q", "main")
    assert merged != 0
    counts = GitCli(line_counts=False).status_counts(str(wt), "main")
    assert counts.unmerged == 1
    assert (counts.insertions, counts.deletions) == (0, 0)


def run_git_allow_failure(cwd: Path, *args: str) -> int:
    try:
        run_git(cwd, *args)
    except Exception:  # noqa: BLE001 - the test wants the failure itself
        return 1
    return 0


def test_git_status_counts_unknown_base_raises(git_repo: Path) -> None:
    with pytest.raises(GitError, match="rev-list"):
        GitCli().status_counts(str(git_repo), "no-such-branch")


def test_git_snapshot_keeps_user_state_and_restores_everything(git_repo: Path) -> None:
    git = GitCli()
    wt = _worktree(git_repo)
    (wt / ".gitignore").write_text("*.log\n", encoding="utf-8")
    _commit(wt, "gone.txt", "to delete\n")
    (wt / "gone.txt").unlink()
    (wt / "README.md").write_text("# edited, unstaged\n", encoding="utf-8")
    (wt / "staged.txt").write_text("staged\n", encoding="utf-8")
    run_git(wt, "add", "staged.txt")
    (wt / "dir").mkdir()
    (wt / "dir" / "untracked.txt").write_text("untracked\n", encoding="utf-8")
    (wt / "debug.log").write_text("ignored\n", encoding="utf-8")
    status_before = run_git(wt, "status", "--porcelain=v1")
    head_before = run_git(wt, "rev-parse", "HEAD")

    sha = git.snapshot(str(wt), "refs/paw/snapshots/a/1", "paw: snapshot of a")

    assert run_git(wt, "status", "--porcelain=v1") == status_before
    assert run_git(wt, "rev-parse", "HEAD") == head_before
    assert run_git(git_repo, "rev-parse", "refs/paw/snapshots/a/1").strip() == sha
    assert run_git(git_repo, "rev-parse", f"{sha}^").strip() == head_before.strip()
    restored = git_repo.parent / "restored"
    run_git(git_repo, "worktree", "add", "-q", "--detach", str(restored), sha)
    files = sorted(str(p.relative_to(restored)) for p in restored.rglob("*") if p.is_file())
    assert files == [".git", ".gitignore", "README.md", "dir/untracked.txt", "staged.txt"]
    assert (restored / "README.md").read_text(encoding="utf-8") == "# edited, unstaged\n"


def test_git_snapshot_on_unborn_branch(tmp_path: Path, isolated_env: Path) -> None:
    del isolated_env
    repo = tmp_path / "fresh"
    repo.mkdir()
    run_git(repo, "init", "-q", "-b", "main")
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    sha = GitCli().snapshot(str(repo), "refs/paw/snapshots/x", "first")
    assert run_git(repo, "ls-tree", "--name-only", sha).split() == ["a.txt"]
    assert run_git(repo, "rev-list", "--count", sha).strip() == "1"


def test_git_snapshot_rejects_short_ref(git_repo: Path) -> None:
    with pytest.raises(ValueError, match="refs/"):
        GitCli().snapshot(str(git_repo), "snap", "m")


def test_git_diff_includes_commits_changes_and_untracked(git_repo: Path) -> None:
    wt = _worktree(git_repo)
    _commit(wt, "committed.txt", "c\n")
    _commit(git_repo, "main-only.txt", "m\n")
    (wt / "README.md").write_text("# edited\n", encoding="utf-8")
    (wt / "brand-new.txt").write_text("hello\n", encoding="utf-8")
    index_before = run_git(wt, "status", "--porcelain=v1")
    diff = GitCli().diff(str(wt), "main")
    assert "+++ b/committed.txt" in diff
    assert "+# edited" in diff
    assert "+++ b/brand-new.txt" in diff
    assert "+hello" in diff
    assert "main-only.txt" not in diff
    assert run_git(wt, "status", "--porcelain=v1") == index_before


def test_git_current_branch_and_detached_head(git_repo: Path) -> None:
    git = GitCli()
    assert git.current_branch(str(git_repo)) == "main"
    head = run_git(git_repo, "rev-parse", "HEAD").strip()
    run_git(git_repo, "checkout", "-q", "--detach")
    assert git.current_branch(str(git_repo)) == head


def test_git_agent_branch_has_no_upstream_even_from_a_remote_branch(git_repo: Path) -> None:
    run_git(git_repo, "remote", "add", "origin", str(git_repo.parent / "nowhere.git"))
    run_git(git_repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    wt = git_repo.parent / "wt-remote"
    GitCli().add_worktree(str(git_repo), str(wt), "agent/r", "origin/main")
    assert "branch.agent/r.merge" not in run_git(git_repo, "config", "--list", "--local")
