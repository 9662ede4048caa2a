"""A yes/no dialog that shows details before anything is done (frogmouth ``YesNoDialog``)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class ConfirmDialog(ModalScreen[bool]):
    """Ask before acting; dismisses with True only on an explicit yes."""

    DEFAULT_CSS = """
    ConfirmDialog { align: center middle; }
    ConfirmDialog > Vertical {
        width: 90; max-width: 95%; height: auto; max-height: 90%;
        border: thick $warning; background: $surface; padding: 0 1;
    }
    ConfirmDialog #confirm-title { text-style: bold; width: 1fr; padding: 0 0 1 0; }
    ConfirmDialog #confirm-body { height: auto; max-height: 24; }
    ConfirmDialog Horizontal { height: auto; align-horizontal: right; padding: 1 0 0 0; }
    ConfirmDialog Button { margin-left: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "Cancel"),
    ]

    def __init__(self, title: str, body: str | Text, *, yes_label: str = "Yes") -> None:
        super().__init__()
        self._title = title
        self._body = body
        self._yes_label = yes_label

    def compose(self) -> ComposeResult:
        """Title, scrollable details, yes/no buttons."""
        with Vertical():
            yield Label(self._title, id="confirm-title")
            with VerticalScroll(id="confirm-body"):
                yield Static(self._body, markup=False)
            with Horizontal():
                yield Button(f"{self._yes_label} (y)", id="yes", variant="warning")
                yield Button("Cancel (n)", id="no", variant="primary")

    def on_mount(self) -> None:
        """Focus the safe choice."""
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Yes dismisses True; anything else False."""
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        """Dismiss with ``answer``."""
        self.dismiss(answer)
