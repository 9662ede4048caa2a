"""Live preview of the selected agent's pane, with its colours."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class PanePreview(Static):
    """The visible screen of one agent pane (``capture-pane -e`` rendered with Rich).

    Agents draw their prompts at the bottom, so the preview shows the last lines that fit.
    A capture whose visible tail is the one already shown is not parsed or laid out again.
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's own name
        super().__init__(id=id)
        self._agent: str | None = None
        self._lines: list[str] = []
        self._shown: tuple[str | None, str] | None = None

    def show_capture(self, agent: str | None, ansi: str) -> None:
        """Show ``ansi`` (a pane capture with escape sequences) for ``agent``."""
        self._agent = agent
        self.border_title = f"pane: {agent}" if agent else "pane"
        self._lines = ansi.rstrip().splitlines()
        self._draw()

    def on_resize(self) -> None:
        """Re-cut the tail to the new height."""
        self._draw()

    def _draw(self) -> None:
        if self._agent is None:
            tail = ""
        else:
            height = max(self.size.height, 1)
            tail = "\n".join(self._lines[-height:])
        if (self._agent, tail) == self._shown:
            return
        self._shown = (self._agent, tail)
        if self._agent is None:
            self.update(Text("Select an agent to see its pane.", style="dim"))
        else:
            self.update(Text.from_ansi(tail, no_wrap=True, end=""))
