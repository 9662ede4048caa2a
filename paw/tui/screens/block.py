"""The dialog shown for a blocked prompt: why it is blocked, and an override with a reason."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from paw.core.models import Verdict
from paw.core.printable import printable
from paw.tui.widgets.footer import KeyFooter

MIN_REASON = 4  # characters; "ok" is not a reason


class BlockDialog(ModalScreen[str | None]):
    """Explain a block; dismiss with the typed override reason, or None to keep it blocked."""

    DEFAULT_CSS = """
    BlockDialog { align: center middle; }
    BlockDialog > Vertical {
        width: 90; max-width: 95%; height: auto; max-height: 90%;
        border: thick $error; background: $surface; padding: 0 1;
    }
    BlockDialog #block-title { text-style: bold; color: $error; padding: 0 0 1 0; }
    BlockDialog #block-why { height: auto; max-height: 16; }
    BlockDialog Input { margin: 1 0 0 0; }
    BlockDialog Horizontal { height: auto; align-horizontal: right; padding: 1 0 0 0; }
    BlockDialog Button { margin-left: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Keep blocked")]

    def __init__(self, agent: str, subject: str, verdict: Verdict) -> None:
        super().__init__()
        self._agent = agent
        self._subject = subject
        self._verdict = verdict

    def compose(self) -> ComposeResult:
        """Explanation, reason input, buttons."""
        with Vertical():
            yield Label(f"Blocked by the guard: {self._agent}", id="block-title")
            yield Static(self._explanation(), id="block-why", markup=False)
            yield Input(
                placeholder="reason for overriding (recorded in the audit log)",
                id="override-reason",
            )
            with Horizontal():
                yield Button(
                    "Override and approve (enter)",
                    id="override",
                    variant="error",
                    disabled=True,
                    compact=True,
                )
                yield Button("Keep blocked (esc)", id="cancel", variant="primary", compact=True)
        yield KeyFooter()

    def _explanation(self) -> Text:
        text = Text()
        text.append(printable(self._subject) + "\n\n", style="bold")
        for reason in self._verdict.reasons:
            text.append(f"• {printable(reason)}\n")
        rules = ", ".join(self._verdict.rules)
        if rules:
            text.append(f"rules: {rules}\n", style="dim")
        text.append(
            "\nA keypress cannot approve this. To override, type why and press Enter; "
            "the reason is written to the audit log before any key is sent."
        )
        return text

    def on_mount(self) -> None:
        """Focus the reason input."""
        self.query_one(Input).focus()

    @on(Input.Changed, "#override-reason")
    def _reason_changed(self, event: Input.Changed) -> None:
        self.query_one("#override", Button).disabled = len(event.value.strip()) < MIN_REASON

    @on(Input.Submitted, "#override-reason")
    def _reason_submitted(self, event: Input.Submitted) -> None:
        self._submit(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Override submits the reason; cancel keeps the block."""
        if event.button.id == "override":
            self._submit(self.query_one(Input).value)
        else:
            self.dismiss(None)

    def _submit(self, value: str) -> None:
        reason = value.strip()
        if len(reason) < MIN_REASON:
            self.notify("Type a reason to override the block.", severity="warning")
            return
        self.dismiss(reason)

    def action_cancel(self) -> None:
        """Keep the prompt blocked."""
        self.dismiss(None)
