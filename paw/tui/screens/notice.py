"""A dismissable notice: used when paw loses tmux."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class TmuxLostDialog(ModalScreen[None]):
    """Tell the human that tmux is gone and nothing can be sent until it is back."""

    DEFAULT_CSS = """
    TmuxLostDialog { align: center middle; }
    TmuxLostDialog > Vertical {
        width: 76; max-width: 95%; height: auto;
        border: thick $error; background: $surface; padding: 0 1;
    }
    TmuxLostDialog Label { text-style: bold; color: $error; padding: 0 0 1 0; }
    TmuxLostDialog Button { margin: 1 0 0 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_notice", "Close"),
        Binding("enter", "dismiss_notice", "Close", show=False),
    ]

    def __init__(self, error: str) -> None:
        super().__init__()
        self._error = error

    def compose(self) -> ComposeResult:
        """What happened and what paw does about it."""
        with Vertical():
            yield Label("paw lost its connection to tmux")
            yield Static(
                f"{self._error}\n\nNo keys can be sent until tmux is back. paw keeps sweeping "
                "and the header turns green when it reconnects. Your agents' work stays in "
                "their worktrees.",
                markup=False,
            )
            yield Button("OK (esc)", variant="primary", id="ok")

    def on_button_pressed(self) -> None:
        """Close."""
        self.dismiss(None)

    def action_dismiss_notice(self) -> None:
        """Close."""
        self.dismiss(None)
