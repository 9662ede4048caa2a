"""paw's archives: the refs ``paw rm --force`` leaves under ``refs/paw/archive/``.

Each archive is one commit: its tree is the agent's worktree as it was (tracked, untracked and
non-disposable ignored files), its parents are the worktree's HEAD and the agent branch's tip,
and its message carries ``paw-*:`` lines naming the agent, branch and worktree. ``list``,
``restore`` and ``prune`` work on them; nothing here deletes a ref without being asked by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from paw.errors import PawError
from paw.supervisor.cleanup import ARCHIVE_PREFIX

if TYPE_CHECKING:
    from collections.abc import Sequence

    from paw.core.ports import RefInfo
    from paw.supervisor.context import Context


@dataclass(frozen=True, slots=True)
class Archive:
    """One archive ref and what its message says."""

    id: str  # the ref without refs/paw/archive/
    ref: str
    commit: str
    time: float
    agent: str
    branch: str
    worktree: str


@dataclass(frozen=True, slots=True)
class Restored:
    """Where an archive was restored."""

    archive: Archive
    worktree: str
    branch: str | None  # None: the worktree is detached at the archived HEAD
    detached_because: str | None = None


def _fields(message: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in message.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.startswith("paw-") and " " not in key:
            found[key.removeprefix("paw-")] = value.strip()
    return found


def _archive(ctx: Context, info: RefInfo) -> Archive:
    ident = info.ref.removeprefix(ARCHIVE_PREFIX)
    fields = _fields(ctx.vcs.commit_message(ctx.repo_root, info.sha))
    agent = fields.get("agent") or ident.rsplit("-", 1)[0]
    return Archive(
        id=ident, ref=info.ref, commit=info.sha, time=info.time, agent=agent,
        branch=fields.get("branch", ""), worktree=fields.get("worktree", ""),
    )  # fmt: skip


def list_archives(ctx: Context) -> list[Archive]:
    """Every archive, oldest first."""
    return [_archive(ctx, info) for info in ctx.vcs.list_refs(ctx.repo_root, ARCHIVE_PREFIX)]


def find(ctx: Context, ident: str) -> Archive:
    """The archive ``ident`` (its id or its full ref); PawError when there is none."""
    ref = ident if ident.startswith("refs/") else ARCHIVE_PREFIX + ident
    for archive in list_archives(ctx):
        if archive.ref == ref:
            return archive
    raise PawError(f"no archive {ident!r}", hint="`paw archive` lists them")


def restore(ctx: Context, ident: str, to: str | None = None) -> Restored:
    """Bring archive ``ident`` back as a worktree: the agent branch at its archived tip (when
    the branch is free), HEAD where it was, and every archived file in place, tracked changes
    unstaged and untracked files untracked. The archive ref stays."""
    archive = find(ctx, ident)
    message = ctx.vcs.commit_message(ctx.repo_root, archive.commit)
    fields = _fields(message)
    parents = ctx.vcs.commit_parents(ctx.repo_root, archive.commit)
    head = fields.get("head") or (parents[0] if parents else archive.commit)
    tip = fields.get("branch-tip") or head
    worktree = to or archive.worktree or ctx.worktree_path(archive.agent)
    problem = ctx.vcs.worktree_path_problem(ctx.repo_root, worktree)
    if problem is not None:
        raise PawError(problem, hint="restore elsewhere: paw archive restore ID --to DIR")
    branch: str | None = archive.branch or None
    why: str | None = None
    if branch is not None:
        current = ctx.vcs.resolve_commit(ctx.repo_root, f"refs/heads/{branch}")
        if current is None:
            ctx.vcs.set_ref(ctx.repo_root, f"refs/heads/{branch}", tip)
        elif current != tip:
            why = f"branch {branch} exists at another commit; it was left as it is"
            branch = None
    on_branch = branch is not None and tip == head
    ctx.vcs.add_worktree_at(ctx.repo_root, worktree, branch if on_branch else None, head)
    ctx.vcs.restore_files(worktree, archive.commit)
    ctx.record("archive-restore", ref=archive.ref, commit=archive.commit, worktree=worktree)
    return Restored(archive, worktree, branch if on_branch else None, why)


def select_for_prune(
    ctx: Context, ids: Sequence[str], *, older_than_s: float | None, everything: bool
) -> list[Archive]:
    """The archives a prune would delete: those named, or older than ``older_than_s``, or all."""
    if ids:
        return [find(ctx, ident) for ident in dict.fromkeys(ids)]
    archives = list_archives(ctx)
    if everything:
        return archives
    if older_than_s is not None:
        cutoff = ctx.clock() - older_than_s
        return [a for a in archives if a.time < cutoff]
    raise PawError("say which archives to prune: IDs, --older-than DAYS, or --all")


def prune(ctx: Context, archives: Sequence[Archive]) -> list[Archive]:
    """Delete the refs of ``archives`` (each only if it still points where it was listed)."""
    for archive in archives:
        ctx.vcs.delete_ref(ctx.repo_root, archive.ref, archive.commit)
        ctx.record("archive-prune", ref=archive.ref, commit=archive.commit)
    return list(archives)
