"""Small forms: send a message to an agent, spawn a new agent."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

_FORM_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 80; max-width: 95%; height: auto;
    border: thick $primary; background: $surface; padding: 0 1;
}}
{name} Label {{ padding: 1 0 0 0; }}
{name} .form-title {{ text-style: bold; padding: 0; }}
{name} Horizontal {{ height: auto; align-horizontal: right; padding: 1 0 0 0; }}
{name} Button {{ margin-left: 2; }}
"""


class MessageDialog(ModalScreen[str | None]):
    """Type a message for an agent; dismisses with the text or None."""

    DEFAULT_CSS = _FORM_CSS.format(name="MessageDialog")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, agent: str) -> None:
        super().__init__()
        self._agent = agent

    def compose(self) -> ComposeResult:
        """A label, one input and buttons."""
        with Vertical():
            yield Label(f"Message to {self._agent}", classes="form-title")
            yield Input(placeholder="typed into the agent's input, then Enter", id="message")
            with Horizontal():
                yield Button("Send (enter)", id="send", variant="primary")
                yield Button("Cancel (esc)", id="cancel")

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self._send()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Send or cancel."""
        if event.button.id == "send":
            self._send()
        else:
            self.dismiss(None)

    def _send(self) -> None:
        text = self.query_one(Input).value
        if text.strip():
            self.dismiss(text)

    def action_cancel(self) -> None:
        """Close without sending."""
        self.dismiss(None)


@dataclass(frozen=True, slots=True)
class SpawnRequest:
    """What the spawn form asks the supervisor for."""

    name: str
    kind: str
    task: str | None


class SpawnDialog(ModalScreen[SpawnRequest | None]):
    """Spawn an agent: name, kind, task."""

    DEFAULT_CSS = _FORM_CSS.format(name="SpawnDialog")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, kinds: tuple[str, ...]) -> None:
        super().__init__()
        self._kinds = kinds

    def compose(self) -> ComposeResult:
        """Name, kind, task, buttons."""
        with Vertical():
            yield Label("Spawn an agent", classes="form-title")
            yield Label("Name (also the branch and worktree name)")
            yield Input(placeholder="e.g. fix-login", id="spawn-name")
            yield Label("Kind")
            yield Select(
                [(k, k) for k in self._kinds], value=self._kinds[0], allow_blank=False, id="kind"
            )
            yield Label("Task (optional: the first message the agent gets)")
            yield Input(placeholder="what should it do?", id="spawn-task")
            with Horizontal():
                yield Button("Spawn", id="spawn", variant="primary")
                yield Button("Cancel (esc)", id="cancel")

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self._spawn()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Spawn or cancel."""
        if event.button.id == "spawn":
            self._spawn()
        else:
            self.dismiss(None)

    def _spawn(self) -> None:
        name = self.query_one("#spawn-name", Input).value.strip()
        if not name:
            self.notify("An agent needs a name.", severity="warning")
            return
        kind = str(self.query_one("#kind", Select).value)
        task = self.query_one("#spawn-task", Input).value.strip() or None
        self.dismiss(SpawnRequest(name=name, kind=kind, task=task))

    def action_cancel(self) -> None:
        """Close without spawning."""
        self.dismiss(None)
