"""The pending tool line of opencode's transcript (and its fork Kilo Code's): the call the live
permission box asks about, drawn last in the transcript right above the box.

Every element of the transcript hangs at ``HEAD_MARGIN`` columns (``$ <command>``, ``← Write
<path>``, ``→ Read <path>``, the turn's footer ``▣  Build · <model>``); the rows an element
wrapped onto, and a command's later lines, are further in, and a command's empty line is a
blank row among them. The pending element is the last one: between it and the box only blank
rows and the turn's footer. Nothing else on screen names the live call: a line of the same
look further up is an older call or a quote, and a copy inside a bordered block (the user's
message) is not at the margin.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from paw.core.detect.boxes import dedent

HEAD_MARGIN = 5
# The session's blocks hang on a border two columns in (the input box, the user's messages).
LIVE_BORDER = re.compile(r"^ {2}┃")
# The turn's footer under the transcript ("▣  Build · <model>"), between the pending tool line
# and the box.
TURN_FOOTER = re.compile(r"^\s*▣\s")
WRITE_LINE = re.compile(r"^\s*[←→]\s*Write\s+(?P<path>\S.*?)\s*$")
COMMAND_HEAD = "$ "
# A command's rows after its first hang under the command, past the "$ ".
COMMAND_MARGIN = HEAD_MARGIN + len(COMMAND_HEAD)


def _indent(row: str) -> int:
    return len(row) - len(row.lstrip())


def element_end(lines: Sequence[str], top: int) -> int:
    """Index after the transcript's last row above the box at row ``top``: blank rows and the
    turn's footer between them skipped."""
    index = top - 1
    while index >= 0 and not lines[index].strip():
        index -= 1
    if index >= 0 and TURN_FOOTER.match(lines[index]):
        index -= 1
        while index >= 0 and not lines[index].strip():
            index -= 1
    return index + 1


def element_head(lines: Sequence[str], end: int) -> int:
    """Index of the head row (at ``HEAD_MARGIN``) of the element whose last row is above
    ``end``, or -1 when it is not on screen: the rows above ``end`` reach the pane's top, a
    bordered block or a row left of the margin before a head."""
    index = end - 1
    while index >= 0:
        row = lines[index]
        if row.strip():
            if LIVE_BORDER.match(row) or _indent(row) < HEAD_MARGIN:
                return -1
            if _indent(row) == HEAD_MARGIN:
                return index
        index -= 1
    return -1


def pending_element(lines: Sequence[str], top: int) -> tuple[str, ...]:
    """The pending tool line above the box at row ``top`` (``$ <command>``, ``← Write
    <path>``), from its head row to its last row, blank rows inside kept; empty when its head
    is not on screen."""
    end = element_end(lines, top)
    head = element_head(lines, end)
    return () if head < 0 else tuple(lines[head:end])


def announced_write(pending: Sequence[str], path: str) -> bool:
    """The pending tool line says ``Write <path>`` (a new file) for the box's own ``path``: its
    rows joined the ways a wrap may have cut them (with nothing, at a ``/`` or ``-`` or inside
    a word, or at a blank) give the path exactly."""
    match = WRITE_LINE.match(pending[0]) if pending else None
    if match is None or any(not row.strip() for row in pending):
        return False
    pieces = [match["path"], *(row.strip() for row in pending[1:])]
    return re.fullmatch(" ?".join(re.escape(piece) for piece in pieces), path) is not None


def element_command(rows: Sequence[str], edge: int) -> str | None:
    """The command of a ``$ <command>`` element (its rows from the head down), one line a row:
    the ``$ `` taken off, the rows under it dedented to the command's column. None unless every
    row break is a line break: the next row's first word would have fit before column ``edge``
    (at most the transcript's right edge), so no wrap put it there."""
    if not rows or not rows[0].startswith(" " * HEAD_MARGIN + COMMAND_HEAD):
        return None
    if any(row.strip() and _indent(row) < COMMAND_MARGIN for row in rows[1:]):
        return None
    for row, below in pairwise(rows):
        if row.strip() and below.strip() and len(row.rstrip()) + 1 + len(below.split()[0]) > edge:
            return None
    first = " " * COMMAND_MARGIN + rows[0][COMMAND_MARGIN:]
    body = dedent([first, *rows[1:]])
    while body and not body[-1].strip():
        body.pop()
    return "\n".join(body) or None


def command_heads(lines: Sequence[str], end: int) -> list[int]:
    """Rows above ``end`` that start a ``$ <command>`` element."""
    prefix = " " * HEAD_MARGIN + COMMAND_HEAD
    return [i for i in range(end) if lines[i].startswith(prefix)]


def element_at(lines: Sequence[str], head: int, end: int) -> tuple[str, ...]:
    """The element from row ``head`` down to the row before the next head, bordered block or
    row left of the margin (at most to ``end``), trailing blank rows dropped."""
    index = head + 1
    while index < end:
        row = lines[index]
        if row.strip() and (LIVE_BORDER.match(row) or _indent(row) <= HEAD_MARGIN):
            break
        index += 1
    rows = list(lines[head:index])
    while rows and not rows[-1].strip():
        rows.pop()
    return tuple(rows)
