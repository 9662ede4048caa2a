"""Live preview of the selected agent's pane, with its colours."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from paw.core.printable import printable_ansi

if TYPE_CHECKING:
    from rich.console import Console


class PanePreview(Static):
    """The visible screen of one agent pane (``capture-pane -e`` rendered with Rich).

    Agents draw their prompts at the bottom, so the preview shows the last lines that fit.
    The preview is usually narrower than the agent's pane: long lines wrap, so no text is
    cut, while lines that run past the edge with only borders and blanks are cut instead
    (a box's right edge or a full-width rule would otherwise fill rows of their own).
    A capture already shown at this size is not parsed or laid out again.
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's own name
        super().__init__(id=id)
        self._agent: str | None = None
        self._ansi = ""
        self._shown: tuple[str | None, str, int, int] | None = None

    def show_capture(self, agent: str | None, ansi: str) -> None:
        """Show ``ansi`` (a pane capture with escape sequences) for ``agent``."""
        self._agent = agent
        self.border_title = f"pane: {agent}" if agent else "pane"
        self._ansi = ansi.rstrip()
        self._draw()

    def on_resize(self) -> None:
        """Re-wrap and re-cut the tail to the new size."""
        self._draw()

    def on_show(self) -> None:
        """Shown again (the right panel below 100 columns): draw at the size it has now."""
        self._draw()

    def _draw(self) -> None:
        width, height = self.size
        if not width or not height:  # hidden: nothing to fit yet
            return
        key = (self._agent, self._ansi, width, height)
        if key == self._shown:
            return
        self._shown = key
        # The preview's size is its panel's (paw.tcss: 1fr both ways) and the text is cut to
        # it: no layout pass of the whole screen per redraw of a busy agent's pane.
        if self._agent is None:
            self.update(Text("Select an agent to see its pane.", style="dim"), layout=False)
            return
        shown = Text.from_ansi(printable_ansi(self._ansi), end="")  # the pane's text escaped
        rows = tail_rows(shown, width, height, self.app.console)
        self.update(Text("\n", no_wrap=True, end="").join(rows), layout=False)


def _decoration(char: str) -> bool:
    """Blank, or a box-drawing or block character: what frames text, not text."""
    return char.isspace() or "\u2500" <= char <= "\u259f"


def fit_line(line: Text, width: int) -> Text:
    """``line`` made to fit ``width`` cells where that loses no text: trailing blanks go, runs
    of blanks shrink to two (columns laid out for a wider screen), then borders and blanks past
    the edge are cut. What still does not fit wraps.

    >>> fit_line(Text("│ ok" + " " * 10 + "│"), 7).plain
    '│ ok  │'
    >>> fit_line(Text("│ a long line"), 6).plain
    '│ a long line'
    """
    line = line.copy()
    line.rstrip()
    if cell_len(line.plain) <= width:
        return line
    line = _shrink_blanks(line)
    if cell_len(line.plain) <= width:
        return line
    used = 0
    for index, char in enumerate(line.plain):
        used += cell_len(char)
        if used > width:
            if all(_decoration(c) for c in line.plain[index:]):
                line.truncate(width, overflow="crop")
            return line
    return line


_BLANKS = re.compile(r" {3,}")


def _shrink_blanks(line: Text) -> Text:
    """``line`` with every run of three or more blanks cut to two (styles kept)."""
    pieces: list[Text] = []
    start = 0
    for run in _BLANKS.finditer(line.plain):
        pieces.append(line[start : run.start() + 2])
        start = run.end()
    pieces.append(line[start:])
    return Text("").join(pieces)


def tail_rows(text: Text, width: int, height: int, console: Console) -> list[Text]:
    """The last ``height`` screen rows of ``text`` shown ``width`` cells wide."""
    rows: list[Text] = []
    for line in reversed(text.split("\n", allow_blank=True)):
        wrapped = fit_line(line, width).wrap(console, width, overflow="fold")
        rows[:0] = list(wrapped) or [Text()]
        if len(rows) >= height:
            break
    return rows[-height:]
