"""opencode's permission box and its fork Kilo Code's: a command it may have cut, read whole.

Both draw the box at most ``BOX_MAX_ROWS`` rows tall (their ``maxHeight``: opencode 1.18.33,
Kilo Code 7.7.7), padding rows included. The kind line and the choices keep their rows and the
body shrinks: a longer command loses its last rows without a mark (opencode at 80x24 draws 7 of
a 20-line command's lines). A box that tall cannot be told from one whose command fits exactly,
so its command is incomplete unless the transcript above the box shows the pending
``$ <command>`` whole (pending_line.py): the same as the box, or longer and beginning with all
the box shows, which is then the subject, said in a note. A command's empty line draws a blank
row inside the box: only the box's padding follows its last row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from paw.core.detect.boxes import dedent, unwrap
from paw.core.detect.pending_line import (
    command_heads,
    element_at,
    element_command,
    element_end,
    element_head,
    pending_element,
)
from paw.core.models import PromptKind

BOX_MAX_ROWS = 15
# The session's blocks hang on a border two columns in; a copy indented under an answer is
# further right.
LIVE_BORDER = re.compile(r"^ {2}┃")
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
        return not whole_above(pending_element(lines, top), subject)
    if kind is PromptKind.FETCH:
        return kind_rest is None or _bare(kind_rest) != _bare(subject)
    return False


FROM_TRANSCRIPT = (
    "command read whole from the transcript's pending tool line right above the box: the box "
    "cut it, and the rows it shows begin that same command"
)


def begins(shown: str, whole: str) -> bool:
    """``whole``'s first lines are ``shown``'s, each the same. (A box that ends inside a line
    it wrapped does not prove its call: that line's rest is unknown.)"""
    parts = shown.split("\n")
    return whole.split("\n")[: len(parts)] == parts


def transcript_command(lines: Sequence[str], top: int, shown: str) -> str | None:
    """The whole command of the box at row ``top`` whose rows show ``shown`` (cut), read from
    the pending tool line above it; None unless that is provably the same call.

    Proof: the line is the transcript's last element, its head (``$ ``) on screen with only
    blank rows and the turn's footer between its last row and the box; its command begins
    with everything the box shows and is longer; and no other ``$ <command>`` on screen above
    it begins so too (two calls of one beginning: which one the box asks about is not known).
    """
    end = element_end(lines, top)
    head = element_head(lines, end)
    if head < 0:
        return None
    edge = transcript_edge(lines, top)
    whole = element_command(lines[head:end], edge)
    if whole is None or whole == shown or not begins(shown, whole):
        return None
    for other in command_heads(lines, head):
        command = element_command(element_at(lines, other, head), edge)
        if command is not None and begins(shown, command):
            return None
    return whole


# The choices row carries its key hints at its right end ("… enter confirm"), five columns short
# of the session's right edge; the transcript's rows reach to two columns short of it (Kilo Code
# wrapped a path there at 64 columns), counted here as four.
CHOICES_HINT_END = "enter confirm"
_HINT_MARGIN = 5
_TRANSCRIPT_MARGIN = 4


def transcript_edge(lines: Sequence[str], top: int) -> int:
    """A column the transcript's rows may reach (at most its right edge), from the box at row
    ``top``: no row of the box is past the session's right edge, and a choices row with its key
    hints at its end ends five columns short of it."""
    box = lines[top:]
    edge = max(map(len, box), default=0)
    for row in box:
        if "Allow once" in row and row.endswith(CHOICES_HINT_END):
            edge = max(edge, len(row) + _HINT_MARGIN)
    return edge - _TRANSCRIPT_MARGIN


def whole_subject(
    lines: Sequence[str],
    top: int,
    read: tuple[PromptKind, str | None, str | None],
    cut_note: str,
) -> tuple[str | None, tuple[str, ...]]:
    """The subject of the box at row ``top`` and the notes on it, from what the box shows
    (``read``: its kind, subject, and kind line after its label): a command the box may have
    cut is read whole from the pending tool line above it when that is provably the same call
    (said in a note), else marked with ``cut_note``."""
    kind, subject, rest = read
    if not may_be_cut(lines, top, kind, subject, rest):
        return subject, ()
    if kind is PromptKind.SHELL and subject:
        whole = transcript_command(lines, top, subject)
        if whole is not None:
            return whole, (FROM_TRANSCRIPT,)
    return subject, (cut_note,)
