"""The selected agent's details on the page: its recent pane text and its diff stat. Pure.

The pane text comes from ``capture-pane -e``: tmux's own colour sequences (SGR) and hyperlinks
are dropped; everything else stays as the pane drew it and is made inert when rendered (any
other ESC, control, bidi and zero-width character shown as a visible escape).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PANE_LINES = 40
_TMUX_STYLE = re.compile(r"\x1b\[[0-9;:]*m|\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\)")


@dataclass(frozen=True, slots=True)
class FileStat:
    """One file of a diff: lines added and removed (binary: both 0, ``binary`` set)."""

    path: str
    added: int
    removed: int
    binary: bool = False


def pane_tail(screen: str, lines: int = PANE_LINES) -> str:
    """The last ``lines`` non-blank-ended lines of a ``capture-pane -e`` screen, without
    tmux's colours (the text itself untouched: render it inert)."""
    rows = _TMUX_STYLE.sub("", screen).split("\n")
    while rows and not rows[-1].strip():
        rows.pop()
    return "\n".join(row.rstrip() for row in rows[-lines:])


def diff_stat(diff: str) -> tuple[FileStat, ...]:
    """Per file, lines added and removed in a ``git diff`` (the order git printed)."""
    files: list[FileStat] = []
    path, added, removed, binary = "", 0, 0, False
    in_hunk = False

    def close() -> None:
        if path:
            files.append(FileStat(path, added, removed, binary))

    for line in diff.split("\n"):
        if line.startswith("diff --git "):
            close()
            path, added, removed, binary, in_hunk = _path(line), 0, 0, False, False
        elif line.startswith("@@"):
            in_hunk = True
        elif not in_hunk:
            binary = binary or (line.startswith("Binary files ") and line.endswith(" differ"))
        elif line.startswith("+"):
            added += 1
        elif line.startswith("-"):
            removed += 1
    close()
    return tuple(files)


def _path(header: str) -> str:
    """The file a ``diff --git a/X b/X`` header names (its ``b/`` side)."""
    rest = header.removeprefix("diff --git ")
    half = rest.find(" b/")
    return rest[half + 3 :] if half >= 0 else rest
