"""git run so that a worktree another process is adding at that moment is not an error.

``git worktree add`` creates ``.git/worktrees/<name>/`` and then writes its files
(``gitdir``, ``commondir``, ``HEAD``) one by one. Any git command that lists the worktrees
meanwhile (``git worktree list``, ``worktree add`` checking a branch is not checked out
elsewhere, ``branch -d``) can find a file still empty or missing and die with, for example,
``fatal: failed to read .git/worktrees/a41/commondir: Success`` — before it changed anything.
Many agents spawned at once, a wave starting its tasks, or the user's own ``git worktree add``
beside a ``paw ls`` meet it (found by ``tests/adversarial/test_state.py``: 50 ``paw spawn``, 8
at a time, one failed so). Such a failure is tried again within a wall-clock budget
(:data:`BUDGET_S`); any other failure is raised at once, as before.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence

from paw.adapters import proc
from paw.errors import PawError

#: how long a command that met a half-made worktree is tried again, on the wall clock (a
#: ``git worktree add`` writes its few small files in well under this even on a loaded disk)
BUDGET_S = 10.0
_PAUSES = (0.02, 0.05, 0.1, 0.2)

# git dies naming a file of a worktree's admin directory that it could not read (still empty:
# errno "Success") or find (not written yet)
_HALF_MADE = re.compile(
    r"fatal: .*[/\\]worktrees[/\\][^/\\]+[/\\](?:commondir|gitdir|HEAD)\b"
    r"|fatal: .*[/\\]worktrees[/\\][^/\\]+: (?:Not a directory|No such file)"
)


def met_half_made_worktree(stderr: str) -> bool:
    """True when git died on a worktree that was being added while it listed them."""
    return bool(_HALF_MADE.search(stderr or ""))


def run_git(
    argv: Sequence[str],
    error: type[PawError],
    *,
    label: str,
    env: Mapping[str, str] | None = None,
    input: str | None = None,  # noqa: A002 - mirrors subprocess.run's keyword
    timeout: float | None = None,
    check: bool = True,
    budget_s: float | None = None,
) -> proc.Completed:
    """:func:`paw.adapters.proc.run_or_raise` of a git command, tried again while it fails
    only because a worktree was half made (see the module's docstring), for ``budget_s``
    (default :data:`BUDGET_S`)."""
    deadline = time.monotonic() + (BUDGET_S if budget_s is None else budget_s)
    tries = 0
    while True:
        done = proc.run_or_raise(
            argv, error, label=label, env=env, input=input, timeout=timeout, check=False
        )
        if done.ok or not met_half_made_worktree(done.stderr) or time.monotonic() >= deadline:
            break
        time.sleep(_PAUSES[min(tries, len(_PAUSES) - 1)])
        tries += 1
    if check and not done.ok:
        raise error(f"{label}: {proc.last_line(done.stderr)}")
    return done
