"""The git the lander needs (the port :class:`LandGit`; :class:`paw.adapters.git.land.LandGitCli`
is it): scratch worktrees, replaying a task's commits there, fast-forwarding the base, pushing."""

from __future__ import annotations

from typing import Protocol


class LandGit(Protocol):
    """The git the lander needs (paw.adapters.git.land.LandGitCli)."""

    def resolve(self, repo: str, rev: str) -> str | None:
        """The commit ``rev`` names, or None."""
        ...

    def current_branch(self, repo: str) -> str | None:
        """The branch checked out in ``repo`` (None: detached)."""
        ...

    def is_branch(self, repo: str, name: str) -> bool:
        """True when the branch exists."""
        ...

    def add_scratch(self, repo: str, path: str, commit: str) -> None:
        """A detached scratch worktree at ``commit``."""
        ...

    def remove_scratch(self, repo: str, path: str) -> None:
        """Remove a scratch worktree, whatever state it is in."""
        ...

    def scratch_paths(self, root: str, prefix: str) -> list[str]:
        """The scratch worktrees under ``root`` whose name starts with ``prefix``."""
        ...

    def apply(
        self, scratch: str, head: str, base: str, strategy: str, message: str
    ) -> tuple[str | None, tuple[str, ...]]:
        """``head``'s work on ``base``: the result, or None and the conflicting files."""
        ...

    def commits(self, repo: str, old: str, new: str) -> list[str]:
        """``old..new``, oldest first."""
        ...

    def fast_forward(self, repo: str, branch: str, old: str, new: str) -> bool:
        """Move ``branch`` from ``old`` to ``new`` (a descendant); False if it is not at old."""
        ...

    def remote_for(self, repo: str, branch: str) -> str | None:
        """The remote ``branch`` is pushed to (None: no remote)."""
        ...

    def push(self, repo: str, remote: str, branch: str) -> str | None:
        """Push ``branch`` (never forced): None, or why it failed."""
        ...
