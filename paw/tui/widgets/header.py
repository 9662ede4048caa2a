"""The one-line header: agent counts and the tmux connection."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from paw.tui.format import count_statuses
from paw.tui.widgets.static import QuietStatic

if TYPE_CHECKING:
    from paw.supervisor.model import Snapshot


class CountsHeader(QuietStatic):
    """``paw  ● tmux  running 3  waiting 1  idle 0  exited 0``."""

    FIXED_SIZE = True  # paw.tcss #counts: one line

    def show_snapshot(self, snapshot: Snapshot | None) -> None:
        """Summarise ``snapshot`` (None before the first sweep)."""
        self.show(render_header(snapshot))


def render_header(snapshot: Snapshot | None) -> Text:
    """The header line for ``snapshot``."""
    text = Text()
    text.append(" paw ", style="bold reverse")
    if snapshot is None:
        text.append("  ○ connecting to tmux…", style="dim")
        return text
    if snapshot.tmux_ok:
        text.append("  ● tmux", style="bold green")
    else:
        text.append("  ✖ tmux lost", style="bold red")
    for label, count in count_statuses(snapshot.agents).items():
        style = "bold yellow" if label == "waiting" and count else ""
        text.append(f"  {label} ")
        text.append(str(count), style=style or "bold")
    text.append(f"  prompts {len(snapshot.prompts)}", style="dim")
    return text
