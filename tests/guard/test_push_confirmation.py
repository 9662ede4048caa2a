"""Issue 31: a push's confirmation names the remote and branch the push really targets, whatever
options it carries (one parser for the verdict and the confirmation), on a real repository.

The agent's worktree has ``feature`` checked out and two remotes, ``origin`` and ``fork``; every
command pushes ``main`` to ``fork``, so a parser that takes an option's value for the remote,
or falls back to the upstream or the checked-out branch, shows another remote or branch and
loses the protected-branch warning.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest

from paw.cli.compose import git_details_for
from paw.core.config import PawConfig
from paw.core.guard.shell import analyse_command, find_git_write

pytestmark = pytest.mark.git

WARNING = "WARNING: this pushes straight to the protected branch main."


class PushCase(NamedTuple):
    """A ``git push`` command that pushes ``main`` to ``fork``."""

    test_id: str
    command: str


PUSH_CASES = (
    PushCase("plain", "git push fork main"),
    PushCase("o-separate", "git push -o ci.skip fork main"),
    PushCase("o-glued", "git push -oci.skip fork main"),
    PushCase("o-in-cluster", "git push -uo ci.skip fork main"),
    PushCase("o-two", "git push -o ci.skip -o merge_request.create fork main"),
    PushCase("push-option", "git push --push-option ci.skip fork main"),
    PushCase("push-option-eq", "git push --push-option=ci.skip fork main"),
    PushCase("push-option-abbrev", "git push --push-opt ci.skip fork main"),
    PushCase("repo", "git push --repo origin fork main"),
    PushCase("repo-eq", "git push --repo=origin fork main"),
    PushCase("receive-pack", "git push --receive-pack git-receive-pack fork main"),
    PushCase("receive-pack-eq", "git push --receive-pack=git-receive-pack fork main"),
    PushCase("exec", "git push --exec git-receive-pack fork main"),
    PushCase("exec-eq", "git push --exec=git-receive-pack fork main"),
    PushCase("recurse-submodules", "git push --recurse-submodules check fork main"),
    PushCase("recurse-submodules-eq", "git push --recurse-submodules=check fork main"),
    PushCase("signed", "git push --signed fork main"),
    PushCase("signed-eq", "git push --signed=if-asked fork main"),
    PushCase("no-signed", "git push --no-signed fork main"),
    PushCase("lease", "git push --force-with-lease fork main"),
    PushCase("lease-eq", "git push --force-with-lease=main:0123abc fork main"),
    PushCase("options-after", "git push fork main -o ci.skip --repo origin"),
    PushCase("flags", "git push -4 -u --atomic --follow-tags --no-verify --thin fork main"),
    PushCase("double-dash", "git push -o ci.skip -- fork main"),
    PushCase("refs-heads", "git push -o ci.skip fork refs/heads/main:refs/heads/main"),
    PushCase("plus", "git push -o ci.skip fork +main"),
    PushCase("wrapped", "cd . && env GIT_TRACE=0 git -C . push -o ci.skip fork main"),
)


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.fixture
def worktree(git_repo: Path, tmp_path: Path) -> Path:
    """``git_repo`` with remotes origin and fork (both at the first commit), ``main`` one commit
    ahead of them, and ``feature`` checked out (its upstream is origin)."""
    for name in ("origin", "fork"):
        bare = tmp_path / f"{name}.git"
        _git(tmp_path, "init", "-q", "--bare", str(bare))
        _git(git_repo, "remote", "add", name, str(bare))
        _git(git_repo, "push", "-q", name, "main")
    (git_repo / "app.py").write_text("print(1)\n", encoding="utf-8")
    _git(git_repo, "add", "app.py")
    _git(git_repo, "commit", "-q", "-m", "feat: the pending commit")
    _git(git_repo, "switch", "-q", "-c", "feature")
    _git(git_repo, "push", "-q", "-u", "origin", "feature")
    return git_repo


@pytest.mark.parametrize(PushCase._fields, PUSH_CASES, ids=[c.test_id for c in PUSH_CASES])
def test_push_confirmation_names_the_real_remote_and_branch(
    worktree: Path, test_id: str, command: str
) -> None:
    del test_id
    found = find_git_write(command)
    assert found is not None
    assert (found.action, found.remote, found.branch) == ("push", "fork", "main")
    shown = git_details_for(PawConfig())(command, str(worktree))
    assert shown is not None
    lines = shown.splitlines()
    assert lines[0] == WARNING
    assert "Remote: fork" in lines
    assert "Branch: main" in lines
    assert "    " + _git(worktree, "log", "--oneline", "-1", "main") in lines  # the pending one


class PlanCase(NamedTuple):
    """A push whose verdict depends on reading its options the way git does."""

    test_id: str
    command: str
    action: str
    rule: str


PLAN_CASES = (
    PlanCase("mirror-abbrev", "git push --mirr origin", "block", "git.push-mirror"),
    PlanCase(
        "force-in-cluster-with-o", "git push -fo ci.skip origin main", "block", "git.force-push"
    ),
    PlanCase(
        "o-then-force-main", "git push -o ci.skip --force origin main", "block", "git.force-push"
    ),
    PlanCase("lease-abbrev", "git push --force-with origin main", "block", "git.force-push"),
    PlanCase("dry-run-undone", "git push --dry-run --no-dry-run origin x", "confirm", "git.push"),
    PlanCase("dry-run", "git push -n -o ci.skip origin main", "allow", ""),
    PlanCase("o-value-is-no-remote", "git push -o main origin feature/x", "confirm", "git.push"),
    PlanCase("repo-names-remote", "git push --repo=fork", "confirm", "git.push"),
)


@pytest.mark.parametrize(PlanCase._fields, PLAN_CASES, ids=[c.test_id for c in PLAN_CASES])
def test_push_verdict_reads_options_like_git(
    test_id: str, command: str, action: str, rule: str
) -> None:
    del test_id
    verdict = analyse_command(command).verdict
    assert verdict.action.value == action
    if rule:
        assert rule in verdict.rules


def test_push_verdict_names_the_remote_after_options() -> None:
    verdict = analyse_command("git push --recurse-submodules check fork main").verdict
    assert any("to fork (remote write)" in reason for reason in verdict.reasons)
    verdict = analyse_command("git push --repo=fork").verdict
    assert any("to fork (remote write)" in reason for reason in verdict.reasons)
