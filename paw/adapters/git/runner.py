"""git as paw's :class:`~paw.core.ports.Vcs`: worktrees, status, snapshots, diffs.

Every git failure surfaces as :class:`paw.errors.GitError`. Parsers live in
:mod:`paw.adapters.git.parse` and are re-exported here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from paw.adapters import proc
from paw.adapters.git.parse import (
    Worktree,
    is_hex_oid,
    parse_branch_oid,
    parse_left_right,
    parse_marked_statuses,
    parse_shortstat,
    parse_status_z,
    parse_worktree_porcelain,
    restore_instructions,
)
from paw.core.disposable import is_disposable
from paw.core.ports import RefInfo, StatusCounts
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

_TIMEOUT = 60.0
# Counting takes no optional lock (see status_counts), and runs git in the C locale: its
# --shortstat line is English whatever the user's language (parse_shortstat reads English),
# and git loads no locale or message catalogue (a tenth of each status's system time).
_QUIET = {"GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
_STATUS = ("status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all")
STATUS_SHELLS = 4  # shells running `git status` side by side in status_counts_many
_FOLLOW_UP_WORKERS = 8  # worktrees counted further (rev-list, diff-index) at once
_FALLBACK_IDENTITY = {
    "GIT_AUTHOR_NAME": "paw",
    "GIT_AUTHOR_EMAIL": "paw@localhost",
    "GIT_COMMITTER_NAME": "paw",
    "GIT_COMMITTER_EMAIL": "paw@localhost",
}


class GitCli:
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

    def status_counts(self, worktree: str, base: str) -> StatusCounts:
        """Uncommitted, untracked, unmerged paths; commits ahead/behind ``base``; and (with
        ``line_counts``) lines added/removed since the merge base, working tree included.

        One git process when nothing needs more (an agent's worktree at rest): the status
        names the commit HEAD is on, and when ``base`` is a ref read from the repository's
        files (see :func:`_base_commit`) naming that same commit, ahead and behind are 0
        without `git rev-list`; with no tracked change and nothing ahead, the merge base is
        HEAD itself and the working tree matches it, so there are no lines to count either.
        """
        # Counting never rewrites the index: an agent's own git command would find it locked,
        # and the rewrite would move the worktree's status_mark (see supervisor/sweep/counts.py).
        # So no optional locks for status, and diff-index (plumbing) rather than `git diff`,
        # which refreshes the index whatever GIT_OPTIONAL_LOCKS says.
        status = self._git(worktree, *_STATUS, env=_QUIET).stdout
        return self._finish_counts(worktree, base, status)

    def status_counts_many(self, items: Sequence[tuple[str, str]]) -> list[StatusCounts | None]:
        """:meth:`status_counts` of every ``(worktree, base)``, None where git could not count
        (its error is the one :meth:`status_counts` raises; ask it for the message).

        The statuses come from a few shells (up to :data:`STATUS_SHELLS`, side by side), each
        running `git status` for its share of the worktrees one after another: paw starts a
        handful of processes, not one per worktree (see :class:`_StatusShells`). The few
        worktrees that need more (commits ahead, tracked changes) get their `git rev-list` /
        `git diff-index` as :meth:`status_counts` runs them; a worktree whose status failed,
        or a shell that failed, is counted again on its own.

        The first call uses the statuses ``early`` started (:class:`EarlyStatuses`) for the
        worktrees they cover, each once; later calls run their own."""
        early, self._early = self._early, None
        found = early.take([w for w, _ in items]) if early is not None else {}
        rest = [w for w, _ in items if w not in found]
        if len(items) <= 1 and not found:
            return [self._counts_or_none(w, b) for w, b in items]
        if rest:
            found.update(_StatusShells(rest, STATUS_SHELLS).wait())
        statuses = [found[w] for w, _ in items]
        # most worktrees are at rest: counted from their status alone, here, one after
        # another; threads only for the few that run more git (or whose status failed)
        shared: _SharedRefs = {}  # the base refs, read once for all (see _base_commit)
        counts = [
            None if status is None else self._counts_at_rest(worktree, base, status, shared)
            for (worktree, base), status in zip(items, statuses, strict=True)
        ]
        more = [at for at, found_counts in enumerate(counts) if found_counts is None]
        if more:
            with ThreadPoolExecutor(max_workers=min(_FOLLOW_UP_WORKERS, len(more))) as pool:
                redone = pool.map(lambda at: self._count_from_status(items[at], statuses[at]), more)
                for at, again in zip(more, redone, strict=True):
                    counts[at] = again
        return counts

    def _count_from_status(self, item: tuple[str, str], status: str | None) -> StatusCounts | None:
        worktree, base = item
        if status is None:
            return self._counts_or_none(worktree, base)
        try:
            return self._finish_counts(worktree, base, status)
        except GitError:
            return None

    def _counts_or_none(self, worktree: str, base: str) -> StatusCounts | None:
        try:
            return self.status_counts(worktree, base)
        except GitError:
            return None

    def _counts_at_rest(
        self, worktree: str, base: str, status: str, shared: _SharedRefs | None = None
    ) -> StatusCounts | None:
        """:meth:`_finish_counts` when the status alone gives the counts (HEAD on the commit
        ``base`` names, and no tracked change whose lines would be counted); None when git
        must be asked more. ``shared``: see :func:`_base_commit`."""
        counts = parse_status_z(status)
        if self.line_counts and (counts.uncommitted or counts.unmerged):
            return None
        head = parse_branch_oid(status)
        if head is None or head != _base_commit(Path(worktree), base, shared):
            return None
        return dataclasses.replace(counts, ahead=0, behind=0, insertions=0, deletions=0)

    def _finish_counts(self, worktree: str, base: str, status: str) -> StatusCounts:
        """The counts from a worktree's ``git status`` output: ahead/behind and lines from
        git only when they can be other than 0 (see :meth:`status_counts`)."""
        counts = parse_status_z(status)
        head = parse_branch_oid(status)
        if head is not None and head == _base_commit(Path(worktree), base):
            behind = ahead = 0
        else:
            span = self._git(
                worktree, "rev-list", "--left-right", "--count", f"{base}...HEAD", env=_QUIET
            )
            behind, ahead = parse_left_right(span.stdout)
        insertions = deletions = 0
        changed = counts.uncommitted or counts.unmerged
        if self.line_counts and (changed or ahead):
            stat = self._git(
                worktree, "diff-index", "-M", "--shortstat", "--merge-base", base, "--",
                env=_QUIET,
            ).stdout  # fmt: skip
            insertions, deletions = parse_shortstat(stat)
        return dataclasses.replace(
            counts, ahead=ahead, behind=behind, insertions=insertions, deletions=deletions
        )

    def status_mark(self, worktree: str, base: str) -> tuple[object, ...]:
        """What :meth:`status_counts` depends on that git itself stamps, read without running
        git (a few ``stat`` calls and two small file reads): the worktree's index and HEAD,
        the ref HEAD names, the refs ``base`` may name (loose, ``packed-refs``, reftable),
        and the worktree directory itself (its mtime moves when a top-level entry is created,
        renamed or removed). Equal marks mean no git command changed the worktree's state
        in between; editing a tracked file without git changes none of them."""
        top = Path(worktree)
        git_dir = _git_dir(top)
        common = _common_dir(git_dir)
        head = _read_small(git_dir / "HEAD")
        paths = [top, git_dir / "index", git_dir / "HEAD", common / "packed-refs"]
        paths.append(common / "reftable" / "tables.list")
        if head is not None and head.startswith("ref: "):
            paths.append(common / head[5:].strip())
        paths += [common / name for name in _ref_candidates(base)]
        return (head, *(_stat_key(path) for path in paths))

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
        return proc.run_or_raise(
            argv, GitError, label=_verb(args), env=env, input=input, timeout=_TIMEOUT,
            check=check,
        )  # fmt: skip


class EarlyStatuses:
    """`git status` of worktrees, started before the sweep that counts them: a command
    (`paw ls`) starts them first thing, so git runs while the command imports its modules,
    reads paw.toml and surveys tmux. The same shells and command as
    :meth:`GitCli.status_counts_many`; the GitCli given them (``GitCli(early=...)``) uses
    each output at most once, in its first :meth:`~GitCli.status_counts_many`, and counts
    any other worktree as before. A status taken this way is the worktree's status at a
    moment of the command, as any count is."""

    def __init__(self, worktrees: Sequence[str], *, shells: int = STATUS_SHELLS) -> None:
        """Start the statuses of ``worktrees`` (none when there are fewer than two)."""
        unique = list(dict.fromkeys(worktrees))
        self._shells = _StatusShells(unique if len(unique) > 1 else [], shells)

    def take(self, worktrees: Sequence[str]) -> dict[str, str | None]:
        """The output (None: git failed) of each of ``worktrees`` started here, waited for;
        then nothing more (each output is taken once)."""
        wanted = set(worktrees)
        found, self._shells = self._shells.wait(), _StatusShells([], 1)
        return {w: s for w, s in found.items() if w in wanted}

    def close(self) -> None:
        """Wait for whatever was started and never taken (the command ended before its sweep)."""
        self._shells.wait()
        self._shells = _StatusShells([], 1)


class _StatusShells:
    """The shells running `git status` for ``worktrees``: up to ``shells`` of them side by
    side, each for a run of consecutive worktrees, started at once and waited for by
    :meth:`wait` (no thread: their output goes to files, see :func:`proc.start`).

    Each status is followed by a marker with a random per-shell token and git's exit status,
    so no path can forge one."""

    def __init__(self, worktrees: list[str], shells: int) -> None:
        self._parts: list[tuple[list[str], str, proc.Started | None]] = []
        for chunk in _chunks(worktrees, shells):
            token = secrets.token_hex(8)
            argv = ["sh", "-c", _STATUS_SCRIPT, "sh", *chunk]
            try:
                started: proc.Started | None = proc.start(
                    argv, env={**_QUIET, "PAW_STATUS_TOKEN": token}
                )
            except OSError:
                started = None
            self._parts.append((chunk, token, started))

    def wait(self) -> dict[str, str | None]:
        """Each worktree's status output; None where git failed or its shell's output does
        not account for it (a shell that could not start, failed or timed out)."""
        found: dict[str, str | None] = {}
        parts, self._parts = self._parts, []
        for chunk, token, started in parts:
            statuses: list[str | None] = [None] * len(chunk)
            if started is not None:
                try:
                    out = started.wait(timeout=_TIMEOUT * len(chunk)).stdout
                except (OSError, subprocess.SubprocessError):
                    pass
                else:
                    statuses = parse_marked_statuses(out, token, len(chunk))
            found.update(zip(chunk, statuses, strict=True))
        return found


def _chunks(worktrees: list[str], shells: int) -> list[list[str]]:
    """``worktrees`` in at most ``shells`` runs of consecutive ones, as even as can be."""
    if not worktrees:
        return []
    size = -(-len(worktrees) // min(shells, len(worktrees)))
    return [worktrees[at : at + size] for at in range(0, len(worktrees), size)]


_STATUS_SCRIPT = (
    'for d do git -C "$d" '
    + " ".join(_STATUS)
    + ' 2>/dev/null; printf "\\000%s %s\\000" "$PAW_STATUS_TOKEN" "$?"; done'
)


def _git_dir(top: Path) -> Path:
    """The worktree's own git directory: ``.git`` itself, or where its ``gitdir:`` file points."""
    dot = top / ".git"
    text = _read_small(dot)
    if text is not None and text.startswith("gitdir: "):
        found = Path(text[8:].strip())
        return found if found.is_absolute() else top / found
    return dot


def _common_dir(git_dir: Path) -> Path:
    """The repository's common git directory (refs, packed-refs) for a worktree's git dir."""
    text = _read_small(git_dir / "commondir")
    if text is None or not text.strip():
        return git_dir
    found = Path(text.strip())
    return found if found.is_absolute() else git_dir / found


def _read_small(path: Path) -> str | None:
    """The first bytes of a small git bookkeeping file (``.git``, ``HEAD``); None when absent."""
    try:
        with path.open("rb") as handle:
            return handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return None


def _ref_candidates(rev: str) -> list[str]:
    """The loose ref files ``rev`` may name, in git's lookup order (``git help revisions``);
    none for a revision with characters a ref path cannot hold (``main~1``, ``a..b``)."""
    if not rev or rev.startswith(("/", "-")) or ".." in rev or any(c in rev for c in "~^:@{ "):
        return []
    return [rev, f"refs/{rev}", f"refs/tags/{rev}", f"refs/heads/{rev}", f"refs/remotes/{rev}",
            f"refs/remotes/{rev}/HEAD"]  # fmt: skip


# Refs that live in each worktree's own git directory, not in the shared one.
_PER_WORKTREE = ("refs/worktree/", "refs/bisect/", "refs/rewritten/")


def _base_commit(top: Path, base: str, shared: _SharedRefs | None = None) -> str | None:
    """The commit ``base`` names, read from the repository's files without running git, or
    None whenever that is not certain (the caller then asks git).

    ``base`` is a full object id, or a ref name with exactly ONE match among the places git
    looks (``git help revisions``: ``NAME``, ``refs/NAME``, ``refs/tags/NAME``,
    ``refs/heads/NAME``, ``refs/remotes/NAME``, ``refs/remotes/NAME/HEAD``), loose or in
    ``packed-refs``, holding an object id. A symbolic ref, a pseudo-ref (``HEAD``), a
    per-worktree ref, a name with two matches, an annotated tag (its id is not the commit's:
    never equal to HEAD) or a reftable repository gives None or an id no HEAD equals.

    ``shared``: what was read of the repository's common directory for ``base`` (the same
    for every worktree of it), kept by a caller that counts many worktrees at once; only the
    worktree's own files are read again."""
    if is_hex_oid(base):
        return base
    if not _ref_candidates(base) or base.startswith(_PER_WORKTREE):
        return None
    git_dir = _git_dir(top)
    if not base.startswith("refs/") and (git_dir / base).exists():
        return None  # a pseudo-ref or a file git reads first: leave it to git
    common = _common_dir(git_dir)
    if shared is None:
        return _shared_base_commit(common, base)
    try:
        st = common.stat()  # the directory itself, however its path is spelled
    except OSError:
        return _shared_base_commit(common, base)
    key = (st.st_dev, st.st_ino, base)
    if key not in shared:
        shared[key] = _shared_base_commit(common, base)
    return shared[key]


_SharedRefs = dict[tuple[int, int, str], "str | None"]


def _shared_base_commit(common: Path, base: str) -> str | None:
    """:func:`_base_commit` as read from the common directory ``common`` alone."""
    candidates = _ref_candidates(base)
    if (common / "reftable").exists():
        return None
    if base.startswith("refs/"):
        names = candidates  # the name itself is a ref (``refs/heads/main``)
    elif (common / base).exists():
        return None  # a pseudo-ref or a file git reads first: leave it to git
    else:
        names = candidates[1:]
    packed = _packed_refs(common / "packed-refs")
    if packed is None:
        return None
    found: list[str | None] = []
    for name in names:
        loose = common / name
        if loose.is_file():
            text = _read_small(loose)
            oid = text.strip() if text is not None else None
            found.append(oid if oid is not None and is_hex_oid(oid) else None)
        elif loose.exists():
            return None  # a directory of that name: git's lookup is not this one's
        elif name in packed:
            found.append(packed[name])
    return found[0] if len(found) == 1 else None


def _packed_refs(path: Path) -> dict[str, str] | None:
    """Ref name -> object id from ``packed-refs`` ({} when there is none; None when it
    cannot be read). Parsed once per version of the file (git replaces it by renaming a new
    one over it: see :func:`_stat_key`), not once per worktree of a sweep."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return {}
    except OSError:
        return None
    key = (st.st_mtime_ns, st.st_size, st.st_ino)
    cached = _PACKED_REFS.get(str(path))
    if cached is not None and cached[0] == key:
        return cached[1]
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError):
        return None
    refs: dict[str, str] = {}
    for line in text.splitlines():
        if not line or line[0] in "#^":
            continue
        oid, _, name = line.partition(" ")
        if is_hex_oid(oid) and name:
            refs[name] = oid
    if _stat_key(path) == key:  # unchanged while read: keep it
        _PACKED_REFS[str(path)] = (key, refs)
    return refs


_PACKED_REFS: dict[str, tuple[tuple[int, int, int], dict[str, str]]] = {}


def _stat_key(path: Path) -> tuple[int, int, int] | None:
    """The file's modification time, size and inode (git replaces files by renaming a lock
    file over them, so even a same-nanosecond rewrite changes the inode); None when absent."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


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
