"""opencode's permission box and its fork Kilo Code's: a command it may have cut, read whole.

Both draw the box at most ``BOX_MAX_ROWS`` rows tall (their ``maxHeight``: opencode 1.18.33,
Kilo Code 7.7.7), padding rows included. The kind line and the choices keep their rows and the
body shrinks: a longer command loses its last rows without a mark (opencode at 80x24 draws 7 of
a 20-line command's lines). A box that tall cannot be told from one whose command fits exactly,
so its command is incomplete unless the transcript above the box shows the pending
``$ <command>`` whole. A command's empty line draws a blank row inside the box: only the box's
padding follows its last row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from paw.core.detect.boxes import dedent, unwrap
from paw.core.models import PromptKind

BOX_MAX_ROWS = 15
# The session's blocks hang on a border two columns in; a copy indented under an answer is
# further right.
LIVE_BORDER = re.compile(r"^ {2}┃")
# The turn's footer under the transcript ("▣  Build · <model>"), between the pending tool line
# and the box.
TURN_FOOTER = re.compile(r"^\s*▣\s")
_MAX_BLOCK = 45
_BOX_MARGIN = 6  # the border and the indent before the command: its rows wrap at width - 6


def box_command(body: list[str], width: int, note: re.Pattern[str] | None = None) -> str | None:
    """The command after ``$ ``: its rows down to the body's last non-blank row, blank rows
    inside it kept (a command's empty line draws one; only the box's padding follows it). A
    last row matching ``note`` (a box's own sentence under the command) is not the command's."""
    content = dedent(body)
    start = next((i for i, line in enumerate(content) if line.startswith("$ ")), -1)
    if start < 0:
        return None
    rows = [content[start][2:], *content[start + 1 :]]
    while rows and not rows[-1].strip():
        rows.pop()
    if note is not None and len(rows) > 1 and note.match(rows[-1].strip()):
        rows.pop()
        while rows and not rows[-1].strip():
            rows.pop()
    return unwrap(rows, width - _BOX_MARGIN) or None


def box_top(lines: Sequence[str]) -> int:
    """Index of the first row of the bordered box at the bottom of the screen."""
    top = len(lines)
    while top > 0 and len(lines) - top < _MAX_BLOCK and LIVE_BORDER.match(lines[top - 1]):
        top -= 1
    return top


def at_full_height(lines: Sequence[str], top: int) -> bool:
    """The box may have lost rows: it is as tall as the agent draws it (``BOX_MAX_ROWS``), or
    as tall as the pane lets it be (nothing but blank rows above it, or its bottom padding row
    below the pane)."""
    return (
        len(lines) - top >= BOX_MAX_ROWS
        or not any(line.strip() for line in lines[:top])
        or lines[-1].strip() != "┃"
    )


def pending_tool(lines: Sequence[str], top: int) -> tuple[str, ...]:
    """The transcript's last tool line above the box at row ``top`` (the call the box asks
    about: ``$ <command>``, ``← Write <path>``) with the rows it wrapped onto, indented under
    it; blank rows and the turn's footer between it and the box are skipped. Empty when the
    block's last row at its least indentation is not on screen."""
    index = top - 1
    while index >= 0 and not lines[index].strip():
        index -= 1
    if index >= 0 and TURN_FOOTER.match(lines[index]):
        index -= 1
        while index >= 0 and not lines[index].strip():
            index -= 1
    end = index + 1
    while index >= 0 and lines[index].strip() and not LIVE_BORDER.match(lines[index]):
        index -= 1
    rows = tuple(lines[index + 1 : end])
    if not rows:
        return ()
    indents = [len(row) - len(row.lstrip()) for row in rows]
    head = max(i for i, indent in enumerate(indents) if indent == min(indents))
    return rows[head:]


def _bare(text: str) -> str:
    return "".join(text.split())


def whole_above(pending: tuple[str, ...], command: str) -> bool:
    """The transcript shows the pending command from its ``$ `` row down to its end, and it
    holds nothing the box's command lacks (compared without blanks: the two wrap at other
    widths)."""
    if not pending or not pending[0].lstrip().startswith("$ "):
        return False
    return _bare("".join(pending))[1:] == _bare(command)


def may_be_cut(
    lines: Sequence[str],
    top: int,
    kind: PromptKind,
    subject: str | None,
    kind_rest: str | None,
) -> bool:
    """The box at row ``top`` may have cut its subject's last rows: it is at its full height
    and a command is not shown whole in the transcript, or a fetch's URL field is not the one
    its kind line names (``kind_rest``: the kind line after its label; the kind line keeps its
    rows)."""
    if not subject or not at_full_height(lines, top):
        return False
    if kind is PromptKind.SHELL:
        return not whole_above(pending_tool(lines, top), subject)
    if kind is PromptKind.FETCH:
        return kind_rest is None or _bare(kind_rest) != _bare(subject)
    return False
