"""A yes/no dialog that shows details before anything is done (frogmouth ``YesNoDialog``)."""

from __future__ import annotations

from functools import cache
from typing import ClassVar, get_args

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from paw.tui.widgets.footer import KeyFooter

# Rows of the dialog around its scrolling body: borders, title and its gap, the buttons with
# their gap, the footer, one row of the screen above and below.
_FRAME_ROWS = 9


class ConfirmDialog(ModalScreen[bool]):
    """Ask before acting; dismisses with True only on an explicit yes.

    The answer keys are said once, on the buttons and in the dialog's own footer; the body
    scrolls, so the buttons stay on screen at any terminal height.
    """

    DEFAULT_CSS = """
    ConfirmDialog { align: center middle; }
    ConfirmDialog > Vertical {
        width: 90; max-width: 95%; height: auto;
        border: thick $warning; background: $surface; padding: 0 1;
    }
    ConfirmDialog #confirm-title { text-style: bold; width: 1fr; padding: 0 0 1 0; }
    ConfirmDialog #confirm-body { height: auto; max-height: 24; }
    ConfirmDialog Horizontal { height: auto; align-horizontal: right; padding: 1 0 0 0; }
    ConfirmDialog Button { margin-left: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "answer(False)", "Cancel", show=False),
    ]

    def __init__(self, title: str, body: str | Text, *, yes_label: str = "Yes") -> None:
        super().__init__()
        self._title = title
        self._body = body
        self._yes_label = yes_label
        # The footer names the action ("y Approve", "y Stop"), then "n Cancel".
        self._bindings.bind("y", "answer(True)", yes_label)
        self._bindings.bind("n", "answer(False)", "Cancel")

    def compose(self) -> ComposeResult:
        """Title, scrollable details, the two answers, the keys."""
        with Vertical():
            yield Label(self._title, id="confirm-title")
            with VerticalScroll(id="confirm-body"):
                yield Static(self._body, markup=False)
            with Horizontal():
                yield Button(f"{self._yes_label} (y)", id="yes", variant="warning", compact=True)
                yield Button("Cancel (n, esc)", id="no", variant="primary", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        """Focus the safe choice."""
        self.query_one("#no", Button).focus()

    def on_resize(self) -> None:
        """Let the body shrink so that the buttons stay visible in a short terminal."""
        body = self.query_one("#confirm-body")
        body.styles.max_height = max(3, min(24, self.size.height - _FRAME_ROWS))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Yes dismisses True; anything else False."""
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        """Dismiss with ``answer``."""
        self.dismiss(answer)


@cache
def _reply_lines() -> frozenset[str]:
    """The closing line of git confirmations in every language ("Reply YES to confirm.")."""
    return frozenset(text.splitlines()[-1] for text in _samples(sensitive=False))


def _samples(*, sensitive: bool) -> list[str]:
    """A git confirmation in every language (imported when a dialog needs it, not at start)."""
    from paw.core.guard.confirm import ConfirmationDetails, Language, format_confirmation_prompt

    files = ("f",) if sensitive else ()
    sample = ConfirmationDetails(action="commit", repo_path="repo", sensitive_files=files)
    return [
        format_confirmation_prompt(sample, language, format="plain")
        for language in get_args(Language)
    ]


@cache
def warning_starts() -> tuple[str, ...]:
    """How git confirmations start a warning line, in every language ("WARNING:")."""
    return tuple(text.split()[0] for text in _samples(sensitive=True))


def without_reply_line(text: str) -> str:
    """``text`` without a closing "Reply YES to confirm.": in a dialog the answer is a key.

    >>> without_reply_line("Confirm push?\\n\\nReply YES to confirm.")
    'Confirm push?'
    """
    lines = text.rstrip().splitlines()
    if lines and lines[-1].strip() in _reply_lines():
        lines.pop()
    return "\n".join(lines).rstrip()
