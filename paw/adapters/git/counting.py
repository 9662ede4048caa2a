"""The counting half of :class:`~paw.adapters.git.runner.GitCli`: a worktree's status counts
(uncommitted, untracked, ahead, behind, lines), and many worktrees' at once from a few shells.

A mixin, so :class:`~paw.adapters.remote.git.RemoteGit` counts a host's worktrees through its
own ``_git`` (over ssh) exactly as the local runner does."""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from paw.adapters.git.parse import (
    parse_branch_oid,
    parse_left_right,
    parse_shortstat,
    parse_status_z,
)
from paw.adapters.git.refs import SharedRefs, base_commit
from paw.adapters.git.statuses import QUIET, STATUS, STATUS_SHELLS, StatusShells
from paw.core.ports import StatusCounts
from paw.errors import GitError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from paw.adapters import proc
    from paw.adapters.git.statuses import EarlyStatuses

_FOLLOW_UP_WORKERS = 8  # worktrees counted further (rev-list, diff-index) at once


class StatusCounting:
    """Counts of worktrees, over the runner's ``_git``."""

    line_counts: bool  # fill StatusCounts.insertions/deletions (one more git call)
    _early: EarlyStatuses | None  # statuses started before the first status_counts_many

    def _git(
        self,
        cwd: str,
        *args: str,
        env: Mapping[str, str] | None = None,
        check: bool = True,
        input: str | None = None,  # noqa: A002 - mirrors subprocess.run's keyword
    ) -> proc.Completed:
        raise NotImplementedError  # the runner's (GitCli._git)

    def status_counts(self, worktree: str, base: str) -> StatusCounts:
        """Uncommitted, untracked, unmerged paths; commits ahead/behind ``base``; and (with
        ``line_counts``) lines added/removed since the merge base, working tree included.

        One git process when nothing needs more (an agent's worktree at rest): the status
        names the commit HEAD is on, and when ``base`` is a ref read from the repository's
        files (see :func:`~paw.adapters.git.refs.base_commit`) naming that same commit, ahead
        and behind are 0 without `git rev-list`; with no tracked change and nothing ahead, the
        merge base is HEAD itself and the working tree matches it, so there are no lines to
        count either.
        """
        # Counting never rewrites the index: an agent's own git command would find it locked,
        # and the rewrite would move the worktree's status_mark (see supervisor/sweep/counts.py).
        # So no optional locks for status, and diff-index (plumbing) rather than `git diff`,
        # which refreshes the index whatever GIT_OPTIONAL_LOCKS says.
        status = self._git(worktree, *STATUS, env=QUIET).stdout
        return self._finish_counts(worktree, base, status)

    def status_counts_many(self, items: Sequence[tuple[str, str]]) -> list[StatusCounts | None]:
        """:meth:`status_counts` of every ``(worktree, base)``, None where git could not count
        (its error is the one :meth:`status_counts` raises; ask it for the message).

        The statuses come from a few shells (up to :data:`STATUS_SHELLS`, side by side), each
        running `git status` for its share of the worktrees one after another: paw starts a
        handful of processes, not one per worktree (see
        :class:`~paw.adapters.git.statuses.StatusShells`). The few worktrees that need more
        (commits ahead, tracked changes) get their `git rev-list` / `git diff-index` as
        :meth:`status_counts` runs them; a worktree whose status failed, or a shell that
        failed, is counted again on its own.

        The first call uses the statuses ``early`` started
        (:class:`~paw.adapters.git.statuses.EarlyStatuses`) for the worktrees they cover,
        each once; later calls run their own."""
        early, self._early = self._early, None
        found = early.take([w for w, _ in items]) if early is not None else {}
        rest = [w for w, _ in items if w not in found]
        if len(items) <= 1 and not found:
            return [self._counts_or_none(w, b) for w, b in items]
        if rest:
            found.update(StatusShells(rest, STATUS_SHELLS).wait())
        statuses = [found[w] for w, _ in items]
        # most worktrees are at rest: counted from their status alone, here, one after
        # another; threads only for the few that run more git (or whose status failed)
        shared: SharedRefs = {}  # the base refs, read once for all (see base_commit)
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
        self, worktree: str, base: str, status: str, shared: SharedRefs | None = None
    ) -> StatusCounts | None:
        """:meth:`_finish_counts` when the status alone gives the counts (HEAD on the commit
        ``base`` names, and no tracked change whose lines would be counted); None when git
        must be asked more. ``shared``: see :func:`~paw.adapters.git.refs.base_commit`."""
        counts = parse_status_z(status)
        if self.line_counts and (counts.uncommitted or counts.unmerged):
            return None
        head = parse_branch_oid(status)
        if head is None or head != base_commit(Path(worktree), base, shared):
            return None
        return dataclasses.replace(counts, ahead=0, behind=0, insertions=0, deletions=0)

    def _finish_counts(self, worktree: str, base: str, status: str) -> StatusCounts:
        """The counts from a worktree's ``git status`` output: ahead/behind and lines from
        git only when they can be other than 0 (see :meth:`status_counts`)."""
        counts = parse_status_z(status)
        head = parse_branch_oid(status)
        if head is not None and head == base_commit(Path(worktree), base):
            behind = ahead = 0
        else:
            span = self._git(
                worktree, "rev-list", "--left-right", "--count", f"{base}...HEAD", env=QUIET
            )
            behind, ahead = parse_left_right(span.stdout)
        insertions = deletions = 0
        changed = counts.uncommitted or counts.unmerged
        if self.line_counts and (changed or ahead):
            stat = self._git(
                worktree, "diff-index", "-M", "--shortstat", "--merge-base", base, "--",
                env=QUIET,
            ).stdout  # fmt: skip
            insertions, deletions = parse_shortstat(stat)
        return dataclasses.replace(
            counts, ahead=ahead, behind=behind, insertions=insertions, deletions=deletions
        )
