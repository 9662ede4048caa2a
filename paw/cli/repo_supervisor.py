"""The supervisor a command of `paw` works on: that of ``-C DIR``'s repository (a fleet with
hosts), and for `paw ls` one whose worktrees' `git status` start before it is even built."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from paw.errors import PawError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator

    from paw.supervisor.api import Operations


def supervisor_of(args: argparse.Namespace, *, counts: bool = True) -> Operations:
    """The supervisor of ``-C DIR``'s repository (a fleet with hosts); ``counts=False`` for
    commands that show no worktree counts (their sweep runs no git)."""
    from paw.cli.compose import build_fleet

    return build_fleet(args.repo, counts=counts)


@contextlib.contextmanager
def counting_supervisor(args: argparse.Namespace) -> Iterator[Operations]:
    """:func:`supervisor_of` for a command whose first sweep counts every worktree and shows
    no prompt (`paw ls`): the agents' `git status` start before paw.toml's models and the
    rest of the supervisor are even imported (:class:`~paw.adapters.git.statuses.EarlyStatuses`),
    and run meanwhile; prompts already seen are not judged again (see ``build_fleet``)."""
    from paw.adapters.git.runner import EarlyStatuses
    from paw.cli.common import find_repo_root

    root = find_repo_root(args.repo)
    early = EarlyStatuses(counted_worktrees(root))
    try:
        from paw.cli.compose import build_fleet

        yield build_fleet(args.repo, prompts=False, root=root, early=early)
    finally:
        early.close()


def counted_worktrees(root: str) -> list[str]:
    """The worktrees a first sweep counts (agents paw created, with no spawn or removal under
    way), read from ``.paw/agents.json`` without the records' models (pydantic is not even
    imported yet). Only which statuses start early depends on it: the sweep reads the
    records properly and counts whatever this missed ([] when the file cannot be read)."""
    from paw.adapters.state import StateStore
    from paw.cli.common import STATE_DIR

    try:
        data = StateStore(Path(root) / STATE_DIR).read("agents") or {}
    except (PawError, OSError):
        return []
    items = data.get("agents")
    if not isinstance(items, list):
        return []
    return [
        item["worktree"]
        for item in items
        if isinstance(item, dict)
        and isinstance(item.get("worktree"), str)
        and not item.get("adopted")
        and item.get("pending") is None
    ]
