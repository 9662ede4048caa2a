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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from paw.core.config import GuardConfig, PawConfig
from paw.core.guard.confirm import ConfirmationDetails, shell_escape
from paw.core.guard.files import PathRules, StatusEntry, parse_porcelain
from paw.errors import GitError, GuardError, PawError, SensitiveFilesError
from paw.guard.git_types import (
    GitAction,
    GitActionParams,
    GitActionResult,
    GitConfirmationPayload,
    Shell,
)
from paw.guard.shell_exec import ShellResult, run_shell

_GIT_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_EDITOR": "true", "GIT_PAGER": "cat"}
_STATUS_ARGS = ("status", "--porcelain=v1", "-z", "--untracked-files=all")
_MAX_PENDING = 50


def _default_shell(command: str, cwd: str | None, timeout_s: float | None) -> ShellResult:
    return run_shell(command, cwd=cwd, timeout_s=timeout_s, env=_GIT_ENV)


def _guard_config(config: GuardConfig | PawConfig | None) -> GuardConfig:
    if config is None:
        return GuardConfig()
    return config.guard if isinstance(config, PawConfig) else config


class _Git:
    """git in one repository through the (possibly injected) shell."""

    def __init__(
        self, repo: str, shell: Shell | None, timeout_s: float, *, must_exist: bool = True
    ) -> None:
        self.repo = repo
        self.shell = shell or _default_shell
        self.timeout_s = timeout_s
        # Only the real shell touches the disk; run_shell would create a missing cwd.
        if must_exist and shell is None and not Path(repo).is_dir():
            raise GitError(f"not a directory: {repo}")

    def run(self, args: Sequence[str], *, check: bool = True) -> ShellResult:
        command = "git " + " ".join(shell_escape(a) for a in args)
        result = self.shell(command, self.repo, self.timeout_s)
        if check and not result.ok:
            detail = (result.stderr.strip() or result.stdout.strip()).splitlines()
            raise GitError(f"git {args[0]} failed: {detail[-1] if detail else result.exit_code}")
        return result

    def out(self, args: Sequence[str]) -> str | None:
        """stdout of a query, or None when git fails (unborn HEAD, missing ref, …)."""
        result = self.run(args, check=False)
        return result.stdout.strip() if result.ok else None

    def status(self) -> list[StatusEntry]:
        return parse_porcelain(self.run(_STATUS_ARGS).stdout)

    def branch(self) -> str | None:
        return self.out(["symbolic-ref", "--short", "-q", "HEAD"]) or None

    def has_ref(self, ref: str) -> bool:
        return self.out(["rev-parse", "--verify", "-q", ref + "^{commit}"]) is not None


# ── read actions ───────────────────────────────────────────────────────────────────────────────


def _run_read(git: _Git, params: GitActionParams) -> str:
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


# ── commit ─────────────────────────────────────────────────────────────────────────────────────


def _selected(
    entries: list[StatusEntry], files: tuple[str, ...] | None, add_all: bool
) -> list[StatusEntry]:
    """The entries a commit would include."""
    if files is None and add_all:
        return [e for e in entries if not e.is_ignored]
    staged = [e for e in entries if e.index not in " ?!"]
    if files is None:
        return staged
    wanted = [f.rstrip("/") for f in files]
    picked = [
        e
        for e in entries
        if e not in staged and any(p == w or p.startswith(w + "/") for p in e.paths for w in wanted)
    ]
    return staged + picked


def _paths(entries: list[StatusEntry]) -> tuple[str, ...]:
    return tuple(sorted({p for e in entries for p in e.paths}))


def _check_sensitive(entries: list[StatusEntry], rules: PathRules) -> None:
    """Raise when any non-deletion entry, staged or not, names a sensitive path."""
    found = [
        p
        for e in entries
        if not e.is_ignored and not e.is_deletion
        for p in e.paths
        if rules.is_sensitive(p)
    ]
    if found:
        raise SensitiveFilesError(sorted(set(found)))


def _truncate(text: str, max_lines: int) -> str:
    lines = text.rstrip("\n").split("\n")
    if len(lines) <= max_lines:
        return "\n".join(lines)
    return "\n".join([*lines[:max_lines], f"… ({len(lines) - max_lines} more lines)"])


def _diff_preview(git: _Git, params: GitActionParams, max_lines: int) -> str:
    base = ["diff", "HEAD"] if params.add_all and git.has_ref("HEAD") else ["diff", "--cached"]
    tail = ["--", *params.files] if params.files else []
    stat = git.out([*base, "--stat", *tail]) or ""
    patch = git.out([*base, *tail]) or ""
    return _truncate("\n\n".join(p for p in (stat, patch) if p), max_lines)


def _prepare_commit(git: _Git, params: GitActionParams, cfg: GuardConfig) -> GitActionResult:
    rules = PathRules.from_config(cfg)
    entries = git.status()
    _check_sensitive(entries, rules)
    chosen = _selected(entries, params.files, params.add_all)
    if not chosen:
        return GitActionResult(requires_confirmation=False, output="No changes to commit.")
    paths = _paths(chosen)
    message = params.message or "chore: automated commit"
    details = ConfirmationDetails(
        action="commit",
        repo_path=params.repo_path,
        branch=git.branch(),
        message=message,
        diff_preview=_diff_preview(git, params, cfg.diff_preview_lines),
        files=paths,
        agent_instruction_files_changed=tuple(p for p in paths if rules.is_instruction(p)),
        sensitive_files=tuple(
            p for e in chosen if e.is_deletion for p in e.paths if rules.is_sensitive(p)
        ),
    )
    payload = GitConfirmationPayload(
        action=GitAction.COMMIT,
        repo_path=params.repo_path,
        message=message,
        files=params.files,
        add_all=params.add_all,
        expected_paths=paths,
    )
    return GitActionResult(True, "", details, payload)


def _run_commit(git: _Git, payload: GitConfirmationPayload, cfg: GuardConfig) -> str:
    entries = git.status()
    _check_sensitive(entries, PathRules.from_config(cfg))
    paths = _paths(_selected(entries, payload.files, payload.add_all))
    if paths != payload.expected_paths:
        changed = sorted(set(paths) ^ set(payload.expected_paths))
        raise GuardError(
            "the working tree changed since the commit was shown for confirmation: "
            + ", ".join(changed),
            hint="ask for the commit again so the human sees what it includes",
        )
    if payload.files:
        git.run(["add", "-A", "--", *payload.files])
    elif payload.add_all:
        git.run(["add", "-A"])
    result = git.run(["commit", "-m", payload.message or "chore: automated commit"])
    return "Commit created: " + (result.stdout.strip().splitlines() or [""])[0]


# ── push and pull request ──────────────────────────────────────────────────────────────────────


def _remote(git: _Git, branch: str, wanted: str | None) -> str:
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


def _touched(git: _Git, rev_args: list[str], rules: PathRules) -> tuple[list[str], list[str]]:
    names = git.out(["log", "--name-only", "--format=", "-z", *rev_args]) or ""
    paths = sorted({p for p in names.replace("\n", "\0").split("\0") if p})
    return [p for p in paths if rules.is_instruction(p)], [
        p for p in paths if rules.is_sensitive(p)
    ]


def _prepare_push(git: _Git, params: GitActionParams, cfg: GuardConfig) -> GitActionResult:
    branch = params.branch or git.branch()
    if not branch:
        raise GitError("HEAD is detached: name the branch to push")
    remote = _remote(git, branch, params.remote)
    revs = [branch, "--not", f"--remotes={remote}"]
    pending = git.out(["log", "--oneline", f"-{_MAX_PENDING}", *revs]) or ""
    rules = PathRules.from_config(cfg)
    instruction, sensitive = _touched(git, revs, rules)
    notes = []
    if branch in cfg.protected_branches:
        notes.append(f"pushes straight to the protected branch {branch!r}")
    details = ConfirmationDetails(
        action="push",
        repo_path=params.repo_path,
        branch=branch,
        remote=remote,
        pending_commits=pending,
        agent_instruction_files_changed=tuple(instruction),
        sensitive_files=tuple(sensitive),
        notes=tuple(notes),
    )
    payload = GitConfirmationPayload(
        action=GitAction.PUSH, repo_path=params.repo_path, remote=remote, branch=branch
    )
    return GitActionResult(True, "", details, payload)


def _prepare_pr(git: _Git, params: GitActionParams, cfg: GuardConfig) -> GitActionResult:
    branch = params.branch or git.branch()
    title = params.title or git.out(["log", "-1", "--format=%s"]) or "Automated changes"
    body = params.body if params.body is not None else "PR created automatically."
    rules = PathRules.from_config(cfg)
    revs = [branch or "HEAD", "--not", "--remotes"]
    base_ref = f"origin/{params.base}" if params.base else None
    if base_ref and git.has_ref(base_ref):
        revs = [branch or "HEAD", "--not", base_ref]
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


def _run_push(git: _Git, payload: GitConfirmationPayload) -> str:
    if not payload.remote or not payload.branch:
        raise GuardError("a push payload needs a remote and a branch")
    ref = f"refs/heads/{payload.branch}"
    result = git.run(["push", "--", payload.remote, f"{ref}:{ref}"])
    return "Push completed:\n" + (result.stdout + result.stderr).strip()


def _run_pr(git: _Git, payload: GitConfirmationPayload) -> str:
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
    cfg = _guard_config(config)
    if params.action is GitAction.CLONE:
        parent = str(Path(params.repo_path).parent)
        git = _Git(parent, shell, cfg.git_timeout_s, must_exist=False)
        return GitActionResult(requires_confirmation=False, output=_run_read(git, params))
    git = _Git(params.repo_path, shell, cfg.git_timeout_s)
    if params.action is GitAction.COMMIT:
        return _prepare_commit(git, params, cfg)
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
    cfg = _guard_config(config)
    git = _Git(payload.repo_path, shell, cfg.git_timeout_s)
    if payload.action is GitAction.COMMIT:
        return _run_commit(git, payload, cfg)
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
