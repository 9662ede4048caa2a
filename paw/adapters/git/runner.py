"""git as paw's :class:`~paw.core.ports.Vcs`: worktrees, snapshots, diffs, archives.

Every git failure surfaces as :class:`paw.errors.GitError`. Its rooms: the counting of
worktrees (:mod:`paw.adapters.git.counting`, a mixin of :class:`GitCli`), the statuses run from
a few shells (:mod:`paw.adapters.git.statuses`), git's files read without git
(:mod:`paw.adapters.git.refs`) and the pure parsers (:mod:`paw.adapters.git.parse`), some
re-exported here.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from paw.adapters import proc
from paw.adapters.git import refs
from paw.adapters.git.counting import StatusCounting
from paw.adapters.git.half_made import run_git
from paw.adapters.git.parse import (
    Worktree,
    parse_status_z,
    parse_worktree_porcelain,
    restore_instructions,
)
from paw.adapters.git.statuses import TIMEOUT, EarlyStatuses
from paw.core.disposable import is_disposable
from paw.core.ports import RefInfo
from paw.errors import GitError

__all__ = [
    "EarlyStatuses",
    "GitCli",
    "RefInfo",
    "Worktree",
    "parse_status_z",
    "parse_worktree_porcelain",
    "restore_instructions",
]

_FALLBACK_IDENTITY = {
    "GIT_AUTHOR_NAME": "paw",
    "GIT_AUTHOR_EMAIL": "paw@localhost",
    "GIT_COMMITTER_NAME": "paw",
    "GIT_COMMITTER_EMAIL": "paw@localhost",
}


class GitCli(StatusCounting):
    """The ``git`` command line."""

    def __init__(self, *, line_counts: bool = True, early: EarlyStatuses | None = None) -> None:
        """Create the adapter.

        Args:
            line_counts: fill ``StatusCounts.insertions/deletions`` (one more git call).
            early: statuses already started for the first :meth:`status_counts_many` (see
                :class:`EarlyStatuses`).
        """
        self.line_counts = line_counts
        self._early = early

    # -- repositories and worktrees --------------------------------------------------------

    def repo_root(self, cwd: str) -> str:
        """The main worktree's top directory, from any directory of the repo or its worktrees."""
        worktrees = self.list_worktrees(cwd)
        if not worktrees or worktrees[0].bare:
            raise GitError(f"{cwd} is not inside a git repository with a working tree")
        return worktrees[0].path

    def list_worktrees(self, repo: str) -> list[Worktree]:
        """All worktrees of the repository, the main one first."""
        out = self._git(repo, "worktree", "list", "--porcelain", "-z").stdout
        return parse_worktree_porcelain(out)

    def add_worktree(self, repo: str, path: str, branch: str, base: str) -> None:
        """``git worktree add --no-track -b branch path base``.

        ``--no-track``: an agent's branch never gets ``base`` (say ``origin/main``) as its
        upstream, so a bare ``git push`` from the agent has no default destination.
        """
        self._git(repo, "worktree", "add", "--quiet", "--no-track", "-b", branch, path, base)

    def remove_worktree(self, repo: str, path: str, *, force: bool = False) -> None:
        """``git worktree remove`` (refuses a dirty worktree unless forced), then prune."""
        if Path(path).is_dir():
            flags = ["--force"] if force else []
            self._git(repo, "worktree", "remove", *flags, path)
        # a worktree whose directory is already gone (deleted by hand, or by a removal that
        # was interrupted) is only a registration left: prune drops it
        self._git(repo, "worktree", "prune")

    def delete_branch(self, repo: str, branch: str, *, force: bool = False) -> None:
        """``git branch -d`` (``-D`` when forced)."""
        self._git(repo, "branch", "-D" if force else "-d", branch)

    def current_branch(self, repo: str) -> str:
        """The branch checked out in ``repo`` (the commit id when HEAD is detached)."""
        done = self._git(repo, "symbolic-ref", "--quiet", "--short", "HEAD", check=False)
        if done.ok:
            return done.stdout.strip()
        return self._git(repo, "rev-parse", "--verify", "HEAD").stdout.strip()

    def branch_exists(self, repo: str, branch: str) -> bool:
        """True when ``refs/heads/<branch>`` exists."""
        ref = f"refs/heads/{branch}"
        return self._git(repo, "show-ref", "--verify", "--quiet", ref, check=False).ok

    def is_merged(self, repo: str, branch: str, base: str) -> bool:
        """True when every commit of ``branch`` is reachable from ``base``."""
        done = self._git(repo, "merge-base", "--is-ancestor", branch, base, check=False)
        if done.returncode in (0, 1):
            return done.returncode == 0
        raise GitError(f"git merge-base {branch} {base}: {proc.last_line(done.stderr)}")

    # -- state -------------------------------------------------------------------------------

    def status_mark(self, worktree: str, base: str) -> tuple[object, ...]:
        """What :meth:`status_counts` depends on that git itself stamps, read without running
        git (see :func:`paw.adapters.git.refs.status_mark`)."""
        return refs.status_mark(worktree, base)

    def snapshot(
        self,
        worktree: str,
        ref: str,
        message: str,
        *,
        ignored: Sequence[str] = (),
        parents: Sequence[str] = (),
    ) -> str:
        """Commit the whole working tree to ``ref`` without touching the index, HEAD or files.

        Tracked changes and untracked files are included, and the ``ignored`` paths (files or
        directories that ``.gitignore`` hides, relative to the worktree) too. The commit's
        first parent is HEAD (none on an unborn branch); ``parents`` are added after it (the
        agent's branch when HEAD is elsewhere), so everything they reach stays reachable from
        ``ref``. Works on a temporary copy of the index, so the user's staging stays as it was.
        """
        if not ref.startswith("refs/"):
            raise ValueError(f"snapshot ref must be a full ref name (refs/...), got {ref!r}")
        head = self._head(worktree)
        with self._temp_index(worktree) as env:
            self._git(worktree, "add", "--all", env=env)
            for start in range(0, len(ignored), 200):
                chunk = ignored[start : start + 200]
                self._git(worktree, "add", "--force", "--all", "--", *chunk, env=env)
            tree = self._git(worktree, "write-tree", env=env).stdout.strip()
        heads = [head] if head else []
        heads += [p for p in parents if p not in heads]
        sha = self._commit_tree(worktree, tree, [a for p in heads for a in ("-p", p)], message)
        self._git(worktree, "update-ref", "-m", "paw snapshot", ref, sha)
        return sha

    def head_commit(self, worktree: str) -> str | None:
        """The commit the worktree's HEAD is on (detached or not); None when the worktree is
        gone, broken or on an unborn branch."""
        if not Path(worktree).is_dir():
            return None
        return self._head(worktree)

    def resolve_commit(self, repo: str, rev: str) -> str | None:
        """The commit ``rev`` names in ``repo`` (never read as an option); None when none."""
        done = self._git(
            repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}",
            check=False,
        )  # fmt: skip
        return done.stdout.strip() if done.ok and done.stdout.strip() else None

    def valid_branch_name(self, repo: str, branch: str) -> bool:
        """True when git accepts ``branch`` as a new branch name."""
        if branch.startswith("-"):
            return False
        return self._git(repo, "check-ref-format", "--branch", branch, check=False).ok

    def unkept_commits(self, repo: str, tips: Sequence[str], branch: str, base: str) -> int:
        """How many commits reachable from ``tips`` would become unreachable once ``branch``
        is deleted: commits reachable neither from ``base`` nor from any other ref (other
        branches, tags, remotes, stashes, paw's archives) nor the main checkout's HEAD.

        Not ``--all``: that includes the HEAD of every worktree, the agent's among them."""
        if not tips:
            return 0
        refs = self._git(repo, "for-each-ref", "--format=%(objectname) %(refname)").stdout
        skip = f"refs/heads/{branch}" if branch else None
        keep = [
            line.split(" ", 1)[0] for line in refs.splitlines() if line.split(" ", 1)[-1] != skip
        ]
        keep += [sha for sha in (base, self._head(repo)) if sha]
        lines = [*tips, *(f"^{sha}" for sha in dict.fromkeys(keep))]
        out = self._git(repo, "rev-list", "--count", "--stdin", input="\n".join(lines) + "\n")
        return int(out.stdout.strip() or "0")

    def ignored_paths(self, worktree: str, disposable: Sequence[str]) -> list[str]:
        """Files and directories that ``.gitignore`` hides in ``worktree``, except those a
        ``disposable`` glob matches (on any path component). A wholly ignored directory is
        listed once, with a trailing ``/``, and only when it holds a file that is not
        disposable (``pkg/`` holding only ``__pycache__/`` is not listed)."""
        out = self._git(
            worktree, "ls-files", "-z", "--others", "--ignored", "--exclude-standard",
            "--directory",
        ).stdout  # fmt: skip
        kept = []
        for path in (p for p in out.split("\0") if p):
            if is_disposable(path, disposable):
                continue
            if path.endswith("/") and not _holds_kept_file(Path(worktree) / path, disposable):
                continue
            kept.append(path)
        return kept

    def worktree_path_problem(self, repo: str, path: str) -> str | None:
        """Why a new worktree cannot go to ``path`` (inside the repository's git directory,
        already there, or no writable directory to create it in); None when it can."""
        common = self._git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir")
        git_dir = Path(common.stdout.strip()).resolve()
        target = Path(path).resolve()
        if target == git_dir or git_dir in target.parents:
            return f"{path} is inside the repository's git directory {git_dir}"
        if target.exists():
            if not target.is_dir() or any(target.iterdir()):
                return f"{path} already exists"
            return None
        parent = target.parent
        while not parent.exists():
            parent = parent.parent
        if not parent.is_dir():
            return f"cannot create {path}: {parent} is not a directory"
        if not os.access(parent, os.W_OK | os.X_OK):
            return f"cannot create {path}: {parent} is not writable"
        return None

    def worktree_paths(self, repo: str) -> list[str]:
        """The paths of every worktree git knows (the main one first)."""
        return [w.path for w in self.list_worktrees(repo)]

    # -- archives ------------------------------------------------------------------------------

    def list_refs(self, repo: str, prefix: str) -> list[RefInfo]:
        """Refs under ``prefix`` (``refs/paw/archive/``), oldest first."""
        fmt = "%(refname)%00%(objectname)%00%(committerdate:unix)%00%(contents:subject)"
        out = self._git(
            repo, "for-each-ref", "--sort=committerdate", f"--format={fmt}", prefix
        ).stdout
        refs = []
        for line in out.splitlines():
            parts = line.split("\0")
            if len(parts) == 4:
                refs.append(RefInfo(parts[0], parts[1], float(parts[2] or 0), parts[3]))
        return refs

    def commit_message(self, repo: str, rev: str) -> str:
        """The full message of commit ``rev``."""
        return self._git(repo, "log", "-1", "--format=%B", "--end-of-options", rev).stdout

    def commit_parents(self, repo: str, rev: str) -> list[str]:
        """The parents of commit ``rev``."""
        out = self._git(repo, "rev-list", "--parents", "-n", "1", "--end-of-options", rev).stdout
        return out.split()[1:]

    def set_ref(self, repo: str, ref: str, sha: str) -> None:
        """Point ``ref`` at ``sha`` (created when missing)."""
        self._git(repo, "update-ref", "-m", "paw", ref, sha)

    def delete_ref(self, repo: str, ref: str, old: str) -> None:
        """Delete ``ref`` only if it still points at ``old``."""
        self._git(repo, "update-ref", "-d", ref, old)

    def add_worktree_at(self, repo: str, path: str, branch: str | None, commit: str) -> None:
        """``git worktree add`` at ``path``: on the existing ``branch``, else detached at
        ``commit``."""
        target = ["--", path, branch] if branch else ["--detach", "--", path, commit]
        self._git(repo, "worktree", "add", "--quiet", *target)

    def restore_files(self, worktree: str, source: str) -> None:
        """Make the files of ``worktree`` those of commit ``source`` without touching the
        index or HEAD (files absent from ``source`` are removed, untracked ones come back
        untracked)."""
        self._git(worktree, "restore", f"--source={source}", "--worktree", "--", ".")

    def diff(self, worktree: str, base: str) -> str:
        """Working tree against the merge base with ``base``, untracked files included."""
        with self._temp_index(worktree) as env:
            self._git(worktree, "add", "--all", "--intent-to-add", env=env)
            return self._git(worktree, "diff", "--merge-base", base, env=env).stdout

    # -- plumbing ----------------------------------------------------------------------------

    def _head(self, worktree: str) -> str | None:
        done = self._git(worktree, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False)
        return done.stdout.strip() if done.ok else None

    def _commit_tree(self, worktree: str, tree: str, parents: list[str], message: str) -> str:
        argv = ["commit-tree", tree, *parents, "-m", message]
        done = self._git(worktree, *argv, check=False)
        if not done.ok and "identity" in done.stderr:
            done = self._git(worktree, *argv, env=_FALLBACK_IDENTITY, check=False)
        if not done.ok:
            raise GitError(f"git commit-tree: {proc.last_line(done.stderr)}")
        return done.stdout.strip()

    @contextlib.contextmanager
    def _temp_index(self, worktree: str) -> Iterator[dict[str, str]]:
        """A private copy of the worktree's index (``GIT_INDEX_FILE``), deleted afterwards."""
        source = self.git_path(worktree, "index")
        with tempfile.TemporaryDirectory(prefix="paw-index-") as tmp:
            env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
            try:
                # copy2 keeps the stat cache AND the file's mtime, which git's racy-entry
                # check compares entries against: a newer mtime could hide a same-second edit
                shutil.copy2(source, env["GIT_INDEX_FILE"])
            except FileNotFoundError:  # no index yet: start empty, add --all fills it
                self._git(worktree, "read-tree", "--empty", env=env)
            except OSError as err:
                raise GitError(f"cannot copy the index of {worktree}: {err}") from err
            yield env

    def git_path(self, worktree: str, name: str) -> Path:
        """``git rev-parse --git-path name`` as an absolute path (e.g. this worktree's index)."""
        out = self._git(worktree, "rev-parse", "--path-format=absolute", "--git-path", name)
        return Path(out.stdout.strip())

    def _git(
        self,
        cwd: str,
        *args: str,
        env: Mapping[str, str] | None = None,
        check: bool = True,
        input: str | None = None,  # noqa: A002 - mirrors subprocess.run's keyword
    ) -> proc.Completed:
        argv = ["git", "-C", cwd, *args]
        return run_git(
            argv, GitError, label=_verb(args), env=env, input=input, timeout=TIMEOUT,
            check=check,
        )  # fmt: skip


def _holds_kept_file(directory: Path, disposable: Sequence[str]) -> bool:
    """True when ``directory`` holds a file (or symlink) outside disposable directories; stops
    at the first one, never descending into a disposable directory."""
    for root, dirs, files in os.walk(directory):
        dirs[:] = [d for d in dirs if not is_disposable(d, disposable)]
        if any(not is_disposable(f, disposable) for f in files):
            return True
        if any((Path(root) / d).is_symlink() for d in dirs):
            return True
    return False


def _verb(args: tuple[str, ...]) -> str:
    """``git worktree remove`` for messages: the subcommand words, without options."""
    words = [arg for arg in args[:2] if not arg.startswith("-")]
    return " ".join(["git", *(words[:2] if args[0] in _TWO_WORD else words[:1])])


_TWO_WORD = frozenset({"worktree", "stash", "remote", "submodule"})
