"""GitCli's queries for removals that lose nothing: unkept commits, ignored paths, snapshots
with ignored files and extra parents, worktree path checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from paw.adapters.git.runner import GitCli
from paw.core.config import DEFAULT_DISPOSABLE
from tests.adapters.conftest import run_git

pytestmark = pytest.mark.git


def _worktree(repo: Path) -> Path:
    wt = repo.parent / "wt"
    run_git(repo, "worktree", "add", "-q", "-b", "paw/a", str(wt), "main")
    return wt


def _commit(wt: Path, name: str) -> str:
    (wt / name).write_text(name, encoding="utf-8")
    run_git(wt, "add", name)
    run_git(wt, "commit", "-q", "-m", name)
    return run_git(wt, "rev-parse", "HEAD").strip()


def test_unkept_commits_ignore_the_agent_worktrees_own_head(git_repo: Path) -> None:
    git = GitCli()
    wt = _worktree(git_repo)
    main = git.resolve_commit(str(git_repo), "main")
    assert main is not None
    first = _commit(wt, "one")
    run_git(wt, "checkout", "-q", "--detach")
    second = _commit(wt, "two")
    repo = str(git_repo)
    assert git.unkept_commits(repo, [second, first], "paw/a", main) == 2
    run_git(git_repo, "tag", "t1", first)
    assert git.unkept_commits(repo, [second, first], "paw/a", main) == 1
    run_git(git_repo, "update-ref", "refs/paw/archive/a-1", second)
    assert git.unkept_commits(repo, [second, first], "paw/a", main) == 0


def test_ignored_paths_leave_out_disposable_caches(git_repo: Path) -> None:
    (git_repo / ".gitignore").write_text(".env\nbuild/\nnode_modules/\n__pycache__/\n")
    run_git(git_repo, "add", ".gitignore")
    run_git(git_repo, "commit", "-q", "-m", "ignores")
    (git_repo / ".env").write_text("K=1\n")
    for path in ("build/out/x.o", "node_modules/a/i.js", "pkg/__pycache__/m.pyc"):
        (git_repo / path).parent.mkdir(parents=True, exist_ok=True)
        (git_repo / path).write_text("x")
    found = GitCli().ignored_paths(str(git_repo), DEFAULT_DISPOSABLE)
    assert sorted(found) == [".env", "build/"]


def test_snapshot_holds_ignored_files_and_every_parent(git_repo: Path) -> None:
    git = GitCli()
    wt = _worktree(git_repo)
    tip = _commit(wt, "on-branch")
    run_git(wt, "checkout", "-q", "--detach", "main")
    (wt / ".gitignore").write_text("secret.env\n")
    (wt / "secret.env").write_text("K=1\n")
    head = git.head_commit(str(wt))
    sha = git.snapshot(str(wt), "refs/paw/archive/a-1", "m", ignored=["secret.env"], parents=[tip])
    assert git.commit_parents(str(git_repo), sha) == [head, tip]
    files = run_git(git_repo, "ls-tree", "-r", "--name-only", sha).split()
    assert "secret.env" in files
    assert run_git(wt, "status", "--porcelain") == "?? .gitignore\n"  # index untouched


def test_worktree_path_problems(git_repo: Path, tmp_path: Path) -> None:
    git = GitCli()
    repo = str(git_repo)
    assert git.worktree_path_problem(repo, str(tmp_path / "new" / "deep")) is None
    assert "git directory" in str(git.worktree_path_problem(repo, str(git_repo / ".git" / "x")))
    assert "not a directory" in str(
        git.worktree_path_problem(repo, str(git_repo / "README.md" / "x"))
    )
    assert "already exists" in str(git.worktree_path_problem(repo, str(git_repo)))
    assert git.resolve_commit(repo, "--detach") is None
    assert git.valid_branch_name(repo, "paw/ok")
    assert not git.valid_branch_name(repo, "a..b")
    assert not git.valid_branch_name(repo, "-x")
