"""The git of ``paw wave land``: scratch worktrees, rebase or merge there, fast-forward only.

Nothing here rewrites a branch a human or an agent works on: the task's commits are replayed
(or merged) on a detached HEAD in a scratch worktree, and the base branch only ever moves to a
descendant of where it was — by ``git update-ref NEW OLD`` (atomic, and only if it is still at
OLD), or, when the branch is checked out, by ``git merge --ff-only`` in that checkout (git
refuses if it would overwrite local changes).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from paw.adapters import proc
from paw.adapters.git.half_made import run_git
from paw.errors import GitError, PawError

_TIMEOUT = 300.0


def _git(cwd: str, *args: str, check: bool = True) -> proc.Completed:
    return run_git(
        ["git", "-C", cwd, *args], GitError, label=args[0], timeout=_TIMEOUT, check=check
    )


class LandGitCli:
    """The git commands of the merge queue (the port :class:`paw.supervisor.land.LandGit`)."""

    def resolve(self, repo: str, rev: str) -> str | None:
        """The commit ``rev`` names, or None."""
        out = _git(
            repo,
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            f"{rev}^{{commit}}",
            check=False,
        )
        return out.stdout.strip() or None if out.ok else None

    def current_branch(self, repo: str) -> str | None:
        """The branch checked out in ``repo`` (None: a detached HEAD)."""
        out = _git(repo, "symbolic-ref", "--quiet", "--short", "HEAD", check=False)
        return out.stdout.strip() or None if out.ok else None

    def is_branch(self, repo: str, name: str) -> bool:
        """True when ``refs/heads/<name>`` exists."""
        return _git(repo, "show-ref", "--verify", "--quiet", f"refs/heads/{name}", check=False).ok

    def checked_out_in(self, repo: str, branch: str) -> str | None:
        """The worktree that has ``branch`` checked out, if any."""
        out = _git(repo, "worktree", "list", "--porcelain")
        path = None
        for line in out.stdout.splitlines():
            if line.startswith("worktree "):
                path = line[len("worktree ") :]
            elif line == f"branch refs/heads/{branch}":
                return path
        return None

    def add_scratch(self, repo: str, path: str, commit: str) -> None:
        """A scratch worktree at ``commit`` (detached: no branch is touched)."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        _git(repo, "worktree", "add", "--detach", "--quiet", path, commit)

    def remove_scratch(self, repo: str, path: str) -> None:
        """Remove a scratch worktree, whatever state a crash left it in (it holds no work)."""
        if Path(path).exists():
            _git(repo, "worktree", "remove", "--force", "--force", path, check=False)
            shutil.rmtree(path, ignore_errors=True)
        _git(repo, "worktree", "prune", check=False)

    def scratch_paths(self, root: str, prefix: str) -> list[str]:
        """The scratch worktrees under ``root`` whose name starts with ``prefix``."""
        folder = Path(root)
        if not folder.is_dir():
            return []
        return sorted(str(p) for p in folder.iterdir() if p.name.startswith(prefix))

    def apply(
        self, scratch: str, head: str, base: str, strategy: str, message: str
    ) -> tuple[str | None, tuple[str, ...]]:
        """Put ``head``'s work on top of ``base`` in ``scratch``: the resulting commit, or None
        and the conflicting files (the rebase or merge is aborted)."""
        if strategy == "merge":
            done = _git(scratch, "merge", "--no-ff", "--no-edit", "-m", message, head, check=False)
        else:
            done = _git(scratch, "rebase", "--no-autosquash", base, head, check=False)
        if done.ok:
            return self.resolve(scratch, "HEAD"), ()
        files = _git(scratch, "diff", "--name-only", "--diff-filter=U", check=False).stdout
        conflicted = tuple(f for f in files.splitlines() if f.strip())
        _git(scratch, "merge" if strategy == "merge" else "rebase", "--abort", check=False)
        if not conflicted:
            text = (done.stderr or done.stdout).strip().splitlines()
            raise PawError(f"git {strategy} failed: {text[-1] if text else 'no output'}")
        return None, conflicted

    def commits(self, repo: str, old: str, new: str) -> list[str]:
        """The commits ``new`` has over ``old``, oldest first."""
        out = _git(repo, "rev-list", "--reverse", f"{old}..{new}")
        return [line for line in out.stdout.split() if line]

    def fast_forward(self, repo: str, branch: str, old: str, new: str) -> bool:
        """Move ``branch`` from ``old`` to ``new``, a descendant of ``old``. False when the
        branch is no longer at ``old`` (someone moved it: nothing is done)."""
        if not _git(repo, "merge-base", "--is-ancestor", old, new, check=False).ok:
            raise PawError(
                f"refusing to move {branch}: {new[:12]} does not descend from {old[:12]}"
            )
        checkout = self.checked_out_in(repo, branch)
        if checkout is None:
            ref = f"refs/heads/{branch}"
            return _git(repo, "update-ref", "-m", "paw wave land", ref, new, old, check=False).ok
        if self.resolve(checkout, "HEAD") != old:
            return False
        done = _git(checkout, "merge", "--ff-only", "--quiet", new, check=False)
        if not done.ok:
            text = (done.stderr or done.stdout).strip().splitlines()
            raise PawError(
                f"cannot fast-forward {branch} in {checkout}: {text[0] if text else 'git failed'}",
                hint="commit or stash the changes there, then run `paw wave land` again",
            )
        return True

    def remote_for(self, repo: str, branch: str) -> str | None:
        """Where ``branch`` is pushed: its upstream's remote, else ``origin``, else the only
        remote; None when the repository has none."""
        upstream = _git(repo, "config", "--get", f"branch.{branch}.remote", check=False)
        if upstream.ok and upstream.stdout.strip() and upstream.stdout.strip() != ".":
            return upstream.stdout.strip()
        remotes = _git(repo, "remote").stdout.split()
        if "origin" in remotes:
            return "origin"
        return remotes[0] if len(remotes) == 1 else None

    def push(self, repo: str, remote: str, branch: str) -> str | None:
        """Push ``branch`` to the same branch of ``remote``, never forced (a remote that moved
        elsewhere refuses it). None when pushed, else git's reason in one line."""
        ref = f"refs/heads/{branch}"
        done = _git(repo, "push", "--quiet", "--porcelain", remote, f"{ref}:{ref}", check=False)
        if done.ok:
            return None
        lines = [ln for ln in (done.stderr or done.stdout).strip().splitlines() if ln.strip()]
        return lines[-1] if lines else f"git push exited {done.returncode}"
