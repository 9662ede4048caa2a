"""git in one repository through an injectable shell (used by the git actions)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from paw.core.config import GuardConfig, PawConfig
from paw.core.guard.confirm import shell_escape
from paw.core.guard.files import StatusEntry, parse_porcelain
from paw.errors import GitError
from paw.guard.git_types import Shell
from paw.guard.shell_exec import ShellResult, run_shell

GIT_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_EDITOR": "true", "GIT_PAGER": "cat"}
STATUS_ARGS = ("status", "--porcelain=v1", "-z", "--untracked-files=all")


def default_shell(command: str, cwd: str | None, timeout_s: float | None) -> ShellResult:
    """run_shell with prompts, editors and pagers switched off."""
    return run_shell(command, cwd=cwd, timeout_s=timeout_s, env=GIT_ENV)


def guard_config(config: GuardConfig | PawConfig | None) -> GuardConfig:
    """The guard table of ``config`` (defaults when None)."""
    if config is None:
        return GuardConfig()
    return config.guard if isinstance(config, PawConfig) else config


class GitRunner:
    """git in one repository through the (possibly injected) shell."""

    def __init__(
        self, repo: str, shell: Shell | None, timeout_s: float, *, must_exist: bool = True
    ) -> None:
        self.repo = repo
        self.shell = shell or default_shell
        self.timeout_s = timeout_s
        # Only the real shell touches the disk; run_shell would create a missing cwd.
        if must_exist and shell is None and not Path(repo).is_dir():
            raise GitError(f"not a directory: {repo}")

    def run(self, args: Sequence[str], *, check: bool = True) -> ShellResult:
        """Run ``git ARGS`` (each word quoted); raise GitError on failure when ``check``."""
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
        """Staged, unstaged and untracked entries, untracked dirs listed file by file."""
        return parse_porcelain(self.run(STATUS_ARGS).stdout)

    def branch(self) -> str | None:
        """The current branch (also on an unborn HEAD), or None when detached."""
        return self.out(["symbolic-ref", "--short", "-q", "HEAD"]) or None

    def has_ref(self, ref: str) -> bool:
        """True when ``ref`` names a commit."""
        return self.out(["rev-parse", "--verify", "-q", ref + "^{commit}"]) is not None
