"""Git actions with a human in the loop (git-guardrails' ``executeGitAction``).

``clone``, ``pull``, ``status`` and ``log`` run at once. ``commit``, ``push`` and ``pr`` never
run here: they return ``requires_confirmation=True`` with :class:`ConfirmationDetails` and a
payload for :func:`execute_confirmed_git_action`. A commit that would add a sensitive file raises
:class:`~paw.errors.SensitiveFilesError` before any confirmation, and the confirmed commit checks
the tree again (sensitive files, and the same changed paths the human saw) before it stages.

Every command is built from fixed words and :func:`shell_escape`-quoted values and runs through
an injectable shell (``(command, cwd, timeout_s) -> ShellResult``).
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from paw.core.config import GuardConfig, PawConfig
from paw.core.guard.confirm import ConfirmationDetails, shell_escape
from paw.core.guard.files import PathRules
from paw.errors import GitError, GuardError, PawError
from paw.guard.git_cli import GitRunner, guard_config
from paw.guard.git_commit import prepare_commit, run_commit
from paw.guard.git_types import (
    GitAction,
    GitActionParams,
    GitActionResult,
    GitConfirmationPayload,
    Shell,
)

_MAX_PENDING = 50


# ── read actions ───────────────────────────────────────────────────────────────────────────────


def _run_read(git: GitRunner, params: GitActionParams) -> str:
    if params.action is GitAction.CLONE:
        parent = str(Path(params.repo_path).parent)
        command = (
            "git clone -- " + shell_escape(params.url or "") + " " + shell_escape(params.repo_path)
        )
        result = git.shell(command, parent, git.timeout_s)
        if not result.ok:
            raise GitError(f"git clone failed: {result.stderr.strip()}")
        return f"Repository cloned at {params.repo_path}"
    if params.action is GitAction.PULL:
        return git.run(["pull", "--ff-only"]).stdout.strip() or "Already up to date."
    if params.action is GitAction.STATUS:
        status = git.run(["status", "--short", "--branch"]).stdout.rstrip()
        log = git.out(["log", "--oneline", "-5"]) or ""
        return "\n".join(part for part in (status, log) if part) or "Clean repository."
    return git.out(["log", "--oneline", "-10"]) or "No commits yet."


# ── push and pull request ──────────────────────────────────────────────────────────────────────


def _remote(git: GitRunner, branch: str, wanted: str | None) -> str:
    if wanted:
        return wanted
    remotes = (git.out(["remote"]) or "").split()
    configured = git.out(["config", "--get", f"branch.{branch}.remote"])
    if configured and configured in remotes:
        return configured
    if "origin" in remotes:
        return "origin"
    if remotes:
        return remotes[0]
    raise GitError("the repository has no remote to push to", hint="git remote add origin URL")


def _touched(git: GitRunner, rev_args: list[str], rules: PathRules) -> tuple[list[str], list[str]]:
    names = git.out(["log", "--name-only", "--format=", "-z", *rev_args]) or ""
    paths = sorted({p for p in names.replace("\n", "\0").split("\0") if p})
    return [p for p in paths if rules.is_instruction(p)], [
        p for p in paths if rules.is_sensitive(p)
    ]


def _prepare_push(git: GitRunner, params: GitActionParams, cfg: GuardConfig) -> GitActionResult:
    branch = params.branch or git.branch()
    if not branch:
        raise GitError("HEAD is detached: name the branch to push")
    remote = _remote(git, branch, params.remote)
    revs = [branch, "--not", f"--remotes={remote}"]
    pending = git.out(["log", "--oneline", f"-{_MAX_PENDING}", *revs]) or ""
    rules = PathRules.from_config(cfg)
    instruction, sensitive = _touched(git, revs, rules)
    details = ConfirmationDetails(
        action="push",
        repo_path=params.repo_path,
        branch=branch,
        remote=remote,
        pending_commits=pending,
        agent_instruction_files_changed=tuple(instruction),
        sensitive_files=tuple(sensitive),
        protected_branch=branch in cfg.protected_branches,
    )
    payload = GitConfirmationPayload(
        action=GitAction.PUSH, repo_path=params.repo_path, remote=remote, branch=branch
    )
    return GitActionResult(True, "", details, payload)


def _prepare_pr(git: GitRunner, params: GitActionParams, cfg: GuardConfig) -> GitActionResult:
    branch = params.branch or git.branch()
    title = params.title or git.out(["log", "-1", "--format=%s"]) or "Automated changes"
    body = params.body if params.body is not None else "PR created automatically."
    rules = PathRules.from_config(cfg)
    # Commits the PR brings: against the base on origin (or origin's default branch), else
    # everything no remote has yet.
    base_ref = f"refs/remotes/origin/{params.base}" if params.base else "refs/remotes/origin/HEAD"
    tip = branch or "HEAD"
    revs = [tip, "--not", base_ref] if git.has_ref(base_ref) else [tip, "--not", "--remotes"]
    pending = git.out(["log", "--oneline", f"-{_MAX_PENDING}", *revs]) or ""
    instruction, sensitive = _touched(git, revs, rules)
    details = ConfirmationDetails(
        action="pr",
        repo_path=params.repo_path,
        branch=branch,
        base=params.base,
        title=title,
        body=body,
        pending_commits=pending,
        agent_instruction_files_changed=tuple(instruction),
        sensitive_files=tuple(sensitive),
    )
    payload = GitConfirmationPayload(
        action=GitAction.PR,
        repo_path=params.repo_path,
        branch=branch,
        title=title,
        body=body,
        base=params.base,
    )
    return GitActionResult(True, "", details, payload)


def _run_push(git: GitRunner, payload: GitConfirmationPayload) -> str:
    if not payload.remote or not payload.branch:
        raise GuardError("a push payload needs a remote and a branch")
    ref = f"refs/heads/{payload.branch}"
    result = git.run(["push", "--", payload.remote, f"{ref}:{ref}"])
    return "Push completed:\n" + (result.stdout + result.stderr).strip()


def _run_pr(git: GitRunner, payload: GitConfirmationPayload) -> str:
    if shutil.which("gh") is None:
        raise PawError(
            "creating a pull request needs the GitHub CLI `gh`, which is not in PATH",
            hint="install gh (https://cli.github.com) and run `gh auth login`",
        )
    words = ["gh", "pr", "create", "--title", payload.title or "", "--body", payload.body or ""]
    if payload.base:
        words += ["--base", payload.base]
    if payload.branch:
        words += ["--head", payload.branch]
    result = git.shell(" ".join(shell_escape(w) for w in words), git.repo, git.timeout_s)
    if not result.ok:
        raise GitError(f"gh pr create failed: {result.stderr.strip()}")
    return "PR created:\n" + result.stdout.strip()


# ── public API ─────────────────────────────────────────────────────────────────────────────────


def execute_git_action(
    params: GitActionParams | Mapping[str, Any],
    config: GuardConfig | PawConfig | None = None,
    *,
    shell: Shell | None = None,
) -> GitActionResult:
    """Run a read action now, or prepare a write (commit, push, pr) for human confirmation.

    Raises:
        SensitiveFilesError: a commit would add a sensitive file (staged, unstaged or
            untracked), before any confirmation.
        GitError: git failed (not a repository, no remote, detached HEAD for push, …).
        GuardError: invalid parameters (relative ``repo_path``, unknown action, …).
    """
    if not isinstance(params, GitActionParams):
        params = GitActionParams.from_dict(params)
    cfg = guard_config(config)
    if params.action is GitAction.CLONE:
        parent = str(Path(params.repo_path).parent)
        git = GitRunner(parent, shell, cfg.git_timeout_s, must_exist=False)
        return GitActionResult(requires_confirmation=False, output=_run_read(git, params))
    git = GitRunner(params.repo_path, shell, cfg.git_timeout_s)
    if params.action is GitAction.COMMIT:
        return prepare_commit(git, params, cfg)
    if params.action is GitAction.PUSH:
        return _prepare_push(git, params, cfg)
    if params.action is GitAction.PR:
        return _prepare_pr(git, params, cfg)
    return GitActionResult(requires_confirmation=False, output=_run_read(git, params))


def execute_confirmed_git_action(
    payload: GitConfirmationPayload | Mapping[str, Any],
    config: GuardConfig | PawConfig | None = None,
    *,
    shell: Shell | None = None,
) -> str:
    """Run a commit, push or pull request after a human confirmed it; return git's summary.

    The commit re-checks the tree first (sensitive files; the same changed paths as shown).
    A push names its remote and branch explicitly and never forces. ``pr`` needs ``gh`` in PATH
    and says so before running anything.
    """
    if not isinstance(payload, GitConfirmationPayload):
        payload = GitConfirmationPayload.from_dict(payload)
    cfg = guard_config(config)
    git = GitRunner(payload.repo_path, shell, cfg.git_timeout_s)
    if payload.action is GitAction.COMMIT:
        return run_commit(git, payload, cfg)
    if payload.action is GitAction.PUSH:
        return _run_push(git, payload)
    if payload.action is GitAction.PR:
        return _run_pr(git, payload)
    raise GuardError(f"{payload.action.value} does not need confirmation; call execute_git_action")


__all__ = [
    "GitAction",
    "GitActionParams",
    "GitActionResult",
    "GitConfirmationPayload",
    "Shell",
    "execute_confirmed_git_action",
    "execute_git_action",
]
