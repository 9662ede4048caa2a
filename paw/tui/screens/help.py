"""The help screen: every key of the main screen and of the dialogs."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from paw.tui.screens.keys import MAIN_BINDINGS
from paw.tui.widgets.footer import KeyFooter

# Keys that are not main-screen bindings but that a person needs to know.
OTHER_KEYS: tuple[tuple[str, str], ...] = (
    ("tab / shift+tab", "Move between the agents table and the prompt queue"),
    ("up / down", "Select an agent or a prompt"),
    ("escape", "Clear the filter; close a dialog without acting"),
    ("y / n", "In a confirm dialog: approve / cancel"),
    ("enter", "In the block dialog: override with the typed reason"),
    ("ctrl+c", "Quit"),
)


def render_key_table() -> Table:
    """Every key with what it does."""
    table = Table(box=None, show_header=True, header_style="bold", expand=True)
    table.add_column("Key", style="bold cyan", no_wrap=True)
    table.add_column("What it does")
    seen: set[str] = set()
    for binding in MAIN_BINDINGS:
        if isinstance(binding, Binding) and binding.key not in seen:  # `v` has three labels
            seen.add(binding.key)
            key = binding.key_display or binding.key
            table.add_row(key, binding.tooltip or binding.description)
    for key, what in OTHER_KEYS:
        table.add_row(key, what)
    return table


class HelpScreen(ModalScreen[None]):
    """A modal list of every key."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 96; max-width: 95%; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    HelpScreen > Vertical { border-title-style: bold; }
    HelpScreen VerticalScroll { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]

    def compose(self) -> ComposeResult:
        """A title and the key table."""
        # The title sits in the border and no text wraps: every row fits 80x24 (the last one
        # too: tests/tui/test_newcomer.py)
        with Vertical() as box:
            box.border_title = "paw keys (esc to close)"
            with VerticalScroll():
                yield Static(render_key_table())
        yield KeyFooter()

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
