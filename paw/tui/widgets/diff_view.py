"""The selected agent's worktree diff, coloured."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from paw.core.printable import printable
from paw.tui.format import render_diff


class DiffView(Static):
    """``git diff`` of an agent's worktree against its base."""

    _shown: tuple[str | None, str] | None = None

    def show_diff(self, agent: str | None, diff: str) -> None:
        """Show ``diff`` for ``agent`` (nothing to do when it is already shown)."""
        if (agent, diff) == self._shown:
            return
        self._shown = (agent, diff)
        self.border_title = f"diff: {agent}" if agent else "diff"
        if agent is None:
            self.update(Text("Select an agent to see its diff.", style="dim"))
        elif not diff.strip():
            self.update(Text("No changes in this worktree.", style="dim"))
        else:
            self.update(render_diff(printable(diff)))  # file text an agent wrote: escaped
