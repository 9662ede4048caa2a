"""`git status` of many worktrees from a few shells: :class:`StatusShells` runs them side by
side (their output to files, no thread), :class:`EarlyStatuses` starts them before the sweep
that counts them (`paw ls`: git runs while the command imports and reads its config)."""

from __future__ import annotations

import secrets
import subprocess
from collections.abc import Sequence

from paw.adapters import proc
from paw.adapters.git.parse import parse_marked_statuses

TIMEOUT = 60.0  # one git command (a shell's share: this for each of its worktrees)
# Counting takes no optional lock (see GitCli.status_counts), and runs git in the C locale: its
# --shortstat line is English whatever the user's language (parse_shortstat reads English),
# and git loads no locale or message catalogue (a tenth of each status's system time).
QUIET = {"GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
STATUS = ("status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all")
STATUS_SHELLS = 4  # shells running `git status` side by side in status_counts_many


class EarlyStatuses:
    """`git status` of worktrees, started before the sweep that counts them: a command
    (`paw ls`) starts them first thing, so git runs while the command imports its modules,
    reads paw.toml and surveys tmux. The same shells and command as
    ``GitCli.status_counts_many``; the GitCli given them (``GitCli(early=...)``) uses each
    output at most once, in its first ``status_counts_many``, and counts any other worktree
    as before. A status taken this way is the worktree's status at a moment of the command,
    as any count is."""

    def __init__(self, worktrees: Sequence[str], *, shells: int = STATUS_SHELLS) -> None:
        """Start the statuses of ``worktrees`` (none when there are fewer than two)."""
        unique = list(dict.fromkeys(worktrees))
        self._shells = StatusShells(unique if len(unique) > 1 else [], shells)

    def take(self, worktrees: Sequence[str]) -> dict[str, str | None]:
        """The output (None: git failed) of each of ``worktrees`` started here, waited for;
        then nothing more (each output is taken once)."""
        wanted = set(worktrees)
        found, self._shells = self._shells.wait(), StatusShells([], 1)
        return {w: s for w, s in found.items() if w in wanted}

    def close(self) -> None:
        """Wait for whatever was started and never taken (the command ended before its sweep)."""
        self._shells.wait()
        self._shells = StatusShells([], 1)


class StatusShells:
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
                    argv, env={**QUIET, "PAW_STATUS_TOKEN": token}
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
                    out = started.wait(timeout=TIMEOUT * len(chunk)).stdout
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
    + " ".join(STATUS)
    + ' 2>/dev/null; printf "\\000%s %s\\000" "$PAW_STATUS_TOKEN" "$?"; done'
)
