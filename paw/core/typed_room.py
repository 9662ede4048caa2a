"""How much typed text an agent's input shows whole, and what of a long text fits there (pure).

paw presses Enter on typed text only once it reads the text back whole from the agent's input
(:mod:`paw.supervisor.keyboard`). An input shows a bounded number of rows: past them it scrolls
(the start of the text is off screen, so it never reads back whole) and paw's own readers give
up past :data:`~paw.core.detect.inputs.MAX_INPUT_ROWS` rows. Text paw composes itself (a failed
check's follow-up) is therefore sized to fit: each agent kind's spec states its
:class:`InputRoom` (measured), :func:`fit_at` turns it into a :class:`Fit` at a pane's size, and
:func:`wrapped_rows` counts the rows a text takes there, as the agent's word wrap draws it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

# The text rows paw reads back from an input it has not measured: its readers' limit
# (paw.core.detect.inputs.MAX_INPUT_ROWS, 12; not imported: agent specs import this module and
# must stay cheap), less the two padding rows a bordered box may draw around the text.
READ_ROWS = 10


@dataclass(frozen=True, slots=True)
class InputRoom:
    """How many rows of typed text an agent's input shows whole and paw reads back, and how
    many columns the input's frame takes off the pane's width (measured per agent kind)."""

    rows: int = READ_ROWS
    """Rows of text shown at any pane height (the input's least height)."""
    chrome: int = 10
    """Columns of the pane's width the input's border, padding and margins take."""
    per_height: int = 0
    """The input grows to ``pane height // per_height`` rows when that is more (0: it does
    not)."""
    max_rows: int = READ_ROWS
    """Rows paw's reader of this input reads back at most."""


DEFAULT_ROOM = InputRoom()  # an agent paw has not measured: its readers' limit


@dataclass(frozen=True, slots=True)
class Fit:
    """The room for typed text in one pane: text columns per row, and rows."""

    width: int
    rows: int


def fit_at(room: InputRoom, width: int, height: int) -> Fit:
    """The room for typed text in a pane of ``width`` x ``height`` cells."""
    grown = height // room.per_height if room.per_height else 0
    rows = min(room.max_rows, max(room.rows, grown))
    return Fit(width=max(1, width - room.chrome), rows=max(1, rows))


def cell_width(text: str) -> int:
    """Terminal cells ``text`` takes: wide (East Asian) characters two, combining marks none."""
    cells = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        cells += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return cells


def wrapped_rows(text: str, width: int) -> int:
    """Rows ``text`` takes in an input ``width`` cells wide that wraps at spaces (a word
    longer than a row is broken across rows), with one cell more for the cursor after it:
    greedy, as the agents' word wrap draws it; a wrap that may break elsewhere too never takes
    more rows."""
    width = max(1, width)
    rows, used = 1, 0
    for word in (text + " ").split(" "):
        cells = cell_width(word)
        need = cells if used == 0 else used + 1 + cells
        if need <= width:
            used = need
            continue
        if used:
            rows, used = rows + 1, 0
        while cells > width:
            rows, cells = rows + 1, cells - width
        used = cells
    return rows


def fits(text: str, fit: Fit) -> bool:
    """``text`` shows whole in the room ``fit`` (with the cursor after it)."""
    return wrapped_rows(text, fit.width) <= fit.rows
