"""Checks a spawn runs before it creates anything: a refused spawn leaves nothing behind."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.errors import PawError

if TYPE_CHECKING:
    from paw.supervisor.context import Context


def check_spawn(ctx: Context, name: str, worktree: str, branch: str, base: str) -> None:
    """PawError (one line, with a hint) unless paw can record the agent, ``base`` names a
    commit, git accepts ``branch`` and the worktree can be created at ``worktree``."""
    ctx.state.check_writable()
    if ctx.vcs.branch_exists(ctx.repo_root, branch):
        # No agent of that name, yet its branch: someone else's, or a spawn interrupted by an
        # older paw (without an intent record). Never reuse or remove it here.
        raise PawError(
            f"branch {branch} already exists but no agent {name!r} does",
            hint=(
                "pick another name, or look at the branch (and its worktree, `git worktree "
                f"list`); `paw rm {name}` removes them once it has checked they hold nothing"
            ),
        )
    if base.startswith("-") or ctx.vcs.resolve_commit(ctx.repo_root, base) is None:
        raise PawError(
            f"base {base!r} names no commit in this repository",
            hint="--base (or [worktrees] base) takes a branch, tag or commit",
        )
    if not ctx.vcs.valid_branch_name(ctx.repo_root, branch):
        raise PawError(
            f"git does not accept {branch!r} as a branch name",
            hint="check [worktrees] branch_prefix in paw.toml",
        )
    problem = ctx.vcs.worktree_path_problem(ctx.repo_root, worktree)
    if problem is not None:
        raise PawError(problem, hint="check [worktrees] root in paw.toml, or pick another name")
