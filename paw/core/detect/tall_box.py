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

from paw.core.detect.boxes import dedent, unwrap

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
